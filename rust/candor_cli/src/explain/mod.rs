//! `candor explain`: every byte of a message, in order, one line per element.
//!
//! A line is `OFFSET: HEX | ANNOTATION`: the offset of the element's first byte, its
//! bytes, and what they are (the magic, a type-table entry, an argument type, a value
//! with its path). Every byte of the input is on exactly one line, in order, so
//! `assemble` can rebuild the message from the hex column alone, whatever the message
//! is: non-canonical LEB128, unused or oddly ordered table entries, bytes after the
//! last value and malformed messages are shown as they are. A malformed message is
//! explained up to its fault; then a `!!` line says where and what went wrong, and
//! the bytes not read follow as `unread` lines. Lines starting with `#` are notes
//! (the quota totals, the method's verdict); `assemble` skips them.
//!
//! **Quota units.** Each value line ends with `[N units]`: what candor's decoder
//! (and candid's) charges for that value when it is skipped or decoded without a
//! Rust type (`IDLValue`): an extra argument, an extra field, an `opt` that does not
//! fit, `decode`. Such units count once on the skipping quota and 50 times on the
//! decoding quota; a value decoded into a Rust type costs about one fiftieth
//! (`spec/limits.md` §3). A record's own units (its keys) are counted on its first
//! line, a vector element's fetch on the element's first line. The header costs 4
//! units per byte; the `#` notes give both totals.
//!
//! **Subtyping.** With an interface (`--did --method`), each value is read against
//! the type the method expects, by the spec's coercion rules, value by value as
//! the decoder does: a field the method does not know is marked skipped, a field it
//! needs but the message lacks gets a line of its own (`absent`), an `opt` whose
//! value does not fit gets a line saying it becomes `null`, an extra argument is
//! marked skipped, and a value that cannot fit where no `opt` absorbs it makes the
//! method reject the message (a final `#` note, and exit status 1). Func and service
//! references are not compared with the expected signatures, and vectors of values
//! that take no bytes are not checked element by element.
//!
//! This reader is separate from candor's decoder on purpose: it must show what the
//! bytes say even where the decoder would stop, and it never needs the Rust types.
//! It checks what the binary format requires (magic, table references, field order,
//! lengths against the input, UTF-8, principal form).

mod header;
mod values;

use crate::scalar::{self, Scalar};
use candor::types::{Label, Type, TypeEnv, TypeInner};
use std::collections::HashMap;

/// Nesting deeper than this is reported as a fault (the input cannot make the
/// explainer recurse without bound).
const MAX_DEPTH: usize = 512;
/// Bytes per `unread` line.
const UNREAD_CHUNK: usize = 16;
/// The hex column is padded to this width so annotations line up.
const HEX_COLUMN: usize = 24;

/// Names that a `.did` gives to field ids (by hash), and the argument types a
/// method expects.
#[derive(Default)]
pub struct Context {
    names: HashMap<u32, String>,
    env: TypeEnv,
    expected: Option<Vec<Type>>,
}

impl Context {
    /// Field and case names of every type in `env` and `types`, and `types` as the
    /// types the values are read against.
    pub fn from_interface(env: &TypeEnv, types: &[Type]) -> Context {
        let mut names = HashMap::new();
        let mut add = |t: &Type| collect_names(t, &mut names, 0);
        for (_, t) in env.0.iter() {
            add(t);
        }
        for t in types {
            add(t);
        }
        Context {
            names,
            env: env.clone(),
            expected: Some(types.to_vec()),
        }
    }

    /// `t` with names followed to their definitions (borrowed from the
    /// environment; an unknown name stays as it is).
    fn resolve<'a>(&'a self, t: &'a Type) -> &'a Type {
        match t.as_ref() {
            TypeInner::Var(name) => self.env.rec_find_type(name).unwrap_or(t),
            _ => t,
        }
    }
}

