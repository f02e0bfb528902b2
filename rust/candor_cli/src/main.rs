//! `candor`: Candid on the command line. didc's everyday subcommands (encode,
//! decode, check, subtype, hash, test, random,
//! bind) on candor, plus `explain`, which shows what
//! every byte of a message is, and `assemble`, which turns that text (edited or not)
//! back into the exact bytes.
//!
//! Exit status: 0 when done (or the answer is yes), 1 when the answer is no (not a
//! subtype, not compatible, a test failed), 2 on bad input or usage. Errors go to
//! standard error; nothing panics on any input.

use candor_cli::commands;
use std::process::ExitCode;

const USAGE: &str = "\
usage: candor <command> [arguments]

commands:
  explain [BYTES] [--did FILE --method M [--rets]] [--input-format raw|hex|blob]
        one line per element of a message: offset, bytes, what they are, and the
        quota units each value costs; with a .did, field names and the method's
        subtyping decisions (exit 1 when its types reject the message)
  assemble [FILE] [--keep-lengths] [--format hex|raw|blob]
        explain's text, edited or not, back to bytes (default output: hex)
  encode '(VALUES)' [--did FILE --method M [--rets]] [--format hex|raw|blob]
        Candid text to a message (typed by the method's arguments or results)
  decode [BYTES] [--did FILE --method M [--rets]] [--input-format raw|hex|blob]
        a message to Candid text
  check FILE.did [--previous OLD.did]
        type-check an interface; with --previous, can it replace OLD?
  subtype --defs FILE.did T1 T2
        is T1 a subtype of T2 (exit 0 yes, 1 no)?
  hash NAME...
        the field id of each name
  test FILE.test.did...
        run Candid test files (the conformance suite's format)
  random --did FILE --method M [--rets] [--seed N] [--count N] [--format hex|raw|blob]
        random well-typed argument values (Candid text, or messages with --format);
        the same seed gives the same values
  bind rust|js|ts|mo|did FILE.did
        the interface in another language: Rust types and a typed client, the JS
        agent's idlFactory, TypeScript declarations, a Motoko module, or the .did
        normalised (imports merged, definitions sorted)

BYTES is hex, a `blob \"…\"` literal, @FILE, or - / nothing for standard input;
raw bytes starting with DIDL are recognised.
";

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = raw.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match command.as_str() {
        "explain" => commands::explain(rest),
        "assemble" => commands::assemble(rest),
        "encode" => commands::encode(rest),
        "decode" => commands::decode(rest),
        "check" => commands::check(rest),
        "subtype" => commands::subtype(rest),
        "hash" => commands::hash(rest),
        "test" => commands::test(rest),
        "random" => commands::random(rest),
        "bind" => commands::bind(rest),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            Ok(commands::Answer::Yes)
        }
        "-V" | "--version" => {
            println!("candor {}", env!("CARGO_PKG_VERSION"));
            Ok(commands::Answer::Yes)
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(commands::Answer::Yes) => ExitCode::SUCCESS,
        Ok(commands::Answer::No) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
