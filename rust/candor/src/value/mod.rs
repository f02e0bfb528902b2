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
//! * `args`: `IDLArgs` typing (to and from bytes live in `ser::dynamic` and
//!   `de::args`, with the encoder and decoder they drive);
//! * `pretty`: `Display`/`Debug` in the Candid text syntax (candid's layout).

mod annotate;
mod args;
mod de;
mod oneline;
mod pretty;
mod ser;

pub use de::IDLValueVisitor;
pub use oneline::number_to_string;
// For a message printed as it is decoded (`crate::pretty::stream`).
pub(crate) use oneline::push_debug;
pub(crate) use pretty::{display_width, LINE_WIDTH};

use crate::types::number::{Int, Nat};
use crate::types::Label;
use ic_principal::Principal;

/// A Candid value without a Rust type.
///
/// `Debug` prints the value in the Candid text syntax on one line, as candid does;
/// `Display` lays it out over several lines when it is longer than 80 columns.
#[derive(PartialEq, Clone)]
pub enum IDLValue {
    /// A `bool`.
    Bool(bool),
    /// `null`, the value of type `null` (not a missing `opt`; that is [`IDLValue::None`]).
    Null,
    /// A `text`.
    Text(String),
    /// A number from the text format whose type is not known yet.
    Number(String),
    /// A `float64`.
    Float64(f64),
    /// A present `opt` value.
    Opt(Box<IDLValue>),
    /// A `vec` (a `vec nat8` may also be held as a [`IDLValue::Blob`]).
    Vec(Vec<IDLValue>),
    /// A `record`, its fields sorted by label id: they are written in the order held.
    Record(Vec<IDLField>),
    /// A `variant`: the chosen case and its index among the cases.
    Variant(VariantValue),
    /// A `vec nat8` held as bytes rather than one value per byte.
    Blob(Vec<u8>),
    /// A `principal`.
    Principal(Principal),
    /// A `service` reference: the canister's principal.
    Service(Principal),
    /// A `func` reference: the canister's principal and the method name.
    Func(Principal, String),
    /// An absent `opt` value.
    None,
    /// An `int`.
    Int(Int),
    /// A `nat`.
    Nat(Nat),
    /// A `nat8`.
    Nat8(u8),
    /// A `nat16`.
    Nat16(u16),
    /// A `nat32`.
    Nat32(u32),
    /// A `nat64`.
    Nat64(u64),
    /// An `int8`.
    Int8(i8),
    /// An `int16`.
    Int16(i16),
    /// An `int32`.
    Int32(i32),
    /// An `int64`.
    Int64(i64),
    /// A `float32`.
    Float32(f32),
    /// A value of type `reserved` (whatever was on the wire is dropped).
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
    /// The field's name or number.
    pub id: Label,
    /// The field's value.
    pub val: IDLValue,
}

/// The arguments of a message.
#[derive(PartialEq, Clone)]
pub struct IDLArgs {
    /// The values, one per argument, in order.
    pub args: Vec<IDLValue>,
}

impl IDLArgs {
    /// Copies the values into a new argument list.
    pub fn new(args: &[IDLValue]) -> Self {
        IDLArgs {
            args: args.to_owned(),
        }
    }
}
