//! The serde `Deserializer` for one value: a frame holding the wire type and the
//! expected type of that value, and a borrow of the shared [`DecodeState`].
//!
//! Every method charges the decoding quota exactly as candid 0.10.39 does for the
//! same serde call (see `spec/limits.md`), so a canister's quota accepts and rejects
//! the same messages after switching.

use super::access::{EnumAccess, MapAccess, StructAccess, TupleAccess, VecAccess};
use super::describe::describe;
use super::primvec;
use super::quota;
use super::state::{CaseMemo, DecodeState, PairSpans, VecKind, VecShape};
use crate::error::Result;
use crate::error::{fault, Error, PathSegment};
use crate::types::bytes_tag::BytesTag;
use crate::types::number::leb_to_le_bytes;
use crate::wire::header::{Arena, FieldEntry, Node, Prim, Ref, Span};
use crate::wire::leb;
use serde::de::{self, Visitor};

thread_local! {
    static SPEC_ONLY_READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts a value read by a coercion of the spec that candid refuses
/// (`spec/differences.md` D12: a blob from an empty vector of another type).
fn count_spec_only_read() {
    SPEC_ONLY_READS.with(|n| n.set(n.get().wrapping_add(1)));
}

/// How many values this thread read by such coercions.
pub(crate) fn spec_only_reads() -> u64 {
    SPEC_ONLY_READS.with(std::cell::Cell::get)
}

const NAT: Ref = Ref::prim(Prim::Nat);
const INT: Ref = Ref::prim(Prim::Int);
const PRINCIPAL: Ref = Ref::prim(Prim::Principal);

/// One value to decode: its wire type `w` and expected type `e`.
///
/// The two types are kept packed in one word (`pair`), so a frame is a pair of
/// scalars, which a call passes in two arguments: every `Deserialize` impl that is
/// not inlined takes its frame that way rather than through memory.
pub(crate) struct De<'a, 'de> {
    pub state: &'a mut DecodeState<'de>,
    /// The wire type in the low half, the expected type in the high half.
    pair: u64,
}

/// A reference as the 32 bits it is made of (its index and var bit).
#[inline(always)]
fn ref_bits(r: Ref) -> u64 {
    u64::from(r.idx()) | if r.is_var() { 1 << 31 } else { 0 }
}

/// The reference [`ref_bits`] made.
#[inline(always)]
fn ref_of(bits: u32) -> Ref {
    Ref::new(bits & !(1 << 31), bits & (1 << 31) != 0)
}

/// What `deserialize_bytes` reads: a principal (still to read), or a blob's bytes.
enum Bytes<'a, 'de> {
    Principal(De<'a, 'de>),
    Blob(&'de [u8]),
}

/// Records whose Rust value takes more than this many bytes are handed back in
/// the `Result` their visitor returned (`De::record`). In a canister a move is a
/// copy priced by the byte, so for a large struct one move fewer outweighs the
/// extra test of that result; for smaller ones (and struct variants, which are
/// moved into their enum anyway) the plain shape is the cheaper one.
const BIG_VALUE: usize = 128;

/// Texts and blobs up to this many bytes are copied by words (see [`owned_bytes`]).
const SHORT_COPY: usize = 64;

/// An owned copy of `b`. In a canister `memory.copy` has a fixed price larger than
/// a whole short copy done by loads and stores, and most texts and blobs of a
/// message (names, keys, hashes, principals) are short; so a copy of at most
/// [`SHORT_COPY`] bytes is two overlapping runs of fixed-size words, one from each
/// end, with no loop. Longer ones are copied by `memory.copy`.
#[inline(always)]
pub(super) fn owned_bytes(b: &[u8]) -> Vec<u8> {
    owned_bytes_or(b).0
}

/// The high bit of every byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// [`owned_bytes`], with the bitwise OR of every word it copied: a short copy's
/// bytes are all ASCII exactly when that OR has no byte's high bit set (the runs
/// cover every byte). A long copy, made by `memory.copy`, reports all high bits
/// set: not tested.
#[inline(always)]
fn owned_bytes_or(b: &[u8]) -> (Vec<u8>, u64) {
    let n = b.len();
    if n > SHORT_COPY {
        return (b.to_vec(), HIGH_BITS);
    }
    let mut v = Vec::<u8>::with_capacity(n);
    let (src, dst) = (b.as_ptr(), v.as_mut_ptr());
    // SAFETY: `b` holds `n` bytes and `v` has room for `n`, in two distinct
    // allocations. Each branch copies words that lie inside the first `n` bytes:
    // a run of `k` bytes starts at 0 or at `n - k`, and is taken only when
    // `k <= n`. Together the two runs cover all `n` bytes, so every byte below the
    // length set at the end has been written.
    let or = unsafe {
        let or = if n >= 32 {
            words::<4>(src, dst, 0) | words::<4>(src, dst, n - 32)
        } else if n >= 16 {
            words::<2>(src, dst, 0) | words::<2>(src, dst, n - 16)
        } else if n >= 8 {
            words::<1>(src, dst, 0) | words::<1>(src, dst, n - 8)
        } else if n >= 4 {
            half(src, dst, 0) | half(src, dst, n - 4)
        } else if n > 0 {
            byte(src, dst, 0) | byte(src, dst, n / 2) | byte(src, dst, n - 1)
        } else {
            0
        };
        v.set_len(n);
        or
    };
    (v, or)
}

/// Copies `K` eight-byte words from `src + at` to `dst + at`, each a fixed-size
/// load and store (never `memory.copy`), and returns their bitwise OR.
///
/// # Safety
///
/// `src + at .. src + at + 8 * K` must be readable and the same range of `dst`
/// writable, and the two must not overlap.
#[inline(always)]
unsafe fn words<const K: usize>(src: *const u8, dst: *mut u8, at: usize) -> u64 {
    let mut or = 0;
    for i in 0..K {
        // SAFETY: inside the range the caller vouches for.
        unsafe {
            let w = std::ptr::read_unaligned(src.add(at + 8 * i).cast::<u64>());
            std::ptr::write_unaligned(dst.add(at + 8 * i).cast::<u64>(), w);
            or |= w;
        }
    }
    or
}

/// [`words`] for one four-byte word.
///
/// # Safety
///
/// As [`words`], for `src + at .. src + at + 4`.
#[inline(always)]
unsafe fn half(src: *const u8, dst: *mut u8, at: usize) -> u64 {
    // SAFETY: inside the range the caller vouches for.
    unsafe {
        let w = std::ptr::read_unaligned(src.add(at).cast::<u32>());
        std::ptr::write_unaligned(dst.add(at).cast::<u32>(), w);
        u64::from(w)
    }
}

/// [`words`] for the one byte at `at`.
///
/// # Safety
///
/// As [`words`], for the byte at `src + at`.
#[inline(always)]
unsafe fn byte(src: *const u8, dst: *mut u8, at: usize) -> u64 {
    // SAFETY: inside the range the caller vouches for.
    unsafe {
        let b = *src.add(at);
        *dst.add(at) = b;
        u64::from(b)
    }
}

/// An owned copy of `s`, as [`owned_bytes`].
#[inline]
pub(super) fn owned_text(s: &str) -> String {
    let v = owned_bytes(s.as_bytes());
    // SAFETY: `v` holds exactly the bytes of `s`, in order, and `s` is valid
    // UTF-8; validating them again would cost more than the copy.
    unsafe { String::from_utf8_unchecked(v) }
}

/// The text of a frame of wire type `w` and expected type `e`, checked, read,
/// charged and copied as `deserialize_string` hands it over. Out of line and not
/// generic: its callers (serde's `String` visitor, mostly) then stay small enough
/// to be inlined where they are used, and the frame travels as three scalars
/// instead of through memory.
#[inline(never)]
fn owned_string(state: &mut DecodeState<'_>, w: Ref, e: Ref) -> Result<String> {
    let text = Ref::prim(Prim::Text);
    if w != text || e != text {
        not_direct_text(state, w, e)?;
    }
    // `DecodeState::text`'s read, with the short ASCII test made on the copy's own
    // words instead of on the input first.
    let n = state.reader.len(1)?;
    // `n` is at most the bytes left in the input, so adding one cannot overflow.
    state.charge(n + quota::CALL)?;
    let at = state.offset();
    let bytes = state.reader.take(n, "text")?;
    let (v, or) = owned_bytes_or(bytes);
    if or & HIGH_BITS != 0 {
        validate_text(bytes, at)?;
    }
    // SAFETY: `v` holds exactly `bytes`, which are ASCII (no high bit in any
    // copied word, and the words cover every byte) or were just validated.
    Ok(unsafe { String::from_utf8_unchecked(v) })
}

/// A text that is not short ASCII, validated as `DecodeState::text` does, out of line:
/// `from_utf8`'s answer goes through memory, which would otherwise give every
/// string's read a stack frame.
#[inline(never)]
fn validate_text(bytes: &[u8], at: usize) -> Result<()> {
    match std::str::from_utf8(bytes) {
        Ok(_) => Ok(()),
        Err(e) => Err(fault::invalid_utf8("text", e, at)),
    }
}

/// `De::prim(Text)` for a frame that is not `text` by direct reference on both
/// sides (a type variable, or a mismatch), out of the way of the common case.
#[cold]
#[inline(never)]
fn not_direct_text(state: &mut DecodeState<'_>, w: Ref, e: Ref) -> Result<()> {
    De::new(state, w, e).prim(Prim::Text)
}

/// What a sequence holds, once its type and length are read (`De::seq_begin`).
pub(super) enum SeqBody<'de> {
    /// A vector of fixed-width numbers (or bools) of type `p`: its elements' bytes,
    /// which start at offset `at`.
    Fixed { p: Prim, data: &'de [u8], at: usize },
    /// A vector of `len` elements of wire type `w` and expected type `e`, each
    /// charged `per_elem` units as it is read.
    Elems {
        len: usize,
        w: Ref,
        e: Ref,
        per_elem: usize,
    },
    /// A tuple record, now the kept tuple pair (`DecodeState::tuple_ok`): its field spans
    /// and first two element types are read from there.
    Tuple,
}

impl<'a, 'de> De<'a, 'de> {
    #[inline(always)]
    pub(super) fn new(state: &'a mut DecodeState<'de>, w: Ref, e: Ref) -> Self {
        De {
            state,
            pair: ref_bits(w) | ref_bits(e) << 32,
        }
    }

    /// The wire type.
    #[inline(always)]
    pub(super) fn w(&self) -> Ref {
        ref_of(self.pair as u32)
    }

    /// The expected type.
    #[inline(always)]
    pub(super) fn e(&self) -> Ref {
        ref_of((self.pair >> 32) as u32)
    }

    /// Replaces both types (with their resolved references, say).
    #[inline(always)]
    fn set(&mut self, w: Ref, e: Ref) {
        self.pair = ref_bits(w) | ref_bits(e) << 32;
    }

    /// Resolves type references, charging one unit for each that names a table
    /// entry or a recursive Rust type (candid's `unroll_type`).
    #[inline(always)]
    fn unroll(&mut self) -> Result<()> {
        let c = usize::from(self.w().is_var()) + usize::from(self.e().is_var());
        if c != 0 {
            self.state.charge(c)?;
            self.set(self.w().resolved(), self.e().resolved());
        }
        Ok(())
    }

    /// [`unroll`](Self::unroll), then `extra` units for the serde call itself, in
    /// one charge when the quota allows (the units and the errors are those of two
    /// charges in that order).
    /// [`unroll_then`](Self::unroll_then) without writing the resolved pair back
    /// into the frame: the caller gets it, and writes it back only on the path
    /// that reads the frame's references again (a shape check, an error).
    #[inline(always)]
    fn unroll_pair(&mut self, extra: usize) -> Result<(Ref, Ref)> {
        let c = usize::from(self.w().is_var()) + usize::from(self.e().is_var());
        self.state.charge_then(c, extra)?;
        Ok((self.w().resolved(), self.e().resolved()))
    }

    #[inline(always)]
    fn unroll_then(&mut self, extra: usize) -> Result<()> {
        let c = usize::from(self.w().is_var()) + usize::from(self.e().is_var());
        self.state.charge_then(c, extra)?;
        self.set(self.w().resolved(), self.e().resolved());
        Ok(())
    }

    /// This frame's (resolved) pair, with the spans its shape check found.
    #[inline(always)]
    fn checked(&self, wf: Span, ef: Span) -> PairSpans {
        PairSpans {
            w: self.w(),
            e: self.e(),
            wf,
            ef,
        }
    }

    #[inline(always)]
    fn nodes(&self) -> (Node, Node) {
        (
            self.state.wire_node(self.w()),
            self.state.expected_node(self.e()),
        )
    }

    /// "expected <e>, found <w>" at the current offset.
    #[cold]
    fn mismatch(&self) -> Error {
        Error::mismatch(
            describe(&self.state.exp, self.e()),
            describe(&self.state.wire, self.w()),
            self.state.offset(),
        )
    }

    #[cold]
    fn internal(&self, what: &str) -> Error {
        Error::msg(format!(
            "the Rust type asked for {what} but its Candid type is {}",
            describe(&self.state.exp, self.e())
        ))
        .at(self.state.offset())
    }

    #[inline(always)]
    fn prim(&mut self, p: Prim) -> Result<()> {
        // Direct references below the primitive count are the primitives themselves
        // (`Arena::node`), so the common case needs no arena lookup at all.
        if self.w() == Ref::prim(p) && self.e() == Ref::prim(p) {
            return Ok(());
        }
        self.unroll()?;
        match self.nodes() {
            (Node::Prim(w), Node::Prim(e)) if w == p && e == p => Ok(()),
            _ => Err(self.mismatch()),
        }
    }

    // ---- bignums ---------------------------------------------------------------

    #[inline(always)]
    fn nat<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.prim(Prim::Nat)?;
        if !self.state.untyped {
            if let Some(x) = self.state.small_nat()? {
                return v.visit_u64(x);
            }
        }
        let bytes = self.big_leb()?;
        let mut out = Vec::with_capacity(bytes.len() + 2);
        out.push(BytesTag::Nat as u8);
        leb_to_le_bytes(bytes, false, &mut out);
        v.visit_byte_buf(out)
    }

    fn int<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        // An `int` read from an `int` or a `nat`, both by direct reference, needs
        // no arena lookup (as `De::prim` checks).
        let is_nat = if self.e() == INT && (self.w() == INT || self.w() == NAT) {
            self.w() == NAT
        } else {
            self.unroll()?;
            if self.state.expected_node(self.e()) != Node::Prim(Prim::Int) {
                return Err(self.internal("int"));
            }
            match self.state.wire_node(self.w()) {
                Node::Prim(Prim::Int) => false,
                Node::Prim(Prim::Nat) => true,
                _ => return Err(self.mismatch()),
            }
        };
        if !self.state.untyped {
            if is_nat {
                if let Some(x) = self.state.small_nat()? {
                    return v.visit_u64(x);
                }
            } else if let Some(x) = self.state.small_int()? {
                return v.visit_i64(x);
            }
        }
        let bytes = self.big_leb()?;
        let mut out = Vec::with_capacity(bytes.len() + 2);
        // An int read from a nat is still an int (candid tags it 0: `IDLValue`
        // decodes `Int`, not `Nat`): its magnitude bytes get a zero sign byte.
        out.push(BytesTag::Int as u8);
        leb_to_le_bytes(bytes, !is_nat, &mut out);
        if is_nat {
            out.push(0);
        }
        v.visit_byte_buf(out)
    }

    /// The bytes of a LEB128 value of any length, charged per byte.
    #[cold]
    fn big_leb(&mut self) -> Result<&'de [u8]> {
        let bytes = self.state.reader.long_leb("nat/int")?;
        self.state.charge(bytes.len())?;
        Ok(bytes)
    }

    /// The start of `deserialize_bytes` and `deserialize_byte_buf`: a principal is
    /// left to [`principal`](Self::principal); a blob (`vec nat8` on both sides) is
    /// read and charged.
    #[inline(always)]
    fn bytes(mut self) -> Result<Bytes<'a, 'de>> {
        self.unroll()?;
        if self.state.blob_ok != (self.w(), self.e()) {
            match self.state.expected_node(self.e()) {
                Node::Prim(Prim::Principal) => return Ok(Bytes::Principal(self)),
                Node::Vec(el) if self.state.expected_node(el) == Node::Prim(Prim::Nat8) => {
                    match self.state.wire_node(self.w()) {
                        Node::Vec(wel) if self.state.wire_node(wel) == Node::Prim(Prim::Nat8) => {}
                        _ => return self.blob_from_other(),
                    }
                    self.state.blob_ok = (self.w(), self.e());
                }
                _ => {
                    return Err(Error::subtype("bytes only takes principal or vec nat8")
                        .at(self.state.offset()))
                }
            }
        }
        let len = self.state.reader.len(1)?;
        // `len` is at most the bytes left in the input: one more cannot overflow.
        self.state.charge(len + quota::CALL)?;
        Ok(Bytes::Blob(self.state.reader.take(len, "blob")?))
    }

    /// [`bytes`](Self::bytes) of a blob expected and something else on the wire:
    /// the empty blob from an empty vector (see
    /// [`empty_vec_as_blob`](Self::empty_vec_as_blob)), else the mismatch.
    #[cold]
    #[inline(never)]
    fn blob_from_other(&mut self) -> Result<Bytes<'a, 'de>> {
        self.empty_vec_as_blob()?;
        Ok(Bytes::Blob(&[]))
    }

    /// `deserialize_any`'s blob (an `IDLValue`) from something else on the wire,
    /// as [`blob_from_other`](Self::blob_from_other).
    #[cold]
    #[inline(never)]
    fn tagged_blob_from_other<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        self.empty_vec_as_blob()?;
        v.visit_byte_buf(vec![BytesTag::Blob as u8])
    }

    /// A blob expected and a vector of another element type on the wire: the
    /// spec coerces a vector element by element, so an empty one is the empty
    /// blob, whatever its element type. Any other value is the mismatch. (candid
    /// reads blobs only from blobs, so it gives `null` inside an `opt`, and an
    /// error outside one; `spec/differences.md` D12.) Charged as the empty blob.
    fn empty_vec_as_blob(&mut self) -> Result<()> {
        let Node::Vec(el) = self.state.wire_node(self.w()) else {
            return Err(self.mismatch());
        };
        let at = self.state.offset();
        let min = self.state.elem_min_size(el.resolved());
        if self.state.reader.len(min)? != 0 {
            return Err(Error::mismatch(
                describe(&self.state.exp, self.e()),
                describe(&self.state.wire, self.w()),
                at,
            ));
        }
        count_spec_only_read();
        self.state.charge(quota::CALL)
    }

    /// A future type expected: only ever a wire type read at itself (no expected
    /// type names one). An old decoder skips what it does not understand, and the
    /// visitor sees `null`, as in candid; the bytes are charged as decoded.
    #[cold]
    #[inline(never)]
    fn future<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        if self.state.wire_node(self.w()) != Node::Future {
            return Err(self.mismatch());
        }
        self.state.read_future()?;
        v.visit_unit()
    }

    // ---- references ------------------------------------------------------------

    fn principal<V: Visitor<'de>>(mut self, v: V, tagged: bool) -> Result<V::Value> {
        if self.w() != PRINCIPAL {
            self.unroll()?;
            if !matches!(
                self.state.wire_node(self.w()),
                Node::Prim(Prim::Principal) | Node::Service(_)
            ) {
                return Err(self.mismatch());
            }
        }
        let bytes = self.state.reader.principal()?;
        self.state.charge(bytes.len().max(quota::PRINCIPAL_MIN))?;
        if tagged {
            let mut buf = [0u8; 30];
            buf[0] = BytesTag::Principal as u8;
            buf[1..=bytes.len()].copy_from_slice(bytes);
            v.visit_bytes(&buf[..=bytes.len()])
        } else {
            v.visit_borrowed_bytes(bytes)
        }
    }

    /// func/service: candid charges a subtype check the size of the type table.
    fn check_reference(&mut self) -> Result<()> {
        self.unroll()?;
        self.state.charge(self.state.table_len)?;
        if self.state.subtype(self.w(), self.e()) {
            Ok(())
        } else {
            Err(self.mismatch())
        }
    }

    fn service<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.check_reference()?;
        let bytes = self.state.reader.principal()?;
        self.state.charge(bytes.len().max(quota::PRINCIPAL_MIN))?;
        let mut buf = [0u8; 30];
        buf[0] = BytesTag::Service as u8;
        buf[1..=bytes.len()].copy_from_slice(bytes);
        v.visit_bytes(&buf[..=bytes.len()])
    }

    fn func<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.check_reference()?;
        let at = self.state.offset();
        if !self.state.reader.bool()? {
            return Err(fault::opaque_reference(at));
        }
        let principal = self.state.reader.principal()?;
        let len = self.state.reader.len(1)?;
        let at = self.state.offset();
        let method = self.state.reader.take(len, "method name")?;
        std::str::from_utf8(method).map_err(|e| fault::invalid_utf8("method name", e, at))?;
        self.state.charge(
            principal
                .len()
                .max(quota::PRINCIPAL_MIN)
                .saturating_add(len)
                .saturating_add(quota::FUNC_REFERENCE),
        )?;
        let mut out = Vec::with_capacity(principal.len() + len + 12);
        out.push(BytesTag::Func as u8);
        leb::write_u64(&mut out, len as u64);
        out.extend_from_slice(method);
        out.extend_from_slice(principal);
        v.visit_byte_buf(out)
    }

    // ---- options ---------------------------------------------------------------

    /// Decodes the value inside an `opt`, or `null` when it does not fit the expected
    /// type. The decision is made here, before the visitor sees anything: by the
    /// memoised type-level check when it suffices, else by a value-level check that
    /// walks the value without building it (the spec's rule is per value).
    ///
    /// A value the check admits can still fail the Rust read, which is narrower
    /// than the type (a tuple from a record whose ids are not 0..n, a map from
    /// entries that are not `record { 0; 1 }`): a subtype error of that read is
    /// turned into `null` by [`opt_failed`], as candid does; other errors
    /// (malformed input, limits, visitor errors) fail the message. Only the offset
    /// where the value begins (`at`) is kept for it: the caller has it at hand, as
    /// it has just read the `opt`'s tag.
    fn some<V: Visitor<'de>>(self, w: Ref, e: Ref, at: usize, v: V) -> Result<V::Value> {
        self.state.enter()?;
        let fits = self.state.subtype(w, e) || self.state.coerces(w, e)?;
        if !fits {
            // candid charges 10 for backtracking, then skips the value.
            self.state.charge(quota::OPT_BACKTRACK)?;
            self.state.skip(w)?;
            let out: Result<V::Value> = v.visit_none();
            self.state.leave();
            return out.map_err(|err| err.within(PathSegment::Opt));
        }
        let out = v.visit_some(De::new(&mut *self.state, w, e));
        self.state.leave();
        match out {
            Ok(value) => Ok(value),
            Err(err) => opt_failed::<V>(self.state, w, at, err),
        }
    }

    /// Elements of a vector whose element type is an exact fixed-width primitive on
    /// both sides, read straight from the input slice (the cost was charged once).
    fn prim_vec<V: Visitor<'de>>(
        self,
        p: Prim,
        data: &'de [u8],
        at: usize,
        v: V,
    ) -> Result<V::Value> {
        use primvec::{visit, BoolByte};
        match p {
            Prim::Bool => visit::<BoolByte, V>(data, at, v),
            Prim::Nat8 => visit::<u8, V>(data, at, v),
            Prim::Int8 => visit::<i8, V>(data, at, v),
            Prim::Nat16 => visit::<u16, V>(data, at, v),
            Prim::Int16 => visit::<i16, V>(data, at, v),
            Prim::Nat32 => visit::<u32, V>(data, at, v),
            Prim::Int32 => visit::<i32, V>(data, at, v),
            Prim::Float32 => visit::<f32, V>(data, at, v),
            Prim::Nat64 => visit::<u64, V>(data, at, v),
            Prim::Int64 => visit::<i64, V>(data, at, v),
            Prim::Float64 => visit::<f64, V>(data, at, v),
            _ => Err(self.internal("a fixed-width vector")),
        }
    }
}

