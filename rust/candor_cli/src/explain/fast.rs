//! Fast paths of the value walk, for what most messages are made of: vectors of
//! fixed-width numbers, records without an expected type, fixed-width values.
//! Each writes what the general path in `values` writes (the tests in
//! `tests/explain_fast_paths.rs` compare the two byte for byte, with
//! `Context::general_only`), skipping its dispatch and rules where they cannot
//! change the line.

use super::values::{fixed_scalar, prim_fit, Fit, How, CALL, ID_LABEL, KEY};
use super::{hex_into, Note, Span, FLUSH_AT, HEX2, SHORT_LINE};
use super::{Ref, Step, Walk, MAX_DEPTH};
use crate::scalar::{self, Put, Scalar};
use candor::types::{Field, Type};
use candor::Principal;

/// A step of reading a record entry of the table at an expected record type,
/// the two field lists merged by id once per pair: a field on the wire (with
/// the expected field's type, or none if the expected record lacks it), or an
/// expected field the message lacks.
#[derive(Clone, Copy)]
pub(super) enum Merge<'a> {
    Wire(Ref, Span, Option<&'a Type>),
    Absent(&'a Field),
}

impl<'a> Walk<'a> {
    /// `takes_no_bytes_walk` (values of `r` take no bytes), answered here for a
    /// primitive or a table entry already known: asked of every record and
    /// vector.
    #[inline]
    pub(super) fn takes_no_bytes(&mut self, r: Ref, depth: usize) -> bool {
        match r {
            Ref::Prim(op) => op == -1 || op == -16,
            Ref::Table(i) => match self.no_bytes.get(i).copied().flatten() {
                Some(known) if depth <= MAX_DEPTH => known,
                _ => self.takes_no_bytes_walk(r, depth),
            },
        }
    }

    /// A record's fields read at an expected record (`expected`, sorted by id
    /// as the wire's are): what `record` does, with the merge planned once per
    /// table entry and expected type rather than once per value.
    pub(super) fn fields_typed(
        &mut self,
        i: usize,
        expected: &'a [Field],
        depth: usize,
    ) -> Step<bool> {
        // Taken out for the walk (a recursive record inside plans its own) and
        // put back after.
        let key = expected.as_ptr() as usize;
        let plan = match self.plans.get_mut(i).and_then(Option::take) {
            Some((k, plan)) if k == key => plan,
            _ => self.merge(i, expected),
        };
        let mut fits = true;
        let cut = self.path.len();
        for step in plan.iter() {
            match *step {
                Merge::Absent(e) => fits &= self.absent(e),
                Merge::Wire(t, span, field_exp) => {
                    if field_exp.is_none() {
                        self.note.get_or_insert(Note::Skipped);
                    }
                    self.push_span(span);
                    self.charge(KEY + ID_LABEL + CALL);
                    fits &= self.field(t, field_exp, depth)?;
                    self.path.truncate(cut);
                }
            }
        }
        if self.plans.len() <= i {
            self.plans.resize_with(i + 1, || None);
        }
        if let Some(slot) = self.plans.get_mut(i) {
            *slot = Some((key, plan));
        }
        Ok(fits)
    }

    /// The fields of record entry `i` merged with `expected` by id.
    fn merge(&self, i: usize, expected: &'a [Field]) -> Box<[Merge<'a>]> {
        let mut plan = Vec::with_capacity(self.fields(i).len() + expected.len());
        let mut rest = expected.iter().peekable();
        for &(id, t, span) in self.fields(i) {
            while let Some(e) = rest.next_if(|e| e.id.get_id() < id) {
                plan.push(Merge::Absent(e));
            }
            let field_exp = rest.next_if(|e| e.id.get_id() == id).map(|e| &e.ty);
            plan.push(Merge::Wire(t, span, field_exp));
        }
        plan.extend(rest.map(Merge::Absent));
        plan.into_boxed_slice()
    }

    /// A record field's value (of wire type `t`, the record at `depth`): a
    /// primitive without an expected type, or of the very type expected (not
    /// `reserved`, whose values get a note), is what `value` makes of it
    /// without its rules.
    #[inline]
    pub(super) fn field(&mut self, t: Ref, exp: Option<&'a Type>, depth: usize) -> Step<bool> {
        if let Ref::Prim(op) = t {
            let plain =
                exp.is_none_or(|e| op != -16 && matches!(prim_fit(op, e.as_ref()), Fit::Yes));
            if plain && self.fast(depth + 1) {
                return self.prim(op, self.pos, None, How::Value);
            }
        }
        self.value(t, exp, How::Value, depth + 1)
    }

    /// Whether a fast path may take values at `depth` (the general path reports
    /// a value nested too deep, and tests turn fast paths off).
    #[inline]
    pub(super) fn fast(&self, depth: usize) -> bool {
        depth <= MAX_DEPTH && !self.cx.general_only
    }

    /// Reads the bytes of a fixed-width value starting at `start` (here); answers
    /// their number.
    #[inline]
    pub(super) fn fixed_bytes(&mut self, s: Scalar, start: usize) -> Step<usize> {
        let width = s.fixed_width().unwrap_or(1);
        let first = self.take(width)?.first().copied().unwrap_or(0);
        if s == Scalar::Bool && first > 1 {
            return self.bad_bool(start, first);
        }
        Ok(width)
    }

    #[cold]
    #[inline(never)]
    fn bad_bool<T>(&self, start: usize, byte: u8) -> Step<T> {
        self.fault(start, format!("bool byte {byte:#04x}, expected 00 or 01"))
    }

    /// The line of a text value whose body (`bytes`, checked UTF-8) ends here:
    /// the body is known, so it is not read again from the value's bytes.
    pub(super) fn text_line(&mut self, start: usize, body: &[u8]) {
        if self.cx.general_only {
            return self.scalar_line(start, Scalar::Text);
        }
        self.value_head(start, Scalar::Text.head());
        scalar::write_utf8_text(&mut self.out, body);
        self.end_value();
    }

    /// The line of a principal value, read already: messages repeat a few
    /// principals (an owner per record), and the text form costs a CRC and
    /// base32, so the last one's is kept.
    pub(super) fn principal_line(&mut self, start: usize, p: &Principal) {
        if self.cx.general_only {
            return self.scalar_line(start, Scalar::Principal);
        }
        self.value_head(start, Scalar::Principal.head());
        self.out.put("principal \"");
        let (bytes, text) = &mut self.last_principal;
        if bytes.as_slice() != p.as_slice() || text.is_empty() {
            bytes.clear();
            bytes.extend_from_slice(p.as_slice());
            *text = p.to_text();
        }
        self.out.put(text);
        self.out.push(b'"');
        self.end_value();
    }

    /// The line of a fixed-width value whose `bytes` (its exact width, a `bool`
    /// already checked) end here: what `scalar_line` writes, without looking the
    /// scalar's kind up again.
    #[inline]
    pub(super) fn fixed_line(&mut self, start: usize, s: Scalar) {
        if self.cx.general_only {
            return self.scalar_line(start, s);
        }
        self.value_head(start, s.head());
        let bytes = self.input.get(start..self.pos).unwrap_or(&[]);
        write_fixed(&mut self.out, s, bytes);
        self.end_value();
    }

    /// The elements of a vector of a fixed-width primitive (`t`) that each fit
    /// the expected element type (or without one), at `depth`; answers whether
    /// it took them. Each is one line of the same kind with no units (its
    /// vector paid for it) and no decision, so the loop writes them without
    /// going through `value` for each. A line is `PATH[` (on the path for the
    /// whole loop), the index, `] : TYPE = ` in one piece, the value and
    /// `  [0 units]`.
    pub(super) fn fixed_elements(
        &mut self,
        t: Ref,
        elem: Option<&Type>,
        n: usize,
        depth: usize,
    ) -> Step<bool> {
        let Ref::Prim(op) = t else {
            return Ok(false);
        };
        let plain = elem.is_none_or(|e| matches!(prim_fit(op, e.as_ref()), Fit::Yes));
        let Some(s) = fixed_scalar(op).filter(|_| plain && self.fast(depth)) else {
            return Ok(false);
        };
        // Every element's line starts the same but for its offset and bytes:
        // `OFFSET:` and the hex column (at most 8 bytes, so 36 columns with the
        // bar), then `PATH[`. That start is written once here and copied per
        // element, the offset and the bytes patched in.
        let mut start_of_line = std::mem::take(&mut self.element_line);
        start_of_line.clear();
        start_of_line.extend_from_slice(&[b' '; SHORT_LINE]);
        start_of_line[SHORT_LINE - 3..].copy_from_slice(b" | ");
        start_of_line.extend_from_slice(&self.path);
        start_of_line.push(b'[');
        let head = element_head(s);
        for i in 0..n {
            let start = self.pos;
            self.fixed_bytes(s, start)?;
            if self.out.len() >= FLUSH_AT && self.sink.is_some() {
                self.flush();
            }
            self.shown = self.pos;
            let at = self.out.len();
            self.out.extend_from_slice(&start_of_line);
            let bytes = self.input.get(start..self.pos).unwrap_or(&[]);
            if let Some(line) = self.out.get_mut(at..at + SHORT_LINE - 3) {
                let offset = (start as u32).to_be_bytes();
                for (pair, byte) in line.chunks_exact_mut(2).zip(offset) {
                    pair.copy_from_slice(&HEX2[usize::from(byte)]);
                }
                line[8] = b':';
                hex_into(&mut line[9..], bytes);
            }
            scalar::push_decimal(&mut self.out, i as u64, false);
            self.out.put(head);
            write_fixed(&mut self.out, s, bytes);
            if self.note.is_none() && self.units == 0 {
                self.out.extend_from_slice(b"  [0 units]\n");
            } else {
                self.end_value();
            }
        }
        self.element_line = start_of_line;
        Ok(true)
    }

    /// A record's fields without an expected type: nothing to merge, so each
    /// field is its segment on the path and its value.
    pub(super) fn fields_untyped(&mut self, i: usize, depth: usize) -> Step {
        let cut = self.path.len();
        for f in 0..self.fields(i).len() {
            let Some((_, t, span)) = self.fields(i).get(f).copied() else {
                break;
            };
            self.push_span(span);
            self.charge(KEY + ID_LABEL + CALL);
            self.field(t, None, depth)?;
            self.path.truncate(cut);
        }
        Ok(())
    }
}

/// `] : TYPE = `: what follows a vector element's index on its line.
fn element_head(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "] : bool = ",
        Scalar::Nat8 => "] : nat8 = ",
        Scalar::Nat16 => "] : nat16 = ",
        Scalar::Nat32 => "] : nat32 = ",
        Scalar::Nat64 => "] : nat64 = ",
        Scalar::Int8 => "] : int8 = ",
        Scalar::Int16 => "] : int16 = ",
        Scalar::Int32 => "] : int32 = ",
        Scalar::Int64 => "] : int64 = ",
        Scalar::Float32 => "] : float32 = ",
        Scalar::Float64 => "] : float64 = ",
        // Not a fixed-width scalar: not an element of `fixed_elements`.
        _ => "] : ? = ",
    }
}

/// The Candid text of a fixed-width value (`bytes` has its exact width):
/// unsigned numbers read at their width, the others as `scalar` writes them.
#[inline]
pub(super) fn write_fixed(out: &mut Vec<u8>, s: Scalar, bytes: &[u8]) {
    let unsigned = match (s, bytes) {
        (Scalar::Nat8, &[a]) => u64::from(a),
        (Scalar::Nat16, &[a, b]) => u64::from(u16::from_le_bytes([a, b])),
        (Scalar::Nat32, &[a, b, c, d]) => u64::from(u32::from_le_bytes([a, b, c, d])),
        (Scalar::Nat64, &[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => return scalar::write_fixed(out, s, bytes),
    };
    scalar::push_decimal(out, unsigned, false);
}
