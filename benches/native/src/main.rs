//! `nbench <lib> <workload> <phase>`: one Candid encode or decode, measured natively.
//!
//! `lib` is `candor` or `candid` (0.10.39), `phase` is `encode` or `decode`. The workload's value is
//! built, then the phase runs once inside an `#[inline(never)]` function named `measured_encode` or
//! `measured_decode`; `run.sh` runs callgrind with `--toggle-collect='*measured_*'` so that only
//! those calls are counted. A decode first encodes the value (not measured) and decodes it with a
//! decoding quota of 25,000,000 and a skipping quota of 10,000. Every run checks its result outside
//! the measured region: the decoded value must equal the original (an encode is decoded back).
//!
//! The same type definitions are compiled twice by `suite!`: `mod ours` derives through candor and
//! `mod theirs` through candid, so both libraries see identical Rust types and values.
//!
//! Workloads (fixed sizes; `nbench --list` prints the names):
//!
//! | workload            | value                                                                 |
//! |---------------------|-----------------------------------------------------------------------|
//! | `blob`              | `serde_bytes::ByteBuf`, 2 MiB of `0x61`                               |
//! | `text`              | `String`, 2 MiB of `a`                                                |
//! | `vec_int16`         | `Vec<i16>`, 2,097,152 × -1                                            |
//! | `vec_nat32`         | `Vec<u32>`, 0..2,097,152                                              |
//! | `vec_nat64`         | `Vec<u64>`, 0..2,097,152                                              |
//! | `vec_nat`           | `Vec<Nat>`, 0..262,144                                                |
//! | `btreemap`          | `BTreeMap<String, Nat>`, 65,536 entries `"key{i:08}" => i`            |
//! | `option_list`       | `Option<Box<List>>`, `List { head: Int, tail: Option<Box<List>> }`, 2,048 cells |
//! | `variant_list`      | `enum VariantList { Nil, Cons(Int, Box<VariantList>) }`, 2,048 cells  |
//! | `nns_list_proposal` | `Vec<ProposalInfo>`, 1,000 governance-like 17-field records           |
//! | `small_args`        | message `(nat64, text, principal)`: 1,000 encodes / decodes per run   |
//! | `subtype_decode`    | 1,000 one-record messages of a 16-field record, decoded as its 4-field older version |
//! | `subtype_vec`       | one message `vec` of 20 of those 16-field records, decoded as `vec` of the 4-field version |
//!
//! `small_args` and `subtype_decode` measure 1,000 messages: divide by 1,000 for a per-call figure.
//! The skipping quota of 10,000 applies per message: it admits about 30 skipped records in one
//! message, so `subtype_vec` holds 20 (both libraries reject a vec of 1,000 as over the quota).

use std::hint::black_box;

/// Decoding quota every decode runs under (the canbench workloads use the same).
const DECODING_QUOTA: usize = 25_000_000;
/// Skipping quota every decode runs under: the value ic-cdk recommends for endpoints.
const SKIPPING_QUOTA: usize = 10_000;

const MIB2: usize = 2 * 1024 * 1024;
const VEC_LEN: usize = 2_097_152;
const VEC_NAT_LEN: u64 = 262_144;
const MAP_LEN: u64 = 65_536;
const LIST_LEN: i64 = 2_048;
const PROPOSALS: u64 = 1_000;
const SMALL_CALLS: u64 = 1_000;
const RECORDS: u64 = 1_000;
/// Records in `subtype_vec`: a skipping quota of 10,000 admits about 30 of them in one message
/// (both libraries reject 1,000 with "Skipping cost exceeds the limit").
const VEC_RECORDS: u64 = 20;

const WORKLOADS: &[&str] = &[
    "blob",
    "text",
    "vec_int16",
    "vec_nat32",
    "vec_nat64",
    "vec_nat",
    "btreemap",
    "option_list",
    "variant_list",
    "nns_list_proposal",
    "small_args",
    "subtype_decode",
    "subtype_vec",
];

/// The measured region of an encode: callgrind collects only while inside this function.
#[inline(never)]
fn measured_encode<R>(f: impl FnOnce() -> R) -> R {
    black_box(f())
}

