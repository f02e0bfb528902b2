//! Scalar values (numbers, text, bool, principal, blob, func and service references):
//! how `explain` prints them and how `assemble` writes them back when their text was
//! edited. One place, so that printing and re-encoding agree.

use candor::{IDLValue, Int, Nat, Principal};
use std::io::Write;

/// The text explain writes and assemble compares is built as bytes: pushing
/// ASCII into a `Vec<u8>` is a store, where `String::push` encodes a `char`. What
/// is written is UTF-8 (ASCII punctuation, decimal digits, validated text).
pub trait Put {
    fn put(&mut self, s: &str);
}

impl Put for Vec<u8> {
    #[inline]
    fn put(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
}

/// The scalar wire types, as explain names them in its annotations.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scalar {
    Bool,
    Nat,
    Int,
    Nat8,
    Nat16,
    Nat32,
    Nat64,
    Int8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Text,
    Principal,
    Blob,
    Func,
    Service,
}

impl Scalar {
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Nat => "nat",
            Scalar::Int => "int",
            Scalar::Nat8 => "nat8",
            Scalar::Nat16 => "nat16",
            Scalar::Nat32 => "nat32",
            Scalar::Nat64 => "nat64",
            Scalar::Int8 => "int8",
            Scalar::Int16 => "int16",
            Scalar::Int32 => "int32",
            Scalar::Int64 => "int64",
            Scalar::Float32 => "float32",
            Scalar::Float64 => "float64",
            Scalar::Text => "text",
            Scalar::Principal => "principal",
            Scalar::Blob => "blob",
            Scalar::Func => "func",
            Scalar::Service => "service",
        }
    }

    /// ` : NAME = `: what explain writes between a value's path and its value.
    pub fn head(self) -> &'static str {
        match self {
            Scalar::Bool => " : bool = ",
            Scalar::Nat => " : nat = ",
            Scalar::Int => " : int = ",
            Scalar::Nat8 => " : nat8 = ",
            Scalar::Nat16 => " : nat16 = ",
            Scalar::Nat32 => " : nat32 = ",
            Scalar::Nat64 => " : nat64 = ",
            Scalar::Int8 => " : int8 = ",
            Scalar::Int16 => " : int16 = ",
            Scalar::Int32 => " : int32 = ",
            Scalar::Int64 => " : int64 = ",
            Scalar::Float32 => " : float32 = ",
            Scalar::Float64 => " : float64 = ",
            Scalar::Text => " : text = ",
            Scalar::Principal => " : principal = ",
            Scalar::Blob => " : blob = ",
            Scalar::Func => " : func = ",
            Scalar::Service => " : service = ",
        }
    }

    pub fn from_name(name: &str) -> Option<Scalar> {
        const ALL: [Scalar; 18] = [
            Scalar::Bool,
            Scalar::Nat,
            Scalar::Int,
            Scalar::Nat8,
            Scalar::Nat16,
            Scalar::Nat32,
            Scalar::Nat64,
            Scalar::Int8,
            Scalar::Int16,
            Scalar::Int32,
            Scalar::Int64,
            Scalar::Float32,
            Scalar::Float64,
            Scalar::Text,
            Scalar::Principal,
            Scalar::Blob,
            Scalar::Func,
            Scalar::Service,
        ];
        ALL.into_iter().find(|s| s.name() == name)
    }

    /// The width of a fixed-width scalar's encoding.
    pub fn fixed_width(self) -> Option<usize> {
        match self {
            Scalar::Bool | Scalar::Nat8 | Scalar::Int8 => Some(1),
            Scalar::Nat16 | Scalar::Int16 => Some(2),
            Scalar::Nat32 | Scalar::Int32 | Scalar::Float32 => Some(4),
            Scalar::Nat64 | Scalar::Int64 | Scalar::Float64 => Some(8),
            _ => None,
        }
    }
}

