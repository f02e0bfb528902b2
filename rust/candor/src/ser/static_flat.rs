//! The header of argument types that are each a primitive, a node of primitives
//! (a flat node: `opt nat`, a record of numbers, `Result<u64, String>`), or a node
//! whose parts are primitives and flat nodes (`Result<Record, Error>`, a variant
//! with a text payload under `Result`): the commonest reply types.
//!
//! Nothing is reached twice in such a type but flat nodes, and two of those are
//! equal as `Type`s exactly when their bytes are (they refer to no entry); a
//! two-level node's bytes name its parts' entries, so two of those are equal
//! exactly when their bytes are too. So `TypeSerialize`'s table is written
//! straight from the descriptions, in its pre-order (a node's index taken before
//! its parts'), an entry equal to an earlier one left out for it, into a buffer of
//! the header's size: none of the walk's vectors, memo and keys
//! (`static_walk.rs`), which a first call pays for otherwise.

use super::static_table::{prim_of, sleb, uleb, PENDING};
use super::static_walk::put_field;
use crate::types::static_type::{StaticField, StaticKind, StaticRef};
use crate::types::{StaticType, TypeId};
use crate::wire::opcode;
use crate::wire::same_bytes::same_bytes;

/// The most arguments this path takes: a tuple has at most 16 (`encode_impl!`).
const MAX_ARGS: usize = 16;

/// The most entries this path writes (a larger table takes the walk).
const MAX_ENTRIES: usize = 16;

/// The most fields a node on this path has: one bit each in a word.
const MAX_FIELDS: usize = 64;

/// The most fields an argument's own node has on this path. A reply is most often
/// a `Result` or an `opt`; a wide record is more often deep (an ICRC transfer's
/// argument), and the walk is cheaper for it than this path's check and then the
/// walk.
const MAX_ARG_FIELDS: usize = 4;

/// The byte kept for a part whose entry is not known yet.
const HOLE: u8 = 0;

