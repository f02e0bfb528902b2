//! Encoding Rust values to Candid bytes.
//!
//! A message is `DIDL`, the type table, the argument types, then the values. The
//! header depends only on the Rust argument types, so it is built once per list of
//! types and copied afterwards (`table::cached_header`); values are written
//! straight into the output buffer.

mod arguments;
pub(crate) mod const_header;
mod dynamic;
mod size_hints;
mod static_flat;
mod static_merge;
pub(crate) mod static_table;
mod static_walk;
pub mod table;

use crate::error::{Error, Result};
use crate::types::{self, CandidType, TypeId};
use crate::wire::inline_vec::InlineVec;
use crate::wire::leb;
use crate::wire::short_copy;
pub use arguments::ArgumentEncoder;
pub use static_table::StaticPath;
pub use table::TypeSerialize;

/// Writes values (no types) into a byte buffer.
pub struct ValueSerializer {
    value: Vec<u8>,
    /// Whether vectors reserve room for their elements from the size of their first
    /// one. Off when the buffer was already sized from the last message of the same
    /// types: an estimate can only be worse than that, and a reused buffer must not
    /// grow beyond what the message needs.
    estimate: bool,
}

impl Default for ValueSerializer {
    fn default() -> Self {
        Self::new()
    }
}

impl ValueSerializer {
    /// A serializer with an empty buffer.
    #[inline]
    pub fn new() -> Self {
        ValueSerializer {
            value: Vec::new(),
            estimate: true,
        }
    }
    /// A serializer that appends to `buf` (`estimate`: see the field).
    #[inline]
    pub(crate) fn with_buffer(buf: Vec<u8>, estimate: bool) -> Self {
        ValueSerializer {
            value: buf,
            estimate,
        }
    }
    /// The bytes written so far.
    pub fn get_result(&self) -> &[u8] {
        &self.value
    }
    pub(crate) fn into_inner(self) -> Vec<u8> {
        self.value
    }
    #[doc(hidden)]
    #[inline]
    pub fn write_leb128(&mut self, value: u64) -> Result<()> {
        leb::write_u64(&mut self.value, value);
        Ok(())
    }
    #[doc(hidden)]
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.value.extend_from_slice(bytes);
        Ok(())
    }
    /// Reserves room for `additional` more bytes.
    pub fn try_reserve(
        &mut self,
        additional: usize,
    ) -> std::result::Result<(), std::collections::TryReserveError> {
        self.value.try_reserve(additional)
    }
}

/// Appends `bytes` after their length (LEB128), as a text is written. Up
/// to 15 bytes the length is one byte, and it goes into the same 16-byte word pair
/// as the bytes ([`append`]): one store instead of a push and a store. The length
/// test is inlined into the caller, so a longer text costs no call more than a
/// length and an [`append`].
#[inline(always)]
pub(crate) fn append_with_len(out: &mut Vec<u8>, bytes: &[u8]) {
    if bytes.len() > 15 {
        leb::write_u64(out, bytes.len() as u64);
        append(out, bytes);
    } else {
        append_short_with_len(out, bytes);
    }
}

/// [`append_with_len`] of at most 15 bytes.
#[inline]
fn append_short_with_len(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    let (lo, hi) = short_words(bytes);
    // The pair shifted up one byte, the length (below 0x80: its LEB128 form is
    // itself) in the byte freed; at most 15 bytes, so nothing is shifted out.
    let first = lo << 8 | n as u64;
    let second = hi << 8 | lo >> 56;
    let mut words = [0u8; 16];
    let (a, b) = words.split_at_mut(8);
    a.copy_from_slice(&first.to_le_bytes());
    b.copy_from_slice(&second.to_le_bytes());
    let len = out.len();
    out.extend_from_slice(&words);
    out.truncate(len + 1 + n);
}

