//! Dynamic values: `IDLValue` and `IDLArgs`, for messages whose types are known only
//! at run time (tooling, proxies, the text format).
//!
//! The shapes are candid's, so code written against `candid::IDLValue` compiles
//! unchanged.

use crate::types::Label;
use crate::{Int, Nat, Principal};

/// A Candid value without a Rust type.
#[derive(PartialEq, Clone, Debug)]
pub enum IDLValue {
    Bool(bool),
    Null,
    Text(String),
    /// A number from the text format whose type is not known yet.
    Number(String),
    Float64(f64),
    Opt(Box<IDLValue>),
    Vec(Vec<IDLValue>),
    Record(Vec<IDLField>),
    Variant(VariantValue),
    Blob(Vec<u8>),
    Principal(Principal),
    Service(Principal),
    Func(Principal, String),
    None,
    Int(Int),
    Nat(Nat),
    Nat8(u8),
    Nat16(u16),
    Nat32(u32),
    Nat64(u64),
    Int8(i8),
    Int16(i16),
    Int32(i32),
    Int64(i64),
    Float32(f32),
    Reserved,
}

/// A variant value: the chosen case, and its index in the variant type (used only
/// for encoding; 0 when parsed from text).
#[derive(Clone, Debug)]
pub struct VariantValue(pub Box<IDLField>, pub u64);

impl PartialEq for VariantValue {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

/// A record field or variant case with its value.
#[derive(PartialEq, Clone, Debug)]
pub struct IDLField {
    pub id: Label,
    pub val: IDLValue,
}

/// The arguments of a message.
#[derive(PartialEq, Clone, Debug)]
pub struct IDLArgs {
    pub args: Vec<IDLValue>,
}

impl IDLArgs {
    pub fn new(args: &[IDLValue]) -> Self {
        IDLArgs {
            args: args.to_owned(),
        }
    }
}
