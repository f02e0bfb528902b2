//! LEB128 and SLEB128, in tiers.
//!
//! Most values on the wire are small (lengths, variant indices, field ids), so each
//! reader first tries a one-byte path, then a straight-line loop bounded to the
//! 10 bytes a 64-bit value can take. Values that do not fit 64 bits are not an error
//! here: the readers report them as `Overflow` so `nat`/`int` can fall back to a
//! bignum without re-reading. Truncated input is always an error, never a short value.
//!
//! Acceptance matches the `leb128` crate that candid uses (overlong forms are
//! accepted up to 10 bytes; the 10th byte of a u64 may only be 0 or 1), which the
//! tests check on every edge.

/// Why a 64-bit read failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LebError {
    /// The input ended before the last byte (one without the continuation bit).
    Truncated,
    /// The encoded value does not fit 64 bits (or uses more than 10 bytes).
    Overflow,
}

/// Reads an unsigned LEB128 value that fits u64 from `buf[*pos..]`, advancing `pos`.
/// On error `pos` is left unchanged.
#[inline(always)]
pub(crate) fn read_u64(buf: &[u8], pos: &mut usize) -> Result<u64, LebError> {
    read_u64_as::<true>(buf, pos)
}

/// [`read_u64`] for a caller that only needs the value when it fits (a `nat` whose
/// longer forms take the bignum path): a failure is not classified, which for a
/// long value would scan the rest of the input for its end.
#[inline(always)]
pub(crate) fn read_u64_fits(buf: &[u8], pos: &mut usize) -> Option<u64> {
    read_u64_as::<false>(buf, pos).ok()
}

#[inline(always)]
fn read_u64_as<const CLASSIFY: bool>(buf: &[u8], pos: &mut usize) -> Result<u64, LebError> {
    match buf.get(*pos) {
        Some(&b) if b < 0x80 => {
            *pos += 1;
            Ok(u64::from(b))
        }
        Some(_) => read_u64_multi::<CLASSIFY>(buf, pos),
        None => Err(LebError::Truncated),
    }
}

#[inline]
fn read_u64_multi<const CLASSIFY: bool>(buf: &[u8], pos: &mut usize) -> Result<u64, LebError> {
    if let Some((v, len)) = gather(buf, *pos) {
        *pos += len;
        return Ok(v);
    }
    let mut result: u64 = 0;
    let mut shift = 0u32;
    let mut p = *pos;
    loop {
        let Some(&byte) = buf.get(p) else {
            return Err(LebError::Truncated);
        };
        p += 1;
        if shift == 63 && byte > 1 {
            return Err(classify::<CLASSIFY>(buf, p, byte));
        }
        result |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            *pos = p;
            return Ok(result);
        }
        shift += 7;
    }
}

/// The 7-bit groups of a value of at most 8 bytes at `buf[at..]`, and its length,
/// read with one 8-byte load: the first byte without the continuation bit ends it,
/// and the groups are gathered in three shift-and-mask steps instead of a loop over
/// the bytes (a `nat` amount or a field id takes 3 to 5 bytes; see
/// [`gather_groups`]). `None` when fewer
/// than 8 bytes are left or the value is longer; the byte loop then reads it.
#[inline(always)]
fn gather(buf: &[u8], at: usize) -> Option<(u64, usize)> {
    let bytes: [u8; 8] = buf.get(at..)?.get(..8)?.try_into().ok()?;
    let w = u64::from_le_bytes(bytes);
    // The high bit of each byte that ends the value (continuation bit clear).
    let ends = !w & 0x8080_8080_8080_8080;
    if ends == 0 {
        return None;
    }
    let bits = ends.trailing_zeros() + 1;
    let w = if bits == 64 {
        w
    } else {
        w & ((1u64 << bits) - 1)
    };
    Some((gather_groups(w), (bits / 8) as usize))
}

/// Why a value read up to its 10th byte does not fit 64 bits, when the caller
/// asks (`CLASSIFY`); else just "does not fit".
#[inline(always)]
fn classify<const CLASSIFY: bool>(buf: &[u8], next: usize, byte: u8) -> LebError {
    if CLASSIFY {
        overflow_or_truncated(buf, next, byte)
    } else {
        LebError::Overflow
    }
}

