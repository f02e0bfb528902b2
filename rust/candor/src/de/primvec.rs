//! `PrimVecAccess`: the elements of a vector of fixed-width numbers (or bools),
//! read straight from the input slice. The caller checked the element type once and
//! charged the whole vector's cost once, as candid does.
//!
//! The access is generic over the element type, so the per-element work is one
//! fixed-size load and the visitor call: no per-element `match` on the type.

use crate::error::Error;
use crate::error::Result;
use crate::wire::header::Prim;
use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};

/// Fixed-width element types (the ones with a fast path).
#[inline]
pub(crate) fn is_fixed(p: Prim) -> bool {
    matches!(
        p,
        Prim::Bool
            | Prim::Nat8
            | Prim::Nat16
            | Prim::Nat32
            | Prim::Nat64
            | Prim::Int8
            | Prim::Int16
            | Prim::Int32
            | Prim::Int64
            | Prim::Float32
            | Prim::Float64
    )
}

/// Byte width of a fixed-width element type.
#[inline]
pub(crate) fn size(p: Prim) -> usize {
    match p {
        Prim::Nat16 | Prim::Int16 => 2,
        Prim::Nat32 | Prim::Int32 | Prim::Float32 => 4,
        Prim::Nat64 | Prim::Int64 | Prim::Float64 => 8,
        _ => 1,
    }
}

/// A fixed-width number read from its little-endian bytes and handed to a visitor.
///
/// # Safety
/// Implemented only for types with no padding whose every bit pattern is a valid
/// value of `SIZE` bytes: direct decoding (`direct.rs`) copies a vector's bytes into
/// their memory.
pub(crate) unsafe trait LeNum: Copy {
    const SIZE: usize;
    /// The Candid type whose elements this reads.
    const PRIM: Prim;
    /// Takes one element off the front of `rest`. The width is a constant of each
    /// implementation, so the read compiles to one length check, one load and a pointer
    /// bump (a width read from a slice length would need a second, failing check).
    fn take(rest: &mut &[u8]) -> Option<Self>;
    fn visit<'de, V: Visitor<'de>>(self, v: V) -> Result<V::Value>;
}

macro_rules! le_num {
    ($($t:ty, $visit:ident, $p:ident;)*) => {$(
        // SAFETY: a primitive number: no padding, every bit pattern valid.
        unsafe impl LeNum for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            const PRIM: Prim = Prim::$p;
            #[inline(always)]
            fn take(rest: &mut &[u8]) -> Option<Self> {
                let (head, tail) = rest.split_first_chunk::<{ std::mem::size_of::<$t>() }>()?;
                *rest = tail;
                Some(<$t>::from_le_bytes(*head))
            }
            #[inline(always)]
            fn visit<'de, V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                v.$visit(self)
            }
        }
    )*};
}
le_num! {
    u8, visit_u8, Nat8; i8, visit_i8, Int8; u16, visit_u16, Nat16; i16, visit_i16, Int16;
    u32, visit_u32, Nat32; i32, visit_i32, Int32; u64, visit_u64, Nat64; i64, visit_i64, Int64;
    f32, visit_f32, Float32; f64, visit_f64, Float64;
}

/// `bool` elements: one byte that must be 0 or 1.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct BoolByte(u8);

// SAFETY: one `u8`; every byte is a valid `BoolByte` (its visit checks 0 or 1).
unsafe impl LeNum for BoolByte {
    const SIZE: usize = 1;
    const PRIM: Prim = Prim::Bool;
    #[inline(always)]
    fn take(rest: &mut &[u8]) -> Option<Self> {
        let (&b, tail) = rest.split_first()?;
        *rest = tail;
        Some(BoolByte(b))
    }
    #[inline(always)]
    fn visit<'de, V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.0 {
            0 => v.visit_bool(false),
            1 => v.visit_bool(true),
            b => Err(Error::msg(format!("expected bool 00 or 01, found {b:02x}"))),
        }
    }
}

/// Visits the elements of `data` (whole elements of type `T`) with `v`.
///
/// Never inlined, on purpose: as its own function it is the only caller of the visitor's
/// `visit_seq` for this access type, so the optimiser inlines `visit_seq` here and keeps
/// the access in registers. Inlined into `prim_vec` (one arm per element type), the
/// visitor's loop stays out of line and writes the access back to memory per element.
#[inline(never)]
pub(crate) fn visit<'de, T: LeNum, V: Visitor<'de>>(
    data: &'de [u8],
    at: usize,
    v: V,
) -> Result<V::Value> {
    let mut access = PrimVecAccess::<T> {
        rest: data,
        _t: std::marker::PhantomData,
    };
    v.visit_seq(&mut access).map_err(|e| e.at(at))
}

/// `rest` holds whole elements only (the caller took `len * SIZE` bytes).
struct PrimVecAccess<'de, T> {
    rest: &'de [u8],
    _t: std::marker::PhantomData<T>,
}

impl<'de, T: LeNum> SeqAccess<'de> for PrimVecAccess<'de, T> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match T::take(&mut self.rest) {
            Some(x) => seed.deserialize(Elem(x)).map(Some),
            None => Ok(None),
        }
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        Some(self.rest.len() / T::SIZE)
    }
}

/// One element, handed to the element's `Deserialize`.
struct Elem<T>(T);

impl<'de, T: LeNum> de::Deserializer<'de> for Elem<T> {
    type Error = Error;

    #[inline(always)]
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.0.visit(v)
    }

    /// A newtype element (`struct Index(u32)`) unwraps to the number.
    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
