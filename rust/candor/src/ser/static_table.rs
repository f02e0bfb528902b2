//! The header of a tuple of argument types, written from their static descriptions
//! (`types/static_type.rs`) instead of from `ty()`'s trees.
//!
//! The bytes must be [`TypeSerialize`](super::TypeSerialize)'s, so this runs its
//! algorithm on the trees `ty()` would compute after the memo is cleared, without
//! building them:
//! * [`Shapes`] (`static_walk.rs`) emulates the memo over the descriptions, making
//!   one node per Rust type that builds one, in pre-order, and writes the header on
//!   the way while every node is its own entry, which is the common case;
//! * otherwise (two nodes might be structurally equal and share an entry, or an
//!   entry index needs two bytes) the header is general: the stored nodes are
//!   numbered as `TypeSerialize` numbers them (`static_merge.rs`) and the entries
//!   written here in index order, a knot as the entry of the type it names and each
//!   field id from the LEB128 bytes its description carries.
//!
//! Anything the emulation does not cover (a type without a description, a knot whose
//! type has no entry) returns `None`, and the caller takes the `ty()` path, which
//! also reports any error. Everything lives in a few flat vectors: this runs once per
//! tuple type, on the first call of a method, where each allocation counts.

use super::static_merge::Merged;
use super::static_walk::Shapes;
use crate::types::static_type::{StaticField, StaticKind, StaticRef};
use crate::types::{StaticType, TypeId};
use crate::wire::{leb, opcode};
use std::cell::Cell;

/// A reference to a type: a primitive's opcode (negative), a node's index, or
/// [`KNOT`] plus a knot's index.
pub(super) type Ty = i64;

/// A node's own level: its opcode and size.
#[inline(always)]
pub(super) fn level(op: i64, len: usize) -> u64 {
    (op as u64) << 32 | len as u64
}

/// Knot `k` is referred to as `KNOT + k`, above every node index.
pub(super) const KNOT: Ty = 1 << 32;

/// A part not computed yet, or a type still being computed in the memo.
pub(super) const PENDING: Ty = Ty::MIN;

/// An `opt`, `vec`, record, variant, function or service node as `ty()` would
/// build it: its opcode, the description it was computed from (which holds its
/// field ids, modes or method names), and its parts' types in `Shapes::parts` (a
/// function's arguments, then its results).
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) op: i64,
    pub(super) d: &'static StaticType,
    pub(super) start: u32,
    pub(super) len: u32,
    /// Its structural key (`static_walk.rs`), unfinished until its parts are done.
    pub(super) key: u64,
}

/// Deeper descriptions than this are left to the `ty()` path (and its checks).
pub(super) const MAX_DEPTH: usize = 512;

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
        } else if matches!(node.op, opcode::FUNC | opcode::SERVICE) {
            self.reference_entry(node.d, parts)?;
        } else {
            let &c = parts.first()?;
            self.part(c)?;
        }
        Some(())
    }

    /// The rest of a function's or service's entry (`d`, parts `parts`): a
    /// function's argument and result lists, each after its count, and its modes;
    /// a service's methods, each its name and its type. Out of line: few headers
    /// have one, and inlined it would cost the others' code.
    #[inline(never)]
    fn reference_entry(&mut self, d: &'static StaticType, parts: &[Ty]) -> Option<()> {
        match d.kind {
            StaticKind::Func(f) => {
                let (args, rets) = parts.split_at_checked(f.args.len())?;
                for list in [args, rets] {
                    uleb(&mut self.out, list.len() as u64);
                    for &c in list {
                        self.part(c)?;
                    }
                }
                put_modes(&mut self.out, f.mode);
            }
            StaticKind::Service(ms) => {
                uleb(&mut self.out, ms.len() as u64);
                for (m, &c) in ms.iter().zip(parts) {
                    put_name(&mut self.out, m.name);
                    self.part(c)?;
                }
            }
            _ => return None,
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
        let node = self.shapes.resolve(t)?;
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

/// A function entry's modes: none, or the one `func!` allows (`StaticFunc::mode`).
pub(super) fn put_modes(out: &mut Vec<u8>, mode: u8) {
    if mode == 0 {
        out.push(0);
    } else {
        out.extend_from_slice(&[1, mode]);
    }
}

/// A service method's name, after its length, as its entry writes it (its type
/// follows).
pub(super) fn put_name(out: &mut Vec<u8>, name: &str) {
    uleb(out, name.len() as u64);
    out.extend_from_slice(name.as_bytes());
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

/// Which way a static header was written (for the tests).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticPath {
    /// Primitives, or nodes of primitives (`static_flat.rs`): no walk.
    Flat,
    /// The walk, each entry written as its node is made.
    OnePass,
    /// The walk, then the nodes numbered and the entries written afresh.
    General,
}

/// [`header`], and which way it was written.
pub(crate) fn header_and_path(
    args: &[(TypeId, &'static StaticType)],
) -> Option<(Vec<u8>, StaticPath)> {
    if let Some(h) = primitives(args) {
        return Some((h, StaticPath::Flat));
    }
    if let Some(h) = super::static_flat::header(args) {
        return Some((h, StaticPath::Flat));
    }
    let mut spare = SPARE.with(Cell::take).unwrap_or_else(|| {
        // A canister's reply types take a few dozen nodes and parts: each vector
        // allocated once at a size that holds them, instead of growing through
        // several sizes on the first call.
        Box::new(Spare {
            shapes: Shapes::with_capacity(16),
            merged: Merged::default(),
            roots: Vec::with_capacity(4),
        })
    });
    let out = build(&mut spare, args);
    if spare.clear() {
        SPARE.with(|c| c.set(Some(spare)));
    }
    out
}

/// The header of primitive argument types alone (a reply of one `nat`, say): no
/// table, so none of the walk's vectors. `None` if a type is not a primitive.
fn primitives(args: &[(TypeId, &'static StaticType)]) -> Option<Vec<u8>> {
    if !args
        .iter()
        .all(|(_, d)| matches!(d.kind, StaticKind::Prim(_)))
    {
        return None;
    }
    let mut out = Vec::with_capacity(opcode::MAGIC.len() + 2 + args.len());
    out.extend_from_slice(opcode::MAGIC);
    out.push(0);
    uleb(&mut out, args.len() as u64);
    for (_, d) in args {
        if let StaticKind::Prim(p) = d.kind {
            sleb(&mut out, p.opcode());
        }
    }
    Some(out)
}

impl Spare {
    /// Empties the vectors; false if one grew past what is worth keeping.
    fn clear(&mut self) -> bool {
        const MAX: usize = 4096;
        self.roots.clear();
        self.merged.clear();
        self.shapes.clear(MAX) && self.merged.small(MAX)
    }
}

fn build(
    spare: &mut Spare,
    args: &[(TypeId, &'static StaticType)],
) -> Option<(Vec<u8>, StaticPath)> {
    let Spare {
        shapes,
        merged,
        roots,
    } = spare;
    shapes.begin();
    for &(id, d) in args {
        roots.push(shapes.linked(id, d, 0)?);
    }
    if !shapes.general {
        return shapes
            .finish_header(roots)
            .map(|h| (h, StaticPath::OnePass));
    }
    general(shapes, merged, roots).map(|h| (h, StaticPath::General))
}

/// A general header: the stored nodes numbered as `TypeSerialize` numbers them,
/// then the entries written in index order.
fn general(shapes: &Shapes, merged: &mut Merged, roots: &[Ty]) -> Option<Vec<u8>> {
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
    for &r in roots {
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
