//! A ledger's first replies and first call argument with the ICRC types declared
//! the way their Rust crate declares them: a subaccount is `[u8; 32]` and a memo its
//! own newtype, so `opt blob` comes from two Rust types in one `TransferArg`, and
//! `ApproveError`'s `Expired` and `CreatedInFuture` hold one record. Each header
//! then has two equal nodes from distinct Rust types, which share one type-table
//! entry; `first_replies` and the traffic workloads name every blob `ByteBuf`, and
//! their headers hold no such pair but `ApproveError`'s.
//!
//! Scopes: "1. Encoding" the first message of each type in a fresh instance (its
//! header computed), "4. Second calls" the same messages again (the header kept).

use crate::first_replies::ApproveError;
use crate::lib::{CandidType, Deserialize, Encode, Nat, Principal};
use canbench_rs::{bench, BenchResult};
use serde_bytes::ByteBuf;

type Subaccount = [u8; 32];

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct Account {
    pub owner: Principal,
    pub subaccount: Option<Subaccount>,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct Memo(pub ByteBuf);

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct TransferArg {
    pub from_subaccount: Option<Subaccount>,
    pub to: Account,
    pub fee: Option<Nat>,
    pub created_at_time: Option<u64>,
    pub memo: Option<Memo>,
    pub amount: Nat,
}

/// `icrc2_approve`'s reply, then a transfer's argument as a canister encodes it to
/// call a ledger.
fn encode_messages() {
    crate::keep(Encode!(&Ok::<Nat, ApproveError>(Nat::from(8u8))).unwrap());
    crate::keep(
        Encode!(&TransferArg {
            from_subaccount: None,
            to: Account {
                owner: Principal::anonymous(),
                subaccount: Some([1; 32]),
            },
            fee: None,
            created_at_time: Some(1_700_000_000_000_000_000),
            memo: Some(Memo(ByteBuf::from(b"memo".to_vec()))),
            amount: Nat::from(10_000u32),
        })
        .unwrap(),
    );
}

/// The first messages, then the same again (see the module docs).
#[bench(raw)]
fn icrc_first_calls() -> BenchResult {
    crate::first_replies::first_then_again(encode_messages)
}
