//! A hand-written lexer for Candid text (values, `.did` files, test files).
//!
//! It works on bytes and allocates only for string literals that contain escapes,
//! because this crate is meant to run inside canisters where every instruction is
//! paid for; a generated automaton (logos) plus a generated LALR table (lalrpop) cost
//! several times more code and instructions. The token set and the escape rules are
//! those of candid_parser, so the same inputs are accepted, and floats with `_`
//! between digits besides, which the spec allows (spec/differences.md D10).

use crate::error::{Error, Result, Span};

/// The kind of a token, with its payload borrowed from the source where possible.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Tok<'a> {
    Eof,
    Equals,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Semi,
    Comma,
    Dot,
    Colon,
    Arrow,
    TestEqual,
    NotEqual,
    NotDecode,
    // Keywords.
    Null,
    Vec,
    Record,
    Variant,
    Func,
    Service,
    Oneway,
    Query,
    CompositeQuery,
    Blob,
    Type,
    Import,
    Opt,
    Principal,
    Bool(bool),
    /// An identifier that is not a keyword.
    Id(&'a str),
    /// A string literal, as written between the quotes (checked, escapes not
    /// applied), and whether it has escapes: then [`Lexer::take_unescaped`] gives its
    /// bytes, which may be invalid UTF-8 (`\xx` escapes can produce any byte, which
    /// `blob "…"` needs). Borrowed, so a token owns nothing and moves for free.
    Text(&'a [u8], bool),
    /// `+` or `-`.
    Sign(u8),
    /// Decimal digits, possibly with `_` separators (raw source slice).
    Decimal(&'a str),
    /// `0x…` digits, possibly with `_` separators (raw source slice, prefix included).
    Hex(&'a str),
    /// A decimal float literal (raw source slice).
    Float(&'a str),
}

impl Tok<'_> {
    /// Same kind of token (payloads not compared): for the payload-free tokens the
    /// parser looks for, this is equality without the derived `eq` call.
    #[inline]
    pub(crate) fn is(&self, other: &Tok<'_>) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }

    /// How the token is named in "expected …, found …" messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Eof => "end of input".into(),
            Tok::Id(s) => format!("identifier `{s}`"),
            Tok::Text(..) => "text literal".into(),
            Tok::Sign(c) => format!("`{}`", *c as char),
            Tok::Decimal(s) | Tok::Hex(s) | Tok::Float(s) => format!("number `{s}`"),
            Tok::Bool(b) => format!("`{b}`"),
            t => format!("`{}`", t.spelling()),
        }
    }

    fn spelling(&self) -> &'static str {
        match self {
            Tok::Equals => "=",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Semi => ";",
            Tok::Comma => ",",
            Tok::Dot => ".",
            Tok::Colon => ":",
            Tok::Arrow => "->",
            Tok::TestEqual => "==",
            Tok::NotEqual => "!=",
            Tok::NotDecode => "!:",
            Tok::Null => "null",
            Tok::Vec => "vec",
            Tok::Record => "record",
            Tok::Variant => "variant",
            Tok::Func => "func",
            Tok::Service => "service",
            Tok::Oneway => "oneway",
            Tok::Query => "query",
            Tok::CompositeQuery => "composite_query",
            Tok::Blob => "blob",
            Tok::Type => "type",
            Tok::Import => "import",
            Tok::Opt => "opt",
            Tok::Principal => "principal",
            _ => "?",
        }
    }
}

/// A token and where it is. Its doc comment, if any, stays in the lexer
/// ([`Lexer::take_docs`]): tokens are moved around once each, and most have none.
#[derive(Debug, Clone)]
pub(crate) struct Token<'a> {
    pub(crate) tok: Tok<'a>,
    pub(crate) span: Span,
}

/// The lexer state: a position in the source. Cheap to clone, which the parser uses
/// for its rare two-token look-ahead.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    /// The `//` comment lines directly above the token last returned (text trimmed),
    /// while collecting: the doc comment of a declaration or field starting there.
    docs: Vec<String>,
    /// Whether to collect `docs` at all (off for values).
    pub(crate) keep_docs: bool,
    /// The string literal last lexed, escapes applied, when it has escapes (else
    /// empty): made by the same walk that checks the literal, so the text is not
    /// walked a second time when the parser takes it.
    unescaped: Unescaped,
    /// Why [`Lexer::next_into`] last failed, until [`Lexer::take_error`] takes it.
    error: Option<Error>,
}

/// Bytes that continue an identifier (`[A-Za-z0-9_]`), as a table: one load per byte
/// instead of three range tests, for the last few bytes of the source (before that,
/// [`id_end`] tests eight at a time) and as the reference its tests check against.
static ID_CHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_';
        c += 1;
    }
    t
};

/// A string literal with its escapes applied. It is built as text while every
/// escape gives a character, so that the parser takes it as a `String` without
/// checking its bytes again; a `\xx` escape of a byte outside ASCII (which `blob`
/// literals use, and which may not be UTF-8) turns it into bytes.
pub(crate) enum Unescaped {
    /// Every escape so far gave a character.
    Text(String),
    /// A byte escape outside ASCII was met: the parser checks the bytes if it
    /// wants text.
    Bytes(Vec<u8>),
}

