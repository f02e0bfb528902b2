//! `types::subtype` on recursive types decides as candid 0.10.39's does, and gives the
//! same special-opt-rule warnings in the same order: both crates check every pair of
//! names of a random environment (a family `a*` and a mutated copy `b*`, defined in
//! terms of each other), with fresh and with shared `gamma`s.
//!
//! Recursion through many paths is where the memo of refuted pairs and the
//! withdrawal of pairs proved from a failed assumption act, so the environments are
//! small, `opt`-heavy and full of names. Cases come from a seeded generator, so a
//! failure names its seed.
//!
//! Warnings go to standard error, so the warning test re-runs this binary on itself
//! in a child process and reads what the child printed between markers.

use candor::types::subtype as o;
use candor::types::{Field, Function, Label, Type, TypeEnv, TypeInner};
use std::process::Command;

#[path = "common/to_candid.rs"]
#[allow(dead_code)]
mod to_candid;

use candid::types::subtype as c;

/// xorshift64*: enough to spread cases, and reproducible from a seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

#[derive(Clone, Debug)]
enum Shape {
    Prim(u8),
    Var(usize),
    Opt(Box<Shape>),
    Vec(Box<Shape>),
    Record(Vec<(u32, Shape)>),
    Variant(Vec<(u32, Shape)>),
    Func(Vec<Shape>, Vec<Shape>),
}

const PRIMS: usize = 7;

fn gen(r: &mut Rng, names: usize, depth: usize, top: bool) -> Shape {
    if !top && (depth == 0 || r.below(3) == 0) {
        return if r.below(2) == 0 {
            Shape::Var(r.below(names))
        } else {
            Shape::Prim(r.below(PRIMS) as u8)
        };
    }
    let d = depth.saturating_sub(1);
    let fields = |r: &mut Rng| {
        let mut ids: Vec<u32> = (0..4).filter(|_| r.below(2) == 0).collect();
        ids.dedup();
        ids.into_iter()
            .map(|i| (i, gen(r, names, d, false)))
            .collect::<Vec<_>>()
    };
    match r.below(9) {
        0..=2 => Shape::Opt(Box::new(gen(r, names, d, false))),
        3 => Shape::Vec(Box::new(gen(r, names, d, false))),
        4..=6 => Shape::Record(fields(r)),
        7 => Shape::Variant(fields(r)),
        _ => {
            let list = |r: &mut Rng| (0..r.below(3)).map(|_| gen(r, names, d, false)).collect();
            Shape::Func(list(r), list(r))
        }
    }
}

/// Small changes, so that the two families are often related one way or both.
fn mutate(r: &mut Rng, s: &Shape, names: usize) -> Shape {
    let go = |r: &mut Rng, s: &Shape| mutate(r, s, names);
    match (s, r.below(8)) {
        (Shape::Prim(2), 0) => Shape::Prim(3),
        (Shape::Prim(3), 0) => Shape::Prim(2),
        (Shape::Prim(_), 1) => Shape::Prim(r.below(PRIMS) as u8),
        (Shape::Var(_), 0) => Shape::Var(r.below(names)),
        (_, 2) if !matches!(s, Shape::Opt(_)) => Shape::Opt(Box::new(go(r, s))),
        (Shape::Opt(t), 3) => go(r, t),
        (Shape::Opt(t), _) => Shape::Opt(Box::new(go(r, t))),
        (Shape::Vec(t), _) => Shape::Vec(Box::new(go(r, t))),
        (Shape::Record(fs), k) | (Shape::Variant(fs), k) => {
            let mut fs: Vec<_> = fs.iter().map(|(i, f)| (*i, go(r, f))).collect();
            if k == 4 && !fs.is_empty() {
                fs.remove(r.below(fs.len()));
            } else if k == 5 && !fs.iter().any(|(i, _)| *i == 7) {
                fs.push((7, go(r, &Shape::Opt(Box::new(Shape::Prim(2))))));
            }
            if matches!(s, Shape::Record(_)) {
                Shape::Record(fs)
            } else {
                Shape::Variant(fs)
            }
        }
        (Shape::Func(a, b), _) => Shape::Func(
            a.iter().map(|t| go(r, t)).collect(),
            b.iter().map(|t| go(r, t)).collect(),
        ),
        _ => s.clone(),
    }
}

