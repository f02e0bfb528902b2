//! The decoding quota's units, in one place: candid's charge for each serde call
//! (spec/limits.md §3 lists them with the call that incurs each), and the depth
//! limits beside them. Call sites name the unit; the numbers live only here.

/// Each byte of the header (magic, type table, argument types).
pub(crate) const HEADER_BYTE: usize = 4;
/// One serde call: a `bool`, a constructor's entry (`opt`, `vec`, record, variant, map), `null`, a payload
/// access, a newtype.
pub(crate) const CALL: usize = 1;
/// Resolving one side of a (wire, expected) pair that names a type variable.
pub(crate) const UNROLL: usize = 1;
/// Fetching one element of a sequence (vector element, tuple element, map value
/// when not on the fast path).
pub(crate) const ELEMENT: usize = 3;
/// One `next_key` call of a record or map (the final "no more" call included).
pub(crate) const KEY: usize = 4;
/// The identifier of a numbered field or case (a named one costs its length).
pub(crate) const ID_LABEL: usize = 4;
/// `variant_seed`: choosing a variant's case.
pub(crate) const CASE: usize = 4;
/// Per entry of a map on the fast path (text keys, or bignum values), up front.
pub(crate) const FAST_MAP_ENTRY: usize = 7;
/// candid's backtracking charge for an `opt` value that does not fit its type.
pub(crate) const OPT_BACKTRACK: usize = 10;
/// A `nat`/`int` read as `u128`/`i128`, whatever its length.
pub(crate) const BIG_FLAT: usize = 16;
/// Fixed-width primitives (`natN`, `intN`, `floatN`) cost their width in bytes.
///
/// The least a principal costs, whatever its length (candid charges its 30-byte
/// buffer).
pub(crate) const PRINCIPAL_MIN: usize = 30;
/// Multiplier for values decoded or skipped without a Rust type (candid's penalty),
/// which also count against the skipping quota.
pub(crate) const UNTYPED: usize = 50;

/// candid's untyped variant label is `"<id>,id,<accessor>"`: the separators and
/// `id` around the case id.
pub(crate) const UNTYPED_LABEL_FIXED: usize = ",id,".len();
/// The accessor in that label: `unit` for a `null` payload, `newtype` otherwise.
pub(crate) const UNTYPED_UNIT: usize = "unit".len();
pub(crate) const UNTYPED_NEWTYPE: usize = "newtype".len();
/// What a func reference costs beyond its principal and method name.
pub(crate) const FUNC_REFERENCE: usize = 2;

/// How deep an expected type (a Rust type's or a run-time `Type`) may nest before
/// it is refused while flattening it.
pub(crate) const MAX_EXPECTED_DEPTH: usize = 10_000;

/// Bound on the nesting the memoised type-level check explores; past it the answer
/// is "no" (the value-level check then decides, under the decoder's own depth limit,
/// `DEFAULT_MAX_DEPTH` unless the config sets another).
pub(crate) const MAX_SUBTYPE_DEPTH: usize = 512;

/// Why a charge's fast path did not settle it: a quota ran out, or (untyped) the
/// charge is settled against the budget, out of line ([`Quota::charge_rest`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Exhausted {
    Decoding,
    Skipping,
    UntypedBudget,
}

/// The accounting of one message's decode: the decoding and skipping quotas left,
/// in either mode (typed, or untyped, where every unit is [`UNTYPED`] decoding units
/// and one skipping unit), and which of them are bounds of candor's own (the size
/// bound). It knows nothing of the input: a charge that does not fit says which
/// quota ran out ([`Exhausted`]), and the decoder turns that into an error with
/// the offset.
///
/// `repr(C)`, with the fields in the order the decode state held them before they
/// were gathered here, so the state's layout (and the code that reads `left` in
/// every hot function) is unchanged.
#[repr(C)]
pub(super) struct Quota {
    /// The units a charge may take without a closer look, in either mode, so a
    /// charge is a compare and a subtraction (see [`take`](Self::take)).
    /// Typed: the decoding quota left, when `on` or `size_bound`; otherwise a
    /// large count refilled when it runs low (no quota means no limit). Untyped: the
    /// most units that both quotas still hold at their untyped rates (see
    /// [`rebudget`](Self::rebudget)).
    pub(super) left: usize,
    /// Whether the decode has a decoding quota set (not the size bound, whose
    /// skipped units count once, like typed ones), and the skipping quota left:
    /// while typed. While untyped they are `false` and `Some(0)`, so a
    /// skip's charge ([`charge_untyped`](Self::charge_untyped)) keeps its typed
    /// code and finds its way to the budget on the out-of-line path.
    on: bool,
    skipping: Option<usize>,
    /// While untyped: whether there is a decoding quota, the decoding and
    /// skipping quotas left as of the last settling
    /// ([`settle_untyped`](Self::settle_untyped)), and `left` then. The
    /// units charged since are `untyped_budget - left`.
    untyped_on: bool,
    untyped_decoding: usize,
    untyped_skipping: Option<usize>,
    untyped_budget: usize,
    /// Whether the decoding quota is the size bound (`DecoderConfig::set_size_bound`):
    /// for its error, and for `get_config`, which reports no quota then.
    pub(super) size_bound: bool,
    /// Whether the skipping quota is a copy of the size bound (none was set): for
    /// its error, and for `get_config`.
    pub(super) skip_bound: bool,
    /// True while decoding an argument with no Rust type (`IDLValue`): every cost is
    /// multiplied and counts against the skipping quota. Read freely; set only by
    /// [`set_untyped`](Self::set_untyped), which converts the counts.
    pub(super) untyped: bool,
}

