//! A header of primitive arguments only is never kept by the header cache, but the
//! thread's spare decode state holds the last such header it decoded, with what it
//! learnt about it (`spec/decoder.md`, fast path 30): the next message that starts
//! with the same bytes skips the parse. Each test decodes the same messages with the
//! header cache off (every message parsed, nothing carried over) and on, across
//! sequences that change the expected types, the decode mode, the limits and the
//! outcome between messages of one header: results, error texts and the work
//! charged must not differ. The path must fire on a repeated header of at most eight
//! bytes, and nowhere else.

mod common;

use candor::de::{plain_headers_held, set_header_cache};
use candor::{DecoderConfig, Encode, Int, Nat, Principal};
use common::steps::{args as typed, quota, untyped, with_type, Step};

/// Runs `steps` with the cache off, then twice in a row with it on: the same
/// outcomes each time, and held headers taken (as many as `held` says, per round
/// of the two).
fn same_with_held_headers(steps: &[Step<'_>], held: u64) {
    set_header_cache(false);
    let before = plain_headers_held();
    let plain: Vec<String> = steps.iter().map(|s| s()).collect();
    assert_eq!(
        plain_headers_held(),
        before,
        "nothing held with the cache off"
    );
    set_header_cache(true);
    for round in 0..2 {
        let before = plain_headers_held();
        let kept: Vec<String> = steps.iter().map(|s| s()).collect();
        assert_eq!(kept, plain, "round {round}");
        // The first round starts from a spare that holds nothing; the second from
        // the first's last header.
        let taken = plain_headers_held() - before;
        assert!(taken >= held, "round {round}: {taken} held headers taken");
    }
}

/// A repeated header of one to three primitive arguments is taken held, with the
/// same values as when it is parsed.
#[test]
fn a_repeated_header_is_held() {
    set_header_cache(true);
    let key = Encode!(&"user-1").unwrap();
    let other = Encode!(&"user-22").unwrap();
    let pair = Encode!(&Principal::from_slice(&[7; 29]), &Nat::from(5u8)).unwrap();
    let decode = |bytes: &[u8]| candor::decode_one::<String>(bytes).unwrap();
    assert_eq!(decode(&key), "user-1");
    let before = plain_headers_held();
    assert_eq!(decode(&other), "user-22");
    assert_eq!(decode(&key), "user-1");
    assert_eq!(plain_headers_held(), before + 2);
    let (p, n) = candor::decode_args::<(Principal, Nat)>(&pair).unwrap();
    let before = plain_headers_held();
    assert_eq!(
        candor::decode_args::<(Principal, Nat)>(&pair).unwrap(),
        (p, n)
    );
    assert_eq!(plain_headers_held(), before + 1);
    let three = Encode!(&9u64, &"k", &Principal::from_slice(&[1; 10])).unwrap();
    let decode = || candor::decode_args::<(u64, String, Principal)>(&three).unwrap();
    let first = decode();
    let before = plain_headers_held();
    assert_eq!(decode(), first);
    assert_eq!(plain_headers_held(), before + 1);
}

/// Not taken: another plain header (also one that differs only in its ninth
/// byte), a header with a type table, four arguments (ten bytes), a message
/// shorter than a word, a header longer than the limit the next decode sets, and
/// anything with the cache off.
#[test]
fn held_only_where_it_may_be() {
    set_header_cache(true);
    let text = Encode!(&"a").unwrap();
    let nat = Encode!(&Nat::from(300u32)).unwrap();
    let three = Encode!(&1u8, &2u8, &3u8).unwrap();
    let ninth = Encode!(&1u8, &2u8, &3u16).unwrap();
    let four = Encode!(&1u8, &2u8, &3u8, &4u8).unwrap();
    assert_eq!(
        (three[..8] == ninth[..8], three[8] == ninth[8]),
        (true, false)
    );
    let null = Encode!(&()).unwrap();
    let table = Encode!(&Some(1u8)).unwrap();
    assert_eq!(null.len(), 7);
    let count = |f: &dyn Fn()| {
        let before = plain_headers_held();
        f();
        plain_headers_held() - before
    };
    candor::decode_one::<String>(&text).unwrap();
    assert_eq!(
        count(&|| assert!(candor::decode_one::<String>(&nat).is_err())),
        0
    );
    assert_eq!(
        count(&|| assert!(candor::decode_one::<Nat>(&nat).is_ok())),
        1
    );
    candor::decode_args::<(u8, u8, u8)>(&three).unwrap();
    let n = count(&|| {
        let ours = candor::decode_args::<(u8, u8, u8)>(&ninth).map_err(|e| e.to_string());
        set_header_cache(false);
        let fresh = candor::decode_args::<(u8, u8, u8)>(&ninth).map_err(|e| e.to_string());
        set_header_cache(true);
        assert_eq!(ours, fresh);
        assert!(ours.is_err());
    });
    assert_eq!(n, 0, "the ninth byte");
    for _ in 0..2 {
        let n = count(&|| {
            candor::decode_args::<(u8, u8, u8, u8)>(&four).unwrap();
        });
        assert_eq!(n, 0, "four arguments");
        let n = count(&|| candor::decode_one::<()>(&null).unwrap());
        assert_eq!(n, 0, "seven bytes");
        let n = count(&|| {
            candor::decode_one::<Option<u8>>(&table).unwrap();
        });
        assert_eq!(n, 0, "a type table");
    }
    // A held header past the limit of the next decode: refused as a parse refuses it.
    candor::decode_one::<Nat>(&nat).unwrap();
    let mut tight = DecoderConfig::new();
    tight.set_max_header_len(6);
    let refused = count(&|| {
        let e = candor::decode_args_with_config::<(Nat,)>(&nat, &tight).unwrap_err();
        set_header_cache(false);
        let fresh = candor::decode_args_with_config::<(Nat,)>(&nat, &tight).unwrap_err();
        set_header_cache(true);
        assert_eq!(e.to_string(), fresh.to_string());
    });
    assert_eq!(refused, 0);
    set_header_cache(false);
    candor::decode_one::<Nat>(&nat).unwrap();
    assert_eq!(count(&|| drop(candor::decode_one::<Nat>(&nat))), 0);
    set_header_cache(true);
}

/// The next message of a held header at another expected type, in another mode
/// (`IDLValue`, a run-time type), reads as it would from a fresh state.
#[test]
fn another_expected_type_between_messages() {
    let a = Encode!(&Nat::from(7u8)).unwrap();
    let b = Encode!(&(Nat::from(u64::MAX) * 4u8)).unwrap();
    let config = DecoderConfig::new;
    same_with_held_headers(
        &[
            typed::<(Nat,)>(&a, config()),
            typed::<(u64,)>(&b, config()),
            typed::<(Option<Nat>,)>(&a, config()),
            typed::<(Int,)>(&b, config()),
            untyped(&a),
            typed::<(String,)>(&a, config()),
            with_type::<Option<Nat>>(&b),
            typed::<(Option<u8>,)>(&b, config()),
            typed::<(Nat, Option<Nat>)>(&a, config()),
            typed::<(Nat,)>(&a, config()),
        ],
        8,
    );
}

/// Quotas and outcomes are the message's own: a message refused by a tight quota
/// or for its value, then good ones, each as from a fresh state.
#[test]
fn quotas_and_errors_between_messages() {
    let good = Encode!(&"short", &true).unwrap();
    let mut bad_utf8 = good.clone();
    bad_utf8[9] = 0xff;
    let mut bad_bool = good.clone();
    *bad_bool.last_mut().unwrap() = 2;
    let mut trailing = good.clone();
    trailing.push(0);
    same_with_held_headers(
        &[
            typed::<(String, bool)>(&good, quota(40, 10)),
            typed::<(String, bool)>(&good, quota(1_000, 10)),
            typed::<(String, bool)>(&bad_utf8, quota(1_000, 10)),
            typed::<(String, bool)>(&bad_bool, quota(1_000, 10)),
            typed::<(String, bool)>(&trailing, quota(1_000, 10)),
            typed::<(String, bool)>(&good, quota(1_000, 0)),
            typed::<(String, Option<bool>)>(&bad_bool, quota(1_000, 10)),
            typed::<(String,)>(&good, quota(1_000, 0)),
        ],
        7,
    );
}

/// Two plain headers taking turns, and a header with a table between them: each
/// message reads as from a fresh state.
#[test]
fn headers_taking_turns() {
    let text = Encode!(&"k").unwrap();
    let nat = Encode!(&Nat::from(1u8)).unwrap();
    let table = Encode!(&vec![1u16, 2]).unwrap();
    let config = DecoderConfig::new;
    same_with_held_headers(
        &[
            typed::<(String,)>(&text, config()),
            typed::<(Nat,)>(&nat, config()),
            typed::<(String,)>(&text, config()),
            typed::<(Vec<u16>,)>(&table, config()),
            typed::<(String,)>(&text, config()),
            typed::<(String,)>(&text, config()),
            untyped(&nat),
            untyped(&nat),
        ],
        2,
    );
}
