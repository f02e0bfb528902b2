//! End-to-end tests on small hand-written canisters: the meter (`metering`) and one installed
//! canister over many messages (`session`).

mod metering;
mod session;

use crate::cost::CostTable;
use crate::exec::Canister;
use crate::instrument::{instrument, Profile};

const LIMIT: u64 = 1_000_000_000;

fn canister(wat: &str) -> Result<Canister, String> {
    canister_with_limit(wat, LIMIT)
}

fn canister_with_limit(wat: &str, limit: u64) -> Result<Canister, String> {
    let wasm = wat::parse_str(wat).expect("test WAT parses");
    instrumented(&wasm, limit, Profile::Off)
}

/// `wasm` instrumented with `profile` and installed.
fn instrumented(wasm: &[u8], limit: u64, profile: Profile) -> Result<Canister, String> {
    let instrumented = instrument(wasm, CostTable::ic(), limit, profile)?;
    Canister::new(
        &instrumented,
        CostTable::ic(),
        Vec::new(),
        Vec::new(),
        false,
        limit,
    )
}
