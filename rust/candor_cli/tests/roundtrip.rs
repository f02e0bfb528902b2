//! `assemble(explain(m)) == m` for every message: the official suite's binary inputs
//! (valid, malformed and hostile), random messages and mutations of valid ones; and
//! explain never panics and shows every byte.

use candor_cli::assemble::assemble;
use candor_cli::explain::{explain, Context};
use proptest::prelude::*;
use std::path::PathBuf;

fn suite_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("CANDID_TEST_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/candid-test-suite")
        });
    dir.is_dir().then_some(dir)
}

/// Every binary input of the suite's assertions.
fn suite_messages() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = suite_dir() else {
        println!("note: official suite not found; set CANDID_TEST_SUITE");
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".test.did"))
        .collect();
    files.sort();
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let test: candor_parser::test::Test = src.parse().unwrap();
        for a in &test.asserts {
            for input in std::iter::once(&a.left).chain(&a.right) {
                if let candor_parser::test::Input::Blob(b) = input {
                    let name =
                        format!("{}:{}", path.file_name().unwrap().to_string_lossy(), a.line);
                    out.push((name, b.clone()));
                }
            }
        }
    }
    out
}

/// An interface to read messages against (the subtyping walk: records, opts,
/// variants, a recursive type, reserved); the fuzz target uses the same one.
fn typed() -> Context {
    let did = "type List = opt record { head : int; tail : List }; \
        service : { m : (record { a : nat; b : opt text; c : variant { x; y : nat8 } }, List, reserved, opt vec nat16) -> () }";
    let prog: candor_parser::IDLProg = did.parse().unwrap();
    let mut env = candor::TypeEnv::new();
    let actor = candor_parser::check_prog(&mut env, &prog).unwrap().unwrap();
    let args = env.get_method(&actor, "m").unwrap().args.clone();
    Context::from_interface(&env, &args)
}

#[track_caller]
fn round_trip(m: &[u8]) {
    thread_local!(static TYPED: Context = typed());
    let explained = explain(m, &Context::default());
    let back =
        assemble(&explained.text(), false).unwrap_or_else(|e| panic!("{e}\n{}", explained.text()));
    assert_eq!(back, m, "\n{}", explained.text());
    // Against an interface: the same bytes, whatever the subtyping decisions.
    TYPED.with(|cx| {
        let typed = explain(m, cx);
        assert_eq!(typed.fault, explained.fault);
        let back =
            assemble(&typed.text(), false).unwrap_or_else(|e| panic!("{e}\n{}", typed.text()));
        assert_eq!(back, m, "\n{}", typed.text());
    });
}

#[test]
fn every_suite_message_round_trips() {
    let messages = suite_messages();
    let mut faults = 0;
    for (name, m) in &messages {
        let explained = explain(m, &Context::default());
        faults += usize::from(explained.fault.is_some());
        let back = assemble(&explained.text(), false)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{}", explained.text()));
        assert_eq!(&back, m, "{name}\n{}", explained.text());
        round_trip(m);
    }
    if suite_dir().is_some() {
        // The suite has both well-formed and malformed messages; both kinds must
        // have been seen for this test to mean something.
        assert!(messages.len() > 300, "{} messages", messages.len());
        assert!(faults > 50 && faults < messages.len(), "{faults} faults");
    }
}

#[test]
fn hostile_shapes_round_trip_with_a_fault() {
    for hex in [
        "",
        "4449",
        "4449444d0000",
        "4449444c",
        "4449444c00",
        "4449444c016d7b0100ffffffffffffffff0f",
        "4449444c016e000100",
        "4449444c016d7f0100ffffffffffffffffff01",
        "4449444c00017e02",
        "4449444c0001710203ff",
        "4449444c000168010004",
        "4449444c00017d8080808080808080808001",
        "4449444c0000deadbeef",
        "4449444c016c02010002000100",
        // Found by the explain fuzzer: a func value whose principal length is padded
        // LEB128 (`80 00`), which the value printer must read as explain does.
        "4449444c016a000000010001018000000001000101 00a249",
        // Found by the explain fuzzer: nested vectors of values taking no bytes with
        // huge lengths saturate their units; adding a line's units to the total
        // overflowed on the short-line path.
        "4449444c026d016c02007070707070707070707070707070707070707070000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000707070707a70707070707070f8ffffffffffffff707104842c0041007d7977",
    ] {
        let hex = hex.replace(' ', "");
        let m: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        round_trip(&m);
    }
}

