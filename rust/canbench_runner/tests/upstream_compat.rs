//! The runner as upstream canbench's users meet it: the console report and summary, the
//! configuration (env_vars, stable memory, paths), the results file's version, the flags and
//! the errors. Each test runs the binary on a project built here from WAT, the way upstream's
//! own tests run canbench (`--less-verbose --show-summary`, in the project's directory).

mod common;

use common::{bench_module, wat_bytes, Bench, TempDir};
use std::path::Path;
use std::process::{Command, Output};

const SEP: &str = "---------------------------------------------------";

/// A project in a temporary directory: `canbench.yml` naming `bench.wasm`.
fn project(tag: &str, wasm: &[u8], extra_config: &str) -> TempDir {
    let dir = TempDir::new(tag);
    std::fs::write(dir.path().join("bench.wasm"), wasm).unwrap();
    std::fs::write(
        dir.path().join("canbench.yml"),
        format!("wasm_path: bench.wasm\n{extra_config}"),
    )
    .unwrap();
    dir
}

/// A results file as canbench writes it, with the totals given.
fn results_file(dir: &Path, version: &str, totals: &[(&str, u64, u64, u64)]) {
    let mut text = String::from("benches:\n");
    for (name, ins, heap, stable) in totals {
        text.push_str(&format!(
            "  {name}:\n    total:\n      calls: 1\n      instructions: {ins}\n      heap_increase: {heap}\n      stable_memory_increase: {stable}\n    scopes: {{}}\n"
        ));
    }
    text.push_str(&format!("version: {version}\n"));
    std::fs::write(dir.join("canbench_results.yml"), text).unwrap();
}

