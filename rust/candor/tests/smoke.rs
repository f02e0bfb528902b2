//! First end-to-end checks: candor and candid agree on bytes, values and costs for a
//! few hand-picked messages (the wide differential and property tests live in
//! `differential.rs` and `roundtrip.rs`).

mod common;

use common::List;
use pretty_assertions::assert_eq;

#[test]
fn candid_doc_example_costs() {
    // candid's own documentation of `Decode!(@Debug …)` states these numbers.
    let bytes = candor::Encode!(&42u32, &"hello", &"extra arguments").unwrap();
    let theirs = candid::encode_args((42u32, "hello", "extra arguments")).unwrap();
    assert_eq!(bytes, theirs);
    let mut config = candor::DecoderConfig::new();
    config.set_decoding_quota(1000).set_skipping_quota(50);
    let ((a, b), cost) = candor::Decode!(@Debug [config]; &bytes, u32, String).unwrap();
    assert_eq!((a, b.as_str()), (42, "hello"));
    assert_eq!(cost.decoding_quota, Some(846));
    assert_eq!(cost.skipping_quota, Some(16));
}

#[test]
fn recursive_list_round_trip() {
    let list = common::list(100);
    let bytes = candor::encode_one(&list).unwrap();
    let back: Option<Box<List>> = candor::decode_one(&bytes).unwrap();
    assert_eq!(back, list);
}

#[test]
fn errors_name_offset_and_path() {
    #[derive(candor::CandidType, serde::Deserialize, Debug)]
    struct Neuron {
        id: u64,
        dissolve_state: u8,
    }
    #[derive(candor::CandidType, serde::Deserialize, Debug)]
    struct Wire {
        id: u64,
        dissolve_state: u16,
    }
    let bytes = candor::encode_one(vec![Wire {
        id: 1,
        dissolve_state: 2,
    }])
    .unwrap();
    let err = candor::decode_one::<Vec<Neuron>>(&bytes).unwrap_err();
    assert!(err.is_subtype(), "{err}");
    let msg = err.to_string();
    assert!(
        msg.starts_with("Subtyping error: expected nat8, found nat16 at byte offset"),
        "{msg}"
    );
    assert!(msg.contains("in arg 0 → [0] → dissolve_state"), "{msg}");
}
