//! A kept header keeps a whole decode state, lent to the next message of the header
//! (`spec/decoder.md`, "Kept decode states"): what it learnt about the header and
//! the interned expected types carries over, and what is the message's own (input,
//! quotas, depth) starts afresh. Each test decodes the same bytes with the header
//! cache off (every message its own state) and on, across sequences that change the
//! expected types, the decode mode, the limits and the outcome between messages of
//! one header: results, error texts and the work charged must not differ.

mod common;

use candor::{CandidType, DecoderConfig, Deserialize, Encode, Int, Nat};
use common::steps::{self, quota, untyped, with_type, Step};

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Account {
    owner: candor::Principal,
    subaccount: Option<serde_bytes::ByteBuf>,
}

/// `Account` read with its subaccount left out (a supertype).
#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Owner {
    owner: candor::Principal,
}

/// `Account` read with a field the wire lacks.
#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Wider {
    owner: candor::Principal,
    subaccount: Option<serde_bytes::ByteBuf>,
    memo: Option<u64>,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
enum Reply {
    Ok(Nat),
    Err { code: Int, message: String },
}

fn account(i: u8) -> Account {
    Account {
        owner: candor::Principal::from_slice(&[i, 1, 1]),
        subaccount: (i % 2 == 0).then(|| serde_bytes::ByteBuf::from(vec![i; 32])),
    }
}

/// Decodes `bytes` as one `T` under `config` (see [`steps::args`]).
fn typed<'a, T>(bytes: &'a [u8], config: DecoderConfig) -> Step<'a>
where
    T: CandidType + for<'de> Deserialize<'de> + std::fmt::Debug,
{
    steps::args::<(T,)>(bytes, config)
}

