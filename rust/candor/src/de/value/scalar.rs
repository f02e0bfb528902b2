//! The scalar values a frame reads beyond fixed-width numbers and text: bignums,
//! blobs (and what may stand for one), futures, principals and references.

use super::*;

impl<'a, 'de> De<'a, 'de> {
    // ---- bignums ---------------------------------------------------------------

    #[inline(always)]
    pub(super) fn nat<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.prim(Prim::Nat)?;
        self.nat_read(v)
    }

    /// [`nat`](Self::nat) once the pair is known to be `nat` on both sides.
    #[inline(always)]
    pub(super) fn nat_read<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        if !self.state.quota.untyped {
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

    pub(super) fn int<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
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
        if !self.state.quota.untyped {
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
    pub(super) fn big_leb(&mut self) -> Result<&'de [u8]> {
        let bytes = self.state.reader.long_leb("nat/int")?;
        self.state.charge(bytes.len())?;
        Ok(bytes)
    }

    /// The start of `deserialize_bytes` and `deserialize_byte_buf`: a principal is
    /// left to [`principal`](Self::principal); a blob (`vec nat8` on both sides) is
    /// read and charged.
    #[inline(always)]
    pub(super) fn bytes(mut self) -> Result<Bytes<'a, 'de>> {
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
    pub(super) fn blob_from_other(&mut self) -> Result<Bytes<'a, 'de>> {
        self.empty_vec_as_blob()?;
        Ok(Bytes::Blob(&[]))
    }

    /// `deserialize_any`'s blob (an `IDLValue`) from something else on the wire,
    /// as [`blob_from_other`](Self::blob_from_other).
    #[cold]
    #[inline(never)]
    pub(super) fn tagged_blob_from_other<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        self.empty_vec_as_blob()?;
        v.visit_byte_buf(vec![BytesTag::Blob as u8])
    }

    /// A blob expected and a vector of another element type on the wire: the
    /// spec coerces a vector element by element, so an empty one is the empty
    /// blob, whatever its element type. Any other value is the mismatch. (candid
    /// reads blobs only from blobs, so it gives `null` inside an `opt`, and an
    /// error outside one; `spec/differences.md` D12.) Charged as the empty blob.
    pub(super) fn empty_vec_as_blob(&mut self) -> Result<()> {
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
    pub(super) fn future<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        if self.state.wire_node(self.w()) != Node::Future {
            return Err(self.mismatch());
        }
        self.state.read_future()?;
        v.visit_unit()
    }

    // ---- references ------------------------------------------------------------

    pub(super) fn principal<V: Visitor<'de>>(mut self, v: V, tagged: bool) -> Result<V::Value> {
        if self.w() != PRINCIPAL {
            self.unroll()?;
            if !matches!(
                self.state.wire_node(self.w()),
                Node::Prim(Prim::Principal) | Node::Service(_)
            ) {
                return Err(self.mismatch());
            }
        }
        let bytes = self.principal_bytes()?;
        if tagged {
            let mut buf = [0u8; 30];
            buf[0] = BytesTag::Principal as u8;
            buf[1..=bytes.len()].copy_from_slice(bytes);
            v.visit_bytes(&buf[..=bytes.len()])
        } else {
            visit_principal(v, bytes)
        }
    }

    /// [`principal`](Self::principal) of a principal on both sides by direct
    /// reference (what `Principal` asks for), on its own: the one path a
    /// principal field takes, kept small enough to be taken into its caller.
    #[inline(always)]
    pub(super) fn direct_principal<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        let bytes = self.principal_bytes()?;
        visit_principal(v, bytes)
    }

    /// A principal's bytes (or a service's), read and charged as candid charges
    /// its 30-byte buffer.
    #[inline(always)]
    fn principal_bytes(&mut self) -> Result<&'de [u8]> {
        let bytes = self.state.reader.principal()?;
        self.state.charge(bytes.len().max(quota::PRINCIPAL_MIN))?;
        Ok(bytes)
    }

    /// func/service: candid charges a subtype check the size of the type table.
    pub(super) fn check_reference(&mut self) -> Result<()> {
        self.unroll()?;
        self.state.charge(self.state.table_len)?;
        if self.state.subtype(self.w(), self.e()) {
            Ok(())
        } else {
            Err(self.mismatch())
        }
    }

    pub(super) fn service<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        self.check_reference()?;
        let bytes = self.principal_bytes()?;
        let mut buf = [0u8; 30];
        buf[0] = BytesTag::Service as u8;
        buf[1..=bytes.len()].copy_from_slice(bytes);
        v.visit_bytes(&buf[..=bytes.len()])
    }

    pub(super) fn func<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
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
}

/// Hands a principal's `bytes` to `v`, those of the two common lengths (29 bytes, a
/// user's self-authenticating id; 10, a canister's) as a slice of that length known
/// when compiling: `Principal`'s visitor copies them into its own array, and a copy
/// of known length is a few word moves, where one of variable length is a
/// `memory.copy`, which the IC charges a fixed price for on top of its size.
#[inline(always)]
fn visit_principal<'de, V: Visitor<'de>>(v: V, bytes: &'de [u8]) -> Result<V::Value> {
    if let Ok(user) = <&[u8; 29]>::try_from(bytes) {
        v.visit_borrowed_bytes(user)
    } else if let Ok(canister) = <&[u8; 10]>::try_from(bytes) {
        v.visit_borrowed_bytes(canister)
    } else {
        v.visit_borrowed_bytes(bytes)
    }
}
