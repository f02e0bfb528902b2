//! What the decode keeps about (wire, expected) pairs it has checked: the field
//! spans of a variant or record pair, the cases of a variant pair, the shape of a
//! vector pair. Each is a function of the two arenas alone, and the values of one
//! type are mostly decoded at one pair, so the next value at a kept pair skips the
//! arena lookups. The decode state holds them and forgets them whenever the
//! expected arena is replaced.

use super::value::pack;
use crate::wire::header::{Ref, Span, MAX_INDEX};

/// A (wire, expected) pair of resolved references whose shape check passed (both
/// variants, both records, both tuple records), with the two field spans the check
/// found. The check is a function of the two arenas alone, and the values of one
/// type are mostly decoded at one pair (the elements of a vector, the cases of a
/// recursive type), so the next value at the same pair takes the spans without
/// looking at either arena. Forgotten whenever the expected arena is replaced,
/// since the references then name other types.
#[derive(Clone, Copy)]
pub(super) struct PairSpans {
    pub w: Ref,
    pub e: Ref,
    pub wf: Span,
    pub ef: Span,
}

impl PairSpans {
    /// Matches no frame: no arena holds an entry at the largest index.
    pub(super) const NONE: PairSpans = PairSpans {
        w: Ref::new(MAX_INDEX, false),
        e: Ref::new(MAX_INDEX, false),
        wf: Span { start: 0, len: 0 },
        ef: Span { start: 0, len: 0 },
    };

    /// [`NONE`](Self::NONE)'s pair alone: a kept `(wire, expected)` pair that
    /// matches no frame.
    pub(super) const NO_PAIR: (Ref, Ref) = (Self::NONE.w, Self::NONE.e);

    /// The spans kept for `(w, e)`, if that is the pair kept.
    #[inline(always)]
    pub(super) fn get(&self, w: Ref, e: Ref) -> Option<(Span, Span)> {
        (self.w == w && self.e == e).then_some((self.wf, self.ef))
    }
}

/// Two (wire, expected) pairs of resolved references read as a struct (a record
/// on both sides), with their field spans. A kept header's state keeps them from
/// one message to the next, and a struct and a struct in it take turns (an ICRC
/// argument and its `Account`, a vector's element and a record in it), so each
/// takes its spans without looking at either arena. A pair not kept replaces the
/// two in turn. Kept like [`PairSpans`].
#[derive(Clone, Copy)]
pub(super) struct RecordPairs {
    /// The pairs, packed as a frame packs its own, and their spans.
    first: (u64, (Span, Span)),
    second: (u64, (Span, Span)),
    /// Whether the next pair kept replaces `second`.
    next_second: bool,
}

impl RecordPairs {
    /// None kept.
    pub(super) const NONE: RecordPairs = RecordPairs {
        first: (NO_KEY, (PairSpans::NONE.wf, PairSpans::NONE.ef)),
        second: (NO_KEY, (PairSpans::NONE.wf, PairSpans::NONE.ef)),
        next_second: false,
    };

    /// The spans kept for the packed pair `pair`, if it is one of the two.
    #[inline(always)]
    pub(super) fn get(&self, pair: u64) -> Option<(Span, Span)> {
        if self.first.0 == pair {
            Some(self.first.1)
        } else if self.second.0 == pair {
            Some(self.second.1)
        } else {
            None
        }
    }

    /// Keeps `pair`'s spans in place of one of the two, each in turn.
    #[inline(always)]
    pub(super) fn keep(&mut self, pair: u64, spans: (Span, Span)) {
        if self.next_second {
            self.second = (pair, spans);
        } else {
            self.first = (pair, spans);
        }
        self.next_second = !self.next_second;
    }

    /// Forgets both pairs.
    pub(super) fn forget(&mut self) {
        *self = Self::NONE;
    }
}

/// A packed pair no frame holds: no arena has an entry at the largest index.
const NO_KEY: u64 = pack(PairSpans::NONE.w, PairSpans::NONE.e);

