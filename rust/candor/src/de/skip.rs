//! Skipping values the expected type does not want (extra arguments, extra record
//! fields, `reserved`, `opt` values that do not fit), and the value-level check that
//! decides the spec's `opt` rule when the types alone cannot.
//!
//! Skipping is charged as candid charges it: every unit 50× against the decoding
//! quota and 1× against the skipping quota, with candid's per-call units (table
//! references resolved, field keys, variant labels…). See `spec/limits.md`.

use super::core::Core;
use super::merge::{FieldMerge, Step};
use super::quota;
use crate::error::{fault, Error};
use crate::wire::header::{Arena, Node, Prim, Ref};
use crate::Result;

/// The fewest bytes a value of this wire type takes, for the eager length check
/// (a vector claiming more elements than the input could hold is rejected before any
/// work). Zero for types whose values take no bytes.
pub(crate) fn min_size(arena: &Arena, r: Ref) -> usize {
    min_size_at(arena, r, 0)
}

fn min_size_at(arena: &Arena, r: Ref, depth: u32) -> usize {
    match arena.node(r) {
        Node::Prim(p) => match p {
            Prim::Null | Prim::Reserved | Prim::Empty => 0,
            Prim::Nat16 | Prim::Int16 => 2,
            Prim::Nat32 | Prim::Int32 | Prim::Float32 => 4,
            Prim::Nat64 | Prim::Int64 | Prim::Float64 => 8,
            _ => 1,
        },
        Node::Record(s) if depth < 4 => arena
            .fields(s)
            .iter()
            .map(|f| min_size_at(arena, f.ty, depth + 1))
            .fold(0usize, usize::saturating_add),
        Node::Record(_) => 0,
        Node::Future => 2,
        _ => 1,
    }
}

fn digits(mut n: u32) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

impl<'de> Core<'de> {
    /// Skips one value of wire type `w`, charged as skipped work.
    pub(crate) fn skip(&mut self, w: Ref) -> Result<()> {
        self.enter()?;
        let out = self.skip_inner(w);
        self.leave();
        out
    }

    #[inline]
    fn skip_charge(&mut self, cost: usize) -> Result<()> {
        if self.silent {
            // Not charged, but bounded: a walk over more units than the decoding
            // quota has left is over a value candid could neither decode nor skip
            // within it. Bytes alone do not bound a walk (a `vec null` of 2^60
            // elements is a few bytes long).
            self.silent_cost = self.silent_cost.saturating_add(cost);
            if self.decoding_quota.is_some_and(|q| self.silent_cost > q) {
                return Err(self.quota_error("Decoding cost exceeds the limit"));
            }
            return Ok(());
        }
        self.charge_untyped(cost)
    }

