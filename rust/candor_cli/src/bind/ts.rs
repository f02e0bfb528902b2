//! `candor bind ts`: TypeScript declarations for the values the JS agent hands
//! over and takes (`.d.ts` beside `candor bind js`'s module).
//!
//! * `nat`, `int`, `nat64`, `int64` are `bigint`; smaller numbers and floats are
//!   `number`; a `vec` of fixed-size numbers is its typed array or a plain array;
//! * `opt T` is `[] | [T]`; a variant is a union of one-key objects, an empty
//!   variant `never`; a record labelled `0, 1, …` is a tuple;
//! * a function reference is `[Principal, string]`, a service reference a
//!   `Principal` (what the agent decodes them to), wherever they appear;
//! * a method is `ActorMethod<[args], result>`: no result is `undefined`, several
//!   a tuple;
//! * `_SERVICE` is the service's interface; `idlFactory` and `init` are declared
//!   with the agent's types.
//!
//! Comments above definitions, fields, cases, methods and the service become
//! `/** … */` comments (see `docs`).

use super::docs::{Doc, Docs, NONE};
use super::{identifiers, is_tuple, JS_RESERVED};
use candor::pretty::utils::{
    concat, enclose, enclose_space, kwd, lines, quote_ident, str, strict_concat, INDENT_SPACE,
    LINE_WIDTH,
};
use candor::types::{Field, Function, Label, Type, TypeEnv, TypeInner};
use pretty::RcDoc;
use std::collections::BTreeMap;

const IMPORTS: &str = "import type { Principal } from '@icp-sdk/core/principal';\n\
                       import type { ActorMethod } from '@icp-sdk/core/agent';\n\
                       import type { IDL } from '@icp-sdk/core/candid';\n";

/// The `.d.ts` for `env` and `actor`.
pub(super) fn typescript(
    env: &TypeEnv,
    actor: Option<&Type>,
    docs: &Docs<'_>,
) -> Result<String, String> {
    let names = identifiers(env, JS_RESERVED);
    let ts = Ts { env, names: &names };
    let mut defs = std::vec::Vec::with_capacity(env.0.len());
    for (name, t) in &env.0 {
        defs.push(ts.definition(name, t, docs.definition(name))?);
    }
    let mut doc = str(IMPORTS)
        .append(RcDoc::hardline())
        .append(lines(defs.into_iter()));
    if let Some(actor) = actor {
        doc = doc
            .append(ts.actor(actor, docs.actor())?)
            .append(RcDoc::hardline())
            .append("export declare const idlFactory: IDL.InterfaceFactory;")
            .append(RcDoc::hardline())
            .append("export declare const init: (args: { IDL: typeof IDL }) => IDL.Type[];")
            .append(RcDoc::hardline());
    }
    Ok(doc.pretty(LINE_WIDTH).to_string())
}

struct Ts<'n> {
    env: &'n TypeEnv,
    /// Each definition's TypeScript name.
    names: &'n BTreeMap<String, String>,
}

