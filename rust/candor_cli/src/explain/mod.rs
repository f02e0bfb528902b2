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
//! method reject the message. Each decision names the spec's rule behind it
//! (`opt, special`, `record`, …) and a `null` that replaced a value
//! shows the value dropped (a final `#` note, and exit status 1). Func and service
//! references are not compared with the expected signatures, and vectors of values
//! that take no bytes are not checked element by element.
//!
//! This reader is separate from candor's decoder on purpose: it must show what the
//! bytes say even where the decoder would stop, and it never needs the Rust types.
//! It checks what the binary format requires (magic, table references, field order,
//! lengths against the input, UTF-8, principal form).

mod fast;
mod header;
mod read;
mod values;
pub(crate) use values::is_utf8;

use crate::scalar::{self, Put, Scalar};
use candor::types::{Type, TypeEnv, TypeInner};
use std::collections::HashMap;

/// Nesting deeper than this is reported as a fault (the input cannot make the
/// explainer recurse without bound).
const MAX_DEPTH: usize = 512;
/// Bytes per `unread` line.
const UNREAD_CHUNK: usize = 16;
/// The hex column is padded to this width so annotations line up.
const HEX_COLUMN: usize = 24;
/// The start of a line of at most 8 bytes: offset, colon, hex column, bar.
const SHORT_LINE: usize = 9 + HEX_COLUMN + 3;

/// Names that a `.did` gives to field ids (by hash), and the argument types a
/// method expects.
#[derive(Default)]
pub struct Context {
    names: HashMap<u32, String>,
    /// Field ids that several known names hash to: the candidates, shown in the
    /// type table (the id stays a number).
    candidates: HashMap<u32, String>,
    env: TypeEnv,
    expected: Option<Vec<Type>>,
    /// Every value through the general path (no fast path): tests compare the
    /// two outputs byte for byte.
    general_only: bool,
}

impl Context {
    /// Field and case names of every type in `env` and `types`, and `types` as the
    /// types the values are read against.
    pub fn from_interface(env: &TypeEnv, types: &[Type]) -> Context {
        let mut names = HashMap::new();
        for t in env.0.values().chain(types) {
            crate::names::each_label_name(t, &mut |n| {
                names.insert(candor::idl_hash(n), n.to_string());
            });
        }
        Context {
            names,
            candidates: HashMap::new(),
            env: env.clone(),
            expected: Some(types.to_vec()),
            general_only: false,
        }
    }

    /// This context with the fast paths off, so that tests can check they write
    /// what the general path writes.
    #[doc(hidden)]
    pub fn general_only(mut self) -> Context {
        self.general_only = true;
        self
    }

    /// Names for field ids without an interface (the values are read at the
    /// message's own types).
    pub fn with_names(known: &crate::names::Names) -> Context {
        Context {
            names: known.unique(),
            candidates: known.ambiguous(),
            ..Context::default()
        }
    }

    /// `t` with names followed to their definitions (borrowed from the
    /// environment; an unknown name stays as it is).
    #[inline(always)]
    fn resolve<'a>(&'a self, t: &'a Type) -> &'a Type {
        match t.as_ref() {
            TypeInner::Var(_) => self.resolve_name(t),
            _ => t,
        }
    }

    /// `resolve` of a name, apart so that the common case inlines.
    #[inline(never)]
    fn resolve_name<'a>(&'a self, t: &'a Type) -> &'a Type {
        match t.as_ref() {
            TypeInner::Var(name) => self.env.rec_find_type(name).unwrap_or(t),
            _ => t,
        }
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
    /// The text as UTF-8 bytes, ready to write out (see [`Explained::text`]).
    pub bytes: Vec<u8>,
    pub fault: Option<Fault>,
    pub rejected: Option<String>,
}

impl Explained {
    /// The text as a string. Everything explain writes is UTF-8 (ASCII, names
    /// from the interface, text values it validated), so this borrows; it is a
    /// separate step because the command writes the bytes as they are and need
    /// not validate megabytes of output.
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }
}

/// Explains `input`; see the module docs for the format.
pub fn explain(input: &[u8], cx: &Context) -> Explained {
    let mut w = Walk::new(input, cx, Vec::with_capacity(estimate(input.len())), None);
    let (fault, rejected) = w.run();
    Explained {
        bytes: w.out,
        fault,
        rejected,
    }
}

/// What [`explain_to`] found: the fault if the message is malformed, and why the
/// method rejects it.
pub struct Verdict {
    pub fault: Option<Fault>,
    pub rejected: Option<String>,
}

