//! The fields of a wire record and of an expected record, walked together by id.
//!
//! Both lists are sorted by id (the header parser and the expected-type builder
//! guarantee it), so one pass pairs them. Decoding (`access::StructAccess`) and the
//! value-level `opt` check (`skip.rs`) walk records the same way; this is that walk.

use crate::wire::header::{Arena, FieldLabel, Ref, Span};

/// One step of the walk.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    /// A field on both sides: `k` is its index in the expected arena.
    Both { k: usize, id: u32, w: Ref, e: Ref },
    /// A field only in the expected type. `wire_done` tells whether the wire fields
    /// were exhausted (candid checks and resolves the type only while wire fields
    /// remain, and the cost of resolving follows that).
    Expected {
        k: usize,
        id: u32,
        e: Ref,
        wire_done: bool,
    },
    /// A field only on the wire.
    Wire { id: u32, w: Ref },
}

/// The position of the walk; `Copy`, so it lives in the frame that walks. Each
/// side is kept as the absolute index of its next field and the index past its
/// last, so a step compares and indexes without adding a span's start.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldMerge {
    /// The next wire field, and the end of the wire fields.
    w: u32,
    w_end: u32,
    /// The next expected field, and the end of the expected fields.
    e: u32,
    e_end: u32,
}

impl FieldMerge {
    pub(super) fn new(wire: Span, exp: Span) -> Self {
        FieldMerge {
            w: wire.start,
            w_end: wire.start.saturating_add(wire.len),
            e: exp.start,
            e_end: exp.start.saturating_add(exp.len),
        }
    }

    /// The next step, or `None` when both sides are done.
    #[inline]
    pub(super) fn next(&mut self, wire: &Arena, exp: &Arena) -> Option<Step> {
        let ek = (self.e < self.e_end).then_some(self.e as usize);
        let e = ek.and_then(|k| exp.field(k).map(|f| (k, f.id, f.ty)));
        let w = (self.w < self.w_end)
            .then(|| wire.field(self.w as usize))
            .flatten();
        match (e, w) {
            (Some((k, id, e)), Some(w)) if id == w.id => {
                self.e += 1;
                self.w += 1;
                Some(Step::Both { k, id, w: w.ty, e })
            }
            (Some((k, id, e)), w) if w.is_none_or(|w| id < w.id) => {
                self.e += 1;
                Some(Step::Expected {
                    k,
                    id,
                    e,
                    wire_done: w.is_none(),
                })
            }
            (_, Some(w)) => {
                self.w += 1;
                Some(Step::Wire { id: w.id, w: w.ty })
            }
            (_, None) => None,
        }
    }

    /// Whether both sides are done: the step after the last field.
    #[inline(always)]
    pub(super) fn done(&self) -> bool {
        self.e >= self.e_end && self.w >= self.w_end
    }

    /// Fields both sides still have, as a size hint.
    pub(super) fn remaining(&self) -> usize {
        self.e_end
            .saturating_sub(self.e)
            .min(self.w_end.saturating_sub(self.w)) as usize
    }
}

/// The walk of a record decoded as a struct (`access::StructAccess`), whose every
/// field takes [`both`](Self::both) first.
///
/// Its ends are clamped to the arenas' field lists when it is made, and it is given
/// those same arenas at every step: an arena's field list only grows while a value
/// is decoded (the wire arena is the parsed header's; the expected arena is
/// shared, and is swapped only around a nested value, by
/// `DecodeState::at_wire_type`, or between arguments, never between two steps of a
/// walk). So a field index below its end is inside its arena, which `both` reads
/// without a second bounds check. The expected end is also clamped to the label
/// list, which grows and is truncated with the field list (every expected field
/// has a label; an arena that lacked some would end the walk at its last one), so
/// the label of a field `both` hands out ([`Walked`]) is read without one either.
/// The other walks (subtyping, the value-level `opt` check) take
/// [`FieldMerge::next`] alone, with no clamp to pay for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RecordWalk(FieldMerge);

