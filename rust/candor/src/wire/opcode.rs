//! Type opcodes of the binary format (SLEB128-encoded, negative).

pub(crate) const NULL: i64 = -1;
pub(crate) const BOOL: i64 = -2;
pub(crate) const NAT: i64 = -3;
pub(crate) const INT: i64 = -4;
pub(crate) const NAT8: i64 = -5;
pub(crate) const NAT16: i64 = -6;
pub(crate) const NAT32: i64 = -7;
pub(crate) const NAT64: i64 = -8;
pub(crate) const INT8: i64 = -9;
pub(crate) const INT16: i64 = -10;
pub(crate) const INT32: i64 = -11;
pub(crate) const INT64: i64 = -12;
pub(crate) const FLOAT32: i64 = -13;
pub(crate) const FLOAT64: i64 = -14;
pub(crate) const TEXT: i64 = -15;
pub(crate) const RESERVED: i64 = -16;
pub(crate) const EMPTY: i64 = -17;
pub(crate) const OPT: i64 = -18;
pub(crate) const VEC: i64 = -19;
pub(crate) const RECORD: i64 = -20;
pub(crate) const VARIANT: i64 = -21;
pub(crate) const FUNC: i64 = -22;
pub(crate) const SERVICE: i64 = -23;
pub(crate) const PRINCIPAL: i64 = -24;

/// The opcodes as an enum (candid's `types::internal::Opcode`), for code that names
/// them; `Opcode::Nat as i64 == NAT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i64)]
pub enum Opcode {
    /// `null`, opcode -1.
    Null = NULL,
    /// `bool`, opcode -2.
    Bool = BOOL,
    /// `nat`, opcode -3.
    Nat = NAT,
    /// `int`, opcode -4.
    Int = INT,
    /// `nat8`, opcode -5.
    Nat8 = NAT8,
    /// `nat16`, opcode -6.
    Nat16 = NAT16,
    /// `nat32`, opcode -7.
    Nat32 = NAT32,
    /// `nat64`, opcode -8.
    Nat64 = NAT64,
    /// `int8`, opcode -9.
    Int8 = INT8,
    /// `int16`, opcode -10.
    Int16 = INT16,
    /// `int32`, opcode -11.
    Int32 = INT32,
    /// `int64`, opcode -12.
    Int64 = INT64,
    /// `float32`, opcode -13.
    Float32 = FLOAT32,
    /// `float64`, opcode -14.
    Float64 = FLOAT64,
    /// `text`, opcode -15.
    Text = TEXT,
    /// `reserved`, opcode -16.
    Reserved = RESERVED,
    /// `empty`, opcode -17.
    Empty = EMPTY,
    /// `opt`, opcode -18.
    Opt = OPT,
    /// `vec`, opcode -19.
    Vec = VEC,
    /// `record`, opcode -20.
    Record = RECORD,
    /// `variant`, opcode -21.
    Variant = VARIANT,
    /// `func`, opcode -22.
    Func = FUNC,
    /// `service`, opcode -23.
    Service = SERVICE,
    /// `principal`, opcode -24.
    Principal = PRINCIPAL,
}

/// The magic bytes that start every message.
pub(crate) const MAGIC: &[u8; 4] = b"DIDL";
