//! Dynamic values: `IDLValue` and `IDLArgs`, for messages whose types are known only
//! at run time (tooling, proxies, the text format).
//!
//! The shapes are candid's, so code written against `candid::IDLValue` compiles
//! unchanged, and every operation gives candid's result for the same input:
//!
//! * `de`: `Deserialize for IDLValue` (the visitor of candid's protocol);
//! * `ser`: `CandidType for IDLValue` and [`IDLValue::value_ty`];
//! * `annotate`: [`IDLValue::annotate_type`], giving a value the type it will be
//!   encoded at;
//! * `args`: `IDLArgs` to and from bytes;
//! * `pretty`: `Display`/`Debug` in the Candid text syntax (candid's layout).

mod annotate;
mod args;
mod de;
mod pretty;
mod ser;

pub use de::IDLValueVisitor;
pub use pretty::number_to_string;
pub(crate) use ser::DynamicTypes;

use crate::types::Label;
use crate::{Int, Nat, Principal};

/// A Candid value without a Rust type.
///
/// `Debug` prints the value in the Candid text syntax on one line, as candid does;
/// `Display` lays it out over several lines when it is longer than 80 columns.
#[derive(PartialEq, Clone)]
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
/// for encoding; 0 when parsed from text or decoded).
#[derive(Clone, Debug)]
pub struct VariantValue(pub Box<IDLField>, pub u64);

/// Two variant values are equal when their cases are: the index is an encoding
/// detail (candid's rule).
impl PartialEq for VariantValue {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

/// A record field or variant case with its value.
#[derive(PartialEq, Clone)]
pub struct IDLField {
    pub id: Label,
    pub val: IDLValue,
}

/// The arguments of a message.
#[derive(PartialEq, Clone)]
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
