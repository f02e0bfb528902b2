//! The command line: the usage text, one struct per subcommand (the benchmark run, `compare`,
//! `call`) parsed from the arguments, and the exit statuses the commands end with.

use crate::config::absolute;
use crate::hex::from_hex;
use crate::ic0::{ANONYMOUS, MAX_PRINCIPAL_LEN};
use std::path::PathBuf;
use std::str::FromStr;

pub const USAGE: &str = "\
usage: canbench [PATTERN] [options]
       canbench compare A.yml B.yml [--labels A,B] [--markdown] [--only A,B | --except A,B]
       canbench call --wasm CANISTER.wasm [--script FILE|-] [--caller PRINCIPAL_HEX]
                     [--instruction-limit N] [--show-canister-output]
                     [--instruction-tracing [--trace-dir DIR]]
       canbench call --wasm CANISTER.wasm --service-did
           install a canister offline and send it a script of messages (init HEX,
           query METHOD HEX, update METHOD HEX; default: stdin), printing how each ended
           and its instructions; or print the interface its export_candid!() compiled in
           (see src/call.rs)

options:
  --config FILE          canbench.yml to use (default: $CANBENCH_CFG_FILE, ./canbench.yml,
                         then benches/canister/canbench.yml)
  --persist              write the results file (canbench_results.yml or results_path)
  --results-out FILE     also write this run's results file to FILE (what a CI job compares
                         the next run with; the project's results file is left alone)
  --csv                  write canbench_results.csv (or csv_results_path)
  --markdown FILE        write a PR comment comparing with --base (default: the results file)
  --base FILE            results file the markdown and the gate compare against
  --check                CI gate: exit 1 if instructions (total, encoding or decoding) regress
                         more than the noise threshold; prints the markdown diff
  --compare-with FILE    also print a side-by-side table against FILE (default: compare_with)
  --noise-threshold N    percent below which a change is noise (default 2)
  --no-build             skip build_cmd
  --instruction-limit N  stop a benchmark after N instructions (default 100 billion)
  --jobs N               benchmarks run in parallel (default: up to 2)
  --show-canister-output print the canister's debug_print output
  --profile N            instead of reporting, print each benchmark's N most expensive functions
                         (instructions charged inside each function, callees excluded)
  --profile-blocks N     the same by basic block: function, block number in it, and the wasm
                         byte offset of its first operator (as a disassembler prints offsets)
  --instruction-tracing  flame graphs of each benchmark, next to the results file: BENCH.svg
                         (every call in time order, as canbench draws it), BENCH.merged.svg
                         (repeated calls merged) and BENCH.scope.SCOPE.svg for each scope
  --less-verbose | --hide-results | --show-summary   as in canbench
  -V, --version          print the canbench version whose formats this runner writes

accepted for upstream canbench compatibility, with nothing to do offline (a note says so):
  --runtime-path FILE, --no-runtime-integrity-check   there is no PocketIC runtime here

every option that takes a value also accepts the --option=value form";

/// Per-message instruction cap: far above any realistic benchmark (btreemap needs ~11 B), yet
/// it ends a runaway (e.g. quadratic) benchmark within a couple of minutes.
pub const DEFAULT_INSTRUCTION_LIMIT: u64 = 100_000_000_000;

/// Percent below which a change counts as noise, unless `--noise-threshold` says otherwise.
const DEFAULT_NOISE_THRESHOLD: f64 = 2.0;

/// How a command that ran ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It did what was asked.
    Success,
    /// It ran and found a failure: a regression beyond the threshold (`--check`), or a
    /// canister whose installation trapped (`call`).
    Failed,
}

impl Status {
    pub fn code(self) -> i32 {
        match self {
            Status::Success => 0,
            Status::Failed => 1,
        }
    }
}

/// The exit status of a command that could not run (bad arguments, configuration or module) or
/// whose benchmarks failed: 1, as upstream canbench exits on every error.
pub const ERROR_STATUS: i32 = 1;