/// Wire cases of a variant pair whose expected case is kept (the first ones:
/// most variants have fewer; a case past them takes the lookup every time).
pub(super) const KEPT_CASES: usize = 32;

/// One wire case of the kept variant pair ([`KeptCases`]): the expected case it
/// matched (its index in the expected arena's fields) and the two case types.
#[derive(Clone, Copy)]
pub(super) struct CaseMemo {
    pub expected_case: usize,
    pub w: Ref,
    pub e: Ref,
}

/// The cases of one (wire, expected) variant pair already taken by a value of
/// this decode, by wire index: entry `i` is meaningful when bit `i` of `known` is
/// set. Which expected case a wire case is, and the two case types, are a
/// function of the two arenas like the pair's own shape check (fast path 19), so
/// a value at that pair goes from its wire index to the case without looking at
/// either arena. Filled from the pair's second value on (one value of a type
/// gains nothing), kept in the decode state's side tables, and forgotten with the other kept pairs.
pub(super) struct KeptCases {
    pub(super) w: Ref,
    pub(super) e: Ref,
    known: u32,
    cases: [CaseMemo; KEPT_CASES],
}

impl KeptCases {
    /// Matches no frame, as [`PairSpans::NONE`].
    pub(super) const NONE: KeptCases = KeptCases {
        w: PairSpans::NONE.w,
        e: PairSpans::NONE.e,
        known: 0,
        cases: [CaseMemo {
            expected_case: 0,
            w: PairSpans::NONE.w,
            e: PairSpans::NONE.e,
        }; KEPT_CASES],
    };

    /// The kept case at wire index `index`, if a value took it already.
    #[inline(always)]
    pub(super) fn case(&self, index: u64) -> Option<CaseMemo> {
        if index < KEPT_CASES as u64 && self.known & (1 << index) != 0 {
            self.cases.get(index as usize).copied()
        } else {
            None
        }
    }

    /// Forgets every case and the pair.
    pub(super) fn forget(&mut self) {
        ((self.w, self.e), self.known) = (PairSpans::NO_PAIR, 0);
    }

    /// Keeps `case` as the one at wire index `index`.
    #[inline(always)]
    pub(super) fn keep(&mut self, index: u64, case: CaseMemo) {
        if let Some(slot) = self.cases.get_mut(index as usize) {
            *slot = case;
            self.known |= 1 << index;
        }
    }
}

/// How a vector's elements are read, for one (wire, expected) pair of resolved
/// references that are vectors on both sides: the element types, the least size
/// of one element (for the length check) and which read applies. A function of
/// the two arenas, kept like [`PairSpans`].
#[derive(Clone, Copy)]
pub(super) struct VecShape {
    pub w: Ref,
    pub e: Ref,
    pub w_el: Ref,
    pub e_el: Ref,
    pub min: usize,
    pub kind: VecKind,
}

/// Which read a vector takes (`De::seq_begin`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum VecKind {
    /// The same fixed-width primitive on both sides: one slice (fast path 3).
    Fixed(crate::wire::header::Prim),
    /// `nat`/`int` elements charged up front (fast path 4).
    Bignum,
    /// Anything else, element by element.
    Elems,
}

impl VecShape {
    /// Matches no frame, as [`PairSpans::NONE`].
    pub(super) const NONE: VecShape = VecShape {
        w: PairSpans::NONE.w,
        e: PairSpans::NONE.e,
        w_el: PairSpans::NONE.w,
        e_el: PairSpans::NONE.e,
        min: 0,
        kind: VecKind::Elems,
    };
}

#[cfg(test)]
mod tests {
    use crate::de::state::{test_state as state, DecodeState};
    use crate::wire::header::Arena;
    use std::rc::Rc;