macro_rules! primitive {
    ($($method:ident, $visit:ident, $p:ident, $t:ty, $n:literal;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
            self.prim(Prim::$p)?;
            self.state.charge($n)?;
            let b = self.state.reader.fixed::<$n>(stringify!($p))?;
            v.$visit(<$t>::from_le_bytes(b))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for De<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        // `Nat`'s and `Int`'s own `Deserialize` ask for any: an expected `nat` or
        // `int` by direct reference goes to its read before any arena lookup. The
        // test is compiled into their visitors' copies only, so other visitors
        // (`IDLValue`'s above all) do not pay for it.
        if is_bignum_visitor::<V>() {
            match self.e() {
                NAT if self.w() == NAT => return self.nat(v),
                INT => return self.int(v),
                _ => {}
            }
        }
        self.unroll()?;
        match self.state.expected_node(self.e()) {
            Node::Prim(p) => match p {
                Prim::Int => self.int(v),
                Prim::Nat => self.nat(v),
                Prim::Nat8 => self.deserialize_u8(v),
                Prim::Nat16 => self.deserialize_u16(v),
                Prim::Nat32 => self.deserialize_u32(v),
                Prim::Nat64 => self.deserialize_u64(v),
                Prim::Int8 => self.deserialize_i8(v),
                Prim::Int16 => self.deserialize_i16(v),
                Prim::Int32 => self.deserialize_i32(v),
                Prim::Int64 => self.deserialize_i64(v),
                Prim::Float32 => self.deserialize_f32(v),
                Prim::Float64 => self.deserialize_f64(v),
                Prim::Bool => self.deserialize_bool(v),
                Prim::Text => self.deserialize_str(v),
                Prim::Null => self.deserialize_unit(v),
                Prim::Reserved => {
                    if self.state.wire_node(self.w()) != Node::Prim(Prim::Reserved) {
                        self.state.skip(self.w())?;
                    }
                    self.state.charge(quota::CALL)?;
                    v.visit_bytes(&[BytesTag::Reserved as u8])
                }
                Prim::Empty => Err(
                    if self.state.wire_node(self.w()) == Node::Prim(Prim::Empty) {
                        fault::empty_value(self.state.offset())
                    } else {
                        self.mismatch()
                    },
                ),
                Prim::Principal => self.principal(v, true),
            },
            Node::Opt(_) => self.deserialize_option(v),
            Node::Vec(el) if self.state.expected_node(el) == Node::Prim(Prim::Nat8) => {
                match self.state.wire_node(self.w()) {
                    Node::Vec(wel) if self.state.wire_node(wel) == Node::Prim(Prim::Nat8) => {}
                    _ => return self.tagged_blob_from_other(v),
                }
                let len = self.state.reader.len(1)?;
                self.state.charge(len.saturating_add(quota::CALL))?;
                let blob = self.state.reader.take(len, "blob")?;
                let mut out = Vec::with_capacity(len + 1);
                out.push(BytesTag::Blob as u8);
                out.extend_from_slice(blob);
                v.visit_byte_buf(out)
            }
            Node::Vec(_) => self.deserialize_seq(v),
            Node::Record(_) => self.deserialize_struct("_", &[], v),
            Node::Variant(_) => self.deserialize_enum("_", &[], v),
            Node::Service(_) => self.service(v),
            Node::Func(_) => self.func(v),
            Node::Future => self.future(v),
        }
    }

    /// serde's `IgnoredAny` (what `Reserved` and unknown fields use) gets a skip; any
    /// other visitor gets the wire value decoded at its wire type, as candid hands it
    /// (a `Deserialize` impl may read a `reserved` field's content this way). Both
    /// charge the units candid charges for the same value.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if is_ignored_any::<V>() {
            self.state.skip(self.w())?;
            return v.visit_unit();
        }
        let w = self.w();
        self.state
            .at_wire_type(|state| de::Deserializer::deserialize_any(De::new(state, w, w), v))
    }

    primitive! {
        deserialize_u8, visit_u8, Nat8, u8, 1;
        deserialize_u16, visit_u16, Nat16, u16, 2;
        deserialize_u32, visit_u32, Nat32, u32, 4;
        deserialize_u64, visit_u64, Nat64, u64, 8;
        deserialize_i8, visit_i8, Int8, i8, 1;
        deserialize_i16, visit_i16, Int16, i16, 2;
        deserialize_i32, visit_i32, Int32, i32, 4;
        deserialize_i64, visit_i64, Int64, i64, 8;
        deserialize_f32, visit_f32, Float32, f32, 4;
        deserialize_f64, visit_f64, Float64, f64, 8;
    }

    fn deserialize_i128<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.unroll()?;
        if self.state.expected_node(self.e()) != Node::Prim(Prim::Int) {
            return Err(self.internal("i128"));
        }
        self.state.charge(quota::BIG_FLAT)?;
        let at = self.state.offset();
        let value = match self.state.wire_node(self.w()) {
            Node::Prim(Prim::Int) => self
                .state
                .reader
                .int_i128()
                .ok_or_else(|| fault::number_too_large("int does not fit i128", at))?,
            Node::Prim(Prim::Nat) => {
                let n = self
                    .state
                    .reader
                    .nat_u128()
                    .ok_or_else(|| fault::number_too_large("nat does not fit u128", at))?;
                i128::try_from(n)
                    .map_err(|_| fault::number_too_large("nat does not fit i128", at))?
            }
            _ => return Err(self.mismatch()),
        };
        v.visit_i128(value)
    }

    fn deserialize_u128<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.prim(Prim::Nat)?;
        self.state.charge(quota::BIG_FLAT)?;
        let at = self.state.offset();
        let n = self
            .state
            .reader
            .nat_u128()
            .ok_or_else(|| fault::number_too_large("nat does not fit u128", at))?;
        v.visit_u128(n)
    }

    fn deserialize_bool<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.prim(Prim::Bool)?;
        self.state.charge(quota::CALL)?;
        let b = self.state.reader.bool()?;
        v.visit_bool(b)
    }

    fn deserialize_char<V: Visitor<'de>>(self, _v: V) -> Result<V::Value> {
        Err(self.internal("a char (no Candid type)"))
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.prim(Prim::Text)?;
        let s = self.state.text()?;
        v.visit_borrowed_str(s)
    }

    /// serde's hint that the visitor keeps the text: it is handed over as an owned
    /// copy (`visit_string`), made without `memory.copy` when it is short (see
    /// [`owned_text`]).
    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_string(owned_string(self.state, self.w(), self.e())?)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        // A principal on both sides by direct reference (what `Principal` asks
        // for) is read with no arena lookup.
        if self.e() == PRINCIPAL && self.w() == PRINCIPAL {
            return self.principal(v, false);
        }
        match self.bytes()? {
            Bytes::Principal(me) => me.principal(v, false),
            Bytes::Blob(b) => v.visit_borrowed_bytes(b),
        }
    }

    /// serde's hint that the visitor keeps the bytes: a blob is handed over as an
    /// owned copy (`visit_byte_buf`, as candid does), made without `memory.copy`
    /// when it is short (see [`owned_bytes`]).
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.bytes()? {
            Bytes::Principal(me) => me.principal(v, false),
            Bytes::Blob(b) => v.visit_byte_buf(owned_bytes(b)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.unroll_then(quota::CALL)?;
        let (wire, exp) = self.nodes();
        let Node::Opt(e_in) = exp else {
            return Err(self.mismatch());
        };
        match wire {
            Node::Prim(Prim::Null) | Node::Prim(Prim::Reserved) => v.visit_none(),
            Node::Opt(w_in) => {
                if self.state.reader.bool()? {
                    let at = self.state.offset();
                    self.some(w_in, e_in, at, v)
                } else {
                    v.visit_none()
                }
            }
            _ => {
                let w = self.w();
                let at = self.state.offset();
                self.some(w, e_in.resolved(), at, v)
            }
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.prim(Prim::Null)?;
        self.state.charge(quota::CALL)?;
        v.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.state.charge(quota::CALL)?;
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.state.charge(quota::CALL)?;
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.nested(|me| me.seq(v, None, 1))
    }

    fn deserialize_tuple<V: Visitor<'de>>(mut self, len: usize, v: V) -> Result<V::Value> {
        // candid charges 1 for the tuple and 1 for the sequence in it: one charge.
        self.nested(|me| me.seq(v, Some(len), 2))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(len, v)
    }

    fn deserialize_map<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.nested(|me| me.map(v))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        mut self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        self.nested(|me| me.record(v))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        // `nested` spelled out: a closure here is one more function the inliner
        // may leave out of line in the cycle a recursive Rust enum makes.
        self.state.enter()?;
        let out = self.variant(v);
        self.state.leave();
        out
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, _v: V) -> Result<V::Value> {
        Err(self.internal("an identifier outside a record or variant"))
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl<'de> De<'_, 'de> {
    /// Runs `f` one nesting level deeper (the depth and stack bounds of
    /// `DecodeState::enter`), leaving the level however `f` ends.
    #[inline(always)]
    fn nested<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        self.state.enter()?;
        let out = f(self);
        self.state.leave();
        out
    }

    /// `vec` (as a sequence) or a tuple record, charging `cost` units once the
    /// types are resolved.
    fn seq<V: Visitor<'de>>(
        &mut self,
        v: V,
        tuple_len: Option<usize>,
        cost: usize,
    ) -> Result<V::Value> {
        match self.seq_begin(tuple_len, cost)? {
            SeqBody::Fixed { p, data, at } => {
                let (w, e) = (self.w(), self.e());
                De::new(&mut *self.state, w, e).prim_vec(p, data, at, v)
            }
            SeqBody::Elems {
                len,
                w,
                e,
                per_elem,
            } => {
                let mut access = VecAccess::new(&mut *self.state, len, w, e, per_elem);
                let out = v.visit_seq(&mut access)?;
                access.finish()?;
                Ok(out)
            }
            SeqBody::Tuple => {
                let PairSpans { wf, ef, .. } = self.state.tuple_ok;
                let first = self.state.tuple_first;
                let mut access = TupleAccess::new(&mut *self.state, wf, ef, first);
                let out = v.visit_seq(&mut access)?;
                access.finish()?;
                Ok(out)
            }
        }
    }

    /// Everything a sequence reads and charges before its first element: the type
    /// check, the length and, for a vector of fixed-width numbers, the elements'
    /// bytes. Shared by the serde path and the direct one (`direct.rs`), so both
    /// charge, read and fail alike.
    #[inline(always)]
    pub(super) fn seq_begin(
        &mut self,
        tuple_len: Option<usize>,
        cost: usize,
    ) -> Result<SeqBody<'de>> {
        let (w, e) = self.unroll_pair(cost)?;
        if self.state.tuple_ok.get(w, e).is_some() {
            return Ok(SeqBody::Tuple);
        }
        let kept = self.state.vec_ok;
        let shape = if kept.w == w && kept.e == e {
            kept
        } else {
            self.set(w, e);
            match self.nodes() {
                (Node::Vec(w_el), Node::Vec(e_el)) => {
                    let shape = self.vec_shape(w_el.resolved(), e_el);
                    self.state.vec_ok = shape;
                    shape
                }
                _ => return self.tuple_begin(),
            }
        };
        let (w_el, e_el) = (shape.w_el, shape.e_el);
        match shape.kind {
            VecKind::Fixed(p) => {
                let size = shape.min;
                let len = self.state.reader.len(size)?;
                check_array_len(self.state, tuple_len, len)?;
                self.state
                    .charge(len.saturating_mul(quota::ELEMENT + size))?;
                let at = self.state.offset();
                let data = self.state.reader.take(len * size, "vector")?;
                Ok(SeqBody::Fixed { p, data, at })
            }
            kind => {
                let len = self.state.reader.len(shape.min)?;
                check_array_len(self.state, tuple_len, len)?;
                let per_elem = if kind == VecKind::Bignum {
                    self.state.charge(len.saturating_mul(quota::ELEMENT))?;
                    0
                } else {
                    quota::ELEMENT
                };
                Ok(SeqBody::Elems {
                    len,
                    w: w_el,
                    e: e_el,
                    per_elem,
                })
            }
        }
    }

    /// How a vector of (resolved) wire elements `w_el` and expected elements `e_el`
    /// is read: a function of the two arenas, kept per pair (`DecodeState::vec_ok`).
    #[inline(always)]
    fn vec_shape(&mut self, w_el: Ref, e_el: Ref) -> VecShape {
        let (wn, en) = (self.state.wire_node(w_el), self.state.expected_node(e_el));
        let (kind, min) = match (wn, en) {
            (Node::Prim(wp), Node::Prim(ep)) if wp == ep && primvec::is_fixed(wp) => {
                (VecKind::Fixed(wp), primvec::size(wp))
            }
            (Node::Prim(Prim::Nat), Node::Prim(Prim::Nat))
            | (Node::Prim(Prim::Int), Node::Prim(Prim::Int))
            | (Node::Prim(Prim::Nat), Node::Prim(Prim::Int)) => {
                (VecKind::Bignum, self.state.elem_min_size(w_el))
            }
            _ => (VecKind::Elems, self.state.elem_min_size(w_el)),
        };
        VecShape {
            w: self.w(),
            e: self.e(),
            w_el,
            e_el,
            min,
            kind,
        }
    }

    /// `seq_begin` for a frame that is not a vector on both sides: a tuple record
    /// on both sides, or a mismatch.
    #[inline(always)]
    fn tuple_begin(&mut self) -> Result<SeqBody<'de>> {
        match self.nodes() {
            (Node::Record(wf), Node::Record(ef)) => {
                if !is_tuple(&self.state.exp, ef) {
                    return Err(self.mismatch());
                }
                if !is_tuple(&self.state.wire, wf) {
                    return Err(Error::subtype(format!(
                        "{} is not a tuple type",
                        describe(&self.state.wire, self.w())
                    ))
                    .at(self.state.offset()));
                }
                let first = [0, 1].map(|i| TupleAccess::pair(self.state, wf, ef, i));
                self.state.tuple_ok = self.checked(wf, ef);
                self.state.tuple_first = first;
                Ok(SeqBody::Tuple)
            }
            _ => Err(self.mismatch()),
        }
    }

    fn map<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        self.unroll_then(quota::CALL)?;
        let (Node::Vec(w_el), Node::Vec(e_el)) = self.nodes() else {
            return Err(self.mismatch());
        };
        let pair = |arena: &crate::wire::header::Arena, r: Ref| match arena.node(r) {
            Node::Record(s) => match arena.fields(s) {
                [k, v] if k.id == 0 && v.id == 1 => Some((k.ty, v.ty)),
                _ => None,
            },
            _ => None,
        };
        let (Some((wk, wv)), Some((ek, ev))) =
            (pair(&self.state.wire, w_el), pair(&self.state.exp, e_el))
        else {
            return Err(Error::subtype("expect a key-value pair").at(self.state.offset()));
        };
        let min = self.state.elem_min_size(w_el.resolved());
        let len = self.state.reader.len(min)?;
        let text_keys = self.state.wire_node(wk) == Node::Prim(Prim::Text)
            && self.state.expected_node(ek) == Node::Prim(Prim::Text);
        let bignum_values = matches!(
            (self.state.wire_node(wv), self.state.expected_node(ev)),
            (Node::Prim(Prim::Nat), Node::Prim(Prim::Nat))
                | (Node::Prim(Prim::Int), Node::Prim(Prim::Int))
                | (Node::Prim(Prim::Nat), Node::Prim(Prim::Int))
        );
        let fast = text_keys || bignum_values;
        if fast {
            self.state
                .charge(len.saturating_mul(quota::FAST_MAP_ENTRY))?;
        }
        let mut access = MapAccess::new(&mut *self.state, len, (wk, wv), (ek, ev), text_keys, fast);
        let out = v.visit_map(&mut access)?;
        access.finish()?;
        Ok(out)
    }

    fn record<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        self.unroll_then(quota::CALL)?;
        let (Node::Record(wf), Node::Record(ef)) = self.nodes() else {
            return Err(self.mismatch());
        };
        let mut access = StructAccess::new(&mut *self.state, wf, ef);
        if std::mem::size_of::<V::Value>() > BIG_VALUE {
            // A large struct is returned as the visitor's result came, not taken
            // out of it and wrapped again around `finish`: each such move is a
            // copy of the whole struct.
            let out = v.visit_map(&mut access);
            if out.is_ok() {
                access.finish()?;
            }
            return out;
        }
        let out = v.visit_map(&mut access)?;
        access.finish()?;
        Ok(out)
    }

    #[inline(always)]
    fn variant<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        let (w, e) = self.unroll_pair(quota::CALL)?;
        let case = match self.state.variant_ok.get(w, e) {
            Some(spans) => {
                let at = self.state.offset();
                let index = self.state.reader.leb("variant index")?;
                // A case a value at this pair took already is kept (fast path
                // 22); from the pair's second value on, each case is kept the
                // first time a value takes it.
                match self.state.kept_case(w, e, index) {
                    Some(case) => case,
                    None => keep_case_of(self.state, (w, e), spans, index, at)?,
                }
            }
            None => {
                self.set(w, e);
                let (Node::Variant(wf), Node::Variant(ef)) = self.nodes() else {
                    return Err(self.mismatch());
                };
                self.state.variant_ok = self.checked(wf, ef);
                let at = self.state.offset();
                let index = self.state.reader.leb("variant index")?;
                case_of(self.state, (wf, ef), index, at)?
            }
        };
        v.visit_enum(EnumAccess::new(
            &mut *self.state,
            case.expected_case,
            case.w,
            case.e,
        ))
    }
}

