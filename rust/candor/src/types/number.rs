//! `Nat` and `Int`: arbitrary-precision `nat` and `int`, backed by num-bigint.
//!
//! The decoder hands a value that fits 64 bits to `visit_u64`/`visit_i64` (no bignum
//! round trip); larger values arrive as `visit_byte_buf` with a one-byte tag (1 for
//! nat, 0 for int) followed by little-endian magnitude or two's complement bytes —
//! the same protocol as candid, so `IDLValue` and these types share one decoder.

use super::{CandidType, Serializer, Type, TypeInner};
use crate::wire::leb;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::ToPrimitive;
use serde::de::{self, Deserialize, Visitor};
use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};
use std::str::FromStr;

/// A Candid `nat`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Nat(pub BigUint);

/// A Candid `int`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Int(pub BigInt);

/// Tag bytes of the `visit_byte_buf` protocol shared with candid.
pub(crate) const TAG_INT: u8 = 0;
pub(crate) const TAG_NAT: u8 = 1;

impl Nat {
    pub fn new(v: BigUint) -> Self {
        Nat(v)
    }
    /// Parses decimal digits (with `_` separators) from bytes.
    pub fn parse(v: &[u8]) -> crate::Result<Self> {
        let s = std::str::from_utf8(v).map_err(crate::Error::msg)?;
        s.parse()
    }
    /// Writes the LEB128 encoding.
    pub fn encode<W: std::io::Write>(&self, w: &mut W) -> crate::Result<()> {
        let mut buf = Vec::new();
        encode_biguint(&mut buf, &self.0);
        w.write_all(&buf)?;
        Ok(())
    }
    /// Reads a LEB128 encoding.
    pub fn decode<R: std::io::Read>(r: &mut R) -> crate::Result<Self> {
        Ok(Nat(decode_biguint(&read_leb_bytes(r)?)))
    }
}

impl Int {
    pub fn new(v: BigInt) -> Self {
        Int(v)
    }
    /// Parses decimal digits (with sign and `_` separators) from bytes.
    pub fn parse(v: &[u8]) -> crate::Result<Self> {
        let s = std::str::from_utf8(v).map_err(crate::Error::msg)?;
        s.parse()
    }
    /// Writes the SLEB128 encoding.
    pub fn encode<W: std::io::Write>(&self, w: &mut W) -> crate::Result<()> {
        let mut buf = Vec::new();
        encode_bigint(&mut buf, &self.0);
        w.write_all(&buf)?;
        Ok(())
    }
    /// Reads an SLEB128 encoding.
    pub fn decode<R: std::io::Read>(r: &mut R) -> crate::Result<Self> {
        Ok(Int(decode_bigint(&read_leb_bytes(r)?)))
    }
}

/// The bytes of one LEB128/SLEB128 value read from `r` (up to and including the
/// byte without the continuation bit).
fn read_leb_bytes<R: std::io::Read>(r: &mut R) -> crate::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    loop {
        let mut b = [0u8; 1];
        r.read_exact(&mut b)?;
        bytes.push(b[0]);
        if b[0] < 0x80 {
            return Ok(bytes);
        }
    }
}

/// LEB128 of a BigUint, appended to `out`: 7-bit groups cut straight from the
/// 64-bit limbs with 64-bit arithmetic only (no intermediate digit vector, no 128-bit
/// shifts, which wasm emulates), linear in the size.
pub(crate) fn encode_biguint(out: &mut Vec<u8>, v: &BigUint) {
    if let Some(small) = v.to_u64() {
        leb::write_u64(out, small);
        return;
    }
    let groups = (v.bits() as usize).div_ceil(7);
    let start = out.len();
    out.reserve(groups + 10);
    // Bits carried over from the previous limb (fewer than 7).
    let (mut carry, mut ncarry) = (0u64, 0u32);
    for limb in v.iter_u64_digits() {
        let (mut bits, mut nbits) = (limb, 64u32);
        if ncarry > 0 {
            let take = 7 - ncarry;
            out.push((carry | ((bits & ((1 << take) - 1)) << ncarry)) as u8 | 0x80);
            bits >>= take;
            nbits -= take;
        }
        while nbits >= 7 {
            out.push((bits & 0x7f) as u8 | 0x80);
            bits >>= 7;
            nbits -= 7;
        }
        carry = bits;
        ncarry = nbits;
    }
    if ncarry > 0 {
        out.push(carry as u8 | 0x80);
    }
    // The top limb's leading zeros made surplus groups; the last kept one ends it.
    out.truncate(start + groups);
    if let Some(last) = out.last_mut() {
        *last &= 0x7f;
    }
}

