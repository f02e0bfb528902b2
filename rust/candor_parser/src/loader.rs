//! Loading a `.did` file with its imports: reading files (through a [`Loader`], so
//! the text may come from anywhere), resolving each import relative to the file
//! that names it, recognising one file reached by two routes, rejecting import
//! cycles, and merging everything into one [`IDLMergedProg`] for the type checker.
//!
//! This is the only module that both parses and checks: the parser knows nothing of
//! files, and the checker takes a program that is already loaded.

use crate::error::{Error, Result};
use crate::parser::Parser;
use crate::syntax::{Dec, IDLMergedProg, IDLProg};
use crate::typing::check_merged_prog;
use candor::types::{Type, TypeEnv};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// Reads the file at a path (a callback, so tools can check `.did` files that are not
/// on disk, and canisters can check without a file system).
pub type Loader<'l> = dyn FnMut(&Path) -> Result<String> + 'l;

/// Removes `.` and `a/..` from a path without touching the file system, so the same
/// file reached by two routes is recognised.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

fn parse_file(path: &Path, text: String) -> Result<IDLProg> {
    let name = path.display().to_string();
    let mut p = Parser::new(&text, true)
        .map_err(|e| e.with_file(&name))?
        .with_source(Some(&name));
    p.prog().map_err(|e| e.with_file(&name))
}

struct Imports<'l, 'r> {
    loader: &'r mut Loader<'l>,
    /// Files loaded so far, and whether some import asked for their service.
    visited: BTreeMap<PathBuf, bool>,
    /// Files being loaded, outermost first (an import of one of them is a cycle).
    stack: Vec<PathBuf>,
    list: Vec<(PathBuf, String, IDLProg)>,
}

impl Imports<'_, '_> {
    fn load(&mut self, base: &Path, prog: &IDLProg) -> Result<()> {
        for (i, dec) in prog.decs.iter().enumerate() {
            let (file, serv) = match dec {
                Dec::ImportType(f) => (f, false),
                Dec::ImportServ(f) => (f, true),
                Dec::TypD(_) => continue,
            };
            let span = prog.dec_spans.get(i).cloned().unwrap_or(0..0);
            let path = normalize(&base.join(file));
            if let Some(pos) = self.stack.iter().position(|p| *p == path) {
                let mut chain: Vec<String> = self.stack[pos..]
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect();
                chain.push(path.display().to_string());
                return Err(prog.error_at(span, format!("import cycle: {}", chain.join(" -> "))));
            }
            if let Some(s) = self.visited.get_mut(&path) {
                *s |= serv;
                continue;
            }
            self.visited.insert(path.clone(), serv);
            let text = (self.loader)(&path)
                .map_err(|_| prog.error_at(span.clone(), format!("Cannot import {file:?}")))?;
            let sub = parse_file(&path, text)?;
            self.stack.push(path.clone());
            let sub_base = path.parent().map(Path::to_path_buf).unwrap_or_default();
            self.load(&sub_base, &sub)?;
            self.stack.pop();
            self.list.push((path, file.clone(), sub));
        }
        Ok(())
    }
}

/// Checks the `.did` file at `file` with its imports, reading files through `loader`.
/// Imports are resolved relative to the importing file; an import cycle is an error.
pub fn check_file_with_loader(
    file: &Path,
    loader: &mut Loader<'_>,
) -> Result<(TypeEnv, Option<Type>, IDLMergedProg)> {
    let file = normalize(file);
    let text = loader(&file).map_err(|_| Error::msg(format!("Cannot open {file:?}")))?;
    let prog = parse_file(&file, text)?;
    let base = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut imports = Imports {
        loader,
        visited: BTreeMap::new(),
        stack: vec![file.clone()],
        list: Vec::new(),
    };
    imports.load(&base, &prog)?;
    let Imports { visited, list, .. } = imports;
    let mut merged = IDLMergedProg::new(prog);
    for (path, name, prog) in list {
        let serv = visited.get(&path).copied().unwrap_or(false);
        merged.merge(serv, name, prog)?;
    }
    let mut te = TypeEnv::new();
    let res = check_merged_prog(&mut te, &merged)?;
    Ok((te, res, merged))
}

/// Checks the `.did` file at `file` and its imports (read from disk).
pub fn check_file(file: &Path) -> Result<(TypeEnv, Option<Type>, IDLMergedProg)> {
    let file = if file.is_absolute() {
        file.to_path_buf()
    } else {
        std::env::current_dir()?.join(file)
    };
    check_file_with_loader(&file, &mut |p: &Path| Ok(std::fs::read_to_string(p)?))
}

/// Same as [`check_file`]: kept for candid_parser's name. Our errors always carry
/// file, line, column and a snippet, so there is no separate "pretty" mode.
pub fn pretty_check_file(file: &Path) -> Result<(TypeEnv, Option<Type>, IDLMergedProg)> {
    check_file(file)
}
