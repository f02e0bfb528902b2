//! canbench-rs canister measuring what Candid costs inside a canister.
//!
//! The same source is compiled against candor (default feature) or against candid 0.10.39
//! (`--no-default-features --features candid`), so both libraries run the exact same workloads
//! and the reports can be compared row by row. The workloads and their sizes follow the candid
//! repository's own canbench suite (`rust/bench/bench.rs`), with our own types and data.
//!
//! Scopes: "0. Parsing" (reserved for workloads that parse .did text), "1. Encoding",
//! "2. Decoding", and "3. Floor": the least work that builds the same Rust value from bytes
//! already in memory, so a report can show how far a decoder is from the floor. The real-traffic
//! workloads add "4. Serde floor": the same value built through its `Deserialize` impl with no
//! Candid work at all (`serde_floor.rs`), the least a serde-based decoder can cost. The
//! stable-structures workloads (`storable.rs`) add "5. CBOR encoding" and "6. CBOR decoding":
//! the same values stored with ciborium. `dapp_calls` (`dapps.rs`) adds "4. Second calls".
//!
//! The text workloads (`nns`, `vec_service`) go through the matching parser crate: candor_parser
//! for candor, candid_parser for candid.

#[cfg(feature = "candid")]
use candid as lib;
#[cfg(not(feature = "candid"))]
use candor as lib;

#[cfg(feature = "candid")]
use candid_parser as parser;
#[cfg(not(feature = "candid"))]
use candor_parser as parser;

use canbench_rs::{bench, bench_fn, bench_scope, BenchResult};
use lib::types::{Type, TypeInner};
use lib::{Decode, DecoderConfig, Encode, IDLArgs, IDLValue, Int, Nat, Principal, TypeEnv};
use std::collections::BTreeMap;

mod dapps;
mod first_replies;
mod icrc_first_calls;
mod post_order;
mod serde_floor;
mod storable;
mod traffic;
mod types;
mod wire;

use types::*;

/// Big vectors: 2 MiB of elements, as in candid's suite.
const N: usize = 2_097_152;
/// Decoding quota applied to every decode, as canister endpoints are advised to do.
const COST: usize = 25_000_000;
/// Skipping quota: a small value, as recommended for canister endpoints.
const SKIP: usize = 10_000;

/// The decoder configuration most workloads use (both quotas).
fn config() -> DecoderConfig {
    let mut config = DecoderConfig::new();
    config.set_decoding_quota(COST).set_skipping_quota(SKIP);
    config
}

/// Runs `encode` then `decode` under the standard scopes and, when given, the floor.
fn measure<E, D, F>(encode: E, decode: D, floor: Option<F>) -> BenchResult
where
    E: FnOnce() -> Vec<u8>,
    D: FnOnce(&[u8]),
    F: FnOnce(&[u8]),
{
    bench_fn(|| {
        let bytes = {
            let _p = bench_scope("1. Encoding");
            encode()
        };
        {
            let _p = bench_scope("2. Decoding");
            decode(&bytes);
        }
        if let Some(floor) = floor {
            let _p = bench_scope("3. Floor");
            floor(&bytes);
        }
    })
}

/// Keeps the optimiser from deleting floor work whose result is otherwise unused.
fn keep<T>(value: T) {
    core::hint::black_box(value);
}

/// Body of a single-argument message whose value is the trailing `len` bytes.
fn tail(bytes: &[u8], len: usize) -> &[u8] {
    &bytes[bytes.len() - len..]
}

/// Integers whose memory is their little-endian bytes: what [`le_vec`] may build.
trait LeInt: Copy {}
impl LeInt for i16 {}
impl LeInt for u32 {}
impl LeInt for u64 {}

/// The least work that builds a vector of fixed-width integers from their
/// little-endian bytes on wasm (a little-endian target): one copy into a vector of
/// exactly their number.
fn le_vec<T: LeInt>(body: &[u8]) -> Vec<T> {
    let n = body.len() / std::mem::size_of::<T>();
    let mut out = Vec::<T>::with_capacity(n);
    // SAFETY: `LeInt` types are integers (no padding, every bit pattern valid) and
    // wasm is little-endian, so the bytes are the values; `out` has room for `n`
    // elements, which `body` holds, in memory that does not overlap it.
    unsafe {
        std::ptr::copy_nonoverlapping(
            body.as_ptr(),
            out.as_mut_ptr().cast::<u8>(),
            n * std::mem::size_of::<T>(),
        );
        out.set_len(n);
    }
    out
}

