//! The syntax trees the parser builds: type expressions, `.did` files and
//! `.test.did` files (candid_parser's shapes, plus the source locations our
//! diagnostics need). Nothing here reads text or checks types, so every other layer
//! can use these shapes without pulling in the parser or the checker.

use crate::error::{Error, Span};
use candor::types::{FuncMode, Label};
use std::rc::Rc;

/// A primitive type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrimType {
    Nat,
    Nat8,
    Nat16,
    Nat32,
    Nat64,
    Int,
    Int8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Bool,
    Text,
    Null,
    Reserved,
    Empty,
}

impl PrimType {
    /// The primitive named `s`, if `s` is one (these names are not keywords: a record
    /// field may be called `nat`).
    pub fn str_to_enum(s: &str) -> Option<Self> {
        use PrimType::*;
        Some(match s {
            "nat" => Nat,
            "nat8" => Nat8,
            "nat16" => Nat16,
            "nat32" => Nat32,
            "nat64" => Nat64,
            "int" => Int,
            "int8" => Int8,
            "int16" => Int16,
            "int32" => Int32,
            "int64" => Int64,
            "float32" => Float32,
            "float64" => Float64,
            "bool" => Bool,
            "text" => Text,
            "null" => Null,
            "reserved" => Reserved,
            "empty" => Empty,
            _ => return None,
        })
    }
}

/// A type expression as written.
#[derive(Debug, Clone, PartialEq)]
pub enum IDLType {
    PrimT(PrimType),
    VarT(String),
    FuncT(FuncType),
    OptT(Box<IDLType>),
    VecT(Box<IDLType>),
    RecordT(Vec<TypeField>),
    VariantT(Vec<TypeField>),
    ServT(Vec<Binding>),
    ClassT(Vec<IDLType>, Box<IDLType>),
    PrincipalT,
}

impl IDLType {
    /// A record whose labels are 0, 1, 2, … (a tuple).
    pub fn is_tuple(&self) -> bool {
        match self {
            IDLType::RecordT(fs) => fs
                .iter()
                .enumerate()
                .all(|(i, f)| f.label.get_id() == i as u32),
            _ => false,
        }
    }
}

/// A record field or variant case type.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeField {
    pub label: Label,
    pub typ: IDLType,
    pub docs: Vec<String>,
}

/// A function type.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncType {
    pub modes: Vec<FuncMode>,
    pub args: Vec<IDLType>,
    pub rets: Vec<IDLType>,
}

/// The text a syntax tree was parsed from, kept so the type checker (which runs
/// after parsing, possibly over several imported files) can point into it.
#[derive(Debug, PartialEq, Eq)]
pub struct Source {
    /// File name, when parsed from a file.
    pub name: Option<String>,
    pub text: String,
}

/// A named type (`type x = …`) or a service method.
#[derive(Debug, Clone)]
pub struct Binding {
    pub id: String,
    pub typ: IDLType,
    pub docs: Vec<String>,
    /// Span of the name.
    pub name_span: Span,
    /// Span of the whole binding (name and type).
    pub span: Span,
    /// Where the spans point.
    pub source: Option<Rc<Source>>,
}

// Bindings compare as candid's do: by name, type and docs; locations are not part of
// the meaning.
impl PartialEq for Binding {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.typ == other.typ && self.docs == other.docs
    }
}

/// A declaration of a `.did` file.
#[derive(Debug, Clone, PartialEq)]
pub enum Dec {
    TypD(Binding),
    ImportType(String),
    ImportServ(String),
}

/// The main service of a `.did` file.
#[derive(Debug, Clone, PartialEq)]
pub struct IDLActorType {
    pub typ: IDLType,
    pub docs: Vec<String>,
    /// Span of the service type.
    pub span: Span,
}

/// A parsed `.did` file.
#[derive(Debug, Clone)]
pub struct IDLProg {
    pub decs: Vec<Dec>,
    pub actor: Option<IDLActorType>,
    /// Span of each declaration (parallel to `decs`), for import errors.
    pub dec_spans: Vec<Span>,
    /// The text the program was parsed from.
    pub source: Option<Rc<Source>>,
}

impl IDLProg {
    /// The type definitions (imports left out).
    pub fn typ_decs(decs: Vec<Dec>) -> impl Iterator<Item = Binding> {
        decs.into_iter().filter_map(|d| match d {
            Dec::TypD(b) => Some(b),
            _ => None,
        })
    }

    pub(crate) fn error_at(&self, span: Span, msg: String) -> Error {
        match &self.source {
            Some(src) => {
                let e = Error::at(&src.text, span, msg);
                match &src.name {
                    Some(n) => e.with_file(n),
                    None => e,
                }
            }
            None => Error::msg(msg),
        }
    }
}

/// Type definitions followed by an argument list: the `candid:args` metadata format.
#[derive(Debug, Clone)]
pub struct IDLInitArgs {
    pub decs: Vec<Dec>,
    pub args: Vec<IDLType>,
}

/// An argument type list `(t1, t2, …)`.
#[derive(Debug, Clone)]
pub struct IDLTypes {
    pub args: Vec<IDLType>,
}

/// A parsed `.test.did` file (run by [`crate::test::run`]).
pub struct Test {
    pub defs: Vec<Dec>,
    pub asserts: Vec<Assert>,
}

/// One assertion.
pub struct Assert {
    pub left: Input,
    pub right: Option<Input>,
    pub typ: Vec<IDLType>,
    /// `:` and `==` are `true`; `!:` and `!=` are `false`.
    pub pass: bool,
    pub desc: Option<String>,
    /// 1-based line of the `assert` keyword.
    pub line: usize,
}

/// The input of an assertion.
pub enum Input {
    /// A text value list, unparsed (parsing it is part of the assertion).
    Text(String),
    /// A binary message.
    Blob(Vec<u8>),
}

impl Assert {
    /// The description, or "" when the assertion has none.
    pub fn desc(&self) -> String {
        self.desc.clone().unwrap_or_default()
    }
}