fn build(s: &Shape, family: &str) -> Type {
    let fields = |fs: &[(u32, Shape)]| {
        fs.iter()
            .map(|(i, f)| Field {
                id: Label::Id(*i).into(),
                ty: build(f, family),
            })
            .collect()
    };
    match s {
        Shape::Prim(p) => match p {
            0 => TypeInner::Null,
            1 => TypeInner::Bool,
            2 => TypeInner::Nat,
            3 => TypeInner::Int,
            4 => TypeInner::Text,
            5 => TypeInner::Reserved,
            _ => TypeInner::Empty,
        }
        .into(),
        Shape::Var(i) => TypeInner::Var(format!("{family}{i}")).into(),
        Shape::Opt(t) => TypeInner::Opt(build(t, family)).into(),
        Shape::Vec(t) => TypeInner::Vec(build(t, family)).into(),
        Shape::Record(fs) => TypeInner::Record(fields(fs)).into(),
        Shape::Variant(fs) => TypeInner::Variant(fields(fs)).into(),
        Shape::Func(a, b) => TypeInner::Func(Function {
            modes: vec![],
            args: a.iter().map(|t| build(t, family)).collect(),
            rets: b.iter().map(|t| build(t, family)).collect(),
        })
        .into(),
    }
}

/// One case: an environment and every ordered pair of its names.
struct Case {
    env: TypeEnv,
    names: Vec<Type>,
}

fn case(seed: u64) -> Case {
    let mut r = Rng::new(seed);
    let n = 1 + r.below(4);
    let a: Vec<Shape> = (0..n).map(|_| gen(&mut r, n, 3, true)).collect();
    let b: Vec<Shape> = a.iter().map(|s| mutate(&mut r, s, n)).collect();
    let mut env = TypeEnv::new();
    let mut names = Vec::new();
    for (family, shapes) in [("a", &a), ("b", &b)] {
        for (i, s) in shapes.iter().enumerate() {
            // A definition that is a bare name could loop through names only.
            let t = match s {
                Shape::Var(_) => build(&Shape::Opt(Box::new(s.clone())), family),
                _ => build(s, family),
            };
            env.0.insert(format!("{family}{i}"), t);
            names.push(TypeInner::Var(format!("{family}{i}")).into());
        }
    }
    Case { env, names }
}

const SEEDS: u64 = 1500;

fn var(name: &str) -> Type {
    TypeInner::Var(name.to_string()).into()
}

fn opt(t: Type) -> Type {
    TypeInner::Opt(t).into()
}

fn record(fields: &[(&str, Type)]) -> Type {
    let fields = fields.iter().map(|(n, t)| Field {
        id: Label::Named(n.to_string()).into(),
        ty: t.clone(),
    });
    TypeInner::Record(fields.collect()).into()
}

fn env_of(defs: Vec<(&str, Type)>) -> Case {
    let names = defs.iter().map(|(n, _)| var(n)).collect();
    let mut env = TypeEnv::new();
    for (n, t) in defs {
        env.0.insert(n.to_string(), t);
    }
    Case { env, names }
}

/// `t <: e` fails at `c`, after `u <: f` was proved from the assumption `t <: e`
/// (`u` holds a `t` where `f` holds an `e`) and `v <: g` was refuted in a probe
/// under it. `top1 <: top2` meets `t <: e` in a probe, then `u <: f`; `top3 <: top4`
/// meets `t <: e` in a probe, then `v <: g`.
fn withdrawn() -> Case {
    let int = || TypeInner::Int.into();
    let nat = || TypeInner::Nat.into();
    env_of(vec![
        (
            "t",
            record(&[("a", var("u")), ("b", opt(var("v"))), ("c", int())]),
        ),
        ("u", record(&[("y", var("t"))])),
        ("v", record(&[("v", int())])),
        (
            "e",
            record(&[("a", var("f")), ("b", opt(var("g"))), ("c", nat())]),
        ),
        ("f", record(&[("y", var("e"))])),
        ("g", record(&[("v", nat())])),
        ("top1", record(&[("p", opt(var("t"))), ("q", var("u"))])),
        ("top2", record(&[("p", opt(var("e"))), ("q", var("f"))])),
        ("top3", record(&[("p", opt(var("t"))), ("q", var("v"))])),
        ("top4", record(&[("p", opt(var("e"))), ("q", var("g"))])),
    ])
}

