//! `candor`: Candid on the command line. didc's everyday subcommands (encode,
//! decode, check, subtype, hash, test, random, bind) on candor, plus `explain`,
//! which shows what every byte of a message is, and `assemble`, which turns that
//! text (edited or not) back into the exact bytes. `candor help COMMAND` or
//! `candor COMMAND --help` describes each.
//!
//! Exit status: 0 when done (or the answer is yes), 1 when the answer is no (not a
//! subtype, not compatible, a test failed), 2 on bad input or usage (clap's usage
//! errors exit 2 as well). Errors go to standard error; nothing panics on any input.

use candor_cli::cli::{self, Cli};
use candor_cli::commands::Answer;
use clap::Parser;
use std::process::ExitCode;

/// Small blocks packed in one region (see the module for why).
#[global_allocator]
static ALLOC: candor_cli::arena::Arena = candor_cli::arena::Arena;

fn main() -> ExitCode {
    match cli::run(Cli::parse()) {
        Ok(Answer::Yes) => ExitCode::SUCCESS,
        Ok(Answer::No) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
