//! `i128` and `u128` read from `int` and `nat`: a value that fits 64 bits takes the
//! 64-bit reader, a larger one the 128-bit reader (`De::deserialize_i128`,
//! `De::deserialize_u128`). Values, units left and errors are candid 0.10.39's on
//! both sides of every boundary: 64 bits, 128 bits, and the sign.

mod common;

/// The decoded record, spelled with candor's derive (decoded by candor) and
/// candid's (decoded by candid).
macro_rules! wide {
    ($lib:ident) => {
        #[derive($lib::CandidType, serde::Deserialize, PartialEq, Debug)]
        pub struct Wide {
            pub signed: i128,
            pub unsigned: u128,
            pub tail: u8,
        }
    };
}

mod ours {
    wide!(candor);
}

mod theirs {
    wide!(candid);
}

use ours::Wide;
use theirs::Wide as TheirWide;

/// The same record on the wire as `int`/`nat` bignums of any size.
#[derive(candid::CandidType, serde::Deserialize)]
struct Sent {
    signed: candid::Int,
    unsigned: candid::Nat,
    tail: u8,
}

/// The same record with a `nat` where `Wide` has its `i128` (the coercion the
/// read takes).
#[derive(candid::CandidType, serde::Deserialize)]
struct SentNat {
    signed: candid::Nat,
    unsigned: candid::Nat,
    tail: u8,
}

fn ints() -> Vec<num_bigint::BigInt> {
    use num_bigint::BigInt;
    let mut out = vec![];
    for k in [0u32, 1, 7, 8, 62, 63, 64, 65, 100, 126, 127, 128, 129, 200] {
        let p = BigInt::from(1u8) << k;
        for d in [-1i32, 0, 1] {
            out.push(&p + d);
            out.push(-(&p + d));
        }
    }
    out
}

/// Every value: decoded as candid decodes it, with the same units left, and at
/// every quota around the read the same success or failure.
#[test]
fn wide_fields_decode_and_cost_as_candid() {
    for x in ints() {
        let m = x.magnitude().clone();
        let sent = Sent {
            signed: candid::Int(x.clone()),
            unsigned: candid::Nat(m.clone()),
            tail: 9,
        };
        let bytes = candid::encode_one(&sent).unwrap();
        let fits = i128::try_from(&x).is_ok() && u128::try_from(&m).is_ok();
        let out = common::decode_both::<Wide, TheirWide>(&bytes, 1_000_000);
        assert_eq!(out.is_some(), fits, "{x}");
        if let Some((ours, theirs)) = out {
            assert_eq!(
                (ours.signed, ours.unsigned, ours.tail),
                (theirs.signed, theirs.unsigned, theirs.tail)
            );
            assert_eq!(ours.signed, i128::try_from(&x).unwrap());
        }
        for quota in 0..120 {
            common::decode_both::<Wide, TheirWide>(&bytes, quota);
        }

        let sent = SentNat {
            signed: candid::Nat(m.clone()),
            unsigned: candid::Nat(m.clone()),
            tail: 9,
        };
        let bytes = candid::encode_one(&sent).unwrap();
        let out = common::decode_both::<Wide, TheirWide>(&bytes, 1_000_000);
        assert_eq!(out.is_some(), i128::try_from(&m).is_ok(), "{m}");
        for quota in 0..120 {
            common::decode_both::<Wide, TheirWide>(&bytes, quota);
        }
    }
}

/// Off the path: an `int` read as `u128` and a `text` read as `i128` fail as in
/// candid, and the error names the types.
#[test]
fn wide_fields_off_the_path() {
    let bytes = candid::encode_one(candid::Int::from(5)).unwrap();
    let err = candor::decode_one::<u128>(&bytes).unwrap_err().to_string();
    assert!(candid::decode_one::<u128>(&bytes).is_err());
    assert!(err.contains("expected nat, found int"), "{err}");

    let bytes = candid::encode_one("five").unwrap();
    assert!(candor::decode_one::<i128>(&bytes).is_err());
    assert!(candid::decode_one::<i128>(&bytes).is_err());

    let too_big = candid::Nat(num_bigint::BigUint::from(1u8) << 127);
    let bytes = candid::encode_one(&too_big).unwrap();
    let err = candor::decode_one::<i128>(&bytes).unwrap_err().to_string();
    assert!(err.contains("nat does not fit i128"), "{err}");
    assert_eq!(
        candor::decode_one::<u128>(&bytes).unwrap(),
        candid::decode_one::<u128>(&bytes).unwrap()
    );
}
