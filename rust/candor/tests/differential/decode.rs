//! Decoding: candid-encoded messages decode in candor to the same values as in candid
//! (compared by re-encoding what each decoder produced), at the message's own types
//! and at supertypes (Candid subtyping, the special `opt` rule, extra and missing
//! arguments, `reserved`).

use crate::zoo;

use pretty_assertions::assert_eq;
use proptest::prelude::*;
use zoo::{ours, theirs, Case, Seed};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Decodes `theirs.bytes` (candid's encoding) with both crates; returns a description
/// of the disagreement if any.
fn compare(o: &Case, t: &Case) -> Option<String> {
    let ours = (o.decode)(&t.bytes, None, None).map(|d| hex(&d.reencoded));
    let theirs = (t.decode)(&t.bytes, None, None).map(|d| hex(&d.reencoded));
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) if a == b => None,
        (Err(_), Err(_)) => None,
        _ => Some(format!(
            "{}\n  candor {ours:?}\n  candid {theirs:?}",
            o.name
        )),
    }
}

#[test]
fn same_type_values_decode_alike() {
    let (o, t) = (ours::same_type_cases(), theirs::same_type_cases());
    let bad: Vec<String> = o
        .iter()
        .zip(&t)
        .filter_map(|(o, t)| compare(o, t))
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        o.len(),
        bad.join("\n")
    );
    // And every one of them decodes (the zoo holds no failing same-type case).
    for t in &t {
        assert!((t.decode)(&t.bytes, None, None).is_ok(), "{}", t.name);
    }
}

#[test]
fn supertype_values_decode_alike() {
    let (o, t) = (ours::subtype_cases(), theirs::subtype_cases());
    let bad: Vec<String> = o
        .iter()
        .zip(&t)
        .filter_map(|(o, t)| compare(o, t))
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        o.len(),
        bad.join("\n")
    );
    for t in &t {
        assert!((t.decode)(&t.bytes, None, None).is_ok(), "{}", t.name);
    }
}

/// The value-level `opt` rule, spelled out with the values candid produces.
#[test]
fn opt_rule_values() {
    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    enum AB {
        A,
        B,
    }
    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    enum OnlyA {
        A,
    }
    let a = candor::encode_one(AB::A).unwrap();
    let b = candor::encode_one(AB::B).unwrap();
    assert_eq!(
        candor::decode_one::<Option<OnlyA>>(&a).unwrap(),
        Some(OnlyA::A)
    );
    assert_eq!(candor::decode_one::<Option<OnlyA>>(&b).unwrap(), None);
    // Not under opt, the same mismatch is an error in both crates.
    assert!(candor::decode_one::<OnlyA>(&b).is_err());
    assert!(candid::decode_one::<OnlyA2>(&b).is_err());
    #[derive(candid::CandidType, candid::Deserialize, Debug, PartialEq)]
    enum OnlyA2 {
        A,
    }

    let text = candor::encode_one("x").unwrap();
    assert_eq!(candor::decode_one::<Option<u8>>(&text).unwrap(), None);
    assert_eq!(candid::decode_one::<Option<u8>>(&text).unwrap(), None);
    let five = candor::encode_one(5u8).unwrap();
    assert_eq!(
        candor::decode_one::<Option<Option<u8>>>(&five).unwrap(),
        Some(Some(5))
    );
    assert_eq!(
        candid::decode_one::<Option<Option<u8>>>(&five).unwrap(),
        Some(Some(5))
    );
    let null = candor::encode_one(()).unwrap();
    assert_eq!(
        candor::decode_one::<Option<Option<u8>>>(&null).unwrap(),
        None
    );
    let nat = candor::encode_one(candor::Nat::from(5u8)).unwrap();
    assert_eq!(
        candor::decode_one::<candor::Int>(&nat).unwrap(),
        candor::Int::from(5)
    );
    assert_eq!(candor::decode_one::<Option<u64>>(&nat).unwrap(), None);
}

#[test]
fn mismatches_are_subtype_errors_in_both() {
    let msg = candid::encode_one("text").unwrap();
    let ours = candor::decode_one::<u8>(&msg).unwrap_err();
    assert!(ours.is_subtype(), "{ours}");
    // candid wraps every argument's error in an `anyhow` context, so its top-level
    // error is `Custom` (spec/differences.md, D6); candor keeps the kind.
    assert!(matches!(
        candid::decode_one::<u8>(&msg).unwrap_err(),
        candid::Error::Custom(_)
    ));
    // Missing non-opt argument.
    let msg = candid::encode_args((1u8,)).unwrap();
    assert!(candor::decode_args::<(u8, u8)>(&msg).is_err());
    assert!(candid::decode_args::<(u8, u8)>(&msg).is_err());
    // int is not a subtype of nat.
    let msg = candid::encode_one(candid::Int::from(1)).unwrap();
    assert!(candor::decode_one::<candor::Nat>(&msg)
        .unwrap_err()
        .is_subtype());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn random_nested_values_decode_alike(seed in seed()) {
        let (o, t) = (ours::shape_case(&seed), theirs::shape_case(&seed));
        prop_assert_eq!(compare(&o, &t), None);
        prop_assert!((o.decode)(&t.bytes, None, None).is_ok());
    }
}

fn seed() -> impl Strategy<Value = Seed> {
    let leaf = prop_oneof![
        any::<u32>().prop_map(Seed::Leaf),
        ("[a-z✓]{0,8}", any::<u128>()).prop_map(|(s, n)| Seed::Text(s, n)),
        Just(Seed::Nothing),
        (any::<i64>(), proptest::collection::vec(any::<u8>(), 0..8))
            .prop_map(|(i, b)| Seed::Signed(i, b)),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Seed::Pair(Box::new(a), Box::new(b))),
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Seed::Many),
            proptest::option::of(inner).prop_map(|o| Seed::Maybe(o.map(Box::new))),
        ]
    })
}
