//! The header of a tuple of argument types, written from their static descriptions
//! (`types/static_type.rs`) instead of from `ty()`'s trees.
//!
//! The bytes must be [`TypeSerialize`](super::TypeSerialize)'s, so this runs its
//! algorithm on the trees `ty()` would compute after the memo is cleared, without
//! building them:
//! * [`Shapes`] emulates the memo over the descriptions: one shape per Rust type
//!   that builds a node (its `Rc`), a `Knot` leaf for a mention of a type still being
//!   computed, and what a transparent type was first computed as;
//! * [`Table`] numbers the shapes in pre-order, gives two structurally equal shapes
//!   one entry (fields compared by id, knots by the type they name), then writes the
//!   entries in index order, a knot as the entry of the type it names and each field
//!   id from the LEB128 bytes its description carries.
//!
//! Anything the emulation does not cover (a type without a description, a knot whose
//! type has no entry) returns `None`, and the caller takes the `ty()` path, which
//! also reports any error. Everything lives in a few flat vectors: this runs once per
//! tuple type, on the first call of a method, where each allocation counts.

use crate::fasthash::FastHasher;
use crate::types::static_type::{StaticField, StaticKind, StaticRef};
use crate::types::{StaticType, TypeId};
use crate::wire::{leb, opcode};
use std::cell::Cell;
use std::hash::Hasher;

/// A reference to a type: a primitive's opcode (negative), or a shape's index.
type Ty = i64;

/// A tree node as `ty()` would build it.
#[derive(Clone, Copy)]
enum Shape {
    /// `Knot(id)`: a mention of a type whose computation had not finished.
    Knot(TypeId),
    /// `opt`, `vec`, record or variant: its opcode, the description it was
    /// computed from (which holds its field ids), and its parts' types in
    /// `Shapes::parts`.
    Node {
        op: i64,
        d: &'static StaticType,
        start: u32,
        len: u32,
    },
}

/// Deeper descriptions than this are left to the `ty()` path (and its checks).
const MAX_DEPTH: usize = 512;

/// The memo's emulation: every shape, and what each Rust type computed as.
#[derive(Default)]
struct Shapes {
    shapes: Vec<Shape>,
    /// The type of every part of every node, each node's in one run (reserved
    /// before its parts are computed, which add their own runs after it).
    parts: Vec<Ty>,
    /// `None` while the type is being computed. Searched in order: a header has a
    /// handful of Rust types, and this runs once per tuple type.
    memo: Vec<(TypeId, Option<Ty>)>,
    /// Entry per shape (an `Rc`'s address in `TypeSerialize`), -1 for none yet.
    entry_of: Vec<i64>,
}

