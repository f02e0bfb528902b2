//! Decoding of the canbench-rs `BenchResult` reply: the one place the runner depends on a Candid
//! implementation, and it is candor (the canister side encodes with candid 0.10.39, which
//! canbench-rs links; decoding it here is one more cross-implementation check).

use candor as cdc;

use crate::results_file::{BenchResult, Measurement};
use cdc::{CandidType, Deserialize};
use std::collections::BTreeMap;

/// Mirror of `canbench_rs::Measurement` (canbench-rs 0.7). Candid matches record fields by name,
/// so a mirror decodes the canister's reply exactly.
#[derive(CandidType, Deserialize)]
struct WireMeasurement {
    calls: u64,
    instructions: u64,
    heap_increase: u64,
    stable_memory_increase: u64,
}

/// Mirror of `canbench_rs::BenchResult`.
#[derive(CandidType, Deserialize)]
struct WireBenchResult {
    total: WireMeasurement,
    scopes: BTreeMap<String, WireMeasurement>,
}

impl From<WireMeasurement> for Measurement {
    fn from(m: WireMeasurement) -> Self {
        Measurement {
            calls: m.calls,
            instructions: m.instructions,
            heap_increase: m.heap_increase,
            stable_memory_increase: m.stable_memory_increase,
        }
    }
}

/// Decodes a benchmark query's reply.
pub fn decode_bench_result(reply: &[u8]) -> Result<BenchResult, String> {
    let r: WireBenchResult =
        cdc::decode_one(reply).map_err(|e| format!("cannot decode the BenchResult reply: {e}"))?;
    Ok(BenchResult {
        total: r.total.into(),
        scopes: r.scopes.into_iter().map(|(k, v)| (k, v.into())).collect(),
    })
}

/// Encodes a result the way canbench-rs does (used by tests to build fake canister replies).
#[cfg(test)]
pub fn encode_bench_result(r: &BenchResult) -> Vec<u8> {
    let wire = |m: &Measurement| WireMeasurement {
        calls: m.calls,
        instructions: m.instructions,
        heap_increase: m.heap_increase,
        stable_memory_increase: m.stable_memory_increase,
    };
    let w = WireBenchResult {
        total: wire(&r.total),
        scopes: r.scopes.iter().map(|(k, v)| (k.clone(), wire(v))).collect(),
    };
    cdc::encode_one(&w).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_bench_result() {
        let mut r = BenchResult::default();
        r.total.instructions = 12_345;
        r.total.calls = 1;
        r.scopes.insert(
            "1. Encoding".into(),
            Measurement {
                calls: 1,
                instructions: 99,
                heap_increase: 2,
                stable_memory_increase: 0,
            },
        );
        assert_eq!(decode_bench_result(&encode_bench_result(&r)).unwrap(), r);
    }
}