/// `{p}i = record { a : opt {p}(i+1); b : opt {p}(i+1); c : leaf }`, the last level
/// back to the first, for `t` (`int`) and `e` (`nat`): each `t(i) <: e(i)` fails
/// at `c`, and is probed along 2^i paths. `top_t <: top_e` probes `t0 <: e0` twice
/// and holds only through the opt rule.
fn diamond(levels: usize) -> Case {
    let mut defs = Vec::new();
    for (p, leaf) in [("t", TypeInner::Int), ("e", TypeInner::Nat)] {
        for i in 0..levels {
            let next = opt(var(&format!("{p}{}", (i + 1) % levels)));
            let def = record(&[("a", next.clone()), ("b", next), ("c", leaf.clone().into())]);
            defs.push((format!("{p}{i}"), def));
        }
        let first = opt(var(&format!("{p}0")));
        defs.push((
            format!("top_{p}"),
            record(&[("a", first.clone()), ("b", first)]),
        ));
    }
    let defs = defs.iter().map(|(n, t)| (n.as_str(), t.clone())).collect();
    env_of(defs)
}

/// Both crates' `subtype_with_config` on names `x` and `y` of `case`, with `gamma`s
/// of their own (fresh unless given).
fn both(
    case: &Case,
    report: (o::OptReport, c::OptReport),
    gammas: Option<(&mut o::Gamma, &mut c::Gamma)>,
    x: &str,
    y: &str,
) -> (candor::Result<()>, candid::Result<()>) {
    let (mut og, mut cg) = (o::Gamma::new(), c::Gamma::new());
    let (og, cg) = gammas.unwrap_or((&mut og, &mut cg));
    let cenv = to_candid::env(&case.env);
    let ours = o::subtype_with_config(report.0, og, &case.env, &var(x), &var(y));
    let theirs = c::subtype_with_config(
        report.1,
        cg,
        &cenv,
        &to_candid::ty(&var(x)),
        &to_candid::ty(&var(y)),
    );
    (ours, theirs)
}

const SILENCE: (o::OptReport, c::OptReport) = (o::OptReport::Silence, c::OptReport::Silence);
const REFUSE: (o::OptReport, c::OptReport) = (o::OptReport::Error, c::OptReport::Error);

/// `t <: e` fails after `u <: f` was proved from it; a `gamma` the caller keeps
/// across checks must not keep `u <: f`. Failed before: only `t <: e` itself was
/// withdrawn, and the next check took `u <: f` from the caller's `gamma`.
#[test]
fn a_failed_assumption_takes_what_was_proved_from_it_out_of_the_callers_gamma() {
    let case = withdrawn();
    let (mut og, mut cg) = (o::Gamma::new(), c::Gamma::new());
    let (ours, theirs) = both(&case, SILENCE, Some((&mut og, &mut cg)), "t", "e");
    assert!(ours.is_err() && theirs.is_err());
    let (ours, theirs) = both(&case, SILENCE, Some((&mut og, &mut cg)), "u", "f");
    assert!(theirs.is_err());
    assert!(ours.is_err(), "u <: f taken from a withdrawn proof");
    assert!(og.is_empty(), "{og:?}");
}

/// The same inside one check: the probe of `opt t <: opt e` fails, and `u <: f`,
/// proved in it from `t <: e`, must not answer the next field.
#[test]
fn a_failed_probe_keeps_no_proof_resting_on_its_assumption() {
    let case = withdrawn();
    for report in [SILENCE, REFUSE] {
        let (ours, theirs) = both(&case, report, None, "top1", "top2");
        assert!(theirs.is_err());
        assert!(ours.is_err());
    }
}

