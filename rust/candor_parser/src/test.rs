//! The `.test.did` format of the official Candid test suite, and its runner.
//!
//! A test file has type definitions, then assertions:
//!
//! ```text
//! assert <input> : (types) "desc";        // decodes at the types
//! assert <input> !: (types) "desc";       // does not decode
//! assert <input> == <input> : (types);    // both decode, to equal values
//! assert <input> != <input> : (types);    // both decode, to different values
//! ```
//!
//! An input is a text value list `"(…)"` or a binary message `blob "DIDL…"`. The
//! semantics are those of candid_parser's runner (`src/test.rs`): a text input is
//! parsed and annotated with the types (not encoded); a binary input is decoded at
//! the types with a decoding quota of 20,000,000; equality compares the values.

use crate::error::{Error, Result};
use crate::syntax::IDLProg;
/// The runner's input, named here too: a test file is parsed to a [`Test`] and
/// handed to [`run`], so users of the runner find both in one place.
pub use crate::syntax::{Assert, Input, Test};
use crate::typing::{ast_to_type, check_prog};
use candor::types::{Type, TypeEnv};
use candor::{DecoderConfig, IDLArgs};

/// The decoding quota of every binary input, as in candid's runner.
pub const DECODING_QUOTA: usize = 20_000_000;

impl Input {
    /// The values of the input at `types`.
    pub fn parse(&self, env: &TypeEnv, types: &[Type]) -> Result<IDLArgs> {
        match self {
            Input::Text(s) => {
                Ok(crate::values::parse_idl_args(s)?.annotate_types(true, env, types)?)
            }
            Input::Blob(bytes) => {
                let mut config = DecoderConfig::new();
                config.set_decoding_quota(DECODING_QUOTA);
                Ok(IDLArgs::from_bytes_with_types_with_config(
                    bytes, env, types, &config,
                )?)
            }
        }
    }
}

/// The outcome of one assertion.
pub struct Outcome {
    /// Index of the assertion in the file.
    pub index: usize,
    /// 1-based line of the `assert`, for `file:line` in reports.
    pub line: usize,
    /// The assertion's description ("" when it has none).
    pub desc: String,
    /// Whether the assertion held.
    pub passed: bool,
    /// Why it failed (empty when it passed).
    pub detail: String,
}

/// Runs every assertion of `test`. A broken type definition fails all of them.
pub fn run(test: &Test) -> Vec<Outcome> {
    let mut env = TypeEnv::new();
    let prog = IDLProg {
        decs: test.defs.clone(),
        actor: None,
        dec_spans: Vec::new(),
        source: None,
    };
    let defs = check_prog(&mut env, &prog);
    test.asserts
        .iter()
        .enumerate()
        .map(|(index, a)| {
            let res = match &defs {
                Ok(_) => check_one(&env, a),
                Err(e) => Err(format!("type definitions: {e}")),
            };
            Outcome {
                index,
                line: a.line,
                desc: a.desc(),
                passed: res.is_ok(),
                detail: res.err().unwrap_or_default(),
            }
        })
        .collect()
}

fn check_one(env: &TypeEnv, a: &Assert) -> std::result::Result<(), String> {
    let types = a
        .typ
        .iter()
        .map(|t| ast_to_type(env, t))
        .collect::<Result<Vec<_>>>()
        .map_err(|e| format!("types: {e}"))?;
    let left = a.left.parse(env, &types);
    match &a.right {
        None => match (a.pass, left) {
            (true, Ok(_)) | (false, Err(_)) => Ok(()),
            (true, Err(e)) => Err(format!("expected to decode, but: {e}")),
            (false, Ok(v)) => Err(format!("expected not to decode, but got {v}")),
        },
        Some(right) => {
            let left = left.map_err(|e| format!("left input: {e}"))?;
            let right = right
                .parse(env, &types)
                .map_err(|e| format!("right input: {e}"))?;
            if (left == right) == a.pass {
                Ok(())
            } else if a.pass {
                Err(format!("values differ: {left} vs {right}"))
            } else {
                Err(format!("values are equal: {left}"))
            }
        }
    }
}

/// Parses and runs the test file text `src`.
pub fn run_str(src: &str) -> Result<Vec<Outcome>> {
    let test: Test = src.parse()?;
    Ok(run(&test))
}

/// The outcome of one test file.
pub struct FileReport {
    /// File name (without directory).
    pub name: String,
    /// The assertions' outcomes; a file that does not parse has one failed outcome
    /// describing the syntax error.
    pub outcomes: Vec<Outcome>,
}

impl FileReport {
    /// Assertions that held.
    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.passed).count()
    }

    /// Assertions that did not hold; a file that does not parse counts as one.
    pub fn failed(&self) -> usize {
        self.outcomes.len() - self.passed()
    }
}

/// Runs one `.test.did` file.
pub fn run_file(path: &std::path::Path) -> FileReport {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let outcomes = match std::fs::read_to_string(path)
        .map_err(Error::from)
        .and_then(|src| run_str(&src).map_err(|e| e.with_file(&name)))
    {
        Ok(o) => o,
        Err(e) => vec![Outcome {
            index: 0,
            line: e.diagnostic().map_or(0, |d| d.line),
            desc: "<the file does not parse>".into(),
            passed: false,
            detail: e.to_string(),
        }],
    };
    FileReport { name, outcomes }
}

/// Runs every `*.test.did` file of `dir`, in name order.
pub fn run_dir(dir: &std::path::Path) -> Result<Vec<FileReport>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(".test.did")))
        .collect();
    files.sort();
    Ok(files.iter().map(|p| run_file(p)).collect())
}