#[bench(raw)]
fn blob() -> BenchResult {
    use serde_bytes::ByteBuf;
    let data = vec![0x61u8; N];
    let config = config();
    measure(
        || Encode!(&ByteBuf::from(data)).unwrap(),
        |bytes| keep(Decode!([config]; bytes, ByteBuf).unwrap()),
        Some(|bytes: &[u8]| keep(tail(bytes, N).to_vec())),
    )
}

#[bench(raw)]
fn text() -> BenchResult {
    let text = String::from_utf8(vec![0x61u8; N]).unwrap();
    let config = config();
    measure(
        || Encode!(&text).unwrap(),
        |bytes| keep(Decode!([config]; bytes, String).unwrap()),
        Some(|bytes: &[u8]| keep(String::from_utf8(tail(bytes, N).to_vec()).unwrap())),
    )
}

#[bench(raw)]
fn vec_int16() -> BenchResult {
    let data: Vec<i16> = vec![-1; N];
    let config = config();
    measure(
        || Encode!(&data).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<i16>).unwrap()),
        Some(|bytes: &[u8]| keep(le_vec::<i16>(tail(bytes, N * 2)))),
    )
}

#[bench(raw)]
fn vec_nat32() -> BenchResult {
    let data: Vec<u32> = (0..N as u32).collect();
    let config = config();
    measure(
        || Encode!(&data).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<u32>).unwrap()),
        Some(|bytes: &[u8]| keep(le_vec::<u32>(tail(bytes, N * 4)))),
    )
}

#[bench(raw)]
fn vec_nat64() -> BenchResult {
    let data: Vec<u64> = (0..N as u64).collect();
    let config = config();
    measure(
        || Encode!(&data).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<u64>).unwrap()),
        Some(|bytes: &[u8]| keep(le_vec::<u64>(tail(bytes, N * 8)))),
    )
}

#[bench(raw)]
fn vec_nat() -> BenchResult {
    const COUNT: usize = 262_144;
    let data: Vec<Nat> = (0..COUNT as u64).map(Nat::from).collect();
    let config = config();
    measure(
        || Encode!(&data).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<Nat>).unwrap()),
        Some(|bytes: &[u8]| {
            // The values fit in u64: read the LEB128 body and build the same Vec<Nat>.
            let mut rest = wire::skip_header(bytes);
            let len = wire::read_leb(&mut rest) as usize;
            let mut out = Vec::with_capacity(len);
            for _ in 0..len {
                out.push(Nat::from(wire::read_leb(&mut rest)));
            }
            keep(out)
        }),
    )
}

#[bench(raw)]
fn btreemap() -> BenchResult {
    const COUNT: u32 = 1_048_576;
    let map: BTreeMap<String, Nat> = (0..COUNT).map(|i| (i.to_string(), Nat::from(i))).collect();
    let config = config();
    // Floor input: keys already split out of the message, values already read.
    let split: Vec<(&str, u64)> = map
        .keys()
        .map(|k| (k.as_str(), k.parse().unwrap()))
        .collect();
    let split = &split;
    measure(
        || Encode!(&map).unwrap(),
        |bytes| keep(Decode!([config]; bytes, BTreeMap<String, Nat>).unwrap()),
        Some(move |_: &[u8]| {
            let out: BTreeMap<String, Nat> = split
                .iter()
                .map(|(k, v)| (k.to_string(), Nat::from(*v)))
                .collect();
            keep(out)
        }),
    )
}

#[bench(raw)]
fn option_list() -> BenchResult {
    let list: Option<Box<ConsCell>> = (0..2048).fold(None, |tail, x| {
        Some(Box::new(ConsCell {
            head: Int::from(x),
            tail,
        }))
    });
    let config = config();
    measure(
        || Encode!(&list).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Option<Box<ConsCell>>).unwrap()),
        None::<fn(&[u8])>,
    )
}

#[bench(raw)]
fn variant_list() -> BenchResult {
    let list = (0..2048).fold(Chain::Nil, |tail, x| {
        Chain::Cons(Int::from(x), Box::new(tail))
    });
    let config = config();
    measure(
        || Encode!(&list).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Chain).unwrap()),
        None::<fn(&[u8])>,
    )
}

#[bench(raw)]
fn nns_list_proposal() -> BenchResult {
    let response = ProposalPage {
        proposal_info: (0..1000).map(|_| ProposalSummary::mostly_empty()).collect(),
    };
    let config = config();
    measure(
        || Encode!(&response).unwrap(),
        |bytes| keep(Decode!([config]; bytes, ProposalPage).unwrap()),
        None::<fn(&[u8])>,
    )
}

