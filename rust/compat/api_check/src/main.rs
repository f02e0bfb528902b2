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
//! cargo run -p candid_api_check -- --newest       # against the newest candid 0.10.x
//! ```
//!
//! `--newest` asks the registry (through cargo) for the newest candid 0.10.x and
//! compares with it instead: its version with the compat crate's, and its API item
//! by item, with the same list of kept differences. It needs the network and its
//! answer changes when candid publishes, so CI does not run it; it is the first step
//! of following a new candid release (`rust/compat/candid/README.md`).
//!
//! rustdoc's JSON output is unstable: it is switched on with `RUSTC_BOOTSTRAP=1` for
//! the documentation builds only, in their own target directory under
//! `target/api-check`.

mod allow;
mod api;
mod compare;
mod docs;
mod rustdoc;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: candid-api-check [--extra] [--list candid|compat] [--no-doc] [--newest]

  --extra         also print the entries only the compat crate has
  --list SIDE     print one side's entries and exit
  --no-doc        reuse the JSON of the last run (target/api-check)
  --newest        compare with the newest candid 0.10.x on the registry (network)
                  instead of 0.10.39; fails when the compat crate's version is older
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
    let mut newest = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--extra" => extra = true,
            "--no-doc" => build = false,
            "--newest" => newest = true,
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
    let newest_version = match (newest, build) {
        (true, true) => Some(docs::document_newest(&work)?),
        (true, false) => Some(docs::newest_version(&work)?),
        (false, true) => {
            docs::document_reference(&work)?;
            None
        }
        (false, false) => None,
    };
    if build {
        docs::document_compat(&root, &work)?;
    }
    let reference_dir = match newest_version {
        Some(_) => docs::newest_dir(&work),
        None => docs::reference_dir(&work),
    };
    let reference = docs::load(&reference_dir)?;
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
    let report = compare::compare(&theirs, &ours, &allowed);

    let mut up_to_date = true;
    let label = match &newest_version {
        Some(version) => {
            let manifest = root.join("rust/compat/candid/Cargo.toml");
            let manifest = std::fs::read_to_string(&manifest)
                .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
            let ours = compare::package_version(&manifest)
                .ok_or("rust/compat/candid/Cargo.toml has no package version")?;
            let order = compare::order_versions(&ours, version)
                .ok_or_else(|| format!("cannot compare versions {ours} and {version}"))?;
            up_to_date = order != std::cmp::Ordering::Less;
            println!(
                "newest candid 0.10.x on the registry: {version}; compat crate: {ours}{}",
                if up_to_date {
                    ""
                } else {
                    " (behind: see rust/compat/candid/README.md)"
                }
            );
            format!("candid {version}")
        }
        None => "candid 0.10.39".to_string(),
    };
    println!(
        "{label}: {} entries; compat crate: {}; missing: {} ({} listed in spec/differences.md)",
        theirs.len(),
        ours.len(),
        report.missing.len(),
        report.explained.len()
    );
    if extra {
        println!("\nonly in the compat crate:");
        for e in ours.difference(&theirs) {
            println!("  {e}");
        }
    }
    if !report.unexplained.is_empty() {
        println!("\nmissing from the compat crate, not listed as a difference:");
        for e in &report.unexplained {
            println!("  {e}");
        }
    }
    if !report.stale.is_empty() {
        println!("\nlisted in spec/differences.md but no longer missing (remove them):");
        for p in &report.stale {
            println!("  {p}");
        }
    }
    Ok(up_to_date && report.clean())
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
