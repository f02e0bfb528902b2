//! The meter: instructions charged as the replica charges them, and the errors around it.

use super::{canister, canister_with_limit, LIMIT};
use crate::cost::CostTable;
use crate::exec::{Outcome, QUERY_ARG};
use crate::instrument::{instrument, Profile};
use crate::results_file::{BenchResult, Measurement};

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
        let run = c.install_and_query("__canbench__adds", QUERY_ARG).unwrap();
        let (outcome, total) = (run.outcome, run.instructions);
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
    let total = canister(&wat)
        .unwrap()
        .install_and_query("fill", QUERY_ARG)
        .unwrap()
        .instructions;
    // entry 1 + 3 consts + memory.fill 100 + call 5 + end 0, then 1000 bytes, then msg_reply 500.
    assert_eq!(total, 1 + 3 + 100 + 5 + 1000 + 500);
}

/// A canister built with WebAssembly SIMD (`-C target-feature=+simd128`, which the IC
/// runs) runs here too, its vector operators charged at the IC's costs.
#[test]
fn runs_and_meters_simd() {
    let wat = format!(
        r#"(module {IMPORTS}
  (data (i32.const 16) "\03\00\00\00\00\00\00\00\05\00\00\00\00\00\00\00")
  (data (i32.const 32) "\07\00\00\00\00\00\00\00\0b\00\00\00\00\00\00\00")
  (func (export "canister_query simd")
    (v128.store (i32.const 0)
      (i64x2.mul (v128.load (i32.const 16)) (v128.load (i32.const 32))))
    (call $append (i32.const 0) (i32.const 16))
    (call $reply)))"#
    );
    let run = canister(&wat)
        .unwrap()
        .install_and_query("simd", QUERY_ARG)
        .unwrap();
    let mut lanes = [0u8; 16];
    lanes[0] = 21;
    lanes[8] = 55;
    assert!(
        matches!(run.outcome, Outcome::Reply(ref b) if b[..] == lanes),
        "{:?}",
        run.outcome
    );
    // entry 1 + 5 consts + 2 v128.load (1 each) + i64x2.mul 4 + v128.store 1 + 2 calls
    // (5 each), then msg_reply_data_append (500 + 16 bytes) and msg_reply (500).
    assert_eq!(run.instructions, 1 + 5 + 2 + 4 + 1 + 10 + 516 + 500);
    // Relaxed SIMD (results that may differ between machines) the IC refuses.
    let relaxed = format!(
        r#"(module {IMPORTS}
  (func (export "canister_query relaxed")
    (v128.store (i32.const 0)
      (i8x16.relaxed_swizzle (v128.load (i32.const 16)) (v128.load (i32.const 32))))
    (call $reply)))"#
    );
    let err = canister(&relaxed).err().expect("relaxed SIMD is refused");
    assert!(err.contains("cannot compile the canister"), "{err}");
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
    assert_eq!(crate::bench::measure(&c, "fixed").unwrap(), r);
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
    let outcome = canister(&wat)
        .unwrap()
        .install_and_query("deep", QUERY_ARG)
        .unwrap()
        .outcome;
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
    let err = crate::bench::measure_all(&c, &names, Some(1))
        .into_result()
        .unwrap_err();
    assert!(
        // Upstream canbench's words, with the replica's error code.
        err.starts_with(
            "Error executing benchmark boom. Error:\nIC0503: Canister lxzze-o7777-77777-aaaaa-cai trapped: "
        ) && err.contains("decoder exploded"),
        "{err}"
    );
}

#[test]
fn clear_errors_for_bad_inputs() {
    let err = instrument(b"definitely not wasm", CostTable::ic(), LIMIT, Profile::Off).unwrap_err();
    assert!(err.contains("not a WebAssembly module"), "{err}");
    let err = instrument(
        b"\0asm\x01\0\0\0\x01\xff",
        CostTable::ic(),
        LIMIT,
        Profile::Off,
    )
    .unwrap_err();
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
    let err = c.install_and_query("call", QUERY_ARG).err().unwrap();
    assert!(err.contains("ic0.root_key_size is not supported"), "{err}");
    let err = c.install_and_query("missing", QUERY_ARG).err().unwrap();
    assert!(err.contains("no export `canister_query missing`"), "{err}");

    let c = canister(
        r#"(module (memory (export "memory") 1) (func (export "canister_query silent")))"#,
    )
    .unwrap();
    let err = crate::bench::measure(&c, "silent").err();
    assert!(err.is_some());
}

#[test]
fn instrumentation_keeps_modules_without_globals_or_exports_valid() {
    let wasm = wat::parse_str("(module (func (drop (i32.const 1))))").unwrap();
    let out = instrument(&wasm, CostTable::ic(), LIMIT, Profile::Off).unwrap();
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
        .install_and_query("spin", QUERY_ARG)
        .err()
        .unwrap();
    assert!(err.contains("instruction limit exceeded"), "{err}");
}

/// A query that calls a function looping 1,000 times: two functions, three blocks.
fn calls_module() -> Vec<u8> {
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
    wat::parse_str(&wat).unwrap()
}

