//! Candid's text syntax for types, services and whole `.did` files (candid's
//! `pretty::candid`), laid out as candid lays them out.
//!
//! The documents built here have candid's shape, so the `pretty` crate breaks lines
//! where candid's printer does: a `.did` exported from a canister built against
//! candor is the same file it would be against candid.
//!
//! Types reaching a printer may come from the wire or from user code, so no shape of
//! type makes these functions panic: a service method whose type is not a function,
//! or a class whose body is not a service, is printed as the type it is.

mod docs;
pub mod value;

pub use docs::DocComments;

use crate::pretty::utils::{concat, enclose, enclose_space, ident, kwd, lines, str};
use crate::types::{Field, FuncMode, Function, Label, SharedLabel, Type, TypeEnv, TypeInner};
use pretty::RcDoc;

/// True for a name that can be written without quotes (ignoring keywords): an ASCII
/// letter or `_`, then ASCII letters, digits or `_`.
pub fn is_valid_as_id(id: &str) -> bool {
    let mut chars = id.chars();
    match chars.next() {
        Some(first) if first.is_ascii_alphabetic() || first == '_' => {
            chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        _ => false,
    }
}

/// A name as a label or method: bare when it is an identifier and not a keyword,
/// else in double quotes.
pub fn pp_text(id: &str) -> RcDoc<'_> {
    RcDoc::text(crate::types::ident_string(id))
}

/// A type, in the syntax of a `.did` file. Past
/// [`MAX_PRINT_DEPTH`](crate::types::walk::MAX_PRINT_DEPTH) levels of nesting a
/// subtree prints as `…`: a document is a tree built and laid out one level per call.
pub fn pp_ty(ty: &Type) -> RcDoc<'_> {
    match crate::types::walk::PrintDepth::enter() {
        Some(_level) => pp_ty_inner(ty.as_ref()),
        None => str("…"),
    }
}

/// The shape of a type, in the syntax of a `.did` file.
pub fn pp_ty_inner(ty: &TypeInner) -> RcDoc<'_> {
    use TypeInner::*;
    match ty {
        Null => str("null"),
        Bool => str("bool"),
        Nat => str("nat"),
        Int => str("int"),
        Nat8 => str("nat8"),
        Nat16 => str("nat16"),
        Nat32 => str("nat32"),
        Nat64 => str("nat64"),
        Int8 => str("int8"),
        Int16 => str("int16"),
        Int32 => str("int32"),
        Int64 => str("int64"),
        Float32 => str("float32"),
        Float64 => str("float64"),
        Text => str("text"),
        Reserved => str("reserved"),
        Empty => str("empty"),
        Principal => str("principal"),
        Unknown => str("unknown"),
        Future => str("future"),
        Var(name) => str(name),
        Knot(id) => RcDoc::as_string(id),
        Opt(inner) => kwd("opt").append(pp_ty(inner)),
        Vec(elem) if **elem == Nat8 => str("blob"),
        Vec(elem) => kwd("vec").append(pp_ty(elem)),
        Record(fields) if ty.is_tuple() => kwd("record").append(pp_tuple(fields, pp_ty)),
        Record(fields) => kwd("record").append(pp_fields(fields, false)),
        Variant(fields) => kwd("variant").append(pp_fields(fields, true)),
        Func(func) => kwd("func").append(pp_function(func)),
        Service(methods) => kwd("service").append(pp_service(methods, None)),
        Class(args, body) => pp_class(args, body, None),
    }
}

/// A tuple's element types, `{ nat; text }`, each printed by `pp`.
fn pp_tuple<'a>(fields: &'a [Field], pp: impl Fn(&'a Type) -> RcDoc<'a>) -> RcDoc<'a> {
    enclose_space("{", concat(fields.iter().map(|f| pp(&f.ty)), ";"), "}")
}

/// Doc-comment lines, each as a `// ` line.
pub fn pp_docs<'a>(docs: &'a [String]) -> RcDoc<'a> {
    lines(
        docs.iter()
            .map(|line| RcDoc::text("// ").append(line.as_str())),
    )
}

/// A shared label (kept because candid's API has it; [`pp_label_raw`] takes the label).
pub fn pp_label(id: &SharedLabel) -> RcDoc<'_> {
    pp_label_raw(id.as_ref())
}

/// A field label: a name as [`pp_text`] writes it, a number with `_` between groups
/// of three digits (`1_136_829_802`).
pub fn pp_label_raw(id: &Label) -> RcDoc<'_> {
    match id {
        Label::Named(name) => pp_text(name),
        Label::Id(n) | Label::Unnamed(n) => {
            RcDoc::text(crate::types::text::pp_num_str(&n.to_string()))
        }
    }
}

/// Whether a field is written without its type: a variant case of type `null`.
fn is_bare_case(field: &Field, is_variant: bool) -> bool {
    is_variant && *field.ty == TypeInner::Null
}

