//! `Nat` and `Int`: arbitrary-precision `nat` and `int`, backed by num-bigint.
//!
//! The decoder hands a value that fits 64 bits to `visit_u64`/`visit_i64` (no bignum
//! round trip); larger values arrive as `visit_byte_buf` with a one-byte tag (1 for
//! nat, 0 for int) followed by little-endian magnitude or two's complement bytes —
//! the same protocol as candid, so `IDLValue` and these types share one decoder.

use super::bytes_tag::BytesTag;
use super::{CandidType, Serializer, Type, TypeInner};
use crate::wire::leb::{self, gather_groups, spread_groups, CONTINUE, LOW56};
use num_bigint::{BigInt, BigUint, Sign};
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

impl Nat {
    /// Wraps a big unsigned integer.
    pub fn new(v: BigUint) -> Self {
        Nat(v)
    }
    /// Parses decimal digits (with `_` separators) from bytes.
    pub fn parse(v: &[u8]) -> crate::error::Result<Self> {
        let s = std::str::from_utf8(v).map_err(crate::error::Error::msg)?;
        s.parse()
    }
    /// Writes the LEB128 encoding.
    pub fn encode<W: std::io::Write + ?Sized>(&self, w: &mut W) -> crate::error::Result<()> {
        let mut buf = Vec::new();
        encode_biguint(&mut buf, &self.0);
        w.write_all(&buf)?;
        Ok(())
    }
    /// Reads a LEB128 encoding.
    pub fn decode<R: std::io::Read>(r: &mut R) -> crate::error::Result<Self> {
        Ok(Nat(decode_biguint(&read_leb_bytes(r)?)))
    }
}

impl Int {
    /// Wraps a big signed integer.
    pub fn new(v: BigInt) -> Self {
        Int(v)
    }
    /// Parses decimal digits (with sign and `_` separators) from bytes.
    pub fn parse(v: &[u8]) -> crate::error::Result<Self> {
        let s = std::str::from_utf8(v).map_err(crate::error::Error::msg)?;
        s.parse()
    }
    /// Writes the SLEB128 encoding.
    pub fn encode<W: std::io::Write + ?Sized>(&self, w: &mut W) -> crate::error::Result<()> {
        let mut buf = Vec::new();
        encode_bigint(&mut buf, &self.0);
        w.write_all(&buf)?;
        Ok(())
    }
    /// Reads an SLEB128 encoding.
    pub fn decode<R: std::io::Read>(r: &mut R) -> crate::error::Result<Self> {
        Ok(Int(decode_bigint(&read_leb_bytes(r)?)))
    }
}