/// Appends `bytes` to `out`. Short slices (principals, names, memos: most of the text
/// and blobs in a message) never take `memory.copy`, whose fixed cost in a canister
/// is several times that of the loads: up to 16 bytes are gathered into one 16-byte
/// word pair with a few overlapping loads and appended with a fixed-size store, the
/// surplus cut off; up to `SHORT_COPY` are copied by words (`wire/short_copy.rs`).
#[inline]
pub(crate) fn append(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    if n > 16 {
        short_copy::push_short(out, bytes);
        return;
    }
    let (lo, hi) = short_words(bytes);
    let mut words = [0u8; 16];
    let (a, b) = words.split_at_mut(8);
    a.copy_from_slice(&lo.to_le_bytes());
    b.copy_from_slice(&hi.to_le_bytes());
    let len = out.len();
    out.extend_from_slice(&words);
    out.truncate(len + n);
}

/// The bytes of a slice of at most 16 bytes as two little-endian words (bytes past
/// the end are unspecified), read with overlapping loads of the slice's first and
/// last bytes instead of a loop.
#[inline]
fn short_words(bytes: &[u8]) -> (u64, u64) {
    let n = bytes.len();
    let word = |at: usize| {
        bytes
            .get(at..)
            .and_then(|r| r.first_chunk::<8>())
            .map_or(0, |w| u64::from_le_bytes(*w))
    };
    let half = |at: usize| {
        bytes
            .get(at..)
            .and_then(|r| r.first_chunk::<4>())
            .map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
    };
    let byte = |at: usize| bytes.get(at).map_or(0, |&b| u64::from(b));
    if n >= 8 {
        // The last eight bytes hold bytes n-8..n; shifted down they give 8..n.
        let last = word(n - 8);
        // (At n = 8 the second word is all past the end: any shift will do.)
        (word(0), last.wrapping_shr(8 * (16 - n) as u32))
    } else if n >= 4 {
        (half(0) | (half(n - 4) << (8 * (n - 4))), 0)
    } else if n > 0 {
        (
            byte(0) | (byte(n / 2) << (8 * (n / 2))) | (byte(n - 1) << (8 * (n - 1))),
            0,
        )
    } else {
        (0, 0)
    }
}

macro_rules! fixed {
    ($($name:ident: $t:ty),*) => {$(
        #[inline]
        fn $name(self, v: $t) -> Result<()> {
            self.value.extend_from_slice(&v.to_le_bytes());
            Ok(())
        }
    )*};
}

