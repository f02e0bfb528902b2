//! `candor bind js`: the `idlFactory` and `init` functions the JS agent takes
//! (`Actor.createActor(idlFactory, …)`), built from the `IDL` object it passes in.
//!
//! * each definition the service reaches is a `const`, written after the ones it
//!   mentions, since `IDL.Record({ … })` needs its field types when it runs;
//! * a definition mentioned before it can be written (a cycle) is declared ahead
//!   with `IDL.Rec()` and filled in its place; the service, when it is such a
//!   definition, is returned through `.getType()`;
//! * a record labelled `0, 1, …` is an `IDL.Tuple`; labels given as numbers are
//!   written `_N_`, the agent's spelling of a field id;
//! * `init` returns the types of an actor class's arguments (none for a plain
//!   service).
//!
//! A file with no service gets `types`, which returns every definition by name.

use super::{definition_order, identifiers, is_tuple, JS_RESERVED};
use candor::pretty::utils::{
    concat, enclose, enclose_space, kwd, lines, quote_ident, str, LINE_WIDTH,
};
use candor::types::{Field, FuncMode, Function, Label, Type, TypeEnv, TypeInner};
use pretty::RcDoc;
use std::collections::{BTreeMap, BTreeSet};

/// The JS module for `env` and `actor`.
pub(super) fn javascript(env: &TypeEnv, actor: Option<&Type>) -> Result<String, String> {
    let names = identifiers(env, JS_RESERVED);
    let js = Js { names: &names };
    let doc = match actor {
        Some(actor) => {
            let (order, ahead) = definition_order(env, std::slice::from_ref(actor))?;
            let service = js.actor(actor, &ahead)?;
            let body = js
                .definitions(env, &order, &ahead)?
                .append(kwd("return").append(service).append(";"));
            let factory = str("export const idlFactory = ({ IDL }) => ")
                .append(enclose_space("{", body, "};"));
            let init_args = match actor.as_ref() {
                TypeInner::Class(args, _) => args.as_slice(),
                _ => &[],
            };
            let (order, ahead) = definition_order(env, init_args)?;
            let body = js
                .definitions(env, &order, &ahead)?
                .append(kwd("return").append(js.list(init_args)?).append(";"));
            let init =
                str("export const init = ({ IDL }) => ").append(enclose_space("{", body, "};"));
            factory.append(RcDoc::hardline()).append(init)
        }
        None => {
            let roots: Vec<Type> = env
                .0
                .keys()
                .map(|n| TypeInner::Var(n.clone()).into())
                .collect();
            let (order, ahead) = definition_order(env, &roots)?;
            let all = concat(env.0.keys().map(|n| js.name(n)), ",");
            let body = js.definitions(env, &order, &ahead)?.append(
                kwd("return")
                    .append(enclose_space("{", all, "}"))
                    .append(";"),
            );
            str("export const types = ({ IDL }) => ").append(enclose_space("{", body, "};"))
        }
    };
    Ok(format!("{}\n", doc.pretty(LINE_WIDTH)))
}

struct Js<'n> {
    /// Each definition's JS name.
    names: &'n BTreeMap<String, String>,
}

