//! The state one message's decode shares: the reader over the input, the wire and
//! expected arenas, the quotas, the depth and the subtype memo.
//!
//! Per-value state (which wire type, which expected type) is not here: it travels in
//! the `De` frame handed to each value (`value.rs`), so no flag can outlive the value
//! that set it.

use super::copy;
use super::header_cache::{Lease, Limits};
use super::kept::{CaseMemo, KeptCases, PairSpans, RecordPairs, VecShape};
use super::quota::{self, Exhausted, Quota};
use super::subtype::{LentMemo, Sides};
use crate::error::Error;
use crate::error::Result;
use crate::wire::header::{Arena, Node, Ref, Shape, PRIM_COUNT};
use crate::wire::plain_header::Held;
use crate::wire::reader::Reader;
use std::rc::Rc;

/// Nesting levels between two measures of the stack (see [`DecodeState::enter`]).
const STACK_CHECK_EVERY: u32 = 8;

/// `repr(C)` with the reader first: the reader then sits at the state's own address,
/// so lending it to an out-of-line reader function (a principal, an error) takes no
/// address arithmetic in the hot functions that hold the state.
#[repr(C)]
pub(crate) struct DecodeState<'de> {
    /// The message's bytes and the position in them: every read goes through it.
    pub reader: Reader<'de>,
    /// The wire types, with the subtype memo (see [`WireTypes`]).
    pub wire: WireTypes,
    pub exp: Rc<Arena>,
    /// Number of wire type table entries: the cost of a func/service subtype check.
    pub table_len: usize,
    /// The quotas and how much of them is left (see [`Quota`]).
    pub(super) quota: Quota,
    /// Bytes walked by all value-level `opt` checks of this message: their
    /// allowance is per message (`coerce.rs`), so the count is message state.
    pub opt_walked: usize,
    depth: u32,
    max_depth: u32,
    /// Stack address when the message began (`begin`), and how many bytes below
    /// it the decode may use (see [`stack_addr`]).
    stack_base: usize,
    max_stack: usize,
    /// What few decodes need, made on first use (see [`SideTables`]).
    pub(super) side: Option<Box<SideTables>>,
    /// The last (wire, expected) pair checked as a variant on both sides, and as a
    /// tuple record on both sides (see [`PairSpans`]).
    pub(super) variant_ok: PairSpans,
    pub(super) tuple_ok: PairSpans,
    /// The last two pairs read as structs (see [`RecordPairs`]).
    pub(super) record_ok: RecordPairs,
    /// The last (wire, expected) pair of resolved references read as a vector on
    /// both sides, with how its elements are read (see [`VecShape`]).
    pub(super) vec_ok: VecShape,
    /// The last (wire, expected) pair of resolved references checked as a blob
    /// (`vec nat8`) on both sides, by `De::bytes`: the next blob at that pair is
    /// read without looking at either arena. Forgotten with the other kept pairs.
    pub(super) blob_ok: (Ref, Ref),
    /// The last (wire, expected) pair the subtype memo said holds, answered again
    /// without it (`subtype`); forgotten with the other kept pairs.
    pub(super) held_ok: (Ref, Ref),
    /// The (wire, expected) types of the first two fields of `tuple_ok`'s pair, as
    /// `TupleAccess` reads them: a tuple's elements are then read without looking
    /// either arena up. Meaningful only while `tuple_ok` holds a pair.
    pub(super) tuple_first: [(Ref, Ref); 2],
    /// The last record element type whose least size a vector asked for, and that
    /// size (see [`elem_min_size`](Self::elem_min_size)).
    min_memo: (Ref, usize),
    /// The Rust type the last argument was decoded as, with the root of its
    /// expected type in `exp`: the next argument of that type (most often the next
    /// message's) takes the root without looking the type up. Forgotten whenever
    /// `exp` is replaced, so the root always names a node of the arena held.
    pub(super) last_root: Option<(crate::types::TypeId, Ref)>,
    /// Set while the state waits for its next message with `exp` parked (see
    /// [`park_expected`](Idle::park_expected)): `begin` takes the interned types again.
    exp_parked: bool,
    /// Where the first record left before its end was left (`StructAccess`'s
    /// `Drop`): when its visitor returned a value nonetheless, the reader is
    /// inside that record, so the message fails at `done`. An `opt` whose read
    /// failed and decodes as `null` forgets a record left inside it (at or after
    /// the `opt`'s value began).
    pub(super) unfinished: Option<usize>,
    /// The plain header this state decodes, or holds as the thread's spare with
    /// what it learnt about it (`header_cache::plain_state`); `None` for any other
    /// header, whose knowledge the spare forgets.
    pub(super) held_plain: Option<Held>,
    /// The header the wire types are of: its argument types and length. Set with
    /// them, and kept with them, so a kept header's next message copies nothing.
    pub(super) shape: Shape,
    /// Where the state goes when its decoder is dropped: the header cache entry
    /// that keeps its header, or none (the thread's spare).
    pub(super) lease: Option<Lease>,
    /// The header limits the header was read under (a kept header's are part of
    /// its key, so every message that takes it was decoded under them).
    pub(super) limits: Limits,
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
    pub(super) cases: KeptCases,
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