fn canbench(dir: &Path, args: &[&str]) -> Output {
    let upstream = ["--less-verbose", "--show-summary"];
    common::canbench_in(dir, &[&upstream[..], args].concat())
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// The summary block of one metric whose every benchmark is unchanged.
fn unchanged_metric(label: &str) -> String {
    format!(
        "  {label}:
    status:   No significant changes 👍
    counts:   [total 1 | regressed 0 | improved 0 | new 0 | unchanged 1]
    change:   [max 0 | p75 0 | median 0 | p25 0 | min 0]
    change %: [max 0.00% | p75 0.00% | median 0.00% | p25 0.00% | min 0.00%]
"
    )
}

#[test]
fn an_unchanged_benchmark_reads_as_upstream() {
    let dir = project("unchanged", &bench_module(&[Bench::new("steady", 312)]), "");
    results_file(dir.path(), "0.7.0", &[("steady", 312, 0, 0)]);
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let expected = format!(
        "{SEP}

Benchmark: steady
  total:
    instructions: 312 (no change)
    heap_increase: 0 pages (no change)
    stable_memory_increase: 0 pages (no change)

{SEP}

Summary:
{}
{}
{}
{SEP}
",
        unchanged_metric("instructions"),
        unchanged_metric("heap_increase"),
        unchanged_metric("stable_memory_increase")
    );
    assert_eq!(stdout(&out), expected);

    // --hide-results leaves the summary only.
    let out = canbench(dir.path(), &["--hide-results"]);
    assert!(stdout(&out).starts_with(&format!("{SEP}\n\nSummary:\n")));
}

#[test]
fn a_regression_gets_change_lines_and_the_significant_changes_table() {
    let dir = project(
        "regression",
        &bench_module(&[Bench::new("slower", 520)]),
        "",
    );
    results_file(dir.path(), "0.7.0", &[("slower", 40, 0, 0)]);
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let expected = format!(
        "{SEP}

Benchmark: slower
  total:
    instructions: 520 (regressed by 1200.00%)
    heap_increase: 0 pages (no change)
    stable_memory_increase: 0 pages (no change)

{SEP}

Summary:
  instructions:
    status:   Regressions detected 🔴
    counts:   [total 1 | regressed 1 | improved 0 | new 0 | unchanged 0]
    change:   [max +480 | p75 +480 | median +480 | p25 +480 | min +480]
    change %: [max +1200.00% | p75 +1200.00% | median +1200.00% | p25 +1200.00% | min +1200.00%]

{}
{}
{SEP}

Only significant changes:
| status | name   | calls | ins |    ins Δ% | HI |  HI Δ% | SMI |  SMI Δ% |
|--------|--------|-------|-----|-----------|----|--------|-----|---------|
|   +    | slower |       | 520 | +1200.00% |  0 |  0.00% |   0 |   0.00% |

ins = instructions, HI = heap_increase, SMI = stable_memory_increase, Δ% = percent change

{SEP}
",
        unchanged_metric("heap_increase"),
        unchanged_metric("stable_memory_increase")
    );
    assert_eq!(stdout(&out), expected);
}

#[test]
fn growth_from_zero_is_infinite() {
    let bench = Bench::new("from_zero", 450).stable(77);
    let dir = project("from-zero", &bench_module(&[bench]), "");
    results_file(dir.path(), "0.7.0", &[("from_zero", 0, 0, 0)]);
    let text = stdout(&canbench(dir.path(), &["--hide-results"]));
    assert!(
        text.contains(
            "    change:   [max +450 | p75 +450 | median +450 | p25 +450 | min +450]
    change %: [max +inf% | p75 +inf% | median +inf% | p25 +inf% | min +inf%]
"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "|   +    | from_zero |       | 450 |   +inf% |  0 |  0.00% |  77 |   +inf% |\n"
        ),
        "{text}"
    );
    let block = stdout(&canbench(dir.path(), &[]));
    assert!(
        block.contains("    instructions: 450 (regressed from 0)\n"),
        "{block}"
    );
    assert!(
        block.contains("    stable_memory_increase: 77 pages (regressed from 0)\n"),
        "{block}"
    );
}

/// Percentiles interpolate between the two ranks around them; changes are scaled (K, M) and
/// signed; the table puts the largest instruction change first, new benchmarks and scopes last.
#[test]
fn percentiles_and_table_order_follow_upstream() {
    let benches = [
        Bench::new("a", 1_100),
        Bench::new("b", 1_200),
        Bench::new("c", 1_300),
        Bench::new("d", 1_400),
        Bench::new("e", 1_000).scope("inner", 400),
        Bench::new("f", 25_000),
    ];
    let dir = project("percentiles", &bench_module(&benches), "");
    results_file(
        dir.path(),
        "0.7.0",
        &[
            ("a", 1_000, 0, 0),
            ("b", 1_000, 0, 0),
            ("c", 1_000, 0, 0),
            ("d", 1_000, 0, 0),
            ("f", 26_000, 0, 0),
        ],
    );
    let text = stdout(&canbench(dir.path(), &["--hide-results"]));
    // Five changes: +100 +200 +300 +400 -1000 (-3.85%); p75 sits on rank 3, p25 on rank 1.
    assert!(
        text.contains(
            "    counts:   [total 6 | regressed 4 | improved 1 | new 1 | unchanged 0]
    change:   [max +400 | p75 +300 | median +200 | p25 +100 | min -1.00K]
    change %: [max +40.00% | p75 +30.00% | median +20.00% | p25 +10.00% | min -3.85%]
"
        ),
        "{text}"
    );
    let table = text.split("Only significant changes:\n").nth(1).unwrap();
    let names: Vec<&str> = table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('|').nth(2).unwrap().trim())
        .collect();
    assert_eq!(names, ["d", "c", "b", "a", "f", "e", "e::inner"], "{table}");
    assert!(
        table.contains("|  new   | e::inner |     1 |    400 |"),
        "{table}"
    );
    assert!(
        table.contains("|   -    | f        |       | 25.00K |  -3.85% |"),
        "{table}"
    );
    // An even count interpolates halfway: p75 of four changes is three quarters of the way
    // from the third to the fourth... here checked on the four regressions alone.
    let dir = project("percentiles-even", &bench_module(&benches[..4]), "");
    results_file(
        dir.path(),
        "0.7.0",
        &[
            ("a", 1_000, 0, 0),
            ("b", 1_000, 0, 0),
            ("c", 1_000, 0, 0),
            ("d", 1_000, 0, 0),
        ],
    );
    let text = stdout(&canbench(dir.path(), &["--hide-results"]));
    assert!(
        text.contains("    change:   [max +400 | p75 +325 | median +250 | p25 +175 | min +100]\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "    change %: [max +40.00% | p75 +32.50% | median +25.00% | p25 +17.50% | min +10.00%]\n"
        ),
        "{text}"
    );
}