impl Quota {
    /// Typed accounting from the decoding quota left once the header is paid for
    /// (`None`: no limit), whether that quota is the size bound, and the config's
    /// skipping quota. Inlined, so the decode state's constructor writes the fields
    /// in place rather than copying a built `Quota` in.
    #[inline(always)]
    pub(super) fn new(decoding: Option<usize>, size_bound: bool, skipping: Option<usize>) -> Self {
        // Under the size bound with no skipping quota, a copy of the bound (less
        // the header's units, paid already) bounds skipped work. (Chosen by the
        // one test, which the compiler then does not make twice.)
        let skip_bound = size_bound && skipping.is_none();
        Quota {
            left: decoding.unwrap_or(usize::MAX),
            on: decoding.is_some() && !size_bound,
            skipping: if skip_bound { decoding } else { skipping },
            untyped_on: false,
            untyped_decoding: 0,
            untyped_skipping: None,
            untyped_budget: 0,
            size_bound,
            skip_bound,
            untyped: false,
        }
    }

    /// This quota, as [`new`](Self::new) would make it, for the next message of a
    /// kept decode state: only the fields typed accounting reads are written. The
    /// untyped ones hold the last message's counts, which nothing reads before
    /// [`set_untyped`](Self::set_untyped)`(true)` writes them all again.
    #[inline(always)]
    pub(super) fn restart(
        &mut self,
        decoding: Option<usize>,
        size_bound: bool,
        skipping: Option<usize>,
    ) {
        let skip_bound = size_bound && skipping.is_none();
        self.left = decoding.unwrap_or(usize::MAX);
        self.on = decoding.is_some() && !size_bound;
        self.skipping = if skip_bound { decoding } else { skipping };
        self.size_bound = size_bound;
        self.skip_bound = skip_bound;
        self.untyped = false;
    }

    /// The decoding quota left (`None`: no limit).
    pub(super) fn decoding(&self) -> Option<usize> {
        if self.untyped {
            self.untyped_on
                .then(|| self.untyped_decoding - self.untyped_spent() * self.skip_rate())
        } else {
            (self.on || self.size_bound).then_some(self.left)
        }
    }

    /// The decoding quota left of the one the config set (`None` under the size
    /// bound, as no quota was set).
    pub(super) fn set_decoding(&self) -> Option<usize> {
        self.decoding().filter(|_| !self.size_bound)
    }

    /// The skipping quota left of the one the config set (`None` when it is a
    /// copy of the size bound).
    pub(super) fn set_skipping(&self) -> Option<usize> {
        self.skipping().filter(|_| !self.skip_bound)
    }

    /// The skipping quota left (`None`: no limit).
    pub(super) fn skipping(&self) -> Option<usize> {
        if self.untyped {
            let spent = self.untyped_spent();
            self.untyped_skipping.map(|q| q - spent)
        } else {
            self.skipping
        }
    }

    /// Sets both quotas (`None`: no limit), in either mode.
    pub(super) fn set(&mut self, decoding: Option<usize>, skipping: Option<usize>) {
        let d = decoding.unwrap_or(usize::MAX);
        if self.untyped {
            self.untyped_on = decoding.is_some();
            self.untyped_decoding = d;
            self.untyped_skipping = skipping;
            self.rebudget();
        } else {
            self.on = decoding.is_some() && !self.size_bound;
            self.left = d;
            self.skipping = skipping;
        }
    }

    /// Decoding units per unit of untyped work: candid's [`UNTYPED`] under an
    /// explicit quota or none, one under the size bound (which counts work, not
    /// candid's penalty on it).
    #[inline(always)]
    fn skip_rate(&self) -> usize {
        if self.size_bound {
            1
        } else {
            UNTYPED
        }
    }

    /// Untyped: the units charged since the last settling.
    fn untyped_spent(&self) -> usize {
        self.untyped_budget - self.left
    }

