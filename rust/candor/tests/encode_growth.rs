//! How much memory a new message asks the allocator for while it is written, counted
//! by a global allocator (this binary only). A vector whose elements grow along it
//! (numbers counting up, as LEB128) must reserve about its final size once instead of
//! doubling the buffer from an estimate that fell short: every doubling is a new block
//! plus a copy, and on wasm the old blocks stay part of the heap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Measuring;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    /// Bytes of every block asked for (alloc and realloc targets).
    static ASKED: Cell<usize> = const { Cell::new(0) };
}

fn ask(size: usize) {
    // `try_with`: the thread-locals may be gone while the thread is being torn down.
    let _ = ON.try_with(|on| {
        if on.get() {
            let _ = ASKED.try_with(|c| c.set(c.get() + size));
        }
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; measuring touches
// only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Measuring {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ask(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ask(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A shrink gives memory back; only growth asks for more.
        if new_size > layout.size() {
            ask(new_size);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Measuring = Measuring;

/// The message encoding `make()`'s value gives, after checking that writing it
/// asked the allocator for at most an eighth more than its size. Measured on a fresh
/// thread: the first message of its types there, which has no size of an earlier
/// message to go by (the value is built outside the count).
fn reserves_about_its_size<T: candor::CandidType + 'static>(make: fn() -> T) -> Vec<u8> {
    let (message, asked) = std::thread::spawn(move || {
        let data = make();
        ASKED.with(|c| c.set(0));
        ON.with(|on| on.set(true));
        let message = candor::encode_one(&data).unwrap();
        ON.with(|on| on.set(false));
        (message, ASKED.with(|c| c.get()))
    })
    .join()
    .unwrap();
    assert!(
        asked <= message.len() + message.len() / 8,
        "asked for {asked} bytes for a message of {}",
        message.len()
    );
    message
}

#[test]
fn a_vector_of_growing_numbers_reserves_about_its_size_once() {
    // 1-byte numbers first, 3-byte ones for most of the vector: the first element
    // alone puts the message at a third of its size.
    let message =
        reserves_about_its_size(|| (0..100_000u64).map(candor::Nat::from).collect::<Vec<_>>());
    assert!(message.capacity() - message.len() <= 32);
    let back: Vec<candor::Nat> = candor::decode_one(&message).unwrap();
    assert_eq!(back.len(), 100_000);
    assert_eq!(back[99_999], candor::Nat::from(99_999u64));
}

#[test]
fn a_vector_of_growing_text_reserves_about_its_size_once() {
    reserves_about_its_size(|| (0..50_000u64).map(|i| i.to_string()).collect::<Vec<_>>());
}

/// An element that fails to encode when odd, naming itself.
struct EvenOnly(u32);

impl candor::CandidType for EvenOnly {
    fn _ty() -> candor::types::Type {
        u32::ty()
    }
    fn idl_serialize<S: candor::types::Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        if self.0 % 2 == 1 {
            return Err(serde::ser::Error::custom(format!("odd {}", self.0)));
        }
        serializer.serialize_nat32(self.0)
    }
}

/// Long enough for the vector to sample its last element.
fn evens() -> Vec<EvenOnly> {
    (0..300).map(|i| EvenOnly(2 * i)).collect()
}

#[test]
fn the_first_failing_element_reports_its_error_although_the_last_is_sampled_first() {
    let mut data = evens();
    data[5] = EvenOnly(5);
    data[299] = EvenOnly(7);
    let err = candor::encode_one(&data).unwrap_err();
    assert!(err.to_string().contains("odd 5"), "{err}");
    // A failing last element only: the sample counts as empty, the write reports it.
    let mut data = evens();
    data[299] = EvenOnly(9);
    let err = candor::encode_one(&data).unwrap_err();
    assert!(err.to_string().contains("odd 9"), "{err}");
    // Nothing fails: the sample leaves no bytes behind.
    let message = candor::encode_one(evens()).unwrap();
    let back: Vec<u32> = candor::decode_one(&message).unwrap();
    assert_eq!(back, (0..300).map(|i| 2 * i).collect::<Vec<u32>>());
}
