//! The module map in `src/lib.rs` is the crate's layering: each module may use only
//! the modules in its `uses` column, all of them in rows above its own, plus the
//! exceptions the map lists by item. This test reads the map and every source file,
//! so a new `crate::` (or `super::` reaching the crate root) path that breaks the
//! layering, and could close a cycle, fails here rather than in a reviewer's head.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// The listed exceptions: lines `//! Exception: `module` uses `path`…`, one item
/// of a module below the map's order each.
fn exceptions(lib: &str) -> BTreeSet<(String, String)> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! Exception: "))
        .map(|l| {
            let quoted: Vec<&str> = l.split('`').skip(1).step_by(2).collect();
            (quoted[0].to_string(), quoted[1].to_string())
        })
        .collect()
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file (`de/mod.rs` is `de`, `de/value.rs` is
/// `de::value`, `lib.rs` is the root).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code of a file without its unit tests and comments (a doc link or a test's
/// import is not a dependency of the module).
fn code(src: &str) -> String {
    let code = src.split("#[cfg(test)]").next().unwrap_or(src);
    code.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths of a use tree or path after `crate::`: `de::Direct<…>` is `de::Direct`;
/// `{a::b, c}` is `a::b` and `c`.
fn paths_at(rest: &str, out: &mut BTreeSet<String>) {
    let Some(inner) = rest.strip_prefix('{') else {
        let path: String = rest
            .chars()
            .take_while(|c| is_ident(*c) || *c == ':')
            .collect();
        out.insert(path.trim_end_matches(':').to_string());
        return;
    };
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                paths_at(inner[start..i].trim(), out);
                return;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                paths_at(inner[start..i].trim(), out);
                start = i + 1;
            }
            _ => {}
        }
    }
}

/// The crate paths named in `src`, as written from the crate root
/// (`de::Direct`, `wire::header::Ref`…): `crate::…` paths, and `super::…` paths that
/// climb to a module of the map (`modules`) from module `at`. `$crate::` paths are for a macro's users.
fn crate_paths(src: &str, at: &[String], modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code = code(src);
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        if code[..i].ends_with(|c: char| c == '$' || is_ident(c)) {
            continue;
        }
        paths_at(&code[i + "crate::".len()..], &mut out);
    }
    for (i, _) in code.match_indices("super::") {
        if code[..i].ends_with(|c: char| c == ':' || is_ident(c)) {
            continue;
        }
        let mut rest = &code[i..];
        let mut up = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            up += 1;
        }
        // From inside an inline module (`mod fault { use super::Error; }`) the climb
        // is one shorter than the file's path says: such a path counts only when it
        // lands on a module of the map.
        if up >= at.len() {
            let mut found = BTreeSet::new();
            paths_at(rest, &mut found);
            out.extend(found.into_iter().filter(|p| {
                let first = p.split("::").next().unwrap_or("");
                modules.contains(first) && first != at.first().map_or("", String::as_str)
            }));
        }
    }
    out.remove("");
    out
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let rows = map(&lib);
    assert!(!rows.is_empty(), "no module map in src/lib.rs");
    let listed = exceptions(&lib);

    let mut above: BTreeSet<String> = BTreeSet::new();
    let mut allowed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, uses) in &rows {
        let later: Vec<_> = uses
            .iter()
            .filter(|u| *u != "crate" && !above.contains(*u))
            .collect();
        assert!(
            later.is_empty(),
            "`{name}` may use {later:?}, which are not in rows above it: the map has a cycle or is out of order"
        );
        above.insert(name.clone());
        allowed.insert(name.clone(), uses.clone());
    }

    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut seen = BTreeSet::new();
    for path in files {
        let rel = path.strip_prefix(&src).unwrap();
        let at = module_path(rel);
        let Some(top) = at.first() else {
            continue; // lib.rs: the root re-exports every layer.
        };
        seen.insert(top.clone());
        let uses = allowed.get(top).unwrap_or_else(|| {
            panic!(
                "src/{} is in module `{top}`, which the module map of src/lib.rs lacks",
                rel.display()
            )
        });
        let text = std::fs::read_to_string(&path).unwrap();
        let extra: Vec<_> = crate_paths(&text, &at, &above)
            .into_iter()
            .filter(|p| {
                let first = p.split("::").next().unwrap_or("");
                // A name that is no module of the map is an item of the root.
                let module = if allowed.contains_key(first) {
                    first
                } else {
                    "crate"
                };
                module != top
                    && !uses.contains(module)
                    && !listed.contains(&(top.clone(), p.clone()))
            })
            .collect();
        assert!(
            extra.is_empty(),
            "src/{} uses {extra:?}, which the row of `{top}` in the module map does not allow",
            rel.display()
        );
    }
    let missing: Vec<_> = allowed.keys().filter(|m| !seen.contains(*m)).collect();
    assert!(
        missing.is_empty(),
        "the module map names {missing:?}, which have no file"
    );
}

/// Files over this many lines hold two ideas (STYLE.md); split them along them.
const MAX_FILE_LINES: usize = 800;
/// Library functions over this many lines, from `fn` to the closing brace.
const MAX_FN_LINES: usize = 100;

/// Each line of `src` with comments, strings and character literals blanked, so
/// braces in them do not count.
fn bare_lines(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_str = false;
    for line in src.lines() {
        let mut bare = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_str {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '/' if chars.peek() == Some(&'/') => break,
                '"' => in_str = true,
                '\'' => {
                    // A character literal ('{', '\'', '\u{7f}'), not a lifetime.
                    let rest: String = chars.clone().take(12).collect();
                    if let Some(end) = rest
                        .char_indices()
                        .skip(1)
                        .find(|&(_, c)| c == '\'')
                        .map(|(i, _)| i)
                        .filter(|&i| i == 1 || rest.starts_with('\\'))
                    {
                        for _ in 0..=end {
                            chars.next();
                        }
                    } else {
                        bare.push(c);
                    }
                }
                _ => bare.push(c),
            }
        }
        out.push(bare);
    }
    out
}

/// The functions of `src` (unit tests left out) longer than [`MAX_FN_LINES`]:
/// name, first line and length.
fn long_functions(src: &str) -> Vec<(String, usize, usize)> {
    let code = src.split("#[cfg(test)]").next().unwrap_or(src);
    let lines = bare_lines(code);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find("fn ").filter(|&at| {
            at == 0 || !line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        }) else {
            continue;
        };
        let name: String = line[at + 3..]
            .chars()
            .take_while(|c| is_ident(*c))
            .collect();
        if name.is_empty() {
            continue;
        }
        let (mut depth, mut opened) = (0i32, false);
        'scan: for (j, l) in lines.iter().enumerate().skip(i) {
            let from = if j == i { at } else { 0 };
            for c in l[from..].chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    ';' if !opened => break 'scan,
                    _ => {}
                }
                if opened && depth == 0 {
                    let len = j - i + 1;
                    if len > MAX_FN_LINES {
                        out.push((name.clone(), i + 1, len));
                    }
                    break 'scan;
                }
            }
        }
    }
    out
}

#[test]
fn no_file_or_function_is_too_long() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut problems = Vec::new();
    for path in files {
        let rel = path.strip_prefix(&src).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            problems.push(format!("src/{rel}: {n} lines (at most {MAX_FILE_LINES})"));
        }
        for (name, line, len) in long_functions(&text) {
            problems.push(format!(
                "src/{rel}:{line}: fn {name} is {len} lines (at most {MAX_FN_LINES})"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "split these along their ideas:\n{}",
        problems.join("\n")
    );
}
