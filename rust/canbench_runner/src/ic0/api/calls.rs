//! `ic0.call_*`: inter-canister calls, assembled as the spec says, then refused by
//! `call_perform` (offline there is nobody to call).

use crate::ic0::access::{read_mem, read_principal, write_u128};
use crate::ic0::linker::{define, Ic0Linker};
use crate::ic0::{
    trap, CallState, Host, CALL_PERFORM_FAILED, CYCLE_BALANCE, MAX_CALL_PAYLOAD,
    MAX_REPLY_REPLICATED,
};
use wasmi::{Caller, Error};

pub(in crate::ic0) fn link(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "call_new", |c,
                            callee_src: i32,
                            callee_size: i32,
                            name_src: i32,
                            name_size: i32,
                            _reply_fun: i32,
                            _reply_env: i32,
                            _reject_fun: i32,
                            _reject_env: i32|
     -> () {
        read_principal(&c, callee_src, callee_size, "ic0.call_new")?;
        read_mem(&c, name_src as u32 as u64, name_size as u32 as u64)?;
        c.data_mut().message.call = CallState::Building {
            payload: 0,
            cleanup: false,
            best_effort: false,
        };
        Ok(())
    });
    define!(l, "call_data_append", |c, src: i32, size: i32| -> () {
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        let (payload, _, _) = building(&mut c, "ic0.call_data_append")?;
        *payload += bytes.len();
        if *payload > MAX_CALL_PAYLOAD {
            return Err(trap(format!(
                "ic0.call_data_append: the argument exceeds the maximum of {MAX_CALL_PAYLOAD} bytes"
            )));
        }
        Ok(())
    });
    define!(l, "call_on_cleanup", |c, _fun: i32, _env: i32| -> () {
        let (_, cleanup, _) = building(&mut c, "ic0.call_on_cleanup")?;
        if std::mem::replace(cleanup, true) {
            return Err(trap("ic0.call_on_cleanup: called twice for one call"));
        }
        Ok(())
    });
    define!(l, "call_with_best_effort_response", |c,
                                                  _timeout: i32|
     -> () {
        let (_, _, best_effort) = building(&mut c, "ic0.call_with_best_effort_response")?;
        if std::mem::replace(best_effort, true) {
            return Err(trap(
                "ic0.call_with_best_effort_response: called twice for one call",
            ));
        }
        Ok(())
    });
    define!(l, "call_cycles_add", |c, amount: i64| -> () {
        building(&mut c, "ic0.call_cycles_add")?;
        if u128::from(amount as u64) > CYCLE_BALANCE {
            return Err(trap("ic0.call_cycles_add: not enough cycles"));
        }
        Ok(())
    });
    define!(l, "call_cycles_add128", |c, high: i64, low: i64| -> () {
        building(&mut c, "ic0.call_cycles_add128")?;
        let amount = (u128::from(high as u64) << 64) | u128::from(low as u64);
        if amount > CYCLE_BALANCE {
            return Err(trap("ic0.call_cycles_add128: not enough cycles"));
        }
        Ok(())
    });
    define!(l, "call_perform", |c| -> i32 {
        building(&mut c, "ic0.call_perform")?;
        c.data_mut().message.call = CallState::None;
        Ok(CALL_PERFORM_FAILED)
    });
    define!(l, "cost_call", |c,
                             method_name_size: i64,
                             payload_size: i64,
                             dst: i32|
     -> () {
        let cost = call_cost(method_name_size as u64, payload_size as u64);
        write_u128(&mut c, dst, cost)
    });
    Ok(())
}

/// The call under construction, trapping if there is none.
fn building<'a>(
    c: &'a mut Caller<'_, Host>,
    what: &str,
) -> Result<(&'a mut usize, &'a mut bool, &'a mut bool), Error> {
    match &mut c.data_mut().message.call {
        CallState::Building {
            payload,
            cleanup,
            best_effort,
        } => Ok((payload, cleanup, best_effort)),
        CallState::None => Err(trap(format!("{what}: there is no call under construction"))),
    }
}

/// What `ic0.cost_call` reports: an estimate of the replica's fees on a 13-node application
/// subnet (base fee and per-byte fee of the request, plus the reservations for the largest
/// response and its callback's execution). Canisters compare it with their liquid balance,
/// which offline is far above any such cost, so only its order of magnitude matters.
fn call_cost(method_name_size: u64, payload_size: u64) -> u128 {
    const BASE: u128 = 260_000;
    const PER_BYTE: u128 = 1_000;
    const RESPONSE_EXECUTION: u128 = 5_000_000_000;
    let request = u128::from(method_name_size) + u128::from(payload_size);
    BASE + PER_BYTE * request + PER_BYTE * MAX_REPLY_REPLICATED as u128 + RESPONSE_EXECUTION
}
