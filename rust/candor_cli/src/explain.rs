//! `candor explain`: every byte of a message, in order, one line per element.
//!
//! A line is `OFFSET: HEX | ANNOTATION`: the offset of the element's first byte, its
//! bytes, and what they are (the magic, a type-table entry, an argument type, a value
//! with its path). Every byte of the input is on exactly one line, in order, so
//! `assemble` can rebuild the message from the hex column alone, whatever the message
//! is: non-canonical LEB128, unused or oddly ordered table entries, bytes after the
//! last value and malformed messages are shown as they are. A malformed message is
//! explained up to its fault; then a `!!` line says where and what went wrong, and
//! the bytes not read follow as `unread` lines.
//!
//! This reader is separate from candor's decoder on purpose: it must show what the
//! bytes say even where the decoder would stop, and it never needs the Rust types.
//! It checks what the binary format requires (magic, table references, field order,
//! lengths against the input, UTF-8, principal form), not subtyping.

use crate::scalar::{self, Scalar};
use candor::types::{Label, Type, TypeEnv, TypeInner};
use candor::Principal;
use std::collections::HashMap;
use std::fmt::Write;

/// Nesting deeper than this is reported as a fault (the input cannot make the
/// explainer recurse without bound).
const MAX_DEPTH: usize = 512;
/// Bytes per `unread` line.
const UNREAD_CHUNK: usize = 16;
/// The hex column is padded to this width so annotations line up.
const HEX_COLUMN: usize = 24;

/// Names that a `.did` gives to field ids (by hash) and the argument types a method
/// expects, for annotations.
#[derive(Default)]
pub struct Context {
    names: HashMap<u32, String>,
    expected_args: Option<usize>,
}

impl Context {
    /// Field and case names of every type in `env` and `types`.
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
            expected_args: Some(types.len()),
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

/// The annotated text, and the fault if the message is malformed.
pub struct Explained {
    pub text: String,
    pub fault: Option<Fault>,
}

/// Explains `input`; see the module docs for the format.
pub fn explain(input: &[u8], cx: &Context) -> Explained {
    let mut w = Walk {
        input,
        pos: 0,
        out: String::with_capacity(input.len().saturating_mul(4).min(1 << 26) + 256),
        table: Vec::new(),
        declared_table_len: 0,
        shown: 0,
        no_bytes: Vec::new(),
        cx,
        path: String::new(),
    };
    let result = w.message();
    let fault = result.err();
    if let Some(f) = &fault {
        let _ = writeln!(w.out, "!! fault at offset {}: {}", f.offset, f.message);
        let mut at = w.shown;
        while at < input.len() {
            let end = (at + UNREAD_CHUNK).min(input.len());
            w.pos = end;
            w.line(at);
            w.out.push_str("unread\n");
            at = end;
        }
    }
    Explained { text: w.out, fault }
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
    /// Where the bytes shown so far end: a fault's unread bytes start here.
    shown: usize,
    /// The path of the value being explained (`arg 0 → to → owner`), grown and cut
    /// back as the walk goes down and up.
    path: String,
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
    PRIMS.iter().find(|(o, _)| *o == op).map(|(_, n)| *n)
}

impl Walk<'_> {
    fn fault<T>(&self, offset: usize, message: impl Into<String>) -> Step<T> {
        Err(Fault {
            offset,
            message: message.into(),
        })
    }

    // ---- output ------------------------------------------------------------------