impl<'a> types::Serializer for &'a mut ValueSerializer {
    type Error = Error;
    type Compound = Compound<'a>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.value.push(u8::from(v));
        Ok(())
    }
    fn serialize_int(self, v: &crate::types::number::Int) -> Result<()> {
        crate::types::number::encode_bigint(&mut self.value, &v.0);
        Ok(())
    }
    fn serialize_nat(self, v: &crate::types::number::Nat) -> Result<()> {
        crate::types::number::encode_biguint(&mut self.value, &v.0);
        Ok(())
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result<()> {
        // Most values fit 64 bits, whose writer avoids 128-bit shifts (emulated on
        // wasm32); the bytes are the same.
        match i64::try_from(v) {
            Ok(small) => leb::write_i64(&mut self.value, small),
            Err(_) => leb::write_i128(&mut self.value, v),
        }
        Ok(())
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        match u64::try_from(v) {
            Ok(small) => leb::write_u64(&mut self.value, small),
            Err(_) => leb::write_u128(&mut self.value, v),
        }
        Ok(())
    }
    fixed!(
        serialize_nat8: u8, serialize_nat16: u16, serialize_nat32: u32, serialize_nat64: u64,
        serialize_int8: i8, serialize_int16: i16, serialize_int32: i32, serialize_int64: i64,
        serialize_float32: f32, serialize_float64: f64
    );
    #[inline(always)]
    fn serialize_text(self, v: &str) -> Result<()> {
        append_with_len(&mut self.value, v.as_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_null(self, _v: ()) -> Result<()> {
        Ok(())
    }
    fn serialize_empty(self) -> Result<()> {
        Err(Error::msg("cannot encode empty type"))
    }
    #[inline]
    fn serialize_principal(self, blob: &[u8]) -> Result<()> {
        self.value.push(1);
        leb::write_u64(&mut self.value, blob.len() as u64);
        append(&mut self.value, blob);
        Ok(())
    }
    fn serialize_function(self, blob: &[u8], meth: &str) -> Result<()> {
        self.value.push(1);
        self.serialize_principal(blob)?;
        self.serialize_text(meth)
    }
    #[inline]
    fn serialize_option<T: CandidType + ?Sized>(self, v: Option<&T>) -> Result<()> {
        match v {
            None => {
                self.value.push(0);
                Ok(())
            }
            Some(v) => {
                self.value.push(1);
                v.idl_serialize(self)
            }
        }
    }
    #[inline]
    fn serialize_variant(self, index: u64) -> Result<Compound<'a>> {
        leb::write_u64(&mut self.value, index);
        Ok(Compound {
            start: 0,
            ser: self,
        })
    }
    #[inline]
    fn serialize_struct(self) -> Result<Compound<'a>> {
        Ok(Compound {
            start: 0,
            ser: self,
        })
    }
    #[inline]
    fn serialize_vec(self, len: usize) -> Result<Compound<'a>> {
        leb::write_u64(&mut self.value, len as u64);
        Ok(Compound {
            start: self.value.len(),
            ser: self,
        })
    }
    #[inline]
    fn serialize_blob(self, blob: &[u8]) -> Result<()> {
        // Blobs are mostly longer than `append_with_len`'s 15 bytes (subaccounts,
        // hashes, payloads): its test would only add a branch.
        leb::write_u64(&mut self.value, blob.len() as u64);
        append(&mut self.value, blob);
        Ok(())
    }
}

/// The writer for the parts of a record, variant or vector.
pub struct Compound<'a> {
    ser: &'a mut ValueSerializer,
    /// Where the first element of a vector starts (for the reservation after it).
    start: usize,
}

/// The most a vector reserves at once from its sampled elements
/// ([`reserve_for_rest`](types::Compound::reserve_for_rest)): the estimate is only
/// as good as the samples are typical, and a large first or last element among small
/// ones must not reserve a multiple of itself. Past this the buffer grows by
/// doubling, whose copies are then a small part of the work.
const MAX_ESTIMATE: usize = 1 << 20;

impl types::Compound for Compound<'_> {
    type Error = Error;
    #[inline]
    fn serialize_element<T: CandidType + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.idl_serialize(&mut *self.ser)
    }
    fn serialize_blob(&mut self, blob: &[u8]) -> Result<()> {
        use crate::types::Serializer;
        self.ser.serialize_blob(blob)
    }
    #[inline]
    fn try_write_raw_elements(&mut self, bytes: &[u8]) -> Result<bool> {
        append(&mut self.ser.value, bytes);
        Ok(true)
    }
    #[inline]
    fn reserve_like_first(&mut self, remaining: usize) {
        if !self.ser.estimate {
            return;
        }
        let first = self.ser.value.len().saturating_sub(self.start);
        self.ser.reserve_for(first, remaining);
    }
    #[inline]
    fn reserve_for_rest<T: CandidType>(&mut self, rest: &[T]) {
        if !self.ser.estimate {
            return;
        }
        let first = self.ser.value.len().saturating_sub(self.start);
        if rest.len() < SAMPLE_FROM {
            self.ser.reserve_for(first, rest.len());
        } else {
            self.ser.estimate_long(first, rest);
        }
    }
    #[inline]
    fn reserve_for_rest_ending<T: CandidType>(&mut self, remaining: usize, last: &T) {
        if !self.ser.estimate {
            return;
        }
        let first = self.ser.value.len().saturating_sub(self.start);
        if remaining < SAMPLE_FROM {
            self.ser.reserve_for(first, remaining);
        } else {
            self.ser.estimate_long_ending(first, remaining, last);
        }
    }
}

