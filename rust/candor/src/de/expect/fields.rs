//! The fields of an expected record or variant, as both interning paths store
//! them: the record's span reserved at the end of the arena's fields (with ids and
//! labels) before the fields' types are interned, each type then written into its
//! slot, and the span sorted by id only when its fields came out of order. So a
//! record's fields precede those of the records inside it, whichever path interns
//! it, and no field goes through a buffer on its way into the arena.

use crate::types::static_type::{StaticField, StaticLabel};
use crate::wire::header::{Arena, FieldEntry, FieldLabel, Prim, Ref, Span};

/// Reserves a record's or variant's span at the end of `arena`'s fields, one field
/// per `(id, label)` in the order given, each typed `empty` until
/// [`set_field_type`] gives it its type; returns where the span starts, and
/// whether the ids came in increasing order. Reserving the span before the
/// fields' types are interned puts a record's fields before those of the records
/// inside it, in both interning paths alike.
pub(super) fn reserve_fields(
    arena: &mut Arena,
    fields: impl ExactSizeIterator<Item = (u32, FieldLabel)>,
) -> (usize, bool) {
    let start = span_start(arena);
    let n = fields.len();
    arena.fields.reserve(n);
    arena.labels.reserve(n);
    // Derived types and static descriptions list their fields in id order
    // already: this pass finds them so, and they need no sorting.
    let mut sorted = true;
    let mut prev = -1i64;
    for (id, label) in fields {
        sorted &= i64::from(id) > prev;
        prev = i64::from(id);
        arena.fields.push(FieldEntry {
            id,
            ty: Ref::prim(Prim::Empty),
        });
        arena.labels.push(label);
    }
    (start, sorted)
}

/// Where a new span of fields starts, the labels brought level with the fields
/// first: they run parallel, and wire-only fields before them read as ids.
#[inline(always)]
pub(super) fn span_start(arena: &mut Arena) -> usize {
    if arena.labels.len() != arena.fields.len() {
        arena.labels.resize(arena.fields.len(), FieldLabel::Id);
    }
    arena.fields.len()
}

/// [`reserve_fields`] for a static description's fields: each vector extended once
/// from the slice (one capacity check per vector rather than one per field and
/// vector, as a first call pays this for every field it places).
pub(super) fn reserve_static_fields(
    arena: &mut Arena,
    fs: &'static [StaticField],
) -> (usize, bool) {
    let start = span_start(arena);
    let mut sorted = true;
    let mut prev = -1i64;
    arena.fields.extend(fs.iter().map(|f| {
        sorted &= i64::from(f.id) > prev;
        prev = i64::from(f.id);
        FieldEntry {
            id: f.id,
            ty: Ref::prim(Prim::Empty),
        }
    }));
    arena
        .labels
        .extend(fs.iter().map(|f| field_label(&f.label)));
    (start, sorted)
}

/// How an expected field is labelled, as its description labels it: a name is
/// the description's own, not a copy of it.
#[inline]
pub(super) fn field_label(label: &StaticLabel) -> FieldLabel {
    match *label {
        StaticLabel::Named(n) => FieldLabel::Named(n.into()),
        StaticLabel::Unnamed => FieldLabel::Unnamed,
        StaticLabel::Id => FieldLabel::Id,
    }
}

/// Gives the reserved field at `at` its type.
#[inline(always)]
pub(super) fn set_field_type(arena: &mut Arena, at: usize, ty: Ref) {
    if let Some(e) = arena.fields.get_mut(at) {
        e.ty = ty;
    }
}

/// The span of `len` fields reserved at `start`, sorted by id when `reserve_fields`
/// found them out of order; `None` if two have the same id.
#[inline(always)]
pub(super) fn finish_fields(
    arena: &mut Arena,
    start: usize,
    len: usize,
    sorted: bool,
) -> Option<Span> {
    let span = Span {
        start: start as u32,
        len: len as u32,
    };
    if sorted {
        Some(span)
    } else {
        sort_fields(arena, span)
    }
}

