//! One function per subcommand: do the work with candor and candor_parser, print
//! the result. The arguments come parsed and checked by [`crate::cli`].

use crate::cli::{Names, Read, Typed};
use crate::input::{self, Format};
use crate::{assemble as asm, explain as exp};
use candor::types::{Type, TypeEnv};
use candor::IDLArgs;
use std::io::Write;
use std::path::Path;

/// What a command answers: yes (exit 0) or no (exit 1).
pub enum Answer {
    Yes,
    No,
}

/// A command's answer, or why it could not give one (exit 2).
pub type Outcome = Result<Answer, String>;

/// The argument or result types of `--method` in `--did`, with the interface's
/// environment; `None` without `--did`.
fn interface(typed: &Typed) -> Result<Option<(TypeEnv, Vec<Type>)>, String> {
    let (Some(did), Some(method)) = (&typed.did, &typed.method) else {
        return Ok(None);
    };
    let shown = did.display();
    let (env, actor, _) = candor_parser::check_file(did).map_err(|e| format!("{shown}: {e}"))?;
    let actor = actor.ok_or_else(|| format!("{shown} defines no service"))?;
    let func = env
        .get_method(&actor, method)
        .map_err(|e| format!("{shown}: {e}"))?;
    let types = if typed.rets {
        func.rets.clone()
    } else {
        func.args.clone()
    };
    Ok(Some((env, types)))
}

fn print(text: &str) -> Result<(), String> {
    print_bytes(text.as_bytes()).map(|_| ())
}

/// Writes `value` and a newline to standard output, through a buffer: a value's
/// layout is written piece by piece, and standard output alone would write each line.
fn print_line(value: &impl std::fmt::Display) -> Result<(), String> {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    writeln!(out, "{value}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write: {e}"))
}

/// Writes `bytes` to standard output.
pub fn print_bytes(bytes: &[u8]) -> Outcome {
    std::io::stdout()
        .write_all(bytes)
        .map_err(|e| format!("cannot write: {e}"))?;
    Ok(Answer::Yes)
}

/// The message in `source` (BYTES: hex, a blob literal, @FILE, - or nothing).
fn read_message(source: Option<&str>, read: Read) -> Result<input::Input, String> {
    input::message(input::read_source(source)?, read.input_format)
}

pub fn explain(source: Option<&str>, typed: &Typed, read: Read, names: &Names) -> Outcome {
    let bytes = read_message(source, read)?;
    let cx = match interface(typed)? {
        Some((env, types)) => exp::Context::from_interface(&env, &types),
        None => exp::Context::with_names(&crate::names::Names::load(&names.files)?),
    };
    let verdict = exp::explain_to(&bytes, &cx, &mut std::io::stdout().lock())
        .map_err(|e| format!("cannot write: {e}"))?;
    if let Some(f) = verdict.fault {
        return Err(format!(
            "malformed message: {} (at byte offset {})",
            f.message, f.offset
        ));
    }
    match verdict.rejected {
        None => Ok(Answer::Yes),
        Some(why) => {
            eprintln!("the method's types reject this message: {why}");
            Ok(Answer::No)
        }
    }
}

pub fn assemble(file: Option<&str>, keep_lengths: bool, format: Format) -> Outcome {
    let data = match file {
        Some("-") | None => input::read_source(None)?,
        Some(path) => input::read_source(Some(&format!("@{path}")))?,
    };
    let text = std::str::from_utf8(&data).map_err(|_| match file {
        Some(path) if path != "-" => {
            format!("cannot read {path}: stream did not contain valid UTF-8")
        }
        _ => "the input is not UTF-8 text".to_string(),
    })?;
    let bytes = asm::assemble(text, keep_lengths).map_err(|e| e.to_string())?;
    input::write(&bytes, format)?;
    Ok(Answer::Yes)
}

