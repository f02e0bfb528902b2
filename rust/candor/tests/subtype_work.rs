//! The work of a subtype check, counted in heap allocations (a global allocator counts
//! them on this thread; this binary only): a type whose failing `opt` probes are
//! reached along 2^i paths at level i must be checked in work that grows with the
//! number of levels, not with the number of paths, as candid 0.10.39 does with its
//! memo of refuted pairs. A count, not a timer, so the test ends either way.

use candor::types::{Field, Label, Type, TypeInner};
use candor::TypeEnv;

#[path = "common/to_candid.rs"]
#[allow(dead_code)]
mod to_candid;

#[path = "common/alloc_probe.rs"]
mod alloc_probe;
use alloc_probe::count;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

/// `{p}i = record { a : opt {p}(i+1); b : opt {p}(i+1); c : leaf }`, the last level
/// pointing back to the first, in one environment for `t` (leaf `int`) and `e`
/// (leaf `nat`): every probe of `t(i+1) <: e(i+1)` fails at `c`.
fn diamonds(levels: usize) -> TypeEnv {
    let mut env = TypeEnv::new();
    for (p, leaf) in [("t", TypeInner::Int), ("e", TypeInner::Nat)] {
        for i in 0..levels {
            let next: Type =
                TypeInner::Opt(TypeInner::Var(format!("{p}{}", (i + 1) % levels)).into()).into();
            let field = |name: &str, ty: Type| Field {
                id: Label::Named(name.into()).into(),
                ty,
            };
            env.0.insert(
                format!("{p}{i}"),
                TypeInner::Record(vec![
                    field("a", next.clone()),
                    field("b", next),
                    field("c", leaf.clone().into()),
                ])
                .into(),
            );
        }
    }
    env
}

/// Allocations of candor's and candid's check `t0 <: e0` at `levels`.
fn work(levels: usize) -> (usize, usize) {
    let env = diamonds(levels);
    let (t, e): (Type, Type) = (
        TypeInner::Var("t0".into()).into(),
        TypeInner::Var("e0".into()).into(),
    );
    let ours = count(|| {
        let r = candor::types::subtype::subtype_with_config(
            candor::types::subtype::OptReport::Silence,
            &mut Default::default(),
            &env,
            &t,
            &e,
        );
        assert!(r.is_err());
    });
    let (cenv, ct, ce) = (to_candid::env(&env), to_candid::ty(&t), to_candid::ty(&e));
    let theirs = count(|| {
        let r = candid::types::subtype::subtype_with_config(
            candid::types::subtype::OptReport::Silence,
            &mut Default::default(),
            &cenv,
            &ct,
            &ce,
        );
        assert!(r.is_err());
    });
    (ours, theirs)
}

/// From 6 to 12 levels (twice the levels, 64 times the paths) the work may grow a few
/// times, not with the paths (a checker that explores every path grows with them,
/// a factor near 64).
#[test]
fn subtype_work_grows_with_levels_not_paths() {
    let (o6, t6) = work(6);
    let (o12, t12) = work(12);
    println!("candor {o6} -> {o12}, candid {t6} -> {t12}");
    assert!(t12 < 4 * t6, "candid {t6} -> {t12}");
    assert!(o12 < 4 * o6, "candor {o6} -> {o12}");
}
