//! Type checking: from the syntax tree of a `.did` file to a [`TypeEnv`] and the
//! type of the main service.
//!
//! The checker takes programs that are already parsed and loaded: reading imported
//! files is the loader's job ([`crate::loader`]), so the checker never reads a file
//! and never calls the parser.
//!
//! The checks are candid_parser's: every name is defined once and every used name is
//! defined; no type is an alias cycle (`type t = t`, which has no values and no wire
//! form); service methods have function types; `oneway` functions return nothing; at
//! most one function mode. Record and variant labels are made distinct by the parser.
//! Each error points at the offending text.

use crate::error::{Error, Result, Span};
use crate::names::Names;
use crate::syntax::{
    Binding, Dec, IDLActorType, IDLInitArgs, IDLMergedProg, IDLProg, IDLType, PrimType, Source,
    TypeField,
};
use candor::types::{Field, FuncMode, Function, Type, TypeEnv, TypeInner};
use std::collections::BTreeSet;
use std::rc::Rc;

/// Where the type being checked was written: errors inside it point there.
#[derive(Clone)]
struct Loc<'a> {
    source: Option<&'a Rc<Source>>,
    /// The text of the construct (identifiers are searched from `from`).
    span: Span,
    from: usize,
}

impl Loc<'_> {
    fn none() -> Self {
        Loc {
            source: None,
            span: 0..0,
            from: 0,
        }
    }
    fn of_binding(b: &Binding) -> Loc<'_> {
        Loc {
            source: b.source.as_ref(),
            span: b.span.clone(),
            from: b.name_span.end,
        }
    }

    #[cold]
    fn error(&self, span: Span, msg: String) -> Error {
        match self.source {
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

    /// An error at the whole construct.
    #[cold]
    fn error_here(&self, msg: String) -> Error {
        self.error(self.span.clone(), msg)
    }

    /// An error at the first mention of identifier `name` in the construct.
    #[cold]
    fn error_ident(&self, name: &str, msg: String) -> Error {
        let span = self
            .source
            .and_then(|src| {
                let text = src.text.get(..self.span.end)?;
                let mut lex = crate::lexer::Lexer::new(text);
                lex.seek(self.from);
                loop {
                    let t = lex.next_token().ok()?;
                    match t.tok {
                        crate::lexer::Tok::Eof => return None,
                        crate::lexer::Tok::Id(s) if s == name => return Some(t.span),
                        _ => {}
                    }
                }
            })
            .unwrap_or_else(|| self.span.clone());
        self.error(span, msg)
    }
}

/// Converts type expressions, remembering the service methods whose types must be
/// checked to be functions once every definition is known.
struct Checker<'a> {
    /// Names that may be referred to: those of `names`, and those being defined.
    names: &'a TypeEnv,
    defining: Option<&'a Names<'a>>,
    /// (method type, where it was written, method name): checked after all definitions.
    methods: Vec<(Type, Loc<'a>, String)>,
    /// One shared node per primitive type: primitives are most of the nodes of a
    /// typical interface, and sharing saves an allocation for each mention.
    prims: [Type; 17],
    /// Why [`Checker::ty`] last gave no type, until [`Checker::check_type`] takes it.
    error: Option<Error>,
}

impl<'a> Checker<'a> {
    fn new(names: &'a TypeEnv) -> Self {
        use PrimType::*;
        Checker {
            names,
            defining: None,
            methods: Vec::new(),
            prims: [
                Nat, Nat8, Nat16, Nat32, Nat64, Int, Int8, Int16, Int32, Int64, Float32, Float64,
                Bool, Text, Null, Reserved, Empty,
            ]
            .map(prim),
            error: None,
        }
    }
}

impl<'a> Checker<'a> {
    /// The type `t` stands for, or why not.
    fn check_type(&mut self, loc: &Loc<'a>, t: &'a IDLType) -> Result<Type> {
        match self.ty(loc, t) {
            Some(t) => Ok(t),
            None => Err(self
                .error
                .take()
                .unwrap_or_else(|| Error::msg("type check failed"))),
        }
    }

    /// Records why checking failed.
    #[cold]
    fn fail<T>(&mut self, e: Error) -> Option<T> {
        self.error = Some(e);
        None
    }

    /// [`Checker::check_type`] for each node: a type (one pointer) comes back in a
    /// register, where a `Result` would be written to memory and read back by the
    /// caller, once per node; the error, if any, is kept in `self.error`.
    fn ty(&mut self, loc: &Loc<'a>, t: &'a IDLType) -> Option<Type> {
        Some(match t {
            IDLType::PrimT(p) => self.prims[*p as usize].clone(),
            IDLType::VarT(id) => {
                let defined = self.defining.is_some_and(|d| d.get(id).is_some())
                    || self.names.0.contains_key(id);
                if !defined {
                    let e = loc.error_ident(id, format!("Unbound type identifier {id}"));
                    return self.fail(e);
                }
                TypeInner::Var(id.clone()).into()
            }
            IDLType::OptT(t) => TypeInner::Opt(self.ty(loc, t)?).into(),
            IDLType::VecT(t) => TypeInner::Vec(self.ty(loc, t)?).into(),
            IDLType::RecordT(fs) => TypeInner::Record(self.fields(loc, fs)?).into(),
            IDLType::VariantT(fs) => TypeInner::Variant(self.fields(loc, fs)?).into(),
            IDLType::PrincipalT => TypeInner::Principal.into(),
            IDLType::FuncT(func) => {
                let args = func
                    .args
                    .iter()
                    .map(|t| self.ty(loc, t))
                    .collect::<Option<Vec<_>>>()?;
                let rets = func
                    .rets
                    .iter()
                    .map(|t| self.ty(loc, t))
                    .collect::<Option<Vec<_>>>()?;
                if func.modes.len() > 1 {
                    return self.fail(loc.error_here("cannot have more than one mode".into()));
                }
                if func.modes.first() == Some(&FuncMode::Oneway) && !rets.is_empty() {
                    let e = loc.error_here("oneway function has non-unit return type".into());
                    return self.fail(e);
                }
                TypeInner::Func(Function {
                    modes: func.modes.clone(),
                    args,
                    rets,
                })
                .into()
            }
            IDLType::ServT(ms) => {
                let mut res = Vec::with_capacity(ms.len());
                for m in ms {
                    // A method's own location is more precise than the enclosing one
                    // when the parser recorded it.
                    let mloc = if m.source.is_some() {
                        Loc::of_binding(m)
                    } else {
                        loc.clone()
                    };
                    let t = self.ty(&mloc, &m.typ)?;
                    let name_loc = Loc {
                        span: if m.source.is_some() {
                            m.name_span.clone()
                        } else {
                            loc.span.clone()
                        },
                        ..mloc
                    };
                    self.methods.push((t.clone(), name_loc, m.id.clone()));
                    res.push((m.id.clone(), t));
                }
                TypeInner::Service(res).into()
            }
            IDLType::ClassT(_, _) => {
                return self.fail(loc.error_here("service constructor not supported".into()))
            }
        })
    }

    fn fields(&mut self, loc: &Loc<'a>, fs: &'a [TypeField]) -> Option<Vec<Field>> {
        // A plain loop into a vector of the right size (collecting `Result`s goes
        // through an adapter that costs more than the loop in a canister).
        let mut out = Vec::with_capacity(fs.len());
        for f in fs {
            out.push(Field {
                id: f.label.clone().into(),
                ty: self.ty(loc, &f.typ)?,
            });
        }
        Some(out)
    }

    /// The deferred check that methods have function types.
    fn check_methods(&mut self, env: &TypeEnv) -> Result<()> {
        for (t, loc, name) in self.methods.drain(..) {
            if !is_func(env, &t) {
                return Err(loc.error_here(format!("method {name} is a non-function type")));
            }
        }
        Ok(())
    }
}

/// The type a primitive's name stands for.
pub(crate) fn prim(p: PrimType) -> Type {
    match p {
        PrimType::Nat => TypeInner::Nat,
        PrimType::Nat8 => TypeInner::Nat8,
        PrimType::Nat16 => TypeInner::Nat16,
        PrimType::Nat32 => TypeInner::Nat32,
        PrimType::Nat64 => TypeInner::Nat64,
        PrimType::Int => TypeInner::Int,
        PrimType::Int8 => TypeInner::Int8,
        PrimType::Int16 => TypeInner::Int16,
        PrimType::Int32 => TypeInner::Int32,
        PrimType::Int64 => TypeInner::Int64,
        PrimType::Float32 => TypeInner::Float32,
        PrimType::Float64 => TypeInner::Float64,
        PrimType::Bool => TypeInner::Bool,
        PrimType::Text => TypeInner::Text,
        PrimType::Null => TypeInner::Null,
        PrimType::Reserved => TypeInner::Reserved,
        PrimType::Empty => TypeInner::Empty,
    }
    .into()
}

fn is_func(env: &TypeEnv, t: &Type) -> bool {
    matches!(env.trace_type(t).as_deref(), Ok(TypeInner::Func(_)))
}

fn is_service(env: &TypeEnv, t: &Type) -> bool {
    matches!(env.trace_type(t).as_deref(), Ok(TypeInner::Service(_)))
}

/// Converts a type expression to a [`Type`] (names must be defined in `env`).
pub fn ast_to_type(env: &TypeEnv, ast: &IDLType) -> Result<Type> {
    let mut c = Checker::new(env);
    let t = c.check_type(&Loc::none(), ast)?;
    c.check_methods(env)?;
    Ok(t)
}

/// Adds the definitions `decs` to `env` (imports are ignored here: the loader reads
/// them and merges their definitions before checking).
fn check_decs(env: &mut TypeEnv, decs: &[&Binding]) -> Result<()> {
    // Names first, so definitions may refer to each other in any order. A name may
    // be defined once, and not again if `env` has it already: the first binding in
    // declaration order that breaks either rule is reported.
    let known = decs.iter().position(|b| env.0.contains_key(&b.id));
    let duplicate = |i: usize| match decs.get(i) {
        Some(b) => Loc::of_binding(b).error(
            b.name_span.clone(),
            format!("duplicate binding for {}", b.id),
        ),
        None => Error::msg("duplicate binding"),
    };
    let names = match (Names::new(decs), known) {
        (Ok(names), None) => names,
        (Ok(_), Some(k)) => return Err(duplicate(k)),
        (Err(r), k) => return Err(duplicate(k.map_or(r, |k| k.min(r)))),
    };
    // The checker borrows the definitions so far while `env` is extended below: a
    // copy of them (nothing to copy in the usual case of a fresh environment).
    let before = env.clone();
    let mut c = Checker::new(&before);
    c.defining = Some(&names);
    let mut defs = Vec::with_capacity(decs.len());
    for b in decs {
        let t = c.check_type(&Loc::of_binding(b), &b.typ)?;
        defs.push((b.id.clone(), t));
    }
    let mut methods = std::mem::take(&mut c.methods);
    if env.0.is_empty() {
        // Built in one go (sorted, then laid out), not by an insertion, and its
        // search from the root, per definition.
        env.0 = defs.into_iter().collect();
    } else {
        for (id, t) in defs {
            env.0.insert(id, t);
        }
    }
    check_cycle(env, &names)?;
    let mut c = Checker::new(env);
    c.methods = std::mem::take(&mut methods);
    c.check_methods(env)
}

/// Rejects definitions that are only aliases going round in a circle: such a type
/// is not productive (it has no structure), so it has no values and no encoding.
fn check_cycle(env: &TypeEnv, bindings: &Names<'_>) -> Result<()> {
    // Aliases whose chain is known to end (in a type with structure, or a name not
    // defined here): a later chain that reaches one ends too, so each alias is
    // walked once and a long chain costs its length, not its length squared.
    let mut ends: BTreeSet<&str> = BTreeSet::new();
    for (id, ty) in env.0.iter() {
        // Only an alias can start a cycle of aliases; its binding (for the error's
        // location) is looked up only then, not for every definition.
        if !matches!(ty.as_ref(), TypeInner::Var(_)) || ends.contains(id.as_str()) {
            continue;
        }
        let Some(b) = bindings.get(id) else {
            continue;
        };
        let mut seen = BTreeSet::new();
        let mut t = ty;
        while let TypeInner::Var(next) = t.as_ref() {
            if ends.contains(next.as_str()) {
                break;
            }
            if !seen.insert(next.as_str()) {
                return Err(Loc::of_binding(b).error(
                    b.name_span.clone(),
                    format!("{id} has cyclic type definition"),
                ));
            }
            match env.0.get(next) {
                Some(n) => t = n,
                None => break,
            }
        }
        ends.insert(id.as_str());
        ends.extend(seen);
    }
    Ok(())
}

fn check_actor(
    env: &TypeEnv,
    actor: Option<&IDLActorType>,
    source: Option<&Rc<Source>>,
) -> Result<Option<Type>> {
    let Some(actor) = actor else { return Ok(None) };
    let loc = Loc {
        source,
        span: actor.span.clone(),
        from: actor.span.start,
    };
    let mut c = Checker::new(env);
    let t = match &actor.typ {
        IDLType::ClassT(args, serv) => {
            let args = args
                .iter()
                .map(|t| c.check_type(&loc, t))
                .collect::<Result<Vec<_>>>()?;
            let serv = c.check_type(&loc, serv)?;
            if !is_service(env, &serv) {
                return Err(loc.error_here(format!("{serv} is not a service type")));
            }
            TypeInner::Class(args, serv).into()
        }
        typ => {
            let t = c.check_type(&loc, typ)?;
            if !is_service(env, &t) {
                return Err(loc.error_here(format!("{t} is not a service type")));
            }
            t
        }
    };
    c.check_methods(env)?;
    Ok(Some(t))
}

/// Type-checks `prog` and adds its definitions to `te`; returns the main service
/// type, if any (a `TypeInner::Class` for an actor class). Imports are ignored:
/// [`check_file`](crate::check_file) resolves them.
pub fn check_prog(te: &mut TypeEnv, prog: &IDLProg) -> Result<Option<Type>> {
    let decs: Vec<&Binding> = prog
        .decs
        .iter()
        .filter_map(|d| match d {
            Dec::TypD(b) => Some(b),
            _ => None,
        })
        .collect();
    check_decs(te, &decs)?;
    check_actor(te, prog.actor.as_ref(), prog.source.as_ref())
}

/// Type-checks `candid:args` metadata; `main_env` gives the service file's
/// definitions, which the arguments may use.
pub fn check_init_args(
    te: &mut TypeEnv,
    main_env: &TypeEnv,
    prog: &IDLInitArgs,
) -> Result<Vec<Type>> {
    let decs: Vec<&Binding> = prog
        .decs
        .iter()
        .filter_map(|d| match d {
            Dec::TypD(b) => Some(b),
            _ => None,
        })
        .collect();
    check_decs(te, &decs)?;
    te.merge(main_env)?;
    prog.args.iter().map(|t| ast_to_type(te, t)).collect()
}

/// Type-checks a file merged with its imports (the loader builds the
/// [`IDLMergedProg`]): all definitions in one environment, then the main service
/// with the methods of the services imported with `import service`.
pub(crate) fn check_merged_prog(te: &mut TypeEnv, merged: &IDLMergedProg) -> Result<Option<Type>> {
    let decs: Vec<&Binding> = merged.bindings().collect();
    check_decs(te, &decs)?;
    let actor = merged.resolve_actor()?;
    check_actor(te, actor.as_ref(), merged.main_source())
}
