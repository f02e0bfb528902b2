//! LEB128 and SLEB128 of arbitrary-size numbers (candid's `types::leb128`).