/// Appends the Candid text of a fixed-width value (`bytes` has its exact width).
pub fn write_fixed(out: &mut Vec<u8>, s: Scalar, bytes: &[u8]) {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    let signed = |v: i64, out: &mut Vec<u8>| {
        if v < 0 {
            out.push(b'-');
        }
        push_decimal(out, v.unsigned_abs(), false);
    };
    match s {
        Scalar::Bool => out.put(if b[0] == 1 { "true" } else { "false" }),
        Scalar::Nat8 => push_decimal(out, u64::from(b[0]), false),
        Scalar::Nat16 => push_decimal(out, u64::from(u16::from_le_bytes([b[0], b[1]])), false),
        Scalar::Nat32 => push_decimal(
            out,
            u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            false,
        ),
        Scalar::Nat64 => push_decimal(out, u64::from_le_bytes(b), false),
        Scalar::Int8 => signed(i64::from(b[0] as i8), out),
        Scalar::Int16 => signed(i64::from(i16::from_le_bytes([b[0], b[1]])), out),
        Scalar::Int32 => signed(i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])), out),
        Scalar::Int64 => signed(i64::from_le_bytes(b), out),
        Scalar::Float32 => {
            let _ = write_float(out, f32::from_le_bytes([b[0], b[1], b[2], b[3]]).into());
        }
        Scalar::Float64 => {
            let _ = write_float(out, f64::from_le_bytes(b));
        }
        _ => {}
    }
}

/// Floats print so that they read back as floats (`1.0`, not `1`); NaNs and
/// infinities print as Candid spells them.
fn write_float(out: &mut Vec<u8>, v: f64) -> std::io::Result<()> {
    if v.is_nan() {
        out.put("nan");
    } else if v.is_infinite() {
        out.put(if v > 0.0 { "inf" } else { "-inf" });
    } else if v.fract() == 0.0 && v.abs() < 1e16 {
        write!(out, "{v:.1}")?;
    } else {
        write!(out, "{v}")?;
    }
    Ok(())
}

/// Appends a Candid text literal: `"…"` with `\"`, `\\`, `\n`, `\r`, `\t` and
/// `\u{…}` for other control characters. Runs of bytes that need no escape (all
/// but ASCII controls, quote and backslash, and the C1 controls U+0080–U+009F)
/// are copied whole.
pub fn write_text(out: &mut Vec<u8>, s: &str) {
    write_utf8_text(out, s.as_bytes());
}

