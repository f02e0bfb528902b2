//! `IDLArgs::text_from_bytes_with_types` (what `candor decode --did --method`
//! prints) against decoding to `IDLArgs` and printing them, in candor and in
//! candid 0.10.39: the same text, and the same error, on every message. The
//! streamed path fires on one argument that is a vector of more than ten
//! elements; short vectors (laid out over lines, which a streamed vector would
//! not be), `vec nat8` held as numbers, several arguments and other values must
//! come out as the general path prints them.

use candor::{IDLArgs, TypeEnv};

const DID: &str = r#"
type Row = record { id : nat64; name : text; memo : opt blob; amount : nat };
type Case = variant { none; small : nat8; word : text; "quoted label" : int; 7 : null };
type Tree = variant { leaf : int; node : record { left : Tree; right : Tree } };
service : {
  rows : (vec Row) -> ();
  cases : (vec Case) -> ();
  nulls : (vec null) -> ();
  bytes : (vec nat8) -> ();
  texts : (vec text) -> ();
  nested : (vec vec opt int16) -> ();
  trees : (vec Tree) -> ();
  fewer : (vec record { id : nat64 }) -> ();
  opts : (vec opt record { id : nat64; extra : opt text }) -> ();
  two : (vec nat16, text) -> ();
  one_row : (Row) -> ();
}
"#;

fn interface() -> (TypeEnv, candor::types::Type) {
    let prog: candor_parser::IDLProg = DID.parse().unwrap();
    let mut env = TypeEnv::new();
    let actor = candor_parser::check_prog(&mut env, &prog).unwrap().unwrap();
    (env, actor)
}

/// The text candor prints streamed, and what decoding whole prints in candor and
/// in candid (or the errors of each).
fn printed(method: &str, bytes: &[u8]) -> (String, String, String) {
    let (env, actor) = interface();
    let types = env.get_method(&actor, method).unwrap().args.clone();
    let streamed = match IDLArgs::text_from_bytes_with_types(bytes, &env, &types) {
        Ok(t) => t.to_string(),
        Err(e) => format!("error: {e}"),
    };
    let whole = match IDLArgs::from_bytes_with_types(bytes, &env, &types) {
        Ok(a) => a.to_string(),
        Err(e) => format!("error: {e}"),
    };
    let (cenv, cactor) = candid_parser::utils::CandidSource::Text(DID)
        .load()
        .unwrap();
    let ctypes = cenv
        .get_method(&cactor.unwrap(), method)
        .unwrap()
        .args
        .clone();
    let theirs = match candid::IDLArgs::from_bytes_with_types(bytes, &cenv, &ctypes) {
        Ok(a) => a.to_string(),
        Err(_) => "error".to_string(),
    };
    (streamed, whole, theirs)
}

