//! The command line: one struct per subcommand (the benchmark run, `compare`, `call`), what
//! `parse` (clap's derive API) reads them from, and the exit statuses the commands end with.

mod parse;

use crate::hex::from_hex;
use crate::ic0::MAX_PRINCIPAL_LEN;
use std::path::PathBuf;

/// Per-message instruction cap: far above any realistic benchmark (btreemap needs ~11 B), yet
/// it ends a runaway (e.g. quadratic) benchmark within a couple of minutes.
pub const DEFAULT_INSTRUCTION_LIMIT: u64 = 100_000_000_000;

/// Percent below which a change counts as noise, unless `--noise-threshold` says otherwise.
pub const DEFAULT_NOISE_THRESHOLD: f64 = 2.0;

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

/// The exit status of a command that could not run (bad configuration or module) or whose
/// benchmarks failed: 1, as upstream canbench exits on those errors.
pub const ERROR_STATUS: i32 = 1;

/// The exit status of a command line that does not parse: 2, clap's, with which upstream
/// canbench (`Args::parse`) exits on a usage error.
pub const USAGE_STATUS: i32 = 2;

/// What the command line asks for.
pub enum Command {
    Bench(BenchArgs),
    Compare(CompareArgs),
    Call(CallArgs),
    /// `-h`, `--help`, or a subcommand's: print this text.
    Help(String),
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
}

/// Reads the command line (without the program name). A bad command line is an error whose
/// text is clap's (what is wrong, a suggestion for a mistyped option, the usage line).
pub fn parse(argv: &[String]) -> Result<Command, String> {
    let args = std::iter::once("canbench".to_string()).chain(argv.iter().cloned());
    let cli = match <parse::Cli as clap::Parser>::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp
                | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    Ok(Command::Help(e.render().to_string()))
                }
                _ => Err(e.render().to_string().trim_end().to_string()),
            }
        }
    };
    cli.into_command()
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

pub fn parse_principal_hex(text: &str) -> Result<Vec<u8>, String> {
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
