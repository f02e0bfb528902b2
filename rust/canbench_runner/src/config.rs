//! canbench.yml: where it is found, what it holds, and the files it refers to (the wasm, the
//! init arguments, the stable memory, the results files).

use crate::hex::from_hex;
use crate::ic0::WASM_PAGE;
use serde::Deserialize;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where the configuration is looked for, in order, when neither `--config` nor
/// `$CANBENCH_CFG_FILE` names it.
const CANDIDATES: [&str; 2] = ["canbench.yml", "benches/canister/canbench.yml"];

/// The results file when the configuration names none.
const DEFAULT_RESULTS: &str = "canbench_results.yml";
/// The CSV report when the configuration names none.
const DEFAULT_CSV_RESULTS: &str = "canbench_results.csv";

#[derive(Deserialize)]
struct InitArgs {
    hex: String,
}

#[derive(Deserialize)]
struct FileRef {
    file: String,
}

/// canbench.yml, plus our optional `compare_with` (canbench ignores unknown keys).
#[derive(Deserialize)]
pub struct Config {
    pub build_cmd: Option<String>,
    pub wasm_path: String,
    results_path: Option<String>,
    csv_results_path: Option<String>,
    init_args: Option<InitArgs>,
    stable_memory: Option<FileRef>,
    pub compare_with: Option<String>,
}

/// A canbench project: its configuration and the directory it lives in.
pub struct Project {
    pub dir: PathBuf,
    pub config: Config,
}

impl Project {
    /// Finds and reads the configuration (`explicit` first, see [`find`]), then makes its
    /// directory the current one: canbench resolves every path in its config against the
    /// directory it runs in.
    pub fn enter(explicit: Option<PathBuf>) -> Result<Project, String> {
        let path = find(explicit)?;
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let config: Config =
            serde_yaml::from_str(&text).map_err(|e| format!("invalid {}: {e}", path.display()))?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        std::env::set_current_dir(&dir)
            .map_err(|e| format!("cannot enter {}: {e}", dir.display()))?;
        Ok(Project { dir, config })
    }
}

impl Config {
    /// The results file the run reads, and writes with `--persist`.
    pub fn results_path(&self) -> PathBuf {
        PathBuf::from(self.results_path.as_deref().unwrap_or(DEFAULT_RESULTS))
    }

    /// Where `--csv` writes.
    pub fn csv_results_path(&self) -> PathBuf {
        PathBuf::from(
            self.csv_results_path
                .as_deref()
                .unwrap_or(DEFAULT_CSV_RESULTS),
        )
    }

    /// The bytes `canister_init` receives (none when the configuration gives no `init_args`).
    pub fn init_args(&self) -> Result<Vec<u8>, String> {
        match &self.init_args {
            Some(a) => {
                from_hex(a.hex.trim()).map_err(|e| format!("invalid init_args hex value ({e})"))
            }
            None => Ok(Vec::new()),
        }
    }

    /// The stable memory the canister starts with: the `stable_memory` file's bytes, rounded
    /// up to whole Wasm pages (empty when the configuration names no file).
    pub fn stable_memory(&self) -> Result<Vec<u8>, String> {
        let Some(f) = &self.stable_memory else {
            return Ok(Vec::new());
        };
        let mut bytes = std::fs::read(&f.file)
            .map_err(|e| format!("cannot read stable memory file {}: {e}", f.file))?;
        let pages = (bytes.len() as u64).div_ceil(WASM_PAGE);
        bytes.resize((pages * WASM_PAGE) as usize, 0);
        Ok(bytes)
    }
}

/// The configuration file: `explicit` (from `--config`), else `$CANBENCH_CFG_FILE`, else the
/// first of [`CANDIDATES`] that exists.
fn find(explicit: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        return Ok(p);
    }
    if let Ok(p) = std::env::var("CANBENCH_CFG_FILE") {
        return Ok(absolute(&p));
    }
    for candidate in CANDIDATES {
        if Path::new(candidate).exists() {
            return Ok(absolute(candidate));
        }
    }
    Err("configuration file not found: 'canbench.yml' (looked in . and benches/canister; use --config)".into())
}

/// `path` against the current directory, so it keeps naming the same file after the run
/// enters the project's directory.
pub fn absolute(path: &str) -> PathBuf {
    let path = PathBuf::from(path);
    if path.is_absolute() {
        return path;
    }
    match std::env::current_dir() {
        Ok(dir) => dir.join(path),
        Err(_) => path,
    }
}

/// The canister module at `path`, gunzipped when its name ends in `.gz`.
pub fn read_wasm(path: &Path) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| {
        format!(
            "couldn't read the wasm at {}: {e}. Did the build succeed?",
            path.display()
        )
    })?;
    if path.extension().and_then(|e| e.to_str()) == Some("gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{} is not valid gzip: {e}", path.display()))?;
        Ok(out)
    } else {
        Ok(bytes)
    }
}