/// The bytes of one LEB128/SLEB128 value read from `r` (up to and including the
/// byte without the continuation bit).
fn read_leb_bytes<R: std::io::Read>(r: &mut R) -> crate::error::Result<Vec<u8>> {
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

/// Fills `dst` (sized to the number of groups) with LEB128 groups, taking the value's
/// bits 56 at a time from successive calls of `window` (bits 56k.. of the value in its
/// low bits); the last group ends the number.
#[inline]
fn write_groups(dst: &mut [u8], mut window: impl FnMut() -> u64) {
    let mut chunks = dst.chunks_exact_mut(8);
    for chunk in &mut chunks {
        let bytes = (spread_groups(window() & LOW56) | CONTINUE).to_le_bytes();
        chunk.copy_from_slice(&bytes);
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let bytes = (spread_groups(window() & LOW56) | CONTINUE).to_le_bytes();
        rest.copy_from_slice(bytes.get(..rest.len()).unwrap_or_default());
    }
    if let Some(last) = dst.last_mut() {
        *last &= 0x7f;
    }
}

/// LEB128 of a BigUint, appended to `out`: eight groups at a time from 56-bit windows
/// of the 64-bit limbs (64-bit arithmetic only: wasm emulates 128-bit shifts), linear
/// in the size.
#[inline]
pub(crate) fn encode_biguint(out: &mut Vec<u8>, v: &BigUint) {
    match small_u64(v) {
        Some(small) => leb::write_u64(out, small),
        None => encode_big_biguint(out, v),
    }
}

/// The value if it fits 64 bits, from the digit count and at most two 32-bit digits
/// (`to_u64` loops over the digits in general).
#[inline]
fn small_u64(v: &BigUint) -> Option<u64> {
    let mut digits = v.iter_u32_digits();
    match digits.len() {
        0 => Some(0),
        1 => digits.next().map(u64::from),
        2 => {
            let lo = u64::from(digits.next()?);
            let hi = u64::from(digits.next()?);
            Some(lo | hi << 32)
        }
        _ => None,
    }
}

/// [`encode_biguint`] past 64 bits: out of line, so the common small case stays small
/// enough to inline into every caller.
#[inline(never)]
fn encode_big_biguint(out: &mut Vec<u8>, v: &BigUint) {
    let groups = (v.bits() as usize).div_ceil(7);
    let start = out.len();
    out.resize(start + groups, 0);
    let Some(dst) = out.get_mut(start..) else {
        return;
    };
    let mut digits = v.iter_u32_digits();
    write_digits(dst, || digits.next().map_or(0, u64::from));
}

/// Fills `dst` with the LEB128 groups of the number whose 32-bit digits (least
/// significant first, extended as far as needed) successive calls of `digit` return,
/// each in the low half of a u64. The bulk goes 32 output bytes at a time: seven
/// digits (224 bits) are four 56-bit windows at fixed shifts, so the loop carries no
/// shift state from window to window; the tail takes the general sliding window.
#[inline]
fn write_digits(dst: &mut [u8], mut digit: impl FnMut() -> u64) {
    let mut blocks = dst.chunks_exact_mut(32);
    for block in &mut blocks {
        let d = [
            digit(),
            digit(),
            digit(),
            digit(),
            digit(),
            digit(),
            digit(),
        ];
        let windows = [
            d[0] | d[1] << 32,
            d[1] >> 24 | d[2] << 8 | d[3] << 40,
            d[3] >> 16 | d[4] << 16 | d[5] << 48,
            d[5] >> 8 | d[6] << 24,
        ];
        for (chunk, w) in block.chunks_exact_mut(8).zip(windows) {
            chunk.copy_from_slice(&(spread_groups(w & LOW56) | CONTINUE).to_le_bytes());
        }
    }
    write_limbs(blocks.into_remainder(), || {
        let lo = digit();
        lo | digit() << 32
    });
    if let Some(last) = dst.last_mut() {
        *last &= 0x7f;
    }
}

/// Fills `dst` with LEB128 groups of the number whose 64-bit limbs (least significant
/// first, extended as far as needed) successive calls of `limb` return.
#[inline]
fn write_limbs(dst: &mut [u8], mut limb: impl FnMut() -> u64) {
    // A sliding pair of limbs: a window starting at bit `shift` of `lo` takes the
    // rest from `hi` (windows advance 56 bits, so never past `hi`). `hi` is shifted
    // in two steps so that `shift == 0` needs no branch (a shift by 64 is not one).
    let mut lo = limb();
    let mut hi = limb();
    let mut shift = 0u64;
    write_groups(dst, || {
        let w = (lo >> shift) | ((hi << 1) << (63 - shift));
        shift += 56;
        if shift >= 64 {
            shift -= 64;
            lo = hi;
            hi = limb();
        }
        w
    });
}

/// SLEB128 of a BigInt, appended to `out`, in time linear in its size: the groups are
/// cut eight at a time from 56-bit windows of the two's complement limbs
/// (sign-extended), and their number is the shortest that holds the value and its
/// sign bit.
#[inline]
pub(crate) fn encode_bigint(out: &mut Vec<u8>, v: &BigInt) {
    let small = small_u64(v.magnitude()).and_then(|m| match v.sign() {
        Sign::Minus => 0i64.checked_sub_unsigned(m),
        _ => i64::try_from(m).ok(),
    });
    match small {
        Some(small) => leb::write_i64(out, small),
        None => encode_big_bigint(out, v),
    }
}

/// [`encode_bigint`] past 64 bits, out of line. The two's complement digits of a
/// negative value are computed on the fly from the magnitude (`!m + 1`, the carry
/// carried from digit to digit), so nothing as large as the value is allocated.
#[inline(never)]
fn encode_big_bigint(out: &mut Vec<u8>, v: &BigInt) {
    let m = v.magnitude();
    let negative = v.sign() == Sign::Minus;
    // Bits of the value without its sign: those of m, or of m - 1 when negative,
    // which has one fewer exactly when m is a power of two.
    let mut bits = m.bits();
    if negative && m.trailing_zeros() == Some(bits.saturating_sub(1)) {
        bits -= 1;
    }
    let groups = (bits + 1).div_ceil(7).max(1) as usize;
    let start = out.len();
    out.resize(start + groups, 0);
    let flip = if negative { 0xffff_ffff } else { 0 };
    let mut carry = u64::from(negative);
    let mut digits = m.iter_u32_digits();
    let digit = || match digits.next() {
        Some(d) => {
            let t = (u64::from(d) ^ flip) + carry;
            carry = t >> 32;
            t & 0xffff_ffff
        }
        // Past the magnitude the carry is spent (m is not zero): sign extension.
        None => flip,
    };
    if let Some(dst) = out.get_mut(start..) {
        write_digits(dst, digit);
    }
}

/// Appends the little-endian bytes of the value of complete LEB128 bytes (`signed`:
/// SLEB128, as two's complement, the last byte sign-extended): eight groups become
/// seven bytes at a time. The result need not be minimal (`from_bytes_le` and
/// `from_signed_bytes_le` accept surplus high bytes); this is how a bignum reaches a
/// visitor without a `BigUint` built and taken apart again on the way.
pub(crate) fn leb_to_le_bytes(leb: &[u8], signed: bool, out: &mut Vec<u8>) {
    let mut chunks = leb.chunks_exact(8);
    let start = out.len();
    let whole = start + leb.len() / 8 * 7;
    // Each seven bytes are written as the whole word they come in (its top byte
    // is zero, and the next word overwrites it): one store, not three. One byte
    // of room past the last word, cut off after.
    out.resize(whole + 1, 0);
    if let Some(dst) = out.get_mut(start..) {
        let mut at = 0;
        for src in &mut chunks {
            let eight = src.first_chunk::<8>().copied().unwrap_or_default();
            let word = gather_groups(u64::from_le_bytes(eight)).to_le_bytes();
            if let Some(d) = dst.get_mut(at..).and_then(|d| d.first_chunk_mut::<8>()) {
                *d = word;
            }
            at += 7;
        }
    }
    out.truncate(whole);
    let (mut acc, mut nbits) = (0u32, 0u32);
    for &b in chunks.remainder() {
        acc |= u32::from(b & 0x7f) << nbits;
        nbits += 7;
        if nbits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            nbits -= 8;
        }
    }
    if nbits > 0 {
        // The value's top bit is bit 6 of the last group; below a full byte it is
        // extended by hand (a full last byte already has it on top).
        if signed && leb.last().is_some_and(|b| b & 0x40 != 0) {
            acc |= !0u32 << nbits;
        }
        out.push(acc as u8);
    }
}

