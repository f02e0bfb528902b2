//! Comparing two API lists and two versions: the part of the check that needs no
//! rustdoc, so it is tested on small hand-written lists.

use crate::allow::Allowed;
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// What candid has and the compat crate lacks, split by whether
/// `spec/differences.md` explains it, and the listed differences that no longer
/// exist.
#[derive(Debug, PartialEq, Eq)]
pub struct Report {
    pub missing: Vec<String>,
    pub explained: Vec<String>,
    pub unexplained: Vec<String>,
    pub stale: Vec<String>,
}

impl Report {
    /// Nothing missing that is not explained, and no stale explanation.
    pub fn clean(&self) -> bool {
        self.unexplained.is_empty() && self.stale.is_empty()
    }
}

/// Compares candid's entries (`theirs`) with the compat crate's (`ours`).
pub fn compare(theirs: &BTreeSet<String>, ours: &BTreeSet<String>, allowed: &Allowed) -> Report {
    // An extra `?Sized` on a parameter of ours only admits more types: the entry
    // counts as present when it differs from candid's by that alone.
    let loosened: BTreeSet<String> = ours.iter().map(|e| without_maybe_sized(e)).collect();
    let missing: Vec<&String> = theirs
        .difference(ours)
        .filter(|e| e.contains("?Sized") || !loosened.contains(e.as_str()))
        .collect();
    let (explained, unexplained): (Vec<&String>, Vec<&String>) =
        missing.iter().partition(|e| allowed.covers(e));
    let stale = allowed.unused(&missing);
    let owned = |v: Vec<&String>| v.into_iter().cloned().collect();
    Report {
        missing: owned(missing),
        explained: owned(explained),
        unexplained: owned(unexplained),
        stale,
    }
}

fn without_maybe_sized(entry: &str) -> String {
    entry
        .replace(": ?Sized + ", ": ")
        .replace(" + ?Sized", "")
        .replace(": ?Sized", "")
}

/// Orders two `MAJOR.MINOR.PATCH` versions (a pre-release or build suffix after
/// `-` or `+` is ignored), or `None` when one is not such a version.
pub fn order_versions(a: &str, b: &str) -> Option<Ordering> {
    Some(parse_version(a)?.cmp(&parse_version(b)?))
}

fn parse_version(v: &str) -> Option<[u64; 3]> {
    let core = v.trim().split(['-', '+']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
    let version = [parts.next()??, parts.next()??, parts.next()??];
    parts.next().is_none().then_some(version)
}

/// The `version = "…"` of a `[package]` section in a Cargo manifest.
pub fn package_version(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some(rest) = line.strip_prefix("version") {
                let value = rest.trim_start().strip_prefix('=')?.trim();
                return Some(value.trim_matches('"').to_string());
            }
        }
    }
    None
}

/// The version of package `name` in a `Cargo.lock`, when it holds one.
pub fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line == wanted {
            let version = lines.next()?.strip_prefix("version = ")?;
            return Some(version.trim_matches('"').to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(entries: &[&str]) -> BTreeSet<String> {
        entries.iter().map(|e| e.to_string()).collect()
    }

    const DIFFERENCES: &str = "```api-differences\n\
        fn candid::gone()   # C9\n\
        variant candid::Error::*   # C1\n\
        ```\n";

    #[test]
    fn missing_entries_are_split_by_the_listed_differences() {
        let theirs = set(&[
            "fn candid::decode_one<_: Deserialize>(&[u8]) -> Result<_>",
            "fn candid::new_in_newest(u8) -> bool",
            "struct candid::Nat",
            "variant candid::Error::Binary(String)",
        ]);
        let ours = set(&[
            "fn candid::decode_one<_: Deserialize>(&[u8]) -> Result<_>",
            "fn candid::only_ours()",
            "struct candid::Nat",
        ]);
        let allowed = Allowed::parse(DIFFERENCES).unwrap();
        let report = compare(&theirs, &ours, &allowed);
        assert_eq!(
            report.missing,
            [
                "fn candid::new_in_newest(u8) -> bool",
                "variant candid::Error::Binary(String)"
            ]
        );
        assert_eq!(report.explained, ["variant candid::Error::Binary(String)"]);
        assert_eq!(report.unexplained, ["fn candid::new_in_newest(u8) -> bool"]);
        assert_eq!(report.stale, ["fn candid::gone()   # C9"]);
        assert!(!report.clean());
    }

    #[test]
    fn an_extra_maybe_sized_of_ours_is_not_a_difference() {
        let theirs = set(&["fn candid::f<_: CandidType>(&_)"]);
        let ours = set(&["fn candid::f<_: ?Sized + CandidType>(&_)"]);
        let allowed = Allowed::parse("```api-differences\n```\n").unwrap();
        let report = compare(&theirs, &ours, &allowed);
        assert!(report.missing.is_empty() && report.clean());
        // The other way round, candid accepts unsized types we would not.
        let report = compare(&ours, &theirs, &allowed);
        assert_eq!(report.unexplained.len(), 1);
    }

    #[test]
    fn versions_order_by_number_not_by_text() {
        assert_eq!(order_versions("0.10.39", "0.10.40"), Some(Ordering::Less));
        assert_eq!(order_versions("0.10.9", "0.10.10"), Some(Ordering::Less));
        assert_eq!(order_versions("0.10.39", "0.10.39"), Some(Ordering::Equal));
        assert_eq!(order_versions("0.11.0", "0.10.99"), Some(Ordering::Greater));
        assert_eq!(
            order_versions("0.10.40-beta.1", "0.10.40"),
            Some(Ordering::Equal)
        );
        assert_eq!(order_versions("0.10", "0.10.1"), None);
        assert_eq!(order_versions("0.10.x", "0.10.1"), None);
    }

    #[test]
    fn versions_are_read_from_manifest_and_lockfile() {
        let manifest = "[package]\nname = \"candid\"\n# a comment\nversion = \"0.10.39\"\n\n\
            [dependencies]\nserde = { version = \"1\" }\n";
        assert_eq!(package_version(manifest).as_deref(), Some("0.10.39"));
        assert_eq!(package_version("[dependencies]\nversion = \"1\"\n"), None);
        let lock = "[[package]]\nname = \"candid_derive\"\nversion = \"0.10.41\"\n\n\
            [[package]]\nname = \"candid\"\nversion = \"0.10.41\"\nsource = \"registry\"\n";
        assert_eq!(locked_version(lock, "candid").as_deref(), Some("0.10.41"));
        assert_eq!(locked_version(lock, "serde"), None);
    }
}