    /// Starts a line for the bytes from `start` to the current position; the caller
    /// writes the annotation and the newline.
    fn line(&mut self, start: usize) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        for shift in (0..8).rev() {
            self.out.push(HEX[(start >> (4 * shift)) & 15] as char);
        }
        self.out.push(':');
        let bytes = self.input.get(start..self.pos).unwrap_or(&[]);
        self.shown = self.pos;
        for &b in bytes {
            self.out.push(' ');
            self.out.push(HEX[usize::from(b >> 4)] as char);
            self.out.push(HEX[usize::from(b & 15)] as char);
        }
        for _ in bytes.len() * 3..HEX_COLUMN {
            self.out.push(' ');
        }
        self.out.push_str(" | ");
    }

    fn write_ref(&mut self, r: Ref) {
        match r {
            Ref::Table(i) => {
                let _ = write!(self.out, "type {i}");
            }
            Ref::Prim(op) => self.out.push_str(prim_name(op).unwrap_or("?")),
        }
    }

    fn write_label(&mut self, id: u32) {
        match self.cx.names.get(&id) {
            Some(name) => self.out.push_str(name),
            None => {
                let _ = write!(self.out, "{id}");
            }
        }
    }

    /// ` → name` (or ` → id` without a name) for a field or case on the path.
    fn push_segment(&mut self, id: u32) {
        self.path.push_str(" → ");
        match self.cx.names.get(&id) {
            Some(n) => self.path.push_str(n),
            None => scalar::push_decimal(&mut self.path, id as u64, false),
        }
    }

    /// `PATH : ` at the start of a value annotation.
    fn value_head(&mut self, start: usize, ty: &str) {
        self.line(start);
        self.out.push_str(&self.path);
        self.out.push_str(" : ");
        self.out.push_str(ty);
    }

    /// The line of a scalar value whose bytes run from `start` to here (already
    /// checked by the caller): `PATH : TYPE = VALUE`.
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
        self.out.push('\n');
    }

    // ---- reading -------------------------------------------------------------------

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
    fn leb(&mut self) -> Step<u64> {
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
    fn big_leb(&mut self) -> Step<&[u8]> {
        let start = self.pos;
        loop {
            if self.byte()? & 0x80 == 0 {
                return Ok(&self.input[start..self.pos]);
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
            let table_len = self.table_len();
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

    /// While the table is read, references may point forward: the declared length
    /// bounds them.
    fn table_len(&self) -> usize {
        self.declared_table_len
    }
}

// ---- the header ------------------------------------------------------------------------

impl Walk<'_> {
    fn message(&mut self) -> Step {
        let start = self.pos;
        let magic = self.input.get(..4.min(self.input.len())).unwrap_or(&[]);
        if magic != b"DIDL" {
            return self.fault(0, "the message does not start with the magic bytes DIDL");
        }
        self.pos = 4;
        self.line(start);
        self.out.push_str("magic \"DIDL\"\n");

        let start = self.pos;
        let n = self.len(1)?;
        self.declared_table_len = n;
        self.line(start);
        let _ = writeln!(self.out, "type table: {n} entries");
        for i in 0..n {
            self.entry(i)?;
        }

        let start = self.pos;
        let args = self.len(1)?;
        self.line(start);
        let _ = write!(self.out, "arguments: {args}");
        if let Some(expected) = self.cx.expected_args {
            let _ = write!(self.out, " (the interface expects {expected})");
        }
        self.out.push('\n');
        let mut types = Vec::with_capacity(args);
        for i in 0..args {
            let start = self.pos;
            let r = self.type_ref()?;
            types.push(r);
            self.line(start);
            let _ = write!(self.out, "argument {i} type: ");
            self.write_ref(r);
            self.out.push('\n');
        }

        for (i, r) in types.into_iter().enumerate() {
            self.path.clear();
            let _ = write!(self.path, "arg {i}");
            if self.cx.expected_args.is_some_and(|n| i >= n) {
                self.path.push_str(" (extra: skipped by the method)");
            }
            self.value(r, 0)?;
        }
        if self.pos < self.input.len() {
            let left = self.input.len() - self.pos;
            return self.fault(
                self.pos,
                format!("{left} trailing bytes after the last argument"),
            );
        }
        Ok(())
    }

    fn entry(&mut self, i: usize) -> Step {
        let start = self.pos;
        let op = self.sleb()?;
        let entry = match op {
            -18 | -19 => {
                let r = self.type_ref()?;
                self.line(start);
                let _ = write!(
                    self.out,
                    "type {i} = {} ",
                    if op == -18 { "opt" } else { "vec" }
                );
                self.write_ref(r);
                self.out.push('\n');
                if op == -18 {
                    Entry::Opt(r)
                } else {
                    Entry::Vec(r)
                }
            }
            -20 | -21 => {
                let kind = if op == -20 { "record" } else { "variant" };
                let n = self.len(2)?;
                self.line(start);
                let _ = writeln!(self.out, "type {i} = {kind}, {n} fields");
                let mut fields = Vec::with_capacity(n);
                let mut last: Option<u64> = None;
                for _ in 0..n {
                    let at = self.pos;
                    let id = self.leb()?;
                    if id > u64::from(u32::MAX) {
                        return self.fault(at, format!("field id {id} over 32 bits"));
                    }
                    if last.is_some_and(|l| id <= l) {
                        return self.fault(at, "field ids not in increasing order");
                    }
                    last = Some(id);
                    let r = self.type_ref()?;
                    self.line(at);
                    self.out.push_str("  field ");
                    self.write_label(id as u32);
                    if self.cx.names.contains_key(&(id as u32)) {
                        let _ = write!(self.out, " (id {id})");
                    }
                    self.out.push_str(" : ");
                    self.write_ref(r);
                    self.out.push('\n');
                    fields.push((id as u32, r));
                }
                if op == -20 {
                    Entry::Record(fields)
                } else {
                    Entry::Variant(fields)
                }
            }
            -22 => {
                let mut counts = [0usize; 2];
                for count in &mut counts {
                    *count = self.len(1)?;
                    for _ in 0..*count {
                        self.type_ref()?;
                    }
                }
                let modes = self.len(1)?;
                let at = self.pos;
                let mode_bytes = self.take(modes)?.to_vec();
                let mut names = Vec::new();
                for m in mode_bytes {
                    names.push(match m {
                        1 => "query",
                        2 => "oneway",
                        3 => "composite_query",
                        _ => return self.fault(at, format!("unknown function mode {m}")),
                    });
                }
                self.line(start);
                let _ = writeln!(
                    self.out,
                    "type {i} = func, {} arguments, {} results, modes [{}]",
                    counts[0],
                    counts[1],
                    names.join(", ")
                );
                Entry::Func
            }
            -23 => {
                let n = self.len(2)?;
                self.line(start);
                let _ = writeln!(self.out, "type {i} = service, {n} methods");
                let mut previous: Option<Vec<u8>> = None;
                for _ in 0..n {
                    let at = self.pos;
                    let len = self.len(1)?;
                    let name = self.take(len)?.to_vec();
                    let Ok(text) = std::str::from_utf8(&name) else {
                        return self.fault(at, "method name is not UTF-8");
                    };
                    let text = text.to_string();
                    if previous.as_ref().is_some_and(|p| *p >= name) {
                        return self.fault(at, "method names not in increasing order");
                    }
                    previous = Some(name);
                    let r = self.type_ref()?;
                    self.line(at);
                    self.out.push_str("  method ");
                    scalar::write_text(&mut self.out, &text);
                    self.out.push_str(" : ");
                    self.write_ref(r);
                    self.out.push('\n');
                }
                Entry::Service
            }
            op if op >= 0 || prim_name(op).is_some() => {
                return self.fault(
                    start,
                    format!("type table entry {i} has opcode {op}, not a type constructor"),
                );
            }
            op => {
                return self.fault(start, format!("unknown type opcode {op} in entry {i}"));
            }
        };
        self.table.push(entry);
        Ok(())
    }
}

// ---- values ------------------------------------------------------------------------------

/// What a reference stands for, with the table looked through (records and
/// variants by their table index).
#[derive(Clone, Copy)]
enum Shape {
    Prim(i64),
    Opt(Ref),
    Vec(Ref),
    Record(usize),
    Variant(usize),
    Func,
    Service,
}

impl Walk<'_> {
    fn shape(&self, r: Ref) -> Shape {
        match r {
            Ref::Prim(op) => Shape::Prim(op),
            Ref::Table(i) => match self.table.get(i) {
                Some(Entry::Opt(t)) => Shape::Opt(*t),
                Some(Entry::Vec(t)) => Shape::Vec(*t),
                Some(Entry::Record(_)) => Shape::Record(i),
                Some(Entry::Variant(_)) => Shape::Variant(i),
                Some(Entry::Func) => Shape::Func,
                Some(Entry::Service) | None => Shape::Service,
            },
        }
    }

    /// The fields (or cases) of a record (or variant) entry.
    fn fields(&self, i: usize) -> &[(u32, Ref)] {
        match self.table.get(i) {
            Some(Entry::Record(fs) | Entry::Variant(fs)) => fs,
            _ => &[],
        }
    }

    /// Values of this type take no bytes (`null`, `reserved`, records of those): a
    /// vector of them is one line whatever its length, and such a record is one
    /// line however many fields its type nests (a type can nest 2^20 of them in a
    /// few bytes). Memoised per table entry, so the question costs the table's size
    /// once, not the type's unfolded size.
    fn takes_no_bytes(&mut self, r: Ref, depth: usize) -> bool {
        let i = match r {
            Ref::Prim(op) => return op == -1 || op == -16,
            Ref::Table(i) => i,
        };
        if depth > MAX_DEPTH {
            return false;
        }
        if let Some(known) = self.no_bytes.get(i).copied().flatten() {
            return known;
        }
        if self.no_bytes.len() < self.table.len() {
            self.no_bytes.resize(self.table.len(), None);
        }
        // A cycle back to this entry counts as taking bytes: such a value could
        // only be infinite, and the walk's depth limit reports it.
        self.no_bytes[i] = Some(false);
        let fields: Vec<Ref> = match self.table.get(i) {
            Some(Entry::Record(fs)) => fs.iter().map(|(_, t)| *t).collect(),
            _ => return false,
        };
        let none = fields
            .into_iter()
            .all(|t| self.takes_no_bytes(t, depth + 1));
        self.no_bytes[i] = Some(none);
        none
    }

    fn value(&mut self, r: Ref, depth: usize) -> Step {
        if depth > MAX_DEPTH {
            return self.fault(self.pos, format!("values nested deeper than {MAX_DEPTH}"));
        }
        let start = self.pos;
        match self.shape(r) {
            Shape::Prim(op) => self.prim(op, start),
            Shape::Opt(t) => {
                let flag = self.byte()?;
                match flag {
                    0 => {
                        self.value_head(start, "opt");
                        self.out.push_str(" = null\n");
                        Ok(())
                    }
                    1 => {
                        self.value_head(start, "opt");
                        self.out.push_str(" = some\n");
                        self.value(t, depth + 1)
                    }
                    b => self.fault(start, format!("opt flag {b:#04x}, expected 00 or 01")),
                }
            }
            Shape::Vec(Ref::Prim(-5)) => {
                let n = self.len(1)?;
                self.take(n)?;
                self.scalar_line(start, Scalar::Blob);
                Ok(())
            }
            Shape::Vec(t) => {
                if self.takes_no_bytes(t, depth) {
                    let n = self.leb()?;
                    self.value_head(start, "vec");
                    let _ = writeln!(self.out, " ({n} elements taking no bytes)");
                    return Ok(());
                }
                let n = self.len(1)?;
                self.value_head(start, "vec");
                let _ = writeln!(self.out, " ({n} elements)");
                let cut = self.path.len();
                for i in 0..n {
                    self.path.push('[');
                    scalar::push_decimal(&mut self.path, i as u64, false);
                    self.path.push(']');
                    self.value(t, depth + 1)?;
                    self.path.truncate(cut);
                }
                Ok(())
            }
            Shape::Record(_) if self.takes_no_bytes(r, depth) => {
                self.value_head(start, "record");
                self.out.push_str(" (no bytes)\n");
                Ok(())
            }
            Shape::Record(i) => {
                let n = self.fields(i).len();
                let cut = self.path.len();
                for k in 0..n {
                    let Some((id, t)) = self.fields(i).get(k).copied() else {
                        break;
                    };
                    self.push_segment(id);
                    self.value(t, depth + 1)?;
                    self.path.truncate(cut);
                }
                Ok(())
            }
            Shape::Variant(i) => {
                let index = self.leb()?;
                let case = usize::try_from(index)
                    .ok()
                    .and_then(|k| self.fields(i).get(k).copied());
                let Some((id, t)) = case else {
                    let cases = self.fields(i).len();
                    return self.fault(
                        start,
                        format!("variant index {index} out of range (the type has {cases} cases)"),
                    );
                };
                self.value_head(start, "variant");
                self.out.push_str(" = case ");
                self.write_label(id);
                let _ = writeln!(self.out, " (index {index})");
                let cut = self.path.len();
                self.push_segment(id);
                self.value(t, depth + 1)?;
                self.path.truncate(cut);
                Ok(())
            }
            Shape::Func => {
                let flag = self.byte()?;
                if flag != 1 {
                    return self.fault(
                        start,
                        format!("func reference flag {flag:#04x}: only 01 (public) is allowed"),
                    );
                }
                self.principal_bytes()?;
                let at = self.pos;
                let n = self.len(1)?;
                if std::str::from_utf8(self.take(n)?).is_err() {
                    return self.fault(at, "method name is not UTF-8");
                }
                self.scalar_line(start, Scalar::Func);
                Ok(())
            }
            Shape::Service => {
                self.principal_bytes()?;
                self.scalar_line(start, Scalar::Service);
                Ok(())
            }
        }
    }

    /// A principal's form: flag 01, length, bytes.
    fn principal_bytes(&mut self) -> Step<Principal> {
        let start = self.pos;
        match self.byte()? {
            1 => {}
            0 => {
                return self.fault(
                    start,
                    "opaque reference (flag 00): only public references (01) are allowed",
                )
            }
            b => return self.fault(start, format!("reference flag {b:#04x}, expected 01")),
        }
        let at = self.pos;
        let n = self.len(1)?;
        if n > 29 {
            return self.fault(
                at,
                format!("principal of {n} bytes, at most 29 are allowed"),
            );
        }
        let bytes = self.take(n)?;
        match Principal::try_from_slice(bytes) {
            Ok(p) => Ok(p),
            Err(e) => self.fault(at, format!("invalid principal: {e}")),
        }
    }

    fn prim(&mut self, op: i64, start: usize) -> Step {
        let name = prim_name(op).unwrap_or("?");
        match op {
            -1 | -16 => {
                self.value_head(start, name);
                self.out.push_str(if op == -1 {
                    " = null\n"
                } else {
                    " (no bytes)\n"
                });
                // A value that takes no bytes still gets its line: the path says
                // where it is, and assemble skips lines without bytes.
                Ok(())
            }
            -17 => self.fault(start, "a value of type empty cannot exist"),
            -3 | -4 => {
                self.big_leb()?;
                self.scalar_line(start, if op == -3 { Scalar::Nat } else { Scalar::Int });
                Ok(())
            }
            -15 => {
                let n = self.len(1)?;
                let at = self.pos;
                if std::str::from_utf8(self.take(n)?).is_err() {
                    return self.fault(at, "text is not valid UTF-8");
                }
                self.scalar_line(start, Scalar::Text);
                Ok(())
            }
            -24 => {
                self.principal_bytes()?;
                self.scalar_line(start, Scalar::Principal);
                Ok(())
            }
            _ => {
                let Some(s) = Scalar::from_name(name) else {
                    return self.fault(start, format!("unknown primitive {op}"));
                };
                let width = s.fixed_width().unwrap_or(1);
                let first = self.take(width)?.first().copied().unwrap_or(0);
                if s == Scalar::Bool && first > 1 {
                    return self.fault(start, format!("bool byte {first:#04x}, expected 00 or 01"));
                }
                self.scalar_line(start, s);
                Ok(())
            }
        }
    }
}