    /// Enters or leaves untyped mode, converting the counts.
    pub(super) fn set_untyped(&mut self, untyped: bool) {
        if untyped == self.untyped {
            return;
        }
        if untyped {
            self.untyped_on = std::mem::replace(&mut self.on, false) || self.size_bound;
            self.untyped_decoding = self.left;
            self.untyped_skipping = self.skipping.replace(0);
            self.untyped = true;
            self.rebudget();
        } else {
            self.settle_untyped();
            self.on = self.untyped_on && !self.size_bound;
            self.left = self.untyped_decoding;
            self.skipping = self.untyped_skipping;
            self.untyped = false;
        }
    }

    /// Untyped: takes the units charged since the last settling off both quotas
    /// (an untyped unit is [`skip_rate`](Self::skip_rate) decoding units and one
    /// skipping unit). Exact: the budget never lets more units through than both hold.
    fn settle_untyped(&mut self) {
        let spent = self.untyped_spent();
        if self.untyped_on {
            self.untyped_decoding -= spent * self.skip_rate();
        }
        if let Some(q) = &mut self.untyped_skipping {
            *q -= spent;
        }
        self.untyped_budget = self.left;
    }

    /// Untyped: the budget for the settled quotas, the most units `n` with `n`
    /// untyped charges fitting both: a charge of `c` then fits exactly when
    /// `c <= n`, and leaves the budget of what remains, `n - c`, so the typed
    /// fast test serves untyped charges unchanged.
    fn rebudget(&mut self) {
        let d = if self.untyped_on {
            self.untyped_decoding / self.skip_rate()
        } else {
            usize::MAX
        };
        let n = d.min(self.untyped_skipping.unwrap_or(usize::MAX));
        self.left = n;
        self.untyped_budget = n;
    }

    /// The fast test of a charge, on the one field it reads (so a caller holding a
    /// borrow of another field of the decode state can make it): `true` when the
    /// units were taken; on `false` nothing was, and the caller goes on with
    /// [`charge_rest`](Self::charge_rest).
    #[inline(always)]
    pub(super) fn take(left: &mut usize, cost: usize) -> bool {
        if cost <= *left {
            *left -= cost;
            return true;
        }
        false
    }

    /// A charge the fast test did not settle: an exhausted quota, or a count with
    /// no limit behind it that runs low (it is refilled).
    #[inline(always)]
    pub(super) fn charge_rest(&mut self, cost: usize) -> Result<(), Exhausted> {
        if self.untyped {
            self.settle_untyped();
            let out = self.charge_untyped_now(cost);
            self.rebudget();
            return out;
        }
        if cost <= self.left {
            self.left -= cost;
            return Ok(());
        }
        if self.on || self.size_bound {
            return Err(Exhausted::Decoding);
        }
        self.left = usize::MAX - cost;
        Ok(())
    }

    /// Charges `cost` units of skipped (untyped) work: [`UNTYPED`]× on the decoding
    /// quota and 1× on the skipping quota. Under the size bound with no skipping
    /// quota set, the skipping quota is a copy of the bound, so skipped work is
    /// bounded by it with the same code. Untyped, the skipping quota reads
    /// `Some(0)`, so any units take the path of a short skipping quota, which sends
    /// them to the budget instead ([`Exhausted::UntypedBudget`]).
    #[inline(always)]
    pub(super) fn charge_untyped(&mut self, cost: usize) -> Result<(), Exhausted> {
        if self.on {
            let c = cost.saturating_mul(UNTYPED);
            if self.left < c {
                return Err(Exhausted::Decoding);
            }
            self.left -= c;
        }
        if let Some(q) = self.skipping {
            if q < cost {
                if self.untyped {
                    return Err(Exhausted::UntypedBudget);
                }
                return Err(Exhausted::Skipping);
            }
            self.skipping = Some(q - cost);
        }
        Ok(())
    }

    /// [`charge_untyped`](Self::charge_untyped) in untyped mode, on settled
    /// quotas (the budget is then out of date).
    fn charge_untyped_now(&mut self, cost: usize) -> Result<(), Exhausted> {
        if self.untyped_on {
            let c = cost.saturating_mul(self.skip_rate());
            if self.untyped_decoding < c {
                return Err(Exhausted::Decoding);
            }
            self.untyped_decoding -= c;
        }
        if let Some(q) = self.untyped_skipping {
            if q < cost {
                return Err(Exhausted::Skipping);
            }
            self.untyped_skipping = Some(q - cost);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::de::state::Start;
    use crate::de::state::{test_state as state, DecodeState};
    use crate::de::subtype::LentMemo;
    use crate::de::DecoderConfig;
    use crate::wire::header::Arena;
    use std::rc::Rc;

    /// Under the size bound, skipped and untyped work counts once against it (not
    /// 50×), typed work as usual; the bound is not reported as a quota set, and
    /// its error names it.
    /// A fixed-seed xorshift generator: `next(n)` is in `0..n`.
    fn xorshift(mut seed: u64) -> impl FnMut(u64) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        }
    }