/// What the command line asks for.
pub enum Command {
    Bench(BenchArgs),
    Compare(CompareArgs),
    Call(CallArgs),
    /// `-h` or `--help`: print [`USAGE`].
    Help,
    /// `-V` or `--version`.
    Version,
}

/// `canbench [PATTERN] [options]`: build, meter and report the benchmarks.
pub struct BenchArgs {
    /// Only benchmarks whose name contains it.
    pub pattern: Option<String>,
    pub config: Option<PathBuf>,
    pub persist: bool,
    /// `--results-out FILE`: where to write this run's results besides (or instead of) the
    /// project's results file.
    pub results_out: Option<PathBuf>,
    pub csv: bool,
    pub markdown: Option<PathBuf>,
    pub base: Option<PathBuf>,
    pub check: bool,
    pub compare_with: Option<PathBuf>,
    pub noise_threshold: f64,
    pub no_build: bool,
    pub jobs: Option<usize>,
    pub show_canister_output: bool,
    pub less_verbose: bool,
    pub hide_results: bool,
    pub show_summary: bool,
    pub instruction_limit: u64,
    /// `--profile N`: print each benchmark's N most expensive functions instead of reporting.
    pub profile_top: Option<usize>,
    /// `--profile-blocks N`: the profile counts basic blocks instead of functions.
    pub profile_blocks: bool,
    /// `--instruction-tracing`: each benchmark's flame graphs, next to the results file.
    pub instruction_tracing: bool,
    /// Upstream options given that mean nothing offline, each with why (printed as notes).
    pub ignored: Vec<String>,
}

/// `canbench compare A.yml B.yml`: two results files side by side.
pub struct CompareArgs {
    pub files: Vec<PathBuf>,
    pub labels: (String, String),
    pub markdown: bool,
    /// `--only A,B`: just these benchmarks.
    pub only: Option<Vec<String>>,
    /// `--except A,B`: every benchmark but these.
    pub except: Vec<String>,
}

/// `canbench call`: messages to one installed canister (see `call`).
pub struct CallArgs {
    pub wasm: PathBuf,
    pub script: Option<String>,
    pub caller: Vec<u8>,
    pub service_did: bool,
    pub show_canister_output: bool,
    pub instruction_limit: u64,
    /// `--instruction-tracing`: each message's flame graphs, into `trace_dir`.
    pub instruction_tracing: bool,
    pub trace_dir: Option<PathBuf>,
}

/// Reads the command line (without the program name).
pub fn parse(argv: &[String]) -> Result<Command, String> {
    match argv.split_first() {
        Some((first, rest)) if first == "compare" => CompareArgs::parse(rest).map(Command::Compare),
        Some((first, rest)) if first == "call" => CallArgs::parse(rest).map(Command::Call),
        _ => BenchArgs::parse(argv),
    }
}

/// The arguments, read one at a time; an option's value is the argument after it, or what
/// follows `=` in `--option=value` (clap, which upstream canbench uses, accepts both).
struct Arguments<'a> {
    rest: std::slice::Iter<'a, String>,
    /// The value given inline with the option just read (`--option=value`).
    inline: Option<&'a str>,
}

impl<'a> Arguments<'a> {
    fn new(argv: &'a [String]) -> Self {
        Arguments {
            rest: argv.iter(),
            inline: None,
        }
    }