/// [`case_of`] at a checked variant pair `(w, e)` whose case spans are `spans`,
/// for a case not kept yet: it is kept for the next value that takes it. Out of
/// line, as it runs about once per case and pair.
#[inline(never)]
fn keep_case_of(
    state: &mut DecodeState<'_>,
    (w, e): (Ref, Ref),
    spans: (Span, Span),
    index: u64,
    at: usize,
) -> Result<CaseMemo> {
    let case = case_of(state, spans, index, at)?;
    state.keep_case(w, e, index, case);
    Ok(case)
}

/// The expected case of the wire case at `index` of a variant pair whose case
/// spans are `(wf, ef)`, with the two case types. `at` is where the index was
/// read (for errors).
#[inline(always)]
fn case_of(
    state: &DecodeState<'_>,
    (wf, ef): (Span, Span),
    index: u64,
    at: usize,
) -> Result<CaseMemo> {
    let Some(case) = case_at(&state.wire, wf, index) else {
        let cases = state.wire.fields(wf).len();
        return Err(fault::variant_index(index, cases, at));
    };
    // When both sides list the same cases (the usual case), the wire index is
    // the expected index; otherwise the sorted ids are searched.
    let (k, e_ty) = match case_at(&state.exp, ef, index) {
        Some(f) if f.id == case.id => (index as usize, f.ty),
        _ => {
            let exp_cases = state.exp.fields(ef);
            match exp_cases.binary_search_by_key(&case.id, |f| f.id) {
                Ok(k) => (k, exp_cases.get(k).map_or(Ref::RESERVED, |f| f.ty)),
                Err(_) => return Err(unknown_case(case.id).at(at)),
            }
        }
    };
    Ok(CaseMemo {
        expected_case: ef.start as usize + k,
        w: case.ty,
        e: e_ty,
    })
}

