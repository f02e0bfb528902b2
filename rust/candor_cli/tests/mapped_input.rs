//! Standard input redirected from a regular file, and `@FILE`, are mapped into
//! memory rather than read (src/mapped.rs). Each way of giving the same input
//! must give the same output and exit status: mapped (a file), read (a pipe, where
//! the mapping must not be tried), and mapped from the middle of a file (standard
//! input already partly read by someone else).

use std::io::{Seek, SeekFrom};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

mod common;

fn golden(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
        .display()
        .to_string()
}

/// A file in the test's own temporary directory holding `bytes`.
fn file_with(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("candor-mapped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn candor(args: &[&str], stdin: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_candor"))
        .args(args)
        .stdin(stdin)
        .output()
        .unwrap()
}

fn piped(args: &[&str], input: &[u8]) -> Output {
    common::output(args, input, None)
}

/// `args` on `input` from a file, from `@FILE`, and through a pipe: the same
/// output and status each way; returns it.
#[track_caller]
fn same_each_way(name: &str, args: &[&str], input: &[u8]) -> Output {
    let path = file_with(name, input);
    let from_file = candor(args, Stdio::from(std::fs::File::open(&path).unwrap()));
    let from_pipe = piped(args, input);
    assert_eq!(from_file, from_pipe, "{name}: file and pipe differ");
    if args.first() != Some(&"encode") {
        let at = format!("@{}", path.display());
        let mut with_at = vec![args[0], &at];
        with_at.extend_from_slice(&args[1..]);
        let from_at = candor(&with_at, Stdio::null());
        assert_eq!(from_at, from_pipe, "{name}: @FILE and pipe differ");
    }
    from_pipe
}

const TRANSFER: &str =
    "(record { to = record { owner = principal \"aaaaa-aa\"; subaccount = null }; \
     fee = null; memo = opt blob \"\\01\\02\"; from_subaccount = null; \
     created_at_time = null; amount = 1_000_000 : nat })";

#[test]
fn a_file_a_pipe_and_at_file_give_the_same_output() {
    let ledger = golden("ledger.did");
    let typed = |cmd: &'static str| -> Vec<&str> {
        vec![cmd, "--did", &ledger, "--method", "icrc1_transfer"]
    };
    let encoded = same_each_way("transfer.txt", &typed("encode"), TRANSFER.as_bytes());
    assert!(encoded.status.success(), "{encoded:?}");
    let hex = encoded.stdout;
    let decoded = same_each_way("transfer.hex", &typed("decode"), &hex);
    assert!(decoded.status.success(), "{decoded:?}");
    assert!(String::from_utf8_lossy(&decoded.stdout).contains("1_000_000 : nat"));
    // Raw bytes, hex with white space and without a final newline, explain.
    let raw = candor(&["encode", TRANSFER, "--format", "raw"], Stdio::null()).stdout;
    assert!(raw.starts_with(b"DIDL"));
    let raw_decoded = same_each_way("transfer.bin", &["decode"], &raw);
    let mut raw_hex = String::new();
    for b in &raw {
        raw_hex.push_str(&format!("{b:02x}"));
    }
    let hex = raw_hex.into_bytes();
    let spaced: Vec<u8> = hex
        .trim_ascii()
        .chunks(8)
        .flat_map(|c| c.iter().copied().chain(*b" \n"))
        .collect();
    assert_eq!(
        same_each_way("spaced.hex", &["decode"], &spaced),
        raw_decoded
    );
    same_each_way("explain.hex", &["explain"], hex.trim_ascii());
    // Bad input: the same message and exit status 2 each way.
    for (name, bad) in [
        ("odd.hex", &b"4449444"[..]),
        ("empty.hex", b""),
        ("not.hex", b"zz"),
    ] {
        let out = same_each_way(name, &["decode"], bad);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(!out.stderr.is_empty(), "{name}");
    }
}

#[test]
fn standard_input_is_read_from_where_it_stands_and_left_at_its_end() {
    let message = candor(&["encode", "(42 : nat8, \"x\")"], Stdio::null()).stdout;
    let mut bytes = b"not hex: skipped by whoever read standard input first\n".to_vec();
    let skip = bytes.len() as u64;
    bytes.extend_from_slice(&message);
    let path = file_with("partly_read.hex", &bytes);
    let mut file = std::fs::File::open(&path).unwrap();
    file.seek(SeekFrom::Start(skip)).unwrap();
    let shared = file.try_clone().unwrap();
    let out = candor(&["decode"], Stdio::from(shared));
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "(42 : nat8, \"x\")\n"
    );
    // The offset is shared with the child: it read to the end, as `read` would.
    assert_eq!(file.stream_position().unwrap(), bytes.len() as u64);
}
