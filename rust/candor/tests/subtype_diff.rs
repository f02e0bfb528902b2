//! `types::subtype` decides as candid's does: the same random pair of types is built
//! in both crates and `subtype`, `subtype_check_all` and `equal` must agree on whether
//! it holds (their wording is candor's; spec/differences.md C3).

use proptest::prelude::*;

/// A type both crates can build.
#[derive(Debug, Clone)]
enum Shape {
    Prim(u8),
    Opt(Box<Shape>),
    Vec(Box<Shape>),
    Record(Vec<(u32, Shape)>),
    Variant(Vec<(u32, Shape)>),
    Func(Vec<Shape>, Vec<Shape>, u8),
}

const PRIMS: u8 = 14;

fn shape() -> impl Strategy<Value = Shape> {
    let leaf = (0..PRIMS).prop_map(Shape::Prim);
    leaf.prop_recursive(4, 24, 4, |inner| {
        // Few field ids, so that records and variants overlap and differ often.
        let fields = prop::collection::btree_map(0u32..4, inner.clone(), 0..4)
            .prop_map(|m| m.into_iter().collect::<Vec<_>>());
        prop_oneof![
            inner.clone().prop_map(|s| Shape::Opt(Box::new(s))),
            inner.clone().prop_map(|s| Shape::Vec(Box::new(s))),
            fields.clone().prop_map(Shape::Record),
            fields.prop_map(Shape::Variant),
            (
                prop::collection::vec(inner.clone(), 0..3),
                prop::collection::vec(inner, 0..3),
                0u8..3
            )
                .prop_map(|(a, r, m)| Shape::Func(a, r, m)),
        ]
    })
}

/// Small mutations of a type, so that pairs are often related.
fn related() -> impl Strategy<Value = (Shape, Shape)> {
    shape().prop_flat_map(|a| {
        let b = prop_oneof![
            Just(a.clone()),
            Just(Shape::Opt(Box::new(a.clone()))),
            shape(),
            Just(widen(&a)),
        ];
        (Just(a), b)
    })
}

/// Drops the last field of every record and adds one to every variant: a subtype
/// relation in one direction, broken in the other.
fn widen(s: &Shape) -> Shape {
    match s {
        Shape::Record(fs) => {
            let mut fs: Vec<_> = fs.iter().map(|(i, f)| (*i, widen(f))).collect();
            fs.pop();
            Shape::Record(fs)
        }
        Shape::Variant(fs) => {
            let mut fs: Vec<_> = fs.iter().map(|(i, f)| (*i, widen(f))).collect();
            if !fs.iter().any(|(i, _)| *i == 9) {
                fs.push((9, Shape::Prim(0)));
            }
            Shape::Variant(fs)
        }
        Shape::Opt(t) => Shape::Opt(Box::new(widen(t))),
        Shape::Vec(t) => Shape::Vec(Box::new(widen(t))),
        other => other.clone(),
    }
}

/// `ours` and `theirs`: the same shape built with each crate's type model (the two
/// models have the same constructors under the same names).
macro_rules! build {
    ($name:ident, $krate:ident) => {
        fn $name(s: &Shape) -> $krate::types::Type {
            use $krate::types::{Field, FuncMode, Function, Label, TypeInner as T};
            let fields = |fs: &[(u32, Shape)]| {
                fs.iter()
                    .map(|(i, f)| Field {
                        id: Label::Id(*i).into(),
                        ty: $name(f),
                    })
                    .collect()
            };
            match s {
                Shape::Prim(p) => match p {
                    0 => T::Null,
                    1 => T::Bool,
                    2 => T::Nat,
                    3 => T::Int,
                    4 => T::Nat8,
                    5 => T::Nat64,
                    6 => T::Int8,
                    7 => T::Int64,
                    8 => T::Float64,
                    9 => T::Text,
                    10 => T::Reserved,
                    11 => T::Empty,
                    12 => T::Principal,
                    _ => T::Float32,
                }
                .into(),
                Shape::Opt(t) => T::Opt($name(t)).into(),
                Shape::Vec(t) => T::Vec($name(t)).into(),
                Shape::Record(fs) => T::Record(fields(fs)).into(),
                Shape::Variant(fs) => T::Variant(fields(fs)).into(),
                Shape::Func(a, r, m) => T::Func(Function {
                    modes: match m {
                        0 => vec![],
                        1 => vec![FuncMode::Query],
                        _ => vec![FuncMode::Oneway],
                    },
                    args: a.iter().map($name).collect(),
                    rets: r.iter().map($name).collect(),
                })
                .into(),
            }
        }
    };
}

build!(ours, candor);
build!(theirs, candid);

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn subtype_decisions_agree_with_candid((a, b) in related()) {
        use candid::types::subtype as c;
        use candor::types::subtype as o;
        let (oa, ob, ca, cb) = (ours(&a), ours(&b), theirs(&a), theirs(&b));
        let (oenv, cenv) = (candor::TypeEnv::new(), candid::TypeEnv::new());
        for (ox, oy, cx, cy) in [(&oa, &ob, &ca, &cb), (&ob, &oa, &cb, &ca)] {
            let ours = o::subtype_with_config(o::OptReport::Silence, &mut Default::default(), &oenv, ox, oy);
            let theirs = c::subtype_with_config(c::OptReport::Silence, &mut Default::default(), &cenv, cx, cy);
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{} <: {}: ours {:?}, candid {:?}", cx, cy, ours, theirs);

            let ours = o::subtype_with_config(o::OptReport::Error, &mut Default::default(), &oenv, ox, oy);
            let theirs = c::subtype_with_config(c::OptReport::Error, &mut Default::default(), &cenv, cx, cy);
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{} <: {} (opt rule refused)", cx, cy);

            let ours = o::subtype_check_all(&mut Default::default(), &oenv, ox, oy).is_empty();
            let theirs = c::subtype_check_all(&mut Default::default(), &cenv, cx, cy).is_empty();
            prop_assert_eq!(ours, theirs, "{} <: {} (check_all)", cx, cy);

            let ours = o::equal(&mut Default::default(), &oenv, ox, oy);
            let theirs = c::equal(&mut Default::default(), &cenv, cx, cy);
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{} = {}", cx, cy);
        }
    }
}

/// Found by the property above: a probe inside the check relied on the special opt
/// rule although the caller asked for it to be refused.
#[test]
fn refusing_the_opt_rule_reaches_inner_probes() {
    use candor::types::subtype::{subtype_with_config, OptReport};
    let a = ours(&Shape::Opt(Box::new(Shape::Prim(1))));
    let b = ours(&Shape::Opt(Box::new(Shape::Opt(Box::new(Shape::Prim(2))))));
    let env = candor::TypeEnv::new();
    let check = |report| subtype_with_config(report, &mut Default::default(), &env, &a, &b);
    assert!(check(OptReport::Silence).is_ok());
    assert!(check(OptReport::Error).is_err());
}