/// The fields of a record or variant description (none for the other kinds).
fn fields_of(d: &'static StaticType) -> &'static [StaticField] {
    match d.kind {
        StaticKind::Record(fs) | StaticKind::Variant(fs) => fs,
        _ => &[],
    }
}

impl Shapes {
    fn add(&mut self, s: Shape) -> Ty {
        self.entry_of.push(-1);
        self.shapes.push(s);
        self.shapes.len() as Ty - 1
    }

    /// `ty()` of the Rust type `id` described by `d`.
    fn linked(&mut self, id: TypeId, d: &'static StaticType, depth: usize) -> Option<Ty> {
        if let StaticKind::Prim(p) = d.kind {
            return Some(p.opcode());
        }
        match self.memo_of(id) {
            Some(Some(t)) => return Some(t),
            Some(None) => return Some(self.add(Shape::Knot(id))),
            None => {}
        }
        // Entries are only ever added: the slot stays this type's.
        let slot = self.memo.len();
        self.memo.push((id, None));
        let t = match d.owner.map(|f| f()) {
            // A transparent type: its `_ty()` is the owner's `ty()`.
            Some(o) if o != id => self.linked(o, d, depth + 1)?,
            _ => self.node(d, depth)?,
        };
        self.memo.get_mut(slot)?.1 = Some(t);
        Some(t)
    }

    fn memo_of(&self, id: TypeId) -> Option<Option<Ty>> {
        self.memo.iter().find(|m| m.0 == id).map(|m| m.1)
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
                None => self.node(d, depth + 1),
            },
        }
    }

    /// The node `d` describes, its parts computed in order.
    fn node(&mut self, d: &'static StaticType, depth: usize) -> Option<Ty> {
        if depth > MAX_DEPTH {
            return None;
        }
        let op = match d.kind {
            StaticKind::Prim(p) => return Some(p.opcode()),
            StaticKind::Opt(r) => return self.one(opcode::OPT, d, r, depth),
            StaticKind::Vec(r) => return self.one(opcode::VEC, d, r, depth),
            StaticKind::Record(_) => opcode::RECORD,
            StaticKind::Variant(_) => opcode::VARIANT,
        };
        let fs = fields_of(d);
        let start = self.parts.len();
        // Placeholders pushed one by one: `resize` fills with a bulk operation,
        // whose fixed cost is far above a few stores.
        for _ in fs {
            self.parts.push(Ty::MIN);
        }
        for (i, f) in fs.iter().enumerate() {
            let t = self.child(f.ty, depth)?;
            *self.parts.get_mut(start + i)? = t;
        }
        Some(self.add(Shape::Node {
            op,
            d,
            start: start as u32,
            len: fs.len() as u32,
        }))
    }

    /// `opt t` or `vec t`.
    fn one(&mut self, op: i64, d: &'static StaticType, r: StaticRef, depth: usize) -> Option<Ty> {
        let t = self.child(r, depth)?;
        let start = self.parts.len() as u32;
        self.parts.push(t);
        Some(self.add(Shape::Node {
            op,
            d,
            start,
            len: 1,
        }))
    }

    fn shape(&self, t: Ty) -> Option<Shape> {
        self.shapes.get(usize::try_from(t).ok()?).copied()
    }

    fn parts(&self, start: u32, len: u32) -> &[Ty] {
        self.parts
            .get(start as usize..(start + len) as usize)
            .unwrap_or_default()
    }
}

/// [`TypeSerialize`](super::TypeSerialize)'s numbering over shapes.
#[derive(Default)]
struct Table {
    /// Per entry, the shape that made it and that shape's [`signature`]: a new
    /// shape shares the entry of an equal one (`TypeSerialize`'s search of its
    /// index by structure), found by comparing signatures, then the shapes.
    entries: Vec<(u64, Ty)>,
}

/// How many steps the structural comparisons of one header may take: types built
/// to make them explode (wide trees of equal shapes under distinct Rust types) are
/// left to the `ty()` path.
const COMPARE_BUDGET: u32 = 1 << 16;

/// A digest of a shape's own level: opcode, field ids, and per part its opcode (a
/// primitive), the type it names (a knot) or its node's opcode and size. Two equal
/// shapes have equal signatures.
fn signature(shapes: &Shapes, op: i64, d: &'static StaticType, parts: &[Ty]) -> u64 {
    let mut h = FastHasher::default();
    h.write_i64(op);
    for f in fields_of(d) {
        h.write_u32(f.id);
    }
    for &c in parts {
        match shapes.shape(c) {
            None => h.write_i64(c),
            Some(Shape::Knot(k)) => h.write_usize(k.address()),
            Some(Shape::Node { op, len, .. }) => h.write_u64((op as u64) << 32 | u64::from(len)),
        }
    }
    h.finish()
}

/// Whether two nodes' own levels are equal: the same opcode, and for records and
/// variants the same field ids.
fn same_level(a: &'static StaticType, b: &'static StaticType) -> bool {
    if std::ptr::eq(a, b) {
        return true;
    }
    let (x, y) = (fields_of(a), fields_of(b));
    x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.id == q.id)
}