/// The header of `args`, or `None` if a type is deeper than two levels (or a
/// count would need two bytes), and the walk must write it.
pub(super) fn header(args: &[(TypeId, &'static StaticType)]) -> Option<Vec<u8>> {
    let size = size(args)?;
    // `put_field` stores eight bytes before cutting back to the field's.
    let mut t = Table {
        out: Vec::with_capacity(size + 8),
        spans: [(0, 0); MAX_ENTRIES],
        count: 0,
    };
    t.out.extend_from_slice(opcode::MAGIC);
    t.out.push(0);
    // Each argument's type byte: a primitive's opcode or an entry's index (small
    // arrays, as zeroing them is paid on every first call).
    let mut refs = [0u8; MAX_ARGS];
    for ((_, d), slot) in args.iter().zip(refs.iter_mut()) {
        *slot = match d.kind {
            StaticKind::Prim(p) => p.opcode() as u8 & 0x7f,
            _ => t.node(d, false)?,
        };
    }
    let count = t.count as u8;
    let mut out = t.out;
    *out.get_mut(opcode::MAGIC.len())? = count;
    uleb(&mut out, args.len() as u64);
    // One byte at a time: a copy of unknown length is a `memory.copy`, whose
    // fixed cost on the IC is that of a hundred instructions.
    for &r in refs.get(..args.len())? {
        out.push(r);
    }
    Some(out)
}

/// The size of the header of `args`, or `None` if this path does not write it.
#[inline(always)]
fn size(args: &[(TypeId, &'static StaticType)]) -> Option<usize> {
    if args.len() > MAX_ARGS {
        return None;
    }
    let mut size = opcode::MAGIC.len() + 2 + args.len();
    for (_, d) in args {
        size += node_size(d, false)?;
    }
    Some(size)
}

/// The description a part refers to.
#[inline(always)]
fn target(r: StaticRef) -> Option<&'static StaticType> {
    match r {
        StaticRef::Link(l) => (l.ty)(),
        StaticRef::Inline(d) => Some(d),
    }
}

/// A node's opcode and fields (none for `opt` and `vec`, whose part is the
/// `StaticRef`); `None` for a primitive, and for a function or service, which
/// [`node_size`] refuses.
#[inline(always)]
fn level(d: &'static StaticType) -> Option<(i64, &'static [StaticField], Option<StaticRef>)> {
    match d.kind {
        StaticKind::Prim(_) | StaticKind::Func(_) | StaticKind::Service(_) => None,
        StaticKind::Opt(r) => Some((opcode::OPT, &[], Some(r))),
        StaticKind::Vec(r) => Some((opcode::VEC, &[], Some(r))),
        StaticKind::Record(fs) => Some((opcode::RECORD, fs, None)),
        StaticKind::Variant(fs) => Some((opcode::VARIANT, fs, None)),
    }
}

/// The bytes of `d`'s entry and its parts' (none for a primitive), or `None` if `d`
/// or a part is a function or service, a part is deeper than this path takes
/// (`nested`: `d` is itself a part, whose parts must be primitives) or a field
/// count needs two bytes.
fn node_size(d: &'static StaticType, nested: bool) -> Option<usize> {
    let fs = match d.kind {
        StaticKind::Prim(_) => return Some(0),
        StaticKind::Opt(r) | StaticKind::Vec(r) => return Some(2 + part_size(r, nested)?),
        StaticKind::Record(fs) | StaticKind::Variant(fs) => fs,
        // Written by the walk.
        StaticKind::Func(_) | StaticKind::Service(_) => return None,
    };
    if (!nested && fs.len() > MAX_ARG_FIELDS) || fs.len() > MAX_FIELDS {
        return None;
    }
    let mut size = 2;
    for f in fs {
        size += (f.leb >> 56) as usize + 1 + part_size(f.ty, nested)?;
    }
    Some(size)
}

/// The bytes of a part's entry and its own parts' ([`node_size`]; `nested`: the
/// node that holds it is a part itself, so it must be a primitive). Each link is
/// followed once: a primitive's description says so, and a node's is what is
/// sized next.
#[inline(always)]
fn part_size(r: StaticRef, nested: bool) -> Option<usize> {
    let d = target(r)?;
    if matches!(d.kind, StaticKind::Prim(_)) {
        Some(0)
    } else if nested {
        None
    } else {
        node_size(d, true)
    }
}

/// The table being written.
struct Table {
    out: Vec<u8>,
    /// Where each entry's bytes are (a node's own, not its parts'); empty while
    /// its parts are written.
    spans: [(u16, u16); MAX_ENTRIES],
    count: usize,
}

impl Table {
    /// Writes the entry of node `d` and then its parts' (each a flat node when
    /// `nested` is false; none when it is true) and gives its index: its own, or
    /// an earlier equal entry's.
    fn node(&mut self, d: &'static StaticType, nested: bool) -> Option<u8> {
        let (op, fs, one) = level(d)?;
        // Past `MAX_ENTRIES`, only a node equal to an earlier one is kept (its
        // span is not stored).
        let idx = self.count;
        self.count += 1;
        let start = self.out.len();
        sleb(&mut self.out, op);
        // Which parts are nodes (their bytes kept as holes, filled below).
        let mut holes = 0u64;
        if let Some(r) = one {
            let t = prim_of(r);
            holes = u64::from(t == PENDING);
            self.out.push(byte(t));
        } else {
            uleb(&mut self.out, fs.len() as u64);
            for (i, f) in fs.iter().enumerate() {
                let t = prim_of(f.ty);
                holes |= u64::from(t == PENDING) << i;
                put_field(&mut self.out, f.leb, byte(t));
            }
        }
        let end = self.out.len();
        if holes != 0 {
            if nested {
                return None;
            }
            if let Some(r) = one {
                let c = self.node(target(r)?, true)?;
                *self.out.get_mut(start + 1)? = c;
            } else {
                let mut pos = start + 2;
                for (i, f) in fs.iter().enumerate() {
                    pos += (f.leb >> 56) as usize;
                    if holes >> i & 1 == 1 {
                        let c = self.node(target(f.ty)?, true)?;
                        *self.out.get_mut(pos)? = c;
                    }
                    pos += 1;
                }
            }
        }
        let new = self.out.get(start..end)?;
        let earlier = self.spans.get(..idx.min(MAX_ENTRIES))?;
        let known = earlier.iter().position(|&(s, e)| {
            self.out
                .get(usize::from(s)..usize::from(e))
                .is_some_and(|old| same_bytes(old, new))
        });
        if let Some(k) = known {
            // Equal to an earlier entry, its parts are too: they added no entry,
            // and `TypeSerialize` would not have visited them.
            self.out.truncate(start);
            self.count = idx;
            return Some(k as u8);
        }
        *self.spans.get_mut(idx)? = (u16::try_from(start).ok()?, u16::try_from(end).ok()?);
        Some(idx as u8)
    }
}

/// A part's byte: a primitive's opcode, or a hole.
#[inline(always)]
fn byte(t: i64) -> u8 {
    if t == PENDING {
        HOLE
    } else {
        t as u8 & 0x7f
    }
}