pub fn encode(values: Option<&str>, typed: &Typed, json: bool, format: Format) -> Outcome {
    let data;
    let text = match values {
        Some(t) => t,
        None => {
            data = input::read_source(None)?;
            std::str::from_utf8(&data).map_err(|_| "input is not UTF-8")?
        }
    };
    let bytes = match (interface(typed)?, json) {
        (Some((env, types)), true) => crate::json::args_from_json(text, &env, &types)?
            .to_bytes_with_types(&env, &types)
            .map_err(|e| e.to_string())?,
        (None, true) => return Err("--json needs --did and --method (the types)".into()),
        (Some((env, types)), false) => {
            let mut args = parse_text(text)?;
            // Encoding at the types annotates each value; annotating first only
            // matters for the values left out at the end (null, reserved, opt).
            if args.args.len() < types.len() {
                args = args
                    .annotate_types(true, &env, &types)
                    .map_err(|e| e.to_string())?;
            }
            let bytes = args
                .to_bytes_with_types(&env, &types)
                .map_err(|e| e.to_string())?;
            // The process ends after writing: freeing the message value is wasted work.
            std::mem::forget(args);
            bytes
        }
        (None, false) => {
            let args = parse_text(text)?;
            let bytes = args.to_bytes().map_err(|e| e.to_string())?;
            std::mem::forget(args);
            bytes
        }
    };
    input::write(&bytes, format)?;
    Ok(Answer::Yes)
}

fn parse_text(text: &str) -> Result<IDLArgs, String> {
    candor_parser::parse_idl_args(text).map_err(|e| e.to_string())
}

/// The values of the message in `source`, at the method's types when there is
/// one, else at the message's own with names given to hashed labels where
/// `names` knows them (a note on standard error for each hash with several).
fn decode_values(
    source: Option<&str>,
    typed: &Typed,
    read: Read,
    names: &Names,
) -> Result<IDLArgs, String> {
    let bytes = read_message(source, read)?;
    match interface(typed)? {
        Some((env, types)) => {
            IDLArgs::from_bytes_with_types(&bytes, &env, &types).map_err(|e| e.to_string())
        }
        None => {
            let mut values = IDLArgs::from_bytes(&bytes).map_err(|e| e.to_string())?;
            let known = crate::names::Names::load(&names.files)?;
            for note in known.notes(&known.relabel(&mut values)) {
                eprintln!("note: {note}");
            }
            Ok(values)
        }
    }
}

pub fn decode(
    source: Option<&str>,
    typed: &Typed,
    read: Read,
    json: bool,
    names: &Names,
) -> Outcome {
    if !json && typed.did.is_some() {
        return decode_typed_text(source, typed, read);
    }
    let values = decode_values(source, typed, read, names)?;
    if json {
        print(&crate::json::args_to_json(&values))?;
    } else {
        print_line(&values)?;
    }
    // The process ends here: its memory goes back at exit, and freeing a large
    // message value by value first would take as long as printing it.
    std::mem::forget(values);
    Ok(Answer::Yes)
}

/// `decode --did --method` to Candid text: decoded straight into the text, a long
/// vector element by element (see `IDLArgs::text_from_bytes_with_types`).
fn decode_typed_text(source: Option<&str>, typed: &Typed, read: Read) -> Outcome {
    let bytes = read_message(source, read)?;
    let Some((env, types)) = interface(typed)? else {
        return Err("decode needs --did and --method together".into());
    };
    let text =
        IDLArgs::text_from_bytes_with_types(&bytes, &env, &types).map_err(|e| e.to_string())?;
    print_line(&text)?;
    // The process ends here (see `decode`).
    std::mem::forget(text);
    Ok(Answer::Yes)
}

