//! The `ic0` functions themselves: each charged as the replica charges it, checked against
//! the mode, then doing what the spec says.

use super::access::{
    check_stable32, copy_out, read_mem, read_principal, read_text, stable_grow, stable_read,
    stable_write, write_u128, SizeArg, MAX_STABLE32_PAGES,
};
use super::{
    availability, read_counters, trap, CallState, Host, Response, Snapshot, CALL_PERFORM_FAILED,
    CANISTER_ID, CYCLE_BALANCE, FIXED_TIME_NANOS, MAX_CALL_PAYLOAD, MAX_CERTIFIED_DATA,
    MAX_REPLY_QUERY, MAX_REPLY_REPLICATED, WASM_PAGE,
};
use crate::cost::{CostTable, SysApiCost};
use wasmi::{Caller, Engine, Error, Linker, Val};

fn charge(c: &mut Caller<'_, Host>, cost: SysApiCost, size: u64) -> Result<(), Error> {
    let counter = c
        .data()
        .counter
        .ok_or_else(|| trap("internal error: no instruction counter"))?;
    let now = counter.get(&*c).i64().unwrap_or(0);
    let add = cost.overhead + if cost.per_byte { size } else { 0 };
    counter
        .set(&mut *c, Val::I64(now.wrapping_add(add as i64)))
        .map_err(|e| trap(e.to_string()))
}

/// Traps unless `name` may be called in the current mode.
fn check_mode(c: &Caller<'_, Host>, name: &str, allowed: u8) -> Result<(), Error> {
    let mode = c.data().message.mode;
    if allowed & mode.bit() == 0 {
        return Err(trap(format!(
            "ic0.{name} cannot be executed in {} mode",
            mode.name()
        )));
    }
    Ok(())
}

fn append_reply(c: &mut Caller<'_, Host>, bytes: Vec<u8>) -> Result<(), Error> {
    let limit = if c.data().message.mode.replicated() {
        MAX_REPLY_REPLICATED
    } else {
        MAX_REPLY_QUERY
    };
    let response = &mut c.data_mut().response;
    let mut data = match std::mem::take(response) {
        Response::Pending => Vec::new(),
        Response::Building(data) => data,
        done => {
            *response = done;
            return Err(trap(
                "ic0.msg_reply_data_append: the call was already responded to",
            ));
        }
    };
    if data.len() + bytes.len() > limit {
        return Err(trap(format!(
            "ic0.msg_reply_data_append: the reply exceeds the maximum of {limit} bytes"
        )));
    }
    data.extend_from_slice(&bytes);
    *response = Response::Building(data);
    Ok(())
}

/// Records the response, trapping if the call was already responded to.
fn respond(
    c: &mut Caller<'_, Host>,
    what: &str,
    to: impl FnOnce(Vec<u8>) -> Response,
) -> Result<(), Error> {
    let response = &mut c.data_mut().response;
    match std::mem::take(response) {
        Response::Pending => *response = to(Vec::new()),
        Response::Building(data) => *response = to(data),
        done => {
            *response = done;
            return Err(trap(format!("{what}: the call was already responded to")));
        }
    }
    Ok(())
}