/// [`write_text`] of bytes known to be UTF-8.
pub(crate) fn write_utf8_text(out: &mut Vec<u8>, bytes: &[u8]) {
    // Most text needs no escape: one scan, one copy. (0xc2 starts the characters
    // that may need one beyond ASCII: the byte loop below tells.)
    if !may_need_escape(bytes) {
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    out.push(b'"');
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let plain = match b {
            b'"' | b'\\' | 0..=0x1f | 0x7f => false,
            // U+0080..U+009F are encoded C2 80..C2 9F.
            0xc2 => !matches!(bytes.get(i + 1), Some(0x80..=0x9f)),
            _ => true,
        };
        if plain {
            i += 1;
            continue;
        }
        out.extend_from_slice(&bytes[run..i]);
        // Only ASCII and the two bytes of U+0080..U+009F are escaped.
        let c = match (b, bytes.get(i + 1)) {
            (0xc2, Some(&next)) => char::from_u32(u32::from(next & 0x3f) | 0x80).unwrap_or('?'),
            _ => char::from(b),
        };
        match c {
            '"' => out.put("\\\""),
            '\\' => out.put("\\\\"),
            '\n' => out.put("\\n"),
            '\r' => out.put("\\r"),
            '\t' => out.put("\\t"),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
        i += c.len_utf8();
        run = i;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// Whether `bytes` hold a byte that may need an escape in a text literal
/// (ASCII controls, quote, backslash, DEL, 0xc2): eight bytes a word, where a
/// byte at a time costs several instructions per byte of every name.
fn may_need_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // A byte of `w` is zero: the classic test, exact for "some byte is".
    let zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    let word = |w: u64| {
        // Below 0x20 (the test is exact for thresholds up to 0x80).
        w.wrapping_sub(ONES * 0x20) & !w & HIGH
            | zero(w ^ (ONES * u64::from(b'"')))
            | zero(w ^ (ONES * u64::from(b'\\')))
            | zero(w ^ (ONES * 0x7f))
            | zero(w ^ (ONES * 0xc2))
            != 0
    };
    let load = |c: &[u8]| {
        let mut b = [0u8; 8];
        b.copy_from_slice(c);
        u64::from_ne_bytes(b)
    };
    if bytes.len() < 8 {
        let escapes = |b: &u8| matches!(b, b'"' | b'\\' | 0..=0x1f | 0x7f | 0xc2);
        return bytes.iter().any(escapes);
    }
    // The whole words, then the last eight bytes (overlapping the last word).
    bytes.chunks_exact(8).any(|c| word(load(c)))
        || bytes.get(bytes.len() - 8..).is_some_and(|c| word(load(c)))
}

/// Appends a Candid blob literal: printable ASCII as is, other bytes as `\xx`;
/// printable runs copied whole.
pub fn write_blob(out: &mut Vec<u8>, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() + 8);
    out.put("blob \"");
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            continue;
        }
        out.extend_from_slice(&bytes[run..i]);
        out.extend_from_slice(&[b'\\', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        run = i + 1;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

pub fn write_principal(out: &mut Vec<u8>, p: &Principal) {
    out.put("principal \"");
    push_principal_text(out, p);
    out.push(b'"');
}

/// A principal's textual form. Messages repeat the same few principals (an owner in
/// every record), and the text form costs a CRC and base32 each time, so the last
/// one is kept.
fn push_principal_text(out: &mut Vec<u8>, p: &Principal) {
    thread_local! {
        static LAST: std::cell::RefCell<(Vec<u8>, String)> = const {
            std::cell::RefCell::new((Vec::new(), String::new()))
        };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.0 != p.as_slice() || last.1.is_empty() {
            last.0.clear();
            last.0.extend_from_slice(p.as_slice());
            last.1 = p.to_text();
        }
        out.put(&last.1);
    });
}

/// `v` in decimal, with `_` between groups of three digits when `grouped` (as
/// candor prints `nat`s); without the formatting machinery, as explain writes one
/// per line.
pub fn push_decimal(out: &mut Vec<u8>, v: u64, grouped: bool) {
    if v < 10 {
        out.push(b'0' + v as u8);
        return;
    }
    // 20 digits and 6 separators at most, written from the end.
    let mut buf = [0u8; 26];
    let mut n = buf.len();
    let mut rest = v;
    let mut in_group = 0;
    while rest != 0 && n > 0 {
        if grouped && in_group == 3 && n > 1 {
            n -= 1;
            buf[n] = b'_';
            in_group = 0;
        }
        n -= 1;
        buf[n] = b'0' + (rest % 10) as u8;
        rest /= 10;
        in_group += 1;
    }
    out.extend_from_slice(&buf[n..]);
}

/// Appends the Candid text of the value whose exact bytes are `bytes`, read as a
/// value of type `s`; `None` when the bytes are not one whole such value. `explain`
/// prints values with it, and `assemble` uses it to tell an edited value from one
/// left as explain printed it.
pub fn render(out: &mut Vec<u8>, s: Scalar, bytes: &[u8]) -> Option<()> {
    match s {
        Scalar::Nat | Scalar::Int
            if bytes.len() <= 9 && bytes.last().is_some_and(|b| b & 0x80 == 0) =>
        {
            // Up to 63 bits: no bignum. (A longer or unterminated encoding takes the
            // general path below, which also rejects what is not one number.)
            let mut v: u64 = 0;
            for (i, b) in bytes.iter().enumerate() {
                v |= u64::from(b & 0x7f) << (7 * i);
            }
            let bits = 7 * bytes.len() as u32;
            let negative = s == Scalar::Int && bytes.last().is_some_and(|b| b & 0x40 != 0);
            if negative {
                // Sign-extend from `bits`; the magnitude of an i64 is at most 2^63.
                let signed = (v as i64) | (-1i64 << bits);
                out.push(b'-');
                push_decimal(out, signed.unsigned_abs(), true);
            } else {
                push_decimal(out, v, true);
            }
        }
        Scalar::Nat | Scalar::Int => {
            let mut reader = bytes;
            let text = if s == Scalar::Nat {
                Nat::decode(&mut reader).ok()?.to_string()
            } else {
                Int::decode(&mut reader).ok()?.to_string()
            };
            reader.is_empty().then_some(())?;
            out.put(&text);
        }
        Scalar::Text => {
            let body = counted(bytes)?;
            crate::explain::is_utf8(body).then_some(())?;
            write_utf8_text(out, body);
        }
        Scalar::Blob => write_blob(out, counted(bytes)?),
        Scalar::Principal => write_principal(out, &principal_of(bytes)?),
        Scalar::Service => {
            out.put("service \"");
            push_principal_text(out, &principal_of(bytes)?);
            out.push(b'"');
        }
        Scalar::Func => {
            let principal = bytes.strip_prefix(&[1])?.strip_prefix(&[1])?;
            let (p, rest) = split_counted(principal)?;
            let p = Principal::try_from_slice(p).ok()?;
            let name = std::str::from_utf8(counted(rest)?).ok()?;
            out.put("func \"");
            push_principal_text(out, &p);
            out.put("\".");
            if is_plain_name(name) {
                out.put(name);
            } else {
                write_text(out, name);
            }
        }
        fixed => {
            (fixed.fixed_width()? == bytes.len()).then_some(())?;
            if fixed == Scalar::Bool && bytes[0] > 1 {
                return None;
            }
            write_fixed(out, fixed, bytes);
        }
    }
    Some(())
}

/// The body of a length-prefixed byte string that fills `bytes` exactly.
fn counted(bytes: &[u8]) -> Option<&[u8]> {
    let (body, rest) = split_counted(bytes)?;
    rest.is_empty().then_some(body)
}

/// A length-prefixed byte string at the start of `bytes` (the length in LEB128 of
/// any padding), and what follows it.
fn split_counted(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut n: u64 = 0;
    for (i, b) in bytes.iter().enumerate() {
        if i < 10 {
            n |= u64::from(b & 0x7f).checked_shl(7 * i as u32)?;
        } else if b & 0x7f != 0 {
            return None;
        }
        if b & 0x80 == 0 {
            let rest = &bytes[i + 1..];
            let n = usize::try_from(n).ok()?;
            return (n <= rest.len()).then(|| rest.split_at(n));
        }
    }
    None
}

/// A principal's wire form (flag 01, length, bytes) filling `bytes` exactly.
fn principal_of(bytes: &[u8]) -> Option<Principal> {
    let body = counted(bytes.strip_prefix(&[1])?)?;
    Principal::try_from_slice(body).ok()
}

/// A method name that reads back unquoted after `func "…".`.
pub fn is_plain_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The bytes of `text` (a Candid value, as explain prints it or as someone edited
/// it) as a value of type `s`: what `assemble` writes for an edited line.
pub fn encode(s: Scalar, text: &str) -> Result<Vec<u8>, String> {
    let value = candor_parser::parse_idl_value(text)
        .map_err(|e| format!("`{text}` is not a Candid value: {e}"))?;
    let mut out = Vec::new();
    let wrong = || format!("`{text}` is not a {}", s.name());
    match (s, value) {
        (Scalar::Bool, IDLValue::Bool(b)) => out.push(u8::from(b)),
        (Scalar::Nat, IDLValue::Number(n)) => {
            let n: Nat = n.parse().map_err(|_| wrong())?;
            n.encode(&mut out).map_err(|e| e.to_string())?;
        }
        (Scalar::Int, IDLValue::Number(n)) => {
            let n: Int = n.parse().map_err(|_| wrong())?;
            n.encode(&mut out).map_err(|e| e.to_string())?;
        }
        (Scalar::Float32 | Scalar::Float64, v) => {
            let f = match v {
                IDLValue::Float64(f) => f,
                IDLValue::Number(n) => n.replace('_', "").parse().map_err(|_| wrong())?,
                _ => return Err(wrong()),
            };
            if s == Scalar::Float32 {
                out.extend_from_slice(&(f as f32).to_le_bytes());
            } else {
                out.extend_from_slice(&f.to_le_bytes());
            }
        }
        (fixed, IDLValue::Number(n)) if fixed.fixed_width().is_some() => {
            let n = n.replace('_', "");
            let bytes: Vec<u8> = match fixed {
                Scalar::Nat8 => n.parse::<u8>().map(|v| v.to_le_bytes().to_vec()),
                Scalar::Nat16 => n.parse::<u16>().map(|v| v.to_le_bytes().to_vec()),
                Scalar::Nat32 => n.parse::<u32>().map(|v| v.to_le_bytes().to_vec()),
                Scalar::Nat64 => n.parse::<u64>().map(|v| v.to_le_bytes().to_vec()),
                Scalar::Int8 => n.parse::<i8>().map(|v| v.to_le_bytes().to_vec()),
                Scalar::Int16 => n.parse::<i16>().map(|v| v.to_le_bytes().to_vec()),
                Scalar::Int32 => n.parse::<i32>().map(|v| v.to_le_bytes().to_vec()),
                _ => n.parse::<i64>().map(|v| v.to_le_bytes().to_vec()),
            }
            .map_err(|_| format!("`{text}` does not fit {}", fixed.name()))?;
            out.extend_from_slice(&bytes);
        }
        (Scalar::Text, IDLValue::Text(t)) => {
            leb(&mut out, t.len());
            out.extend_from_slice(t.as_bytes());
        }
        (Scalar::Blob, IDLValue::Blob(b)) => {
            leb(&mut out, b.len());
            out.extend_from_slice(&b);
        }
        (Scalar::Blob, IDLValue::Text(t)) => {
            leb(&mut out, t.len());
            out.extend_from_slice(t.as_bytes());
        }
        (Scalar::Principal, IDLValue::Principal(p)) | (Scalar::Service, IDLValue::Service(p)) => {
            principal(&mut out, &p);
        }
        (Scalar::Func, IDLValue::Func(p, m)) => {
            out.push(1);
            principal(&mut out, &p);
            leb(&mut out, m.len());
            out.extend_from_slice(m.as_bytes());
        }
        _ => return Err(wrong()),
    }
    Ok(out)
}

fn principal(out: &mut Vec<u8>, p: &Principal) {
    out.push(1);
    let bytes = p.as_slice();
    leb(out, bytes.len());
    out.extend_from_slice(bytes);
}

fn leb(out: &mut Vec<u8>, n: usize) {
    let _ = candor::types::leb128::encode_nat(out, n as u128);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(s: Scalar, bytes: &[u8]) -> String {
        let mut out = Vec::new();
        write_fixed(&mut out, s, bytes);
        String::from_utf8(out).unwrap()
    }

    /// The word-at-a-time test agrees with the byte test, for each byte value
    /// at each place of texts around the word size.
    #[test]
    fn escape_test_by_words_agrees_with_bytes() {
        let by_bytes = |t: &[u8]| {
            t.iter()
                .any(|b| matches!(b, b'"' | b'\\' | 0..=0x1f | 0x7f | 0xc2))
        };
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 24] {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut t = vec![b'a'; len];
                    t[at] = b;
                    assert_eq!(may_need_escape(&t), by_bytes(&t), "{t:?}");
                    // Beside bytes at and above 0x80, whose borrows must not
                    // make a neighbour look like a control.
                    t.iter_mut().filter(|c| **c == b'a').for_each(|c| *c = 0xe3);
                    assert_eq!(may_need_escape(&t), by_bytes(&t), "{t:?}");
                }
            }
        }
    }

    #[test]
    fn heads_name_the_scalar() {
        for s in [
            Scalar::Bool,
            Scalar::Nat,
            Scalar::Int64,
            Scalar::Text,
            Scalar::Service,
        ] {
            assert_eq!(s.head(), format!(" : {} = ", s.name()));
        }
    }

    #[test]
    fn fixed_width_values_print_and_encode_back() {
        for (s, bytes) in [
            (Scalar::Nat16, vec![0x34, 0x12]),
            (Scalar::Int8, vec![0xff]),
            (Scalar::Int64, (-5i64).to_le_bytes().to_vec()),
            (Scalar::Float64, 1.5f64.to_le_bytes().to_vec()),
            (Scalar::Float32, 2.0f32.to_le_bytes().to_vec()),
            (Scalar::Bool, vec![1]),
        ] {
            let text = printed(s, &bytes);
            assert_eq!(encode(s, &text).unwrap(), bytes, "{text}");
        }
    }

    #[test]
    fn texts_and_blobs_keep_every_character() {
        let mut t = Vec::new();
        write_text(&mut t, "a\"b\\c\nd\u{1}é\u{85}");
        let t = String::from_utf8(t).unwrap();
        assert_eq!(t, "\"a\\\"b\\\\c\\nd\\u{1}é\\u{85}\"");
        assert_eq!(
            encode(Scalar::Text, &t).unwrap(),
            b"\x0ca\"b\\c\nd\x01\xc3\xa9\xc2\x85".to_vec()
        );
        let mut b = Vec::new();
        write_blob(&mut b, &[0, b'a', 0xff, b'"']);
        let b = String::from_utf8(b).unwrap();
        assert_eq!(b, "blob \"\\00a\\ff\\22\"");
        assert_eq!(
            encode(Scalar::Blob, &b).unwrap(),
            vec![4, 0, b'a', 0xff, b'"']
        );
    }

    #[test]
    fn text_without_escapes_is_copied_and_the_rest_is_not() {
        let rendered = |body: &[u8]| {
            let mut bytes = vec![body.len() as u8];
            bytes.extend_from_slice(body);
            let mut out = Vec::new();
            render(&mut out, Scalar::Text, &bytes).map(|()| String::from_utf8(out).unwrap())
        };
        // Copied whole: ASCII, and characters beyond it that need no escape.
        assert_eq!(rendered(b"item-42").unwrap(), "\"item-42\"");
        assert_eq!(
            rendered("caf\u{e9} \u{1f600}".as_bytes()).unwrap(),
            "\"caf\u{e9} \u{1f600}\""
        );
        assert_eq!(
            rendered("\u{a0}\u{c0}".as_bytes()).unwrap(),
            "\"\u{a0}\u{c0}\""
        );
        // Escaped: quotes, controls, and U+0080..U+009F (which start with 0xc2, as
        // U+00A0.. does).
        assert_eq!(rendered(b"say \"hi\"").unwrap(), "\"say \\\"hi\\\"\"");
        assert_eq!(
            rendered("\u{85}\u{a0}\u{9f}".as_bytes()).unwrap(),
            "\"\\u{85}\u{a0}\\u{9f}\""
        );
        assert_eq!(rendered(b"a\x7fb\t").unwrap(), "\"a\\u{7f}b\\t\"");
        // Not UTF-8: no value.
        assert_eq!(rendered(b"ok\xff"), None);
        assert_eq!(rendered(b"\xc2"), None);
    }

    #[test]
    fn small_numbers_print_as_the_bignum_path_does() {
        let mut values: Vec<i128> = vec![0, 1, -1, 63, 64, -64, -65, 999, 1000, -1000];
        for shift in [7, 14, 21, 28, 35, 42, 49, 56, 62, 63, 64] {
            values.extend([
                (1i128 << shift) - 1,
                1i128 << shift,
                -(1i128 << shift),
                -(1i128 << shift) - 1,
            ]);
        }
        for v in values {
            let mut bytes = Vec::new();
            candor::types::leb128::encode_int(&mut bytes, v).unwrap();
            let mut fast = Vec::new();
            render(&mut fast, Scalar::Int, &bytes).unwrap();
            assert_eq!(fast, Int::from(v).to_string().into_bytes(), "int {v}");
            if v >= 0 {
                let mut bytes = Vec::new();
                candor::types::leb128::encode_nat(&mut bytes, v as u128).unwrap();
                let mut fast = Vec::new();
                render(&mut fast, Scalar::Nat, &bytes).unwrap();
                assert_eq!(
                    fast,
                    Nat::from(v as u128).to_string().into_bytes(),
                    "nat {v}"
                );
            }
        }
        // Non-canonical padding reads as the same number.
        let mut padded = Vec::new();
        render(&mut padded, Scalar::Nat, &[0x81, 0x80, 0x00]).unwrap();
        assert_eq!(padded, b"1");
    }

    #[test]
    fn a_value_of_the_wrong_kind_is_refused() {
        assert!(encode(Scalar::Nat8, "300").is_err());
        assert!(encode(Scalar::Nat, "-1").is_err());
        assert!(encode(Scalar::Text, "5").is_err());
        assert!(encode(Scalar::Bool, "\"x\"").is_err());
    }
}
