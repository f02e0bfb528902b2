//! Known headers (`de/known.rs`, fast path 29): a message whose header is the one
//! the compiler writes for the argument types it is decoded as takes its wire and
//! expected types from that header, instead of parsing and placing them.
//!
//! Messages are candid 0.10.39's encodings, through its own derive, of the types
//! of canister-profiling's DIP721 (a mint), an ICRC-1 transfer, a Basic DAO vote
//! and the other shapes the derive labels: its header is the compiler's, byte for
//! byte, so the path fires for messages from clients built on candid. Each decode
//! runs on a fresh thread (the caches are per thread), with known headers on and
//! off; values, errors and the units charged must be the same, for the messages
//! and for every one-byte change of them. The same messages with their headers as
//! agent-js writes them (`benches/canister/src/post_order.rs`, each entry after
//! the entries it names) take the compiler's header in that order.

use candor::{CandidType, DecoderConfig, Deserialize, Nat, Principal};
use serde_bytes::ByteBuf;
use std::collections::BTreeMap;

/// What the bench canister's `post_order.rs` imports as `crate::lib`: candid's
/// types, so the headers are written from candid's descriptions.
mod lib {
    pub use candid::types;
}

#[path = "../../../benches/canister/src/post_order.rs"]
mod post_order;

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
enum MetadataPurpose {
    Preview,
    Rendered,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
#[allow(clippy::enum_variant_names)]
enum MetadataVal {
    TextContent(String),
    BlobContent(Vec<u8>),
    NatContent(u128),
    Nat8Content(u8),
    Nat16Content(u16),
    Nat32Content(u32),
    Nat64Content(u64),
}

/// The canister's key-value data is a `HashMap`; a `BTreeMap` has the same
/// Candid type and prints in one order on every thread.
#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct MetadataPart {
    purpose: MetadataPurpose,
    key_val_data: BTreeMap<String, MetadataVal>,
    data: Vec<u8>,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Account {
    owner: Principal,
    subaccount: Option<ByteBuf>,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct TransferArg {
    from_subaccount: Option<ByteBuf>,
    to: Account,
    fee: Option<Nat>,
    created_at_time: Option<u64>,
    memo: Option<ByteBuf>,
    amount: Nat,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
enum Vote {
    #[serde(rename = "yes")]
    Yes,
    #[serde(rename = "no")]
    No,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct VoteArgs {
    proposal_id: u64,
    vote: Vote,
}

/// A tuple struct, a variant with a record payload and renamed fields, a
/// newtype: the other shapes the derive labels.
#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Pair(u8, String);

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
enum Event {
    Created {
        id: u64,
        #[serde(rename = "who")]
        owner: Principal,
    },
    Renamed(Pair),
    Gone,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Events(Vec<Event>);

/// The same types, as candid 0.10.39 derives them.
mod theirs {
    #![allow(dead_code)]
    use serde_bytes::ByteBuf;
    use std::collections::BTreeMap;

    #[derive(candid::CandidType)]
    pub enum MetadataPurpose {
        Preview,
        Rendered,
    }

    #[derive(candid::CandidType)]
    #[allow(clippy::enum_variant_names)]
    pub enum MetadataVal {
        TextContent(String),
        BlobContent(Vec<u8>),
        NatContent(u128),
        Nat8Content(u8),
        Nat16Content(u16),
        Nat32Content(u32),
        Nat64Content(u64),
    }

    #[derive(candid::CandidType)]
    pub struct MetadataPart {
        pub purpose: MetadataPurpose,
        pub key_val_data: BTreeMap<String, MetadataVal>,
        pub data: Vec<u8>,
    }

    #[derive(candid::CandidType)]
    pub struct Account {
        pub owner: candid::Principal,
        pub subaccount: Option<ByteBuf>,
    }

    #[derive(candid::CandidType)]
    pub struct TransferArg {
        pub from_subaccount: Option<ByteBuf>,
        pub to: Account,
        pub fee: Option<candid::Nat>,
        pub created_at_time: Option<u64>,
        pub memo: Option<ByteBuf>,
        pub amount: candid::Nat,
    }

    #[derive(candid::CandidType, serde::Deserialize)]
    pub enum Vote {
        #[serde(rename = "yes")]
        Yes,
        #[serde(rename = "no")]
        No,
    }

    #[derive(candid::CandidType)]
    pub struct VoteArgs {
        pub proposal_id: u64,
        pub vote: Vote,
    }

    #[derive(candid::CandidType, serde::Deserialize)]
    pub struct Pair(pub u8, pub String);

    #[derive(candid::CandidType, serde::Deserialize)]
    pub enum Event {
        Created {
            id: u64,
            #[serde(rename = "who")]
            owner: candid::Principal,
        },
        Renamed(Pair),
        Gone,
    }

    #[derive(candid::CandidType)]
    pub struct Events(pub Vec<Event>);
}

fn bob() -> Principal {
    Principal::from_text("4gwnv-ttcce-5jl24-fprnm-4wiio-gee2r-er2hu-u24ri-zdfel-qxcgl-oae").unwrap()
}

fn mint_message() -> Vec<u8> {
    use theirs::*;
    let mut kv = BTreeMap::new();
    kv.insert(
        "description".to_string(),
        MetadataVal::TextContent("The NFT metadata can hold arbitrary metadata".into()),
    );
    kv.insert("locationType".to_string(), MetadataVal::Nat8Content(4));
    let part = MetadataPart {
        purpose: MetadataPurpose::Rendered,
        key_val_data: kv,
        data: b"hello".to_vec(),
    };
    let owner = candid::Principal::from_slice(bob().as_slice());
    candid::encode_args((owner, vec![part])).unwrap()
}

fn transfer_message() -> Vec<u8> {
    use theirs::*;
    let owner = candid::Principal::from_slice(bob().as_slice());
    candid::encode_one(TransferArg {
        from_subaccount: None,
        to: Account {
            owner,
            subaccount: Some(ByteBuf::from(vec![7; 32])),
        },
        fee: Some(candid::Nat::from(10_000u64)),
        created_at_time: None,
        memo: Some(ByteBuf::from(b"memo".to_vec())),
        amount: candid::Nat::from(123_456_789u64),
    })
    .unwrap()
}

fn vote_message() -> Vec<u8> {
    use theirs::*;
    candid::encode_one(VoteArgs {
        proposal_id: 3,
        vote: theirs::Vote::No,
    })
    .unwrap()
}

fn events_message() -> Vec<u8> {
    use theirs::*;
    let owner = candid::Principal::from_slice(bob().as_slice());
    let events = Events(vec![
        Event::Created { id: 9, owner },
        Event::Renamed(Pair(2, "two".into())),
        Event::Gone,
    ]);
    candid::encode_args((events, Some(Pair(1, "one".into())))).unwrap()
}

/// `bytes` (candid's message for `Args`, whose header is the compiler's) with its
/// header written as agent-js writes it (`post_order::header` of `types`).
fn in_post_order<Args: candor::utils::ArgumentEncoder>(
    bytes: &[u8],
    types: &[candid::types::Type],
) -> Vec<u8> {
    let header = Args::_const_header().expect("the compiler writes this header");
    assert!(bytes.starts_with(header));
    let mut out = post_order::header(types).expect("no recursive types here");
    assert_ne!(out, header, "another order of entries");
    out.extend_from_slice(&bytes[header.len()..]);
    out
}

/// What a decode gave, printed, and the units it charged.
type Outcome = (String, Option<usize>);

/// Decodes `bytes` as `Args` on a fresh thread, known headers `on` or off, the
/// header cache off (so that every message takes the known path when it can), under
/// ic-cdk's decoder config; and how many headers were taken as known.
fn decode<Args>(bytes: &[u8], on: bool) -> (Outcome, u64)
where
    Args: for<'a> candor::utils::ArgumentDecoder<'a> + std::fmt::Debug + Send + 'static,
{
    let (outcome, taken, _) = decode_counted::<Args>(bytes, on);
    (outcome, taken)
}

/// [`decode`], and also how many decodes installed the expected types from the
/// known header.
fn decode_counted<Args>(bytes: &[u8], on: bool) -> (Outcome, u64, u64)
where
    Args: for<'a> candor::utils::ArgumentDecoder<'a> + std::fmt::Debug + Send + 'static,
{
    let bytes = bytes.to_vec();
    std::thread::spawn(move || {
        candor::de::set_header_cache(false);
        candor::de::set_known_headers(on);
        let mut config = DecoderConfig::new();
        config.set_skipping_quota(10_000);
        config.set_decoding_quota(1_000_000);
        let taken = candor::de::known_headers_taken();
        let installed = candor::de::known_types_installed();
        let outcome = match candor::utils::decode_args_with_config_debug::<Args>(&bytes, &config) {
            Ok((v, cost)) => (format!("{v:?}"), cost.decoding_quota),
            Err(e) => (format!("error: {e}"), None),
        };
        (
            outcome,
            candor::de::known_headers_taken() - taken,
            candor::de::known_types_installed() - installed,
        )
    })
    .join()
    .unwrap()
}

/// An argument tuple these tests decode and encode (for its constant header).
trait Tuple:
    for<'a> candor::utils::ArgumentDecoder<'a>
    + candor::utils::ArgumentEncoder
    + std::fmt::Debug
    + Send
    + 'static
{
}

impl<T> Tuple for T where
    T: for<'a> candor::utils::ArgumentDecoder<'a>
        + candor::utils::ArgumentEncoder
        + std::fmt::Debug
        + Send
        + 'static
{
}

/// Known headers on and off give the same outcome for `bytes` and every one-byte
/// change of it; the known path fires for `bytes` itself.
fn same_both_ways<Args: Tuple>(bytes: &[u8]) {
    let header = Args::_const_header().expect("the compiler writes this header");
    assert!(
        bytes.starts_with(header),
        "candid's header is the compiler's: {:02x?} / {:02x?}",
        &bytes[..header.len()],
        header
    );
    let (on, taken) = decode::<Args>(bytes, true);
    assert!(on.0.starts_with('('), "{}", on.0);
    assert_eq!(taken, 1, "the header is taken as known");
    let (off, taken) = decode::<Args>(bytes, false);
    assert_eq!(taken, 0);
    assert_eq!(on, off);
    each_change_same_both_ways::<Args>(bytes, header.len());
}

/// Known headers on and off give the same outcome for every one-byte change of
/// `bytes`, and a change in its first `header` bytes is never taken as known.
fn each_change_same_both_ways<Args>(bytes: &[u8], header: usize)
where
    Args: for<'a> candor::utils::ArgumentDecoder<'a> + std::fmt::Debug + Send + 'static,
{
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80] {
            let mut m = bytes.to_vec();
            m[i] ^= flip;
            let (on, taken) = decode::<Args>(&m, true);
            let (off, _) = decode::<Args>(&m, false);
            assert_eq!(on, off, "byte {i} ^ {flip:#x}");
            if i < header {
                assert_eq!(taken, 0, "byte {i} ^ {flip:#x}");
            }
        }
    }
}

#[test]
fn a_dip721_mint_takes_its_header_as_known() {
    same_both_ways::<(Principal, Vec<MetadataPart>)>(&mint_message());
}

#[test]
fn an_icrc1_transfer_takes_its_header_as_known() {
    same_both_ways::<(TransferArg,)>(&transfer_message());
}

#[test]
fn a_basic_dao_vote_takes_its_header_as_known() {
    same_both_ways::<(VoteArgs,)>(&vote_message());
}

#[test]
fn derived_shapes_take_their_header_as_known() {
    same_both_ways::<(Events, Option<Pair>)>(&events_message());
}

/// The same types in an order of entries neither candid nor agent-js writes are
/// parsed (their expected types still installed), and decode to the same value.
#[test]
fn another_order_of_entries_is_parsed() {
    type Args = (Vec<u8>, Option<Vec<u8>>);
    let ours = candor::encode_args((vec![1u8], Some(vec![2u8]))).unwrap();
    assert_eq!(&ours[..11], b"DIDL\x02\x6d\x7b\x6e\x00\x02\x00");
    let theirs = b"DIDL\x02\x6e\x01\x6d\x7b\x02\x01\x00\x01\x01\x01\x01\x02";
    let (a, taken_a, _) = decode_counted::<Args>(&ours, true);
    let (b, taken_b, installed) = decode_counted::<Args>(theirs, true);
    assert_eq!((taken_a, taken_b, installed), (1, 0, 1));
    assert_eq!(a.0, b.0);
}

/// A message whose header agent-js wrote (`bytes`, the types of `Args` in post
/// order, by the bench canister's writer, not the compiler's) takes the known
/// header in that order, with the expected types installed, and decodes as the
/// candid-ordered `ours` does; known headers on and off give the same outcome for
/// it and every one-byte change of it.
fn post_order_same_both_ways<Args: Tuple>(bytes: &[u8], ours: &[u8]) {
    let (on, taken, installed) = decode_counted::<Args>(bytes, true);
    assert!(on.0.starts_with('('), "{}", on.0);
    assert_eq!(
        (taken, installed),
        (1, 1),
        "taken as known, types installed"
    );
    let (off, _, installed) = decode_counted::<Args>(bytes, false);
    assert_eq!(installed, 0);
    assert_eq!(on, off);
    assert_eq!(on.0, decode::<Args>(ours, true).0 .0);
    // The agent-js header is as long as the compiler's (`ours`).
    let header = bytes.len() - (ours.len() - Args::_const_header().expect("known").len());
    each_change_same_both_ways::<Args>(bytes, header);
}

/// Messages from agent-js (browsers, Node tools), which writes each entry after
/// the entries it names, take the compiler's header in that order.
#[test]
fn agent_js_order_takes_the_known_header() {
    use candid::CandidType as _;
    let mint = mint_message();
    let mint_types = [
        <candid::Principal as candid::CandidType>::ty(),
        Vec::<theirs::MetadataPart>::ty(),
    ];
    post_order_same_both_ways::<(Principal, Vec<MetadataPart>)>(
        &in_post_order::<(Principal, Vec<MetadataPart>)>(&mint, &mint_types),
        &mint,
    );
    let transfer = transfer_message();
    post_order_same_both_ways::<(TransferArg,)>(
        &in_post_order::<(TransferArg,)>(&transfer, &[theirs::TransferArg::ty()]),
        &transfer,
    );
    let vote = vote_message();
    post_order_same_both_ways::<(VoteArgs,)>(
        &in_post_order::<(VoteArgs,)>(&vote, &[theirs::VoteArgs::ty()]),
        &vote,
    );
    let events = events_message();
    let events_types = [theirs::Events::ty(), Option::<theirs::Pair>::ty()];
    post_order_same_both_ways::<(Events, Option<Pair>)>(
        &in_post_order::<(Events, Option<Pair>)>(&events, &events_types),
        &events,
    );
}

/// A message decoded as other types than its header's is parsed, and decodes
/// (by subtyping) as before; so does one with more arguments than the types.
#[test]
fn other_types_are_parsed() {
    let bytes = vote_message();
    let (on, taken) = decode::<(candor::Reserved,)>(&bytes, true);
    assert_eq!(taken, 0);
    assert_eq!(on, decode::<(candor::Reserved,)>(&bytes, false).0);
    let two = candor::encode_args((
        VoteArgs {
            proposal_id: 1,
            vote: Vote::Yes,
        },
        5u8,
    ))
    .unwrap();
    let (on, taken) = decode::<(VoteArgs,)>(&two, true);
    assert_eq!(taken, 0);
    assert_eq!(on, decode::<(VoteArgs,)>(&two, false).0);
}

/// With the header cache on, a header taken as known is kept as a parsed one is:
/// the next message takes the kept header.
#[test]
fn a_known_header_is_kept() {
    let bytes = vote_message();
    std::thread::spawn(move || {
        let taken = candor::de::known_headers_taken();
        let hits = candor::de::header_cache_hits();
        for _ in 0..3 {
            let (v,): (VoteArgs,) = candor::decode_args(&bytes).unwrap();
            assert_eq!(
                v,
                VoteArgs {
                    proposal_id: 3,
                    vote: Vote::No
                }
            );
        }
        assert_eq!(candor::de::known_headers_taken() - taken, 1);
        assert_eq!(candor::de::header_cache_hits() - hits, 2);
    })
    .join()
    .unwrap();
}