    fn skip_inner(&mut self, w: Ref) -> Result<()> {
        if w.is_var() {
            self.skip_charge(2 * quota::UNROLL)?;
        }
        let at = self.offset();
        match self.wnode(w) {
            Node::Prim(p) => match p {
                Prim::Nat | Prim::Int => {
                    let n = self.reader.skip_leb("nat/int")?;
                    self.skip_charge(n)
                }
                Prim::Nat8 | Prim::Int8 => self.skip_fixed(1),
                Prim::Nat16 | Prim::Int16 => self.skip_fixed(2),
                Prim::Nat32 | Prim::Int32 | Prim::Float32 => self.skip_fixed(4),
                Prim::Nat64 | Prim::Int64 | Prim::Float64 => self.skip_fixed(8),
                Prim::Bool => {
                    self.skip_charge(quota::CALL)?;
                    self.reader.bool().map(drop)
                }
                Prim::Text => {
                    let n = self.reader.len(1)?;
                    self.skip_charge(n.saturating_add(quota::CALL))?;
                    let at = self.offset();
                    let bytes = self.reader.take(n, "text")?;
                    std::str::from_utf8(bytes)
                        .map(drop)
                        .map_err(|e| fault::invalid_utf8("text", e, at))
                }
                Prim::Null | Prim::Reserved => self.skip_charge(quota::CALL),
                Prim::Empty => Err(fault::empty_value(at)),
                Prim::Principal => {
                    let b = self.reader.principal()?;
                    self.skip_charge(b.len().max(quota::PRINCIPAL_MIN))
                }
            },
            Node::Opt(inner) => {
                self.skip_charge(quota::CALL)?;
                if self.reader.bool()? {
                    self.enter()?;
                    self.skip_inner(inner)?;
                    self.leave();
                }
                Ok(())
            }
            Node::Vec(el) => {
                let el = el.resolved();
                let el_node = self.wnode(el);
                if el_node == Node::Prim(Prim::Nat8) {
                    let n = self.reader.len(1)?;
                    self.skip_charge(n.saturating_add(quota::CALL))?;
                    return self.reader.take(n, "blob").map(drop);
                }
                self.skip_charge(quota::CALL)?;
                self.enter()?;
                match el_node {
                    Node::Prim(p) if super::primvec::is_fixed(p) => {
                        let size = super::primvec::size(p);
                        let n = self.reader.len(size)?;
                        self.skip_charge(n.saturating_mul(quota::ELEMENT + size))?;
                        let at = self.offset();
                        let bytes = self.reader.take(n * size, "vector")?;
                        if p == Prim::Bool {
                            if let Some(i) = bytes.iter().position(|b| *b > 1) {
                                return Err(Error::binary("expected bool 00 or 01", at + i));
                            }
                        }
                    }
                    Node::Prim(Prim::Nat) | Node::Prim(Prim::Int) => {
                        let n = self.reader.len(1)?;
                        self.skip_charge(n.saturating_mul(quota::ELEMENT))?;
                        for _ in 0..n {
                            let b = self.reader.skip_leb("nat/int")?;
                            self.skip_charge(b)?;
                        }
                    }
                    _ => {
                        let n = self.reader.len(min_size(&self.wire, el))?;
                        for _ in 0..n {
                            self.skip_charge(quota::ELEMENT)?;
                            self.skip_inner(el)?;
                        }
                    }
                }
                self.leave();
                Ok(())
            }
            Node::Record(span) => {
                self.skip_charge(quota::CALL)?;
                self.enter()?;
                for k in span.range() {
                    let ty = match self.wire.field(k) {
                        Some(f) => f.ty,
                        None => break,
                    };
                    self.skip_charge(quota::KEY + quota::ID_LABEL + quota::CALL)?;
                    self.skip_inner(ty)?;
                }
                self.skip_charge(quota::KEY)?;
                self.leave();
                Ok(())
            }
            Node::Variant(span) => {
                self.skip_charge(quota::CALL)?;
                self.enter()?;
                let at = self.offset();
                let index = self.reader.leb("variant index")?;
                let case = usize::try_from(index)
                    .ok()
                    .and_then(|i| self.wire.fields(span).get(i))
                    .map(|f| (f.id, f.ty));
                let Some((id, ty)) = case else {
                    let cases = span.len as usize;
                    return Err(fault::variant_index(index, cases, at));
                };
                // candid's untyped label is "<id>,id,<accessor>".
                let accessor = if self.wnode(ty) == Node::Prim(Prim::Null) && !ty.is_var() {
                    quota::UNTYPED_UNIT
                } else {
                    quota::UNTYPED_NEWTYPE
                };
                self.skip_charge(
                    quota::CASE + digits(id) + quota::UNTYPED_LABEL_FIXED + accessor + quota::CALL,
                )?;
                self.skip_inner(ty)?;
                self.leave();
                Ok(())
            }
            Node::Func(_) => {
                self.skip_charge(self.table_len)?;
                if !self.reader.bool()? {
                    return Err(fault::opaque_reference(at));
                }
                let p = self.reader.principal()?.len();
                let n = self.reader.len(1)?;
                let at = self.offset();
                // The method name is `text`: invalid UTF-8 makes the message malformed
                // even when the value is skipped.
                std::str::from_utf8(self.reader.take(n, "method name")?)
                    .map_err(|e| fault::invalid_utf8("method name", e, at))?;
                self.skip_charge(
                    p.max(quota::PRINCIPAL_MIN)
                        .saturating_add(n)
                        .saturating_add(quota::FUNC_REFERENCE),
                )
            }
            Node::Service(_) => {
                self.skip_charge(self.table_len)?;
                let p = self.reader.principal()?.len();
                self.skip_charge(p.max(quota::PRINCIPAL_MIN))
            }
            Node::Future => {
                let at = self.offset();
                let n = self.reader.leb("future value length")?;
                let n = usize::try_from(n)
                    .ok()
                    .filter(|n| *n <= self.reader.remaining())
                    .ok_or_else(|| Error::binary("future value longer than the message", at))?;
                self.skip_charge(n.saturating_add(quota::CALL))?;
                self.reader.leb("future value references")?;
                self.reader.take(n, "future value").map(drop)
            }
        }
    }

