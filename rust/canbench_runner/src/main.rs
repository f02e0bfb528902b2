//! `canbench`: an offline runner for canbench-rs benchmark canisters.
//!
//! It reads `canbench.yml`, builds the canister, meters every `__canbench__*` query under the
//! IC's instruction cost model (see `instrument`), and reports like upstream canbench, without
//! PocketIC. See the README section "Canister benchmarks" for usage.

mod call;
mod cost;
mod exec;
mod gate;
mod ic0;
mod instrument;
mod report;
mod result;
mod results_file;
mod session;
mod toolchain;

use results_file::{BenchResult, Results};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

const USAGE: &str = "\
usage: canbench [PATTERN] [options]
       canbench compare A.yml B.yml [--labels A,B] [--markdown]
       canbench call --wasm CANISTER.wasm [--script FILE|-] [--caller PRINCIPAL_HEX]
                     [--instruction-limit N] [--show-canister-output]
       canbench call --wasm CANISTER.wasm --service-did
           install a canister offline and send it a script of messages (init HEX,
           query METHOD HEX, update METHOD HEX; default: stdin), printing how each ended
           and its instructions; or print the interface its export_candid!() compiled in
           (see src/call.rs)

options:
  --config FILE          canbench.yml to use (default: $CANBENCH_CFG_FILE, ./canbench.yml,
                         then benches/canister/canbench.yml)
  --persist              write the results file (canbench_results.yml or results_path)
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
  --less-verbose | --hide-results | --show-summary   as in canbench";

/// Per-message instruction cap: far above any realistic benchmark (btreemap needs ~11 B), yet
/// it ends a runaway (e.g. quadratic) benchmark within a couple of minutes.
const DEFAULT_LIMIT: u64 = 100_000_000_000;

#[derive(Deserialize)]
struct InitArgs {
    hex: String,
}

#[derive(Deserialize)]
struct FileRef {
    file: String,
}

/// canbench.yml, plus our optional `compare_with` (canbench ignores unknown keys).
#[derive(Deserialize)]
struct Config {
    build_cmd: Option<String>,
    wasm_path: String,
    results_path: Option<String>,
    csv_results_path: Option<String>,
    init_args: Option<InitArgs>,
    stable_memory: Option<FileRef>,
    compare_with: Option<String>,
}

#[derive(Default)]
struct Args {
    pattern: Option<String>,
    config: Option<PathBuf>,
    persist: bool,
    csv: bool,
    markdown: Option<PathBuf>,
    base: Option<PathBuf>,
    check: bool,
    compare_with: Option<PathBuf>,
    noise: f64,
    no_build: bool,
    jobs: Option<usize>,
    show_output: bool,
    less_verbose: bool,
    hide_results: bool,
    show_summary: bool,
    limit: u64,
    profile: Option<usize>,
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let result = if argv.first().map(String::as_str) == Some("compare") {
        compare_cmd(&argv[1..])
    } else if argv.first().map(String::as_str) == Some("call") {
        call::command(&argv[1..], DEFAULT_LIMIT)
    } else {
        parse_args(&argv).and_then(run)
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}

fn absolute(p: &str) -> PathBuf {
    let p = PathBuf::from(p);
    if p.is_absolute() {
        p
    } else {
        std::env::current_dir().unwrap().join(p)
    }
}

fn parse_args(argv: &[String]) -> Result<Args, String> {
    let mut a = Args {
        noise: 2.0,
        limit: DEFAULT_LIMIT,
        ..Default::default()
    };
    let mut it = argv.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--config" => a.config = Some(absolute(&value("--config")?)),
            "--persist" => a.persist = true,
            "--csv" => a.csv = true,
            "--markdown" => a.markdown = Some(absolute(&value("--markdown")?)),
            "--base" => a.base = Some(absolute(&value("--base")?)),
            "--check" => a.check = true,
            "--compare-with" => a.compare_with = Some(absolute(&value("--compare-with")?)),
            "--noise-threshold" => {
                a.noise = value("--noise-threshold")?
                    .parse()
                    .map_err(|_| "bad --noise-threshold")?
            }
            "--no-build" => a.no_build = true,
            "--instruction-limit" => {
                a.limit = value("--instruction-limit")?
                    .parse()
                    .map_err(|_| "bad --instruction-limit")?
            }
            "--jobs" => a.jobs = Some(value("--jobs")?.parse().map_err(|_| "bad --jobs")?),
            "--show-canister-output" => a.show_output = true,
            "--profile" => {
                a.profile = Some(value("--profile")?.parse().map_err(|_| "bad --profile")?)
            }
            "--less-verbose" => a.less_verbose = true,
            "--hide-results" => a.hide_results = true,
            "--show-summary" => a.show_summary = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}")),
            s if a.pattern.is_none() => a.pattern = Some(s.to_string()),
            s => return Err(format!("unexpected argument {s}\n{USAGE}")),
        }
    }
    Ok(a)
}

