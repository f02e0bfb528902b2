//! `Nat` and `Int` fields, read by their own visitors through `deserialize_any`:
//! an expected `nat` or `int` by direct reference goes straight to its read
//! (spec/decoder.md, the row "A bignum's read by direct reference"). Values,
//! units and errors are candid's, on that path and off it.

mod common;

use candor::{Int, Nat};
use pretty_assertions::assert_eq;

/// The test records, spelled with one crate's `CandidType`, `Nat` and `Int`: once
/// with candor's (the records decoded) and once with candid's (to compare units
/// with candid).
macro_rules! records {
    ($lib:ident) => {
        use $lib::{Int, Nat};

        #[derive($lib::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
        pub struct Numbers {
            pub small: Nat,
            pub big: Nat,
            pub signed: Int,
            pub negative: Int,
            pub count: u64,
        }

        /// The same record with every `Int` a `nat`.
        #[derive($lib::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
        pub struct NatsOnly {
            pub small: Nat,
            pub big: Nat,
            pub signed: Nat,
            pub negative: Nat,
            pub count: u64,
        }
    };
}

mod ours {
    records!(candor);
}

mod theirs {
    records!(candid);
}

use ours::{NatsOnly, Numbers};

fn sample(i: u64) -> Numbers {
    Numbers {
        small: Nat::from(i),
        big: Nat::from(u64::MAX) * 1_000u32 + i,
        signed: Int::from(i as i64 * 1_000_000),
        negative: Int::from(-(i as i64) - 1) * Int::from(u64::MAX),
        count: i,
    }
}

/// Decodes `T` from `bytes` with candor and `U` (the same type with candid's
/// numbers) with candid, under `quota` (see [`common::decode_both`]).
fn both<T, U>(bytes: &[u8], quota: usize) -> Option<T>
where
    T: candor::CandidType + for<'de> serde::Deserialize<'de>,
    U: candid::CandidType + for<'de> serde::Deserialize<'de>,
{
    common::decode_both::<T, U>(bytes, quota).map(|(v, _)| v)
}

/// Takes the path: values and units as candid, and the quota runs out at the same
/// unit, field by field.
#[test]
fn bignum_fields_decode_and_cost_as_candid() {
    for i in [0u64, 1, 127, 128, 1 << 40] {
        let v = sample(i);
        let bytes = candor::encode_one(&v).unwrap();
        let out = both::<Numbers, theirs::Numbers>(&bytes, 1_000_000);
        assert_eq!(out, Some(v.clone()));
        let mut last_ok = None;
        for quota in 0..400 {
            if both::<Numbers, theirs::Numbers>(&bytes, quota).is_some() {
                last_ok.get_or_insert(quota);
            }
        }
        assert!(last_ok.is_some(), "no quota below 400 decodes {i}");
    }
}

/// Does not fire where it must not: a `nat` on the wire read as `Int` (the wire
/// side differs), an `int` on the wire read as `Nat` (rejected, as candid does),
/// and a visitor of another type asking for any (`IDLValue`).
#[test]
fn bignum_fields_off_the_path() {
    let sent = NatsOnly {
        small: Nat::from(5u8),
        big: Nat::from(u64::MAX) * 3u8,
        signed: Nat::from(300u32),
        negative: Nat::from(u64::MAX) * 7u8,
        count: 9,
    };
    let bytes = candor::encode_one(&sent).unwrap();
    let out = both::<Numbers, theirs::Numbers>(&bytes, 1_000_000).unwrap();
    assert_eq!(out.signed, Int::from(300));
    assert_eq!(out.negative, Int::from(u64::MAX) * Int::from(7));
    for quota in 0..300 {
        both::<Numbers, theirs::Numbers>(&bytes, quota);
    }

    let bytes = candor::encode_one(sample(3)).unwrap();
    let err = candor::decode_one::<NatsOnly>(&bytes).unwrap_err();
    assert!(candid::decode_one::<theirs::NatsOnly>(&bytes).is_err());
    assert!(err.to_string().contains("expected nat, found int"), "{err}");

    let dynamic = candor::IDLArgs::from_bytes(&bytes).unwrap();
    let theirs = candid::IDLArgs::from_bytes(&bytes).unwrap();
    assert_eq!(dynamic.to_string(), theirs.to_string());
}
