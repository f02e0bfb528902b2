//! The `candor` binary's allocator: small blocks from one bump region, the rest
//! from the system allocator.
//!
//! A decoded message is a tree of many small blocks (a box per variant, a string
//! per label) that live until the process exits. The system allocator spends
//! more on finding and splitting each of them than the decoder spends on the
//! value, and pads each with a header, so the tree spreads over more fresh pages
//! (each a fault that costs microseconds on a virtual machine). Here a small block
//! is the next bytes of one region: a pointer bump, packed with its neighbours.
//!
//! Freeing a block in the region gives it back only when it is the last one (a
//! temporary string, a vector grown in place); otherwise it stays until exit. The
//! region has a fixed size ([`REGION`], reserved, not touched): once it is full,
//! every block comes from the system allocator, so what is never given back is at
//! most that much. Where no region can be reserved, everything goes to the system
//! allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The allocator; `candor`'s `main.rs` installs it.
pub struct Arena;

/// Bytes of address space reserved for small blocks.
const REGION: usize = 64 << 20;
/// Requests up to this size (and alignment up to [`MAX_ALIGN`]) start in the region.
const SMALL: usize = 1024;
const MAX_ALIGN: usize = 16;

/// The region's address: 0 before the first request, [`NONE`] when it could not
/// be reserved.
static BASE: AtomicUsize = AtomicUsize::new(0);
const NONE: usize = usize::MAX;
/// The offset of the first free byte in the region.
static NEXT: AtomicUsize = AtomicUsize::new(0);
/// While set, new blocks come from the system allocator (see [`Arena::pack`]).
static UNPACKED: AtomicBool = AtomicBool::new(false);

impl Arena {
    /// Whether new small blocks are packed in the region (the default) or come
    /// from the system allocator, which hands a freed block out again: for work
    /// that frees most of what it allocates, in no particular order (a value
    /// decoded, printed and dropped), where the region would keep all of it.
    pub fn pack(on: bool) {
        UNPACKED.store(!on, Ordering::Relaxed);
    }
}

/// The region's address, reserving it on first use; `None` without one.
fn base() -> Option<usize> {
    let b = BASE.load(Ordering::Acquire);
    if b == NONE {
        return None;
    }
    if b != 0 {
        return Some(b);
    }
    let mine = reserve();
    match BASE.compare_exchange(0, mine, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => (mine != NONE).then_some(mine),
        Err(theirs) => {
            release(mine);
            (theirs != NONE).then_some(theirs)
        }
    }
}

#[cfg(unix)]
fn reserve() -> usize {
    // SAFETY: a fresh anonymous private mapping at an address the kernel chooses;
    // its pages are given memory only when first written (MAP_NORESERVE), and the
    // result is checked.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            REGION,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        NONE
    } else {
        p as usize
    }
}

#[cfg(not(unix))]
fn reserve() -> usize {
    NONE
}

/// Gives back a region that lost the race to be the one.
fn release(region: usize) {
    #[cfg(unix)]
    if region != NONE {
        // SAFETY: `region` is a mapping of REGION bytes made by `reserve` that
        // nothing else has seen.
        unsafe {
            libc::munmap(region as *mut libc::c_void, REGION);
        }
    }
    #[cfg(not(unix))]
    let _ = region;
}

/// `size` bytes aligned to `align` from the region, if it has room.
fn bump(size: usize, align: usize) -> Option<*mut u8> {
    let base = base()?;
    let mut next = NEXT.load(Ordering::Relaxed);
    loop {
        // `base` is page-aligned, so aligning the offset aligns the address.
        let start = next.checked_add(align - 1)? & !(align - 1);
        let end = start.checked_add(size).filter(|&e| e <= REGION)?;
        match NEXT.compare_exchange_weak(next, end, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some((base + start) as *mut u8),
            Err(now) => next = now,
        }
    }
}

/// The offset of `ptr` in the region, when it is in it.
fn offset(ptr: *mut u8) -> Option<usize> {
    let base = BASE.load(Ordering::Acquire);
    let addr = ptr as usize;
    (base != 0 && base != NONE && addr >= base && addr - base < REGION).then(|| addr - base)
}

fn is_small(layout: Layout) -> bool {
    layout.size() <= SMALL && layout.align() <= MAX_ALIGN && !UNPACKED.load(Ordering::Relaxed)
}