/// SLEB128 of a BigInt, appended to `out`, in time linear in its size: the 7-bit
/// groups are read straight from the two's complement bytes (sign-extended), and
/// their number is the shortest that holds the value and its sign bit.
pub(crate) fn encode_bigint(out: &mut Vec<u8>, v: &BigInt) {
    if let Some(small) = v.to_i64() {
        leb::write_i64(out, small);
        return;
    }
    let negative = v.sign() == Sign::Minus;
    // Bits of the magnitude of v (or of -(v+1) when negative), plus the sign bit.
    let magnitude_bits = if negative {
        (-(v + BigInt::from(1))).bits()
    } else {
        v.bits()
    };
    let groups = (magnitude_bits + 1).div_ceil(7).max(1) as usize;
    let bytes = v.to_signed_bytes_le();
    let fill: u8 = if negative { 0xff } else { 0 };
    let byte_at = |i: usize| -> u16 { u16::from(bytes.get(i).copied().unwrap_or(fill)) };
    out.reserve(groups);
    for g in 0..groups {
        let bit = g * 7;
        let word = (byte_at(bit / 8) | (byte_at(bit / 8 + 1) << 8)) >> (bit % 8);
        let group = (word & 0x7f) as u8;
        out.push(if g + 1 == groups { group } else { group | 0x80 });
    }
}

/// The value of complete LEB128 bytes (the last byte has no continuation bit).
pub(crate) fn decode_biguint(bytes: &[u8]) -> BigUint {
    let digits: Vec<u8> = bytes.iter().map(|b| b & 0x7f).collect();
    BigUint::from_radix_le(&digits, 128).unwrap_or_default()
}

/// The value of complete SLEB128 bytes.
pub(crate) fn decode_bigint(bytes: &[u8]) -> BigInt {
    let magnitude = BigInt::from(decode_biguint(bytes));
    match bytes.last() {
        Some(last) if last & 0x40 != 0 => {
            let bits = 7 * bytes.len() as u64;
            magnitude - (BigInt::from(1) << bits)
        }
        _ => magnitude,
    }
}

/// Groups decimal digits by three with `_`, as candid prints numbers.
pub(crate) fn group_digits(s: &str) -> String {
    let (sign, digits) = match s.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", s),
    };
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    out.push_str(sign);
    let first = digits.len() % 3;
    for (i, c) in digits.chars().enumerate() {
        if i != 0 && (i + 3 - first) % 3 == 0 {
            out.push('_');
        }
        out.push(c);
    }
    out
}

impl fmt::Display for Nat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&group_digits(&self.0.to_str_radix(10)))
    }
}
impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&group_digits(&self.0.to_str_radix(10)))
    }
}

impl FromStr for Nat {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Self> {
        let clean: String = s.chars().filter(|c| *c != '_').collect();
        BigUint::from_str(&clean)
            .map(Nat)
            .map_err(|e| crate::Error::msg(format!("invalid nat {s:?}: {e}")))
    }
}
impl FromStr for Int {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Self> {
        let clean: String = s.chars().filter(|c| *c != '_').collect();
        let clean = clean.strip_prefix('+').unwrap_or(&clean);
        BigInt::from_str(clean)
            .map(Int)
            .map_err(|e| crate::Error::msg(format!("invalid int {s:?}: {e}")))
    }
}

macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Nat {
            fn from(v: $t) -> Self { Nat(BigUint::from(v)) }
        }
        impl From<$t> for Int {
            fn from(v: $t) -> Self { Int(BigInt::from(v)) }
        }
        impl Add<$t> for Nat { type Output = Nat; fn add(self, o: $t) -> Nat { Nat(self.0 + o) } }
        impl Sub<$t> for Nat { type Output = Nat; fn sub(self, o: $t) -> Nat { Nat(self.0 - o) } }
        impl Mul<$t> for Nat { type Output = Nat; fn mul(self, o: $t) -> Nat { Nat(self.0 * o) } }
        impl Div<$t> for Nat { type Output = Nat; fn div(self, o: $t) -> Nat { Nat(self.0 / o) } }
        impl Rem<$t> for Nat { type Output = Nat; fn rem(self, o: $t) -> Nat { Nat(self.0 % o) } }
        impl AddAssign<$t> for Nat { fn add_assign(&mut self, o: $t) { self.0 += o } }
        impl SubAssign<$t> for Nat { fn sub_assign(&mut self, o: $t) { self.0 -= o } }
        impl MulAssign<$t> for Nat { fn mul_assign(&mut self, o: $t) { self.0 *= o } }
        impl DivAssign<$t> for Nat { fn div_assign(&mut self, o: $t) { self.0 /= o } }
        impl RemAssign<$t> for Nat { fn rem_assign(&mut self, o: $t) { self.0 %= o } }
        impl PartialEq<$t> for Nat { fn eq(&self, o: &$t) -> bool { self.0 == BigUint::from(*o) } }
    )*};
}
from_unsigned!(u8 u16 u32 u64 u128 usize);

macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Int {
            fn from(v: $t) -> Self { Int(BigInt::from(v)) }
        }
        impl Add<$t> for Int { type Output = Int; fn add(self, o: $t) -> Int { Int(self.0 + o) } }
        impl Sub<$t> for Int { type Output = Int; fn sub(self, o: $t) -> Int { Int(self.0 - o) } }
        impl Mul<$t> for Int { type Output = Int; fn mul(self, o: $t) -> Int { Int(self.0 * o) } }
        impl Div<$t> for Int { type Output = Int; fn div(self, o: $t) -> Int { Int(self.0 / o) } }
        impl Rem<$t> for Int { type Output = Int; fn rem(self, o: $t) -> Int { Int(self.0 % o) } }
        impl AddAssign<$t> for Int { fn add_assign(&mut self, o: $t) { self.0 += o } }
        impl SubAssign<$t> for Int { fn sub_assign(&mut self, o: $t) { self.0 -= o } }
        impl MulAssign<$t> for Int { fn mul_assign(&mut self, o: $t) { self.0 *= o } }
        impl DivAssign<$t> for Int { fn div_assign(&mut self, o: $t) { self.0 /= o } }
        impl RemAssign<$t> for Int { fn rem_assign(&mut self, o: $t) { self.0 %= o } }
        impl PartialEq<$t> for Int { fn eq(&self, o: &$t) -> bool { self.0 == BigInt::from(*o) } }
    )*};
}
from_signed!(i8 i16 i32 i64 i128 isize);

macro_rules! self_ops {
    ($ty:ident) => {
        impl Add for $ty {
            type Output = $ty;
            fn add(self, o: $ty) -> $ty {
                $ty(self.0 + o.0)
            }
        }
        impl Sub for $ty {
            type Output = $ty;
            fn sub(self, o: $ty) -> $ty {
                $ty(self.0 - o.0)
            }
        }
        impl Mul for $ty {
            type Output = $ty;
            fn mul(self, o: $ty) -> $ty {
                $ty(self.0 * o.0)
            }
        }
        impl Div for $ty {
            type Output = $ty;
            fn div(self, o: $ty) -> $ty {
                $ty(self.0 / o.0)
            }
        }
        impl Rem for $ty {
            type Output = $ty;
            fn rem(self, o: $ty) -> $ty {
                $ty(self.0 % o.0)
            }
        }
        impl AddAssign for $ty {
            fn add_assign(&mut self, o: $ty) {
                self.0 += o.0
            }
        }
        impl SubAssign for $ty {
            fn sub_assign(&mut self, o: $ty) {
                self.0 -= o.0
            }
        }
        impl MulAssign for $ty {
            fn mul_assign(&mut self, o: $ty) {
                self.0 *= o.0
            }
        }
        impl DivAssign for $ty {
            fn div_assign(&mut self, o: $ty) {
                self.0 /= o.0
            }
        }
        impl RemAssign for $ty {
            fn rem_assign(&mut self, o: $ty) {
                self.0 %= o.0
            }
        }
    };
}
self_ops!(Nat);
self_ops!(Int);

impl From<BigUint> for Nat {
    fn from(v: BigUint) -> Self {
        Nat(v)
    }
}
impl From<Nat> for BigUint {
    fn from(v: Nat) -> Self {
        v.0
    }
}
impl From<BigInt> for Int {
    fn from(v: BigInt) -> Self {
        Int(v)
    }
}
impl From<Int> for BigInt {
    fn from(v: Int) -> Self {
        v.0
    }
}
impl From<Nat> for Int {
    fn from(v: Nat) -> Self {
        Int(BigInt::from_biguint(Sign::Plus, v.0))
    }
}

impl CandidType for Nat {
    fn _ty() -> Type {
        TypeInner::Nat.into()
    }
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_nat(self)
    }
}
impl CandidType for Int {
    fn _ty() -> Type {
        TypeInner::Int.into()
    }
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_int(self)
    }
}

impl serde::Serialize for Nat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_str_radix(10))
    }
}
impl serde::Serialize for Int {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_str_radix(10))
    }
}

