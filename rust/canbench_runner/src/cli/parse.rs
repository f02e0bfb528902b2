//! The command line as clap reads it (derive API): upstream canbench's options, which it also
//! parses with clap, then the runner's own, and the `compare` and `call` subcommands. Each
//! `--option VALUE` also reads as `--option=VALUE`; a mistyped option gets a suggestion.

use super::{
    parse_principal_hex, BenchArgs, CallArgs, Command, CompareArgs, DEFAULT_INSTRUCTION_LIMIT,
    DEFAULT_NOISE_THRESHOLD,
};
use crate::config::absolute;
use crate::ic0::ANONYMOUS;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Offline canbench: runs canbench-rs benchmarks under the IC's instruction cost model,
/// without PocketIC, and reports as canbench 0.7 does.
#[derive(Parser, Debug)]
#[command(
    name = "canbench",
    disable_version_flag = true,
    // `canbench help` benchmarks what matches "help", as before; `-h` is the help.
    disable_help_subcommand = true,
    args_conflicts_with_subcommands = true,
    after_help = "Without a subcommand: build the canister canbench.yml names, meter every \
                  benchmark whose name contains PATTERN, report, and write what the options ask."
)]
pub(super) struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    bench: Bench,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Two results files side by side.
    Compare(Compare),
    /// Install a canister offline and send it a script of messages (init HEX, query METHOD HEX,
    /// update METHOD HEX; default: stdin), printing how each ended and its instructions.
    Call(Call),
}

#[derive(Args, Debug)]
struct Bench {
    /// Only the benchmarks whose name contains it.
    pattern: Option<String>,

    // Upstream canbench's options.
    /// Write the results file (canbench_results.yml or results_path).
    #[arg(long)]
    persist: bool,
    /// Write canbench_results.csv (or csv_results_path).
    #[arg(long)]
    csv: bool,
    /// Percent below which a change is noise.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NOISE_THRESHOLD)]
    noise_threshold: f64,
    /// Print the canister's debug_print output.
    #[arg(long)]
    show_canister_output: bool,
    /// Leave out the summary (unless --show-summary).
    #[arg(long)]
    less_verbose: bool,
    /// Leave out each benchmark's block.
    #[arg(long)]
    hide_results: bool,
    /// Print the summary.
    #[arg(long)]
    show_summary: bool,
    /// Flame graphs of each benchmark, next to the results file: BENCH.svg (every call in time
    /// order, as canbench draws it), BENCH.merged.svg (repeated calls merged) and
    /// BENCH.scope.SCOPE.svg for each scope.
    #[arg(long)]
    instruction_tracing: bool,
    /// Accepted for upstream compatibility; there is no PocketIC runtime here (a note says so).
    #[arg(long, value_name = "FILE")]
    runtime_path: Option<String>,
    /// Accepted for upstream compatibility; there is no runtime to check (a note says so).
    #[arg(long)]
    no_runtime_integrity_check: bool,
    /// Print the canbench version whose formats this runner writes.
    #[arg(short = 'V', long)]
    version: bool,

    // The runner's own.
    /// canbench.yml to use (default: $CANBENCH_CFG_FILE, ./canbench.yml, then
    /// benches/canister/canbench.yml).
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// Also write this run's results file to FILE (the project's results file is left alone).
    #[arg(long, value_name = "FILE")]
    results_out: Option<String>,
    /// Write a PR comment comparing with --base (default: the results file).
    #[arg(long, value_name = "FILE")]
    markdown: Option<String>,
    /// The results file the markdown and the gate compare against.
    #[arg(long, value_name = "FILE")]
    base: Option<String>,
    /// CI gate: exit 1 if instructions (total, encoding or decoding) regress more than the
    /// noise threshold; prints the markdown diff.
    #[arg(long)]
    check: bool,
    /// Also print a side-by-side table against FILE (default: compare_with).
    #[arg(long, value_name = "FILE")]
    compare_with: Option<String>,
    /// Skip build_cmd.
    #[arg(long)]
    no_build: bool,
    /// Stop a benchmark after N instructions.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_INSTRUCTION_LIMIT)]
    instruction_limit: u64,
    /// Benchmarks run in parallel (default: up to 2).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Instead of reporting, print each benchmark's N most expensive functions (instructions
    /// charged inside each function, callees excluded).
    #[arg(long, value_name = "N")]
    profile: Option<usize>,
    /// The same by basic block: function, block number in it, and the wasm byte offset of its
    /// first operator.
    #[arg(long, value_name = "N")]
    profile_blocks: Option<usize>,
}

#[derive(Args, Debug)]
struct Compare {
    /// The two results files.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The columns' labels.
    #[arg(long, value_name = "A,B")]
    labels: Option<String>,
    /// A markdown table instead of the console's.
    #[arg(long)]
    markdown: bool,
    /// Just these benchmarks.
    #[arg(long, value_name = "A,B")]
    only: Option<String>,
    /// Every benchmark but these.
    #[arg(long, value_name = "A,B")]
    except: Option<String>,
}

