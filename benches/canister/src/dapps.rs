//! The Candid work of the first calls that dfinity/canister-profiling sends its sample
//! dapps (DIP721 `mintDip721` and `transferFromDip721`, Basic DAO `transfer`,
//! `submit_proposal` and `vote`; the canisters themselves are in `tests/canisters`):
//! each call's arguments decoded and its reply encoded, for the first time in a fresh
//! instance, which is what a canister pays on the first call of each method. The
//! arguments are those of the calls scripts (`tests/canisters/calls/dip721.txt`,
//! `basic_dao.txt`); the types follow the dapps' interfaces.
//!
//! Scopes: "2. Decoding" the five argument lists, "1. Encoding" the five replies, both
//! the first time; "3. Serde floor" the same argument lists' values built through
//! their types' `Deserialize` with none of Candid's work (`serde_floor`), the least
//! any serde-based decoder pays for them; "4. Second calls" the same decodes and
//! encodes again (the steady state).
//!
//! `dapp_calls_warmed`: the same first calls after `candor::warm_up` filled the five
//! methods' caches, as a canister's `init` can (scopes "2. Decoding" and "1. Encoding"
//! as above). candid has no such call: its build measures the cold first calls again.
//!
//! `dapp_calls_post_order`: the same first calls from a client that writes each type
//! table entry after the entries it names (agent-js: browsers, Node tools) rather
//! than before them as candid does (scopes "2. Decoding" and "1. Encoding" as above).

use crate::lib::{CandidType, Decode, Deserialize, Encode, Principal};
use crate::serde_floor::{self as floor, Schema};
use canbench_rs::{bench, bench_fn, bench_scope, BenchResult};

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub enum MetadataPurpose {
    Preview,
    Rendered,
}