/// The address of a local of the caller's frame: the current stack position. Stacks
/// grow downward on every target candor runs on (native, and wasm's shadow stack in
/// linear memory).
#[inline(always)]
pub(crate) fn stack_addr() -> usize {
    let marker = 0u8;
    std::ptr::addr_of!(marker) as usize
}

/// Empties a set of names out of line: dropping its nodes takes a stack frame,
/// which the message's end (`DecodeState::end_message`) then needs only when
/// there are names to forget.
#[cold]
#[inline(never)]
fn clear_names(names: &mut std::collections::BTreeSet<String>) {
    names.clear();
}

/// The wire types of a decode, with the subtype memo of its (wire, expected)
/// pairs. `repr(C)` with the arena first: the arena then sits where the state's
/// field does, so reading a wire node takes no address arithmetic.
#[repr(C)]
pub(crate) struct WireTypes {
    arena: Arena,
    /// The subtype memo of the decode.
    pub memo: LentMemo,
    /// True while the memo's answers are about the thread's interned expected types
    /// (not a run-time type's private arena or the wire types): only then are they
    /// kept with a kept header for its next message.
    pub memo_on_interned: bool,
    /// Whether the memo holds answers an earlier message of this header found.
    pub answers_kept: bool,
}

impl WireTypes {
    fn new(arena: Arena, memo: LentMemo) -> Self {
        WireTypes {
            arena,
            memo,
            memo_on_interned: true,
            answers_kept: false,
        }
    }

    /// The arena, for a header to be parsed into: empty while the state waits
    /// (see [`Idle::forget_header`]).
    pub(crate) fn arena_mut(&mut self) -> &mut Arena {
        &mut self.arena
    }

    /// The arena and the memo, borrowed apart, for a subtype check.
    #[inline(always)]
    pub(crate) fn with_memo(&mut self) -> (&Arena, &mut LentMemo) {
        (&self.arena, &mut self.memo)
    }
}

impl std::ops::Deref for WireTypes {
    type Target = Arena;
    #[inline(always)]
    fn deref(&self) -> &Arena {
        &self.arena
    }
}

/// A decode state between two messages: no input, so no lifetime. A kept header
/// keeps one (`header_cache`), and the thread keeps a spare for the others.
pub(crate) type Idle = DecodeState<'static>;

