//! End-to-end tests of the meter and the host on small hand-written canisters.

use crate::cost::CostTable;
use crate::exec::{Canister, Outcome, QUERY_ARG};
use crate::instrument::instrument;
use crate::results_file::{BenchResult, Measurement};

const LIMIT: u64 = 1_000_000_000;

fn canister(wat: &str) -> Result<Canister, String> {
    canister_with_limit(wat, LIMIT)
}

fn canister_with_limit(wat: &str, limit: u64) -> Result<Canister, String> {
    let wasm = wat::parse_str(wat).expect("test WAT parses");
    let instrumented = instrument(&wasm, CostTable::ic(), limit, false)?;
    Canister::new(
        &instrumented,
        CostTable::ic(),
        Vec::new(),
        Vec::new(),
        false,
        limit,
    )
}

const IMPORTS: &str = r#"
  (import "ic0" "performance_counter" (func $pc (param i32) (result i64)))
  (import "ic0" "msg_reply_data_append" (func $append (param i32 i32)))
  (import "ic0" "msg_reply" (func $reply))
  (import "ic0" "trap" (func $trap (param i32 i32)))
  (memory (export "memory") 1)
"#;

/// A canbench-style measurement: N iterations of two adds between two performance_counter
/// reads, replying with the difference as 8 little-endian bytes.
fn loop_canister(n: u32) -> String {
    format!(
        r#"(module {IMPORTS}
  (func (export "canister_query __canbench__adds")
    (local $i i32) (local $acc i32) (local $start i64) (local $end i64)
    (local.set $start (call $pc (i32.const 0)))
    (loop $l
      (local.set $acc (i32.add (local.get $acc) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const {n}))))
    (local.set $end (call $pc (i32.const 0)))
    (i64.store (i32.const 0) (i64.sub (local.get $end) (local.get $start)))
    (call $append (i32.const 0) (i32.const 8))
    (call $reply)))"#
    )
}

fn reply_u64(outcome: Outcome) -> u64 {
    match outcome {
        Outcome::Reply(bytes) => u64::from_le_bytes(bytes.try_into().unwrap()),
        other => panic!("expected a reply, got {other:?}"),
    }
}

#[test]
fn meters_a_loop_to_the_instruction() {
    for n in [1u32, 1000, 100_000] {
        let c = canister(&loop_canister(n)).unwrap();
        let (outcome, total) = c.query("__canbench__adds", QUERY_ARG).unwrap();
        // Loop body: 11 one-cost operators + br_if (2) = 13 per iteration. After the loop, one
        // block is charged on entry: i32.const, call (5), local.set, then the store/reply code
        // (i32.const, 2 local.get, i64.sub, i64.store, 2 i32.const, 2 calls of 5) = 24; plus the
        // second performance_counter's own 200.
        assert_eq!(reply_u64(outcome), 13 * u64::from(n) + 24 + 200, "n = {n}");
        // The whole message: entry block (1 + i32.const + call 5 + local.set + loop 0 = 8),
        // both counters, the loop, the tail block, msg_reply_data_append (500 + 8 bytes) and
        // msg_reply (500).
        assert_eq!(
            total,
            8 + 200 + 13 * u64::from(n) + 24 + 200 + 508 + 500,
            "n = {n}"
        );
    }
}

#[test]
fn charges_bulk_memory_by_size() {
    let wat = format!(
        r#"(module {IMPORTS}
  (func (export "canister_query fill") (param) 
    (memory.fill (i32.const 16) (i32.const 7) (i32.const 1000))
    (call $reply)))"#
    );
    let (_, total) = canister(&wat).unwrap().query("fill", QUERY_ARG).unwrap();
    // entry 1 + 3 consts + memory.fill 100 + call 5 + end 0, then 1000 bytes, then msg_reply 500.
    assert_eq!(total, 1 + 3 + 100 + 5 + 1000 + 500);
}

