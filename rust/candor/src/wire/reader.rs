//! The one reader over a message's bytes: the borrowed input and a position, with
//! small checked readers. The header parser and the decoder both read through it, so
//! an offset in an error means the same thing wherever it was raised, and every
//! failure is built in a cold constructor of `error::fault` (or here, cold).
//!
//! Readers that fail leave the position where the failing item began (LEB128 reads
//! never move it on error), which is the offset their errors carry.

use super::leb::{self, LebError};
use crate::error::Result;
use crate::error::{fault, Error};

/// The most bytes a principal has on the wire (the spec's bound, as candid reads it).
const PRINCIPAL_MAX_LEN: usize = 29;

/// A position in a borrowed message.
pub(crate) struct Reader<'de> {
    input: &'de [u8],
    pos: usize,
    /// When the input is a prefix cut at a size bound (the header's), the bound:
    /// running off its end is then that limit, not a truncated message.
    cut_at: Option<usize>,
}

impl<'de> Reader<'de> {
    /// A reader of `input` from byte `pos`.
    pub(crate) fn new(input: &'de [u8], pos: usize) -> Self {
        Reader {
            input,
            pos,
            cut_at: None,
        }
    }

    /// A reader of at most the first `bound` bytes of `input`, from the start.
    pub(crate) fn bounded(input: &'de [u8], bound: usize) -> Self {
        match input.get(..bound) {
            Some(prefix) if bound < input.len() => Reader {
                input: prefix,
                pos: 0,
                cut_at: Some(bound),
            },
            _ => Reader::new(input, 0),
        }
    }

    /// The byte offset of the next read.
    #[inline(always)]
    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    /// Moves back to an offset read before (a walk that must not consume input).
    #[inline(always)]
    pub(crate) fn rewind(&mut self, offset: usize) {
        self.pos = offset;
    }

    /// Bytes left to read.
    #[inline(always)]
    pub(crate) fn remaining(&self) -> usize {
        self.input.len().saturating_sub(self.pos)
    }

    /// The length of the whole input, read or not.
    #[inline(always)]
    pub(crate) fn input_len(&self) -> usize {
        self.input.len()
    }

    /// The input ended inside `what`.
    #[cold]
    pub(crate) fn eof(&self, what: &str) -> Error {
        match self.cut_at {
            Some(bound) => header_bound(bound, self.pos),
            None => fault::unexpected_end(what, self.pos),
        }
    }

    #[cold]
    fn leb_error(&self, e: LebError, what: &str) -> Error {
        match e {
            LebError::Truncated => self.eof(what),
            LebError::Overflow => fault::leb_overflow(what, self.pos),
        }
    }

    /// The next byte, not read yet (`None` at the end).
    #[inline(always)]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// Moves past the byte [`peek`](Self::peek) returned.
    #[inline(always)]
    pub(crate) fn bump(&mut self) {
        self.pos += 1;
    }

