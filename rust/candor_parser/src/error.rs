//! The error type of the crate.
//!
//! A syntax or type error points into the source: it carries the byte span, the
//! 1-based line and column (in characters) and a two-line snippet (the source line and
//! a caret line under the offending text), because a message without a location is of
//! little use in a 500-line `.did` file. The location is computed only when an error is
//! built, never on the success path.

use std::fmt;
use std::ops::Range;

/// `Result<T, candor_parser::Error>`.
pub type Result<T = ()> = std::result::Result<T, Error>;

/// A byte range in the source text.
pub type Span = Range<usize>;

/// An error located in source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What went wrong, without location.
    pub message: String,
    /// The file the source came from, when known (set by the file loaders).
    pub file: Option<String>,
    /// Byte span of the offending text.
    pub span: Span,
    /// 1-based line of `span.start`.
    pub line: usize,
    /// 1-based column (in characters) of `span.start`.
    pub col: usize,
    /// The source line and a caret line under the span.
    pub snippet: String,
}

/// Every failure of the parser, the type checker and the helpers built on them.
#[derive(Debug)]
pub enum Error {
    /// A syntax or type error in source text, with its location.
    Parse(Box<Diagnostic>),
    /// An error of the candor runtime (annotation, encoding, decoding).
    Candid(candor::Error),
    /// Anything else (I/O, missing files, …).
    Custom(String),
}

impl Error {
    /// A free-form error (candid_parser's `Error::msg`).
    #[cold]
    pub fn msg<T: ToString>(msg: T) -> Self {
        Error::Custom(msg.to_string())
    }

    /// An error at `span` of `src`.
    #[cold]
    pub fn at(src: &str, span: Span, message: impl Into<String>) -> Self {
        Error::Parse(Box::new(Diagnostic::new(src, span, message.into())))
    }

    /// The diagnostic, for errors located in source text.
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            Error::Parse(d) => Some(d),
            _ => None,
        }
    }

    /// Records the file name of a located error (no effect on other errors).
    pub fn with_file(mut self, file: &str) -> Self {
        if let Error::Parse(d) = &mut self {
            if d.file.is_none() {
                d.file = Some(file.to_string());
            }
        }
        self
    }
}

impl Diagnostic {
    #[cold]
    pub(crate) fn new(src: &str, span: Span, message: String) -> Self {
        let start = clamp_boundary(src, span.start);
        let end = clamp_boundary(src, span.end.max(start));
        let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = src[start..].find('\n').map_or(src.len(), |i| start + i);
        let line = src[..start].matches('\n').count() + 1;
        let text = src[line_start..line_end].trim_end_matches('\r');
        let before = &src[line_start..start.min(line_start + text.len())];
        let col = before.chars().count() + 1;
        // Keep tabs in the padding so the caret lines up in a terminal.
        let pad: String = before
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let width = src[start..end.min(line_end).max(start)]
            .chars()
            .count()
            .max(1);
        let snippet = format!("{text}\n{pad}{}", "^".repeat(width));
        Diagnostic {
            message,
            file: None,
            span: start..end,
            line,
            col,
            snippet,
        }
    }
}

/// Moves `i` back onto a char boundary inside `src` (spans come from our own lexer,
/// so this only guards against misuse).
fn clamp_boundary(src: &str, mut i: usize) -> usize {
    i = i.min(src.len());
    while !src.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}:")?;
        }
        write!(
            f,
            "{}:{}: {}\n{}",
            self.line, self.col, self.message, self.snippet
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(d) => write!(f, "Candid parser error: {d}"),
            Error::Candid(e) => write!(f, "{e}"),
            Error::Custom(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for Error {}

impl From<candor::Error> for Error {
    fn from(e: candor::Error) -> Self {
        Error::Candid(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Custom(e.to_string())
    }
}
