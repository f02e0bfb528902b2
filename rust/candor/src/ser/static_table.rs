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
//!   one entry (fields compared by id, knots by the type they name), and writes a knot
//!   as the entry of the type it names.
//!
//! Anything the emulation does not cover (a type without a description, a knot whose
//! type has no entry) returns `None`, and the caller takes the `ty()` path, which
//! also reports any error. Everything lives in a few flat vectors: this runs once per
//! tuple type, on the first call of a method, where each allocation counts.

use crate::fasthash::FastHasher;
use crate::types::static_type::{StaticKind, StaticRef};
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
    /// `opt`, `vec`, record or variant: its opcode and its parts in `Shapes::parts`.
    Node { op: i64, start: u32, len: u32 },
}

/// Deeper descriptions than this are left to the `ty()` path (and its checks).
const MAX_DEPTH: usize = 512;

/// The memo's emulation: every shape, and what each Rust type computed as.
#[derive(Default)]
struct Shapes {
    shapes: Vec<Shape>,
    /// (field id, type) of every node, each node's in one run.
    parts: Vec<(u32, Ty)>,
    /// The parts of the nodes being built, innermost last.
    scratch: Vec<(u32, Ty)>,
    /// `None` while the type is being computed. Searched in order: a header has a
    /// handful of Rust types, and this runs once per tuple type.
    memo: Vec<(TypeId, Option<Ty>)>,
}

impl Shapes {
    fn add(&mut self, s: Shape) -> Ty {
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
        self.memo.push((id, None));
        let t = match d.owner.map(|f| f()) {
            // A transparent type: its `_ty()` is the owner's `ty()`.
            Some(o) if o != id => self.linked(o, d, depth + 1)?,
            _ => self.node(d, depth)?,
        };
        self.set_memo(id, t);
        Some(t)
    }

    fn memo_of(&self, id: TypeId) -> Option<Option<Ty>> {
        self.memo.iter().find(|m| m.0 == id).map(|m| m.1)
    }

    fn set_memo(&mut self, id: TypeId, t: Ty) {
        if let Some(m) = self.memo.iter_mut().find(|m| m.0 == id) {
            m.1 = Some(t);
        }
    }

    fn child(&mut self, r: StaticRef, depth: usize) -> Option<Ty> {
        match r {
            StaticRef::Link(l) => self.linked((l.id)(), (l.ty)()?, depth + 1),
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
        let (op, one) = match d.kind {
            StaticKind::Prim(p) => return Some(p.opcode()),
            StaticKind::Opt(r) => (opcode::OPT, r),
            StaticKind::Vec(r) => (opcode::VEC, r),
            StaticKind::Record(fs) => return self.fields(opcode::RECORD, fs, depth),
            StaticKind::Variant(fs) => return self.fields(opcode::VARIANT, fs, depth),
        };
        let t = self.child(one, depth)?;
        let start = self.parts.len() as u32;
        self.parts.push((0, t));
        Some(self.add(Shape::Node { op, start, len: 1 }))
    }

    fn fields(
        &mut self,
        op: i64,
        fs: &'static [crate::types::static_type::StaticField],
        depth: usize,
    ) -> Option<Ty> {
        let base = self.scratch.len();
        for f in fs {
            let t = self.child(f.ty, depth)?;
            self.scratch.push((f.id, t));
        }
        let start = self.parts.len() as u32;
        self.parts.extend(self.scratch.drain(base..));
        let len = self.parts.len() as u32 - start;
        Some(self.add(Shape::Node { op, start, len }))
    }

    fn shape(&self, t: Ty) -> Option<Shape> {
        self.shapes.get(usize::try_from(t).ok()?).copied()
    }

    fn parts(&self, start: u32, len: u32) -> &[(u32, Ty)] {
        self.parts
            .get(start as usize..(start + len) as usize)
            .unwrap_or_default()
    }
}

/// [`TypeSerialize`](super::TypeSerialize)'s numbering over shapes.
#[derive(Default)]
struct Table {
    /// Entry per shape (an `Rc`'s address in `TypeSerialize`), -1 for none yet.
    entry_of: Vec<i64>,
    /// Per entry, the shape that made it and that shape's [`signature`]: a new
    /// shape shares the entry of an equal one (`TypeSerialize`'s search of its
    /// index by structure), found by comparing signatures, then the shapes.
    entries: Vec<(u64, Ty)>,
    /// The entries' bytes, each entry's in one run, in the order they were finished.
    bytes: Vec<u8>,
    spans: Vec<(u32, u32)>,
}

/// How many steps the structural comparisons of one header may take: types built
/// to make them explode (wide trees of equal shapes under distinct Rust types) are
/// left to the `ty()` path.
const COMPARE_BUDGET: u32 = 1 << 16;

/// A digest of a shape's own level: opcode, field ids, and per part its opcode (a
/// primitive), the type it names (a knot) or its node's opcode and size. Two equal
/// shapes have equal signatures.
fn signature(shapes: &Shapes, op: i64, parts: &[(u32, Ty)]) -> u64 {
    let mut h = FastHasher::default();
    h.write_i64(op);
    for &(id, c) in parts {
        h.write_u32(id);
        match shapes.shape(c) {
            None => h.write_i64(c),
            Some(Shape::Knot(k)) => h.write_usize(k.address()),
            Some(Shape::Node { op, len, .. }) => h.write_u64((op as u64) << 32 | u64::from(len)),
        }
    }
    h.finish()
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
            Some(Shape::Node { op, start, len }),
            Some(Shape::Node {
                op: op2,
                start: start2,
                len: len2,
            }),
        ) => {
            if op != op2 || len != len2 {
                return Some(false);
            }
            for (p, q) in shapes
                .parts(start, len)
                .iter()
                .zip(shapes.parts(start2, len2))
            {
                if p.0 != q.0 || !equal(shapes, p.1, q.1, budget)? {
                    return Some(false);
                }
            }
            true
        }
        _ => false,
    })
}

