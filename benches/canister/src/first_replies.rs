//! The first replies of a ledger canister (the ICRC-1/ICRC-2 methods' result types,
//! written here from their `.did`), each encoded for the first time in a fresh
//! instance: a reply's header is computed once per type, on its first call, and
//! that is what this workload measures. Unlike the dapps' replies (`dapps.rs`),
//! some of these types hold equal shapes under distinct names (ICRC-2's `Expired`
//! and `CreatedInFuture` are one record), which share one type-table entry.
//!
//! Scopes: "1. Encoding" the first reply of each type, "4. Second calls" the same
//! replies again (the header kept).

use crate::lib::{CandidType, Deserialize, Encode, Nat};
use crate::traffic::TransferError;
use canbench_rs::{bench, bench_fn, bench_scope, BenchResult};

#[derive(CandidType, Deserialize, Clone, Debug)]
pub enum ApproveError {
    BadFee { expected_fee: Nat },
    InsufficientFunds { balance: Nat },
    AllowanceChanged { current_allowance: Nat },
    Expired { ledger_time: u64 },
    TooOld,
    CreatedInFuture { ledger_time: u64 },
    Duplicate { duplicate_of: Nat },
    TemporarilyUnavailable,
    GenericError { error_code: Nat, message: String },
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct Allowance {
    pub allowance: Nat,
    pub expires_at: Option<u64>,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub enum MetadataValue {
    Nat(Nat),
    Int(crate::lib::Int),
    Text(String),
    Blob(serde_bytes::ByteBuf),
}

/// One reply of each type: `icrc1_fee`, `icrc1_metadata`, `icrc1_transfer`,
/// `icrc2_approve`, `icrc2_allowance`.
fn encode_replies() {
    crate::keep(Encode!(&Nat::from(10_000u32)).unwrap());
    crate::keep(
        Encode!(&vec![(
            "icrc1:symbol".to_string(),
            MetadataValue::Text("TKN".into())
        )])
        .unwrap(),
    );
    crate::keep(Encode!(&Ok::<Nat, TransferError>(Nat::from(7u8))).unwrap());
    crate::keep(Encode!(&Ok::<Nat, ApproveError>(Nat::from(8u8))).unwrap());
    crate::keep(
        Encode!(&Allowance {
            allowance: Nat::from(100u8),
            expires_at: None
        })
        .unwrap(),
    );
}

/// The ledger's first replies, then the same again (see the module docs).
#[bench(raw)]
fn first_replies() -> BenchResult {
    first_then_again(encode_replies)
}

/// `encode` in a fresh instance, measured as "1. Encoding", then again as
/// "4. Second calls".
pub(crate) fn first_then_again(encode: fn()) -> BenchResult {
    bench_fn(|| {
        {
            let _p = bench_scope("1. Encoding");
            encode();
        }
        let _p = bench_scope("4. Second calls");
        encode();
    })
}
