//! The `ic0` system API, as the IC interface specification defines it, for one canister
//! instance: what each call returns, when it traps, and where it may be called from.
//!
//! Every call is first charged what the replica charges (see `cost`), then checked against
//! the mode the running code was entered in (the spec's `I U RQ NRQ …` lists): a call from
//! the wrong place traps, as on the IC.
//!
//! The offline environment is fixed so runs are reproducible:
//! * the canister id is [`CANISTER_ID`] (lxzze-o7777-77777-aaaaa-cai, PocketIC's first
//!   canister), and `ic0.time` is [`FIXED_TIME_NANOS`] in every message;
//! * the cycle balance is [`CYCLE_BALANCE`]; no cycles come with messages;
//! * the canister has no controllers and no data certificate; its environment variables are
//!   those the configuration's `env_vars` file gives (none without one);
//! * there are no other canisters: `ic0.call_perform` returns [`CALL_PERFORM_FAILED`], so
//!   the canister sees its call fail synchronously and no callback ever runs.
//!
//! `host` holds the state the calls work on (per message, per canister, per instance);
//! `linker` defines the calls, one `api` module per group of the interface; `access` reads
//! and writes the canister's memories for them, every range checked.

mod access;
mod api;
mod host;
mod linker;

use host::CallState;
pub use host::{Host, Message, Persistent, Response, Snapshot};
pub use linker::build_linker;
use wasmi::{Error, Global};

pub const WASM_PAGE: u64 = 65_536;
/// A fixed clock (2023-11-14T22:13:20Z), the same in every message.
pub const FIXED_TIME_NANOS: i64 = 1_700_000_000_000_000_000;
/// The canister's own id: the first canister PocketIC creates (lxzze-o7777-77777-aaaaa-cai).
pub const CANISTER_ID: &[u8] = &[0xff, 0xff, 0xff, 0xff, 0xff, 0xe0, 0x00, 0x00, 0x01, 0x01];
/// [`CANISTER_ID`] as text, as the replica names the canister in its errors.
pub const CANISTER_ID_TEXT: &str = "lxzze-o7777-77777-aaaaa-cai";
/// The anonymous principal (2vxsx-fae), the default caller.
pub const ANONYMOUS: &[u8] = &[0x04];
/// Reject code of `ic0.msg_reject` (the spec's CANISTER_REJECT).
pub const CANISTER_REJECT: u32 = 4;
/// What `ic0.call_perform` returns: SYS_TRANSIENT, the code the replica gives when it cannot
/// enqueue a call. Offline there is nobody to call.
pub const CALL_PERFORM_FAILED: i32 = 2;
/// The canister's cycle balance (a thousand trillion: never the reason a call fails).
pub const CYCLE_BALANCE: u128 = 1_000_000_000_000_000;
/// The largest principal the IC accepts, in bytes.
pub const MAX_PRINCIPAL_LEN: usize = 29;
/// Reply limits: 2 MiB in replicated execution, 3 MiB for non-replicated queries.
const MAX_REPLY_REPLICATED: usize = 2 << 20;
const MAX_REPLY_QUERY: usize = 3 << 20;
/// Largest argument of an inter-canister call (the cross-subnet limit).
const MAX_CALL_PAYLOAD: usize = 2 << 20;
/// What certified data may hold.
const MAX_CERTIFIED_DATA: usize = 32;

/// Where the running code was entered from: it decides which `ic0` calls are available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The module's `(start)` function.
    Start,
    /// `canister_init`.
    Init,
    /// `canister_update <name>`.
    Update,
    /// `canister_query <name>` called as an update (its changes are discarded all the same).
    ReplicatedQuery,
    /// `canister_query <name>` called as a query.
    Query,
}

impl Mode {
    fn bit(self) -> u8 {
        match self {
            Mode::Start => START,
            Mode::Init => INIT,
            Mode::Update => UPDATE,
            Mode::ReplicatedQuery => REPLICATED_QUERY,
            Mode::Query => QUERY,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Mode::Start => "start",
            Mode::Init => "init",
            Mode::Update => "update",
            Mode::ReplicatedQuery => "replicated query",
            Mode::Query => "non-replicated query",
        }
    }

    fn replicated(self) -> bool {
        !matches!(self, Mode::Query)
    }
}

// The spec's availability letters, for the modes the runner enters.
const START: u8 = 1;
const INIT: u8 = 2;
const UPDATE: u8 = 4;
const REPLICATED_QUERY: u8 = 8;
const QUERY: u8 = 16;
/// The spec's `*`: everywhere but `(start)`.
const ANY: u8 = INIT | UPDATE | REPLICATED_QUERY | QUERY;
const METHOD: u8 = UPDATE | REPLICATED_QUERY | QUERY;
/// Callbacks, `canister_inspect_message`: never entered offline.
const NEVER: u8 = 0;

