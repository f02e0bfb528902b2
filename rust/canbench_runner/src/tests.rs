//! End-to-end tests of the meter and the host on small hand-written canisters.

use crate::cost::CostTable;
use crate::exec::{Canister, Delivery, Outcome, QUERY_ARG};
use crate::ic0::ANONYMOUS;
use crate::instrument::instrument;
use crate::results_file::{BenchResult, Measurement};
use crate::session::Session;

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
        r#"(module (import "ic0" "root_key_size" (func $p (result i32))) (memory (export "memory") 1)
        (func (export "canister_query call") (drop (call $p))))"#,
    )
    .unwrap();
    let err = c.query("call", QUERY_ARG).unwrap_err();
    assert!(err.contains("ic0.root_key_size is not supported"), "{err}");
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

/// A canister with state in three places: a counter in the heap (byte 0), the same counter in
/// a mutable global the module does not export, and the heap and stable memory sizes. `$mess`
/// adds the first argument byte to both counters and grows both memories by a page; `$state`
/// replies with the four values, one byte each.
const STATEFUL: &str = r#"(module
  (import "ic0" "msg_arg_data_size" (func $arg_size (result i32)))
  (import "ic0" "msg_arg_data_copy" (func $arg (param i32 i32 i32)))
  (import "ic0" "msg_caller_size" (func $caller_size (result i32)))
  (import "ic0" "msg_caller_copy" (func $caller (param i32 i32 i32)))
  (import "ic0" "msg_reply_data_append" (func $append (param i32 i32)))
  (import "ic0" "msg_reply" (func $reply))
  (import "ic0" "msg_reject" (func $reject (param i32 i32)))
  (import "ic0" "trap" (func $trap (param i32 i32)))
  (import "ic0" "stable64_grow" (func $stable_grow (param i64) (result i64)))
  (import "ic0" "stable64_size" (func $stable_size (result i64)))
  (import "ic0" "global_timer_set" (func $timer (param i64) (result i64)))
  (import "ic0" "canister_version" (func $version (result i64)))
  (import "ic0" "call_new" (func $call_new (param i32 i32 i32 i32 i32 i32 i32 i32)))
  (import "ic0" "call_perform" (func $call_perform (result i32)))
  (memory (export "memory") 1)
  (global $g (mut i32) (i32.const 0))
  (data (i32.const 100) "no thanks")
  (data (i32.const 120) "\ff")
  (data (i32.const 200) "service : {}\00")
  (func $add
    (call $arg (i32.const 16) (i32.const 0) (i32.const 1))
    (i32.store8 (i32.const 0) (i32.add (i32.load8_u (i32.const 0)) (i32.load8_u (i32.const 16))))
    (global.set $g (i32.add (global.get $g) (i32.load8_u (i32.const 16)))))
  (func $mess
    (call $add)
    (drop (memory.grow (i32.const 1)))
    (drop (call $stable_grow (i64.const 1))))
  (func $state
    (i32.store8 (i32.const 1) (global.get $g))
    (i32.store8 (i32.const 2) (memory.size))
    (i32.store8 (i32.const 3) (i32.wrap_i64 (call $stable_size)))
    (call $append (i32.const 0) (i32.const 4))
    (call $reply))
  (func $call
    (call $call_new (i32.const 0) (i32.const 0) (i32.const 100) (i32.const 2)
      (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0))
    (i32.store8 (i32.const 500) (call $call_perform))
    (call $append (i32.const 500) (i32.const 1))
    (call $reply))
  (func (export "canister_init") (call $add))
  (func (export "canister_update inc") (call $mess) (call $state))
  (func (export "canister_query peek") (call $mess) (call $state))
  (func (export "canister_query get") (call $state))
  (func (export "canister_update boom") (call $mess) (call $trap (i32.const 100) (i32.const 2)))
  (func (export "canister_update no") (call $mess) (call $reject (i32.const 100) (i32.const 9)))
  (func (export "canister_update silent") (call $mess))
  (func (export "canister_update bad_reject") (call $reject (i32.const 120) (i32.const 1)))
  (func (export "canister_update twice") (call $reply) (call $reply))
  (func (export "canister_update whoami")
    (call $caller (i32.const 300) (i32.const 0) (call $caller_size))
    (call $append (i32.const 300) (call $caller_size))
    (call $reply))
  (func (export "canister_update arg_past_end")
    (call $arg (i32.const 16) (i32.const 0) (i32.add (call $arg_size) (i32.const 1)))
    (call $reply))
  (func (export "canister_update caller_past_end")
    (call $caller (i32.const 300) (i32.const 1) (call $caller_size))
    (call $reply))
  (func (export "canister_update arg_past_heap")
    (call $arg (i32.sub (i32.mul (memory.size) (i32.const 65536)) (i32.const 1))
      (i32.const 0) (i32.const 2))
    (call $reply))
  (func (export "canister_update timer")
    (call $arg (i32.const 16) (i32.const 0) (i32.const 1))
    (i64.store (i32.const 400) (call $timer (i64.load8_u (i32.const 16))))
    (i64.store (i32.const 408) (call $version))
    (call $append (i32.const 400) (i32.const 16))
    (call $reply))
  (func (export "canister_update call") (call $call))
  (func (export "canister_query call_from_query") (call $call))
  (func (export "get_candid_pointer") (result i32) (i32.const 200)))"#;