impl<'n> Js<'n> {
    fn name(&self, candid: &str) -> RcDoc<'n> {
        match self.names.get(candid) {
            Some(id) => str(id),
            None => RcDoc::text(candid.to_string()),
        }
    }

    /// `const X = IDL.Rec();` for each definition declared ahead, then each
    /// definition in `order`.
    fn definitions(
        &self,
        env: &'n TypeEnv,
        order: &[String],
        ahead: &BTreeSet<String>,
    ) -> Result<RcDoc<'n>, String> {
        let declared = lines(
            ahead
                .iter()
                .map(|n| kwd("const").append(self.name(n)).append(" = IDL.Rec();")),
        );
        let mut defs = std::vec::Vec::with_capacity(order.len());
        for n in order {
            let t = env.find_type(n).map_err(|e| e.to_string())?;
            let ty = self.ty(t)?;
            defs.push(if ahead.contains(n) {
                self.name(n).append(".fill").append(enclose("(", ty, ");"))
            } else {
                kwd("const")
                    .append(self.name(n))
                    .append(" = ")
                    .append(ty)
                    .append(";")
            });
        }
        Ok(declared.append(lines(defs.into_iter())))
    }

    /// What `idlFactory` returns: the service.
    fn actor(&self, t: &'n Type, ahead: &BTreeSet<String>) -> Result<RcDoc<'n>, String> {
        match t.as_ref() {
            TypeInner::Class(_, body) => self.actor(body, ahead),
            TypeInner::Var(n) if ahead.contains(n) => Ok(self.name(n).append(".getType()")),
            _ => self.ty(t),
        }
    }

    fn ty(&self, t: &'n Type) -> Result<RcDoc<'n>, String> {
        use TypeInner::*;
        Ok(match t.as_ref() {
            Null => str("IDL.Null"),
            Bool => str("IDL.Bool"),
            Nat => str("IDL.Nat"),
            Int => str("IDL.Int"),
            Nat8 => str("IDL.Nat8"),
            Nat16 => str("IDL.Nat16"),
            Nat32 => str("IDL.Nat32"),
            Nat64 => str("IDL.Nat64"),
            Int8 => str("IDL.Int8"),
            Int16 => str("IDL.Int16"),
            Int32 => str("IDL.Int32"),
            Int64 => str("IDL.Int64"),
            Float32 => str("IDL.Float32"),
            Float64 => str("IDL.Float64"),
            Text => str("IDL.Text"),
            Reserved => str("IDL.Reserved"),
            Empty => str("IDL.Empty"),
            Principal => str("IDL.Principal"),
            Var(n) => self.name(n),
            Opt(t) => str("IDL.Opt").append(enclose("(", self.ty(t)?, ")")),
            Vec(t) => str("IDL.Vec").append(enclose("(", self.ty(t)?, ")")),
            Record(fs) if is_tuple(fs) => {
                let items = fs
                    .iter()
                    .map(|f| self.ty(&f.ty))
                    .collect::<Result<std::vec::Vec<_>, _>>()?;
                str("IDL.Tuple").append(enclose("(", concat(items.into_iter(), ","), ")"))
            }
            Record(fs) => str("IDL.Record").append(self.fields(fs)?),
            Variant(fs) => str("IDL.Variant").append(self.fields(fs)?),
            Func(f) => str("IDL.Func").append(self.function(f)?),
            Service(ms) => str("IDL.Service").append(self.service(ms)?),
            Class(_, _) | Knot(_) | Unknown | Future => {
                return Err(format!("cannot bind the type {t} in JS"))
            }
        })
    }

    /// `({ 'name' : IDL.Nat, _3_ : IDL.Text })`.
    fn fields(&self, fs: &'n [Field]) -> Result<RcDoc<'n>, String> {
        let mut items = std::vec::Vec::with_capacity(fs.len());
        for f in fs {
            items.push(label(&f.id).append(kwd(":")).append(self.ty(&f.ty)?));
        }
        Ok(enclose_space("({", concat(items.into_iter(), ","), "})"))
    }

    /// `([args], [results], ['query'])`.
    fn function(&self, f: &'n Function) -> Result<RcDoc<'n>, String> {
        let modes = f.modes.iter().map(|m| {
            str(match m {
                FuncMode::Query => "'query'",
                FuncMode::CompositeQuery => "'composite_query'",
                FuncMode::Oneway => "'oneway'",
            })
        });
        let parts = [
            self.list(&f.args)?,
            self.list(&f.rets)?,
            enclose("[", concat(modes, ","), "]"),
        ];
        Ok(enclose("(", concat(parts.into_iter(), ","), ")")
            .nest(candor::pretty::utils::INDENT_SPACE))
    }

    /// `[IDL.Nat, IDL.Text]`.
    fn list(&self, ts: &'n [Type]) -> Result<RcDoc<'n>, String> {
        let items = ts
            .iter()
            .map(|t| self.ty(t))
            .collect::<Result<std::vec::Vec<_>, _>>()?;
        Ok(enclose("[", concat(items.into_iter(), ","), "]"))
    }

    /// `({ 'method' : IDL.Func(…) })`.
    fn service(&self, ms: &'n [(String, Type)]) -> Result<RcDoc<'n>, String> {
        let mut items = std::vec::Vec::with_capacity(ms.len());
        for (m, t) in ms {
            items.push(quote_ident(m).append(kwd(":")).append(self.ty(t)?));
        }
        Ok(enclose_space("({", concat(items.into_iter(), ","), "})"))
    }
}

/// A field's key: the name in quotes, or `_N_` for a number.
fn label(l: &Label) -> RcDoc<'_> {
    match l {
        Label::Named(n) => quote_ident(n),
        Label::Id(n) | Label::Unnamed(n) => RcDoc::text(format!("_{n}_")).append(RcDoc::space()),
    }
}
