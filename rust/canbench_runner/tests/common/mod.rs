//! What the end-to-end tests share: temporary directories, and benchmark canisters written in
//! WAT whose benchmarks reply with fixed results (so expected outputs do not depend on the
//! cost model) or do real work (to exercise it).

#![allow(dead_code)]

use candor::CandidType;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A directory removed when the test ends.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "canbench-test-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether `tool` runs.
/// Runs the runner's binary in `dir` with `args`, as a user would: no configuration file
/// named by the environment, no colours.
pub fn canbench_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_canbench"))
        .args(args)
        .current_dir(dir)
        .env_remove("CANBENCH_CFG_FILE")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

pub fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[derive(CandidType, Clone, Default)]
struct Measurement {
    calls: u64,
    instructions: u64,
    heap_increase: u64,
    stable_memory_increase: u64,
}

#[derive(CandidType, Clone, Default)]
struct BenchResult {
    total: Measurement,
    scopes: BTreeMap<String, Measurement>,
}

/// A benchmark that replies with a fixed result.
#[derive(Clone)]
pub struct Bench {
    name: String,
    result: BenchResult,
}

impl Bench {
    pub fn new(name: &str, instructions: u64) -> Bench {
        let mut result = BenchResult::default();
        result.total.instructions = instructions;
        Bench {
            name: name.to_string(),
            result,
        }
    }

    pub fn scope(mut self, scope: &str, instructions: u64) -> Bench {
        let m = Measurement {
            calls: 1,
            instructions,
            ..Default::default()
        };
        self.result.scopes.insert(scope.to_string(), m);
        self
    }

    pub fn heap(mut self, pages: u64) -> Bench {
        self.result.total.heap_increase = pages;
        self
    }

    pub fn stable(mut self, pages: u64) -> Bench {
        self.result.total.stable_memory_increase = pages;
        self
    }
}

/// WAT bytes for a data segment.
pub fn wat_bytes(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        write!(s, "\\{b:02x}").unwrap();
        s
    })
}

/// A benchmark's reply, encoded as canbench-rs encodes it.
pub fn encoded(bench: &Bench) -> Vec<u8> {
    candor::encode_one(&bench.result).unwrap()
}

/// A canister exporting each of `benches` as `canister_query __canbench__NAME`, replying with
/// its result encoded as canbench-rs does.
pub fn bench_module(benches: &[Bench]) -> Vec<u8> {
    wat::parse_str(bench_module_wat(benches)).unwrap()
}

/// [`bench_module`] as WAT text.
pub fn bench_module_wat(benches: &[Bench]) -> String {
    let mut data = String::new();
    let mut funcs = String::new();
    let mut at = 0usize;
    for b in benches {
        let reply = encoded(b);
        writeln!(data, "  (data (i32.const {at}) \"{}\")", wat_bytes(&reply)).unwrap();
        writeln!(
            funcs,
            "  (func (export \"canister_query __canbench__{}\")\n    (call $append (i32.const {at}) (i32.const {}))\n    (call $reply))",
            b.name,
            reply.len()
        )
        .unwrap();
        at += reply.len();
    }
    format!(
        "(module
  (import \"ic0\" \"msg_reply_data_append\" (func $append (param i32 i32)))
  (import \"ic0\" \"msg_reply\" (func $reply))
  (memory (export \"memory\") 1)
{data}{funcs})"
    )
}
