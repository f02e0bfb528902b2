//! The wire format itself, free of serde: LEB128, opcodes, the one reader over a
//! message's bytes and the type table.

pub(crate) mod header;
pub(crate) mod leb;
pub(crate) mod opcode;
pub(crate) mod reader;
pub(crate) mod store;
