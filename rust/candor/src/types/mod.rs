//! Candid types and the `CandidType` trait.
//!
//! * [`CandidType`] gives the Candid type of a Rust type and writes a value's bytes
//!   through a [`Serializer`]. Candid needs the type table written next to the
//!   values, which serde's `Serialize` cannot express, hence a trait of our own
//!   (with candid's names and shapes).
//! * Decoding uses serde's `Deserialize` directly, except where a type opts in to
//!   direct decoding (`de/direct.rs`).

/// The direct-decoding methods of a leaf type (inside its `CandidType` impl): it can
/// be decoded as an element of a direct vector, through its own `Deserialize`.
macro_rules! direct_leaf {
    () => {
        #[inline]
        fn _has_direct() -> bool {
            true
        }
        #[inline]
        fn _decode_direct(d: crate::de::Direct<'_, '_>) -> Option<Self> {
            d.serde()
        }
    };
}

/// The static description of a primitive type (inside its `CandidType` impl).
macro_rules! static_prim {
    ($p:ident) => {
        #[inline]
        fn _static_type() -> Option<&'static crate::types::StaticType> {
            Some(const { &crate::types::StaticType::prim(crate::types::static_type::Prim::$p) })
        }
        const _PART: crate::types::shallow::Part =
            crate::types::shallow::Part::prim(crate::types::static_type::Prim::$p);
    };
}

/// The static description of a type whose `_ty()` builds one node of `kind` (an
/// expression of `static_type::StaticKind`, with its names in scope), owned by
/// `Self`.
macro_rules! static_owned {
    ($kind:expr) => {
        #[inline]
        fn _static_type() -> Option<&'static crate::types::StaticType> {
            #[allow(unused_imports)]
            use crate::types::static_type::{
                link, Prim, StaticField, StaticKind, StaticLabel, StaticRef,
            };
            Some(
                const {
                    &crate::types::StaticType {
                        owner: Some(<Self as crate::types::CandidType>::id),
                        kind: $kind,
                    }
                },
            )
        }
    };
}

/// The static description of a type transparent in Candid: its inner type's.
macro_rules! static_forward {
    ($inner:ty) => {
        #[inline]
        fn _static_type() -> Option<&'static crate::types::StaticType> {
            <$inner as crate::types::CandidType>::_static_type()
        }
        const _PART: crate::types::shallow::Part = <$inner as crate::types::CandidType>::_PART;
        const _ENTRY: crate::types::shallow::Entry = <$inner as crate::types::CandidType>::_ENTRY;
        const _L1: crate::types::shallow::Tree = <$inner as crate::types::CandidType>::_L1;
        const _L2: crate::types::shallow::Tree = <$inner as crate::types::CandidType>::_L2;
        const _L3: crate::types::shallow::Tree = <$inner as crate::types::CandidType>::_L3;
        const _L4: crate::types::shallow::Tree = <$inner as crate::types::CandidType>::_L4;
        const _L5: crate::types::shallow::Tree = <$inner as crate::types::CandidType>::_L5;
        const _L6: crate::types::shallow::Tree = <$inner as crate::types::CandidType>::_L6;
        const _L7: crate::types::shallow::Tree = <$inner as crate::types::CandidType>::_L7;
        const _L8: crate::types::shallow::Tree = <$inner as crate::types::CandidType>::_L8;
    };
}