/// `span`, whose fields came out of id order, sorted by id (each label moving
/// with its field); `None` if two have the same id.
#[cold]
fn sort_fields(arena: &mut Arena, span: Span) -> Option<Span> {
    let range = span.start as usize..span.start as usize + span.len as usize;
    let fields = arena.fields.get_mut(range.clone())?;
    let labels = arena.labels.get_mut(range)?;
    let mut pairs: Vec<(FieldEntry, FieldLabel)> = fields
        .iter()
        .copied()
        .zip(
            labels
                .iter_mut()
                .map(|l| std::mem::replace(l, FieldLabel::Id)),
        )
        .collect();
    pairs.sort_by_key(|p| p.0.id);
    let unique = pairs
        .iter()
        .zip(pairs.iter().skip(1))
        .all(|(a, b)| a.0.id < b.0.id);
    for ((f, l), (pf, pl)) in fields.iter_mut().zip(labels.iter_mut()).zip(pairs) {
        *f = pf;
        *l = pl;
    }
    unique.then_some(span)
}

#[cfg(test)]
mod tests {
    use super::super::Interner;
    use super::*;
    use crate::types::CandidType;
    use crate::wire::header::Node;

    /// The spans of the records reachable from `r`, in the order a walk from the
    /// root meets them.
    fn spans(a: &Arena, r: Ref, out: &mut Vec<Span>) {
        match a.node(r.resolved()) {
            Node::Record(s) | Node::Variant(s) => {
                out.push(s);
                for i in s.start..s.start + s.len {
                    spans(a, a.fields[i as usize].ty, out);
                }
            }
            Node::Opt(t) | Node::Vec(t) => spans(a, t, out),
            _ => {}
        }
    }

    /// `T` interned from its description and from `ty()`, each into a fresh
    /// arena: the same fields in both, and every record's span before the spans
    /// of the records inside it.
    fn outer_first<T: CandidType>() {
        let mut placed = Interner::default();
        let d = T::_static_type().expect("a description");
        let pr = placed.place_root(T::id(), d).expect("placed");
        crate::types::internal::env_clear();
        let mut interned = Interner::default();
        let ir = interned.intern(&T::ty(), None).expect("interned");
        assert_eq!(pr, ir);
        assert_eq!(placed.arena.fields, interned.arena.fields);
        assert_eq!(placed.arena.labels, interned.arena.labels);
        let mut seen = Vec::new();
        spans(&placed.arena, pr, &mut seen);
        assert_eq!(seen.first().map(|s| s.start), Some(0));
        let starts: Vec<u32> = seen.iter().map(|s| s.start).collect();
        let mut sorted = starts.clone();
        sorted.sort_unstable();
        assert_eq!(starts, sorted, "{}", std::any::type_name::<T>());
    }

    #[test]
    fn a_record_span_comes_before_the_spans_inside_it_in_both_paths() {
        outer_first::<((u8, bool), u16)>();
        outer_first::<(Vec<(i8, (u32, String))>, Option<(bool,)>, u8)>();
        outer_first::<Result<(u8, u16), (String,)>>();
    }

    #[test]
    fn out_of_order_fields_are_sorted_with_their_labels_and_a_collision_refused() {
        let mut a = Arena::new();
        let named = |s: &'static str| FieldLabel::Named(s.into());
        let (start, sorted) = reserve_fields(
            &mut a,
            [(9, named("z")), (2, FieldLabel::Unnamed), (5, named("m"))].into_iter(),
        );
        assert_eq!((start, sorted), (0, false));
        for (i, p) in [Prim::Nat8, Prim::Text, Prim::Bool].into_iter().enumerate() {
            set_field_type(&mut a, i, Ref::prim(p));
        }
        let span = Span { start: 0, len: 3 };
        assert_eq!(sort_fields(&mut a, span), Some(span));
        let entry = |id, p| FieldEntry {
            id,
            ty: Ref::prim(p),
        };
        assert_eq!(
            a.fields,
            [
                entry(2, Prim::Text),
                entry(5, Prim::Bool),
                entry(9, Prim::Nat8)
            ]
        );
        assert_eq!(a.labels, [FieldLabel::Unnamed, named("m"), named("z")]);
        // In order: found so without sorting. Two of one id: refused.
        let (start, sorted) =
            reserve_fields(&mut a, [(1, named("a")), (3, named("b"))].into_iter());
        assert_eq!((start, sorted), (3, true));
        let (start, sorted) =
            reserve_fields(&mut a, [(4, named("a")), (4, named("b"))].into_iter());
        assert!(!sorted);
        assert_eq!(
            sort_fields(
                &mut a,
                Span {
                    start: start as u32,
                    len: 2
                }
            ),
            None
        );
    }
}
