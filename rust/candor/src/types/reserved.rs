//! `reserved` and `empty`.

use super::{CandidType, Serializer, Type, TypeInner};
use serde::de::{self, Deserialize, Deserializer, Visitor};
use std::fmt;

/// The `reserved` type: any value decodes to it (and is skipped); it encodes as
/// nothing.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq, PartialOrd, Ord, Hash)]
pub struct Reserved;

/// The `empty` type: it has no values.
#[derive(PartialEq, Eq, Debug, Clone, Copy)]
pub enum Empty {}

impl CandidType for Reserved {
    fn _ty() -> Type {
        TypeInner::Reserved.into()
    }
    static_prim!(Reserved);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_null(())
    }
}

impl CandidType for Empty {
    fn _ty() -> Type {
        TypeInner::Empty.into()
    }
    static_prim!(Empty);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_empty()
    }
}

impl serde::Serialize for Reserved {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_none()
    }
}

impl<'de> Deserialize<'de> for Reserved {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Reserved, D::Error> {
        deserializer
            .deserialize_ignored_any(de::IgnoredAny)
            .map(|_| Reserved)
    }
}

impl<'de> Deserialize<'de> for Empty {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Empty, D::Error> {
        struct EmptyVisitor;
        impl Visitor<'_> for EmptyVisitor {
            type Value = Empty;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("Cannot decode empty value")
            }
        }
        deserializer.deserialize_any(EmptyVisitor)
    }
}
