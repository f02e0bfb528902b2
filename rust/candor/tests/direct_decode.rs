//! Direct decoding (std vectors and candor's leaf types decoded without serde's
//! visitors) against the serde path: for every message and type, the same value, the
//! same quotas left, or the same error. Also where it fires and where it must not.

use candor::de::{direct_decodes, set_direct_decoding};
use candor::{CandidType, Deserialize, Encode, Int, Nat};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

/// One decode's outcome: the value (as `Debug` text) and the quotas left, or the
/// error text.
fn outcome<T>(bytes: &[u8], quota: usize) -> String
where
    T: for<'a> Deserialize<'a> + CandidType + Debug,
{
    let mut config = candor::DecoderConfig::new();
    config.set_decoding_quota(quota).set_skipping_quota(2_000);
    match candor::decode_args_with_config_debug::<(T,)>(bytes, &config) {
        Ok(((v,), cost)) => format!("{v:?} {:?} {:?}", cost.decoding_quota, cost.skipping_quota),
        Err(e) => format!("error: {e}"),
    }
}

/// The outcome with direct decoding and without, which must agree; returns it and
/// whether the direct path took the argument.
fn both<T>(bytes: &[u8], quota: usize) -> (String, bool)
where
    T: for<'a> Deserialize<'a> + CandidType + Debug,
{
    set_direct_decoding(false);
    let serde = outcome::<T>(bytes, quota);
    set_direct_decoding(true);
    let before = direct_decodes();
    let direct = outcome::<T>(bytes, quota);
    let fired = direct_decodes() != before;
    assert_eq!(
        direct,
        serde,
        "{}: direct decoding changed the outcome of {bytes:02x?} (quota {quota})",
        std::any::type_name::<T>()
    );
    (direct, fired)
}

/// Decodes `bytes` at every type with a direct path, and a few without.
fn at_every_type(bytes: &[u8], quota: usize) {
    both::<Vec<u8>>(bytes, quota);
    both::<Vec<i8>>(bytes, quota);
    both::<Vec<u16>>(bytes, quota);
    both::<Vec<i16>>(bytes, quota);
    both::<Vec<u32>>(bytes, quota);
    both::<Vec<i32>>(bytes, quota);
    both::<Vec<u64>>(bytes, quota);
    both::<Vec<i64>>(bytes, quota);
    both::<Vec<f32>>(bytes, quota);
    both::<Vec<f64>>(bytes, quota);
    both::<Vec<bool>>(bytes, quota);
    both::<Vec<String>>(bytes, quota);
    both::<Vec<Nat>>(bytes, quota);
    both::<Vec<Int>>(bytes, quota);
    both::<Vec<Vec<u32>>>(bytes, quota);
    both::<Vec<Vec<Nat>>>(bytes, quota);
    both::<Vec<Vec<String>>>(bytes, quota);
    both::<Vec<candor::Principal>>(bytes, quota);
    both::<Nat>(bytes, quota);
    both::<Int>(bytes, quota);
    both::<String>(bytes, quota);
    both::<u32>(bytes, quota);
    both::<bool>(bytes, quota);
    both::<Vec<Option<u32>>>(bytes, quota);
    both::<Option<Vec<u32>>>(bytes, quota);
    both::<BTreeMap<String, Nat>>(bytes, quota);
    both::<BTreeMap<String, u32>>(bytes, quota);
    both::<BTreeMap<u32, String>>(bytes, quota);
    both::<BTreeMap<Nat, Int>>(bytes, quota);
    both::<BTreeMap<Int, Vec<u8>>>(bytes, quota);
    both::<BTreeMap<String, Vec<String>>>(bytes, quota);
    both::<BTreeMap<String, BTreeMap<u32, bool>>>(bytes, quota);
    both::<Vec<BTreeMap<u32, String>>>(bytes, quota);
    both::<BTreeMap<String, Option<u32>>>(bytes, quota);
}