#[test]
fn new_benchmarks_have_no_change_to_show() {
    let dir = project(
        "new",
        &bench_module(&[Bench::new("fresh", 3_834).scope("s", 970)]),
        "",
    );
    let text = stdout(&canbench(dir.path(), &[]));
    assert!(text.contains("Benchmark: fresh (new)\n  total:\n    instructions: 3834 (new)\n"));
    assert!(text.contains("    status:   New benchmarks added ➕\n    counts:   [total 1 | regressed 0 | improved 0 | new 1 | unchanged 0]\n    change:   n/a\n    change %: n/a\n"), "{text}");
    assert!(
        text.contains(
            "|  new   | fresh    |       | 3.83K |         |  0 |        |   0 |         |\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "|  new   | fresh::s |     1 |   970 |         |  0 |        |   0 |         |\n"
        ),
        "{text}"
    );
}

#[test]
fn a_results_file_from_a_newer_canbench_is_refused() {
    let dir = project("newer", &bench_module(&[Bench::new("x", 1)]), "");
    results_file(dir.path(), "99.0.0", &[("x", 1, 0, 0)]);
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(
        "canbench is at version 0.7.0 while the results were generated with version 99.0.0. Please upgrade canbench.\n"
    ), "{out:?}");
    // Older and equal versions are read.
    results_file(dir.path(), "0.1.1", &[("x", 1, 0, 0)]);
    assert_eq!(canbench(dir.path(), &[]).status.code(), Some(0));
}

#[test]
fn errors_exit_1_in_upstream_words() {
    let empty = TempDir::new("no-config");
    let out = canbench(empty.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("configuration file not found: 'canbench.yml'\n"),
        "{out:?}"
    );

    std::fs::write(
        empty.path().join("canbench.yml"),
        "wasm_path:\n  ./wasm.wasm",
    )
    .unwrap();
    let out = canbench(empty.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("Couldn't read file at ./wasm.wasm. Are you sure the file exists?\n"),
        "{out:?}"
    );

    let dir = project(
        "bad-stable",
        &bench_module(&[Bench::new("x", 1)]),
        "stable_memory:\n  file: missing.bin\n",
    );
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    // On a line of its own (upstream's tests find it after a newline: the build's output).
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "Error reading stable memory file missing.bin\nError: No such file or directory"
        ),
        "{err}"
    );

    // A usage error exits 2, as clap makes upstream's canbench exit.
    let out = canbench(dir.path(), &["--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: unexpected argument '--bogus' found"));
}