    #[test]
    fn size_bound_counts_skipped_and_untyped_work_once() {
        let start = Start {
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
        assert_eq!(c.quota.decoding(), Some(100));
        assert_eq!(c.quota.skipping(), Some(90));
        c.quota.set_untyped(true);
        c.charge(10).unwrap();
        assert_eq!(c.quota.decoding(), Some(90));
        assert_eq!(c.quota.skipping(), Some(80));
        c.quota.set_untyped(false);
        c.charge(80).unwrap();
        assert_eq!(c.quota.decoding(), Some(10));
        assert_eq!(
            (c.quota.set_decoding(), c.quota.set_skipping()),
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
        format!("{out:?} {:?} {:?}", c.quota.decoding(), c.quota.skipping())
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
                        c.quota.set_untyped(untyped);
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

    /// Without a decoding quota the count of units is refilled when it runs low, so
    /// no amount of typed work fails; with one, the last unit is the last one.
    #[test]
    fn no_quota_never_runs_out() {
        let mut c = state(None, None);
        c.quota.left = 3;
        assert!(c.charge(5).is_ok());
        assert!(c.charge_then(usize::MAX / 2, usize::MAX / 2).is_ok());
        assert_eq!(c.quota.decoding(), None);
        let mut c = state(Some(5), None);
        assert!(c.charge(5).is_ok());
        assert_eq!(c.quota.decoding(), Some(0));
        assert!(c.charge(1).is_err());
    }

    /// A quota restarted for the next message after any use (typed or untyped,
    /// exhausted or not) counts as a new one: the same quotas, the same errors at
    /// the same charges, through typed and untyped stretches.
    #[test]
    fn a_restarted_quota_is_a_new_one() {
        use crate::de::quota::Quota;
        let starts = [
            (None, false, None),
            (Some(500), false, None),
            (Some(500), true, None),
            (Some(500), false, Some(40)),
            (Some(500), true, Some(40)),
            (None, false, Some(40)),
        ];
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..2000 {
            let (d, b, s) = starts[next(starts.len() as u64)];
            let (d0, b0, s0) = starts[next(starts.len() as u64)];
            // A quota used by an earlier message, left in any mode.
            let mut used = Quota::new(d0, b0, s0);
            for _ in 0..next(6) {
                used.set_untyped(next(2) == 0);
                let _ = used.charge_rest(next(200));
                let _ = used.charge_untyped(next(20));
            }
            used.restart(d, b, s);
            let mut fresh = Quota::new(d, b, s);
            for step in 0..30 {
                let at = format!("round {round} step {step}");
                let cost = next(60);
                match next(4) {
                    0 => {
                        let u = next(2) == 0;
                        used.set_untyped(u);
                        fresh.set_untyped(u);
                    }
                    1 => assert_eq!(
                        used.charge_untyped(cost),
                        fresh.charge_untyped(cost),
                        "{at}"
                    ),
                    _ => {
                        let a = Quota::take(&mut used.left, cost) || used.charge_rest(cost).is_ok();
                        let b =
                            Quota::take(&mut fresh.left, cost) || fresh.charge_rest(cost).is_ok();
                        assert_eq!(a, b, "{at}");
                    }
                }
                assert_eq!(used.decoding(), fresh.decoding(), "{at}");
                assert_eq!(used.skipping(), fresh.skipping(), "{at}");
                assert_eq!(used.set_decoding(), fresh.set_decoding(), "{at}");
                assert_eq!(used.set_skipping(), fresh.set_skipping(), "{at}");
            }
        }
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
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
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
                        let untyped = !c.quota.untyped;
                        c.quota.set_untyped(untyped);
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
                        let want = if c.quota.untyped {
                            m.untyped(cost).and_then(|()| m.untyped(other))
                        } else {
                            m.typed(cost).and_then(|()| m.typed(other))
                        };
                        (kind(c.charge_then(cost, other)), want)
                    }
                    4 => (kind(c.charge_untyped(cost)), m.untyped(cost)),
                    _ => {
                        let want = if c.quota.untyped {
                            m.untyped(cost)
                        } else {
                            m.typed(cost)
                        };
                        (kind(c.charge(cost)), want)
                    }
                };
                let at = format!("round {round} step {step} op {op} cost {cost}");
                assert_eq!(got, want, "{at}");
                assert_eq!(c.quota.decoding(), m.d, "{at}");
                assert_eq!(c.quota.skipping(), m.s, "{at}");
                if got.is_err() {
                    break;
                }
            }
        }
    }
}