/// The fewest elements after the first for which a vector samples its last element:
/// in a shorter one the sample is a large share of the vector's work, and its buffer
/// is small enough that growing it costs little.
const SAMPLE_FROM: usize = 256;

/// Room for `remaining` elements of `size` bytes each, at most `MAX_ESTIMATE`.
#[inline]
fn estimate(size: usize, remaining: usize) -> usize {
    size.saturating_mul(remaining).min(MAX_ESTIMATE)
}

impl ValueSerializer {
    /// [`reserve_for_rest`](types::Compound::reserve_for_rest) for a long vector
    /// whose first element took `first` bytes. Out of line, and a method of the
    /// serializer rather than of the [`Compound`]: a call taking the compound by
    /// reference would keep it in memory instead of locals while the vector's
    /// elements are written.
    #[inline(never)]
    fn estimate_long<T: CandidType>(&mut self, first: usize, rest: &[T]) {
        let size = match rest.last() {
            Some(last) => self.sampled(first, last, rest.len()),
            None => first,
        };
        self.reserve_for(size, rest.len());
    }
    /// [`estimate_long`](Self::estimate_long) given the count of elements still to
    /// come and the last of them.
    #[inline(never)]
    fn estimate_long_ending<T: CandidType>(&mut self, first: usize, remaining: usize, last: &T) {
        let size = self.sampled(first, last, remaining);
        self.reserve_for(size, remaining);
    }
    /// Reserves room for `remaining` more elements of `size` bytes each.
    #[inline]
    fn reserve_for(&mut self, size: usize, remaining: usize) {
        let estimate = estimate(size, remaining);
        // With `SLACK` on top, as the next message of these types reserves it: a buffer
        // that the estimate sized exactly then fits that message too.
        if self.value.capacity() - self.value.len() < estimate + SLACK {
            self.value.reserve(estimate + SLACK);
        }
    }
    /// The element size a vector reserves for: the larger of its first element's
    /// `first` bytes and the size of its `last` element, written past the end of the
    /// buffer and taken back. Falling short costs a second, larger buffer and the
    /// copy into it, while overshooting costs only the spare room, which a new
    /// message gives back.
    ///
    /// The sample is one element more to encode: worth it only where the vector is
    /// about to reserve, not where the room is there already (inside an element of
    /// a vector that reserved for it) or the first element alone reaches the cap.
    /// Vectors inside the sample reserve nothing (the sample would size itself, and
    /// a deep last element would be written once per level). A sample that fails to
    /// encode counts as empty; the element reports its error when written in turn.
    #[cold]
    #[inline(never)]
    fn sampled<T: CandidType>(&mut self, first: usize, last: &T, remaining: usize) -> usize {
        let room = self.value.capacity() - self.value.len();
        let estimate = estimate(first, remaining);
        if room >= estimate + SLACK || estimate == MAX_ESTIMATE {
            return first;
        }
        let mark = self.value.len();
        self.estimate = false;
        let written = last.idl_serialize(&mut *self);
        self.estimate = true;
        let size = match written {
            Ok(()) => self.value.len() - mark,
            Err(_) => 0,
        };
        self.value.truncate(mark);
        first.max(size)
    }
}

/// Builds a message argument by argument (candid's `IDLBuilder`).
#[derive(Default)]
pub struct IDLBuilder {
    /// The argument types so far: the key of the cached header. Inline, so a
    /// builder allocates only its output.
    key: InlineVec<TypeId, 8>,
    types: InlineVec<Option<fn() -> types::Type>, 8>,
    value_ser: ValueSerializer,
    /// Types of the arguments given at run time ([`value_arg`](Self::value_arg)),
    /// one per `None` in `types`: such a message's header is built, not cached.
    dynamic: Option<Box<dynamic::DynamicTypes>>,
}