/// A benchmark that fails is reported after every other benchmark's result, in upstream's
/// words with the replica's error code; nothing is persisted.
#[test]
fn a_failing_benchmark_does_not_hide_the_others() {
    let fine = Bench::new("fine", 10);
    let mut wasm_text = String::from_utf8(wasmprinter_free(&[fine])).unwrap();
    // One benchmark that returns without replying, one that traps.
    wasm_text = wasm_text.replacen(
        "(memory",
        "(import \"ic0\" \"trap\" (func $trap (param i32 i32)))\n  (memory",
        1,
    );
    wasm_text.pop(); // the module's closing parenthesis
    wasm_text.push_str(
        "  (func (export \"canister_query __canbench__silent\"))
  (func (export \"canister_query __canbench__boom\") (call $trap (i32.const 0) (i32.const 4))))",
    );
    let dir = project("failing", &wat::parse_str(&wasm_text).unwrap(), "");
    let out = canbench(dir.path(), &["--persist"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("Benchmark: fine (new)\n"), "{text}");
    assert!(!text.contains("persisted"), "{text}");
    assert!(!dir.path().join("canbench_results.yml").exists());
    let err = stderr(&out);
    assert!(
        err.contains("Error executing benchmark silent. Error:\nIC0506: Canister lxzze-o7777-77777-aaaaa-cai did not produce a response\n"),
        "{err}"
    );
    assert!(
        err.contains("Error executing benchmark boom. Error:\nIC0503: Canister lxzze-o7777-77777-aaaaa-cai trapped: "),
        "{err}"
    );
}

/// The WAT of [`bench_module`]'s canister (it is generated as text first).
fn wasmprinter_free(benches: &[Bench]) -> Vec<u8> {
    common::bench_module_wat(benches).into_bytes()
}

/// A module whose `canister_init` (if `init` is given) and benchmark `check` run `init` and
/// `check`, replying with a fixed result when `check` does not trap.
fn checking_module(imports: &str, data: &str, init: &str, check: &str) -> Vec<u8> {
    let reply = common::encoded(&Bench::new("check", 1));
    let n = reply.len();
    let wat = format!(
        r#"(module
  (import "ic0" "msg_reply_data_append" (func $append (param i32 i32)))
  (import "ic0" "msg_reply" (func $reply))
  (import "ic0" "trap" (func $trap (param i32 i32)))
  {imports}
  (memory (export "memory") 1)
  (data (i32.const 0) "{reply}")
  (data (i32.const 1000) "check failed")
  {data}
  (func $fail (call $trap (i32.const 1000) (i32.const 12)))
  ;; Traps unless the n bytes at a and b are equal.
  (func $same (param $a i32) (param $b i32) (param $n i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $n)))
        (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b)))
          (then (call $fail)))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $next))))
  (func (export "canister_init") {init})
  (func (export "canister_query __canbench__check")
    {check}
    (call $append (i32.const 0) (i32.const {n}))
    (call $reply)))"#,
        reply = wat_bytes(&reply)
    );
    wat::parse_str(&wat).unwrap()
}

/// `env_vars` gives the canister its environment variables, read in `canister_init` as the
/// replica's API offers them (by index in name order, and by name).
#[test]
fn env_vars_reach_the_canister() {
    let wasm = checking_module(
        r#"(import "ic0" "env_var_count" (func $count (result i32)))
  (import "ic0" "env_var_name_size" (func $name_size (param i32) (result i32)))
  (import "ic0" "env_var_name_copy" (func $name_copy (param i32 i32 i32 i32)))
  (import "ic0" "env_var_name_exists" (func $exists (param i32 i32) (result i32)))
  (import "ic0" "env_var_value_size" (func $value_size (param i32 i32) (result i32)))
  (import "ic0" "env_var_value_copy" (func $value_copy (param i32 i32 i32 i32 i32)))"#,
        r#"(data (i32.const 2000) "alpha")
  (data (i32.const 2100) "value with spaces")
  (data (i32.const 2200) "zeta")"#,
        // Three variables; the first by name is "alpha"; alpha's value is trimmed; no "zeta".
        r#"(if (i32.ne (call $count) (i32.const 3)) (then (call $fail)))
    (if (i32.ne (call $name_size (i32.const 0)) (i32.const 5)) (then (call $fail)))
    (call $name_copy (i32.const 0) (i32.const 3000) (i32.const 0) (i32.const 5))
    (call $same (i32.const 3000) (i32.const 2000) (i32.const 5))
    (if (i32.ne (call $value_size (i32.const 2000) (i32.const 5)) (i32.const 17)) (then (call $fail)))
    (call $value_copy (i32.const 2000) (i32.const 5) (i32.const 3100) (i32.const 0) (i32.const 17))
    (call $same (i32.const 3100) (i32.const 2100) (i32.const 17))
    (if (call $exists (i32.const 2200) (i32.const 4)) (then (call $fail)))
    (i32.store8 (i32.const 4000) (i32.const 1))"#,
        // init ran and checked.
        r#"(if (i32.eqz (i32.load8_u (i32.const 4000))) (then (call $fail)))"#,
    );
    let dir = project("env", &wasm, "env_vars:\n  file: vars.csv\n");
    std::fs::write(
        dir.path().join("vars.csv"),
        "omega,last\nalpha , value with spaces\nmid,1,2",
    )
    .unwrap();
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");

    std::fs::write(dir.path().join("vars.csv"), "alpha,1\nname\n").unwrap();
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("Invalid line in environment variables file vars.csv: 'name'"),
        "{out:?}"
    );
    std::fs::remove_file(dir.path().join("vars.csv")).unwrap();
    let out = canbench(dir.path(), &[]);
    assert!(
        stderr(&out).contains(
            "Error reading environment variables file vars.csv\nError: No such file or directory"
        ),
        "{out:?}"
    );
}

