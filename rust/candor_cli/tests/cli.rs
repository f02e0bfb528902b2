//! The `candor` binary itself: each subcommand's output and exit status against a
//! golden file in `tests/golden` (`UPDATE_GOLDEN=1 cargo test -p candor_cli` writes
//! them again; review the diff before committing).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::Run;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn candor(args: &[&str], stdin: &str) -> Run {
    common::run(args, stdin.as_bytes(), Some(&golden_dir()))
}

/// Compares a run with `tests/golden/NAME.out` (status, stdout and stderr).
#[track_caller]
fn golden(name: &str, run: &Run) {
    let actual = format!(
        "status: {}\n--- stdout\n{}--- stderr\n{}",
        run.status, run.stdout, run.stderr
    );
    let path = golden_dir().join(format!("{name}.out"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} missing: run with UPDATE_GOLDEN=1", path.display()));
    assert_eq!(actual, expected, "{name}");
}

/// `COMMAND INPUT --did ledger.did --method icrc1_transfer`.
fn typed<'a>(command: &'a str, input: &'a str) -> [&'a str; 6] {
    [
        command,
        input,
        "--did",
        "ledger.did",
        "--method",
        "icrc1_transfer",
    ]
}

const TRANSFER: &str = "(record { to = record { owner = principal \"ryjl3-tyaaa-aaaaa-aaaba-cai\"; subaccount = null }; amount = 250_000; fee = opt 10_000; memo = opt blob \"invoice 42\"; created_at_time = null; from_subaccount = null })";

fn transfer_hex() -> String {
    let run = candor(&typed("encode", TRANSFER), "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.stdout.trim().to_string()
}

#[test]
fn encode_and_decode_with_an_interface() {
    let hex = transfer_hex();
    golden("encode_transfer", &candor(&typed("encode", TRANSFER), ""));
    golden("decode_transfer", &candor(&typed("decode", &hex), ""));
    golden("decode_untyped", &candor(&["decode", "-"], &hex));
}

#[test]
fn explain_names_fields_from_the_interface() {
    let hex = transfer_hex();
    golden("explain_transfer", &candor(&typed("explain", &hex), ""));
    golden("explain_transfer_no_did", &candor(&["explain", &hex], ""));
}

#[test]
fn explain_shows_a_malformed_message_up_to_its_fault() {
    // The transfer with its memo's length raised past the end of the input.
    let hex = transfer_hex();
    let memo = "0a696e766f696365203432";
    assert!(hex.contains(memo));
    let broken = hex.replace(memo, "7f696e766f696365203432");
    let run = candor(&typed("explain", &broken), "");
    assert_eq!(run.status, 2);
    golden("explain_fault", &run);
    // And the explanation assembles back to the same malformed bytes.
    let back = candor(&["assemble"], &run.stdout);
    assert_eq!(back.status, 0, "{}", back.stderr);
    assert_eq!(back.stdout.trim(), broken);
}

#[test]
fn an_edited_explanation_assembles_to_the_edited_message() {
    let hex = transfer_hex();
    let explained = candor(&typed("explain", &hex), "");
    assert_eq!(explained.status, 0);
    // Unedited: the same bytes.
    let same = candor(&["assemble", "-"], &explained.stdout);
    assert_eq!(same.stdout.trim(), hex);
    // A new amount and a longer memo: both re-encoded, the memo's length with it.
    let edited = explained
        .stdout
        .replace(
            "amount : nat = 250_000",
            "amount : nat = 99_000_000_000_000",
        )
        .replace("blob \"invoice 42\"", "blob \"invoice 4242\"");
    assert_ne!(edited, explained.stdout);
    let assembled = candor(&["assemble"], &edited);
    assert_eq!(assembled.status, 0, "{}", assembled.stderr);
    let decoded = candor(&typed("decode", assembled.stdout.trim()), "");
    golden("assemble_edited", &decoded);
}

#[test]
fn hash_check_subtype_and_test() {
    golden("hash", &candor(&["hash", "amount", "memo", "to"], ""));
    golden("check_ok", &candor(&["check", "ledger.did"], ""));
    golden(
        "check_previous",
        &candor(&["check", "ledger_v2.did", "--previous", "ledger.did"], ""),
    );
    let yes = candor(
        &[
            "subtype",
            "--defs",
            "ledger.did",
            "record { amount : nat; extra : text }",
            "record { amount : int }",
        ],
        "",
    );
    assert_eq!(yes.status, 0, "{}", yes.stderr);
    golden(
        "subtype_no",
        &candor(&["subtype", "--defs", "ledger.did", "Account", "nat"], ""),
    );
    let vectors = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors");
    let mut files: Vec<String> = std::fs::read_dir(&vectors)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".test.did"))
        .collect();
    files.sort();
    let mut args = vec!["test"];
    args.extend(files.iter().map(String::as_str));
    let run = candor(&args, "");
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.ends_with(" 0 failed\n"), "{}", run.stdout);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["nonsense"][..],
        &["decode", "--bogus"],
        &["random", "--method", "icrc1_transfer"],
        &["encode", "(1)", "--rets"],
        &["hash"],
        &["check"],
        &["explain", "zz"],
        &["decode", "4449444c", "--did"],
        &["encode", "(1)", "--method", "f"],
        &["assemble", "--format", "octal"],
        &["subtype", "nat"],
        &["random", "--did", "ledger.did"],
        &[
            "random",
            "--did",
            "ledger.did",
            "--method",
            "icrc1_transfer",
            "--seed",
            "x",
        ],
    ] {
        let run = candor(args, "");
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn random_values_for_a_method() {
    golden(
        "random_walk",
        &candor(
            &[
                "random",
                "--did",
                "shapes.did",
                "--method",
                "walk",
                "--seed",
                "3",
                "--count",
                "2",
            ],
            "",
        ),
    );
    let hex = candor(
        &[
            "random",
            "--did",
            "ledger.did",
            "--method",
            "icrc1_transfer",
            "--seed",
            "7",
            "--format",
            "hex",
        ],
        "",
    );
    golden("random_transfer_hex", &hex);
    // What random writes, decode reads at the same method's types.
    let decoded = candor(&typed("decode", hex.stdout.trim()), "");
    assert_eq!(decoded.status, 0, "{}", decoded.stderr);
    golden(
        "random_never",
        &candor(&["random", "--did", "shapes.did", "--method", "never"], ""),
    );
}

/// `bind rust FILE.did` writes `tests/golden/NAME_bindings.rs`, which
/// `tests/bind.rs` compiles and uses.
#[test]
fn bind_rust_for_an_interface() {
    for name in ["ledger", "shapes"] {
        let run = candor(&["bind", "rust", &format!("{name}.did")], "");
        assert_eq!(run.status, 0, "{}", run.stderr);
        assert_eq!(run.stderr, "");
        let path = golden_dir().join(format!("{name}_bindings.rs"));
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &run.stdout).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap();
        assert_eq!(run.stdout, expected, "{name}");
    }
    golden("bind_ids", &candor(&["bind", "rust", "ids.did"], ""));
    golden("bind_usage", &candor(&["bind", "go", "ledger.did"], ""));
}

