//! `candid-api-check`: is every public item of candid 0.10.39 at the same path in the
//! compat crate (`rust/compat/candid`)?
//!
//! It documents both crates with rustdoc's JSON output, lists each one's public API
//! (see [`api`]) and prints what candid has and the compat crate lacks. Differences kept
//! on purpose are listed in `spec/differences.md`, in the fenced block marked
//! `api-differences`, each with the entry that explains it; anything missing that is
//! not listed there, and any listed difference that no longer exists, fails the check.
//!
//! ```text
//! cargo run -p candid_api_check                   # document both crates, compare
//! cargo run -p candid_api_check -- --extra        # also print what only candor has
//! cargo run -p candid_api_check -- --list candid  # print one side's entries
//! ```
//!
//! rustdoc's JSON output is unstable: it is switched on with `RUSTC_BOOTSTRAP=1` for
//! the documentation builds only, in their own target directory under
//! `target/api-check`.

mod allow;
mod api;
mod docs;
mod rustdoc;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: candid-api-check [--extra] [--list candid|compat] [--no-doc]

  --extra         also print the entries only the compat crate has
  --list SIDE     print one side's entries and exit
  --no-doc        reuse the JSON of the last run (target/api-check)
";

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("candid-api-check: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<bool, String> {
    let mut extra = false;
    let mut list = None;
    let mut build = true;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--extra" => extra = true,
            "--no-doc" => build = false,
            "--list" => list = Some(args.next().ok_or("--list needs candid or compat")?),
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(true);
            }
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }

    let root = repo_root();
    let work = root.join("target/api-check");
    if build {
        docs::document_reference(&work)?;
        docs::document_compat(&root, &work)?;
    }
    let reference = docs::load(&docs::reference_dir(&work))?;
    let compat = docs::load(&docs::compat_dir(&work))?;
    let ours = api::entries(&compat, compat.get("candid").ok_or("no compat JSON")?);
    let theirs = api::entries(&reference, reference.get("candid").ok_or("no candid JSON")?);

    match list.as_deref() {
        Some("candid") => return Ok(print_all(&theirs)),
        Some("compat") => return Ok(print_all(&ours)),
        Some(other) => return Err(format!("--list takes candid or compat, not `{other}`")),
        None => {}
    }

    let differences = root.join("spec/differences.md");
    let text = std::fs::read_to_string(&differences)
        .map_err(|e| format!("cannot read {}: {e}", differences.display()))?;
    let allowed = allow::Allowed::parse(&text)?;

    // An extra `?Sized` on a parameter of ours only admits more types: the entry
    // counts as present when it differs from candid's by that alone.
    let loosened: BTreeSet<String> = ours.iter().map(|e| without_maybe_sized(e)).collect();
    let missing: Vec<&String> = theirs
        .difference(&ours)
        .filter(|e| e.contains("?Sized") || !loosened.contains(e.as_str()))
        .collect();
    let (explained, unexplained): (Vec<&String>, Vec<&String>) =
        missing.iter().partition(|e| allowed.covers(e));
    let stale = allowed.unused(&missing);

    println!(
        "candid 0.10.39: {} entries; compat crate: {}; missing: {} ({} listed in spec/differences.md)",
        theirs.len(),
        ours.len(),
        missing.len(),
        explained.len()
    );
    if extra {
        println!("\nonly in the compat crate:");
        for e in ours.difference(&theirs) {
            println!("  {e}");
        }
    }
    if !unexplained.is_empty() {
        println!("\nmissing from the compat crate, not listed as a difference:");
        for e in &unexplained {
            println!("  {e}");
        }
    }
    if !stale.is_empty() {
        println!("\nlisted in spec/differences.md but no longer missing (remove them):");
        for p in &stale {
            println!("  {p}");
        }
    }
    Ok(unexplained.is_empty() && stale.is_empty())
}

fn without_maybe_sized(entry: &str) -> String {
    entry
        .replace(": ?Sized + ", ": ")
        .replace(" + ?Sized", "")
        .replace(": ?Sized", "")
}

fn print_all(entries: &BTreeSet<String>) -> bool {
    for e in entries {
        println!("{e}");
    }
    true
}

/// The workspace root: this crate lives in `rust/compat/api_check`.
fn repo_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .nth(3)
        .map_or_else(|| here.clone(), PathBuf::from)
}