/// `v <: g` is refuted in a probe while `t <: e` is assumed, and `t <: e` fails
/// afterwards; the refutation still stands (no assumption can make a pair fail),
/// and where the check meets `v <: g` again it reports the reason found first, at
/// the new place, as a fresh check of that place would.
#[test]
fn a_refutation_found_under_a_withdrawn_assumption_stands() {
    let case = withdrawn();
    let (ours, theirs) = both(&case, SILENCE, None, "top3", "top4");
    assert!(ours.is_err() && theirs.is_err());
    let fresh = o::subtype_with_config(
        o::OptReport::Silence,
        &mut o::Gamma::new(),
        &case.env,
        &record(&[("q", var("v"))]),
        &record(&[("q", var("g"))]),
    );
    let (ours, fresh) = (
        ours.unwrap_err().to_string(),
        fresh.unwrap_err().to_string(),
    );
    assert_eq!(ours, fresh);
    assert!(ours.contains("record field q > record field v"), "{ours}");
    // The pair itself, and with the opt rule refused.
    assert!(both(&case, SILENCE, None, "v", "g").0.is_err());
    let (ours, theirs) = both(&case, REFUSE, None, "top3", "top4");
    assert!(ours.is_err() && theirs.is_err());
}

/// The opt rule under the memo: the second probe of `t0 <: e0` is answered by the
/// memo, and still falls back on the rule (silenced: holds; refused: fails), as
/// candid's does. The warnings themselves are compared in
/// `recursive_opt_rule_warnings_agree_with_candid`.
#[test]
fn the_opt_rule_applies_where_the_memo_answers_a_probe() {
    let case = diamond(8);
    let (ours, theirs) = both(&case, SILENCE, None, "top_t", "top_e");
    assert!(ours.is_ok() && theirs.is_ok(), "{ours:?} / {theirs:?}");
    let (ours, theirs) = both(&case, REFUSE, None, "top_t", "top_e");
    assert!(ours.is_err() && theirs.is_err());
    let (ours, theirs) = both(&case, SILENCE, None, "t0", "e0");
    assert!(ours.is_err() && theirs.is_err());
}

#[test]
fn recursive_subtype_decisions_agree_with_candid() {
    for seed in 0..SEEDS {
        let Case { env, names } = case(seed);
        let cenv = to_candid::env(&env);
        let cnames: Vec<_> = names.iter().map(to_candid::ty).collect();
        // One `gamma` per crate across all pairs, as a caller may keep it.
        let (mut og, mut cg) = (o::Gamma::new(), c::Gamma::new());
        for (x, cx) in names.iter().zip(&cnames) {
            for (y, cy) in names.iter().zip(&cnames) {
                let at = format!("seed {seed}: {cx} <: {cy} in {cenv:?}");
                for (or, cr) in [
                    (o::OptReport::Silence, c::OptReport::Silence),
                    (o::OptReport::Error, c::OptReport::Error),
                ] {
                    let ours = o::subtype_with_config(or, &mut Default::default(), &env, x, y);
                    let theirs = c::subtype_with_config(cr, &mut Default::default(), &cenv, cx, cy);
                    assert_eq!(
                        ours.is_ok(),
                        theirs.is_ok(),
                        "{at} ({or:?}): {ours:?} / {theirs:?}"
                    );
                    let ours = o::subtype_with_config(or, &mut og, &env, x, y);
                    let theirs = c::subtype_with_config(cr, &mut cg, &cenv, cx, cy);
                    assert_eq!(ours.is_ok(), theirs.is_ok(), "{at} ({or:?}, shared gamma)");
                }
                let ours = o::subtype_check_all(&mut Default::default(), &env, x, y);
                let theirs = c::subtype_check_all(&mut Default::default(), &cenv, cx, cy);
                assert_eq!(ours.is_empty(), theirs.is_empty(), "{at} (check_all)");
                let ours = o::equal(&mut Default::default(), &env, x, y);
                let theirs = c::equal(&mut Default::default(), &cenv, cx, cy);
                assert_eq!(ours.is_ok(), theirs.is_ok(), "{at} (equal)");
            }
        }
    }
}

const CHILD: &str = "CANDOR_SUBTYPE_WARNINGS_CHILD";
const WARNINGS_SEEDS: u64 = 600;