    #[inline]
    fn skip_fixed(&mut self, n: usize) -> Result<()> {
        self.skip_charge(n)?;
        self.reader.take(n, "number").map(drop)
    }

    /// The spec's `opt` rule, per value: does the value at the current position, of
    /// wire type `w`, coerce to expected type `e`? Walks the value without building
    /// it and restores the position. Called only when the type-level check says no;
    /// the bytes walked are charged as decoding work, which bounds repeated walks.
    pub(crate) fn coerces(&mut self, w: Ref, e: Ref) -> Result<bool> {
        let start = self.offset();
        let was_silent = std::mem::replace(&mut self.silent, true);
        if !was_silent {
            self.silent_cost = 0;
        }
        let out = self.coerce_walk(w, e);
        self.silent = was_silent;
        let walked = self.offset() - start;
        self.reader.rewind(start);
        let fits = out?;
        // candid charges nothing extra for a value that fits (it decodes it once),
        // so neither does candor, up to an allowance of a few walks over the whole
        // message; beyond it — only nested `opt`s crafted to be re-walked at every
        // level get there — the walks are charged, which bounds them by the quota.
        self.walked = self.walked.saturating_add(walked);
        let allowance = self
            .reader
            .input_len()
            .saturating_mul(4)
            .saturating_add(4096);
        if self.walked > allowance {
            self.charge(walked)?;
        }
        Ok(fits)
    }

    fn coerce_walk(&mut self, w: Ref, e: Ref) -> Result<bool> {
        if self.subtype(w, e) {
            self.skip_inner(w)?;
            return Ok(true);
        }
        self.enter()?;
        let out = self.coerce_node(w, e);
        self.leave();
        out
    }

    fn coerce_node(&mut self, w: Ref, e: Ref) -> Result<bool> {
        match (self.wnode(w), self.enode(e)) {
            (Node::Vec(we), Node::Vec(ee)) => {
                let we = we.resolved();
                let n = self.reader.len(min_size(&self.wire, we))?;
                for _ in 0..n {
                    if !self.coerce_walk(we, ee)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (Node::Record(wf), Node::Record(ef)) => {
                let mut fields = FieldMerge::new(wf, ef);
                while let Some(step) = fields.next(&self.wire, &self.exp) {
                    match step {
                        Step::Both { w, e, .. } => {
                            if !self.coerce_walk(w, e)? {
                                return Ok(false);
                            }
                        }
                        Step::Expected { e, .. } => {
                            if !super::subtype::is_optional(&self.exp, e.resolved()) {
                                return Ok(false);
                            }
                        }
                        Step::Wire { w, .. } => self.skip_inner(w)?,
                    }
                }
                Ok(true)
            }
            (Node::Variant(wf), Node::Variant(ef)) => {
                let at = self.offset();
                let index = self.reader.leb("variant index")?;
                let Some((id, wty)) = usize::try_from(index)
                    .ok()
                    .and_then(|i| self.wire.fields(wf).get(i))
                    .map(|f| (f.id, f.ty))
                else {
                    let cases = wf.len as usize;
                    return Err(fault::variant_index(index, cases, at));
                };
                let exp_cases = self.exp.fields(ef);
                match exp_cases.binary_search_by_key(&id, |f| f.id) {
                    Ok(k) => {
                        let ety = exp_cases.get(k).map(|f| f.ty).unwrap_or(e);
                        self.coerce_walk(wty, ety)
                    }
                    Err(_) => Ok(false),
                }
            }
            _ => Ok(false),
        }
    }
}
