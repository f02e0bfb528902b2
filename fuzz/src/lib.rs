//! The typed targets the fuzzers decode into, shared by the fuzz targets and the
//! corpus seeder (`cargo run --example seed`).

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use candor::{CandidType, Deserialize, Int, Nat, Principal, Reserved};

pub mod differential;

/// What the bench canister's `post_order.rs` imports as `crate::lib`.
mod lib {
    pub use candor::types;
}

/// Headers as agent-js writes them, for the `known` target.
#[path = "../../benches/canister/src/post_order.rs"]
mod post_order;

/// The recursive types and the record most targets decode into, declared once with
/// the differential target's (`differential::zoo!`), built on candor.
pub use differential::ours::{List, Rec, Shape, Tree};

/// A case of [`Part`]'s map: text, a blob, a small and a wide number.
#[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
pub enum Val {
    Text(String),
    Blob(#[serde(with = "serde_bytes")] Vec<u8>),
    Small(u8),
    Wide(u128),
}

/// A record with no recursion, as canister arguments mostly are (a DIP721
/// metadata part's shape): the compiler writes its header, which the `known`
/// target takes as known and parses.
#[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
pub struct Part {
    pub purpose: Option<bool>,
    pub data: BTreeMap<String, Val>,
    pub tags: Vec<(u32, String)>,
    #[arbitrary(with = differential::ours::arb_principal)]
    pub owner: Principal,
}

/// The limits every fuzzed decode runs under (what a canister would set).
pub fn config() -> candor::DecoderConfig {
    let mut config = candor::DecoderConfig::new();
    config
        .set_decoding_quota(20_000_000)
        .set_skipping_quota(10_000);
    config
}

/// Decodes `data` as each typed target; results are discarded, only panics matter.
pub fn decode_all(data: &[u8]) {
    let config = config();
    let _ = candor::decode_one_with_config::<u64>(data, &config);
    let _ = candor::decode_one_with_config::<String>(data, &config);
    let _ = candor::decode_one_with_config::<Vec<u8>>(data, &config);
    let _ = candor::decode_one_with_config::<Vec<u64>>(data, &config);
    let _ = candor::decode_one_with_config::<Option<Box<List>>>(data, &config);
    let _ = candor::decode_one_with_config::<Rec>(data, &config);
    let _ = candor::decode_one_with_config::<BTreeMap<String, Nat>>(data, &config);
    let _ = candor::decode_args_with_config::<(Reserved,)>(data, &config);
    let _ = candor::decode_args_with_config::<(u8, String, Option<Rec>, Vec<Shape>, Tree)>(
        data, &config,
    );
}

/// One decode's outcome under `config`, compared between two paths of the decoder
/// (with and without the header cache, or direct decoding): the value (as `Debug`
/// text) and the quotas left, or the error text.
fn outcome<T: for<'a> Deserialize<'a> + CandidType + std::fmt::Debug>(
    data: &[u8],
    config: &candor::DecoderConfig,
) -> String {
    match candor::decode_args_with_config_debug::<(T,)>(data, config) {
        Ok(((v,), cost)) => format!("{v:?} {:?} {:?}", cost.decoding_quota, cost.skipping_quota),
        Err(e) => format!("error: {e}"),
    }
}

fn same_with_and_without_cache<T: for<'a> Deserialize<'a> + CandidType + std::fmt::Debug>(
    data: &[u8],
) {
    candor::de::set_header_cache(false);
    let plain = outcome::<T>(data, &config());
    candor::de::set_header_cache(true);
    // Parsed and kept, then taken from the cache twice.
    for round in 0..3 {
        let cached = outcome::<T>(data, &config());
        assert_eq!(
            cached, plain,
            "round {round}: the header cache changed the outcome"
        );
    }
}

/// Decodes `data` without the header cache and then three times with it (the first
/// keeps the header, the next two take it), at several types: every outcome must be
/// the same.
pub fn decode_cached_and_plain(data: &[u8]) {
    same_with_and_without_cache::<u64>(data);
    same_with_and_without_cache::<String>(data);
    same_with_and_without_cache::<Option<Box<List>>>(data);
    same_with_and_without_cache::<Rec>(data);
    same_with_and_without_cache::<Vec<Shape>>(data);
    same_with_and_without_cache::<Tree>(data);
}

/// Decodes `data` with direct decoding off and on, at the types that have a direct
/// path and at two quotas (one that a short message can run out of): every outcome
/// must be the same.
pub fn decode_direct_and_serde(data: &[u8]) {
    for quota in [20_000_000, 200] {
        same_direct_and_serde::<Vec<u8>>(data, quota);
        same_direct_and_serde::<Vec<i16>>(data, quota);
        same_direct_and_serde::<Vec<u32>>(data, quota);
        same_direct_and_serde::<Vec<u64>>(data, quota);
        same_direct_and_serde::<Vec<f64>>(data, quota);
        same_direct_and_serde::<Vec<bool>>(data, quota);
        same_direct_and_serde::<Vec<String>>(data, quota);
        same_direct_and_serde::<Vec<Nat>>(data, quota);
        same_direct_and_serde::<Vec<Int>>(data, quota);
        same_direct_and_serde::<Vec<Vec<u32>>>(data, quota);
        same_direct_and_serde::<Vec<Vec<Nat>>>(data, quota);
        same_direct_and_serde::<Vec<Principal>>(data, quota);
        same_direct_and_serde::<Vec<Vec<String>>>(data, quota);
        same_direct_and_serde::<std::collections::BTreeMap<String, Nat>>(data, quota);
        same_direct_and_serde::<std::collections::BTreeMap<u32, String>>(data, quota);
        same_direct_and_serde::<std::collections::BTreeMap<Int, Vec<u8>>>(data, quota);
        same_direct_and_serde::<Vec<std::collections::BTreeMap<String, u64>>>(data, quota);
    }
}

fn same_direct_and_serde<T: for<'a> Deserialize<'a> + CandidType + std::fmt::Debug>(
    data: &[u8],
    quota: usize,
) {
    let mut config = config();
    config.set_decoding_quota(quota);
    candor::de::set_direct_decoding(false);
    let serde = outcome::<T>(data, &config);
    candor::de::set_direct_decoding(true);
    let direct = outcome::<T>(data, &config);
    assert_eq!(direct, serde, "direct decoding changed the outcome");
}

/// One decode's outcome on a fresh thread (fresh caches and interned types), the
/// header cache off, known headers `on` or off.
fn fresh_outcome<T>(data: &[u8], on: bool) -> String
where
    T: for<'a> Deserialize<'a> + CandidType + std::fmt::Debug + 'static,
{
    let data = data.to_vec();
    std::thread::spawn(move || {
        candor::de::set_header_cache(false);
        candor::de::set_known_headers(on);
        outcome::<T>(&data, &config())
    })
    .join()
    .expect("a decode never panics")
}

fn same_known_and_parsed<T>(data: &[u8])
where
    T: for<'a> Deserialize<'a> + CandidType + std::fmt::Debug + 'static,
{
    let header = <(T,) as candor::utils::ArgumentEncoder>::_const_header()
        .expect("the compiler writes this header");
    let mut known = header.to_vec();
    known.extend_from_slice(data);
    // The same entries in agent-js's order (each after the entries it names).
    let mut post = post_order::header(&[T::ty()]).expect("no recursive types here");
    post.extend_from_slice(data);
    for message in [data, &known[..], &post[..]] {
        let on = fresh_outcome::<T>(message, true);
        let off = fresh_outcome::<T>(message, false);
        assert_eq!(on, off, "a known header changed the outcome");
    }
}

/// Decodes `data`, and `data` after the header the compiler writes for each type
/// and after the same header in agent-js's order, with known headers on and off,
/// each on a fresh thread: every outcome must be the same.
pub fn decode_known_and_parsed(data: &[u8]) {
    same_known_and_parsed::<Part>(data);
    same_known_and_parsed::<Val>(data);
    same_known_and_parsed::<Vec<Option<(u8, String)>>>(data);
}