#[test]
fn a_vector_of_nulls_is_one_line_however_long() {
    let m = [
        0x44, 0x49, 0x44, 0x4c, 0x01, 0x6d, 0x7f, 0x01, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f,
    ];
    let explained = explain(&m, &Context::default());
    assert!(explained.fault.is_none(), "{}", explained.text());
    assert!(
        explained.text().lines().count() < 10,
        "{}",
        explained.text()
    );
    round_trip(&m);
}

#[test]
fn a_malformed_message_is_explained_up_to_its_fault() {
    // One nat, then a text whose length runs past the input.
    let m = b"DIDL\x00\x02\x7d\x71\x2a\x05ab";
    let explained = explain(m, &Context::default());
    let fault = explained.fault.clone().unwrap();
    assert_eq!(fault.offset, 9);
    assert!(
        explained.text().contains("arg 0 : nat = 42"),
        "{}",
        explained.text()
    );
    assert!(
        explained.text().contains("!! fault at offset 9"),
        "{}",
        explained.text()
    );
    round_trip(m);
}

/// A random value, encoded by candor: the valid messages the mutations start from.
fn message() -> impl Strategy<Value = Vec<u8>> {
    use candor::{IDLArgs, IDLValue};
    let leaf = prop_oneof![
        any::<bool>().prop_map(IDLValue::Bool),
        any::<u8>().prop_map(IDLValue::Nat8),
        any::<i64>().prop_map(IDLValue::Int64),
        any::<f32>().prop_map(IDLValue::Float32),
        ".{0,8}".prop_map(IDLValue::Text),
        Just(IDLValue::Null),
        Just(IDLValue::Reserved),
    ];
    let value = leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|v| IDLValue::Opt(Box::new(v))),
            prop::collection::vec(inner.clone(), 0..3).prop_map(|vs| {
                // A vector's elements share one type: repeat the first.
                match vs.first() {
                    Some(v) => IDLValue::Vec(vec![v.clone(); vs.len()]),
                    None => IDLValue::Vec(vec![]),
                }
            }),
            prop::collection::vec(inner, 0..3).prop_map(|vs| {
                IDLValue::Record(
                    vs.into_iter()
                        .enumerate()
                        .map(|(i, val)| candor::IDLField {
                            id: candor::types::Label::Id(i as u32),
                            val,
                        })
                        .collect(),
                )
            }),
        ]
    });
    prop::collection::vec(value, 0..3)
        .prop_map(|args| IDLArgs { args }.to_bytes().unwrap_or_default())
}

proptest! {
    #[test]
    fn random_bytes_round_trip(m in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut with_magic = b"DIDL".to_vec();
        with_magic.extend_from_slice(&m);
        round_trip(&m);
        round_trip(&with_magic);
    }

    #[test]
    fn valid_messages_and_their_mutations_round_trip(
        m in message(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let explained = explain(&m, &Context::default());
        prop_assert!(explained.fault.is_none(), "{}", explained.text());
        round_trip(&m);
        if !m.is_empty() {
            let mut mutated = m.clone();
            mutated[at.index(m.len())] = byte;
            round_trip(&mutated);
            round_trip(&m[..cut.index(m.len())]);
        }
    }
}

/// The command's streaming path writes the same text as `explain`, across many
/// flushes of its buffer, for a well-formed and a malformed message.
#[test]
fn explain_to_writes_what_explain_returns() {
    use candor::{IDLArgs, IDLValue};
    let big = IDLArgs {
        args: vec![IDLValue::Vec(
            (0..20_000u32)
                .map(|i| IDLValue::Opt(Box::new(IDLValue::Nat32(i))))
                .collect(),
        )],
    }
    .to_bytes()
    .unwrap();
    let cut = &big[..big.len() - 3];
    for m in [&big[..], cut] {
        let whole = explain(m, &Context::default());
        assert!(whole.bytes.len() > 4 * candor_cli::explain::FLUSH_AT);
        let mut streamed = Vec::new();
        let verdict =
            candor_cli::explain::explain_to(m, &Context::default(), &mut streamed).unwrap();
        assert_eq!(streamed, whole.bytes);
        assert_eq!(verdict.fault, whole.fault);
    }
}
