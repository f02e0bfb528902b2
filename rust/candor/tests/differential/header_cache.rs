//! The header cache never changes a result: every zoo message, and mutated ones,
//! decoded with the cache off and then several times with it on (parsed, kept, then
//! taken from the cache) gives the same value, the same error text and the same
//! quota left. Messages are interleaved so that kept headers are taken, replaced
//! and given back in many orders.

use crate::zoo::{ours, Case, Decoded};
use proptest::prelude::*;

const DECODING: usize = 20_000_000;
const SKIPPING: usize = 10_000;

thread_local! {
    static CASES: Vec<Case> = ours::cases();
}

fn decode(case: &Case, bytes: &[u8]) -> Result<Decoded, String> {
    (case.decode)(bytes, Some(DECODING), Some(SKIPPING))
}

/// Decodes each message without the cache, then three rounds of all of them in turn
/// with it (so each message also meets headers other messages left): every cached
/// decode agrees with the plain one.
fn same_with_and_without(messages: &[(&Case, Vec<u8>)]) -> Result<(), String> {
    candor::de::set_header_cache(false);
    let plain: Vec<_> = messages.iter().map(|(c, b)| decode(c, b)).collect();
    candor::de::set_header_cache(true);
    for round in 0..3 {
        for ((case, bytes), plain) in messages.iter().zip(&plain) {
            let cached = decode(case, bytes);
            if &cached != plain {
                return Err(format!(
                    "{}: round {round}\n  bytes  {}\n  plain  {plain:?}\n  cached {cached:?}",
                    case.name,
                    hex(bytes)
                ));
            }
        }
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn every_zoo_message_decodes_the_same_from_a_kept_header() {
    CASES.with(|cases| {
        let hits = candor::de::header_cache_hits();
        // In groups smaller than the cache, so kept headers are taken across messages
        // (neighbouring zoo cases share long header prefixes).
        for group in cases.chunks(5) {
            let messages: Vec<_> = group.iter().map(|c| (c, c.bytes.clone())).collect();
            same_with_and_without(&messages).unwrap();
        }
        // The second and third decodes of each message with a type table took the
        // header the first kept (headers of primitives only are always parsed).
        let taken = candor::de::header_cache_hits() - hits;
        let with_table = cases.iter().filter(|c| c.bytes[4] != 0).count();
        assert!(
            taken as usize >= 2 * with_table,
            "the cache fired {taken} times over {with_table} messages with a type table"
        );
    });
}

#[test]
fn quotas_run_out_at_the_same_unit_with_a_kept_header() {
    CASES.with(|cases| {
        for case in cases.iter().step_by(7) {
            candor::de::set_header_cache(false);
            let Ok(full) = decode(case, &case.bytes) else {
                continue;
            };
            let used = DECODING - full.decoding.unwrap_or(DECODING);
            for quota in [used, used.saturating_sub(1)] {
                candor::de::set_header_cache(false);
                let plain = (case.decode)(&case.bytes, Some(quota), None);
                candor::de::set_header_cache(true);
                for _ in 0..3 {
                    let cached = (case.decode)(&case.bytes, Some(quota), None);
                    assert_eq!(cached, plain, "{} at quota {quota}", case.name);
                }
            }
        }
    });
}

#[test]
fn a_kept_header_is_not_taken_under_other_limits() {
    // The same bytes parse under the default limits and fail under a tighter
    // type-table bound: the cache must not hide the failure.
    let bytes = candor::encode_args((vec![Some(1u8)], "x")).unwrap();
    candor::de::set_header_cache(true);
    for _ in 0..3 {
        let mut config = candor::DecoderConfig::new();
        config.set_decoding_quota(DECODING);
        candor::decode_args_with_config::<(Vec<Option<u8>>, String)>(&bytes, &config).unwrap();
    }
    let mut tight = candor::DecoderConfig::new();
    tight.set_max_type_len(1);
    let err =
        candor::decode_args_with_config::<(Vec<Option<u8>>, String)>(&bytes, &tight).unwrap_err();
    candor::de::set_header_cache(false);
    let plain =
        candor::decode_args_with_config::<(Vec<Option<u8>>, String)>(&bytes, &tight).unwrap_err();
    assert_eq!(err.to_string(), plain.to_string());
    candor::de::set_header_cache(true);
}

#[test]
fn the_second_message_takes_the_header_the_first_parsed() {
    let bytes = candor::encode_args((vec![8u32], "eight")).unwrap();
    candor::de::set_header_cache(true);
    let hits = candor::de::header_cache_hits();
    candor::decode_args::<(Vec<u32>, String)>(&bytes).unwrap();
    assert_eq!(candor::de::header_cache_hits(), hits, "the first parses");
    candor::decode_args::<(Vec<u32>, String)>(&bytes).unwrap();
    assert_eq!(
        candor::de::header_cache_hits(),
        hits + 1,
        "the second takes it"
    );
    // While the decoder that parsed (and keeps) a header is alive, a nested decode
    // of the same bytes parses its own arena, and the header is kept once.
    candor::de::set_header_cache(true);
    let hits = candor::de::header_cache_hits();
    let mut a = candor::IDLDeserialize::new(&bytes).unwrap();
    let mut b = candor::IDLDeserialize::new(&bytes).unwrap();
    assert_eq!(b.get_value::<Vec<u32>>().unwrap(), [8]);
    assert_eq!(a.get_value::<Vec<u32>>().unwrap(), [8]);
    assert_eq!(a.get_value::<String>().unwrap(), "eight");
    assert_eq!(b.get_value::<String>().unwrap(), "eight");
    drop((a, b));
    assert_eq!(candor::de::header_cache_hits(), hits);
    for n in 1..=2 {
        candor::decode_args::<(Vec<u32>, String)>(&bytes).unwrap();
        assert_eq!(candor::de::header_cache_hits(), hits + n);
    }
}

/// A quota the header alone exceeds fails before the decoder is built: the header
/// it parsed, or the one it took, still goes back to the cache, and the error is the
/// one the decoder would give (the quota, at the header's end).
#[test]
fn a_quota_the_header_exceeds_gives_the_header_back() {
    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    struct Quota {
        limit: Option<u32>,
    }
    let bytes = candor::encode_args((Quota { limit: Some(3) },)).unwrap();
    // The value: the `opt` flag and four bytes of `nat32`.
    let header_len = bytes.len() - 5;
    let mut tight = candor::DecoderConfig::new();
    tight.set_decoding_quota(4 * header_len - 1);
    let mut exact = candor::DecoderConfig::new();
    exact.set_decoding_quota(4 * header_len);
    candor::de::set_header_cache(true);
    let hits = candor::de::header_cache_hits();
    for round in 0..3 {
        let err = candor::decode_args_with_config::<(Quota,)>(&bytes, &tight).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("limit exceeded: Decoding cost exceeds the limit at byte offset {header_len}"),
            "round {round}"
        );
        // The header's units fit, the value's do not: a decoder was built.
        let err = candor::decode_args_with_config::<(Quota,)>(&bytes, &exact).unwrap_err();
        assert!(err.to_string().contains("Decoding cost exceeds the limit"));
    }
    assert_eq!(
        candor::de::header_cache_hits(),
        hits + 5,
        "every decode after the first takes the header the first parsed"
    );
    let (v,) = candor::decode_args::<(Quota,)>(&bytes).unwrap();
    assert_eq!(v, Quota { limit: Some(3) });
    assert_eq!(candor::de::header_cache_hits(), hits + 6);
}

#[test]
fn nested_decodes_of_one_header_each_get_an_arena() {
    let bytes = candor::encode_args((vec![7u32], "seven")).unwrap();
    candor::de::set_header_cache(true);
    candor::decode_args::<(Vec<u32>, String)>(&bytes).unwrap();
    // The first takes the kept arena; the second, while it is out, parses its own.
    let mut a = candor::IDLDeserialize::new(&bytes).unwrap();
    let mut b = candor::IDLDeserialize::new(&bytes).unwrap();
    assert_eq!(a.get_value::<Vec<u32>>().unwrap(), [7]);
    assert_eq!(b.get_value::<Vec<u32>>().unwrap(), [7]);
    assert_eq!(b.get_value::<String>().unwrap(), "seven");
    assert_eq!(a.get_value::<String>().unwrap(), "seven");
    a.done().unwrap();
    b.done().unwrap();
    drop((a, b));
    // Given back: the next decode takes it again.
    let hits = candor::de::header_cache_hits();
    candor::decode_args::<(Vec<u32>, String)>(&bytes).unwrap();
    assert_eq!(candor::de::header_cache_hits(), hits + 1);
    // A header with an empty type table is never kept: parsing it is cheaper.
    let plain = candor::encode_args((7u32, "seven")).unwrap();
    let hits = candor::de::header_cache_hits();
    for _ in 0..3 {
        candor::decode_args::<(u32, String)>(&plain).unwrap();
    }
    assert_eq!(candor::de::header_cache_hits(), hits);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]
    /// Mutated messages (most fail somewhere: in the header, or in the values after
    /// a header that parses and is kept) and pairs of messages decoded in turn.
    #[test]
    fn mutated_and_interleaved_messages_decode_the_same(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..6),
        flips in prop::collection::vec((any::<usize>(), 1u8..=255), 0..3),
    ) {
        CASES.with(|cases| {
            let mut messages = Vec::new();
            for (k, pick) in picks.iter().enumerate() {
                let case = &cases[pick.index(cases.len())];
                let mut bytes = case.bytes.clone();
                // Mutate the first message only: the others keep well-formed headers
                // for it to be compared with.
                if k == 0 {
                    for &(i, mask) in &flips {
                        if !bytes.is_empty() {
                            let n = bytes.len();
                            bytes[i % n] ^= mask;
                        }
                    }
                }
                messages.push((case, bytes));
            }
            let r = same_with_and_without(&messages);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
            Ok(())
        })?;
    }
}

