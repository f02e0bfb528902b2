//! The header of a tuple of argument types, written from their static descriptions
//! (`types/static_type.rs`) instead of from `ty()`'s trees.
//!
//! The bytes must be [`TypeSerialize`](super::TypeSerialize)'s, so this runs its
//! algorithm on the trees `ty()` would compute after the memo is cleared, without
//! building them:
//! * [`Shapes`] emulates the memo over the descriptions: one node per Rust type
//!   that builds one (its `Rc`), a knot for a mention of a type still being
//!   computed, and what a transparent type was first computed as. Nodes are made in
//!   pre-order, an index taken before the parts are computed;
//! * the entries are `TypeSerialize`'s numbering of those nodes: pre-order, two
//!   structurally equal ones sharing an entry (`static_merge.rs`). When no two nodes
//!   could be equal, which the walk sees from a key of each node's own level, the
//!   numbering is the nodes' own order and is not computed;
//! * the entries are written in index order, a knot as the entry of the type it
//!   names and each field id from the LEB128 bytes its description carries.
//!
//! Anything the emulation does not cover (a type without a description, a knot whose
//! type has no entry) returns `None`, and the caller takes the `ty()` path, which
//! also reports any error. Everything lives in a few flat vectors: this runs once per
//! tuple type, on the first call of a method, where each allocation counts.

use super::static_direct::Direct;
use super::static_merge::Merged;
use crate::types::static_type::{StaticField, StaticKind, StaticRef};
use crate::types::{StaticType, TypeId};
use crate::wire::{leb, opcode};
use std::cell::Cell;

/// A reference to a type: a primitive's opcode (negative), a node's index, or
/// [`KNOT`] plus a knot's index.
pub(super) type Ty = i64;

/// A node's kind as a part: its opcode and size.
#[inline(always)]
pub(super) fn level(op: i64, len: usize) -> u64 {
    (op as u64) << 32 | len as u64
}

/// Knot `k` is referred to as `KNOT + k`, above every node index.
pub(super) const KNOT: Ty = 1 << 32;

/// A part not computed yet, or a type still being computed in the memo.
pub(super) const PENDING: Ty = Ty::MIN;

/// An `opt`, `vec`, record or variant node as `ty()` would build it: its opcode,
/// the description it was computed from (which holds its field ids), and its parts'
/// types in `Shapes::parts`.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) op: i64,
    pub(super) d: &'static StaticType,
    pub(super) start: u32,
    pub(super) len: u32,
}

/// Deeper descriptions than this are left to the `ty()` path (and its checks).
pub(super) const MAX_DEPTH: usize = 512;

/// The memo's emulation: every node and knot, and what each Rust type computed as.
#[derive(Default)]
pub(super) struct Shapes {
    pub(super) nodes: Vec<Node>,
    /// The type of every part of every node, each node's in one run (reserved
    /// before its parts are computed, which add their own runs after it).
    pub(super) parts: Vec<Ty>,
    /// Per knot, the address of the type it names.
    pub(super) knots: Vec<usize>,
    /// Per Rust type (its address), what it computed as ([`PENDING`] while it is
    /// being computed). Searched in order: a header has a handful of Rust types.
    memo: Vec<(usize, Ty)>,
}