/// A profiling build charges each function's own code to that function (the callee's loop to
/// the callee, the caller's blocks to the caller); the ic0 overheads, which the host charges,
/// are the rest of the message total.
#[test]
fn profile_attributes_instructions_to_functions() {
    let wasm = calls_module();
    let run = super::instrumented(&wasm, LIMIT, Profile::Functions)
        .unwrap()
        .install_and_query("__canbench__calls", QUERY_ARG)
        .unwrap();
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

/// A per-block build splits each function's own instructions between its basic blocks,
/// named by function, block number and the module offset of the block's first operator.
#[test]
fn block_profile_splits_functions_into_their_blocks() {
    let wasm = calls_module();
    let run = |profile| {
        super::instrumented(&wasm, LIMIT, profile)
            .unwrap()
            .install_and_query("__canbench__calls", QUERY_ARG)
            .unwrap()
    };
    let (functions, blocks) = (run(Profile::Functions), run(Profile::Blocks));
    assert_eq!(blocks.instructions, functions.instructions);
    // $work: the entry (charged with the loop that closes it), then the loop body once
    // per iteration; the query is one block.
    assert_eq!(blocks.profile, [1, 9 * 1000, 1 + 1 + 5 + 5]);
    assert_eq!(blocks.profile[0] + blocks.profile[1], functions.profile[0]);
    let names = crate::instrument::counter_names(&wasm, CostTable::ic(), Profile::Blocks).unwrap();
    assert_eq!(names.len(), blocks.profile.len());
    // Each name's offset is that of the block's first operator: `loop`, `local.get`, `i32.const`.
    for (name, (prefix, opcode)) in names.iter().zip([
        ("work #0 @", 0x03),
        ("work #1 @", 0x20),
        ("func[1] #0 @", 0x41),
    ]) {
        let hex = name
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{name}"));
        let at = usize::from_str_radix(hex, 16).unwrap();
        assert_eq!(wasm[at], opcode, "{name}");
    }
    assert_eq!(
        crate::instrument::counter_names(&wasm, CostTable::ic(), Profile::Functions).unwrap(),
        ["work", "func[1]"]
    );
}

/// A build without profiling exports no per-function counters.
#[test]
fn no_profile_unless_asked() {
    let c = canister(&loop_canister(10)).unwrap();
    let run = c.install_and_query("__canbench__adds", QUERY_ARG).unwrap();
    assert!(run.profile.is_empty());
}

#[test]
fn instrumentation_rejects_names_the_runner_reserves() {
    let wasm = wat::parse_str(r#"(module (func (export "canbench start")))"#).unwrap();
    let err = instrument(&wasm, CostTable::ic(), LIMIT, Profile::Off).unwrap_err();
    assert!(err.contains("reserves"), "{err}");
}

/// The instructions of a query that makes one stable64_write per `(offset, size)`, on a
/// canister whose init grew stable memory to 4 pages and wrote its first bytes.
fn stable_writer(writes: &[(u64, u64)]) -> u64 {
    let body: String = writes
        .iter()
        .map(|(off, size)| {
            format!("(call $write (i64.const {off}) (i64.const 0) (i64.const {size}))\n")
        })
        .collect();
    let wat = format!(
        r#"(module
  (import "ic0" "msg_reply" (func $reply))
  (import "ic0" "stable64_grow" (func $grow (param i64) (result i64)))
  (import "ic0" "stable64_write" (func $write (param i64 i64 i64)))
  (memory (export "memory") 1)
  (func (export "canister_init")
    (drop (call $grow (i64.const 4)))
    ;; A write in init dirties pages for init only: each message pays for its own.
    (call $write (i64.const 0) (i64.const 0) (i64.const 100)))
  (func (export "canister_query q") {body} (call $reply)))"#
    );
    let run = canister(&wat)
        .unwrap()
        .install_and_query("q", QUERY_ARG)
        .unwrap();
    run.instructions
}

/// The replica charges a fixed overhead for each 4 KiB page of stable memory a message writes
/// to for the first time (on application subnets, where canbench measures), on top of the
/// call and its bytes.
#[test]
fn stable_writes_pay_for_each_newly_dirtied_page() {
    use crate::cost::STABLE_DIRTY_PAGE_COST as PAGE;
    // Same code, same sizes: the only difference is the pages the writes touch.
    let same_page = stable_writer(&[(0, 1), (100, 1)]);
    let two_pages = stable_writer(&[(0, 1), (4_096, 1)]);
    assert_eq!(two_pages - same_page, PAGE);
    // A write across a page boundary dirties both pages; one byte more is charged per byte.
    let one = stable_writer(&[(4_095, 1)]);
    let straddle = stable_writer(&[(4_095, 2)]);
    assert_eq!(straddle - one, PAGE + 1);
    // Nothing written, nothing dirtied: only the call and the page are the difference.
    let empty = stable_writer(&[(0, 0)]);
    assert_eq!(one - empty, PAGE + 1);
    // 10,000 bytes from offset 0 cover pages 0, 1 and 2; rewriting them adds no page.
    let big = stable_writer(&[(0, 10_000)]);
    let big_twice = stable_writer(&[(0, 10_000), (0, 10_000)]);
    assert_eq!(big - empty, 3 * PAGE + 10_000);
    let one_more_call = stable_writer(&[(0, 0), (0, 0)]) - empty;
    assert_eq!(big_twice - big, one_more_call + 10_000);
}