/// Explains `input` into `sink` as it goes, through one buffer of
/// [`FLUSH_AT`] bytes reused for the whole message: what the command does, so a
/// large message is never held twice in memory and the buffer stays in cache.
pub fn explain_to(
    input: &[u8],
    cx: &Context,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<Verdict> {
    let mut w = Walk::new(input, cx, Vec::with_capacity(FLUSH_AT + 4096), Some(sink));
    let (fault, rejected) = w.run();
    w.flush();
    match w.sink_error.take() {
        Some(e) => Err(e),
        None => Ok(Verdict { fault, rejected }),
    }
}

/// The output buffer is handed to the sink once it holds this much.
pub const FLUSH_AT: usize = 64 * 1024;

impl<'a> Walk<'a> {
    fn new(
        input: &'a [u8],
        cx: &'a Context,
        out: Vec<u8>,
        sink: Option<&'a mut dyn std::io::Write>,
    ) -> Walk<'a> {
        Walk {
            input,
            pos: 0,
            out,
            sink,
            sink_error: None,
            table: Vec::new(),
            declared_table_len: 0,
            shown: 0,
            no_bytes: Vec::new(),
            no_bytes_units: Vec::new(),
            expected_ids: Vec::new(),
            plans: Vec::new(),
            cx,
            path: Vec::new(),
            labels: Vec::new(),
            element_line: Vec::new(),
            last_principal: (Vec::new(), String::new()),
            units: 0,
            total_units: 0,
            note: None,
            rejected: None,
            unfit: None,
        }
    }

    /// The whole explanation: the message, then the fault and the unread bytes.
    fn run(&mut self) -> (Option<Fault>, Option<String>) {
        let fault = self.message().err().map(|f| *f);
        if let Some(f) = &fault {
            self.out.put("!! fault at offset ");
            scalar::push_decimal(&mut self.out, f.offset as u64, false);
            self.out.put(": ");
            self.out.put(&f.message);
            self.out.push(b'\n');
            let mut at = self.shown;
            while at < self.input.len() {
                let end = (at + UNREAD_CHUNK).min(self.input.len());
                self.pos = end;
                self.line(at);
                self.out.put("unread\n");
                at = end;
            }
        }
        (fault, self.rejected.take())
    }

    /// Hands the buffer to the sink, if there is one (the first write error is
    /// kept and ends the writing).
    #[cold]
    #[inline(never)]
    fn flush(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            if self.sink_error.is_none() {
                if let Err(e) = sink.write_all(&self.out) {
                    self.sink_error = Some(e);
                }
            }
            self.out.clear();
        }
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

/// A record field or variant case: its id, its type, and where its path
/// segment (` → name`, or ` → id` without a name) is in `Walk::labels`, written
/// once per table entry rather than once per value.
type FieldEntry = (u32, Ref, Span);
type Span = (u32, u32);

enum Entry {
    Opt(Ref),
    Vec(Ref),
    Record(Vec<FieldEntry>),
    Variant(Vec<FieldEntry>),
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
    /// A `nat` read as an `int`.
    Widened(&'a Type),
    /// A value that is not an `opt`, read as `opt` of itself.
    Wrapped(&'a Type),
    /// The value is not of the expected type (or its case is not one of it).
    NotFit(&'a Type),
    /// A variant case the expected variant lacks.
    NoCase,
}

/// The rule of the subtyping spec (`spec/subtyping.md` §1, named as there)
/// behind a decision: explain names it on the decision's line, so a `null` where
/// a value was sent says which rule made it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Rule {
    /// `null` and `reserved` read at an `opt` are `null`.
    OptNull,
    /// An `opt` whose value does not fit the expected `opt`'s type is `null`.
    OptOpt,
    /// A value that is not an `opt`, read at an `opt`: `opt` of itself when it
    /// fits, `null` when it does not.
    OptSpecial,
    /// The special `opt` rule never wraps a value into `opt` of `null`, `opt` or
    /// `reserved`: such a value is `null`.
    OptSpecialNotNested,
    /// A record field the expected type has not: skipped.
    RecordExtra,
    /// A record field the message lacks, of an optional type: `null`.
    RecordMissing,
    /// An argument the method does not take: skipped.
    ArgExtra,
    /// An argument the message lacks, of an optional type: `null`.
    ArgMissing,
    /// `nat <: int`.
    Numbers,
    /// Every type is a subtype of `reserved`.
    Top,
    /// Every case on the wire must be a case of the expected variant.
    Variant,
}

impl Rule {
    /// ` (rule "NAME": WHAT IT SAYS)`.
    pub(crate) fn text(self) -> &'static str {
        match self {
            Rule::OptNull => " (rule \"opt, null\": null and reserved read as null at an opt)",
            Rule::OptOpt => {
                " (rule \"opt, opt\": an opt whose value does not fit the expected opt is null)"
            }
            Rule::OptSpecial => {
                " (rule \"opt, special\": a value read at an opt is opt of itself if it fits, else null)"
            }
            Rule::OptSpecialNotNested => {
                " (rule \"opt, special\": no value is wrapped into an opt of null, opt or reserved)"
            }
            Rule::RecordExtra => " (rule \"record\": fields the expected record lacks are skipped)",
            Rule::RecordMissing => {
                " (rule \"record\": a missing field of type opt, null or reserved reads as null)"
            }
            Rule::ArgExtra => {
                " (rule \"argument sequences\": arguments the method does not take are skipped)"
            }
            Rule::ArgMissing => {
                " (rule \"argument sequences\": a missing argument of type opt, null or reserved reads as null)"
            }
            Rule::Numbers => " (rule \"numbers\": nat <: int)",
            Rule::Top => " (rule \"top\": every type is a subtype of reserved)",
            Rule::Variant => {
                " (rule \"variant\": every case on the wire must be a case of the expected variant)"
            }
        }
    }
}

struct Walk<'a> {
    input: &'a [u8],
    pos: usize,
    out: Vec<u8>,
    /// Where `out` goes when it is full (`explain_to`); without one it grows.
    sink: Option<&'a mut dyn std::io::Write>,
    sink_error: Option<std::io::Error>,
    table: Vec<Entry>,
    /// The table length the message declares (references are checked against it
    /// while the table is still being read).
    declared_table_len: usize,
    cx: &'a Context,
    /// Per table entry, whether its values take no bytes (see `takes_no_bytes`).
    no_bytes: Vec<Option<bool>>,
    /// Per table entry taking no bytes, the units its values cost.
    no_bytes_units: Vec<Option<u64>>,
    /// Per record entry of the table, the ids of the expected record's fields it
    /// was last read against (keyed by that field list's address): a named label's
    /// id is a hash of its name, worth computing once rather than per value.
    expected_ids: Vec<Option<(usize, Box<[u32]>)>>,
    /// Per record entry of the table, its fields merged with the expected
    /// record's (see `fast::Merge`), keyed like `expected_ids`.
    plans: Vec<Option<(usize, Box<[fast::Merge<'a>]>)>>,
    /// Where the bytes shown so far end: a fault's unread bytes start here.
    shown: usize,
    /// The path of the value being explained (`arg 0 → to → owner`), grown and cut
    /// back as the walk goes down and up.
    path: Vec<u8>,
    /// The path segments of every field and case of the table.
    labels: Vec<u8>,
    /// The start of a line for each element of a vector of fixed-width
    /// numbers (see `fast::fixed_elements`), kept for its buffer.
    element_line: Vec<u8>,
    /// The last principal shown and its text form.
    last_principal: (Vec<u8>, String),
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

/// A step of the walk; the fault is boxed so a result fits in two registers on
/// the hot path (every value returns one).
type Step<T = ()> = Result<T, Box<Fault>>;

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

/// The two hex digits of every byte, so a byte is one lookup and one 2-byte copy.
const HEX2: [[u8; 2]; 256] = {
    let mut t = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [HEX[i >> 4], HEX[i & 15]];
        i += 1;
    }
    t
};

impl<'a> Walk<'a> {
    #[cold]
    fn fault<T>(&self, offset: usize, message: impl Into<String>) -> Step<T> {
        Err(Box::new(Fault {
            offset,
            message: message.into(),
        }))
    }

    // ---- output ------------------------------------------------------------------

    /// Starts a line for the bytes from `start` to the current position; the caller
    /// writes the annotation and the newline. A line of at most 16 bytes (most
    /// are) is the offset, the hex column padded to its width and the bar, built
    /// in a stack buffer and appended in one copy (of a known size up to 8
    /// bytes). Longer ones take `long_line`, kept apart so this path saves few
    /// registers.
    fn line(&mut self, start: usize) {
        if self.out.len() >= FLUSH_AT && self.sink.is_some() {
            self.flush();
        }
        self.shown = self.pos;
        let bytes = match self.input.get(start..self.pos) {
            Some(b) if b.len() <= 16 => b,
            _ => return self.long_line(start),
        };
        const BAR: usize = SHORT_LINE - 3;
        let mut buf = [b' '; 9 + 3 * 16 + 3];
        let offset = (start as u32).to_be_bytes();
        for (pair, byte) in buf.chunks_exact_mut(2).zip(offset) {
            pair.copy_from_slice(&HEX2[usize::from(byte)]);
        }
        buf[8] = b':';
        let (first, rest) = bytes.split_at(bytes.len().min(8));
        hex_into(&mut buf[9..BAR], first);
        if rest.is_empty() {
            buf[BAR..BAR + 3].copy_from_slice(b" | ");
            self.out.extend_from_slice(&buf[..BAR + 3]);
        } else {
            let bar = BAR + hex_into(&mut buf[BAR..], rest);
            buf[bar..bar + 3].copy_from_slice(b" | ");
            self.out.extend_from_slice(&buf[..bar + 3]);
        }
    }

    /// `line` for more than 16 bytes: the first 8 after the offset, then 16 per
    /// copy.
    #[inline(never)]
    fn long_line(&mut self, start: usize) {
        let bytes = self.input.get(start..self.pos).unwrap_or(&[]);
        let mut buf = [b' '; 9 + 3 * 16];
        let offset = (start as u32).to_be_bytes();
        for (pair, byte) in buf.chunks_exact_mut(2).zip(offset) {
            pair.copy_from_slice(&HEX2[usize::from(byte)]);
        }
        buf[8] = b':';
        let (first, rest) = bytes.split_at(bytes.len().min(8));
        let n = 9 + hex_into(&mut buf[9..], first);
        self.out.extend_from_slice(&buf[..n]);
        for chunk in rest.chunks(16) {
            let n = hex_into(&mut buf, chunk);
            self.out.extend_from_slice(&buf[..n]);
        }
        self.out.put(" | ");
    }

    fn write_ref(&mut self, r: Ref) {
        match r {
            Ref::Table(i) => {
                self.out.put("type ");
                scalar::push_decimal(&mut self.out, i as u64, false);
            }
            Ref::Prim(op) => self.out.put(prim_name(op).unwrap_or("?")),
        }
    }

    fn write_label(&mut self, id: u32) {
        match self.cx.names.get(&id) {
            Some(name) => self.out.put(name),
            None => scalar::push_decimal(&mut self.out, u64::from(id), false),
        }
    }

    /// ` → name` (or ` → id` without a name) for a field or case on the path.
    fn push_segment(&mut self, id: u32) {
        self.path.put(" → ");
        match self.cx.names.get(&id) {
            Some(n) => self.path.put(n),
            None => scalar::push_decimal(&mut self.path, u64::from(id), false),
        }
    }

    /// The path segment of a table field, from `labels`.
    #[inline]
    fn push_span(&mut self, (start, end): Span) {
        let seg = self.labels.get(start as usize..end as usize).unwrap_or(&[]);
        self.path.extend_from_slice(seg);
    }

    /// Writes the segment of field `id` into `labels`; returns its span.
    fn add_label(&mut self, id: u32) -> Span {
        let start = self.labels.len() as u32;
        self.labels.put(" → ");
        match self.cx.names.get(&id) {
            Some(n) => self.labels.put(n),
            None => scalar::push_decimal(&mut self.labels, u64::from(id), false),
        }
        (start, self.labels.len() as u32)
    }

    /// `PATH : TYPE` at the start of a value annotation (`head` is ` : TYPE`,
    /// and may go on with ` = `).
    fn value_head(&mut self, start: usize, head: &str) {
        self.line(start);
        self.out.extend_from_slice(&self.path);
        self.out.put(head);
    }

    /// Ends a value line: `  [N units]`, the units charged since the last one, and
    /// the decision taken about the value, if any.
    #[inline(always)]
    fn end_value(&mut self) {
        // Most values cost fewer than 100 units and need no note: one fixed
        // template, its digits patched in.
        if self.note.is_none() && self.units < 100 {
            let u = self.units as u8;
            self.total_units = self.total_units.saturating_add(self.units);
            self.units = 0;
            if u < 10 {
                let mut t = *b"  [0 units]\n";
                t[3] = b'0' + u;
                if u == 1 {
                    self.out.extend_from_slice(b"  [1 unit]\n");
                } else {
                    self.out.extend_from_slice(&t);
                }
            } else {
                let mut t = *b"  [00 units]\n";
                t[3] = b'0' + u / 10;
                t[4] = b'0' + u % 10;
                self.out.extend_from_slice(&t);
            }
            return;
        }
        self.end_value_long();
    }

    /// `end_value` for a note or 100 units or more.
    #[inline(never)]
    fn end_value_long(&mut self) {
        // `  [N units]\n` from one stack buffer: the digits are written from the
        // end of their own slot, then the fixed parts in fixed-size copies.
        let mut digits = [0u8; 20];
        let mut d = digits.len();
        let mut rest = self.units;
        while d > 0 {
            d -= 1;
            digits[d] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        let mut buf = [0u8; 3 + 20 + 8];
        buf[..3].copy_from_slice(b"  [");
        let count = digits.len() - d;
        buf[3..3 + count].copy_from_slice(&digits[d..]);
        let (tail, len): (&[u8; 8], usize) = match (self.note.is_some(), self.units == 1) {
            (false, true) => (b" unit]\n\0", 7),
            (false, false) => (b" units]\n", 8),
            (true, true) => (b" unit\0\0\0", 5),
            (true, false) => (b" units\0\0", 6),
        };
        buf[3 + count..3 + count + 8].copy_from_slice(tail);
        self.out.extend_from_slice(&buf[..3 + count + len]);
        self.total_units = self.total_units.saturating_add(self.units);
        self.units = 0;
        let Some(note) = self.note.take() else {
            return;
        };
        self.out.put("; ");
        match note {
            Note::Skipped => {
                self.out.put("skipped: not in the expected type");
                self.out.put(Rule::RecordExtra.text());
            }
            Note::Ignored => {
                self.out.put("ignored: the method expects reserved");
                self.out.put(Rule::Top.text());
            }
            Note::Widened(t) => {
                self.out.put("read as ");
                push_type(&mut self.out, t);
                self.out.put(Rule::Numbers.text());
            }
            Note::Wrapped(t) => {
                self.out.put("read as ");
                push_type(&mut self.out, t);
                self.out.put(Rule::OptSpecial.text());
            }
            Note::NotFit(t) => {
                self.out.put("does not fit ");
                push_type(&mut self.out, t);
            }
            Note::NoCase => {
                self.out.put("case not in the expected variant");
                self.out.put(Rule::Variant.text());
            }
        }
        self.out.put("]\n");
    }

    /// A line without bytes for a decision about a value the message does not
    /// have, or about one just explained (`PATH : TEXT`).
    /// `rule`, when there is one, is the spec's rule that decided.
    fn decision(&mut self, text: &str, t: Option<&Type>, rule: Option<Rule>) {
        self.decision_start(text, t, rule);
        self.out.push(b'\n');
    }

    /// A decision's line without its end, for a caller that appends more.
    fn decision_start(&mut self, text: &str, t: Option<&Type>, rule: Option<Rule>) {
        let at = self.pos;
        self.line(at);
        self.out.extend_from_slice(&self.path);
        self.out.put(" : ");
        self.out.put(text);
        if let Some(t) = t {
            push_type(&mut self.out, t);
        }
        if let Some(rule) = rule {
            self.out.put(rule.text());
        }
    }

    /// The line of a scalar value whose bytes run from `start` to here (already
    /// checked by the caller): `PATH : TYPE = VALUE  [N units]`.
    fn scalar_line(&mut self, start: usize, s: Scalar) {
        self.value_head(start, s.head());
        let values_at = self.out.len();
        let bytes = self.input.get(start..self.pos).unwrap_or(&[]);
        if scalar::render(&mut self.out, s, bytes).is_none() {
            // Not expected (the bytes were checked), but a value that cannot be
            // printed must not be written as one: without ` = `, assemble keeps
            // the line's bytes as they are.
            self.out.truncate(values_at - " = ".len());
            self.out.put(" (value not shown)");
        }
        self.end_value();
    }

    /// Notes that the value at the current path does not fit (`why`), unless an
    /// earlier value of the argument already did not.
    fn unfit(&mut self, why: &str, t: Option<&Type>) {
        if self.unfit.is_none() {
            let mut text = Vec::with_capacity(self.path.len() + why.len() + 16);
            text.extend_from_slice(&self.path);
            text.put(": ");
            text.put(why);
            if let Some(t) = t {
                push_type(&mut text, t);
            }
            self.unfit = Some(String::from_utf8_lossy(&text).into_owned());
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
}

/// Writes ` xx` per byte of `bytes` (at most 16) into `buf`; returns the length.
#[inline]
fn hex_into(buf: &mut [u8], bytes: &[u8]) -> usize {
    let mut n = 0;
    for (&b, slot) in bytes.iter().zip(buf.chunks_exact_mut(3)) {
        let [high, low] = HEX2[usize::from(b)];
        slot.copy_from_slice(&[b' ', high, low]);
        n += 3;
    }
    n
}

/// A type in Candid syntax, for notes (rare lines: the formatter is fine here).
#[cold]
fn push_type(out: &mut Vec<u8>, t: &Type) {
    use std::io::Write;
    let _ = write!(out, "{t}");
}
