//! The least size of a value of a wire type: what a vector's claimed length is
//! checked against before any element is read. A pure function of the arena, so it
//! lives with it, below every user.

use super::header::{Arena, Node, Prim, Ref, Span};

impl Arena {
    /// The fewest bytes a value of this wire type takes, for the eager length check
    /// (a vector claiming more elements than the input could hold is rejected before
    /// any work). Zero for types whose values take no bytes.
    #[inline]
    pub(crate) fn min_size(&self, r: Ref) -> usize {
        min_size_of(self, self.node(r), 0)
    }
}

/// The least size of a value of node `n`, `depth` records down. A record's fields
/// that are not records themselves are sized here, without a call each: only a
/// nested record recurses.
#[inline(always)]
fn min_size_of(arena: &Arena, n: Node, depth: u32) -> usize {
    match n {
        Node::Prim(p) => match p {
            Prim::Null | Prim::Reserved | Prim::Empty => 0,
            Prim::Nat16 | Prim::Int16 => 2,
            Prim::Nat32 | Prim::Int32 | Prim::Float32 => 4,
            Prim::Nat64 | Prim::Int64 | Prim::Float64 => 8,
            _ => 1,
        },
        Node::Record(s) if depth < 4 => record_min_size(arena, s, depth),
        Node::Record(_) => 0,
        Node::Future => 2,
        _ => 1,
    }
}

#[inline(never)]
fn record_min_size(arena: &Arena, fields: Span, depth: u32) -> usize {
    arena
        .fields(fields)
        .iter()
        .map(|f| match arena.node(f.ty) {
            Node::Record(s) if depth + 1 < 4 => record_min_size(arena, s, depth + 1),
            n => min_size_of(arena, n, depth + 1),
        })
        .fold(0usize, usize::saturating_add)
}
