//! `candor bind mo`: a Motoko module with the interface's types and `Self`, the
//! actor's type, following the Candid–Motoko mapping of Motoko's design notes
//! (`IDL-Motoko.md`).
//!
//! * names are escaped the way Motoko reads them back: a keyword or a name ending
//!   in `_` gets one more `_` (Motoko drops a trailing `_` when it maps a label to
//!   Candid), and a label that is no Motoko identifier (`kebab-case`, spaces) is
//!   written `_N_`, N its field id, as is a label given as a number;
//! * a record labelled `0, 1, …` with at least two fields is a tuple;
//!   `vec nat8` is `Blob`, `reserved` `Any`, `empty` `None`, `float64` `Float`;
//! * a method is `shared (query | composite query)? args -> async results`, a
//!   one-way method `shared args -> ()`.
//! * comments above definitions, fields, cases, methods and the service become
//!   `///` comments (see `docs`).
//!
//! A method whose name is no Motoko identifier cannot be written, since methods
//! have no `_N_` form: such an interface is refused.

use super::docs::{Doc, Docs, NONE};
use candor::pretty::candid::is_valid_as_id;
use candor::pretty::utils::{concat, enclose, enclose_space, kwd, lines, str, LINE_WIDTH};
use candor::types::{Field, FuncMode, Function, Label, Type, TypeEnv, TypeInner};
use pretty::RcDoc;
use std::collections::BTreeMap;

/// The Motoko module for `env` and `actor`.
pub(super) fn motoko(
    env: &TypeEnv,
    actor: Option<&Type>,
    docs: &Docs<'_>,
) -> Result<String, String> {
    let names = super::identifiers(env, PRIMITIVE_TYPES);
    let mo = Mo { names: &names };
    let mut defs = std::vec::Vec::with_capacity(env.0.len() + 1);
    for (name, t) in &env.0 {
        let doc = docs.definition(name);
        defs.push(
            comment(doc.lines)
                .append(kwd("public type"))
                .append(mo.name(name))
                .append(" = ")
                .append(mo.ty_doc(t, doc)?)
                .append(";"),
        );
    }
    let mut body = lines(defs.into_iter());
    if let Some(actor) = actor {
        let doc = docs.actor();
        let self_type = match actor.as_ref() {
            TypeInner::Service(ms) => mo.service(ms, doc)?,
            TypeInner::Class(args, body) => {
                let body = match body.as_ref() {
                    TypeInner::Service(ms) => mo.service(ms, doc)?,
                    _ => mo.ty(body)?,
                };
                mo.arguments(args)?.append(" -> async ").append(body)
            }
            _ => mo.ty(actor)?,
        };
        body = body
            .append(comment(doc.lines))
            .append(kwd("public type Self ="))
            .append(self_type);
    }
    let module = str(
        "// Motoko can import a deployed canister's interface with\n\
                      // `import Service \"canister:NAME\"`; this module is for when it cannot.\n",
    )
    .append(RcDoc::hardline())
    .append("module ")
    .append(enclose_space("{", body, "}"));
    Ok(format!("{}\n", module.pretty(LINE_WIDTH)))
}

/// Motoko's reserved words (the language's keywords and the names of its
/// built-in operations that the parser reserves).
const KEYWORDS: &[&str] = &[
    "actor",
    "and",
    "assert",
    "async",
    "async*",
    "await",
    "await?",
    "await*",
    "break",
    "case",
    "catch",
    "class",
    "composite",
    "continue",
    "debug",
    "debug_show",
    "do",
    "else",
    "false",
    "finally",
    "flexible",
    "for",
    "from_candid",
    "func",
    "if",
    "ignore",
    "import",
    "in",
    "include",
    "label",
    "let",
    "loop",
    "mixin",
    "module",
    "not",
    "null",
    "object",
    "or",
    "persistent",
    "private",
    "public",
    "query",
    "return",
    "shared",
    "stable",
    "switch",
    "system",
    "throw",
    "to_candid",
    "transient",
    "true",
    "try",
    "type",
    "var",
    "weak",
    "while",
    "with",
];