/// How a test's state starts: the subtype answers it starts with and the decoding
/// quota left once the header is paid for.
#[cfg(test)]
pub(super) struct Start {
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

impl Idle {
    /// A state holding the wire types `wire`, knowing nothing about them yet, and
    /// `exp` as its expected types (the thread's interned ones).
    pub(super) fn blank(wire: Arena, exp: Rc<Arena>) -> Self {
        DecodeState {
            reader: Reader::new(&[], 0),
            wire: WireTypes::new(wire, LentMemo::none()),
            exp,
            table_len: 0,
            quota: Quota::new(None, false, None),
            opt_walked: 0,
            depth: 0,
            max_depth: 0,
            stack_base: 0,
            max_stack: 0,
            side: None,
            variant_ok: PairSpans::NONE,
            tuple_ok: PairSpans::NONE,
            record_ok: RecordPairs::NONE,
            blob_ok: PairSpans::NO_PAIR,
            held_ok: PairSpans::NO_PAIR,
            vec_ok: VecShape::NONE,
            tuple_first: [(
                Ref::prim(crate::wire::header::Prim::Null),
                Ref::prim(crate::wire::header::Prim::Reserved),
            ); 2],
            // A primitive reference never names a record, so this matches nothing.
            min_memo: (Ref::prim(crate::wire::header::Prim::Null), 0),
            last_root: None,
            exp_parked: false,
            unfinished: None,
            held_plain: None,
            shape: Shape::NONE,
            lease: None,
            limits: Limits::NONE,
        }
    }

    /// Takes the wire types of a header parsed elsewhere, in place of the
    /// (forgotten, see [`forget_header`](Self::forget_header)) ones this state held.
    #[cfg(test)]
    pub(super) fn hold(&mut self, wire: Arena) {
        self.wire.arena = wire;
    }

    /// The end of a message whose state goes back to its kept header: keeps what
    /// holds for the header's next message. The subtype answers are kept when they
    /// are about the interned expected types and none is a depth-limit artefact
    /// (the memo's `take_answers`); otherwise they are forgotten. The checked pairs
    /// stay: they are about the state's expected arena, which stays with them, and
    /// are forgotten when the next message replaces it.
    pub(super) fn end_message(&mut self) {
        let answers = if self.wire.memo_on_interned {
            self.wire.memo.take_answers()
        } else {
            None
        };
        self.wire.answers_kept = answers.is_some();
        match answers {
            Some(m) => self.wire.memo = LentMemo::with(m),
            None => self.wire.memo.clear(),
        }
        self.forget_env_names();
    }

    /// Lets go of the interned expected types while the state waits, for
    /// `placeholder`, when a new type is about to be interned: a waiting state that
    /// held them would make the arena copy itself to grow (it grows in place only
    /// while no one else holds it). The subtype answers stay: the interned types keep
    /// their indices as they grow, so they hold for the arena `begin` takes again.
    /// The checked pairs and `last_root` are forgotten: a rare event, and so they
    /// cannot outlive a message that unwound half-way with another arena held.
    pub(super) fn park_expected(&mut self, placeholder: &Rc<Arena>) {
        if self.wire.memo_on_interned && !self.exp_parked {
            self.forget_checked();
            self.exp = Rc::clone(placeholder);
            self.exp_parked = true;
        }
    }

    /// Forgets the callers' type environments counted into this message's table
    /// length (`merge_env_names`): the next message counts its own.
    fn forget_env_names(&mut self) {
        if let Some(side) = self.side.as_deref_mut() {
            if !side.merged_names.is_empty() {
                clear_names(&mut side.merged_names);
            }
        }
    }

