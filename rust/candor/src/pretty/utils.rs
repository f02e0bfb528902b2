//! Document combinators shared by the Candid printers (candid's `pretty::utils`).
//!
//! Every printer that must lay text out as candid does (the `.did` printer here, and
//! candid_parser's bindings generators, which call these by path) builds its documents
//! from these pieces. Line breaks are decided by the `pretty` crate's layout engine, so
//! the exact shape of each document — where a group starts, which text a break turns
//! into when the group is flat — is what makes the output candid's byte for byte.

use pretty::{Doc, RcAllocator, RcDoc};

/// Columns a broken-up block is indented by.
pub const INDENT_SPACE: isize = 2;
/// The width printed interfaces and types are laid out in.
pub const LINE_WIDTH: usize = 80;

/// Whether `doc` prints nothing in at least one of its layouts.
///
/// The enclosing combinators use this to print `()`/`{}` without inner breaks for an
/// empty body. The test is structural, not a rendering: a choice between two layouts
/// counts as empty when either side is (an empty `concat` is such a choice), a union
/// only when both are.
fn prints_nothing(doc: &RcDoc<'_>) -> bool {
    match &**doc {
        Doc::Nil => true,
        Doc::FlatAlt(broken, flat) => prints_nothing(flat) || prints_nothing(broken),
        Doc::Union(left, right) => prints_nothing(left) && prints_nothing(right),
        Doc::Group(inner) | Doc::Nest(_, inner) | Doc::Annotated((), inner) => {
            prints_nothing(inner)
        }
        _ => false,
    }
}

/// `left`, the body, `right`: on one line when it fits, else the body alone on
/// indented lines between the delimiters. An empty body gives `left right` joined.
pub fn enclose<'a>(left: &'a str, doc: RcDoc<'a>, right: &'a str) -> RcDoc<'a> {
    enclose_with(left, doc, right, RcDoc::line_())
}

/// Like [`enclose`], with a space inside each delimiter when on one line (`{ a; b }`).
pub fn enclose_space<'a>(left: &'a str, doc: RcDoc<'a>, right: &'a str) -> RcDoc<'a> {
    enclose_with(left, doc, right, RcDoc::line())
}

fn enclose_with<'a>(left: &'a str, doc: RcDoc<'a>, right: &'a str, brk: RcDoc<'a>) -> RcDoc<'a> {
    if prints_nothing(&doc) {
        return RcDoc::text(left).append(right);
    }
    let opened = RcDoc::text(left).append(brk.clone()).append(doc);
    opened.nest(INDENT_SPACE).append(brk).append(right).group()
}

/// The documents with `sep` between each two, joined as a balanced tree of appends.
///
/// `RcDoc::intersperse` and `RcDoc::concat` chain their appends one inside the
/// other, and an `RcDoc` is freed recursively: a type with tens of thousands of
/// fields would make a chain deep enough to overflow the stack when its document is
/// dropped. A balanced tree lays out the same text with a depth of only log₂ of the
/// number of documents.
pub(crate) fn join<'a, D>(docs: D, sep: Option<RcDoc<'a>>) -> RcDoc<'a>
where
    D: Iterator<Item = RcDoc<'a>>,
{
    let mut level: Vec<RcDoc<'a>> = Vec::new();
    for doc in docs {
        if let (Some(sep), false) = (&sep, level.is_empty()) {
            level.push(sep.clone());
        }
        level.push(doc);
    }
    while level.len() > 1 {
        let mut next = Vec::with_capacity(level.len().div_ceil(2));
        let mut pairs = level.into_iter();
        while let Some(left) = pairs.next() {
            next.push(match pairs.next() {
                Some(right) => left.append(right),
                None => left,
            });
        }
        level = next;
    }
    level.pop().unwrap_or_else(RcDoc::nil)
}

/// The separator followed by a break (a space when the enclosing group is flat).
fn separator(sep: &str) -> RcDoc<'_> {
    RcDoc::text(sep).append(RcDoc::line())
}

/// The documents with `sep` between each two (never after the last).
pub fn strict_concat<'a, D>(docs: D, sep: &'a str) -> RcDoc<'a>
where
    D: Iterator<Item = RcDoc<'a>>,
{
    join(docs, Some(separator(sep)))
}

/// The documents with `sep` after each one, except after the last when the enclosing
/// group is printed on one line: `a; b` flat, `a;\nb;` broken.
pub fn concat<'a, D>(docs: D, sep: &'a str) -> RcDoc<'a>
where
    D: Iterator<Item = RcDoc<'a>>,
{
    let mut docs = docs.peekable();
    if docs.peek().is_none() {
        return RcDoc::nil();
    }
    let flat = join(docs, Some(separator(sep)));
    let broken = flat.clone().append(sep);
    broken.flat_alt(flat)
}

/// Each document followed by a line break.
pub fn lines<'a, D>(docs: D) -> RcDoc<'a>
where
    D: Iterator<Item = RcDoc<'a>>,
{
    join(docs.map(|doc| doc.append(RcDoc::hardline())), None)
}