#[test]
fn decodes_a_canbench_reply() {
    let mut r = BenchResult {
        total: Measurement {
            calls: 1,
            instructions: 4242,
            heap_increase: 1,
            stable_memory_increase: 0,
        },
        ..Default::default()
    };
    r.scopes.insert(
        "2. Decoding".into(),
        Measurement {
            calls: 1,
            instructions: 42,
            ..Default::default()
        },
    );
    let bytes = crate::result::encode_bench_result(&r);
    let data: String = bytes.iter().map(|b| format!("\\{b:02x}")).collect();
    let wat = format!(
        r#"(module {IMPORTS}
  (data (i32.const 64) "{data}")
  (func (export "canister_query __canbench__fixed")
    (call $append (i32.const 64) (i32.const {len}))
    (call $reply)))"#,
        len = bytes.len()
    );
    let c = canister(&wat).unwrap();
    assert_eq!(c.benchmarks(), vec!["fixed".to_string()]);
    assert_eq!(crate::run_one(&c, "fixed").unwrap(), r);
}

#[test]
fn deep_recursion_does_not_trap() {
    let wat = format!(
        r#"(module {IMPORTS}
  (func $down (param $n i32) (result i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 0))
      (else (i32.add (i32.const 1) (call $down (i32.sub (local.get $n) (i32.const 1)))))))
  (func (export "canister_query deep")
    (drop (call $down (i32.const 50000)))
    (call $reply)))"#
    );
    let (outcome, _) = canister(&wat).unwrap().query("deep", QUERY_ARG).unwrap();
    assert!(matches!(outcome, Outcome::Reply(_)));
}

#[test]
fn traps_report_the_benchmark_and_message() {
    let wat = format!(
        r#"(module {IMPORTS}
  (data (i32.const 0) "decoder exploded")
  (func (export "canister_query __canbench__boom")
    (call $trap (i32.const 0) (i32.const 16))))"#
    );
    let c = canister(&wat).unwrap();
    let names = c.benchmarks();
    let err = crate::run_all(&c, &names, Some(1)).unwrap_err();
    assert!(
        err.contains("benchmark `boom`") && err.contains("decoder exploded"),
        "{err}"
    );
}

#[test]
fn clear_errors_for_bad_inputs() {
    let err = instrument(b"definitely not wasm", CostTable::ic(), LIMIT, false).unwrap_err();
    assert!(err.contains("not a WebAssembly module"), "{err}");
    let err = instrument(b"\0asm\x01\0\0\0\x01\xff", CostTable::ic(), LIMIT, false).unwrap_err();
    assert!(err.contains("invalid wasm"), "{err}");

    let err = canister(r#"(module (import "env" "mystery" (func)) (memory (export "memory") 1))"#)
        .err()
        .unwrap();
    assert!(err.contains("env.mystery"), "{err}");

    // Known ic0 calls the runner does not implement link as stubs and trap only when called.
    let c = canister(
        r#"(module (import "ic0" "call_perform" (func $p (result i32))) (memory (export "memory") 1)
        (func (export "canister_query call") (drop (call $p))))"#,
    )
    .unwrap();
    let err = c.query("call", QUERY_ARG).unwrap_err();
    assert!(err.contains("ic0.call_perform is not supported"), "{err}");
    let err = c.query("missing", QUERY_ARG).unwrap_err();
    assert!(err.contains("no export `canister_query missing`"), "{err}");

    let c = canister(
        r#"(module (memory (export "memory") 1) (func (export "canister_query silent")))"#,
    )
    .unwrap();
    let err = crate::run_one(&c, "silent").err();
    assert!(err.is_some());
}

#[test]
fn instrumentation_keeps_modules_without_globals_or_exports_valid() {
    let wasm = wat::parse_str("(module (func (drop (i32.const 1))))").unwrap();
    let out = instrument(&wasm, CostTable::ic(), LIMIT, false).unwrap();
    wasmparser::Validator::new().validate_all(&out).unwrap();
}

#[test]
fn runaway_benchmarks_stop_at_the_instruction_limit() {
    let wat = format!(
        r#"(module {IMPORTS}
  (func (export "canister_query spin") (loop $l (br $l))))"#
    );
    // A small limit: the check sits at the loop head, so the loop stops after about
    // limit / (cost of one iteration) iterations.
    let err = canister_with_limit(&wat, 100_000)
        .unwrap()
        .query("spin", QUERY_ARG)
        .unwrap_err();
    assert!(err.contains("instruction limit exceeded"), "{err}");
}