/// Messages of every shape the direct types meet, and of neighbouring shapes that
/// must fail or coerce (other widths, `opt` around the vector or its elements,
/// nested vectors, values past `u64`).
fn message() -> impl Strategy<Value = Vec<u8>> {
    let big = || {
        (any::<u128>(), any::<u64>())
            .prop_map(|(h, l)| Nat::from(h) * Nat::from(u64::MAX) + Nat::from(l))
    };
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..40).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(any::<i16>(), 0..40).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(any::<u32>(), 0..40).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(any::<i64>(), 0..40).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(any::<f64>(), 0..10).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(any::<bool>(), 0..40).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(".{0,12}", 0..10).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(any::<u64>().prop_map(Nat::from), 0..20)
            .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(big(), 0..6).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(any::<i64>().prop_map(Int::from), 0..20)
            .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(prop::collection::vec(any::<u32>(), 0..5), 0..5)
            .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(any::<Option<u32>>(), 0..10).prop_map(|v| Encode!(&v).unwrap()),
        any::<Option<Vec<u32>>>().prop_map(|v| Encode!(&v).unwrap()),
        (prop::collection::vec(any::<u32>(), 0..5), any::<u8>())
            .prop_map(|(v, x)| Encode!(&v, &x).unwrap()),
        big().prop_map(|n| Encode!(&n).unwrap()),
        ".{0,20}".prop_map(|s: String| Encode!(&s).unwrap()),
        // Maps, and vectors of pairs with the same wire type in any order with
        // repeated keys (what serde's inserts and a bulk build must agree on).
        prop::collection::btree_map("[a-c]{0,3}", any::<u64>().prop_map(Nat::from), 0..12)
            .prop_map(|m| Encode!(&m).unwrap()),
        prop::collection::vec(("[a-c]{0,2}", any::<u32>()), 0..12)
            .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec((0..4u32, "[a-c]{0,2}"), 0..12).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec((any::<i64>().prop_map(Int::from), big()), 0..6)
            .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec((big(), any::<i64>().prop_map(Int::from)), 0..6)
            .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec((0..3i64, prop::collection::vec(any::<u8>(), 0..4)), 0..6).prop_map(
            |v| Encode!(&v
                .into_iter()
                .map(|(k, b)| (Int::from(k), b))
                .collect::<Vec<_>>())
            .unwrap()
        ),
        prop::collection::vec(
            (
                "[ab]",
                prop::collection::btree_map(0..4u32, any::<bool>(), 0..4)
            ),
            0..5
        )
        .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(
            prop::collection::btree_map(0..4u32, "[ab]{0,2}", 0..4),
            0..4
        )
        .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(("[ab]", any::<Option<u32>>()), 0..6)
            .prop_map(|v| Encode!(&v).unwrap()),
        // Entries with a third field, or their fields in another order: not a map.
        prop::collection::vec(("[ab]", any::<u32>(), any::<u8>()), 0..4)
            .prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec((any::<u32>(), "[ab]"), 0..4).prop_map(|v| Encode!(&v).unwrap()),
        prop::collection::vec(prop::collection::vec(any::<u8>(), 0..30), 0..5).prop_map(|v| {
            let ps: Vec<candor::Principal> =
                v.iter().map(|b| candor::Principal::from_slice(b)).collect();
            Encode!(&ps).unwrap()
        }),
    ]
}

/// A message, or the message with one byte changed or cut short.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (message(), any::<prop::sample::Index>(), any::<u8>(), 0..3u8).prop_map(
        |(mut m, at, b, how)| {
            if m.len() > 7 {
                let i = 7 + at.index(m.len() - 7);
                match how {
                    0 => m[i] = b,
                    1 => m.truncate(i),
                    _ => {}
                }
            }
            m
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn direct_decoding_never_changes_an_outcome(bytes in mutated(), quota in prop_oneof![Just(10_000_000usize), 0..400usize]) {
        at_every_type(&bytes, quota);
    }
}

#[test]
fn fires_on_std_vectors_and_leaves() {
    let nats: Vec<Nat> = vec![1u8.into(), Nat::from(u128::MAX) * Nat::from(7u8)];
    assert!(both::<Vec<Nat>>(&Encode!(&nats).unwrap(), 1_000).1);
    assert!(both::<Vec<u32>>(&Encode!(&vec![1u32, 2, 3]).unwrap(), 1_000).1);
    assert!(both::<Vec<bool>>(&Encode!(&vec![true, false]).unwrap(), 1_000).1);
    assert!(both::<Vec<Vec<String>>>(&Encode!(&vec![vec!["a".to_string()]]).unwrap(), 1_000).1);
}

