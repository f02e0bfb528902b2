//! Struct spans kept by (wire, expected) pair (spec/decoder.md, fast path 32):
//! the structs of a message, decoded again from a kept header, take their field
//! spans from the two pairs the state keeps. Values, units and errors are
//! candid's, when the pairs kept take turns (more structs than two), when one
//! wire record is read at two expected structs, and when the same wire types are
//! read at other Rust types between messages.

mod common;

use common::decode_same as both;
use pretty_assertions::assert_eq;

#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Account {
    owner: u64,
    sub: Option<u8>,
}

#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Approve {
    fee: Option<u64>,
    spender: Account,
    amount: u64,
}

/// Four structs in turn: more than the two pairs kept.
#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Status {
    a: Account,
    b: Approve,
    c: Inner,
    n: u8,
}

#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Inner {
    x: String,
    y: Vec<Account>,
}

/// `Account`'s wire record read at a struct of fewer fields: the same wire
/// record at another expected one, with other spans.
#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct OwnerOnly {
    owner: u64,
}

/// `Account`'s wire record read at a struct of other fields, which do not fit.
#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Elsewhere {
    owner: String,
}

fn account(i: u64) -> Account {
    Account {
        owner: i,
        sub: (i % 2 == 0).then_some(i as u8),
    }
}

fn status(i: u64) -> Status {
    Status {
        a: account(i),
        b: Approve {
            fee: (i % 3 == 0).then_some(i * 10),
            spender: account(i + 1),
            amount: 5_000 + i,
        },
        c: Inner {
            x: format!("s{i}"),
            y: (0..i % 4).map(account).collect(),
        },
        n: i as u8,
    }
}

/// A struct and a struct in it, and four structs in turn, message after
/// message of one header: candid's values and units, at every quota that
/// stops the decode part way and at one that does not.
#[test]
fn kept_struct_pairs_decode_as_candid() {
    for i in 0..12u64 {
        let a = Approve {
            fee: (i % 2 == 1).then_some(i),
            spender: account(i),
            amount: i * 7,
        };
        let bytes = candor::encode_one(&a).unwrap();
        for quota in [40, 60, 80, 1_000_000] {
            if let Some(v) = both::<Approve>(&bytes, quota) {
                assert_eq!(v, a);
            }
        }
        let s = status(i);
        let bytes = candor::encode_one(&s).unwrap();
        for quota in [50, 100, 150, 200, 1_000_000] {
            if let Some(v) = both::<Status>(&bytes, quota) {
                assert_eq!(v, s);
            }
        }
    }
}

/// One wire record read at two expected structs in one message, and the same
/// header read at other Rust types from one message to the next: a pair kept
/// for one expected struct is not taken for the other.
#[test]
fn a_kept_pair_is_its_expected_struct_only() {
    let bytes = candor::encode_args((account(4), account(5))).unwrap();
    for _ in 0..3 {
        let (x, y): (Account, OwnerOnly) = candor::decode_args(&bytes).unwrap();
        assert_eq!((x, y), (account(4), OwnerOnly { owner: 5 }));
        let (x, y): (OwnerOnly, Account) = candor::decode_args(&bytes).unwrap();
        assert_eq!((x, y), (OwnerOnly { owner: 4 }, account(5)));
        let err = candor::decode_args::<(Account, Elsewhere)>(&bytes).unwrap_err();
        let theirs = candid::decode_args::<(Account, Elsewhere)>(&bytes).unwrap_err();
        assert!(
            err.to_string().contains("text") && theirs.to_string().contains("text"),
            "{err} / {theirs}"
        );
        let (x, y): (Account, Account) = candor::decode_args(&bytes).unwrap();
        assert_eq!((x, y), (account(4), account(5)));
    }
    let one = candor::encode_one(account(6)).unwrap();
    for _ in 0..3 {
        assert_eq!(both::<Account>(&one, 1_000_000), Some(account(6)));
        assert_eq!(
            both::<OwnerOnly>(&one, 1_000_000),
            Some(OwnerOnly { owner: 6 })
        );
        assert_eq!(both::<Elsewhere>(&one, 1_000_000), None);
    }
}