impl<'n> Ts<'n> {
    fn name(&self, candid: &str) -> RcDoc<'n> {
        match self.names.get(candid) {
            Some(id) => str(id),
            None => RcDoc::text(candid.to_string()),
        }
    }

    /// `export interface X { … }` for a record or a service, `export type X = …;`
    /// for the rest.
    fn definition(&self, name: &str, t: &'n Type, doc: Doc<'_>) -> Result<RcDoc<'n>, String> {
        let def = match t.as_ref() {
            TypeInner::Record(fs) if !fs.is_empty() && !is_tuple(fs) => kwd("export interface")
                .append(self.name(name))
                .append(" ")
                .append(self.ty(t, doc)?),
            TypeInner::Service(ms) => kwd("export interface")
                .append(self.name(name))
                .append(" ")
                .append(self.methods(ms, doc)?),
            TypeInner::Func(f) => kwd("export type")
                .append(self.name(name))
                .append(" = ")
                .append(self.method(f)?)
                .append(";"),
            // An alias stays an alias: a method may be typed by it.
            TypeInner::Var(other) => kwd("export type")
                .append(self.name(name))
                .append(" = ")
                .append(self.name(other))
                .append(";"),
            _ => kwd("export type")
                .append(self.name(name))
                .append(" = ")
                .append(self.ty(t, doc)?)
                .append(";"),
        };
        Ok(comment(doc.lines).append(def))
    }

    /// `export interface _SERVICE …`.
    fn actor(&self, t: &'n Type, doc: Doc<'_>) -> Result<RcDoc<'n>, String> {
        let head = comment(doc.lines).append(kwd("export interface _SERVICE"));
        match t.as_ref() {
            TypeInner::Class(_, body) => self.actor(body, doc),
            TypeInner::Service(ms) => Ok(head.append(self.methods(ms, doc)?)),
            TypeInner::Var(n) => Ok(head
                .append(kwd("extends"))
                .append(self.name(n))
                .append(" {}")),
            _ => Err(format!("the service's type {t} is not a service")),
        }
    }

    /// The type of a value the agent hands over or takes; `doc` holds its
    /// fields' comments.
    fn ty(&self, t: &'n Type, doc: Doc<'_>) -> Result<RcDoc<'n>, String> {
        use TypeInner::*;
        Ok(match t.as_ref() {
            Null => str("null"),
            Bool => str("boolean"),
            Nat | Int | Nat64 | Int64 => str("bigint"),
            Nat8 | Nat16 | Nat32 | Int8 | Int16 | Int32 | Float32 | Float64 => str("number"),
            Text => str("string"),
            Reserved => str("any"),
            Empty => str("never"),
            Principal => str("Principal"),
            Var(n) => match self.env.rec_find_type(n).map(|t| t.as_ref()) {
                Ok(Func(_)) => str("[Principal, string]"),
                Ok(Service(_)) => str("Principal"),
                _ => self.name(n),
            },
            Opt(t) => str("[] | ").append(enclose("[", self.ty(t, doc.element())?, "]")),
            Vec(t) => self.vec(t, doc.element())?,
            Record(fs) if is_tuple(fs) => {
                let items = fs
                    .iter()
                    .map(|f| self.ty(&f.ty, NONE))
                    .collect::<Result<std::vec::Vec<_>, _>>()?;
                enclose("[", concat(items.into_iter(), ","), "]")
            }
            Record(fs) => {
                let items = fs
                    .iter()
                    .map(|f| self.field(f, doc))
                    .collect::<Result<std::vec::Vec<_>, _>>()?;
                enclose_space("{", concat(items.into_iter(), ","), "}")
            }
            Variant(fs) if fs.is_empty() => str("never"),
            Variant(fs) => {
                let mut cases = std::vec::Vec::with_capacity(fs.len());
                for f in fs {
                    cases.push(enclose_space("{", self.field(f, doc)?, "}"));
                }
                strict_concat(cases.into_iter(), " |").nest(INDENT_SPACE)
            }
            Func(_) => str("[Principal, string]"),
            Service(_) => str("Principal"),
            Class(_, _) | Knot(_) | Unknown | Future => {
                return Err(format!("cannot bind the type {t} in TypeScript"))
            }
        })
    }

    /// A `vec`: the typed array of a fixed-size integer (or a plain array of
    /// them), else `Array<T>`.
    fn vec(&self, elem: &'n Type, doc: Doc<'_>) -> Result<RcDoc<'n>, String> {
        use TypeInner::*;
        let shape = match elem.as_ref() {
            Var(n) => self
                .env
                .rec_find_type(n)
                .map(|t| t.as_ref())
                .unwrap_or(elem.as_ref()),
            other => other,
        };
        Ok(str(match shape {
            Nat8 => "Uint8Array | number[]",
            Nat16 => "Uint16Array | number[]",
            Nat32 => "Uint32Array | number[]",
            Nat64 => "BigUint64Array | bigint[]",
            Int8 => "Int8Array | number[]",
            Int16 => "Int16Array | number[]",
            Int32 => "Int32Array | number[]",
            Int64 => "BigInt64Array | bigint[]",
            _ => return Ok(str("Array").append(enclose("<", self.ty(elem, doc)?, ">"))),
        }))
    }

    /// `'name' : T`, or `_N_ : T` for a number, after the field's comment
    /// (`doc` is the record's or variant's).
    fn field(&self, f: &'n Field, doc: Doc<'_>) -> Result<RcDoc<'n>, String> {
        let doc = doc.field(&f.id);
        let label = match f.id.as_ref() {
            Label::Named(n) => quote_ident(n),
            Label::Id(n) | Label::Unnamed(n) => {
                RcDoc::text(format!("_{n}_")).append(RcDoc::space())
            }
        };
        Ok(comment(doc.lines)
            .append(label)
            .append(kwd(":"))
            .append(self.ty(&f.ty, doc)?))
    }

    /// `ActorMethod<[A, B], R>`.
    fn method(&self, f: &'n Function) -> Result<RcDoc<'n>, String> {
        let args = f
            .args
            .iter()
            .map(|t| self.ty(t, NONE))
            .collect::<Result<std::vec::Vec<_>, _>>()?;
        let args = enclose("[", concat(args.into_iter(), ","), "]");
        let ret = match f.rets.as_slice() {
            [] => str("undefined"),
            [one] => self.ty(one, NONE)?,
            more => {
                let items = more
                    .iter()
                    .map(|t| self.ty(t, NONE))
                    .collect::<Result<std::vec::Vec<_>, _>>()?;
                enclose("[", concat(items.into_iter(), ","), "]")
            }
        };
        Ok(enclose(
            "ActorMethod<",
            strict_concat([args, ret].into_iter(), ","),
            ">",
        ))
    }

    /// `{ 'm' : ActorMethod<…>, … }`: a method's type is its signature, or the
    /// name of a function type defined in the file.
    fn methods(&self, ms: &'n [(String, Type)], doc: Doc<'_>) -> Result<RcDoc<'n>, String> {
        let mut items = std::vec::Vec::with_capacity(ms.len());
        for (m, t) in ms {
            let sig = match t.as_ref() {
                TypeInner::Func(f) => self.method(f)?,
                TypeInner::Var(n) => self.name(n),
                _ => return Err(format!("method {m} is not a function")),
            };
            items.push(
                comment(doc.method(m).lines)
                    .append(quote_ident(m))
                    .append(kwd(":"))
                    .append(sig),
            );
        }
        Ok(enclose_space("{", concat(items.into_iter(), ","), "}"))
    }
}

/// `/** … */` lines before an item (a `*/` in the text is written `*\/`, so it
/// cannot end the comment).
fn comment<'a>(lines: &[String]) -> RcDoc<'a> {
    if lines.is_empty() {
        return RcDoc::nil();
    }
    let mut doc = RcDoc::text("/**").append(RcDoc::hardline());
    for line in lines {
        doc = doc
            .append(RcDoc::text(format!(" * {}", line.replace("*/", "*\\/"))))
            .append(RcDoc::hardline());
    }
    doc.append(" */").append(RcDoc::hardline())
}
