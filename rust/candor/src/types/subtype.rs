//! Subtyping between Candid types given as `Type` trees with a [`TypeEnv`] (candid's
//! `types::subtype`): what `.did` tools and candid_parser call. The decoder does not
//! use this module; it checks flattened wire types (`de::subtype`).
//!
//! The rules are the spec's: `nat <: int`, `empty <: t`, `t <: reserved`,
//! `service <: principal`, `null <: opt t`, records may gain fields and lose optional
//! ones, variants may lose cases, functions are contravariant in arguments and
//! covariant in results, and the special opt rule (`t <: opt t'` whenever `t` is not
//! `null`, `reserved` or `opt`, reported as the caller asks).
//!
//! Recursive types are compared co-inductively: `gamma` holds the pairs assumed to be
//! related while their definitions are examined; a failed examination withdraws its
//! pair and every pair added since, which may have been proved from it. Depth is
//! bounded ([`MAX_DEPTH`]), so a hostile type ends in an error, not a stack overflow.
//!
//! Pairs found unrelated are remembered for the rest of the check ([`Memo`]), as
//! candid does: assumptions only ever let more pairs hold, so a pair that fails while
//! some are in force fails without them too, and a recursive type reached along many
//! paths (each `opt` probing it again) is examined once, not once per path.

use super::internal::{elide_args, elide_large};
use super::{Field, FuncMode, Function, Type, TypeEnv, TypeInner};
use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Pairs `(t1, t2)` assumed (or proven) to satisfy `t1 <: t2`.
pub type Gamma = HashSet<(Type, Type)>;

/// How deep a comparison may nest before it gives up with an error.
pub const MAX_DEPTH: usize = 512;

/// What one check learns beside `gamma`, shared by the check and all its probes.
///
/// `refuted` holds the pairs of names whose examination failed, each with the first
/// reason found (its path relative to the pair). Sound whatever was assumed at the
/// time: the rules are monotone in `gamma` (more assumptions, more pairs hold, the
/// opt rule included, whose probes only choose between holding outright and holding
/// through the rule), so a failure under assumptions is a failure under none; one
/// found under an assumption later withdrawn stays true. A failure caused by the
/// depth bound says nothing about the types, so it is not recorded (`overflows`).
///
/// `reported` holds the pairs whose failures [`subtype_check_all`] has listed: met
/// again, they are listed once more as one line pointing back, not explored again
/// (candid does the same; the full list would grow with the number of paths).
///
/// `log` lists the pairs added to `gamma` in order. A pair proved after another was
/// assumed may rest on it, so when an examination fails, every pair added since its
/// own goes too (candid's order and extent, so later probes meet the same `gamma`).
/// Pairs proved before it, or in a probe that failed elsewhere, stay: they rest only
/// on pairs still assumed or proved.
#[derive(Default)]
struct Memo {
    refuted: HashMap<(Type, Type), Incompatibility>,
    reported: HashSet<(Type, Type)>,
    overflows: usize,
    log: Vec<(Type, Type)>,
}

/// What to do when a check holds only through the special opt rule.
#[derive(Debug, Copy, Clone)]
pub enum OptReport {
    /// Accept silently.
    Silence,
    /// Accept and print a warning on standard error (candid's default).
    Warning,
    /// Refuse: the check fails.
    Error,
}

/// One incompatibility: where (outermost first) and what.
#[derive(Debug, Clone)]
pub struct Incompatibility {
    /// The fields, cases, arguments or methods leading to the mismatch, outermost first.
    pub path: Vec<String>,
    /// What does not match there.
    pub message: String,
}

