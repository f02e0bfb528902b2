//! # candor_parser: Candid text values, `.did` interfaces, compatibility checks
//!
//! The counterpart of `candid_parser` for [`candor`], with the same entry points:
//!
//! * text values: [`parse_idl_args`], [`parse_idl_value`];
//! * interfaces: `"…".parse::<IDLProg>()`, [`check_prog`], [`check_file`]
//!   (imports resolved from disk) and [`loader::check_file_with_loader`] (any source);
//! * type expressions: `"…".parse::<IDLType>()`, [`ast_to_type`], [`parse_idl_type`];
//! * upgrade compatibility: [`compat::service_compatible`], which reports every
//!   incompatibility with its path rather than the first one;
//! * the official test suite's `.test.did` format: [`test`](mod@test).
//!
//! The lexer and the parser are written by hand (no lalrpop, logos or regex): this
//! crate is compiled to wasm and run in canisters, where code size and instructions
//! are paid for. Nothing panics on any input; nesting is bounded
//! ([`MAX_DEPTH`]); every syntax or type error carries line, column and a
//! snippet of the source with a caret under the offending text:
//!
//! ```
//! let err = candor_parser::parse_idl_args("(1, vec { 2; }, record { a = 1; a = 2 })").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "Candid parser error: 1:33: label 'a' hash collision with 'a'\n\
//!      (1, vec { 2; }, record { a = 1; a = 2 })\n                                \
//!      ^^^^^"
//! );
//! ```
//!
//! ## Modules
//!
//! Text becomes syntax trees, syntax trees become types, and only the top layers
//! combine the two. A module uses only modules in the rows above it (its `uses`
//! column, which `tests/layers.rs` checks against every `crate::` path of the
//! sources), so the graph has no cycle and each layer can be read and tested
//! without those above it.
//!
//! | module | holds | uses |
//! |---|---|---|
//! | `error` | the error type; spans, line, column and snippet of a diagnostic | — |
//! | `principal` | principal text to bytes, every rule checked while decoding | — |
//! | `compat` | upgrade compatibility of two service types, every finding with its path | — |
//! | `syntax` | every syntax tree: types, `.did` files, merged imports, `.test.did` files | `error` |
//! | `lexer` | tokens, doc comments and escapes of Candid text | `error` |
//! | `names` | the checker's table of defined names, with a bounded search | `syntax` |
//! | `parser` | text to syntax trees (`FromStr`); values, handing `v : t` to a pass it is given | `error` `lexer` `principal` `syntax` |
//! | `typing` | syntax trees of loaded programs to a `TypeEnv` and types | `error` `lexer` `names` `syntax` |
//! | `values` | text values: [`parse_idl_args`], [`parse_idl_value`], and the pass that applies annotations | `error` `parser` `syntax` `typing` |
//! | `loader` | a `.did` file and its imports: reading, paths, import cycles, merging, checking | `error` `parser` `syntax` `typing` |
//! | `test` | the runner of `.test.did` assertions | `error` `parser` `syntax` `typing` `values` |
//!
//! `typing` uses the lexer only to find an identifier's span for an error message;
//! `test` uses the parser only through `str::parse::<Test>()`. This file holds the
//! documentation, the re-exports and [`parse_idl_type`], which joins a parser and a
//! checker entry point.

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod compat;
pub mod error;
mod lexer;
pub mod loader;
mod names;
mod parser;
mod principal;
pub mod syntax;
pub mod test;
pub mod typing;
mod values;

pub use candor;
pub use error::{Diagnostic, Error, Result};
#[doc(hidden)]
pub use lexer::HEX_DIGIT;
pub use loader::{check_file, pretty_check_file};
pub use parser::MAX_DEPTH;
pub use syntax::{IDLInitArgs, IDLProg, IDLType, IDLTypes};
pub use typing::{ast_to_type, check_init_args, check_prog};
pub use values::{parse_idl_args, parse_idl_value};

/// Parses a type expression and converts it to a [`candor::types::Type`] in `env`.
pub fn parse_idl_type(env: &candor::TypeEnv, s: &str) -> Result<candor::types::Type> {
    let ast: IDLType = s.parse()?;
    ast_to_type(env, &ast)
}
