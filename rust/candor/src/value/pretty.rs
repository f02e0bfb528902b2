//! Candid text syntax for values: `Debug` (one line) and `Display` (laid out in 80
//! columns), with candid's output for the same value.
//!
//! candid lays values out with the `pretty` crate (Wadler's algorithm). [`Doc`] and
//! [`render`] are the subset of it that value printing uses, with the same rules:
//! a group is printed flat when it fits, together with what follows it up to the
//! next line break, in the remaining width.

use super::{IDLArgs, IDLField, IDLValue};
use crate::types::Label;
use std::fmt::{self, Write};
use std::rc::Rc;

/// Nesting depth printed with layout; deeper values (and vectors of more than this
/// many elements) are printed on one line, as candid does.
const MAX_ELEMENTS_FOR_PRETTY_PRINT: usize = 10;
const LINE_WIDTH: usize = 80;
const INDENT: usize = 2;

// ---- text helpers (candid's) -------------------------------------------------------

pub(crate) use crate::types::ident_string;
use crate::types::number::group_digits;

/// candid's `Display for Label`: ids grouped by three, names as they are.
pub(crate) fn label_string(l: &Label) -> String {
    match l {
        Label::Id(n) | Label::Unnamed(n) => group_digits(&n.to_string()),
        Label::Named(name) => name.clone(),
    }
}

/// A label as written in a value: names quoted when needed, ids grouped.
fn label_text(l: &Label) -> String {
    match l {
        Label::Named(name) => ident_string(name),
        _ => label_string(l),
    }
}

/// One byte of a blob: printable ASCII as itself (except quotes, backquote and
/// backslash), anything else as `\xx`.
fn pp_char(out: &mut impl Write, v: u8) -> fmt::Result {
    if (0x20..=0x7e).contains(&v) && !matches!(v, b'"' | b'\'' | b'`' | b'\\') {
        out.write_char(char::from(v))
    } else {
        write!(out, "\\{v:02x}")
    }
}

fn float_str<F: fmt::Display + Copy>(f: F, finite_int: bool) -> String {
    if finite_int {
        format!("{f}.0")
    } else {
        f.to_string()
    }
}

/// A number without its type annotation (candid's `number_to_string`).
pub fn number_to_string(v: &IDLValue) -> String {
    use IDLValue::*;
    match v {
        Number(n) => n.clone(),
        Int(n) => n.to_string(),
        Nat(n) => n.to_string(),
        Nat8(n) => n.to_string(),
        Nat16(n) => group_digits(&n.to_string()),
        Nat32(n) => group_digits(&n.to_string()),
        Nat64(n) => group_digits(&n.to_string()),
        Int8(n) => n.to_string(),
        Int16(n) => group_digits(&n.to_string()),
        Int32(n) => group_digits(&n.to_string()),
        Int64(n) => group_digits(&n.to_string()),
        Float32(f) => float_str(*f, f.is_finite() && f.trunc() == *f),
        Float64(f) => float_str(*f, f.is_finite() && f.trunc() == *f),
        _ => String::new(),
    }
}

fn has_type_annotation(v: &IDLValue) -> bool {
    use IDLValue::*;
    matches!(
        v,
        Int(_)
            | Nat(_)
            | Nat8(_)
            | Nat16(_)
            | Nat32(_)
            | Nat64(_)
            | Int8(_)
            | Int16(_)
            | Int32(_)
            | Int64(_)
            | Float32(_)
            | Float64(_)
            | Null
            | Reserved
    )
}

fn is_tuple(fields: &[IDLField]) -> bool {
    fields
        .iter()
        .enumerate()
        .all(|(i, f)| f.id.get_id() as usize == i)
}

// ---- Debug: one line ------------------------------------------------------------------

