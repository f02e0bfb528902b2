//! Candid text syntax for values on one line (`Debug`), with candid's output for
//! the same value.
//!
//! The text is appended to a `String` by plain pushes rather than through
//! `fmt::Formatter`: a decoded message is mostly long vectors, which the laid-out
//! printer ([`super::pretty`]) also prints this way, and `write!` per number or
//! per blob byte is most of the cost of printing them. Only rare cases (floats,
//! text with escapes, principals) go through `fmt`.

use super::{IDLArgs, IDLField, IDLValue};
use crate::types::{ident_string, is_plain_label, Label};
use std::fmt::{self, Write};

// ---- text helpers (candid's) -------------------------------------------------------

/// candid's `Display for Label`: ids grouped by three, names as they are.
pub(crate) fn label_string(l: &Label) -> String {
    let mut out = String::new();
    push_label_string(&mut out, l);
    out
}

fn push_label_string(out: &mut String, l: &Label) {
    match l {
        Label::Id(n) | Label::Unnamed(n) => push_u64(out, false, u64::from(*n), true),
        Label::Named(name) => out.push_str(name),
    }
}

/// A label as written in a value: names quoted when needed, ids grouped.
pub(super) fn push_label_text(out: &mut String, l: &Label) {
    match l {
        Label::Named(name) if !is_plain_label(name) => out.push_str(&ident_string(name)),
        _ => push_label_string(out, l),
    }
}

/// A label as written in a value, as a new string.
pub(super) fn label_text(l: &Label) -> String {
    let mut out = String::new();
    push_label_text(&mut out, l);
    out
}

/// `n` in decimal (after `-` when `negative`), with `_` between groups of three
/// digits when `grouped` (candid's `group_digits`).
fn push_u64(out: &mut String, negative: bool, mut n: u64, grouped: bool) {
    // 20 digits, 6 separators and a sign at most.
    let mut buf = [0u8; 27];
    let mut i = buf.len();
    let mut count = 0;
    loop {
        if grouped && count > 0 && count % 3 == 0 {
            i -= 1;
            buf[i] = b'_';
        }
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        count += 1;
        if n == 0 {
            break;
        }
    }
    if negative {
        i -= 1;
        buf[i] = b'-';
    }
    out.push_str(std::str::from_utf8(buf.get(i..).unwrap_or_default()).unwrap_or_default());
}

fn push_i64(out: &mut String, n: i64, grouped: bool) {
    push_u64(out, n < 0, n.unsigned_abs(), grouped);
}

fn float_str<F: fmt::Display + Copy>(f: F, finite_int: bool) -> String {
    if finite_int {
        format!("{f}.0")
    } else {
        f.to_string()
    }
}

/// A number without its type annotation, appended to `out`.
fn push_number(out: &mut String, v: &IDLValue) {
    use IDLValue::*;
    match v {
        Number(n) => out.push_str(n),
        Int(n) => match i64::try_from(&n.0) {
            Ok(small) => push_i64(out, small, true),
            Err(_) => out.push_str(&n.to_string()),
        },
        Nat(n) => match u64::try_from(&n.0) {
            Ok(small) => push_u64(out, false, small, true),
            Err(_) => out.push_str(&n.to_string()),
        },
        Nat8(n) => push_u64(out, false, u64::from(*n), false),
        Nat16(n) => push_u64(out, false, u64::from(*n), true),
        Nat32(n) => push_u64(out, false, u64::from(*n), true),
        Nat64(n) => push_u64(out, false, *n, true),
        Int8(n) => push_i64(out, i64::from(*n), false),
        Int16(n) => push_i64(out, i64::from(*n), true),
        Int32(n) => push_i64(out, i64::from(*n), true),
        Int64(n) => push_i64(out, *n, true),
        Float32(f) => out.push_str(&float_str(*f, f.is_finite() && f.trunc() == *f)),
        Float64(f) => out.push_str(&float_str(*f, f.is_finite() && f.trunc() == *f)),
        _ => {}
    }
}

/// A number without its type annotation (candid's `number_to_string`).
pub fn number_to_string(v: &IDLValue) -> String {
    let mut out = String::new();
    push_number(&mut out, v);
    out
}

/// The annotation after a number (`int`, `nat8`, …), if `v` is one.
fn number_type(v: &IDLValue) -> Option<&'static str> {
    use IDLValue::*;
    Some(match v {
        Int(_) => "int",
        Nat(_) => "nat",
        Nat8(_) => "nat8",
        Nat16(_) => "nat16",
        Nat32(_) => "nat32",
        Nat64(_) => "nat64",
        Int8(_) => "int8",
        Int16(_) => "int16",
        Int32(_) => "int32",
        Int64(_) => "int64",
        Float32(_) => "float32",
        Float64(_) => "float64",
        _ => return Option::None,
    })
}

pub(super) fn has_type_annotation(v: &IDLValue) -> bool {
    number_type(v).is_some() || matches!(v, IDLValue::Null | IDLValue::Reserved)
}

/// Whether text is printed as is between quotes by both `str`'s `Debug` and
/// `str::escape_debug` (printable ASCII but quotes and backslash).
pub(super) fn is_plain_text(s: &str) -> bool {
    s.bytes()
        .all(|c| (0x20..=0x7e).contains(&c) && !matches!(c, b'"' | b'\'' | b'\\'))
}

// ---- blobs ------------------------------------------------------------------------------