/// explain with an interface shows each subtyping decision: a field the method
/// does not know (skipped), an `opt` whose value does not fit (becomes null), a
/// field the message lacks (absent), an extra argument (skipped), a `nat` read as
/// an `int`, a case the method's variant lacks (rejected: exit 1); and decode at
/// the same types agrees.
#[test]
fn explain_shows_subtyping_decisions() {
    let newer = "(record { to = record { owner = principal \"aaaaa-aa\"; subaccount = opt blob \"\\01\\02\"; nickname = \"bob\" }; amount = 5_000 : nat; fee = opt \"ten\"; memo = opt blob \"m\"; created_at_time = opt (5 : nat) }, \"extra\")";
    let hex = candor(&["encode", newer], "");
    assert_eq!(hex.status, 0, "{}", hex.stderr);
    let hex = hex.stdout.trim();
    golden("explain_subtyping", &candor(&typed("explain", hex), ""));
    golden("decode_subtyping", &candor(&typed("decode", hex), ""));

    let wrong = candor(
        &[
            "encode",
            "(record { to = record { owner = principal \"aaaaa-aa\" }; amount = \"lots\" })",
        ],
        "",
    );
    let run = candor(&typed("explain", wrong.stdout.trim()), "");
    assert_eq!(run.status, 1);
    golden("explain_rejected", &run);
    assert_eq!(candor(&typed("decode", wrong.stdout.trim()), "").status, 2);

    let walk = candor(
        &[
            "encode",
            "(opt record { head = 7 : nat; tail = null }, variant { twig = 1 : nat8 })",
        ],
        "",
    );
    golden(
        "explain_walk",
        &candor(
            &[
                "explain",
                walk.stdout.trim(),
                "--did",
                "shapes.did",
                "--method",
                "walk",
            ],
            "",
        ),
    );
}

