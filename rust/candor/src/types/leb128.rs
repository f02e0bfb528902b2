//! LEB128 (`nat`) and SLEB128 (`int`) of 128-bit numbers through `std::io`, as
//! candid's `types::leb128` offers them. The decoder does not use these (it reads
//! from the message slice, `wire::leb`); they are for callers that hold a reader.

use super::number::{Int, Nat};
use crate::error::{Error, Result};
use std::io;

/// Writes `val` as unsigned LEB128.
pub fn encode_nat<W: io::Write + ?Sized>(w: &mut W, val: u128) -> Result<()> {
    let mut buf = Vec::with_capacity(19);
    crate::wire::leb::write_u128(&mut buf, val);
    w.write_all(&buf)?;
    Ok(())
}

/// Writes `val` as signed LEB128.
pub fn encode_int<W: io::Write + ?Sized>(w: &mut W, val: i128) -> Result<()> {
    let mut buf = Vec::with_capacity(19);
    crate::wire::leb::write_i128(&mut buf, val);
    w.write_all(&buf)?;
    Ok(())
}

/// Reads one unsigned LEB128 number, consuming all of it; one that does not fit 128
/// bits (redundant zero groups are fine) is a "nat overflow" error.
pub fn decode_nat<R: io::Read + ?Sized>(r: &mut R) -> Result<u128> {
    let n = Nat::decode(&mut ReadRef(r))?;
    u128::try_from(n.0).map_err(|_| Error::msg("nat overflow"))
}

/// Reads one signed LEB128 number, consuming all of it; one that does not fit 128
/// bits (redundant sign groups are fine) is an "int overflow" error.
pub fn decode_int<R: io::Read + ?Sized>(r: &mut R) -> Result<i128> {
    let n = Int::decode(&mut ReadRef(r))?;
    i128::try_from(n.0).map_err(|_| Error::msg("int overflow"))
}

/// `Nat::decode` wants a sized reader; this lends it an unsized one.
struct ReadRef<'a, R: io::Read + ?Sized>(&'a mut R);

impl<R: io::Read + ?Sized> io::Read for ReadRef<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_overflow() {
        for v in [0u128, 1, 127, 128, 624_485, u64::MAX as u128, u128::MAX] {
            let mut buf = Vec::new();
            encode_nat(&mut buf, v).unwrap();
            assert_eq!(decode_nat(&mut buf.as_slice()).unwrap(), v);
        }
        for v in [0i128, -1, 63, -64, 64, -123_456, i128::MIN, i128::MAX] {
            let mut buf = Vec::new();
            encode_int(&mut buf, v).unwrap();
            assert_eq!(decode_int(&mut buf.as_slice()).unwrap(), v);
        }
        // 2^128 does not fit; 1 padded with zero groups does.
        let mut big = vec![0x80u8; 18];
        big.push(0x04);
        assert_eq!(
            decode_nat(&mut big.as_slice()).unwrap_err().to_string(),
            "nat overflow"
        );
        let padded = [0x81u8, 0x80, 0x80, 0x00];
        assert_eq!(decode_nat(&mut &padded[..]).unwrap(), 1);
        assert!(decode_nat(&mut &[0x80u8][..]).is_err());
    }
}