fn scoped(scopes: &[(&str, u64)]) -> crate::results_file::BenchResult {
    use crate::results_file::{BenchResult, Measurement};
    let m = |instructions| Measurement {
        calls: 1,
        instructions,
        heap_increase: 0,
        stable_memory_increase: 0,
    };
    BenchResult {
        total: m(scopes.iter().map(|(_, n)| n).sum()),
        scopes: scopes.iter().map(|(s, n)| (s.to_string(), m(*n))).collect(),
    }
}

#[test]
fn comparison_summary_gives_geometric_means_and_floor_distances() {
    use crate::results_file::Results;
    let a = Results::new(
        [
            (
                "x".to_string(),
                scoped(&[("1. Encoding", 100), ("2. Decoding", 400)]),
            ),
            (
                "y".to_string(),
                scoped(&[("1. Encoding", 100), ("2. Decoding", 100)]),
            ),
        ]
        .into(),
        None,
    );
    let b = Results::new(
        [
            (
                "x".to_string(),
                scoped(&[("1. Encoding", 50), ("2. Decoding", 100), ("3. Floor", 50)]),
            ),
            (
                "y".to_string(),
                scoped(&[("1. Encoding", 200), ("2. Decoding", 100)]),
            ),
        ]
        .into(),
        None,
    );
    let md = crate::report::compare_markdown(&a, &b, "candid", "candor");
    // decode ratios 4 and 1: geometric mean 2; encode ratios 2 and 0.5: 1.
    assert!(md.contains("decode: candor uses 2.00x fewer instructions than candid (geometric mean over 2 workloads)"), "{md}");
    assert!(md.contains("encode: candor uses 1.00x fewer"), "{md}");
    assert!(
        md.contains("encode: candor needs more than candid on y (+100.00%)"),
        "{md}"
    );
    assert!(md.contains("x: candor 2.00x, candid 8.00x"), "{md}");
    assert!(
        md.contains("| x | 100 | 50 | 2.00x | 400 | 100 | 4.00x | 2.00x |"),
        "{md}"
    );
}

/// A profiling build charges each function's own code to that function (the callee's loop to
/// the callee, the caller's blocks to the caller); the ic0 overheads, which the host charges,
/// are the rest of the message total.
#[test]
fn profile_attributes_instructions_to_functions() {
    let wat = format!(
        r#"(module {IMPORTS}
  (func $work (param $n i32)
    (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n)))))
  (func (export "canister_query __canbench__calls")
    (call $work (i32.const 1000))
    (call $reply)))"#
    );
    let wasm = wat::parse_str(&wat).unwrap();
    let instrumented = instrument(&wasm, CostTable::ic(), LIMIT, true).unwrap();
    let c = Canister::new(
        &instrumented,
        CostTable::ic(),
        Vec::new(),
        Vec::new(),
        false,
        LIMIT,
    )
    .unwrap();
    let run = c.run("__canbench__calls", QUERY_ARG).unwrap();
    // $work: entry 1 (+ loop 0), then per iteration 7 one-cost operators and br_if (2);
    // the final `end` block costs 0.
    assert_eq!(run.profile[0], 1 + 9 * 1000);
    // The query: entry 1 + i32.const + call (5) + call (5).
    assert_eq!(run.profile[1], 1 + 1 + 5 + 5);
    // msg_reply's overhead.
    assert_eq!(run.instructions - run.profile.iter().sum::<u64>(), 500);
    let names = crate::instrument::function_names(&wasm).unwrap();
    assert_eq!(names, ["work", "func[1]"]);
}

/// A build without profiling exports no per-function counters.
#[test]
fn no_profile_unless_asked() {
    let c = canister(&loop_canister(10)).unwrap();
    let run = c.run("__canbench__adds", QUERY_ARG).unwrap();
    assert!(run.profile.is_empty());
}