impl fmt::Display for Incompatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            return f.write_str(&self.message);
        }
        for (i, p) in self.path.iter().enumerate() {
            if i > 0 {
                f.write_str(" > ")?;
            }
            f.write_str(p)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// All incompatibilities, one per line.
pub fn format_report(errors: &[Incompatibility]) -> String {
    errors
        .iter()
        .map(|e| format!("- {e}\n"))
        .collect::<Vec<_>>()
        .concat()
}

/// `t1 <: t2`, warning on standard error when only the special opt rule makes it hold.
pub fn subtype(gamma: &mut Gamma, env: &TypeEnv, t1: &Type, t2: &Type) -> Result<()> {
    subtype_with_config(OptReport::Warning, gamma, env, t1, t2)
}

/// `t1 <: t2`, with the special opt rule reported as `report` says.
pub fn subtype_with_config(
    report: OptReport,
    gamma: &mut Gamma,
    env: &TypeEnv,
    t1: &Type,
    t2: &Type,
) -> Result<()> {
    let mut errors = Vec::new();
    let mut c = Checker {
        env,
        report,
        gamma,
        memo: &mut Memo::default(),
        errors: &mut errors,
        path: Vec::new(),
        first_only: true,
    };
    c.sub(t1, t2, 0);
    match errors.into_iter().next() {
        None => Ok(()),
        Some(e) => Err(Error::subtype(e.to_string())),
    }
}

/// Every reason why `t1 <: t2` fails (empty when it holds).
pub fn subtype_check_all(
    gamma: &mut Gamma,
    env: &TypeEnv,
    t1: &Type,
    t2: &Type,
) -> Vec<Incompatibility> {
    let mut errors = Vec::new();
    let mut c = Checker {
        env,
        report: OptReport::Warning,
        gamma,
        memo: &mut Memo::default(),
        errors: &mut errors,
        path: Vec::new(),
        first_only: false,
    };
    c.sub(t1, t2, 0);
    errors
}

/// `t1` and `t2` are the same type up to names (and the order of nothing: fields
/// are sorted by id in both).
pub fn equal(gamma: &mut Gamma, env: &TypeEnv, t1: &Type, t2: &Type) -> Result<()> {
    equal_at(gamma, env, t1, t2, 0)
}

fn equal_at(gamma: &mut Gamma, env: &TypeEnv, t1: &Type, t2: &Type, depth: usize) -> Result<()> {
    use TypeInner::*;
    if depth > MAX_DEPTH || super::walk::StackMark::low() {
        return Err(Error::msg("Recursion limit exceeded"));
    }
    if t1 == t2 {
        return Ok(());
    }
    if matches!(t1.as_ref(), Var(_) | Knot(_)) || matches!(t2.as_ref(), Var(_) | Knot(_)) {
        let key = (t1.clone(), t2.clone());
        if gamma.contains(&key) {
            return Ok(());
        }
        gamma.insert(key.clone());
        let res = equal_at(
            gamma,
            env,
            &env.trace_type(t1)?,
            &env.trace_type(t2)?,
            depth + 1,
        );
        if res.is_err() {
            gamma.remove(&key);
        }
        return res;
    }
    let differ = || {
        Error::subtype(format!(
            "{} is not equal to {}",
            elide_large(t1),
            elide_large(t2)
        ))
    };
    match (t1.as_ref(), t2.as_ref()) {
        (Opt(a), Opt(b)) | (Vec(a), Vec(b)) => equal_at(gamma, env, a, b, depth + 1),
        (Record(f1), Record(f2)) | (Variant(f1), Variant(f2)) => {
            if f1.len() != f2.len() {
                return Err(differ());
            }
            for (a, b) in f1.iter().zip(f2) {
                if a.id != b.id {
                    return Err(differ());
                }
                equal_at(gamma, env, &a.ty, &b.ty, depth + 1)?;
            }
            Ok(())
        }
        (Func(a), Func(b)) => {
            if a.modes != b.modes || a.args.len() != b.args.len() || a.rets.len() != b.rets.len() {
                return Err(differ());
            }
            for (x, y) in a.args.iter().zip(&b.args).chain(a.rets.iter().zip(&b.rets)) {
                equal_at(gamma, env, x, y, depth + 1)?;
            }
            Ok(())
        }
        (Service(a), Service(b)) => {
            if a.len() != b.len() {
                return Err(differ());
            }
            for ((n1, x), (n2, y)) in a.iter().zip(b) {
                if n1 != n2 {
                    return Err(differ());
                }
                equal_at(gamma, env, x, y, depth + 1)?;
            }
            Ok(())
        }
        (Class(a1, s1), Class(a2, s2)) => {
            // candid's words; both lists within its budget (`elide_args`).
            let init = || {
                Error::subtype(format!(
                    "Mismatch in init args: {} and {}",
                    elide_args(a1),
                    elide_args(a2)
                ))
            };
            if a1.len() != a2.len() {
                return Err(init());
            }
            for (x, y) in a1.iter().zip(a2) {
                equal_at(gamma, env, x, y, depth + 1).map_err(|_| init())?;
            }
            equal_at(gamma, env, s1, s2, depth + 1)
        }
        _ => Err(differ()),
    }
}

struct Checker<'a> {
    env: &'a TypeEnv,
    report: OptReport,
    gamma: &'a mut Gamma,
    memo: &'a mut Memo,
    errors: &'a mut Vec<Incompatibility>,
    path: Vec<String>,
    /// Stop at the first error (`subtype`) rather than collect all (`check_all`).
    first_only: bool,
}