    /// Forgets the header: its wire types are emptied for the next header parsed
    /// into this state (their memory kept), and everything known about them
    /// (subtype answers, checked pairs, the wire types as expected ones) is
    /// dropped, so the state can hold another.
    pub(super) fn forget_header(&mut self) {
        self.held_plain = None;
        self.wire.arena.clear_for_reuse();
        self.wire.memo.clear();
        self.wire.answers_kept = false;
        self.forget_checked();
        self.min_memo = (Ref::prim(crate::wire::header::Prim::Null), 0);
        if let Some(side) = self.side.as_deref_mut() {
            side.wire_as_exp = None;
        }
        self.forget_env_names();
    }
}

impl<'de> DecodeState<'de> {
    /// Counts a caller's type environment into the type table's length, as candid
    /// merges it into its table for `get_value_with_type`: a func or service subtype
    /// check then charges the merged length. A name already counted, or one that
    /// names a wire entry (`tableN`), adds nothing.
    pub(super) fn merge_env_names<'a>(&mut self, names: impl Iterator<Item = &'a String>) {
        let merged = &mut self.side.get_or_insert_with(SideTables::new).merged_names;
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
            decoding_quota: self.quota.decoding(),
            skipping_quota: self.quota.skipping(),
            opt_walked: self.opt_walked,
            depth: self.depth,
        }
    }

    /// Returns to a state taken by [`mark`](Self::mark).
    #[cold]
    pub(super) fn back_to(&mut self, m: Mark) {
        self.reader.rewind(m.pos);
        self.quota.set(m.decoding_quota, m.skipping_quota);
        self.opt_walked = m.opt_walked;
        self.depth = m.depth;
    }

    /// A state over `input` from byte `pos`, for the unit tests of the modules that
    /// keep its parts: decoders take an [`Idle`] state and [`begin`](Self::begin).
    #[cfg(test)]
    pub(super) fn new(
        input: &'de [u8],
        pos: usize,
        wire: Arena,
        exp: Rc<Arena>,
        table_len: usize,
        config: &super::DecoderConfig,
        start: Start,
    ) -> Self {
        let mut s = Idle::blank(wire, exp);
        s.wire.memo = start.memo;
        s.shape = Shape {
            table_len,
            len: pos,
            ..Shape::NONE
        };
        let quota = (start.decoding_quota, start.size_bound);
        s.begin(input, config, quota, || unreachable!("not parked"));
        s
    }

    /// Starts the decode of the message `input`, whose header (`shape`) this state's
    /// wire types are (both set before), from a state that decoded an earlier message of the same
    /// header or was just given them ([`Idle::holding`]): only what is the message's
    /// own is set (its input, quotas and depth); what the state knows about its
    /// header and the interned expected types stays.
    #[inline(always)]
    pub(super) fn begin(
        &mut self,
        input: &'de [u8],
        config: &super::DecoderConfig,
        (decoding_quota, size_bound): (Option<usize>, bool),
        interned: impl FnOnce() -> Rc<Arena>,
    ) {
        if self.exp_parked {
            self.exp = interned();
            self.exp_parked = false;
        }
        self.reader = Reader::new(input, self.shape.len);
        self.table_len = self.shape.table_len;
        self.quota
            .restart(decoding_quota, size_bound, config.skipping_quota);
        self.opt_walked = 0;
        self.depth = 0;
        self.stack_base = stack_addr();
        self.unfinished = None;
        self.max_depth = config.max_depth;
        self.max_stack = config.max_stack;
    }

    // ---- cost ------------------------------------------------------------------

    /// Charges `cost` units of typed work (multiplied in untyped mode).
    ///
    /// The common case (the units are there) is one compare and one
    /// subtraction, in either mode; everything else is decided out of the way,
    /// by [`charge_rest`](Self::charge_rest).
    #[inline(always)]
    pub(super) fn charge(&mut self, cost: usize) -> Result<()> {
        if Quota::take(&mut self.quota.left, cost) {
            return Ok(());
        }
        self.charge_rest(cost)
    }

    /// Charges `first` units, then `then` units: in one test when both fit,
    /// else one after the other, so a quota that runs out fails at the same charge
    /// and with the same error as two calls of [`charge`](Self::charge) would.
    #[inline(always)]
    pub(super) fn charge_then(&mut self, first: usize, then: usize) -> Result<()> {
        if Quota::take(&mut self.quota.left, first + then) {
            return Ok(());
        }
        self.charge_rest(first)?;
        self.charge_rest(then)
    }

    /// A charge the fast test of [`charge`](Self::charge) did not settle
    /// ([`Quota::charge_rest`]), with the error when a quota ran out.
    #[cold]
    fn charge_rest(&mut self, cost: usize) -> Result<()> {
        match self.quota.charge_rest(cost) {
            Ok(()) => Ok(()),
            Err(Exhausted::Skipping) => Err(self.skipping_error()),
            Err(_) => Err(self.decoding_error()),
        }
    }

    /// Charges `cost` units of skipped (untyped) work ([`Quota::charge_untyped`]).
    #[inline]
    pub(super) fn charge_untyped(&mut self, cost: usize) -> Result<()> {
        match self.quota.charge_untyped(cost) {
            Ok(()) => Ok(()),
            Err(Exhausted::Decoding) => Err(self.decoding_error()),
            Err(Exhausted::Skipping) => Err(self.skipping_error()),
            Err(Exhausted::UntypedBudget) => self.charge_rest(cost),
        }
    }

    /// The skipping quota ran out: the config's, or the copy of the size bound that
    /// stands in for it (named as the bound, with the call that lifts it).
    #[cold]
    fn skipping_error(&self) -> Error {
        if self.quota.skip_bound {
            return self.decoding_error();
        }
        Error::limit("Skipping cost exceeds the limit", self.offset())
    }

    /// The decoding quota ran out: the config's, or the size bound, which the error
    /// names with the one call that lifts it.
    #[cold]
    pub(super) fn decoding_error(&self) -> Error {
        if !self.quota.size_bound {
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
    /// included): the depth, and the stack used since the message began (`begin`
    /// marks it): frame sizes differ by an order of magnitude between builds and
    /// targets, so a depth alone cannot promise that the stack holds.
    ///
    /// The stack is measured every [`STACK_CHECK_EVERY`] levels past the first,
    /// out of line: taking a local's address would give every function that enters
    /// a level a stack frame. Between two measures the stack grows by at most that
    /// many frames (a few KiB in release builds, tens in debug builds), well inside
    /// the room the defaults leave below `max_stack`.
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
    /// Measures the stack used since the message began, past the first level.
    #[inline(never)]
    fn check_stack(&mut self) -> Result<()> {
        if self.depth == 0 {
            return Ok(());
        }
        self.measure_stack()
    }
    /// [`check_stack`](Self::check_stack)'s measure, on its own: the address of a
    /// local needs a stack frame, which the first level's call then does not pay.
    #[inline(never)]
    fn measure_stack(&mut self) -> Result<()> {
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
        self.last_root = None;
        self.variant_ok = PairSpans::NONE;
        if let Some(side) = self.side.as_deref_mut() {
            side.cases.forget();
        }
        self.tuple_ok = PairSpans::NONE;
        self.record_ok.forget();
        self.blob_ok = PairSpans::NO_PAIR;
        self.held_ok = PairSpans::NO_PAIR;
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
        self.side
            .get_or_insert_with(SideTables::new)
            .wire_as_exp
            .get_or_insert_with(|| Rc::new(wire.wire_as_expected()))
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
        let untyped = self.quota.untyped;
        self.quota.set_untyped(true);
        let memo = std::mem::replace(&mut self.wire.memo, LentMemo::none());
        let result = f(self);
        self.forget_checked();
        self.exp = exp;
        self.quota.set_untyped(untyped);
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
    /// at the same indices in every arena), and so does the last pair the memo
    /// said holds (`held_ok`).
    #[inline]
    pub(super) fn subtype(&mut self, w: Ref, e: Ref) -> bool {
        if (w == e && w.idx() < PRIM_COUNT) || self.held_ok == (w, e) {
            return true;
        }
        let (wire, memo) = self.wire.with_memo();
        let holds = memo.get().check(
            Sides {
                wire,
                exp: &self.exp,
            },
            w,
            e,
        );
        if holds {
            self.held_ok = (w, e);
        }
        holds
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
        match self.side.as_deref() {
            Some(side) if side.cases.w == w && side.cases.e == e => side.cases.case(index),
            _ => None,
        }
    }

    /// Keeps `case` as the one at wire index `index` of the pair `(w, e)`: the
    /// kept cases are made on first use, and emptied and given to this pair
    /// when they were another's.
    pub(super) fn keep_case(&mut self, w: Ref, e: Ref, index: u64, case: CaseMemo) {
        let kept = &mut self.side.get_or_insert_with(SideTables::new).cases;
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
        copy::borrowed_text(bytes, at)
    }
}

/// A decode state over no input, with the given quotas, for the unit tests of the
/// modules that keep its parts.
#[cfg(test)]
pub(super) fn test_state(decoding: Option<usize>, skipping: Option<usize>) -> DecodeState<'static> {
    let mut config = super::DecoderConfig::new();
    config.skipping_quota = skipping;
    let start = Start {
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

#[cfg(test)]
mod tests;
