//! The one error type of the crate.
//!
//! A decode error says what was expected, what was found, the byte offset in the
//! message and the path to the value (`arg 0 → neurons[3] → dissolve_state`).
//! The details live behind a `Box` so `Result<T, Error>` stays one pointer wide on
//! the hot path; every constructor is `#[cold]`.

use std::fmt;

/// `candor::Result<T> = Result<T, candor::Error>`, as in candid.
pub type Result<T = ()> = std::result::Result<T, Error>;

/// What kind of failure an [`Error`] reports.
///
/// The split between [`ErrorKind::Subtype`] and the others is the one candid makes:
/// callers (and ic-cdk) tell "the value has the wrong type" apart from "the bytes are
/// not a Candid message".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bytes are not a well-formed Candid message (bad magic, truncated input,
    /// bad LEB128, invalid UTF-8, index out of range…).
    Binary,
    /// The message is well formed but its type is not a subtype of the expected one.
    Subtype,
    /// A resource limit was hit: decoding or skipping quota, depth, header size.
    Limit,
    /// Anything else, including errors raised by serde visitors and encoding errors.
    Custom,
}

/// One step of the path from an argument to the failing value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSegment {
    /// The n-th argument of the message.
    Arg(usize),
    /// A record field, by name when the expected type has one.
    Field(String),
    /// A record field known only by its id.
    FieldId(u32),
    /// The n-th element of a vector (or entry of a map).
    Index(usize),
    /// A variant case.
    Case(String),
    /// The value inside `opt`.
    Opt,
}

/// Most path segments an error keeps.
const MAX_PATH: usize = 32;

/// The error of every fallible candor operation.
pub struct Error(Box<Inner>);

#[derive(Clone)]
struct Inner {
    kind: ErrorKind,
    message: String,
    offset: Option<usize>,
    /// Innermost segment first: segments are pushed while the error travels up.
    /// At most [`MAX_PATH`] are kept (the innermost and the outermost halves), so an
    /// error deep in a hostile message stays small.
    path: Vec<PathSegment>,
    /// Segments dropped from the middle of a long path.
    elided: usize,
    /// Extra diagnostics (`set_full_error_message`): the decoder state.
    context: Option<String>,
}

impl Error {
    #[cold]
    fn new(kind: ErrorKind, message: String) -> Self {
        Error(Box::new(Inner {
            kind,
            message,
            offset: None,
            path: Vec::new(),
            elided: 0,
            context: None,
        }))
    }
    /// A free-form error, as candid's `Error::msg`.
    #[cold]
    pub fn msg<T: ToString>(msg: T) -> Self {
        Self::new(ErrorKind::Custom, msg.to_string())
    }
    /// A subtype mismatch, as candid's `Error::subtype`.
    #[cold]
    pub fn subtype<T: ToString>(msg: T) -> Self {
        Self::new(ErrorKind::Subtype, msg.to_string())
    }
    /// Malformed input at a byte offset.
    #[cold]
    pub fn binary<T: ToString>(msg: T, offset: usize) -> Self {
        Self::new(ErrorKind::Binary, msg.to_string()).at(offset)
    }
    /// A resource limit hit at a byte offset.
    #[cold]
    pub fn limit<T: ToString>(msg: T, offset: usize) -> Self {
        Self::new(ErrorKind::Limit, msg.to_string()).at(offset)
    }
    /// "expected X, found Y" for a subtype mismatch at a byte offset.
    #[cold]
    pub(crate) fn mismatch(
        expected: impl fmt::Display,
        found: impl fmt::Display,
        offset: usize,
    ) -> Self {
        Self::subtype(format!("expected {expected}, found {found}")).at(offset)
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }
    /// True for a subtype mismatch (candid's `Error::Subtype`).
    pub fn is_subtype(&self) -> bool {
        self.0.kind == ErrorKind::Subtype
    }
    /// The message without offset and path.
    pub fn message(&self) -> &str {
        &self.0.message
    }
    /// The byte offset in the message where the failure was detected, if known.
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }
    /// The path from the argument to the failing value, outermost first.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.0.path.iter().rev()
    }

    /// Sets the offset unless one is already known (the innermost is the precise one).
    #[cold]
    pub(crate) fn at(mut self, offset: usize) -> Self {
        if self.0.offset.is_none() {
            self.0.offset = Some(offset);
        }
        self
    }
    /// Pushes one more (outer) path segment.
    #[cold]
    pub(crate) fn within(mut self, seg: PathSegment) -> Self {
        if self.0.path.len() >= MAX_PATH {
            self.0.path.remove(MAX_PATH / 2);
            self.0.elided += 1;
        }
        self.0.path.push(seg);
        self
    }
    #[cold]
    pub(crate) fn with_context(mut self, context: String) -> Self {
        self.0.context = Some(context);
        self
    }
}