// SAFETY: every block handed out is either the system allocator's (and goes back
// to it, with the same layout) or `layout.size()` bytes of the region aligned to
// `layout.align()`, which no other live block overlaps: `NEXT` only moves past a
// block when it is handed out, and moves back over one only when the block being
// freed (or resized) is the last one, by a compare-exchange on its exact end.
unsafe impl GlobalAlloc for Arena {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if is_small(layout) {
            if let Some(p) = bump(layout.size(), layout.align()) {
                return p;
            }
        }
        // SAFETY: the caller's layout, passed on (non-zero size, as for us).
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if is_small(layout) {
            if let Some(p) = bump(layout.size(), layout.align()) {
                // SAFETY: `p` is `layout.size()` writable bytes just handed out
                // (a block given back and handed out again holds old bytes).
                unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
                return p;
            }
        }
        // SAFETY: as in `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match offset(ptr) {
            Some(start) => {
                // The last block: the region's free space starts at it again.
                let end = start + layout.size();
                let _ = NEXT.compare_exchange(end, start, Ordering::Relaxed, Ordering::Relaxed);
            }
            // SAFETY: a block of the system allocator's with its layout (the
            // caller's contract).
            None => unsafe { System.dealloc(ptr, layout) },
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Some(start) = offset(ptr) else {
            // SAFETY: a block of the system allocator's, with the caller's contract.
            return unsafe { System.realloc(ptr, layout, new_size) };
        };
        if new_size <= layout.size() {
            // Shrinking: the block keeps its bytes (and its end, for `dealloc`,
            // which then sees the new size: the last block's tail stays lost).
            return ptr;
        }
        // Growing the last block: in place, when the region has room.
        let (end, new_end) = (start + layout.size(), start.saturating_add(new_size));
        if new_end <= REGION
            && NEXT
                .compare_exchange(end, new_end, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            return ptr;
        }
        // SAFETY: `new_size` is non-zero and, rounded up to the alignment, does
        // not overflow (the caller's contract); the layout only grows.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: as in `alloc`.
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: the old block's `layout.size()` bytes are readable, the new
            // block is larger, and the two do not overlap (both are live).
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size());
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test: the region is shared state.
    #[test]
    fn blocks_are_packed_given_back_when_last_and_moved_when_not() {
        let a = Arena;
        let l = |size, align| Layout::from_size_align(size, align).unwrap();
        unsafe {
            let p = a.alloc(l(24, 8));
            let q = a.alloc(l(5, 1));
            let r = a.alloc(l(16, 16));
            if offset(p).is_none() {
                // No region on this platform: all from the system allocator.
                for (x, s, al) in [(p, 24, 8), (q, 5, 1), (r, 16, 16)] {
                    a.dealloc(x, l(s, al));
                }
                return;
            }
            // Packed, aligned, not overlapping.
            assert_eq!(q as usize, p as usize + 24);
            assert_eq!(r as usize % 16, 0);
            assert!(r as usize >= q as usize + 5 && r as usize - (q as usize + 5) < 16);
            // The last block, freed, is handed out again.
            a.dealloc(r, l(16, 16));
            let r2 = a.alloc(l(16, 16));
            assert_eq!(r2, r);
            // The last block grows in place (past SMALL too) and keeps its bytes.
            std::ptr::write_bytes(r2, 7, 16);
            let grown = a.realloc(r2, l(16, 16), 4096);
            assert_eq!(grown, r2);
            assert_eq!(*grown.add(15), 7);
            // A block that is not the last one moves, with its bytes.
            std::ptr::write_bytes(q, 9, 5);
            let moved = a.realloc(q, l(5, 1), 64);
            assert_ne!(moved, q);
            assert_eq!(std::slice::from_raw_parts(moved, 5), &[9; 5]);
            // Large requests go to the system allocator, and small ones too while
            // packing is off (freed by address either way).
            let big = a.alloc(l(SMALL + 1, 8));
            assert!(offset(big).is_none());
            a.dealloc(big, l(SMALL + 1, 8));
            Arena::pack(false);
            let loose = a.alloc(l(24, 8));
            assert!(offset(loose).is_none());
            Arena::pack(true);
            a.dealloc(loose, l(24, 8));
            // Zeroed blocks are zero even where a freed block left bytes.
            a.dealloc(moved, l(64, 1));
            let z = a.alloc_zeroed(l(64, 1));
            assert_eq!(std::slice::from_raw_parts(z, 64), &[0; 64]);
            for (x, s, al) in [(z, 64, 1), (grown, 4096, 16), (p, 24, 8)] {
                a.dealloc(x, l(s, al));
            }
        }
    }
}