    /// The next byte.
    #[inline(always)]
    pub(crate) fn byte(&mut self, what: &str) -> Result<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof(what)),
        }
    }

    /// A `bool`: one byte, 00 or 01.
    #[inline(always)]
    pub(crate) fn bool(&mut self) -> Result<bool> {
        let at = self.pos;
        match self.byte("bool")? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(bad_flag("bool 00 or 01", b, at)),
        }
    }

    /// The next `n` bytes, borrowed from the input.
    #[inline(always)]
    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'de [u8]> {
        let input: &'de [u8] = self.input;
        match self
            .pos
            .checked_add(n)
            .and_then(|end| input.get(self.pos..end))
        {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.eof(what)),
        }
    }

    /// The next `N` bytes, copied (a fixed-width number).
    #[inline(always)]
    pub(crate) fn fixed<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let s = self.take(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Ok(out)
    }

    /// An unsigned LEB128 value that must fit u64 (lengths, indices, ids).
    #[inline(always)]
    pub(crate) fn leb(&mut self, what: &str) -> Result<u64> {
        leb::read_u64(self.input, &mut self.pos).map_err(|e| self.leb_error(e, what))
    }

    /// A signed LEB128 value that must fit i64 (type table opcodes and references).
    #[inline]
    pub(crate) fn sleb(&mut self, what: &str) -> Result<i64> {
        leb::read_i64(self.input, &mut self.pos).map_err(|e| self.leb_error(e, what))
    }

    /// A `nat` when it fits u64; `None` (position unchanged) when it is longer or
    /// cut short, for the caller's bignum path to read or report.
    #[inline(always)]
    pub(crate) fn nat_u64(&mut self) -> Option<u64> {
        leb::read_u64_fits(self.input, &mut self.pos)
    }

    /// An `int` when it fits i64; otherwise `None`, as [`Reader::nat_u64`].
    #[inline(always)]
    pub(crate) fn int_i64(&mut self) -> Option<i64> {
        leb::read_i64_fits(self.input, &mut self.pos)
    }

    /// A `nat` when it fits u128; `None` when it does not or is cut short.
    #[inline]
    pub(crate) fn nat_u128(&mut self) -> Option<u128> {
        leb::read_u128(self.input, &mut self.pos).ok()
    }

    /// An `int` when it fits i128; `None` when it does not or is cut short.
    #[inline]
    pub(crate) fn int_i128(&mut self) -> Option<i128> {
        leb::read_i128(self.input, &mut self.pos).ok()
    }

    /// Passes over one LEB128/SLEB128 value of any length, returning its byte length.
    #[inline]
    pub(crate) fn skip_leb(&mut self, what: &str) -> Result<usize> {
        leb::skip(self.input, &mut self.pos).map_err(|_| self.eof(what))
    }

    /// The bytes of a LEB128/SLEB128 value known to be long (a bignum).
    #[inline]
    pub(crate) fn long_leb(&mut self, what: &str) -> Result<&'de [u8]> {
        let start = self.pos;
        leb::skip_long(self.input, &mut self.pos).map_err(|_| self.eof(what))?;
        Ok(self.input.get(start..self.pos).unwrap_or_default())
    }

    /// A length, checked against the remaining input divided by the least bytes one
    /// element takes: a length larger than the input could hold is rejected before
    /// anything is allocated or iterated.
    ///
    /// Like candid, a length takes at most 9 LEB128 bytes (a 10-byte form is either
    /// overlong or beyond any message), so both accept the same messages.
    ///
    /// Most lengths take their one-byte form (below 128) and fit the input: those
    /// are read without the general LEB128 reader ([`len_any`](Self::len_any)),
    /// which reads and fails as always for every other length.
    #[inline(always)]
    pub(crate) fn len(&mut self, min_elem_bytes: usize) -> Result<usize> {
        if let Some(&b) = self.input.get(self.pos) {
            let n = usize::from(b);
            // `remaining - 1` bytes follow the length byte; `n * min < remaining`
            // is `len_any`'s test `n <= (remaining - 1) / min` without a division.
            if b < 0x80
                && n.checked_mul(min_elem_bytes)
                    .is_some_and(|t| t < self.remaining())
            {
                self.pos += 1;
                return Ok(n);
            }
        }
        self.len_any(min_elem_bytes)
    }

    /// [`len`](Self::len) for a length of any form.
    #[inline(always)]
    fn len_any(&mut self, min_elem_bytes: usize) -> Result<usize> {
        let at = self.pos;
        let n = self.leb("length")?;
        if self.pos - at > 9 {
            return Err(fault::leb_overflow("length", at));
        }
        let n = usize::try_from(n).map_err(|_| Error::binary("length out of usize range", at))?;
        if min_elem_bytes > 0 && n > self.remaining() / min_elem_bytes {
            return Err(length_past_end(n, self.remaining(), at));
        }
        Ok(n)
    }

    /// A principal's bytes: flag byte 1, a length of at most 29, the bytes.
    /// The flag and the length (one LEB128 byte, as any length up to 29 is) are
    /// tested together; anything else, and a principal cut short, takes
    /// [`principal_any`](Self::principal_any), which reads and fails as always.
    #[inline]
    pub(crate) fn principal(&mut self) -> Result<&'de [u8]> {
        let input: &'de [u8] = self.input;
        if let Some(&[1, n]) = input
            .get(self.pos..)
            .and_then(|rest| rest.first_chunk::<2>())
        {
            let start = self.pos + 2;
            let end = start + n as usize;
            if usize::from(n) <= PRINCIPAL_MAX_LEN {
                if let Some(bytes) = input.get(start..end) {
                    self.pos = end;
                    return Ok(bytes);
                }
            }
        }
        self.principal_any()
    }

    /// [`principal`](Self::principal) for any input: each part read and checked in
    /// turn, each failure at the offset of the part that failed.
    #[inline(never)]
    fn principal_any(&mut self) -> Result<&'de [u8]> {
        let at = self.pos;
        match self.byte("principal flag")? {
            1 => {}
            0 => return Err(fault::opaque_reference(at)),
            b => return Err(bad_flag("principal flag 01", b, at)),
        }
        let at = self.pos;
        let n = self.leb("principal length")?;
        if n > PRINCIPAL_MAX_LEN as u64 {
            return Err(Error::binary("principal is longer than 29 bytes", at));
        }
        self.take(n as usize, "principal")
    }
}

