//! The fast paths behind `candor decode` and `candor encode` give what the general
//! paths (and candid 0.10.39 with candid_parser 0.4.1) give, on the inputs where
//! each fires and on those where it must step aside: numbers beyond a machine
//! word, text that needs escapes or is not ASCII, blobs that are not text, `\xx`
//! escapes that do not make text, hex with white space inside, values annotated
//! in place (labels, variant indices, arguments left out).

mod common;

/// Values in Candid text, each a case a fast path must get right or leave alone.
const VALUES: &[&str] = &[
    // Words and beyond: nat and int above and below 64 bits.
    "(18_446_744_073_709_551_615 : nat, 18_446_744_073_709_551_616 : nat, 0 : nat)",
    "(-9_223_372_036_854_775_808 : int, -9_223_372_036_854_775_809 : int, \
      170_141_183_460_469_231_731_687_303_715_884_105_727 : int, 12 : int)",
    "(65535 : nat16, 4294967295 : nat32, 18446744073709551615 : nat64, 255 : nat8, \
      -128 : int8, -32768 : int16, -2147483648 : int32, -9223372036854775808 : int64, \
      1000 : nat16, -1000 : int16)",
    // Text: plain, with quotes and backslashes, control characters, beyond ASCII.
    "(\"plain\", \"it's\", \"say \\\"hi\\\"\", \"back\\\\slash\", \"tab\\tline\\n\", \
      \"\u{65e5}\u{672c}\", \"emoji \u{1f600}\", \"\\u{301}accent\", \"\")",
    // Blobs: text, escapes, a tab, a quote, empty; escape runs that stay text.
    "(blob \"abc\", blob \"\\00\\01\\ff\", blob \"tab\\09ok\", blob \"quote\\22\", \
      blob \"\", blob \"\\41\\42\\43\", blob \"a\\e2\\82\\acb\")",
    "(\"\\41\\42\\43\", \"\\e2\\82\\ac euro\")",
    // Labels: keywords and non-identifiers are quoted, ids grouped.
    "(record { \"type\" = 1 : nat8; name = \"x\"; \"with space\" = null; 42 = true; \
      1_000_000 = false }, variant { ok }, variant { err = \"no\" }, \
      variant { 7 = 1.5 : float64 }, record { 1 : nat8; 2 : nat8 })",
    // More than ten elements: printed on one line. (Every `memo` is an `opt blob`:
    // a vector's type is its first element's.)
    "(vec { record { id = 1 : nat64; memo = opt blob \"\\01\\02\" }; \
      record { id = 2 : nat64; memo = opt blob \"\\ff\" }; record { id = 3 : nat64; memo = opt blob \"\\ff\" }; \
      record { id = 4 : nat64; memo = opt blob \"\\ff\" }; record { id = 5 : nat64; memo = opt blob \"\\ff\" }; \
      record { id = 6 : nat64; memo = opt blob \"\\ff\" }; record { id = 7 : nat64; memo = opt blob \"\\ff\" }; \
      record { id = 8 : nat64; memo = opt blob \"\\ff\" }; record { id = 9 : nat64; memo = opt blob \"\\ff\" }; \
      record { id = 10 : nat64; memo = opt blob \"\\ff\" }; record { id = 11 : nat64; \
      memo = opt blob \"text\" } })",
    "(opt (5 : nat), opt opt null, null, opt \"x\", principal \"aaaaa-aa\", \
      1.0 : float32, -0.5 : float64, true)",
];

#[test]
fn printed_values_match_candid() {
    for text in VALUES {
        let ours = candor_parser::parse_idl_args(text).unwrap();
        let theirs = candid_parser::parse_idl_args(text).unwrap();
        assert_eq!(ours.to_string(), theirs.to_string(), "Display of {text}");
        for (a, b) in ours.args.iter().zip(&theirs.args) {
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "Debug in {text}");
        }
        let bytes = theirs.to_bytes().unwrap();
        assert_eq!(ours.to_bytes().unwrap(), bytes, "bytes of {text}");
        // Decoded (variants and records rebuilt by the value visitor), then printed.
        let ours = candor::IDLArgs::from_bytes(&bytes).unwrap_or_else(|e| panic!("{text}: {e}"));
        let theirs = candid::IDLArgs::from_bytes(&bytes).unwrap();
        assert_eq!(ours.to_string(), theirs.to_string(), "decoded {text}");
    }
}

/// A .did file with a method whose arguments are annotated in place on encoding.
const DID: &str = "type Row = record { id : nat64; name : text; memo : opt blob; amount : nat };
type Case = variant { none; small : nat8; word : text; \"quoted label\" : int };
service : { m : (vec Row, vec Case, record { 1 : nat; 2 : text }, opt nat) -> () }";

/// Values for `m`: the last argument is left out (it is `opt`).
const ARGS: &str = "(vec { record { id = 1; name = \"a\"; memo = opt blob \"\\00\\ff\"; \
    amount = 18_446_744_073_709_551_616 }; record { amount = 2; name = \"b\"; id = 2; \
    memo = opt blob \"\\ff\" } }, vec { variant { word = \"w\" }; variant { none }; \
    variant { \"quoted label\" = -5 }; variant { small = 7 } }, record { 1 = 5; 2 = \"t\" })";

fn candor(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let out = common::output(args, stdin, None);
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap_or(-1), out.stdout, stderr)
}

