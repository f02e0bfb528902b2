//! `candor::warm_up`: a method's caches filled ahead of its calls (`init`,
//! `post_upgrade`), so that its calls, queries above all, start warm.
//!
//! Each test runs its decodes on fresh threads (the caches are per thread): one
//! cold, as a query always is, and one after `warm_up`. Messages and expected
//! replies are candid 0.10.39's encodings, through its own derive; the decoder
//! config is the one ic-cdk's method macros use.

use candor::{CandidType, DecoderConfig, Deserialize, Nat, Principal};
use serde_bytes::ByteBuf;

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Account {
    owner: Principal,
    subaccount: Option<ByteBuf>,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
enum ApiError {
    Unauthorized,
    InvalidTokenId,
    Other,
}

/// The same types, as candid 0.10.39 derives them.
mod theirs {
    use serde_bytes::ByteBuf;

    #[derive(candid::CandidType)]
    pub struct Account {
        pub owner: candid::Principal,
        pub subaccount: Option<ByteBuf>,
    }

    #[derive(candid::CandidType)]
    pub enum ApiError {
        #[allow(dead_code)]
        Unauthorized,
        InvalidTokenId,
        #[allow(dead_code)]
        Other,
    }
}

fn owner() -> Principal {
    Principal::from_slice(&[7, 1, 1, 2])
}

fn their_owner() -> candid::Principal {
    candid::Principal::from_slice(&[7, 1, 1, 2])
}

/// The config ic-cdk 0.18 to 0.20 decode every method's arguments with.
fn ic_cdk_config() -> DecoderConfig {
    let mut config = DecoderConfig::new();
    config.set_skipping_quota(10000);
    config
}

/// What a call did, as a canister would see it: the value decoded, the quotas it
/// left, the reply's bytes, and whether the decode took a kept header.
#[derive(Debug, PartialEq)]
struct Call {
    value: String,
    quotas: String,
    reply: Vec<u8>,
}

/// Decodes `message` as `(T,)` and replies `reply` with `encode_one`, as ic-cdk's
/// macros do; also gives how many of the decodes took a kept header.
fn call<T, R>(message: &[u8], reply: R) -> (Call, u64)
where
    T: CandidType + for<'de> Deserialize<'de> + std::fmt::Debug,
    R: CandidType,
{
    let hits = candor::de::header_cache_hits();
    let ((value,), cost) =
        candor::decode_args_with_config_debug::<(T,)>(message, &ic_cdk_config()).unwrap();
    let taken = candor::de::header_cache_hits() - hits;
    let reply = candor::encode_one(reply).unwrap();
    (
        Call {
            value: format!("{value:?}"),
            quotas: format!("{:?} {:?}", cost.decoding_quota, cost.skipping_quota),
            reply,
        },
        taken,
    )
}

/// Runs `f` on a thread of its own: caches as a fresh instance (or a query) has.
fn fresh<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().unwrap()
}

#[test]
fn a_warmed_query_takes_its_kept_header_and_answers_as_a_cold_one() {
    let message = candid::encode_one(theirs::Account {
        owner: their_owner(),
        subaccount: Some(ByteBuf::from(vec![3; 32])),
    })
    .unwrap();
    let want_reply = candid::encode_one(candid::Nat::from(1234u32)).unwrap();

    let m = message.clone();
    let (cold, cold_taken) = fresh(move || call::<Account, Nat>(&m, Nat::from(1234u32)));
    let m = message.clone();
    let (warm, warm_taken) = fresh(move || {
        candor::warm_up::<(Account,), (Nat,)>().unwrap();
        call::<Account, Nat>(&m, Nat::from(1234u32))
    });
    assert_eq!(warm, cold);
    assert_eq!(warm.reply, want_reply);
    assert_eq!(cold_taken, 0, "a cold call parses its header");
    assert_eq!(warm_taken, 1, "a warmed call takes the header warm_up kept");
}

/// A reply nine levels deep: the compiler does not write its header.
type Deep = Result<O4<O4<u64>>, ApiError>;

/// Four levels of `opt`.
type O4<T> = Option<Option<Option<Option<T>>>>;

#[test]
fn a_warmed_reply_is_candids_and_computes_no_header_by_value_or_by_reference() {
    let want = candid::encode_one(Err::<O4<O4<u64>>, _>(theirs::ApiError::InvalidTokenId)).unwrap();
    let (by_value, by_reference, computed) = fresh(|| {
        candor::warm_up::<(u64,), (Deep,)>().unwrap();
        let kept = candor::ser::headers_kept();
        let reply: Deep = Err(ApiError::InvalidTokenId);
        // As ic-cdk's macros reply, then as a canister replying by hand.
        let by_value = candor::encode_one(reply.clone()).unwrap();
        let by_reference = candor::Encode!(&reply).unwrap();
        (by_value, by_reference, candor::ser::headers_kept() - kept)
    });
    assert_eq!(by_value, want);
    assert_eq!(by_reference, want);
    assert_eq!(computed, 0, "both replies found their header kept");
    // Cold, each form computes its own.
    let cold = fresh(|| {
        let kept = candor::ser::headers_kept();
        let reply: Deep = Err(ApiError::InvalidTokenId);
        candor::encode_one(reply.clone()).unwrap();
        candor::Encode!(&reply).unwrap();
        candor::ser::headers_kept() - kept
    });
    assert_eq!(cold, 2);
}