impl fmt::Display for PathSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSegment::Arg(i) => write!(f, "arg {i}"),
            PathSegment::Field(n) => f.write_str(n),
            PathSegment::FieldId(id) => write!(f, "{id}"),
            PathSegment::Index(i) => write!(f, "[{i}]"),
            PathSegment::Case(n) => write!(f, "#{n}"),
            PathSegment::Opt => f.write_str("?"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        passed_through::offer(self);
        let prefix = match self.0.kind {
            ErrorKind::Binary => "malformed message",
            ErrorKind::Subtype => "Subtyping error",
            ErrorKind::Limit => "limit exceeded",
            ErrorKind::Custom => "",
        };
        if prefix.is_empty() {
            f.write_str(&self.0.message)?;
        } else {
            write!(f, "{prefix}: {}", self.0.message)?;
        }
        if let Some(off) = self.0.offset {
            write!(f, " at byte offset {off}")?;
        }
        if !self.0.path.is_empty() {
            f.write_str(" in ")?;
            let mut prev: Option<&PathSegment> = None;
            let outer = self.0.path.len().saturating_sub(MAX_PATH / 2);
            for (i, seg) in self.path().enumerate() {
                if self.0.elided > 0 && i == outer {
                    write!(f, " → …{} more…", self.0.elided)?;
                }
                // `neurons[3]`: an index sticks to the field or index before it.
                let sticks = matches!(seg, PathSegment::Index(_))
                    && matches!(
                        prev,
                        Some(
                            PathSegment::Field(_) | PathSegment::FieldId(_) | PathSegment::Index(_)
                        )
                    );
                if prev.is_some() && !sticks {
                    f.write_str(" → ")?;
                }
                write!(f, "{seg}")?;
                prev = Some(seg);
            }
        }
        if let Some(ctx) = &self.0.context {
            write!(f, "\n{ctx}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {}

impl serde::de::Error for Error {
    /// A visitor's own message, or, when the message *is* a candor error passed
    /// through `D::Error::custom` (as `Principal`'s `Deserialize` does with every
    /// error it gets), that error unchanged: its kind, offset and path survive, and
    /// the decoder does not add a second offset to text that already has one.
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        // Only the formatting is generic: every serde visitor instantiates `custom`,
        // so the rest lives in two plain functions.
        let was = passed_through::begin();
        let text = msg.to_string();
        passed_through::finish(was, text)
    }
}

/// Recognising a candor error handed back as a `Display` value. `custom` formats
/// its message with capture on (between [`begin`](passed_through::begin) and
/// [`finish`](passed_through::finish)); a candor error being displayed then leaves a copy
/// of itself. The copy is used only when the whole message is exactly that error's
/// text, so a visitor's message that merely quotes an error keeps its own words.
mod passed_through {
    use super::Error;
    use std::cell::{Cell, RefCell};

    thread_local! {
        static CAPTURING: Cell<bool> = const { Cell::new(false) };
        static CAPTURED: RefCell<Option<Error>> = const { RefCell::new(None) };
    }

    /// Starts capturing; returns the previous state for [`finish`].
    #[cold]
    #[inline(never)]
    pub(super) fn begin() -> bool {
        // `try_with` throughout: while the thread is torn down these may be gone,
        // and the error is then simply custom.
        let _ = CAPTURED.try_with(|c| c.borrow_mut().take());
        CAPTURING.try_with(|c| c.replace(true)).unwrap_or(false)
    }

    /// Stops capturing: the captured error if `text` is exactly its text, else a
    /// custom error with `text`.
    #[cold]
    #[inline(never)]
    pub(super) fn finish(was: bool, text: String) -> Error {
        let _ = CAPTURING.try_with(|c| c.set(was));
        match CAPTURED.try_with(|c| c.borrow_mut().take()).ok().flatten() {
            Some(e) if e.to_string() == text => e,
            _ => Error::msg(text),
        }
    }

    /// Called by `Display`: keeps a copy of `e` while `recover` is formatting.
    #[cold]
    pub(super) fn offer(e: &Error) {
        if CAPTURING.try_with(|c| c.get()).unwrap_or(false) {
            let copy = Error(Box::new((*e.0).clone()));
            let _ = CAPTURED.try_with(|c| *c.borrow_mut() = Some(copy));
        }
    }
}

/// The faults the reader and the decoder report in more than one place, each spelled
/// once: call sites name the fault and where it is, and the text is built here. Each
/// is a cold function taking only scalars, so hot code that may raise one keeps no
/// room for an error value on its fast path.
pub(crate) mod fault {
    use super::Error;

    /// The input ended inside `what`.
    #[cold]
    #[inline(never)]
    pub(crate) fn unexpected_end(what: &str, at: usize) -> Error {
        Error::binary(format!("unexpected end of input reading {what}"), at)
    }

    /// A LEB128 number too large for what it encodes.
    #[cold]
    #[inline(never)]
    pub(crate) fn leb_overflow(what: &str, at: usize) -> Error {
        Error::binary(format!("{what}: LEB128 overflow"), at)
    }

    /// Bytes of `what` (text, method name) that are not UTF-8.
    #[cold]
    #[inline(never)]
    pub(crate) fn invalid_utf8(what: &str, e: std::str::Utf8Error, at: usize) -> Error {
        Error::binary(format!("invalid UTF-8 in {what}: {e}"), at)
    }

    /// A func or principal with flag 0 (an opaque reference).
    #[cold]
    #[inline(never)]
    pub(crate) fn opaque_reference(at: usize) -> Error {
        Error::binary("opaque reference not supported", at)
    }

    /// A variant index past the wire type's cases (candid's wording, which callers
    /// match on).
    #[cold]
    #[inline(never)]
    pub(crate) fn variant_index(index: u64, cases: usize, at: usize) -> Error {
        Error::binary(
            format!("Variant index {index} larger than length {cases}"),
            at,
        )
    }

    /// A value of type `empty` on the wire.
    #[cold]
    #[inline(never)]
    pub(crate) fn empty_value(at: usize) -> Error {
        Error::msg("Cannot decode empty type").at(at)
    }

    /// A bignum that does not fit the 128-bit integer asked for.
    #[cold]
    #[inline(never)]
    pub(crate) fn number_too_large(what: &'static str, at: usize) -> Error {
        Error::binary(what, at)
    }
}

impl serde::ser::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::msg(msg)
    }
}