/// A word followed by a space (`record `, `opt `, ` :`).
pub fn kwd<U: std::fmt::Display + ?Sized>(str: &U) -> RcDoc<'_> {
    RcDoc::as_string(str).append(RcDoc::space())
}

/// Text as given.
pub fn str(str: &str) -> RcDoc<'_> {
    RcDoc::text(str)
}

/// A name followed by a space, unquoted.
pub fn ident(id: &str) -> RcDoc<'_> {
    kwd(id)
}

/// A name in single quotes (escaped as Rust's `escape_debug` does), then a space.
pub fn quote_ident(id: &str) -> RcDoc<'_> {
    let quoted = format!("'{}'", id.escape_debug());
    RcDoc::text(quoted).append(RcDoc::space())
}

/// `open`, the documents separated by `sep`, `close`: on one line when it fits, else
/// one document per indented line, each followed by `sep` (the last one too).
pub fn sep_enclose<'a, D, S, O, C>(docs: D, sep: S, open: O, close: C) -> RcDoc<'a>
where
    D: IntoIterator<Item = RcDoc<'a>>,
    S: pretty::Pretty<'a, RcAllocator>,
    O: pretty::Pretty<'a, RcAllocator>,
    C: pretty::Pretty<'a, RcAllocator>,
{
    let sep = sep.pretty(&RcAllocator).into_doc();
    let body = join(docs.into_iter(), Some(sep.clone().append(RcDoc::line())));
    let trailing = sep.flat_alt(RcDoc::nil());
    let opened = open
        .pretty(&RcAllocator)
        .into_doc()
        .append(RcDoc::line_())
        .append(body)
        .append(trailing);
    opened
        .nest(INDENT_SPACE)
        .append(RcDoc::line_())
        .append(close.pretty(&RcAllocator))
        .group()
}

/// Like [`sep_enclose`], with a space inside each delimiter when on one line
/// (`{ a; b }`); no documents give `open` and `close` joined (`{}`).
pub fn sep_enclose_space<'a, D, S, O, C>(docs: D, sep: S, open: O, close: C) -> RcDoc<'a>
where
    D: IntoIterator<Item = RcDoc<'a>>,
    S: pretty::Pretty<'a, RcAllocator>,
    O: pretty::Pretty<'a, RcAllocator>,
    C: pretty::Pretty<'a, RcAllocator>,
{
    let mut docs = docs.into_iter().peekable();
    let open = open.pretty(&RcAllocator);
    if docs.peek().is_none() {
        return open.append(close).into_doc();
    }
    let flat_space = || RcDoc::nil().flat_alt(RcDoc::space());
    let open = open.append(flat_space());
    let close = flat_space().append(close);
    sep_enclose(docs, sep, open, close)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(doc: RcDoc<'_>, width: usize) -> String {
        doc.pretty(width).to_string()
    }

    fn items(n: usize) -> impl Iterator<Item = RcDoc<'static>> {
        (0..n).map(|i| RcDoc::text(format!("item{i}")))
    }

    #[test]
    fn empty_bodies_print_bare_delimiters() {
        assert_eq!(render(concat(items(0), ";"), LINE_WIDTH), "");
        assert_eq!(render(enclose("(", concat(items(0), ","), ")"), 80), "()");
        assert_eq!(render(enclose_space("{", RcDoc::nil(), "}"), 80), "{}");
        assert_eq!(render(sep_enclose_space(items(0), ";", "{", "}"), 80), "{}");
    }

    #[test]
    fn concat_drops_the_last_separator_only_when_flat() {
        let flat = render(enclose_space("{", concat(items(2), ";"), "}"), 80);
        assert_eq!(flat, "{ item0; item1 }");
        let broken = render(enclose_space("{", concat(items(2), ";"), "}"), 8);
        assert_eq!(broken, "{\n  item0;\n  item1;\n}");
    }

    #[test]
    fn sep_enclose_breaks_with_a_trailing_separator() {
        assert_eq!(
            render(sep_enclose(items(2), ",", "(", ")"), 80),
            "(item0, item1)"
        );
        assert_eq!(
            render(sep_enclose_space(items(2), ";", "{", "}"), 80),
            "{ item0; item1 }"
        );
        assert_eq!(
            render(sep_enclose_space(items(2), ";", "{", "}"), 8),
            "{\n  item0;\n  item1;\n}"
        );
    }

    #[test]
    fn words_and_names() {
        assert_eq!(render(kwd("opt").append(str("nat")), 80), "opt nat");
        assert_eq!(render(ident("a").append("="), 80), "a =");
        assert_eq!(render(quote_ident("it's"), 80), "'it\\'s' ");
        assert_eq!(
            render(strict_concat(items(2), ",").group(), 80),
            "item0, item1"
        );
        assert_eq!(render(strict_concat(items(2), ","), 80), "item0,\nitem1");
        assert_eq!(render(lines(items(2)), 80), "item0\nitem1\n");
    }
}
