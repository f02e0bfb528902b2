//! Runs the Candid conformance suite (`*.test.did` files) against candor.
//!
//! `cargo run --release -p candor_parser --example conformance -- [dir]`
//!
//! Without an argument the suite is looked up in `$CANDID_TEST_SUITE`, then in
//! `../shared/candid-test-suite` next to the repository; when it is not there the run
//! is skipped (exit 0), saying where it looked. Every failure is named by its
//! description and `file:line`; the last line is `conformance: <P> passed, <F> failed`
//! and the exit status is non-zero when anything failed.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let dir = match std::env::args_os().nth(1) {
        Some(d) => PathBuf::from(d),
        None => match std::env::var_os("CANDID_TEST_SUITE") {
            Some(d) => PathBuf::from(d),
            None => {
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/candid-test-suite")
            }
        },
    };
    if !dir.is_dir() {
        println!("conformance: skipped, no test suite at {}", dir.display());
        return ExitCode::SUCCESS;
    }
    let reports = match candor_parser::test::run_dir(&dir) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot read {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    let (mut passed, mut failed) = (0, 0);
    for r in &reports {
        println!("{}: {} passed, {} failed", r.name, r.passed(), r.failed());
        for o in r.outcomes.iter().filter(|o| !o.passed) {
            let desc = if o.desc.is_empty() {
                format!("assertion #{}", o.index + 1)
            } else {
                o.desc.clone()
            };
            let detail = o.detail.lines().next().unwrap_or("");
            println!("  FAIL {}:{}: {desc}: {detail}", r.name, o.line);
        }
        passed += r.passed();
        failed += r.failed();
    }
    println!("conformance: {passed} passed, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
