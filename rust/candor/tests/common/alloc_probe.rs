//! A global allocator for tests that measure what a piece of code allocates on its own
//! thread: how many allocations it makes ([`count`]) and the largest single request
//! ([`largest`]). A test binary installs it with
//! `#[global_allocator] static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;`.
//! Every call goes to the system allocator unchanged; only calls made on a thread
//! while it measures are recorded, so tests running in parallel do not mix.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Probe;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    // `try_with`: the thread-locals may be gone while the thread is being torn down.
    let _ = ON.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            let _ = LARGEST.try_with(|m| m.set(m.get().max(size)));
        }
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; recording touches
// only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Probe {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Runs `f` with recording on (its result dropped after recording stops) and returns
/// the allocations it made on this thread and the largest of them.
fn measure<T>(f: impl FnOnce() -> T) -> (usize, usize) {
    COUNT.with(|c| c.set(0));
    LARGEST.with(|m| m.set(0));
    ON.with(|on| on.set(true));
    let out = f();
    ON.with(|on| on.set(false));
    drop(out);
    (COUNT.with(Cell::get), LARGEST.with(Cell::get))
}

/// How many allocations `f` makes on this thread.
#[allow(dead_code)]
pub fn count<T>(f: impl FnOnce() -> T) -> usize {
    measure(f).0
}

/// The largest single allocation `f` makes on this thread.
#[allow(dead_code)]
pub fn largest<T>(f: impl FnOnce() -> T) -> usize {
    measure(f).1
}