/// The stable memory file is loaded after `canister_init`, replacing what init wrote, as
/// upstream installs the code and then sets the stable memory.
#[test]
fn stable_memory_is_loaded_after_init() {
    let wasm = checking_module(
        r#"(import "ic0" "stable64_grow" (func $grow (param i64) (result i64)))
  (import "ic0" "stable64_write" (func $write (param i64 i64 i64)))
  (import "ic0" "stable64_read" (func $read (param i64 i64 i64)))
  (import "ic0" "stable64_size" (func $size (result i64)))"#,
        r#"(data (i32.const 2000) "from init")
  (data (i32.const 2100) "ABCDE\00\00\00\00")"#,
        // init grows stable memory to 3 pages and writes over the file's first bytes.
        r#"(drop (call $grow (i64.const 3)))
    (call $write (i64.const 0) (i64.const 2000) (i64.const 9))"#,
        // The file's one page, its bytes, zeros after them.
        r#"(if (i64.ne (call $size) (i64.const 1)) (then (call $fail)))
    (call $read (i64.const 3000) (i64.const 0) (i64.const 9))
    (call $same (i32.const 3000) (i32.const 2100) (i32.const 9))"#,
    );
    let dir = project("stable", &wasm, "stable_memory:\n  file: memory.bin\n");
    std::fs::write(dir.path().join("memory.bin"), b"ABCDE").unwrap();
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// `$CANBENCH_CFG_FILE` paths are relative to the current directory (upstream never changes
/// directory); `--config` paths are relative to the configuration's directory.
#[test]
fn a_configuration_in_a_subdirectory() {
    let dir = TempDir::new("subdir");
    let sub = dir.path().join("bench");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        sub.join("canister.wasm"),
        bench_module(&[Bench::new("x", 5)]),
    )
    .unwrap();

    std::fs::write(
        sub.join("canbench.yml"),
        "wasm_path: bench/canister.wasm\nresults_path: bench/results.yml\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_canbench"))
        .arg("--persist")
        .current_dir(dir.path())
        .env("CANBENCH_CFG_FILE", "bench/canbench.yml")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(sub.join("results.yml").exists());

    std::fs::write(
        sub.join("canbench.yml"),
        "build_cmd: cp canister.wasm built.wasm\nwasm_path: built.wasm\n",
    )
    .unwrap();
    let out = canbench(dir.path(), &["--config", "bench/canbench.yml", "--persist"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(sub.join("canbench_results.yml").exists());

    let out = Command::new(env!("CARGO_BIN_EXE_canbench"))
        .current_dir(dir.path())
        .env("CANBENCH_CFG_FILE", "elsewhere.yml")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("configuration file not found: 'elsewhere.yml'\n"));
}

