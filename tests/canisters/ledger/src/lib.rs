//! A small ICRC-1/ICRC-2 ledger: what a canister built on ic-cdk 0.20 and the public
//! ICRC types looks like. Balances live in a map keyed by account; every endpoint
//! takes or returns the ledger standard's types, so every call decodes and encodes
//! them with whichever `candid` the build links.

use candid::{CandidType, Deserialize, Nat, Principal};
use icrc_ledger_types::icrc::generic_metadata_value::MetadataValue;
use icrc_ledger_types::icrc1::account::Account;
use icrc_ledger_types::icrc1::transfer::{Memo, TransferArg, TransferError};
use icrc_ledger_types::icrc2::allowance::{Allowance, AllowanceArgs};
use icrc_ledger_types::icrc2::approve::{ApproveArgs, ApproveError};
use serde_bytes::ByteBuf;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Init arguments, as a ledger's deployer passes them.
#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct InitArgs {
    pub minting_account: Account,
    pub initial_balances: Vec<(Account, Nat)>,
    pub transfer_fee: Nat,
    pub token_name: String,
    pub token_symbol: String,
    /// Seconds since the epoch to stamp blocks with (the offline host has no clock).
    pub genesis_time: Option<u64>,
}

#[derive(Default)]
struct Ledger {
    balances: BTreeMap<(Principal, [u8; 32]), Nat>,
    allowances: BTreeMap<((Principal, [u8; 32]), (Principal, [u8; 32])), Nat>,
    fee: Nat,
    minting: Option<Account>,
    name: String,
    symbol: String,
    blocks: u64,
    memos: Vec<Option<Memo>>,
}

thread_local! {
    static LEDGER: RefCell<Ledger> = RefCell::new(Ledger::default());
}

fn key(a: &Account) -> (Principal, [u8; 32]) {
    (a.owner, *a.effective_subaccount())
}

#[ic_cdk::init]
fn init(args: InitArgs) {
    LEDGER.with(|l| {
        let mut l = l.borrow_mut();
        l.fee = args.transfer_fee;
        l.minting = Some(args.minting_account);
        l.name = args.token_name;
        l.symbol = args.token_symbol;
        for (account, amount) in args.initial_balances {
            *l.balances.entry(key(&account)).or_insert_with(|| Nat::from(0u8)) += amount;
        }
    });
}

#[ic_cdk::query]
fn icrc1_balance_of(account: Account) -> Nat {
    LEDGER.with(|l| l.borrow().balances.get(&key(&account)).cloned().unwrap_or_default())
}

#[ic_cdk::query]
fn icrc1_fee() -> Nat {
    LEDGER.with(|l| l.borrow().fee.clone())
}

#[ic_cdk::query]
fn icrc1_metadata() -> Vec<(String, MetadataValue)> {
    LEDGER.with(|l| {
        let l = l.borrow();
        vec![
            ("icrc1:name".to_string(), MetadataValue::Text(l.name.clone())),
            ("icrc1:symbol".to_string(), MetadataValue::Text(l.symbol.clone())),
            ("icrc1:fee".to_string(), MetadataValue::Nat(l.fee.clone())),
            ("icrc1:decimals".to_string(), MetadataValue::Nat(Nat::from(8u8))),
            ("icrc1:logo".to_string(), MetadataValue::Blob(ByteBuf::from(vec![0x89, b'P', b'N', b'G']))),
        ]
    })
}

fn debit(l: &mut Ledger, from: &Account, amount: &Nat) -> Result<(), Nat> {
    let balance = l.balances.get(&key(from)).cloned().unwrap_or_default();
    if balance < *amount {
        return Err(balance);
    }
    l.balances.insert(key(from), balance - amount.clone());
    Ok(())
}

#[ic_cdk::update]
fn icrc1_transfer(arg: TransferArg) -> Result<Nat, TransferError> {
    let from = Account { owner: ic_cdk::api::msg_caller(), subaccount: arg.from_subaccount };
    LEDGER.with(|l| {
        let mut l = l.borrow_mut();
        let fee = l.fee.clone();
        if let Some(f) = &arg.fee {
            if *f != fee {
                return Err(TransferError::BadFee { expected_fee: fee });
            }
        }
        if arg.amount == 0u8 && arg.memo.is_none() {
            return Err(TransferError::GenericError {
                error_code: Nat::from(1u8),
                message: "zero transfer without memo".to_string(),
            });
        }
        if let Some(t) = arg.created_at_time {
            if t > 4_000_000_000_000_000_000 {
                return Err(TransferError::CreatedInFuture { ledger_time: 0 });
            }
        }
        let total = arg.amount.clone() + fee;
        debit(&mut l, &from, &total).map_err(|balance| TransferError::InsufficientFunds { balance })?;
        *l.balances.entry(key(&arg.to)).or_insert_with(|| Nat::from(0u8)) += arg.amount;
        l.memos.push(arg.memo);
        l.blocks += 1;
        Ok(Nat::from(l.blocks - 1))
    })
}

