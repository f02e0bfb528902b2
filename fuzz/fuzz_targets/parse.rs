//! candor_parser against candid_parser on any text: a Candid value list is accepted
//! by both or by neither, and when both accept it, both encode it to the same bytes
//! (or both fail to); a `.did` program likewise parses in both or in neither, and
//! when it parses, type-checks in both or in neither.
//!
//! One difference is expected (spec/differences.md, D10): the Candid spec lets a
//! float's digits have `_` separators (`1_0.0_1`), as an integer's, and candor_parser
//! accepts them, where candid_parser's lexer takes a float's digits only. A text
//! candor accepts and candid rejects passes when candid accepts it once the `_`
//! between digits are removed.
//!
//! Texts with `0X` are left out: candid_parser 0.4.1 lexes `0X5` as a hex number and
//! then panics converting it (it strips a lowercase `0x` only).
//!
//! Texts nested deeper than candid_parser's generated parser survives (it recurses
//! without a limit, where candor_parser stops with an error) are left out, as are
//! texts that are not UTF-8 (both take `&str`).

#![no_main]

use libfuzzer_sys::fuzz_target;

/// Deeper bracket nesting than this is not compared (see the module doc).
const MAX_NESTING: usize = 40;

fn nesting(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for b in text.bytes() {
        match b {
            b'(' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// `text` without the `_` that stand between two digits.
fn without_digit_separators(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    for (i, &c) in b.iter().enumerate() {
        let between_digits = c == b'_'
            && i > 0
            && b.get(i - 1).is_some_and(u8::is_ascii_digit)
            && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if !between_digits {
            out.push(c);
        }
    }
    // Only ASCII bytes were removed, so the rest is still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.contains("0X") {
        return;
    }
    // `opt` and `vec` nest without brackets.
    let words = text.matches("opt").count() + text.matches("vec").count();
    if nesting(text) + words > MAX_NESTING {
        return;
    }
    let ours = candor_parser::parse_idl_args(text);
    let theirs = candid_parser::parse_idl_args(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => match (a.to_bytes(), b.to_bytes()) {
            (Ok(x), Ok(y)) => assert_eq!(x, y, "different bytes for {text:?}"),
            (Err(_), Err(_)) => {}
            (x, y) => panic!(
                "encoding differs for {text:?}: candor {:?}, candid {:?}",
                x.err(),
                y.err()
            ),
        },
        (Err(_), Err(_)) => {}
        (Ok(_), Err(_))
            if candid_parser::parse_idl_args(&without_digit_separators(text)).is_ok() => {}
        _ => panic!(
            "acceptance differs for {text:?}: candor {:?}, candid {:?}",
            ours.as_ref().err(),
            theirs.as_ref().err()
        ),
    }
    let ours = text.parse::<candor_parser::IDLProg>();
    let theirs = text.parse::<candid_parser::IDLProg>();
    match (ours, theirs) {
        (Ok(a), Ok(b)) => {
            // And it checks (names bound, no cyclic definitions, …) in both or neither.
            let ours = candor_parser::check_prog(&mut candor::TypeEnv::new(), &a);
            let theirs = candid_parser::check_prog(&mut candid_parser::TypeEnv::new(), &b);
            assert_eq!(
                ours.is_ok(),
                theirs.is_ok(),
                "a program checks in one only: {text:?}: candor {:?}, candid {:?}",
                ours.err(),
                theirs.err()
            );
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "a program parses in one only: {text:?}: candor {:?}, candid {:?}",
            a.err(),
            b.err()
        ),
    }
});
