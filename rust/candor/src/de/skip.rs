//! Skipping values the expected type does not want (extra arguments, extra record
//! fields, `reserved`, `opt` values that do not fit). The same walk serves the
//! value-level `opt` check (`coerce.rs`), which pays for it with its own meter.
//!
//! Skipping is charged as candid charges it: every unit 50× against the decoding
//! quota and 1× against the skipping quota, with candid's per-call units (table
//! references resolved, field keys, variant labels…). See `spec/limits.md`.

use super::quota;
use super::state::DecodeState;
use crate::error::Result;
use crate::error::{fault, Error};
use crate::wire::header::{Node, Prim, Ref, Span};

fn digits(mut n: u32) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// How a walk over a value pays for the units it would cost. The walk itself is
/// the same whoever pays; the meter is the caller's, passed down the walk, so no
/// state about who pays sits on the shared `DecodeState`.
pub(super) trait Meter {
    fn charge(&mut self, state: &mut DecodeState<'_>, units: usize) -> Result<()>;
}

/// Skipped work, charged as candid charges it: 50× on the decoding quota and 1× on
/// the skipping quota.
pub(super) struct Skipped;

impl Meter for Skipped {
    #[inline(always)]
    fn charge(&mut self, state: &mut DecodeState<'_>, units: usize) -> Result<()> {
        state.charge_untyped(units)
    }
}

/// Work that is decoding, not skipping: charged 1× on the decoding quota.
struct Decoded;

impl Meter for Decoded {
    fn charge(&mut self, state: &mut DecodeState<'_>, units: usize) -> Result<()> {
        state.charge(units)
    }
}

impl<'de> DecodeState<'de> {
    /// Reads a value of a future type as a value in its own right (a visitor
    /// asked for it at its wire type): candid hands such a value over as `null`
    /// and charges its bytes as decoding, not as skipping.
    pub(super) fn read_future(&mut self) -> Result<()> {
        self.skip_future(&mut Decoded)
    }

    /// Skips one value of wire type `w`, charged as skipped work.
    pub(crate) fn skip(&mut self, w: Ref) -> Result<()> {
        self.enter()?;
        let out = self.skip_inner(&mut Skipped, w);
        self.leave();
        out
    }

    /// Walks one value of wire type `w`, `meter` paying for its units.
    ///
    /// Each kind of node is walked by a function of its own below; all are inlined
    /// here, so a skipped value still costs one call per level of nesting.
    pub(super) fn skip_inner<M: Meter>(&mut self, meter: &mut M, w: Ref) -> Result<()> {
        if w.is_var() {
            meter.charge(self, 2 * quota::UNROLL)?;
        }
        match self.wire_node(w) {
            Node::Prim(p) => self.skip_prim(meter, p),
            Node::Opt(inner) => self.skip_opt(meter, inner),
            Node::Vec(el) => self.skip_vec(meter, el.resolved()),
            Node::Record(fields) => self.skip_record(meter, fields),
            Node::Variant(cases) => self.skip_variant(meter, cases),
            Node::Func(_) => self.skip_func(meter),
            Node::Service(_) => self.skip_service(meter),
            Node::Future => self.skip_future(meter),
        }
    }

    #[inline(always)]
    fn skip_prim<M: Meter>(&mut self, meter: &mut M, p: Prim) -> Result<()> {
        match p {
            Prim::Nat | Prim::Int => {
                let n = self.reader.skip_leb("nat/int")?;
                meter.charge(self, n)
            }
            Prim::Nat8 | Prim::Int8 => self.skip_fixed(meter, 1),
            Prim::Nat16 | Prim::Int16 => self.skip_fixed(meter, 2),
            Prim::Nat32 | Prim::Int32 | Prim::Float32 => self.skip_fixed(meter, 4),
            Prim::Nat64 | Prim::Int64 | Prim::Float64 => self.skip_fixed(meter, 8),
            Prim::Bool => {
                meter.charge(self, quota::CALL)?;
                self.reader.bool().map(drop)
            }
            Prim::Text => {
                let n = self.reader.len(1)?;
                meter.charge(self, n.saturating_add(quota::CALL))?;
                let at = self.offset();
                let bytes = self.reader.take(n, "text")?;
                std::str::from_utf8(bytes)
                    .map(drop)
                    .map_err(|e| fault::invalid_utf8("text", e, at))
            }
            Prim::Null | Prim::Reserved => meter.charge(self, quota::CALL),
            Prim::Empty => Err(fault::empty_value(self.offset())),
            Prim::Principal => {
                let b = self.reader.principal()?;
                meter.charge(self, b.len().max(quota::PRINCIPAL_MIN))
            }
        }
    }

    #[inline(always)]
    fn skip_opt<M: Meter>(&mut self, meter: &mut M, inner: Ref) -> Result<()> {
        meter.charge(self, quota::CALL)?;
        if self.reader.bool()? {
            self.enter()?;
            self.skip_inner(meter, inner)?;
            self.leave();
        }
        Ok(())
    }

