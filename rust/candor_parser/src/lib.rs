//! # candor_parser: Candid text values, `.did` interfaces, compatibility checks
//!
//! The counterpart of `candid_parser` for [`candor`], with the same entry points:
//!
//! * text values: [`parse_idl_args`], [`parse_idl_value`];
//! * interfaces: `"…".parse::<IDLProg>()`, [`check_prog`], [`check_file`]
//!   (imports resolved from disk) and [`loader::check_file_with_loader`] (any source);
//! * upgrade compatibility: [`compat::service_compatible`], which reports every
//!   incompatibility with its path rather than the first one;
//! * the official test suite's `.test.did` format: [`test`].
//!
//! The lexer and the parser are written by hand (no lalrpop, logos or regex): this
//! crate is compiled to wasm and run in canisters, where code size and instructions
//! are paid for. Nothing panics on any input; nesting is bounded
//! ([`parser::MAX_DEPTH`]); every syntax or type error carries line, column and a
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

pub mod compat;
pub mod error;
pub mod lexer;
pub mod loader;
mod names;
pub mod parser;
pub mod principal;
pub mod syntax;
pub mod test;
pub mod typing;
mod values;

pub use candor;
pub use error::{Diagnostic, Error, Result};
pub use loader::{check_file, pretty_check_file};
pub use syntax::{IDLInitArgs, IDLProg, IDLType, IDLTypes};
pub use typing::{ast_to_type, check_init_args, check_prog};
pub use values::{parse_idl_args, parse_idl_value};

use parser::Parser;

/// Parses a type expression and converts it to a [`candor::types::Type`] in `env`.
pub fn parse_idl_type(env: &candor::TypeEnv, s: &str) -> Result<candor::types::Type> {
    let ast: IDLType = s.parse()?;
    ast_to_type(env, &ast)
}

impl std::str::FromStr for IDLProg {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Parser::new(s, true)?.with_source(None).prog()
    }
}

impl std::str::FromStr for IDLType {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let mut p = Parser::new(s, true)?;
        let t = p.typ()?;
        p.expect_eof()?;
        Ok(t)
    }
}

impl std::str::FromStr for IDLTypes {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Parser::new(s, true)?.types()
    }
}

impl std::str::FromStr for IDLInitArgs {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Parser::new(s, true)?.with_source(None).init_args()
    }
}

impl std::str::FromStr for syntax::Test {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Parser::new(s, false)?.test()
    }
}
