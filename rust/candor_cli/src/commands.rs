//! One function per subcommand: read the arguments, do the work with candor and
//! candor_parser, print the result.

use crate::args::{Args, Spec};
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

type Outcome = Result<Answer, String>;

/// The arguments of the commands that may type a message by an interface:
/// `--did FILE --method M [--rets]`, and the formats.
fn typed_args(raw: &[String]) -> Result<Args, String> {
    Args::parse(
        raw,
        &Spec {
            options: &["did", "method", "format", "input-format"],
            flags: &["rets"],
        },
    )
}

/// The argument or result types of `--method` in `--did`, with the interface's
/// environment; `None` without `--did`.
fn interface(args: &Args) -> Result<Option<(TypeEnv, Vec<Type>)>, String> {
    let Some(did) = args.option("did") else {
        if args.option("method").is_some() {
            return Err("--method needs --did".into());
        }
        return Ok(None);
    };
    let (env, actor, _) =
        candor_parser::check_file(Path::new(did)).map_err(|e| format!("{did}: {e}"))?;
    let Some(method) = args.option("method") else {
        return Err("--did needs --method (whose argument types to use)".into());
    };
    let actor = actor.ok_or_else(|| format!("{did} defines no service"))?;
    let func = env
        .get_method(&actor, method)
        .map_err(|e| format!("{did}: {e}"))?;
    let types = if args.flag("rets") {
        func.rets.clone()
    } else {
        func.args.clone()
    };
    Ok(Some((env, types)))
}

fn input_format(args: &Args) -> Result<Option<Format>, String> {
    args.option("input-format").map(Format::parse).transpose()
}

fn output_format(args: &Args, default: Format) -> Result<Format, String> {
    Ok(args
        .option("format")
        .map(Format::parse)
        .transpose()?
        .unwrap_or(default))
}

fn one_positional(args: &Args) -> Result<Option<&str>, String> {
    match args.positional.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one)),
        more => Err(format!("expected one input, got {}", more.len())),
    }
}

fn print(text: &str) -> Result<(), String> {
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| format!("cannot write: {e}"))
}

