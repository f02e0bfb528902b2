//! canbench.yml: where it is found, what it holds, and the files it refers to (the wasm, the
//! init arguments, the stable memory, the environment variables, the results files).
//!
//! Relative paths in the configuration are resolved as upstream canbench resolves them: against
//! the directory canbench runs in. When the configuration is named by `$CANBENCH_CFG_FILE`
//! that is the current directory, wherever the file lives (upstream never changes directory);
//! when it is found by the runner's own search or given with `--config`, it is the
//! configuration's directory, so `canbench --config sub/canbench.yml` behaves like
//! `cd sub && canbench`.

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
    env_vars: Option<FileRef>,
    pub compare_with: Option<String>,
}

/// A canbench project: its configuration and the directory its paths are resolved against
/// (the current directory once entered).
pub struct Project {
    pub dir: PathBuf,
    pub config: Config,
}

/// Where the configuration was found, which decides what its relative paths mean.
enum Found {
    /// `$CANBENCH_CFG_FILE`: relative to the current directory, as upstream.
    FromEnvironment(PathBuf),
    /// `--config`, or the runner's search: relative to the file's directory.
    InItsDirectory(PathBuf),
}

impl Project {
    /// Finds and reads the configuration (`explicit` first, see [`find`]), then makes the
    /// directory its paths are relative to the current one.
    pub fn enter(explicit: Option<PathBuf>) -> Result<Project, String> {
        let (path, dir) = match find(explicit)? {
            Found::FromEnvironment(path) => {
                let dir = std::env::current_dir().map_err(|e| e.to_string())?;
                (path, dir)
            }
            Found::InItsDirectory(path) => {
                let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
                (path, dir)
            }
        };
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let config: Config =
            serde_yaml::from_str(&text).map_err(|e| format!("invalid {}: {e}", path.display()))?;
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
            .map_err(|e| format!("Error reading stable memory file {}\nError: {e}", f.file))?;
        let pages = (bytes.len() as u64).div_ceil(WASM_PAGE);
        bytes.resize((pages * WASM_PAGE) as usize, 0);
        Ok(bytes)
    }

    /// The environment variables the canister is created with, from the `env_vars` file:
    /// one `NAME,VALUE` a line, both trimmed (upstream's format), sorted by name as the
    /// replica keeps them.
    pub fn env_vars(&self) -> Result<Vec<(String, String)>, String> {
        let Some(f) = &self.env_vars else {
            return Ok(Vec::new());
        };
        let bytes = std::fs::read(&f.file).map_err(|e| {
            format!(
                "Error reading environment variables file {}\nError: {e}",
                f.file
            )
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            format!(
                "Environment variables file {} is not valid UTF-8\nError: {e}",
                f.file
            )
        })?;
        parse_env_vars(&text).map_err(|line| {
            format!(
                "Invalid line in environment variables file {}: '{line}'",
                f.file
            )
        })
    }
}

/// `NAME,VALUE` lines (split at the first comma, each side trimmed), sorted by name; a later
/// line for the same name wins. Err: the first line without a comma.
fn parse_env_vars(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut vars = std::collections::BTreeMap::new();
    for line in text.lines() {
        let (name, value) = line.split_once(',').ok_or_else(|| line.to_string())?;
        vars.insert(name.trim().to_string(), value.trim().to_string());
    }
    Ok(vars.into_iter().collect())
}

/// The configuration file: `explicit` (from `--config`), else `$CANBENCH_CFG_FILE`, else the
/// first of [`CANDIDATES`] that exists.
fn find(explicit: Option<PathBuf>) -> Result<Found, String> {
    if let Some(p) = explicit {
        return Ok(Found::InItsDirectory(p));
    }
    if let Ok(p) = std::env::var("CANBENCH_CFG_FILE") {
        let path = absolute(&p);
        if !path.exists() {
            return Err(format!("configuration file not found: '{p}'"));
        }
        return Ok(Found::FromEnvironment(path));
    }
    for candidate in CANDIDATES {
        if Path::new(candidate).exists() {
            return Ok(Found::InItsDirectory(absolute(candidate)));
        }
    }
    Err("configuration file not found: 'canbench.yml'\n(looked in . and benches/canister; name one with --config or $CANBENCH_CFG_FILE)".into())
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
            "Couldn't read file at {}. Are you sure the file exists?\nError: {e}",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_var_lines_are_trimmed_and_sorted() {
        let vars = parse_env_vars("b, two words \na ,1\nc,x,y\n").unwrap();
        let expected = [("a", "1"), ("b", "two words"), ("c", "x,y")];
        assert_eq!(vars, expected.map(|(n, v)| (n.to_string(), v.to_string())));
        assert_eq!(parse_env_vars("a,1\nname\n").unwrap_err(), "name");
    }
}
