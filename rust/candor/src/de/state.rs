//! The state one message's decode shares: the reader over the input, the wire and
//! expected arenas, the quotas, the depth and the subtype memo.
//!
//! Per-value state (which wire type, which expected type) is not here: it travels in
//! the `De` frame handed to each value (`value.rs`), so no flag can outlive the value
//! that set it.

use super::header_cache::LentArena;
use super::quota;
use super::subtype::{LentMemo, Sides};
use crate::error::Result;
use crate::error::{fault, Error};
use crate::wire::header::{Arena, Node, Ref, Span, PRIM_COUNT};
use crate::wire::reader::Reader;
use std::rc::Rc;

/// Nesting levels between two measures of the stack (see [`DecodeState::enter`]).
const STACK_CHECK_EVERY: u32 = 8;

/// Texts up to this many bytes are first tested for ASCII (see [`DecodeState::text`]).
pub(crate) const SHORT_TEXT: usize = 32;

/// `repr(C)` with the reader first: the reader then sits at the state's own address,
/// so lending it to an out-of-line reader function (a principal, an error) takes no
/// address arithmetic in the hot functions that hold the state.
#[repr(C)]
pub(crate) struct DecodeState<'de> {
    /// The message's bytes and the position in them: every read goes through it.
    pub reader: Reader<'de>,
    /// The wire types, with the subtype memo and where both go back when the
    /// decode ends (the field's `Drop`: the state has none, see [`LentArena`]).
    pub wire: LentArena,
    pub exp: Rc<Arena>,
    /// Number of wire type table entries: the cost of a func/service subtype check.
    pub table_len: usize,
    /// The units a charge may take without a closer look, in either mode, so a
    /// charge is a compare and a subtraction (see [`charge`](Self::charge)).
    /// Typed: the decoding quota left, when `quota_on` or `size_bound`; otherwise a
    /// large count refilled when it runs low (no quota means no limit). Untyped: the most
    /// units that both quotas still hold at their untyped rates (see
    /// [`untyped_budget`](Self::untyped_budget)).
    pub(super) quota_left: usize,
    /// Whether the decode has a decoding quota set (not the size bound, whose
    /// skipped units count once, like typed ones), and the skipping quota left:
    /// while typed. While untyped they are `false` and `Some(0)`, so a
    /// skip's charge ([`charge_untyped`](Self::charge_untyped)) keeps its typed
    /// code and finds its way to the budget on the out-of-line path.
    quota_on: bool,
    skipping_quota: Option<usize>,
    /// While untyped: whether there is a decoding quota, the decoding and
    /// skipping quotas left as of the last settling
    /// ([`settle_untyped`](Self::settle_untyped)), and `quota_left` then. The
    /// units charged since are `untyped_budget - quota_left`.
    untyped_quota_on: bool,
    untyped_decoding: usize,
    untyped_skipping: Option<usize>,
    untyped_budget: usize,
    /// Whether the decoding quota is the size bound (`DecoderConfig::set_size_bound`):
    /// for its error, and for `get_config`, which reports no quota then.
    size_bound: bool,
    /// Whether the skipping quota is a copy of the size bound (none was set): for
    /// its error, and for `get_config`.
    skip_bound: bool,
    /// True while decoding an argument with no Rust type (`IDLValue`): every cost is
    /// multiplied and counts against the skipping quota. Read freely; set only by
    /// [`set_untyped`](Self::set_untyped), which converts the counts.
    pub(super) untyped: bool,
    /// Bytes walked by all value-level `opt` checks of this message: their
    /// allowance is per message (`coerce.rs`), so the count is message state.
    pub opt_walked: usize,
    depth: u32,
    max_depth: u32,
    /// Stack address when the current argument's decode began, and how many bytes
    /// below it the decode may use (see [`stack_addr`]).
    stack_base: usize,
    max_stack: usize,
    /// What few decodes need, made on first use (see [`SideTables`]).
    rare: Option<Box<SideTables>>,
    /// The last (wire, expected) pair checked as a variant on both sides, and as a
    /// tuple record on both sides (see [`PairSpans`]).
    pub(super) variant_ok: PairSpans,
    pub(super) tuple_ok: PairSpans,
    /// The last (wire, expected) pair of resolved references read as a vector on
    /// both sides, with how its elements are read (see [`VecShape`]).
    pub(super) vec_ok: VecShape,
    /// The last (wire, expected) pair of resolved references checked as a blob
    /// (`vec nat8`) on both sides, by `De::bytes`: the next blob at that pair is
    /// read without looking at either arena. Forgotten with the other kept pairs.
    pub(super) blob_ok: (Ref, Ref),
    /// The (wire, expected) types of the first two fields of `tuple_ok`'s pair, as
    /// `TupleAccess` reads them: a tuple's elements are then read without looking
    /// either arena up. Meaningful only while `tuple_ok` holds a pair.
    pub(super) tuple_first: [(Ref, Ref); 2],
    /// The last record element type whose least size a vector asked for, and that
    /// size (see [`elem_min_size`](Self::elem_min_size)).
    min_memo: (Ref, usize),
}

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
        w: Ref::new(u32::MAX >> 1, false),
        e: Ref::new(u32::MAX >> 1, false),
        wf: Span { start: 0, len: 0 },
        ef: Span { start: 0, len: 0 },
    };

    /// The spans kept for `(w, e)`, if that is the pair kept.
    #[inline(always)]
    pub(super) fn get(&self, w: Ref, e: Ref) -> Option<(Span, Span)> {
        (self.w == w && self.e == e).then_some((self.wf, self.ef))
    }
}

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
/// gains nothing), kept in [`SideTables`], and forgotten with the other kept pairs.
pub(super) struct KeptCases {
    w: Ref,
    e: Ref,
    known: u32,
    cases: [CaseMemo; KEPT_CASES],
}

