//! The serde floor: the least any decoder can cost that builds a value through its
//! type's `Deserialize` impl, as candid and candor both must (a canister's types
//! derive serde's `Deserialize`, and their visitors decide how a value is built).
//!
//! [`decode`] drives the same derived visitors over the same message bytes with
//! none of Candid's work: no type table is read (the value bytes start at a known
//! offset), no wire type is compared with an expected one, no quota is counted, no
//! depth or stack is watched, and nothing is checked that the bytes of a well-formed
//! message of the expected type could get wrong, except what building the value
//! itself needs (UTF-8 for texts, the `Deserialize` impls' own checks). It walks a
//! flat copy of the expected type made once, before measuring ([`Schema::of`]),
//! with record fields in wire order, so each value costs one array read to know
//! what comes next.
//!
//! The hand-written floors (`traffic::Bytes`) build the same values without serde;
//! the gap between the two floors is what serde's visitor protocol costs, which no
//! serde-based decoder can go under.

use crate::lib::types::internal::{find_type, TypeId};
use crate::lib::types::{Label, Type, TypeInner};
use crate::lib::CandidType;
use serde::de::{self, DeserializeSeed, Visitor};
use std::fmt;

/// One node of the flat expected type.
#[derive(Clone, Copy)]
enum Shape {
    Null,
    Bool,
    Nat,
    Int,
    Nat8,
    Nat16,
    Nat32,
    Nat64,
    Int8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Text,
    Principal,
    Opt(u32),
    Vec(u32),
    /// Fields `start..start + len` of [`Schema::fields`], in wire (id) order.
    Record(u32, u32),
    /// Cases `start..start + len` of [`Schema::fields`], by wire index.
    Variant(u32, u32),
    Func,
    /// A `Knot` whose node is not built yet (only while [`Schema::of`] runs).
    Pending,
}

struct Field {
    name: Box<str>,
    shape: u32,
}

/// A Rust type's Candid type as flat arrays: nodes, and the fields they point to.
pub struct Schema {
    nodes: Vec<Shape>,
    fields: Vec<Field>,
    knots: Vec<(TypeId, u32)>,
    root: u32,
}

impl Schema {
    /// The flat expected type of `T`.
    pub fn of<T: CandidType>() -> Schema {
        let mut s = Schema {
            nodes: Vec::new(),
            fields: Vec::new(),
            knots: Vec::new(),
            root: 0,
        };
        s.root = s.add(&T::ty());
        s
    }

    fn add(&mut self, ty: &Type) -> u32 {
        let shape = match ty.as_ref() {
            TypeInner::Null => Shape::Null,
            TypeInner::Bool => Shape::Bool,
            TypeInner::Nat => Shape::Nat,
            TypeInner::Int => Shape::Int,
            TypeInner::Nat8 => Shape::Nat8,
            TypeInner::Nat16 => Shape::Nat16,
            TypeInner::Nat32 => Shape::Nat32,
            TypeInner::Nat64 => Shape::Nat64,
            TypeInner::Int8 => Shape::Int8,
            TypeInner::Int16 => Shape::Int16,
            TypeInner::Int32 => Shape::Int32,
            TypeInner::Int64 => Shape::Int64,
            TypeInner::Float32 => Shape::Float32,
            TypeInner::Float64 => Shape::Float64,
            TypeInner::Text => Shape::Text,
            TypeInner::Principal => Shape::Principal,
            TypeInner::Func(_) => Shape::Func,
            TypeInner::Knot(id) => {
                if let Some(&(_, at)) = self.knots.iter().find(|(k, _)| k == id) {
                    return at;
                }
                let at = self.push(Shape::Pending);
                // candor's `TypeId` is `Copy`, candid's is not.
                #[allow(clippy::clone_on_copy)]
                self.knots.push((id.clone(), at));
                let inner = find_type(id).expect("a knot's type is registered");
                let built = self.add(&inner);
                self.nodes[at as usize] = self.nodes[built as usize];
                return at;
            }
            TypeInner::Opt(t) => {
                let inner = self.add(t);
                Shape::Opt(inner)
            }
            TypeInner::Vec(t) => {
                let inner = self.add(t);
                Shape::Vec(inner)
            }
            TypeInner::Record(fs) | TypeInner::Variant(fs) => {
                let mut fs: Vec<_> = fs.iter().collect();
                fs.sort_by_key(|f| f.id.get_id());
                let built: Vec<Field> = fs
                    .iter()
                    .map(|f| Field {
                        name: match f.id.as_ref() {
                            Label::Named(n) => n.as_str().into(),
                            Label::Id(n) | Label::Unnamed(n) => n.to_string().into(),
                        },
                        shape: self.add(&f.ty),
                    })
                    .collect();
                let start = self.fields.len() as u32;
                let len = built.len() as u32;
                self.fields.extend(built);
                if matches!(ty.as_ref(), TypeInner::Record(_)) {
                    Shape::Record(start, len)
                } else {
                    Shape::Variant(start, len)
                }
            }
            other => panic!("no serde floor for {other:?}"),
        };
        self.push(shape)
    }