/// A `BTreeMap` of direct types is built from its entries at once: sorted or not,
/// with repeated keys or not, it is the map serde's inserts build, at the same cost.
#[test]
fn fires_on_maps_of_direct_types() {
    let map: BTreeMap<String, Nat> = [("b", 2u8), ("a", 1), ("c", 3)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Nat::from(v)))
        .collect();
    let (out, fired) = both::<BTreeMap<String, Nat>>(&Encode!(&map).unwrap(), 1_000);
    assert!(
        fired && out.starts_with(r#"{"a": Nat(1), "b": Nat(2), "c": Nat(3)}"#),
        "{out}"
    );
    // Unsorted, with a key repeated: the last value wins, as with serde's inserts.
    let pairs = vec![
        (3u32, "x".to_string()),
        (1, "y".into()),
        (3, "z".into()),
        (1, "w".into()),
    ];
    let (out, fired) = both::<BTreeMap<u32, String>>(&Encode!(&pairs).unwrap(), 1_000);
    assert!(fired && out.starts_with(r#"{1: "w", 3: "z"}"#), "{out}");
    let nested = vec![BTreeMap::from([(1u32, "a".to_string())]), BTreeMap::new()];
    assert!(both::<Vec<BTreeMap<u32, String>>>(&Encode!(&nested).unwrap(), 1_000).1);
    // A quota too small for the entries: the serde path gives the error.
    let (out, fired) = both::<BTreeMap<String, Nat>>(&Encode!(&map).unwrap(), 40);
    assert!(out.starts_with("error") && !fired, "{out}");
}

#[derive(CandidType, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key(u32);

/// A map whose key or value has a `Deserialize` of its own, or a `HashMap`, keeps
/// serde's visitor; so does a message whose entries are not `record { K; V }`.
#[test]
fn maps_keep_serde_where_they_must() {
    let pairs = Encode!(&vec![(1u32, 2u32)]).unwrap();
    assert!(!both::<BTreeMap<Key, u32>>(&pairs, 1_000).1);
    assert!(!both::<BTreeMap<u32, Option<u32>>>(&pairs, 1_000).1);
    assert!(!both::<HashMap<u32, u32>>(&pairs, 1_000).1);
    let triples = Encode!(&vec![(1u32, 2u32, 3u32)]).unwrap();
    let (out, fired) = both::<BTreeMap<u32, u32>>(&triples, 1_000);
    assert!(out.starts_with("error") && !fired, "{out}");
    let wrong = Encode!(&vec![("a".to_string(), 2u32)]).unwrap();
    let (out, fired) = both::<BTreeMap<u32, u32>>(&wrong, 1_000);
    assert!(out.starts_with("error") && !fired, "{out}");
}

#[derive(CandidType, Deserialize, Debug)]
struct Derived {
    values: Vec<u32>,
}

/// A type with a `Deserialize` of its own (derived, or serde's `Option`) is never
/// bypassed, nor is a message the direct path cannot take as it is.
#[test]
fn does_not_fire_where_it_must_not() {
    let derived = Encode!(&Derived { values: vec![1, 2] }).unwrap();
    assert!(!both::<Derived>(&derived, 1_000).1);
    let opt = Encode!(&Some(vec![1u32])).unwrap();
    assert!(!both::<Option<Vec<u32>>>(&opt, 1_000).1);
    // Another width, an `opt` the vector must coerce from, a cut message, a quota
    // that runs out, a bool that is neither 0 nor 1: the serde path decides.
    let u16s = Encode!(&vec![1u16, 2]).unwrap();
    assert!(both::<Vec<u32>>(&u16s, 1_000).0.starts_with("error"));
    assert!(!both::<Vec<u32>>(&u16s, 1_000).1);
    let u32s = Encode!(&vec![1u32, 2]).unwrap();
    assert!(!both::<Vec<u32>>(&u32s[..u32s.len() - 1], 1_000).1);
    let (out, fired) = both::<Vec<u32>>(&u32s, 10);
    assert!(out.starts_with("error") && !fired, "{out}");
    let mut bools = Encode!(&vec![true, false]).unwrap();
    *bools.last_mut().unwrap() = 2;
    assert!(!both::<Vec<bool>>(&bools, 1_000).1);
    // A leaf argument alone has no loop to save: the serde path takes it.
    assert!(!both::<Nat>(&Encode!(&Nat::from(5u8)).unwrap(), 1_000).1);
    assert!(!both::<String>(&Encode!(&"five").unwrap(), 1_000).1);
    // Off, nothing is decoded directly.
    set_direct_decoding(false);
    let before = direct_decodes();
    let _ = outcome::<Vec<u32>>(&u32s, 1_000);
    assert_eq!(direct_decodes(), before);
    set_direct_decoding(true);
}