impl Unescaped {
    /// Empties it, keeping its buffer.
    fn clear(&mut self) {
        match self {
            Unescaped::Text(t) => t.clear(),
            Unescaped::Bytes(v) => v.clear(),
        }
    }

    /// The bytes `start..end` of `src`, a run between escapes: cut at ASCII bytes
    /// (quotes, backslashes, the ends of escapes), so text.
    fn push_run(&mut self, src: &str, start: usize, end: usize) {
        match (&mut *self, src.get(start..end)) {
            (Unescaped::Text(t), Some(run)) => t.push_str(run),
            _ => self.push_bytes(src.as_bytes().get(start..end).unwrap_or_default()),
        }
    }

    /// The character of a `\u{…}` escape.
    fn push_char(&mut self, ch: char) {
        match self {
            Unescaped::Text(t) => t.push(ch),
            Unescaped::Bytes(v) => {
                let mut buf = [0u8; 4];
                v.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            }
        }
    }

    /// The byte of a one-character or `\xx` escape.
    fn push_byte(&mut self, byte: u8) {
        match self {
            Unescaped::Text(t) if byte.is_ascii() => t.push(char::from(byte)),
            _ => self.push_bytes(&[byte]),
        }
    }

    /// The bytes of a run of `\xx` escapes: text while they are ASCII.
    fn push_escaped(&mut self, bytes: &[u8]) {
        match &mut *self {
            Unescaped::Text(t) if bytes.is_ascii() => {
                t.push_str(std::str::from_utf8(bytes).unwrap_or_default())
            }
            _ => self.push_bytes(bytes),
        }
    }

    /// Bytes that may not be text: from here on, it is bytes.
    fn push_bytes(&mut self, bytes: &[u8]) {
        match self {
            Unescaped::Bytes(v) => v.extend_from_slice(bytes),
            Unescaped::Text(t) => {
                let mut v = std::mem::take(t).into_bytes();
                v.extend_from_slice(bytes);
                *self = Unescaped::Bytes(v);
            }
        }
    }

    /// Its bytes.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        match self {
            Unescaped::Text(t) => t.into_bytes(),
            Unescaped::Bytes(v) => v,
        }
    }
}

// The classes of [`CLASS`]: what a token or trivia starting with the byte is.
const C_OTHER: u8 = 0;
const C_SPACE: u8 = 1;
const C_BLANK: u8 = 2;
const C_NEWLINE: u8 = 3;
const C_SLASH: u8 = 4;
const C_IDENT: u8 = 5;
const C_DIGIT: u8 = 6;
const C_QUOTE: u8 = 7;
const C_LPAREN: u8 = 8;
const C_RPAREN: u8 = 9;
const C_LBRACE: u8 = 10;
const C_RBRACE: u8 = 11;
const C_SEMI: u8 = 12;
const C_COMMA: u8 = 13;
const C_COLON: u8 = 14;
const C_EQUALS: u8 = 15;
const C_BANG: u8 = 16;
const C_SIGN: u8 = 17;
const C_DOT: u8 = 18;

/// The class of each byte as the first byte of a token (or of white space or a
/// comment); [`C_OTHER`] for bytes that start nothing.
static CLASS: [u8; 256] = {
    let mut t = [C_OTHER; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = match b {
            b' ' => C_SPACE,
            b'\t' | b'\r' => C_BLANK,
            b'\n' => C_NEWLINE,
            b'/' => C_SLASH,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => C_IDENT,
            b'0'..=b'9' => C_DIGIT,
            b'"' => C_QUOTE,
            b'(' => C_LPAREN,
            b')' => C_RPAREN,
            b'{' => C_LBRACE,
            b'}' => C_RBRACE,
            b';' => C_SEMI,
            b',' => C_COMMA,
            b':' => C_COLON,
            b'=' => C_EQUALS,
            b'!' => C_BANG,
            b'+' | b'-' => C_SIGN,
            b'.' => C_DOT,
            _ => C_OTHER,
        };
        c += 1;
    }
    t
};