    /// The last pair the memo said holds answers the next question about it
    /// without the memo, and is forgotten with the expected arena: after that the
    /// same references are asked about afresh.
    #[test]
    fn the_last_pair_that_held_is_kept_until_the_arena_changes() {
        use crate::wire::header::{parse_into, Ref, PRIM_COUNT};
        // Entry 0: record { 0 : nat }; entry 1: record { 0 : text }.
        let bytes = b"DIDL\x02\x6c\x01\x00\x7d\x6c\x01\x00\x71\x00";
        let mut arena = Arena::new();
        parse_into(bytes, usize::MAX, usize::MAX, &mut arena).expect("a valid table");
        let (nat_rec, text_rec) = (Ref::new(PRIM_COUNT, false), Ref::new(PRIM_COUNT + 1, false));
        let mut c = state(None, None);
        c.set_expected(Rc::new(arena.clone()));
        *c.wire.arena_mut() = arena.clone();
        assert!(c.subtype(nat_rec, nat_rec));
        assert_eq!(c.held_ok, (nat_rec, nat_rec), "a yes is kept");
        assert!(!c.subtype(nat_rec, text_rec));
        assert_eq!(c.held_ok, (nat_rec, nat_rec), "a no is not");
        // The kept pair is what answers: made to name a pair that does not hold,
        // it is taken as it is.
        c.held_ok = (nat_rec, text_rec);
        assert!(c.subtype(nat_rec, text_rec));
        c.set_expected(Rc::new(arena));
        assert!(!c.subtype(nat_rec, text_rec), "forgotten with the arena");
    }