#[ic_cdk::update]
fn icrc2_approve(arg: ApproveArgs) -> Result<Nat, ApproveError> {
    let from = Account { owner: ic_cdk::api::msg_caller(), subaccount: arg.from_subaccount };
    LEDGER.with(|l| {
        let mut l = l.borrow_mut();
        let fee = l.fee.clone();
        let k = (key(&from), key(&arg.spender));
        let current = l.allowances.get(&k).cloned().unwrap_or_default();
        if let Some(expected) = &arg.expected_allowance {
            if *expected != current {
                return Err(ApproveError::AllowanceChanged { current_allowance: current });
            }
        }
        debit(&mut l, &from, &fee).map_err(|balance| ApproveError::InsufficientFunds { balance })?;
        l.allowances.insert(k, arg.amount);
        l.blocks += 1;
        Ok(Nat::from(l.blocks - 1))
    })
}

#[ic_cdk::query]
fn icrc2_allowance(arg: AllowanceArgs) -> Allowance {
    LEDGER.with(|l| Allowance {
        allowance: l.borrow().allowances.get(&(key(&arg.account), key(&arg.spender))).cloned().unwrap_or_default(),
        expires_at: None,
    })
}

/// The argument bytes this ledger would send to another ledger for a transfer (the
/// encoding of an inter-canister call), returned so they can be compared.
#[ic_cdk::query]
fn encode_transfer_call(to: Account, amount: Nat, memo: Option<Vec<u8>>) -> Vec<u8> {
    let arg = TransferArg {
        from_subaccount: None,
        to,
        fee: None,
        created_at_time: Some(1_700_000_000_000_000_000),
        memo: memo.map(Memo::from),
        amount: amount * 2u64 / 2u64,
    };
    candid::encode_args((arg,)).unwrap_or_default()
}

/// An HTTP gateway request, as the boundary nodes send it to `http_request`.
#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    #[serde(with = "serde_bytes")]
    pub body: Vec<u8>,
    pub certificate_version: Option<u16>,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct HttpResponse {
    pub status_code: u16,
    pub headers: Vec<(String, String)>,
    #[serde(with = "serde_bytes")]
    pub body: Vec<u8>,
    pub upgrade: Option<bool>,
}

#[ic_cdk::query]
fn http_request(req: HttpRequest) -> HttpResponse {
    let (status_code, body) = match (req.method.as_str(), req.url.as_str()) {
        ("GET", "/metrics") => LEDGER.with(|l| {
            let l = l.borrow();
            (200, format!("blocks {}\naccounts {}\n", l.blocks, l.balances.len()).into_bytes())
        }),
        ("GET", _) => (404, b"not found".to_vec()),
        _ => (405, b"method not allowed".to_vec()),
    };
    HttpResponse {
        status_code,
        headers: vec![
            ("content-type".to_string(), "text/plain".to_string()),
            ("content-length".to_string(), body.len().to_string()),
            ("x-request-headers".to_string(), req.headers.len().to_string()),
        ],
        body,
        upgrade: None,
    }
}

/// Optional settings of an account, every field optional: a `record {}` on the wire
/// decodes as one, so a vector of them may take no bytes per element.
#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct AccountFlags {
    pub frozen: Option<bool>,
    pub note: Option<String>,
}

// Endpoints whose argument elements can take no bytes on the wire (`null`, an
// absent `opt`, an empty record): what `calls/hostile.txt` sends size bombs to.

#[ic_cdk::query]
fn count_memos(memos: Vec<Option<Memo>>) -> u64 {
    memos.iter().filter(|m| m.is_some()).count() as u64
}

#[ic_cdk::query]
fn count_units(units: Vec<()>) -> u64 {
    units.len() as u64
}

#[ic_cdk::query]
fn count_flags(flags: Vec<AccountFlags>) -> u64 {
    flags.iter().filter(|f| f.frozen == Some(true)).count() as u64
}

#[ic_cdk::query]
fn count_triples(triples: Vec<((), (), ())>) -> u64 {
    triples.len() as u64
}

ic_cdk::export_candid!();
