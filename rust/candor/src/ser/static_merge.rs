//! [`TypeSerialize`](super::TypeSerialize)'s numbering over the nodes of
//! `static_table.rs`, for headers where two nodes might be structurally equal and
//! share an entry: the entries in pre-order, a new node sharing the entry of an
//! equal one (fields compared by id, knots by the type they name, as `Type`'s order
//! compares them).

use super::static_table::{fields_of, Ty};
use super::static_walk::Shapes;
use crate::fasthash::FastHasher;
use crate::types::static_type::StaticKind;
use crate::types::StaticType;
use std::hash::Hasher;

/// The entries of one header and the entry of every node.
#[derive(Default)]
pub(super) struct Merged {
    /// Per entry, the node that made it and that node's [`signature`]: a new node
    /// shares the entry of an equal one (`TypeSerialize`'s search of its index by
    /// structure), found by comparing signatures, then the nodes.
    entries: Vec<(u64, Ty)>,
    /// Entry per node (an `Rc`'s address in `TypeSerialize`), -1 for none yet.
    entry_of: Vec<i64>,
}

/// How many steps the structural comparisons of one header may take (in the walk
/// and here, each with its own): a header whose comparisons would take more is
/// left to the `ty()` path. The walk compares a node once its parts are shared, so
/// equal trees cost a level each; what is left are nodes alike in their keys.
pub(super) const COMPARE_BUDGET: u32 = 1 << 16;

/// A digest of a node's own level: opcode, field ids, and per part its opcode (a
/// primitive), the type it names (a knot) or its node's opcode and size. Two equal
/// nodes have equal signatures.
fn signature(shapes: &Shapes, t: Ty) -> Option<u64> {
    let n = shapes.node(t)?;
    let mut h = FastHasher::default();
    h.write_i64(n.op);
    for f in fields_of(n.d) {
        h.write_u32(f.id);
    }
    for &c in shapes.parts(n) {
        h.write_u64(shapes.kind(c));
    }
    Some(h.finish())
}

/// Whether two nodes' own levels are equal: for records and variants the same
/// field ids, for functions the same argument count and mode, for services the
/// same method names.
fn same_level(a: &'static StaticType, b: &'static StaticType) -> bool {
    if std::ptr::eq(a, b) {
        return true;
    }
    let (x, y) = (fields_of(a), fields_of(b));
    if x.is_empty() {
        return y.is_empty() && same_reference_level(a, b);
    }
    x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.id == q.id)
}

/// [`same_level`] of two nodes without fields: functions and services compared,
/// anything else (an `opt`, a `vec`, an empty record) has no level of its own
/// past the opcode, which the caller compared.
#[cold]
fn same_reference_level(a: &'static StaticType, b: &'static StaticType) -> bool {
    match (a.kind, b.kind) {
        (StaticKind::Func(f), StaticKind::Func(g)) => {
            f.args.len() == g.args.len() && f.rets.len() == g.rets.len() && f.mode == g.mode
        }
        (StaticKind::Service(x), StaticKind::Service(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.name == q.name)
        }
        (StaticKind::Func(_) | StaticKind::Service(_), _)
        | (_, StaticKind::Func(_) | StaticKind::Service(_)) => false,
        _ => true,
    }
}

/// Whether `a` and `b` are equal as `Type`s: the same primitive, knots naming the
/// same type, or nodes with the same opcode and equal parts under the same ids.
/// `None` when the budget runs out.
pub(super) fn equal(shapes: &Shapes, a: Ty, b: Ty, budget: &mut u32) -> Option<bool> {
    if a == b {
        return Some(true);
    }
    *budget = budget.checked_sub(1)?;
    if let (Some(x), Some(y)) = (shapes.knot(a), shapes.knot(b)) {
        return Some(x == y);
    }
    let (Some(x), Some(y)) = (shapes.node(a), shapes.node(b)) else {
        return Some(false);
    };
    if x.op != y.op || x.len != y.len || !same_level(x.d, y.d) {
        return Some(false);
    }
    for (&p, &q) in shapes.parts(x).iter().zip(shapes.parts(y)) {
        if !equal(shapes, p, q, budget)? {
            return Some(false);
        }
    }
    Some(true)
}

impl Merged {
    /// Numbers the nodes reachable from `roots`, in `TypeSerialize`'s order.
    pub(super) fn number(&mut self, shapes: &Shapes, roots: &[Ty]) -> Option<()> {
        for _ in &shapes.nodes {
            self.entry_of.push(-1);
        }
        let mut budget = COMPARE_BUDGET;
        for &r in roots {
            self.number_one(shapes, r, &mut budget)?;
        }
        Some(())
    }

    /// `build_type`'s numbering: the entry of `t` and its parts', in pre-order.
    fn number_one(&mut self, shapes: &Shapes, t: Ty, budget: &mut u32) -> Option<()> {
        let Some(n) = shapes.node(t) else {
            // A primitive or a knot: no entry of its own.
            return Some(());
        };
        let i = t as usize;
        if *self.entry_of.get(i)? >= 0 {
            return Some(());
        }
        let sig = signature(shapes, t)?;
        for (e, &(other_sig, other)) in self.entries.iter().enumerate() {
            if other_sig == sig && equal(shapes, other, t, budget)? {
                *self.entry_of.get_mut(i)? = e as i64;
                return Some(());
            }
        }
        *self.entry_of.get_mut(i)? = self.entries.len() as i64;
        self.entries.push((sig, t));
        for &c in shapes.parts(n) {
            self.number_one(shapes, c, budget)?;
        }
        Some(())
    }

    /// How many entries there are.
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The node that made each entry, in entry order.
    pub(super) fn order(&self) -> impl Iterator<Item = Ty> + '_ {
        self.entries.iter().map(|e| e.1)
    }

    /// The entry of node `t`, once numbered.
    #[inline(always)]
    pub(super) fn entry(&self, t: Ty) -> Option<i64> {
        let e = *self.entry_of.get(usize::try_from(t).ok()?)?;
        (e >= 0).then_some(e)
    }

    /// Empties the vectors, capacity kept.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.entry_of.clear();
    }

    /// Whether every vector's capacity is at most `max`.
    pub(super) fn small(&self, max: usize) -> bool {
        self.entries.capacity() <= max && self.entry_of.capacity() <= max
    }
}