/// Every subcommand has its own `--help` (exit 0), a mistyped command gets a
/// suggestion (exit 2), and `completions` writes a script for each shell.
#[test]
fn help_suggestions_and_completions() {
    for command in [
        "explain",
        "assemble",
        "encode",
        "decode",
        "check",
        "subtype",
        "hash",
        "test",
        "random",
        "bind",
        "completions",
    ] {
        let run = candor(&[command, "--help"], "");
        assert_eq!(run.status, 0, "{command}: {}", run.stderr);
        assert!(
            run.stdout.contains(&format!("Usage: candor {command}")),
            "{command}: {}",
            run.stdout
        );
        let help = candor(&["help", command], "");
        assert_eq!(help.stdout, run.stdout, "{command}");
    }
    assert!(candor(&["decode", "--help"], "").stdout.contains("--did"));
    let typo = candor(&["decod", "4449444c0000"], "");
    assert_eq!(typo.status, 2);
    assert!(typo.stderr.contains("'decode'"), "{}", typo.stderr);
    let flag = candor(&["decode", "--dii", "x"], "");
    assert_eq!(flag.status, 2);
    assert!(flag.stderr.contains("--did"), "{}", flag.stderr);
    let nothing = candor(&[], "");
    assert_eq!(nothing.status, 2);
    assert!(
        nothing.stderr.contains("Usage: candor"),
        "{}",
        nothing.stderr
    );
    let version = candor(&["--version"], "");
    assert_eq!(
        version.stdout,
        format!("candor {}\n", env!("CARGO_PKG_VERSION"))
    );
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef candor"),
        ("fish", "complete -c candor"),
    ] {
        let run = candor(&["completions", shell], "");
        assert_eq!(run.status, 0, "{shell}: {}", run.stderr);
        assert!(run.stdout.contains(marker), "{shell}");
        assert!(run.stdout.contains("explain"), "{shell}");
    }
    assert_eq!(candor(&["completions", "tcsh"], "").status, 2);
}

/// `diff` prints each differing path with both values and exits 1; the same
/// values exit 0 whatever the bytes; bad input exits 2.
#[test]
fn diff_shows_each_differing_path() {
    let a = transfer_hex();
    let changed = TRANSFER
        .replace("ryjl3-tyaaa-aaaaa-aaaba-cai", "aaaaa-aa")
        .replace("subaccount = null", "subaccount = opt blob \"\\01\"")
        .replace("fee = opt 10_000", "fee = null")
        .replace("invoice 42", "invoice 43");
    let b = candor(&typed("encode", &changed), "");
    assert_eq!(b.status, 0, "{}", b.stderr);
    let b = b.stdout.trim();
    let mut args = typed("diff", &a).to_vec();
    args.insert(2, b);
    golden("diff_typed", &candor(&args, ""));
    golden("diff_untyped", &candor(&["diff", &a, b], ""));
    let same = candor(
        &args[..2]
            .iter()
            .chain([&a.as_str()])
            .copied()
            .collect::<Vec<_>>(),
        "",
    );
    assert_eq!(
        (same.status, same.stdout.as_str()),
        (0, ""),
        "{}",
        same.stderr
    );
    // The same values in other bytes (a non-canonical LEB128 length), from
    // standard input: no difference.
    let same_values = candor(
        &["diff", "-", "4449444c000171830061626 3"],
        "4449444c000171036162 63",
    );
    assert_eq!(
        same_values.status, 0,
        "{}{}",
        same_values.stdout, same_values.stderr
    );
    // Vectors of different lengths, floats by their bits, an extra argument.
    let x = candor(
        &[
            "encode",
            "(vec { 1; 2; 3 } : vec nat, (0.0 : float64), \"x\")",
        ],
        "",
    );
    let y = candor(
        &["encode", "(vec { 1; 5 } : vec nat, (-0.0 : float64))"],
        "",
    );
    golden(
        "diff_shapes",
        &candor(&["diff", x.stdout.trim(), y.stdout.trim()], ""),
    );
    let nan = "4449444c000172000000000000f87f";
    assert_eq!(candor(&["diff", nan, nan], "").status, 0);
    for bad in [
        &["diff", &a, "zz"][..],
        &["diff", &a],
        &["diff", "-", "-"],
        &["diff", &a, b, "--did", "ledger.did", "--method", "nope"],
    ] {
        let run = candor(bad, "");
        assert_eq!(run.status, 2, "{bad:?}");
        assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    }
}