/// The value of complete LEB128 bytes (the last byte has no continuation bit).
pub(crate) fn decode_biguint(bytes: &[u8]) -> BigUint {
    let mut le = Vec::new();
    leb_to_le_bytes(bytes, false, &mut le);
    BigUint::from_bytes_le(&le)
}

/// The value of complete SLEB128 bytes.
pub(crate) fn decode_bigint(bytes: &[u8]) -> BigInt {
    let mut le = Vec::new();
    leb_to_le_bytes(bytes, true, &mut le);
    BigInt::from_signed_bytes_le(&le)
}

/// The value of little-endian magnitude bytes (`BigUint::from_bytes_le`'s
/// value): four bytes to a digit of `BigUint::new`, where `from_bytes_le` builds
/// its digits bit group by bit group, several times the work for a long value.
pub(crate) fn biguint_from_le(bytes: &[u8]) -> BigUint {
    BigUint::new(le_words(bytes, 0, |w| w))
}

/// The value of little-endian two's complement bytes
/// (`BigInt::from_signed_bytes_le`'s value). A negative one's magnitude is
/// `!x + 1`: the words are inverted as they are made, and the one is added from
/// the low word up, which stops at the first word that does not carry.
pub(crate) fn bigint_from_signed_le(bytes: &[u8]) -> BigInt {
    if bytes.last().is_none_or(|b| b & 0x80 == 0) {
        return BigInt::from(biguint_from_le(bytes));
    }
    // Sign-extended to whole words; the top word's sign bit is set, so its
    // inversion is below the top and the carry stops there at the latest.
    let mut words = le_words(bytes, 0xff, |w| !w);
    for w in &mut words {
        let (x, carry) = w.overflowing_add(1);
        *w = x;
        if !carry {
            break;
        }
    }
    BigInt::from_biguint(Sign::Minus, BigUint::new(words))
}