/// The case at position `index` of a variant's cases, or `None` past the last one:
/// one bounds test on the position and one on the arena, instead of slicing the
/// cases first.
#[inline(always)]
fn case_at(arena: &Arena, cases: Span, index: u64) -> Option<FieldEntry> {
    if index < u64::from(cases.len) {
        arena.field(cases.start as usize + index as usize)
    } else {
        None
    }
}

/// The error of the read of an `opt`'s value. A subtype error becomes `null`
/// instead (candid 0.10.39's backtracking): back to offset `at`, where the value
/// began, the 10 units of a backtrack charged, the value skipped by its wire type
/// `w`. The units the failed read charged stay charged, as in candid. The depth
/// needs no restoring: the reads that raise subtype errors leave every level they
/// enter however they end (`De::nested`, `De::some`); the walks that do not (a
/// skip, the value-level check) raise none. Only a visitor that can be had a
/// second time recovers (serde's `Option` visitor, see [`visitor_again`]); with
/// any other, and for any other error, the error stands.
#[cold]
#[inline(never)]
fn opt_failed<'de, V: Visitor<'de>>(
    state: &mut DecodeState<'de>,
    w: Ref,
    at: usize,
    err: Error,
) -> Result<V::Value> {
    let again = if err.is_subtype() {
        visitor_again::<V>()
    } else {
        None
    };
    let Some(v) = again else {
        return Err(err.within(PathSegment::Opt));
    };
    state.reader.rewind(at);
    // The `opt`'s level again, as the skip of a value that does not fit has it.
    state.enter()?;
    state.charge(quota::OPT_BACKTRACK)?;
    state.skip(w)?;
    state.leave();
    v.visit_none()
}

