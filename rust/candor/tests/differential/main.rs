//! Differential tests against candid 0.10.39, over one zoo of types and messages
//! (`zoo`): the bytes each crate encodes (`encode`), the values each decodes
//! (`decode`), the quota units each charges (`cost`), and hostile or malformed input
//! (`hostile`). One test binary, so the zoo is compiled once.

mod cost;
mod decode;
mod encode;
mod header_cache;
mod hostile;
mod zoo;
