//! Endpoints that take and return the management canister's, the ICP ledger's and the
//! bitcoin canister's public types, as a canister that manages others would: argument
//! records for inter-canister calls built and returned as bytes, status replies
//! decoded and summarised.

use candid::{CandidType, Deserialize, Nat, Principal};
use ic_btc_interface::{GetBalanceRequest, GetUtxosRequest, NetworkInRequest};
use ic_ledger_types::{AccountIdentifier, Memo, Subaccount, Tokens, TransferArgs};
use ic_management_canister_types::{
    CanisterSettings, CanisterStatusResult, CanisterStatusType, CreateCanisterArgs,
    DefiniteCanisterSettings, HttpHeader, HttpMethod, HttpRequestArgs, LogVisibility,
    MemoryMetrics, QueryStats,
};
use std::cell::Cell;
use std::time::Duration;

thread_local! {
    static TICKS: Cell<u64> = const { Cell::new(0) };
}

/// What `init` receives.
#[derive(CandidType, Deserialize)]
pub struct Config {
    pub controllers: Vec<Principal>,
    pub cycles_per_canister: Nat,
}

#[ic_cdk::init]
fn init(config: Config) {
    TICKS.with(|t| t.set(config.controllers.len() as u64));
}

/// Arguments for `create_canister`, as the caller would send them.
#[ic_cdk::query]
fn create_canister_args(controllers: Vec<Principal>, compute: Option<u8>) -> CreateCanisterArgs {
    CreateCanisterArgs {
        settings: Some(CanisterSettings {
            controllers: Some(controllers),
            compute_allocation: compute.map(Nat::from),
            freezing_threshold: Some(Nat::from(2_592_000u64)),
            log_visibility: Some(LogVisibility::Public),
            ..Default::default()
        }),
        sender_canister_version: Some(7),
    }
}

/// A `canister_status` reply built from its inputs (the offline host has no
/// management canister to ask).
#[ic_cdk::query]
fn status(controllers: Vec<Principal>, cycles: Nat, module_hash: Option<Vec<u8>>) -> CanisterStatusResult {
    let memory = Nat::from(3u64 << 20);
    CanisterStatusResult {
        status: if cycles > 0u8 { CanisterStatusType::Running } else { CanisterStatusType::Stopped },
        ready_for_migration: false,
        version: 3,
        settings: DefiniteCanisterSettings {
            controllers,
            compute_allocation: Nat::from(0u8),
            memory_allocation: Nat::from(0u8),
            freezing_threshold: Nat::from(2_592_000u64),
            reserved_cycles_limit: Nat::from(5_000_000_000_000u64),
            log_visibility: LogVisibility::Controllers,
            wasm_memory_limit: Nat::from(3u64 << 30),
            wasm_memory_threshold: Nat::from(0u8),
            environment_variables: vec![],
        },
        module_hash,
        memory_size: memory.clone(),
        memory_metrics: MemoryMetrics {
            wasm_memory_size: memory.clone(),
            stable_memory_size: Nat::from(0u8),
            global_memory_size: Nat::from(128u8),
            wasm_binary_size: Nat::from(400_000u64),
            custom_sections_size: Nat::from(2_000u64),
            canister_history_size: Nat::from(300u64),
            wasm_chunk_store_size: Nat::from(0u8),
            snapshots_size: Nat::from(0u8),
        },
        cycles: cycles.clone(),
        reserved_cycles: Nat::from(0u8),
        idle_cycles_burned_per_day: cycles / 1000u32,
        query_stats: QueryStats {
            num_calls_total: Nat::from(10u8),
            num_instructions_total: Nat::from(1_000_000u64),
            request_payload_bytes_total: Nat::from(640u64),
            response_payload_bytes_total: Nat::from(9_000u64),
        },
    }
}

/// Reads a status reply (as a caller of `canister_status` does) and summarises it.
#[ic_cdk::query]
fn summarise(status: CanisterStatusResult) -> (String, Nat, u64) {
    let state = match status.status {
        CanisterStatusType::Running => "running",
        CanisterStatusType::Stopping => "stopping",
        CanisterStatusType::Stopped => "stopped",
    };
    (state.to_string(), status.cycles + status.reserved_cycles, status.settings.controllers.len() as u64)
}

/// An HTTPS outcall request.
#[ic_cdk::query]
fn outcall_args(url: String, headers: Vec<(String, String)>) -> HttpRequestArgs {
    HttpRequestArgs {
        url,
        max_response_bytes: Some(2_000_000),
        method: HttpMethod::GET,
        headers: headers.into_iter().map(|(name, value)| HttpHeader { name, value }).collect(),
        body: None,
        transform: None,
        is_replicated: Some(false),
    }
}

/// An ICP ledger transfer and the account identifier it goes to.
#[ic_cdk::query]
fn icp_transfer(to: Principal, e8s: u64) -> (String, TransferArgs) {
    let to = AccountIdentifier::new(&to, &Subaccount([0; 32]));
    (
        to.to_hex(),
        TransferArgs {
            memo: Memo(42),
            amount: Tokens::from_e8s(e8s),
            fee: Tokens::from_e8s(10_000),
            from_subaccount: None,
            to,
            created_at_time: None,
        },
    )
}

/// Bitcoin canister requests, as bytes for the call.
#[ic_cdk::query]
fn btc_requests(address: String) -> (Vec<u8>, Vec<u8>) {
    let balance = GetBalanceRequest {
        address: address.clone(),
        network: NetworkInRequest::Testnet,
        min_confirmations: Some(6),
    };
    let utxos = GetUtxosRequest { address, network: NetworkInRequest::Mainnet, filter: None };
    (
        candid::encode_one(balance).unwrap_or_default(),
        candid::encode_one(utxos).unwrap_or_default(),
    )
}

/// Starts a periodic timer (only built here: the offline host does not fire timers).
#[ic_cdk::update]
fn start_ticking(seconds: u64) {
    ic_cdk_timers::set_timer_interval(Duration::from_secs(seconds), || async {
        TICKS.with(|t| t.set(t.get() + 1));
    });
}

#[ic_cdk::query]
fn ticks() -> u64 {
    TICKS.with(|t| t.get())
}

ic_cdk::export_candid!();
