//! `PrimitiveVecAccess`: the elements of a vector of fixed-width numbers (or bools),
//! read straight from the input slice. The caller checked the element type once and
//! charged the whole vector's cost once, as candid does.

use crate::error::Error;
use crate::wire::header::Prim;
use crate::Result;
use serde::de::{self, DeserializeSeed, Visitor};

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

pub(crate) struct PrimVecAccess<'de> {
    data: &'de [u8],
    p: Prim,
    size: usize,
    offset: usize,
    /// Byte offset of `data` in the message, for errors.
    at: usize,
}

impl<'de> PrimVecAccess<'de> {
    pub fn new(data: &'de [u8], p: Prim, size: usize, at: usize) -> Self {
        PrimVecAccess {
            data,
            p,
            size,
            offset: 0,
            at,
        }
    }
    /// Validates the bools the visitor did not read (the bytes are consumed anyway).
    pub fn finish(&mut self) -> Result<()> {
        if self.p == Prim::Bool {
            if let Some(i) = self.data.get(self.offset..).and_then(|r| r.iter().position(|b| *b > 1)) {
                return Err(Error::binary("expected bool 00 or 01", self.at + self.offset + i));
            }
        }
        Ok(())
    }
}

impl<'de> de::SeqAccess<'de> for PrimVecAccess<'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let end = self.offset + self.size;
        let Some(bytes) = self.data.get(self.offset..end) else {
            return Ok(None);
        };
        let at = self.at + self.offset;
        self.offset = end;
        let v = match self.p {
            Prim::Bool => match bytes.first() {
                Some(0) => Value::Bool(false),
                Some(1) => Value::Bool(true),
                _ => return Err(Error::binary("expected bool 00 or 01", at)),
            },
            Prim::Nat8 => Value::U8(bytes.first().copied().unwrap_or(0)),
            Prim::Int8 => Value::I8(bytes.first().copied().unwrap_or(0) as i8),
            Prim::Nat16 => Value::U16(u16::from_le_bytes(arr(bytes))),
            Prim::Int16 => Value::I16(i16::from_le_bytes(arr(bytes))),
            Prim::Nat32 => Value::U32(u32::from_le_bytes(arr(bytes))),
            Prim::Int32 => Value::I32(i32::from_le_bytes(arr(bytes))),
            Prim::Float32 => Value::F32(f32::from_le_bytes(arr(bytes))),
            Prim::Nat64 => Value::U64(u64::from_le_bytes(arr(bytes))),
            Prim::Int64 => Value::I64(i64::from_le_bytes(arr(bytes))),
            Prim::Float64 => Value::F64(f64::from_le_bytes(arr(bytes))),
            _ => return Err(Error::msg("not a fixed-width type")),
        };
        seed.deserialize(v).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some((self.data.len() - self.offset.min(self.data.len())) / self.size.max(1))
    }
}

#[inline(always)]
fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    if b.len() == N {
        out.copy_from_slice(b);
    }
    out
}

/// One element, handed to the element's `Deserialize`.
#[derive(Clone, Copy)]
enum Value {
    Bool(bool),
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    F32(f32),
    U64(u64),
    I64(i64),
    F64(f64),
}

impl<'de> de::Deserializer<'de> for Value {
    type Error = Error;

    #[inline(always)]
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self {
            Value::Bool(x) => v.visit_bool(x),
            Value::U8(x) => v.visit_u8(x),
            Value::I8(x) => v.visit_i8(x),
            Value::U16(x) => v.visit_u16(x),
            Value::I16(x) => v.visit_i16(x),
            Value::U32(x) => v.visit_u32(x),
            Value::I32(x) => v.visit_i32(x),
            Value::F32(x) => v.visit_f32(x),
            Value::U64(x) => v.visit_u64(x),
            Value::I64(x) => v.visit_i64(x),
            Value::F64(x) => v.visit_f64(x),
        }
    }

    /// A newtype element (`struct Index(u32)`) unwraps to the number.
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Result<V::Value> {
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
