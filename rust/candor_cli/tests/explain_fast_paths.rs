//! `explain`'s fast paths (vectors of fixed-width numbers, record fields of
//! primitive types, text and principal lines) write what its general path writes,
//! byte for byte: on the messages where they fire, and on those where they must
//! step aside (elements of different shapes, variants, values that do not fit or
//! are read as another type, `reserved`, names from a dictionary, faults in the
//! middle of a vector, nesting at the depth limit).

use candor_cli::explain::{explain, Context};

/// Explains `bytes` with the fast paths and without; both must agree.
fn same(bytes: &[u8], cx: impl Fn() -> Context, what: &str) {
    let fast = explain(bytes, &cx());
    let general = explain(bytes, &cx().general_only());
    assert_eq!(
        fast.text(),
        general.text(),
        "{what}: the fast paths changed the text"
    );
    assert_eq!(fast.fault, general.fault, "{what}: fault");
    assert_eq!(fast.rejected, general.rejected, "{what}: verdict");
}

fn message(text: &str) -> Vec<u8> {
    candor_parser::parse_idl_args(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .to_bytes()
        .unwrap()
}

/// A `.did` in a temporary file (for `Names::load`).
fn did_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("explain-fast-{}-{name}.did", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Messages where the fast paths fire, and some where they must not.
const MESSAGES: &[&str] = &[
    // Records of primitives, vectors of fixed-width numbers: every fast path.
    "(vec { record { id = 0 : nat64; name = \"item-0\"; owner = principal \"2vxsx-fae\"; \
      tags = vec { 1 : nat16; 2 : nat16; 3 : nat16 }; note = opt \"checked\" }; \
      record { id = 123456789 : nat64; name = \"item-123456\"; owner = principal \"aaaaa-aa\"; \
      tags = vec {}; note = null : opt text }; \
      record { id = 2 : nat64; name = \"item-2\"; owner = principal \"2vxsx-fae\"; \
      tags = vec { 65535 : nat16 }; note = opt \"\" } })",
    // Every fixed-width type in vectors, with their extremes.
    "(vec { true; false }, vec { 0 : nat8; 255 : nat8 }, vec { 65535 : nat16 }, \
      vec { 4294967295 : nat32; 7 : nat32 }, vec { 18446744073709551615 : nat64 }, \
      vec { -128 : int8; 127 : int8 }, vec { -32768 : int16 }, vec { -2147483648 : int32 }, \
      vec { -9223372036854775808 : int64; 5 : int64 }, vec { 1.5 : float32; -0.0 : float32 }, \
      vec { 1.0e300 : float64; 3.0 : float64 })",
    // Twelve elements: indices of two digits.
    "(vec { 1 : int16; 2 : int16; 3 : int16; 4 : int16; 5 : int16; 6 : int16; 7 : int16; \
      8 : int16; 9 : int16; 10 : int16; 11 : int16; -12 : int16 })",
    // Vectors whose elements differ in shape: variants, options, records.
    "(vec { variant { a = 1 : nat8 }; variant { b = \"x\" }; variant { c } })",
    "(vec { opt (1 : nat16); null; opt (3 : nat16) }, vec { vec { 1 : nat8 }; vec {} })",
    "(vec { record { 1 = 2 : nat32; 2 = vec { 3 : int8 } }; record { 1 = 4 : nat32; 2 = vec {} } })",
    // Text: lengths around the word size, escapes, beyond ASCII, controls.
    "(\"\", \"1234567\", \"12345678\", \"123456789\", \"0123456789abcdef\", \
      \"0123456789abcdefg\", \"say \\\"hi\\\"\", \"back\\\\slash\", \"tab\\there\", \
      \"\u{65e5}\u{672c}\u{8a9e}\", \"\u{85}next line\", \"long text, plain, no escape at all\", \
      \"escape at the end of a long one\\n\", \"\\7f del\")",
    // Principals changing from value to value.
    "(principal \"aaaaa-aa\", principal \"2vxsx-fae\", principal \"aaaaa-aa\", \
      vec { principal \"2vxsx-fae\"; principal \"2vxsx-fae\" })",
    // Nats, ints, labels needing quotes, field ids with and without names.
    "(record { \"type\" = 1 : nat; \"with space\" = -5 : int; 42 = true; name = \"n\"; \
      1_000_000 = 7 : nat8 }, variant { ok = vec { 1 : nat64 } })",
    // A blob and other vectors that are not of fixed-width numbers.
    "(blob \"\\00\\01abc\", vec { \"a\"; \"b\" }, vec { null; null }, vec { 1 : nat; 2 : nat })",
];

#[test]
fn without_an_interface() {
    for text in MESSAGES {
        same(&message(text), Context::default, text);
    }
}

#[test]
fn with_names_from_a_dictionary() {
    // Field names known only by their hashes on the wire; `type` needs quoting.
    let did = did_file(
        "names",
        "type t = record { id : nat64; name : text; owner : principal; tags : vec nat16; \
         note : opt text; \"type\" : nat; \"with space\" : int; a : nat8; b : text; c : null }; \
         service : { m : (t) -> () }",
    );
    let names = candor_cli::names::Names::load(&[&did]).unwrap();
    for text in MESSAGES {
        same(&message(text), || Context::with_names(&names), text);
    }
    let _ = std::fs::remove_file(did);
}

/// The record vector read against types that take it as it is, widen a field,
/// ignore one (`reserved`), wrap one into an `opt`, name a type, lack a field,
/// and against one it does not fit.
#[test]
fn with_an_interface() {
    let bytes = message(MESSAGES[0]);
    let dids = [
        "type S = record { id : nat64; name : text; owner : principal; tags : vec nat16; note : opt text }; \
         service : { m : (vec S) -> () }",
        "type N = nat16; type S = record { id : nat64; name : text; owner : principal; tags : vec N; note : opt text }; \
         service : { m : (vec S) -> () }",
        "type S = record { id : reserved; name : opt text; owner : principal; tags : vec reserved }; \
         service : { m : (vec S) -> () }",
        "type S = record { id : nat64; name : nat; owner : text; tags : vec nat32; extra : opt nat }; \
         service : { m : (vec S) -> () }",
        "type S = record { id : nat64; name : text; owner : principal; tags : vec opt nat16; \
         note : opt text; needed : nat }; service : { m : (vec S) -> () }",
        "service : { m : (vec record { id : opt nat64; tags : opt vec nat16 }) -> () }",
        "service : { m : (vec text) -> () }",
    ];
    for did in dids {
        let prog: candor_parser::IDLProg = did.parse().unwrap();
        let mut env = candor::TypeEnv::new();
        let actor = candor_parser::check_prog(&mut env, &prog).unwrap().unwrap();
        let method = env.get_method(&actor, "m").unwrap().clone();
        same(&bytes, || Context::from_interface(&env, &method.args), did);
    }
    // A recursive record inside itself; one table entry read at two
    // expected records in turn.
    let cases = [
        (
            "(record { v = 1 : nat8; next = opt record { v = 2 : nat8; next = opt record { \
              v = 3 : nat8; next = null : opt empty } } })",
            "type T = record { v : nat8; next : opt T }; service : { m : (T) -> () }",
        ),
        (
            "(record { a = 1 : nat8 }, record { a = 2 : nat8 }, record { a = 3 : nat8 })",
            "service : { m : (record { a : nat8 }, record { a : nat8; b : opt nat }, \
             record { a : nat8 }) -> () }",
        ),
    ];
    for (text, did) in cases {
        let prog: candor_parser::IDLProg = did.parse().unwrap();
        let mut env = candor::TypeEnv::new();
        let actor = candor_parser::check_prog(&mut env, &prog).unwrap().unwrap();
        let method = env.get_method(&actor, "m").unwrap().clone();
        same(
            &message(text),
            || Context::from_interface(&env, &method.args),
            did,
        );
    }
    // Numbers read as wider types, in vectors and fields.
    let numbers = message("(vec { 1 : nat8; 2 : nat8 }, record { a = 5 : nat; b = 7 : nat16 })");
    for did in [
        "service : { m : (vec nat8, record { a : int; b : nat16 }) -> () }",
        "service : { m : (vec int8, record { a : nat; b : reserved }) -> () }",
        "service : { m : (vec opt nat8, record { a : opt int; b : opt nat16 }) -> () }",
        "service : { m : (reserved, record { a : text; b : int16 }) -> () }",
    ] {
        let prog: candor_parser::IDLProg = did.parse().unwrap();
        let mut env = candor::TypeEnv::new();
        let actor = candor_parser::check_prog(&mut env, &prog).unwrap().unwrap();
        let method = env.get_method(&actor, "m").unwrap().clone();
        same(
            &numbers,
            || Context::from_interface(&env, &method.args),
            did,
        );
    }
}

/// A message whose one argument is `depth` vectors around a vector of
/// two `nat16`s, each vector of one element.
fn nested(depth: usize) -> Vec<u8> {
    // Signed LEB128 of a non-negative number (type references are signed).
    fn leb(mut n: usize, out: &mut Vec<u8>) {
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 && b & 0x40 == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }
    let mut m = b"DIDL".to_vec();
    leb(depth + 1, &mut m);
    for i in 0..depth {
        m.push(0x6d);
        leb(i + 1, &mut m);
    }
    m.extend_from_slice(&[0x6d, 0x7a, 0x01, 0x00]);
    m.extend(std::iter::repeat_n(0x01, depth));
    m.extend_from_slice(&[0x02, 0x01, 0x00, 0x02, 0x00]);
    m
}

#[test]
fn at_the_depth_limit_and_at_faults() {
    for depth in [509, 510, 511, 512, 513] {
        same(&nested(depth), Context::default, &format!("depth {depth}"));
    }
    // Cut inside the vector of numbers, a bool that is not 0 or 1, a record
    // whose text field runs past the end.
    let mut cut = message("(vec { 1 : nat32; 2 : nat32; 3 : nat32 })");
    cut.truncate(cut.len() - 2);
    same(&cut, Context::default, "cut vector");
    let mut bools = message("(vec { true; false; true })");
    let last = bools.len() - 2;
    bools[last] = 2;
    same(&bools, Context::default, "bool byte 2");
    let mut text = message("(record { a = \"hello\"; b = 1 : nat8 })");
    text.truncate(text.len() - 3);
    same(&text, Context::default, "cut text");
}