/// `bytes` as little-endian 32-bit words, the last one filled up with `fill`,
/// each passed through `f`.
#[inline(always)]
fn le_words(bytes: &[u8], fill: u8, f: impl Fn(u32) -> u32) -> Vec<u32> {
    let chunks = bytes.chunks_exact(4);
    let rest = chunks.remainder();
    let mut words = Vec::with_capacity(bytes.len().div_ceil(4));
    words.extend(chunks.map(|c| {
        f(u32::from_le_bytes(
            c.first_chunk::<4>().copied().unwrap_or_default(),
        ))
    }));
    if !rest.is_empty() {
        let mut last = [fill; 4];
        for (d, s) in last.iter_mut().zip(rest) {
            *d = *s;
        }
        words.push(f(u32::from_le_bytes(last)));
    }
    words
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
    type Err = crate::error::Error;
    fn from_str(s: &str) -> crate::error::Result<Self> {
        let clean: String = s.chars().filter(|c| *c != '_').collect();
        BigUint::from_str(&clean)
            .map(Nat)
            .map_err(|e| crate::error::Error::msg(format!("invalid nat {s:?}: {e}")))
    }
}
impl FromStr for Int {
    type Err = crate::error::Error;
    fn from_str(s: &str) -> crate::error::Result<Self> {
        let clean: String = s.chars().filter(|c| *c != '_').collect();
        let clean = clean.strip_prefix('+').unwrap_or(&clean);
        BigInt::from_str(clean)
            .map(Int)
            .map_err(|e| crate::error::Error::msg(format!("invalid int {s:?}: {e}")))
    }
}