/// A name as Motoko writes it (see the module's documentation); `None` when only
/// the `_N_` form can spell it.
fn escape_ident(name: &str) -> Option<String> {
    if KEYWORDS.contains(&name) || (is_valid_as_id(name) && name.ends_with('_')) {
        Some(format!("{name}_"))
    } else if is_valid_as_id(name) {
        Some(name.to_string())
    } else {
        None
    }
}

/// A type name or label: [`escape_ident`], else `_N_`.
fn escape(name: &str) -> String {
    escape_ident(name).unwrap_or_else(|| format!("_{}_", candor::idl_hash(name)))
}

fn label<'a>(l: &Label) -> RcDoc<'a> {
    RcDoc::text(match l {
        Label::Named(n) => escape(n),
        Label::Id(n) | Label::Unnamed(n) => format!("_{n}_"),
    })
}

/// Motoko's tuples have at least two elements.
fn is_tuple(fs: &[Field]) -> bool {
    fs.len() >= 2 && super::is_tuple(fs)
}

/// Motoko's primitive types: a definition of that name would hide it in the
/// module, so it is renamed (type names are not on the wire).
const PRIMITIVE_TYPES: &[&str] = &[
    "Null",
    "Bool",
    "Nat",
    "Int",
    "Nat8",
    "Nat16",
    "Nat32",
    "Nat64",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Float",
    "Float32",
    "Text",
    "Any",
    "None",
    "Principal",
    "Blob",
    "Char",
    "Error",
    "Region",
    "Self",
];

struct Mo<'n> {
    /// Each definition's Motoko name, before escaping.
    names: &'n BTreeMap<String, String>,
}