fn collect_names(t: &Type, names: &mut HashMap<u32, String>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match t.as_ref() {
        TypeInner::Record(fs) | TypeInner::Variant(fs) => {
            for f in fs {
                if let Label::Named(n) = f.id.as_ref() {
                    names.insert(candor::idl_hash(n), n.clone());
                }
                collect_names(&f.ty, names, depth + 1);
            }
        }
        TypeInner::Opt(t) | TypeInner::Vec(t) => collect_names(t, names, depth + 1),
        TypeInner::Func(f) => {
            for t in f.args.iter().chain(&f.rets) {
                collect_names(t, names, depth + 1);
            }
        }
        TypeInner::Service(ms) => {
            for (_, t) in ms {
                collect_names(t, names, depth + 1);
            }
        }
        TypeInner::Class(args, t) => {
            for a in args {
                collect_names(a, names, depth + 1);
            }
            collect_names(t, names, depth + 1);
        }
        _ => {}
    }
}

/// Where and why a message is malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub offset: usize,
    pub message: String,
}

/// The annotated text, the fault if the message is malformed, and why the method
/// rejects it if an interface was given and its types do not accept the values.
pub struct Explained {
    pub text: String,
    pub fault: Option<Fault>,
    pub rejected: Option<String>,
}

/// Explains `input`; see the module docs for the format.
pub fn explain(input: &[u8], cx: &Context) -> Explained {
    let mut w = Walk {
        input,
        pos: 0,
        out: String::with_capacity(estimate(input.len())),
        table: Vec::new(),
        declared_table_len: 0,
        shown: 0,
        no_bytes: Vec::new(),
        no_bytes_units: Vec::new(),
        cx,
        path: String::new(),
        units: 0,
        total_units: 0,
        note: None,
        rejected: None,
        unfit: None,
    };
    let result = w.message();
    let fault = result.err();
    if let Some(f) = &fault {
        w.out.push_str("!! fault at offset ");
        scalar::push_decimal(&mut w.out, f.offset as u64, false);
        w.out.push_str(": ");
        w.out.push_str(&f.message);
        w.out.push('\n');
        let mut at = w.shown;
        while at < input.len() {
            let end = (at + UNREAD_CHUNK).min(input.len());
            w.pos = end;
            w.line(at);
            w.out.push_str("unread\n");
            at = end;
        }
    }
    Explained {
        text: w.out,
        fault,
        rejected: w.rejected,
    }
}

/// The explanation's size, reserved once: a header line per few bytes, a value
/// line of some 80 characters per few bytes of small values, about 5 characters
/// per byte of a long blob or text.
fn estimate(len: usize) -> usize {
    len.saturating_mul(24)
        .min(1 << 28)
        .max(len.saturating_mul(6))
        + 1024
}

/// A type reference: an index into the table, or a primitive opcode.
#[derive(Clone, Copy)]
enum Ref {
    Table(usize),
    Prim(i64),
}

enum Entry {
    Opt(Ref),
    Vec(Ref),
    Record(Vec<(u32, Ref)>),
    Variant(Vec<(u32, Ref)>),
    Func,
    Service,
}

/// What a value line says beyond its value: a subtyping decision.
#[derive(Clone, Copy)]
enum Note<'a> {
    /// A record field the expected type does not have.
    Skipped,
    /// The expected type is `reserved`: the value is read and dropped.
    Ignored,
    /// A `nat` read as an `int`, or a value wrapped in an `opt`.
    ReadAs(&'a Type),
    /// The value is not of the expected type (or its case is not one of it).
    NotFit(&'a Type),
    /// A variant case the expected variant lacks.
    NoCase,
}

struct Walk<'a> {
    input: &'a [u8],
    pos: usize,
    out: String,
    table: Vec<Entry>,
    /// The table length the message declares (references are checked against it
    /// while the table is still being read).
    declared_table_len: usize,
    cx: &'a Context,
    /// Per table entry, whether its values take no bytes (see `takes_no_bytes`).
    no_bytes: Vec<Option<bool>>,
    /// Per table entry taking no bytes, the units its values cost.
    no_bytes_units: Vec<Option<u64>>,
    /// Where the bytes shown so far end: a fault's unread bytes start here.
    shown: usize,
    /// The path of the value being explained (`arg 0 → to → owner`), grown and cut
    /// back as the walk goes down and up.
    path: String,
    /// Units charged since the last value line (shown on the next one).
    units: u64,
    total_units: u64,
    /// A decision to show on the next value line.
    note: Option<Note<'a>>,
    /// Why the method's types reject the message (the first reason found).
    rejected: Option<String>,
    /// The first value in the current argument that does not fit, with its path:
    /// the reason given if no `opt` around it absorbs it.
    unfit: Option<String>,
}