#[bench(raw)]
fn nns_list_neurons() -> BenchResult {
    let response = NeuronPage::populated(100);
    let config = config();
    measure(
        || Encode!(&response).unwrap(),
        |bytes| keep(Decode!([config]; bytes, NeuronPage).unwrap()),
        None::<fn(&[u8])>,
    )
}

/// Two hostile messages that a decoder must reject cheaply. Only the skipping quota applies,
/// as in candid's suite: the point is how fast the quota stops the work.
#[bench(raw)]
fn extra_args() -> BenchResult {
    let mut config = DecoderConfig::new();
    config.set_skipping_quota(SKIP);
    let vec_null = wire::huge_vec_null();
    let chain = wire::deep_opt_record_chain();
    bench_fn(|| {
        let _p = bench_scope("2. Decoding");
        assert!(Decode!([config]; &vec_null).is_err());
        assert!(Decode!([config]; &chain).is_err());
    })
}

/// Schema evolution: 16-field records decoded as their 4-field ancestor, skipping 12 fields
/// each. Only the decoding quota applies (skipping 12,000 fields exceeds any small skip quota).
#[bench(raw)]
fn subtype_decode() -> BenchResult {
    let records: Vec<LedgerEntryV2> = (0..1000).map(LedgerEntryV2::sample).collect();
    let mut config = DecoderConfig::new();
    config.set_decoding_quota(COST);
    measure(
        || Encode!(&records).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<LedgerEntryV1>).unwrap()),
        None::<fn(&[u8])>,
    )
}

#[bench(raw)]
fn result_variant() -> BenchResult {
    let results: Vec<WalletResult> = (0..1000).map(WalletResult::sample).collect();
    let config = config();
    measure(
        || Encode!(&results).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<WalletResult>).unwrap()),
        None::<fn(&[u8])>,
    )
}

#[bench(raw)]
fn wide_record() -> BenchResult {
    let stats: Vec<StakingStats> = (0..100).map(|_| StakingStats::sample()).collect();
    let config = config();
    measure(
        || Encode!(&stats).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<StakingStats>).unwrap()),
        None::<fn(&[u8])>,
    )
}

#[bench(raw)]
fn large_variant() -> BenchResult {
    let ops: Vec<TokenOp> = (0..2100).map(TokenOp::sample).collect();
    let config = config();
    measure(
        || Encode!(&ops).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<TokenOp>).unwrap()),
        None::<fn(&[u8])>,
    )
}

#[bench(raw)]
fn double_option() -> BenchResult {
    let patches: Vec<SettingsPatch> = (0..1000).map(SettingsPatch::sample).collect();
    let config = config();
    measure(
        || Encode!(&patches).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Vec<SettingsPatch>).unwrap()),
        None::<fn(&[u8])>,
    )
}

#[bench(raw)]
fn multi_arg() -> BenchResult {
    let principals: Vec<Principal> = (0..1000u64)
        .map(|i| Principal::from_slice(&i.to_be_bytes()))
        .collect();
    let amounts: Vec<u64> = (0..1000).map(|i| i * 1_000_000).collect();
    let memos: Vec<String> = (0..1000).map(|i| format!("memo-{i}")).collect();
    let config = config();
    measure(
        || Encode!(&principals, &amounts, &memos).unwrap(),
        |bytes| {
            keep(Decode!([config]; bytes, Vec<Principal>, Vec<u64>, Vec<String>).unwrap());
        },
        None::<fn(&[u8])>,
    )
}

/// One natural number whose LEB128 body is 1 MiB long.
#[bench(raw)]
fn nat_bignum() -> BenchResult {
    let message = wire::bignum_message(false);
    let config = config();
    let value = Decode!([config]; &message, Nat).unwrap();
    measure(
        || Encode!(&value).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Nat).unwrap()),
        None::<fn(&[u8])>,
    )
}

/// One (negative) integer whose SLEB128 body is 1 MiB long.
#[bench(raw)]
fn int_bignum() -> BenchResult {
    let message = wire::bignum_message(true);
    let config = config();
    let value = Decode!([config]; &message, Int).unwrap();
    measure(
        || Encode!(&value).unwrap(),
        |bytes| keep(Decode!([config]; bytes, Int).unwrap()),
        None::<fn(&[u8])>,
    )
}

/// Checks a `.did` source: its type environment and its main service (or class).
fn check_did(source: &str) -> (TypeEnv, Type) {
    let prog: parser::IDLProg = source.parse().unwrap();
    let mut env = TypeEnv::new();
    let actor = parser::check_prog(&mut env, &prog).unwrap().unwrap();
    (env, actor)
}

