//! `ic0.msg_*`: the message's data, its response and the cycles it carries.

use crate::ic0::access::{copy_out, read_mem, read_text, write_u128};
use crate::ic0::linker::{define, Ic0Linker};
use crate::ic0::{trap, Host, Response, MAX_REPLY_QUERY, MAX_REPLY_REPLICATED};
use wasmi::{Caller, Error};

pub(in crate::ic0) fn link(l: &mut Ic0Linker) -> Result<(), Error> {
    data(l)?;
    responding(l)?;
    cycles(l)
}

/// What the message carries: its argument, its caller, and what only callbacks and
/// `canister_inspect_message` see.
fn data(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "msg_arg_data_size", |c| -> i32 {
        Ok(c.data().message.arg.len() as i32)
    });
    define!(l, "msg_arg_data_copy", |c,
                                     dst: i32,
                                     off: i32,
                                     size: i32|
     -> () {
        let arg = std::mem::take(&mut c.data_mut().message.arg);
        let r = copy_out(&mut c, &arg, (dst, off, size), "ic0.msg_arg_data_copy");
        c.data_mut().message.arg = arg;
        r
    });
    define!(l, "msg_caller_size", |c| -> i32 {
        Ok(c.data().message.caller.len() as i32)
    });
    define!(l, "msg_caller_copy", |c,
                                   dst: i32,
                                   off: i32,
                                   size: i32|
     -> () {
        let caller = c.data().message.caller.clone();
        copy_out(&mut c, &caller, (dst, off, size), "ic0.msg_caller_copy")
    });
    // Only callers authenticated by canister signatures carry caller info.
    define!(l, "msg_caller_info_data_size", |c| -> i32 { Ok(0) });
    define!(l, "msg_caller_info_data_copy", |c,
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
    define!(l, "msg_caller_info_signer_size", |c| -> i32 { Ok(0) });
    define!(l, "msg_caller_info_signer_copy", |c,
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
    define!(l, "msg_reject_code", |c| -> i32 { Ok(0) });
    define!(l, "msg_reject_msg_size", |c| -> i32 { Ok(0) });
    define!(l, "msg_reject_msg_copy", |c,
                                       _dst: i32,
                                       _off: i32,
                                       _size: i32|
     -> () { Ok(()) });
    define!(l, "msg_method_name_size", |c| -> i32 { Ok(0) });
    define!(l, "msg_method_name_copy", |c,
                                        _dst: i32,
                                        _off: i32,
                                        _size: i32|
     -> () { Ok(()) });
    define!(l, "accept_message", |c| -> () { Ok(()) });
    define!(l, "msg_cycles_refunded", |c| -> i64 { Ok(0) });
    define!(l, "msg_cycles_refunded128", |c, _dst: i32| -> () { Ok(()) });
    // Ingress messages have no deadline.
    define!(l, "msg_deadline", |c| -> i64 { Ok(0) });
    Ok(())
}

/// Replying and rejecting.
fn responding(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "msg_reply_data_append", |c, src: i32, size: i32| -> () {
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        append_reply(&mut c, bytes)
    });
    define!(l, "msg_reply", |c| -> () {
        respond(&mut c, "ic0.msg_reply", Response::Replied)
    });
    define!(l, "msg_reject", |c, src: i32, size: i32| -> () {
        let text = read_text(&c, src, size, "ic0.msg_reject")?;
        respond(&mut c, "ic0.msg_reject", |_| Response::Rejected(text))
    });
    Ok(())
}

/// Messages carry no cycles offline.
fn cycles(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "msg_cycles_available", |c| -> i64 { Ok(0) });
    define!(l, "msg_cycles_available128", |c, dst: i32| -> () {
        write_u128(&mut c, dst, 0)
    });
    define!(l, "msg_cycles_accept", |c, _max: i64| -> i64 { Ok(0) });
    define!(l, "msg_cycles_accept128", |c,
                                        _high: i64,
                                        _low: i64,
                                        dst: i32|
     -> () {
        write_u128(&mut c, dst, 0)
    });
    Ok(())
}

fn append_reply(c: &mut Caller<'_, Host>, bytes: Vec<u8>) -> Result<(), Error> {
    let limit = if c.data().message.mode.replicated() {
        MAX_REPLY_REPLICATED
    } else {
        MAX_REPLY_QUERY
    };
    let response = &mut c.data_mut().message.response;
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
    let response = &mut c.data_mut().message.response;
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