/// An over-long value is an overflow only if it ends; one that runs off the end of
/// the input is truncated (the classification of the `leb128` crate, which candid
/// reports).
#[cold]
fn overflow_or_truncated(buf: &[u8], next: usize, byte: u8) -> LebError {
    let ends = byte < 0x80
        || buf
            .get(next..)
            .is_some_and(|rest| rest.iter().any(|b| *b < 0x80));
    if ends {
        LebError::Overflow
    } else {
        LebError::Truncated
    }
}

/// Reads a signed LEB128 value that fits i64 from `buf[*pos..]`, advancing `pos`.
/// On error `pos` is left unchanged.
#[inline(always)]
pub(crate) fn read_i64(buf: &[u8], pos: &mut usize) -> Result<i64, LebError> {
    read_i64_as::<true>(buf, pos)
}

/// [`read_i64`] for a caller that only needs the value when it fits (see
/// [`read_u64_fits`]).
#[inline(always)]
pub(crate) fn read_i64_fits(buf: &[u8], pos: &mut usize) -> Option<i64> {
    read_i64_as::<false>(buf, pos).ok()
}

#[inline(always)]
fn read_i64_as<const CLASSIFY: bool>(buf: &[u8], pos: &mut usize) -> Result<i64, LebError> {
    match buf.get(*pos) {
        Some(&b) if b < 0x80 => {
            *pos += 1;
            // Sign-extend the 7-bit value.
            Ok(i64::from(((b << 1) as i8) >> 1))
        }
        Some(_) => read_i64_multi::<CLASSIFY>(buf, pos),
        None => Err(LebError::Truncated),
    }
}

#[inline]
fn read_i64_multi<const CLASSIFY: bool>(buf: &[u8], pos: &mut usize) -> Result<i64, LebError> {
    if let Some((v, len)) = gather(buf, *pos) {
        *pos += len;
        // Sign-extend from the value's top bit (at most 56 bits were read).
        let unused = 64 - 7 * len as u32;
        return Ok(((v << unused) as i64) >> unused);
    }
    let mut result: i64 = 0;
    let mut shift = 0u32;
    let mut p = *pos;
    loop {
        let Some(&byte) = buf.get(p) else {
            return Err(LebError::Truncated);
        };
        p += 1;
        if shift == 63 && byte != 0x00 && byte != 0x7f {
            return Err(classify::<CLASSIFY>(buf, p, byte));
        }
        result |= i64::from(byte & 0x7f) << shift;
        shift += 7;
        if byte < 0x80 {
            if shift < 64 && byte & 0x40 != 0 {
                result |= !0i64 << shift;
            }
            *pos = p;
            return Ok(result);
        }
    }
}

/// Skips one LEB128/SLEB128 value of any length (a `nat` or `int` being skipped),
/// returning its byte length.
#[inline]
pub(crate) fn skip(buf: &[u8], pos: &mut usize) -> Result<usize, LebError> {
    let start = *pos;
    let rest = buf.get(start..).unwrap_or(&[]);
    match rest.iter().position(|b| b & 0x80 == 0) {
        Some(i) => {
            *pos = start + i + 1;
            Ok(i + 1)
        }
        None => Err(LebError::Truncated),
    }
}

/// [`skip`] for values known to be long (a bignum that did not fit 64 bits): eight
/// continuation bytes are recognised with one word test.
pub(crate) fn skip_long(buf: &[u8], pos: &mut usize) -> Result<usize, LebError> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let start = *pos;
    let mut i = start;
    while let Some(eight) = buf.get(i..).and_then(|r| r.first_chunk::<8>()) {
        if u64::from_le_bytes(*eight) & HIGH != HIGH {
            break;
        }
        i += 8;
    }
    *pos = i;
    let tail = skip(buf, pos)?;
    Ok(i - start + tail)
}

