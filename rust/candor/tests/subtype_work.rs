//! The work of a subtype check, counted in heap allocations (a global allocator counts
//! them on this thread; this binary only): a type whose failing `opt` probes are
//! reached along 2^i paths at level i must be checked in work that grows with the
//! number of levels, not with the number of paths, as candid 0.10.39 does with its
//! memo of refuted pairs. A count, not a timer, so the test ends either way.

use candor::types::{Type, TypeInner};
use candor::TypeEnv;

#[path = "common/diamond.rs"]
mod diamond;
use diamond::diamond;

#[path = "common/to_candid.rs"]
#[allow(dead_code)]
mod to_candid;

#[path = "common/alloc_probe.rs"]
mod alloc_probe;
use alloc_probe::count;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

/// The diamond of `levels` levels twice in one environment: `t` (leaf `int`) and
/// `e` (leaf `nat`), so every probe of `t(i+1) <: e(i+1)` fails at `c`.
fn diamonds(levels: usize) -> TypeEnv {
    let mut env = diamond("t", levels, TypeInner::Int);
    env.0.extend(diamond("e", levels, TypeInner::Nat).0);
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