impl<'a> Lexer<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Lexer {
            src,
            pos: 0,
            docs: Vec::new(),
            keep_docs: false,
            unescaped: Unescaped::Text(String::new()),
            error: None,
        }
    }

    /// A lexer at the same position that collects no doc comments, for looking
    /// ahead: it copies neither the doc comment nor the unescaped bytes held here.
    pub(crate) fn lookahead(&self) -> Self {
        Lexer {
            src: self.src,
            pos: self.pos,
            docs: Vec::new(),
            keep_docs: false,
            unescaped: Unescaped::Text(String::new()),
            error: None,
        }
    }

    /// Continues lexing at byte `pos` (clamped to the source).
    pub(crate) fn seek(&mut self, pos: usize) {
        let mut pos = pos.min(self.src.len());
        while !self.src.is_char_boundary(pos) {
            pos -= 1;
        }
        self.pos = pos;
    }

    pub(crate) fn src(&self) -> &'a str {
        self.src
    }

    #[cold]
    fn err(&self, span: Span, msg: impl Into<String>) -> Error {
        Error::at(self.src, span, msg)
    }

    /// Skips white space and comments (`//…` to end of line, nested `/* … */`).
    /// `new_line`: whether the white space skipped so far began a line.
    fn skip_trivia(&mut self, mut new_line: bool) -> Result<()> {
        let b = self.src.as_bytes();
        // A `//` comment on the line of the previous token is a trailing remark, not
        // the doc comment of what follows.
        // A local position (written back at the end): the loop runs once per byte of
        // white space.
        let mut pos = self.pos;
        while let Some(&c) = b.get(pos) {
            match c {
                b' ' => pos = skip_spaces(b, pos + 1),
                b'\t' | b'\r' => pos += 1,
                b'\n' => {
                    new_line = true;
                    // The next line's indentation, then: a blank line detaches a
                    // comment from the next declaration.
                    pos = skip_blanks(b, pos + 1);
                    if self.keep_docs && b.get(pos) == Some(&b'\n') {
                        self.docs.clear();
                    }
                }
                b'/' if b.get(pos + 1) == Some(&b'/') => {
                    let start = pos;
                    let end = self.src[start..]
                        .find('\n')
                        .map_or(self.src.len(), |i| start + i);
                    if self.keep_docs && new_line {
                        self.docs.push(self.src[start + 2..end].trim().to_string());
                    }
                    pos = end;
                }
                b'/' if b.get(pos + 1) == Some(&b'*') => {
                    let start = pos;
                    pos += 2;
                    let mut nesting = 1usize;
                    while nesting > 0 {
                        match (b.get(pos), b.get(pos + 1)) {
                            (Some(b'*'), Some(b'/')) => {
                                nesting -= 1;
                                pos += 2;
                            }
                            (Some(b'/'), Some(b'*')) => {
                                nesting += 1;
                                pos += 2;
                            }
                            (Some(_), _) => pos += 1,
                            (None, _) => {
                                self.pos = pos;
                                return Err(self.err(start..start + 2, "unclosed comment"));
                            }
                        }
                    }
                }
                _ => break,
            }
        }
        self.pos = pos;
        Ok(())
    }

    /// The next token.
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>> {
        let mut token = Token {
            tok: Tok::Eof,
            span: 0..0,
        };
        if !self.next_into(&mut token) {
            return Err(self.take_error());
        }
        Ok(token)
    }

    /// The next token, written over `out` (left as it was on an error), and whether
    /// there was one: on an error, `false`, and [`Lexer::take_error`] gives it. A
    /// flag comes back in a register, where a `Result` would be written to memory by
    /// the lexer and read back by the parser, once per token.
    pub(crate) fn next_into(&mut self, out: &mut Token<'a>) -> bool {
        match self.lex_into(out) {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    /// Why [`Lexer::next_into`] last returned `false`.
    #[cold]
    pub(crate) fn take_error(&mut self) -> Error {
        self.error
            .take()
            .unwrap_or_else(|| Error::msg("the lexer failed without an error"))
    }

    /// The work of [`Lexer::next_into`]. The parser keeps its current token in place
    /// and the next is written over it, instead of being returned by value and
    /// copied in, once per token.
    ///
    /// One loop and one `match` on the first byte: white space and comments are
    /// skipped by arms that `continue`, so a token that follows no white space pays
    /// a single dispatch, and a token's span and the new position are written once.
    #[inline(always)]
    fn lex_into(&mut self, out: &mut Token<'a>) -> Result<()> {
        let b = self.src.as_bytes();
        // The previous token's doc comment, if nobody took it, does not carry over.
        if self.keep_docs && !self.docs.is_empty() {
            self.docs.clear();
        }
        // The start of the source counts as the start of a line (for doc comments).
        let at_start = self.pos == 0;
        let mut pos = self.pos;
        loop {
            let Some(&c) = b.get(pos) else {
                self.pos = pos;
                *out = Token {
                    tok: Tok::Eof,
                    span: pos..pos,
                };
                return Ok(());
            };
            let next = || b.get(pos + 1).copied();
            // One load from the class table and one dense switch: a `match` on the
            // byte itself leaves letters and digits to range tests after the switch.
            let (tok, len) = match CLASS[usize::from(c)] {
                // A single space between tokens is the common case: the word scan is
                // for runs (indentation).
                C_SPACE if next() != Some(b' ') => {
                    pos += 1;
                    continue;
                }
                C_SPACE => {
                    pos = skip_spaces(b, pos + 2);
                    continue;
                }
                C_BLANK => {
                    pos += 1;
                    continue;
                }
                // A line end, then the next line's indentation in the same step.
                C_NEWLINE if !self.keep_docs => {
                    pos = skip_spaces(b, pos + 1);
                    continue;
                }
                // Comments, and line ends while collecting doc comments.
                C_NEWLINE | C_SLASH if c == b'\n' || matches!(next(), Some(b'/' | b'*')) => {
                    self.pos = pos;
                    self.skip_trivia(at_start)?;
                    pos = self.pos;
                    continue;
                }
                C_IDENT => {
                    self.pos = ident_into(self.src, pos, out);
                    return Ok(());
                }
                C_LPAREN => (Tok::LParen, 1),
                C_RPAREN => (Tok::RParen, 1),
                C_LBRACE => (Tok::LBrace, 1),
                C_RBRACE => (Tok::RBrace, 1),
                C_SEMI => (Tok::Semi, 1),
                C_COMMA => (Tok::Comma, 1),
                C_COLON => (Tok::Colon, 1),
                C_EQUALS if next() == Some(b'=') => (Tok::TestEqual, 2),
                C_EQUALS => (Tok::Equals, 1),
                C_BANG if next() == Some(b'=') => (Tok::NotEqual, 2),
                C_BANG if next() == Some(b':') => (Tok::NotDecode, 2),
                C_SIGN if c == b'-' && next() == Some(b'>') => (Tok::Arrow, 2),
                C_SIGN => (Tok::Sign(c), 1),
                C_DOT if !next().is_some_and(|d| d.is_ascii_digit()) => (Tok::Dot, 1),
                C_QUOTE => {
                    self.pos = pos;
                    let tok = self.text()?;
                    *out = Token {
                        tok,
                        span: pos..self.pos,
                    };
                    return Ok(());
                }
                C_DOT | C_DIGIT => {
                    self.pos = pos;
                    let tok = self.number();
                    *out = Token {
                        tok,
                        span: pos..self.pos,
                    };
                    return Ok(());
                }
                _ => return Err(self.unknown_token(pos)),
            };
            self.pos = pos + len;
            *out = Token {
                tok,
                span: pos..pos + len,
            };
            return Ok(());
        }
    }

    /// Out of line: formatting the message needs a stack frame, which the success
    /// path should not set up for every token.
    #[cold]
    #[inline(never)]
    fn unknown_token(&self, start: usize) -> Error {
        let ch = self
            .src
            .get(start..)
            .and_then(|r| r.chars().next())
            .unwrap_or('?');
        self.err(
            start..start + ch.len_utf8(),
            format!("unknown token `{ch}`"),
        )
    }

    /// The doc comment of the token last returned (empty unless collecting).
    pub(crate) fn take_docs(&mut self) -> Vec<String> {
        std::mem::take(&mut self.docs)
    }

    /// Numbers: `123`, `1_000`, `0xff`, `1.5`, `.5`, `1.`, `1e10`, `1.5E-3`. Cannot
    /// fail; the position is updated once, at the end.
    fn number(&mut self) -> Tok<'a> {
        let b = self.src.as_bytes();
        let start = self.pos;
        let (end, kind) = scan_number(b, start);
        self.pos = end;
        let s = cut(self.src, start, end);
        match kind {
            NumberKind::Decimal => Tok::Decimal(s),
            NumberKind::Hex => Tok::Hex(s),
            NumberKind::Float => Tok::Float(s),
        }
    }

    /// A string literal: escapes `\n \r \t \\ \" \'`, `\u{hex}` and `\xx` (one byte).
    /// Checked here (errors point into the literal); when it has escapes, its bytes
    /// are kept for [`Lexer::take_unescaped`].
    fn text(&mut self) -> Result<Tok<'a>> {
        let b = self.src.as_bytes();
        let start = self.pos;
        let mut out = std::mem::replace(&mut self.unescaped, Unescaped::Text(String::new()));
        out.clear();
        let walked = self.walk_text(start, &mut out);
        self.unescaped = out;
        let (end, escaped) = walked?;
        self.pos = end;
        Ok(Tok::Text(
            b.get(start + 1..end - 1).unwrap_or_default(),
            escaped,
        ))
    }

    /// The string literal last lexed (the parser's current token), escapes
    /// applied, if it has escapes.
    pub(crate) fn take_unescaped(&mut self) -> Unescaped {
        std::mem::replace(&mut self.unescaped, Unescaped::Text(String::new()))
    }

    /// Walks the literal whose opening quote is at `start`, checking its escapes;
    /// once it meets one, it writes the literal's bytes to `out` (escapes applied).
    /// Returns the index after the closing quote and whether there were escapes.
    fn walk_text(&self, start: usize, out: &mut Unescaped) -> Result<(usize, bool)> {
        let b = self.src.as_bytes();
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            // A run of plain bytes.
            let Some(run) = quote_or_backslash(b.get(i..).unwrap_or_default()) else {
                return Err(self.err(start..start + 1, "unclosed string"));
            };
            if escaped {
                out.push_run(self.src, i, i + run);
            }
            i += run;
            if b.get(i) == Some(&b'"') {
                return Ok((i + 1, escaped));
            }
            // A backslash: the bytes before the first one are copied now.
            if !escaped {
                escaped = true;
                out.push_run(self.src, start + 1, i);
            }
            let esc = b.get(i + 1).copied();
            let hex2 = esc.is_some_and(|c| c.is_ascii_hexdigit())
                && b.get(i + 2).is_some_and(|c| c.is_ascii_hexdigit());
            let byte = if hex2 {
                i = hex_escapes(b, i, out);
                continue;
            } else {
                let byte = match esc {
                    Some(b'n') => b'\n',
                    Some(b'r') => b'\r',
                    Some(b't') => b'\t',
                    Some(b'\\') => b'\\',
                    Some(b'"') => b'"',
                    Some(b'\'') => b'\'',
                    Some(b'u') if b.get(i + 2) == Some(&b'{') => {
                        let (ch, end) = self.unicode_escape(i)?;
                        out.push_char(ch);
                        i = end;
                        continue;
                    }
                    _ => {
                        let ch = self.src.get(i + 1..).and_then(|r| r.chars().next());
                        let len = ch.map_or(0, char::len_utf8);
                        let shown = ch.map_or(String::new(), String::from);
                        return Err(self.err(
                            i..i + 1 + len,
                            format!("unknown escape character `\\{shown}`"),
                        ));
                    }
                };
                i += 2;
                byte
            };
            out.push_byte(byte);
        }
    }

    /// `\u{…}` at byte `i` (the backslash): the char and the index after `}`.
    fn unicode_escape(&self, i: usize) -> Result<(char, usize)> {
        let b = self.src.as_bytes();
        let mut j = i + 3;
        let mut value: u32 = 0;
        let mut ndigits = 0;
        while let Some(&c) = b.get(j) {
            if c == b'_' && ndigits > 0 {
                j += 1;
            } else if c.is_ascii_hexdigit() {
                value = value.saturating_mul(16).saturating_add(hex_val(c) as u32);
                ndigits += 1;
                j += 1;
            } else {
                break;
            }
        }
        if ndigits == 0 || b.get(j) != Some(&b'}') {
            return Err(self.err(i..j.min(b.len()), "invalid unicode escape"));
        }
        match char::from_u32(value) {
            Some(c) => Ok((c, j + 1)),
            None => Err(self.err(i..j + 1, "unicode escape out of range")),
        }
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The index of the first byte at or after `i` that is not a space, eight bytes per
/// step: indentation is most of the white space of a pretty-printed value.
#[inline]
fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while let Some(eight) = b.get(i..).and_then(|r| r.first_chunk::<8>()) {
        let not_space = u64::from_le_bytes(*eight) ^ (ONES * u64::from(b' '));
        if not_space != 0 {
            return i + (not_space.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

/// The index of the first byte at or after `i` that is not a space, tab or `\r`.
fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    loop {
        match b.get(i) {
            Some(b' ') => i = skip_spaces(b, i + 1),
            Some(b'\t' | b'\r') => i += 1,
            _ => return i,
        }
    }
}

/// The bytes of `x` (eight source bytes) that cannot continue an identifier, as a
/// mask with the high bit of each such byte set. Each range test adds a constant
/// that carries into a byte's high bit exactly when the byte is at or above the
/// range's bound; the bytes' high bits are cleared first so that no carry crosses
/// into the next byte, and non-ASCII bytes are flagged separately.
#[inline]
fn non_id_bytes(x: u64) -> u64 {
    let low7 = x & !HIGH;
    let at_least = |v: u64, bound: u8| v.wrapping_add(ONES * u64::from(128 - bound)) & HIGH;
    let digit = at_least(low7, b'0') & !at_least(low7, b'9' + 1);
    // Setting bit 5 maps `A..=Z` onto `a..=z` and moves no other byte into it.
    let lower = low7 | (ONES * 0x20);
    let letter = at_least(lower, b'a') & !at_least(lower, b'z' + 1);
    // A byte equal to `_` xors to zero, the only value that does not reach the high
    // bit when 0x7f is added.
    let underscore = !(low7 ^ (ONES * u64::from(b'_'))).wrapping_add(ONES * 0x7f) & HIGH;
    let ok = (digit | letter | underscore) & !x;
    !ok & HIGH
}

/// The end of the identifier whose bytes continue at `i`, eight bytes per step:
/// names are most of the bytes of a `.did` file.
#[inline]
fn id_end(b: &[u8], mut i: usize) -> usize {
    while let Some(eight) = b.get(i..).and_then(|r| r.first_chunk::<8>()) {
        let stop = non_id_bytes(u64::from_le_bytes(*eight));
        if stop != 0 {
            return i + (stop.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(|&c| ID_CHAR[usize::from(c)]) {
        i += 1;
    }
    i
}

/// The index of the first `"` or `\\` in `b`, sixteen bytes per step, then eight,
/// then one (a zero-byte test on the bytes xor-ed with each of the two): text
/// literals are most of a large value's source, and two words per step halve the
/// loop's own work per byte.
fn quote_or_backslash(b: &[u8]) -> Option<usize> {
    let zero_bytes = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    // The lowest flagged byte is exact (flags above a real match may be spurious).
    let found = |eight: &[u8; 8]| {
        let x = u64::from_le_bytes(*eight);
        zero_bytes(x ^ (ONES * u64::from(b'"'))) | zero_bytes(x ^ (ONES * u64::from(b'\\')))
    };
    let mut pairs = b.chunks_exact(16);
    let mut i = 0;
    for pair in &mut pairs {
        let (Some(lo), Some(hi)) = (pair.first_chunk::<8>(), pair.last_chunk::<8>()) else {
            break;
        };
        let (in_lo, in_hi) = (found(lo), found(hi));
        if in_lo | in_hi != 0 {
            // No match in the low word means no spurious flag there either.
            let bit = if in_lo != 0 {
                in_lo.trailing_zeros()
            } else {
                64 + in_hi.trailing_zeros()
            };
            return Some(i + (bit / 8) as usize);
        }
        i += 16;
    }
    let rest = pairs.remainder();
    let mut j = 0;
    if let Some(eight) = rest.first_chunk::<8>() {
        let in_word = found(eight);
        if in_word != 0 {
            return Some(i + (in_word.trailing_zeros() / 8) as usize);
        }
        j = 8;
    }
    let tail = rest.get(j..).unwrap_or_default();
    tail.iter()
        .position(|&c| c == b'"' || c == b'\\')
        .map(|p| i + j + p)
}

enum NumberKind {
    Decimal,
    Hex,
    Float,
}

/// The end of the number starting at `start` and its kind. Plain loops over bytes with
/// local indices: numbers are a fifth of the tokens of a typical value.
///
/// The longest of the forms that start here is taken, as candid_parser's lexer
/// does: an integer is a digit then digits and `_` in any order (candid_parser's
/// form, which the spec's includes); a float is the spec's, whose digit runs have
/// `_` only between two digits (`1_000.5`, `1e1_0`; candid_parser takes no `_` in a
/// float, spec/differences.md D10), with candid_parser's `.5` (no integer part)
/// besides. So `1_0.0` is a float, and `1_.5` the integer `1_` and then `.5`.
fn scan_number(b: &[u8], start: usize) -> (usize, NumberKind) {
    if b.get(start) == Some(&b'0')
        && matches!(b.get(start + 1), Some(b'x' | b'X'))
        && b.get(start + 2).is_some_and(|c| c.is_ascii_hexdigit())
    {
        let mut i = start + 2;
        while let Some(&c) = b.get(i) {
            if c.is_ascii_hexdigit() || c == b'_' {
                i += 1;
            } else {
                break;
            }
        }
        return (i, NumberKind::Hex);
    }
    // An integer, the usual number, is the digits and `_` from here; only when a
    // float might follow is its integer part checked against the spec's `<num>`
    // (every `_` before a digit).
    let mut integer = start;
    while b
        .get(integer)
        .is_some_and(|&c| c.is_ascii_digit() || c == b'_')
    {
        integer += 1;
    }
    if !matches!(b.get(integer), Some(b'.' | b'e' | b'E'))
        || (integer > start && spec_digits(b, start) != integer)
    {
        return (integer, NumberKind::Decimal);
    }
    let whole = integer > start;
    let mut end = integer;
    let mut float = false;
    if b.get(end) == Some(&b'.') {
        let fraction = spec_digits(b, end + 1);
        if whole || fraction > end + 1 {
            float = true;
            end = fraction;
        }
    }
    if whole && matches!(b.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exponent = spec_digits(b, j);
        if exponent > j {
            float = true;
            end = exponent;
        }
    }
    if float {
        (end, NumberKind::Float)
    } else {
        (integer, NumberKind::Decimal)
    }
}

/// The end of the spec's `<num>` at `i` (a digit, then digits with at most one `_`
/// between two of them), or `i` when no digit is there.
fn spec_digits(b: &[u8], mut i: usize) -> usize {
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return i;
    }
    i += 1;
    loop {
        match b.get(i) {
            Some(c) if c.is_ascii_digit() => i += 1,
            Some(b'_') if b.get(i + 1).is_some_and(u8::is_ascii_digit) => i += 2,
            _ => return i,
        }
    }
}

fn hex_val(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// Each byte's value as a hex digit, or 16 and above (`0xff`). Also the command
/// line's hex reader's table, so the two cannot read a digit differently.
pub static HEX_DIGIT: [u8; 256] = {
    let mut t = [0xff; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// The run of `\xx` escapes at `i` (a blob literal is one long run): the bytes
/// they stand for go to `out` through a small buffer, and the index after the run
/// comes back. No escape is taken when the one at `i` is not `\xx`.
fn hex_escapes(b: &[u8], mut i: usize, out: &mut Unescaped) -> usize {
    let mut buf = [0u8; 128];
    let mut n = 0;
    while let (Some(&b'\\'), Some(&h), Some(&l)) = (b.get(i), b.get(i + 1), b.get(i + 2)) {
        let (h, l) = (HEX_DIGIT[usize::from(h)], HEX_DIGIT[usize::from(l)]);
        if h | l >= 16 {
            break;
        }
        if n == buf.len() {
            out.push_escaped(&buf);
            n = 0;
        }
        if let Some(slot) = buf.get_mut(n) {
            *slot = h << 4 | l;
        }
        n += 1;
        i += 3;
    }
    out.push_escaped(buf.get(..n).unwrap_or_default());
    i
}

/// Little-endian word of a keyword of at most eight bytes, as [`ident`] loads it.
const fn word(k: &[u8]) -> u64 {
    let mut w = 0u64;
    let mut i = k.len();
    while i > 0 {
        i -= 1;
        w = (w << 8) | k[i] as u64;
    }
    w
}

/// The slot of the short keyword whose little-endian word is `key` in [`KEYWORDS`]:
/// a multiplicative hash whose factor was chosen to give each of them its own slot,
/// so a short name is told from every keyword by one multiplication and one compare
/// instead of a search through their words.
#[inline]
const fn keyword_slot(key: u64) -> usize {
    (key.wrapping_mul(0x05ab_3c9e_2a58_894d) >> 60) as usize
}

/// The keywords of at most seven bytes by [`keyword_slot`], each with its word; the
/// other slots have word 0, which no name has (its first byte is not 0).
static KEYWORDS: [(u64, Tok<'static>); 16] = {
    const FREE: (u64, Tok<'static>) = (0, Tok::Eof);
    let mut table = [FREE; 16];
    let keywords: [(&[u8], Tok<'static>); 14] = [
        (b"null", Tok::Null),
        (b"vec", Tok::Vec),
        (b"record", Tok::Record),
        (b"variant", Tok::Variant),
        (b"func", Tok::Func),
        (b"service", Tok::Service),
        (b"oneway", Tok::Oneway),
        (b"query", Tok::Query),
        (b"blob", Tok::Blob),
        (b"type", Tok::Type),
        (b"import", Tok::Import),
        (b"opt", Tok::Opt),
        (b"true", Tok::Bool(true)),
        (b"false", Tok::Bool(false)),
    ];
    let mut i = 0;
    while i < keywords.len() {
        let w = word(keywords[i].0);
        let slot = keyword_slot(w);
        // Two keywords in one slot would make one of them a name: refuse to compile.
        assert!(
            table[slot].0 == 0,
            "keyword_slot puts two keywords in one slot"
        );
        table[slot] = (w, keywords[i].1);
        i += 1;
    }
    table
};

/// `src[start..end]`, or "" when that is not a slice of `src`; written with
/// `split_at_checked`, which is inlined, where `str::get` is a call on wasm.
#[inline]
fn cut(src: &str, start: usize, end: usize) -> &str {
    src.split_at_checked(end)
        .and_then(|(head, _)| head.split_at_checked(start))
        .map_or("", |(_, s)| s)
}

/// The identifier or keyword starting at `start` of `src` (its first byte is known
/// to start one) and its end. When eight bytes can be loaded, the word that finds
/// the end of a short name also is its key: a name of at most seven bytes, which
/// every keyword but two is and most names in values are, is matched as one integer
/// (a handful of compares) instead of a length switch and byte tests.
#[inline]
fn ident(src: &str, start: usize) -> (Tok<'_>, usize) {
    let b = src.as_bytes();
    let Some(eight) = b.get(start..).and_then(|r| r.first_chunk::<8>()) else {
        let end = id_end(b, start + 1);
        return (keyword(src, start..end), end);
    };
    let x = u64::from_le_bytes(*eight);
    let stop = non_id_bytes(x);
    if stop == 0 {
        // Eight bytes or more: only two keywords are that long.
        let end = id_end(b, start + 8);
        let name = b.get(start..end).unwrap_or_default();
        let tok = match name.len() {
            9 if name == b"principal" => Tok::Principal,
            15 if name == b"composite_query" => Tok::CompositeQuery,
            _ => Tok::Id(cut(src, start, end)),
        };
        return (tok, end);
    }
    // The first byte starts a name, so at least one byte is in it.
    let len = (stop.trailing_zeros() / 8) as usize;
    let end = start + len;
    let key = x & (u64::MAX >> (64 - 8 * len.clamp(1, 8)));
    let tok = match KEYWORDS.get(keyword_slot(key)) {
        Some((k, tok)) if *k == key => *tok,
        _ => Tok::Id(cut(src, start, end)),
    };
    (tok, end)
}

/// [`ident`] written straight into `out` (the parser's current token), returning
/// the end: its result is not returned through memory and copied again.
#[inline(always)]
fn ident_into<'a>(src: &'a str, start: usize, out: &mut Token<'a>) -> usize {
    let (tok, end) = ident(src, start);
    out.tok = tok;
    out.span = start..end;
    end
}

/// The identifier or keyword at `span` of `src` (ASCII, as the lexer found it).
/// Keywords are matched by their bytes: the slice patterns compile to a length switch
/// and byte tests (string patterns would call `memcmp` once per candidate of the same
/// length).
fn keyword(src: &str, span: Span) -> Tok<'_> {
    let s = src.get(span).unwrap_or_default();
    match s.as_bytes() {
        [b'n', b'u', b'l', b'l'] => Tok::Null,
        [b'v', b'e', b'c'] => Tok::Vec,
        [b'r', b'e', b'c', b'o', b'r', b'd'] => Tok::Record,
        [b'v', b'a', b'r', b'i', b'a', b'n', b't'] => Tok::Variant,
        [b'f', b'u', b'n', b'c'] => Tok::Func,
        [b's', b'e', b'r', b'v', b'i', b'c', b'e'] => Tok::Service,
        [b'o', b'n', b'e', b'w', b'a', b'y'] => Tok::Oneway,
        [b'q', b'u', b'e', b'r', b'y'] => Tok::Query,
        [b'b', b'l', b'o', b'b'] => Tok::Blob,
        [b't', b'y', b'p', b'e'] => Tok::Type,
        [b'i', b'm', b'p', b'o', b'r', b't'] => Tok::Import,
        [b'o', b'p', b't'] => Tok::Opt,
        [b'p', b'r', b'i', b'n', b'c', b'i', b'p', b'a', b'l'] => Tok::Principal,
        [b't', b'r', b'u', b'e'] => Tok::Bool(true),
        [b'f', b'a', b'l', b's', b'e'] => Tok::Bool(false),
        b if b == b"composite_query" => Tok::CompositeQuery,
        _ => Tok::Id(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The eight-at-a-time search finds the same first `"` or `\` as a plain scan:
    /// at every offset in a word, with high bytes, near-misses (`#`, `]`, bytes that
    /// differ in one bit) and matches after spurious flags.
    #[test]
    fn quote_or_backslash_matches_a_plain_scan() {
        let plain = |b: &[u8]| b.iter().position(|&c| c == b'"' || c == b'\\');
        let alphabet = [
            b'a', b'"', b'\\', 0x80, 0xff, 0xa2, 0xdc, b'#', b']', 0x21, 0x5d, 0,
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..40 {
            for _ in 0..200 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        // Mostly plain bytes, so matches land anywhere.
                        let k = (seed % 64) as usize;
                        alphabet.get(k).copied().unwrap_or(b'x')
                    })
                    .collect();
                assert_eq!(quote_or_backslash(&bytes), plain(&bytes), "{bytes:?}");
            }
        }
    }

    /// The eight-at-a-time identifier test flags exactly the bytes the table rejects:
    /// every byte value at every position of a word, among identifier bytes and among
    /// other bytes (a carry or borrow must not leak into a neighbour).
    #[test]
    fn non_id_bytes_agrees_with_the_table() {
        for fill in [b'a', b'Z', b'_', b'9', b' ', 0x7f, 0x80, 0xff, b'@', b'`'] {
            for at in 0..8 {
                for c in 0..=255u8 {
                    let mut word = [fill; 8];
                    word[at] = c;
                    let stop = non_id_bytes(u64::from_le_bytes(word));
                    for (k, &byte) in word.iter().enumerate() {
                        let flagged = stop >> (8 * k + 7) & 1 == 1;
                        assert_eq!(flagged, !ID_CHAR[usize::from(byte)], "{word:?} byte {k}");
                    }
                }
            }
        }
    }

    /// `ident` gives what `id_end` and `keyword` give: for every keyword, names one
    /// byte longer or shorter or differing in case, at every length around a word, and
    /// with source ending right after the name (the short-input path) or not.
    #[test]
    fn ident_agrees_with_keyword() {
        let keywords = [
            "null",
            "vec",
            "record",
            "variant",
            "func",
            "service",
            "oneway",
            "query",
            "composite_query",
            "blob",
            "type",
            "import",
            "opt",
            "principal",
            "true",
            "false",
        ];
        let mut names: Vec<String> = Vec::new();
        for k in keywords {
            names.push(k.to_string());
            names.push(format!("{k}x"));
            names.push(k[..k.len() - 1].to_string());
            names.push(k.to_uppercase());
            names.push(format!("_{k}"));
        }
        for n in 1..20 {
            names.push("a".repeat(n));
            names.push(format!("z{}", "_9".repeat(n)));
        }
        for name in names {
            for tail in ["", " ", ";", " = 1;", "é", "\n", "(x)"] {
                let src = format!("{name}{tail}");
                let end = id_end(src.as_bytes(), 1);
                assert_eq!(ident(&src, 0), (keyword(&src, 0..end), end), "{src:?}");
                let shifted = format!("({src}");
                let end = id_end(shifted.as_bytes(), 2);
                assert_eq!(
                    ident(&shifted, 1),
                    (keyword(&shifted, 1..end), end),
                    "{shifted:?}"
                );
            }
        }
    }

    /// `id_end` and `skip_spaces` stop where byte-by-byte scans stop, whatever the
    /// length of the run and how much source follows it (the last bytes take the
    /// byte loop).
    #[test]
    fn word_scans_match_byte_scans() {
        for run in 0..20 {
            for tail in ["", "(", " x", "é", "_9;", "\n"] {
                let name = format!("a{}{tail}", "b_1".repeat(run));
                let b = name.as_bytes();
                let plain = 1 + b[1..]
                    .iter()
                    .take_while(|&&c| ID_CHAR[usize::from(c)])
                    .count();
                assert_eq!(id_end(b, 1), plain, "{name:?}");
                let spaces = format!("x{}{tail}", " ".repeat(run));
                let b = spaces.as_bytes();
                let plain = 1 + b[1..].iter().take_while(|&&c| c == b' ').count();
                assert_eq!(skip_spaces(b, 1), plain, "{spaces:?}");
            }
        }
    }
}
