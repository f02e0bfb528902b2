//! canbench's results file (`canbench_results.yml`), read and written in its exact format.
//!
//! Upstream canbench serializes `{ benches, version }` with serde_yaml; we add a `toolchain` key
//! (the rustc that built the canister). canbench's reader ignores unknown keys, so the file stays
//! readable by upstream canbench, and our gate uses the key to refuse comparing numbers produced
//! by different compilers.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// canbench version whose file format we write (canbench rejects files newer than itself).
pub const FORMAT_VERSION: &str = "0.7.0";

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Measurement {
    #[serde(default)]
    pub calls: u64,
    #[serde(default)]
    pub instructions: u64,
    #[serde(default)]
    pub heap_increase: u64,
    #[serde(default)]
    pub stable_memory_increase: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchResult {
    pub total: Measurement,
    #[serde(default)]
    pub scopes: BTreeMap<String, Measurement>,
}

impl BenchResult {
    /// The instructions of `scope`, if the benchmark has that scope.
    pub fn scope_instructions(&self, scope: &str) -> Option<u64> {
        self.scopes.get(scope).map(|m| m.instructions)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub benches: BTreeMap<String, BenchResult>,
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toolchain: Option<String>,
}

impl Results {
    pub fn new(benches: BTreeMap<String, BenchResult>, toolchain: Option<String>) -> Self {
        Results {
            benches,
            version: FORMAT_VERSION.to_string(),
            toolchain,
        }
    }

    /// Reads a results file; a missing file is an empty result set, as in canbench. A file
    /// written by a newer canbench is refused, as upstream refuses it: its format may hold
    /// what this version cannot read correctly.
    pub fn read(path: &Path) -> Result<Results, String> {
        let results: Results = match std::fs::read_to_string(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Results::new(BTreeMap::new(), None))
            }
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
            Ok(text) => serde_yaml::from_str(&text)
                .map_err(|e| format!("cannot parse {}: {e}", path.display()))?,
        };
        let theirs = parse_version(&results.version).ok_or_else(|| {
            format!(
                "couldn't parse version `{}` in results file {}",
                results.version,
                path.display()
            )
        })?;
        if parse_version(FORMAT_VERSION) < Some(theirs) {
            return Err(format!(
                "canbench is at version {FORMAT_VERSION} while the results were generated with version {}. Please upgrade canbench.",
                results.version
            ));
        }
        Ok(results)
    }

    pub fn to_yaml(&self) -> String {
        serde_yaml::to_string(self).expect("results serialize")
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_yaml())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// `MAJOR.MINOR.PATCH` as numbers to compare (a pre-release or build suffix after the patch
/// number is ignored).
fn parse_version(text: &str) -> Option<(u64, u64, u64)> {
    let mut parts = text.trim().splitn(3, '.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let patch = parts.next()?;
    let digits = patch
        .find(|c: char| !c.is_ascii_digit())
        .map_or(patch, |end| &patch[..end]);
    Some((major, minor, digits.parse().ok()?))
}

/// A results file with one benchmark, `blob`, of `instructions` split evenly between an
/// encoding and a decoding scope (for the report and gate tests).
#[cfg(test)]
pub fn sample_results(instructions: u64, toolchain: &str) -> Results {
    let scope = Measurement {
        instructions: instructions / 2,
        calls: 1,
        ..Default::default()
    };
    let mut r = BenchResult::default();
    r.total.instructions = instructions;
    r.scopes.insert("1. Encoding".into(), scope.clone());
    r.scopes.insert("2. Decoding".into(), scope);
    let mut m = BTreeMap::new();
    m.insert("blob".to_string(), r);
    Results::new(m, Some(toolchain.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_canbench_format() {
        let mut benches = BTreeMap::new();
        let mut r = BenchResult {
            total: Measurement {
                calls: 1,
                instructions: 10,
                heap_increase: 2,
                stable_memory_increase: 0,
            },
            ..Default::default()
        };
        r.scopes.insert(
            "1. Encoding".into(),
            Measurement {
                calls: 1,
                instructions: 4,
                heap_increase: 0,
                stable_memory_increase: 0,
            },
        );
        benches.insert("blob".to_string(), r);
        benches.insert("empty".to_string(), BenchResult::default());
        let yaml = Results::new(benches, None).to_yaml();
        let expected = "benches:\n  blob:\n    total:\n      calls: 1\n      instructions: 10\n      heap_increase: 2\n      stable_memory_increase: 0\n    scopes:\n      1. Encoding:\n        calls: 1\n        instructions: 4\n        heap_increase: 0\n        stable_memory_increase: 0\n  empty:\n    total:\n      calls: 0\n      instructions: 0\n      heap_increase: 0\n      stable_memory_increase: 0\n    scopes: {}\nversion: 0.7.0\n";
        assert_eq!(yaml, expected);
        assert_eq!(
            serde_yaml::from_str::<Results>(&yaml)
                .unwrap()
                .benches
                .len(),
            2
        );
    }

    #[test]
    fn versions_compare_as_numbers() {
        assert_eq!(parse_version("0.7.0"), Some((0, 7, 0)));
        assert_eq!(parse_version("0.10.2-rc.1"), Some((0, 10, 2)));
        assert!(parse_version("0.7.0") < parse_version("0.10.0"));
        assert_eq!(parse_version("seven"), None);
        assert_eq!(parse_version("1.2"), None);
    }

    #[test]
    fn reads_old_files_without_calls_and_with_extra_keys() {
        let text = "benches:\n  a:\n    total:\n      instructions: 5\n    scopes: {}\nversion: 0.1.1\ntoolchain: rustc 1.2.3\n";
        let r: Results = serde_yaml::from_str(text).unwrap();
        assert_eq!(r.benches["a"].total.instructions, 5);
        assert_eq!(r.toolchain.as_deref(), Some("rustc 1.2.3"));
    }
}