/// The call under construction, trapping if there is none.
fn building<'a>(
    c: &'a mut Caller<'_, Host>,
    what: &str,
) -> Result<(&'a mut usize, &'a mut bool, &'a mut bool), Error> {
    match &mut c.data_mut().call {
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

/// A linker with every implemented `ic0` function, and the names it defines.
pub fn build_linker(
    engine: &Engine,
    table: &CostTable,
) -> Result<(Linker<Host>, Vec<&'static str>), Error> {
    let mut l = Linker::<Host>::new(engine);
    let mut defined: Vec<&'static str> = Vec::new();
    let cost = |name: &str| table.sysapi(name);
    macro_rules! def {
        ($name:literal, |$c:ident $(, $a:ident : $t:ty)*| -> $r:ty $body:block) => {{
            let k = cost($name);
            let allowed = availability($name);
            defined.push($name);
            l.func_wrap("ic0", $name, move |mut $c: Caller<'_, Host> $(, $a: $t)*| -> Result<$r, Error> {
                let bytes: u64 = def!(@size $($a)*);
                charge(&mut $c, k, bytes)?;
                check_mode(&$c, $name, allowed)?;
                $body
            })?;
        }};
        // The size a per-byte cost applies to: the last of `(src, size)` or
        // `(dst, offset, size)`; the stable memory calls name it themselves.
        (@size) => { 0 };
        (@size $a:ident) => { 0 };
        (@size $a:ident $b:ident) => { $b.byte_count() };
        (@size $a:ident $b:ident $s:ident) => { $s.byte_count() };
        (@size $($a:ident)*) => { 0 };
    }

    // Message data.
    def!("msg_arg_data_size", |c| -> i32 {
        Ok(c.data().message.arg.len() as i32)
    });
    def!("msg_arg_data_copy", |c,
                               dst: i32,
                               off: i32,
                               size: i32|
     -> () {
        let arg = std::mem::take(&mut c.data_mut().message.arg);
        let r = copy_out(&mut c, &arg, (dst, off, size), "ic0.msg_arg_data_copy");
        c.data_mut().message.arg = arg;
        r
    });
    def!("msg_caller_size", |c| -> i32 {
        Ok(c.data().message.caller.len() as i32)
    });
    def!("msg_caller_copy", |c,
                             dst: i32,
                             off: i32,
                             size: i32|
     -> () {
        let caller = c.data().message.caller.clone();
        copy_out(&mut c, &caller, (dst, off, size), "ic0.msg_caller_copy")
    });
    // Only callers authenticated by canister signatures carry caller info.
    def!("msg_caller_info_data_size", |c| -> i32 { Ok(0) });
    def!("msg_caller_info_data_copy", |c,
                                       dst: i32,
                                       off: i32,
                                       size: i32|
     -> () {
        copy_out(
            &mut c,
            &[],
            (dst, off, size),
            "ic0.msg_caller_info_data_copy",
        )
    });
    def!("msg_caller_info_signer_size", |c| -> i32 { Ok(0) });
    def!("msg_caller_info_signer_copy", |c,
                                         dst: i32,
                                         off: i32,
                                         size: i32|
     -> () {
        copy_out(
            &mut c,
            &[],
            (dst, off, size),
            "ic0.msg_caller_info_signer_copy",
        )
    });
    // Available in callbacks and inspect_message only, which never run offline: each traps.
    def!("msg_reject_code", |c| -> i32 { Ok(0) });
    def!("msg_reject_msg_size", |c| -> i32 { Ok(0) });
    def!("msg_reject_msg_copy", |c,
                                 _dst: i32,
                                 _off: i32,
                                 _size: i32|
     -> () { Ok(()) });
    def!("msg_method_name_size", |c| -> i32 { Ok(0) });
    def!("msg_method_name_copy", |c,
                                  _dst: i32,
                                  _off: i32,
                                  _size: i32|
     -> () { Ok(()) });
    def!("accept_message", |c| -> () { Ok(()) });
    def!("msg_cycles_refunded", |c| -> i64 { Ok(0) });
    def!("msg_cycles_refunded128", |c, _dst: i32| -> () { Ok(()) });
    // Ingress messages have no deadline.
    def!("msg_deadline", |c| -> i64 { Ok(0) });

    // Responding.
    def!("msg_reply_data_append", |c, src: i32, size: i32| -> () {
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        append_reply(&mut c, bytes)
    });
    def!("msg_reply", |c| -> () {
        respond(&mut c, "ic0.msg_reply", Response::Replied)
    });
    def!("msg_reject", |c, src: i32, size: i32| -> () {
        let text = read_text(&c, src, size, "ic0.msg_reject")?;
        respond(&mut c, "ic0.msg_reject", |_| Response::Rejected(text))
    });

    // Cycles: a fixed balance; messages carry none.
    def!("msg_cycles_available", |c| -> i64 { Ok(0) });
    def!("msg_cycles_available128", |c, dst: i32| -> () {
        write_u128(&mut c, dst, 0)
    });
    def!("msg_cycles_accept", |c, _max: i64| -> i64 { Ok(0) });
    def!("msg_cycles_accept128", |c,
                                  _high: i64,
                                  _low: i64,
                                  dst: i32|
     -> () {
        write_u128(&mut c, dst, 0)
    });
    def!("canister_cycle_balance", |c| -> i64 {
        Ok(CYCLE_BALANCE as i64)
    });
    def!("canister_cycle_balance128", |c, dst: i32| -> () {
        write_u128(&mut c, dst, CYCLE_BALANCE)
    });
    def!("canister_liquid_cycle_balance128", |c, dst: i32| -> () {
        write_u128(&mut c, dst, CYCLE_BALANCE)
    });

    // The canister itself.
    def!("canister_self_size", |c| -> i32 {
        Ok(CANISTER_ID.len() as i32)
    });
    def!("canister_self_copy", |c,
                                dst: i32,
                                off: i32,
                                size: i32|
     -> () {
        copy_out(
            &mut c,
            CANISTER_ID,
            (dst, off, size),
            "ic0.canister_self_copy",
        )
    });
    // 1: running.
    def!("canister_status", |c| -> i32 { Ok(1) });
    def!("canister_version", |c| -> i64 {
        Ok(c.data().persistent.version as i64)
    });
    def!("is_controller", |c, src: i32, size: i32| -> i32 {
        read_principal(&c, src, size, "ic0.is_controller")?;
        Ok(0)
    });
    def!("in_replicated_execution", |c| -> i32 {
        Ok(i32::from(c.data().message.mode.replicated()))
    });
    def!("env_var_count", |c| -> i32 { Ok(0) });
    def!("env_var_name_size", |c, index: i32| -> i32 {
        Err(trap(format!(
            "ic0.env_var_name_size: index {index} out of bounds"
        )))
    });
    def!("env_var_name_copy", |c,
                               index: i32,
                               _dst: i32,
                               _off: i32,
                               _size: i32|
     -> () {
        Err(trap(format!(
            "ic0.env_var_name_copy: index {index} out of bounds"
        )))
    });
    def!("env_var_name_exists", |c, src: i32, size: i32| -> i32 {
        read_text(&c, src, size, "ic0.env_var_name_exists")?;
        Ok(0)
    });
    def!("env_var_value_size", |c, src: i32, size: i32| -> i32 {
        let name = read_text(&c, src, size, "ic0.env_var_value_size")?;
        Err(trap(format!(
            "ic0.env_var_value_size: no environment variable {name:?}"
        )))
    });
    def!("env_var_value_copy", |c,
                                src: i32,
                                size: i32,
                                _dst: i32,
                                _off: i32,
                                _len: i32|
     -> () {
        let name = read_text(&c, src, size, "ic0.env_var_value_copy")?;
        Err(trap(format!(
            "ic0.env_var_value_copy: no environment variable {name:?}"
        )))
    });

    // Inter-canister calls: assembled as the spec says, then refused by call_perform.
    def!("call_new", |c,
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
        c.data_mut().call = CallState::Building {
            payload: 0,
            cleanup: false,
            best_effort: false,
        };
        Ok(())
    });
    def!("call_data_append", |c, src: i32, size: i32| -> () {
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
    def!("call_on_cleanup", |c, _fun: i32, _env: i32| -> () {
        let (_, cleanup, _) = building(&mut c, "ic0.call_on_cleanup")?;
        if std::mem::replace(cleanup, true) {
            return Err(trap("ic0.call_on_cleanup: called twice for one call"));
        }
        Ok(())
    });
    def!("call_with_best_effort_response", |c, _timeout: i32| -> () {
        let (_, _, best_effort) = building(&mut c, "ic0.call_with_best_effort_response")?;
        if std::mem::replace(best_effort, true) {
            return Err(trap(
                "ic0.call_with_best_effort_response: called twice for one call",
            ));
        }
        Ok(())
    });
    def!("call_cycles_add", |c, amount: i64| -> () {
        building(&mut c, "ic0.call_cycles_add")?;
        if u128::from(amount as u64) > CYCLE_BALANCE {
            return Err(trap("ic0.call_cycles_add: not enough cycles"));
        }
        Ok(())
    });
    def!("call_cycles_add128", |c, high: i64, low: i64| -> () {
        building(&mut c, "ic0.call_cycles_add128")?;
        let amount = (u128::from(high as u64) << 64) | u128::from(low as u64);
        if amount > CYCLE_BALANCE {
            return Err(trap("ic0.call_cycles_add128: not enough cycles"));
        }
        Ok(())
    });
    def!("call_perform", |c| -> i32 {
        building(&mut c, "ic0.call_perform")?;
        c.data_mut().call = CallState::None;
        Ok(CALL_PERFORM_FAILED)
    });
    def!("cost_call", |c,
                       method_name_size: i64,
                       payload_size: i64,
                       dst: i32|
     -> () {
        let cost = call_cost(method_name_size as u64, payload_size as u64);
        write_u128(&mut c, dst, cost)
    });

    // Certification, time and timers.
    def!("certified_data_set", |c, src: i32, size: i32| -> () {
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        if bytes.len() > MAX_CERTIFIED_DATA {
            return Err(trap(format!(
                "ic0.certified_data_set: {} bytes is more than {MAX_CERTIFIED_DATA}",
                bytes.len()
            )));
        }
        c.data_mut().persistent.certified_data = bytes;
        Ok(())
    });
    // No certificate offline: queries see none, as updates do on the IC.
    def!("data_certificate_present", |c| -> i32 { Ok(0) });
    def!("data_certificate_size", |c| -> i32 {
        Err(trap(
            "ic0.data_certificate_size: no data certificate is present",
        ))
    });
    def!("data_certificate_copy", |c,
                                   _dst: i32,
                                   _off: i32,
                                   _size: i32|
     -> () {
        Err(trap(
            "ic0.data_certificate_copy: no data certificate is present",
        ))
    });
    def!("time", |c| -> i64 { Ok(FIXED_TIME_NANOS) });
    def!("global_timer_set", |c, timestamp: i64| -> i64 {
        let previous = std::mem::replace(&mut c.data_mut().persistent.timer, timestamp as u64);
        Ok(previous as i64)
    });
    def!("performance_counter", |c, kind: i32| -> i64 {
        match kind {
            // 0: this message; 1: the call context. One message is the whole call here.
            0 | 1 => {
                let now = c.data().counter.map_or(0, |g| g.get(&c).i64().unwrap_or(0));
                if !c.data().profile.is_empty() {
                    let profile = read_counters(&c.data().profile, &c);
                    c.data_mut().snapshots.push(Snapshot {
                        instructions: now as u64,
                        profile,
                    });
                }
                Ok(now)
            }
            other => Err(trap(format!(
                "ic0.performance_counter: unknown counter type {other}"
            ))),
        }
    });

    // Debugging aids.
    def!("debug_print", |c, src: i32, size: i32| -> () {
        // Never traps: out-of-bounds data is replaced, as the spec allows.
        let text = match read_mem(&c, src as u32 as u64, size as u32 as u64) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(_) => "(ic0.debug_print: data out of bounds)".to_string(),
        };
        if c.data().show_output {
            eprintln!("[canister] {text}");
        }
        c.data_mut().output.push(text);
        Ok(())
    });
    def!("trap", |c, src: i32, size: i32| -> () {
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        Err(trap(format!(
            "Canister called `ic0.trap` with message: '{}'",
            String::from_utf8_lossy(&bytes)
        )))
    });

    // 32-bit stable memory: at most 4 GiB, offsets and sizes are i32.
    def!("stable_size", |c| -> i32 {
        check_stable32(&c, "stable_size")?;
        Ok((c.data().persistent.stable.len() as u64 / WASM_PAGE) as i32)
    });
    def!("stable_grow", |c, pages: i32| -> i32 {
        check_stable32(&c, "stable_grow")?;
        let old = stable_grow(&mut c, pages as u32 as u64, MAX_STABLE32_PAGES);
        Ok(if old == u64::MAX { -1 } else { old as i32 })
    });
    def!("stable_read", |c, dst: i32, off: i32, size: i32| -> () {
        check_stable32(&c, "stable_read")?;
        stable_read(
            &mut c,
            dst as u32 as u64,
            off as u32 as u64,
            size as u32 as u64,
        )
    });
    def!("stable_write", |c, off: i32, src: i32, size: i32| -> () {
        check_stable32(&c, "stable_write")?;
        stable_write(
            &mut c,
            off as u32 as u64,
            src as u32 as u64,
            size as u32 as u64,
        )
    });
    // 64-bit stable memory.
    def!("stable64_size", |c| -> i64 {
        Ok((c.data().persistent.stable.len() as u64 / WASM_PAGE) as i64)
    });
    def!("stable64_grow", |c, pages: i64| -> i64 {
        // The IC's limit is 500 GiB.
        Ok(stable_grow(&mut c, pages as u64, 500 * 16_384) as i64)
    });
    def!("stable64_read", |c, dst: i64, off: i64, size: i64| -> () {
        stable_read(&mut c, dst as u64, off as u64, size as u64)
    });
    def!("stable64_write", |c, off: i64, src: i64, size: i64| -> () {
        stable_write(&mut c, off as u64, src as u64, size as u64)
    });
    Ok((l, defined))
}