/// The shallow constants (`types/shallow.rs`) of a type that owns one node, inside
/// its `CandidType` impl: `opt T`, `vec T`, a blob, a map's `vec record { K; V }`,
/// or a record or variant of `(id, T)` fields in the order `ty()` lists them. Each
/// level `_Lk` is the entry over the parts' level `k - 1`.
macro_rules! shallow {
    (opt $t:ty) => {
        shallow!(@node crate::types::shallow::Entry::opt(<$t as crate::types::CandidType>::_PART);
            [<$t as crate::types::CandidType>::_L1],
            [<$t as crate::types::CandidType>::_L2],
            [<$t as crate::types::CandidType>::_L3],
            [<$t as crate::types::CandidType>::_L4],
            [<$t as crate::types::CandidType>::_L5],
            [<$t as crate::types::CandidType>::_L6],
            [<$t as crate::types::CandidType>::_L7]);
    };
    (vec $t:ty) => {
        shallow!(@node crate::types::shallow::Entry::vec(<$t as crate::types::CandidType>::_PART);
            [<$t as crate::types::CandidType>::_L1],
            [<$t as crate::types::CandidType>::_L2],
            [<$t as crate::types::CandidType>::_L3],
            [<$t as crate::types::CandidType>::_L4],
            [<$t as crate::types::CandidType>::_L5],
            [<$t as crate::types::CandidType>::_L6],
            [<$t as crate::types::CandidType>::_L7]);
    };
    (blob) => {
        const _PART: crate::types::shallow::Part = crate::types::shallow::Part::Node;
        const _ENTRY: crate::types::shallow::Entry = crate::types::shallow::Entry::vec(
            crate::types::shallow::Part::prim(crate::types::static_type::Prim::Nat8),
        );
    };
    (map $k:ty, $v:ty) => {
        shallow!(@node crate::types::shallow::Entry::vec(crate::types::shallow::Part::Node);
            [crate::types::shallow::Tree::leaf(shallow!(@pair $k, $v))],
            [shallow!(@pair $k, $v; _L1)],
            [shallow!(@pair $k, $v; _L2)],
            [shallow!(@pair $k, $v; _L3)],
            [shallow!(@pair $k, $v; _L4)],
            [shallow!(@pair $k, $v; _L5)],
            [shallow!(@pair $k, $v; _L6)]);
    };
    (@pair $k:ty, $v:ty) => {
        crate::types::shallow::Entry::record(
            &[shallow!(@field 0, $k), shallow!(@field 1, $v)],
            &[
                crate::types::static_type::StaticLabel::Id,
                crate::types::static_type::StaticLabel::Id,
            ],
        )
    };
    (@pair $k:ty, $v:ty; $level:ident) => {
        crate::types::shallow::Tree::of(
            shallow!(@pair $k, $v),
            &[
                <$k as crate::types::CandidType>::$level,
                <$v as crate::types::CandidType>::$level,
            ],
        )
    };
    ($kind:ident $(($id:expr, $label:expr, $t:ty)),+) => {
        shallow!(@node crate::types::shallow::Entry::$kind(
                &[$(shallow!(@field $id, $t)),+],
                &[$($label),+],
            );
            [$(<$t as crate::types::CandidType>::_L1),+],
            [$(<$t as crate::types::CandidType>::_L2),+],
            [$(<$t as crate::types::CandidType>::_L3),+],
            [$(<$t as crate::types::CandidType>::_L4),+],
            [$(<$t as crate::types::CandidType>::_L5),+],
            [$(<$t as crate::types::CandidType>::_L6),+],
            [$(<$t as crate::types::CandidType>::_L7),+]);
    };
    (@field $id:expr, $t:ty) => {
        (
            $id,
            crate::types::static_type::leb_word($id),
            <$t as crate::types::CandidType>::_PART,
        )
    };
    (@node $entry:expr; [$($l1:expr),+], [$($l2:expr),+], [$($l3:expr),+], [$($l4:expr),+], [$($l5:expr),+], [$($l6:expr),+], [$($l7:expr),+]) => {
        const _PART: crate::types::shallow::Part = crate::types::shallow::Part::Node;
        const _ENTRY: crate::types::shallow::Entry = $entry;
        const _L2: crate::types::shallow::Tree =
            crate::types::shallow::Tree::of(Self::_ENTRY, &[$($l1),+]);
        const _L3: crate::types::shallow::Tree =
            crate::types::shallow::Tree::of(Self::_ENTRY, &[$($l2),+]);
        const _L4: crate::types::shallow::Tree =
            crate::types::shallow::Tree::of(Self::_ENTRY, &[$($l3),+]);
        const _L5: crate::types::shallow::Tree =
            crate::types::shallow::Tree::of(Self::_ENTRY, &[$($l4),+]);
        const _L6: crate::types::shallow::Tree =
            crate::types::shallow::Tree::of(Self::_ENTRY, &[$($l5),+]);
        const _L7: crate::types::shallow::Tree =
            crate::types::shallow::Tree::of(Self::_ENTRY, &[$($l6),+]);
        const _L8: crate::types::shallow::Tree =
            crate::types::shallow::Tree::of(Self::_ENTRY, &[$($l7),+]);
    };
}

