//! The serde `Deserializer` for one value: a frame holding the wire type and the
//! expected type of that value, and a borrow of the shared [`DecodeState`].
//!
//! Every method charges the decoding quota exactly as candid 0.10.39 does for the
//! same serde call (see `spec/limits.md`), so a canister's quota accepts and rejects
//! the same messages after switching.

use super::access::{EnumAccess, MapAccess, StructAccess, TupleAccess, VecAccess};
use super::copy;
use super::describe::describe;
use super::kept::{CaseMemo, PairSpans, VecKind, VecShape};
use super::primvec;
use super::quota;
use super::state::DecodeState;
use crate::error::Result;
use crate::error::{fault, Error, PathSegment};
use crate::types::bytes_tag::BytesTag;
use crate::types::number::leb_to_le_bytes;
use crate::wire::header::{Arena, FieldEntry, Node, Prim, Ref, Span, OPT_BIT};
use crate::wire::leb;
use serde::de::{self, Visitor};

mod compound;
mod scalar;

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

/// The frame's word for wire type `w` and expected type `e`: each reference's
/// 32 bits (index, var bit and hint), the wire type in the low half.
#[inline(always)]
pub(super) const fn pack(w: Ref, e: Ref) -> u64 {
    w.bits() as u64 | (e.bits() as u64) << 32
}