    /// The next argument; for `--option=value`, the option (its value is kept for
    /// [`Arguments::value`]).
    fn next(&mut self) -> Option<&'a str> {
        let arg = self.rest.next()?.as_str();
        match arg.split_once('=') {
            Some((option, value)) if option.starts_with("--") => {
                self.inline = Some(value);
                Some(option)
            }
            _ => {
                self.inline = None;
                Some(arg)
            }
        }
    }

    /// The value of `option`.
    fn value(&mut self, option: &str) -> Result<String, String> {
        if let Some(v) = self.inline.take() {
            return Ok(v.to_string());
        }
        self.rest
            .next()
            .cloned()
            .ok_or_else(|| format!("{option} needs a value\n{USAGE}"))
    }

    /// Fails when a flag that takes no value was given one (`--persist=yes`).
    fn no_value(&mut self, option: &str) -> Result<(), String> {
        match self.inline.take() {
            None => Ok(()),
            Some(v) => Err(format!("{option} takes no value (got `{v}`)\n{USAGE}")),
        }
    }

    /// The value of `option`, parsed.
    fn parsed<T: FromStr>(&mut self, option: &str) -> Result<T, String> {
        self.value(option)?
            .parse()
            .map_err(|_| format!("bad {option}"))
    }

    /// The value of `option`, a path made absolute (the run changes directory later).
    fn path(&mut self, option: &str) -> Result<PathBuf, String> {
        Ok(absolute(&self.value(option)?))
    }
}

impl BenchArgs {
    /// What the instrumented build counts besides the total.
    pub fn profile(&self) -> crate::instrument::Profile {
        use crate::instrument::Profile;
        match (self.profile_top, self.profile_blocks) {
            (None, _) => Profile::Off,
            (Some(_), false) => Profile::Functions,
            (Some(_), true) => Profile::Blocks,
        }
    }

    /// The options, or [`Command::Help`] when `-h` comes before any error.
    fn parse(argv: &[String]) -> Result<Command, String> {
        let mut a = BenchArgs {
            pattern: None,
            config: None,
            persist: false,
            results_out: None,
            csv: false,
            markdown: None,
            base: None,
            check: false,
            compare_with: None,
            noise_threshold: DEFAULT_NOISE_THRESHOLD,
            no_build: false,
            jobs: None,
            show_canister_output: false,
            less_verbose: false,
            hide_results: false,
            show_summary: false,
            instruction_limit: DEFAULT_INSTRUCTION_LIMIT,
            profile_top: None,
            profile_blocks: false,
            instruction_tracing: false,
            ignored: Vec::new(),
        };
        let mut args = Arguments::new(argv);
        while let Some(arg) = args.next() {
            let takes_value = matches!(
                arg,
                "--config"
                    | "--results-out"
                    | "--markdown"
                    | "--base"
                    | "--compare-with"
                    | "--noise-threshold"
                    | "--instruction-limit"
                    | "--jobs"
                    | "--profile"
                    | "--profile-blocks"
                    | "--runtime-path"
            );
            if !takes_value && arg.starts_with("--") {
                args.no_value(arg)?;
            }
            match arg {
                "--config" => a.config = Some(args.path(arg)?),
                "--persist" => a.persist = true,
                "--results-out" => a.results_out = Some(args.path(arg)?),
                "--csv" => a.csv = true,
                "--markdown" => a.markdown = Some(args.path(arg)?),
                "--base" => a.base = Some(args.path(arg)?),
                "--check" => a.check = true,
                "--compare-with" => a.compare_with = Some(args.path(arg)?),
                "--noise-threshold" => a.noise_threshold = args.parsed(arg)?,
                "--no-build" => a.no_build = true,
                "--instruction-limit" => a.instruction_limit = args.parsed(arg)?,
                "--jobs" => a.jobs = Some(args.parsed(arg)?),
                "--show-canister-output" => a.show_canister_output = true,
                "--profile" => a.profile_top = Some(args.parsed(arg)?),
                "--profile-blocks" => {
                    a.profile_top = Some(args.parsed(arg)?);
                    a.profile_blocks = true;
                }
                "--less-verbose" => a.less_verbose = true,
                "--hide-results" => a.hide_results = true,
                "--show-summary" => a.show_summary = true,
                "--runtime-path" => {
                    let path = args.value(arg)?;
                    a.ignored.push(format!(
                        "--runtime-path {path} ignored: the offline runner executes the canister itself, with no PocketIC runtime"
                    ));
                }
                "--no-runtime-integrity-check" => a.ignored.push(
                    "--no-runtime-integrity-check ignored: there is no runtime to check".into(),
                ),
                "--instruction-tracing" => a.instruction_tracing = true,
                "-h" | "--help" => return Ok(Command::Help),
                "-V" | "--version" => return Ok(Command::Version),
                s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}")),
                s if a.pattern.is_none() => a.pattern = Some(s.to_string()),
                s => return Err(format!("unexpected argument {s}\n{USAGE}")),
            }
        }
        Ok(Command::Bench(a))
    }
}