impl Table {
    /// `build_type`: the entry of `t` and its parts', in pre-order.
    fn build(&mut self, shapes: &Shapes, t: Ty, budget: &mut u32) -> Option<()> {
        let Some(Shape::Node { op, start, len }) = shapes.shape(t) else {
            return Some(());
        };
        let i = t as usize;
        if *self.entry_of.get(i)? >= 0 {
            return Some(());
        }
        let parts = shapes.parts(start, len);
        let sig = signature(shapes, op, parts);
        for (e, &(other_sig, other)) in self.entries.iter().enumerate() {
            if other_sig == sig && equal(shapes, other, t, budget)? {
                *self.entry_of.get_mut(i)? = e as i64;
                return Some(());
            }
        }
        let idx = self.spans.len() as i64;
        self.spans.push((0, 0));
        self.entries.push((sig, t));
        *self.entry_of.get_mut(i)? = idx;
        for &(_, c) in parts {
            self.build(shapes, c, budget)?;
        }
        let begin = self.bytes.len() as u32;
        let mut buf = std::mem::take(&mut self.bytes);
        leb::write_i64(&mut buf, op);
        if matches!(op, opcode::RECORD | opcode::VARIANT) {
            leb::write_u64(&mut buf, u64::from(len));
            for &(id, c) in parts {
                leb::write_u64(&mut buf, u64::from(id));
                self.encode(shapes, &mut buf, c)?;
            }
        } else {
            let &(_, c) = parts.first()?;
            self.encode(shapes, &mut buf, c)?;
        }
        self.bytes = buf;
        *self.spans.get_mut(idx as usize)? = (begin, self.bytes.len() as u32 - begin);
        Some(())
    }

    /// A reference to `t`: a primitive's opcode, or an entry.
    fn encode(&self, shapes: &Shapes, buf: &mut Vec<u8>, t: Ty) -> Option<()> {
        let op = match shapes.shape(t) {
            None => t,
            Some(Shape::Knot(id)) => {
                let target = shapes.memo_of(id)??;
                match shapes.shape(target)? {
                    Shape::Node { .. } => *self.entry_of.get(target as usize)?,
                    Shape::Knot(_) => return None,
                }
            }
            Some(Shape::Node { .. }) => *self.entry_of.get(t as usize)?,
        };
        if op == -1 && shapes.shape(t).is_some() {
            return None;
        }
        leb::write_i64(buf, op);
        Some(())
    }
}

/// The vectors of one header's computation, kept for the next tuple type's (emptied,
/// capacity kept), so a fresh instance's first calls allocate them once.
#[derive(Default)]
struct Spare {
    shapes: Shapes,
    table: Table,
    /// The argument types' references.
    roots: Vec<Ty>,
    /// The header.
    out: Vec<u8>,
}

thread_local! {
    static SPARE: Cell<Option<Box<Spare>>> = const { Cell::new(None) };
}

/// The whole header (magic, table, argument count, argument types) for the
/// argument types `args`, each its id and description; `None` when the `ty()` path
/// must write it. Assembled in a kept buffer and copied out at its exact size.
pub(crate) fn header(args: &[(TypeId, &'static StaticType)]) -> Option<Box<[u8]>> {
    let mut spare = SPARE.with(Cell::take).unwrap_or_default();
    let out = header_with(&mut spare, args).map(|()| Box::from(spare.out.as_slice()));
    if spare.clear() {
        SPARE.with(|c| c.set(Some(spare)));
    }
    out
}

impl Spare {
    /// Empties the vectors; false if one grew past what is worth keeping (one huge
    /// type should not pin its memory for the life of the canister).
    fn clear(&mut self) -> bool {
        const MAX: usize = 4096;
        let Spare {
            shapes,
            table,
            roots,
            out,
        } = self;
        roots.clear();
        out.clear();
        table.entry_of.clear();
        table.entries.clear();
        table.bytes.clear();
        table.spans.clear();
        shapes.shapes.clear();
        shapes.parts.clear();
        shapes.scratch.clear();
        shapes.memo.clear();
        shapes.shapes.capacity() <= MAX
            && shapes.parts.capacity() <= MAX
            && table.entries.capacity() <= MAX
            && table.bytes.capacity() <= 4 * MAX
            && out.capacity() <= 4 * MAX
    }
}

fn header_with(spare: &mut Spare, args: &[(TypeId, &'static StaticType)]) -> Option<()> {
    let Spare {
        shapes,
        table,
        roots,
        out,
    } = spare;
    for &(id, d) in args {
        roots.push(shapes.linked(id, d, 0)?);
    }
    let n = shapes.shapes.len();
    table.entry_of.resize(n, -1);
    let mut budget = COMPARE_BUDGET;
    for &r in roots.iter() {
        table.build(shapes, r, &mut budget)?;
    }
    out.reserve(table.bytes.len() + 2 * roots.len() + 8);
    out.extend_from_slice(opcode::MAGIC);
    leb::write_u64(out, table.spans.len() as u64);
    for &(start, len) in &table.spans {
        out.extend_from_slice(table.bytes.get(start as usize..(start + len) as usize)?);
    }
    leb::write_u64(out, roots.len() as u64);
    for &r in roots.iter() {
        table.encode(shapes, out, r)?;
    }
    Some(())
}
