//! The module map in `src/lib.rs` is the crate's layering: each module may use only
//! the modules in its `uses` column, all of them in rows above its own. This test
//! reads the map and the sources, so a new `crate::` path that breaks the layering
//! (and could close a cycle) fails here rather than in a reviewer's head.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The rows of the map, in order: module name and the modules it may use.
fn map(lib: &str) -> Vec<(String, BTreeSet<String>)> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! | `"))
        .map(|row| {
            let cells: Vec<&str> = row.split(" | ").collect();
            let name = cells[0].trim_end_matches('`').to_string();
            let uses = cells[cells.len() - 1]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            (name, uses)
        })
        .collect()
}

/// The modules named by `crate::<module>` in the code of `src` (comments and unit
/// tests left out: a doc link or a test's import is not a dependency of the module).
fn crate_paths(src: &str) -> BTreeSet<String> {
    let code = src.split("#[cfg(test)]").next().unwrap_or(src);
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        for (i, _) in line.match_indices("crate::") {
            let rest = &line[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            assert!(
                !name.is_empty(),
                "`{line}`: name one module per `use crate::…` so this test can read it"
            );
            out.insert(name);
        }
    }
    out
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let rows = map(&lib);
    assert!(!rows.is_empty(), "no module map in src/lib.rs");

    let mut above: BTreeSet<String> = BTreeSet::new();
    let mut allowed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, uses) in &rows {
        let later: Vec<_> = uses.difference(&above).collect();
        assert!(
            later.is_empty(),
            "`{name}` may use {later:?}, which are not in rows above it: the map has a cycle or is out of order"
        );
        above.insert(name.clone());
        allowed.insert(name.clone(), uses.clone());
    }

    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if stem == "lib" {
            continue;
        }
        files.insert(stem.to_string());
        let uses = allowed
            .get(stem)
            .unwrap_or_else(|| panic!("src/{stem}.rs is not in the module map of src/lib.rs"));
        let text = std::fs::read_to_string(&path).unwrap();
        let extra: Vec<_> = crate_paths(&text)
            .into_iter()
            .filter(|m| m != stem && !uses.contains(m))
            .collect();
        assert!(
            extra.is_empty(),
            "src/{stem}.rs uses {extra:?}, which its row of the module map does not allow"
        );
    }
    let missing: Vec<_> = allowed.keys().filter(|m| !files.contains(*m)).collect();
    assert!(
        missing.is_empty(),
        "the module map names {missing:?}, which have no file"
    );
}