/// A second value of the visitor `V`, when it is serde's visitor for `Option<T>`:
/// a marker with no data, so it can be had again after `visit_some` took the
/// first. candid recognises it by the same name.
fn visitor_again<V>() -> Option<V> {
    let name = std::any::type_name::<V>();
    let option = name.starts_with("serde_core::de::impls::OptionVisitor<")
        || name.starts_with("serde::de::impls::OptionVisitor<");
    if !option || std::mem::size_of::<V>() != 0 || std::mem::needs_drop::<V>() {
        return None;
    }
    // SAFETY: `V` is zero-sized, so the read touches no memory and a dangling,
    // aligned pointer is valid for it; `V` is inhabited (the caller held a value);
    // it is serde's `OptionVisitor`, which holds only a `PhantomData` and has no
    // drop glue, so a second value duplicates no resource and breaks no invariant.
    Some(unsafe { std::ptr::NonNull::<V>::dangling().as_ptr().read() })
}

/// A fixed-size array (`[T; N]`, decoded through `deserialize_tuple`) takes exactly
/// `N` elements: a longer vector would lose data silently.
fn check_array_len(state: &DecodeState<'_>, expected: Option<usize>, len: usize) -> Result<()> {
    match expected {
        Some(n) if n != len => Err(Error::msg(format!(
            "expected a vector of {n} elements, found {len}"
        ))
        .at(state.offset())),
        _ => Ok(()),
    }
}