mod kept_answers {
    //! Subtype answers are kept with a kept header only when they are about the
    //! thread's interned Rust types; answers about a run-time type or the wire types
    //! use the same node indices for other types, so keeping them would be wrong.

    use candor::types::{Field, Label, TypeEnv, TypeInner};

    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    struct Nats {
        x: candor::Nat,
    }

    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    struct Texts {
        x: String,
    }

    /// `(opt record { x : nat })`, the `opt` first in the table: the wire's record
    /// sits at the index the first interned record of a fresh thread takes.
    const MESSAGE: &[u8] = b"DIDL\x02\x6e\x01\x6c\x01\x78\x7d\x01\x00\x01\x07";

    fn taken() -> u64 {
        candor::de::header_cache_answers_taken()
    }

    #[test]
    fn answers_about_rust_types_are_taken_by_the_next_message() {
        candor::de::set_header_cache(true);
        let before = taken();
        for _ in 0..3 {
            let v: Option<Nats> = candor::decode_one(MESSAGE).unwrap();
            assert_eq!(v, Some(Nats { x: 7u8.into() }));
        }
        assert_eq!(
            taken(),
            before + 2,
            "the second and third take the first's answers"
        );
    }

    #[test]
    fn answers_about_a_run_time_type_are_not_kept() {
        candor::de::set_header_cache(true);
        // In the run-time type's arena, `opt record { x : nat }` takes the indices
        // `Option<Texts>` takes in this thread's interned arena, with "yes" answers.
        let ty = TypeInner::Opt(
            TypeInner::Record(vec![Field {
                id: Label::Named("x".into()).into(),
                ty: TypeInner::Nat.into(),
            }])
            .into(),
        )
        .into();
        let mut de = candor::de::IDLDeserialize::new(MESSAGE).unwrap();
        let v = de.get_value_with_type(&TypeEnv::new(), &ty).unwrap();
        de.done().unwrap();
        drop(de);
        assert!(v.to_string().starts_with("opt record"), "{v}");
        let before = taken();
        // `record { x : nat }` is no subtype of `Texts`: null, as candid decodes it.
        let v: Option<Texts> = candor::decode_one(MESSAGE).unwrap();
        assert_eq!(v, None);
        assert_eq!(taken(), before, "nothing was kept to take");
    }

    #[test]
    fn answers_about_the_wire_types_are_not_kept() {
        candor::de::set_header_cache(true);
        let v: candor::IDLValue = candor::decode_one(MESSAGE).unwrap();
        assert!(v.to_string().starts_with("opt record"), "{v}");
        let before = taken();
        let v: Option<Texts> = candor::decode_one(MESSAGE).unwrap();
        assert_eq!(v, None);
        assert_eq!(taken(), before, "nothing was kept to take");
    }
}