impl RecordWalk {
    /// The walk over the fields `wire` of `wire_arena` and `exp` of `exp_arena`:
    /// the arenas every step is then given.
    #[inline(always)]
    pub(super) fn new(wire: Span, exp: Span, wire_arena: &Arena, exp_arena: &Arena) -> Self {
        let end = |s: Span, len: usize| {
            let len = u32::try_from(len).unwrap_or(u32::MAX);
            s.start.saturating_add(s.len).min(len)
        };
        // The expected side ends inside the label list too, which [`Walked`]
        // reads (an expected arena has a label per field).
        let exp_len = exp_arena.fields.len().min(exp_arena.labels.len());
        RecordWalk(FieldMerge {
            w: wire.start,
            w_end: end(wire, wire_arena.fields.len()),
            e: exp.start,
            e_end: end(exp, exp_len),
        })
    }

    /// The next step when it is a field on both sides (the common step: a
    /// message of the expected type has no other), taken; `None`, with nothing
    /// taken, when the next step is another or there is none.
    #[inline(always)]
    pub(super) fn both(&mut self, wire: &Arena, exp: &Arena) -> Option<(Walked, Ref, Ref)> {
        let m = &mut self.0;
        if m.e >= m.e_end || m.w >= m.w_end {
            return None;
        }
        let (k, j) = (m.e as usize, m.w as usize);
        debug_assert!(k < exp.fields.len() && j < wire.fields.len());
        // SAFETY: `k < e_end` and `j < w_end`, each at most its arena's field
        // count when the walk was made, and the arenas are those, whose field
        // lists have not shrunk since (see the type's doc).
        let (e, w) = unsafe { (*exp.fields.get_unchecked(k), *wire.fields.get_unchecked(j)) };
        if e.id != w.id {
            return None;
        }
        m.e += 1;
        m.w += 1;
        Some((Walked(k), w.ty, e.ty))
    }

    /// [`FieldMerge::next`].
    #[inline]
    pub(super) fn next(&mut self, wire: &Arena, exp: &Arena) -> Option<Step> {
        self.0.next(wire, exp)
    }

    /// [`FieldMerge::done`].
    #[inline(always)]
    pub(super) fn done(&self) -> bool {
        self.0.done()
    }

    /// [`FieldMerge::remaining`].
    pub(super) fn remaining(&self) -> usize {
        self.0.remaining()
    }
}

/// An expected field that [`RecordWalk::both`] handed out: below the walk's
/// expected end, which is clamped to the expected arena's label list as well as
/// its field list, so the field's label is read without a bounds check (the key
/// of every field of a record decoded as a struct).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walked(usize);

impl Walked {
    /// The field's index in the expected arena.
    #[inline(always)]
    pub(super) fn index(self) -> usize {
        self.0
    }

