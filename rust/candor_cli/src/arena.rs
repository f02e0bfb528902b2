//! The `candor` binary's allocator: small blocks from one region, by size class;
//! the rest from the system allocator.
//!
//! A decoded message is a tree of many small blocks (a box per variant, a string
//! per label). The system allocator spends more on finding and splitting each of
//! them than the decoder spends on the value, and pads each with a header, so the
//! tree spreads over more fresh pages (each a fault that costs microseconds on a
//! virtual machine). Here a block of up to [`SMALL`] bytes is rounded up to a
//! multiple of 16 (its class) and is either the last block freed in its class or
//! the next bytes of one region: a list pop or a pointer bump, packed with its
//! neighbours.
//!
//! A freed block goes back to its class's list (the last block of the region
//! grown in place past [`SMALL`] goes back to the region). The region has a fixed
//! size ([`REGION`], reserved, not touched until used): once it is full, new
//! blocks come from the system allocator, so the region never holds more than
//! that. Where no region can be reserved, everything goes to the system allocator.
//! One lock guards the lists: the command runs on one thread, so it is never
//! contended.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// The allocator; `candor`'s `main.rs` installs it.
pub struct Arena;

/// Bytes of address space reserved for small blocks.
const REGION: usize = 64 << 20;
/// Requests up to this size (and alignment up to [`GRAIN`]) are served here.
const SMALL: usize = 1024;
/// Every block starts at a multiple of this and is a multiple of it long.
const GRAIN: usize = 16;
const CLASSES: usize = SMALL / GRAIN + 1;
/// `State::base` when no region could be reserved.
const NONE: usize = usize::MAX;

struct State {
    /// The region's address: 0 before the first request, [`NONE`] without one.
    base: usize,
    /// The offset of the first byte of the region never handed out.
    next: usize,
    /// Per class (blocks of `class * GRAIN` bytes), the last block freed, 0 for
    /// none; a free block's first word is the address of the one freed before it.
    free: [usize; CLASSES],
}

struct Shared(UnsafeCell<State>);

// SAFETY: the state is only reached through `with`, which holds `LOCK`.
unsafe impl Sync for Shared {}

static STATE: Shared = Shared(UnsafeCell::new(State {
    base: 0,
    next: 0,
    free: [0; CLASSES],
}));
static LOCK: AtomicBool = AtomicBool::new(false);

/// Runs `f` on the state, holding the lock (`f` neither allocates nor panics).
fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    while LOCK
        .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        std::hint::spin_loop();
    }
    // SAFETY: the lock is held, so this is the only reference to the state.
    let r = f(unsafe { &mut *STATE.0.get() });
    LOCK.store(false, Ordering::Release);
    r
}

/// `size` rounded up to the grain: a class's block length.
fn rounded(size: usize) -> usize {
    size.div_ceil(GRAIN) * GRAIN
}

fn is_small(layout: Layout) -> bool {
    layout.size() <= SMALL && layout.align() <= GRAIN
}

impl State {
    /// The region's address, reserving it on first use; `None` without one.
    fn region(&mut self) -> Option<usize> {
        if self.base == 0 {
            self.base = reserve();
        }
        (self.base != NONE).then_some(self.base)
    }

    /// The offset of `ptr` in the region, when it is in it.
    fn offset(&self, ptr: *mut u8) -> Option<usize> {
        let addr = ptr as usize;
        (self.base != 0 && self.base != NONE && addr >= self.base && addr - self.base < REGION)
            .then(|| addr - self.base)
    }

    /// A block of `size` (at most [`SMALL`]) bytes: the last one freed in its
    /// class, or the region's next bytes.
    fn take(&mut self, size: usize) -> Option<*mut u8> {
        let base = self.region()?;
        let len = rounded(size);
        let slot = self.free.get_mut(len / GRAIN)?;
        if *slot != 0 {
            let block = *slot as *mut u8;
            // SAFETY: a free block of this class: at least GRAIN bytes, aligned,
            // its first word written by `give_back`, and no one else's.
            *slot = unsafe { block.cast::<usize>().read() };
            return Some(block);
        }
        let end = self.next.checked_add(len).filter(|&e| e <= REGION)?;
        let block = (base + self.next) as *mut u8;
        self.next = end;
        Some(block)
    }

    /// Takes back the block at `offset`, `size` bytes as last allocated.
    fn give_back(&mut self, offset: usize, size: usize) {
        let len = rounded(size);
        if offset + len == self.next {
            // The region's last block (small or grown in place): the region's
            // free space starts at it again.
            self.next = offset;
        } else if let Some(slot) = self.free.get_mut(len / GRAIN) {
            let block = (self.base + offset) as *mut usize;
            // SAFETY: a block of the region being freed: at least GRAIN bytes,
            // aligned, and no longer anyone else's.
            unsafe { block.write(*slot) };
            *slot = block as usize;
        }
        // A block grown past SMALL that is not the last stays unused.
    }