impl KeptCases {
    /// Matches no frame, as [`PairSpans::NONE`].
    const NONE: KeptCases = KeptCases {
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
    fn forget(&mut self) {
        (self.w, self.e, self.known) = (PairSpans::NONE.w, PairSpans::NONE.e, 0);
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

/// The part of a decoder's state that few decodes need, behind one pointer that
/// stays null until then: the decoder is moved by value, so inline this state
/// would be paid for by every message, and a decode that needs none of it
/// makes none.
pub(super) struct SideTables {
    /// The wire types as an expected-type arena: for values decoded at their wire
    /// type (`IDLValue`, `deserialize_ignored_any`).
    wire_as_exp: Option<Rc<Arena>>,
    /// The cases of one variant pair, by wire index.
    cases: KeptCases,
    /// Names of the callers' type environments this message was decoded at
    /// (`get_value_with_type`), each counted once in `table_len`.
    merged_names: std::collections::BTreeSet<String>,
}

impl SideTables {
    fn new() -> Box<SideTables> {
        Box::new(SideTables {
            wire_as_exp: None,
            cases: KeptCases::NONE,
            merged_names: std::collections::BTreeSet::new(),
        })
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

/// The address of a local of the caller's frame: the current stack position. Stacks
/// grow downward on every target candor runs on (native, and wasm's shadow stack in
/// linear memory).
#[inline(always)]
pub(crate) fn stack_addr() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Where a decoder's wire arena goes when it is given up before the decoder is
/// built: back to the header cache entry it was lent from (with the subtype
/// answers, when `keep_answers`), or to the spares the next parse reuses.
pub(super) fn release(
    lease: Option<super::header_cache::Lease>,
    mut wire: Arena,
    memo: &mut LentMemo,
    keep_answers: bool,
) {
    match lease {
        Some(lease) => {
            let answers = if keep_answers {
                memo.take_answers()
            } else {
                None
            };
            super::header_cache::give_back(lease, wire, answers)
        }
        None => wire.recycle(),
    }
}

/// How a decoder starts: where its header came from, the subtype answers kept with
/// it, and the decoding quota left once the header is paid for.
pub(super) struct Start {
    pub lease: Option<super::header_cache::Lease>,
    pub memo: LentMemo,
    pub decoding_quota: Option<usize>,
    /// Whether that quota is the size bound rather than the config's.
    pub size_bound: bool,
}

/// The part of a decode's state that reading a value changes (see [`DecodeState::mark`]).
pub(super) struct Mark {
    pos: usize,
    decoding_quota: Option<usize>,
    skipping_quota: Option<usize>,
    opt_walked: usize,
    depth: u32,
}

impl<'de> DecodeState<'de> {
    /// Counts a caller's type environment into the type table's length, as candid
    /// merges it into its table for `get_value_with_type`: a func or service subtype
    /// check then charges the merged length. A name already counted, or one that
    /// names a wire entry (`tableN`), adds nothing.
    pub(super) fn merge_env_names<'a>(&mut self, names: impl Iterator<Item = &'a String>) {
        let merged = &mut self.rare.get_or_insert_with(SideTables::new).merged_names;
        let wire_len = self.table_len - merged.len();
        for name in names {
            let is_wire = name
                .strip_prefix("table")
                .and_then(|i| i.parse::<usize>().ok())
                .is_some_and(|i| i < wire_len);
            if !is_wire && merged.insert(name.clone()) {
                self.table_len += 1;
            }
        }
    }

    /// The position, the quotas and the depth, to come back to with
    /// [`back_to`](Self::back_to) after an attempt that gave up (direct decoding).
    /// What else a read may change is knowledge, not position: subtype answers and
    /// the wire types as expected ones hold whatever is read next.
    #[inline(always)]
    pub(super) fn mark(&self) -> Mark {
        Mark {
            pos: self.reader.offset(),
            decoding_quota: self.decoding_quota(),
            skipping_quota: self.skipping_quota(),
            opt_walked: self.opt_walked,
            depth: self.depth,
        }
    }

    /// Returns to a state taken by [`mark`](Self::mark).
    #[cold]
    pub(super) fn back_to(&mut self, m: Mark) {
        self.reader.rewind(m.pos);
        self.set_quotas(m.decoding_quota, m.skipping_quota);
        self.opt_walked = m.opt_walked;
        self.depth = m.depth;
    }

    /// `exp` is the expected-type arena to start from (the thread's interned types:
    /// `expect::shared_arena`), passed in so this layer does not reach up to it.
    pub(super) fn new(
        input: &'de [u8],
        pos: usize,
        wire: Arena,
        exp: Rc<Arena>,
        table_len: usize,
        config: &super::DecoderConfig,
        start: Start,
    ) -> Self {
        DecodeState {
            reader: Reader::new(input, pos),
            wire: LentArena::new(wire, start.lease, start.memo),
            exp,
            table_len,
            quota_left: start.decoding_quota.unwrap_or(usize::MAX),
            quota_on: start.decoding_quota.is_some() && !start.size_bound,
            // Under the size bound with no skipping quota, a copy of the bound
            // (less the header's units, paid already) bounds skipped work.
            skipping_quota: match config.skipping_quota {
                None if start.size_bound => start.decoding_quota,
                q => q,
            },
            untyped_quota_on: false,
            untyped_decoding: 0,
            untyped_skipping: None,
            untyped_budget: 0,
            size_bound: start.size_bound,
            skip_bound: start.size_bound && config.skipping_quota.is_none(),
            untyped: false,
            opt_walked: 0,
            depth: 0,
            max_depth: config.max_depth,
            stack_base: stack_addr(),
            max_stack: config.max_stack,
            rare: None,
            variant_ok: PairSpans::NONE,
            tuple_ok: PairSpans::NONE,
            blob_ok: (PairSpans::NONE.w, PairSpans::NONE.e),
            vec_ok: VecShape::NONE,
            tuple_first: [(
                Ref::prim(crate::wire::header::Prim::Null),
                Ref::prim(crate::wire::header::Prim::Reserved),
            ); 2],
            // A primitive reference never names a record, so this matches nothing.
            min_memo: (Ref::prim(crate::wire::header::Prim::Null), 0),
        }
    }

    // ---- cost ------------------------------------------------------------------

    /// The decoding quota left (`None`: no limit).
    pub(super) fn decoding_quota(&self) -> Option<usize> {
        if self.untyped {
            self.untyped_quota_on
                .then(|| self.untyped_decoding - self.untyped_spent() * self.skip_rate())
        } else {
            (self.quota_on || self.size_bound).then_some(self.quota_left)
        }
    }

    /// The decoding quota left of the one the config set (`None` under the size
    /// bound, as no quota was set).
    pub(super) fn set_decoding_quota(&self) -> Option<usize> {
        self.decoding_quota().filter(|_| !self.size_bound)
    }

    /// The skipping quota left of the one the config set (`None` when it is a
    /// copy of the size bound).
    pub(super) fn set_skipping_quota(&self) -> Option<usize> {
        self.skipping_quota().filter(|_| !self.skip_bound)
    }

    /// The skipping quota left (`None`: no limit).
    pub(super) fn skipping_quota(&self) -> Option<usize> {
        if self.untyped {
            let spent = self.untyped_spent();
            self.untyped_skipping.map(|q| q - spent)
        } else {
            self.skipping_quota
        }
    }

    /// Sets both quotas (`None`: no limit), in either mode.
    fn set_quotas(&mut self, decoding: Option<usize>, skipping: Option<usize>) {
        let d = decoding.unwrap_or(usize::MAX);
        if self.untyped {
            self.untyped_quota_on = decoding.is_some();
            self.untyped_decoding = d;
            self.untyped_skipping = skipping;
            self.rebudget();
        } else {
            self.quota_on = decoding.is_some() && !self.size_bound;
            self.quota_left = d;
            self.skipping_quota = skipping;
        }
    }

    /// Decoding units per unit of untyped work: candid's [`quota::UNTYPED`] under
    /// an explicit quota or none, one under the size bound (which counts work,
    /// not candid's penalty on it).
    #[inline(always)]
    fn skip_rate(&self) -> usize {
        if self.size_bound {
            1
        } else {
            quota::UNTYPED
        }
    }

    /// Untyped: the units charged since the last settling.
    fn untyped_spent(&self) -> usize {
        self.untyped_budget - self.quota_left
    }

    /// Enters or leaves untyped mode, converting the counts.
    pub(super) fn set_untyped(&mut self, untyped: bool) {
        if untyped == self.untyped {
            return;
        }
        if untyped {
            self.untyped_quota_on = std::mem::replace(&mut self.quota_on, false) || self.size_bound;
            self.untyped_decoding = self.quota_left;
            self.untyped_skipping = self.skipping_quota.replace(0);
            self.untyped = true;
            self.rebudget();
        } else {
            self.settle_untyped();
            self.quota_on = self.untyped_quota_on && !self.size_bound;
            self.quota_left = self.untyped_decoding;
            self.skipping_quota = self.untyped_skipping;
            self.untyped = false;
        }
    }

    /// Untyped: takes the units charged since the last settling off both quotas
    /// (an untyped unit is [`skip_rate`](Self::skip_rate) decoding units and one skipping unit).
    /// Exact: the budget never lets more units through than both hold.
    fn settle_untyped(&mut self) {
        let spent = self.untyped_spent();
        if self.untyped_quota_on {
            self.untyped_decoding -= spent * self.skip_rate();
        }
        if let Some(q) = &mut self.untyped_skipping {
            *q -= spent;
        }
        self.untyped_budget = self.quota_left;
    }

    /// Untyped: the budget for the settled quotas, the most units `n` with `n`
    /// untyped charges fitting both: a charge of `c` then fits exactly when
    /// `c <= n`, and leaves the budget of what remains, `n - c`, so the typed
    /// fast test serves untyped charges unchanged.
    fn rebudget(&mut self) {
        let d = if self.untyped_quota_on {
            self.untyped_decoding / self.skip_rate()
        } else {
            usize::MAX
        };
        let n = d.min(self.untyped_skipping.unwrap_or(usize::MAX));
        self.quota_left = n;
        self.untyped_budget = n;
    }

    /// Charges `cost` units of typed work (multiplied in untyped mode).
    ///
    /// The common case (the units are there) is one compare and one
    /// subtraction, in either mode; everything else is decided out of the way,
    /// by [`charge_rest`](Self::charge_rest).
    #[inline(always)]
    pub(super) fn charge(&mut self, cost: usize) -> Result<()> {
        if Self::take_typed(&mut self.quota_left, cost) {
            return Ok(());
        }
        self.charge_rest(cost)
    }

    /// Charges `first` units, then `then` units: in one test when both fit,
    /// else one after the other, so a quota that runs out fails at the same charge
    /// and with the same error as two calls of [`charge`](Self::charge) would.
    #[inline(always)]
    pub(super) fn charge_then(&mut self, first: usize, then: usize) -> Result<()> {
        if Self::take_typed(&mut self.quota_left, first + then) {
            return Ok(());
        }
        self.charge_rest(first)?;
        self.charge_rest(then)
    }

    /// The fast test of [`charge`](Self::charge), on the one field it reads, for
    /// a caller that holds a borrow of another field of the state (a label in the
    /// expected arena): `true` when the units were taken; on `false` nothing
    /// was, and the caller charges through [`charge`](Self::charge).
    #[inline(always)]
    pub(super) fn take_typed(quota_left: &mut usize, cost: usize) -> bool {
        if cost <= *quota_left {
            *quota_left -= cost;
            return true;
        }
        false
    }

    /// A charge the fast test of [`charge`](Self::charge) did not settle: an
    /// exhausted quota, or a count with no limit behind it that runs low (it is
    /// refilled).
    #[cold]
    fn charge_rest(&mut self, cost: usize) -> Result<()> {
        if self.untyped {
            self.settle_untyped();
            let out = self.charge_untyped_now(cost);
            self.rebudget();
            return out;
        }
        if cost <= self.quota_left {
            self.quota_left -= cost;
            return Ok(());
        }
        if self.quota_on || self.size_bound {
            return Err(self.decoding_error());
        }
        self.quota_left = usize::MAX - cost;
        Ok(())
    }

    /// Charges `cost` units of skipped (untyped) work: 50× on the decoding quota and
    /// 1× on the skipping quota. Under the size bound with no skipping quota set,
    /// the skipping quota is a copy of the bound, so skipped work is bounded by it
    /// with the same code. Untyped, the skipping quota reads `Some(0)`, so any
    /// units take the path of a short skipping quota, which charges them to the
    /// budget instead.
    #[inline]
    pub(super) fn charge_untyped(&mut self, cost: usize) -> Result<()> {
        if self.quota_on {
            let c = cost.saturating_mul(quota::UNTYPED);
            if self.quota_left < c {
                return Err(self.decoding_error());
            }
            self.quota_left -= c;
        }
        if let Some(q) = self.skipping_quota {
            if q < cost {
                if self.untyped {
                    return self.charge_rest(cost);
                }
                return Err(self.skipping_error());
            }
            self.skipping_quota = Some(q - cost);
        }
        Ok(())
    }

    /// [`charge_untyped`](Self::charge_untyped) in untyped mode, on settled
    /// quotas (the budget is then out of date).
    fn charge_untyped_now(&mut self, cost: usize) -> Result<()> {
        if self.untyped_quota_on {
            let c = cost.saturating_mul(self.skip_rate());
            if self.untyped_decoding < c {
                return Err(self.decoding_error());
            }
            self.untyped_decoding -= c;
        }
        if let Some(q) = self.untyped_skipping {
            if q < cost {
                return Err(self.skipping_error());
            }
            self.untyped_skipping = Some(q - cost);
        }
        Ok(())
    }

    /// The skipping quota ran out: the config's, or the copy of the size bound that
    /// stands in for it (named as the bound, with the call that lifts it).
    #[cold]
    fn skipping_error(&self) -> Error {
        if self.skip_bound {
            return self.decoding_error();
        }
        Error::limit("Skipping cost exceeds the limit", self.offset())
    }

    /// The decoding quota ran out: the config's, or the size bound, which the error
    /// names with the one call that lifts it.
    #[cold]
    pub(super) fn decoding_error(&self) -> Error {
        if !self.size_bound {
            return Error::limit("Decoding cost exceeds the limit", self.offset());
        }
        let len = self.reader.input_len();
        Error::limit(
            format!(
                "Decoding cost exceeds the limit of {} units that a {len}-byte message may use \
                 with no decoding quota set ({} per byte + {}); set a decoding quota, or lift \
                 the bound with DecoderConfig::set_size_bound(false)",
                super::size_bound(len),
                super::SIZE_BOUND_PER_BYTE,
                super::SIZE_BOUND_BASE
            ),
            self.offset(),
        )
    }

    // ---- depth -----------------------------------------------------------------

    /// Enters one level of nesting. Two bounds, both on every target (wasm
    /// included): the depth, and the stack actually used since the argument's decode
    /// began — frame sizes differ between debug and release builds and between
    /// targets by an order of magnitude, so a depth alone cannot promise that the
    /// stack holds.
    ///
    /// The stack is measured every [`STACK_CHECK_EVERY`] levels, out of line: the
    /// measure takes the address of a local, which would otherwise give every
    /// function that enters a level a stack frame. Between two measures the stack
    /// grows by at most that many frames (a few KiB in release builds, tens in debug
    /// builds), well inside the room the defaults leave below `max_stack`.
    #[inline(always)]
    pub(super) fn enter(&mut self) -> Result<()> {
        if self.depth >= self.max_depth {
            return Err(self.depth_error());
        }
        if self.depth % STACK_CHECK_EVERY == 0 {
            self.check_stack()?;
        }
        self.depth += 1;
        Ok(())
    }
    #[inline(never)]
    fn check_stack(&self) -> Result<()> {
        if self.stack_base.saturating_sub(stack_addr()) > self.max_stack {
            return Err(self.stack_error());
        }
        Ok(())
    }
    pub(super) fn max_depth(&self) -> u32 {
        self.max_depth
    }
    pub(super) fn max_stack(&self) -> usize {
        self.max_stack
    }
    /// Marks the start of an argument's decode: the stack budget counts from here.
    #[inline(always)]
    pub(super) fn start_stack(&mut self) {
        self.stack_base = stack_addr();
    }
    #[cold]
    fn stack_error(&self) -> Error {
        Error::limit(
            format!(
                "nesting used more than {} bytes of stack (at depth {}); raise it with DecoderConfig::set_max_stack on a larger stack",
                self.max_stack, self.depth
            ),
            self.offset(),
        )
    }
    /// Forgets the nesting of an argument that failed half-way.
    pub(super) fn reset_depth(&mut self) {
        self.depth = 0;
    }
    #[inline(always)]
    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    #[cold]
    fn depth_error(&self) -> Error {
        Error::limit(
            format!("nesting deeper than {} levels", self.max_depth),
            self.offset(),
        )
    }

    // ---- types -----------------------------------------------------------------

    /// Decodes the next values at the expected types of `exp`: a run-time type's
    /// arena or the wire types, not the thread's interned types.
    pub(super) fn set_expected(&mut self, exp: Rc<Arena>) {
        if !Rc::ptr_eq(&self.exp, &exp) {
            self.expected_replaced(false);
        }
        self.forget_checked();
        self.exp = exp;
    }

    /// Forgets the pairs whose shape was checked: their expected references are
    /// about to name types of another arena.
    fn forget_checked(&mut self) {
        self.variant_ok = PairSpans::NONE;
        if let Some(rare) = self.rare.as_deref_mut() {
            rare.cases.forget();
        }
        self.tuple_ok = PairSpans::NONE;
        self.blob_ok = (PairSpans::NONE.w, PairSpans::NONE.e);
        self.vec_ok = VecShape::NONE;
    }

    /// The expected arena was replaced, by the thread's interned types (`interned`)
    /// or by another arena. The subtype memo is keyed by node indices, so its answers
    /// are forgotten (an argument decoded with a run-time type after one with a Rust
    /// type must not reuse the Rust type's answers), except from one interned arena
    /// to the next: the interned types keep their indices as they grow.
    pub(super) fn expected_replaced(&mut self, interned: bool) {
        self.forget_checked();
        if !(interned && self.wire.memo_on_interned) {
            self.wire.memo.clear();
        }
        self.wire.memo_on_interned = interned;
    }

    /// The wire types as an arena of expected types (the same references), shared.
    pub(super) fn wire_as_expected(&mut self) -> Rc<Arena> {
        let wire = &self.wire;
        self.rare
            .get_or_insert_with(SideTables::new)
            .wire_as_exp
            .get_or_insert_with(|| Rc::new(Arena::clone(wire)))
            .clone()
    }

    /// Runs `f` with the wire types as the expected ones and no Rust type (untyped
    /// costs), then puts the expected types back: how candid decodes a value that a
    /// visitor asks for through `deserialize_ignored_any`. The subtype memo is set
    /// aside meanwhile, as its keys are references into the other arena.
    pub(super) fn at_wire_type<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let wire = self.wire_as_expected();
        self.forget_checked();
        let exp = std::mem::replace(&mut self.exp, wire);
        let untyped = self.untyped;
        self.set_untyped(true);
        let memo = std::mem::replace(&mut self.wire.memo, LentMemo::none());
        let result = f(self);
        self.forget_checked();
        self.exp = exp;
        self.set_untyped(untyped);
        self.wire.memo = memo;
        result
    }

    #[inline(always)]
    pub(super) fn wire_node(&self, r: Ref) -> Node {
        self.wire.node(r)
    }
    #[inline(always)]
    pub(super) fn expected_node(&self, r: Ref) -> Node {
        self.exp.node(r)
    }
    /// Type-level subtype check between a wire and an expected type. The same
    /// direct primitive on both sides holds without a memo lookup (primitives sit
    /// at the same indices in every arena).
    #[inline]
    pub(super) fn subtype(&mut self, w: Ref, e: Ref) -> bool {
        if w == e && w.idx() < PRIM_COUNT {
            return true;
        }
        let (wire, memo) = self.wire.with_memo();
        let sides = Sides {
            wire,
            exp: &self.exp,
        };
        memo.get().check(sides, w, e)
    }

    /// The fewest bytes an element of wire type `el` takes ([`Arena::min_size`]),
    /// for a vector's length check. Only a record's takes a walk over its fields;
    /// the vectors of a message mostly repeat one element type (a vector of records
    /// inside a vector is read once per outer element), so the last record's answer
    /// is kept. The wire arena is the message's, so an answer holds for the whole
    /// decode.
    #[inline(always)]
    pub(super) fn elem_min_size(&mut self, el: Ref) -> usize {
        if !matches!(self.wire_node(el), Node::Record(_)) {
            return self.wire.min_size(el);
        }
        if self.min_memo.0 == el {
            return self.min_memo.1;
        }
        let n = self.wire.min_size(el);
        self.min_memo = (el, n);
        n
    }

    /// The kept case at wire index `index` of the pair `(w, e)`, if a value at
    /// that pair took it already.
    #[inline(always)]
    pub(super) fn kept_case(&self, w: Ref, e: Ref, index: u64) -> Option<CaseMemo> {
        match self.rare.as_deref() {
            Some(rare) if rare.cases.w == w && rare.cases.e == e => rare.cases.case(index),
            _ => None,
        }
    }

    /// Keeps `case` as the one at wire index `index` of the pair `(w, e)`: the
    /// kept cases are made on first use, and emptied and given to this pair
    /// when they were another's.
    pub(super) fn keep_case(&mut self, w: Ref, e: Ref, index: u64, case: CaseMemo) {
        let kept = &mut self.rare.get_or_insert_with(SideTables::new).cases;
        if kept.w != w || kept.e != e {
            kept.forget();
            (kept.w, kept.e) = (w, e);
        }
        kept.keep(index, case);
    }

    // ---- input ----------------------------------------------------------------

    /// The byte offset of the next read (where an error is reported).
    #[inline(always)]
    pub(super) fn offset(&self) -> usize {
        self.reader.offset()
    }

    /// A `nat` that fits 64 bits, charged its LEB128 bytes (candid charges a number
    /// by its length); `None`, with nothing read or charged, when it needs more bits
    /// and the caller takes the bignum path.
    #[inline(always)]
    pub(super) fn small_nat(&mut self) -> Result<Option<u64>> {
        let start = self.offset();
        match self.reader.nat_u64() {
            Some(x) => {
                self.charge(self.offset() - start)?;
                Ok(Some(x))
            }
            None => Ok(None),
        }
    }

    /// An `int` that fits 64 bits, as [`small_nat`](Self::small_nat).
    #[inline(always)]
    pub(super) fn small_int(&mut self) -> Result<Option<i64>> {
        let start = self.offset();
        match self.reader.int_i64() {
            Some(x) => {
                self.charge(self.offset() - start)?;
                Ok(Some(x))
            }
            None => Ok(None),
        }
    }

    /// Text: a length then UTF-8 bytes, borrowed, charged its length and a call.
    /// Short all-ASCII texts skip `from_utf8`: in a canister its fixed cost is most
    /// of a short text's price, and ASCII is valid UTF-8 by definition
    /// (spec/decoder.md, fast path 12).
    #[inline(always)]
    pub(super) fn text(&mut self) -> Result<&'de str> {
        let n = self.reader.len(1)?;
        // `n` is at most the bytes left in the input, so adding one cannot overflow.
        self.charge(n + quota::CALL)?;
        let at = self.offset();
        let bytes = self.reader.take(n, "text")?;
        if bytes.len() <= SHORT_TEXT && short_ascii(bytes) {
            // SAFETY: every byte is below 0x80, and a sequence of ASCII bytes is
            // valid UTF-8.
            return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        std::str::from_utf8(bytes).map_err(|e| fault::invalid_utf8("text", e, at))
    }
}

/// Whether a short text's bytes (at most [`SHORT_TEXT`]) are all ASCII (below
/// 0x80): the bytes are OR-ed a word at a time, two overlapping runs of words from
/// each end with no loop, instead of `is_ascii`'s alignment steps, whose set-up is
/// most of the work for a few bytes.
#[inline(always)]
fn short_ascii(b: &[u8]) -> bool {
    const HIGH8: u64 = 0x8080_8080_8080_8080;
    const HIGH4: u32 = 0x8080_8080;
    let word = |w: Option<&[u8; 8]>| w.map_or(0, |w| u64::from_le_bytes(*w));
    let n = b.len();
    if n < 8 {
        return match (b.first_chunk::<4>(), b.last_chunk::<4>()) {
            (Some(first), Some(last)) => {
                (u32::from_le_bytes(*first) | u32::from_le_bytes(*last)) & HIGH4 == 0
            }
            _ => b.iter().all(|&x| x < 0x80),
        };
    }
    if n < 16 {
        return (word(b.first_chunk()) | word(b.last_chunk())) & HIGH8 == 0;
    }
    if n > SHORT_TEXT {
        return b.is_ascii();
    }
    // Words at 0 and 8, and at n - 16 and n - 8: all bytes when n <= 32.
    let (head, tail) = (b.first_chunk::<16>(), b.last_chunk::<16>());
    let half = |c: Option<&[u8; 16]>, at: usize| word(c.and_then(|c| c[at..].first_chunk()));
    (half(head, 0) | half(head, 8) | half(tail, 0) | half(tail, 8)) & HIGH8 == 0
}

#[cfg(test)]
mod tests {
    use super::{DecodeState, Start};
    use crate::de::subtype::LentMemo;
    use crate::de::DecoderConfig;
    use crate::wire::header::Arena;
    use std::rc::Rc;

    fn state(decoding: Option<usize>, skipping: Option<usize>) -> DecodeState<'static> {
        let mut config = DecoderConfig::new();
        config.skipping_quota = skipping;
        let start = Start {
            lease: None,
            memo: LentMemo::none(),
            decoding_quota: decoding,
            size_bound: false,
        };
        DecodeState::new(
            &[],
            0,
            Arena::new(),
            Rc::new(Arena::new()),
            0,
            &config,
            start,
        )
    }

    /// Under the size bound, skipped and untyped work counts once against it (not
    /// 50×), typed work as usual; the bound is not reported as a quota set, and
    /// its error names it.
    #[test]
    fn size_bound_counts_skipped_and_untyped_work_once() {
        let start = Start {
            lease: None,
            memo: LentMemo::none(),
            decoding_quota: Some(100),
            size_bound: true,
        };
        let config = DecoderConfig::new();
        let mut c = DecodeState::new(
            &[0; 10],
            0,
            Arena::new(),
            Rc::new(Arena::new()),
            0,
            &config,
            start,
        );
        // Skipped work: once, against the bound's copy that the skipping quota is.
        c.charge_untyped(10).unwrap();
        assert_eq!(c.decoding_quota(), Some(100));
        assert_eq!(c.skipping_quota(), Some(90));
        c.set_untyped(true);
        c.charge(10).unwrap();
        assert_eq!(c.decoding_quota(), Some(90));
        assert_eq!(c.skipping_quota(), Some(80));
        c.set_untyped(false);
        c.charge(80).unwrap();
        assert_eq!(c.decoding_quota(), Some(10));
        assert_eq!(
            (c.set_decoding_quota(), c.set_skipping_quota()),
            (None, None)
        );
        let err = c.charge_untyped(81).unwrap_err().to_string();
        assert!(
            err.contains("Decoding cost exceeds the limit of 66816 units that a 10-byte message"),
            "{err}"
        );
        let err = c.charge(11).unwrap_err().to_string();
        assert!(
            err.contains("Decoding cost exceeds the limit of 66816 units that a 10-byte message"),
            "{err}"
        );
    }

    /// The error of a charge sequence, and the quotas left after it.
    fn run(
        mut c: DecodeState<'_>,
        f: impl Fn(&mut DecodeState<'_>) -> crate::Result<()>,
    ) -> String {
        let out = f(&mut c).map_err(|e| e.to_string());
        format!("{out:?} {:?} {:?}", c.decoding_quota(), c.skipping_quota())
    }

    /// `charge_then` takes its two charges in one test only when both fit: wherever the
    /// quota runs out, it fails as `charge` called twice does, typed and untyped.
    #[test]
    fn charge2_is_two_charges() {
        for untyped in [false, true] {
            for d in [
                None,
                Some(0),
                Some(49),
                Some(50),
                Some(99),
                Some(100),
                Some(150),
            ] {
                for s in [None, Some(0), Some(1), Some(2)] {
                    let make = || {
                        let mut c = state(d, s);
                        c.set_untyped(untyped);
                        c
                    };
                    let one = run(make(), |c| c.charge_then(1, 1));
                    let two = run(make(), |c| {
                        c.charge(1)?;
                        c.charge(1)
                    });
                    assert_eq!(one, two, "untyped {untyped}, quotas {d:?} {s:?}");
                }
            }
        }
    }

    /// The least size of a vector's record element is kept for the next vector of
    /// that element type, and only for it: another record type, or one that is not
    /// a record, gets its own answer.
    #[test]
    fn elem_min_size_keeps_the_last_record_only() {
        use crate::wire::header::{parse, Node};
        let bytes = crate::Encode!(&vec![(1u64, 2u64)], &vec![(1u8,)], &vec![3u16]).unwrap();
        let h = parse(&bytes, usize::MAX, usize::MAX).unwrap();
        let el = |arena: &Arena, r: crate::wire::header::Ref| match arena.node(r.resolved()) {
            Node::Vec(el) => el.resolved(),
            _ => panic!("not a vector"),
        };
        let els: Vec<_> = (0..3)
            .map(|i| el(&h.arena, h.shape.arg(&h.arena, i).unwrap()))
            .collect();
        let mut c = state(None, None);
        c.wire = crate::de::header_cache::LentArena::new(h.arena, None, LentMemo::none());
        assert_eq!(c.elem_min_size(els[0]), 16);
        assert_eq!(c.min_memo, (els[0], 16));
        assert_eq!(c.elem_min_size(els[0]), 16);
        assert_eq!(c.elem_min_size(els[1]), 1);
        assert_eq!(c.min_memo, (els[1], 1));
        assert_eq!(c.elem_min_size(els[2]), 2);
        assert_eq!(c.min_memo, (els[1], 1), "a primitive element is not kept");
        assert_eq!(c.elem_min_size(els[0]), 16);
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
        let forgotten = |c: &DecodeState<'_>| {
            let none = (PairSpans::NONE.w, PairSpans::NONE.e);
            (c.variant_ok.w, c.variant_ok.e) == none
                && (c.tuple_ok.w, c.tuple_ok.e) == none
                && c.blob_ok == none
                && (c.vec_ok.w, c.vec_ok.e) == none
        };
        let mut c = state(None, None);
        assert!(forgotten(&c), "a new decoder has none");
        let keep = |c: &mut DecodeState<'_>| {
            c.variant_ok = kept;
            c.tuple_ok = kept;
            c.blob_ok = (kept.w, kept.e);
            c.vec_ok.w = kept.w;
            c.vec_ok.e = kept.e;
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

    /// The word-wise ASCII test agrees with `is_ascii` on every short length and
    /// every position of a high byte.
    #[test]
    fn short_ascii_is_is_ascii() {
        for n in 0..=super::SHORT_TEXT + 8 {
            let mut b = vec![b'a'; n];
            assert!(super::short_ascii(&b), "{n}");
            for i in 0..n {
                b[i] = 0x80;
                assert!(!super::short_ascii(&b), "{n} {i}");
                b[i] = 0xff;
                assert!(!super::short_ascii(&b), "{n} {i}");
                b[i] = 0x7f;
                assert!(super::short_ascii(&b), "{n} {i}");
            }
        }
    }

    /// Without a decoding quota the count of units is refilled when it runs low, so
    /// no amount of typed work fails; with one, the last unit is the last one.
    #[test]
    fn no_quota_never_runs_out() {
        let mut c = state(None, None);
        c.quota_left = 3;
        assert!(c.charge(5).is_ok());
        assert!(c.charge_then(usize::MAX / 2, usize::MAX / 2).is_ok());
        assert_eq!(c.decoding_quota(), None);
        let mut c = state(Some(5), None);
        assert!(c.charge(5).is_ok());
        assert_eq!(c.decoding_quota(), Some(0));
        assert!(c.charge(1).is_err());
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
            .state
            .rare
            .as_deref()
            .expect("a table for the pair")
            .cases;
        assert_eq!(kept.known.count_ones(), 2, "both cases are kept");
        let ok = de.state.variant_ok;
        assert_eq!((kept.w, kept.e), (ok.w, ok.e));

        let bytes = Encode!(&Result::<u8, String>::Ok(7)).unwrap();
        let mut de = IDLDeserialize::new(&bytes).unwrap();
        assert_eq!(de.get_value::<Result<u8, String>>().unwrap(), Ok(7));
        assert!(
            de.state.rare.is_none(),
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
            de.state
                .rare
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
        de.state.set_expected(Rc::new(Arena::new()));
        let none = (super::PairSpans::NONE.w, super::PairSpans::NONE.e, 0);
        assert_eq!(kept(&de), Some(none), "forgotten with the expected arena");
    }

    /// The untyped budget (one count that both quotas hold at their untyped
    /// rates) charges exactly as the two quotas charged one by one would: the
    /// same errors at the same charge and the same quotas left, through typed
    /// and untyped stretches, marks and returns to them.
    #[test]
    fn untyped_budget_is_the_two_quotas() {
        use crate::de::quota::UNTYPED;
        /// The quotas charged one by one, as the spec states them.
        #[derive(Clone, Copy, Debug, PartialEq)]
        struct Model {
            d: Option<usize>,
            s: Option<usize>,
        }
        impl Model {
            fn typed(&mut self, c: usize) -> Result<(), &'static str> {
                if let Some(d) = self.d {
                    if d < c {
                        return Err("Decoding");
                    }
                    self.d = Some(d - c);
                }
                Ok(())
            }
            fn untyped(&mut self, c: usize) -> Result<(), &'static str> {
                if let Some(d) = self.d {
                    let u = c.saturating_mul(UNTYPED);
                    if d < u {
                        return Err("Decoding");
                    }
                    self.d = Some(d - u);
                }
                if let Some(s) = self.s {
                    if s < c {
                        return Err("Skipping");
                    }
                    self.s = Some(s - c);
                }
                Ok(())
            }
        }
        let kind = |r: crate::Result<()>| {
            r.map_err(|e| {
                let e = e.to_string();
                if e.contains("Decoding cost") {
                    "Decoding"
                } else {
                    assert!(e.contains("Skipping cost"), "{e}");
                    "Skipping"
                }
            })
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        };
        for round in 0..3000 {
            let pick = |x: usize| [None, Some(x)][x % 2];
            let d = pick(next(4000) * (1 + next(3)));
            let s = pick(next(120));
            let mut m = Model { d, s };
            let mut c = state(d, s);
            let mut mark = None;
            for step in 0..40 {
                let cost = [0, 1, 2, 3, 7, 50, next(90)][next(7)];
                let op = next(8);
                let (got, want) = match op {
                    0 => {
                        let untyped = !c.untyped;
                        c.set_untyped(untyped);
                        (Ok(()), Ok(()))
                    }
                    1 => {
                        mark = Some((c.mark(), m));
                        (Ok(()), Ok(()))
                    }
                    2 => {
                        if let Some((at, model)) = mark.take() {
                            c.back_to(at);
                            m = model;
                        }
                        (Ok(()), Ok(()))
                    }
                    3 => {
                        let other = next(5);
                        let want = if c.untyped {
                            m.untyped(cost).and_then(|()| m.untyped(other))
                        } else {
                            m.typed(cost).and_then(|()| m.typed(other))
                        };
                        (kind(c.charge_then(cost, other)), want)
                    }
                    4 => (kind(c.charge_untyped(cost)), m.untyped(cost)),
                    _ => {
                        let want = if c.untyped {
                            m.untyped(cost)
                        } else {
                            m.typed(cost)
                        };
                        (kind(c.charge(cost)), want)
                    }
                };
                let at = format!("round {round} step {step} op {op} cost {cost}");
                assert_eq!(got, want, "{at}");
                assert_eq!(c.decoding_quota(), m.d, "{at}");
                assert_eq!(c.skipping_quota(), m.s, "{at}");
                if got.is_err() {
                    break;
                }
            }
        }
    }
}
