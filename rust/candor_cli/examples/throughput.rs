//! Throughput of `explain` and `assemble` (MiB per second of what each reads: the
//! message for `explain`, the explanation for `assemble`; one core; the best of five
//! quarter-second windows), beside candor's own decode-to-text on the same message,
//! on two messages: a 1 MiB blob inside a record, and 10,000 small records. `explain`
//! runs as the command does, streaming through its buffer into a writer. Prints a
//! markdown table.
//!
//! A counting global allocator gives the allocations each call makes, divided by
//! the lines of the explanation (one per element of the message).
//!
//! `cargo run --release -p candor_cli --example throughput > benches/cli_throughput.md`

use candor::{CandidType, Deserialize, Encode, IDLArgs};
use candor_cli::assemble::assemble;
use candor_cli::explain::{explain, explain_to, Context};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting allocations (and reallocations).
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded as is to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by one call of `f`.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    f();
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[derive(CandidType, Deserialize)]
struct Small {
    id: u64,
    name: String,
    owner: candor::Principal,
    tags: Vec<u16>,
    note: Option<String>,
}

#[derive(CandidType, Deserialize)]
struct Upload {
    name: String,
    #[serde(with = "serde_bytes")]
    content: Vec<u8>,
}

/// MiB/s of `bytes` per call of `f`: the best of five windows of a quarter
/// second each (at least 3 calls per window), so that other work on a shared
/// machine slows some windows but not the figure.
fn rate(bytes: usize, mut f: impl FnMut()) -> f64 {
    let mut best = 0f64;
    for _ in 0..5 {
        let start = Instant::now();
        let mut calls = 0u32;
        while start.elapsed() < Duration::from_millis(250) || calls < 3 {
            f();
            calls += 1;
        }
        let per_call = start.elapsed().as_secs_f64() / f64::from(calls);
        best = best.max(bytes as f64 / per_call / (1 << 20) as f64);
    }
    best
}

fn main() {
    let blob = Encode!(&Upload {
        name: "report.bin".into(),
        content: (0..1 << 20).map(|i| (i * 7 % 251) as u8).collect(),
    })
    .unwrap();
    let records: Vec<Small> = (0..10_000u64)
        .map(|i| Small {
            id: i,
            name: format!("item-{i}"),
            owner: candor::Principal::anonymous(),
            tags: vec![1, 2, 3],
            note: (i % 3 == 0).then(|| "checked".to_string()),
        })
        .collect();
    let records = Encode!(&records).unwrap();

    let did = "type Small = record { id : nat64; name : text; owner : principal; tags : vec nat16; note : opt text }; service : { put : (vec Small) -> () }";
    let prog: candor_parser::IDLProg = did.parse().unwrap();
    let mut env = candor::TypeEnv::new();
    let actor = candor_parser::check_prog(&mut env, &prog).unwrap().unwrap();
    let method = env.get_method(&actor, "put").unwrap();
    let named = Context::from_interface(&env, &method.args);

    // `THROUGHPUT_PROFILE=records` (or `blob`): only explain that message, 20
    // times, for `perf stat -e instructions` or callgrind on a loaded machine.
    if let Ok(which) = std::env::var("THROUGHPUT_PROFILE") {
        let m = if which == "blob" { &blob } else { &records };
        let cx = if std::env::var_os("THROUGHPUT_DID").is_some() {
            named
        } else {
            Context::default()
        };
        for _ in 0..20 {
            std::hint::black_box(explain_to(m, &cx, &mut std::io::sink()).unwrap());
        }
        return;
    }
    println!(
        "| message | bytes | explain | explain with .did | explanation bytes (lines) | assemble | decode to text (candor) | allocations per line: explain / with .did / assemble |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, m) in [("1 MiB blob", &blob), ("10,000 small records", &records)] {
        let text = explain(m, &Context::default()).text().into_owned();
        assert_eq!(&assemble(&text, false).unwrap(), m);
        // As the command runs: through the reused buffer into a writer (here
        // one that drops the bytes, as writing to /dev/null would).
        let plain = rate(m.len(), || {
            std::hint::black_box(explain_to(m, &Context::default(), &mut std::io::sink()).unwrap());
        });
        let with_did = rate(m.len(), || {
            std::hint::black_box(explain_to(m, &named, &mut std::io::sink()).unwrap());
        });
        let asm = rate(text.len(), || {
            std::hint::black_box(assemble(&text, false).unwrap());
        });
        let decode = rate(m.len(), || {
            std::hint::black_box(IDLArgs::from_bytes(m).unwrap().to_string());
        });
        let lines = text.lines().count();
        let per_line = |calls: usize| calls as f64 / lines as f64;
        let a_plain = allocations(|| {
            std::hint::black_box(explain_to(m, &Context::default(), &mut std::io::sink()).unwrap());
        });
        let a_did = allocations(|| {
            std::hint::black_box(explain_to(m, &named, &mut std::io::sink()).unwrap());
        });
        let a_asm = allocations(|| {
            std::hint::black_box(assemble(&text, false).unwrap());
        });
        println!(
            "| {name} | {} | {plain:.0} MiB/s | {with_did:.0} MiB/s | {} ({lines}) | {asm:.0} MiB/s | {decode:.0} MiB/s | {:.4} / {:.4} / {:.4} ({a_plain} / {a_did} / {a_asm} per call) |",
            m.len(),
            text.len(),
            per_line(a_plain),
            per_line(a_did),
            per_line(a_asm),
        );
    }
}