    /// Grows the block at `offset` from `old` to `new` bytes in place, when it is
    /// the region's last block and the region has room.
    fn grow(&mut self, offset: usize, old: usize, new: usize) -> bool {
        let end = offset.checked_add(rounded(new)).filter(|&e| e <= REGION);
        match end {
            Some(end) if offset + rounded(old) == self.next => {
                self.next = end;
                true
            }
            _ => false,
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

// SAFETY: every block handed out is either the system allocator's (and goes back
// to it, with the same layout) or at least `layout.size()` bytes of the region
// at a multiple of GRAIN (so aligned for `layout.align() <= GRAIN`), which no
// other live block overlaps: the region's bytes past `next` were never handed
// out, and a class's list holds only freed blocks of at least its length.
unsafe impl GlobalAlloc for Arena {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if is_small(layout) {
            if let Some(p) = with(|s| s.take(layout.size())) {
                return p;
            }
        }
        // SAFETY: the caller's layout, passed on (non-zero size, as for us).
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if is_small(layout) {
            if let Some(p) = with(|s| s.take(layout.size())) {
                // SAFETY: `p` is `layout.size()` writable bytes just handed out
                // (a freed block holds old bytes).
                unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
                return p;
            }
        }
        // SAFETY: as in `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let mine = with(|s| match s.offset(ptr) {
            Some(offset) => {
                s.give_back(offset, layout.size());
                true
            }
            None => false,
        });
        if !mine {
            // SAFETY: a block of the system allocator's with its layout (the
            // caller's contract).
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Shrinking keeps the block (freed later by its new size: the tail is not
        // reused); growing the region's last block moves its end.
        let in_place = with(|s| {
            s.offset(ptr).map(|offset| {
                rounded(new_size) <= rounded(layout.size())
                    || s.grow(offset, layout.size(), new_size)
            })
        });
        match in_place {
            // SAFETY: a block of the system allocator's, with the caller's contract.
            None => unsafe { System.realloc(ptr, layout, new_size) },
            Some(true) => ptr,
            Some(false) => {
                // SAFETY: `new_size` is non-zero and, rounded up to the alignment,
                // does not overflow (the caller's contract).
                let new_layout =
                    unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
                // SAFETY: as in `alloc`.
                let new = unsafe { self.alloc(new_layout) };
                if !new.is_null() {
                    // SAFETY: the old block's `layout.size()` bytes are readable,
                    // the new block is larger, and the two do not overlap (both
                    // are live).
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size());
                        self.dealloc(ptr, layout);
                    }
                }
                new
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_region(p: *mut u8) -> bool {
        with(|s| s.offset(p).is_some())
    }

    // One test: the region is shared state.
    #[test]
    fn blocks_are_packed_reused_by_class_and_moved_when_they_must() {
        let a = Arena;
        let l = |size, align| Layout::from_size_align(size, align).unwrap();
        unsafe {
            let p = a.alloc(l(24, 8));
            let q = a.alloc(l(5, 1));
            let r = a.alloc(l(16, 16));
            if !in_region(p) {
                // No region on this platform: all from the system allocator.
                for (x, s, al) in [(p, 24, 8), (q, 5, 1), (r, 16, 16)] {
                    a.dealloc(x, l(s, al));
                }
                return;
            }
            // Packed by class (24 bytes take 32), aligned to 16.
            assert_eq!(q as usize, p as usize + 32);
            assert_eq!(r as usize, q as usize + 16);
            // The last block, freed, is the region's again; another block freed
            // goes to its class and is the next of that class handed out.
            a.dealloc(r, l(16, 16));
            assert_eq!(a.alloc(l(16, 16)), r);
            a.dealloc(p, l(24, 8));
            let p2 = a.alloc(l(30, 2));
            assert_eq!(p2, p);
            // The last block grows in place (past SMALL too) and keeps its bytes.
            std::ptr::write_bytes(r, 7, 16);
            let grown = a.realloc(r, l(16, 16), 4096);
            assert_eq!(grown, r);
            assert_eq!(*grown.add(15), 7);
            // A block that is not the last one moves, with its bytes, and its
            // old place goes to its class.
            std::ptr::write_bytes(q, 9, 5);
            let moved = a.realloc(q, l(5, 1), 64);
            assert_ne!(moved, q);
            assert_eq!(std::slice::from_raw_parts(moved, 5), &[9; 5]);
            assert_eq!(a.alloc(l(1, 1)), q);
            // Shrinking keeps the block.
            assert_eq!(a.realloc(moved, l(64, 1), 20), moved);
            // Large or over-aligned requests go to the system allocator.
            let big = a.alloc(l(SMALL + 1, 8));
            assert!(!in_region(big));
            a.dealloc(big, l(SMALL + 1, 8));
            let aligned = a.alloc(l(32, 32));
            assert!(!in_region(aligned));
            a.dealloc(aligned, l(32, 32));
            // Zeroed blocks are zero even where a freed block left bytes.
            a.dealloc(moved, l(20, 1));
            let z = a.alloc_zeroed(l(20, 1));
            assert_eq!(z, moved);
            assert_eq!(std::slice::from_raw_parts(z, 20), &[0; 20]);
            for (x, s, al) in [(z, 20, 1), (grown, 4096, 16), (p2, 30, 2), (q, 1, 1)] {
                a.dealloc(x, l(s, al));
            }
        }
    }
}
