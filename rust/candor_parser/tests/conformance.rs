//! The official Candid test suite and our own vectors (`tests/vectors`).

use candor_parser::test::{run_dir, FileReport};
use std::path::PathBuf;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `f` on a thread with a large stack: the suite decodes messages nested to the
/// decoder's depth limit, and unoptimised builds use far larger frames than the
/// release builds the limit is tuned for.
fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn failures(reports: &[FileReport]) -> Vec<String> {
    reports
        .iter()
        .flat_map(|r| {
            r.outcomes
                .iter()
                .filter(|o| !o.passed)
                .map(move |o| format!("{}:{}: {}: {}", r.name, o.line, o.desc, o.detail))
        })
        .collect()
}

/// The official suite has 467 assertions; all of them must pass.
const MIN_PASSED: usize = 467;

#[test]
fn official_suite() {
    let dir = std::env::var_os("CANDID_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/candid-test-suite"));
    if !dir.is_dir() {
        println!(
            "note: official suite skipped, not found at {}",
            dir.display()
        );
        return;
    }
    let reports = with_big_stack(move || run_dir(&dir).unwrap());
    let passed: usize = reports.iter().map(FileReport::passed).sum();
    let failed = failures(&reports);
    assert!(failed.is_empty(), "failures:\n{failed:#?}");
    assert!(
        passed >= MIN_PASSED,
        "{passed} passed, expected at least {MIN_PASSED}"
    );
}

#[test]
fn own_vectors() {
    let reports = with_big_stack(|| run_dir(&repo_root().join("tests/vectors")).unwrap());
    assert!(!reports.is_empty(), "no vectors found");
    let failed = failures(&reports);
    assert!(failed.is_empty(), "failures:\n{failed:#?}");
    let passed: usize = reports.iter().map(FileReport::passed).sum();
    assert!(passed >= 53);
}
