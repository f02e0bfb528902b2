//! `decode --json` and `encode --json`: the mapping is lossless. Random well-typed
//! values (recursive types, every scalar's edge values, references, `reserved`)
//! become bytes, the bytes JSON, and the JSON the same bytes, whether the JSON was
//! written with the method's types (field names) or without (field ids); and
//! hand-picked edge cases go through the command itself.

use candor::types::{Type, TypeEnv};
use candor::IDLArgs;
use candor_cli::json::{args_from_json, args_to_json, read};
use candor_cli::random::generate;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

mod common;
use common::Run;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn method(file: &str, name: &str) -> (TypeEnv, Vec<Type>) {
    let (env, actor, _) = candor_parser::check_file(&golden_dir().join(file)).unwrap();
    let args = env.get_method(&actor.unwrap(), name).unwrap().args.clone();
    (env, args)
}

const METHODS: [(&str, &str); 4] = [
    ("json.did", "edge"),
    ("shapes.did", "walk"),
    ("shapes.did", "mixed"),
    ("ledger.did", "icrc1_transfer"),
];

/// bytes → JSON (typed and untyped) → bytes, for the messages `random` makes
/// from `seed`.
fn check_seed(env: &TypeEnv, types: &[Type], seed: u64) {
    for message in generate(env, types, seed, 2).unwrap() {
        let bytes = message.to_bytes_with_types(env, types).unwrap();
        let typed = IDLArgs::from_bytes_with_types(&bytes, env, types).unwrap();
        let untyped = IDLArgs::from_bytes(&bytes).unwrap();
        for values in [typed, untyped] {
            let json = args_to_json(&values);
            read::parse(&json).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{json}"));
            let back = args_from_json(&json, env, types)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{json}"));
            assert_eq!(
                back.to_bytes_with_types(env, types).unwrap(),
                bytes,
                "seed {seed}\n{json}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn random_values_round_trip_through_json(seed in any::<u64>(), which in 0..METHODS.len()) {
        let (file, name) = METHODS[which];
        let (env, types) = method(file, name);
        check_seed(&env, &types, seed);
    }
}

fn candor(args: &[&str]) -> Run {
    common::run(args, b"", Some(&golden_dir()))
}

const EDGE: [&str; 4] = ["--did", "json.did", "--method", "edge"];

fn encode_json(json: &str) -> Run {
    let mut args = vec!["encode", "--json", json];
    args.extend(EDGE);
    candor(&args)
}

fn decode_json(hex: &str, typed: bool) -> Run {
    let mut args = vec!["decode", "--json", hex];
    if typed {
        args.extend(EDGE);
    }
    candor(&args)
}

/// The edge values: integers at 2^53 (a number) and just past it (a string),
/// 2^64 and below -2^63, float edge values and NaNs with other bits, `float32`
/// digits that an `f64` detour would round differently, nested `opt`s, escapes,
/// a numeric label, a tuple, a func, a service, reserved.
const EDGE_JSON: &str = r#"[
  {
    "big": "18446744073709551616000",
    "signed": "-9007199254740993",
    "n64": 9007199254740992,
    "i64": "-9223372036854775808",
    "small": {"0": 255, "1": 65535, "2": 4294967295, "3": -128, "4": -32768, "5": -2147483648},
    "f64": [0.1, -0.0, 1e300, 5e-324, "NaN", "Infinity", "-Infinity", "NaN:0x7ff0000000000001"],
    "f32": [0.1, 16777217, 3.4028235e38, 1e-45, "NaN:0xffc00001", "-Infinity"],
    "nested": [[[null]]],
    "maybe_text": [],
    "bytes": "00ff10",
    "numbers": [1, 2, 255],
    "text": "quote \" backslash \\ tab \t nul \u0000 é 😀",
    "who": "ryjl3-tyaaa-aaaaa-aaaba-cai",
    "cb": {"principal": "aaaaa-aa", "method": "get"},
    "svc": "2vxsx-fae",
    "r": null,
    "n": null,
    "1234": true,
    "choice": {"7": "seven"}
  },
  [{
    "big": 0, "signed": 9007199254740992, "n64": "18446744073709551615", "i64": -1,
    "small": {"0": 0, "1": 0, "2": 0, "3": 0, "4": 0, "5": 0},
    "f64": [], "f32": [], "nested": [[]], "bytes": "", "numbers": [], "text": "",
    "who": "aaaaa-aa", "cb": {"principal": "aaaaa-aa", "method": ""}, "svc": "aaaaa-aa",
    "r": {"anything": [1]}, "1234": false, "choice": {"a": null}
  }]
]"#;

#[test]
fn edge_values_round_trip_through_the_command() {
    let first = encode_json(EDGE_JSON);
    assert_eq!(first.status, 0, "{}", first.stderr);
    let hex = first.stdout.trim();
    for typed in [true, false] {
        let json = decode_json(hex, typed);
        assert_eq!(json.status, 0, "{}", json.stderr);
        let again = encode_json(&json.stdout);
        assert_eq!(again.status, 0, "{}\n{}", again.stderr, json.stdout);
        assert_eq!(again.stdout.trim(), hex, "{}", json.stdout);
    }
    let json = decode_json(hex, true).stdout;
    for expected in [
        r#""big": "18446744073709551616000""#,
        r#""signed": "-9007199254740993""#,
        r#""n64": 9007199254740992"#,
        r#""nested": [[[null]]]"#,
        r#""maybe_text": []"#,
        r#""bytes": "00ff10""#,
        r#""1234": true"#,
        r#""choice": {"7": "seven"}"#,
        r#""cb": {"principal": "aaaaa-aa", "method": "get"}"#,
        r#""r": null"#,
        r#"NaN:0x7ff0000000000001"#,
        r#"NaN:0xffc00001"#,
        "0.1,",
        "-0.0,",
        "1e300,",
        r#""text": "quote \" backslash \\ tab \t nul \u0000 é 😀""#,
    ] {
        assert!(json.contains(expected), "{expected} not in\n{json}");
    }
    // float32 0.1 is read from its digits: through f64 it is the same number, and
    // 16777217 rounds to 16777216 either way; the bytes of the first value say it.
    let f32s = r#"[{"big": 0, "signed": 0, "n64": 0, "i64": 0, "small": {"0": 0, "1": 0, "2": 0, "3": 0, "4": 0, "5": 0}, "f64": [], "f32": [1.00000005960464477539062500001], "nested": [], "bytes": "", "numbers": [], "text": "", "who": "aaaaa-aa", "cb": {"principal": "aaaaa-aa", "method": "m"}, "svc": "aaaaa-aa", "r": null, "1234": true, "choice": {"a": null}}]"#;
    let run = encode_json(f32s);
    assert_eq!(run.status, 0, "{}", run.stderr);
    // Correct rounding of the digits gives 1.0000001 (0x3f800001); rounding to
    // f64 first gives 1.0000000596046448, a tie, and then 1.0 (0x3f800000).
    assert!(run.stdout.contains("0100803f"), "{}", run.stdout);
}

#[test]
fn bad_json_exits_2_with_the_reason() {
    let base: String = EDGE_JSON.to_string();
    for (json, reason) in [
        ("[", "invalid JSON at byte 1"),
        ("{}", "must be an array"),
        (
            "[1]",
            "argument 0: expected an object (a record), found a number",
        ),
        (
            &base.replacen(r#""big": "18446744073709551616000""#, r#""big": -1"#, 1),
            "argument 0 → big: not a nat",
        ),
        (
            &base.replacen(r#""big": "18446744073709551616000""#, r#""big": 1.5"#, 1),
            "argument 0 → big: `1.5` is not an integer (nat)",
        ),
        (
            &base.replacen(
                r#""n64": 9007199254740992"#,
                r#""n64": "18446744073709551616""#,
                1,
            ),
            "argument 0 → n64: out of range for nat64",
        ),
        (
            &base.replacen(r#""1234": true"#, r#""1234": true, "extra": 1"#, 1),
            "argument 0: the record has no field `extra`",
        ),
        (
            &base.replacen(r#""choice": {"7": "seven"}"#, r#""choice": {"c": null}"#, 1),
            "argument 0 → choice: the variant has no case `c`",
        ),
        (
            &base.replacen(r#""bytes": "00ff10""#, r#""bytes": "0g""#, 1),
            "argument 0 → bytes: a blob is a string of hex digits",
        ),
        (
            &base.replacen(r#""nested": [[[null]]]"#, r#""nested": [1, 2]"#, 1),
            "an opt is [] or [value]",
        ),
        (
            &base.replacen(
                r#""who": "ryjl3-tyaaa-aaaaa-aaaba-cai""#,
                r#""who": "nope""#,
                1,
            ),
            "argument 0 → who:",
        ),
        (
            &base.replacen(r#""text": "#, r#""text": 1, "t": "#, 1),
            "argument 0 → text: expected a string, found a number",
        ),
        (
            &("[".repeat(300) + &"]".repeat(300)),
            "nested deeper than 256",
        ),
        (
            &base.replacen(r#""f64": [0.1,"#, r#""f64": [1e400,"#, 1),
            "argument 0 → f64 → 0: 1e400 is out of range for float64",
        ),
        (
            &base.replacen(r#""f32": [0.1,"#, r#""f32": [3.5e38,"#, 1),
            "argument 0 → f32 → 0: 3.5e38 is out of range for float32",
        ),
    ] {
        let run = encode_json(json);
        assert_eq!(run.status, 2, "{json}\n{}", run.stdout);
        assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
        assert!(
            run.stderr.contains(reason),
            "{reason} not in {}",
            run.stderr
        );
    }
    let untyped = candor(&["encode", "--json", "[]"]);
    assert_eq!(untyped.status, 2);
}

/// JSON a user typed: the printed JSON of a random message with one character
/// replaced, dropped or doubled, or any short text. Reading it gives values or an
/// error, never a panic (a panic here fails the test).
fn mangled_json() -> impl Strategy<Value = (String, usize)> {
    let printed = (any::<u64>(), 0..METHODS.len()).prop_map(|(seed, which)| {
        let (file, name) = METHODS[which];
        let (env, types) = method(file, name);
        let json = generate(&env, &types, seed, 1)
            .unwrap()
            .first()
            .map(args_to_json)
            .unwrap_or_default();
        (json, which)
    });
    let edited = (printed, any::<prop::sample::Index>(), any::<char>(), 0..3u8).prop_map(
        |((json, which), at, c, how)| {
            let mut chars: Vec<char> = json.chars().collect();
            if !chars.is_empty() {
                let i = at.index(chars.len());
                match how {
                    0 => chars[i] = c,
                    1 => {
                        chars.remove(i);
                    }
                    _ => chars.insert(i, chars[i]),
                }
            }
            (chars.into_iter().collect(), which)
        },
    );
    prop_oneof![
        edited,
        ("[\\[\\]{}\":,0-9a-z.eE+\\- ]{0,40}", 0..METHODS.len()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn mangled_json_is_read_or_refused((json, which) in mangled_json()) {
        let (file, name) = METHODS[which];
        let (env, types) = method(file, name);
        let _ = read::parse(&json);
        let _ = args_from_json(&json, &env, &types);
    }
}

/// Nesting far past the reader's limit is refused, not a stack overflow.
#[test]
fn deep_json_is_refused() {
    let (env, types) = method("json.did", "edge");
    for open in ["[", "{\"a\":"] {
        let json = open.repeat(200_000);
        assert!(read::parse(&json).is_err());
        assert!(args_from_json(&json, &env, &types).is_err());
    }
}
