//! ic-agent and ic-utils built on candor (through the compat crate): this crate only
//! names a few of their candid-facing items, so a change that breaks them fails here.

use candid::{Decode, Encode, Principal};
use ic_utils::interfaces::management_canister::builders::CanisterSettings;

/// The argument ic-utils' management canister interface sends for `create_canister`,
/// encoded and decoded back with the macros ic-agent's callers use.
pub fn settings_round_trip(controller: Principal) -> candid::Result<CanisterSettings> {
    let settings = CanisterSettings {
        controllers: Some(vec![controller]),
        ..CanisterSettings::default()
    };
    let bytes = Encode!(&settings)?;
    Decode!(&bytes, CanisterSettings)
}

/// ic-agent's request id: a hash of a value through serde, with no candid in it.
pub fn agent_error_kind(e: &ic_agent::AgentError) -> String {
    e.to_string()
}