/// Whether `a` and `b` are equal as `Type`s: the same primitive, knots naming the
/// same type, or nodes with the same opcode and equal parts under the same ids.
/// `None` when the budget runs out.
fn equal(shapes: &Shapes, a: Ty, b: Ty, budget: &mut u32) -> Option<bool> {
    if a == b {
        return Some(true);
    }
    *budget = budget.checked_sub(1)?;
    Some(match (shapes.shape(a), shapes.shape(b)) {
        (Some(Shape::Knot(x)), Some(Shape::Knot(y))) => x == y,
        (
            Some(Shape::Node { op, d, start, len }),
            Some(Shape::Node {
                op: op2,
                d: d2,
                start: start2,
                len: len2,
            }),
        ) => {
            if op != op2 || len != len2 || !same_level(d, d2) {
                return Some(false);
            }
            for (&p, &q) in shapes
                .parts(start, len)
                .iter()
                .zip(shapes.parts(start2, len2))
            {
                if !equal(shapes, p, q, budget)? {
                    return Some(false);
                }
            }
            true
        }
        _ => false,
    })
}

impl Table {
    /// `build_type`'s numbering: the entry of `t` and its parts', in pre-order.
    fn number(&mut self, shapes: &mut Shapes, t: Ty, budget: &mut u32) -> Option<()> {
        let Some(Shape::Node { op, d, start, len }) = shapes.shape(t) else {
            return Some(());
        };
        let i = t as usize;
        if *shapes.entry_of.get(i)? >= 0 {
            return Some(());
        }
        let sig = signature(shapes, op, d, shapes.parts(start, len));
        for (e, &(other_sig, other)) in self.entries.iter().enumerate() {
            if other_sig == sig && equal(shapes, other, t, budget)? {
                *shapes.entry_of.get_mut(i)? = e as i64;
                return Some(());
            }
        }
        *shapes.entry_of.get_mut(i)? = self.entries.len() as i64;
        self.entries.push((sig, t));
        for k in start..start + len {
            let c = *shapes.parts.get(k as usize)?;
            // A primitive has no entry: no call for it.
            if c >= 0 {
                self.number(shapes, c, budget)?;
            }
        }
        Some(())
    }

    /// The entry of shape `t`, which [`number`](Self::number) has numbered.
    fn write_entry(&self, shapes: &Shapes, out: &mut Vec<u8>, t: Ty) -> Option<()> {
        let Some(Shape::Node { op, d, start, len }) = shapes.shape(t) else {
            return None;
        };
        let parts = shapes.parts(start, len);
        sleb(out, op);
        if matches!(op, opcode::RECORD | opcode::VARIANT) {
            uleb(out, u64::from(len));
            for (f, &c) in fields_of(d).iter().zip(parts) {
                put_leb(out, f.leb);
                self.part(shapes, out, c)?;
            }
        } else {
            let &c = parts.first()?;
            self.part(shapes, out, c)?;
        }
        Some(())
    }

    /// A part's type: a primitive's opcode written in place, anything else by
    /// [`encode`](Self::encode).
    #[inline(always)]
    fn part(&self, shapes: &Shapes, out: &mut Vec<u8>, t: Ty) -> Option<()> {
        if t < 0 {
            sleb(out, t);
            Some(())
        } else {
            self.encode(shapes, out, t)
        }
    }

    /// A reference to `t`: a primitive's opcode, or an entry.
    fn encode(&self, shapes: &Shapes, buf: &mut Vec<u8>, t: Ty) -> Option<()> {
        let op = match shapes.shape(t) {
            None => t,
            Some(Shape::Knot(id)) => {
                let target = shapes.memo_of(id)??;
                match shapes.shape(target)? {
                    Shape::Node { .. } => *shapes.entry_of.get(target as usize)?,
                    Shape::Knot(_) => return None,
                }
            }
            Some(Shape::Node { .. }) => *shapes.entry_of.get(t as usize)?,
        };
        if op == -1 && shapes.shape(t).is_some() {
            return None;
        }
        sleb(buf, op);
        Some(())
    }
}

/// SLEB128 of `v`: most are opcodes and small entry indices, one byte.
#[inline(always)]
fn sleb(out: &mut Vec<u8>, v: i64) {
    if (-64..64).contains(&v) {
        out.push(v as u8 & 0x7f);
    } else {
        leb::write_i64(out, v);
    }
}