    /// A checked pair is forgotten whenever the expected arena is replaced (its
    /// references would then name other types), and only then.
    #[test]
    fn checked_pairs_are_forgotten_with_the_expected_arena() {
        use super::PairSpans;
        use crate::wire::header::{Ref, Span};
        let kept = PairSpans {
            w: Ref::new(18, false),
            e: Ref::new(19, false),
            wf: Span { start: 1, len: 2 },
            ef: Span { start: 3, len: 4 },
        };
        let packed = super::pack(kept.w, kept.e);
        let forgotten = |c: &DecodeState<'_>| {
            let none = PairSpans::NO_PAIR;
            c.record_ok.get(packed).is_none()
                && (c.variant_ok.w, c.variant_ok.e) == none
                && (c.tuple_ok.w, c.tuple_ok.e) == none
                && c.blob_ok == none
                && c.held_ok == none
                && (c.vec_ok.w, c.vec_ok.e) == none
        };
        let mut c = state(None, None);
        assert!(forgotten(&c), "a new decoder has none");
        let keep = |c: &mut DecodeState<'_>| {
            c.variant_ok = kept;
            c.tuple_ok = kept;
            c.blob_ok = (kept.w, kept.e);
            c.held_ok = (kept.w, kept.e);
            c.vec_ok.w = kept.w;
            c.vec_ok.e = kept.e;
            c.record_ok.keep(packed, (kept.wf, kept.ef));
        };
        keep(&mut c);
        assert_eq!(kept.get(kept.w, kept.e), Some((kept.wf, kept.ef)));
        assert_eq!(kept.get(kept.w, kept.w), None);
        assert!(!forgotten(&c));
        let other = Rc::new(Arena::new());
        c.set_expected(other.clone());
        assert!(forgotten(&c), "set_expected");
        keep(&mut c);
        c.set_expected(other);
        assert!(forgotten(&c), "set_expected with the same arena");
        keep(&mut c);
        c.expected_replaced(true);
        assert!(forgotten(&c), "expected_replaced");
        keep(&mut c);
        c.at_wire_type(|c| {
            assert!(forgotten(c), "entering the wire types");
            keep(c);
            Ok(())
        })
        .unwrap();
        assert!(forgotten(&c), "leaving the wire types");
    }

    /// Fast path 22: from the second value of a variant pair on, the cases its
    /// values took are kept by wire index (the values decode as without it:
    /// `fast_paths::kept_variant_cases_*`); a single value keeps nothing.
    #[test]
    fn variant_cases_are_kept_from_the_second_value() {
        use crate::{Encode, IDLDeserialize};
        let values: Vec<Result<u8, String>> = vec![Ok(1), Err("x".into()), Ok(2), Err("y".into())];
        let bytes = Encode!(&values).unwrap();
        let mut de = IDLDeserialize::new(&bytes).unwrap();
        assert_eq!(de.get_value::<Vec<Result<u8, String>>>().unwrap(), values);
        let kept = &de
            .state()
            .side
            .as_deref()
            .expect("a table for the pair")
            .cases;
        assert_eq!(kept.known.count_ones(), 2, "both cases are kept");
        let ok = de.state().variant_ok;
        assert_eq!((kept.w, kept.e), (ok.w, ok.e));

        let bytes = Encode!(&Result::<u8, String>::Ok(7)).unwrap();
        let mut de = IDLDeserialize::new(&bytes).unwrap();
        assert_eq!(de.get_value::<Result<u8, String>>().unwrap(), Ok(7));
        assert!(
            de.state().side.as_deref().map_or(0, |s| s.cases.known) == 0,
            "one value of the pair: nothing kept"
        );
    }

    /// Fast path 22 keeps one pair's cases: another pair's second value empties
    /// the table and takes it (even with the same case ids: the case types
    /// differ), and replacing the expected arena forgets them.
    #[test]
    fn variant_cases_are_the_kept_pairs_only() {
        use crate::{Encode, IDLDeserialize};
        let ones: Vec<Result<u8, String>> = vec![Ok(1), Err("b".into()), Ok(3)];
        let others: Vec<Result<String, u8>> = vec![Ok("a".into()), Err(2), Ok("c".into())];
        let bytes = Encode!(&ones, &others).unwrap();
        let mut de = IDLDeserialize::new(&bytes).unwrap();
        let kept = |de: &IDLDeserialize<'_>| {
            de.state()
                .side
                .as_deref()
                .map(|r| (r.cases.w, r.cases.e, r.cases.known))
        };
        assert_eq!(de.get_value::<Vec<Result<u8, String>>>().unwrap(), ones);
        let one = kept(&de).expect("kept for the first pair");
        assert_eq!(de.get_value::<Vec<Result<String, u8>>>().unwrap(), others);
        let other = kept(&de).expect("kept for the second pair");
        assert!(
            (other.0, other.1) != (one.0, one.1),
            "the table moved to the second pair"
        );
        assert_eq!(other.2.count_ones(), 2, "only the second pair's cases");
        de.state_mut().set_expected(Rc::new(Arena::new()));
        let none = (super::PairSpans::NONE.w, super::PairSpans::NONE.e, 0);
        assert_eq!(kept(&de), Some(none), "forgotten with the expected arena");
    }

    /// Two struct pairs are kept; a third replaces them in turn, and each kept
    /// pair gives back its own spans.
    #[test]
    fn struct_pairs_are_kept_two_at_a_time() {
        use super::RecordPairs;
        use crate::wire::header::Span;
        let spans = |k: u32| {
            (
                Span { start: k, len: 1 },
                Span {
                    start: k + 1,
                    len: 2,
                },
            )
        };
        let mut r = RecordPairs::NONE;
        assert_eq!(r.get(1), None);
        r.keep(1, spans(1));
        r.keep(2, spans(2));
        assert_eq!((r.get(1), r.get(2)), (Some(spans(1)), Some(spans(2))));
        r.keep(3, spans(3));
        assert_eq!(
            (r.get(1), r.get(2), r.get(3)),
            (None, Some(spans(2)), Some(spans(3)))
        );
        r.keep(4, spans(4));
        assert_eq!(
            (r.get(2), r.get(3), r.get(4)),
            (None, Some(spans(3)), Some(spans(4)))
        );
        r.forget();
        assert_eq!((r.get(3), r.get(4)), (None, None));
    }
}