    /// A vector of (resolved) element type `el`: a blob, fixed-width and bignum
    /// elements in one pass each, anything else element by element.
    #[inline(always)]
    fn skip_vec<M: Meter>(&mut self, meter: &mut M, el: Ref) -> Result<()> {
        let el_node = self.wire_node(el);
        if el_node == Node::Prim(Prim::Nat8) {
            let n = self.reader.len(1)?;
            meter.charge(self, n.saturating_add(quota::CALL))?;
            return self.reader.take(n, "blob").map(drop);
        }
        meter.charge(self, quota::CALL)?;
        self.enter()?;
        match el_node {
            Node::Prim(p) if super::primvec::is_fixed(p) => self.skip_prim_vec(meter, p)?,
            Node::Prim(Prim::Nat) | Node::Prim(Prim::Int) => {
                let n = self.reader.len(1)?;
                meter.charge(self, n.saturating_mul(quota::ELEMENT))?;
                for _ in 0..n {
                    let b = self.reader.skip_leb("nat/int")?;
                    meter.charge(self, b)?;
                }
            }
            Node::Prim(Prim::Null) | Node::Prim(Prim::Reserved) => {
                let n = self.reader.len(self.wire.min_size(el))?;
                self.skip_empty_elements(meter, n)?;
            }
            _ => {
                let n = self.reader.len(self.wire.min_size(el))?;
                for _ in 0..n {
                    meter.charge(self, quota::ELEMENT)?;
                    self.skip_inner(meter, el)?;
                }
            }
        }
        self.leave();
        Ok(())
    }

    /// `n` elements of a vector of `null` or `reserved`: no bytes, so skipping one
    /// is only its charges, the element's then the value's, in that order (the
    /// charges of the element-by-element walk, which would also look the element
    /// type up each time). Such vectors are what hostile messages send, a few bytes
    /// claiming millions of elements, so the loop runs until the quota stops it.
    #[inline(never)]
    fn skip_empty_elements<M: Meter>(&mut self, meter: &mut M, n: usize) -> Result<()> {
        for _ in 0..n {
            meter.charge(self, quota::ELEMENT)?;
            meter.charge(self, quota::CALL)?;
        }
        Ok(())
    }

    /// Fixed-width elements: one length check and one charge for them all (bools
    /// still validated).
    #[inline(always)]
    fn skip_prim_vec<M: Meter>(&mut self, meter: &mut M, p: Prim) -> Result<()> {
        let size = super::primvec::size(p);
        let n = self.reader.len(size)?;
        meter.charge(self, n.saturating_mul(quota::ELEMENT + size))?;
        let at = self.offset();
        let bytes = self.reader.take(n * size, "vector")?;
        if p == Prim::Bool {
            if let Some(i) = bytes.iter().position(|b| *b > 1) {
                return Err(Error::binary("expected bool 00 or 01", at + i));
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn skip_record<M: Meter>(&mut self, meter: &mut M, fields: Span) -> Result<()> {
        meter.charge(self, quota::CALL)?;
        self.enter()?;
        for k in fields.range() {
            let ty = match self.wire.field(k) {
                Some(f) => f.ty,
                None => break,
            };
            meter.charge(self, quota::KEY + quota::ID_LABEL + quota::CALL)?;
            self.skip_inner(meter, ty)?;
        }
        meter.charge(self, quota::KEY)?;
        self.leave();
        Ok(())
    }

    #[inline(always)]
    fn skip_variant<M: Meter>(&mut self, meter: &mut M, cases: Span) -> Result<()> {
        meter.charge(self, quota::CALL)?;
        self.enter()?;
        let at = self.offset();
        let index = self.reader.leb("variant index")?;
        let case = usize::try_from(index)
            .ok()
            .and_then(|i| self.wire.fields(cases).get(i))
            .map(|f| (f.id, f.ty));
        let Some((id, ty)) = case else {
            return Err(fault::variant_index(index, cases.len as usize, at));
        };
        // candid's untyped label is "<id>,id,<accessor>".
        let accessor = if self.wire_node(ty) == Node::Prim(Prim::Null) && !ty.is_var() {
            quota::UNTYPED_UNIT
        } else {
            quota::UNTYPED_NEWTYPE
        };
        meter.charge(
            self,
            quota::CASE + digits(id) + quota::UNTYPED_LABEL_FIXED + accessor + quota::CALL,
        )?;
        self.skip_inner(meter, ty)?;
        self.leave();
        Ok(())
    }

    #[inline(always)]
    fn skip_func<M: Meter>(&mut self, meter: &mut M) -> Result<()> {
        let at = self.offset();
        let units = self.table_len;
        meter.charge(self, units)?;
        if !self.reader.bool()? {
            return Err(fault::opaque_reference(at));
        }
        let p = self.reader.principal()?.len();
        let n = self.reader.len(1)?;
        let at = self.offset();
        // The method name is `text`: invalid UTF-8 makes the message malformed even
        // when the value is skipped.
        std::str::from_utf8(self.reader.take(n, "method name")?)
            .map_err(|e| fault::invalid_utf8("method name", e, at))?;
        meter.charge(
            self,
            p.max(quota::PRINCIPAL_MIN)
                .saturating_add(n)
                .saturating_add(quota::FUNC_REFERENCE),
        )
    }

    #[inline(always)]
    fn skip_service<M: Meter>(&mut self, meter: &mut M) -> Result<()> {
        let units = self.table_len;
        meter.charge(self, units)?;
        let p = self.reader.principal()?.len();
        meter.charge(self, p.max(quota::PRINCIPAL_MIN))
    }

    /// A value of a future type: a byte length, a reference count, the bytes. Both
    /// numbers are read as lengths, as candid reads them: at most nine LEB128 bytes.
    #[inline(always)]
    fn skip_future<M: Meter>(&mut self, meter: &mut M) -> Result<()> {
        let at = self.offset();
        let n = self.reader.len(0)?;
        if n > self.reader.remaining() {
            return Err(Error::binary("future value longer than the message", at));
        }
        meter.charge(self, n.saturating_add(quota::CALL))?;
        self.reader.len(0)?;
        self.reader.take(n, "future value").map(drop)
    }

    #[inline]
    fn skip_fixed<M: Meter>(&mut self, meter: &mut M, n: usize) -> Result<()> {
        meter.charge(self, n)?;
        self.reader.take(n, "number").map(drop)
    }
}