pub(crate) mod bytes_tag;
mod doc;
mod env;
mod hash;
mod impls;
pub mod internal;
mod model;
pub mod number;
mod text_size;
pub(crate) mod walk;
/// `Principal`, the exact type candid uses (from `ic_principal`).
pub mod principal {
    pub use ic_principal::{Principal, PrincipalError};
}
pub mod arc;
pub mod bounded_vec;
pub mod leb128;
mod macros;
pub mod rc;
pub mod reference;
pub mod reserved;
pub mod result;
#[doc(hidden)]
pub mod shallow;
#[doc(hidden)]
pub mod static_type;
pub mod subtype;
pub mod text;

pub use doc::{FieldDoc, TypeDoc, TypeDocs};
pub use env::TypeEnv;
pub use hash::idl_hash;
pub use internal::get_type;
pub(crate) use model::is_plain_label;
pub use model::{
    ident_string, is_primitive, Field, FuncMode, Function, Label, SharedLabel, Type, TypeId,
    TypeInner,
};
#[doc(hidden)]
pub use static_type::StaticType;

/// A Rust type with a Candid type and a Candid encoding.
///
/// Derive it with `#[derive(CandidType)]`; write it by hand by giving `_ty` (the type)
/// and `idl_serialize` (the value).
pub trait CandidType {
    /// The Candid type, memoised per thread: computed once per Rust type, with
    /// recursion tied through [`TypeInner::Knot`]. Do not override.
    fn ty() -> Type {
        internal::memo_ty::<Self>()
    }
    /// The identity used to memoise [`ty`](Self::ty) and to tie recursive types.
    /// Wrappers that are transparent in Candid (`Box`, `Rc`, …) return their inner
    /// type's id so a recursive type through them ties the knot.
    fn id() -> TypeId {
        TypeId::of::<Self>()
    }
    /// Computes the Candid type (called once per type by [`ty`](Self::ty)).
    fn _ty() -> Type;
    /// The doc comments of the type and its fields (the derive fills it from `///`
    /// lines); printed by `export_service!` into the service's `.did`.
    fn _ty_doc() -> TypeDoc {
        TypeDoc::default()
    }
    /// Writes the value's bytes (no type information) to `serializer`.
    fn idl_serialize<S>(&self, serializer: S) -> Result<(), S::Error>
    where
        S: Serializer;

