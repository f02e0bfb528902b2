//! `--instruction-tracing`: the flame graphs of a benchmark and of a message. The canister,
//! written in WAT, measures itself as canbench-rs does (the performance counter before and
//! after the benchmarked code, the difference in its reply) and opens one scope the way
//! canbench-rs does (a counter reading in `BenchScope::new`, one in its `Drop`), so every
//! count below is known: `$heavy` is one function entry and 100 loop iterations of 9.

mod common;

use common::{encoded, wat_bytes, Bench, TempDir};
use quick_xml::events::Event;
use std::path::Path;
use std::process::Output;

/// The instructions of one call of `$heavy`: entry 1, then 100 × (7 one-cost operators and
/// `br_if`, 2).
const HEAVY: u64 = 1 + 100 * 9;
/// The value the reply's template holds where the total goes (found and patched at run time).
const PLACEHOLDER: u64 = 0x1122_3344_5566_7788;
const SCOPE_PLACEHOLDER: u64 = 0x0102_0304_0506_0708;
const INLINED_PLACEHOLDER: u64 = 0x0a0b_0c0d_0e0f_1011;

fn offset_of(bytes: &[u8], value: u64) -> usize {
    let needle = value.to_le_bytes();
    bytes
        .windows(8)
        .position(|w| w == needle)
        .expect("placeholder in the reply")
}

/// A benchmark `traced`: `$work` calls `$heavy`, `$leaf` three times, then `$heavy` inside the
/// scope `inner` (opened by `canbench_rs::BenchScope::new`, closed by its `Drop`), then `$leaf`
/// inside the scope `inlined`, which `$inlined` opens itself (as when an optimiser inlines
/// `BenchScope::new`).
fn traced_module() -> Vec<u8> {
    let bench = Bench::new("traced", PLACEHOLDER)
        .scope("inner", SCOPE_PLACEHOLDER)
        .scope("inlined", INLINED_PLACEHOLDER);
    let reply = encoded(&bench);
    let total_at = offset_of(&reply, PLACEHOLDER);
    let scope_at = offset_of(&reply, SCOPE_PLACEHOLDER);
    let inlined_at = offset_of(&reply, INLINED_PLACEHOLDER);
    let wat = format!(
        r#"(module
  (import "ic0" "msg_reply_data_append" (func $append (param i32 i32)))
  (import "ic0" "msg_reply" (func $reply))
  (import "ic0" "performance_counter" (func $perf (param i32) (result i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "{data}")
  (global $start (mut i64) (i64.const 0))
  (global $scope (mut i64) (i64.const 0))
  (global $scope2 (mut i64) (i64.const 0))
  (func $heavy (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 100)))))
  (func $leaf (param i32) (result i32)
    (if (i32.eqz (local.get 0)) (then (return (i32.const 7))))
    (i32.add (local.get 0) (i32.const 1)))
  (func $canbench_rs::BenchScope::new
    (global.set $scope (call $perf (i32.const 0))))
  (func $drop (@name "<canbench_rs::BenchScope as core::ops::drop::Drop>::drop")
    (i64.store (i32.const {scope_at})
      (i64.sub (call $perf (i32.const 0)) (global.get $scope))))
  (func $drop2 (@name "<canbench_rs::BenchScope as core::ops::drop::Drop>::drop")
    (i64.store (i32.const {inlined_at})
      (i64.sub (call $perf (i32.const 0)) (global.get $scope2))))
  (func $work
    (call $heavy)
    (drop (call $leaf (i32.const 0)))
    (drop (call $leaf (i32.const 1)))
    (drop (call $leaf (i32.const 2)))
    (call $inner)
    (call $inlined))
  (func $inlined
    (global.set $scope2 (call $perf (i32.const 0)))
    (drop (call $leaf (i32.const 5)))
    (call $drop2))
  (func $inner
    (call $canbench_rs::BenchScope::new)
    (call $heavy)
    (call $drop))
  (func $canbench_rs::bench_fn
    (global.set $start (call $perf (i32.const 0)))
    (call $work)
    (i64.store (i32.const {total_at})
      (i64.sub (call $perf (i32.const 0)) (global.get $start))))
  (func (export "canister_query __canbench__traced")
    (call $canbench_rs::bench_fn)
    (call $append (i32.const 0) (i32.const {len}))
    (call $reply)))"#,
        data = wat_bytes(&reply),
        len = reply.len(),
    );
    wat::parse_str(wat).unwrap()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    common::canbench_in(dir, args)
}

/// Every `<title>` of an SVG, after checking the whole file is well-formed XML with an
/// `<svg>` root.
fn titles(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut reader = quick_xml::Reader::from_str(&text);
    let (mut titles, mut title, mut root) = (Vec::new(), None::<String>, None);
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                root.get_or_insert(name.clone());
                title = (name == "title").then(String::new);
            }
            Event::Text(t) => {
                if let Some(title) = title.as_mut() {
                    title.push_str(&t.decode().unwrap());
                }
            }
            Event::GeneralRef(r) => {
                if let Some(title) = title.as_mut() {
                    title.push_str(match r.decode().unwrap().as_ref() {
                        "lt" => "<",
                        "gt" => ">",
                        "amp" => "&",
                        "quot" => "\"",
                        "apos" => "'",
                        other => panic!("unexpected entity {other}"),
                    });
                }
            }
            Event::End(_) => titles.extend(title.take()),
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(root.as_deref(), Some("svg"), "{}", path.display());
    titles
}

/// The count of the frame titled `name (N instructions, …)`, each time it appears.
fn counts(titles: &[String], name: &str) -> Vec<u64> {
    titles
        .iter()
        .filter_map(|t| t.strip_prefix(&format!("{name} (")))
        .map(|rest| {
            let n = rest.split(' ').next().unwrap().replace(',', "");
            n.parse().unwrap()
        })
        .collect()
}