/// The fields of a record or variant description (none for the other kinds).
pub(super) fn fields_of(d: &'static StaticType) -> &'static [StaticField] {
    match d.kind {
        StaticKind::Record(fs) | StaticKind::Variant(fs) => fs,
        _ => &[],
    }
}

/// A primitive's opcode, whoever names it (a link or an inline node), or
/// [`PENDING`] for anything else (including a link without a description).
#[inline(always)]
pub(super) fn prim_of(r: StaticRef) -> Ty {
    let d = match r {
        StaticRef::Link(l) => match (l.ty)() {
            Some(d) => d,
            None => return PENDING,
        },
        StaticRef::Inline(d) => d,
    };
    match d.kind {
        StaticKind::Prim(p) => p.opcode(),
        _ => PENDING,
    }
}

impl Shapes {
    /// The node `t` refers to, if it refers to one.
    #[inline(always)]
    pub(super) fn node(&self, t: Ty) -> Option<Node> {
        if (0..KNOT).contains(&t) {
            self.nodes.get(t as usize).copied()
        } else {
            None
        }
    }

    /// The address of the type knot `t` names, if `t` refers to a knot.
    #[inline(always)]
    pub(super) fn knot(&self, t: Ty) -> Option<usize> {
        self.knots
            .get(usize::try_from(t.checked_sub(KNOT)?).ok()?)
            .copied()
    }

    /// The parts of `n`.
    #[inline(always)]
    pub(super) fn parts(&self, n: Node) -> &[Ty] {
        self.parts
            .get(n.start as usize..(n.start + n.len) as usize)
            .unwrap_or_default()
    }

    /// What the Rust type at `address` computed as.
    fn memo_of(&self, address: usize) -> Option<Ty> {
        self.memo.iter().find(|m| m.0 == address).map(|m| m.1)
    }

    /// `ty()` of the Rust type `id` described by `d`.
    fn linked(&mut self, id: TypeId, d: &'static StaticType, depth: usize) -> Option<Ty> {
        if let StaticKind::Prim(p) = d.kind {
            return Some(p.opcode());
        }
        let address = id.address();
        match self.memo_of(address) {
            Some(PENDING) => {
                self.knots.push(address);
                return Some(KNOT + self.knots.len() as Ty - 1);
            }
            Some(t) => return Some(t),
            None => {}
        }
        // Entries are only ever added: the slot stays this type's.
        let slot = self.memo.len();
        self.memo.push((address, PENDING));
        let t = match d.owner.map(|f| f()) {
            // A transparent type: its `_ty()` is the owner's `ty()`.
            Some(o) if o != id => self.linked(o, d, depth + 1)?,
            _ => self.make(d, depth)?,
        };
        self.memo.get_mut(slot)?.1 = t;
        Some(t)
    }

    fn child(&mut self, r: StaticRef, depth: usize) -> Option<Ty> {
        match r {
            StaticRef::Link(l) => {
                let d = (l.ty)()?;
                // A primitive is its opcode, whoever names it.
                if let StaticKind::Prim(p) = d.kind {
                    return Some(p.opcode());
                }
                self.linked((l.id)(), d, depth + 1)
            }
            StaticRef::Inline(d) => match d.owner {
                Some(o) => self.linked(o(), d, depth + 1),
                None => self.make(d, depth + 1),
            },
        }
    }

    /// The node `d` describes (its index taken first), its parts computed in order.
    fn make(&mut self, d: &'static StaticType, depth: usize) -> Option<Ty> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (op, one, fs) = match d.kind {
            StaticKind::Prim(p) => return Some(p.opcode()),
            StaticKind::Opt(r) => (opcode::OPT, Some(r), &[][..]),
            StaticKind::Vec(r) => (opcode::VEC, Some(r), &[][..]),
            StaticKind::Record(fs) => (opcode::RECORD, None, fs),
            StaticKind::Variant(fs) => (opcode::VARIANT, None, fs),
        };
        let n = self.nodes.len();
        let start = self.parts.len();
        let len = if one.is_some() { 1 } else { fs.len() };
        self.nodes.push(Node {
            op,
            d,
            start: start as u32,
            len: len as u32,
        });
        if let Some(r) = one {
            self.parts.push(PENDING);
            let t = self.child(r, depth)?;
            *self.parts.get_mut(start)? = t;
        } else {
            self.fields(fs, start, depth)?;
        }
        Some(n as Ty)
    }

    /// A record's or variant's parts, from `start`: primitives in a first pass
    /// (most fields are), then the others in order. Pushed one by one: `resize`
    /// fills with a bulk operation, whose fixed cost is far above a few stores.
    #[inline(always)]
    fn fields(&mut self, fs: &'static [StaticField], start: usize, depth: usize) -> Option<()> {
        let mut pending = false;
        for f in fs {
            let t = prim_of(f.ty);
            pending |= t == PENDING;
            self.parts.push(t);
        }
        if pending {
            for (i, f) in fs.iter().enumerate() {
                if *self.parts.get(start + i)? == PENDING {
                    let t = self.child(f.ty, depth)?;
                    *self.parts.get_mut(start + i)? = t;
                }
            }
        }
        Some(())
    }

    /// What a part is at its own level, for comparing nodes: a primitive's opcode,
    /// the type a knot names, or a node's opcode and size.
    #[inline(always)]
    pub(super) fn kind(&self, t: Ty) -> u64 {
        if let Some(n) = self.node(t) {
            level(n.op, n.len as usize)
        } else if let Some(address) = self.knot(t) {
            address as u64
        } else {
            t as u64
        }
    }
}

