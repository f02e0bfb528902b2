//! explain's quota units are the decoder's: for every message both accept, the
//! units on explain's value lines add up to what candor's decoder charges when it
//! skips every argument (its skipping quota), and its header note plus fifty times
//! those units to what it takes from the decoding quota.

use candor::de::{DecoderConfig, IDLDeserialize};
use candor_cli::explain::{explain, Context};
use std::path::PathBuf;

/// (decoding, skipping) units candor charges to skip every argument of `m`, or
/// `None` if it rejects the message.
fn decoder_units(m: &[u8]) -> Option<(usize, usize)> {
    let mut config = DecoderConfig::new();
    // Bounded: the suite has vectors of 2^60 nulls in a few bytes, which the
    // decoder would walk element by element without a quota.
    config.set_decoding_quota(1 << 30);
    config.set_skipping_quota(1 << 24);
    let mut de = IDLDeserialize::new_with_config(m, &config).ok()?;
    de.done().ok()?;
    let used = de.get_config().compute_cost(&config);
    Some((used.decoding_quota?, used.skipping_quota?))
}

/// The units explain shows: (header bytes, Σ of the value lines, the total note).
fn explained_units(m: &[u8]) -> Option<(usize, u64, u64)> {
    let explained = explain(m, &Context::default());
    if explained.fault.is_some() {
        return None;
    }
    let mut lines = 0u64;
    let (mut header, mut total) = (None, None);
    for line in explained.text().lines() {
        if let Some(rest) = line.strip_prefix("# header: ") {
            header = rest.split(' ').next().and_then(|n| n.parse().ok());
        } else if let Some(rest) = line.strip_prefix("# values: ") {
            total = rest.split(' ').next().and_then(|n| n.parse().ok());
        } else if let Some(i) = line.rfind("  [") {
            let n: String = line[i + 3..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            lines += n.parse::<u64>().unwrap();
        }
    }
    Some((header?, lines, total?))
}

#[track_caller]
fn check(name: &str, m: &[u8]) -> bool {
    let (Some((decoding, skipping)), Some((header, lines, total))) =
        (decoder_units(m), explained_units(m))
    else {
        return false;
    };
    assert_eq!(lines, total, "{name}: the lines add up to the note");
    assert_eq!(total, skipping as u64, "{name}: skipping units");
    assert_eq!(
        4 * header as u64 + 50 * total,
        decoding as u64,
        "{name}: decoding units"
    );
    true
}

fn suite_messages() -> Vec<(String, Vec<u8>)> {
    let dir = std::env::var_os("CANDID_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/candid-test-suite")
        });
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("note: official suite not found; set CANDID_TEST_SUITE");
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in entries.map(|e| e.unwrap().path()) {
        if !path.to_string_lossy().ends_with(".test.did") {
            continue;
        }
        let test: candor_parser::test::Test =
            std::fs::read_to_string(&path).unwrap().parse().unwrap();
        for a in &test.asserts {
            for input in std::iter::once(&a.left).chain(&a.right) {
                if let candor_parser::test::Input::Blob(b) = input {
                    let name = format!("{}:{}", path.display(), a.line);
                    out.push((name, b.clone()));
                }
            }
        }
    }
    out
}

#[test]
fn units_match_the_decoder_on_the_official_suite() {
    let messages = suite_messages();
    let checked = messages.iter().filter(|(n, m)| check(n, m)).count();
    if !messages.is_empty() {
        assert!(checked > 150, "only {checked} messages checked");
    }
}

#[test]
fn units_match_the_decoder_on_random_values() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut checked = 0;
    for (file, method) in [
        ("shapes.did", "walk"),
        ("shapes.did", "mixed"),
        ("ledger.did", "icrc1_transfer"),
    ] {
        let (env, actor, _) = candor_parser::check_file(&dir.join(file)).unwrap();
        let types = env
            .get_method(&actor.unwrap(), method)
            .unwrap()
            .args
            .clone();
        for (seed, message) in candor_cli::random::generate(&env, &types, 1, 200)
            .unwrap()
            .into_iter()
            .enumerate()
        {
            let m = message.to_bytes_with_types(&env, &types).unwrap();
            assert!(check(&format!("{method} #{seed}"), &m), "{method} #{seed}");
            checked += 1;
        }
    }
    assert_eq!(checked, 600);
}