/// LEB128 of `v`: counts are most often one byte.
#[inline(always)]
fn uleb(out: &mut Vec<u8>, v: u64) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        leb::write_u64(out, v);
    }
}

/// A field id's LEB128 bytes, computed by the compiler (`StaticField::leb`): one
/// 8-byte store cut back to their count.
#[inline(always)]
fn put_leb(out: &mut Vec<u8>, word: u64) {
    let len = out.len();
    out.extend_from_slice(&word.to_le_bytes());
    out.truncate(len + (word >> 56) as usize);
}

/// The vectors of one header's computation, kept for the next tuple type's (emptied,
/// capacity kept), so a fresh instance's first calls allocate them once.
#[derive(Default)]
struct Spare {
    shapes: Shapes,
    table: Table,
    /// The argument types' references.
    roots: Vec<Ty>,
}

thread_local! {
    static SPARE: Cell<Option<Box<Spare>>> = const { Cell::new(None) };
}

/// The whole header (magic, table, argument count, argument types) for the
/// argument types `args`, each its id and description; `None` when the `ty()` path
/// must write it. Written into a vector allocated once at a bound of its size: no
/// copy, no reallocation.
pub(crate) fn header(args: &[(TypeId, &'static StaticType)]) -> Option<Vec<u8>> {
    let mut spare = SPARE.with(Cell::take).unwrap_or_else(Spare::boxed);
    let out = header_with(&mut spare, args);
    if spare.clear() {
        SPARE.with(|c| c.set(Some(spare)));
    }
    out
}

impl Spare {
    /// A canister's reply types take a few dozen shapes and parts: each vector
    /// allocated once at a size that holds them, instead of growing through several
    /// sizes on the first call.
    fn boxed() -> Box<Spare> {
        Box::new(Spare {
            shapes: Shapes {
                shapes: Vec::with_capacity(32),
                parts: Vec::with_capacity(64),
                memo: Vec::with_capacity(16),
                entry_of: Vec::with_capacity(32),
            },
            table: Table {
                entries: Vec::with_capacity(16),
            },
            roots: Vec::with_capacity(4),
        })
    }

    /// Empties the vectors; false if one grew past what is worth keeping (one huge
    /// type should not pin its memory for the life of the canister).
    fn clear(&mut self) -> bool {
        const MAX: usize = 4096;
        let Spare {
            shapes,
            table,
            roots,
        } = self;
        roots.clear();
        shapes.entry_of.clear();
        table.entries.clear();
        shapes.shapes.clear();
        shapes.parts.clear();
        shapes.memo.clear();
        shapes.shapes.capacity() <= MAX
            && shapes.parts.capacity() <= MAX
            && table.entries.capacity() <= MAX
    }
}

fn header_with(spare: &mut Spare, args: &[(TypeId, &'static StaticType)]) -> Option<Vec<u8>> {
    let Spare {
        shapes,
        table,
        roots,
    } = spare;
    for &(id, d) in args {
        roots.push(shapes.linked(id, d, 0)?);
    }
    let mut budget = COMPARE_BUDGET;
    for &r in roots.iter() {
        table.number(shapes, r, &mut budget)?;
    }
    // Room for the magic and counts, two bytes per entry, five bytes of id and one
    // of type per part (two past the 64th entry), a type per root, and `put_leb`'s
    // 8-byte store: a bound, not the size, as the exact size would cost a pass over
    // the fields, more than the few bytes it would save a header kept per type.
    let per_part = if table.entries.len() < 64 { 6 } else { 8 };
    let size = 16 + 2 * table.entries.len() + per_part * (shapes.parts.len() + roots.len());
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(opcode::MAGIC);
    uleb(&mut out, table.entries.len() as u64);
    for &(_, t) in &table.entries {
        table.write_entry(shapes, &mut out, t)?;
    }
    uleb(&mut out, roots.len() as u64);
    for &r in roots.iter() {
        table.encode(shapes, &mut out, r)?;
    }
    Some(out)
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