    /// Hidden fast path for `Vec<Self>`/`[Self]`: when `Self` is a fixed-width number
    /// and the target is little-endian, the slice's memory is already its Candid
    /// encoding and is written with one copy.
    #[doc(hidden)]
    fn _le_bytes(_slice: &[Self]) -> Option<&[u8]>
    where
        Self: Sized,
    {
        None
    }
    /// Hidden: whether [`_decode_direct`](Self::_decode_direct) can decode this
    /// type (std vectors of candor's leaf types). False for every other type,
    /// whose `Deserialize` is then the only way to decode it.
    #[doc(hidden)]
    fn _has_direct() -> bool
    where
        Self: Sized,
    {
        false
    }
    /// Hidden: whether an argument of this type is decoded directly first. True for
    /// vectors of types with a direct path, where it saves serde's element loop; a
    /// leaf alone would only add the attempt (and, on bad input, a second error).
    #[doc(hidden)]
    fn _try_direct() -> bool
    where
        Self: Sized,
    {
        false
    }
    /// Hidden: decodes a value without serde's visitors (`de/direct.rs`). `None`
    /// means "not here": the decoder rewinds and takes the serde path, which also
    /// reports any error.
    #[doc(hidden)]
    fn _decode_direct(_d: crate::de::Direct<'_, '_>) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// Hidden: decodes a `Vec<Self>` directly; element by element unless the type
    /// has a faster layout (fixed-width numbers: one copy).
    #[doc(hidden)]
    fn _decode_direct_vec(d: crate::de::Direct<'_, '_>) -> Option<Vec<Self>>
    where
        Self: Sized,
    {
        d.vec_of(Self::_decode_direct)
    }
    /// Hidden: the type's static description, which the decoder interns without
    /// building [`ty`](Self::ty)'s tree (`types/static_type.rs`). `None`, the
    /// default, keeps the `ty()` path; a description must give the same type as
    /// `_ty()`.
    #[doc(hidden)]
    fn _static_type() -> Option<&'static StaticType> {
        None
    }
    /// Hidden: what the type is to a node that holds it, computed by the compiler
    /// (`types/shallow.rs`). Not known, the default, keeps the run-time header.
    #[doc(hidden)]
    const _PART: shallow::Part = shallow::Part::Unknown;
    /// Hidden: the type's own table entry, from its parts' [`_PART`](Self::_PART).
    #[doc(hidden)]
    const _ENTRY: shallow::Entry = shallow::Entry::leaf(Self::_PART);
    /// Hidden: the type's entries down to one level ([`_ENTRY`](Self::_ENTRY)
    /// alone).
    #[doc(hidden)]
    const _L1: shallow::Tree = shallow::Tree::leaf(Self::_ENTRY);
    /// Hidden: the type's entries down to two levels, from its parts' `_L1`.
    #[doc(hidden)]
    const _L2: shallow::Tree = shallow::Tree::leaf(Self::_ENTRY);
    /// Hidden: down to three levels, from its parts' `_L2`.
    #[doc(hidden)]
    const _L3: shallow::Tree = shallow::Tree::leaf(Self::_ENTRY);
    /// Hidden: down to four levels, from its parts' `_L3`.
    #[doc(hidden)]
    const _L4: shallow::Tree = shallow::Tree::leaf(Self::_ENTRY);
    /// Hidden: down to five levels, from its parts' `_L4`.
    #[doc(hidden)]
    const _L5: shallow::Tree = shallow::Tree::leaf(Self::_ENTRY);
    /// Hidden: down to six levels, from its parts' `_L5`.
    #[doc(hidden)]
    const _L6: shallow::Tree = shallow::Tree::leaf(Self::_ENTRY);
    /// Hidden: down to seven levels, from its parts' `_L6`.
    #[doc(hidden)]
    const _L7: shallow::Tree = shallow::Tree::leaf(Self::_ENTRY);
    /// Hidden: down to eight levels, from its parts' `_L7`: what a header written
    /// by the compiler takes (`ser/const_header.rs`).
    #[doc(hidden)]
    const _L8: shallow::Tree = shallow::Tree::leaf(Self::_ENTRY);
    /// Hidden: true for `u8`, so `Vec<u8>` can be written as one blob.
    #[doc(hidden)]
    fn _is_u8() -> bool
    where
        Self: Sized,
    {
        false
    }
}

