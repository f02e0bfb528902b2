//! Encoding: candor writes the same bytes as candid 0.10.39 for every value of the
//! zoo (type table included), for multi-argument messages built every way, and for
//! random nested values.

use crate::zoo;

use pretty_assertions::assert_eq;
use proptest::prelude::*;
use zoo::{ours, theirs, Seed};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn zoo_encodes_to_candid_bytes() {
    let (o, t) = (ours::cases(), theirs::cases());
    assert_eq!(o.len(), t.len());
    let mut bad = Vec::new();
    for (o, t) in o.iter().zip(&t) {
        assert_eq!(o.name, t.name);
        if o.bytes != t.bytes {
            bad.push(format!(
                "{}\n  candor {}\n  candid {}",
                o.name,
                hex(&o.bytes),
                hex(&t.bytes)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} cases differ:\n{}",
        bad.len(),
        o.len(),
        bad.join("\n")
    );
}

#[test]
fn multi_argument_messages_every_way() {
    use candid::Encode;
    let (a, b, c) = (7u8, "seven", vec![Some(7i64), None]);
    let theirs = Encode!(&a, &b, &c).unwrap();
    assert_eq!(candor::Encode!(&a, &b, &c).unwrap(), theirs);
    assert_eq!(candor::encode_args((a, b, c.clone())).unwrap(), theirs);
    assert_eq!(
        candor::utils::encode_args_ref(&(a, b, c.clone())).unwrap(),
        theirs
    );
    let mut builder = candor::IDLBuilder::new();
    builder.arg(&a).unwrap().arg(&b).unwrap().arg(&c).unwrap();
    assert_eq!(builder.serialize_to_vec().unwrap(), theirs);
    let mut out = Vec::new();
    candor::write_args(&mut out, (a, b, c.clone())).unwrap();
    assert_eq!(out, theirs);

    // No argument at all, and one.
    assert_eq!(candor::Encode!().unwrap(), Encode!().unwrap());
    assert_eq!(
        candor::encode_one("x").unwrap(),
        candid::encode_one("x").unwrap()
    );
    assert_eq!(candor::Encode!(&a).unwrap(), Encode!(&a).unwrap());
}

#[test]
fn same_type_twice_and_mutual_recursion_share_table_entries() {
    let (o, t) = (ours::cases(), theirs::cases());
    // The Tree/Holder messages are the ones exercising shared and recursive entries;
    // a spot check that candid indeed shares entries (its table is short).
    let i = o
        .iter()
        .position(|c| c.name.starts_with("(tree_b(2), tree_a(2))"))
        .unwrap();
    assert_eq!(o[i].bytes, t[i].bytes);
    let j = o
        .iter()
        .position(|c| c.name.starts_with("(tree_a(2), tree_b(2))"))
        .unwrap();
    assert_eq!(o[j].bytes, t[j].bytes);
    assert_ne!(
        o[i].bytes, o[j].bytes,
        "argument order changes the type table order"
    );
}

#[test]
fn builder_value_and_types_by_reference() {
    let v = vec![String::from("a"); 3];
    let mut ours = candor::IDLBuilder::new();
    ours.arg(&v).unwrap().arg(&v).unwrap();
    let mut theirs = candid::ser::IDLBuilder::new();
    theirs.arg(&v).unwrap().arg(&v).unwrap();
    assert_eq!(
        ours.serialize_to_vec().unwrap(),
        theirs.serialize_to_vec().unwrap()
    );
}

pub fn seed() -> impl Strategy<Value = Seed> {
    let leaf = prop_oneof![
        any::<u32>().prop_map(Seed::Leaf),
        ("[a-zé✓]{0,12}", any::<u128>()).prop_map(|(s, n)| Seed::Text(s, n)),
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn random_nested_values_encode_alike(seed in seed()) {
        let (o, t) = (ours::shape_case(&seed), theirs::shape_case(&seed));
        prop_assert_eq!(hex(&o.bytes), hex(&t.bytes));
    }
}