/// The low 56 bits of `x` as eight 7-bit groups, one per byte (group 0 in the low byte),
/// continuation bits clear, in three mask-and-shift steps instead of eight shifts.
#[inline]
pub(crate) fn spread_groups(x: u64) -> u64 {
    let x = (x & 0x0000_0000_0fff_ffff) | ((x & 0x00ff_ffff_f000_0000) << 4);
    let x = (x & 0x0000_3fff_0000_3fff) | ((x & 0x0fff_c000_0fff_c000) << 2);
    (x & 0x007f_007f_007f_007f) | ((x & 0x3f80_3f80_3f80_3f80) << 1)
}

/// Eight LEB128 bytes (continuation bits ignored) as the 56-bit value they hold: the
/// inverse of [`spread_groups`].
#[inline(always)]
pub(crate) fn gather_groups(x: u64) -> u64 {
    let x = x & 0x7f7f_7f7f_7f7f_7f7f;
    let x = (x & 0x007f_007f_007f_007f) | ((x & 0x7f00_7f00_7f00_7f00) >> 1);
    let x = (x & 0x0000_3fff_0000_3fff) | ((x & 0x3fff_0000_3fff_0000) >> 2);
    (x & 0x0000_0000_0fff_ffff) | ((x & 0x0fff_ffff_0000_0000) >> 4)
}

/// The continuation bit of every byte of a word.
pub(crate) const CONTINUE: u64 = 0x8080_8080_8080_8080;
/// The bits eight 7-bit groups hold.
pub(crate) const LOW56: u64 = (1 << 56) - 1;

/// Appends the first `n` (2 to 8) bytes of `groups` (from [`spread_groups`]), all but
/// the last with the continuation bit. The whole word is appended and the surplus cut
/// off: one fixed-size store instead of a store and a capacity check per byte, or a
/// variable-length copy (which wasm runs as a `memory.copy` with a fixed cost well
/// above that of the store).
#[inline]
fn put_groups(out: &mut Vec<u8>, groups: u64, n: u32) {
    let cont = CONTINUE & ((1u64 << (8 * (n - 1))) - 1);
    let len = out.len();
    out.extend_from_slice(&(groups | cont).to_le_bytes());
    out.truncate(len + n as usize);
}

/// Appends the three or four LEB128 bytes of a value of 15 to 28 bits, spread and
/// stored as one 32-bit word (32-bit arithmetic: cheaper than the 64-bit path).
#[inline]
fn put_groups4(out: &mut Vec<u8>, v: u32) {
    let x = (v & 0x3fff) | ((v & 0x0fff_c000) << 2);
    let x = (x & 0x007f_007f) | ((x & 0x3f80_3f80) << 1);
    let (n, cont) = if v < 1 << 21 {
        (3, 0x8080)
    } else {
        (4, 0x0080_8080)
    };
    let len = out.len();
    out.extend_from_slice(&(x | cont).to_le_bytes());
    out.truncate(len + n);
}

/// Appends the unsigned LEB128 form of `v`: one byte, two bytes, up to 28 bits in a
/// 32-bit word store, up to 56 bits (eight groups) in a 64-bit one, or the byte loop
/// for the rest.
#[inline]
pub(crate) fn write_u64(out: &mut Vec<u8>, v: u64) {
    if v < 0x80 {
        out.push(v as u8);
    } else if v < 1 << 14 {
        out.extend_from_slice(&[v as u8 | 0x80, (v >> 7) as u8]);
    } else if v < 1 << 28 {
        put_groups4(out, v as u32);
    } else if v <= LOW56 {
        let bits = 64 - v.leading_zeros();
        put_groups(out, spread_groups(v), bits.div_ceil(7));
    } else {
        write_u64_long(out, v);
    }
}

