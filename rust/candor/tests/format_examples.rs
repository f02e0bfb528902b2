//! Every byte example of `spec/format.md`, encoded by candor and decoded back, and
//! found in the spec as written: when an example there changes, this test fails until
//! the code or the example is right again.

mod common;

use candor::{CandidType, Decode, Deserialize, Encode, Int, Nat, Principal};
use common::List;

fn spec() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/format.md");
    std::fs::read_to_string(path).expect("spec/format.md")
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Asserts that `bytes` print as `expected` and that the spec shows `expected`.
#[track_caller]
fn golden(spec: &str, bytes: &[u8], expected: &str) {
    assert_eq!(hex(bytes), expected);
    assert!(
        spec.contains(&format!("`{expected}`")),
        "spec/format.md no longer shows `{expected}`"
    );
}

#[derive(CandidType, Deserialize, Debug, PartialEq)]
struct R {
    a: u8,
    b: bool,
}

#[derive(CandidType, Deserialize, Debug, PartialEq)]
enum V {
    Ok(u8),
    Err(String),
}

#[test]
fn message_layout() {
    let spec = spec();
    golden(&spec, &Encode!().unwrap(), "44 49 44 4c 00 00");
    golden(
        &spec,
        &Encode!(&Nat::from(42u8)).unwrap(),
        "44 49 44 4c 00 01 7d 2a",
    );
    golden(
        &spec,
        &Encode!(&1u8, &"a").unwrap(),
        "44 49 44 4c 00 02 7b 71 01 01 61",
    );
}

#[test]
fn whole_messages() {
    let spec = spec();
    let cases: [(Vec<u8>, &str); 6] = [
        (
            Encode!(&Some(5u8)).unwrap(),
            "44 49 44 4c 01 6e 7b 01 00 01 05",
        ),
        (
            Encode!(&vec![1u16, 2]).unwrap(),
            "44 49 44 4c 01 6d 7a 01 00 02 01 00 02 00",
        ),
        (
            Encode!(&R { a: 7, b: true }).unwrap(),
            "44 49 44 4c 01 6c 02 61 7b 62 7e 01 00 07 01",
        ),
        (
            Encode!(&V::Err("x".into())).unwrap(),
            "44 49 44 4c 01 6b 02 bc 8a 01 7b c5 fe d2 01 71 01 00 01 01 78",
        ),
        (
            Encode!(&(1u8, 2u16)).unwrap(),
            "44 49 44 4c 01 6c 02 00 7b 01 7a 01 00 01 02 00",
        ),
        (
            Encode!(&Principal::anonymous()).unwrap(),
            "44 49 44 4c 00 01 68 01 01 04",
        ),
    ];
    for (bytes, expected) in &cases {
        golden(&spec, bytes, expected);
    }
    // And back.
    assert_eq!(Decode!(&cases[0].0, Option<u8>).unwrap(), Some(5));
    assert_eq!(Decode!(&cases[1].0, Vec<u16>).unwrap(), vec![1, 2]);
    assert_eq!(Decode!(&cases[2].0, R).unwrap(), R { a: 7, b: true });
    assert_eq!(Decode!(&cases[3].0, V).unwrap(), V::Err("x".into()));
    assert_eq!(Decode!(&cases[4].0, (u8, u16)).unwrap(), (1, 2));
    assert_eq!(
        Decode!(&cases[5].0, Principal).unwrap(),
        Principal::anonymous()
    );
}

