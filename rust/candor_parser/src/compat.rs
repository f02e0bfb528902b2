//! Upgrade compatibility: is a new service interface a subtype of the old one?
//!
//! A canister upgrade is safe for existing clients when the new service type is a
//! Candid subtype of the old one: every old method still exists, accepts what old
//! callers send (arguments are contravariant) and returns what old callers can read
//! (results are covariant). Unlike a yes/no check, [`check_compatibility`] keeps going
//! after a failure and reports every incompatibility with its path
//! (`method "foo": arg 0: field bar: nat is not a subtype of nat8`), so one run shows
//! everything an upgrade would break.
//!
//! The rules are the spec's (and candid's `subtype_check_all`): `nat <: int`,
//! `empty <: t`, `t <: reserved`, `service <: principal`; records may gain fields and
//! lose optional ones; variants may lose cases; `null <: opt t`; and the special opt
//! rule, under which `t <: opt t'` always holds (a value that does not fit decodes as
//! `null`). That last rule is sound but silently turns data into `null`, so when a
//! check relies on it we report a *warning* with its path.
//!
//! Recursive types are compared co-inductively: a pair of types under comparison is
//! assumed related while its definition is being examined; when the examination fails,
//! every conclusion drawn from the assumption is withdrawn. Refuted pairs are
//! remembered, so a recursive type reached along many paths is explored once.

use candor::types::{Field, FuncMode, Type, TypeEnv, TypeInner};
use std::collections::HashSet;
use std::fmt;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The upgrade breaks old clients.
    Error,
    /// Compatible only through the special opt rule: old data may decode as `null`.
    Warning,
}

/// One finding of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incompatibility {
    /// Where, outermost first: `method "foo"`, `arg 0`, `field bar`, …
    pub path: Vec<String>,
    /// What is wrong there.
    pub message: String,
    /// Whether the upgrade breaks old clients, or only turns old data into `null`.
    pub level: Level,
}