/// The argument types of `method` in the service `actor` (which may be a class).
fn method_args(env: &TypeEnv, actor: &Type, method: &str) -> Vec<Type> {
    let service = match actor.as_ref() {
        TypeInner::Class(_, service) => env.trace_type(service),
        _ => env.trace_type(actor),
    }
    .unwrap();
    let TypeInner::Service(methods) = service.as_ref() else {
        panic!("the main actor is not a service");
    };
    let (_, func) = methods.iter().find(|(name, _)| name == method).unwrap();
    match env.trace_type(func).unwrap().as_ref() {
        TypeInner::Func(func) => func.args.clone(),
        _ => panic!("{method} is not a method"),
    }
}

/// A governance interface (several hundred lines) and a 45 KB `manage_neuron` call in text form:
/// both are parsed and checked, the text is encoded at the method's argument types and the
/// bytes are decoded into the Rust types that mirror the interface.
#[bench(raw)]
fn nns() -> BenchResult {
    let did = include_str!("governance.did");
    let text = include_str!("nns_arg.txt");
    let config = config();
    bench_fn(|| {
        let (env, types, args) = {
            let _p = bench_scope("0. Parsing");
            let (env, actor) = check_did(did);
            let types = method_args(&env, &actor, "manage_neuron");
            let args = parser::parse_idl_args(text).unwrap();
            (env, types, args)
        };
        let bytes = {
            let _p = bench_scope("1. Encoding");
            args.to_bytes_with_types(&env, &types).unwrap()
        };
        {
            let _p = bench_scope("2. Decoding");
            keep(Decode!([config]; &bytes, gov::ManageNeuronRequest).unwrap());
        }
    })
}

/// A ledger-like service type, registered 1,000 times: `vec Ledger` with service references.
const REGISTRY_DID: &str = r#"
type Account = record { owner : principal; subaccount : opt blob };
type TransferArg = record {
  to : Account;
  amount : nat;
  fee : opt nat;
  memo : opt blob;
  from_subaccount : opt blob;
  created_at_time : opt nat64;
};
type TransferError = variant {
  BadFee : record { expected_fee : nat };
  InsufficientFunds : record { balance : nat };
  TooOld;
  CreatedInFuture : record { ledger_time : nat64 };
  Duplicate : record { duplicate_of : nat };
  TemporarilyUnavailable;
  GenericError : record { error_code : nat; message : text };
};
type Ledger = service {
  icrc1_balance_of : (Account) -> (nat) query;
  icrc1_fee : () -> (nat) query;
  icrc1_symbol : () -> (text) query;
  icrc1_transfer : (TransferArg) -> (variant { Ok : nat; Err : TransferError });
};
service : {
  register_ledgers : (vec Ledger) -> ();
}
"#;

/// 1,000 service references typed `vec service {...}`, encoded from and decoded to `IDLArgs`
/// at the interface's types.
#[bench(raw)]
fn vec_service() -> BenchResult {
    let (env, actor) = check_did(REGISTRY_DID);
    let types = method_args(&env, &actor, "register_ledgers");
    let ledgers: Vec<IDLValue> = (0..1000u64)
        .map(|i| {
            // Canister ids: an 8-byte index followed by 0x01 0x01.
            let mut id = (0x0000_0000_0200_0000 + i).to_be_bytes().to_vec();
            id.extend_from_slice(&[1, 1]);
            IDLValue::Service(Principal::from_slice(&id))
        })
        .collect();
    let args = IDLArgs::new(&[IDLValue::Vec(ledgers)]);
    // Only the decoding quota applies, as in candid's suite: candid 0.10.39 charges the
    // skipping quota for the service subtype check of every element, so 1,000 references
    // exceed a 10,000 skipping quota there.
    let mut config = DecoderConfig::new();
    config.set_decoding_quota(COST);
    measure(
        || args.to_bytes_with_types(&env, &types).unwrap(),
        |bytes| {
            keep(IDLArgs::from_bytes_with_types_with_config(bytes, &env, &types, &config).unwrap())
        },
        None::<fn(&[u8])>,
    )
}

// ---- real traffic: 1,000 small messages with the same header -----------------------------