/// One field, `label : type` (a variant's `null` case as its label alone).
pub(crate) fn pp_field(field: &Field, is_variant: bool) -> RcDoc<'_> {
    let label = pp_label_raw(&field.id);
    if is_bare_case(field, is_variant) {
        label
    } else {
        label.append(kwd(" :")).append(pp_ty(&field.ty))
    }
}

fn pp_fields(fields: &[Field], is_variant: bool) -> RcDoc<'_> {
    let fields = fields.iter().map(|f| pp_field(f, is_variant));
    enclose_space("{", concat(fields, ";"), "}")
}

/// A function's signature after `func`: `(args) -> (rets) modes`.
pub fn pp_function(func: &Function) -> RcDoc<'_> {
    let rets = pp_rets(&func.rets).append(pp_modes(&func.modes));
    pp_args(&func.args)
        .append(" ->")
        .append(RcDoc::space())
        .append(rets)
        .nest(crate::pretty::utils::INDENT_SPACE)
}

/// Argument types, `(nat, text)`.
pub fn pp_args(args: &[Type]) -> RcDoc<'_> {
    enclose("(", concat(args.iter().map(pp_ty), ","), ")")
}

/// Result types, `(nat, text)`.
pub fn pp_rets(rets: &[Type]) -> RcDoc<'_> {
    pp_args(rets)
}

/// A function annotation.
pub fn pp_mode(mode: &FuncMode) -> RcDoc<'_> {
    RcDoc::text(match mode {
        FuncMode::Oneway => "oneway",
        FuncMode::Query => "query",
        FuncMode::CompositeQuery => "composite_query",
    })
}

/// Function annotations, each preceded by a space.
pub fn pp_modes(modes: &[FuncMode]) -> RcDoc<'_> {
    crate::pretty::utils::join(
        modes.iter().map(|m| RcDoc::space().append(pp_mode(m))),
        None,
    )
}

/// A service's methods, `{ name : (args) -> (rets); … }`, with the methods' doc
/// comments when given.
fn pp_service<'a>(methods: &'a [(String, Type)], docs: Option<&'a DocComments>) -> RcDoc<'a> {
    let methods = methods.iter().map(|(name, ty)| {
        let comments = docs
            .and_then(|docs| docs.lookup_service_method(name))
            .map_or_else(RcDoc::nil, |lines| pp_docs(lines));
        let signature = match ty.as_ref() {
            TypeInner::Func(func) => pp_function(func),
            _ => pp_ty(ty),
        };
        comments
            .append(pp_text(name))
            .append(kwd(" :"))
            .append(signature)
    });
    enclose_space("{", concat(methods, ";"), "}")
}

/// An actor class, `(init args) -> service`.
fn pp_class<'a>(args: &'a [Type], body: &'a Type, docs: Option<&'a DocComments>) -> RcDoc<'a> {
    let head = pp_args(args).append(" ->").append(RcDoc::space());
    match body.as_ref() {
        TypeInner::Service(methods) => head.append(pp_service(methods, docs)),
        _ => head.append(pp_ty(body)),
    }
}

/// The type after `service :` in a `.did` file.
fn pp_actor<'a>(ty: &'a Type, docs: &'a DocComments) -> RcDoc<'a> {
    match ty.as_ref() {
        TypeInner::Service(methods) => pp_service(methods, Some(docs)),
        TypeInner::Class(args, body) => pp_class(args, body, Some(docs)),
        _ => pp_ty(ty),
    }
}

/// One `type name = definition;` line per definition, without doc comments.
fn pp_defs_plain(env: &TypeEnv) -> RcDoc<'_> {
    lines(env.0.iter().map(|(name, ty)| {
        kwd("type")
            .append(ident(name))
            .append(kwd("="))
            .append(pp_ty(ty))
            .append(";")
    }))
}

/// The definitions of `env` followed by init arguments, `(nat, text)` (how
/// candid_parser's Rust bindings show a class's arguments).
pub fn pp_init_args<'a>(env: &'a TypeEnv, args: &'a [Type]) -> RcDoc<'a> {
    pp_defs_plain(env).append(pp_args(args))
}

/// A `.did` file: the definitions of `env`, then `service : …` when there is an actor.
pub fn compile(env: &TypeEnv, actor: &Option<Type>) -> String {
    compile_with_docs(env, actor, &DocComments::empty())
}

/// A `.did` file, as [`compile`], with doc comments on definitions, their fields and
/// the service's methods (what `export_candid!` prints for a Rust canister).
pub fn compile_with_docs(env: &TypeEnv, actor: &Option<Type>, docs: &DocComments) -> String {
    let defs = docs::pp_defs(env, docs);
    let file = match actor {
        None => defs,
        Some(actor) => defs.append(kwd("service :").append(pp_actor(actor, docs))),
    };
    file.pretty(crate::pretty::utils::LINE_WIDTH).to_string()
}
