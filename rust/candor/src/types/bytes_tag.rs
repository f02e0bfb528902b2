//! The tags of the `visit_bytes` protocol (candid's): values a `Visitor` has no
//! method for (bignums, principals, references, `reserved`, blobs reached through
//! `deserialize_any`) travel as bytes whose first byte says what they are. The
//! decoder writes them and the `Deserialize` impls of `Nat`, `Int`, `Func`,
//! `Service` and `IDLValue` read them, so both sides name them from here.

/// The first byte of a tagged `visit_bytes` payload (the numbers are candid's).
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BytesTag {
    /// An `int`: the two's-complement little-endian bytes.
    Int = 0,
    /// A `nat`: the little-endian magnitude bytes.
    Nat = 1,
    /// A principal's bytes.
    Principal = 2,
    /// A `reserved` value (no payload).
    Reserved = 3,
    /// A service reference: its principal's bytes.
    Service = 4,
    /// A func reference: the method name's LEB128 length and text, then the principal.
    Func = 5,
    /// A blob's bytes.
    Blob = 6,
}

impl BytesTag {
    /// The tag of a payload and the bytes after it; `None` for an empty payload or
    /// an unknown tag.
    pub(crate) fn split(bytes: &[u8]) -> Option<(BytesTag, &[u8])> {
        let (&tag, rest) = bytes.split_first()?;
        let tag = match tag {
            0 => BytesTag::Int,
            1 => BytesTag::Nat,
            2 => BytesTag::Principal,
            3 => BytesTag::Reserved,
            4 => BytesTag::Service,
            5 => BytesTag::Func,
            6 => BytesTag::Blob,
            _ => return None,
        };
        Some((tag, rest))
    }
}