fn did_file(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("candor-fast-paths-{name}.did"));
    std::fs::write(&path, DID).unwrap();
    path
}

#[test]
fn encoding_at_types_matches_candid() {
    let path = did_file("encode");
    let did = path.to_str().unwrap();
    let (status, hex, stderr) = candor(&["encode", "--did", did, "--method", "m"], ARGS.as_bytes());
    assert_eq!(status, 0, "{stderr}");

    let (env, actor, _) = candid_parser::check_file(&path).unwrap();
    let func = env.get_method(&actor.unwrap(), "m").unwrap().clone();
    let expected = candid_parser::parse_idl_args(ARGS)
        .unwrap()
        .annotate_types(true, &env, &func.args)
        .unwrap()
        .to_bytes_with_types(&env, &func.args)
        .unwrap();
    let expected_hex: String = expected.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(String::from_utf8(hex).unwrap().trim_end(), expected_hex);

    // And back: decoded at the types and printed as candid prints it.
    let (status, text, stderr) = candor(
        &["decode", "--did", did, "--method", "m"],
        expected_hex.as_bytes(),
    );
    assert_eq!(status, 0, "{stderr}");
    let theirs = candid::IDLArgs::from_bytes_with_types(&expected, &env, &func.args).unwrap();
    assert_eq!(String::from_utf8(text).unwrap(), format!("{theirs}\n"));
}

#[test]
fn hex_with_white_space_and_bad_digits() {
    let path = did_file("hex");
    let did = path.to_str().unwrap();
    let bytes = candid_parser::parse_idl_args("(vec {}, vec {}, record { 1; \"\" })")
        .unwrap()
        .to_bytes()
        .unwrap();
    let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
    let plain = candor(&["decode"], hex.as_bytes());
    assert_eq!(plain.0, 0, "{}", plain.2);
    // White space anywhere, even inside a byte, takes the byte-at-a-time path.
    let spaced: String = hex
        .chars()
        .enumerate()
        .flat_map(|(i, c)| [c].into_iter().chain((i % 3 == 0).then_some(' ')))
        .collect();
    let slow = candor(&["decode"], format!("\n {spaced}\n").as_bytes());
    assert_eq!(slow.1, plain.1);
    let odd = candor(&["decode", "--did", did, "--method", "m"], b"4449444c0");
    assert_eq!(
        (odd.0, odd.2.as_str()),
        (2, "error: odd number of hex digits\n")
    );
    let bad = candor(&["decode"], b"4449 444g");
    assert_eq!(bad.0, 2);
    assert_eq!(
        bad.2,
        "error: not hex: `g` at position 8 (give raw bytes with --input-format raw)\n"
    );
}

#[test]
fn annotating_values_alone_or_as_arguments_agrees() {
    let path = did_file("owned");
    let (env, actor, _) = candor_parser::check_file(&path).unwrap();
    let func = env.get_method(&actor.unwrap(), "m").unwrap().clone();
    let parsed = candor_parser::parse_idl_args(ARGS).unwrap();
    // Each value on its own.
    let borrowed: Vec<candor::IDLValue> = parsed
        .args
        .iter()
        .zip(&func.args)
        .map(|(v, t)| v.annotate_type(true, &env, t).unwrap())
        .collect();
    // All the arguments at once (the left-out `opt` argument added).
    let owned = parsed.annotate_types(true, &env, &func.args).unwrap();
    assert_eq!(owned.args.len(), borrowed.len() + 1);
    for (a, b) in owned.args.iter().zip(&borrowed) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
}

#[test]
fn record_fields_out_of_order_or_repeated_take_the_last() {
    use candor::types::{Field, Label, TypeEnv, TypeInner};
    use candor::{IDLArgs, IDLField, IDLValue};
    let field = |id: u32, val: IDLValue| IDLField {
        id: Label::Id(id),
        val,
    };
    // More fields than the small stack buffer holds, too.
    for extra in [0u32, 20] {
        let mut fields = vec![
            field(2, IDLValue::Nat8(1)),
            field(1, IDLValue::Text("a".into())),
            field(2, IDLValue::Nat8(3)),
        ];
        fields.extend(
            (100..100 + extra)
                .rev()
                .map(|i| field(i, IDLValue::Bool(true))),
        );
        let value = IDLValue::Record(fields);
        let ty: candor::types::Type = TypeInner::Record(vec![
            Field {
                id: Label::Id(1).into(),
                ty: TypeInner::Text.into(),
            },
            Field {
                id: Label::Id(2).into(),
                ty: TypeInner::Nat8.into(),
            },
        ])
        .into();
        let env = TypeEnv::new();
        let expected = "record { 1 = \"a\"; 2 = 3 : nat8;}";
        let borrowed = value.annotate_type(true, &env, &ty).unwrap();
        assert_eq!(format!("{borrowed:?}"), expected);
        let owned = IDLArgs::new(&[value])
            .annotate_types(true, &env, &[ty])
            .unwrap();
        assert_eq!(format!("{:?}", owned.args[0]), expected);
    }
}