/// [`write_u64`] of a value over 56 bits (nine or ten bytes).
#[cold]
#[inline(never)]
fn write_u64_long(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Appends the signed LEB128 form of `v`, in the same tiers as [`write_u64`]: the
/// groups of the low 56 bits of the two's complement, as many as hold the value and
/// its sign bit.
#[inline]
pub(crate) fn write_i64(out: &mut Vec<u8>, v: i64) {
    if (-64..64).contains(&v) {
        out.push((v as u8) & 0x7f);
        return;
    }
    if (-8192..8192).contains(&v) {
        out.extend_from_slice(&[v as u8 | 0x80, (v >> 7) as u8 & 0x7f]);
        return;
    }
    // The bits of the value without its sign, plus the sign bit.
    let magnitude = if v < 0 { !v } else { v } as u64;
    let bits = 65 - magnitude.leading_zeros();
    if bits <= 56 {
        put_groups(out, spread_groups(v as u64 & LOW56), bits.div_ceil(7));
    } else {
        write_i64_long(out, v);
    }
}

/// [`write_i64`] of a value that needs nine or ten bytes.
#[cold]
#[inline(never)]
fn write_i64_long(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v as u8) & 0x7f;
        v >>= 7;
        if (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0) {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Appends the unsigned LEB128 form of a u128.
pub(crate) fn write_u128(out: &mut Vec<u8>, mut v: u128) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Appends the signed LEB128 form of an i128.
pub(crate) fn write_i128(out: &mut Vec<u8>, mut v: i128) {
    loop {
        let byte = (v as u8) & 0x7f;
        v >>= 7;
        if (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0) {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads an unsigned LEB128 value of any length into a u128 (candid's `u128`
/// decoding): overlong forms are fine as long as no set bit lies beyond bit 127.
pub(crate) fn read_u128(buf: &[u8], pos: &mut usize) -> Result<u128, LebError> {
    let mut result: u128 = 0;
    let mut shift = 0u32;
    let mut overflow = false;
    let mut p = *pos;
    loop {
        let Some(&byte) = buf.get(p) else {
            return Err(LebError::Truncated);
        };
        p += 1;
        let low = u128::from(byte & 0x7f);
        if shift < 128 {
            overflow |= shift > 121 && low >> (128 - shift) != 0;
            result |= low << shift;
        } else {
            overflow |= low != 0;
        }
        if byte < 0x80 {
            break;
        }
        shift = shift.saturating_add(7);
    }
    if overflow {
        return Err(LebError::Overflow);
    }
    *pos = p;
    Ok(result)
}

/// Reads a signed LEB128 value of any length into an i128 (candid's `i128`
/// decoding): every bit beyond bit 127 must repeat the sign.
pub(crate) fn read_i128(buf: &[u8], pos: &mut usize) -> Result<i128, LebError> {
    let mut result: i128 = 0;
    let mut shift = 0u32;
    let (mut high_zero, mut high_one) = (true, true);
    let mut p = *pos;
    let mut byte;
    loop {
        let Some(&b) = buf.get(p) else {
            return Err(LebError::Truncated);
        };
        byte = b;
        p += 1;
        let low = byte & 0x7f;
        if shift < 128 {
            if shift > 120 {
                let high = low >> (127 - shift);
                let mask = 0x7f >> (127 - shift);
                high_zero &= high == 0;
                high_one &= high == mask;
            }
            result |= i128::from(low) << shift;
        } else {
            high_zero &= low == 0;
            high_one &= low == 0x7f;
        }
        shift = shift.saturating_add(7);
        if byte < 0x80 {
            break;
        }
    }
    if !high_zero && !high_one {
        return Err(LebError::Overflow);
    }
    if shift < 128 && byte & 0x40 != 0 {
        result |= !0i128 << shift;
    }
    *pos = p;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ref_u64(bytes: &[u8]) -> Result<u64, LebError> {
        let mut r = bytes;
        match leb128::read::unsigned(&mut r) {
            Ok(v) => Ok(v),
            Err(leb128::read::Error::Overflow) => Err(LebError::Overflow),
            Err(leb128::read::Error::IoError(_)) => Err(LebError::Truncated),
        }
    }
    fn ref_i64(bytes: &[u8]) -> Result<i64, LebError> {
        let mut r = bytes;
        match leb128::read::signed(&mut r) {
            Ok(v) => Ok(v),
            Err(leb128::read::Error::Overflow) => Err(LebError::Overflow),
            Err(leb128::read::Error::IoError(_)) => Err(LebError::Truncated),
        }
    }

    /// Edge inputs: every tier boundary, overlong forms, the 10-byte maximum, overflow
    /// and truncation.
    fn edge_inputs() -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = vec![
            vec![],
            vec![0x00],
            vec![0x7f],
            vec![0x80],
            vec![0x80, 0x00],
            vec![0xff, 0x00],
            vec![0x80, 0x80, 0x00],
            vec![0xff, 0x7f],
            vec![0x80; 9],
            [vec![0x80; 9], vec![0x00]].concat(),
            [vec![0x80; 9], vec![0x01]].concat(),
            [vec![0x80; 9], vec![0x02]].concat(),
            [vec![0xff; 9], vec![0x01]].concat(),
            [vec![0xff; 9], vec![0x7f]].concat(),
            [vec![0xff; 9], vec![0x00]].concat(),
            [vec![0x80; 10], vec![0x00]].concat(),
            [vec![0xff; 10], vec![0x01]].concat(),
            vec![0xe5, 0x8e, 0x26],
            vec![0xc0, 0xbb, 0x78],
            vec![0x40],
            vec![0x3f],
        ];
        for x in [
            0u64,
            1,
            63,
            64,
            127,
            128,
            16383,
            16384,
            u32::MAX as u64,
            u64::MAX >> 1,
            u64::MAX,
        ] {
            let mut b = Vec::new();
            write_u64(&mut b, x);
            v.push(b);
        }
        for x in [0i64, -1, 63, -64, 64, -65, i64::MIN, i64::MAX, -123456789] {
            let mut b = Vec::new();
            write_i64(&mut b, x);
            v.push(b);
        }
        v
    }

    #[test]
    fn u64_agrees_with_leb128_crate() {
        for input in edge_inputs() {
            let mut pos = 0;
            let ours = read_u64(&input, &mut pos);
            assert_eq!(ours, ref_u64(&input), "input {input:02x?}");
            if ours.is_ok() {
                let mut r = &input[..];
                leb128::read::unsigned(&mut r).unwrap();
                assert_eq!(pos, input.len() - r.len());
            } else {
                assert_eq!(pos, 0);
            }
        }
    }

    #[test]
    fn i64_agrees_with_leb128_crate() {
        for input in edge_inputs() {
            let mut pos = 0;
            let ours = read_i64(&input, &mut pos);
            assert_eq!(ours, ref_i64(&input), "input {input:02x?}");
        }
    }

    #[test]
    fn writers_agree_with_leb128_crate() {
        let mut us = vec![0u64, 1, 127, 128, 300, 1 << 35, u64::MAX];
        let mut is = vec![0i64, -1, 63, 64, -64, -65, i64::MIN, i64::MAX];
        // Both sides of every length boundary (7 bits a byte).
        for k in 1..64u32 {
            let p = 1u64 << k;
            us.extend([p - 1, p, p + 1]);
            let q = 1i64 << (k - 1);
            is.extend([q - 1, q, -q, -q - 1]);
        }
        for x in us {
            let mut ours = Vec::new();
            write_u64(&mut ours, x);
            let mut theirs = Vec::new();
            leb128::write::unsigned(&mut theirs, x).unwrap();
            assert_eq!(ours, theirs);
        }
        for x in is {
            let mut ours = Vec::new();
            write_i64(&mut ours, x);
            let mut theirs = Vec::new();
            leb128::write::signed(&mut theirs, x).unwrap();
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn u128_and_i128_round_trip() {
        for x in [
            0u128,
            1,
            127,
            128,
            u64::MAX as u128,
            u64::MAX as u128 + 1,
            u128::MAX,
        ] {
            let mut b = Vec::new();
            write_u128(&mut b, x);
            let mut pos = 0;
            assert_eq!(read_u128(&b, &mut pos), Ok(x));
            assert_eq!(pos, b.len());
        }
        for x in [
            0i128,
            -1,
            64,
            -65,
            i64::MIN as i128 - 1,
            i128::MIN,
            i128::MAX,
        ] {
            let mut b = Vec::new();
            write_i128(&mut b, x);
            let mut pos = 0;
            assert_eq!(read_i128(&b, &mut pos), Ok(x), "{x}");
        }
    }

    #[test]
    fn skip_any_length() {
        let input = [
            0x80u8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0xaa,
        ];
        let mut pos = 0;
        assert_eq!(skip(&input, &mut pos), Ok(12));
        assert_eq!(pos, 12);
        let mut pos = 0;
        assert_eq!(skip(&input[..5], &mut pos), Err(LebError::Truncated));
    }

    /// The one-load path (a value that ends within 8 bytes, with 8 bytes left)
    /// and the byte loop give the same value and length, whatever follows.
    #[test]
    fn values_read_the_same_whatever_follows_them() {
        let mut inputs = edge_inputs();
        for bits in 0..64 {
            for x in [1u64 << bits, (1u64 << bits) - 1, (1u64 << bits) | 0x55] {
                let mut b = Vec::new();
                write_u64(&mut b, x);
                inputs.push(b);
            }
        }
        for x in [
            -1i64,
            -64,
            -65,
            i64::MIN,
            i64::MIN / 3,
            -(1 << 48),
            (1 << 48) - 1,
        ] {
            let mut b = Vec::new();
            write_i64(&mut b, x);
            inputs.push(b);
        }
        for input in inputs {
            let mut pos = 0;
            let signed = read_i64(&input, &mut pos);
            let signed_pos = pos;
            let mut pos = 0;
            let alone = read_u64(&input, &mut pos);
            let alone_pos = pos;
            for fill in [0x00u8, 0x7f, 0x80, 0xff] {
                for extra in 1..9 {
                    let padded = [input.clone(), vec![fill; extra]].concat();
                    let mut pos = 0;
                    let got = read_u64(&padded, &mut pos);
                    assert_eq!(got, ref_u64(&padded), "input {padded:02x?}");
                    if alone.is_ok() {
                        assert_eq!((got, pos), (alone, alone_pos), "input {padded:02x?}");
                    }
                    if got.is_ok() {
                        let mut r = &padded[..];
                        leb128::read::unsigned(&mut r).unwrap();
                        assert_eq!(pos, padded.len() - r.len(), "input {padded:02x?}");
                    }
                    let mut pos = 0;
                    let skipped = skip(&padded, &mut pos);
                    // Up to and including the first byte without the continuation bit.
                    let len = padded.iter().position(|b| b & 0x80 == 0).map(|i| i + 1);
                    assert_eq!(skipped.ok(), len, "input {padded:02x?}");
                    if let Some(len) = len {
                        assert_eq!(pos, len, "input {padded:02x?}");
                    }
                    let mut pos = 0;
                    let got = read_i64(&padded, &mut pos);
                    assert_eq!(got, ref_i64(&padded), "input {padded:02x?}");
                    if signed.is_ok() {
                        assert_eq!((got, pos), (signed, signed_pos), "input {padded:02x?}");
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn random_bytes_agree(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..14)) {
            let mut pos = 0;
            let ours = read_u64(&bytes, &mut pos);
            proptest::prop_assert_eq!(ours, ref_u64(&bytes));
            let mut fits_pos = 0;
            proptest::prop_assert_eq!(read_u64_fits(&bytes, &mut fits_pos), ours.ok());
            proptest::prop_assert_eq!(fits_pos, pos);
            let mut fits_pos = 0;
            let mut signed_pos = 0;
            proptest::prop_assert_eq!(
                read_i64_fits(&bytes, &mut fits_pos),
                read_i64(&bytes, &mut signed_pos).ok()
            );
            proptest::prop_assert_eq!(fits_pos, signed_pos);
            if ours.is_ok() {
                let mut r = &bytes[..];
                let _ = leb128::read::unsigned(&mut r);
                proptest::prop_assert_eq!(pos, bytes.len() - r.len());
            }
            let mut pos = 0;
            proptest::prop_assert_eq!(read_i64(&bytes, &mut pos), ref_i64(&bytes));
        }
    }
}
