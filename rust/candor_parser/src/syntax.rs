//! The syntax trees: type expressions, `.did` files (alone, or merged with their
//! imports) and `.test.did` files. The shapes are candid_parser's, so code written
//! against them ports; bindings also carry the source locations our diagnostics
//! need. Nothing here reads text or gives types their meaning, so every layer can
//! use these shapes without pulling in the parser or the checker.

use crate::error::{Error, Result, Span};
use candor::types::{FuncMode, Label};
use std::collections::HashMap;
use std::rc::Rc;

/// A primitive type, by its name in Candid (each variant's doc is the name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrimType {
    /// `nat`
    Nat,
    /// `nat8`
    Nat8,
    /// `nat16`
    Nat16,
    /// `nat32`
    Nat32,
    /// `nat64`
    Nat64,
    /// `int`
    Int,
    /// `int8`
    Int8,
    /// `int16`
    Int16,
    /// `int32`
    Int32,
    /// `int64`
    Int64,
    /// `float32`
    Float32,
    /// `float64`
    Float64,
    /// `bool`
    Bool,
    /// `text`
    Text,
    /// `null`
    Null,
    /// `reserved`
    Reserved,
    /// `empty`
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
    /// A primitive type.
    PrimT(PrimType),
    /// A name from `type name = …`, looked up by the checker, so it may be defined
    /// after its use or in an imported file.
    VarT(String),
    /// `func (…) -> (…) mode`.
    FuncT(FuncType),
    /// `opt t`.
    OptT(Box<IDLType>),
    /// `vec t`; `blob` is read as `vec nat8`, as the spec defines it.
    VecT(Box<IDLType>),
    /// `record { … }`: the parser sorts the fields by id and rejects two with one id,
    /// so every consumer can rely on both.
    RecordT(Vec<TypeField>),
    /// `variant { … }`, sorted and distinct as records are.
    VariantT(Vec<TypeField>),
    /// `service { … }`, methods sorted by name and distinct.
    ServT(Vec<Binding>),
    /// `(args) -> service`: a service constructor, meaningful only as a file's main
    /// service (the checker rejects it anywhere else).
    ClassT(Vec<IDLType>, Box<IDLType>),
    /// `principal`: not a [`PrimType`] because its name is a keyword, while the
    /// primitive names are ordinary identifiers (a field may be called `nat`).
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
    /// As written (`Named`, `Id`), or `Unnamed(n)` for a field without a label, so
    /// printing the type gives back what the user wrote.
    pub label: Label,
    /// The field's type (`null` for a variant case written without one).
    pub typ: IDLType,
    /// The `///` comments above the field, for tools that print interfaces with
    /// their documentation (empty unless the text was a `.did` file).
    pub docs: Vec<String>,
}

/// A function type.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncType {
    /// As written: more than one is an error the checker reports with its location.
    pub modes: Vec<FuncMode>,
    /// Argument types; names given to arguments are documentation and not kept.
    pub args: Vec<IDLType>,
    /// Result types, likewise without names.
    pub rets: Vec<IDLType>,
}

/// The text a syntax tree was parsed from, kept so the type checker (which runs
/// after parsing, possibly over several imported files) can point into it.
#[derive(Debug, PartialEq, Eq)]
pub struct Source {
    /// File name, when parsed from a file.
    pub name: Option<String>,
    /// The whole text: diagnostics quote the offending line from it.
    pub text: String,
}

/// A named type (`type x = …`) or a service method.
#[derive(Debug, Clone)]
pub struct Binding {
    /// The type's or the method's name.
    pub id: String,
    /// What the name stands for.
    pub typ: IDLType,
    /// The `///` comments above the binding.
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
    /// `type name = t`.
    TypD(Binding),
    /// `import "file"`: the file's type definitions join this file's. The path is as
    /// written; the loader resolves it relative to the importing file.
    ImportType(String),
    /// `import service "file"`: as [`Dec::ImportType`], and the methods of the file's
    /// main service join this file's service.
    ImportServ(String),
}

/// The main service of a `.did` file.
#[derive(Debug, Clone, PartialEq)]
pub struct IDLActorType {
    /// A service type, the name of one, or a class ([`IDLType::ClassT`]).
    pub typ: IDLType,
    /// The `///` comments above `service`.
    pub docs: Vec<String>,
    /// Span of the service type.
    pub span: Span,
}

/// A parsed `.did` file.
#[derive(Debug, Clone)]
pub struct IDLProg {
    /// In source order; definitions may refer to later ones.
    pub decs: Vec<Dec>,
    /// The main service; a file may hold definitions only.
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

/// The definitions of a file and of everything it imports, and its main service
/// together with the services it imports with `import service`.
#[derive(Debug)]
pub struct IDLMergedProg {
    typ_decs: Vec<Binding>,
    main_actor: Option<IDLActorType>,
    main_source: Option<Rc<Source>>,
    service_imports: Vec<(String, IDLActorType)>,
}

impl IDLMergedProg {
    /// The main file, before its imports are added with [`merge`](Self::merge).
    pub fn new(prog: IDLProg) -> Self {
        IDLMergedProg {
            typ_decs: IDLProg::typ_decs(prog.decs).collect(),
            main_actor: prog.actor,
            main_source: prog.source,
            service_imports: Vec::new(),
        }
    }