#[test]
fn upstream_flags_are_accepted_and_say_what_is_ignored() {
    let dir = project("flags", &bench_module(&[Bench::new("x", 5)]), "");
    let out = canbench(
        dir.path(),
        &[
            "--runtime-path=/opt/pocket-ic",
            "--no-runtime-integrity-check",
            "--instruction-tracing",
            "--noise-threshold=5",
            "x",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = stderr(&out);
    assert!(
        err.contains("note: --runtime-path /opt/pocket-ic ignored: "),
        "{err}"
    );
    assert!(
        err.contains("note: --no-runtime-integrity-check ignored: "),
        "{err}"
    );
    // `--instruction-tracing` writes the benchmark's flame chart next to the results file,
    // and says so in the benchmark's block, as upstream does (tests/flame_graphs.rs checks
    // the files).
    assert!(
        stdout(&out).contains("Instruction traces written to x.svg\n"),
        "{out:?}"
    );
    assert!(dir.path().join("x.svg").exists());

    for flag in ["-V", "--version"] {
        let out = canbench(dir.path(), &[flag]);
        assert_eq!(out.status.code(), Some(0));
        assert!(stdout(&out).starts_with("canbench 0.7.0 "), "{out:?}");
    }
    let out = canbench(dir.path(), &["--persist=yes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: unexpected value 'yes' for '--persist' found"));
}

/// A change below the noise threshold is noise; `--noise-threshold` moves the line.
#[test]
fn the_noise_threshold_decides_what_is_a_change() {
    let dir = project("noise", &bench_module(&[Bench::new("n", 1_040)]), "");
    results_file(dir.path(), "0.7.0", &[("n", 1_000, 0, 0)]);
    let text = stdout(&canbench(dir.path(), &[]));
    assert!(
        text.contains("    instructions: 1040 (regressed by 4.00%)\n"),
        "{text}"
    );
    let text = stdout(&canbench(dir.path(), &["--noise-threshold", "5"]));
    assert!(
        text.contains("    instructions: 1040 (4.00%) (change within noise threshold)\n"),
        "{text}"
    );
    assert!(
        text.contains("    status:   No significant changes 👍\n"),
        "{text}"
    );
    assert!(!text.contains("Only significant changes"), "{text}");
}

/// `init_args` reach `canister_init`; `--show-canister-output` shows what the canister
/// printed (on stderr, as upstream).
#[test]
fn init_args_and_canister_output() {
    let wasm = checking_module(
        r#"(import "ic0" "msg_arg_data_size" (func $arg_size (result i32)))
  (import "ic0" "msg_arg_data_copy" (func $arg_copy (param i32 i32 i32)))
  (import "ic0" "debug_print" (func $print (param i32 i32)))"#,
        r#"(data (i32.const 2000) "DIDL\00\01\71\02hi")
  (data (i32.const 2100) "Hello from init")"#,
        r#"(if (i32.ne (call $arg_size) (i32.const 10)) (then (call $fail)))
    (call $arg_copy (i32.const 3000) (i32.const 0) (i32.const 10))
    (call $same (i32.const 3000) (i32.const 2000) (i32.const 10))
    (call $print (i32.const 2100) (i32.const 15))
    (i32.store8 (i32.const 4000) (i32.const 1))"#,
        r#"(if (i32.eqz (i32.load8_u (i32.const 4000))) (then (call $fail)))"#,
    );
    let dir = project("init", &wasm, "init_args:\n  hex: 4449444c0001710268 69\n");
    // Hex with a space is not hex: the error names the setting.
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("invalid init_args hex value"),
        "{out:?}"
    );
    std::fs::write(
        dir.path().join("canbench.yml"),
        "wasm_path: bench.wasm\ninit_args:\n  hex: 4449444c000171026869\n",
    )
    .unwrap();
    let out = canbench(dir.path(), &["--show-canister-output"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stderr(&out).contains("Hello from init"), "{out:?}");
    let out = canbench(dir.path(), &[]);
    assert!(!stderr(&out).contains("Hello from init"), "{out:?}");
}

/// A gzipped module is read; `--csv` writes canbench's CSV next to the results.
#[test]
fn gzipped_wasm_and_csv() {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&bench_module(&[Bench::new("zipped", 77)]))
        .unwrap();
    let dir = TempDir::new("gzip");
    std::fs::write(dir.path().join("bench.wasm.gz"), gz.finish().unwrap()).unwrap();
    std::fs::write(
        dir.path().join("canbench.yml"),
        "wasm_path: bench.wasm.gz\n",
    )
    .unwrap();
    let out = canbench(dir.path(), &["--csv"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        stdout(&out).contains("Benchmark: zipped (new)\n  total:\n    instructions: 77 (new)\n")
    );
    let csv = std::fs::read_to_string(dir.path().join("canbench_results.csv")).unwrap();
    assert!(csv.starts_with("status,name,scope_calls,"), "{csv}");
    assert!(csv.contains("\nnew,zipped,,,,77,,,0,,,0,,\n"), "{csv}");
}

/// Upstream's runtime flags change nothing here; the run goes on to the real error.
#[test]
fn runtime_flags_then_a_missing_wasm() {
    let dir = TempDir::new("runtime-flags");
    std::fs::write(dir.path().join("canbench.yml"), "wasm_path:\n  ./wasm.wasm").unwrap();
    let out = canbench(
        dir.path(),
        &[
            "--runtime-path",
            "/nonexistent/pocket-ic",
            "--no-runtime-integrity-check",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("Couldn't read file at ./wasm.wasm. Are you sure the file exists?"),
        "{out:?}"
    );
}

/// The offsets of two placeholder values in a benchmark's encoded reply.
fn placeholders(reply: &[u8], values: [u64; 2]) -> [usize; 2] {
    values.map(|v| {
        reply
            .windows(8)
            .position(|w| w == v.to_le_bytes())
            .expect("placeholder in the reply")
    })
}

/// A scope measured as canbench-rs 0.7 measures it: `BenchScope::new` reads `memory.size`,
/// `ic0.stable64_size`, then the performance counter; its `Drop` reads `ic0.stable64_size`,
/// `memory.size`, then the counter. With Wasm-native stable memory (what PocketIC runs) the
/// replica answers `stable64_size` from code it injects after metering, so only the call
/// operator is charged, inside the block: the scope costs the closing counter reading (200)
/// and what ran inside (`$work`: entry 1, four one-cost operators), and the benchmark its three
/// readings and `$work`. Charging `stable64_size` the plain system API overhead (20) made each
/// scope 20 and each opened scope 40 more than upstream.
#[test]
fn scope_readings_are_charged_as_on_the_replica() {
    let (total, scope) = (0x1111_2222_3333_4444u64, 0x5555_6666_7777_8888u64);
    let reply = common::encoded(&Bench::new("scoped", total).scope("s", scope));
    let [total_at, scope_at] = placeholders(&reply, [total, scope]);
    let wat = format!(
        r#"(module
  (import "ic0" "msg_reply_data_append" (func $append (param i32 i32)))
  (import "ic0" "msg_reply" (func $reply))
  (import "ic0" "performance_counter" (func $perf (param i32) (result i64)))
  (import "ic0" "stable64_size" (func $size (result i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "{data}")
  (global $start (mut i64) (i64.const 0))
  (global $open (mut i64) (i64.const 0))
  (func $work (drop (i32.add (i32.const 1) (i32.const 2))))
  (func (export "canister_query __canbench__scoped")
    (global.set $start (call $perf (i32.const 0)))
    (drop (memory.size))
    (drop (call $size))
    (global.set $open (call $perf (i32.const 0)))
    (call $work)
    (drop (call $size))
    (drop (memory.size))
    (i64.store (i32.const {scope_at}) (i64.sub (call $perf (i32.const 0)) (global.get $open)))
    (i64.store (i32.const {total_at}) (i64.sub (call $perf (i32.const 0)) (global.get $start)))
    (call $append (i32.const 0) (i32.const {len}))
    (call $reply)))"#,
        data = wat_bytes(&reply),
        len = reply.len(),
    );
    let dir = project("scope-cost", &wat::parse_str(wat).unwrap(), "");
    let out = canbench(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("  total:\n    instructions: 605 (new)\n"),
        "{text}"
    );
    assert!(
        text.contains("  s (scope):\n    calls: 1 (new)\n    instructions: 205 (new)\n"),
        "{text}"
    );
}