pub fn diff(a: &str, b: &str, typed: &Typed, read: Read, names: &Names) -> Outcome {
    if a == "-" && b == "-" {
        return Err("only one of the two messages can come from standard input".into());
    }
    let va = decode_values(Some(a), typed, read, names)
        .map_err(|e| format!("the first message: {e}"))?;
    let vb = decode_values(Some(b), typed, read, names)
        .map_err(|e| format!("the second message: {e}"))?;
    let diffs = crate::diff::diff(&va, &vb);
    if diffs.is_empty() {
        return Ok(Answer::Yes);
    }
    print(&crate::diff::render(&diffs))?;
    Ok(Answer::No)
}

pub fn check(file: &Path, previous: Option<&Path>) -> Outcome {
    let shown = file.display();
    let (env, actor, _) = candor_parser::check_file(file).map_err(|e| format!("{shown}: {e}"))?;
    let Some(previous) = previous else {
        return Ok(Answer::Yes);
    };
    let old_shown = previous.display();
    let (old_env, old_actor, _) =
        candor_parser::check_file(previous).map_err(|e| format!("{old_shown}: {e}"))?;
    let (Some(new), Some(old)) = (actor, old_actor) else {
        return Err("both interfaces need a service to compare".into());
    };
    let report = candor_parser::compat::check_compatibility(&env, &new, &old_env, &old);
    let mut text = String::new();
    for finding in report.errors.iter().chain(&report.warnings) {
        text.push_str(&finding.to_string());
        text.push('\n');
    }
    if report.is_compatible() {
        print(&text)?;
        Ok(Answer::Yes)
    } else {
        eprint!("{shown} cannot replace {old_shown}:\n{text}");
        Ok(Answer::No)
    }
}

pub fn subtype(defs: Option<&Path>, t1: &str, t2: &str) -> Outcome {
    let env = match defs {
        Some(file) => {
            candor_parser::check_file(file)
                .map_err(|e| format!("{}: {e}", file.display()))?
                .0
        }
        None => TypeEnv::new(),
    };
    let parse = |t: &str| candor_parser::parse_idl_type(&env, t).map_err(|e| e.to_string());
    let (a, b) = (parse(t1)?, parse(t2)?);
    let report = candor_parser::compat::check_compatibility(&env, &a, &env, &b);
    if report.is_compatible() {
        Ok(Answer::Yes)
    } else {
        for e in &report.errors {
            eprintln!("{e}");
        }
        Ok(Answer::No)
    }
}

pub fn hash(names: &[String]) -> Outcome {
    let mut text = String::new();
    for name in names {
        text.push_str(&candor::idl_hash(name).to_string());
        text.push('\n');
    }
    print(&text)?;
    Ok(Answer::Yes)
}

pub fn test(files: &[std::path::PathBuf]) -> Outcome {
    let mut text = String::new();
    let (mut passed, mut failed) = (0, 0);
    for file in files {
        let report = candor_parser::test::run_file(file);
        passed += report.passed();
        failed += report.failed();
        for o in report.outcomes.iter().filter(|o| !o.passed) {
            text.push_str(&format!(
                "{}:{}: {}: {}\n",
                report.name, o.line, o.desc, o.detail
            ));
        }
    }
    text.push_str(&format!("{passed} passed, {failed} failed\n"));
    print(&text)?;
    Ok(if failed == 0 { Answer::Yes } else { Answer::No })
}

pub fn random(typed: &Typed, seed: u64, count: u64, format: Option<Format>) -> Outcome {
    let count = usize::try_from(count).map_err(|_| "--count is too large")?;
    let Some((env, types)) = interface(typed)? else {
        return Err("random needs --did FILE --method M".into());
    };
    for message in crate::random::generate(&env, &types, seed, count)? {
        match format {
            None => print(&format!("{message}\n"))?,
            Some(f) => {
                let bytes = message
                    .to_bytes_with_types(&env, &types)
                    .map_err(|e| e.to_string())?;
                input::write(&bytes, f)?;
            }
        }
    }
    Ok(Answer::Yes)
}

pub fn bind(language: &str, file: &Path) -> Outcome {
    print(&crate::bind::generate(language, file)?)?;
    Ok(Answer::Yes)
}