/// The measured region of a decode: callgrind collects only while inside this function.
#[inline(never)]
fn measured_decode<R>(f: impl FnOnce() -> R) -> R {
    black_box(f())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Encode,
    Decode,
}

/// Defines the workload types and the runner against one library (`lib`).
macro_rules! suite {
    ($name:ident, $lib:ident) => {
        mod $name {
            use super::*;
            use serde_bytes::ByteBuf;
            use std::collections::BTreeMap;
            use $lib as lib;
            use $lib::{CandidType, Deserialize, Int, Nat, Principal};

            // ------------------------------------------------------------ recursive lists

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct List {
                pub head: Int,
                pub tail: Option<Box<List>>,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub enum VariantList {
                Nil,
                Cons(Int, Box<VariantList>),
            }

            // ------------------------------------------------- governance-like proposals

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct NeuronId {
                pub id: u64,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct GovernanceError {
                pub error_message: String,
                pub error_type: i32,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct Ballot {
                pub vote: i32,
                pub voting_power: u64,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct Tally {
                pub no: u64,
                pub yes: u64,
                pub total: u64,
                pub timestamp_seconds: u64,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct SwapBackgroundInformation {
                pub fallback_controller_principal_ids: Vec<Principal>,
                pub root_canister_summary: Option<Principal>,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct DerivedProposalInformation {
                pub swap_background_information: Option<SwapBackgroundInformation>,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct Motion {
                pub motion_text: String,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct ExecuteNnsFunction {
                pub nns_function: i32,
                pub payload: ByteBuf,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct KnownNeuronData {
                pub name: String,
                pub description: Option<String>,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct KnownNeuron {
                pub id: Option<NeuronId>,
                pub known_neuron_data: Option<KnownNeuronData>,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub enum Action {
                Motion(Motion),
                ExecuteNnsFunction(ExecuteNnsFunction),
                RegisterKnownNeuron(KnownNeuron),
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct Proposal {
                pub url: String,
                pub title: Option<String>,
                pub summary: String,
                pub action: Option<Action>,
            }

            /// The 17 fields of NNS governance's `ProposalInfo`.
            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct ProposalInfo {
                pub id: Option<NeuronId>,
                pub status: i32,
                pub topic: i32,
                pub failure_reason: Option<GovernanceError>,
                pub ballots: Vec<(u64, Ballot)>,
                pub proposal_timestamp_seconds: u64,
                pub reward_event_round: u64,
                pub deadline_timestamp_seconds: Option<u64>,
                pub failed_timestamp_seconds: u64,
                pub reject_cost_e8s: u64,
                pub derived_proposal_information: Option<DerivedProposalInformation>,
                pub latest_tally: Option<Tally>,
                pub reward_status: i32,
                pub decided_timestamp_seconds: u64,
                pub proposal: Option<Box<Proposal>>,
                pub proposer: Option<NeuronId>,
                pub executed_timestamp_seconds: u64,
            }

            // ------------------------------------------------------- evolving record

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct Limits {
                pub daily: u64,
                pub monthly: u64,
            }

            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub enum Kind {
                Personal,
                Business,
                Custodial,
            }

            /// The current version of an account record: 16 fields.
            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct AccountV2 {
                pub id: u64,
                pub owner: Principal,
                pub name: String,
                pub balance: Nat,
                pub created_at: u64,
                pub updated_at: Option<u64>,
                pub tags: Vec<String>,
                pub memo: Option<ByteBuf>,
                pub flags: u32,
                pub kind: Kind,
                pub score: f64,
                pub enabled: bool,
                pub parent: Option<u64>,
                pub limits: Limits,
                pub note: String,
                pub version: u16,
            }

            /// The older version of the same record (a supertype on the wire): 4 fields.
            #[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
            pub struct AccountV1 {
                pub id: u64,
                pub owner: Principal,
                pub name: String,
                pub balance: Nat,
            }

            // ------------------------------------------------------------ values

            fn principal(i: u64) -> Principal {
                let mut bytes = [0u8; 10];
                bytes[..8].copy_from_slice(&i.to_be_bytes());
                bytes[8] = 1;
                bytes[9] = 1;
                Principal::from_slice(&bytes)
            }

            fn option_list() -> Option<Box<List>> {
                (0..LIST_LEN).rev().fold(None, |tail, i| {
                    Some(Box::new(List {
                        head: Int::from(i),
                        tail,
                    }))
                })
            }

            fn variant_list() -> VariantList {
                (0..LIST_LEN).rev().fold(VariantList::Nil, |tail, i| {
                    VariantList::Cons(Int::from(i), Box::new(tail))
                })
            }

            fn proposals() -> Vec<ProposalInfo> {
                (0..PROPOSALS)
                    .map(|i| {
                        let action = match i % 3 {
                            0 => Action::Motion(Motion {
                                motion_text: format!("Motion #{i}: adopt the roadmap"),
                            }),
                            1 => Action::ExecuteNnsFunction(ExecuteNnsFunction {
                                nns_function: 4,
                                payload: ByteBuf::from(vec![0x44; 32]),
                            }),
                            _ => Action::RegisterKnownNeuron(KnownNeuron {
                                id: Some(NeuronId { id: i }),
                                known_neuron_data: Some(KnownNeuronData {
                                    name: format!("neuron {i}"),
                                    description: None,
                                }),
                            }),
                        };
                        ProposalInfo {
                            id: Some(NeuronId { id: 100_000 + i }),
                            status: 4,
                            topic: (i % 12) as i32,
                            failure_reason: None,
                            ballots: Vec::new(),
                            proposal_timestamp_seconds: 1_700_000_000 + i,
                            reward_event_round: 1_000 + i,
                            deadline_timestamp_seconds: None,
                            failed_timestamp_seconds: 0,
                            reject_cost_e8s: 1_000_000_000,
                            derived_proposal_information: None,
                            latest_tally: Some(Tally {
                                no: 1_000 * i,
                                yes: 40_000_000_000_000 + i,
                                total: 45_000_000_000_000,
                                timestamp_seconds: 1_700_000_100 + i,
                            }),
                            reward_status: 3,
                            decided_timestamp_seconds: 1_700_000_200 + i,
                            proposal: Some(Box::new(Proposal {
                                url: String::new(),
                                title: Some(format!("Proposal {i}")),
                                summary: "Upgrade the registry canister to the latest release."
                                    .into(),
                                action: Some(action),
                            })),
                            proposer: Some(NeuronId { id: 27 }),
                            executed_timestamp_seconds: 1_700_000_300 + i,
                        }
                    })
                    .collect()
            }

            fn accounts(n: u64) -> Vec<AccountV2> {
                (0..n)
                    .map(|i| AccountV2 {
                        id: i,
                        owner: principal(i),
                        name: format!("account-{i}"),
                        balance: Nat::from(1_000_000 * i),
                        created_at: 1_700_000_000_000_000_000 + i,
                        updated_at: (i % 2 == 0).then_some(1_700_000_000_000_000_500 + i),
                        tags: vec!["main".into(), "icp".into()],
                        memo: (i % 4 == 0).then(|| ByteBuf::from(vec![7u8; 16])),
                        flags: 0x11,
                        kind: Kind::Personal,
                        score: i as f64 / 3.0,
                        enabled: true,
                        parent: None,
                        limits: Limits {
                            daily: 10_000,
                            monthly: 300_000,
                        },
                        note: String::from("migrated"),
                        version: 2,
                    })
                    .collect()
            }

            fn older(v: &AccountV2) -> AccountV1 {
                AccountV1 {
                    id: v.id,
                    owner: v.owner,
                    name: v.name.clone(),
                    balance: v.balance.clone(),
                }
            }

            // ------------------------------------------------------------ codec

            fn config() -> lib::DecoderConfig {
                let mut config = lib::DecoderConfig::new();
                config.set_decoding_quota(DECODING_QUOTA);
                config.set_skipping_quota(SKIPPING_QUOTA);
                config
            }

            fn encode<T: CandidType>(value: &T) -> Vec<u8> {
                let mut builder = lib::ser::IDLBuilder::new();
                builder.arg(value).expect("encode arg");
                builder.serialize_to_vec().expect("serialize")
            }

            fn decode<T>(bytes: &[u8], config: &lib::DecoderConfig) -> T
            where
                T: CandidType + for<'de> Deserialize<'de>,
            {
                match lib::decode_args_with_config::<(T,)>(bytes, config) {
                    Ok((value,)) => value,
                    Err(e) => failed("decode", &e),
                }
            }

            type Small = (u64, String, Principal);

            fn encode_small(args: &Small) -> Vec<u8> {
                let mut builder = lib::ser::IDLBuilder::new();
                builder.arg(&args.0).expect("arg 0");
                builder.arg(&args.1).expect("arg 1");
                builder.arg(&args.2).expect("arg 2");
                builder.serialize_to_vec().expect("serialize")
            }

            fn decode_small(bytes: &[u8], config: &lib::DecoderConfig) -> Small {
                lib::decode_args_with_config::<Small>(bytes, config)
                    .unwrap_or_else(|e| failed("decode", &e))
            }

            /// Measures one encode or decode of `value` as a single argument; returns the message size.
            fn one<T>(phase: Phase, value: &T) -> usize
            where
                T: CandidType + for<'de> Deserialize<'de> + PartialEq,
            {
                let config = config();
                let bytes = match phase {
                    Phase::Encode => measured_encode(|| encode(black_box(value))),
                    Phase::Decode => encode(value),
                };
                let decoded: T = match phase {
                    Phase::Encode => decode(&bytes, &config),
                    Phase::Decode => measured_decode(|| decode(black_box(&bytes), &config)),
                };
                assert!(decoded == *value, "decoded value differs from the original");
                bytes.len()
            }

            /// 1,000 calls, each with its own `(nat64, text, principal)` message.
            fn small_args(phase: Phase) -> usize {
                let config = config();
                let args: Vec<Small> = (0..SMALL_CALLS)
                    .map(|i| {
                        (
                            i * 7_919,
                            format!("memo for transfer number {i}"),
                            principal(i),
                        )
                    })
                    .collect();
                let messages: Vec<Vec<u8>> = match phase {
                    Phase::Encode => measured_encode(|| {
                        let mut out = Vec::with_capacity(args.len());
                        for a in black_box(&args) {
                            out.push(encode_small(a));
                        }
                        out
                    }),
                    Phase::Decode => args.iter().map(encode_small).collect(),
                };
                let decoded: Vec<Small> = match phase {
                    Phase::Encode => messages.iter().map(|m| decode_small(m, &config)).collect(),
                    Phase::Decode => {
                        let mut out = Vec::with_capacity(messages.len());
                        measured_decode(|| {
                            for m in black_box(&messages) {
                                out.push(decode_small(m, &config));
                            }
                        });
                        out
                    }
                };
                assert!(
                    decoded == args,
                    "decoded arguments differ from the originals"
                );
                messages.iter().map(Vec::len).sum::<usize>() / messages.len()
            }

            /// 1,000 one-record messages of `AccountV2`, decoded as `AccountV1`.
            fn subtype_decode(phase: Phase) -> usize {
                let config = config();
                let records = accounts(RECORDS);
                let expected: Vec<AccountV1> = records.iter().map(older).collect();
                let messages: Vec<Vec<u8>> = match phase {
                    Phase::Encode => measured_encode(|| {
                        let mut out = Vec::with_capacity(records.len());
                        for r in black_box(&records) {
                            out.push(encode(r));
                        }
                        out
                    }),
                    Phase::Decode => records.iter().map(encode).collect(),
                };
                let decoded: Vec<AccountV1> = match phase {
                    Phase::Encode => {
                        let full: Vec<AccountV2> =
                            messages.iter().map(|m| decode(m, &config)).collect();
                        assert!(full == records, "re-decoded records differ");
                        messages.iter().map(|m| decode(m, &config)).collect()
                    }
                    Phase::Decode => {
                        let mut out = Vec::with_capacity(messages.len());
                        measured_decode(|| {
                            for m in black_box(&messages) {
                                out.push(decode::<AccountV1>(m, &config));
                            }
                        });
                        out
                    }
                };
                assert!(decoded == expected, "decoded older records differ");
                messages.iter().map(Vec::len).sum::<usize>() / messages.len()
            }

            /// One message holding `VEC_RECORDS` `AccountV2`, decoded as `Vec<AccountV1>`.
            fn subtype_vec(phase: Phase) -> usize {
                let config = config();
                let records = accounts(VEC_RECORDS);
                let expected: Vec<AccountV1> = records.iter().map(older).collect();
                let bytes = match phase {
                    Phase::Encode => {
                        let bytes = measured_encode(|| encode(black_box(&records)));
                        let full: Vec<AccountV2> = decode(&bytes, &config);
                        assert!(full == records, "re-decoded records differ");
                        bytes
                    }
                    Phase::Decode => {
                        let bytes = encode(&records);
                        let decoded: Vec<AccountV1> =
                            measured_decode(|| decode(black_box(&bytes), &config));
                        assert!(decoded == expected, "decoded older records differ");
                        bytes
                    }
                };
                bytes.len()
            }

            /// Runs `workload` once in `phase`; returns the (per-message) size in bytes.
            pub fn run(workload: &str, phase: Phase) -> usize {
                match workload {
                    "blob" => one(phase, &ByteBuf::from(vec![0x61u8; MIB2])),
                    "text" => one(phase, &"a".repeat(MIB2)),
                    "vec_int16" => one(phase, &vec![-1i16; VEC_LEN]),
                    "vec_nat32" => one(phase, &(0..VEC_LEN as u32).collect::<Vec<u32>>()),
                    "vec_nat64" => one(phase, &(0..VEC_LEN as u64).collect::<Vec<u64>>()),
                    "vec_nat" => one(
                        phase,
                        &(0..VEC_NAT_LEN).map(Nat::from).collect::<Vec<Nat>>(),
                    ),
                    "btreemap" => one(
                        phase,
                        &(0..MAP_LEN)
                            .map(|i| (format!("key{i:08}"), Nat::from(i)))
                            .collect::<BTreeMap<String, Nat>>(),
                    ),
                    "option_list" => one(phase, &option_list()),
                    "variant_list" => one(phase, &variant_list()),
                    "nns_list_proposal" => one(phase, &proposals()),
                    "small_args" => small_args(phase),
                    "subtype_decode" => subtype_decode(phase),
                    "subtype_vec" => subtype_vec(phase),
                    other => usage(&format!("unknown workload `{other}`")),
                }
            }
        }
    };
}

suite!(ours, candor);
suite!(theirs, candid);

/// Panics with the first lines of `err` (candid's errors embed the whole message in hex).
#[cold]
#[inline(never)]
fn failed(what: &str, err: &dyn std::fmt::Display) -> ! {
    let text = err.to_string();
    let mut short: String = text.lines().take(4).collect::<Vec<_>>().join("\n");
    if short.len() > 600 {
        let mut end = 600;
        while !short.is_char_boundary(end) {
            end -= 1;
        }
        short.truncate(end);
        short.push_str(" …");
    }
    panic!("{what} failed: {short}");
}

fn usage(msg: &str) -> ! {
    eprintln!("nbench: {msg}");
    eprintln!("usage: nbench <candor|candid> <workload> <encode|decode>   |   nbench --list");
    eprintln!("workloads: {}", WORKLOADS.join(" "));
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() == 1 && args[0] == "--list" {
        for w in WORKLOADS {
            println!("{w}");
        }
        return;
    }
    let [lib, workload, phase] = args.as_slice() else {
        usage("expected three arguments");
    };
    let phase = match phase.as_str() {
        "encode" => Phase::Encode,
        "decode" => Phase::Decode,
        other => usage(&format!("unknown phase `{other}`")),
    };
    if !WORKLOADS.contains(&workload.as_str()) {
        usage(&format!("unknown workload `{workload}`"));
    }
    let run: fn(&str, Phase) -> usize = match lib.as_str() {
        "candor" => ours::run,
        "candid" => theirs::run,
        other => usage(&format!("unknown library `{other}`")),
    };
    // Recursive workloads (2,048 levels) need more stack than a native main thread has.
    let workload_name = workload.clone();
    let size = std::thread::Builder::new()
        .name("nbench".into())
        .stack_size(64 << 20)
        .spawn(move || run(&workload_name, phase))
        .expect("spawn worker")
        .join()
        .unwrap_or_else(|_| std::process::exit(1));
    eprintln!("nbench: {lib} {workload} ok ({size} bytes per message)");
}