type Step<T = ()> = Result<T, Fault>;

const PRIMS: [(i64, &str); 18] = [
    (-1, "null"),
    (-2, "bool"),
    (-3, "nat"),
    (-4, "int"),
    (-5, "nat8"),
    (-6, "nat16"),
    (-7, "nat32"),
    (-8, "nat64"),
    (-9, "int8"),
    (-10, "int16"),
    (-11, "int32"),
    (-12, "int64"),
    (-13, "float32"),
    (-14, "float64"),
    (-15, "text"),
    (-16, "reserved"),
    (-17, "empty"),
    (-24, "principal"),
];

fn prim_name(op: i64) -> Option<&'static str> {
    match op {
        -17..=-1 => PRIMS.get((-1 - op) as usize).map(|(_, n)| *n),
        -24 => Some("principal"),
        _ => None,
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl<'a> Walk<'a> {
    #[cold]
    fn fault<T>(&self, offset: usize, message: impl Into<String>) -> Step<T> {
        Err(Fault {
            offset,
            message: message.into(),
        })
    }

    // ---- output ------------------------------------------------------------------

    /// Starts a line for the bytes from `start` to the current position; the caller
    /// writes the annotation and the newline. The offset and the hex column are
    /// built in a stack buffer and appended in one copy per 16 bytes.
    fn line(&mut self, start: usize) {
        let bytes = self.input.get(start..self.pos).unwrap_or(&[]);
        self.shown = self.pos;
        let mut buf = [b' '; 9 + 3 * 16];
        for (i, shift) in (0..8).rev().enumerate() {
            buf[i] = HEX[(start >> (4 * shift)) & 15];
        }
        buf[8] = b':';
        let mut chunks = bytes.chunks(16);
        let first = chunks.next().unwrap_or(&[]);
        let n = 9 + hex_into(&mut buf[9..], first);
        push_ascii(&mut self.out, &buf[..n]);
        for chunk in chunks {
            let n = hex_into(&mut buf, chunk);
            push_ascii(&mut self.out, &buf[..n]);
        }
        let pad = HEX_COLUMN.saturating_sub(bytes.len() * 3);
        push_ascii(&mut self.out, &[b' '; HEX_COLUMN][..pad]);
        self.out.push_str(" | ");
    }

    fn write_ref(&mut self, r: Ref) {
        match r {
            Ref::Table(i) => {
                self.out.push_str("type ");
                scalar::push_decimal(&mut self.out, i as u64, false);
            }
            Ref::Prim(op) => self.out.push_str(prim_name(op).unwrap_or("?")),
        }
    }

    fn write_label(&mut self, id: u32) {
        match self.cx.names.get(&id) {
            Some(name) => self.out.push_str(name),
            None => scalar::push_decimal(&mut self.out, u64::from(id), false),
        }
    }

    /// ` → name` (or ` → id` without a name) for a field or case on the path.
    fn push_segment(&mut self, id: u32) {
        self.path.push_str(" → ");
        match self.cx.names.get(&id) {
            Some(n) => self.path.push_str(n),
            None => scalar::push_decimal(&mut self.path, u64::from(id), false),
        }
    }

    /// `PATH : ` at the start of a value annotation.
    fn value_head(&mut self, start: usize, ty: &str) {
        self.line(start);
        self.out.push_str(&self.path);
        self.out.push_str(" : ");
        self.out.push_str(ty);
    }

    /// Ends a value line: `  [N units]`, the units charged since the last one, and
    /// the decision taken about the value, if any.
    fn end_value(&mut self) {
        self.out.push_str("  [");
        scalar::push_decimal(&mut self.out, self.units, false);
        self.out
            .push_str(if self.units == 1 { " unit" } else { " units" });
        self.total_units = self.total_units.saturating_add(self.units);
        self.units = 0;
        if let Some(note) = self.note.take() {
            self.out.push_str("; ");
            match note {
                Note::Skipped => self.out.push_str("skipped: not in the expected type"),
                Note::Ignored => self.out.push_str("ignored: the method expects reserved"),
                Note::ReadAs(t) => {
                    self.out.push_str("read as ");
                    push_type(&mut self.out, t);
                }
                Note::NotFit(t) => {
                    self.out.push_str("does not fit ");
                    push_type(&mut self.out, t);
                }
                Note::NoCase => self.out.push_str("case not in the expected variant"),
            }
        }
        self.out.push_str("]\n");
    }

    /// A line without bytes for a decision about a value the message does not
    /// have, or about one just explained (`PATH : TEXT`).
    fn decision(&mut self, text: &str, t: Option<&Type>) {
        let at = self.pos;
        self.line(at);
        self.out.push_str(&self.path);
        self.out.push_str(" : ");
        self.out.push_str(text);
        if let Some(t) = t {
            push_type(&mut self.out, t);
        }
        self.out.push('\n');
    }

    /// The line of a scalar value whose bytes run from `start` to here (already
    /// checked by the caller): `PATH : TYPE = VALUE  [N units]`.
    fn scalar_line(&mut self, start: usize, s: Scalar) {
        self.value_head(start, s.name());
        let mark = self.out.len();
        self.out.push_str(" = ");
        let bytes = self.input.get(start..self.pos).unwrap_or(&[]);
        if scalar::render(&mut self.out, s, bytes).is_none() {
            // Not expected (the bytes were checked), but a value that cannot be
            // printed must not be written as one: without ` = `, assemble keeps
            // the line's bytes as they are.
            self.out.truncate(mark);
            self.out.push_str(" (value not shown)");
        }
        self.end_value();
    }

    /// Notes that the value at the current path does not fit (`why`), unless an
    /// earlier value of the argument already did not.
    fn unfit(&mut self, why: &str, t: Option<&Type>) {
        if self.unfit.is_none() {
            let mut text = String::with_capacity(self.path.len() + why.len() + 16);
            text.push_str(&self.path);
            text.push_str(": ");
            text.push_str(why);
            if let Some(t) = t {
                push_type(&mut text, t);
            }
            self.unfit = Some(text);
        }
    }

    /// Records the first reason the method's types reject the message.
    fn reject(&mut self, fallback: &str) {
        let why = self.unfit.take();
        if self.rejected.is_none() {
            self.rejected = Some(why.unwrap_or_else(|| fallback.to_string()));
        }
    }

    #[inline]
    fn charge(&mut self, units: u64) {
        self.units = self.units.saturating_add(units);
    }

    // ---- reading -------------------------------------------------------------------

    #[inline]
    fn byte(&mut self) -> Step<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.fault(self.pos, "unexpected end of input"),
        }
    }

    fn take(&mut self, n: usize) -> Step<&[u8]> {
        let left = self.input.len() - self.pos;
        if n > left {
            return self.fault(
                self.pos,
                format!("{n} bytes expected, {left} left in the input"),
            );
        }
        let start = self.pos;
        self.pos += n;
        Ok(&self.input[start..self.pos])
    }

    /// An unsigned LEB128 number that must fit 64 bits.
    #[inline]
    fn leb(&mut self) -> Step<u64> {
        if let Some(&b) = self.input.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(u64::from(b));
            }
        }
        self.leb_slow()
    }

    fn leb_slow(&mut self) -> Step<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            let low = u64::from(b & 0x7f);
            if shift == 63 && low > 1 || shift > 63 && low != 0 {
                return self.fault(start, "LEB128 number too large");
            }
            if shift < 64 {
                value |= low << shift;
            }
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.fault(start, "LEB128 number longer than 10 bytes")
    }

    /// A signed LEB128 number that must fit 64 bits.
    fn sleb(&mut self) -> Step<i64> {
        let start = self.pos;
        let mut value: i64 = 0;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift >= 70 {
                return self.fault(start, "SLEB128 number longer than 10 bytes");
            }
            if shift < 64 {
                value |= i64::from(b & 0x7f) << shift;
            }
            shift += 7;
            if b & 0x80 == 0 {
                if shift < 64 && b & 0x40 != 0 {
                    value |= -1i64 << shift;
                }
                return Ok(value);
            }
        }
    }

    /// A length that must fit in the rest of the input (each unit taking at least
    /// `unit` bytes), so nothing is ever sized by an untrusted number alone.
    fn len(&mut self, unit: usize) -> Step<usize> {
        let start = self.pos;
        let n = self.leb()?;
        let left = (self.input.len() - self.pos) as u64;
        if unit > 0 && n > left / unit as u64 {
            return self.fault(
                start,
                format!("length {n} is more than the {left} bytes left in the input"),
            );
        }
        Ok(n as usize)
    }

    /// The span of one LEB128/SLEB128 number of any length.
    fn big_leb(&mut self) -> Step<usize> {
        let start = self.pos;
        let rest = self.input.get(start..).unwrap_or(&[]);
        match rest.iter().position(|b| b & 0x80 == 0) {
            Some(i) => {
                self.pos += i + 1;
                Ok(i + 1)
            }
            None => {
                self.pos = self.input.len();
                self.fault(self.pos, "unexpected end of input")
            }
        }
    }

    fn type_ref(&mut self) -> Step<Ref> {
        let start = self.pos;
        let r = self.sleb()?;
        self.check_ref(start, r)
    }

    fn check_ref(&self, at: usize, r: i64) -> Step<Ref> {
        if r >= 0 {
            let table_len = self.declared_table_len;
            if r as u64 >= table_len as u64 {
                return self.fault(
                    at,
                    format!("type reference {r} outside the table of {table_len} entries"),
                );
            }
            Ok(Ref::Table(r as usize))
        } else if prim_name(r).is_some() {
            Ok(Ref::Prim(r))
        } else {
            self.fault(at, format!("unknown primitive type opcode {r}"))
        }
    }
}

/// Appends ASCII bytes (the explainer's own punctuation and hex digits).
#[inline]
fn push_ascii(out: &mut String, bytes: &[u8]) {
    debug_assert!(bytes.is_ascii());
    // Every caller passes ASCII, which is UTF-8; a non-ASCII byte would be
    // replaced rather than break the string.
    out.push_str(std::str::from_utf8(bytes).unwrap_or("?"));
}

/// Writes ` xx` per byte of `bytes` (at most 16) into `buf`; returns the length.
#[inline]
fn hex_into(buf: &mut [u8], bytes: &[u8]) -> usize {
    let mut n = 0;
    for (&b, slot) in bytes.iter().zip(buf.chunks_exact_mut(3)) {
        slot[0] = b' ';
        slot[1] = HEX[usize::from(b >> 4)];
        slot[2] = HEX[usize::from(b & 15)];
        n += 3;
    }
    n
}

/// A type in Candid syntax, for notes (rare lines: the formatter is fine here).
#[cold]
fn push_type(out: &mut String, t: &Type) {
    use std::fmt::Write;
    let _ = write!(out, "{t}");
}
