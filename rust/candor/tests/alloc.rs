//! Heap allocations per decode and encode, counted by a global allocator (this
//! binary only): the allocation gate. candor allocates no more than candid, in the
//! steady state a decode allocates exactly what the decoded value owns, and encoding
//! into a reused buffer allocates nothing. `cargo test -p candor --test alloc --
//! --nocapture` prints the tables (docs/benchmarks.md's come from that output).

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
        // Only a growing reallocation asks for memory; a shrinking one (a new large
        // message giving back its spare room) returns some.
        if new_size > layout.size() {
            bump();
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations (alloc, alloc_zeroed and growing realloc calls) made by `f` on this thread;
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

/// The small messages canisters receive most, in both crates (types as the public
/// ICRC-1 and HTTP gateway interfaces define them).
macro_rules! traffic_types {
    ($krate:ident) => {
        use serde_bytes::ByteBuf;
        use $krate::{CandidType, Deserialize, Nat, Principal};
        #[derive(CandidType, Deserialize, Clone)]
        pub struct Account {
            pub owner: Principal,
            pub subaccount: Option<ByteBuf>,
        }
        #[derive(CandidType, Deserialize, Clone)]
        pub struct TransferArg {
            pub from_subaccount: Option<ByteBuf>,
            pub to: Account,
            pub amount: Nat,
            pub fee: Option<Nat>,
            pub memo: Option<ByteBuf>,
            pub created_at_time: Option<u64>,
        }
        #[derive(CandidType, Deserialize, Clone)]
        pub struct HttpRequest {
            pub method: String,
            pub url: String,
            pub headers: Vec<(String, String)>,
            pub body: ByteBuf,
            pub certificate_version: Option<u16>,
        }
        pub fn account(full: bool) -> Account {
            Account {
                owner: Principal::from_slice(&[0, 0, 0, 0, 0, 0, 0, 2, 1, 1]),
                subaccount: full.then(|| ByteBuf::from(vec![7; 32])),
            }
        }
        pub fn transfer(full: bool) -> TransferArg {
            TransferArg {
                from_subaccount: None,
                to: account(full),
                amount: Nat::from(250_000u64),
                fee: full.then(|| Nat::from(10_000u64)),
                memo: full.then(|| ByteBuf::from(b"invoice 42".to_vec())),
                created_at_time: full.then_some(1_700_000_000_000_000_000),
            }
        }
        pub fn http_request() -> HttpRequest {
            HttpRequest {
                method: "GET".into(),
                url: "/accounts/42?format=json".into(),
                headers: (0..10)
                    .map(|i| (format!("x-header-{i}"), format!("value {i}")))
                    .collect(),
                body: ByteBuf::from(b"{}".to_vec()),
                certificate_version: Some(2),
            }
        }
    };
}

mod ours_traffic {
    traffic_types!(candor);
}

mod theirs_traffic {
    traffic_types!(candid);
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
    ($case:expr, $bytes:expr, $ours:ty, $theirs:ty) => {
        row!($case, $bytes, $ours, $theirs, 0)
    };
    ($case:expr, $bytes:expr, $ours:ty, $theirs:ty, $build:expr) => {{
        let bytes: Vec<u8> = $bytes;
        let ours_cold = count(|| candor::decode_args::<$ours>(&bytes).unwrap());
        let value = candor::decode_args::<$ours>(&bytes).unwrap();
        // `$build`: allocations the decoder makes to build the value and frees
        // before returning it (besides the value's own).
        let needs = count(|| value.clone()) + $build;
        // The steady state takes the header kept after the first two decodes (a
        // header with a type table; an empty one is parsed, which is cheaper): a
        // header-cache hit allocates nothing beyond the value.
        let hits = candor::de::header_cache_hits();
        let ours_warm = count(|| candor::decode_args::<$ours>(&bytes).unwrap());
        let has_table = bytes[4] != 0;
        assert_eq!(
            candor::de::header_cache_hits(),
            hits + u64::from(has_table),
            "{}: the steady-state decode and the header cache",
            $case
        );
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
            (BTreeMap<String, candid::Nat>,),
            // Direct decoding builds the map from its entries at once
            // (spec/decoder.md, fast path 16): the vector of entries, and the
            // stable sort's scratch (100 entries do not fit its stack buffer).
            2
        ),
        row!(
            "ICRC-1 `icrc1_balance_of(Account)`",
            candid::encode_one(theirs_traffic::account(true)).unwrap(),
            (ours_traffic::Account,),
            (theirs_traffic::Account,)
        ),
        row!(
            "ICRC-1 `icrc1_transfer`, to and amount",
            candid::encode_one(theirs_traffic::transfer(false)).unwrap(),
            (ours_traffic::TransferArg,),
            (theirs_traffic::TransferArg,)
        ),
        row!(
            "ICRC-1 `icrc1_transfer`, every field",
            candid::encode_one(theirs_traffic::transfer(true)).unwrap(),
            (ours_traffic::TransferArg,),
            (theirs_traffic::TransferArg,)
        ),
        row!(
            "`http_request`, 10 headers",
            candid::encode_one(theirs_traffic::http_request()).unwrap(),
            (ours_traffic::HttpRequest,),
            (theirs_traffic::HttpRequest,)
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

/// Allocations of a steady-state encode (after one warm-up call of the same closure).
fn steady<T>(mut f: impl FnMut() -> T) -> usize {
    drop(f());
    count(f)
}

#[test]
fn allocations_per_encode() {
    let transfer_ours = ours_traffic::transfer(true);
    let transfer_theirs = theirs_traffic::transfer(true);
    let records_ours: Vec<ours::Rec17> = (0..100)
        .map(|i| candor::decode_one(&candid::encode_one(rec17(i)).unwrap()).unwrap())
        .collect();
    let records_theirs: Vec<theirs::Rec17> = (0..100).map(rec17).collect();

    let mut out = Vec::new();
    let into_transfer = steady(|| {
        out.clear();
        candor::encode_args_into(&(&transfer_ours,), &mut out).unwrap();
    });
    let request = ours_traffic::http_request();
    let into_request = steady(|| {
        out.clear();
        candor::encode_args_into(&(&request,), &mut out).unwrap();
    });
    let into_records = steady(|| {
        out.clear();
        candor::encode_args_into(&(&records_ours,), &mut out).unwrap();
    });
    let mut builder = candor::IDLBuilder::new();
    let builder_transfer = steady(|| {
        builder.clear();
        out.clear();
        builder.arg(&transfer_ours).unwrap();
        builder.serialize_into(&mut out).unwrap();
    });
    let owned_ours = steady(|| candor::encode_one(&transfer_ours).unwrap());
    let owned_theirs = steady(|| candid::encode_one(&transfer_theirs).unwrap());
    let records_owned_ours = steady(|| candor::encode_one(&records_ours).unwrap());
    let records_owned_theirs = steady(|| candid::encode_one(&records_theirs).unwrap());

    println!();
    println!("| Encoding (steady state) | candor | candid |");
    println!("|---|---|---|");
    println!("| ICRC-1 transfer, `encode_one` (a new message) | {owned_ours} | {owned_theirs} |");
    println!("| ICRC-1 transfer, `encode_args_into` a reused buffer | {into_transfer} | — |");
    println!(
        "| ICRC-1 transfer, a cleared `IDLBuilder` into a reused buffer | {builder_transfer} | — |"
    );
    println!(
        "| `http_request`, 10 headers, `encode_args_into` a reused buffer | {into_request} | — |"
    );
    println!(
        "| `vec` of a 17-field record, 100 elements, `encode_one` | {records_owned_ours} | {records_owned_theirs} |"
    );
    println!("| the same, `encode_args_into` a reused buffer | {into_records} | — |");

    assert_eq!(
        into_transfer, 0,
        "encode_args_into a reused buffer allocated"
    );
    assert_eq!(
        into_records, 0,
        "encode_args_into a reused buffer allocated"
    );
    assert_eq!(
        into_request, 0,
        "encode_args_into a reused buffer allocated"
    );
    assert_eq!(builder_transfer, 0, "a cleared IDLBuilder allocated");
    // A new message is one allocation: the message itself, sized from the last one
    // (a message of 4 KiB or more then gives back its spare room, a shrink).
    assert_eq!(owned_ours, 1, "encode_one allocated beyond the message");
    assert_eq!(
        records_owned_ours, 1,
        "encode_one allocated beyond the message"
    );
    assert!(owned_ours <= owned_theirs && records_owned_ours <= records_owned_theirs);
}
