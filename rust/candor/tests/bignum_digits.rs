//! `Nat` and `Int` past 64 bits reach their visitors as little-endian bytes
//! (magnitude, or two's complement), which the visitors turn into digits four
//! bytes at a time (`types/number.rs`, `biguint_from_le`, `bigint_from_signed_le`).
//! Each value here is encoded by candid 0.10.39 and must decode to candid's value,
//! alone, as a record field (serde's path) and in a vector (the direct path), on
//! both sides of every word boundary and of the 64-bit limit below which the
//! visitors get `visit_u64`/`visit_i64` instead.

use num_bigint::{BigInt, BigUint, Sign};
use proptest::prelude::*;

#[derive(candid::CandidType, serde::Deserialize)]
struct TheirFields {
    n: candid::Nat,
    i: candid::Int,
    tail: u8,
}

#[derive(candor::CandidType, serde::Deserialize, Debug, PartialEq)]
struct OurFields {
    n: candor::Nat,
    i: candor::Int,
    tail: u8,
}

/// The magnitude of `x`, and `x`, decoded by candor from candid's encoding in each
/// position, compared with the values candid decodes.
fn check(x: &BigInt) {
    let m = x.magnitude().clone();
    let (tn, ti) = (candid::Nat(m.clone()), candid::Int(x.clone()));

    let bytes = candid::encode_args((&tn, &ti)).unwrap();
    let (n, i): (candor::Nat, candor::Int) = candor::decode_args(&bytes).unwrap();
    let (cn, ci): (candid::Nat, candid::Int) = candid::decode_args(&bytes).unwrap();
    assert_eq!((&n.0, &i.0), (&cn.0, &ci.0), "{x}");
    assert_eq!((&n.0, &i.0), (&m, x));

    // A nat read as an int, the one coercion of the path.
    let bytes = candid::encode_one(&tn).unwrap();
    let i: candor::Int = candor::decode_one(&bytes).unwrap();
    assert_eq!(i.0, BigInt::from(m.clone()));

    let their = TheirFields {
        n: tn.clone(),
        i: ti.clone(),
        tail: 7,
    };
    let bytes = candid::encode_one(&their).unwrap();
    let ours: OurFields = candor::decode_one(&bytes).unwrap();
    assert_eq!((&ours.n.0, &ours.i.0, ours.tail), (&m, x, 7));

    let bytes = candid::encode_args((vec![tn.clone(); 3], vec![ti.clone(); 3])).unwrap();
    let (ns, is): (Vec<candor::Nat>, Vec<candor::Int>) = candor::decode_args(&bytes).unwrap();
    assert!(ns.iter().all(|n| n.0 == m) && is.iter().all(|i| &i.0 == x));

    let bytes = candid::encode_args((&tn, &ti)).unwrap();
    let dynamic = candor::IDLArgs::from_bytes(&bytes).unwrap();
    let theirs = candid::IDLArgs::from_bytes(&bytes).unwrap();
    assert_eq!(dynamic.to_string(), theirs.to_string());
}

/// Around every power of two up to 520 bits, on both sides of zero: every length
/// of the last word, a top word of all ones (whose negation carries through it),
/// and the 64-bit limit of the small reads.
#[test]
fn around_powers_of_two() {
    for k in 0..520u32 {
        let p = BigInt::from(BigUint::from(1u8) << k);
        for d in [-1i32, 0, 1] {
            let x = &p + d;
            check(&x);
            check(&-x);
        }
    }
}

/// Words of all ones and all zeros, where a two's complement negation carries
/// furthest or not at all.
#[test]
fn carries_through_whole_words() {
    for words in 1..12u32 {
        let ones = (BigUint::from(1u8) << (32 * words)) - 1u8;
        check(&BigInt::from(ones.clone()));
        check(&-BigInt::from(ones.clone()));
        check(&-BigInt::from(ones + 1u8));
    }
}

proptest! {
    /// Any two's complement bytes: the value decoded is the value sent.
    #[test]
    fn any_value(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let x = BigInt::from_signed_bytes_le(&bytes);
        check(&x);
        check(&BigInt::from_biguint(Sign::Plus, BigUint::from_bytes_le(&bytes)));
    }
}
