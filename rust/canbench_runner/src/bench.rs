//! The benchmark run, `canbench [PATTERN] [options]`, one step per function: read the
//! configuration, build the canister, instrument it, pick and measure the benchmarks, report,
//! write the requested files, gate, persist.

use crate::cli::{BenchArgs, Status};
use crate::config::{read_wasm, Config, Project};
use crate::cost::CostTable;
use crate::exec::{Canister, Outcome, QUERY_ARG};
use crate::gate::{gate, Verdict};
use crate::instrument::{counter_names, function_names, instrument, Profile};
use crate::results_file::{BenchResult, Results};
use crate::{ic0, report, result, toolchain};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The prefix of the query export canbench-rs gives each benchmark.
const BENCH_EXPORT_PREFIX: &str = "__canbench__";

/// Runs the benchmarks as `args` asks. A benchmark that fails does not stop the others: every
/// result is reported, then the failures, and the run ends in an error.
pub fn run(args: &BenchArgs) -> Result<Status, String> {
    for note in &args.ignored {
        eprintln!("note: {note}");
    }
    let project = Project::enter(args.config.clone())?;
    let results_path = project.config.results_path();
    // Read before building, as upstream does: a results file from a newer canbench stops the
    // run before any work.
    let old = Results::read(&results_path)?;
    let base = match &args.base {
        Some(p) => Some(Results::read(p)?),
        None => None,
    };
    let toolchain = build_canister(&project, args.no_build)?;
    let wasm = read_wasm(Path::new(&project.config.wasm_path))?;
    let canister = load_canister(&project.config, &wasm, args)?;
    let names = select_benchmarks(&canister, args.pattern.as_deref())?;
    if let Some(top) = args.profile_top {
        let counters = counter_names(&wasm, CostTable::ic(), args.profile())?;
        return profile_benchmarks(&canister, &counters, &names, top);
    }
    let Measured { results, failures } = measure_all(&canister, &names, args.jobs);
    let traces = if args.instruction_tracing {
        let dir = results_path.parent().unwrap_or(Path::new("."));
        trace_benchmarks(&project.config, &wasm, args, &results, dir)?
    } else {
        BTreeMap::new()
    };

    print_report(&results, &old, &traces, args);
    note_toolchain_change(&old, toolchain.as_deref(), &results_path);
    let new = Results::new(results, toolchain);
    if args.csv {
        write_csv(&new, &old, &project.config.csv_results_path())?;
    }
    let base = base.unwrap_or(old);
    let verdict = args.check.then(|| gate(&new, &base, args.noise_threshold));
    if let Some(path) = &args.markdown {
        let text = comment(
            &new,
            &base,
            args.noise_threshold,
            verdict.as_ref(),
            &failures,
        );
        write_markdown(&text, path)?;
    }
    print_comparison(&new, &project.config, args)?;
    let status = match &verdict {
        Some(v) => print_verdict(&new, &base, args.noise_threshold, v),
        None => Status::Success,
    };
    if !failures.is_empty() {
        // Nothing is persisted: a results file without the failed benchmarks would read as
        // their removal.
        return Err(failures.join("\n"));
    }
    if args.persist {
        new.write(&results_path)?;
        println!(
            "Successfully persisted results to {}",
            results_path.display()
        );
    }
    if let Some(path) = &args.results_out {
        new.write(path)?;
        println!("Results written to {}", path.display());
    }
    Ok(status)
}

/// Runs the configuration's `build_cmd` (unless `--no-build`), with a compiler that has the
/// wasm target. Returns the compiler's version, which the results file records.
fn build_canister(project: &Project, no_build: bool) -> Result<Option<String>, String> {
    let mut env = Vec::new();
    if let (Some(cmd), false) = (&project.config.build_cmd, no_build) {
        let cmd = cmd.trim();
        // Only a command that compiles for the wasm target needs it (a project may copy or
        // download a prebuilt module instead).
        if cmd.contains(toolchain::TARGET) {
            env = toolchain::ensure_wasm_target(&project.dir)?;
        }
        eprintln!(
            "Building the canister in {}:\n  {cmd}",
            project.dir.display()
        );
        let started = Instant::now();
        let mut command = Command::new("bash");
        command.arg("-c").arg(cmd);
        for (k, v) in &env {
            command.env(k, v);
        }
        let status = command
            .status()
            .map_err(|e| format!("cannot run the build command: {e}"))?;
        if !status.success() {
            return Err(format!("the build command failed ({status})"));
        }
        eprintln!("Built in {:.1}s", started.elapsed().as_secs_f64());
    }
    Ok(toolchain::rustc_version(&project.dir, &env))
}

