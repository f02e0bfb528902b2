//! Candid text syntax for values laid out in 80 columns (`Display`), with candid's
//! output for the same value; the one-line form (`Debug`) is [`super::oneline`].
//!
//! candid lays values out with the `pretty` crate (Wadler's algorithm). [`Doc`] and
//! [`render`] are the subset of it that value printing uses, with the same rules:
//! a group is printed flat when it fits, together with what follows it up to the
//! next line break, in the remaining width.

use super::{IDLArgs, IDLField, IDLValue};
use std::fmt;
use std::rc::Rc;

/// Nesting depth printed with layout; deeper values (and vectors of more than this
/// many elements) are printed on one line, as candid does.
const MAX_ELEMENTS_FOR_PRETTY_PRINT: usize = 10;
pub(crate) const LINE_WIDTH: usize = 80;
const INDENT: usize = 2;

use super::oneline::{debug_text, has_type_annotation, is_plain_text, label_text};

fn is_tuple(fields: &[IDLField]) -> bool {
    fields
        .iter()
        .enumerate()
        .all(|(i, f)| f.id.get_id() as usize == i)
}

// ---- Display: laid out ----------------------------------------------------------------

impl fmt::Display for IDLValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        render(
            &pp_value(MAX_ELEMENTS_FOR_PRETTY_PRINT, self),
            LINE_WIDTH,
            f,
        )
    }
}

impl fmt::Display for IDLArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let args = self
            .args
            .iter()
            .map(|v| pp_value(MAX_ELEMENTS_FOR_PRETTY_PRINT, v));
        render(&enclose("(", concat(args, ","), ")", false), LINE_WIDTH, f)
    }
}

fn pp_value(depth: usize, v: &IDLValue) -> Rc<Doc> {
    use IDLValue::*;
    if depth == 0 {
        return text(debug_text(v));
    }
    match v {
        Text(s) if is_plain_text(s) => text(format!("\"{s}\"")),
        Text(s) => text(format!("\"{}\"", s.escape_debug())),
        Opt(inner) if has_type_annotation(inner) => cat(vec![
            kwd("opt"),
            enclose("(", pp_value(depth - 1, inner), ")", false),
        ]),
        Opt(inner) => cat(vec![kwd("opt"), pp_value(depth - 1, inner)]),
        Vec(vs) => {
            if matches!(vs.first(), Some(Nat8(_))) || vs.len() > MAX_ELEMENTS_FOR_PRETTY_PRINT {
                text(debug_text(v))
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
        _ => text(debug_text(v)),
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

/// Lays `doc` out in `width` columns, into `out`.
///
/// The pieces go straight to `out`: a decoded message's text is mostly one long
/// line (a vector of more than ten elements), already held by its document, and a
/// second copy of it (or a third, through a buffer's doubling) is as many fresh
/// pages again.
pub(crate) fn render(doc: &Rc<Doc>, width: usize, out: &mut impl fmt::Write) -> fmt::Result {
    const SPACES: &str = "                                                                ";
    let mut pos = 0usize;
    let mut stack: Vec<(usize, Mode, &Doc)> = vec![(0, Mode::Break, doc)];
    while let Some((ind, mode, d)) = stack.pop() {
        match d {
            Doc::Nil => {}
            Doc::Text(s, w) => {
                out.write_str(s)?;
                pos += w;
            }
            Doc::Hardline => {
                // Indent for what comes next (the `pretty` crate's rule).
                let ind = stack.last().map_or(ind, |next| next.0);
                out.write_char('\n')?;
                let mut left = ind;
                while left > 0 {
                    let n = left.min(SPACES.len());
                    out.write_str(SPACES.get(..n).unwrap_or_default())?;
                    left -= n;
                }
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
    Ok(())
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
pub(crate) fn display_width(s: &str) -> usize {
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