    /// The field's label in `exp`, the expected arena of the walk that handed the
    /// field out (see [`RecordWalk`]'s doc).
    #[inline(always)]
    pub(super) fn label(self, exp: &Arena) -> &FieldLabel {
        debug_assert!(self.0 < exp.labels.len());
        // SAFETY: the walk handed out `self.0` below its expected end, at most the
        // label count of its expected arena when it was made; `exp` is that arena,
        // whose label list has not shrunk since, as its field list has not (see
        // the type's doc: labels are pushed and truncated with the fields).
        unsafe { exp.labels.get_unchecked(self.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::header::{parse_into, Node, PRIM_COUNT};

    /// One parsed table holding two records of `nat` fields with the given ids:
    /// entry 0 (the wire record) and entry 1 (the expected record).
    fn records(wire: &[u32], exp: &[u32]) -> (Arena, Span, Span) {
        let mut bytes = b"DIDL\x02".to_vec();
        for ids in [wire, exp] {
            bytes.push(0x6c);
            bytes.push(ids.len() as u8);
            for &id in ids {
                bytes.extend([id as u8, 0x7d]);
            }
        }
        bytes.push(0);
        let mut arena = Arena::new();
        parse_into(&bytes, usize::MAX, usize::MAX, &mut arena).expect("a valid table");
        // Serving as the expected arena too, it has a label per field.
        let arena = arena.wire_as_expected();
        let span = |i| match arena.node(Ref::new(PRIM_COUNT + i, false)) {
            Node::Record(s) => s,
            other => panic!("entry {i} is {other:?}"),
        };
        let (w, e) = (span(0), span(1));
        (arena, w, e)
    }

    /// A step as ids, comparable across walks.
    fn ids(arena: &Arena, step: Step) -> (char, u32) {
        match step {
            Step::Both { k, id, .. } => {
                assert_eq!(arena.field(k).map(|f| f.id), Some(id));
                ('b', id)
            }
            Step::Expected { id, .. } => ('e', id),
            Step::Wire { id, .. } => ('w', id),
        }
    }

    /// `both` then `done` before `next`, as `StructAccess` walks, gives the steps
    /// `next` alone gives, for every pair of id sets drawn from six ids: `both`
    /// takes a field on both sides and nothing else, and leaves the walk as it
    /// was when it takes nothing.
    #[test]
    fn both_first_walks_as_next_alone() {
        let set = |bits: u32| {
            (0..6)
                .filter(|i| bits & (1 << i) != 0)
                .collect::<Vec<u32>>()
        };
        for wb in 0..64 {
            for eb in 0..64 {
                let (arena, w, e) = records(&set(wb), &set(eb));
                let mut alone = FieldMerge::new(w, e);
                let mut plain = Vec::new();
                while let Some(step) = alone.next(&arena, &arena) {
                    plain.push(ids(&arena, step));
                }
                let mut fast = RecordWalk::new(w, e, &arena, &arena);
                let mut taken = Vec::new();
                loop {
                    if let Some((at, wt, et)) = fast.both(&arena, &arena) {
                        let id = arena.field(at.index()).map_or(u32::MAX, |f| f.id);
                        assert_eq!(
                            (wt, et),
                            (
                                Ref::prim(crate::wire::header::Prim::Nat),
                                Ref::prim(crate::wire::header::Prim::Nat)
                            )
                        );
                        taken.push(('b', id));
                    } else if fast.done() {
                        break;
                    } else {
                        let step = fast.next(&arena, &arena).expect("not done");
                        assert!(
                            !matches!(step, Step::Both { .. }),
                            "both left a shared field"
                        );
                        taken.push(ids(&arena, step));
                    }
                }
                assert_eq!(taken, plain, "wire {:?}, expected {:?}", set(wb), set(eb));
                assert!(fast.next(&arena, &arena).is_none());
            }
        }
    }

    /// A span that runs past its arena's fields (which no parsed or interned
    /// type has) is cut at the arena's end when the walk is made: `both` and
    /// `next` read only entries that exist, and the walk ends there.
    #[test]
    fn spans_past_the_arena_end_at_it() {
        let (arena, w, e) = records(&[0, 1, 2], &[0, 1, 2]);
        let count = arena.fields.len() as u32;
        for extra in [1, 7, u32::MAX - w.start.max(e.start)] {
            let long = |s: Span| Span {
                start: s.start,
                len: s.len.saturating_add(extra),
            };
            let mut walk = RecordWalk::new(long(w), long(e), &arena, &arena);
            let mut steps = 0;
            loop {
                if walk.both(&arena, &arena).is_none() && walk.next(&arena, &arena).is_none() {
                    break;
                }
                steps += 1;
                assert!(steps <= 2 * count, "the walk went past the arena");
            }
            assert!(walk.done());
        }
    }

    /// An expected arena whose labels stop before its fields (none does: every
    /// expected field is labelled) ends a struct's walk at its last label: `both`
    /// never hands out a field without one, whose label `Walked::label` would
    /// read past the list.
    #[test]
    fn labels_short_of_the_fields_end_the_walk_at_them() {
        let (mut arena, w, e) = records(&[0, 1, 2], &[0, 1, 2]);
        let exp_start = e.start as usize;
        for keep in [exp_start + 2, exp_start + 1, exp_start, 1, 0] {
            arena.labels.truncate(keep);
            let mut walk = RecordWalk::new(w, e, &arena, &arena);
            let mut handed = 0;
            while let Some((at, ..)) = walk.both(&arena, &arena) {
                assert!(at.index() < arena.labels.len(), "a field past the labels");
                assert_eq!(at.label(&arena), &FieldLabel::Id);
                handed += 1;
            }
            assert_eq!(handed, keep.saturating_sub(exp_start));
        }
    }
}
