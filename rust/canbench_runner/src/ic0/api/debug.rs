//! `ic0.debug_print` and `ic0.trap`.

use crate::ic0::access::read_mem;
use crate::ic0::linker::{define, Ic0Linker};
use crate::ic0::trap;
use wasmi::Error;

pub(in crate::ic0) fn link(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "debug_print", |c, src: i32, size: i32| -> () {
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
    define!(l, "trap", |c, src: i32, size: i32| -> () {
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        Err(trap(format!(
            "Canister called `ic0.trap` with message: '{}'",
            String::from_utf8_lossy(&bytes)
        )))
    });
    Ok(())
}
