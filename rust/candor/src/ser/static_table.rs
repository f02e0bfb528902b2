//! The header of a tuple of argument types, written from their static descriptions
//! (`types/static_type.rs`) instead of from `ty()`'s trees.
//!
//! The bytes must be [`TypeSerialize`](super::TypeSerialize)'s, so this runs its
//! algorithm on the trees `ty()` would compute after the memo is cleared, without
//! building them:
//! * [`Shapes`] emulates the memo over the descriptions: one shape per Rust type
//!   that builds a node (its `Rc`), a fresh `Knot` leaf for a mention of a type still
//!   being computed, and what a transparent type was first computed as;
//! * [`Table`] numbers the shapes in pre-order, gives two structurally equal shapes
//!   one entry (fields compared by id, knots by the type they name), and writes a knot
//!   as the entry of the type it names.
//!
//! Anything the emulation does not cover (a type without a description, a knot whose
//! type has no entry) returns `None`, and the caller takes the `ty()` path, which
//! also reports any error.

use crate::fasthash::FastMap;
use crate::types::static_type::{StaticKind, StaticPrim, StaticRef};
use crate::types::{StaticType, TypeId};
use crate::wire::{leb, opcode};

/// A tree node as `ty()` would build it.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Shape {
    Prim(i64),
    /// `Knot(id)`: a mention of a type whose computation had not finished.
    Knot(TypeId),
    /// `opt`, `vec`, record or variant: its opcode and (id, child) parts.
    Node(i64, Vec<(u32, u32)>),
}

/// Deeper descriptions than this are left to the `ty()` path (and its checks).
const MAX_DEPTH: usize = 512;

/// The memo's emulation: every shape, and what each Rust type computed as.
#[derive(Default)]
struct Shapes {
    shapes: Vec<Shape>,
    /// `None` while the type is being computed.
    memo: FastMap<TypeId, Option<u32>>,
}

impl Shapes {
    fn add(&mut self, s: Shape) -> u32 {
        self.shapes.push(s);
        self.shapes.len() as u32 - 1
    }

    /// `ty()` of the Rust type `id` described by `d`.
    fn linked(&mut self, id: TypeId, d: &'static StaticType, depth: usize) -> Option<u32> {
        if let StaticKind::Prim(p) = d.kind {
            return Some(self.add(Shape::Prim(prim_opcode(p))));
        }
        match self.memo.get(&id) {
            Some(Some(s)) => return Some(*s),
            Some(None) => return Some(self.add(Shape::Knot(id))),
            None => {}
        }
        self.memo.insert(id, None);
        let owner = d.owner.map(|f| f());
        let s = match owner {
            // A transparent type: its `_ty()` is the owner's `ty()`.
            Some(o) if o != id => self.linked(o, d, depth + 1)?,
            _ => self.node(d, depth)?,
        };
        self.memo.insert(id, Some(s));
        Some(s)
    }

    fn child(&mut self, r: StaticRef, depth: usize) -> Option<u32> {
        match r {
            StaticRef::Link(l) => self.linked((l.id)(), (l.ty)()?, depth + 1),
            StaticRef::Inline(d) => match d.owner {
                Some(o) => self.linked(o(), d, depth + 1),
                None => self.node(d, depth + 1),
            },
        }
    }

    /// The node `d` describes, its parts computed in order.
    fn node(&mut self, d: &'static StaticType, depth: usize) -> Option<u32> {
        if depth > MAX_DEPTH {
            return None;
        }
        let shape = match d.kind {
            StaticKind::Prim(p) => Shape::Prim(prim_opcode(p)),
            StaticKind::Opt(r) => Shape::Node(opcode::OPT, vec![(0, self.child(r, depth)?)]),
            StaticKind::Vec(r) => Shape::Node(opcode::VEC, vec![(0, self.child(r, depth)?)]),
            StaticKind::Record(fs) | StaticKind::Variant(fs) => {
                let mut parts = Vec::with_capacity(fs.len());
                for f in fs {
                    parts.push((f.id, self.child(f.ty, depth)?));
                }
                let op = match d.kind {
                    StaticKind::Record(_) => opcode::RECORD,
                    _ => opcode::VARIANT,
                };
                Shape::Node(op, parts)
            }
        };
        Some(self.add(shape))
    }
}

/// [`TypeSerialize`](super::TypeSerialize)'s numbering over shapes.
struct Table<'a> {
    shapes: &'a Shapes,
    entries: Vec<Vec<u8>>,
    /// Entry per shape (an `Rc`'s address in `TypeSerialize`).
    by_shape: FastMap<u32, i64>,
    /// Entry per structure: the structure of a shape is its opcode and its parts'
    /// structures, numbered as they are met.
    by_structure: FastMap<Shape, i64>,
    /// Structure number per shape, and per structure.
    structure_of: FastMap<u32, u32>,
    structures: FastMap<Shape, u32>,
}