pub(super) fn is_tuple(arena: &Arena, fields: Span) -> bool {
    // Both arenas keep field ids strictly increasing (the header parser rejects
    // anything else; the interner sorts and rejects collisions), so the ids are
    // 0..n exactly when the last one is n - 1: one test, not a walk per value.
    fields.len == 0
        || arena
            .field(fields.start as usize + fields.len as usize - 1)
            .is_some_and(|f| f.id == fields.len - 1)
}

/// candid's wording, which callers match on: the case id as candid prints labels.
#[cold]
fn unknown_case(id: u32) -> Error {
    Error::subtype(format!(
        "Unknown variant field {}",
        crate::types::text::pp_num_str(&id.to_string())
    ))
}

/// Whether `V` is serde's `IgnoredAny`, which discards whatever it is given, so a
/// skip serves it. (`TypeId` needs `'static`, which a visitor need not be; the type
/// name is fixed at compile time.)
fn is_ignored_any<V>() -> bool {
    std::any::type_name::<V>() == std::any::type_name::<serde::de::IgnoredAny>()
}

/// Whether `V` is the visitor of candor's `Nat` or `Int` (compared as
/// [`is_ignored_any`] compares, at compile time).
fn is_bignum_visitor<V>() -> bool {
    use crate::types::number::{IntVisitor, NatVisitor};
    let name = std::any::type_name::<V>();
    name == std::any::type_name::<NatVisitor>() || name == std::any::type_name::<IntVisitor>()
}

