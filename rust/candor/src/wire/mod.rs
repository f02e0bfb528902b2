//! The wire format itself, free of serde: LEB128, opcodes, the one reader over a
//! message's bytes and the type table.

mod empty_records;
pub(crate) mod header;
pub(crate) mod inline_vec;
pub(crate) mod leb;
mod min_size;
pub(crate) mod opcode;
pub(crate) mod plain_header;
pub(crate) mod reader;
pub(crate) mod same_bytes;
pub(crate) mod short_copy;
