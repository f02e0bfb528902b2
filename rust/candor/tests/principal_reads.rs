//! Principals read by `Principal`'s own `Deserialize` (`deserialize_bytes`): a
//! principal on both sides by direct reference is read with no arena lookup
//! (spec/decoder.md, the row "A principal's read by direct reference"). Values,
//! units and errors are candid's, on that path and off it.

mod common;

use candor::Principal;
use common::decode_same as both;
use pretty_assertions::assert_eq;
use serde_bytes::ByteBuf;

#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Ids {
    owner: Principal,
    controllers: Vec<Principal>,
    maybe: Option<Principal>,
}

fn sample(i: u8) -> Ids {
    let p = |k: u8| Principal::from_slice(&[k; 10][..(k as usize % 10)]);
    Ids {
        owner: p(i),
        controllers: vec![p(i + 1), Principal::from_slice(&[i; 29])],
        maybe: Some(p(i + 2)),
    }
}

/// Takes the path: principals of several lengths, alone, in a vector and in an
/// option, with candid's values and units, and the quota running out at the same
/// unit.
#[test]
fn principal_fields_decode_and_cost_as_candid() {
    for i in [0u8, 3, 9] {
        let v = sample(i);
        let bytes = candor::encode_one(&v).unwrap();
        assert_eq!(both::<Ids>(&bytes, 1_000_000), Some(v));
        for quota in 0..200 {
            both::<Ids>(&bytes, quota);
        }
    }
}

/// Every length a principal may have, each byte distinct, alone and as a record
/// field: a user's (29 bytes) and a canister's (10) are handed to `Principal`'s
/// visitor as slices of a length known when compiling, the others as they are;
/// each comes out as the principal of exactly its bytes, as candid gives it.
#[test]
fn principals_of_every_length() {
    for len in 0..=29u8 {
        let id = Principal::from_slice(&(100..100 + len).collect::<Vec<u8>>());
        let bytes = candor::encode_one(id).unwrap();
        assert_eq!(
            both::<Principal>(&bytes, 1_000_000),
            Some(id),
            "{len} bytes"
        );
        let ids = Ids {
            owner: id,
            controllers: vec![id, Principal::from_slice(&[len; 10])],
            maybe: Some(id),
        };
        let bytes = candor::encode_one(&ids).unwrap();
        assert_eq!(both::<Ids>(&bytes, 1_000_000), Some(ids), "{len} bytes");
    }
}

/// Does not fire where it must not: a `service` on the wire read as a
/// `Principal`, a `vec nat8` on the wire read as a `Principal` and a principal
/// read as a `ByteBuf` (both rejected, as candid does), a blob read as borrowed
/// bytes, and a cut principal (an error at a byte offset).
#[test]
fn principal_reads_off_the_path() {
    let id = Principal::from_slice(&[1, 2, 3]);
    let service = candor::IDLArgs::new(&[candor::IDLValue::Service(id)])
        .to_bytes()
        .unwrap();
    let ours = candor::decode_one::<Principal>(&service).map_err(|e| e.to_string());
    let theirs = candid::decode_one::<Principal>(&service).map_err(|e| e.to_string());
    assert_eq!(ours.is_ok(), theirs.is_ok(), "{ours:?} {theirs:?}");
    if let Ok(p) = ours {
        assert_eq!(p, id);
    }

    let blob = candor::encode_one(ByteBuf::from(vec![1u8, 2, 3])).unwrap();
    assert!(candor::decode_one::<Principal>(&blob).is_err());
    assert!(candid::decode_one::<Principal>(&blob).is_err());

    let principal = candor::encode_one(id).unwrap();
    assert_eq!(both::<ByteBuf>(&principal, 1_000_000), None);
    let bytes: &[u8] = candor::decode_one::<&serde_bytes::Bytes>(&blob)
        .map(|b| &b[..])
        .unwrap();
    assert_eq!(bytes, [1, 2, 3]);

    for cut in 1..principal.len() {
        let ours = candor::decode_one::<Principal>(&principal[..cut]).unwrap_err();
        assert!(candid::decode_one::<Principal>(&principal[..cut]).is_err());
        if cut >= principal.len() - 4 {
            assert!(ours.to_string().contains("byte offset"), "{ours}");
        }
    }
}