#[test]
fn a_shallow_reply_needs_no_warming_and_keeps_nothing() {
    let want = candid::encode_one(Err::<u64, _>(theirs::ApiError::InvalidTokenId)).unwrap();
    let (by_value, by_reference, computed) = fresh(|| {
        let kept = candor::ser::headers_kept();
        let reply: Result<u64, ApiError> = Err(ApiError::InvalidTokenId);
        let by_value = candor::encode_one(reply.clone()).unwrap();
        let by_reference = candor::Encode!(&reply).unwrap();
        candor::warm_up::<(u64,), (Result<u64, ApiError>,)>().unwrap();
        (by_value, by_reference, candor::ser::headers_kept() - kept)
    });
    assert_eq!(by_value, want);
    assert_eq!(by_reference, want);
    assert_eq!(
        computed, 0,
        "the compiler wrote the header: none computed or kept"
    );
}

#[test]
fn warmed_headers_outlive_a_stream_of_other_headers() {
    let message = candid::encode_one(theirs::Account {
        owner: their_owner(),
        subaccount: None,
    })
    .unwrap();
    let taken = fresh(move || {
        candor::warm_up::<(Account,), (Nat,)>().unwrap();
        // Forty distinct headers, each a record of one `nat` field with its own
        // id: far more than the cache keeps of headers that come and go.
        for id in 0..40u8 {
            let other = [b"DIDL\x01\x6c\x01".as_slice(), &[id, 0x7d, 1, 0, 5]].concat();
            candor::IDLArgs::from_bytes(&other).unwrap();
        }
        call::<Account, Nat>(&message, Nat::from(0u8)).1
    });
    assert_eq!(taken, 1);
}

#[test]
fn a_header_of_primitive_arguments_is_not_kept_and_decodes_as_always() {
    let message = candid::encode_args((their_owner(), 9u64)).unwrap();
    let m = message.clone();
    let cold = fresh(move || {
        let (p, n) = candor::decode_args::<(Principal, u64)>(&m).unwrap();
        (p, n, candor::de::header_cache_hits())
    });
    let warm = fresh(move || {
        candor::warm_up::<(Principal, u64), (Nat,)>().unwrap();
        let (p, n) = candor::decode_args::<(Principal, u64)>(&message).unwrap();
        (p, n, candor::de::header_cache_hits())
    });
    assert_eq!(warm, cold);
    assert_eq!(warm, (owner(), 9, 0));
}

/// A message of one `Account` whose table holds `entries` (the blob and the `opt`
/// of it, in some order), then the record (entry 2) with its `subaccount` of type
/// `opt` (the entry that is the `opt`); then `value`.
fn account_message(entries: &[u8], opt: u8, value: &[u8]) -> Vec<u8> {
    let mut message = [b"DIDL\x03".as_slice(), entries, b"\x6c\x02"].concat();
    let mut fields = [("owner", 0x68u8), ("subaccount", opt)];
    fields.sort_by_key(|(name, _)| candid::idl_hash(name));
    for (name, ty) in fields {
        leb128::write::unsigned(&mut message, u64::from(candid::idl_hash(name))).unwrap();
        message.push(ty);
    }
    // One argument, of entry 2.
    message.extend_from_slice(&[1, 2]);
    message.extend_from_slice(value);
    message
}

#[test]
fn a_warmed_query_from_agent_js_takes_a_kept_header_too() {
    // As agent-js writes it: the blob (entry 0), the `opt` of it (1), then the
    // record, each entry after the entries it names. The principal, then a
    // subaccount of 32 bytes.
    let value = [[1, 4, 7, 1, 1, 2, 1, 32].as_slice(), &[3; 32]].concat();
    let message = account_message(b"\x6d\x7b\x6e\x00", 1, &value);
    let m = message.clone();
    let (cold, cold_taken) = fresh(move || call::<Account, Nat>(&m, Nat::from(5u8)));
    let (warm, warm_taken) = fresh(move || {
        candor::warm_up::<(Account,), (Nat,)>().unwrap();
        call::<Account, Nat>(&message, Nat::from(5u8))
    });
    assert_eq!(warm, cold);
    assert_eq!((cold_taken, warm_taken), (0, 1));
    assert_eq!(
        warm.value,
        format!(
            "{:?}",
            Account {
                owner: Principal::from_slice(&[7, 1, 1, 2]),
                subaccount: Some(ByteBuf::from(vec![3; 32]))
            }
        )
    );
}

#[test]
fn a_client_header_in_other_bytes_parses_its_own_and_decodes_the_same() {
    // The same argument type with its table in another order: entry 0 the `opt`
    // (of entry 1), entry 1 the blob, entry 2 the record. candid's encoder writes
    // the record first, so this is not the header warm_up kept.
    // The value: the principal, then no subaccount.
    let message = account_message(b"\x6e\x01\x6d\x7b", 0, &[1, 4, 7, 1, 1, 2, 0]);
    let m = message.clone();
    let cold = fresh(move || call::<Account, Nat>(&m, Nat::from(1u8)));
    let warm = fresh(move || {
        candor::warm_up::<(Account,), (Nat,)>().unwrap();
        call::<Account, Nat>(&message, Nat::from(1u8))
    });
    assert_eq!(warm, cold);
    assert_eq!(warm.1, 0, "no kept header starts the message");
    assert_eq!(
        warm.0.value,
        format!(
            "{:?}",
            Account {
                owner: owner(),
                subaccount: None
            }
        )
    );
}