/// Without a .did, `decode`, `explain` and `diff` name hashed labels from the
/// built-in names of well-known interfaces and from `--names FILE.did` or
/// `CANDOR_NAMES`; a hash with several names stays a number, with a note.
#[test]
fn hashed_labels_get_names() {
    let hex = transfer_hex();
    // The built-in names know the ICRC-1 transfer (decode_untyped and
    // explain_transfer_no_did show them too).
    let run = candor(&["decode", &hex], "");
    assert!(run.stdout.contains("owner = principal"), "{}", run.stdout);

    let msg = candor(
        &[
            "encode",
            "(record { \"kebab-name\" = 7 : nat16; bkzdivbp = 1 : nat; other_thing = 2 : nat })",
        ],
        "",
    );
    let msg = msg.stdout.trim();
    golden("names_builtin_only", &candor(&["decode", msg], ""));
    golden(
        "names_from_file",
        &candor(&["decode", msg, "--names", "collide.did"], ""),
    );
    let from_env = Command::new(env!("CARGO_BIN_EXE_candor"))
        .args(["decode", msg])
        .env("CANDOR_NAMES", "shapes.did")
        .current_dir(golden_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8(from_env.stdout).unwrap();
    assert!(stdout.contains("\"kebab-name\" = 7"), "{stdout}");
    golden(
        "names_explain",
        &candor(&["explain", msg, "--names", "shapes.did"], ""),
    );
    let ambiguous = candor(&["explain", msg, "--names", "collide.did"], "");
    assert!(
        ambiguous.stdout.contains(
            "field 3894780206 (the hash of several names: bkzdivbp, qaskyvcl in collide.did) : nat"
        ),
        "{}",
        ambiguous.stdout
    );
    let json = candor(&["decode", msg, "--json", "--names", "shapes.did"], "");
    assert!(json.stdout.contains("\"kebab-name\": 7"), "{}", json.stdout);
    let bad = candor(&["decode", msg, "--names", "missing.did"], "");
    assert_eq!(bad.status, 2);
    assert!(
        bad.stderr.starts_with("error: missing.did"),
        "{}",
        bad.stderr
    );
}

/// With an interface, explain names the spec's rule behind each decision and
/// shows the value a `null` replaced: the special opt rule wrapping a value
/// (`a`) or dropping one that does not fit (`b`, a scalar; `e`, a record), the
/// rule that never wraps into `opt opt` (`c`), `reserved` (`r`).
#[test]
fn explain_names_the_rule_behind_each_decision() {
    let msg = candor(
        &[
            "encode",
            "(record { a = 5 : nat; b = \"x\"; c = 7 : nat; e = record { y = 1 : nat }; r = \"any\" })",
        ],
        "",
    );
    assert_eq!(msg.status, 0, "{}", msg.stderr);
    let run = candor(
        &[
            "explain",
            msg.stdout.trim(),
            "--did",
            "rules.did",
            "--method",
            "f",
        ],
        "",
    );
    golden("explain_rules", &run);
    for expected in [
        "a : nat = 5  [17 units; read as opt nat (rule \"opt, special\"",
        "b : becomes null: the value does not fit nat (rule \"opt, special\"",
        "; dropped: \"x\"",
        "c : becomes null, as the method expects opt opt nat (rule \"opt, special\": no value is wrapped",
        "; dropped: 7",
        "e : becomes null: the value does not fit record { x : nat } (rule \"opt, special\"",
        "; dropped: the value at 0000001b (1 byte)",
        "(rule \"top\"",
    ] {
        assert!(run.stdout.contains(expected), "{expected}\n{}", run.stdout);
    }
    // What decode makes of it agrees: a wrapped, the others null.
    let decoded = candor(
        &[
            "decode",
            msg.stdout.trim(),
            "--did",
            "rules.did",
            "--method",
            "f",
        ],
        "",
    );
    assert!(
        decoded.stdout.contains("opt (5 : nat)"),
        "{}",
        decoded.stdout
    );
}