/// Encodes and decodes `values` one message each, as a canister receives and answers
/// them; the floor reads each message's value bytes straight into the same Rust
/// value (checked against the first value before measuring).
fn calls<T>(values: Vec<T>, floor: fn(&mut traffic::Bytes) -> T) -> BenchResult
where
    T: lib::CandidType + for<'de> lib::Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let config = config();
    let first = Encode!(&values[0]).unwrap();
    let header = wire::header_len(&first);
    assert_eq!(floor(&mut traffic::Bytes(&first[header..])), values[0]);
    let schema = serde_floor::Schema::of::<T>();
    assert_eq!(
        serde_floor::decode::<T>(&schema, &first[header..]),
        values[0]
    );
    // The heap's size in pages before and after, outside what is measured: canbench's
    // `heap_increase` is their difference, and where the heap starts decides it as much
    // as what the benchmark allocates (`--show-canister-output` prints them).
    let pages_before = heap_pages();
    let result = bench_fn(|| {
        let messages: Vec<Vec<u8>> = {
            let _p = bench_scope("1. Encoding");
            values.iter().map(|v| Encode!(v).unwrap()).collect()
        };
        {
            let _p = bench_scope("2. Decoding");
            for m in &messages {
                keep(Decode!([config]; m, T).unwrap());
            }
        }
        {
            let _p = bench_scope("3. Floor");
            for m in &messages {
                keep(floor(&mut traffic::Bytes(&m[header..])));
            }
        }
        {
            let _p = bench_scope("4. Serde floor");
            for m in &messages {
                keep(serde_floor::decode::<T>(&schema, &m[header..]));
            }
        }
    });
    ic_cdk::api::debug_print(format!(
        "heap pages: {pages_before} before, {} after",
        heap_pages()
    ));
    result
}

/// The size of the canister's heap, in WebAssembly pages.
fn heap_pages() -> usize {
    #[cfg(target_arch = "wasm32")]
    return core::arch::wasm32::memory_size(0);
    #[cfg(not(target_arch = "wasm32"))]
    return 0;
}

fn each<T>(f: impl Fn(u64) -> T) -> Vec<T> {
    (0..traffic::CALLS as u64).map(f).collect()
}

/// ICRC-1 `icrc1_transfer` arguments with only `to` and `amount`.
#[bench(raw)]
fn icrc1_transfer() -> BenchResult {
    calls(each(|i| traffic::transfer(i, false)), |b| b.transfer())
}

/// ICRC-1 `icrc1_transfer` arguments with fee, memo and creation time.
#[bench(raw)]
fn icrc1_transfer_memo() -> BenchResult {
    calls(each(|i| traffic::transfer(i, true)), |b| b.transfer())
}

/// A single `text` argument, the commonest argument list of a small canister (a
/// key-value store's or a counter's `get`): a header with no type table, which the
/// decoder reads afresh for each message.
#[bench(raw)]
fn text_key() -> BenchResult {
    calls(each(traffic::key), |b| b.key())
}

/// The `icrc1_transfer` reply, `variant { Ok : nat; Err : TransferError }`.
#[bench(raw)]
fn icrc1_transfer_reply() -> BenchResult {
    calls(each(traffic::transfer_reply), |b| b.transfer_reply())
}

/// ICRC-1 `icrc1_balance_of(Account)`.
#[bench(raw)]
fn icrc1_balance_of() -> BenchResult {
    calls(each(traffic::account), |b| b.account())
}

/// ICRC-2 `icrc2_approve` arguments.
#[bench(raw)]
fn icrc2_approve() -> BenchResult {
    calls(each(traffic::approve), |b| b.approve())
}

/// An HTTP gateway `http_request` with ten headers and a small body.
#[bench(raw)]
fn http_request() -> BenchResult {
    calls(each(traffic::http_request), |b| b.http_request())
}

/// The `http_request` reply.
#[bench(raw)]
fn http_response() -> BenchResult {
    calls(each(traffic::http_response), |b| b.http_response())
}

/// The management canister's `canister_status` reply.
#[bench(raw)]
fn canister_status() -> BenchResult {
    calls(each(traffic::canister_status), |b| b.canister_status())
}

/// A ledger `get_blocks` reply of 100 ICRC-3 blocks and an archived range.
#[bench(raw)]
fn get_blocks() -> BenchResult {
    calls(each(traffic::get_blocks), |b| b.get_blocks())
}

/// The first, second and third ICRC-1 transfer a fresh canister decodes, each in a
/// scope of its own: what the first pays once per thread (interning the expected
/// types, parsing the header, which the header cache keeps) and what the next two
/// pay (the kept header: the steady state).
#[bench(raw)]
fn icrc1_transfer_repeat() -> BenchResult {
    let config = config();
    let messages: Vec<Vec<u8>> = (0..3)
        .map(|i| Encode!(&traffic::transfer(i, true)).unwrap())
        .collect();
    bench_fn(|| {
        for (m, scope) in
            messages
                .iter()
                .zip(["4. First message", "5. Second message", "6. Third message"])
        {
            let _p = bench_scope(scope);
            keep(Decode!([config]; m, traffic::TransferArg).unwrap());
        }
    })
}