/// The value column of §5: each value is the tail of its one-argument message.
#[test]
fn value_encodings() {
    let spec = spec();
    let tail = |message: Vec<u8>, value_len: usize| message[message.len() - value_len..].to_vec();
    golden(&spec, &tail(Encode!(&true).unwrap(), 1), "01");
    golden(
        &spec,
        &tail(Encode!(&Nat::from(300u16)).unwrap(), 2),
        "ac 02",
    );
    golden(&spec, &tail(Encode!(&Int::from(-1)).unwrap(), 1), "7f");
    golden(&spec, &tail(Encode!(&1u16).unwrap(), 2), "01 00");
    golden(&spec, &tail(Encode!(&1.0f32).unwrap(), 4), "00 00 80 3f");
    golden(&spec, &tail(Encode!(&"hi").unwrap(), 3), "02 68 69");
    golden(&spec, &tail(Encode!(&Some(5u8)).unwrap(), 2), "01 05");
    golden(
        &spec,
        &tail(Encode!(&vec![1u16, 2]).unwrap(), 5),
        "02 01 00 02 00",
    );
    golden(
        &spec,
        &tail(Encode!(&R { a: 7, b: true }).unwrap(), 2),
        "07 01",
    );
    golden(
        &spec,
        &tail(Encode!(&V::Err("x".into())).unwrap(), 3),
        "01 01 78",
    );
    golden(
        &spec,
        &tail(Encode!(&Principal::anonymous()).unwrap(), 3),
        "01 01 04",
    );
    golden(
        &spec,
        &tail(Encode!(&Principal::management_canister()).unwrap(), 2),
        "01 00",
    );
    let f = candor::types::reference::Func {
        principal: Principal::management_canister(),
        method: "m".into(),
    };
    golden(&spec, &tail(Encode!(&f).unwrap(), 5), "01 01 00 01 6d");
}

/// The type-table column of §4: the entry (with the table's count) sits after the
/// magic of a one-argument message.
#[test]
fn type_table_entries() {
    let spec = spec();
    let table = |message: Vec<u8>, len: usize| message[4..4 + len].to_vec();
    let entry = |bytes: Vec<u8>| {
        let h = hex(&bytes);
        // The spec separates the count from the entry with two spaces.
        h.replacen(' ', "  ", 1)
    };
    let check = |bytes: Vec<u8>, expected: &str| {
        assert_eq!(entry(bytes), expected);
        assert!(spec.contains(&format!("`{expected}`")), "{expected}");
    };
    check(table(Encode!(&Some(5u8)).unwrap(), 3), "01  6e 7b");
    check(table(Encode!(&vec![1u16]).unwrap(), 3), "01  6d 7a");
    check(
        table(Encode!(&R { a: 7, b: true }).unwrap(), 7),
        "01  6c 02 61 7b 62 7e",
    );
    check(
        table(Encode!(&V::Ok(1)).unwrap(), 12),
        "01  6b 02 bc 8a 01 7b c5 fe d2 01 71",
    );
    check(
        table(Encode!(&(1u8, 2u16)).unwrap(), 7),
        "01  6c 02 00 7b 01 7a",
    );
}

#[test]
fn integer_encodings_and_field_ids() {
    let spec = spec();
    assert!(spec.contains("`300` → `ac 02`"));
    assert!(spec.contains("`-1` → `7f`, `-3` → `7d`"));
    let mut leb = Vec::new();
    candor::types::leb128::encode_int(&mut leb, -3).unwrap();
    assert_eq!(hex(&leb), "7d");

    assert_eq!(candor::idl_hash("foo"), 5_097_222);
    assert!(spec.contains("`idl_hash(\"foo\") = 5097222`"));
    let mut leb = Vec::new();
    candor::types::leb128::encode_nat(&mut leb, 5_097_222).unwrap();
    assert_eq!(hex(&leb), "86 8e b7 02");
    assert!(spec.contains("`86 8e b7 02`"));
}

/// §7's worked example: the table of a recursive type, knot and all.
#[test]
fn recursive_type_table() {
    let spec = spec();
    let value = Some(Box::new(List {
        head: Int::from(1),
        tail: None,
    }));
    let bytes = Encode!(&value).unwrap();
    let expected_table = "02 6e 01 6c 02 a0 d2 ac a8 04 7c 90 ed da e7 04 00 01 00";
    assert_eq!(hex(&bytes[4..bytes.len() - 3]), expected_table);
    assert_eq!(hex(&bytes[bytes.len() - 3..]), "01 01 00");
    // The spec lays the same bytes out with comments, one entry per line.
    let listing: Vec<&str> = spec
        .lines()
        .skip_while(|l| !l.starts_with("02 "))
        .take(5)
        .flat_map(|l| {
            l.split_whitespace()
                .take_while(|t| t.len() == 2 && t.chars().all(|c| c.is_ascii_hexdigit()))
        })
        .collect();
    assert_eq!(listing.join(" "), expected_table);
    assert!(spec.contains("is `01 01 00`"));
    assert_eq!(Decode!(&bytes, Option<Box<List>>).unwrap(), value);
}
