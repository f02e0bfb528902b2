//! The type table of a message.
//!
//! The table must be byte-identical to candid's, so this follows its algorithm:
//! entries are numbered in pre-order (an entry's index is taken before its children
//! are visited), two structurally equal types share an entry, and a `Knot` is written
//! as the index of the type it stands for. The table depends only on the list of
//! argument types (candid computes the types afresh for every message), so
//! `cached_header` computes it once per list of Rust argument types and reuses the
//! bytes afterwards.

use crate::error::{Error, Result};
use crate::fasthash::FastMap;
use crate::types::internal::{env_clear, find_type};
use crate::types::walk::{StackMark, MAX_WALK_STACK, STACK_CHECK_EVERY};
use crate::types::{is_primitive, Function, Type, TypeEnv, TypeId, TypeInner};
use crate::wire::{leb, opcode};
use std::cell::RefCell;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Builds the type table and the argument type list.
#[derive(Default)]
pub struct TypeSerialize {
    table: Vec<Vec<u8>>,
    /// Entry of each type, by structure: two equal types share one entry.
    index: BTreeMap<Type, i64>,
    /// Entry of each type already looked up, by address (each key kept alive by its
    /// `Type`, so an address is never reused while it is here). A Rust type's
    /// `ty()` is memoized, so a type used in many places is the same `Rc` each time
    /// and is found here without a structural comparison, which compares whole
    /// subtrees and hashes field names on the way.
    by_ptr: FastMap<*const TypeInner, (Type, i64)>,
    env: TypeEnv,
    args: Vec<Type>,
    /// What [`serialize`](Self::serialize) wrote, for candid's two-step interface.
    result: Vec<u8>,
}

/// One argument type's walk: where the stack was when it began, and the entries
/// built since (the stack is measured every few of them). The walk recurses once
/// per level of the type, which a caller of `to_bytes_with_types` or
/// `value_arg_with_type` chooses, so it stops with an error past a stack budget:
/// the stack it has used, not what is left, as each level looks its type up by
/// structure, which costs the depth below it, and a large stack should not let a
/// hostile type run as deep as it fits.
struct Walk {
    stack: StackMark,
    built: usize,
}

impl TypeSerialize {
    /// A builder with an empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one argument type.
    pub fn push_type(&mut self, t: &Type) -> Result<()> {
        self.args.push(t.clone());
        let mut walk = Walk {
            stack: StackMark::here(),
            built: 0,
        };
        self.build_type(t, &mut walk)
    }

    /// Makes the definitions of `env` available to `Var` types.
    pub fn merge_env(&mut self, env: &TypeEnv) -> Result<()> {
        self.env.merge(env)?;
        Ok(())
    }

    /// The entry of `t`, if it has one.
    #[inline(always)]
    fn lookup(&self, t: &Type) -> Option<i64> {
        match self.by_ptr.get(&Rc::as_ptr(&t.0)) {
            Some((_, idx)) => Some(*idx),
            None => self.index.get(t).copied(),
        }
    }

    fn build_type(&mut self, t: &Type, walk: &mut Walk) -> Result<()> {
        // A primitive never has an entry (a `Var` naming one is resolved below).
        if is_primitive(t) || self.by_ptr.contains_key(&Rc::as_ptr(&t.0)) {
            return Ok(());
        }
        // One search of the index both finds an equal type and keeps the place a
        // new entry goes (a structural comparison costs the depth of the types).
        let vacant = match self.index.entry(t.clone()) {
            Entry::Occupied(found) => {
                let idx = *found.get();
                self.by_ptr.insert(Rc::as_ptr(&t.0), (t.clone(), idx));
                return Ok(());
            }
            Entry::Vacant(vacant) => vacant,
        };
        walk.built += 1;
        if walk.built % STACK_CHECK_EVERY == 0 && walk.stack.used_more_than(MAX_WALK_STACK) {
            return Err(Error::msg("type nests too deeply to encode"));
        }
        let actual = match t.as_ref() {
            TypeInner::Var(id) => self.env.rec_find_type(id)?.clone(),
            _ => t.clone(),
        };
        if is_primitive(&actual) {
            return Ok(());
        }
        let idx = self.table.len();
        vacant.insert(idx as i64);
        self.by_ptr
            .insert(Rc::as_ptr(&t.0), (t.clone(), idx as i64));
        self.table.push(Vec::new());
        let mut buf = Vec::new();
        match actual.as_ref() {
            TypeInner::Opt(ty) => {
                self.build_type(ty, walk)?;
                leb::write_i64(&mut buf, opcode::OPT);
                self.encode(&mut buf, ty)?;
            }
            TypeInner::Vec(ty) => {
                self.build_type(ty, walk)?;
                leb::write_i64(&mut buf, opcode::VEC);
                self.encode(&mut buf, ty)?;
            }
            TypeInner::Record(fs) | TypeInner::Variant(fs) => {
                for f in fs {
                    self.build_type(&f.ty, walk)?;
                }
                let op = if matches!(actual.as_ref(), TypeInner::Record(_)) {
                    opcode::RECORD
                } else {
                    opcode::VARIANT
                };
                leb::write_i64(&mut buf, op);
                leb::write_u64(&mut buf, fs.len() as u64);
                for f in fs {
                    leb::write_u64(&mut buf, u64::from(f.id.get_id()));
                    self.encode(&mut buf, &f.ty)?;
                }
            }
            TypeInner::Service(ms) => {
                for (_, ty) in ms {
                    self.build_type(ty, walk)?;
                }
                leb::write_i64(&mut buf, opcode::SERVICE);
                leb::write_u64(&mut buf, ms.len() as u64);
                for (name, ty) in ms {
                    leb::write_u64(&mut buf, name.len() as u64);
                    buf.extend_from_slice(name.as_bytes());
                    self.encode(&mut buf, ty)?;
                }
            }
            TypeInner::Func(func) => self.func_entry(&mut buf, func, walk)?,
            other => {
                return Err(Error::msg(format!(
                    "cannot encode type {other} in a type table"
                )));
            }
        }
        if let Some(slot) = self.table.get_mut(idx) {
            *slot = buf;
        }
        Ok(())
    }