impl Mo<'_> {
    fn name<'a>(&self, candid: &str) -> RcDoc<'a> {
        let renamed = self.names.get(candid).map_or(candid, String::as_str);
        RcDoc::text(escape(renamed))
    }

    fn ty<'a>(&self, t: &'a Type) -> Result<RcDoc<'a>, String> {
        self.ty_doc(t, NONE)
    }

    /// The type `t`, with the comments `doc` holds for its fields, cases and
    /// methods.
    fn ty_doc<'a>(&self, t: &'a Type, doc: Doc<'_>) -> Result<RcDoc<'a>, String> {
        use TypeInner::*;
        Ok(match t.as_ref() {
            Null => str("Null"),
            Bool => str("Bool"),
            Nat => str("Nat"),
            Int => str("Int"),
            Nat8 => str("Nat8"),
            Nat16 => str("Nat16"),
            Nat32 => str("Nat32"),
            Nat64 => str("Nat64"),
            Int8 => str("Int8"),
            Int16 => str("Int16"),
            Int32 => str("Int32"),
            Int64 => str("Int64"),
            Float32 => str("Float32"),
            Float64 => str("Float"),
            Text => str("Text"),
            Reserved => str("Any"),
            Empty => str("None"),
            Principal => str("Principal"),
            Var(n) => self.name(n),
            Opt(t) => str("?").append(self.ty_doc(t, doc.element())?),
            Vec(t) if **t == Nat8 => str("Blob"),
            Vec(t) => enclose("[", self.ty_doc(t, doc.element())?, "]"),
            Record(fs) if is_tuple(fs) => self.tuple(fs.iter().map(|f| &f.ty))?,
            Record(fs) => {
                let mut items = std::vec::Vec::with_capacity(fs.len());
                for f in fs {
                    let field = doc.field(&f.id);
                    items.push(
                        comment(field.lines)
                            .append(label(&f.id))
                            .append(" : ")
                            .append(self.ty_doc(&f.ty, field)?),
                    );
                }
                enclose_space("{", concat(items.into_iter(), ";"), "}")
            }
            Variant(fs) if fs.is_empty() => str("{#}"),
            Variant(fs) => {
                let mut items = std::vec::Vec::with_capacity(fs.len());
                for f in fs {
                    let field = doc.field(&f.id);
                    let case = comment(field.lines).append("#").append(label(&f.id));
                    items.push(if *f.ty == Null {
                        case
                    } else {
                        case.append(" : ").append(self.ty_doc(&f.ty, field)?)
                    });
                }
                enclose_space("{", concat(items.into_iter(), ";"), "}")
            }
            Func(f) => self.function(f)?,
            Service(ms) => self.service(ms, doc)?,
            Class(_, _) | Knot(_) | Unknown | Future => {
                return Err(format!("cannot bind the type {t} in Motoko"))
            }
        })
    }

    /// `(A, B)`.
    fn tuple<'a>(&self, ts: impl Iterator<Item = &'a Type>) -> Result<RcDoc<'a>, String> {
        let items = ts
            .map(|t| self.ty(t))
            .collect::<Result<std::vec::Vec<_>, _>>()?;
        Ok(enclose("(", concat(items.into_iter(), ","), ")"))
    }

    /// A function's arguments or results: one type alone (in parentheses when it
    /// is a tuple or a function, which would otherwise read as several arguments or
    /// as the arrow's other side), else a tuple.
    fn arguments<'a>(&self, ts: &'a [Type]) -> Result<RcDoc<'a>, String> {
        match ts {
            [one] => match one.as_ref() {
                TypeInner::Record(fs) if is_tuple(fs) => Ok(enclose("(", self.ty(one)?, ")")),
                TypeInner::Func(_) => Ok(enclose("(", self.ty(one)?, ")")),
                _ => self.ty(one),
            },
            _ => self.tuple(ts.iter()),
        }
    }

    fn function<'a>(&self, f: &'a Function) -> Result<RcDoc<'a>, String> {
        let args = self.arguments(&f.args)?;
        let (head, rets) = match f.modes.as_slice() {
            [] => ("shared", Some(&f.rets)),
            [FuncMode::Query] => ("shared query", Some(&f.rets)),
            [FuncMode::CompositeQuery] => ("shared composite query", Some(&f.rets)),
            [FuncMode::Oneway] => ("shared", None),
            more => {
                return Err(format!(
                    "a function cannot be {} at once in Motoko",
                    more.iter()
                        .map(|m| format!("{m:?}"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ))
            }
        };
        let tail = match rets {
            Some(rets) => str("async ").append(self.arguments(rets)?),
            None => str("()"),
        };
        Ok(kwd(head)
            .append(args)
            .append(" -> ")
            .append(tail)
            .nest(candor::pretty::utils::INDENT_SPACE))
    }

    /// `actor { m : shared … ; … }`.
    fn service<'a>(&self, ms: &'a [(String, Type)], doc: Doc<'_>) -> Result<RcDoc<'a>, String> {
        let mut items = std::vec::Vec::with_capacity(ms.len());
        for (m, t) in ms {
            let name = escape_ident(m).ok_or_else(|| {
                format!(
                    "method \"{}\" has no Motoko name (methods have no _N_ form)",
                    m.escape_debug()
                )
            })?;
            items.push(
                comment(doc.method(m).lines)
                    .append(RcDoc::text(name))
                    .append(" : ")
                    .append(self.ty(t)?),
            );
        }
        Ok(kwd("actor").append(enclose_space("{", concat(items.into_iter(), ";"), "}")))
    }
}

/// `///` lines before an item.
fn comment<'a>(lines: &[String]) -> RcDoc<'a> {
    let mut doc = RcDoc::nil();
    for line in lines {
        doc = doc
            .append(RcDoc::text(format!("/// {line}")))
            .append(RcDoc::hardline());
    }
    doc
}