/// An installed [`STATEFUL`] canister: both counters start at 10.
fn installed<'c>(c: &'c Canister, caller: &[u8]) -> Session<'c> {
    let mut s = Session::new(c, caller).unwrap();
    assert_eq!(s.install(&[10]).unwrap().outcome, Outcome::NoReply);
    s
}

fn reply(d: Delivery) -> Vec<u8> {
    match d.outcome {
        Outcome::Reply(bytes) => bytes,
        other => panic!("expected a reply, got {other:?}"),
    }
}

fn trap_text(d: Delivery) -> String {
    match d.outcome {
        Outcome::Trap(text) => text,
        other => panic!("expected a trap, got {other:?}"),
    }
}

#[test]
fn updates_persist_and_queries_do_not() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    // [heap counter, global counter, heap pages, stable pages]
    assert_eq!(reply(s.query("get", &[]).unwrap()), [10, 10, 1, 0]);
    assert_eq!(reply(s.update("inc", &[5]).unwrap()), [15, 15, 2, 1]);
    assert_eq!(reply(s.query("get", &[]).unwrap()), [15, 15, 2, 1]);
    // A query sees and changes the state, but its changes (heap, global, heap and stable
    // growth) are gone afterwards.
    assert_eq!(reply(s.query("peek", &[1]).unwrap()), [16, 16, 3, 2]);
    assert_eq!(reply(s.query("get", &[]).unwrap()), [15, 15, 2, 1]);
    // An update call to a query method runs it in replicated mode, changes discarded too.
    assert_eq!(reply(s.update("peek", &[1]).unwrap()), [16, 16, 3, 2]);
    assert_eq!(reply(s.query("get", &[]).unwrap()), [15, 15, 2, 1]);
}

#[test]
fn a_trap_rolls_the_message_back() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    let boom = s.update("boom", &[1]).unwrap();
    assert!(boom.instructions > 0);
    assert_eq!(
        trap_text(boom),
        "Canister called `ic0.trap` with message: 'no'"
    );
    assert_eq!(reply(s.query("get", &[]).unwrap()), [10, 10, 1, 0]);
    // The canister still works after the rollback.
    assert_eq!(reply(s.update("inc", &[1]).unwrap()), [11, 11, 2, 1]);
}

#[test]
fn rejects_and_silent_updates_keep_their_changes() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    let no = s.update("no", &[1]).unwrap().outcome;
    assert_eq!(
        no,
        Outcome::Reject {
            code: 4,
            message: "no thanks".into()
        }
    );
    assert_eq!(s.update("silent", &[1]).unwrap().outcome, Outcome::NoReply);
    assert_eq!(reply(s.query("get", &[]).unwrap()), [12, 12, 3, 2]);
}

#[test]
fn responding_twice_or_rejecting_with_bad_text_traps() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    let text = trap_text(s.update("twice", &[]).unwrap());
    assert!(text.contains("already responded"), "{text}");
    let text = trap_text(s.update("bad_reject", &[]).unwrap());
    assert!(text.contains("invalid UTF-8"), "{text}");
}

#[test]
fn copies_out_of_range_trap() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    let text = trap_text(s.update("arg_past_end", &[1, 2]).unwrap());
    assert_eq!(
        text,
        "ic0.msg_arg_data_copy: range 0+3 is outside the 2 bytes available"
    );
    let text = trap_text(s.update("caller_past_end", &[]).unwrap());
    assert_eq!(
        text,
        "ic0.msg_caller_copy: range 1+1 is outside the 1 bytes available"
    );
    let text = trap_text(s.update("arg_past_heap", &[1, 2]).unwrap());
    assert_eq!(text, "heap out of bounds: 65535+2 > 65536");
}