#[derive(Args, Debug)]
struct Call {
    /// The canister module (gzipped or not).
    #[arg(long, value_name = "CANISTER.wasm")]
    wasm: PathBuf,
    /// The messages to send (`-`: stdin, the default).
    #[arg(long, value_name = "FILE")]
    script: Option<String>,
    /// The caller's principal, in hex (default: anonymous).
    #[arg(long, value_name = "PRINCIPAL_HEX", value_parser = principal)]
    caller: Option<Principal>,
    /// Print the interface the canister's export_candid!() compiled in, and send nothing.
    #[arg(long)]
    service_did: bool,
    /// Print the canister's debug_print output.
    #[arg(long)]
    show_canister_output: bool,
    /// Stop a message after N instructions.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_INSTRUCTION_LIMIT)]
    instruction_limit: u64,
    /// Flame graphs of each message after installation: N-METHOD.svg and N-METHOD.merged.svg.
    #[arg(long)]
    instruction_tracing: bool,
    /// Where --instruction-tracing writes (default: the current directory).
    #[arg(long, value_name = "DIR", requires = "instruction_tracing")]
    trace_dir: Option<PathBuf>,
}

/// A principal's bytes (a type of its own: clap would read a `Vec<u8>` as several values).
#[derive(Clone, Debug)]
struct Principal(Vec<u8>);

fn principal(text: &str) -> Result<Principal, String> {
    parse_principal_hex(text).map(Principal)
}

fn names(list: &str) -> Vec<String> {
    list.split(',').map(str::to_string).collect()
}

impl Cli {
    pub(super) fn into_command(self) -> Result<Command, String> {
        match self.command {
            Some(Sub::Compare(c)) => Ok(Command::Compare(c.into_args()?)),
            Some(Sub::Call(c)) => Ok(Command::Call(c.into_args())),
            None if self.bench.version => Ok(Command::Version),
            None => Ok(Command::Bench(self.bench.into_args())),
        }
    }
}

impl Bench {
    fn into_args(self) -> BenchArgs {
        let path = |p: Option<String>| p.as_deref().map(absolute);
        let mut ignored = Vec::new();
        if let Some(path) = &self.runtime_path {
            ignored.push(format!(
                "--runtime-path {path} ignored: the offline runner executes the canister itself, with no PocketIC runtime"
            ));
        }
        if self.no_runtime_integrity_check {
            ignored
                .push("--no-runtime-integrity-check ignored: there is no runtime to check".into());
        }
        BenchArgs {
            pattern: self.pattern,
            config: path(self.config),
            persist: self.persist,
            results_out: path(self.results_out),
            csv: self.csv,
            markdown: path(self.markdown),
            base: path(self.base),
            check: self.check,
            compare_with: path(self.compare_with),
            noise_threshold: self.noise_threshold,
            no_build: self.no_build,
            jobs: self.jobs,
            show_canister_output: self.show_canister_output,
            less_verbose: self.less_verbose,
            hide_results: self.hide_results,
            show_summary: self.show_summary,
            instruction_limit: self.instruction_limit,
            profile_top: self.profile_blocks.or(self.profile),
            profile_blocks: self.profile_blocks.is_some(),
            instruction_tracing: self.instruction_tracing,
            ignored,
        }
    }
}

impl Compare {
    fn into_args(self) -> Result<CompareArgs, String> {
        let labels = match self.labels {
            None => ("A".to_string(), "B".to_string()),
            Some(l) => {
                let (a, b) = l.split_once(',').ok_or("--labels needs A,B")?;
                (a.to_string(), b.to_string())
            }
        };
        Ok(CompareArgs {
            files: self.files,
            labels,
            markdown: self.markdown,
            only: self.only.as_deref().map(names),
            except: self.except.as_deref().map(names).unwrap_or_default(),
        })
    }
}

impl Call {
    fn into_args(self) -> CallArgs {
        CallArgs {
            wasm: self.wasm,
            script: self.script,
            caller: self.caller.map_or_else(|| ANONYMOUS.to_vec(), |p| p.0),
            service_did: self.service_did,
            show_canister_output: self.show_canister_output,
            instruction_limit: self.instruction_limit,
            instruction_tracing: self.instruction_tracing,
            trace_dir: self.trace_dir,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Command};

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn upstream_flags_and_the_runners_parse() {
        let Ok(Command::Bench(b)) = parse(&args(
            "btree --persist --noise-threshold=5 --runtime-path /x --profile-blocks 3 --jobs 1",
        )) else {
            panic!("not a benchmark run")
        };
        assert_eq!(b.pattern.as_deref(), Some("btree"));
        assert!(b.persist && b.profile_blocks);
        assert_eq!(
            (b.noise_threshold, b.profile_top, b.jobs),
            (5.0, Some(3), Some(1))
        );
        assert_eq!(b.ignored.len(), 1);
        assert!(matches!(parse(&args("-V")), Ok(Command::Version)));
        let Ok(Command::Compare(c)) = parse(&args("compare a.yml b.yml --labels x,y --only p,q"))
        else {
            panic!("not compare")
        };
        assert_eq!(c.files.len(), 2);
        assert_eq!(c.labels, ("x".into(), "y".into()));
        assert_eq!(c.only, Some(vec!["p".to_string(), "q".to_string()]));
        let Ok(Command::Call(c)) = parse(&args("call --wasm m.wasm --caller 04")) else {
            panic!("not call")
        };
        assert_eq!(c.caller, [4]);
    }

    #[test]
    fn mistakes_are_named_with_a_suggestion() {
        let err = |line| parse(&args(line)).err().unwrap();
        assert!(err("--persit").contains("tip: a similar argument exists: '--persist'"));
        assert!(err("--persist=yes").contains("unexpected value 'yes' for '--persist'"));
        assert!(err("call").contains("--wasm <CANISTER.wasm>"));
        assert!(err("call --wasm m --caller zz").contains("bad --caller"));
        assert!(err("--jobs x").contains("invalid value 'x' for '--jobs <N>'"));
        assert!(
            matches!(parse(&args("call --help")), Ok(Command::Help(h)) if h.contains("--script"))
        );
    }
}