#[allow(clippy::enum_variant_names)]
#[derive(CandidType, Deserialize, Clone, Debug)]
pub enum MetadataVal {
    TextContent(String),
    BlobContent(Vec<u8>),
    NatContent(u128),
    Nat8Content(u8),
    Nat16Content(u16),
    Nat32Content(u32),
    Nat64Content(u64),
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct MetadataPart {
    pub purpose: MetadataPurpose,
    /// `vec record { text; MetadataVal }`; the canister keeps it in a `HashMap`, here it
    /// is the same wire type decoded as pairs (a second map type in this canister
    /// changes how the linker inlines `btreemap`'s decoding, which must stay as it is).
    pub key_val_data: Vec<(String, MetadataVal)>,
    pub data: Vec<u8>,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub enum ApiError {
    Unauthorized,
    InvalidTokenId,
    ZeroAddress,
    Other,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub struct Minted {
    pub token_id: u64,
    pub id: u128,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub enum MintError {
    Unauthorized,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub struct Tokens {
    pub amount_e8s: u64,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct TransferArgs {
    pub to: Principal,
    pub amount: Tokens,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct ProposalPayload {
    pub canister_id: Principal,
    pub method: String,
    pub message: Vec<u8>,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub enum Vote {
    Yes,
    No,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct VoteArgs {
    pub proposal_id: u64,
    pub vote: Vote,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub enum ProposalState {
    Open,
    Accepted,
    Rejected,
    Executing,
    Succeeded,
    Failed(String),
}

/// A self-authenticating principal's length of bytes, as the scripts' identities have.
fn user(tag: u8) -> Principal {
    let mut bytes = [tag; 29];
    bytes[28] = 2;
    Principal::from_slice(&bytes)
}

fn metadata() -> Vec<MetadataPart> {
    let text = |s: &str| MetadataVal::TextContent(s.into());
    vec![MetadataPart {
        purpose: MetadataPurpose::Rendered,
        data: b"hello".to_vec(),
        key_val_data: Vec::from([
            (
                "description".into(),
                text("The NFT metadata can hold arbitrary metadata"),
            ),
            ("tag".into(), text("anime")),
            ("contentType".into(), text("text/plain")),
            ("locationType".into(), MetadataVal::Nat8Content(4)),
        ]),
    }]
}

/// The five calls' arguments, decoded.
fn decode_args(messages: &[Vec<u8>; 5]) {
    let (to, _) = Decode!(&messages[0], Principal, Vec<MetadataPart>).unwrap();
    crate::keep(to);
    let (_, _, token) = Decode!(&messages[1], Principal, Principal, u64).unwrap();
    crate::keep(token);
    crate::keep(Decode!(&messages[2], TransferArgs).unwrap());
    crate::keep(Decode!(&messages[3], ProposalPayload).unwrap());
    crate::keep(Decode!(&messages[4], VoteArgs).unwrap());
}

/// The five calls' argument values, built by the serde floor from the value bytes
/// (each message from `starts`, where its header ends, found before measuring):
/// `schemas` are the argument tuples' flat types.
fn floor_args(messages: &[Vec<u8>; 5], starts: &[usize; 5], schemas: &[Schema; 5]) {
    let values = |i: usize| &messages[i][starts[i]..];
    let (to, _): (Principal, Vec<MetadataPart>) = floor::decode(&schemas[0], values(0));
    crate::keep(to);
    let (_, _, token): (Principal, Principal, u64) = floor::decode(&schemas[1], values(1));
    crate::keep(token);
    crate::keep(floor::decode::<TransferArgs>(&schemas[2], values(2)));
    crate::keep(floor::decode::<ProposalPayload>(&schemas[3], values(3)));
    crate::keep(floor::decode::<VoteArgs>(&schemas[4], values(4)));
}

/// The flat types [`floor_args`] walks, made before measuring.
fn floor_schemas() -> [Schema; 5] {
    [
        Schema::of::<(Principal, Vec<MetadataPart>)>(),
        Schema::of::<(Principal, Principal, u64)>(),
        Schema::of::<TransferArgs>(),
        Schema::of::<ProposalPayload>(),
        Schema::of::<VoteArgs>(),
    ]
}

/// The five calls' replies, encoded.
fn encode_replies() {
    crate::keep(Encode!(&Ok::<Minted, MintError>(Minted { token_id: 0, id: 0 })).unwrap());
    crate::keep(Encode!(&Ok::<u128, ApiError>(0)).unwrap());
    crate::keep(Encode!(&Ok::<(), String>(())).unwrap());
    crate::keep(Encode!(&Ok::<u64, String>(0)).unwrap());
    crate::keep(Encode!(&Ok::<ProposalState, String>(ProposalState::Accepted)).unwrap());
}

/// The five calls' argument messages, as the calls scripts send them.
fn messages() -> [Vec<u8>; 5] {
    let (bob, alice, dory) = (user(0x62), user(0x53), user(0x8c));
    [
        Encode!(&bob, &metadata()).unwrap(),
        Encode!(&bob, &alice, &0u64).unwrap(),
        Encode!(&TransferArgs {
            to: dory,
            amount: Tokens { amount_e8s: 400 }
        })
        .unwrap(),
        Encode!(&ProposalPayload {
            // The offline host's canister id; the message is as long as the scripts' one.
            canister_id: Principal::from_slice(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xe0, 0, 0, 1, 1]),
            method: "update_system_params".into(),
            message: vec![0x44; 49],
        })
        .unwrap(),
        Encode!(&VoteArgs {
            proposal_id: 0,
            vote: Vote::Yes
        })
        .unwrap(),
    ]
}

/// The first calls' Candid work, then the same again (see the module docs).
#[bench(raw)]
fn dapp_calls() -> BenchResult {
    let messages = messages();
    let schemas = floor_schemas();
    let starts = messages.each_ref().map(|m| crate::wire::header_len(m));
    bench_fn(|| {
        {
            let _p = bench_scope("2. Decoding");
            decode_args(&messages);
        }
        {
            let _p = bench_scope("1. Encoding");
            encode_replies();
        }
        {
            let _p = bench_scope("3. Serde floor");
            floor_args(&messages, &starts, &schemas);
        }
        let _p = bench_scope("4. Second calls");
        decode_args(&messages);
        encode_replies();
    })
}

/// The five messages with their headers as agent-js writes them (each type table
/// entry after the entries it names; `post_order.rs`), the values unchanged: what
/// a browser sends.
fn messages_in_post_order() -> [Vec<u8>; 5] {
    use crate::lib::CandidType as _;
    let types = [
        vec![Principal::ty(), Vec::<MetadataPart>::ty()],
        vec![Principal::ty(), Principal::ty(), u64::ty()],
        vec![TransferArgs::ty()],
        vec![ProposalPayload::ty()],
        vec![VoteArgs::ty()],
    ];
    let mut i = 0;
    messages().map(|m| {
        let mut out = crate::post_order::header(&types[i]).expect("no recursive types here");
        out.extend_from_slice(&m[crate::wire::header_len(&m)..]);
        i += 1;
        out
    })
}

/// The first calls of [`dapp_calls`] from a client that orders its type table
/// otherwise (agent-js: browsers, Node tools), which the compiler's header does
/// not match: the headers are parsed ("2. Decoding", "1. Encoding" as there).
#[bench(raw)]
fn dapp_calls_post_order() -> BenchResult {
    let messages = messages_in_post_order();
    bench_fn(|| {
        {
            let _p = bench_scope("2. Decoding");
            decode_args(&messages);
        }
        let _p = bench_scope("1. Encoding");
        encode_replies();
    })
}

/// Fills the five methods' caches as a canister's `init` would (candor only).
#[cfg(not(feature = "candid"))]
fn warm_up() {
    use crate::lib::warm_up;
    warm_up::<(Principal, Vec<MetadataPart>), (Result<Minted, MintError>,)>().unwrap();
    warm_up::<(Principal, Principal, u64), (Result<u128, ApiError>,)>().unwrap();
    warm_up::<(TransferArgs,), (Result<(), String>,)>().unwrap();
    warm_up::<(ProposalPayload,), (Result<u64, String>,)>().unwrap();
    warm_up::<(VoteArgs,), (Result<ProposalState, String>,)>().unwrap();
}

/// candid cannot fill its caches ahead: its first calls stay cold.
#[cfg(feature = "candid")]
fn warm_up() {}

/// The first calls' Candid work after the methods' caches were filled ahead (see the
/// module docs).
#[bench(raw)]
fn dapp_calls_warmed() -> BenchResult {
    let messages = messages();
    warm_up();
    bench_fn(|| {
        {
            let _p = bench_scope("2. Decoding");
            decode_args(&messages);
        }
        let _p = bench_scope("1. Encoding");
        encode_replies();
    })
}
