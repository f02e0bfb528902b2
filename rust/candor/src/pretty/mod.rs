//! Candid's text printer (candid's `pretty`): types, services and `.did` files
//! (`candid`), and the document combinators they are built from (`utils`); and
//! a message decoded straight into its text (`stream`).
//!
//! Documents are `pretty::RcDoc`s laid out by the `pretty` crate, as candid's are,
//! so that printed text matches candid's byte for byte and code written against
//! candid's printer (candid_parser's bindings generators) builds on these.

pub mod candid;
mod display;
mod stream;
pub mod utils;

pub use crate::types::internal::text_size;
