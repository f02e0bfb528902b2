//! Candid text values (`(1, "a", opt (2 : nat8))`): the entry points that read them,
//! and the pass that gives an annotation `v : t` its meaning.
//!
//! The parser reads `v : t` as a value and a type expression and calls
//! [`TypeAnnotations`] on the pair; converting the value needs the type checker,
//! which the parser must not depend on. Both entry points go through here, so no
//! caller can get a value whose annotations were dropped.

use crate::error::{Error, Result};
use crate::parser::{Annotate, AnnotationError, Parser};
use crate::syntax::IDLType;
use crate::typing::{ast_to_type, prim};
use candor::types::TypeEnv;
use candor::{IDLArgs, IDLValue};

/// Parses a value list `(v1, v2, …)`. Numbers without annotation are
/// `IDLValue::Number` (their type is decided when the list is annotated with types),
/// floats are `Float64`; `v : t` annotates a value with a type.
pub fn parse_idl_args(s: &str) -> Result<IDLArgs> {
    let mut p = Parser::new(s, false)?;
    let args = p.args::<TypeAnnotations>()?;
    p.expect_eof()?;
    Ok(args)
}

/// Parses one value (without a top-level annotation, as candid_parser).
pub fn parse_idl_value(s: &str) -> Result<IDLValue> {
    let mut p = Parser::new(s, false)?;
    let v = p.value::<TypeAnnotations>()?;
    p.expect_eof()?;
    Ok(v)
}

/// Annotations as candid_parser applies them: the type may use no names (a text
/// value has no definitions to refer to), and the value is converted to it, so
/// `1 : nat8` is a `Nat8`, not a `Number`.
pub(crate) struct TypeAnnotations;

impl Annotate for TypeAnnotations {
    fn annotate(v: IDLValue, t: &IDLType) -> std::result::Result<IDLValue, AnnotationError> {
        let env = TypeEnv::new();
        // `1 : nat64` is the common annotation: a primitive needs no checker.
        let ty = match t {
            IDLType::PrimT(p) => prim(*p),
            t => ast_to_type(&env, t).map_err(|e| AnnotationError::Type(plain_message(&e)))?,
        };
        v.annotate_type(true, &env, &ty)
            .map_err(|e| AnnotationError::Value(e.to_string()))
    }
}

/// The message of an error without its location: the parser locates it again in
/// the value's own text.
fn plain_message(e: &Error) -> String {
    match e {
        Error::Parse(d) => d.message.clone(),
        e => e.to_string(),
    }
}