#[test]
fn the_caller_is_anonymous_unless_given() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    assert_eq!(reply(s.update("whoami", &[]).unwrap()), [0x04]);
    let mut s = installed(&c, &[1, 2, 3]);
    assert_eq!(reply(s.update("whoami", &[]).unwrap()), [1, 2, 3]);
}

#[test]
fn missing_methods_are_rejected_as_the_ic_rejects_them() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    let reject = |message: &str| Outcome::Reject {
        code: 3,
        message: message.into(),
    };
    assert_eq!(
        s.query("inc", &[1]).unwrap().outcome,
        reject("Canister lxzze-o7777-77777-aaaaa-cai has no query method 'inc'")
    );
    assert_eq!(
        s.update("nope", &[]).unwrap().outcome,
        reject("Canister lxzze-o7777-77777-aaaaa-cai has no update method 'nope'")
    );
}

#[test]
fn calls_fail_synchronously_and_queries_cannot_call() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    // call_perform's error code: SYS_TRANSIENT.
    assert_eq!(reply(s.update("call", &[]).unwrap()), [2]);
    let text = trap_text(s.query("call_from_query", &[]).unwrap());
    assert_eq!(
        text,
        "ic0.call_new cannot be executed in non-replicated query mode"
    );
}

#[test]
fn the_timer_and_the_version_persist_like_state() {
    let c = canister(STATEFUL).unwrap();
    let mut s = installed(&c, ANONYMOUS);
    let values = |bytes: Vec<u8>| -> (u64, u64) {
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
        (word(0), word(8))
    };
    // (previous timer, canister version): install_code made it 1, each update adds 1.
    assert_eq!(values(reply(s.update("timer", &[7]).unwrap())), (0, 1));
    assert_eq!(values(reply(s.update("timer", &[9]).unwrap())), (7, 2));
}

#[test]
fn init_cannot_reply_and_a_trapping_init_is_reported() {
    let wat = r#"(module
      (import "ic0" "msg_reply" (func $reply))
      (memory (export "memory") 1)
      (func (export "canister_init") (call $reply)))"#;
    let c = canister(wat).unwrap();
    let mut s = Session::new(&c, ANONYMOUS).unwrap();
    let text = trap_text(s.install(&[]).unwrap());
    assert_eq!(text, "ic0.msg_reply cannot be executed in init mode");
}

/// The start function runs when the code is installed, and not again when a rollback
/// restores the state into a new instance.
#[test]
fn the_start_function_runs_once() {
    let wat = r#"(module
      (import "ic0" "debug_print" (func $print (param i32 i32)))
      (import "ic0" "msg_reply" (func $reply))
      (memory (export "memory") 1)
      (data (i32.const 0) "started")
      (func $start (call $print (i32.const 0) (i32.const 7)))
      (start $start)
      (func (export "canister_query q") (call $reply)))"#;
    let c = canister(wat).unwrap();
    let mut s = Session::new(&c, ANONYMOUS).unwrap();
    assert!(s.output().is_empty(), "instantiating runs no code");
    assert_eq!(s.install(&[]).unwrap().outcome, Outcome::NoReply);
    assert_eq!(s.query("q", &[]).unwrap().outcome, Outcome::Reply(vec![]));
    assert_eq!(s.query("q", &[]).unwrap().outcome, Outcome::Reply(vec![]));
    assert_eq!(s.output(), ["started"]);
}

#[test]
fn the_interface_is_read_from_get_candid_pointer() {
    let c = canister(STATEFUL).unwrap();
    assert_eq!(crate::call::candid_interface(&c).unwrap(), "service : {}");
    let no_interface = canister(r#"(module (memory (export "memory") 1))"#).unwrap();
    let err = crate::call::candid_interface(&no_interface).unwrap_err();
    assert!(err.contains("get_candid_pointer"), "{err}");
}

#[test]
fn instrumentation_rejects_names_the_runner_reserves() {
    let wasm = wat::parse_str(r#"(module (func (export "canbench start")))"#).unwrap();
    let err = instrument(&wasm, CostTable::ic(), LIMIT, false).unwrap_err();
    assert!(err.contains("reserves"), "{err}");
}
