//! The rest of the interface, fixed offline: the canister itself and its cycles, its
//! environment variables (from the configuration), certification, time and the timer.

use crate::ic0::access::{copy_out, read_mem, read_principal, read_text, write_u128};
use crate::ic0::linker::{define, Ic0Linker};
use crate::ic0::{trap, Host, CANISTER_ID, CYCLE_BALANCE, FIXED_TIME_NANOS, MAX_CERTIFIED_DATA};
use wasmi::{Caller, Error};

pub(in crate::ic0) fn link(l: &mut Ic0Linker) -> Result<(), Error> {
    canister(l)?;
    environment(l)?;
    certification(l)?;
    time(l)
}

/// The canister itself: its id, status, version, controllers and cycle balance.
fn canister(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "canister_cycle_balance", |c| -> i64 {
        Ok(CYCLE_BALANCE as i64)
    });
    define!(l, "canister_cycle_balance128", |c, dst: i32| -> () {
        write_u128(&mut c, dst, CYCLE_BALANCE)
    });
    define!(l, "canister_liquid_cycle_balance128", |c, dst: i32| -> () {
        write_u128(&mut c, dst, CYCLE_BALANCE)
    });
    define!(l, "canister_self_size", |c| -> i32 {
        Ok(CANISTER_ID.len() as i32)
    });
    define!(l, "canister_self_copy", |c,
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
    define!(l, "canister_status", |c| -> i32 { Ok(1) });
    define!(l, "canister_version", |c| -> i64 {
        Ok(c.data().persistent.version as i64)
    });
    define!(l, "is_controller", |c, src: i32, size: i32| -> i32 {
        read_principal(&c, src, size, "ic0.is_controller")?;
        Ok(0)
    });
    define!(l, "in_replicated_execution", |c| -> i32 {
        Ok(i32::from(c.data().message.mode.replicated()))
    });
    Ok(())
}

/// Environment variables: those the configuration's `env_vars` file gives, by index in name
/// order or by name.
fn environment(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "env_var_count", |c| -> i32 {
        Ok(c.data().env_vars.len() as i32)
    });
    define!(l, "env_var_name_size", |c, index: i32| -> i32 {
        let name = env_var_name(&c, index, "ic0.env_var_name_size")?;
        Ok(name.len() as i32)
    });
    define!(l, "env_var_name_copy", |c,
                                     index: i32,
                                     dst: i32,
                                     off: i32,
                                     size: i32|
     -> () {
        let name = env_var_name(&c, index, "ic0.env_var_name_copy")?;
        copy_out(
            &mut c,
            name.as_bytes(),
            (dst, off, size),
            "ic0.env_var_name_copy",
        )
    });
    define!(l, "env_var_name_exists", |c, src: i32, size: i32| -> i32 {
        let name = read_text(&c, src, size, "ic0.env_var_name_exists")?;
        Ok(i32::from(env_var_value(&c, &name).is_some()))
    });
    define!(l, "env_var_value_size", |c, src: i32, size: i32| -> i32 {
        let name = read_text(&c, src, size, "ic0.env_var_value_size")?;
        let value =
            env_var_value(&c, &name).ok_or_else(|| no_env_var("ic0.env_var_value_size", &name))?;
        Ok(value.len() as i32)
    });
    define!(l, "env_var_value_copy", |c,
                                      src: i32,
                                      size: i32,
                                      dst: i32,
                                      off: i32,
                                      len: i32|
     -> () {
        let name = read_text(&c, src, size, "ic0.env_var_value_copy")?;
        let value =
            env_var_value(&c, &name).ok_or_else(|| no_env_var("ic0.env_var_value_copy", &name))?;
        copy_out(
            &mut c,
            value.as_bytes(),
            (dst, off, len),
            "ic0.env_var_value_copy",
        )
    });
    Ok(())
}

/// The name of the environment variable at `index` (a copy: the caller writes to memory).
fn env_var_name(c: &Caller<'_, Host>, index: i32, what: &str) -> Result<String, Error> {
    let vars = &c.data().env_vars;
    usize::try_from(index)
        .ok()
        .and_then(|i| vars.get(i))
        .map(|(name, _)| name.clone())
        .ok_or_else(|| {
            trap(format!(
                "{what}: index {index} out of bounds ({} environment variables)",
                vars.len()
            ))
        })
}

fn env_var_value(c: &Caller<'_, Host>, name: &str) -> Option<String> {
    c.data()
        .env_vars
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

fn no_env_var(what: &str, name: &str) -> Error {
    trap(format!("{what}: no environment variable {name:?}"))
}

/// Certified data is kept; there is no data certificate offline.
fn certification(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "certified_data_set", |c, src: i32, size: i32| -> () {
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
    define!(l, "data_certificate_present", |c| -> i32 { Ok(0) });
    define!(l, "data_certificate_size", |c| -> i32 {
        Err(trap(
            "ic0.data_certificate_size: no data certificate is present",
        ))
    });
    define!(l, "data_certificate_copy", |c,
                                         _dst: i32,
                                         _off: i32,
                                         _size: i32|
     -> () {
        Err(trap(
            "ic0.data_certificate_copy: no data certificate is present",
        ))
    });
    Ok(())
}

/// A fixed clock, and the global timer (kept with the canister, never fired).
fn time(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "time", |c| -> i64 { Ok(FIXED_TIME_NANOS) });
    define!(l, "global_timer_set", |c, timestamp: i64| -> i64 {
        let previous = std::mem::replace(&mut c.data_mut().persistent.timer, timestamp as u64);
        Ok(previous as i64)
    });
    Ok(())
}