/// `method`'s arguments from Candid text, encoded at the method's types.
fn message(method: &str, text: &str) -> Vec<u8> {
    let (env, actor) = interface();
    let types = env.get_method(&actor, method).unwrap().args.clone();
    candor_parser::parse_idl_args(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .to_bytes_with_types(&env, &types)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[track_caller]
fn same(method: &str, text: &str) -> String {
    let bytes = message(method, text);
    let (streamed, whole, theirs) = printed(method, &bytes);
    assert_eq!(streamed, whole, "{method} {text}");
    assert_eq!(streamed, theirs, "candid, {method} {text}");
    streamed
}

fn vec_of(n: usize, element: impl Fn(usize) -> String) -> String {
    let items: Vec<String> = (0..n).map(element).collect();
    format!("(vec {{ {} }})", items.join("; "))
}

#[test]
fn long_vectors_print_as_the_whole_value_does() {
    let row = |i: usize| {
        let memo = if i % 2 == 1 {
            format!("opt blob \"\\{:02x}\\ff\"", i % 256)
        } else {
            "null".to_string()
        };
        format!(
            "record {{ id = {i}; name = \"n{i} \\\"q\\\" \\u{{e9}}\"; memo = {memo}; amount = {} }}",
            i as u128 * 1_000_000_007_000_000_000
        )
    };
    let case = |i: usize| match i % 5 {
        0 => "variant { none }".to_string(),
        1 => format!("variant {{ small = {} }}", i % 256),
        2 => format!("variant {{ word = \"w{i}\\n\" }}"),
        3 => format!("variant {{ \"quoted label\" = -{i} }}"),
        _ => "variant { 7 }".to_string(),
    };
    for n in [11, 12, 50, 1000] {
        let out = same("rows", &vec_of(n, row));
        assert!(out.starts_with("(\n  vec { record {"), "{out}");
        same("cases", &vec_of(n, case));
        same("texts", &vec_of(n, |i| format!("\"\u{65e5}{i}\\t\"")));
        same("nested", &vec_of(n, |i| format!("vec {{ opt {i}; null }}")));
        same(
            "trees",
            &vec_of(n, |i| {
                format!("variant {{ node = record {{ left = variant {{ leaf = {i} }}; right = variant {{ leaf = -1 }} }} }}")
            }),
        );
        same("fewer", &vec_of(n, |i| format!("record {{ id = {i} }}")));
        same(
            "opts",
            &vec_of(n, |i| {
                if i % 3 == 0 {
                    "null".to_string()
                } else {
                    format!("opt record {{ id = {i}; extra = opt \"x\" }}")
                }
            }),
        );
    }
    // Eleven empty texts fit on the line of their parentheses; eleven nulls
    // (`null : null` each) do not.
    assert_eq!(
        same("texts", &vec_of(11, |_| "\"\"".into())),
        format!("(vec {{{}}})", " \"\";".repeat(11))
    );
    assert!(same("nulls", &vec_of(11, |_| "null".into())).starts_with("(\n  vec {"));
    // Wide characters: the width, not the byte count, decides the line.
    let mut flat = 0;
    for n in 10..=20 {
        let wide = |i: usize| format!("\"{}\"", "\u{65e5}".repeat(if i == 0 { n } else { 0 }));
        flat += usize::from(same("texts", &vec_of(11, wide)).starts_with("(vec"));
    }
    // 52 columns without them, two for each: 14 fit, 15 do not.
    assert_eq!(flat, 5);
}

#[test]
fn short_vectors_bytes_and_other_messages_take_the_general_path() {
    // Ten records or fewer are laid out over lines, which a streamed vector is not.
    let short = same(
        "fewer",
        &vec_of(10, |i| format!("record {{ id = {} }}", i * 1_000_000)),
    );
    assert!(
        short.contains("\n    record { id = 0 : nat64 };\n"),
        "{short}"
    );
    same("fewer", "(vec {})");
    same("cases", "(vec { variant { none } })");
    // vec nat8: a blob, short or long.
    same("bytes", &vec_of(11, |i| i.to_string()));
    same("bytes", &vec_of(3, |i| i.to_string()));
    same("bytes", "(vec {})");
    // Several arguments, and one that is not a vector.
    same(
        "two",
        &format!("(vec {{ {} }}, \"t\")", ["1"; 20].join("; ")),
    );
    same(
        "one_row",
        "(record { id = 1; name = \"x\"; memo = null; amount = 2 })",
    );
}

#[test]
fn errors_are_those_of_the_whole_decode() {
    let bytes = message(
        "rows",
        &vec_of(20, |i| {
            format!("record {{ id = {i}; name = \"n\"; memo = null; amount = {i} }}")
        }),
    );
    let mut cases: Vec<Vec<u8>> = vec![
        bytes[..bytes.len() - 3].to_vec(),
        [&bytes[..], &[0]].concat(),
        b"DIDL\x00\x01\x71\x01a".to_vec(),
        b"DIDL".to_vec(),
    ];
    // A bad byte in the middle of the vector (a text length beyond the end).
    let mut bad = bytes.clone();
    let at = bytes.len() - 40;
    bad[at] = 0x7f;
    cases.push(bad);
    for bytes in cases {
        let (streamed, whole, theirs) = printed("rows", &bytes);
        assert_eq!(streamed, whole, "{bytes:02x?}");
        assert_eq!(streamed.starts_with("error"), theirs.starts_with("error"));
    }
}

#[test]
fn random_messages_print_alike() {
    let (env, actor) = interface();
    for method in ["rows", "cases", "texts", "nested", "trees", "opts", "bytes"] {
        let types = env.get_method(&actor, method).unwrap().args.clone();
        // Random vectors are short: their elements together make long ones.
        let mut messages = candor_cli::random::generate(&env, &types, 7, 200).unwrap();
        let mut long = Vec::new();
        for args in &messages {
            if let [candor::IDLValue::Vec(items)] = args.args.as_slice() {
                long.extend(items.iter().cloned());
            }
        }
        for n in [11, 12, long.len()] {
            let items = long.iter().take(n).cloned().collect();
            messages.push(IDLArgs::new(&[candor::IDLValue::Vec(items)]));
        }
        assert!(
            method == "bytes" || long.len() > 100,
            "{method}: {}",
            long.len()
        );
        for args in messages {
            let bytes = args.to_bytes_with_types(&env, &types).unwrap();
            let (streamed, whole, theirs) = printed(method, &bytes);
            assert_eq!(streamed, whole, "{method}: {args}");
            assert_eq!(streamed, theirs, "candid, {method}: {args}");
        }
    }
}