/// A counter canister: `inc` adds the first argument byte to a global in memory and
/// replies with the new value; `boom` adds too, then traps; `no` rejects; `get`
/// replies with the value; `canister_init` sets the value to the first argument byte.
/// `get_candid_pointer` returns a NUL-terminated interface.
const COUNTER: &str = r#"(module
  (import "ic0" "msg_arg_data_copy" (func $arg (param i32 i32 i32)))
  (import "ic0" "msg_reply_data_append" (func $append (param i32 i32)))
  (import "ic0" "msg_reply" (func $reply))
  (import "ic0" "msg_reject" (func $reject (param i32 i32)))
  (import "ic0" "trap" (func $trap (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 100) "no thanks")
  (data (i32.const 200) "service : {}\00")
  (func $add
    (call $arg (i32.const 16) (i32.const 0) (i32.const 1))
    (i32.store8 (i32.const 0) (i32.add (i32.load8_u (i32.const 0)) (i32.load8_u (i32.const 16)))))
  (func $value (call $append (i32.const 0) (i32.const 1)) (call $reply))
  (func (export "canister_init")
    (call $arg (i32.const 0) (i32.const 0) (i32.const 1)))
  (func (export "canister_update inc") (call $add) (call $value))
  (func (export "canister_query peek_inc") (call $add) (call $value))
  (func (export "canister_update boom") (call $add) (call $trap (i32.const 100) (i32.const 2)))
  (func (export "canister_update no") (call $add) (call $reject (i32.const 100) (i32.const 9)))
  (func (export "canister_query get") (call $value))
  (func (export "get_candid_pointer") (result i32) (i32.const 200)))"#;

#[test]
fn messages_see_committed_state_and_only_that() {
    use crate::exec::{Ending, Kind, Message};
    let c = canister(COUNTER).unwrap();
    let msg = |kind, method: &str, arg: &[u8]| Message {
        kind,
        method: method.into(),
        arg: arg.to_vec(),
    };
    let mut committed = vec![msg(Kind::Init, "canister_init", &[10])];
    let run = |committed: &[Message], m: &Message| c.execute(committed, m).unwrap().0;

    // An update's change is seen by the next message once committed.
    let inc = msg(Kind::Update, "inc", &[5]);
    assert_eq!(run(&committed, &inc), Ending::Reply(vec![15]));
    committed.push(inc);
    assert_eq!(
        run(&committed, &msg(Kind::Query, "get", &[])),
        Ending::Reply(vec![15])
    );
    // A query's change is not (the runner never replays it).
    assert_eq!(
        run(&committed, &msg(Kind::Query, "peek_inc", &[1])),
        Ending::Reply(vec![16])
    );
    // A trap reports the canister's text; a reject its message.
    match run(&committed, &msg(Kind::Update, "boom", &[1])) {
        Ending::Trap(text) => assert!(text.contains("canister called ic0.trap: no"), "{text}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        run(&committed, &msg(Kind::Update, "no", &[1])),
        Ending::Reject("no thanks".into())
    );
    assert_eq!(
        run(&committed, &msg(Kind::Update, "missing", &[])),
        Ending::NoMethod
    );
    assert_eq!(
        run(&committed, &msg(Kind::Query, "get", &[])),
        Ending::Reply(vec![15])
    );
    assert_eq!(c.candid_interface().unwrap(), "service : {}");
}

#[test]
fn copies_out_of_range_trap() {
    use crate::exec::{Ending, Kind, Message};
    // Reading two argument bytes from a one-byte argument is out of range.
    let wat = COUNTER.replace(
        "(call $arg (i32.const 16) (i32.const 0) (i32.const 1))",
        "(call $arg (i32.const 16) (i32.const 0) (i32.const 2))",
    );
    let c = canister(&wat).unwrap();
    let m = Message {
        kind: Kind::Update,
        method: "inc".into(),
        arg: vec![1],
    };
    let init = Message {
        kind: Kind::Init,
        method: "canister_init".into(),
        arg: vec![0],
    };
    assert!(matches!(c.execute(&[init], &m).unwrap().0, Ending::Trap(_)));
}