pub fn explain(raw: &[String]) -> Outcome {
    let args = typed_args(raw)?;
    let data = input::read_source(one_positional(&args)?)?;
    let bytes = input::message(data, input_format(&args)?)?;
    let cx = match interface(&args)? {
        Some((env, types)) => exp::Context::from_interface(&env, &types),
        None => exp::Context::default(),
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

pub fn assemble(raw: &[String]) -> Outcome {
    let args = Args::parse(
        raw,
        &Spec {
            options: &["format"],
            flags: &["keep-lengths"],
        },
    )?;
    let data = input::read_source(match one_positional(&args)? {
        Some("-") | None => None,
        Some(path) => {
            return assemble_text(
                &std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?,
                &args,
            )
        }
    })?;
    let text = String::from_utf8(data).map_err(|_| "the input is not UTF-8 text")?;
    assemble_text(&text, &args)
}

fn assemble_text(text: &str, args: &Args) -> Outcome {
    let bytes = asm::assemble(text, args.flag("keep-lengths")).map_err(|e| e.to_string())?;
    input::write(&bytes, output_format(args, Format::Hex)?)?;
    Ok(Answer::Yes)
}

pub fn encode(raw: &[String]) -> Outcome {
    let args = typed_args(raw)?;
    let text = match one_positional(&args)? {
        Some(t) => t.to_string(),
        None => String::from_utf8(input::read_source(None)?).map_err(|_| "input is not UTF-8")?,
    };
    let values = candor_parser::parse_idl_args(&text).map_err(|e| e.to_string())?;
    let bytes = match interface(&args)? {
        Some((env, types)) => values
            .annotate_types(true, &env, &types)
            .and_then(|v| v.to_bytes_with_types(&env, &types)),
        None => values.to_bytes(),
    }
    .map_err(|e| e.to_string())?;
    input::write(&bytes, output_format(&args, Format::Hex)?)?;
    Ok(Answer::Yes)
}

pub fn decode(raw: &[String]) -> Outcome {
    let args = typed_args(raw)?;
    let data = input::read_source(one_positional(&args)?)?;
    let bytes = input::message(data, input_format(&args)?)?;
    let values = match interface(&args)? {
        Some((env, types)) => IDLArgs::from_bytes_with_types(&bytes, &env, &types),
        None => IDLArgs::from_bytes(&bytes),
    }
    .map_err(|e| e.to_string())?;
    print(&format!("{values}\n"))?;
    Ok(Answer::Yes)
}

pub fn check(raw: &[String]) -> Outcome {
    let args = Args::parse(
        raw,
        &Spec {
            options: &["previous"],
            flags: &[],
        },
    )?;
    let file = one_positional(&args)?.ok_or("check needs a .did file")?;
    let (env, actor, _) =
        candor_parser::check_file(Path::new(file)).map_err(|e| format!("{file}: {e}"))?;
    let Some(previous) = args.option("previous") else {
        return Ok(Answer::Yes);
    };
    let (old_env, old_actor, _) =
        candor_parser::check_file(Path::new(previous)).map_err(|e| format!("{previous}: {e}"))?;
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
        eprint!("{file} cannot replace {previous}:\n{text}");
        Ok(Answer::No)
    }
}

pub fn subtype(raw: &[String]) -> Outcome {
    let args = Args::parse(
        raw,
        &Spec {
            options: &["defs"],
            flags: &[],
        },
    )?;
    let [t1, t2] = args.positional.as_slice() else {
        return Err("subtype needs two types".into());
    };
    let env = match args.option("defs") {
        Some(file) => {
            candor_parser::check_file(Path::new(file))
                .map_err(|e| format!("{file}: {e}"))?
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

pub fn hash(raw: &[String]) -> Outcome {
    if raw.is_empty() {
        return Err("hash needs at least one name".into());
    }
    let mut text = String::new();
    for name in raw {
        text.push_str(&candor::idl_hash(name).to_string());
        text.push('\n');
    }
    print(&text)?;
    Ok(Answer::Yes)
}

pub fn test(raw: &[String]) -> Outcome {
    if raw.is_empty() {
        return Err("test needs at least one .test.did file".into());
    }
    let mut text = String::new();
    let (mut passed, mut failed) = (0, 0);
    for file in raw {
        let report = candor_parser::test::run_file(Path::new(file));
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

pub fn random(raw: &[String]) -> Outcome {
    let args = Args::parse(
        raw,
        &Spec {
            options: &["did", "method", "format", "seed", "count"],
            flags: &["rets"],
        },
    )?;
    if !args.positional.is_empty() {
        return Err("random takes no positional arguments (give --did and --method)".into());
    }
    let number = |name: &str, default: u64| -> Result<u64, String> {
        args.option(name).map_or(Ok(default), |v| {
            v.replace('_', "")
                .parse()
                .map_err(|_| format!("--{name} needs a number, not `{v}`"))
        })
    };
    let seed = number("seed", 0)?;
    let count = usize::try_from(number("count", 1)?).map_err(|_| "--count is too large")?;
    let Some((env, types)) = interface(&args)? else {
        return Err("random needs --did FILE --method M".into());
    };
    let format = args.option("format").map(Format::parse).transpose()?;
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

pub fn bind(raw: &[String]) -> Outcome {
    let args = Args::parse(
        raw,
        &Spec {
            options: &[],
            flags: &[],
        },
    )?;
    let [language, file] = args.positional.as_slice() else {
        return Err("usage: candor bind rust|js|ts|mo|did FILE.did".into());
    };
    print(&crate::bind::generate(language, Path::new(file))?)?;
    Ok(Answer::Yes)
}