impl fmt::Display for Incompatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.level == Level::Warning {
            f.write_str("warning: ")?;
        }
        for p in &self.path {
            write!(f, "{p}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// The findings of a check.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// What breaks old clients.
    pub errors: Vec<Incompatibility>,
    /// Where old data silently decodes as `null` (the special opt rule).
    pub warnings: Vec<Incompatibility>,
}

impl Report {
    /// Safe for old clients. Warnings do not count: under the special opt rule
    /// those values still decode (as `null`), which the spec allows.
    pub fn is_compatible(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Bound on the recursion of the check (type nesting plus unfolded definitions).
pub const MAX_DEPTH: usize = 512;

/// Which environment a type's names live in. Function arguments swap the sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    New,
    Old,
}

type Pair = (Side, Type, Type);

struct Checker<'a> {
    new_env: &'a TypeEnv,
    old_env: &'a TypeEnv,
    /// Pairs assumed related, in order (so a failure can withdraw what followed).
    assumed: HashSet<Pair>,
    log: Vec<Pair>,
    refuted: HashSet<Pair>,
    errors: Vec<Incompatibility>,
    warnings: Vec<Incompatibility>,
    path: Vec<String>,
    depth: usize,
    overflow: bool,
    /// Both sides share one environment, so equal types are trivially related.
    same_env: bool,
}

/// Checks `new <: old` where `new`'s names are defined in `new_env` and `old`'s in
/// `old_env`; both may be services, actor classes (the init arguments are not part
/// of the check: they are supplied by the upgrader), or any other types.
pub fn check_compatibility(new_env: &TypeEnv, new: &Type, old_env: &TypeEnv, old: &Type) -> Report {
    let mut c = Checker {
        new_env,
        old_env,
        assumed: HashSet::new(),
        log: Vec::new(),
        refuted: HashSet::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        path: Vec::new(),
        depth: 0,
        overflow: false,
        same_env: std::ptr::eq(new_env, old_env) || new_env == old_env,
    };
    c.sub(Side::New, new, old, false);
    if c.overflow {
        c.errors.push(Incompatibility {
            path: Vec::new(),
            message: "recursion limit exceeded; the report may be incomplete".into(),
            level: Level::Error,
        });
    }
    Report {
        errors: c.errors,
        warnings: c.warnings,
    }
}

/// `Ok(())` when the new service can replace the old one, else every
/// incompatibility (warnings about the opt rule are left out: see
/// [`check_compatibility`]).
pub fn service_compatible(
    new_env: &TypeEnv,
    new: &Type,
    old_env: &TypeEnv,
    old: &Type,
) -> Result<(), Vec<Incompatibility>> {
    let r = check_compatibility(new_env, new, old_env, old);
    if r.errors.is_empty() {
        Ok(())
    } else {
        Err(r.errors)
    }
}

/// Is `t1 <: t2` in one environment (no report)?
pub fn is_subtype(env: &TypeEnv, t1: &Type, t2: &Type) -> bool {
    check_compatibility(env, t1, env, t2).errors.is_empty()
}

/// Renders a type for a message, cut short when large.
fn show(t: &Type) -> String {
    const MAX: usize = 80;
    let s = t.to_string();
    if s.len() <= MAX {
        return s;
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

fn is_optional(t: &TypeInner) -> bool {
    matches!(t, TypeInner::Null | TypeInner::Reserved | TypeInner::Opt(_))
}

fn modes(m: &[FuncMode]) -> &'static str {
    match m.first() {
        None => "update",
        Some(FuncMode::Query) => "query",
        Some(FuncMode::CompositeQuery) => "composite_query",
        Some(FuncMode::Oneway) => "oneway",
    }
}

impl Checker<'_> {
    fn env(&self, s: Side) -> &TypeEnv {
        match s {
            Side::New => self.new_env,
            Side::Old => self.old_env,
        }
    }

    fn error(&mut self, message: String) {
        self.errors.push(Incompatibility {
            path: self.path.clone(),
            message,
            level: Level::Error,
        });
    }

    /// Resolves names (and Rust knots) of a type in its environment.
    fn resolve(&mut self, side: Side, t: &Type) -> Option<Type> {
        match self.env(side).trace_type(t) {
            Ok(t) => Some(t),
            Err(e) => {
                self.error(e.to_string());
                None
            }
        }
    }

    /// Runs `f` as a probe: its findings are dropped; only the verdict counts.
    fn probe(&mut self, f: impl FnOnce(&mut Self)) -> bool {
        let (e, w) = (self.errors.len(), self.warnings.len());
        f(self);
        let ok = self.errors.len() == e;
        self.errors.truncate(e);
        self.warnings.truncate(w);
        ok
    }

    /// Checks `a <: b`, where `a` lives on side `sa` (and `b` on the other side);
    /// `input` is true under function arguments (for the wording of messages).
    fn sub(&mut self, sa: Side, a: &Type, b: &Type, input: bool) {
        if self.same_env && a == b {
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.overflow = true;
            self.error("recursion limit exceeded".into());
            return;
        }
        self.depth += 1;
        self.sub_inner(sa, a, b, input);
        self.depth -= 1;
    }

    fn sub_inner(&mut self, sa: Side, a: &Type, b: &Type, input: bool) {
        use TypeInner::*;
        let sb = match sa {
            Side::New => Side::Old,
            Side::Old => Side::New,
        };
        let named = |t: &Type| matches!(t.as_ref(), Var(_) | Knot(_));
        if named(a) || named(b) {
            let pair = (sa, a.clone(), b.clone());
            if self.refuted.contains(&pair) {
                self.error(format!(
                    "{} is not a subtype of {} (see above)",
                    show(a),
                    show(b)
                ));
                return;
            }
            if !self.assumed.insert(pair.clone()) {
                return; // co-inductive hypothesis
            }
            let mark = self.log.len();
            self.log.push(pair.clone());
            let before = self.errors.len();
            if let (Some(ra), Some(rb)) = (self.resolve(sa, a), self.resolve(sb, b)) {
                self.sub(sa, &ra, &rb, input);
            }
            if self.errors.len() > before {
                for p in self.log.drain(mark..) {
                    self.assumed.remove(&p);
                }
                if !self.overflow {
                    self.refuted.insert(pair);
                }
            }
            return;
        }
        match (a.as_ref(), b.as_ref()) {
            (_, Reserved) | (Empty, _) | (Nat, Int) | (Service(_), Principal) | (Null, Opt(_)) => {}
            (x, y) if x == y && candor::types::is_primitive(a) => {}
            (Class(_, t), _) => self.sub(sa, t, b, input),
            (_, Class(_, t)) => self.sub(sa, a, t, input),
            (Vec(x), Vec(y)) => self.sub(sa, x, y, input),
            (Opt(x), Opt(y)) if self.probe(|c| c.sub(sa, x, y, input)) => {}
            (_, Opt(y)) => {
                let y_res = self.env(sb).trace_type(y).ok();
                let fits = y_res.as_ref().is_some_and(|t| !is_optional(t))
                    && self.probe(|c| c.sub(sa, a, y, input));
                if !fits {
                    let message = format!(
                        "{} <: {} only by the special opt rule: values that do not fit decode as null (the interfaces have diverged, data may be lost)",
                        show(a),
                        show(b)
                    );
                    self.warnings.push(Incompatibility {
                        path: self.path.clone(),
                        message,
                        level: Level::Warning,
                    });
                }
            }
            (Record(fa), Record(fb)) => self.record(sa, fa, fb, input),
            (Variant(fa), Variant(fb)) => {
                for f in fa {
                    match fb.iter().find(|g| g.id == f.id) {
                        Some(g) => {
                            self.path.push(format!("case {}", f.id));
                            self.sub(sa, &f.ty, &g.ty, input);
                            self.path.pop();
                        }
                        None => self.error(if input {
                            format!("old callers may send case {}, which the new interface does not accept", f.id)
                        } else {
                            format!("new case {} is not in the old type", f.id)
                        }),
                    }
                }
            }
            (Service(ma), Service(mb)) => {
                for (name, tb) in mb {
                    match ma.iter().find(|(n, _)| n == name) {
                        Some((_, ta)) => {
                            self.path.push(format!("method {name:?}"));
                            self.sub(sa, ta, tb, false);
                            self.path.pop();
                        }
                        None => {
                            self.path.push(format!("method {name:?}"));
                            self.error("missing in the new interface".into());
                            self.path.pop();
                        }
                    }
                }
            }
            (Func(fa), Func(fb)) => {
                if fa.modes != fb.modes {
                    let (new, old) = match sa {
                        Side::New => (&fa.modes, &fb.modes),
                        Side::Old => (&fb.modes, &fa.modes),
                    };
                    self.error(format!(
                        "mode changed from {} to {}",
                        modes(old),
                        modes(new)
                    ));
                }
                // Arguments: what the caller of `b` sends must be accepted by `a`.
                self.params(sb, &fb.args, &fa.args, "arg", true);
                self.params(sa, &fa.rets, &fb.rets, "result", false);
            }
            _ => self.error(format!("{} is not a subtype of {}", show(a), show(b))),
        }
    }

    /// Records: every field of `fb` must be in `fa` at a subtype, or be optional.
    fn record(&mut self, sa: Side, fa: &[Field], fb: &[Field], input: bool) {
        let sb = match sa {
            Side::New => Side::Old,
            Side::Old => Side::New,
        };
        for g in fb {
            match fa.iter().find(|f| f.id == g.id) {
                Some(f) => {
                    self.path.push(format!("field {}", g.id));
                    self.sub(sa, &f.ty, &g.ty, input);
                    self.path.pop();
                }
                None => {
                    let optional = self
                        .env(sb)
                        .trace_type(&g.ty)
                        .is_ok_and(|t| is_optional(&t));
                    if !optional {
                        self.error(if input {
                            format!(
                                "new required field {} : {} is not sent by old callers (and is not opt, null or reserved)",
                                g.id,
                                show(&g.ty)
                            )
                        } else {
                            format!(
                                "field {} : {} is missing, and the old type requires it (it is not opt, null or reserved)",
                                g.id,
                                show(&g.ty)
                            )
                        });
                    }
                }
            }
        }
    }

    /// Argument or result sequences: `xs <: ys` where extra `xs` are ignored and
    /// missing ones must be optional in `ys`.
    fn params(&mut self, sx: Side, xs: &[Type], ys: &[Type], what: &str, input: bool) {
        let sy = match sx {
            Side::New => Side::Old,
            Side::Old => Side::New,
        };
        for (i, y) in ys.iter().enumerate() {
            self.path.push(format!("{what} {i}"));
            match xs.get(i) {
                Some(x) => self.sub(sx, x, y, input),
                None => {
                    let optional = self.env(sy).trace_type(y).is_ok_and(|t| is_optional(&t));
                    if !optional {
                        self.error(if input {
                            format!(
                                "new required argument of type {} is not sent by old callers",
                                show(y)
                            )
                        } else {
                            format!(
                                "missing in the new interface, and old callers expect a {}",
                                show(y)
                            )
                        });
                    }
                }
            }
            self.path.pop();
        }
    }
}
