//! `candor random`'s promise: every value it makes is a well-typed argument list
//! for the method, as bytes (the decoder accepts them at the method's types) and as
//! text (which parses back to the same bytes), and the same seed makes the same
//! values.

use candor::types::{Type, TypeEnv};
use candor::IDLArgs;
use candor_cli::random::generate;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn golden(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(file)
}

fn method(file: &str, name: &str) -> (TypeEnv, Vec<Type>) {
    let (env, actor, _) = candor_parser::check_file(&golden(file)).unwrap();
    let actor = actor.unwrap();
    let args = env.get_method(&actor, name).unwrap().args.clone();
    (env, args)
}

/// The methods tried: recursive types (a list, a binary tree), `empty` inside
/// `opt`, `vec` and a variant, names that are not identifiers, references, and the
/// ledger's transfer.
const METHODS: [(&str, &str); 3] = [
    ("shapes.did", "walk"),
    ("shapes.did", "mixed"),
    ("ledger.did", "icrc1_transfer"),
];

fn check_seed(env: &TypeEnv, types: &[Type], seed: u64) {
    for message in generate(env, types, seed, 2).unwrap() {
        let bytes = message.to_bytes_with_types(env, types).unwrap();
        let decoded = IDLArgs::from_bytes_with_types(&bytes, env, types)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{message}"));
        assert_eq!(
            decoded.to_bytes_with_types(env, types).unwrap(),
            bytes,
            "seed {seed}"
        );
        let text = message.to_string();
        let parsed = candor_parser::parse_idl_args(&text)
            .and_then(|a| Ok(a.annotate_types(true, env, types)?))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(
            parsed.to_bytes_with_types(env, types).unwrap(),
            bytes,
            "seed {seed}: {text}"
        );
        // Bounded: recursion stops at the depth and node budgets.
        assert!(
            bytes.len() < 64 * 1024,
            "seed {seed}: {} bytes",
            bytes.len()
        );
    }
}

#[test]
fn many_seeds_make_values_the_method_accepts() {
    for (file, name) in METHODS {
        let (env, types) = method(file, name);
        for seed in 0..300 {
            check_seed(&env, &types, seed);
        }
    }
}

proptest! {
    #[test]
    fn any_seed_makes_values_the_method_accepts(seed in any::<u64>(), which in 0..METHODS.len()) {
        let (file, name) = METHODS[which];
        let (env, types) = method(file, name);
        check_seed(&env, &types, seed);
    }
}

#[test]
fn the_same_seed_makes_the_same_values() {
    let (env, types) = method("shapes.did", "walk");
    let a = generate(&env, &types, 42, 5).unwrap();
    let b = generate(&env, &types, 42, 5).unwrap();
    let c = generate(&env, &types, 43, 5).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn a_type_no_finite_value_inhabits_is_an_error() {
    let (env, types) = method("shapes.did", "never");
    let err = generate(&env, &types, 0, 1).unwrap_err();
    assert_eq!(
        err,
        "argument 0 has type Never, which no finite value inhabits"
    );
}
