//! Reading and writing the canister's heap and stable memory for the host functions, with
//! every range checked: out of bounds is a trap, never a panic.

use super::linker::charge_instructions;
use super::{trap, Host, MAX_PRINCIPAL_LEN, WASM_PAGE};
use crate::cost::{STABLE_DIRTY_PAGE_COST, STABLE_DIRTY_PAGE_SIZE};
use wasmi::{Caller, Error, Memory};

pub(super) fn memory(c: &Caller<'_, Host>) -> Result<Memory, Error> {
    c.data()
        .memory
        .ok_or_else(|| trap("the canister exports no memory"))
}

/// A size argument of an `ic0` call as a byte count (32-bit calls pass sizes as `i32`).
pub(super) trait SizeArg {
    fn byte_count(self) -> u64;
}

impl SizeArg for i32 {
    fn byte_count(self) -> u64 {
        self as u32 as u64
    }
}

impl SizeArg for i64 {
    fn byte_count(self) -> u64 {
        self as u64
    }
}

pub(super) fn read_mem(c: &Caller<'_, Host>, src: u64, size: u64) -> Result<Vec<u8>, Error> {
    let mem = memory(c)?;
    let data = mem.data(c);
    let end = src.checked_add(size).filter(|&e| e <= data.len() as u64);
    match end {
        Some(end) => Ok(data[src as usize..end as usize].to_vec()),
        None => Err(trap(format!(
            "heap out of bounds: {src}+{size} > {}",
            data.len()
        ))),
    }
}

pub(super) fn write_mem(c: &mut Caller<'_, Host>, dst: u64, bytes: &[u8]) -> Result<(), Error> {
    let mem = memory(c)?;
    let data = mem.data_mut(&mut *c);
    let end = dst
        .checked_add(bytes.len() as u64)
        .filter(|&e| e <= data.len() as u64);
    match end {
        Some(end) => {
            data[dst as usize..end as usize].copy_from_slice(bytes);
            Ok(())
        }
        None => Err(trap(format!(
            "heap out of bounds: {dst}+{} > {}",
            bytes.len(),
            data.len()
        ))),
    }
}

/// `copy(dst, offset, size)` of a slice of `source` into the heap, as the `*_copy` calls do.
pub(super) fn copy_out(
    c: &mut Caller<'_, Host>,
    source: &[u8],
    (dst, offset, size): (i32, i32, i32),
    what: &str,
) -> Result<(), Error> {
    let (dst, offset, size) = (dst as u32 as u64, offset as u32 as u64, size as u32 as u64);
    let end = offset
        .checked_add(size)
        .filter(|&e| e <= source.len() as u64);
    let Some(end) = end else {
        return Err(trap(format!(
            "{what}: range {offset}+{size} is outside the {} bytes available",
            source.len()
        )));
    };
    let slice = source[offset as usize..end as usize].to_vec();
    write_mem(c, dst, &slice)
}

/// Reads a principal from the heap, trapping on a length no principal has.
pub(super) fn read_principal(
    c: &Caller<'_, Host>,
    src: i32,
    size: i32,
    what: &str,
) -> Result<Vec<u8>, Error> {
    let bytes = read_mem(c, src as u32 as u64, size as u32 as u64)?;
    if bytes.len() > MAX_PRINCIPAL_LEN {
        return Err(trap(format!(
            "{what}: {} bytes is not a valid principal",
            bytes.len()
        )));
    }
    Ok(bytes)
}

/// Reads UTF-8 text from the heap, trapping if it is not valid.
pub(super) fn read_text(
    c: &Caller<'_, Host>,
    src: i32,
    size: i32,
    what: &str,
) -> Result<String, Error> {
    let bytes = read_mem(c, src as u32 as u64, size as u32 as u64)?;
    String::from_utf8(bytes).map_err(|_| trap(format!("{what}: invalid UTF-8 string provided")))
}

pub(super) fn write_u128(c: &mut Caller<'_, Host>, dst: i32, value: u128) -> Result<(), Error> {
    write_mem(c, dst as u32 as u64, &value.to_le_bytes())
}

pub(super) fn stable_grow(c: &mut Caller<'_, Host>, pages: u64, max_pages: u64) -> u64 {
    let stable = &mut c.data_mut().persistent.stable;
    let old = stable.len() as u64 / WASM_PAGE;
    match old.checked_add(pages) {
        Some(new) if new <= max_pages => {
            stable.resize((new * WASM_PAGE) as usize, 0);
            old
        }
        _ => u64::MAX,
    }
}

pub(super) fn stable_range(
    c: &Caller<'_, Host>,
    offset: u64,
    size: u64,
) -> Result<std::ops::Range<usize>, Error> {
    let len = c.data().persistent.stable.len() as u64;
    match offset.checked_add(size) {
        Some(end) if end <= len => Ok(offset as usize..end as usize),
        _ => Err(trap(format!(
            "stable memory out of bounds: {offset}+{size} > {len}"
        ))),
    }
}

/// The 32-bit stable memory API traps once stable memory outgrows 4 GiB.
pub(super) const MAX_STABLE32_PAGES: u64 = 65_536;

pub(super) fn check_stable32(c: &Caller<'_, Host>, what: &str) -> Result<(), Error> {
    if c.data().persistent.stable.len() as u64 > MAX_STABLE32_PAGES * WASM_PAGE {
        return Err(trap(format!(
            "ic0.{what}: stable memory is larger than 4 GiB; use the 64-bit API"
        )));
    }
    Ok(())
}

pub(super) fn stable_read(
    c: &mut Caller<'_, Host>,
    dst: u64,
    offset: u64,
    size: u64,
) -> Result<(), Error> {
    let r = stable_range(c, offset, size)?;
    let bytes = c.data().persistent.stable[r].to_vec();
    write_mem(c, dst, &bytes)
}

pub(super) fn stable_write(
    c: &mut Caller<'_, Host>,
    offset: u64,
    src: u64,
    size: u64,
) -> Result<(), Error> {
    let bytes = read_mem(c, src, size)?;
    let r = stable_range(c, offset, size)?;
    charge_dirty_pages(c, offset, size)?;
    c.data_mut().persistent.stable[r].copy_from_slice(&bytes);
    Ok(())
}

/// Charges [`STABLE_DIRTY_PAGE_COST`] for each page of `offset..offset + size` (in bounds) the
/// message has not written before, and remembers them.
fn charge_dirty_pages(c: &mut Caller<'_, Host>, offset: u64, size: u64) -> Result<(), Error> {
    if size == 0 {
        return Ok(());
    }
    let first = offset / STABLE_DIRTY_PAGE_SIZE;
    let last = (offset + (size - 1)) / STABLE_DIRTY_PAGE_SIZE;
    let dirty = &mut c.data_mut().message.dirty_stable_pages;
    let new_pages = (first..=last).filter(|&p| dirty.insert(p)).count() as u64;
    charge_instructions(c, new_pages * STABLE_DIRTY_PAGE_COST)
}