/// `From`, `==`, `<`… and `+ - * / %` (with their `…Assign`) between a number type
/// and a primitive integer, in both directions where Rust allows (`fee * 2u64`,
/// `2u64 * fee`, `balance > 0u8`): the impls candid 0.10.39 has, so arithmetic that
/// compiles against candid compiles here. Underflow of a `Nat` panics, as there.
macro_rules! scalar_ops {
    ($num:ident, $big:ident: $($t:ty)*) => {$(
        impl From<$t> for $num {
            #[inline]
            fn from(v: $t) -> Self { $num($big::from(v)) }
        }
        impl PartialEq<$t> for $num {
            #[inline]
            fn eq(&self, o: &$t) -> bool { self.0 == $big::from(*o) }
        }
        impl PartialEq<$num> for $t {
            #[inline]
            fn eq(&self, o: &$num) -> bool { $big::from(*self) == o.0 }
        }
        impl PartialOrd<$t> for $num {
            #[inline]
            fn partial_cmp(&self, o: &$t) -> Option<std::cmp::Ordering> {
                self.0.partial_cmp(&$big::from(*o))
            }
        }
        impl PartialOrd<$num> for $t {
            #[inline]
            fn partial_cmp(&self, o: &$num) -> Option<std::cmp::Ordering> {
                $big::from(*self).partial_cmp(&o.0)
            }
        }
        scalar_ops!(@op $num $big $t, Add add AddAssign add_assign);
        scalar_ops!(@op $num $big $t, Sub sub SubAssign sub_assign);
        scalar_ops!(@op $num $big $t, Mul mul MulAssign mul_assign);
        scalar_ops!(@op $num $big $t, Div div DivAssign div_assign);
        scalar_ops!(@op $num $big $t, Rem rem RemAssign rem_assign);
    )*};
    (@op $num:ident $big:ident $t:ty, $op:ident $f:ident $opa:ident $fa:ident) => {
        impl $op<$t> for $num {
            type Output = $num;
            #[inline]
            fn $f(self, o: $t) -> $num { $num($op::$f(self.0, $big::from(o))) }
        }
        impl $op<$num> for $t {
            type Output = $num;
            #[inline]
            fn $f(self, o: $num) -> $num { $num($op::$f($big::from(self), o.0)) }
        }
        impl $opa<$t> for $num {
            #[inline]
            fn $fa(&mut self, o: $t) { $opa::$fa(&mut self.0, $big::from(o)) }
        }
    };
}
scalar_ops!(Nat, BigUint: u8 u16 u32 u64 u128 usize);
scalar_ops!(Int, BigInt: u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize);

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
impl From<Nat> for BigInt {
    fn from(n: Nat) -> BigInt {
        BigInt::from(n.0)
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
    static_prim!(Nat);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_nat(self)
    }
    direct_leaf!();
    #[inline]
    fn _decode_direct_vec(d: crate::de::Direct<'_, '_>) -> Option<Vec<Self>> {
        d.vec_nat()
    }
}
impl CandidType for Int {
    fn _ty() -> Type {
        TypeInner::Int.into()
    }
    static_prim!(Int);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_int(self)
    }
    direct_leaf!();
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

pub(crate) struct NatVisitor;
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
        match BytesTag::split(v) {
            Some((BytesTag::Nat, rest)) => Ok(Nat(biguint_from_le(rest))),
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

pub(crate) struct IntVisitor;
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
        match BytesTag::split(v) {
            Some((BytesTag::Int, rest)) => Ok(Int(bigint_from_signed_le(rest))),
            Some((BytesTag::Nat, rest)) => Ok(Int(BigInt::from(biguint_from_le(rest)))),
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
        // Powers of three: irregular bits across every digit of a block.
        let mut bigs = vec![
            BigUint::from(u64::MAX) * 1_000_000u64 + 17u64,
            BigUint::from(3u8).pow(5_000),
            BigUint::from(3u8).pow(5_001),
        ];
        for shift in [
            31u32, 32, 33, 63, 64, 70, 111, 112, 113, 119, 120, 126, 127, 128, 129, 223, 224, 225,
            255, 256, 257, 447, 448, 449, 640, 100_000,
        ] {
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
        let mut ints = vec![
            BigInt::from(i64::MIN) * 12345,
            BigInt::from(i64::MAX) * 3,
            BigInt::from(-64),
        ];
        // Both signs around the sizes where the last group fills a byte exactly
        // (7 × 8 = 56 bits) or leaves a part to sign-extend.
        for shift in [
            31u32, 32, 33, 55, 56, 62, 63, 64, 69, 70, 111, 112, 126, 127, 128, 640,
        ] {
            let p = BigInt::from(1) << shift;
            for v in [p.clone(), &p - 1, -p.clone(), -&p + 1, -&p - 1] {
                ints.push(v);
            }
        }
        // Negative values whose two's complement carries across zero limbs, and
        // magnitudes with zero limbs in the middle.
        for k in [64u32, 128, 192] {
            for low in [0u64, 1, u64::MAX] {
                let v = (BigInt::from(1) << (k + 7)) + BigInt::from(low);
                ints.push(-v.clone());
                ints.push(v);
            }
        }
        for v in ints {
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
