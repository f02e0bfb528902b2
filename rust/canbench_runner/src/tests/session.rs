//! One installed canister over many messages: state kept and rolled back as on the IC, and
//! the host's answers to each `ic0` call the canister makes.

use super::canister;
use crate::exec::{Canister, Delivery, Outcome};
use crate::ic0::ANONYMOUS;
use crate::session::Session;

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