/// ASCII text gathered in a buffer and appended to a `String` in chunks: one
/// capacity check per chunk rather than per character.
struct Ascii<'a> {
    out: &'a mut String,
    buf: [u8; 256],
    len: usize,
}

impl<'a> Ascii<'a> {
    fn new(out: &'a mut String) -> Self {
        Ascii {
            out,
            buf: [0; 256],
            len: 0,
        }
    }

    /// Appends up to three ASCII bytes.
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        if self.len + bytes.len() > self.buf.len() {
            self.flush();
        }
        if let Some(dst) = self.buf.get_mut(self.len..self.len + bytes.len()) {
            dst.copy_from_slice(bytes);
            self.len += bytes.len();
        }
    }

    fn flush(&mut self) {
        let chunk = self.buf.get(..self.len).unwrap_or_default();
        // Only ASCII is pushed.
        self.out
            .push_str(std::str::from_utf8(chunk).unwrap_or_default());
        self.len = 0;
    }
}

impl Drop for Ascii<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// `\xx` for every byte.
static ESCAPED: [[u8; 3]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut t = [[0; 3]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [b'\\', DIGITS[i >> 4], DIGITS[i & 15]];
        i += 1;
    }
    t
};

/// One byte of a blob: printable ASCII as itself (except quotes, backquote and
/// backslash), anything else as `\xx`.
#[inline]
fn pp_char(out: &mut Ascii<'_>, v: u8) {
    if (0x20..=0x7e).contains(&v) && !matches!(v, b'"' | b'\'' | b'`' | b'\\') {
        out.push(&[v]);
    } else {
        out.push(&ESCAPED[usize::from(v)]);
    }
}

/// `blob "…"`: as text when every byte is printable ASCII or a tab or line end,
/// else every byte as `\xx`.
fn push_blob(out: &mut String, b: &[u8]) {
    out.reserve(b.len() * 3 + 7);
    out.push_str("blob \"");
    let text = b
        .iter()
        .all(|c| (0x20..=0x7e).contains(c) || matches!(c, 0x09 | 0x0a | 0x0d));
    {
        let mut ascii = Ascii::new(out);
        for &v in b {
            if text {
                pp_char(&mut ascii, v);
            } else {
                ascii.push(&ESCAPED[usize::from(v)]);
            }
        }
    }
    out.push('"');
}

// ---- Debug: one line ------------------------------------------------------------------

/// The one-line text of `v` (its `Debug`).
pub(super) fn debug_text(v: &IDLValue) -> String {
    let mut out = String::new();
    push_debug(&mut out, v);
    out
}

/// Appends the one-line text of `v` to `out`.
pub(crate) fn push_debug(out: &mut String, v: &IDLValue) {
    use IDLValue::*;
    if let Some(ty) = number_type(v) {
        push_number(out, v);
        out.push_str(" : ");
        out.push_str(ty);
        return;
    }
    match v {
        Null => out.push_str("null : null"),
        Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Number(n) => out.push_str(n),
        Text(s) if is_plain_text(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Text(s) => {
            let _ = write!(out, "{s:?}");
        }
        None => out.push_str("null"),
        Reserved => out.push_str("null : reserved"),
        Principal(id) => {
            let _ = write!(out, "principal \"{id}\"");
        }
        Service(id) => {
            let _ = write!(out, "service \"{id}\"");
        }
        Func(id, meth) => {
            let _ = write!(out, "func \"{id}\".{}", ident_string(meth));
        }
        Opt(v) if has_type_annotation(v) => {
            out.push_str("opt (");
            push_debug(out, v);
            out.push(')');
        }
        Opt(v) => {
            out.push_str("opt ");
            push_debug(out, v);
        }
        Blob(b) => push_blob(out, b),
        Vec(vs) => push_vec(out, vs),
        Record(fs) => {
            out.push_str("record {");
            for (i, e) in fs.iter().enumerate() {
                out.push(' ');
                if e.id.get_id() as usize == i {
                    push_debug(out, &e.val);
                } else {
                    push_field(out, e);
                }
                out.push(';');
            }
            out.push('}');
        }
        Variant(v) => {
            out.push_str("variant { ");
            if v.0.val == Null {
                push_label_string(out, &v.0.id);
            } else {
                push_field(out, &v.0);
            }
            out.push_str(" }");
        }
        // Numbers were written above.
        _ => {}
    }
}

fn push_vec(out: &mut String, vs: &[IDLValue]) {
    if let Some(IDLValue::Nat8(_)) = vs.first() {
        // Decoding gives `Blob`; a vector of nat8 built by hand prints the same way.
        out.push_str("blob \"");
        for v in vs {
            match v {
                IDLValue::Nat8(v) => pp_char(&mut Ascii::new(out), *v),
                other => push_debug(out, other),
            }
        }
        out.push('"');
    } else {
        out.push_str("vec {");
        for v in vs {
            out.push(' ');
            push_debug(out, v);
            out.push(';');
        }
        out.push('}');
    }
}

fn push_field(out: &mut String, field: &IDLField) {
    push_label_text(out, &field.id);
    out.push_str(" = ");
    push_debug(out, &field.val);
}

impl fmt::Debug for IDLValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&debug_text(self))
    }
}

impl fmt::Debug for IDLField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        push_field(&mut out, self);
        f.write_str(&out)
    }
}

impl fmt::Debug for IDLArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.args.as_slice() {
            write!(f, "({one:?})")
        } else {
            let mut tup = f.debug_tuple("");
            for arg in &self.args {
                tup.field(arg);
            }
            tup.finish()
        }
    }
}
