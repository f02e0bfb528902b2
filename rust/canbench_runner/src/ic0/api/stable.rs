//! `ic0.stable*`: stable memory, through the 32-bit API (at most 4 GiB, offsets and sizes
//! are i32) and the 64-bit one.

use crate::ic0::access::{
    check_stable32, stable_grow, stable_read, stable_write, MAX_STABLE32_PAGES,
};
use crate::ic0::linker::{define, Ic0Linker};
use crate::ic0::WASM_PAGE;
use wasmi::Error;

/// The IC's limit on stable memory: 500 GiB, in Wasm pages.
const MAX_STABLE64_PAGES: u64 = 500 * 16_384;

pub(in crate::ic0) fn link(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "stable_size", |c| -> i32 {
        check_stable32(&c, "stable_size")?;
        Ok((c.data().persistent.stable.len() as u64 / WASM_PAGE) as i32)
    });
    define!(l, "stable_grow", |c, pages: i32| -> i32 {
        check_stable32(&c, "stable_grow")?;
        let old = stable_grow(&mut c, pages as u32 as u64, MAX_STABLE32_PAGES);
        Ok(if old == u64::MAX { -1 } else { old as i32 })
    });
    define!(l, "stable_read", |c, dst: i32, off: i32, size: i32| -> () {
        check_stable32(&c, "stable_read")?;
        stable_read(
            &mut c,
            dst as u32 as u64,
            off as u32 as u64,
            size as u32 as u64,
        )
    });
    define!(l, "stable_write", |c,
                                off: i32,
                                src: i32,
                                size: i32|
     -> () {
        check_stable32(&c, "stable_write")?;
        stable_write(
            &mut c,
            off as u32 as u64,
            src as u32 as u64,
            size as u32 as u64,
        )
    });
    define!(l, "stable64_size", |c| -> i64 {
        Ok((c.data().persistent.stable.len() as u64 / WASM_PAGE) as i64)
    });
    define!(l, "stable64_grow", |c, pages: i64| -> i64 {
        Ok(stable_grow(&mut c, pages as u64, MAX_STABLE64_PAGES) as i64)
    });
    define!(l, "stable64_read", |c,
                                 dst: i64,
                                 off: i64,
                                 size: i64|
     -> () {
        stable_read(&mut c, dst as u64, off as u64, size as u64)
    });
    define!(l, "stable64_write", |c,
                                  off: i64,
                                  src: i64,
                                  size: i64|
     -> () {
        stable_write(&mut c, off as u64, src as u64, size as u64)
    });
    Ok(())
}
