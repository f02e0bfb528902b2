//! The wire format itself, free of serde: LEB128, opcodes, the one reader over a
//! message's bytes and the type table.

pub mod header;
pub mod leb;
pub mod opcode;
pub(crate) mod reader;
pub mod store;
