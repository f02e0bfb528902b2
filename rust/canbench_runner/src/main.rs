//! `canbench`: an offline runner for canbench-rs benchmark canisters.
//!
//! It reads `canbench.yml`, builds the canister, meters every `__canbench__*` query under the
//! IC's instruction cost model (see `instrument`), and reports like upstream canbench, without
//! PocketIC. Usage, what it models and its compatibility with upstream: this crate's README.md.
//!
//! The modules, in layers from the top (each uses its own layer and those below it):
//! * `main`: dispatch only;
//! * the commands: `bench` (the benchmark run), `compare`, `call` (with `session`);
//! * what the commands are given: `cli` (arguments read with clap, exit statuses), `config`
//!   (canbench.yml and the files it names);
//! * `report` (rendering), `gate` (what counts as a regression), `result` (a benchmark's
//!   reply), `results_file`, `flame` (`--instruction-tracing`: the flame graphs);
//! * `exec` (instances of a canister, messages), `ic0` (the system API), `instrument` (the
//!   meter), `cost` (the IC cost table);
//! * `toolchain` (a compiler for the wasm target), `hex`, `flame::record` (the calls of a
//!   traced message, which the host records; it uses nothing else).

mod bench;
mod call;
mod cli;
mod compare;
mod config;
mod cost;
mod exec;
mod flame;
mod gate;
mod hex;
mod ic0;
mod instrument;
mod report;
mod result;
mod results_file;
mod session;
mod toolchain;

use cli::{Command, ERROR_STATUS, USAGE_STATUS};

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let command = match cli::parse(&argv) {
        Ok(command) => command,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(USAGE_STATUS);
        }
    };
    let result = match command {
        Command::Bench(args) => bench::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Call(args) => call::command(&args),
        Command::Help(text) => {
            print!("{text}");
            Ok(cli::Status::Success)
        }
        Command::Version => {
            println!("{}", cli::version());
            Ok(cli::Status::Success)
        }
    };
    match result {
        Ok(status) => std::process::exit(status.code()),
        Err(e) => {
            // The message alone, on lines of its own, as upstream canbench prints its errors.
            eprintln!("{e}");
            std::process::exit(ERROR_STATUS);
        }
    }
}

#[cfg(test)]
mod tests;