/// Writes Candid values (candid's serializer interface).
pub trait Serializer: Sized {
    /// What a failed write reports.
    type Error: serde::ser::Error;
    /// The writer for the parts of a record, variant or vector.
    type Compound: Compound<Error = Self::Error>;
    /// Writes a `bool` (one byte, 0 or 1).
    fn serialize_bool(self, v: bool) -> Result<(), Self::Error>;
    /// Writes an `int` (SLEB128).
    fn serialize_int(self, v: &crate::types::number::Int) -> Result<(), Self::Error>;
    /// Writes an `int` from an `i128` without building a bignum.
    fn serialize_i128(self, v: i128) -> Result<(), Self::Error>;
    /// Writes a `nat` (LEB128).
    fn serialize_nat(self, v: &crate::types::number::Nat) -> Result<(), Self::Error>;
    /// Writes a `nat` from a `u128` without building a bignum.
    fn serialize_u128(self, v: u128) -> Result<(), Self::Error>;
    /// Writes a `nat8`.
    fn serialize_nat8(self, v: u8) -> Result<(), Self::Error>;
    /// Writes a `nat16` (little-endian, as every fixed-width number).
    fn serialize_nat16(self, v: u16) -> Result<(), Self::Error>;
    /// Writes a `nat32`.
    fn serialize_nat32(self, v: u32) -> Result<(), Self::Error>;
    /// Writes a `nat64`.
    fn serialize_nat64(self, v: u64) -> Result<(), Self::Error>;
    /// Writes an `int8`.
    fn serialize_int8(self, v: i8) -> Result<(), Self::Error>;
    /// Writes an `int16`.
    fn serialize_int16(self, v: i16) -> Result<(), Self::Error>;
    /// Writes an `int32`.
    fn serialize_int32(self, v: i32) -> Result<(), Self::Error>;
    /// Writes an `int64`.
    fn serialize_int64(self, v: i64) -> Result<(), Self::Error>;
    /// Writes a `float32`.
    fn serialize_float32(self, v: f32) -> Result<(), Self::Error>;
    /// Writes a `float64`.
    fn serialize_float64(self, v: f64) -> Result<(), Self::Error>;
    /// Writes a `text` (LEB128 length, then the UTF-8 bytes).
    fn serialize_text(self, v: &str) -> Result<(), Self::Error>;
    /// Writes a `null` (no bytes).
    fn serialize_null(self, v: ()) -> Result<(), Self::Error>;
    /// Called for `empty`, which has no values: a value writer returns an error.
    fn serialize_empty(self) -> Result<(), Self::Error>;
    /// Writes an `opt` (a 0 byte, or a 1 byte then the value).
    fn serialize_option<T>(self, v: Option<&T>) -> Result<(), Self::Error>
    where
        T: CandidType + ?Sized;
    /// Starts a record (or tuple): its fields follow through the [`Compound`].
    fn serialize_struct(self) -> Result<Self::Compound, Self::Error>;
    /// Starts a `vec` of `len` elements (the length is written first).
    fn serialize_vec(self, len: usize) -> Result<Self::Compound, Self::Error>;
    /// Writes a `vec nat8` from its bytes.
    fn serialize_blob(self, v: &[u8]) -> Result<(), Self::Error>;
    /// Starts a variant with the case at `index` (in label id order); the payload
    /// follows through the [`Compound`].
    fn serialize_variant(self, index: u64) -> Result<Self::Compound, Self::Error>;
    /// Writes a `principal` from its bytes.
    fn serialize_principal(self, v: &[u8]) -> Result<(), Self::Error>;
    /// Writes a `func` reference: the canister's principal bytes and the method name.
    fn serialize_function(self, v: &[u8], meth: &str) -> Result<(), Self::Error>;
}

/// Writes the parts of a record, variant payload or vector.
pub trait Compound {
    /// What a failed write reports.
    type Error;
    /// Writes the next field, case payload or element.
    fn serialize_element<T>(&mut self, v: &T) -> Result<(), Self::Error>
    where
        T: CandidType + ?Sized;
    /// `#[serde(with = "serde_bytes")]` on a field: write the bytes as a blob.
    #[doc(hidden)]
    fn serialize_blob(&mut self, blob: &[u8]) -> Result<(), Self::Error>;
    /// Writes the raw element bytes of a primitive vector in one go. Returns
    /// `Ok(false)` when the serializer cannot, and the caller writes element by element.
    fn try_write_raw_elements(&mut self, _bytes: &[u8]) -> Result<bool, Self::Error> {
        Ok(false)
    }
    /// Called by a vector after its first element with the number of elements still
    /// to come: a serializer that writes into a buffer may reserve room for that many
    /// more elements of the first one's size, instead of growing (and copying) the
    /// buffer several times on the way. A hint only; the default ignores it.
    #[inline]
    fn reserve_like_first(&mut self, _remaining: usize) {}
    /// [`reserve_like_first`](Self::reserve_like_first) given the elements still to
    /// come, so that a serializer may also sample the last one: sizes that grow along
    /// the vector (counters, indices, timestamps as LEB128) make the first element the
    /// smallest, and an estimate from it alone falls short and grows the buffer after
    /// all. The default estimates from the first element.
    #[inline]
    fn reserve_for_rest<T: CandidType>(&mut self, rest: &[T]) {
        self.reserve_like_first(rest.len())
    }
    /// Hidden: [`reserve_for_rest`](Self::reserve_for_rest) for a collection that is
    /// not a slice (an ordered map): `remaining` elements still to come, the last of
    /// them `last`.
    #[doc(hidden)]
    #[inline]
    fn reserve_for_rest_ending<T: CandidType>(&mut self, remaining: usize, _last: &T) {
        self.reserve_like_first(remaining)
    }
}
