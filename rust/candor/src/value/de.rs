//! `Deserialize for IDLValue`: one visitor that builds whatever value the decoder
//! hands it.
//!
//! The decoder tells Candid-specific values apart with the first byte of a
//! `visit_bytes`/`visit_byte_buf` payload (candid's protocol): int 0, nat 1,
//! principal 2, reserved 3, service 4, func 5, blob 6. A variant case arrives as the
//! string `"<label>,<name|id>,<unit|struct|newtype>"`. Record keys arrive as
//! `visit_str` (named fields) or `visit_u32` (numeric ids).

use super::{IDLField, IDLValue, VariantValue};
use crate::types::bytes_tag::BytesTag;
use crate::types::number::{Int, Nat};
use crate::types::Label;
use crate::wire::leb;
use ic_principal::Principal;
use num_bigint::{BigInt, BigUint};
use serde::de::{self, Deserialize, Visitor};
use std::fmt;

/// The [`Visitor`] that builds [`IDLValue`]s.
#[derive(Copy, Clone, Debug, Default)]
pub struct IDLValueVisitor;

type DResult<E> = Result<IDLValue, E>;

macro_rules! visit_prim {
    ($($visit:ident: $t:ty => $variant:ident),* $(,)?) => {$(
        fn $visit<E>(self, v: $t) -> DResult<E> {
            Ok(IDLValue::$variant(v))
        }
    )*};
}

fn principal<E: de::Error>(bytes: &[u8]) -> Result<Principal, E> {
    Principal::try_from_slice(bytes).map_err(E::custom)
}

/// A tagged payload of `visit_bytes`/`visit_byte_buf`.
fn tagged<E: de::Error>(value: &[u8]) -> DResult<E> {
    let Some((&tag, bytes)) = value.split_first() else {
        return Err(E::custom("empty byte payload for IDLValue"));
    };
    // One match on the byte itself (a match on `BytesTag::split`'s answer is a
    // second dispatch on the same value).
    const INT: u8 = BytesTag::Int as u8;
    const NAT: u8 = BytesTag::Nat as u8;
    const PRINCIPAL: u8 = BytesTag::Principal as u8;
    const RESERVED: u8 = BytesTag::Reserved as u8;
    const SERVICE: u8 = BytesTag::Service as u8;
    const FUNC: u8 = BytesTag::Func as u8;
    const BLOB: u8 = BytesTag::Blob as u8;
    match tag {
        INT => Ok(IDLValue::Int(Int(BigInt::from_signed_bytes_le(bytes)))),
        NAT => Ok(IDLValue::Nat(Nat(BigUint::from_bytes_le(bytes)))),
        PRINCIPAL => Ok(IDLValue::Principal(principal(bytes)?)),
        RESERVED => Ok(IDLValue::Reserved),
        SERVICE => Ok(IDLValue::Service(principal(bytes)?)),
        FUNC => {
            let mut pos = 0;
            let len = leb::read_u64(bytes, &mut pos).map_err(|_| E::custom("bad method length"))?;
            let end = usize::try_from(len)
                .ok()
                .and_then(|n| pos.checked_add(n))
                .filter(|end| *end <= bytes.len())
                .ok_or_else(|| E::custom("method name out of range"))?;
            let method = std::str::from_utf8(bytes.get(pos..end).unwrap_or_default())
                .map_err(E::custom)?
                .to_string();
            let id = principal(bytes.get(end..).unwrap_or_default())?;
            Ok(IDLValue::Func(id, method))
        }
        BLOB => Ok(IDLValue::Blob(bytes.to_vec())),
        _ => Err(E::custom("unknown tag in visit_byte_buf")),
    }
}

