//! The code `candor bind rust` generates (the golden files `cli.rs` compares the
//! binary's output with) compiles, and its types and client speak the interface:
//! what they encode decodes at the `.did`'s types with the same labels, and what
//! the `.did`'s types encode (including `random`'s values for recursive types)
//! decodes into them.

// The generated files are compared byte for byte with the binary's output.
#[rustfmt::skip]
#[path = "golden/ledger_bindings.rs"]
mod ledger;
#[rustfmt::skip]
#[path = "golden/shapes_bindings.rs"]
mod shapes;

use candor::types::{Function, Type, TypeEnv};
use candor::{IDLArgs, Nat, Principal};
use std::cell::RefCell;
use std::future::Future;
use std::path::Path;
use std::pin::pin;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

fn method(file: &str, name: &str) -> (TypeEnv, Function) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(file);
    let (env, actor, _) = candor_parser::check_file(&path).unwrap();
    let f = env.get_method(&actor.unwrap(), name).unwrap().clone();
    (env, f)
}
/// Polls a future that never waits (the test caller answers at once).
fn block_on<F: Future>(f: F) -> F::Output {
    const VTABLE: RawWakerVTable = RawWakerVTable::new(|_| RAW, |_| {}, |_| {}, |_| {});
    const RAW: RawWaker = RawWaker::new(std::ptr::null(), &VTABLE);
    // SAFETY: the vtable's functions do nothing and never touch the data pointer.
    let waker = unsafe { Waker::from_raw(RAW) };
    let mut cx = Context::from_waker(&waker);
    let mut f = pin!(f);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// A caller that checks the arguments against the interface's types and answers
/// with a reply written in Candid text.
struct Ledger {
    env: TypeEnv,
    calls: RefCell<Vec<String>>,
}

impl ledger::Caller for Ledger {
    type Error = candor::Error;
    async fn call(
        &self,
        _canister: Principal,
        method_name: &str,
        query: bool,
        args: Vec<u8>,
    ) -> Result<Vec<u8>, candor::Error> {
        let (_, f) = method("ledger.did", method_name);
        let decoded = IDLArgs::from_bytes_with_types(&args, &self.env, &f.args)?;
        self.calls
            .borrow_mut()
            .push(format!("{method_name} query={query} {decoded}"));
        let reply = match method_name {
            "icrc1_transfer" => {
                "(variant { Err = variant { BadFee = record { expected_fee = 10_000 } } })"
            }
            _ => "(42)",
        };
        candor_parser::parse_idl_args(reply)
            .map_err(|e| candor::Error::msg(e.to_string()))?
            .annotate_types(true, &self.env, &f.rets)?
            .to_bytes_with_types(&self.env, &f.rets)
    }
}

#[test]
fn the_ledger_client_calls_with_the_interface_s_types() {
    let (env, _) = method("ledger.did", "icrc1_transfer");
    let client = ledger::Client::new(
        Principal::management_canister(),
        Ledger {
            env,
            calls: RefCell::new(Vec::new()),
        },
    );
    let to = ledger::Account {
        owner: Principal::anonymous(),
        subaccount: Some(vec![7; 32]),
    };
    let reply = block_on(client.icrc1_transfer(&ledger::TransferArg {
        to: to.clone(),
        fee: None,
        memo: Some(b"invoice 42".to_vec()),
        from_subaccount: None,
        created_at_time: Some(1_700_000_000),
        amount: Nat::from(250_000u64),
    }))
    .unwrap();
    assert_eq!(
        reply,
        ledger::Icrc1TransferRet::Err(ledger::TransferError::BadFee {
            expected_fee: Nat::from(10_000u64)
        })
    );
    let balance = block_on(client.icrc1_balance_of(&to)).unwrap();
    assert_eq!(balance, Nat::from(42u64));
    let calls = client.caller.calls.borrow();
    assert_eq!(calls.len(), 2);
    assert!(
        calls[0].starts_with("icrc1_transfer query=false"),
        "{}",
        calls[0]
    );
    assert!(
        calls[0].contains("memo = opt blob \"invoice 42\""),
        "{}",
        calls[0]
    );
    assert!(
        calls[1].starts_with("icrc1_balance_of query=true"),
        "{}",
        calls[1]
    );
}

/// Bytes made from the `.did`'s types decode into the generated Rust types and
/// encode back to the same values: recursive types (boxed), renamed fields and
/// cases, tuples, references, `reserved`, `empty` inside `opt`/`vec`/variant.
#[test]
fn random_values_of_the_interface_decode_into_the_generated_types() {
    fn check<T>(name: &str, types: &[Type], env: &TypeEnv)
    where
        T: for<'a> candor::utils::ArgumentDecoder<'a> + candor::utils::ArgumentEncoder,
    {
        for seed in 0..200 {
            for message in candor_cli::random::generate(env, types, seed, 1).unwrap() {
                let bytes = message.to_bytes_with_types(env, types).unwrap();
                let typed: T = candor::decode_args(&bytes)
                    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}\n{message}"));
                let again = candor::encode_args(typed).unwrap();
                let back = IDLArgs::from_bytes_with_types(&again, env, types).unwrap();
                assert_eq!(back, message, "{name} seed {seed}");
            }
        }
    }
    let (env, f) = method("shapes.did", "walk");
    check::<(shapes::List, shapes::Tree)>("walk", &f.args, &env);
    let (env, f) = method("shapes.did", "mixed");
    check::<(shapes::Mixed, Option<candor::Empty>, u64, i32)>("mixed", &f.args, &env);
    let (env, f) = method("ledger.did", "icrc1_transfer");
    check::<(ledger::TransferArg,)>("transfer", &f.args, &env);
}