fn is_optional(t: &TypeInner) -> bool {
    matches!(t, TypeInner::Null | TypeInner::Reserved | TypeInner::Opt(_))
}

fn mode_name(modes: &[FuncMode]) -> &'static str {
    match modes.first() {
        None => "update",
        Some(FuncMode::Query) => "query",
        Some(FuncMode::CompositeQuery) => "composite_query",
        Some(FuncMode::Oneway) => "oneway",
    }
}

impl Checker<'_> {
    fn fail(&mut self, message: String) {
        self.errors.push(Incompatibility {
            path: self.path.clone(),
            message,
        });
    }

    fn done(&self) -> bool {
        self.first_only && !self.errors.is_empty()
    }

    /// Runs `f` with `segment` pushed on the path.
    fn at(&mut self, segment: String, f: impl FnOnce(&mut Self)) {
        self.path.push(segment);
        f(self);
        self.path.pop();
    }

    /// Does `t1 <: t2` hold? A probe: no errors recorded; what it proves stays in
    /// gamma as a check's does ([`Memo`] says why that is sound).
    /// It keeps the caller's `report`, as candid's does: under `OptReport::Error` a
    /// probe that holds only through the special opt rule does not hold.
    fn holds(&mut self, t1: &Type, t2: &Type, depth: usize) -> bool {
        let mut errors = Vec::new();
        let mut probe = Checker {
            env: self.env,
            report: self.report,
            gamma: self.gamma,
            memo: self.memo,
            errors: &mut errors,
            path: Vec::new(),
            first_only: true,
        };
        probe.sub(t1, t2, depth);
        errors.is_empty()
    }

    fn sub(&mut self, t1: &Type, t2: &Type, depth: usize) {
        use TypeInner::*;
        if self.done() {
            return;
        }
        if depth > MAX_DEPTH || super::walk::StackMark::low() {
            self.memo.overflows += 1;
            self.fail("recursion limit exceeded".to_string());
            return;
        }
        if t1 == t2 {
            return;
        }
        if matches!(t1.as_ref(), Var(_) | Knot(_)) || matches!(t2.as_ref(), Var(_) | Knot(_)) {
            self.sub_named(t1, t2, depth);
            return;
        }
        match (t1.as_ref(), t2.as_ref()) {
            (_, Reserved) | (Empty, _) | (Nat, Int) | (Service(_), Principal) => {}
            (Null, Opt(_)) => {}
            (Opt(a), Opt(b)) if self.holds(a, b, depth + 1) => {}
            (_, Opt(b)) if self.holds(t1, b, depth + 1) && !is_optional(self.traced(b).as_ref()) => {}
            (_, Opt(_)) => match self.report {
                OptReport::Silence => {}
                OptReport::Warning => eprintln!(
                    "WARNING: {} <: {} due to special subtyping rules involving optional types/fields",
                    elide_large(t1),
                    elide_large(t2)
                ),
                OptReport::Error => self.fail(format!(
                    "{} <: {} only through the special opt rule (the data would decode as null)",
                    elide_large(t1),
                    elide_large(t2)
                )),
            },
            (Vec(a), Vec(b)) => self.sub(a, b, depth + 1),
            (Record(f1), Record(f2)) => self.record(f1, f2, depth),
            (Variant(f1), Variant(f2)) => {
                for f in f1 {
                    match f2.iter().find(|g| g.id == f.id) {
                        Some(g) => self.at(format!("variant field {}", f.id), |c| {
                            c.sub(&f.ty, &g.ty, depth + 1)
                        }),
                        None => self.fail(format!(
                            "new variant has field {} that does not exist in the old type",
                            f.id
                        )),
                    }
                }
            }
            (Service(m1), Service(m2)) => {
                for (name, t) in m2 {
                    match m1.iter().find(|(n, _)| n == name) {
                        Some((_, s)) => self.at(format!("method \"{name}\""), |c| {
                            c.sub(s, t, depth + 1)
                        }),
                        None => self.fail(format!(
                            "method \"{name}\" is expected by the old interface but missing in the new one"
                        )),
                    }
                }
            }
            (Func(a), Func(b)) => self.func(a, b, depth),
            (Class(_, t), _) => self.sub(t, t2, depth + 1),
            (_, Class(_, t)) => self.sub(t1, t, depth + 1),
            _ => self.fail(format!(
                "{} is not a subtype of {}",
                elide_large(t1),
                elide_large(t2)
            )),
        }
    }

    /// [`sub`](Self::sub) for a pair with a name (`Var`) or knot on either side:
    /// the memo of refuted pairs, the assumption that the pair holds while its
    /// resolved form is checked (`gamma`), and what a refutation leaves behind.
    fn sub_named(&mut self, t1: &Type, t2: &Type, depth: usize) {
        use TypeInner::*;
        let key = (t1.clone(), t2.clone());
        // `subtype_check_all` lists every reason of a pair, so its own walk
        // examines again a pair refuted by a probe; its probes use the memo.
        if self.first_only {
            if let Some(known) = self.memo.refuted.get(&key) {
                let mut path = self.path.clone();
                path.extend(known.path.iter().cloned());
                let message = known.message.clone();
                self.errors.push(Incompatibility { path, message });
                return;
            }
        } else if self.memo.reported.contains(&key) {
            self.fail(format!(
                "{} is not a subtype of {} (as listed above)",
                elide_large(t1),
                elide_large(t2)
            ));
            return;
        }
        if self.gamma.contains(&key) {
            return;
        }
        // One side at a time, in candid's order (a name before a knot, the
        // left before the right): the half-resolved pair is assumed on its own,
        // which decides how often the opt rule is met, and so its warnings.
        let left = match (t1.as_ref(), t2.as_ref()) {
            (Var(_), _) => true,
            (_, Var(_)) => false,
            _ => matches!(t1.as_ref(), Knot(_)),
        };
        let traced = self.env.trace_type(if left { t1 } else { t2 });
        let (a, b) = match traced {
            Ok(t) if left => (t, t2.clone()),
            Ok(t) => (t1.clone(), t),
            Err(e) => {
                self.fail(e.to_string());
                return;
            }
        };
        // A pair of names costs one level of depth, as when both sides were
        // resolved at once: the first half is free when it ends in a type.
        let named = |t: &Type| matches!(t.as_ref(), Var(_) | Knot(_));
        let resolved = if left { &a } else { &b };
        let step = if named(t1) && named(t2) && !named(resolved) {
            0
        } else {
            1
        };
        let mark = self.memo.log.len();
        self.gamma.insert(key.clone());
        self.memo.log.push(key.clone());
        let (before, overflows) = (self.errors.len(), self.memo.overflows);
        self.sub(&a, &b, depth + step);
        if let Some(first) = self.errors.get(before) {
            let reason = Incompatibility {
                path: first
                    .path
                    .get(self.path.len()..)
                    .unwrap_or_default()
                    .to_vec(),
                message: first.message.clone(),
            };
            for pair in self.memo.log.drain(mark..) {
                self.gamma.remove(&pair);
            }
            if self.memo.overflows == overflows {
                if !self.first_only {
                    self.memo.reported.insert(key.clone());
                }
                self.memo.refuted.insert(key, reason);
            }
        }
    }

    /// Two function types: the same modes, arguments contravariant and results
    /// covariant, each list checked as a tuple record.
    fn func(&mut self, a: &Function, b: &Function, depth: usize) {
        if a.modes != b.modes {
            self.fail(format!(
                "function annotation changed from {} to {}",
                mode_name(&b.modes),
                mode_name(&a.modes)
            ));
            return;
        }
        let tuple = |ts: &[Type]| -> Type {
            TypeInner::Record(
                ts.iter()
                    .enumerate()
                    .map(|(i, t)| Field {
                        id: super::Label::Id(i as u32).into(),
                        ty: t.clone(),
                    })
                    .collect(),
            )
            .into()
        };
        let (args1, args2) = (tuple(&a.args), tuple(&b.args));
        let (rets1, rets2) = (tuple(&a.rets), tuple(&b.rets));
        self.at("input type".to_string(), |c| {
            c.sub(&args2, &args1, depth + 1)
        });
        self.at("return type".to_string(), |c| {
            c.sub(&rets1, &rets2, depth + 1)
        });
    }

    /// `t` with names resolved (itself when it cannot be).
    fn traced(&self, t: &Type) -> Type {
        self.env.trace_type(t).unwrap_or_else(|_| t.clone())
    }

    fn record(&mut self, f1: &[Field], f2: &[Field], depth: usize) {
        for g in f2 {
            match f1.iter().find(|f| f.id == g.id) {
                Some(f) => self.at(format!("record field {}", g.id), |c| {
                    c.sub(&f.ty, &g.ty, depth + 1)
                }),
                None if is_optional(self.traced(&g.ty).as_ref()) => {}
                None => self.fail(format!(
                    "new type is missing required field {} (type {}), which is expected by the old type and is not optional",
                    g.id,
                    elide_large(&g.ty)
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::CandidType;

    fn check(t1: &Type, t2: &Type) -> bool {
        subtype_with_config(
            OptReport::Silence,
            &mut Gamma::new(),
            &TypeEnv::new(),
            t1,
            t2,
        )
        .is_ok()
    }

    #[test]
    fn primitive_rules() {
        assert!(check(&u64::ty(), &u64::ty()));
        assert!(check(&crate::Nat::ty(), &crate::Int::ty()));
        assert!(!check(&crate::Int::ty(), &crate::Nat::ty()));
        assert!(check(&crate::Empty::ty(), &String::ty()));
        assert!(check(&String::ty(), &crate::Reserved::ty()));
        assert!(check(&<()>::ty(), &Option::<u8>::ty()));
        assert!(!check(&String::ty(), &u8::ty()));
    }

    #[test]
    fn records_variants_and_opt() {
        let r = |fs: &[(&str, Type)]| -> Type {
            TypeInner::Record(
                fs.iter()
                    .map(|(n, t)| Field {
                        id: crate::types::Label::Named(n.to_string()).into(),
                        ty: t.clone(),
                    })
                    .collect(),
            )
            .into()
        };
        let big = r(&[("a", u8::ty()), ("b", String::ty())]);
        let small = r(&[("a", u8::ty())]);
        assert!(check(&big, &small));
        assert!(!check(&small, &big));
        let with_opt = r(&[("a", u8::ty()), ("c", Option::<u8>::ty())]);
        assert!(check(&small, &with_opt));
        // The special opt rule: accepted silently, refused when asked to.
        let opt_text = Option::<String>::ty();
        assert!(check(&u8::ty(), &opt_text));
        let strict = subtype_with_config(
            OptReport::Error,
            &mut Gamma::new(),
            &TypeEnv::new(),
            &u8::ty(),
            &opt_text,
        );
        assert!(strict.is_err());
        let all = subtype_check_all(&mut Gamma::new(), &TypeEnv::new(), &small, &big);
        assert_eq!(all.len(), 1);
        assert!(
            all[0].message.contains("missing required field b"),
            "{}",
            all[0]
        );
    }

    #[test]
    fn recursive_types_and_equality() {
        let mut env = TypeEnv::new();
        let list = |name: &str| -> Type {
            Option::<u8>::ty();
            TypeInner::Opt(
                TypeInner::Record(vec![
                    Field {
                        id: crate::types::Label::Id(0).into(),
                        ty: u8::ty(),
                    },
                    Field {
                        id: crate::types::Label::Id(1).into(),
                        ty: TypeInner::Var(name.to_string()).into(),
                    },
                ])
                .into(),
            )
            .into()
        };
        env.0.insert("a".into(), list("a"));
        env.0.insert("b".into(), list("b"));
        let (a, b): (Type, Type) = (
            TypeInner::Var("a".into()).into(),
            TypeInner::Var("b".into()).into(),
        );
        assert!(subtype(&mut Gamma::new(), &env, &a, &b).is_ok());
        assert!(equal(&mut Gamma::new(), &env, &a, &b).is_ok());
        assert!(equal(&mut Gamma::new(), &env, &a, &u8::ty()).is_err());
        // A name that is not defined is an error, not a panic.
        let c: Type = TypeInner::Var("nope".into()).into();
        assert!(subtype(&mut Gamma::new(), &env, &a, &c).is_err());
    }
}
