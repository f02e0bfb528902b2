//! The size bound (spec/limits.md §1.1) against the official conformance suite:
//! every binary message the suite says decodes (run by the suite with an explicit
//! quota) also decodes with the default config, where only the bound limits it, at
//! its types and untyped. Prints the largest share of the bound one of them uses.
//! Skipped (with a message) when the suite is not next to the repository.

use candor::de::size_bound;
use candor::types::TypeEnv;
use candor::{DecoderConfig, IDLArgs, IDLDeserialize};
use candor_parser::syntax::{Input, Test};
use candor_parser::typing::{ast_to_type, check_prog};
use candor_parser::IDLProg;
use std::path::PathBuf;

/// Units of work (counted once, typed or untyped) of decoding `bytes` at `types`.
fn work(bytes: &[u8], env: &TypeEnv, types: &[candor::Type]) -> usize {
    let mut config = DecoderConfig::new();
    config
        .set_decoding_quota(usize::MAX / 2)
        .set_skipping_quota(usize::MAX / 100);
    let mut de = IDLDeserialize::new_with_config(bytes, &config).unwrap();
    for ty in types {
        de.get_value_with_type(env, ty).unwrap();
    }
    de.done().unwrap();
    let cost = de.get_config().compute_cost(&config);
    let (d, s) = (cost.decoding_quota.unwrap(), cost.skipping_quota.unwrap());
    d - 49 * s
}

#[test]
fn every_accepted_suite_message_decodes_under_the_bound() {
    let dir = std::env::var_os("CANDID_TEST_SUITE").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/candid-test-suite"),
        PathBuf::from,
    );
    if !dir.is_dir() {
        println!("skipped: no test suite at {}", dir.display());
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".test.did"))
        .collect();
    files.sort();
    let (mut checked, mut worst) = (0, (0.0f64, String::new()));
    for path in &files {
        let test: Test = std::fs::read_to_string(path).unwrap().parse().unwrap();
        let mut env = TypeEnv::new();
        let prog = IDLProg {
            decs: test.defs.clone(),
            actor: None,
            dec_spans: Vec::new(),
            source: None,
        };
        check_prog(&mut env, &prog).unwrap();
        for a in &test.asserts {
            let Ok(types) = a
                .typ
                .iter()
                .map(|t| ast_to_type(&env, t))
                .collect::<Result<Vec<_>, _>>()
            else {
                continue;
            };
            for input in std::iter::once(&a.left).chain(&a.right) {
                let Input::Blob(bytes) = input else {
                    continue;
                };
                // The messages the suite's runner decodes (with its explicit quota).
                let mut quota = DecoderConfig::new();
                quota.set_decoding_quota(candor_parser::test::DECODING_QUOTA);
                if IDLArgs::from_bytes_with_types_with_config(bytes, &env, &types, &quota).is_err()
                {
                    continue;
                }
                let at = format!("{}:{}", path.display(), a.line);
                IDLArgs::from_bytes_with_types_with_config(
                    bytes,
                    &env,
                    &types,
                    &DecoderConfig::new(),
                )
                .unwrap_or_else(|e| panic!("{at}: {e}"));
                // Untyped too, when the message decodes untyped at all.
                if IDLArgs::from_bytes_with_config(bytes, &quota).is_ok() {
                    IDLArgs::from_bytes(bytes).unwrap_or_else(|e| panic!("{at} untyped: {e}"));
                }
                let share = work(bytes, &env, &types) as f64 / size_bound(bytes.len()) as f64;
                if share > worst.0 {
                    worst = (share, at);
                }
                checked += 1;
            }
        }
    }
    println!(
        "{checked} binary messages the suite decodes decode under the bound; the most of the bound one uses: {:.1}% ({})",
        worst.0 * 100.0,
        worst.1
    );
    assert!(checked > 100, "only {checked} messages");
}