/// The instructions the progress line reports for `bench`.
fn reported(err: &str, bench: &str) -> u64 {
    let line = err
        .lines()
        .find(|l| l.contains(&format!("] {bench}: ")))
        .unwrap();
    line.split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_benchmark_gets_a_chart_a_merged_graph_and_one_per_scope() {
    let dir = TempDir::new("flame");
    std::fs::write(dir.path().join("bench.wasm"), traced_module()).unwrap();
    std::fs::write(dir.path().join("canbench.yml"), "wasm_path: bench.wasm\n").unwrap();
    let out = run(dir.path(), &["--instruction-tracing"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    for file in [
        "traced.svg",
        "traced.merged.svg",
        "traced.scope.inlined.svg",
        "traced.scope.inner.svg",
    ] {
        assert!(
            text.contains(&format!("Instruction traces written to {file}\n")),
            "{text}"
        );
    }
    let total = reported(&String::from_utf8(out.stderr).unwrap(), "traced");

    // The chart: every call in time order, its root the benchmark's total.
    let chart = titles(&dir.path().join("traced.svg"));
    assert_eq!(counts(&chart, "all"), [total]);
    assert_eq!(counts(&chart, "traced"), [total]);
    assert_eq!(counts(&chart, "heavy"), [HEAVY, HEAVY]);
    assert_eq!(counts(&chart, "leaf").len(), 4, "{chart:?}");
    // Functions open when measuring began are not drawn (as upstream's charts).
    assert!(counts(&chart, "canbench_rs::bench_fn").is_empty());

    // Merged: the three calls of `$leaf` are one frame; `$heavy`, called from two places, is
    // two frames, each with its known share of the total.
    let merged = titles(&dir.path().join("traced.merged.svg"));
    assert_eq!(counts(&merged, "all"), [total]);
    let share = 100.0 * HEAVY as f64 / total as f64;
    let heavy = format!("heavy ({HEAVY} instructions, {share:.2}%)");
    assert_eq!(
        merged.iter().filter(|t| **t == heavy).count(),
        2,
        "{merged:?}"
    );
    assert_eq!(counts(&merged, "leaf").len(), 2, "{merged:?}");

    // The scope: what ran between its two counter readings, `$heavy` included once.
    let scope = titles(&dir.path().join("traced.scope.inner.svg"));
    let scope_total = counts(&scope, "all")[0];
    assert!(scope_total > HEAVY && scope_total < total, "{scope:?}");
    assert_eq!(counts(&scope, "heavy"), [HEAVY]);
    assert!(counts(&scope, "leaf").is_empty());

    // The scope opened without a canbench-rs frame: found all the same.
    let scope = titles(&dir.path().join("traced.scope.inlined.svg"));
    assert_eq!(counts(&scope, "leaf").len(), 1, "{scope:?}");
    assert!(counts(&scope, "heavy").is_empty());
}

#[test]
fn a_message_sent_with_call_gets_its_graphs() {
    let dir = TempDir::new("flame-call");
    std::fs::write(dir.path().join("m.wasm"), traced_module()).unwrap();
    std::fs::write(dir.path().join("script"), "query __canbench__traced\n").unwrap();
    let out = run(
        dir.path(),
        &[
            "call",
            "--wasm",
            "m.wasm",
            "--script",
            "script",
            "--instruction-tracing",
            "--trace-dir",
            ".",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let line = String::from_utf8(out.stdout).unwrap();
    let instructions: u64 = line
        .trim()
        .rsplit_once("instructions=")
        .unwrap()
        .1
        .parse()
        .unwrap();
    let chart = titles(&dir.path().join("1-__canbench__traced.svg"));
    assert_eq!(counts(&chart, "all"), [instructions]);
    assert_eq!(counts(&chart, "__canbench__traced"), [instructions]);
    assert_eq!(counts(&chart, "heavy"), [HEAVY, HEAVY]);
    let merged = titles(&dir.path().join("1-__canbench__traced.merged.svg"));
    assert_eq!(counts(&merged, "all"), [instructions]);
    assert_eq!(counts(&merged, "heavy"), [HEAVY, HEAVY]);
    // The message's own frames are drawn this time: the whole message is the window.
    assert_eq!(counts(&merged, "canbench_rs::bench_fn").len(), 1);
}

/// A message that recurses 3,000 deep is drawn whole: one frame per level, but for the
/// deepest few, narrower than inferno draws. (Folded stacks grow with the square of the
/// depth, as upstream's do: each line names its whole stack.)
#[test]
fn deep_recursion_is_drawn() {
    let dir = TempDir::new("flame-deep");
    let wasm = wat::parse_str(
        r#"(module
  (import "ic0" "msg_reply" (func $reply))
  (func $down (param $n i32) (result i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 0))
      (else (i32.add (i32.const 1) (call $down (i32.sub (local.get $n) (i32.const 1)))))))
  (func (export "canister_query deep")
    (drop (call $down (i32.const 3000)))
    (call $reply)))"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("deep.wasm"), wasm).unwrap();
    std::fs::write(dir.path().join("script"), "query deep\n").unwrap();
    let out = run(
        dir.path(),
        &[
            "call",
            "--wasm",
            "deep.wasm",
            "--script",
            "script",
            "--instruction-tracing",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let line = String::from_utf8(out.stdout).unwrap();
    let instructions: u64 = line.trim().rsplit_once('=').unwrap().1.parse().unwrap();
    let merged = titles(&dir.path().join("1-deep.merged.svg"));
    assert_eq!(counts(&merged, "all"), [instructions]);
    let levels = counts(&merged, "down").len();
    assert!((2_990..=3_001).contains(&levels), "{levels}");
}