/// Runs `steps` with the cache off, then twice in a row with it on: the same
/// outcomes each time, and the kept header taken.
fn same_with_kept_states(steps: &[Step<'_>]) {
    candor::de::set_header_cache(false);
    let plain: Vec<String> = steps.iter().map(|s| s()).collect();
    candor::de::set_header_cache(true);
    let hits = candor::de::header_cache_hits();
    for round in 0..2 {
        let kept: Vec<String> = steps.iter().map(|s| s()).collect();
        assert_eq!(kept, plain, "round {round}");
    }
    assert!(candor::de::header_cache_hits() > hits, "kept headers taken");
}

/// The next message of a header at another expected type (a supertype, a wider
/// record, then the first again) reads as it would from a fresh state.
#[test]
fn another_expected_type_between_messages() {
    let a = Encode!(&account(2)).unwrap();
    let b = Encode!(&account(4)).unwrap();
    let config = DecoderConfig::new;
    same_with_kept_states(&[
        typed::<Account>(&a, config()),
        typed::<Owner>(&b, config()),
        typed::<Wider>(&a, config()),
        typed::<Account>(&b, config()),
        typed::<Reply>(&a, config()),
        typed::<Account>(&a, config()),
    ]);
}

/// Typed, untyped (`IDLValue`, at the wire types) and run-time typed decodes of
/// one header, interleaved.
#[test]
fn decode_modes_between_messages() {
    let a = Encode!(&account(2)).unwrap();
    same_with_kept_states(&[
        typed::<Account>(&a, DecoderConfig::new()),
        untyped(&a),
        typed::<Account>(&a, DecoderConfig::new()),
        with_type::<Account>(&a),
        typed::<Account>(&a, DecoderConfig::new()),
        with_type::<Account>(&a),
        untyped(&a),
    ]);
}

/// Quotas are the message's own: a message refused by a tight quota, then one
/// under a generous one, then the tight one again, each as from a fresh state
/// (the refusal is not remembered, nor the quota left).
#[test]
fn quotas_are_per_message() {
    let a = Encode!(&account(2)).unwrap();
    let b = Encode!(&account(3)).unwrap();
    same_with_kept_states(&[
        typed::<Account>(&a, quota(120, 10)),
        typed::<Account>(&a, quota(1_000, 10)),
        typed::<Account>(&b, quota(120, 10)),
        typed::<Wider>(&a, quota(1_000, 0)),
        typed::<Account>(&a, quota(1_000, 10)),
    ]);
}

/// A message that fails half-way (a bad value, trailing bytes) leaves the state
/// fit for the next message of its header.
#[test]
fn errors_between_messages() {
    let good = Encode!(&Reply::Err {
        code: Int::from(-3),
        message: "no".into()
    })
    .unwrap();
    let mut bad_utf8 = good.clone();
    let n = bad_utf8.len();
    bad_utf8[n - 1] = 0xff;
    let mut trailing = good.clone();
    trailing.push(0);
    let ok = Encode!(&Reply::Ok(Nat::from(7u8))).unwrap();
    let config = DecoderConfig::new;
    same_with_kept_states(&[
        typed::<Reply>(&good, config()),
        typed::<Reply>(&bad_utf8, config()),
        typed::<Reply>(&ok, config()),
        typed::<Reply>(&trailing, config()),
        typed::<Reply>(&good, config()),
        typed::<Account>(&good, config()),
        typed::<Reply>(&ok, config()),
    ]);
}

/// The depth bound holds on every message of a kept header, whatever the one
/// before reached.
#[test]
fn depth_bound_on_every_message() {
    #[derive(CandidType, Deserialize, Debug, PartialEq)]
    struct Nest(Option<Box<Nest>>);
    let mut deep = Nest(None);
    for _ in 0..40 {
        deep = Nest(Some(Box::new(deep)));
    }
    let shallow = Encode!(&Nest(Some(Box::new(Nest(None))))).unwrap();
    let deep = Encode!(&deep).unwrap();
    let bounded = || {
        let mut c = DecoderConfig::new();
        c.set_max_depth(20);
        c
    };
    let steps = [
        typed::<Nest>(&shallow, bounded()),
        typed::<Nest>(&deep, bounded()),
        typed::<Nest>(&shallow, bounded()),
        typed::<Nest>(&deep, bounded()),
        typed::<Nest>(&deep, DecoderConfig::new()),
    ];
    same_with_kept_states(&steps);
    candor::de::set_header_cache(true);
    assert!(steps[1]().contains("nesting deeper than 20 levels"));
    assert!(steps[3]().contains("nesting deeper than 20 levels"));
}

/// A type interned for the first time while states wait with the interned types
/// (they let go of them, and take them again): later messages of every kept
/// header still read as from a fresh state.
#[test]
fn new_types_interned_between_messages() {
    #[derive(CandidType, Deserialize, Debug, PartialEq)]
    struct Late1 {
        a: u8,
        b: String,
    }
    #[derive(CandidType, Deserialize, Debug, PartialEq)]
    struct Late2(Vec<Late1>, Option<i16>);
    let a = Encode!(&account(2)).unwrap();
    let r = Encode!(&Reply::Ok(Nat::from(1u8))).unwrap();
    let l1 = Encode!(&Late1 {
        a: 1,
        b: "x".into()
    })
    .unwrap();
    let l2 = Encode!(&Late2(vec![], Some(-1))).unwrap();
    candor::de::set_header_cache(true);
    let fresh = |f: &Step<'_>| {
        candor::de::set_header_cache(false);
        let v = f();
        candor::de::set_header_cache(true);
        v
    };
    let steps = [
        typed::<Account>(&a, DecoderConfig::new()),
        typed::<Reply>(&r, DecoderConfig::new()),
        typed::<Late1>(&l1, DecoderConfig::new()),
        typed::<Account>(&a, DecoderConfig::new()),
        typed::<Late2>(&l2, DecoderConfig::new()),
        typed::<Reply>(&r, DecoderConfig::new()),
        typed::<Account>(&a, DecoderConfig::new()),
    ];
    // With the cache on from a thread's start, so each late type meets kept states.
    let kept: Vec<String> = steps.iter().map(|s| s()).collect();
    let plain: Vec<String> = steps.iter().map(fresh).collect();
    assert_eq!(kept, plain);
}