#[cold]
#[inline(never)]
fn header_bound(bound: usize, at: usize) -> Error {
    Error::limit(
        format!("type table header exceeds the limit of {bound} bytes"),
        at,
    )
}

/// A flag byte (`bool`, a principal's) with a value it cannot have.
#[cold]
#[inline(never)]
fn bad_flag(expected: &str, found: u8, at: usize) -> Error {
    Error::binary(format!("expected {expected}, found {found:02x}"), at)
}

#[cold]
#[inline(never)]
fn length_past_end(n: usize, left: usize, at: usize) -> Error {
    Error::binary(
        format!("length {n} exceeds the {left} bytes left in the message"),
        at,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `len` reads, accepts and rejects every length as the general reader
    /// `len_any` does, with the same error and the same position afterwards.
    #[test]
    fn len_is_len_any() {
        for first in [0u8, 1, 2, 3, 7, 8, 64, 127, 128, 129, 200, 255] {
            for tail in 0..20usize {
                let mut input = vec![first];
                input.extend(std::iter::repeat_n(1u8, tail));
                for min in [0, 1, 2, 3, 8, 16, usize::MAX] {
                    let mut fast = Reader::new(&input, 0);
                    let ours = fast.len(min).map_err(|e| e.to_string());
                    let mut any = Reader::new(&input, 0);
                    let theirs = any.len_any(min).map_err(|e| e.to_string());
                    assert_eq!(ours, theirs, "{first} {tail} {min}");
                    assert_eq!(fast.offset(), any.offset(), "{first} {tail} {min}");
                }
            }
        }
        assert!(
            Reader::new(&[], 0).len(1).is_err(),
            "an empty input has no length"
        );
    }

    /// `principal` reads, accepts and rejects every flag, length and cut as the
    /// general reader `principal_any` does: same bytes or error, same position,
    /// from the start of the input and from inside it.
    #[test]
    fn principal_is_principal_any() {
        let body: Vec<u8> = (0..40u8).collect();
        for flag in [0u8, 1, 2, 0xff] {
            for len in (0u8..=31).chain([0x80, 0x81, 0x9d, 0xff]) {
                let mut message = vec![7, flag, len];
                if len >= 0x80 {
                    message.push(0);
                }
                message.extend_from_slice(&body);
                for cut in 0..message.len() {
                    for start in [0, 1] {
                        let input = &message[..cut];
                        let mut fast = Reader::new(input, start);
                        let ours = fast.principal().map_err(|e| e.to_string());
                        let mut any = Reader::new(input, start);
                        let theirs = any.principal_any().map_err(|e| e.to_string());
                        assert_eq!(ours, theirs, "{flag} {len} {cut} {start}");
                        assert_eq!(fast.offset(), any.offset(), "{flag} {len} {cut} {start}");
                    }
                }
            }
        }
    }

    #[test]
    fn failed_reads_keep_the_position() {
        let mut r = Reader::new(&[0x80, 0x80], 0);
        assert!(r.leb("x").is_err());
        assert_eq!(r.offset(), 0);
        assert!(r.take(3, "x").is_err());
        assert_eq!(r.offset(), 0);
        assert_eq!(r.take(2, "x").map(<[u8]>::len).ok(), Some(2));
        assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn a_cut_input_reports_the_bound() {
        let mut r = Reader::bounded(&[1, 2, 3, 4], 2);
        assert_eq!(r.input_len(), 2);
        assert!(r.take(2, "x").is_ok());
        let e = r.byte("x").err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("limit exceeded: type table header exceeds the limit of 2 bytes at byte offset 2")
        );
        let mut r = Reader::bounded(&[1, 2], 2);
        let e = r.take(3, "x").err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("malformed message: unexpected end of input reading x at byte offset 0")
        );
    }
}
