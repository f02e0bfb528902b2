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