impl CompareArgs {
    fn parse(argv: &[String]) -> Result<CompareArgs, String> {
        let mut a = CompareArgs {
            files: Vec::new(),
            labels: ("A".to_string(), "B".to_string()),
            markdown: false,
            only: None,
            except: Vec::new(),
        };
        let names = |list: String| list.split(',').map(str::to_string).collect::<Vec<_>>();
        let mut args = Arguments::new(argv);
        while let Some(arg) = args.next() {
            match arg {
                "--markdown" => a.markdown = true,
                "--only" => a.only = Some(names(args.value(arg)?)),
                "--except" => a.except = names(args.value(arg)?),
                "--labels" => {
                    let labels = args.value(arg)?;
                    let (x, y) = labels.split_once(',').ok_or("--labels needs A,B")?;
                    a.labels = (x.to_string(), y.to_string());
                }
                file => a.files.push(PathBuf::from(file)),
            }
        }
        Ok(a)
    }
}

impl CallArgs {
    fn parse(argv: &[String]) -> Result<CallArgs, String> {
        let mut wasm = None;
        let mut a = CallArgs {
            wasm: PathBuf::new(),
            script: None,
            caller: ANONYMOUS.to_vec(),
            service_did: false,
            show_canister_output: false,
            instruction_limit: DEFAULT_INSTRUCTION_LIMIT,
            instruction_tracing: false,
            trace_dir: None,
        };
        let mut args = Arguments::new(argv);
        while let Some(arg) = args.next() {
            match arg {
                "--wasm" => wasm = Some(PathBuf::from(args.value(arg)?)),
                "--script" => a.script = Some(args.value(arg)?),
                "--caller" => a.caller = parse_principal_hex(&args.value(arg)?)?,
                "--service-did" => a.service_did = true,
                "--show-canister-output" => a.show_canister_output = true,
                "--instruction-limit" => a.instruction_limit = args.parsed(arg)?,
                "--instruction-tracing" => a.instruction_tracing = true,
                "--trace-dir" => a.trace_dir = Some(PathBuf::from(args.value(arg)?)),
                s => return Err(format!("unexpected argument {s}\n{USAGE}")),
            }
        }
        a.wasm = wasm.ok_or_else(|| format!("call needs --wasm FILE\n{USAGE}"))?;
        Ok(a)
    }
}

/// What `-V` prints: the canbench version whose formats the runner writes (and whose results
/// files it reads), then what it is.
pub fn version() -> String {
    format!(
        "canbench {} (offline runner, canbench_runner {})",
        crate::results_file::FORMAT_VERSION,
        env!("CARGO_PKG_VERSION")
    )
}

fn parse_principal_hex(text: &str) -> Result<Vec<u8>, String> {
    let bytes = from_hex(text).map_err(|e| format!("bad --caller: {e}"))?;
    if bytes.len() > MAX_PRINCIPAL_LEN {
        return Err(format!(
            "bad --caller: a principal has at most {MAX_PRINCIPAL_LEN} bytes"
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callers_are_principal_bytes() {
        assert_eq!(parse_principal_hex("04").unwrap(), [4]);
        assert_eq!(parse_principal_hex("").unwrap(), Vec::<u8>::new());
        assert!(parse_principal_hex(&"00".repeat(30))
            .unwrap_err()
            .contains("at most 29 bytes"));
    }
}
