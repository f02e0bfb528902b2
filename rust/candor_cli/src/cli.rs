//! The command line, declared with clap's derive API: every subcommand with its
//! arguments and help. [`run`] hands each to its function in [`crate::commands`].

use crate::commands::{self, Outcome};
use crate::input::Format;
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::path::PathBuf;

/// Candid on the command line: didc's everyday subcommands on candor, plus
/// `explain` (what every byte of a message is) and `assemble` (that text, edited
/// or not, back to the exact bytes).
///
/// Exit status: 0 when done (or the answer is yes), 1 when the answer is no (not a
/// subtype, not compatible, a test failed,) 2 on bad input or
/// usage.
#[derive(Parser, Debug)]
#[command(
    name = "candor",
    version,
    arg_required_else_help = true,
    after_help = "BYTES is hex, a `blob \"…\"` literal, @FILE, or - / nothing for standard \
                  input; raw bytes starting with DIDL are recognised."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// One line per element of a message: offset, bytes, what they are, and the
    /// quota units each value costs; with a .did, field names and the method's
    /// subtyping decisions (exit 1 when its types reject the message).
    Explain {
        /// The message (BYTES)
        input: Option<String>,
        #[command(flatten)]
        typed: Typed,
        #[command(flatten)]
        read: Read,
        #[command(flatten)]
        names: Names,
    },
    /// explain's text, edited or not, back to bytes.
    Assemble {
        /// The explanation (a file, or - / nothing for standard input)
        file: Option<String>,
        /// Keep the length prefixes written in the text, even where an edited
        /// value no longer has that length
        #[arg(long)]
        keep_lengths: bool,
        /// How to write the bytes
        #[arg(long, value_enum, default_value_t = Format::Hex)]
        format: Format,
    },
    /// Candid text to a message, typed by the method's
    /// arguments or results.
    Encode {
        /// The values: `(…)` in Candid text, or a JSON array with --json
        /// (nothing: standard input)
        values: Option<String>,
        #[command(flatten)]
        typed: Typed,
        /// Read the values as JSON (needs --did and --method; the mapping is in
        /// the README)
        #[arg(long, requires = "did")]
        json: bool,
        /// How to write the bytes
        #[arg(long, value_enum, default_value_t = Format::Hex)]
        format: Format,
    },
    /// A message to Candid text (or JSON, with --json).
    Decode {
        /// The message (BYTES)
        input: Option<String>,
        #[command(flatten)]
        typed: Typed,
        #[command(flatten)]
        read: Read,
        /// Print the values as a JSON array (the mapping is in the README)
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        names: Names,
    },
    /// Compare the values of two messages: exit 0 when they carry the same
    /// values, 1 when they differ (each differing path is printed with both
    /// values), 2 on bad input.
    Diff {
        /// The first message (BYTES)
        a: String,
        /// The second message (BYTES)
        b: String,
        #[command(flatten)]
        typed: Typed,
        #[command(flatten)]
        read: Read,
        #[command(flatten)]
        names: Names,
    },
    /// Type-check an interface; with --previous, can it replace OLD?
    Check {
        /// The interface
        #[arg(value_name = "FILE.did")]
        file: PathBuf,
        /// The interface it replaces
        #[arg(long, value_name = "OLD.did")]
        previous: Option<PathBuf>,
    },
    /// Is T1 a subtype of T2 (exit 0 yes, 1 no)?
    Subtype {
        /// The type definitions the types may name
        #[arg(long, value_name = "FILE.did")]
        defs: Option<PathBuf>,
        t1: String,
        t2: String,
    },
    /// The field id of each name.
    Hash {
        #[arg(required = true, value_name = "NAME")]
        names: Vec<String>,
    },
    /// Run Candid test files (the conformance suite's format).
    Test {
        #[arg(required = true, value_name = "FILE.test.did")]
        files: Vec<PathBuf>,
    },
    /// Random well-typed argument values (Candid text, or messages with
    /// --format); the same seed gives the same values.
    Random {
        #[command(flatten)]
        typed: Typed,
        /// The seed
        #[arg(long, default_value = "0", value_parser = number)]
        seed: u64,
        /// How many messages
        #[arg(long, default_value = "1", value_parser = number)]
        count: u64,
        /// Write messages in this format rather than Candid text
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
    /// Bindings for an interface: Rust types and a typed client, the JS agent's
    /// idlFactory, TypeScript declarations, a Motoko module, or the .did normalised.
    Bind {
        /// The language: rust, js, ts, mo or did
        #[arg(value_name = "LANGUAGE")]
        language: String,
        /// The interface
        #[arg(value_name = "FILE.did")]
        file: PathBuf,
    },
    /// A completion script for a shell (e.g. `candor completions bash >
    /// /etc/bash_completion.d/candor`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// `--did FILE --method M [--rets]`: type a message by a method of an interface.
#[derive(Args, Debug, Default, Clone)]
pub struct Typed {
    /// The interface whose method types the message
    #[arg(long, value_name = "FILE", requires = "method")]
    pub did: Option<PathBuf>,
    /// The method
    #[arg(long, value_name = "M", requires = "did")]
    pub method: Option<String>,
    /// The method's results rather than its arguments
    #[arg(long, requires = "method")]
    pub rets: bool,
}

/// How a message is read.
#[derive(Args, Debug, Default, Clone, Copy)]
pub struct Read {
    /// The input's format (default: raw when it starts with DIDL, a blob literal
    /// when it starts with `blob`, hex otherwise)
    #[arg(long, value_enum)]
    pub input_format: Option<Format>,
}

/// Where names for hashed labels come from when no --did is given.
#[derive(Args, Debug, Default, Clone)]
pub struct Names {
    /// Names for hashed labels from this interface (repeatable; also the files in
    /// CANDOR_NAMES, separated as in PATH), before the built-in names of
    /// well-known interfaces
    #[arg(long = "names", value_name = "FILE.did")]
    pub files: Vec<PathBuf>,
}

/// A count or seed: digits, `_` allowed between them.
fn number(s: &str) -> Result<u64, String> {
    s.replace('_', "")
        .parse()
        .map_err(|_| format!("needs a number, not `{s}`"))
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Outcome {
    match cli.command {
        Command::Explain {
            input,
            typed,
            read,
            names,
        } => commands::explain(input.as_deref(), &typed, read, &names),
        Command::Assemble {
            file,
            keep_lengths,
            format,
        } => commands::assemble(file.as_deref(), keep_lengths, format),
        Command::Encode {
            values,
            typed,
            json,
            format,
        } => commands::encode(values.as_deref(), &typed, json, format),
        Command::Decode {
            input,
            typed,
            read,
            json,
            names,
        } => commands::decode(input.as_deref(), &typed, read, json, &names),
        Command::Diff {
            a,
            b,
            typed,
            read,
            names,
        } => commands::diff(&a, &b, &typed, read, &names),
        Command::Check { file, previous } => commands::check(&file, previous.as_deref()),
        Command::Subtype { defs, t1, t2 } => commands::subtype(defs.as_deref(), &t1, &t2),
        Command::Hash { names } => commands::hash(&names),
        Command::Test { files } => commands::test(&files),
        Command::Random {
            typed,
            seed,
            count,
            format,
        } => commands::random(&typed, seed, count, format),
        Command::Bind { language, file } => commands::bind(&language, &file),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "candor", &mut out);
            commands::print_bytes(&out)
        }
    }
}