    /// A function type's entry: its argument and result types built first, then
    /// the opcode, both lists and the modes. Inlined: as a call of its own, it
    /// costs `build_type` more than the function entries it writes.
    #[inline(always)]
    fn func_entry(&mut self, buf: &mut Vec<u8>, func: &Function, walk: &mut Walk) -> Result<()> {
        for ty in func.args.iter().chain(&func.rets) {
            self.build_type(ty, walk)?;
        }
        leb::write_i64(buf, opcode::FUNC);
        leb::write_u64(buf, func.args.len() as u64);
        for ty in &func.args {
            self.encode(buf, ty)?;
        }
        leb::write_u64(buf, func.rets.len() as u64);
        for ty in &func.rets {
            self.encode(buf, ty)?;
        }
        leb::write_u64(buf, func.modes.len() as u64);
        for m in &func.modes {
            use crate::types::FuncMode;
            buf.push(match m {
                FuncMode::Query => 1,
                FuncMode::Oneway => 2,
                FuncMode::CompositeQuery => 3,
            });
        }
        Ok(())
    }

    fn encode(&self, buf: &mut Vec<u8>, t: &Type) -> Result<()> {
        if let TypeInner::Var(id) = t.as_ref() {
            let actual = self.env.rec_find_type(id)?;
            if is_primitive(actual) {
                return self.encode(buf, actual);
            }
        }
        let op = match t.as_ref() {
            TypeInner::Null => opcode::NULL,
            TypeInner::Bool => opcode::BOOL,
            TypeInner::Nat => opcode::NAT,
            TypeInner::Int => opcode::INT,
            TypeInner::Nat8 => opcode::NAT8,
            TypeInner::Nat16 => opcode::NAT16,
            TypeInner::Nat32 => opcode::NAT32,
            TypeInner::Nat64 => opcode::NAT64,
            TypeInner::Int8 => opcode::INT8,
            TypeInner::Int16 => opcode::INT16,
            TypeInner::Int32 => opcode::INT32,
            TypeInner::Int64 => opcode::INT64,
            TypeInner::Float32 => opcode::FLOAT32,
            TypeInner::Float64 => opcode::FLOAT64,
            TypeInner::Text => opcode::TEXT,
            TypeInner::Reserved => opcode::RESERVED,
            TypeInner::Empty => opcode::EMPTY,
            TypeInner::Principal => opcode::PRINCIPAL,
            TypeInner::Knot(id) => {
                let ty = find_type(id)
                    .ok_or_else(|| Error::msg(format!("recursive type {id} not found")))?;
                self.lookup(&ty)
                    .ok_or_else(|| Error::msg(format!("knot type {ty} not found")))?
            }
            _ => self
                .lookup(t)
                .ok_or_else(|| Error::msg(format!("type {t} not found")))?,
        };
        leb::write_i64(buf, op);
        Ok(())
    }

    /// The header after the magic: table length, entries, argument count, argument
    /// types.
    pub fn finish(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        leb::write_u64(&mut out, self.table.len() as u64);
        for entry in &self.table {
            out.extend_from_slice(entry);
        }
        leb::write_u64(&mut out, self.args.len() as u64);
        for t in &self.args {
            self.encode(&mut out, t)?;
        }
        Ok(out)
    }

    /// candid's two-step form of [`finish`](Self::finish): writes the header into
    /// this serializer, where [`get_result`](Self::get_result) reads it.
    pub fn serialize(&mut self) -> Result<()> {
        self.result = self.finish()?;
        Ok(())
    }