/// Instruments the module and compiles it, with the init arguments and stable memory the
/// configuration gives.
fn load_canister(config: &Config, wasm: &[u8], args: &BenchArgs) -> Result<Canister, String> {
    let table = CostTable::ic();
    let started = Instant::now();
    let limit = args.instruction_limit;
    let instrumented = instrument(wasm, table, limit, args.profile())?;
    let init_args = config.init_args()?;
    let stable_memory = config.stable_memory()?;
    let canister = Canister::new(
        &instrumented,
        table,
        init_args,
        stable_memory,
        args.show_canister_output,
        limit,
    )?
    .with_env_vars(config.env_vars()?);
    eprintln!(
        "Instrumented {} KiB of wasm in {:.2}s",
        wasm.len() / 1024,
        started.elapsed().as_secs_f64()
    );
    Ok(canister)
}

/// The benchmarks whose name contains `pattern` (all without one), sorted by name.
fn select_benchmarks(canister: &Canister, pattern: Option<&str>) -> Result<Vec<String>, String> {
    let mut names = canister.benchmarks();
    names.sort();
    if let Some(p) = pattern {
        names.retain(|n| n.contains(p));
    }
    if names.is_empty() {
        return Err(
            "no benchmarks to run (no `canister_query __canbench__*` export matches)".into(),
        );
    }
    Ok(names)
}

/// `--profile N` (`--profile-blocks N`): each benchmark's `top` most expensive functions
/// (basic blocks), named by `counters`, instead of the report.
fn profile_benchmarks(
    canister: &Canister,
    counters: &[String],
    names: &[String],
    top: usize,
) -> Result<Status, String> {
    for name in names {
        let run = canister.install_and_query(&format!("{BENCH_EXPORT_PREFIX}{name}"), QUERY_ARG)?;
        print!("{}", report::profile(name, &run, counters, top));
    }
    Ok(Status::Success)
}

/// `--instruction-tracing`: runs each measured benchmark again in a tracing build and writes
/// its flame graphs into `dir` (see `flame`). Returns, per benchmark, the lines that say which
/// files were written (upstream's words), for the report.
fn trace_benchmarks(
    config: &Config,
    wasm: &[u8],
    args: &BenchArgs,
    results: &BTreeMap<String, BenchResult>,
    dir: &Path,
) -> Result<BTreeMap<String, Vec<String>>, String> {
    let table = CostTable::ic();
    let traced = instrument(wasm, table, args.instruction_limit, Profile::Trace)?;
    let canister = Canister::new(
        &traced,
        table,
        config.init_args()?,
        config.stable_memory()?,
        false,
        args.instruction_limit,
    )?
    .with_env_vars(config.env_vars()?);
    let names = function_names(wasm)?;
    let mut lines = BTreeMap::new();
    for (name, result) in results {
        let method = format!("{BENCH_EXPORT_PREFIX}{name}");
        // Calls under 1/20,000 of the benchmark (0.06 pixel of a 1,200-pixel chart) collapse.
        let resolution = result.total.instructions / 20_000;
        let run = canister.install_and_query_traced(&method, QUERY_ARG, resolution)?;
        let rec = run
            .trace
            .ok_or("internal error: the tracing build recorded nothing")?;
        // Folding walks the call tree recursively: as deep as the canister recursed.
        let written = crate::exec::on_big_stack("flame graphs", || {
            crate::flame::write_bench_graphs(&rec, &names, name, result, run.instructions, dir)
        })??;
        lines.insert(
            name.clone(),
            written
                .iter()
                .map(|p| format!("Instruction traces written to {}", p.display()))
                .collect(),
        );
    }
    Ok(lines)
}

/// What measuring the benchmarks gave: each one's result, or why it failed.
pub struct Measured {
    pub results: BTreeMap<String, BenchResult>,
    /// `Error executing benchmark NAME. Error:` and why on the next line (upstream's words), in
    /// the order the failures happened.
    pub failures: Vec<String>,
}

impl Measured {
    /// The results, or every failure, one per line.
    #[cfg(test)]
    pub fn into_result(self) -> Result<BTreeMap<String, BenchResult>, String> {
        if self.failures.is_empty() {
            Ok(self.results)
        } else {
            Err(self.failures.join("\n"))
        }
    }
}