impl fmt::Debug for IDLValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IDLValue::*;
        match self {
            Null => f.write_str("null : null"),
            Bool(b) => write!(f, "{b}"),
            Number(n) => f.write_str(n),
            Int(i) => write!(f, "{i} : int"),
            Nat(n) => write!(f, "{n} : nat"),
            Nat8(n) => write!(f, "{n} : nat8"),
            Nat16(_) => write!(f, "{} : nat16", number_to_string(self)),
            Nat32(_) => write!(f, "{} : nat32", number_to_string(self)),
            Nat64(_) => write!(f, "{} : nat64", number_to_string(self)),
            Int8(n) => write!(f, "{n} : int8"),
            Int16(_) => write!(f, "{} : int16", number_to_string(self)),
            Int32(_) => write!(f, "{} : int32", number_to_string(self)),
            Int64(_) => write!(f, "{} : int64", number_to_string(self)),
            Float32(_) => write!(f, "{} : float32", number_to_string(self)),
            Float64(_) => write!(f, "{} : float64", number_to_string(self)),
            Text(s) => write!(f, "{s:?}"),
            None => f.write_str("null"),
            Reserved => f.write_str("null : reserved"),
            Principal(id) => write!(f, "principal \"{id}\""),
            Service(id) => write!(f, "service \"{id}\""),
            Func(id, meth) => write!(f, "func \"{id}\".{}", ident_string(meth)),
            Opt(v) if has_type_annotation(v) => write!(f, "opt ({v:?})"),
            Opt(v) => write!(f, "opt {v:?}"),
            Blob(b) => {
                f.write_str("blob \"")?;
                let text = b
                    .iter()
                    .all(|c| (0x20..=0x7e).contains(c) || matches!(c, 0x09 | 0x0a | 0x0d));
                for v in b {
                    if text {
                        pp_char(f, *v)?;
                    } else {
                        write!(f, "\\{v:02x}")?;
                    }
                }
                f.write_str("\"")
            }
            Vec(vs) => {
                if let Some(Nat8(_)) = vs.first() {
                    // Decoding gives `Blob`; a vector of nat8 built by hand prints the
                    // same way.
                    f.write_str("blob \"")?;
                    for v in vs {
                        match v {
                            Nat8(v) => pp_char(f, *v)?,
                            other => write!(f, "{other:?}")?,
                        }
                    }
                    f.write_str("\"")
                } else {
                    f.write_str("vec {")?;
                    for v in vs {
                        write!(f, " {v:?};")?;
                    }
                    f.write_str("}")
                }
            }
            Record(fs) => {
                f.write_str("record {")?;
                for (i, e) in fs.iter().enumerate() {
                    if e.id.get_id() as usize == i {
                        write!(f, " {:?};", e.val)?;
                    } else {
                        write!(f, " {e:?};")?;
                    }
                }
                f.write_str("}")
            }
            Variant(v) => {
                f.write_str("variant { ")?;
                if v.0.val == Null {
                    f.write_str(&label_string(&v.0.id))?;
                } else {
                    write!(f, "{:?}", v.0)?;
                }
                f.write_str(" }")
            }
        }
    }
}

impl fmt::Debug for IDLField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {:?}", label_text(&self.id), self.val)
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

// ---- Display: laid out ----------------------------------------------------------------

impl fmt::Display for IDLValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render(
            &pp_value(MAX_ELEMENTS_FOR_PRETTY_PRINT, self),
            LINE_WIDTH,
        ))
    }
}

impl fmt::Display for IDLArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let args = self
            .args
            .iter()
            .map(|v| pp_value(MAX_ELEMENTS_FOR_PRETTY_PRINT, v));
        f.write_str(&render(
            &enclose("(", concat(args, ","), ")", false),
            LINE_WIDTH,
        ))
    }
}

fn pp_value(depth: usize, v: &IDLValue) -> Rc<Doc> {
    use IDLValue::*;
    if depth == 0 {
        return text(format!("{v:?}"));
    }
    match v {
        Text(s) => text(format!("\"{}\"", s.escape_debug())),
        Opt(inner) if has_type_annotation(inner) => cat(vec![
            kwd("opt"),
            enclose("(", pp_value(depth - 1, inner), ")", false),
        ]),
        Opt(inner) => cat(vec![kwd("opt"), pp_value(depth - 1, inner)]),
        Vec(vs) => {
            if matches!(vs.first(), Some(Nat8(_))) || vs.len() > MAX_ELEMENTS_FOR_PRETTY_PRINT {
                text(format!("{v:?}"))
            } else {
                let values = vs.iter().map(|v| pp_value(depth - 1, v));
                cat(vec![
                    kwd("vec"),
                    enclose("{", concat(values, ";"), "}", true),
                ])
            }
        }
        Record(fields) => {
            let docs: Box<dyn Iterator<Item = Rc<Doc>>> = if is_tuple(fields) {
                Box::new(fields.iter().map(|f| pp_value(depth - 1, &f.val)))
            } else {
                Box::new(fields.iter().map(|f| pp_field(depth, f, false)))
            };
            cat(vec![
                kwd("record"),
                enclose("{", concat(docs, ";"), "}", true),
            ])
        }
        Variant(var) => cat(vec![
            kwd("variant"),
            enclose("{", pp_field(depth, &var.0, true), "}", true),
        ]),
        _ => text(format!("{v:?}")),
    }
}

fn pp_field(depth: usize, field: &IDLField, is_variant: bool) -> Rc<Doc> {
    let label = text(label_text(&field.id));
    if is_variant && field.val == IDLValue::Null {
        label
    } else {
        cat(vec![label, kwd(" ="), pp_value(depth - 1, &field.val)])
    }
}

// ---- the layout engine ----------------------------------------------------------------

/// A document: text with optional line breaks.
pub(crate) enum Doc {
    Nil,
    /// Text (no line breaks) and its display width.
    Text(String, usize),
    Hardline,
    /// The first document when its group is broken, the second when flat.
    FlatAlt(Rc<Doc>, Rc<Doc>),
    Nest(usize, Rc<Doc>),
    Group(Rc<Doc>),
    Cat(Vec<Rc<Doc>>),
}

