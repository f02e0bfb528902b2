//! The spec's `opt` rule, per value: does the value at the current position, of wire
//! type `w`, coerce to the expected type `e`? Decided here only when the memoised
//! type-level check says no (`De::some`); the value is walked without being built,
//! then the position is put back.
//!
//! The walk is not charged, so a value that fits costs what candid charges for
//! decoding it once, but it is bounded twice: the units it would have cost may not
//! pass the decoding quota left (a `vec null` of 2^60 elements is a few bytes long,
//! so bytes alone do not bound a walk), and the bytes walked by all checks of one
//! message are charged once they pass an allowance of a few walks over the message
//! (only `opt`s nested to be re-walked at every level get there). See
//! `spec/limits.md` §4 and `spec/differences.md`.

use super::merge::{FieldMerge, Step};
use super::skip::Meter;
use super::state::DecodeState;
use crate::error::fault;
use crate::error::Result;
use crate::wire::header::{Node, Ref};

/// One value-level check: the units its walk would have cost so far. Made fresh for
/// each check and passed down its walk (and the skips inside it), so nothing of one
/// check can outlive it.
struct OptCheck {
    units: usize,
    /// The decoding quota left when the check began (no limit: `usize::MAX`):
    /// the walk charges nothing, so it stays so throughout.
    limit: usize,
}

impl Meter for OptCheck {
    /// Not charged, but bounded: a walk over more units than the decoding quota has
    /// left is over a value candid could neither decode nor skip within it.
    #[inline]
    fn charge(&mut self, state: &mut DecodeState<'_>, units: usize) -> Result<()> {
        self.units = self.units.saturating_add(units);
        if self.units > self.limit {
            return Err(state.decoding_error());
        }
        Ok(())
    }
}

impl DecodeState<'_> {
    /// Whether the value at the current position, of wire type `w`, coerces to
    /// expected type `e`. The position is unchanged afterwards.
    pub(crate) fn coerces(&mut self, w: Ref, e: Ref) -> Result<bool> {
        let start = self.offset();
        let limit = self.quota.decoding().unwrap_or(usize::MAX);
        let out = OptCheck { units: 0, limit }.walk(self, w, e);
        let walked = self.offset() - start;
        self.reader.rewind(start);
        let fits = out?;
        self.charge_walked(walked)?;
        Ok(fits)
    }

    /// candid charges nothing extra for a value that fits (it decodes it once), so
    /// neither does candor, up to an allowance of four walks over the whole message
    /// and 4,096 bytes; past it the bytes walked are charged, which bounds repeated
    /// walks by the quota.
    fn charge_walked(&mut self, walked: usize) -> Result<()> {
        self.opt_walked = self.opt_walked.saturating_add(walked);
        let allowance = self
            .reader
            .input_len()
            .saturating_mul(4)
            .saturating_add(4096);
        if self.opt_walked > allowance {
            self.charge(walked)?;
        }
        Ok(())
    }
}

impl OptCheck {
    /// Walks one value: a pair the type-level check accepts is skipped (it fits);
    /// any other pair is looked into one level deeper.
    fn walk(&mut self, state: &mut DecodeState<'_>, w: Ref, e: Ref) -> Result<bool> {
        if state.subtype(w, e) {
            state.skip_inner(self, w)?;
            return Ok(true);
        }
        state.enter()?;
        let out = self.node(state, w, e);
        state.leave();
        out
    }

    /// The constructors whose values decide the rule: vectors element by element,
    /// records field by field, variants by the case on the wire. Any other pair does
    /// not coerce.
    fn node(&mut self, state: &mut DecodeState<'_>, w: Ref, e: Ref) -> Result<bool> {
        match (state.wire_node(w), state.expected_node(e)) {
            (Node::Vec(we), Node::Vec(ee)) => self.vec(state, we.resolved(), ee),
            (Node::Record(wf), Node::Record(ef)) => {
                let mut fields = FieldMerge::new(wf, ef);
                while let Some(step) = fields.next(&state.wire, &state.exp) {
                    match step {
                        Step::Both { w, e, .. } => {
                            if !self.walk(state, w, e)? {
                                return Ok(false);
                            }
                        }
                        Step::Expected { e, .. } => {
                            if !super::subtype::is_optional(&state.exp, e.resolved()) {
                                return Ok(false);
                            }
                        }
                        Step::Wire { w, .. } => state.skip_inner(self, w)?,
                    }
                }
                Ok(true)
            }
            (Node::Variant(wf), Node::Variant(ef)) => {
                let at = state.offset();
                let index = state.reader.leb("variant index")?;
                let Some((id, wty)) = usize::try_from(index)
                    .ok()
                    .and_then(|i| state.wire.fields(wf).get(i))
                    .map(|f| (f.id, f.ty))
                else {
                    let cases = wf.len as usize;
                    return Err(fault::variant_index(index, cases, at));
                };
                let exp_cases = state.exp.fields(ef);
                match exp_cases.binary_search_by_key(&id, |f| f.id) {
                    Ok(k) => {
                        let ety = exp_cases.get(k).map(|f| f.ty).unwrap_or(e);
                        self.walk(state, wty, ety)
                    }
                    Err(_) => Ok(false),
                }
            }
            _ => Ok(false),
        }
    }

    fn vec(&mut self, state: &mut DecodeState<'_>, we: Ref, ee: Ref) -> Result<bool> {
        let n = state.reader.len(state.wire.min_size(we))?;
        for _ in 0..n {
            if !self.walk(state, we, ee)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