/// In the child: every pair of every case checked by both crates with warnings on,
/// between markers on standard error.
fn print_warnings() {
    let cases = (0..WARNINGS_SEEDS).map(|seed| (seed.to_string(), case(seed)));
    let fixed = [
        ("withdrawn", withdrawn()),
        ("diamond 3", diamond(3)),
        ("diamond 5", diamond(5)),
    ];
    for (seed, Case { env, names }) in cases.chain(fixed.map(|(n, c)| (n.to_string(), c))) {
        let cenv = to_candid::env(&env);
        for x in &names {
            for y in &names {
                let (cx, cy) = (to_candid::ty(x), to_candid::ty(y));
                eprintln!("@@ours {seed} {cx} <: {cy}");
                let _ = o::subtype(&mut Default::default(), &env, x, y);
                eprintln!("@@theirs");
                let _ = c::subtype(&mut Default::default(), &cenv, &cx, &cy);
                eprintln!("@@ours check_all");
                let _ = o::subtype_check_all(&mut Default::default(), &env, x, y);
                eprintln!("@@theirs check_all");
                let _ = c::subtype_check_all(&mut Default::default(), &cenv, &cx, &cy);
            }
        }
    }
    eprintln!("@@ours end");
}

/// The part of a warning both crates word alike (candid's goes on with a link).
fn warning(line: &str) -> Option<&str> {
    let end = line.find(" due to special subtyping rules")?;
    line.starts_with("WARNING: ").then(|| &line[..end])
}

#[test]
fn recursive_opt_rule_warnings_agree_with_candid() {
    let name = "recursive_opt_rule_warnings_agree_with_candid";
    if std::env::var(CHILD).is_ok() {
        print_warnings();
        return;
    }
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .expect("run the child");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the child failed:\n{err}");
    // Blocks alternate: ours, theirs, ours, theirs, ...; each pair must match.
    let mut blocks: Vec<(String, Vec<&str>)> = Vec::new();
    for line in err.lines() {
        if let Some(head) = line.strip_prefix("@@") {
            blocks.push((head.to_string(), Vec::new()));
        } else if let (Some(w), Some(last)) = (warning(line), blocks.last_mut()) {
            last.1.push(w);
        }
    }
    let mut warned = 0;
    let mut at = String::new();
    for pair in blocks.chunks(2) {
        let [(ours_head, ours), (_, theirs)] = pair else {
            break;
        };
        if ours_head != "ours check_all" {
            at = ours_head.clone();
        }
        assert_eq!(ours, theirs, "{at} ({ours_head})");
        warned += ours.len();
    }
    // The cases do reach the rule.
    assert!(warned > 100, "only {warned} warnings");
}

/// A probe that fails only because it ran into the depth limit (candor's, see
/// spec/differences.md T2) says nothing about the pair it was examining: `x <: y`
/// holds, fails at the bottom of a chain of `opt`s too deep to finish (the opt rule
/// then accepts the chain), and must still hold at the top. For some chain length
/// the limit falls inside `x <: y`; every length must give `Ok`.
#[test]
fn a_failure_at_the_depth_limit_is_not_remembered() {
    let body = || {
        let nested = |leaf: TypeInner| {
            let mut t: Type = leaf.into();
            for _ in 0..3 {
                t = record(&[("n", t)]);
            }
            t
        };
        for len in 500..=o::MAX_DEPTH + 2 {
            let chain = |name: &str| (0..len).fold(var(name), |t, _| opt(t));
            let case = env_of(vec![
                ("x", nested(TypeInner::Nat)),
                ("y", nested(TypeInner::Int)),
                (
                    "deep_x",
                    record(&[("deep", chain("x")), ("direct", var("x"))]),
                ),
                (
                    "deep_y",
                    record(&[("deep", chain("y")), ("direct", var("y"))]),
                ),
            ]);
            let (ours, _) = both(&case, SILENCE, None, "deep_x", "deep_y");
            assert!(ours.is_ok(), "chain of {len}: {ours:?}");
        }
    };
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(body)
        .expect("spawn")
        .join()
        .expect("the check panicked");
}