/// Where each implemented call may be used (the comments of the spec's import list).
fn availability(name: &str) -> u8 {
    match name {
        "msg_arg_data_size" | "msg_arg_data_copy" => INIT | METHOD,
        "msg_caller_info_data_size"
        | "msg_caller_info_data_copy"
        | "msg_caller_info_signer_size"
        | "msg_caller_info_signer_copy" => METHOD,
        "msg_reject_code" | "msg_reject_msg_size" | "msg_reject_msg_copy" => NEVER,
        "msg_method_name_size" | "msg_method_name_copy" | "accept_message" => NEVER,
        "msg_deadline" | "msg_reply_data_append" | "msg_reply" | "msg_reject" => METHOD,
        "msg_cycles_available" | "msg_cycles_available128" => UPDATE | REPLICATED_QUERY,
        "msg_cycles_accept" | "msg_cycles_accept128" => UPDATE | REPLICATED_QUERY,
        "msg_cycles_refunded" | "msg_cycles_refunded128" => NEVER,
        "call_new"
        | "call_on_cleanup"
        | "call_data_append"
        | "call_with_best_effort_response"
        | "call_cycles_add"
        | "call_cycles_add128"
        | "call_perform" => UPDATE,
        "certified_data_set" | "global_timer_set" => INIT | UPDATE,
        "data_certificate_size" | "data_certificate_copy" => QUERY,
        "stable_size"
        | "stable_grow"
        | "stable_read"
        | "stable_write"
        | "stable64_size"
        | "stable64_grow"
        | "stable64_read"
        | "stable64_write"
        | "performance_counter"
        | "is_controller"
        | "in_replicated_execution"
        | "cost_call"
        | "debug_print"
        | "trap" => ANY | START,
        _ => ANY,
    }
}

/// Every `ic0` function of the public interface. Those the runner does not implement are linked
/// as stubs that trap when called, since canisters often import calls they never make here.
pub const KNOWN_IC0: &[&str] = &[
    "msg_arg_data_size",
    "msg_arg_data_copy",
    "msg_caller_size",
    "msg_caller_copy",
    "msg_caller_info_data_size",
    "msg_caller_info_data_copy",
    "msg_caller_info_signer_size",
    "msg_caller_info_signer_copy",
    "msg_reject_code",
    "msg_reject_msg_size",
    "msg_reject_msg_copy",
    "msg_deadline",
    "msg_reply_data_append",
    "msg_reply",
    "msg_reject",
    "msg_cycles_available",
    "msg_cycles_available128",
    "msg_cycles_refunded",
    "msg_cycles_refunded128",
    "msg_cycles_accept",
    "msg_cycles_accept128",
    "cycles_burn128",
    "canister_self_size",
    "canister_self_copy",
    "canister_cycle_balance",
    "canister_cycle_balance128",
    "canister_liquid_cycle_balance128",
    "canister_status",
    "canister_version",
    "subnet_self_size",
    "subnet_self_copy",
    "subnet_self_node_count",
    "msg_method_name_size",
    "msg_method_name_copy",
    "accept_message",
    "call_new",
    "call_on_cleanup",
    "call_data_append",
    "call_with_best_effort_response",
    "call_cycles_add",
    "call_cycles_add128",
    "call_perform",
    "stable_size",
    "stable_grow",
    "stable_write",
    "stable_read",
    "stable64_size",
    "stable64_grow",
    "stable64_write",
    "stable64_read",
    "root_key_size",
    "root_key_copy",
    "certified_data_set",
    "data_certificate_present",
    "data_certificate_size",
    "data_certificate_copy",
    "time",
    "global_timer_set",
    "performance_counter",
    "is_controller",
    "in_replicated_execution",
    "cost_call",
    "cost_create_canister",
    "cost_http_request",
    "cost_http_request_v2",
    "cost_sign_with_ecdsa",
    "cost_sign_with_schnorr",
    "cost_vetkd_derive_key",
    "env_var_count",
    "env_var_name_size",
    "env_var_name_copy",
    "env_var_name_exists",
    "env_var_value_size",
    "env_var_value_copy",
    "debug_print",
    "trap",
    "mint_cycles",
    "mint_cycles128",
];

pub fn trap(message: impl Into<String>) -> Error {
    Error::new(message.into())
}

/// The values of the per-function counters.
pub fn read_counters(globals: &[Global], ctx: impl wasmi::AsContext) -> Vec<u64> {
    globals
        .iter()
        .map(|g| g.get(&ctx).i64().unwrap_or(0) as u64)
        .collect()
}