fn find_config(explicit: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        return Ok(p);
    }
    if let Ok(p) = std::env::var("CANBENCH_CFG_FILE") {
        return Ok(absolute(&p));
    }
    for candidate in ["canbench.yml", "benches/canister/canbench.yml"] {
        if Path::new(candidate).exists() {
            return Ok(absolute(candidate));
        }
    }
    Err("configuration file not found: 'canbench.yml' (looked in . and benches/canister; use --config)".into())
}

fn read_wasm(path: &Path) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| {
        format!(
            "couldn't read the wasm at {}: {e}. Did the build succeed?",
            path.display()
        )
    })?;
    if path.extension().and_then(|e| e.to_str()) == Some("gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{} is not valid gzip: {e}", path.display()))?;
        Ok(out)
    } else {
        Ok(bytes)
    }
}

fn decode_hex(s: &str) -> Result<Vec<u8>, String> {
    call::from_hex(s.trim()).map_err(|e| format!("invalid init_args hex value ({e})"))
}

fn run(args: Args) -> Result<i32, String> {
    let cfg_path = find_config(args.config.clone())?;
    let text = std::fs::read_to_string(&cfg_path)
        .map_err(|e| format!("cannot read {}: {e}", cfg_path.display()))?;
    let cfg: Config =
        serde_yaml::from_str(&text).map_err(|e| format!("invalid {}: {e}", cfg_path.display()))?;
    let dir = cfg_path.parent().unwrap_or(Path::new(".")).to_path_buf();
    // canbench resolves every path in its config against the directory it runs in.
    std::env::set_current_dir(&dir).map_err(|e| format!("cannot enter {}: {e}", dir.display()))?;
    let verbose = !args.less_verbose;

    let mut env = Vec::new();
    if let (Some(cmd), false) = (&cfg.build_cmd, args.no_build) {
        env = toolchain::ensure_wasm_target(&dir)?;
        let cmd = cmd.trim();
        eprintln!("Building the canister in {}:\n  {cmd}", dir.display());
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
    let toolchain = toolchain::rustc_version(&dir, &env);

    let wasm = read_wasm(Path::new(&cfg.wasm_path))?;
    let table = cost::CostTable::ic();
    let started = Instant::now();
    let instrumented = instrument::instrument(&wasm, table, args.limit, args.profile.is_some())?;
    let init_args = match &cfg.init_args {
        Some(a) => decode_hex(&a.hex)?,
        None => Vec::new(),
    };
    let stable = match &cfg.stable_memory {
        Some(f) => exec::stable_memory_from(
            std::fs::read(&f.file)
                .map_err(|e| format!("cannot read stable memory file {}: {e}", f.file))?,
        ),
        None => Vec::new(),
    };
    let canister = exec::Canister::new(
        &instrumented,
        table,
        init_args,
        stable,
        args.show_output,
        args.limit,
    )?;
    eprintln!(
        "Instrumented {} KiB of wasm in {:.2}s",
        wasm.len() / 1024,
        started.elapsed().as_secs_f64()
    );

    let mut names = canister.benchmarks();
    names.sort();
    if let Some(p) = &args.pattern {
        names.retain(|n| n.contains(p.as_str()));
    }
    if names.is_empty() {
        return Err(
            "no benchmarks to run (no `canister_query __canbench__*` export matches)".into(),
        );
    }
    if let Some(top) = args.profile {
        let functions = instrument::function_names(&wasm)?;
        for name in &names {
            let run = canister.run(&format!("__canbench__{name}"), exec::QUERY_ARG)?;
            print!("{}", report::profile(name, &run, &functions, top));
        }
        return Ok(0);
    }
    let new = run_all(&canister, &names, args.jobs)?;

    let results_path = PathBuf::from(
        cfg.results_path
            .as_deref()
            .unwrap_or("canbench_results.yml"),
    );
    let old = Results::read(&results_path)?;
    let ansi = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    if !args.hide_results {
        for (name, r) in &new {
            println!("---------------------------------------------------\n");
            print!(
                "{}",
                report::benchmark(name, r, old.benches.get(name), args.noise, ansi)
            );
            println!();
        }
    }
    println!("---------------------------------------------------");
    if verbose || args.show_summary {
        println!();
        print!("{}", report::summary(&new, &old.benches, args.noise));
        println!("---------------------------------------------------");
    }
    if let (Some(old_tc), Some(new_tc)) = (&old.toolchain, &toolchain) {
        if old_tc != new_tc {
            println!(
                "note: {} was produced by {old_tc}; this run used {new_tc}",
                results_path.display()
            );
        }
    }
    let new = Results::new(new, toolchain);
    if args.csv {
        let path = PathBuf::from(
            cfg.csv_results_path
                .as_deref()
                .unwrap_or("canbench_results.csv"),
        );
        std::fs::write(&path, report::csv(&new.benches, &old.benches))
            .map_err(|e| e.to_string())?;
        println!("CSV results saved to {}", path.display());
    }
    let base = match &args.base {
        Some(p) => Results::read(p)?,
        None => old.clone(),
    };
    if let Some(md) = &args.markdown {
        std::fs::write(md, report::markdown(&new, &base, args.noise)).map_err(|e| e.to_string())?;
        println!("Markdown report saved to {}", md.display());
    }
    let compare_with = args
        .compare_with
        .clone()
        .or(cfg.compare_with.as_deref().map(PathBuf::from));
    if let Some(path) = compare_with {
        if path.exists() {
            let reference = Results::read(&path)?;
            println!("\nComparison with {} (A) — B is this run:", path.display());
            print!("{}", report::compare(&reference, &new, "A", "B (this run)"));
        }
    }
    let mut code = 0;
    if args.check {
        println!("\n{}", report::markdown(&new, &base, args.noise));
        match gate::gate(&new, &base, args.noise) {
            gate::Verdict::Pass => {
                println!("gate: no instruction regression above {}%", args.noise)
            }
            gate::Verdict::Skipped(why) => println!("gate: skipped: {why}"),
            gate::Verdict::Fail(list) => {
                println!("gate: FAILED, regressions above {}%:", args.noise);
                for l in list {
                    println!("  {l}");
                }
                code = 1;
            }
        }
    }
    if args.persist {
        new.write(&results_path)?;
        println!(
            "Successfully persisted results to {}",
            results_path.display()
        );
    }
    Ok(code)
}

/// Runs every benchmark in a fresh instance, `jobs` at a time, reporting progress on stderr.
fn run_all(
    canister: &exec::Canister,
    names: &[String],
    jobs: Option<usize>,
) -> Result<BTreeMap<String, BenchResult>, String> {
    let jobs = jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(2)
        })
        .clamp(1, names.len());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(BTreeMap::new());
    let errors = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(name) = names.get(i) else { break };
                let started = Instant::now();
                let outcome = run_one(canister, name);
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                let secs = started.elapsed().as_secs_f64();
                match outcome {
                    Ok(r) => {
                        eprintln!(
                            "[{n}/{}] {name}: {} instructions ({secs:.1}s)",
                            names.len(),
                            r.total.instructions
                        );
                        results.lock().unwrap().insert(name.clone(), r);
                    }
                    Err(e) => {
                        eprintln!("[{n}/{}] {name}: FAILED ({secs:.1}s)", names.len());
                        errors
                            .lock()
                            .unwrap()
                            .push(format!("benchmark `{name}`: {e}"));
                    }
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap();
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    Ok(results.into_inner().unwrap())
}

