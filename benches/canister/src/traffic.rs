//! What a canister is sent most: small messages whose type table is the same call
//! after call. The types follow the public ICRC-1/ICRC-2 and HTTP gateway
//! interfaces (written here from their `.did`), and every workload sends 1,000
//! messages so the cost per call can be read off the total.
//!
//! Floors read the values as the bytes lay them out: the header is skipped by its
//! length (every message of a workload has the same one), fields are read in wire
//! order (by field id), and the same Rust value is built.

use crate::lib::{CandidType, Deserialize, Int, Nat, Principal};
use serde_bytes::ByteBuf;

/// Messages per workload.
pub const CALLS: usize = 1_000;

/// Blocks in a `get_blocks` reply.
const BLOCKS: u64 = 100;

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct Account {
    pub owner: Principal,
    pub subaccount: Option<ByteBuf>,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct TransferArg {
    pub from_subaccount: Option<ByteBuf>,
    pub to: Account,
    pub amount: Nat,
    pub fee: Option<Nat>,
    pub memo: Option<ByteBuf>,
    pub created_at_time: Option<u64>,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub enum TransferError {
    BadFee { expected_fee: Nat },
    BadBurn { min_burn_amount: Nat },
    InsufficientFunds { balance: Nat },
    TooOld,
    CreatedInFuture { ledger_time: u64 },
    Duplicate { duplicate_of: Nat },
    TemporarilyUnavailable,
    GenericError { error_code: Nat, message: String },
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct ApproveArgs {
    pub from_subaccount: Option<ByteBuf>,
    pub spender: Account,
    pub amount: Nat,
    pub expected_allowance: Option<Nat>,
    pub expires_at: Option<u64>,
    pub fee: Option<Nat>,
    pub memo: Option<ByteBuf>,
    pub created_at_time: Option<u64>,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: ByteBuf,
    pub certificate_version: Option<u16>,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct HttpResponse {
    pub status_code: u16,
    pub headers: Vec<(String, String)>,
    pub body: ByteBuf,
    pub upgrade: Option<bool>,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub enum CanisterStatusType {
    #[serde(rename = "running")]
    Running,
    #[serde(rename = "stopping")]
    Stopping,
    #[serde(rename = "stopped")]
    Stopped,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub enum LogVisibility {
    #[serde(rename = "controllers")]
    Controllers,
    #[serde(rename = "public")]
    Public,
    #[serde(rename = "allowed_viewers")]
    AllowedViewers(Vec<Principal>),
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct EnvironmentVariable {
    pub name: String,
    pub value: String,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct DefiniteCanisterSettings {
    pub controllers: Vec<Principal>,
    pub compute_allocation: Nat,
    pub memory_allocation: Nat,
    pub freezing_threshold: Nat,
    pub reserved_cycles_limit: Nat,
    pub log_visibility: LogVisibility,
    pub wasm_memory_limit: Nat,
    pub wasm_memory_threshold: Nat,
    pub environment_variables: Vec<EnvironmentVariable>,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct MemoryMetrics {
    pub wasm_memory_size: Nat,
    pub stable_memory_size: Nat,
    pub global_memory_size: Nat,
    pub wasm_binary_size: Nat,
    pub custom_sections_size: Nat,
    pub canister_history_size: Nat,
    pub wasm_chunk_store_size: Nat,
    pub snapshots_size: Nat,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct QueryStats {
    pub num_calls_total: Nat,
    pub num_instructions_total: Nat,
    pub request_payload_bytes_total: Nat,
    pub response_payload_bytes_total: Nat,
}

/// The management canister's `canister_status` reply.
#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct CanisterStatusResult {
    pub status: CanisterStatusType,
    pub ready_for_migration: bool,
    pub version: u64,
    pub settings: DefiniteCanisterSettings,
    pub module_hash: Option<ByteBuf>,
    pub memory_size: Nat,
    pub memory_metrics: MemoryMetrics,
    pub cycles: Nat,
    pub reserved_cycles: Nat,
    pub idle_cycles_burned_per_day: Nat,
    pub query_stats: QueryStats,
}

/// ICRC-3's generic value, the shape of a ledger block.
#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub enum Value {
    Blob(ByteBuf),
    Text(String),
    Nat(Nat),
    Nat64(u64),
    Int(Int),
    Array(Vec<Value>),
    Map(Vec<(String, Value)>),
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct GetBlocksRequest {
    pub start: Nat,
    pub length: Nat,
}

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct BlockRange {
    pub blocks: Vec<Value>,
}

crate::lib::define_function!(pub QueryBlockArchiveFn : (GetBlocksRequest) -> (BlockRange) query);

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct ArchivedRange {
    pub start: Nat,
    pub length: Nat,
    pub callback: QueryBlockArchiveFn,
}

/// The ledger's `get_blocks` reply.
#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
pub struct GetBlocksResponse {
    pub first_index: Nat,
    pub chain_length: u64,
    pub certificate: Option<ByteBuf>,
    pub blocks: Vec<Value>,
    pub archived_blocks: Vec<ArchivedRange>,
}

fn principal(i: u64) -> Principal {
    let mut id = i.to_be_bytes().to_vec();
    id.extend_from_slice(&[1, 1]);
    Principal::from_slice(&id)
}

pub fn account(i: u64) -> Account {
    Account {
        owner: principal(i),
        subaccount: (i % 2 == 0).then(|| ByteBuf::from(vec![i as u8; 32])),
    }
}

/// The `i`th transfer: with a memo, fee and time, or the bare minimum.
pub fn transfer(i: u64, full: bool) -> TransferArg {
    TransferArg {
        from_subaccount: None,
        to: account(i),
        amount: Nat::from(1_000_000 + i),
        fee: full.then(|| Nat::from(10_000u64)),
        memo: full.then(|| ByteBuf::from(format!("invoice {i}").into_bytes())),
        created_at_time: full.then_some(1_700_000_000_000_000_000 + i),
    }
}

/// A short text key, as a key-value store's `get : (text) -> (opt nat) query` takes.
pub fn key(i: u64) -> String {
    format!("user-{i}")
}

pub fn transfer_reply(i: u64) -> Result<Nat, TransferError> {
    match i % 4 {
        0 => Err(TransferError::InsufficientFunds {
            balance: Nat::from(i),
        }),
        _ => Ok(Nat::from(1_000 + i)),
    }
}

pub fn approve(i: u64) -> ApproveArgs {
    ApproveArgs {
        from_subaccount: None,
        spender: account(i),
        amount: Nat::from(5_000u64 + i),
        expected_allowance: None,
        expires_at: Some(1_800_000_000_000_000_000),
        fee: None,
        memo: None,
        created_at_time: None,
    }
}

pub fn http_request(i: u64) -> HttpRequest {
    let headers = [
        ("host", "ledger.example"),
        ("accept", "text/plain"),
        ("user-agent", "curl/8.0"),
        ("accept-encoding", "gzip"),
        ("x-request-id", "4f6c1a2b"),
        ("x-forwarded-for", "203.0.113.7"),
        ("cache-control", "no-cache"),
        ("connection", "keep-alive"),
        ("x-b3-traceid", "80f198ee56343ba8"),
        ("x-trace", "1"),
    ];
    HttpRequest {
        method: "GET".into(),
        url: format!("/accounts/{i}?format=json"),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: ByteBuf::from(b"{}".to_vec()),
        certificate_version: Some(2),
    }
}

pub fn http_response(i: u64) -> HttpResponse {
    HttpResponse {
        status_code: 200,
        headers: vec![
            ("content-type".into(), "application/json".into()),
            ("content-length".into(), "31".into()),
            ("cache-control".into(), "max-age=60".into()),
        ],
        body: ByteBuf::from(format!("{{\"account\":{i},\"balance\":42}}").into_bytes()),
        upgrade: None,
    }
}

pub fn canister_status(i: u64) -> CanisterStatusResult {
    let n = |v: u64| Nat::from(v + i);
    CanisterStatusResult {
        status: CanisterStatusType::Running,
        ready_for_migration: false,
        version: 17 + i,
        settings: DefiniteCanisterSettings {
            controllers: vec![principal(i), principal(i + 1)],
            compute_allocation: Nat::from(0u8),
            memory_allocation: Nat::from(0u8),
            freezing_threshold: Nat::from(2_592_000u64),
            reserved_cycles_limit: Nat::from(5_000_000_000_000u64),
            log_visibility: LogVisibility::Controllers,
            wasm_memory_limit: Nat::from(3_221_225_472u64),
            wasm_memory_threshold: Nat::from(0u8),
            environment_variables: vec![],
        },
        module_hash: Some(ByteBuf::from(vec![0xab; 32])),
        memory_size: n(40_000_000),
        memory_metrics: MemoryMetrics {
            wasm_memory_size: n(30_000_000),
            stable_memory_size: n(8_000_000),
            global_memory_size: Nat::from(1_024u64),
            wasm_binary_size: Nat::from(1_200_000u64),
            custom_sections_size: Nat::from(9_000u64),
            canister_history_size: Nat::from(2_000u64),
            wasm_chunk_store_size: Nat::from(0u8),
            snapshots_size: Nat::from(0u8),
        },
        cycles: n(3_000_000_000_000),
        reserved_cycles: Nat::from(0u8),
        idle_cycles_burned_per_day: Nat::from(80_000_000u64),
        query_stats: QueryStats {
            num_calls_total: n(1_000),
            num_instructions_total: n(90_000_000),
            request_payload_bytes_total: n(50_000),
            response_payload_bytes_total: n(70_000),
        },
    }
}

/// An ICRC-1 transfer block as ledgers store it: parent hash, time, the transaction.
fn block(i: u64) -> Value {
    let text = |s: &str| s.to_string();
    let account = |p: u64| {
        Value::Array(vec![Value::Blob(ByteBuf::from(
            principal(p).as_slice().to_vec(),
        ))])
    };
    Value::Map(vec![
        (text("phash"), Value::Blob(ByteBuf::from(vec![i as u8; 32]))),
        (text("ts"), Value::Nat64(1_700_000_000_000_000_000 + i)),
        (
            text("tx"),
            Value::Map(vec![
                (text("op"), Value::Text(text("xfer"))),
                (text("amt"), Value::Nat(Nat::from(1_000_000 + i))),
                (text("from"), account(i)),
                (text("to"), account(i + 1)),
                (
                    text("memo"),
                    Value::Blob(ByteBuf::from(i.to_le_bytes().to_vec())),
                ),
            ]),
        ),
        (text("fee"), Value::Int(Int::from(-10_000i64))),
    ])
}

/// A `get_blocks` reply: 100 blocks and one archived range.
pub fn get_blocks(i: u64) -> GetBlocksResponse {
    GetBlocksResponse {
        first_index: Nat::from(10_000 + i),
        chain_length: 10_100 + i,
        certificate: Some(ByteBuf::from(vec![7; 64])),
        blocks: (0..BLOCKS).map(|b| block(i * BLOCKS + b)).collect(),
        archived_blocks: vec![ArchivedRange {
            start: Nat::from(0u8),
            length: Nat::from(10_000u64),
            callback: QueryBlockArchiveFn::new(principal(42), "get_blocks".into()),
        }],
    }
}

// ---- floors ---------------------------------------------------------------------------

/// A cursor over the value bytes of a message.
pub struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    fn byte(&mut self) -> u8 {
        let b = self.0[0];
        self.0 = &self.0[1..];
        b
    }
    fn leb(&mut self) -> u64 {
        crate::wire::read_leb(&mut self.0)
    }
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }
    fn principal(&mut self) -> Principal {
        self.byte();
        let n = self.leb() as usize;
        Principal::from_slice(self.take(n))
    }
    fn blob(&mut self) -> ByteBuf {
        let n = self.leb() as usize;
        ByteBuf::from(self.take(n).to_vec())
    }
    fn text(&mut self) -> String {
        let n = self.leb() as usize;
        String::from_utf8(self.take(n).to_vec()).unwrap()
    }
    fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> Option<T> {
        (self.byte() == 1).then(|| f(self))
    }
    fn nat(&mut self) -> Nat {
        Nat::from(self.leb())
    }
    fn int(&mut self) -> Int {
        Int::from(crate::wire::read_sleb(&mut self.0))
    }
    fn bool(&mut self) -> bool {
        self.byte() == 1
    }
    fn vec<T>(&mut self, mut f: impl FnMut(&mut Self) -> T) -> Vec<T> {
        let n = self.leb() as usize;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(f(self));
        }
        v
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take(8).try_into().unwrap())
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take(2).try_into().unwrap())
    }
    /// `Account`: owner (id 947296307) before subaccount (1349681965).
    pub fn account(&mut self) -> Account {
        let owner = self.principal();
        let subaccount = self.opt(Self::blob);
        Account { owner, subaccount }
    }
    /// `TransferArg` in field-id order: to, fee, memo, from_subaccount,
    /// created_at_time, amount.
    pub fn transfer(&mut self) -> TransferArg {
        let to = self.account();
        let fee = self.opt(Self::nat);
        let memo = self.opt(Self::blob);
        let from_subaccount = self.opt(Self::blob);
        let created_at_time = self.opt(Self::u64);
        let amount = self.nat();
        TransferArg {
            from_subaccount,
            to,
            amount,
            fee,
            memo,
            created_at_time,
        }
    }
    /// `HttpRequest` in field-id order: url, method, body, headers,
    /// certificate_version.
    pub fn http_request(&mut self) -> HttpRequest {
        let url = self.text();
        let method = self.text();
        let body = self.blob();
        let headers = self.vec(Self::header);
        let certificate_version = self.opt(Self::u16);
        HttpRequest {
            method,
            url,
            headers,
            body,
            certificate_version,
        }
    }

    fn header(&mut self) -> (String, String) {
        let k = self.text();
        let v = self.text();
        (k, v)
    }
    /// `variant { Ok : nat; Err : TransferError }`: Ok is case 0, Err case 1; of
    /// TransferError's cases (sorted by id) the workload sends InsufficientFunds, the
    /// last (7).
    pub fn key(&mut self) -> String {
        self.text()
    }

    pub fn transfer_reply(&mut self) -> Result<Nat, TransferError> {
        match self.leb() {
            0 => Ok(self.nat()),
            _ => match self.leb() {
                7 => Err(TransferError::InsufficientFunds {
                    balance: self.nat(),
                }),
                case => panic!("floor: TransferError case {case} not sent"),
            },
        }
    }
    /// `ApproveArgs` in field-id order: fee, memo, from_subaccount, created_at_time,
    /// amount, expected_allowance, expires_at, spender.
    pub fn approve(&mut self) -> ApproveArgs {
        let fee = self.opt(Self::nat);
        let memo = self.opt(Self::blob);
        let from_subaccount = self.opt(Self::blob);
        let created_at_time = self.opt(Self::u64);
        let amount = self.nat();
        let expected_allowance = self.opt(Self::nat);
        let expires_at = self.opt(Self::u64);
        let spender = self.account();
        ApproveArgs {
            from_subaccount,
            spender,
            amount,
            expected_allowance,
            expires_at,
            fee,
            memo,
            created_at_time,
        }
    }
    /// `HttpResponse` in field-id order: body, headers, upgrade, status_code.
    pub fn http_response(&mut self) -> HttpResponse {
        let body = self.blob();
        let headers = self.vec(Self::header);
        let upgrade = self.opt(Self::bool);
        let status_code = self.u16();
        HttpResponse {
            status_code,
            headers,
            body,
            upgrade,
        }
    }
    /// `CanisterStatusResult` in field-id order: memory_metrics, status, memory_size,
    /// ready_for_migration, version, cycles, settings, query_stats,
    /// idle_cycles_burned_per_day, module_hash, reserved_cycles.
    pub fn canister_status(&mut self) -> CanisterStatusResult {
        let memory_metrics = self.memory_metrics();
        // Cases by id: stopped, stopping, running.
        let status = match self.leb() {
            0 => CanisterStatusType::Stopped,
            1 => CanisterStatusType::Stopping,
            _ => CanisterStatusType::Running,
        };
        let memory_size = self.nat();
        let ready_for_migration = self.bool();
        let version = self.u64();
        let cycles = self.nat();
        let settings = self.settings();
        let query_stats = QueryStats {
            response_payload_bytes_total: self.nat(),
            num_instructions_total: self.nat(),
            num_calls_total: self.nat(),
            request_payload_bytes_total: self.nat(),
        };
        let idle_cycles_burned_per_day = self.nat();
        let module_hash = self.opt(Self::blob);
        let reserved_cycles = self.nat();
        CanisterStatusResult {
            status,
            ready_for_migration,
            version,
            settings,
            module_hash,
            memory_size,
            memory_metrics,
            cycles,
            reserved_cycles,
            idle_cycles_burned_per_day,
            query_stats,
        }
    }
    /// `MemoryMetrics` in field-id order (struct literal fields are evaluated in the
    /// order written, which is the wire order here).
    fn memory_metrics(&mut self) -> MemoryMetrics {
        MemoryMetrics {
            wasm_binary_size: self.nat(),
            wasm_chunk_store_size: self.nat(),
            canister_history_size: self.nat(),
            stable_memory_size: self.nat(),
            snapshots_size: self.nat(),
            wasm_memory_size: self.nat(),
            global_memory_size: self.nat(),
            custom_sections_size: self.nat(),
        }
    }
    /// `DefiniteCanisterSettings` in field-id order.
    fn settings(&mut self) -> DefiniteCanisterSettings {
        let freezing_threshold = self.nat();
        let wasm_memory_threshold = self.nat();
        let environment_variables = self.vec(|b| {
            let value = b.text();
            let name = b.text();
            EnvironmentVariable { name, value }
        });
        let controllers = self.vec(Self::principal);
        let reserved_cycles_limit = self.nat();
        // Cases by id: controllers, public, allowed_viewers.
        let log_visibility = match self.leb() {
            0 => LogVisibility::Controllers,
            1 => LogVisibility::Public,
            _ => LogVisibility::AllowedViewers(self.vec(Self::principal)),
        };
        let wasm_memory_limit = self.nat();
        let memory_allocation = self.nat();
        let compute_allocation = self.nat();
        DefiniteCanisterSettings {
            controllers,
            compute_allocation,
            memory_allocation,
            freezing_threshold,
            reserved_cycles_limit,
            log_visibility,
            wasm_memory_limit,
            wasm_memory_threshold,
            environment_variables,
        }
    }
    /// ICRC-3 `Value`, cases by id: Int, Map, Nat, Nat64, Blob, Text, Array.
    fn value(&mut self) -> Value {
        match self.leb() {
            0 => Value::Int(self.int()),
            1 => Value::Map(self.vec(|b| {
                let k = b.text();
                (k, b.value())
            })),
            2 => Value::Nat(self.nat()),
            3 => Value::Nat64(self.u64()),
            4 => Value::Blob(self.blob()),
            5 => Value::Text(self.text()),
            _ => Value::Array(self.vec(Self::value)),
        }
    }
    /// `GetBlocksResponse` in field-id order: certificate, first_index, blocks,
    /// chain_length, archived_blocks (callback, start, length).
    pub fn get_blocks(&mut self) -> GetBlocksResponse {
        let certificate = self.opt(Self::blob);
        let first_index = self.nat();
        let blocks = self.vec(Self::value);
        let chain_length = self.u64();
        let archived_blocks = self.vec(|b| {
            // A func: the transparent flag, the principal, the method name.
            b.byte();
            let principal = b.principal();
            let method = b.text();
            ArchivedRange {
                callback: QueryBlockArchiveFn::new(principal, method),
                start: b.nat(),
                length: b.nat(),
            }
        });
        GetBlocksResponse {
            first_index,
            chain_length,
            certificate,
            blocks,
            archived_blocks,
        }
    }
}
