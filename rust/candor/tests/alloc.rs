//! Heap allocations per decode, counted by a global allocator (this binary only):
//! candor allocates no more than candid, and in the steady state no more than the
//! decoded value itself needs. `cargo test -p candor --test alloc -- --nocapture`
//! prints the table.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the thread-locals may be gone while the thread is being torn down.
    let _ = ON.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; counting touches
// only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations (alloc, alloc_zeroed and realloc calls) made by `f` on this thread;
/// the value `f` returns is dropped after counting.
fn count<T>(f: impl FnOnce() -> T) -> usize {
    COUNT.with(|c| c.set(0));
    ON.with(|on| on.set(true));
    let out = f();
    ON.with(|on| on.set(false));
    drop(out);
    COUNT.with(|c| c.get())
}

mod ours {
    use candor::{CandidType, Deserialize};
    #[derive(CandidType, Deserialize, Clone)]
    pub struct Fixed4 {
        pub a: u64,
        pub b: u32,
        pub c: i16,
        pub d: bool,
    }
    #[derive(CandidType, Deserialize, Clone)]
    pub struct Rec17 {
        pub f0: u64,
        pub f1: u32,
        pub f2: u16,
        pub f3: u8,
        pub f4: i64,
        pub f5: i32,
        pub f6: i16,
        pub f7: i8,
        pub f8: bool,
        pub f9: f64,
        pub f10: f32,
        pub f11: u64,
        pub f12: u64,
        pub f13: u32,
        pub f14: i64,
        pub f15: bool,
        pub f16: u8,
    }
}

mod theirs {
    use candid::{CandidType, Deserialize};
    #[derive(CandidType, Deserialize, Clone)]
    pub struct Fixed4 {
        pub a: u64,
        pub b: u32,
        pub c: i16,
        pub d: bool,
    }
    #[derive(CandidType, Deserialize, Clone)]
    pub struct Rec17 {
        pub f0: u64,
        pub f1: u32,
        pub f2: u16,
        pub f3: u8,
        pub f4: i64,
        pub f5: i32,
        pub f6: i16,
        pub f7: i8,
        pub f8: bool,
        pub f9: f64,
        pub f10: f32,
        pub f11: u64,
        pub f12: u64,
        pub f13: u32,
        pub f14: i64,
        pub f15: bool,
        pub f16: u8,
    }
}

fn rec17(i: u64) -> theirs::Rec17 {
    theirs::Rec17 {
        f0: i,
        f1: 1,
        f2: 2,
        f3: 3,
        f4: -4,
        f5: -5,
        f6: -6,
        f7: -7,
        f8: true,
        f9: 0.5,
        f10: 1.5,
        f11: u64::MAX,
        f12: 12,
        f13: 13,
        f14: -14,
        f15: false,
        f16: 16,
    }
}

/// One row: the case, the allocations of cloning the decoded value (what the value
/// itself needs), and (first, steady-state) decodes in each crate.
struct Row {
    case: &'static str,
    needs: usize,
    ours: (usize, usize),
    theirs: (usize, usize),
}

/// Decodes `bytes` twice with each crate: the first decode of a type in a thread
/// ("cold") and the next ones ("warm", the steady state of a canister).
macro_rules! row {
    ($case:expr, $bytes:expr, $ours:ty, $theirs:ty) => {{
        let bytes: Vec<u8> = $bytes;
        let ours_cold = count(|| candor::decode_args::<$ours>(&bytes).unwrap());
        let value = candor::decode_args::<$ours>(&bytes).unwrap();
        let needs = count(|| value.clone());
        let ours_warm = count(|| candor::decode_args::<$ours>(&bytes).unwrap());
        let theirs_cold = count(|| candid::decode_args::<$theirs>(&bytes).unwrap());
        let theirs_warm = count(|| candid::decode_args::<$theirs>(&bytes).unwrap());
        Row {
            case: $case,
            needs,
            ours: (ours_cold, ours_warm),
            theirs: (theirs_cold, theirs_warm),
        }
    }};
}

#[test]
fn allocations_per_decode() {
    let rows = vec![
        row!(
            "`(nat64, text)`",
            candid::encode_args((42u64, "hello world".to_string())).unwrap(),
            (u64, String),
            (u64, String)
        ),
        row!(
            "record of 4 fixed-width fields",
            candid::encode_one(theirs::Fixed4 {
                a: 1,
                b: 2,
                c: 3,
                d: true
            })
            .unwrap(),
            (ours::Fixed4,),
            (theirs::Fixed4,)
        ),
        row!(
            "`vec nat64`, 1,000 elements",
            candid::encode_one((0..1000u64).collect::<Vec<_>>()).unwrap(),
            (Vec<u64>,),
            (Vec<u64>,)
        ),
        row!(
            "`vec` of a 17-field record, 100 elements",
            candid::encode_one((0..100).map(rec17).collect::<Vec<_>>()).unwrap(),
            (Vec<ours::Rec17>,),
            (Vec<theirs::Rec17>,)
        ),
        row!(
            "`BTreeMap<String, Nat>`, 100 entries",
            candid::encode_one(
                (0..100u64)
                    .map(|i| (format!("account-{i:03}"), candid::Nat::from(1_000_000 + i)))
                    .collect::<BTreeMap<_, _>>()
            )
            .unwrap(),
            (BTreeMap<String, candor::Nat>,),
            (BTreeMap<String, candid::Nat>,)
        ),
    ];
    println!();
    println!("| Decoding | the value needs | candor (first / steady) | candid (first / steady) |");
    println!("|---|---|---|---|");
    for r in &rows {
        println!(
            "| {} | {} | {} / {} | {} / {} |",
            r.case, r.needs, r.ours.0, r.ours.1, r.theirs.0, r.theirs.1
        );
    }
    for r in &rows {
        assert!(
            r.ours.1 <= r.theirs.1,
            "{}: candor {:?} > candid {:?}",
            r.case,
            r.ours,
            r.theirs
        );
        assert!(
            r.ours.0 <= r.theirs.0,
            "{}: candor {:?} > candid {:?}",
            r.case,
            r.ours,
            r.theirs
        );
        assert_eq!(
            r.ours.1, r.needs,
            "{}: steady-state candor allocations beyond the value",
            r.case
        );
    }
}