    /// Adds an imported file; with `is_service_import`, its service's methods join the
    /// main service.
    pub fn merge(&mut self, is_service_import: bool, name: String, prog: IDLProg) -> Result<()> {
        self.typ_decs.extend(IDLProg::typ_decs(prog.decs));
        if is_service_import {
            let actor = prog.actor.ok_or_else(|| {
                Error::msg(format!(
                    "Imported service file \"{name}\" has no main service"
                ))
            })?;
            self.service_imports.push((name, actor));
        }
        Ok(())
    }

    /// The definition of type `id`, from the main file or any import.
    pub fn lookup(&self, id: &str) -> Option<&Binding> {
        self.typ_decs.iter().find(|b| b.id == id)
    }

    /// Every type definition: the main file's, then each import's in the order
    /// they were merged.
    pub fn bindings(&self) -> impl Iterator<Item = &Binding> {
        self.typ_decs.iter()
    }

    /// The text of the main file, where errors in the main service point.
    pub(crate) fn main_source(&self) -> Option<&Rc<Source>> {
        self.main_source.as_ref()
    }

    /// The definitions as declarations, to print the merged program as one file.
    pub fn decs(&self) -> Vec<Dec> {
        self.typ_decs.iter().map(|b| Dec::TypD(b.clone())).collect()
    }

    /// The main service with the imported services' methods added.
    pub fn resolve_actor(&self) -> Result<Option<IDLActorType>> {
        let (init_args, docs, span, mut methods) = match &self.main_actor {
            None if self.service_imports.is_empty() => return Ok(None),
            None => (None, Vec::new(), 0..0, Vec::new()),
            Some(t) if self.service_imports.is_empty() => return Ok(Some(t.clone())),
            Some(IDLActorType {
                typ: IDLType::ClassT(args, inner),
                docs,
                span,
            }) => (
                Some(args.clone()),
                docs.clone(),
                span.clone(),
                self.chase_service(inner, None)?,
            ),
            Some(a) => (
                None,
                a.docs.clone(),
                a.span.clone(),
                self.chase_service(&a.typ, None)?,
            ),
        };
        for (name, a) in &self.service_imports {
            methods.extend(self.chase_service(&a.typ, Some(name))?);
        }
        let mut hashes: HashMap<u32, &str> = HashMap::new();
        for m in &methods {
            if let Some(prev) = hashes.insert(candor::idl_hash(&m.id), &m.id) {
                return Err(Error::msg(format!(
                    "Duplicate imported method name: label '{}' hash collision with '{prev}'",
                    m.id
                )));
            }
        }
        methods.sort_by(|a, b| a.id.cmp(&b.id));
        let serv = IDLType::ServT(methods);
        let typ = match init_args {
            Some(args) => IDLType::ClassT(args, Box::new(serv)),
            None => serv,
        };
        Ok(Some(IDLActorType { typ, docs, span }))
    }

    fn chase_service(&self, ty: &IDLType, import: Option<&str>) -> Result<Vec<Binding>> {
        let mut ty = ty;
        // Alias chains are finite: cycles were rejected when the definitions were checked.
        for _ in 0..=self.typ_decs.len() {
            match ty {
                IDLType::VarT(v) => {
                    ty = &self
                        .lookup(v)
                        .ok_or_else(|| Error::msg(format!("Unbound type identifier {v}")))?
                        .typ
                }
                IDLType::ServT(bs) => return Ok(bs.clone()),
                _ => break,
            }
        }
        Err(Error::msg(match import {
            Some(name) => format!("Imported service file \"{name}\" has a service constructor"),
            None => "not a service type".to_string(),
        }))
    }
}

/// Type definitions followed by an argument list: the `candid:args` metadata format.
#[derive(Debug, Clone)]
pub struct IDLInitArgs {
    /// Definitions the argument types may use.
    pub decs: Vec<Dec>,
    /// The init argument types.
    pub args: Vec<IDLType>,
}

/// An argument type list `(t1, t2, …)`.
#[derive(Debug, Clone)]
pub struct IDLTypes {
    /// The types in order; argument names are documentation and not kept.
    pub args: Vec<IDLType>,
}

/// A parsed `.test.did` file (run by [`crate::test::run`]).
pub struct Test {
    /// Definitions the assertions' types may use (imports are not followed).
    pub defs: Vec<Dec>,
    /// In file order.
    pub asserts: Vec<Assert>,
}

/// One assertion.
pub struct Assert {
    /// The input checked, or the first of the two compared.
    pub left: Input,
    /// The second input of `==` and `!=`.
    pub right: Option<Input>,
    /// The types the inputs are read at.
    pub typ: Vec<IDLType>,
    /// `:` and `==` are `true`; `!:` and `!=` are `false`.
    pub pass: bool,
    /// The text after the types, which names the assertion in reports.
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