fn text(s: String) -> Rc<Doc> {
    let w = display_width(&s);
    Rc::new(Doc::Text(s, w))
}

fn kwd(s: &str) -> Rc<Doc> {
    text(format!("{s} "))
}

fn cat(docs: Vec<Rc<Doc>>) -> Rc<Doc> {
    Rc::new(Doc::Cat(docs))
}

/// A line break, or `flat` when the group is printed on one line.
fn line(flat: &str) -> Rc<Doc> {
    let flat = if flat.is_empty() {
        Rc::new(Doc::Nil)
    } else {
        text(flat.to_string())
    };
    Rc::new(Doc::FlatAlt(Rc::new(Doc::Hardline), flat))
}

/// `left doc right`, broken as `left`, the indented doc, `right` on their own
/// lines when it does not fit (`space`: a space inside the delimiters when flat).
fn enclose(left: &str, doc: Rc<Doc>, right: &str, space: bool) -> Rc<Doc> {
    if matches!(*doc, Doc::Nil) {
        return text(format!("{left}{right}"));
    }
    let sep = if space { " " } else { "" };
    Rc::new(Doc::Group(cat(vec![
        Rc::new(Doc::Nest(
            INDENT,
            cat(vec![text(left.to_string()), line(sep), doc]),
        )),
        line(sep),
        text(right.to_string()),
    ])))
}

/// The documents separated by `sep`, with a trailing `sep` when broken over lines.
fn concat(docs: impl Iterator<Item = Rc<Doc>>, sep: &str) -> Rc<Doc> {
    let mut parts = Vec::new();
    for (i, d) in docs.enumerate() {
        if i > 0 {
            parts.push(text(sep.to_string()));
            parts.push(line(" "));
        }
        parts.push(d);
    }
    if parts.is_empty() {
        return Rc::new(Doc::Nil);
    }
    let single = cat(parts);
    let multi = cat(vec![single.clone(), text(sep.to_string())]);
    Rc::new(Doc::FlatAlt(multi, single))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Break,
    Flat,
}

/// Lays `doc` out in `width` columns.
pub(crate) fn render(doc: &Rc<Doc>, width: usize) -> String {
    let mut out = String::new();
    let mut pos = 0usize;
    let mut stack: Vec<(usize, Mode, &Doc)> = vec![(0, Mode::Break, doc)];
    while let Some((ind, mode, d)) = stack.pop() {
        match d {
            Doc::Nil => {}
            Doc::Text(s, w) => {
                out.push_str(s);
                pos += w;
            }
            Doc::Hardline => {
                // Indent for what comes next (the `pretty` crate's rule).
                let ind = stack.last().map_or(ind, |next| next.0);
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', ind));
                pos = ind;
            }
            Doc::FlatAlt(b, f) => stack.push((ind, mode, if mode == Mode::Break { b } else { f })),
            Doc::Nest(k, inner) => stack.push((ind + k, mode, inner)),
            Doc::Group(inner) => {
                let m = if mode == Mode::Break && fits(inner, pos, width, &stack) {
                    Mode::Flat
                } else {
                    mode
                };
                stack.push((ind, m, inner));
            }
            Doc::Cat(ds) => stack.extend(ds.iter().rev().map(|d| (ind, mode, &**d))),
        }
    }
    out
}

/// Whether `next`, flat, and what follows it up to the next line break fit.
fn fits(next: &Doc, mut pos: usize, width: usize, rest: &[(usize, Mode, &Doc)]) -> bool {
    let mut todo: Vec<&Doc> = vec![next];
    let mut rest = rest.iter().rev();
    let mut mode = Mode::Flat;
    loop {
        let d = match todo.pop() {
            Some(d) => d,
            None => match rest.next() {
                Some(&(_, _, d)) => {
                    mode = Mode::Break;
                    d
                }
                None => return true,
            },
        };
        match d {
            Doc::Nil => {}
            Doc::Text(_, w) => {
                pos += w;
                if pos > width {
                    return false;
                }
            }
            Doc::Hardline => return mode == Mode::Break,
            Doc::FlatAlt(b, f) => todo.push(if mode == Mode::Break { b } else { f }),
            Doc::Nest(_, inner) | Doc::Group(inner) => todo.push(inner),
            Doc::Cat(ds) => todo.extend(ds.iter().rev().map(|d| &**d)),
        }
    }
}

/// Columns taken by `s` on a terminal: ASCII is one per byte; wide East Asian
/// characters and emoji take two, combining marks none (an approximation of the
/// `unicode-width` tables the `pretty` crate uses).
fn display_width(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.chars().map(char_width).sum()
}

fn char_width(c: char) -> usize {
    let c = u32::from(c);
    match c {
        0x0300..=0x036F | 0x200B..=0x200F | 0xFE00..=0xFE0F | 0x20D0..=0x20FF => 0,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD => 2,
        _ => 1,
    }
}
