//! explain's subtyping verdict is the decoder's: random messages written with one
//! interface, explained and decoded with another (fields added and removed, `opt`s
//! that do not fit, cases missing, numbers widened, extra and missing arguments),
//! are rejected by explain exactly when candor's decoder rejects them.

use candor::types::{Type, TypeEnv};
use candor::IDLArgs;
use candor_cli::explain::{explain, Context};

fn method(did: &str) -> (TypeEnv, Vec<Type>) {
    let prog: candor_parser::IDLProg = did.parse().unwrap();
    let mut env = TypeEnv::new();
    let actor = candor_parser::check_prog(&mut env, &prog).unwrap().unwrap();
    let args = env.get_method(&actor, "m").unwrap().args.clone();
    (env, args)
}

const WRITER: &str = "service : { m : (record { a : nat; b : opt text; c : variant { x; y : nat8; w : text }; d : vec opt int8; e : text; g : opt record { h : nat } }, nat) -> () }";

const READERS: [&str; 6] = [
    // The same interface.
    WRITER,
    // Widened numbers, an opt that does not fit, a missing case, a new optional field.
    "service : { m : (record { a : int; b : opt nat; c : variant { x; y : nat8 }; d : vec opt int16; f : opt nat; g : opt record { h : nat; i : opt text } }) -> () }",
    // A field of another type where no opt absorbs it, and extra optional arguments.
    "service : { m : (record { a : nat; e : nat }, opt nat, opt text) -> () }",
    // reserved takes anything; nat is not int's subtype the other way.
    "service : { m : (reserved, int) -> () }",
    // An opt whose inner record does not fit, and all cases present.
    "service : { m : (record { g : opt record { h : text }; c : variant { x; y : nat8; w : text; v } }) -> () }",
    // A required argument the writer does not send.
    "service : { m : (reserved, nat, text) -> () }",
];

#[test]
fn explain_rejects_exactly_what_the_decoder_rejects() {
    let (wenv, wtypes) = method(WRITER);
    let messages: Vec<Vec<u8>> = candor_cli::random::generate(&wenv, &wtypes, 9, 300)
        .unwrap()
        .into_iter()
        .map(|m| m.to_bytes_with_types(&wenv, &wtypes).unwrap())
        .collect();
    for (r, reader) in READERS.iter().enumerate() {
        let (env, types) = method(reader);
        let cx = Context::from_interface(&env, &types);
        let (mut accepted, mut rejected) = (0, 0);
        for m in &messages {
            let explained = explain(m, &cx);
            assert!(explained.fault.is_none(), "{}", explained.text());
            let decoded = IDLArgs::from_bytes_with_types(m, &env, &types);
            assert_eq!(
                explained.rejected.is_none(),
                decoded.is_ok(),
                "reader {r}: explain says {:?}, the decoder {:?}\n{}",
                explained.rejected,
                decoded.err(),
                explained.text()
            );
            if decoded.is_ok() {
                accepted += 1;
            } else {
                rejected += 1;
            }
        }
        println!("reader {r}: {accepted} accepted, {rejected} rejected");
        if r == 1 {
            // The interesting reader sees both verdicts.
            assert!(accepted > 50 && rejected > 50, "{accepted} / {rejected}");
        }
    }
}

/// One wire record entry read against two different expected records (one per
/// argument): explain keeps the expected fields' ids per table entry, and must not
/// read the second argument with the first one's ids. Each argument, explained
/// alone with its own reader, says the same about its fields as in the pair.
#[test]
fn one_wire_record_read_against_two_expected_records() {
    let writer = "service : { m : (record { b : nat8 }, record { b : nat8 }) -> () }";
    let (wenv, wtypes) = method(writer);
    let msg = candor_parser::parse_idl_args("(record { b = 1 : nat8 }, record { b = 2 : nat8 })")
        .unwrap();
    let bytes = msg.to_bytes_with_types(&wenv, &wtypes).unwrap();
    // The writer's two record types are one table entry.
    assert_eq!(bytes[4], 1, "one table entry");
    let reader = "service : { m : (record { b : nat8 }, record { a : opt nat; b : nat8; c : opt text }) -> () }";
    let (env, types) = method(reader);
    let explained = explain(&bytes, &Context::from_interface(&env, &types));
    let text = explained.text();
    let arg1: Vec<&str> = text.lines().filter(|l| l.contains("arg 1 →")).collect();
    assert!(
        arg1.iter()
            .any(|l| l.contains("arg 1 → a") && l.contains("absent")),
        "{text}"
    );
    assert!(
        arg1.iter()
            .any(|l| l.contains("arg 1 → c") && l.contains("absent")),
        "{text}"
    );
    assert!(
        arg1.iter()
            .any(|l| l.contains("arg 1 → b") && l.contains("= 2")),
        "{text}"
    );
}
