//! Producing and loading the two sides' rustdoc JSON.
//!
//! candid is documented from the registry (a scratch crate that depends on
//! `candid = "=0.10.39"` with all features, or with `--newest` on `candid = "0.10"`
//! resolved afresh), the compat crate from this workspace.
//! Each side also documents the crates whose items it re-exports (the derive macros,
//! `ic_principal`, and for the compat crate candor itself), so re-exports can be
//! followed to their items.

use crate::rustdoc::{Krate, Universe};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates documented on candid's side, besides candid.
const REFERENCE_CRATES: &[&str] = &["candid", "candid_derive", "ic_principal"];
/// The crates documented on the compat side, besides the compat crate.
const COMPAT_DEPENDENCIES: &[&str] = &["candor", "candor_derive", "ic_principal"];

pub fn reference_dir(work: &Path) -> PathBuf {
    work.join("reference/target/doc")
}

pub fn compat_dir(work: &Path) -> PathBuf {
    work.join("compat/doc")
}

/// Where `--newest` documents the newest candid 0.10.x.
pub fn newest_dir(work: &Path) -> PathBuf {
    work.join("newest/target/doc")
}

pub fn document_reference(work: &Path) -> Result<(), String> {
    let krate = scratch_crate(&work.join("reference"), "=0.10.39")?;
    document_candid(&krate, "candid 0.10.39")
}

/// Documents the newest candid 0.10.x on the registry, asking the registry afresh
/// (through cargo: the scratch crate's lockfile is made anew), and returns its
/// version.
pub fn document_newest(work: &Path) -> Result<String, String> {
    let krate = scratch_crate(&work.join("newest"), "0.10")?;
    let lock = krate.join("Cargo.lock");
    match std::fs::remove_file(&lock) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("cannot remove {}: {e}", lock.display()))
        }
        _ => {}
    }
    let mut cmd = cargo();
    cmd.current_dir(&krate).arg("generate-lockfile");
    run(cmd, "ask the registry for the newest candid 0.10.x")?;
    let version = newest_version(work)?;
    document_candid(&krate, &format!("candid {version}"))?;
    Ok(version)
}

/// The candid version the last `--newest` run documented (from its lockfile).
pub fn newest_version(work: &Path) -> Result<String, String> {
    let lock = work.join("newest/Cargo.lock");
    let text = std::fs::read_to_string(&lock)
        .map_err(|e| format!("cannot read {}: {e}", lock.display()))?;
    crate::compare::locked_version(&text, "candid")
        .ok_or_else(|| format!("{} names no candid", lock.display()))
}

/// A crate of its own workspace that depends on `candid` at `requirement`, with all
/// features, and nothing else.
fn scratch_crate(dir: &Path, requirement: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    let manifest = format!(
        "[workspace]\n\n\
        [package]\nname = \"candid_api_reference\"\nversion = \"0.0.0\"\n\
        edition = \"2021\"\npublish = false\n\n\
        [dependencies]\ncandid = {{ version = \"{requirement}\", features = [\"all\"] }}\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("src/lib.rs"), "").map_err(|e| e.to_string())?;
    Ok(dir.to_path_buf())
}

fn document_candid(krate: &Path, what: &str) -> Result<(), String> {
    let mut cmd = rustdoc_json(&krate.join("target"));
    cmd.current_dir(krate);
    for name in REFERENCE_CRATES {
        cmd.args(["-p", name]);
    }
    run(cmd, &format!("document {what}"))
}

pub fn document_compat(root: &Path, work: &Path) -> Result<(), String> {
    let target = work.join("compat");
    // The workspace also builds crates.io candid (for differential tests), so the
    // compat crate is named by its manifest, the others by name.
    let mut cmd = rustdoc_json(&target);
    cmd.current_dir(root).args([
        "--manifest-path",
        "rust/compat/candid/Cargo.toml",
        "--features",
        "all",
    ]);
    run(cmd, "document the compat crate")?;
    let mut cmd = rustdoc_json(&target);
    cmd.current_dir(root);
    for name in COMPAT_DEPENDENCIES {
        cmd.args(["-p", name]);
    }
    // What the compat crate's `all` feature turns on in its dependencies.
    cmd.args(["--features", "ic_principal/arbitrary"]);
    run(cmd, "document candor")
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn rustdoc_json(target: &Path) -> Command {
    let mut cmd = cargo();
    cmd.args(["doc", "--no-deps", "--quiet"])
        .env("CARGO_TARGET_DIR", target)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json");
    cmd
}

fn run(mut cmd: Command, what: &str) -> Result<(), String> {
    let status = cmd
        .status()
        .map_err(|e| format!("cannot {what}: cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cannot {what}: cargo failed ({status})"))
    }
}

/// Every crate's JSON in a `doc` directory.
pub fn load(dir: &Path) -> Result<Universe, String> {
    let mut universe = Universe::default();
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "json") {
            universe.add(Krate::load(&path)?);
        }
    }
    Ok(universe)
}
