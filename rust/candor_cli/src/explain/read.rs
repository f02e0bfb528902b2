//! Reading the message: bytes, LEB128 numbers, lengths checked against the input,
//! type references checked against the table. Every failure is a `Fault` at the
//! offset where the bad bytes start.

use super::{prim_name, Ref, Step, Walk};

impl Walk<'_> {
    #[inline]
    pub(super) fn byte(&mut self) -> Step<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.fault(self.pos, "unexpected end of input"),
        }
    }

    #[inline]
    pub(super) fn take(&mut self, n: usize) -> Step<&[u8]> {
        let start = self.pos;
        match self.input.get(start..).and_then(|left| left.get(..n)) {
            Some(bytes) => {
                self.pos = start + n;
                Ok(bytes)
            }
            None => self.short(n),
        }
    }

    /// The fault of a `take` past the end of the input.
    #[cold]
    #[inline(never)]
    fn short<T>(&self, n: usize) -> Step<T> {
        let left = self.input.len().saturating_sub(self.pos);
        self.fault(
            self.pos,
            format!("{n} bytes expected, {left} left in the input"),
        )
    }

    /// An unsigned LEB128 number that must fit 64 bits.
    #[inline]
    pub(super) fn leb(&mut self) -> Step<u64> {
        if let Some(&b) = self.input.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(u64::from(b));
            }
        }
        self.leb_slow()
    }

    pub(super) fn leb_slow(&mut self) -> Step<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            let low = u64::from(b & 0x7f);
            if shift == 63 && low > 1 || shift > 63 && low != 0 {
                return self.fault(start, "LEB128 number too large");
            }
            if shift < 64 {
                value |= low << shift;
            }
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.fault(start, "LEB128 number longer than 10 bytes")
    }

    /// A signed LEB128 number that must fit 64 bits.
    pub(super) fn sleb(&mut self) -> Step<i64> {
        let start = self.pos;
        let mut value: i64 = 0;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift >= 70 {
                return self.fault(start, "SLEB128 number longer than 10 bytes");
            }
            if shift < 64 {
                value |= i64::from(b & 0x7f) << shift;
            }
            shift += 7;
            if b & 0x80 == 0 {
                if shift < 64 && b & 0x40 != 0 {
                    value |= -1i64 << shift;
                }
                return Ok(value);
            }
        }
    }

    /// A length that must fit in the rest of the input (each unit taking at least
    /// `unit` bytes), so nothing is ever sized by an untrusted number alone.
    pub(super) fn len(&mut self, unit: usize) -> Step<usize> {
        let start = self.pos;
        let n = self.leb()?;
        let left = (self.input.len() - self.pos) as u64;
        if unit > 0 && n > left / unit as u64 {
            return self.fault(
                start,
                format!("length {n} is more than the {left} bytes left in the input"),
            );
        }
        Ok(n as usize)
    }

    /// The span of one LEB128/SLEB128 number of any length.
    pub(super) fn big_leb(&mut self) -> Step<usize> {
        let start = self.pos;
        let rest = self.input.get(start..).unwrap_or(&[]);
        match rest.iter().position(|b| b & 0x80 == 0) {
            Some(i) => {
                self.pos += i + 1;
                Ok(i + 1)
            }
            None => {
                self.pos = self.input.len();
                self.fault(self.pos, "unexpected end of input")
            }
        }
    }

    pub(super) fn type_ref(&mut self) -> Step<Ref> {
        let start = self.pos;
        let r = self.sleb()?;
        self.check_ref(start, r)
    }

    pub(super) fn check_ref(&self, at: usize, r: i64) -> Step<Ref> {
        if r >= 0 {
            let table_len = self.declared_table_len;
            if r as u64 >= table_len as u64 {
                return self.fault(
                    at,
                    format!("type reference {r} outside the table of {table_len} entries"),
                );
            }
            Ok(Ref::Table(r as usize))
        } else if prim_name(r).is_some() {
            Ok(Ref::Prim(r))
        } else {
            self.fault(at, format!("unknown primitive type opcode {r}"))
        }
    }
}