#[cfg(test)]
mod tests {
    /// A frame gives back the references it was made with, var bit included, at
    /// both ends of the index range.
    #[test]
    fn frames_keep_both_references() {
        use super::{ref_bits, ref_of, Ref};
        for idx in [0u32, 1, 17, 18, 12_345, (1 << 31) - 1] {
            for var in [false, true] {
                let r = Ref::new(idx, var);
                assert_eq!(ref_of(ref_bits(r) as u32), r);
                let other = Ref::new(idx / 2, !var);
                let pair = ref_bits(r) | ref_bits(other) << 32;
                assert_eq!(ref_of(pair as u32), r);
                assert_eq!(ref_of((pair >> 32) as u32), other);
            }
        }
    }

    /// Every length, either side of each branch of the word copy, copies exactly.
    #[test]
    fn owned_copies_are_exact() {
        let src: Vec<u8> = (0..=200u8).collect();
        for n in 0..=src.len() {
            for start in [0, 1, 7] {
                let b = &src[start..(start + n).min(src.len())];
                let v = super::owned_bytes(b);
                assert_eq!(v, b, "length {}", b.len());
                assert_eq!(v.capacity(), b.len());
            }
        }
        assert_eq!(super::owned_text("héllo, wörld"), "héllo, wörld");
    }

