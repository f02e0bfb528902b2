//! Getting a compiler that can build wasm32-unknown-unknown canisters, with nothing installed
//! beforehand but a Rust toolchain.
//!
//! First choice: rustup adds the target. When rustup is missing or cannot download (no network
//! to static.rust-lang.org), we fall back to Debian's packages, which carry a recent rustc and
//! the standard library's source: the build then compiles std itself (`-Zbuild-std`, allowed on
//! a stable compiler by `RUSTC_BOOTSTRAP=1`) and links with Debian's wasm-ld.

use std::path::Path;
use std::process::{Command, Stdio};

pub const TARGET: &str = "wasm32-unknown-unknown";

/// Environment the build command needs (empty when rustup provides the target).
pub type BuildEnv = Vec<(String, String)>;

fn ok(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Makes sure the wasm target is available for builds run in `dir`.
pub fn ensure_wasm_target(dir: &Path) -> Result<BuildEnv, String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .current_dir(dir)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == TARGET)
        });
    match installed {
        Some(true) => return Ok(Vec::new()),
        Some(false) => {
            eprintln!("Installing the {TARGET} target: rustup target add {TARGET}");
            let status = Command::new("rustup")
                .args(["target", "add", TARGET])
                .current_dir(dir)
                .status();
            if status.map(|s| s.success()).unwrap_or(false) {
                return Ok(Vec::new());
            }
            eprintln!("rustup could not add {TARGET}; falling back to Debian's rustc-web");
        }
        None => eprintln!("rustup is not available; falling back to Debian's rustc-web"),
    }
    debian_fallback()
}

fn debian_fallback() -> Result<BuildEnv, String> {
    let packages = ["rustc-web", "cargo-web", "rust-web-src", "lld-22"];
    let have = ok(Command::new("dpkg").args(["-s"]).args(packages));
    if !have {
        eprintln!("Installing: apt-get install -y {}", packages.join(" "));
        let _ = Command::new("apt-get").arg("update").status();
        let status = Command::new("apt-get")
            .args(["install", "-y"])
            .args(packages)
            .status();
        if !status.map(|s| s.success()).unwrap_or(false) {
            return Err(format!(
                "cannot get a compiler for {TARGET}: `rustup target add {TARGET}` failed and so did `apt-get install -y {}`",
                packages.join(" ")
            ));
        }
    }
    let path = std::env::var("PATH").unwrap_or_default();
    Ok(vec![
        ("PATH".into(), format!("/usr/bin:{path}")),
        ("RUSTUP_TOOLCHAIN".into(), String::new()),
        ("RUSTC".into(), "/usr/bin/rustc".into()),
        ("RUSTC_BOOTSTRAP".into(), "1".into()),
        ("CARGO_UNSTABLE_BUILD_STD".into(), "std,panic_abort".into()),
        (
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER".into(),
            "wasm-ld-22".into(),
        ),
    ])
}

/// `rustc --version` as the build sees it, recorded next to the results.
pub fn rustc_version(dir: &Path, env: &BuildEnv) -> Option<String> {
    let mut cmd = Command::new("rustc");
    cmd.arg("--version").current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().ok().filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}
