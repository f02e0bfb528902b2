//! The wire format itself, free of serde: LEB128, opcodes and the type table.

pub mod header;
pub mod leb;
pub mod opcode;
pub mod store;