/// Writes the tables' entries and argument types.
struct Writer<'a> {
    shapes: &'a Shapes,
    merged: &'a Merged,
    out: Vec<u8>,
}

impl Writer<'_> {
    /// The entry of node `t`.
    fn write_entry(&mut self, t: Ty) -> Option<()> {
        let node = self.shapes.node(t)?;
        let parts = self.shapes.parts(node);
        sleb(&mut self.out, node.op);
        if matches!(node.op, opcode::RECORD | opcode::VARIANT) {
            uleb(&mut self.out, u64::from(node.len));
            for (f, &c) in fields_of(node.d).iter().zip(parts) {
                put_leb(&mut self.out, f.leb);
                self.part(c)?;
            }
        } else {
            let &c = parts.first()?;
            self.part(c)?;
        }
        Some(())
    }

    /// A reference to `t`: a primitive's opcode written in place, or an entry.
    #[inline(always)]
    fn part(&mut self, t: Ty) -> Option<()> {
        if t < 0 {
            sleb(&mut self.out, t);
            Some(())
        } else {
            self.reference(t)
        }
    }

    /// The entry of a node, or of the node a knot's type computed as.
    fn reference(&mut self, t: Ty) -> Option<()> {
        let node = match self.shapes.knot(t) {
            Some(address) => self.shapes.memo_of(address)?,
            None => t,
        };
        self.shapes.node(node)?;
        let e = self.merged.entry(node)?;
        sleb(&mut self.out, e);
        Some(())
    }
}

/// SLEB128 of `v`: most are opcodes and small entry indices, one byte.
#[inline(always)]
pub(super) fn sleb(out: &mut Vec<u8>, v: i64) {
    if (-64..64).contains(&v) {
        out.push(v as u8 & 0x7f);
    } else {
        leb::write_i64(out, v);
    }
}

/// LEB128 of `v`: counts are most often one byte.
#[inline(always)]
pub(super) fn uleb(out: &mut Vec<u8>, v: u64) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        leb::write_u64(out, v);
    }
}

/// A field id's LEB128 bytes, computed by the compiler (`StaticField::leb`): one
/// 8-byte store cut back to their count.
#[inline(always)]
pub(super) fn put_leb(out: &mut Vec<u8>, word: u64) {
    let len = out.len();
    out.extend_from_slice(&word.to_le_bytes());
    out.truncate(len + (word >> 56) as usize);
}

/// The vectors of one header's computation, kept for the next tuple type's (emptied,
/// capacity kept), so a fresh instance's first calls allocate them once.
#[derive(Default)]
struct Spare {
    direct: Direct,
    shapes: Shapes,
    merged: Merged,
    /// The argument types' references.
    roots: Vec<Ty>,
}

thread_local! {
    static SPARE: Cell<Option<Box<Spare>>> = const { Cell::new(None) };
}