impl IDLBuilder {
    /// A builder with no arguments yet.
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends one argument.
    pub fn arg<'a, T: CandidType + ?Sized>(&'a mut self, value: &T) -> Result<&'a mut Self> {
        self.key.push(TypeId::of::<T>());
        self.types.push(Some(T::ty));
        value.idl_serialize(&mut self.value_ser)?;
        Ok(self)
    }
    /// Reserves room in the value buffer ahead of a large argument.
    pub fn try_reserve_value_serializer_capacity(
        &mut self,
        additional: usize,
    ) -> std::result::Result<(), std::collections::TryReserveError> {
        self.value_ser.try_reserve(additional)
    }
    fn header(&self) -> Result<std::rc::Rc<table::CachedHeader>> {
        if let Some(d) = &self.dynamic {
            // Headers of run-time types are built per message (no Rust type to key
            // a cache by).
            let bytes = d.header(self.types.as_slice())?;
            return Ok(std::rc::Rc::new(table::CachedHeader {
                bytes: bytes.to_vec(),
                size_hint: std::cell::Cell::new(0),
            }));
        }
        table::cached_header(
            self.key.as_slice(),
            || None,
            |ts| {
                for ty in self.types.as_slice().iter().flatten() {
                    ts.push_type(&ty())?;
                }
                Ok(())
            },
        )
    }
    /// Writes the whole message to `writer`.
    pub fn serialize<W: std::io::Write>(&mut self, mut writer: W) -> Result<()> {
        writer.write_all(&self.header()?.bytes)?;
        writer.write_all(self.value_ser.get_result())?;
        Ok(())
    }
    /// Appends the whole message to `out`, for a caller that reuses one buffer from
    /// message to message (with [`clear`](Self::clear), nothing is allocated once the
    /// buffers have grown to fit).
    pub fn serialize_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        let header = self.header()?;
        let values = self.value_ser.get_result();
        out.reserve(header.bytes.len() + values.len());
        out.extend_from_slice(&header.bytes);
        out.extend_from_slice(values);
        Ok(())
    }
    /// Forgets the arguments given so far and keeps the buffers' capacity, so the
    /// builder can build the next message without allocating.
    pub fn clear(&mut self) {
        // Both stores are inline up to eight arguments, so resetting them frees nothing.
        self.key = InlineVec::default();
        self.types = InlineVec::default();
        self.value_ser.value.clear();
        // The buffer has the room the last message needed.
        self.value_ser.estimate = false;
        self.dynamic = None;
    }
    /// The whole message.
    pub fn serialize_to_vec(&mut self) -> Result<Vec<u8>> {
        // An empty vector reserves exactly the message: one allocation, no spare.
        let mut out = Vec::new();
        self.serialize_into(&mut out)?;
        Ok(out)
    }
}

/// Hidden, for the differential tests: the header (after the magic) of a message of
/// `Tuple`, written from the static descriptions (`None` if a type has none) and from
/// `ty()` after clearing the memo, as [`TypeSerialize`] writes it.
#[doc(hidden)]
pub fn headers_both_ways<Tuple: ArgumentEncoder>() -> (Option<Vec<u8>>, Result<Vec<u8>>) {
    let from_static = Tuple::_static_header().map(|h| h.get(4..).unwrap_or_default().to_vec());
    types::internal::env_clear();
    let mut ts = TypeSerialize::new();
    let from_ty = Tuple::push_types(&mut ts).and_then(|()| ts.finish());
    (from_static, from_ty)
}

/// Hidden, for tests: how many headers this thread computed to keep (one per
/// argument tuple type, on its first message).
#[doc(hidden)]
pub fn headers_kept() -> u64 {
    table::headers_kept()
}

/// Marks the cache key of a whole argument tuple, so it never collides with a
/// builder whose single argument has the tuple's type.
struct ArgsOf<T: ?Sized>(std::marker::PhantomData<T>);