impl Table<'_> {
    fn shape(&self, s: u32) -> Option<&Shape> {
        self.shapes.shapes.get(s as usize)
    }

    /// The structure of shape `s`: prims and knots are their own; a node's parts are
    /// replaced by their structures' numbers.
    fn structure(&mut self, s: u32) -> Option<Shape> {
        match self.shape(s)?.clone() {
            Shape::Node(op, parts) => {
                let mut out = Vec::with_capacity(parts.len());
                for (id, c) in parts {
                    out.push((id, self.structure_number(c)?));
                }
                Some(Shape::Node(op, out))
            }
            leaf => Some(leaf),
        }
    }

    fn structure_number(&mut self, s: u32) -> Option<u32> {
        if let Some(&n) = self.structure_of.get(&s) {
            return Some(n);
        }
        let key = self.structure(s)?;
        let next = self.structures.len() as u32;
        let n = *self.structures.entry(key).or_insert(next);
        self.structure_of.insert(s, n);
        Some(n)
    }

    /// `build_type`: the entry of `s` and its parts', in pre-order.
    fn build(&mut self, s: u32) -> Option<()> {
        let parts = match self.shape(s)? {
            Shape::Node(_, parts) => parts.clone(),
            _ => return Some(()),
        };
        if self.by_shape.contains_key(&s) {
            return Some(());
        }
        let key = self.structure(s)?;
        if let Some(&idx) = self.by_structure.get(&key) {
            self.by_shape.insert(s, idx);
            return Some(());
        }
        let idx = self.entries.len() as i64;
        self.by_structure.insert(key, idx);
        self.by_shape.insert(s, idx);
        self.entries.push(Vec::new());
        for &(_, c) in &parts {
            self.build(c)?;
        }
        let mut buf = Vec::new();
        let Some(Shape::Node(op, _)) = self.shape(s) else {
            return None;
        };
        leb::write_i64(&mut buf, *op);
        if matches!(*op, opcode::RECORD | opcode::VARIANT) {
            leb::write_u64(&mut buf, parts.len() as u64);
            for &(id, c) in &parts {
                leb::write_u64(&mut buf, u64::from(id));
                self.encode(&mut buf, c)?;
            }
        } else {
            let &(_, c) = parts.first()?;
            self.encode(&mut buf, c)?;
        }
        *self.entries.get_mut(idx as usize)? = buf;
        Some(())
    }

    /// A reference to `s`: a primitive's opcode, or an entry.
    fn encode(&self, buf: &mut Vec<u8>, s: u32) -> Option<()> {
        let op = match self.shape(s)? {
            Shape::Prim(op) => *op,
            Shape::Knot(id) => {
                let target = (*self.shapes.memo.get(id)?)?;
                match self.shape(target)? {
                    Shape::Node(..) => *self.by_shape.get(&target)?,
                    _ => return None,
                }
            }
            Shape::Node(..) => *self.by_shape.get(&s)?,
        };
        leb::write_i64(buf, op);
        Some(())
    }
}

/// The header after the magic (table, argument count, argument types) for the
/// argument types `args`, each its id and description; `None` when the `ty()` path
/// must write it.
pub(crate) fn header(args: &[(TypeId, &'static StaticType)]) -> Option<Vec<u8>> {
    let mut shapes = Shapes::default();
    let mut roots = Vec::with_capacity(args.len());
    for &(id, d) in args {
        roots.push(shapes.linked(id, d, 0)?);
    }
    let mut table = Table {
        shapes: &shapes,
        entries: Vec::new(),
        by_shape: FastMap::default(),
        by_structure: FastMap::default(),
        structure_of: FastMap::default(),
        structures: FastMap::default(),
    };
    for &r in &roots {
        table.build(r)?;
    }
    let mut out = Vec::new();
    leb::write_u64(&mut out, table.entries.len() as u64);
    for e in &table.entries {
        out.extend_from_slice(e);
    }
    leb::write_u64(&mut out, roots.len() as u64);
    for &r in &roots {
        table.encode(&mut out, r)?;
    }
    Some(out)
}

fn prim_opcode(p: StaticPrim) -> i64 {
    match p {
        StaticPrim::Null => opcode::NULL,
        StaticPrim::Bool => opcode::BOOL,
        StaticPrim::Nat => opcode::NAT,
        StaticPrim::Int => opcode::INT,
        StaticPrim::Nat8 => opcode::NAT8,
        StaticPrim::Nat16 => opcode::NAT16,
        StaticPrim::Nat32 => opcode::NAT32,
        StaticPrim::Nat64 => opcode::NAT64,
        StaticPrim::Int8 => opcode::INT8,
        StaticPrim::Int16 => opcode::INT16,
        StaticPrim::Int32 => opcode::INT32,
        StaticPrim::Int64 => opcode::INT64,
        StaticPrim::Float32 => opcode::FLOAT32,
        StaticPrim::Float64 => opcode::FLOAT64,
        StaticPrim::Text => opcode::TEXT,
        StaticPrim::Reserved => opcode::RESERVED,
        StaticPrim::Empty => opcode::EMPTY,
        StaticPrim::Principal => opcode::PRINCIPAL,
    }
}
