#[test]
fn probe() {
    // header lengths of typical ICRC messages as candid encodes them
    use candid::{CandidType, Nat, Principal};
    #[derive(CandidType)] struct Account { owner: Principal, subaccount: Option<serde_bytes::ByteBuf> }
    #[derive(CandidType)] struct TransferArg { from_subaccount: Option<serde_bytes::ByteBuf>, to: Account, amount: Nat, fee: Option<Nat>, memo: Option<serde_bytes::ByteBuf>, created_at_time: Option<u64> }
    #[derive(CandidType)] enum TransferError { BadFee { expected_fee: Nat }, BadBurn { min_burn_amount: Nat }, InsufficientFunds { balance: Nat }, TooOld, CreatedInFuture { ledger_time: u64 }, Duplicate { duplicate_of: Nat }, TemporarilyUnavailable, GenericError { error_code: Nat, message: String } }
    let p = Principal::from_slice(&[1; 29]);
    let hl = |b: &[u8]| { let mut i = 4usize; let _ = b; i += 0; i };
    let _ = hl;
    let acct = candid::encode_one(Account { owner: p, subaccount: None }).unwrap();
    let tr = candid::encode_one(TransferArg { from_subaccount: None, to: Account { owner: p, subaccount: None }, amount: Nat::from(5u8), fee: None, memo: None, created_at_time: None }).unwrap();
    let rep = candid::encode_one(Result::<Nat, TransferError>::Ok(Nat::from(5u8))).unwrap();
    for (n, b) in [("account", acct), ("transfer", tr), ("reply", rep)] {
        let mut de = candor::de::IDLDeserialize::new(&b).unwrap();
        let _ = &mut de;
        println!("{n}: message {} bytes {}", b.len(), b.iter().map(|x| format!("{x:02x}")).collect::<String>());
    }
}
