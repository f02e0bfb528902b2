//! Differential tests against candid 0.10.39, over one zoo of types and messages
//! (`zoo`): the bytes each crate encodes (`encode`), the values each decodes
//! (`decode`), the quota units each charges (`cost`), and hostile or malformed input
//! (`hostile`). One test binary, so the zoo is compiled once.

mod changes;
mod cost;
mod decode;
#[path = "../common/diamond.rs"]
mod diamond;
mod encode;
mod header_cache;
mod hostile;
mod random_types;
#[path = "../common/to_candid.rs"]
#[allow(dead_code)]
mod to_candid;
mod zoo;