/// The whole header (magic, table, argument count, argument types) for the
/// argument types `args`, each its id and description; `None` when the `ty()` path
/// must write it.
pub(crate) fn header(args: &[(TypeId, &'static StaticType)]) -> Option<Vec<u8>> {
    header_and_path(args).map(|(h, _)| h)
}

/// [`header`], and whether it took the general path (its nodes numbered, as two
/// might be structurally equal), for the tests.
pub(crate) fn header_and_path(args: &[(TypeId, &'static StaticType)]) -> Option<(Vec<u8>, bool)> {
    let mut spare = SPARE.with(Cell::take).unwrap_or_else(Spare::boxed);
    let mut out = spare.direct.header(args).map(|h| (h, false));
    if out.is_none() {
        out = general(&mut spare, args).map(|h| (h, true));
    }
    if spare.clear() {
        SPARE.with(|c| c.set(Some(spare)));
    }
    out
}

impl Spare {
    /// A canister's reply types take a few dozen nodes and parts: each vector
    /// allocated once at a size that holds them, instead of growing through several
    /// sizes on the first call. The general path's grow when first used.
    fn boxed() -> Box<Spare> {
        Box::new(Spare {
            direct: Direct::with_capacity(16),
            ..Spare::default()
        })
    }

    /// Empties the vectors; false if one grew past what is worth keeping (one huge
    /// type should not pin its memory for the life of the canister).
    fn clear(&mut self) -> bool {
        const MAX: usize = 4096;
        let Spare {
            direct,
            shapes,
            merged,
            roots,
        } = self;
        direct.clear();
        roots.clear();
        merged.clear();
        shapes.nodes.clear();
        shapes.parts.clear();
        shapes.knots.clear();
        shapes.memo.clear();
        direct.small(MAX)
            && shapes.nodes.capacity() <= MAX
            && shapes.parts.capacity() <= MAX
            && merged.small(MAX)
    }
}

/// The general path: the nodes stored, numbered as `TypeSerialize` numbers them,
/// then written in entry order.
fn general(spare: &mut Spare, args: &[(TypeId, &'static StaticType)]) -> Option<Vec<u8>> {
    let Spare {
        shapes,
        merged,
        roots,
        ..
    } = spare;
    for &(id, d) in args {
        roots.push(shapes.linked(id, d, 0)?);
    }
    merged.number(shapes, roots)?;
    let entries = merged.len();
    // Room for the magic and counts, two bytes per entry, five bytes of id and one
    // of type per part (two past the 64th entry), a type per root, and `put_leb`'s
    // 8-byte store: a bound, not the size, as the exact size would cost a pass over
    // the fields, more than the few bytes it would save a header kept per type.
    let per_part = if entries < 64 { 6 } else { 8 };
    let size = 16 + 2 * entries + per_part * (shapes.parts.len() + roots.len());
    let mut w = Writer {
        shapes,
        merged,
        out: Vec::with_capacity(size),
    };
    w.out.extend_from_slice(opcode::MAGIC);
    uleb(&mut w.out, entries as u64);
    for t in merged.order() {
        w.write_entry(t)?;
    }
    uleb(&mut w.out, roots.len() as u64);
    for &r in roots.iter() {
        w.part(r)?;
    }
    Some(w.out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn field_ids_are_written_as_leb128() {
        use crate::types::static_type::{link, StaticField, StaticLabel};
        let mut edges = vec![0u32, 1, 0x7f, u32::MAX, u32::MAX - 1];
        for bits in [7, 14, 21, 28] {
            edges.extend([(1 << bits) - 1, 1 << bits, (1 << bits) + 1]);
        }
        edges.push(crate::types::idl_hash("amount_e8s"));
        for id in edges {
            let f = StaticField::new(id, StaticLabel::Id, link::<u8>());
            let (mut ours, mut theirs) = (vec![9u8], vec![9u8]);
            super::put_leb(&mut ours, f.leb);
            crate::wire::leb::write_u64(&mut theirs, u64::from(id));
            assert_eq!(ours, theirs, "{id:#x}");
        }
    }
}