/// Room reserved beyond the expected message size: the widest single store of the
/// writers (16 bytes, which `append` writes before cutting back to the bytes it
/// copies) plus as much again for a message a little longer than the last one, so
/// such a message never grows the buffer.
const SLACK: usize = 32;

/// Messages at least this long are kept at their exact size: giving back the spare
/// room is one reallocation that shrinks in place, small next to writing that many
/// bytes, and it makes a kept large message take what candid's does (candid writes a
/// large value into its message with one exact reservation).
const EXACT_FROM: usize = 4096;

/// Encodes a tuple of arguments into a new message with at most `SLACK` bytes of
/// spare capacity, and none from `EXACT_FROM` bytes on.
pub(crate) fn encode_args_owned<Tuple: ArgumentEncoder>(args: &Tuple) -> Result<Vec<u8>> {
    let mut out = if let Some((h, short)) = Tuple::_const_message() {
        // The compiler wrote the header: nothing to find or keep, nor any size
        // when the values always fit the slack.
        let hint = if short { None } else { size_hints::get(h) };
        let mut out = Vec::with_capacity(hint.unwrap_or(h.len()) + SLACK);
        write_const(h, (short, hint), args, &mut out)?;
        out
    } else {
        let header = tuple_header::<Tuple>()?;
        // Made at its size: reserving on an empty vector takes the growth path,
        // which costs more than the allocation itself.
        let mut out = Vec::with_capacity(header.size_hint.get() + SLACK);
        write_message(&header, args, &mut out)?;
        out
    };
    // A short message the size of the last ones fits the reservation with at most
    // `SLACK` bytes to spare, and keeps them: giving those back too would cost a
    // reallocation as large as a short message's whole encoding, and most messages
    // (replies) are dropped as soon as they are sent. Anything more (growth by
    // doubling, or a message shorter than the reservation, as when sizes alternate)
    // is given back. Shrinking a block in place does not copy it.
    let spare = out.capacity() - out.len();
    if spare > SLACK || (spare > 0 && out.len() >= EXACT_FROM) {
        out.shrink_to_fit();
    }
    Ok(out)
}

/// Appends the message for `args` to `out`; on an error `out` is as it was.
///
/// The first message of a tuple type builds and caches its header; later ones copy
/// it. Capacity is reserved once from the size the last message of this type had,
/// so a caller that reuses `out` allocates nothing once it has grown to fit.
pub(crate) fn append_message<Tuple: ArgumentEncoder>(
    args: &Tuple,
    out: &mut Vec<u8>,
) -> Result<()> {
    if let Some((h, short)) = Tuple::_const_message() {
        let hint = if short { None } else { size_hints::get(h) };
        out.reserve(hint.unwrap_or(h.len()) + SLACK);
        return write_const(h, (short, hint), args, out);
    }
    let header = tuple_header::<Tuple>()?;
    out.reserve(header.size_hint.get() + SLACK);
    write_message(&header, args, out)
}

/// The header a message of `Tuple` starts with, computed afresh and not kept.
pub(crate) fn header_bytes<Tuple: ArgumentEncoder>() -> Result<Vec<u8>> {
    table::uncached_header(Tuple::_static_header, Tuple::push_types)
}

/// The cached header of the argument tuple `Tuple`.
#[inline(always)]
fn tuple_header<Tuple: ArgumentEncoder>() -> Result<std::rc::Rc<table::CachedHeader>> {
    table::cached_tuple_header(
        TypeId::of::<ArgsOf<Tuple>>(),
        Tuple::_static_header,
        Tuple::push_types,
    )
}

/// Appends `header` and the values of `args` to `out`, whose room the caller has
/// reserved, and updates the header's size hint; on an error `out` is as it was.
#[inline(always)]
fn write_message<Tuple: ArgumentEncoder>(
    header: &table::CachedHeader,
    args: &Tuple,
    out: &mut Vec<u8>,
) -> Result<()> {
    let start = out.len();
    // The hint is the header alone until a message of these types has been written.
    let first = header.size_hint.get() == header.bytes.len();
    write_after(&header.bytes, first, args, out)?;
    // Half way from the last hint to this size, but never below it: messages that
    // alternate between two sizes (an optional field set every other time) reserve
    // about the larger one, instead of growing the buffer every other message.
    let len = out.len() - start;
    let hint = header.size_hint.get();
    header.size_hint.set(len.max(hint / 2 + len / 2));
    Ok(())
}