/// Measures every benchmark, each in a fresh instance, `jobs` at a time (default: up to 2),
/// reporting progress on stderr.
pub fn measure_all(canister: &Canister, names: &[String], jobs: Option<usize>) -> Measured {
    let jobs = jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(2)
        })
        .clamp(1, names.len().max(1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(BTreeMap::new());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(name) = names.get(i) else { break };
                let started = Instant::now();
                let outcome = measure(canister, name);
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                let secs = started.elapsed().as_secs_f64();
                match outcome {
                    Ok(r) => {
                        eprintln!(
                            "[{n}/{}] {name}: {} instructions ({secs:.1}s)",
                            names.len(),
                            r.total.instructions
                        );
                        lock(&results).insert(name.clone(), r);
                    }
                    Err(e) => {
                        eprintln!("[{n}/{}] {name}: FAILED ({secs:.1}s)", names.len());
                        lock(&failures)
                            .push(format!("Error executing benchmark {name}. Error:\n{e}"));
                    }
                }
            });
        }
    });
    Measured {
        results: results.into_inner().unwrap_or_else(|e| e.into_inner()),
        failures: failures.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

/// The data behind `m`, even if a thread panicked while holding it (each insertion is whole).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Measures one benchmark: installs the canister and decodes the `BenchResult` its
/// benchmark query replies with.
pub fn measure(canister: &Canister, name: &str) -> Result<BenchResult, String> {
    let method = format!("{BENCH_EXPORT_PREFIX}{name}");
    match canister.install_and_run_query(&method, QUERY_ARG)?.outcome {
        Outcome::Reply(bytes) => result::decode_bench_result(&bytes),
        Outcome::Reject { code, message } => Err(format!(
            "IC0406: Canister {} rejected the message (reject code {code}): {message}",
            ic0::CANISTER_ID_TEXT
        )),
        Outcome::Trap(message) => Err(format!(
            "IC0503: Canister {} trapped: {message}",
            ic0::CANISTER_ID_TEXT
        )),
        Outcome::NoReply => Err(format!(
            "IC0506: Canister {} did not produce a response",
            ic0::CANISTER_ID_TEXT
        )),
    }
}

/// canbench's console report: each benchmark against the results file (and, as upstream
/// prints it, where its flame graphs went), then the summary.
fn print_report(
    new: &BTreeMap<String, BenchResult>,
    old: &Results,
    traces: &BTreeMap<String, Vec<String>>,
    args: &BenchArgs,
) {
    let ansi = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let noise = args.noise_threshold;
    if !args.hide_results {
        for (name, r) in new {
            println!("---------------------------------------------------\n");
            print!(
                "{}",
                report::benchmark(name, r, old.benches.get(name), noise, ansi)
            );
            for line in traces.get(name).into_iter().flatten() {
                println!("{line}");
            }
            println!();
        }
    } else {
        for line in traces.values().flatten() {
            println!("{line}");
        }
    }
    println!("---------------------------------------------------");
    if !args.less_verbose || args.show_summary {
        println!();
        print!("{}", report::summary(new, &old.benches, noise));
        println!("\n---------------------------------------------------");
        if let Some(table) = report::significant_changes(new, &old.benches, noise) {
            println!("\nOnly significant changes:\n{table}");
            println!("---------------------------------------------------");
        }
    }
}

/// Says so when the results file was produced by another compiler than this run's.
fn note_toolchain_change(old: &Results, toolchain: Option<&str>, results_path: &Path) {
    if let (Some(old_tc), Some(new_tc)) = (old.toolchain.as_deref(), toolchain) {
        if old_tc != new_tc {
            println!(
                "note: {} was produced by {old_tc}; this run used {new_tc}",
                results_path.display()
            );
        }
    }
}

/// `--csv`: canbench's CSV report against the results file.
fn write_csv(new: &Results, old: &Results, path: &Path) -> Result<(), String> {
    std::fs::write(path, report::csv(&new.benches, &old.benches)).map_err(|e| e.to_string())?;
    println!("CSV results saved to {}", path.display());
    Ok(())
}

/// The `--markdown` file: the table against `base`, then the gate's verdict (with `--check`)
/// and the benchmarks that failed, so a PR comment says everything the run found.
fn comment(
    new: &Results,
    base: &Results,
    noise: f64,
    verdict: Option<&Verdict>,
    failures: &[String],
) -> String {
    let mut text = report::markdown(new, base, noise);
    if let Some(v) = verdict {
        text.push('\n');
        text.push_str(&report::verdict_markdown(v, noise));
    }
    if !failures.is_empty() {
        text.push_str("\n**Failed benchmarks** (not in the table):\n\n```\n");
        for f in failures {
            text.push_str(f);
            text.push('\n');
        }
        text.push_str("```\n");
    }
    text
}

/// `--markdown FILE`.
fn write_markdown(text: &str, path: &Path) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("Markdown report saved to {}", path.display());
    Ok(())
}

/// The side-by-side table against `--compare-with` (or the configuration's `compare_with`),
/// when that file exists.
fn print_comparison(new: &Results, config: &Config, args: &BenchArgs) -> Result<(), String> {
    let compare_with = args
        .compare_with
        .clone()
        .or(config.compare_with.as_deref().map(PathBuf::from));
    if let Some(path) = compare_with {
        if path.exists() {
            let reference = Results::read(&path)?;
            println!("\nComparison with {} (A) — B is this run:", path.display());
            print!("{}", report::compare(&reference, new, "A", "B (this run)"));
        }
    }
    Ok(())
}

/// `--check`: prints the markdown diff and the gate's verdict; a regression fails the run.
fn print_verdict(new: &Results, base: &Results, threshold: f64, verdict: &Verdict) -> Status {
    println!("\n{}", report::markdown(new, base, threshold));
    match verdict {
        Verdict::Pass => {
            println!("gate: no instruction regression above {threshold}%");
            Status::Success
        }
        Verdict::Skipped(why) => {
            println!("gate: skipped: {why}");
            Status::Success
        }
        Verdict::Fail(list) => {
            println!("gate: FAILED, regressions above {threshold}%:");
            for l in list {
                println!("  {l}");
            }
            Status::Failed
        }
    }
}