impl From<std::io::Error> for Error {
    #[cold]
    fn from(e: std::io::Error) -> Self {
        Error::msg(e)
    }
}

/// As in candid: a number that did not parse, reported as a plain message.
impl From<std::num::ParseIntError> for Error {
    #[cold]
    fn from(e: std::num::ParseIntError) -> Self {
        Error::msg(format!("ParseIntError: {e}"))
    }
}

impl From<std::collections::TryReserveError> for Error {
    #[cold]
    fn from(e: std::collections::TryReserveError) -> Self {
        Error::new(ErrorKind::Limit, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_one_pointer() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
        assert_eq!(
            std::mem::size_of::<Result<()>>(),
            std::mem::size_of::<usize>()
        );
    }

    #[test]
    fn display_has_offset_and_path() {
        let e = Error::mismatch("nat8", "nat16", 25)
            .within(PathSegment::Field("dissolve_state".into()))
            .within(PathSegment::Index(3))
            .within(PathSegment::Field("neurons".into()))
            .within(PathSegment::Arg(0));
        assert_eq!(
            e.to_string(),
            "Subtyping error: expected nat8, found nat16 at byte offset 25 in arg 0 → neurons[3] → dissolve_state"
        );
        assert!(e.is_subtype());
    }

    #[test]
    fn long_paths_are_cut_in_the_middle() {
        let mut e = Error::msg("deep");
        for i in 0..5_000 {
            e = e.within(PathSegment::Index(i));
        }
        let e = e.within(PathSegment::Arg(0));
        let s = e.to_string();
        assert!(s.len() < 400, "{}", s.len());
        assert!(s.starts_with("deep in arg 0 → [4999][4998]"), "{s}");
        assert!(s.contains("…4969 more…"), "{s}");
        assert!(s.ends_with("[1][0]"), "{s}");
    }
}
