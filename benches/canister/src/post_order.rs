//! Headers as agent-js (browsers, Node tools) writes them: each type table entry
//! after the entries it names, where candid (and candor) write an entry before
//! them; structurally equal types share one entry. Written from the spec's table
//! encoding and agent-js's order, not from either crate's writer, for the
//! benchmarks and tests of messages from such clients (`dapp_calls_post_order`,
//! candor's `tests/known_headers.rs`, the `--agent-js` calls of
//! `tests/canisters/run.sh`). Recursive types, functions and services are not
//! written.

use crate::lib::types::internal::find_type;
use crate::lib::types::{Type, TypeInner};

/// The header agent-js writes for arguments of types `types`; `None` when they
/// name a recursive type, a function or a service.
pub fn header(types: &[Type]) -> Option<Vec<u8>> {
    let mut table = Table {
        entries: Vec::new(),
        index: Vec::new(),
        open: Vec::new(),
    };
    for t in types {
        table.add(t)?;
    }
    let mut out = b"DIDL".to_vec();
    leb(&mut out, table.entries.len() as u64);
    for e in &table.entries {
        out.extend_from_slice(e);
    }
    leb(&mut out, types.len() as u64);
    for t in types {
        sleb(&mut out, table.reference(t));
    }
    Some(out)
}

/// The entries written so far, and the type each one is.
struct Table {
    entries: Vec<Vec<u8>>,
    index: Vec<(Type, i64)>,
    /// The types whose parts are being written (one met again is recursive).
    open: Vec<Type>,
}

impl Table {
    /// The reference to `t`: its opcode, or its entry's index.
    fn reference(&self, t: &Type) -> i64 {
        let t = resolve(t);
        opcode(t.as_ref()).unwrap_or_else(|| {
            self.index
                .iter()
                .find(|(u, _)| *u == t)
                .map(|&(_, i)| i)
                .expect("entry written")
        })
    }

    /// Writes the entries `t` names, then `t`'s own, unless it has one.
    fn add(&mut self, t: &Type) -> Option<()> {
        let t = resolve(t);
        if opcode(t.as_ref()).is_some() || self.index.iter().any(|(u, _)| *u == t) {
            return Some(());
        }
        if self.open.contains(&t) {
            return None;
        }
        self.open.push(t.clone());
        let mut entry = Vec::new();
        match t.as_ref() {
            TypeInner::Opt(inner) | TypeInner::Vec(inner) => {
                self.add(inner)?;
                let op = if matches!(t.as_ref(), TypeInner::Opt(_)) {
                    -18
                } else {
                    -19
                };
                sleb(&mut entry, op);
                sleb(&mut entry, self.reference(inner));
            }
            TypeInner::Record(fields) | TypeInner::Variant(fields) => {
                for f in fields.iter() {
                    self.add(&f.ty)?;
                }
                let op = if matches!(t.as_ref(), TypeInner::Record(_)) {
                    -20
                } else {
                    -21
                };
                sleb(&mut entry, op);
                leb(&mut entry, fields.len() as u64);
                let mut sorted: Vec<_> = fields.iter().collect();
                sorted.sort_by_key(|f| f.id.get_id());
                for f in sorted {
                    leb(&mut entry, u64::from(f.id.get_id()));
                    sleb(&mut entry, self.reference(&f.ty));
                }
            }
            _ => return None,
        }
        self.open.pop();
        self.index.push((t, self.entries.len() as i64));
        self.entries.push(entry);
        Some(())
    }
}

/// `t` with its name followed.
fn resolve(t: &Type) -> Type {
    match t.as_ref() {
        TypeInner::Knot(id) => resolve(&find_type(id).expect("a registered knot")),
        _ => t.clone(),
    }
}

/// A primitive type's opcode; `None` for a type that takes an entry.
fn opcode(t: &TypeInner) -> Option<i64> {
    Some(match t {
        TypeInner::Null => -1,
        TypeInner::Bool => -2,
        TypeInner::Nat => -3,
        TypeInner::Int => -4,
        TypeInner::Nat8 => -5,
        TypeInner::Nat16 => -6,
        TypeInner::Nat32 => -7,
        TypeInner::Nat64 => -8,
        TypeInner::Int8 => -9,
        TypeInner::Int16 => -10,
        TypeInner::Int32 => -11,
        TypeInner::Int64 => -12,
        TypeInner::Float32 => -13,
        TypeInner::Float64 => -14,
        TypeInner::Text => -15,
        TypeInner::Reserved => -16,
        TypeInner::Empty => -17,
        TypeInner::Principal => -24,
        _ => return None,
    })
}

fn sleb(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        out.push(if done { byte } else { byte | 0x80 });
        if done {
            return;
        }
    }
}

fn leb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        out.push(if v == 0 { byte } else { byte | 0x80 });
        if v == 0 {
            return;
        }
    }
}