    fn push(&mut self, shape: Shape) -> u32 {
        self.nodes.push(shape);
        (self.nodes.len() - 1) as u32
    }
}

/// Decodes the value bytes of a one-argument message (the header already skipped)
/// through `T`'s `Deserialize`.
pub fn decode<'de, T: de::Deserialize<'de>>(schema: &Schema, bytes: &'de [u8]) -> T {
    let mut r = Reader { bytes, pos: 0 };
    match T::deserialize(FloorDe {
        r: &mut r,
        s: schema,
        at: schema.root,
    }) {
        Ok(v) => v,
        Err(e) => panic!("serde floor: {e}"),
    }
}

#[derive(Debug)]
pub struct FloorError(String);

impl fmt::Display for FloorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for FloorError {}
impl de::Error for FloorError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        FloorError(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, FloorError>;

#[cold]
fn short() -> FloorError {
    FloorError("message too short".into())
}

struct Reader<'de> {
    bytes: &'de [u8],
    pos: usize,
}

impl<'de> Reader<'de> {
    #[inline]
    fn byte(&mut self) -> Result<u8> {
        let b = *self.bytes.get(self.pos).ok_or_else(short)?;
        self.pos += 1;
        Ok(b)
    }
    #[inline]
    fn take(&mut self, n: usize) -> Result<&'de [u8]> {
        let end = self.pos.checked_add(n).ok_or_else(short)?;
        let s = self.bytes.get(self.pos..end).ok_or_else(short)?;
        self.pos = end;
        Ok(s)
    }
    #[inline]
    fn fixed<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    #[inline]
    fn leb(&mut self) -> Result<u64> {
        let (mut x, mut shift) = (0u64, 0);
        loop {
            let b = self.byte()?;
            x |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(x);
            }
            shift += 7;
        }
    }
    #[inline]
    fn sleb(&mut self) -> Result<i64> {
        let (mut x, mut shift) = (0i64, 0);
        loop {
            let b = self.byte()?;
            x |= i64::from(b & 0x7f) << shift;
            shift += 7;
            if b < 0x80 {
                if shift < 64 && b & 0x40 != 0 {
                    x |= -1 << shift;
                }
                return Ok(x);
            }
        }
    }
    #[inline]
    fn len(&mut self) -> Result<usize> {
        Ok(self.leb()? as usize)
    }
    #[inline]
    fn text(&mut self) -> Result<&'de str> {
        let n = self.len()?;
        std::str::from_utf8(self.take(n)?).map_err(de::Error::custom)
    }
    #[inline]
    fn principal(&mut self) -> Result<&'de [u8]> {
        self.byte()?;
        let n = self.len()?;
        self.take(n)
    }
}

/// One value: the reader, the schema and the value's node.
struct FloorDe<'a, 'de> {
    r: &'a mut Reader<'de>,
    s: &'a Schema,
    at: u32,
}

