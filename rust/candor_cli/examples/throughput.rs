//! Throughput of `explain` and `assemble` (MiB per second of what each reads: the
//! message for `explain`, the explanation for `assemble`; one core), beside candor's
//! own decode-to-text on the same message, on two messages: a 1 MiB blob inside a
//! record, and 10,000 small records. Prints a markdown table.
//!
//! `cargo run --release -p candor_cli --example throughput > benches/cli_throughput.md`

use candor::{CandidType, Deserialize, Encode, IDLArgs};
use candor_cli::assemble::assemble;
use candor_cli::explain::{explain, Context};
use std::time::{Duration, Instant};

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

/// Runs `f` until a second has passed; returns MiB/s of `bytes` per call.
fn rate(bytes: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed() < Duration::from_secs(1) || calls < 3 {
        f();
        calls += 1;
    }
    let per_call = start.elapsed().as_secs_f64() / f64::from(calls);
    bytes as f64 / per_call / (1 << 20) as f64
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

    println!(
        "| message | bytes | explain | explain with .did | explanation bytes | assemble | decode to text (candor) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, m) in [("1 MiB blob", &blob), ("10,000 small records", &records)] {
        let text = explain(m, &Context::default()).text;
        assert_eq!(&assemble(&text, false).unwrap(), m);
        let plain = rate(m.len(), || {
            std::hint::black_box(explain(m, &Context::default()));
        });
        let with_did = rate(m.len(), || {
            std::hint::black_box(explain(m, &named));
        });
        let asm = rate(text.len(), || {
            std::hint::black_box(assemble(&text, false).unwrap());
        });
        let decode = rate(m.len(), || {
            std::hint::black_box(IDLArgs::from_bytes(m).unwrap().to_string());
        });
        println!(
            "| {name} | {} | {plain:.0} MiB/s | {with_did:.0} MiB/s | {} | {asm:.0} MiB/s | {decode:.0} MiB/s |",
            m.len(),
            text.len()
        );
    }
}
