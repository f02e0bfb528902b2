//! Unit cases of a variant: a payload of `null` by direct reference on both sides
//! is accepted with no arena lookup (spec/decoder.md, the row "A unit case by
//! direct reference"); any other payload is checked as before.

use pretty_assertions::assert_eq;

#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
enum Status {
    #[serde(rename = "running")]
    Running,
    #[serde(rename = "stopping")]
    Stopping,
    #[serde(rename = "stopped")]
    Stopped,
}

/// The same case names, with payloads on the wire.
#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
enum Carrying {
    #[serde(rename = "running")]
    Running(u64),
    #[serde(rename = "stopping")]
    Stopping,
    #[serde(rename = "stopped")]
    Stopped(Option<u8>),
}

/// Takes the path: every unit case, alone and in a vector, as candid decodes it.
#[test]
fn unit_cases_decode_as_candid() {
    let all = vec![
        Status::Running,
        Status::Stopping,
        Status::Stopped,
        Status::Running,
    ];
    let bytes = candor::encode_one(&all).unwrap();
    assert_eq!(candor::decode_one::<Vec<Status>>(&bytes).unwrap(), all);
    assert_eq!(candid::decode_one::<Vec<Status>>(&bytes).unwrap(), all);
}

/// Does not fire where it must not: a case that carries a value on the wire, read
/// as a unit case, is rejected (as candid rejects it) with the same error as
/// before; a unit case on both sides next to it still decodes.
#[test]
fn unit_cases_with_a_payload_on_the_wire() {
    for (sent, ok) in [
        (Carrying::Running(7), false),
        (Carrying::Stopping, true),
        (Carrying::Stopped(None), false),
    ] {
        let bytes = candor::encode_one(&sent).unwrap();
        let ours = candor::decode_one::<Status>(&bytes);
        let theirs = candid::decode_one::<Status>(&bytes);
        assert_eq!(ours.is_ok(), ok, "{sent:?}: {ours:?}");
        assert_eq!(theirs.is_ok(), ok, "{sent:?}: {theirs:?}");
        if let Err(e) = ours {
            assert!(e.to_string().contains("expected null, found"), "{e}");
        }
    }
}