impl<'a, 'de> FloorDe<'a, 'de> {
    #[inline]
    fn shape(&self) -> Shape {
        self.s.nodes[self.at as usize]
    }
    #[inline]
    fn at(&mut self, at: u32) -> FloorDe<'_, 'de> {
        FloorDe {
            r: &mut *self.r,
            s: self.s,
            at,
        }
    }
}

macro_rules! fixed {
    ($($method:ident, $visit:ident, $t:ty, $n:literal;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            v.$visit(<$t>::from_le_bytes(self.r.fixed::<$n>()?))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for FloorDe<'_, 'de> {
    type Error = FloorError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.shape() {
            Shape::Null => v.visit_unit(),
            Shape::Bool => self.deserialize_bool(v),
            Shape::Nat => v.visit_u64(self.r.leb()?),
            Shape::Int => v.visit_i64(self.r.sleb()?),
            Shape::Nat8 => self.deserialize_u8(v),
            Shape::Nat16 => self.deserialize_u16(v),
            Shape::Nat32 => self.deserialize_u32(v),
            Shape::Nat64 => self.deserialize_u64(v),
            Shape::Int8 => self.deserialize_i8(v),
            Shape::Int16 => self.deserialize_i16(v),
            Shape::Int32 => self.deserialize_i32(v),
            Shape::Int64 => self.deserialize_i64(v),
            Shape::Float32 => self.deserialize_f32(v),
            Shape::Float64 => self.deserialize_f64(v),
            Shape::Text => self.deserialize_str(v),
            Shape::Principal => self.deserialize_bytes(v),
            Shape::Opt(_) => self.deserialize_option(v),
            Shape::Vec(_) => self.deserialize_seq(v),
            Shape::Record(..) => self.deserialize_struct("", &[], v),
            Shape::Variant(..) => self.deserialize_enum("", &[], v),
            Shape::Func => {
                // The `visit_byte_buf` protocol candid's and candor's `Func` share:
                // tag 5, the method name's length and bytes, the principal.
                self.r.byte()?;
                let principal = self.r.principal()?;
                let method = self.r.text()?;
                let mut out = Vec::with_capacity(principal.len() + method.len() + 12);
                out.push(5);
                let mut n = method.len() as u64;
                loop {
                    let b = (n & 0x7f) as u8;
                    n >>= 7;
                    if n == 0 {
                        out.push(b);
                        break;
                    }
                    out.push(b | 0x80);
                }
                out.extend_from_slice(method.as_bytes());
                out.extend_from_slice(principal);
                v.visit_byte_buf(out)
            }
            Shape::Pending => Err(de::Error::custom("unbuilt knot")),
        }
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_bool(self.r.byte()? != 0)
    }

    fixed! {
        deserialize_u8, visit_u8, u8, 1;
        deserialize_u16, visit_u16, u16, 2;
        deserialize_u32, visit_u32, u32, 4;
        deserialize_u64, visit_u64, u64, 8;
        deserialize_i8, visit_i8, i8, 1;
        deserialize_i16, visit_i16, i16, 2;
        deserialize_i32, visit_i32, i32, 4;
        deserialize_i64, visit_i64, i64, 8;
        deserialize_f32, visit_f32, f32, 4;
        deserialize_f64, visit_f64, f64, 8;
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_borrowed_str(self.r.text()?)
    }
    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    #[inline]
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let bytes = match self.shape() {
            Shape::Principal => self.r.principal()?,
            _ => {
                let n = self.r.len()?;
                self.r.take(n)?
            }
        };
        v.visit_borrowed_bytes(bytes)
    }
    #[inline]
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_bytes(v)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value> {
        let Shape::Opt(inner) = self.shape() else {
            return Err(de::Error::custom("not an opt"));
        };
        if self.r.byte()? == 0 {
            v.visit_none()
        } else {
            v.visit_some(self.at(inner))
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let Shape::Vec(el) = self.shape() else {
            return Err(de::Error::custom("not a vec"));
        };
        let left = self.r.len()?;
        v.visit_seq(Elems {
            r: self.r,
            s: self.s,
            el,
            left,
        })
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        match self.shape() {
            Shape::Record(start, len) => v.visit_seq(Fields {
                r: self.r,
                s: self.s,
                next: start,
                end: start + len,
            }),
            _ => self.deserialize_seq(v),
        }
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        let Shape::Record(start, len) = self.shape() else {
            return Err(de::Error::custom("not a record"));
        };
        v.visit_map(Fields {
            r: self.r,
            s: self.s,
            next: start,
            end: start + len,
        })
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        let Shape::Variant(start, len) = self.shape() else {
            return Err(de::Error::custom("not a variant"));
        };
        let index = self.r.leb()?;
        if index >= u64::from(len) {
            return Err(de::Error::custom("variant index out of range"));
        }
        v.visit_enum(Case {
            r: self.r,
            s: self.s,
            field: start + index as u32,
        })
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _v: V) -> Result<V::Value> {
        Err(de::Error::custom("the floor reads only known fields"))
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char unit_struct tuple_struct map identifier
    }
}

/// A field or case name, handed to the derived field visitor as candor and candid do.
struct Name<'a>(&'a str);

impl<'de> de::Deserializer<'de> for Name<'_> {
    type Error = FloorError;
    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_str(self.0)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The elements of a vector.
struct Elems<'a, 'de> {
    r: &'a mut Reader<'de>,
    s: &'a Schema,
    el: u32,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Elems<'_, 'de> {
    type Error = FloorError;
    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(FloorDe {
            r: &mut *self.r,
            s: self.s,
            at: self.el,
        })
        .map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// The fields of a record, in wire order: by name for a struct, by position for a
/// tuple.
struct Fields<'a, 'de> {
    r: &'a mut Reader<'de>,
    s: &'a Schema,
    next: u32,
    end: u32,
}

impl<'a, 'de> Fields<'a, 'de> {
    #[inline]
    fn value<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let shape = self.s.fields[self.next as usize].shape;
        self.next += 1;
        seed.deserialize(FloorDe {
            r: &mut *self.r,
            s: self.s,
            at: shape,
        })
    }
}

impl<'de> de::SeqAccess<'de> for Fields<'_, 'de> {
    type Error = FloorError;
    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.next == self.end {
            return Ok(None);
        }
        self.value(seed).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some((self.end - self.next) as usize)
    }
}

impl<'de> de::MapAccess<'de> for Fields<'_, 'de> {
    type Error = FloorError;
    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.next == self.end {
            return Ok(None);
        }
        seed.deserialize(Name(&self.s.fields[self.next as usize].name))
            .map(Some)
    }
    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        self.value(seed)
    }
}

/// A variant's case: its name, then its payload.
struct Case<'a, 'de> {
    r: &'a mut Reader<'de>,
    s: &'a Schema,
    field: u32,
}

impl<'a, 'de> de::EnumAccess<'de> for Case<'a, 'de> {
    type Error = FloorError;
    type Variant = Self;
    #[inline]
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed.deserialize(Name(&self.s.fields[self.field as usize].name))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for Case<'_, 'de> {
    type Error = FloorError;
    #[inline]
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let at = self.s.fields[self.field as usize].shape;
        seed.deserialize(FloorDe {
            r: self.r,
            s: self.s,
            at,
        })
    }
    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value> {
        let at = self.s.fields[self.field as usize].shape;
        de::Deserializer::deserialize_tuple(
            FloorDe {
                r: self.r,
                s: self.s,
                at,
            },
            len,
            v,
        )
    }
    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        let at = self.s.fields[self.field as usize].shape;
        de::Deserializer::deserialize_struct(
            FloorDe {
                r: self.r,
                s: self.s,
                at,
            },
            "",
            fields,
            v,
        )
    }
}
