//! `export_service!` prints the same `.did` as candid's for the same Rust endpoints:
//! ic-cdk's `export_candid!()` is this macro, and the text it produces is what
//! candid-extractor writes and what `dfx` deploys with.
//!
//! The types derive both libraries' `CandidType` (each names its own crate), and the
//! same endpoints are declared twice, once per library's `candid_method`.

#![allow(dead_code)]

use serde::Deserialize;

/// An account, as ledgers define it.
#[derive(candid::CandidType, candor::CandidType, Deserialize, Clone)]
pub struct Account {
    /// The owner.
    pub owner: candid::Principal,
    /// An optional sub-account (32 bytes).
    pub subaccount: Option<Vec<u8>>,
}

/// Why a transfer failed.
#[derive(candid::CandidType, candor::CandidType, Deserialize)]
pub enum TransferError {
    /// The fee was not the expected one.
    BadFee {
        /// What the ledger charges.
        expected_fee: u64,
    },
    InsufficientFunds {
        balance: u64,
    },
    TooOld,
    GenericError(u64, String),
}

#[derive(candid::CandidType, candor::CandidType, Deserialize)]
pub struct TransferArg {
    pub to: Account,
    pub amount: u64,
    #[serde(rename = "memo_bytes")]
    pub memo: Option<serde_bytes::ByteBuf>,
    pub created_at_time: Option<u64>,
}

/// A linked list, to exercise recursion.
#[derive(candid::CandidType, candor::CandidType, Deserialize)]
pub struct List {
    pub head: i32,
    pub tail: Option<Box<List>>,
}

#[derive(candid::CandidType, candor::CandidType, Deserialize)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<u64>,
}

#[derive(candid::CandidType, candor::CandidType, Deserialize)]
pub struct InitArgs {
    pub minting_account: Account,
    pub fee: u64,
}

mod with_candid {
    use super::*;

    #[candid::candid_method(init)]
    fn init(_: InitArgs) {}

    /// Moves tokens.
    #[candid::candid_method(update)]
    fn icrc1_transfer(_: TransferArg) -> Result<u64, TransferError> {
        unimplemented!()
    }

    #[candid::candid_method(query)]
    fn icrc1_balance_of(_: Account) -> u64 {
        unimplemented!()
    }

    #[candid::candid_method(query, rename = "list")]
    fn get_list(_: Option<List>) -> (List, Page<Account>, Page<String>) {
        unimplemented!()
    }

    #[candid::candid_method(composite_query)]
    fn pair(_: (u8, String), _: Vec<(String, candid::Nat)>) -> candid::Int {
        unimplemented!()
    }

    #[candid::candid_method(oneway)]
    fn ping() {}

    candid::export_service!();

    pub fn did() -> String {
        __export_service()
    }
}

mod with_candor {
    use super::*;

    #[candor::candid_method(init)]
    fn init(_: InitArgs) {}

    /// Moves tokens.
    #[candor::candid_method(update)]
    fn icrc1_transfer(_: TransferArg) -> Result<u64, TransferError> {
        unimplemented!()
    }

    #[candor::candid_method(query)]
    fn icrc1_balance_of(_: Account) -> u64 {
        unimplemented!()
    }

    #[candor::candid_method(query, rename = "list")]
    fn get_list(_: Option<List>) -> (List, Page<Account>, Page<String>) {
        unimplemented!()
    }

    #[candor::candid_method(composite_query)]
    fn pair(_: (u8, String), _: Vec<(String, candor::Nat)>) -> candor::Int {
        unimplemented!()
    }

    #[candor::candid_method(oneway)]
    fn ping() {}

    candor::export_service!();

    pub fn did() -> String {
        __export_service()
    }
}

#[test]
fn export_service_prints_candids_text() {
    let theirs = with_candid::did();
    let ours = with_candor::did();
    assert!(theirs.contains("service : (InitArgs) -> {"), "{theirs}");
    assert!(theirs.contains("// Moves tokens."), "{theirs}");
    pretty_assertions::assert_eq!(ours, theirs);
}