struct NatVisitor;
impl<'de> Visitor<'de> for NatVisitor {
    type Value = Nat;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("nat")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Nat, E> {
        Ok(Nat::from(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Nat, E> {
        u64::try_from(v)
            .map(Nat::from)
            .map_err(|_| E::custom("negative value for nat"))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Nat, E> {
        Ok(Nat::from(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Nat, E> {
        v.parse().map_err(E::custom)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Nat, E> {
        match v.split_first() {
            Some((&TAG_NAT, rest)) => Ok(Nat(BigUint::from_bytes_le(rest))),
            _ => Err(E::custom("not a nat")),
        }
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Nat, E> {
        self.visit_bytes(&v)
    }
}
impl<'de> Deserialize<'de> for Nat {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Nat, D::Error> {
        d.deserialize_any(NatVisitor)
    }
}

struct IntVisitor;
impl<'de> Visitor<'de> for IntVisitor {
    type Value = Int;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("int")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Int, E> {
        Ok(Int::from(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Int, E> {
        Ok(Int::from(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Int, E> {
        Ok(Int::from(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Int, E> {
        Ok(Int::from(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Int, E> {
        v.parse().map_err(E::custom)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Int, E> {
        match v.split_first() {
            Some((&TAG_INT, rest)) => Ok(Int(BigInt::from_signed_bytes_le(rest))),
            Some((&TAG_NAT, rest)) => Ok(Int(BigInt::from(BigUint::from_bytes_le(rest)))),
            _ => Err(E::custom("not an int")),
        }
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Int, E> {
        self.visit_bytes(&v)
    }
}
impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Int, D::Error> {
        d.deserialize_any(IntVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_groups_like_candid() {
        for v in [0u64, 7, 999, 1000, 1234567, u64::MAX] {
            assert_eq!(Nat::from(v).to_string(), candid::Nat::from(v).to_string());
        }
        for v in [0i64, -7, -1000, -1234567, i64::MIN] {
            assert_eq!(Int::from(v).to_string(), candid::Int::from(v).to_string());
        }
    }

    #[test]
    fn bignum_leb_round_trip() {
        let mut bigs = vec![BigUint::from(u64::MAX) * 1_000_000u64 + 17u64];
        for shift in [63u32, 64, 70, 126, 127, 128, 129, 640, 100_000] {
            bigs.push(BigUint::from(1u8) << shift);
            bigs.push((BigUint::from(1u8) << shift) - 1u8);
        }
        for big in bigs {
            let mut buf = Vec::new();
            encode_biguint(&mut buf, &big);
            assert_eq!(decode_biguint(&buf), big);
            let mut theirs = Vec::new();
            candid::Nat(big.clone()).encode(&mut theirs).unwrap();
            assert_eq!(buf, theirs);
        }
        for v in [
            BigInt::from(i64::MIN) * 12345,
            BigInt::from(i64::MAX) * 3,
            BigInt::from(-64),
        ] {
            let mut buf = Vec::new();
            encode_bigint(&mut buf, &v);
            assert_eq!(decode_bigint(&buf), v);
            let mut theirs = Vec::new();
            candid::Int(v.clone()).encode(&mut theirs).unwrap();
            assert_eq!(buf, theirs, "{v}");
        }
    }

    #[test]
    fn huge_ints_encode_in_linear_time_like_candid() {
        // A 1 MiB-class value would take minutes with a quadratic encoder.
        let big = (BigInt::from(1) << 200_000u32) * -3 + 12345;
        let mut ours = Vec::new();
        encode_bigint(&mut ours, &big);
        let mut theirs = Vec::new();
        candid::Int(big.clone()).encode(&mut theirs).unwrap();
        assert_eq!(ours, theirs);
        assert_eq!(decode_bigint(&ours), big);
        for shift in [62u32, 63, 64, 65, 69, 70, 127, 128] {
            for v in [
                BigInt::from(1) << shift,
                -(BigInt::from(1) << shift),
                (BigInt::from(1) << shift) - 1,
                -(BigInt::from(1) << shift) - 1,
            ] {
                let mut ours = Vec::new();
                encode_bigint(&mut ours, &v);
                let mut theirs = Vec::new();
                candid::Int(v.clone()).encode(&mut theirs).unwrap();
                assert_eq!(ours, theirs, "{v}");
            }
        }
    }

    #[test]
    fn parse_with_separators() {
        assert_eq!("1_000".parse::<Nat>().unwrap(), Nat::from(1000u32));
        assert_eq!("-1_000".parse::<Int>().unwrap(), Int::from(-1000));
        assert!("x".parse::<Nat>().is_err());
    }
}