fn run_one(canister: &exec::Canister, name: &str) -> Result<BenchResult, String> {
    let method = format!("__canbench__{name}");
    match canister.query(&method, exec::QUERY_ARG)? {
        (exec::Outcome::Reply(bytes), _) => result::decode_bench_result(&bytes),
        (exec::Outcome::Reject { code, message }, _) => {
            Err(format!("rejected (code {code}): {message}"))
        }
        (exec::Outcome::Trap(message), _) => Err(message),
        (exec::Outcome::NoReply, _) => Err("the query returned without replying".into()),
    }
}

fn compare_cmd(argv: &[String]) -> Result<i32, String> {
    let mut files = Vec::new();
    let mut labels = ("A".to_string(), "B".to_string());
    let mut markdown = false;
    let mut it = argv.iter();
    while let Some(a) = it.next() {
        if a == "--markdown" {
            markdown = true;
        } else if a == "--labels" {
            let l = it.next().ok_or("--labels needs A,B")?;
            let (x, y) = l.split_once(',').ok_or("--labels needs A,B")?;
            labels = (x.to_string(), y.to_string());
        } else {
            files.push(PathBuf::from(a));
        }
    }
    let [a, b] = files.as_slice() else {
        return Err(format!("compare needs two results files\n{USAGE}"));
    };
    let (ra, rb) = (Results::read(a)?, Results::read(b)?);
    if ra.benches.is_empty() || rb.benches.is_empty() {
        return Err("a results file is missing or empty".into());
    }
    if markdown {
        print!(
            "{}",
            report::compare_markdown(&ra, &rb, &labels.0, &labels.1)
        );
    } else {
        print!("{}", report::compare(&ra, &rb, &labels.0, &labels.1));
    }
    Ok(0)
}

#[cfg(test)]
mod tests;