    /// The header written by the last [`serialize`](Self::serialize) (empty before).
    pub fn get_result(&self) -> &[u8] {
        &self.result
    }
}

/// A cached header and the size of the last message written with it: the next
/// message of the same types reserves that much output up front instead of growing
/// its buffer by doubling.
pub(crate) struct CachedHeader {
    pub bytes: Vec<u8>,
    pub size_hint: std::cell::Cell<usize>,
}

/// The headers a cache holds before it grows: a canister encodes a few reply and
/// call types, and a cache made at this size on first use costs less than growing
/// an empty one on the first insert (a map rehashes, a vector takes its growth path).
const FIRST_CAPACITY: usize = 16;

thread_local! {
    static HEADERS: RefCell<FastMap<Vec<TypeId>, Rc<CachedHeader>>> =
        RefCell::new(FastMap::with_capacity_and_hasher(FIRST_CAPACITY, Default::default()));
    /// Headers of whole argument tuples (`Encode!`, `encode_args`, ic-cdk's replies),
    /// keyed by the tuple's one id and found by a scan: a canister encodes a few
    /// dozen tuple types at most (one per reply and call type, fixed when it is
    /// compiled), and comparing ids in a row costs less than hashing one.
    static TUPLE_HEADERS: RefCell<Vec<(TypeId, Rc<CachedHeader>)>> =
        const { RefCell::new(Vec::new()) };
    /// Headers computed to keep, for tests ([`headers_kept`]).
    static KEPT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many headers this thread computed to keep.
pub(crate) fn headers_kept() -> u64 {
    KEPT.with(std::cell::Cell::get)
}

/// [`cached_header`] for a whole argument tuple, keyed by its one id.
pub(crate) fn cached_tuple_header(
    key: TypeId,
    from_static: impl FnOnce() -> Option<Vec<u8>>,
    types: impl FnOnce(&mut TypeSerialize) -> Result<()>,
) -> Result<Rc<CachedHeader>> {
    let found = TUPLE_HEADERS.with(|c| {
        c.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, h)| h.clone())
    });
    if let Some(h) = found {
        return Ok(h);
    }
    let header = new_header(from_static, types)?;
    TUPLE_HEADERS.with(|c| {
        let mut c = c.borrow_mut();
        if c.capacity() == 0 {
            // Made at its first size: reserving in an empty vector takes the growth
            // path, which costs more than the allocation (and a query pays it on
            // every call, as the IC discards what a query fills).
            *c = Vec::with_capacity(FIRST_CAPACITY);
        }
        c.push((key, header.clone()));
    });
    Ok(header)
}

/// The header (`DIDL` + table + argument types) for a list of Rust argument types.
///
/// `from_static` and `types` are only called on the first message with this list.
/// `from_static` writes the header from the types' static descriptions
/// (`ser/static_table.rs`), or gives `None`; then `types` must push the argument
/// types in order. Like candid, the memo of computed types is cleared first, so the
/// result does not depend on what this thread computed before.
pub(crate) fn cached_header(
    key: &[TypeId],
    from_static: impl FnOnce() -> Option<Vec<u8>>,
    types: impl FnOnce(&mut TypeSerialize) -> Result<()>,
) -> Result<Rc<CachedHeader>> {
    if let Some(h) = HEADERS.with(|c| c.borrow().get(key).cloned()) {
        return Ok(h);
    }
    let header = new_header(from_static, types)?;
    HEADERS.with(|c| c.borrow_mut().insert(key.to_vec(), header.clone()));
    Ok(header)
}

/// The bytes of a header computed afresh (see [`cached_header`]), kept nowhere.
pub(crate) fn uncached_header(
    from_static: impl FnOnce() -> Option<Vec<u8>>,
    types: impl FnOnce(&mut TypeSerialize) -> Result<()>,
) -> Result<Vec<u8>> {
    Ok(match from_static() {
        Some(bytes) => bytes,
        None => {
            env_clear();
            let mut ts = TypeSerialize::new();
            types(&mut ts)?;
            let mut bytes = Vec::with_capacity(64);
            bytes.extend_from_slice(opcode::MAGIC);
            bytes.extend_from_slice(&ts.finish()?);
            bytes
        }
    })
}

/// A header computed afresh, to keep (see [`cached_header`]).
fn new_header(
    from_static: impl FnOnce() -> Option<Vec<u8>>,
    types: impl FnOnce(&mut TypeSerialize) -> Result<()>,
) -> Result<Rc<CachedHeader>> {
    let bytes = uncached_header(from_static, types)?;
    KEPT.with(|k| k.set(k.get() + 1));
    Ok(Rc::new(CachedHeader {
        size_hint: std::cell::Cell::new(bytes.len()),
        bytes,
    }))
}