    /// The OR a short copy reports has a high bit exactly when a copied byte has
    /// one, at every length and position; a long copy reports all high bits.
    #[test]
    fn owned_copy_or_is_the_ascii_test() {
        for n in 0..=super::SHORT_COPY + 8 {
            let mut b = vec![b'a'; n];
            let ascii = |b: &[u8]| super::owned_bytes_or(b).1 & super::HIGH_BITS == 0;
            assert_eq!(ascii(&b), n <= super::SHORT_COPY, "{n}");
            for i in 0..n {
                for x in [0x80, 0xc3, 0xff, 0x7f] {
                    b[i] = x;
                    let (v, _) = super::owned_bytes_or(&b);
                    assert_eq!(v, b);
                    assert_eq!(ascii(&b), x < 0x80 && n <= super::SHORT_COPY, "{n} {i} {x}");
                }
                b[i] = b'a';
            }
        }
    }

    /// A `String` (ASCII tested on its copy, `owned_string`) and a `&str` (tested
    /// on the input, `DecodeState::text`) agree on every short length with an ASCII,
    /// a two-byte UTF-8 or an invalid byte at every position: same text or same
    /// error.
    #[test]
    fn owned_strings_validate_as_borrowed_ones() {
        for n in 0..=super::SHORT_COPY + 8 {
            for i in 0..n.max(1) {
                for bad in [&b"a"[..], "\u{e9}".as_bytes(), &[0xff][..], &[0xc3][..]] {
                    let mut text = vec![b'k'; n];
                    if n > 0 {
                        text.splice(i..=i, bad.iter().copied());
                    }
                    let mut bytes = b"DIDL\x00\x01\x71".to_vec();
                    crate::wire::leb::write_u64(&mut bytes, text.len() as u64);
                    bytes.extend_from_slice(&text);
                    let owned = crate::Decode!(&bytes, String).map_err(|e| e.to_string());
                    let lent = crate::Decode!(&bytes, &str)
                        .map(str::to_string)
                        .map_err(|e| e.to_string());
                    assert_eq!(owned, lent, "{n} {i} {bad:?}");
                }
            }
        }
    }

    /// `String` takes `owned_string`: a text by direct reference on both sides is
    /// read there; any other frame is checked out of line and gets the mismatch.
    #[test]
    fn owned_strings_check_their_frame() {
        let text = crate::Encode!(&"key", &("k".to_string(), 7u8)).unwrap();
        let (s, (k, n)) = crate::Decode!(&text, String, (String, u8)).unwrap();
        assert_eq!((s.as_str(), k.as_str(), n), ("key", "k", 7));
        let nat = crate::Encode!(&5u32).unwrap();
        let err = crate::Decode!(&nat, String).unwrap_err().to_string();
        assert!(err.contains("expected text, found nat32"), "{err}");
        let opt = crate::Encode!(&Some("a".to_string())).unwrap();
        let err = crate::Decode!(&opt, String).unwrap_err().to_string();
        assert!(err.contains("expected text, found opt text"), "{err}");
    }

    #[test]
    fn only_serdes_ignored_any_takes_the_skip() {
        assert!(super::is_ignored_any::<serde::de::IgnoredAny>());
        assert!(!super::is_ignored_any::<crate::value::IDLValueVisitor>());
        assert!(!super::is_ignored_any::<()>());
    }
}