/// Appends `header`, which the compiler wrote, and the values of `args` to `out`,
/// whose room the caller reserved from `hint` (what the last long messages of
/// this header took, `size_hints.rs`), and records the hint for the next, unless
/// the values are always `short` (within the slack).
#[inline(always)]
fn write_const<Tuple: ArgumentEncoder>(
    header: &'static [u8],
    (short, hint): (bool, Option<usize>),
    args: &Tuple,
    out: &mut Vec<u8>,
) -> Result<()> {
    if short {
        return write_after(header, true, args, out);
    }
    let start = out.len();
    write_after(header, hint.is_none(), args, out)?;
    if let Some(next) = size_hints::next(hint, out.len() - start, header.len(), SLACK) {
        size_hints::record(header, next);
    }
    Ok(())
}

/// Appends `header` and the values of `args` to `out` (`estimate`: vectors
/// reserve from their first elements, as no hint has sized `out`); on an error
/// `out` is as it was.
#[inline(always)]
fn write_after<Tuple: ArgumentEncoder>(
    header: &[u8],
    estimate: bool,
    args: &Tuple,
    out: &mut Vec<u8>,
) -> Result<()> {
    let start = out.len();
    short_copy::push_short(out, header);
    let mut ser = ValueSerializer::with_buffer(std::mem::take(out), estimate);
    let written = args.write_values(&mut ser);
    *out = ser.into_inner();
    if let Err(e) = written {
        out.truncate(start);
        return Err(e);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{append, ValueSerializer};
    use crate::types::Serializer;
    use crate::wire::leb;

    #[test]
    fn wide_integers_take_the_64_bit_writers_with_the_same_bytes() {
        for k in 0..128u32 {
            let p = 1u128 << k;
            for u in [p - 1, p, p + 1] {
                let mut ser = ValueSerializer::new();
                ser.serialize_u128(u).unwrap();
                let mut want = Vec::new();
                leb::write_u128(&mut want, u);
                assert_eq!(ser.get_result(), &want[..], "{u}");
            }
            let q = 1i128 << k.min(126);
            for i in [q - 1, q, -q, -q - 1, i128::MIN, i128::MAX] {
                let mut ser = ValueSerializer::new();
                ser.serialize_i128(i).unwrap();
                let mut want = Vec::new();
                leb::write_i128(&mut want, i);
                assert_eq!(ser.get_result(), &want[..], "{i}");
            }
        }
    }

    #[test]
    fn append_with_len_writes_the_length_then_the_bytes() {
        let src: Vec<u8> = (0x80..=0xd0).collect();
        for prefix in [0usize, 1, 7, 8, 13] {
            for n in 0..=src.len() {
                let mut out = vec![0xee; prefix];
                super::append_with_len(&mut out, &src[..n]);
                let mut want = vec![0xee; prefix];
                crate::wire::leb::write_u64(&mut want, n as u64);
                want.extend_from_slice(&src[..n]);
                assert_eq!(out, want, "prefix {prefix}, length {n}");
            }
        }
    }

    #[test]
    fn append_copies_every_length() {
        let src: Vec<u8> = (1..=40).collect();
        for prefix in [0usize, 1, 7, 8, 13] {
            for n in 0..=src.len() {
                let mut out = vec![0xee; prefix];
                append(&mut out, &src[..n]);
                assert_eq!(out.len(), prefix + n);
                assert!(out[..prefix].iter().all(|&b| b == 0xee));
                assert_eq!(&out[prefix..], &src[..n], "prefix {prefix}, length {n}");
            }
        }
    }
}