/// What `deserialize_bytes` reads: a principal (still to read), or a blob's bytes.
enum Bytes<'a, 'de> {
    Principal(De<'a, 'de>),
    Blob(&'de [u8]),
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
    copy::owned_text_at(bytes, at)
}

/// `De::prim(Text)` for a frame that is not `text` by direct reference on both
/// sides (a type variable, or a mismatch), out of the way of the common case.
#[cold]
#[inline(never)]
fn not_direct_text(state: &mut DecodeState<'_>, w: Ref, e: Ref) -> Result<()> {
    De::new(state, w, e).prim(Prim::Text)
}

/// What a map holds, once its type and length are read (`De::map_begin`).
pub(super) struct MapBody {
    /// Its entries.
    pub(super) len: usize,
    /// The key and value types on the wire.
    pub(super) wire: (Ref, Ref),
    /// The key and value types expected.
    pub(super) exp: (Ref, Ref),
    /// Keys are text on both sides: read with no per-key type check.
    pub(super) text_keys: bool,
    /// Every entry's cost was charged up front.
    pub(super) fast: bool,
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
            pair: pack(w, e),
        }
    }

    /// The wire type.
    #[inline(always)]
    pub(super) fn w(&self) -> Ref {
        Ref::from_bits(self.pair as u32)
    }

    /// The expected type.
    #[inline(always)]
    pub(super) fn e(&self) -> Ref {
        Ref::from_bits((self.pair >> 32) as u32)
    }

    /// Whether both types say they are options ([`Ref::is_opt`]), in one test of
    /// the pair.
    #[inline(always)]
    fn both_opt(&self) -> bool {
        const BOTH: u64 = OPT_BIT as u64 | (OPT_BIT as u64) << 32;
        self.pair & BOTH == BOTH
    }

    /// How many of the two types are type variables (each resolved for a unit):
    /// the top bit of each half of the pair.
    #[inline(always)]
    fn vars(&self) -> usize {
        ((self.pair as u32) >> 31) as usize + (self.pair >> 63) as usize
    }

    /// Replaces both types (with their resolved references, say).
    #[inline(always)]
    fn set(&mut self, w: Ref, e: Ref) {
        self.pair = pack(w, e);
    }

    /// Resolves type references, charging one unit for each that names a table
    /// entry or a recursive Rust type (candid's `unroll_type`).
    #[inline(always)]
    fn unroll(&mut self) -> Result<()> {
        let c = self.vars();
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
        let c = self.vars();
        self.state.charge_then(c, extra)?;
        Ok((self.w().resolved(), self.e().resolved()))
    }

    #[inline(always)]
    fn unroll_then(&mut self, extra: usize) -> Result<()> {
        let c = self.vars();
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
            self.state.wire.entry_node(self.w()),
            self.state.exp.entry_node(self.e()),
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
        self.prim_resolved(p)
    }

    /// [`prim`](Self::prim) of a pair that is not `p` by direct reference on both
    /// sides: resolved and looked up, out of line, so that a primitive's read
    /// stays small enough to be taken into its caller.
    #[inline(never)]
    fn prim_resolved(&mut self, p: Prim) -> Result<()> {
        self.unroll()?;
        match self.nodes() {
            (Node::Prim(w), Node::Prim(e)) if w == p && e == p => Ok(()),
            _ => Err(self.mismatch()),
        }
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
                NAT if self.w() == NAT => return self.nat_read(v),
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
        // An `int` read from an `int` or a `nat`, both by direct reference, needs
        // no arena lookup (as `De::int`).
        let is_nat = if self.e() == INT && (self.w() == INT || self.w() == NAT) {
            self.w() == NAT
        } else {
            self.unroll()?;
            if self.state.expected_node(self.e()) != Node::Prim(Prim::Int) {
                return Err(self.internal("i128"));
            }
            match self.state.wire_node(self.w()) {
                Node::Prim(Prim::Int) => false,
                Node::Prim(Prim::Nat) => true,
                _ => {
                    self.state.charge(quota::BIG_FLAT)?;
                    return Err(self.mismatch());
                }
            }
        };
        self.state.charge(quota::BIG_FLAT)?;
        // A value that fits 64 bits (most do) is read by the 64-bit reader, which
        // reads nothing when it does not fit; the 128-bit one shifts 128-bit words.
        let small = if is_nat {
            self.state.reader.nat_u64().map(i128::from)
        } else {
            self.state.reader.int_i64().map(i128::from)
        };
        if let Some(x) = small {
            return v.visit_i128(x);
        }
        v.visit_i128(wide_i128(self.state, is_nat)?)
    }

    fn deserialize_u128<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.prim(Prim::Nat)?;
        self.state.charge(quota::BIG_FLAT)?;
        if let Some(x) = self.state.reader.nat_u64() {
            return v.visit_u128(u128::from(x));
        }
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
            return self.direct_principal(v);
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
            Bytes::Blob(b) => v.visit_byte_buf(copy::owned_bytes(b)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.unroll_then(quota::CALL)?;
        // Both sides say they are options (fast path 31): the flag is read first,
        // and an absent value needs neither node looked up.
        if self.both_opt() {
            if !self.state.reader.bool()? {
                return v.visit_none();
            }
            let (Node::Opt(w_in), Node::Opt(e_in)) = self.nodes() else {
                return Err(self.internal("an option"));
            };
            let at = self.state.offset();
            return self.some(w_in, e_in, at, v);
        }
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
        // `nested` spelled out, with the level left by the record itself: its
        // visitor's result is returned as it came (`De::record`).
        self.state.enter()?;
        self.record(v)
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

/// An `i128` read from an `int` (or a `nat`, `is_nat`) that does not fit 64
/// bits, or the error that it does not fit 128.
#[cold]
#[inline(never)]
fn wide_i128(state: &mut DecodeState<'_>, is_nat: bool) -> Result<i128> {
    let at = state.offset();
    if !is_nat {
        return state
            .reader
            .int_i128()
            .ok_or_else(|| fault::number_too_large("int does not fit i128", at));
    }
    let n = state
        .reader
        .nat_u128()
        .ok_or_else(|| fault::number_too_large("nat does not fit u128", at))?;
    i128::try_from(n).map_err(|_| fault::number_too_large("nat does not fit i128", at))
}

/// The error of the read of an `opt`'s value. A subtype error becomes `null`
/// instead (candid 0.10.39's backtracking): back to offset `at`, where the value
/// began, the 10 units of a backtrack charged, the value skipped by its wire type
/// `w`. The units the failed read charged stay charged, as in candid. The depth
/// needs no restoring: the reads that raise subtype errors leave every level they
/// enter however they end (`De::nested`, `De::some`, `StructAccess`'s drop); the
/// walks that do not (a skip, the value-level check) raise none. A record the
/// failed read left unfinished (`DecodeState::unfinished`, at or after `at`) goes
/// with the read. Only a visitor that can be had a second time recovers (serde's
/// `Option` visitor, see [`visitor_again`]); with any other, and for any other
/// error, the error stands.
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
    if state.unfinished.is_some_and(|left| left >= at) {
        state.unfinished = None;
    }
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
        use super::{pack, Ref, NAT};
        let opt = crate::wire::header::Node::Opt(NAT);
        for idx in [0u32, 1, 17, 18, 12_345, crate::wire::header::MAX_INDEX] {
            for (var, hint) in [(false, false), (true, false), (false, true), (true, true)] {
                let r = Ref::new(idx, var);
                let r = if hint { r.hinted(opt) } else { r };
                assert_eq!(Ref::from_bits(r.bits()), r);
                let other = Ref::new(idx / 2, !var);
                let pair = pack(r, other);
                assert_eq!(Ref::from_bits(pair as u32), r);
                assert_eq!(Ref::from_bits((pair >> 32) as u32), other);
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
