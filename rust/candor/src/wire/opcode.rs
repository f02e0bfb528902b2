//! Type opcodes of the binary format (SLEB128-encoded, negative).

pub const NULL: i64 = -1;
pub const BOOL: i64 = -2;
pub const NAT: i64 = -3;
pub const INT: i64 = -4;
pub const NAT8: i64 = -5;
pub const NAT16: i64 = -6;
pub const NAT32: i64 = -7;
pub const NAT64: i64 = -8;
pub const INT8: i64 = -9;
pub const INT16: i64 = -10;
pub const INT32: i64 = -11;
pub const INT64: i64 = -12;
pub const FLOAT32: i64 = -13;
pub const FLOAT64: i64 = -14;
pub const TEXT: i64 = -15;
pub const RESERVED: i64 = -16;
pub const EMPTY: i64 = -17;
pub const OPT: i64 = -18;
pub const VEC: i64 = -19;
pub const RECORD: i64 = -20;
pub const VARIANT: i64 = -21;
pub const FUNC: i64 = -22;
pub const SERVICE: i64 = -23;
pub const PRINCIPAL: i64 = -24;

/// The opcodes as an enum (candid's `types::internal::Opcode`), for code that names
/// them; `Opcode::Nat as i64 == NAT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i64)]
pub enum Opcode {
    Null = NULL,
    Bool = BOOL,
    Nat = NAT,
    Int = INT,
    Nat8 = NAT8,
    Nat16 = NAT16,
    Nat32 = NAT32,
    Nat64 = NAT64,
    Int8 = INT8,
    Int16 = INT16,
    Int32 = INT32,
    Int64 = INT64,
    Float32 = FLOAT32,
    Float64 = FLOAT64,
    Text = TEXT,
    Reserved = RESERVED,
    Empty = EMPTY,
    Opt = OPT,
    Vec = VEC,
    Record = RECORD,
    Variant = VARIANT,
    Func = FUNC,
    Service = SERVICE,
    Principal = PRINCIPAL,
}

/// The magic bytes that start every message.
pub const MAGIC: &[u8; 4] = b"DIDL";