impl<'de> Visitor<'de> for IDLValueVisitor {
    type Value = IDLValue;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any valid Candid value")
    }

    visit_prim! {
        visit_bool: bool => Bool,
        visit_u8: u8 => Nat8,
        visit_u16: u16 => Nat16,
        visit_u32: u32 => Nat32,
        visit_u64: u64 => Nat64,
        visit_i8: i8 => Int8,
        visit_i16: i16 => Int16,
        visit_i32: i32 => Int32,
        visit_i64: i64 => Int64,
        visit_f32: f32 => Float32,
        visit_f64: f64 => Float64,
    }

    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> DResult<E> {
        tagged(value)
    }

    fn visit_byte_buf<E: de::Error>(self, mut value: Vec<u8>) -> DResult<E> {
        if value.first() == Some(&6) {
            value.remove(0);
            return Ok(IDLValue::Blob(value));
        }
        tagged(&value)
    }

    fn visit_string<E>(self, value: String) -> DResult<E> {
        Ok(IDLValue::Text(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> DResult<E> {
        Ok(IDLValue::Text(value.to_string()))
    }

    fn visit_none<E>(self) -> DResult<E> {
        Ok(IDLValue::None)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, deserializer: D) -> DResult<D::Error> {
        let v = IDLValue::deserialize(deserializer)?;
        Ok(IDLValue::Opt(Box::new(v)))
    }

    fn visit_unit<E>(self) -> DResult<E> {
        Ok(IDLValue::Null)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> DResult<A::Error> {
        let mut vec = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(elem) = seq.next_element()? {
            vec.push(elem);
        }
        Ok(IDLValue::Vec(vec))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> DResult<A::Error> {
        let mut fields = Vec::with_capacity(map.size_hint().unwrap_or(0).min(1024));
        while let Some((key, val)) = map.next_entry::<IDLValue, IDLValue>()? {
            let id = match key {
                IDLValue::Nat32(id) => Label::Id(id),
                IDLValue::Text(name) if name == "_" => continue,
                IDLValue::Text(name) => Label::Named(name),
                other => {
                    return Err(de::Error::custom(format!(
                        "unexpected record key {other:?}"
                    )))
                }
            };
            fields.push(IDLField { id, val });
        }
        Ok(IDLValue::Record(fields))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> DResult<A::Error> {
        use serde::de::VariantAccess;
        let (case, access) = data.variant::<IDLValue>()?;
        let IDLValue::Text(mut case) = case else {
            return Err(de::Error::custom("variant case without a label"));
        };
        // "<label>,<name|id>,<style>": the label itself may contain commas, so
        // the two tags are cut from the end (known suffixes: no search).
        let (style, rest_len) = if let Some(rest) = case.strip_suffix(",unit") {
            (Style::Unit, rest.len())
        } else if let Some(rest) = case.strip_suffix(",struct") {
            (Style::Struct, rest.len())
        } else if let Some(rest) = case.strip_suffix(",newtype") {
            (Style::Newtype, rest.len())
        } else {
            return Err(bad_label(&case));
        };
        let rest = case.get(..rest_len).unwrap_or_default();
        let id = if let Some(name) = rest.strip_suffix(",name") {
            // The label is the start of the string: cut it there, no new string.
            let len = name.len();
            case.truncate(len);
            Label::Named(case)
        } else if let Some(id) = rest.strip_suffix(",id") {
            Label::Id(
                id.parse::<u32>()
                    .map_err(|_| de::Error::custom(format!("bad variant id {id}")))?,
            )
        } else {
            return Err(bad_label(&case));
        };
        let val = match style {
            Style::Unit => {
                access.unit_variant()?;
                IDLValue::Null
            }
            Style::Struct => access.struct_variant(&[], self)?,
            Style::Newtype => access.newtype_variant::<IDLValue>()?,
        };
        // Decoded variants carry index 0, as in candid: the index only matters when
        // the value is encoded at a type, and annotation sets it then.
        Ok(IDLValue::Variant(VariantValue(
            Box::new(IDLField { id, val }),
            0,
        )))
    }
}

#[cold]
fn bad_label<E: de::Error>(case: &str) -> E {
    E::custom(format!("bad variant label {case}"))
}

/// How a variant case's payload is read.
enum Style {
    Unit,
    Struct,
    Newtype,
}

impl<'de> Deserialize<'de> for IDLValue {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> DResult<D::Error> {
        deserializer.deserialize_any(IDLValueVisitor)
    }
}
