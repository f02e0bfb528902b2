//! Recursive-descent parser for Candid text values, type expressions, `.did` files
//! and `.test.did` files.
//!
//! The grammar is candid_parser's (see its `grammar.lalrpop`); where the LALR grammar
//! needs no look-ahead beyond one token, neither do we, except for record fields,
//! where `name =`/`name :` is told apart from a positional value by peeking one
//! token further (a cheap clone of the lexer position).
//!
//! Nesting is bounded by [`MAX_DEPTH`]: recursion over attacker-sized input would
//! otherwise overflow the (small, in a canister) stack.

use crate::error::{Error, Result, Span};
use crate::lexer::{Lexer, Tok, Token, Unescaped};
use crate::syntax::{
    Assert, Binding, Dec, FuncType, IDLActorType, IDLInitArgs, IDLProg, IDLType, IDLTypes, Input,
    PrimType, Source, Test, TypeField,
};
use candor::types::{FuncMode, Label};
use candor::{IDLArgs, IDLField, IDLValue, Principal, VariantValue};
use std::borrow::Cow;
use std::rc::Rc;

/// How deeply values and types may nest (`opt opt … ` or `vec { vec { … } }`).
pub const MAX_DEPTH: usize = 256;

/// The meaning of `v : t` in a value. The parser reads both sides as syntax and
/// hands them to this pass, so it needs no type checker: the pass that does lives
/// above the checker (`values.rs`). It is a type parameter of the value
/// methods, not a value stored in the parser, so the call is static, as direct as
/// before the split, and the parser of `.did` files is not instantiated with it.
pub(crate) trait Annotate {
    /// `v` converted to the type written as `t`, or why not.
    fn annotate(v: IDLValue, t: &IDLType) -> std::result::Result<IDLValue, AnnotationError>;
}

/// Why an annotation failed, which decides where the error points.
pub(crate) enum AnnotationError {
    /// The type is wrong in itself (an unbound name, say): the type is underlined.
    Type(String),
    /// The value does not fit the type: the value is underlined.
    Value(String),
}

pub(crate) struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Token<'a>,
    depth: usize,
    /// End of the last consumed token (for spans of whole constructs).
    last_end: usize,
    /// Shared source for the bindings of a `.did` file.
    source: Option<Rc<Source>>,
    /// The sort keys of the fields of the records and variants being parsed, as a
    /// stack: each one's keys follow those of the record it is nested in, and are
    /// popped when it is done. One buffer for the whole parse, so that sorting a
    /// record's fields moves small keys instead of the fields and allocates nothing.
    keys: Vec<FieldKey>,
}

/// A field's id (a name's hash), its position among its record's fields and its
/// span (for the duplicate error).
#[derive(Clone, Copy)]
struct FieldKey {
    id: u32,
    index: u32,
    start: usize,
    end: usize,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str, keep_docs: bool) -> Result<Self> {
        let mut lex = Lexer::new(src);
        lex.keep_docs = keep_docs;
        let tok = lex.next_token()?;
        Ok(Parser {
            lex,
            tok,
            depth: 0,
            last_end: 0,
            source: None,
            keys: Vec::new(),
        })
    }

    /// Keeps a copy of the source for diagnostics raised after parsing.
    pub(crate) fn with_source(mut self, name: Option<&str>) -> Self {
        self.source = Some(Rc::new(Source {
            name: name.map(str::to_string),
            text: self.lex.src().to_string(),
        }));
        self
    }

    fn src(&self) -> &'a str {
        self.lex.src()
    }

    fn bump(&mut self) -> Result<Token<'a>> {
        let tok = self.tok.clone();
        if !self.lex.next_into(&mut self.tok) {
            return Err(self.lex.take_error());
        }
        self.last_end = tok.span.end;
        Ok(tok)
    }

    /// [`bump`](Self::bump) for callers that do not need the token: the next one is
    /// written over it in place.
    fn advance(&mut self) -> Result<()> {
        let end = self.tok.span.end;
        if !self.lex.next_into(&mut self.tok) {
            return Err(self.lex.take_error());
        }
        self.last_end = end;
        Ok(())
    }

    /// The token after the current one.
    fn peek2(&self) -> Tok<'a> {
        let mut l = self.lex.lookahead();
        l.next_token().map(|t| t.tok).unwrap_or(Tok::Eof)
    }

    #[cold]
    fn err(&self, span: Span, msg: impl Into<String>) -> Error {
        Error::at(self.src(), span, msg)
    }

    /// An error whose message is `e`'s text. Formatting `e` stays out of line here:
    /// written in the caller's closure, it can be inlined into the caller, whose code
    /// every successful parse of that construct runs through.
    #[cold]
    #[inline(never)]
    fn err_display(&self, span: Span, e: impl std::fmt::Display) -> Error {
        self.err(span, e.to_string())
    }

    #[cold]
    fn unexpected(&self, expected: &str) -> Error {
        self.err(
            self.tok.span.clone(),
            format!("expected {expected}, found {}", self.tok.tok.describe()),
        )
    }

    /// Consumes the payload-free token `t`, or fails naming `what` was expected.
    fn expect(&mut self, t: Tok<'static>, what: &str) -> Result<Span> {
        if self.tok.tok.is(&t) {
            let span = self.tok.span.clone();
            self.advance()?;
            Ok(span)
        } else {
            Err(self.unexpected(what))
        }
    }

    /// Consumes the payload-free token `t` if it is next.
    fn eat(&mut self, t: Tok<'static>) -> Result<bool> {
        if self.tok.tok.is(&t) {
            self.advance()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub(crate) fn expect_eof(&self) -> Result<()> {
        if matches!(self.tok.tok, Tok::Eof) {
            Ok(())
        } else {
            Err(self.unexpected("end of input"))
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                self.tok.span.clone(),
                format!("nesting is deeper than the limit of {MAX_DEPTH}"),
            ));
        }
        Ok(())
    }

    // ---- shared pieces -------------------------------------------------------

    /// The bytes of the text literal that is the current token (consumed), borrowed
    /// from the source unless it has escapes.
    fn text_bytes(&mut self) -> Result<(Cow<'a, [u8]>, Span)> {
        // Taken before advancing: the lexer holds the unescaped bytes of the literal
        // it lexed last, which is the current token.
        let bytes = match self.tok.tok {
            Tok::Text(raw, false) => Cow::Borrowed(raw),
            Tok::Text(_, true) => Cow::Owned(self.lex.take_unescaped().into_bytes()),
            _ => return Err(self.err(self.tok.span.clone(), "expected a text literal")),
        };
        let span = self.tok.span.clone();
        self.advance()?;
        Ok((bytes, span))
    }

    /// The text between the quotes of the literal at `span`, when it has no escapes:
    /// a slice of the source cut at two ASCII quotes, so valid UTF-8 without a
    /// second look at its bytes.
    fn literal_str(&self, span: &Span) -> Option<&'a str> {
        self.src().get(span.start + 1..span.end.checked_sub(1)?)
    }

    /// A text literal that must be valid UTF-8.
    fn text(&mut self) -> Result<(String, Span)> {
        if !matches!(self.tok.tok, Tok::Text(..)) {
            return Err(self.unexpected("a text literal"));
        }
        // Taken before advancing, as in `text_bytes`; escaped text built as text
        // needs no second look at its bytes.
        let span = self.tok.span.clone();
        let text = match self.tok.tok {
            Tok::Text(_, false) => self.literal_str(&span).map(str::to_string),
            _ => match self.lex.take_unescaped() {
                Unescaped::Text(t) => Some(t),
                Unescaped::Bytes(v) => String::from_utf8(v).ok(),
            },
        };
        self.advance()?;
        match text {
            Some(s) => Ok((s, span)),
            None => Err(self.err(span, "text is not valid UTF-8")),
        }
    }

    /// `<id>` or `<text>`.
    fn name(&mut self) -> Result<(String, Span)> {
        match self.tok.tok {
            Tok::Id(s) => {
                let span = self.tok.span.clone();
                self.advance()?;
                Ok((s.to_string(), span))
            }
            Tok::Text(..) => self.text(),
            _ => Err(self.unexpected("a name")),
        }
    }

    /// A numeric field id (decimal or hex, within u32).
    fn field_id(&mut self) -> Result<u32> {
        let span = self.tok.span.clone();
        let v = match self.tok.tok {
            Tok::Decimal(s) => parse_u32(s, 10),
            Tok::Hex(s) => parse_u32(&s[2..], 16),
            _ => return Err(self.unexpected("a field id")),
        };
        self.advance()?;
        v.ok_or_else(|| self.err(span, "field id out of u32 range"))
    }

    // ---- values --------------------------------------------------------------

    /// `( v1, v2, … )`.
    pub(crate) fn args<A: Annotate>(&mut self) -> Result<IDLArgs> {
        self.expect(Tok::LParen, "`(`")?;
        let mut args = self.first_capacity(Tok::RParen);
        while !matches!(self.tok.tok, Tok::RParen) {
            args.push(IDLValue::Null);
            if let Some(slot) = args.last_mut() {
                self.ann_val::<A>(slot)?;
            }
            if !self.eat(Tok::Comma)? {
                break;
            }
        }
        self.expect(Tok::RParen, "`,` or `)`")?;
        Ok(IDLArgs { args })
    }

    /// A value with an optional type annotation `v : t`, which converts the value to
    /// that type (so `1 : nat8` is a `Nat8`, not a `Number`), written to `slot`.
    ///
    /// The value parsers write each value where it is to be kept (a record's field,
    /// a vector's element, an `opt`'s box) instead of returning it: a returned value
    /// goes through memory at every level and is copied again into its place.
    fn ann_val<A: Annotate>(&mut self, slot: &mut IDLValue) -> Result<()> {
        let start = self.tok.span.start;
        self.value_into::<A>(slot)?;
        if matches!(self.tok.tok, Tok::Colon) {
            let v = std::mem::replace(slot, IDLValue::Null);
            *slot = self.annotate::<A>(v, start)?;
        }
        Ok(())
    }

    /// `: t` after a value (kept out of the recursive path so its locals do not
    /// widen every recursion frame).
    #[inline(never)]
    fn annotate<A: Annotate>(&mut self, v: IDLValue, start: usize) -> Result<IDLValue> {
        let vspan = start..self.last_end;
        self.advance()?;
        let tstart = self.tok.span.start;
        let ast = self.typ()?;
        let tspan = tstart..self.last_end;
        A::annotate(v, &ast).map_err(|e| match e {
            AnnotationError::Type(msg) => self.err(tspan, msg),
            AnnotationError::Value(msg) => self.err(vspan, msg),
        })
    }

    /// A value without annotation.
    pub(crate) fn value<A: Annotate>(&mut self) -> Result<IDLValue> {
        let mut v = IDLValue::Null;
        self.value_into::<A>(&mut v)?;
        Ok(v)
    }

    /// A value without annotation, written to `slot`.
    fn value_into<A: Annotate>(&mut self, slot: &mut IDLValue) -> Result<()> {
        self.enter()?;
        let r = self.value_inner::<A>(slot);
        self.depth -= 1;
        r
    }

    /// The recursive forms; everything else is in [`Self::atom`]. Each recursive
    /// form is its own small function so that one level of nesting costs little stack
    /// (a debug build would otherwise reserve every arm's temporaries in every frame);
    /// this dispatch itself is inlined into [`Self::value_into`], one call less per
    /// value.
    #[inline(always)]
    fn value_inner<A: Annotate>(&mut self, slot: &mut IDLValue) -> Result<()> {
        match self.tok.tok {
            Tok::Opt => {
                self.advance()?;
                let mut inner = Box::new(IDLValue::Null);
                self.value_into::<A>(&mut inner)?;
                put(slot, IDLValue::Opt(inner));
                Ok(())
            }
            Tok::Vec => self.vec_value::<A>(slot),
            Tok::Record => self.record_value::<A>(slot),
            Tok::Variant => self.variant_value::<A>(slot),
            Tok::LParen => self.paren_value::<A>(slot),
            _ => self.atom(slot),
        }
    }

    #[inline(never)]
    fn paren_value<A: Annotate>(&mut self, slot: &mut IDLValue) -> Result<()> {
        self.advance()?;
        self.ann_val::<A>(slot)?;
        self.expect(Tok::RParen, "`)`")?;
        Ok(())
    }

    #[inline(never)]
    fn vec_value<A: Annotate>(&mut self, slot: &mut IDLValue) -> Result<()> {
        self.advance()?;
        self.expect(Tok::LBrace, "`{`")?;
        let mut vs: Vec<IDLValue> = self.first_capacity(Tok::RBrace);
        while !matches!(self.tok.tok, Tok::RBrace) {
            vs.push(IDLValue::Null);
            if let Some(v) = vs.last_mut() {
                self.ann_val::<A>(v)?;
            }
            if !self.eat(Tok::Semi)? {
                break;
            }
        }
        self.expect(Tok::RBrace, "`;` or `}`")?;
        put(slot, IDLValue::Vec(vs));
        Ok(())
    }

    #[inline(never)]
    fn variant_value<A: Annotate>(&mut self, slot: &mut IDLValue) -> Result<()> {
        self.advance()?;
        self.expect(Tok::LBrace, "`{`")?;
        // Exactly one field and no `;` after it, as the spec's `variant { <fieldval> }`
        // and candid_parser have it.
        let field = self.variant_field_value::<A>()?;
        self.expect(Tok::RBrace, "`}`")?;
        put(slot, IDLValue::Variant(VariantValue(field, 0)));
        Ok(())
    }

    /// Values without nested values.
    #[inline(never)]
    fn atom(&mut self, slot: &mut IDLValue) -> Result<()> {
        let span = self.tok.span.clone();
        let v = match self.tok.tok {
            Tok::Bool(b) => {
                self.advance()?;
                IDLValue::Bool(b)
            }
            Tok::Null => {
                self.advance()?;
                IDLValue::Null
            }
            Tok::Sign(_) | Tok::Decimal(_) | Tok::Hex(_) | Tok::Float(_) => self.number()?,
            Tok::Text(..) => IDLValue::Text(self.text()?.0),
            Tok::Blob => {
                self.advance()?;
                if !matches!(self.tok.tok, Tok::Text(..)) {
                    self.advance()?;
                    return Err(
                        self.err(self.tok_span_prev(), "expected a text literal after `blob`")
                    );
                }
                IDLValue::Blob(self.text_bytes()?.0.into_owned())
            }
            Tok::Principal => {
                self.advance()?;
                IDLValue::Principal(self.principal()?)
            }
            Tok::Service => {
                self.advance()?;
                IDLValue::Service(self.principal()?)
            }
            Tok::Func => {
                self.advance()?;
                let p = self.principal()?;
                self.expect(Tok::Dot, "`.`")?;
                let (m, _) = self.name()?;
                IDLValue::Func(p, m)
            }
            _ => {
                return Err(self.err(
                    span,
                    format!("expected a value, found {}", self.tok.tok.describe()),
                ))
            }
        };
        put(slot, v);
        Ok(())
    }

    fn tok_span_prev(&self) -> Span {
        self.last_end.saturating_sub(1)..self.last_end
    }

    fn principal(&mut self) -> Result<Principal> {
        if !matches!(self.tok.tok, Tok::Text(..)) {
            return Err(self.unexpected("a text literal"));
        }
        // Read from the literal's bytes: no `String` for text that is not kept.
        let (bytes, span) = self.text_bytes()?;
        let s = match &bytes {
            Cow::Borrowed(_) => self.literal_str(&span),
            Cow::Owned(v) => std::str::from_utf8(v).ok(),
        };
        let Some(s) = s else {
            return Err(self.err(span, "text is not valid UTF-8"));
        };
        crate::principal::from_text(s).map_err(|e| self.err_display(span, e))
    }

    /// `[+-]? (decimal | hex | float)`: integers stay `Number` (their type is decided
    /// by annotation), floats become `Float64`, as in candid_parser.
    fn number(&mut self) -> Result<IDLValue> {
        let start = self.tok.span.start;
        let neg = match self.tok.tok {
            Tok::Sign(c) => {
                self.advance()?;
                c == b'-'
            }
            _ => false,
        };
        let t = self.bump()?;
        let span = start..t.span.end;
        // Built by hand: `format!` costs several times the rest of the number path.
        let signed = |digits: &str| {
            let mut out = String::with_capacity(digits.len() + 1);
            if neg {
                out.push('-');
            }
            // Digits are ASCII: copied byte by byte without the `_` separators (a
            // number's few digits cost less so than a search for `_` and a
            // `memory.copy`). The mask, which changes no ASCII byte, shows the
            // compiler that each char is one byte, so the push needs no UTF-8
            // encoding.
            for &c in digits.as_bytes() {
                if c != b'_' {
                    out.push(char::from(c & 0x7f));
                }
            }
            out
        };
        match t.tok {
            Tok::Decimal(s) => Ok(IDLValue::Number(signed(s))),
            Tok::Hex(s) => Ok(IDLValue::Number(signed(&hex_to_decimal(&s[2..])))),
            Tok::Float(s) => {
                let f: f64 = signed(s)
                    .parse()
                    .map_err(|_| self.err(span, "not a float"))?;
                Ok(IDLValue::Float64(f))
            }
            _ => Err(self.err(
                t.span,
                format!("expected a number, found {}", t.tok.describe()),
            )),
        }
    }

    /// `record { f1; f2 = v; … }`: positional fields get the id after the previous
    /// field's, then the fields are sorted by id and must be distinct.
    #[inline(never)]
    fn record_value<A: Annotate>(&mut self, slot: &mut IDLValue) -> Result<()> {
        self.advance()?;
        self.expect(Tok::LBrace, "`{`")?;
        let mut fields: Vec<IDLField> = self.first_capacity(Tok::RBrace);
        let base = self.keys.len();
        let mut next_id: u32 = 0;
        while !matches!(self.tok.tok, Tok::RBrace) {
            let start = self.tok.span.start;
            let named = match self.tok.tok {
                Tok::Id(_) => true,
                Tok::Decimal(_) | Tok::Hex(_) | Tok::Text(..) => {
                    matches!(self.peek2(), Tok::Equals)
                }
                _ => false,
            };
            // The id is computed once: a name's id is a hash of it.
            let (hash, id) = if named {
                // A name label is taken here, the common case, not through a call
                // whose result would go through memory.
                let id = match self.tok.tok {
                    Tok::Id(s) => {
                        self.advance()?;
                        Label::Named(s.to_string())
                    }
                    _ => self.label()?,
                };
                let hash = id.get_id();
                self.expect(Tok::Equals, "`=`")?;
                (hash, id)
            } else {
                (next_id, Label::Unnamed(next_id))
            };
            let index = fields.len();
            fields.push(IDLField {
                id,
                val: IDLValue::Null,
            });
            if let Some(field) = fields.last_mut() {
                self.ann_val::<A>(&mut field.val)?;
            }
            next_id = hash.wrapping_add(1);
            self.push_key(hash, index, start);
            if !self.eat(Tok::Semi)? {
                break;
            }
        }
        self.expect(Tok::RBrace, "`;` or `}`")?;
        self.sort_unique(&mut fields, base, |f| &f.id)?;
        put(slot, IDLValue::Record(fields));
        Ok(())
    }

    /// A field label: a name (`Named`) or a number (`Id`).
    fn label(&mut self) -> Result<Label> {
        match self.tok.tok {
            // The common case without going through `name` and its span.
            Tok::Id(s) => {
                self.advance()?;
                Ok(Label::Named(s.to_string()))
            }
            Tok::Decimal(_) | Tok::Hex(_) => Ok(Label::Id(self.field_id()?)),
            _ => Ok(Label::Named(self.name()?.0)),
        }
    }

    fn variant_field_value<A: Annotate>(&mut self) -> Result<Box<IDLField>> {
        let id = match self.tok.tok {
            Tok::Id(_) | Tok::Text(..) | Tok::Decimal(_) | Tok::Hex(_) => self.label()?,
            _ => return Err(self.unexpected("a variant case")),
        };
        let mut field = Box::new(IDLField {
            id,
            val: IDLValue::Null,
        });
        if self.eat(Tok::Equals)? {
            self.ann_val::<A>(&mut field.val)?;
        }
        Ok(field)
    }

    /// The vector for the items of a list whose opening bracket was just consumed
    /// (a record, variant, `vec` or service, or a tuple of types): room for four
    /// items unless the list is empty (`close` next). Allocated here directly,
    /// rather than by the first push, which goes through the vector's out-of-line
    /// growth path.
    fn first_capacity<T>(&self, close: Tok<'static>) -> Vec<T> {
        if self.tok.tok.is(&close) {
            Vec::new()
        } else {
            Vec::with_capacity(4)
        }
    }

    /// Records the key of the field just parsed (which started at `start` and is
    /// the `index`-th of its record).
    fn push_key(&mut self, id: u32, index: usize, start: usize) {
        self.keys.push(FieldKey {
            id,
            index: u32::try_from(index).unwrap_or(u32::MAX),
            start,
            end: self.last_end,
        });
    }

    /// Sorts labelled items by id and rejects two with the same id, pointing at the
    /// later one in the source. Their keys are `self.keys[base..]`, in item order,
    /// with the id computed once (a named label's id is a hash of its name:
    /// computing it in the comparison would hash the name at every step of the
    /// sort); they are popped here. The keys are sorted, then the items are put in
    /// their order by swaps, so that each item moves at most once or twice.
    fn sort_unique<T>(
        &mut self,
        items: &mut [T],
        base: usize,
        label: impl Fn(&T) -> &Label,
    ) -> Result<()> {
        let keys = self.keys.get_mut(base..).unwrap_or_default();
        if keys.windows(2).all(|w| matches!(w, [a, b] if a.id < b.id)) {
            self.keys.truncate(base);
            return Ok(());
        }
        keys.sort_unstable_by_key(|k| (k.id, k.start));
        for w in keys.windows(2) {
            let [first, second] = w else { continue };
            if first.id == second.id {
                let (first, second) = (first.index as usize, *second);
                let msg = match (items.get(second.index as usize), items.get(first)) {
                    (Some(b), Some(a)) => {
                        format!("label '{}' hash collision with '{}'", label(b), label(a))
                    }
                    _ => "label hash collision".to_string(),
                };
                return Err(self.err(second.start..second.end, msg));
            }
        }
        // Position `i` takes the item first at `keys[i].index`; an item at an earlier
        // position has been swapped away, to where the chain of indices leads.
        for i in 0..keys.len() {
            let mut j = keys.get(i).map_or(i, |k| k.index as usize);
            while j < i {
                j = keys.get(j).map_or(i, |k| k.index as usize);
            }
            if j != i && j < items.len() {
                items.swap(i, j);
            }
        }
        self.keys.truncate(base);
        Ok(())
    }

    // ---- types ---------------------------------------------------------------

    fn typ(&mut self) -> Result<IDLType> {
        self.enter()?;
        let r = self.typ_inner();
        self.depth -= 1;
        r
    }

    fn typ_inner(&mut self) -> Result<IDLType> {
        match self.tok.tok {
            Tok::Opt => {
                self.advance()?;
                Ok(IDLType::OptT(Box::new(self.typ()?)))
            }
            Tok::Vec => {
                self.advance()?;
                Ok(IDLType::VecT(Box::new(self.typ()?)))
            }
            Tok::Record => self.record_type(),
            Tok::Variant => self.variant_type(),
            Tok::Func => {
                self.advance()?;
                Ok(IDLType::FuncT(self.func_type()?))
            }
            Tok::Service => {
                self.advance()?;
                Ok(IDLType::ServT(self.actor_type()?))
            }
            // A type name, the most common type, without the call to `atom_type`
            // and its result's trip through memory.
            Tok::Id(s) => {
                self.advance()?;
                Ok(name_type(s))
            }
            _ => self.atom_type(),
        }
    }

    #[inline(never)]
    fn atom_type(&mut self) -> Result<IDLType> {
        Ok(match self.tok.tok {
            Tok::Null => {
                self.advance()?;
                IDLType::PrimT(PrimType::Null)
            }
            Tok::Blob => {
                self.advance()?;
                IDLType::VecT(Box::new(IDLType::PrimT(PrimType::Nat8)))
            }
            Tok::Principal => {
                self.advance()?;
                IDLType::PrincipalT
            }
            _ => return Err(self.unexpected("a type")),
        })
    }

    /// After an identifier `s` that turned out not to be a field or argument name:
    /// the type it names, one level deeper (as `typ` would have parsed it). This is
    /// how `name : t` and a bare type name are told apart without lexing the token
    /// after the name twice.
    fn named_type_after(&mut self, s: &str) -> Result<IDLType> {
        self.enter()?;
        self.depth -= 1;
        Ok(name_type(s))
    }

    #[inline(never)]
    fn record_type(&mut self) -> Result<IDLType> {
        self.advance()?;
        self.expect(Tok::LBrace, "`{`")?;
        let mut fields: Vec<TypeField> = self.first_capacity(Tok::RBrace);
        let base = self.keys.len();
        let mut next_id: u32 = 0;
        while !matches!(self.tok.tok, Tok::RBrace) {
            let start = self.tok.span.start;
            let docs = self.lex.take_docs();
            // `name : t`, `id : t`, `"text" : t`, or an unnamed `t`.
            let (label, typ) = match self.tok.tok {
                Tok::Id(s) => {
                    self.advance()?;
                    if self.eat(Tok::Colon)? {
                        (Some(Label::Named(s.to_string())), self.typ()?)
                    } else {
                        (None, self.named_type_after(s)?)
                    }
                }
                Tok::Decimal(_) | Tok::Hex(_) | Tok::Text(..) => {
                    let label = self.label()?;
                    self.expect(Tok::Colon, "`:`")?;
                    (Some(label), self.typ()?)
                }
                _ => (None, self.typ()?),
            };
            let label = label.unwrap_or(Label::Unnamed(next_id));
            // Computed once: a name's id is a hash of it.
            let hash = label.get_id();
            next_id = hash.wrapping_add(1);
            self.push_key(hash, fields.len(), start);
            fields.push(TypeField { label, typ, docs });
            if !self.eat(Tok::Semi)? {
                break;
            }
        }
        self.expect(Tok::RBrace, "`;` or `}`")?;
        self.sort_unique(&mut fields, base, |f| &f.label)?;
        Ok(IDLType::RecordT(fields))
    }

    #[inline(never)]
    fn variant_type(&mut self) -> Result<IDLType> {
        self.advance()?;
        self.expect(Tok::LBrace, "`{`")?;
        let mut fields: Vec<TypeField> = self.first_capacity(Tok::RBrace);
        let base = self.keys.len();
        while !matches!(self.tok.tok, Tok::RBrace) {
            let start = self.tok.span.start;
            let docs = self.lex.take_docs();
            let label = match self.tok.tok {
                // As in record values: a name without the call to `label`.
                Tok::Id(s) => {
                    self.advance()?;
                    Label::Named(s.to_string())
                }
                Tok::Decimal(_) | Tok::Hex(_) | Tok::Text(..) => self.label()?,
                _ => return Err(self.unexpected("a variant case")),
            };
            let typ = if self.eat(Tok::Colon)? {
                self.typ()?
            } else {
                IDLType::PrimT(PrimType::Null)
            };
            let id = label.get_id();
            self.push_key(id, fields.len(), start);
            fields.push(TypeField { label, typ, docs });
            if !self.eat(Tok::Semi)? {
                break;
            }
        }
        self.expect(Tok::RBrace, "`;` or `}`")?;
        self.sort_unique(&mut fields, base, |f| &f.label)?;
        Ok(IDLType::VariantT(fields))
    }

    /// `( t1, name : t2, … )`; argument names are documentation only.
    fn tup_type(&mut self) -> Result<Vec<IDLType>> {
        self.expect(Tok::LParen, "`(`")?;
        let mut ts = self.first_capacity(Tok::RParen);
        while !matches!(self.tok.tok, Tok::RParen) {
            let t = match self.tok.tok {
                Tok::Id(s) => {
                    self.advance()?;
                    if self.eat(Tok::Colon)? {
                        self.typ()?
                    } else {
                        self.named_type_after(s)?
                    }
                }
                Tok::Text(..) => {
                    self.name()?;
                    self.expect(Tok::Colon, "`:`")?;
                    self.typ()?
                }
                _ => self.typ()?,
            };
            ts.push(t);
            if !self.eat(Tok::Comma)? {
                break;
            }
        }
        self.expect(Tok::RParen, "`,` or `)`")?;
        Ok(ts)
    }

    #[inline(never)]
    fn func_type(&mut self) -> Result<FuncType> {
        let args = self.tup_type()?;
        self.expect(Tok::Arrow, "`->`")?;
        let rets = self.tup_type()?;
        let mut modes = Vec::new();
        loop {
            let m = match self.tok.tok {
                Tok::Oneway => FuncMode::Oneway,
                Tok::Query => FuncMode::Query,
                Tok::CompositeQuery => FuncMode::CompositeQuery,
                _ => break,
            };
            self.advance()?;
            modes.push(m);
        }
        Ok(FuncType { modes, args, rets })
    }

    /// `{ m1 : (…) -> (…); m2 : t; … }`, sorted by name, names distinct.
    #[inline(never)]
    fn actor_type(&mut self) -> Result<Vec<Binding>> {
        self.expect(Tok::LBrace, "`{`")?;
        let mut ms: Vec<Binding> = self.first_capacity(Tok::RBrace);
        while !matches!(self.tok.tok, Tok::RBrace) {
            let docs = self.lex.take_docs();
            let (id, name_span) = self.name()?;
            self.expect(Tok::Colon, "`:`")?;
            let typ = match self.tok.tok {
                Tok::Id(s) => {
                    self.advance()?;
                    IDLType::VarT(s.to_string())
                }
                Tok::LParen => IDLType::FuncT(self.func_type()?),
                _ => return Err(self.unexpected("a function type or a type name")),
            };
            ms.push(Binding {
                id,
                typ,
                docs,
                span: name_span.start..self.last_end,
                name_span,
                source: self.source.clone(),
            });
            if !self.eat(Tok::Semi)? {
                break;
            }
        }
        self.expect(Tok::RBrace, "`;` or `}`")?;
        ms.sort_by(|a, b| a.id.cmp(&b.id));
        for w in ms.windows(2) {
            if w[0].id == w[1].id {
                let later = if w[0].name_span.start < w[1].name_span.start {
                    &w[1]
                } else {
                    &w[0]
                };
                return Err(self.err(
                    later.name_span.clone(),
                    format!("duplicate method name `{}`", later.id),
                ));
            }
        }
        Ok(ms)
    }

    // ---- programs --------------------------------------------------------------

    /// `type`/`import` declarations separated by `;`.
    fn decs(&mut self) -> Result<(Vec<Dec>, Vec<Span>)> {
        let mut decs = Vec::new();
        let mut spans = Vec::new();
        loop {
            let start = self.tok.span.start;
            match self.tok.tok {
                Tok::Type => {
                    let docs = self.lex.take_docs();
                    self.advance()?;
                    let name_span = self.tok.span.clone();
                    let id = match self.tok.tok {
                        Tok::Id(s) => s.to_string(),
                        _ => return Err(self.unexpected("a type name")),
                    };
                    self.advance()?;
                    self.expect(Tok::Equals, "`=`")?;
                    let typ = self.typ()?;
                    decs.push(Dec::TypD(Binding {
                        id,
                        typ,
                        docs,
                        span: name_span.start..self.last_end,
                        name_span,
                        source: self.source.clone(),
                    }));
                }
                Tok::Import => {
                    self.advance()?;
                    let serv = self.eat(Tok::Service)?;
                    let (file, _) = self.text()?;
                    decs.push(if serv {
                        Dec::ImportServ(file)
                    } else {
                        Dec::ImportType(file)
                    });
                }
                _ => break,
            }
            spans.push(start..self.last_end);
            if !self.eat(Tok::Semi)? {
                break;
            }
        }
        Ok((decs, spans))
    }

    /// A whole `.did` file.
    pub(crate) fn prog(&mut self) -> Result<IDLProg> {
        let (decs, dec_spans) = self.decs()?;
        let actor = if matches!(self.tok.tok, Tok::Service) {
            let docs = self.lex.take_docs();
            self.advance()?;
            if let Tok::Id(_) = self.tok.tok {
                self.advance()?;
            }
            self.expect(Tok::Colon, "`:`")?;
            let start = self.tok.span.start;
            let typ = if matches!(self.tok.tok, Tok::LParen) {
                let args = self.tup_type()?;
                self.expect(Tok::Arrow, "`->`")?;
                IDLType::ClassT(args, Box::new(self.actor()?))
            } else {
                self.actor()?
            };
            let span = start..self.last_end;
            self.eat(Tok::Semi)?;
            Some(IDLActorType { typ, docs, span })
        } else {
            None
        };
        if !matches!(self.tok.tok, Tok::Eof) {
            return Err(self.unexpected(if actor.is_some() {
                "end of input"
            } else {
                "`type`, `import`, `service` or end of input"
            }));
        }
        Ok(IDLProg {
            decs,
            actor,
            dec_spans,
            source: self.source.clone(),
        })
    }

    fn actor(&mut self) -> Result<IDLType> {
        match self.tok.tok {
            Tok::Id(s) => {
                self.advance()?;
                Ok(IDLType::VarT(s.to_string()))
            }
            Tok::LBrace => Ok(IDLType::ServT(self.actor_type()?)),
            _ => Err(self.unexpected("a service type or a type name")),
        }
    }

    /// Declarations followed by an argument list (`candid:args`).
    fn init_args(&mut self) -> Result<IDLInitArgs> {
        let (decs, _) = self.decs()?;
        let args = self.tup_type()?;
        self.expect_eof()?;
        Ok(IDLInitArgs { decs, args })
    }

    fn types(&mut self) -> Result<IDLTypes> {
        let args = self.tup_type()?;
        self.expect_eof()?;
        Ok(IDLTypes { args })
    }

    // ---- test files --------------------------------------------------------------

    /// A `.test.did` file: declarations, then `assert …;` lines.
    fn test(&mut self) -> Result<Test> {
        let (defs, _) = self.decs()?;
        let mut asserts = Vec::new();
        let src = self.src();
        while let Tok::Id(id) = self.tok.tok {
            let span = self.tok.span.clone();
            if id != "assert" {
                return Err(self.err(span, "expected `assert`"));
            }
            self.advance()?;
            let left = self.input()?;
            let (right, pass) = match self.tok.tok {
                Tok::Colon => (None, true),
                Tok::NotDecode => (None, false),
                Tok::TestEqual | Tok::NotEqual => {
                    let pass = matches!(self.tok.tok, Tok::TestEqual);
                    self.advance()?;
                    (Some(self.input()?), pass)
                }
                _ => return Err(self.unexpected("`:`, `!:`, `==` or `!=`")),
            };
            if right.is_some() {
                self.expect(Tok::Colon, "`:`")?;
            } else {
                self.advance()?;
            }
            let typ = self.tup_type()?;
            let desc = if let Tok::Text(..) = self.tok.tok {
                Some(self.text()?.0)
            } else {
                None
            };
            let line = src[..span.start].matches('\n').count() + 1;
            asserts.push(Assert {
                left,
                right,
                typ,
                pass,
                desc,
                line,
            });
            if !self.eat(Tok::Semi)? {
                break;
            }
        }
        if !matches!(self.tok.tok, Tok::Eof) {
            return Err(self.unexpected("`assert` or end of input"));
        }
        Ok(Test { defs, asserts })
    }

    fn input(&mut self) -> Result<Input> {
        match self.tok.tok {
            Tok::Text(..) => Ok(Input::Text(self.text()?.0)),
            Tok::Blob => {
                self.advance()?;
                match self.tok.tok {
                    Tok::Text(..) => Ok(Input::Blob(self.text_bytes()?.0.into_owned())),
                    _ => Err(self.unexpected("a text literal")),
                }
            }
            _ => Err(self.unexpected("a text or `blob` input")),
        }
    }
}

// The syntax trees are read with `str::parse`, as in candid_parser. Programs and
// init args keep a copy of their text: the checker, which runs later, points into it.
impl std::str::FromStr for IDLProg {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Parser::new(s, true)?.with_source(None).prog()
    }
}

impl std::str::FromStr for IDLType {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let mut p = Parser::new(s, true)?;
        let t = p.typ()?;
        p.expect_eof()?;
        Ok(t)
    }
}

impl std::str::FromStr for IDLTypes {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Parser::new(s, true)?.types()
    }
}

impl std::str::FromStr for IDLInitArgs {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Parser::new(s, true)?.with_source(None).init_args()
    }
}

impl std::str::FromStr for Test {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Parser::new(s, false)?.test()
    }
}

fn strip_underscores(s: &str) -> Cow<'_, str> {
    if s.contains('_') {
        Cow::Owned(s.chars().filter(|&c| c != '_').collect())
    } else {
        Cow::Borrowed(s)
    }
}

fn parse_u32(s: &str, radix: u32) -> Option<u32> {
    let s = strip_underscores(s);
    u32::from_str_radix(&s, radix).ok()
}

/// Hex digits (with `_`) to a decimal string, in arbitrary precision.
fn hex_to_decimal(s: &str) -> String {
    let s = strip_underscores(s);
    if s.len() <= 32 {
        if let Ok(v) = u128::from_str_radix(&s, 16) {
            return v.to_string();
        }
    }
    num_bigint::BigUint::parse_bytes(s.as_bytes(), 16)
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// Writes `v` into `slot`, a value parser's slot, which holds `IDLValue::Null`
/// until its value is parsed: there is nothing to drop, so the old value is
/// forgotten rather than passed to the drop glue (a call per value).
fn put(slot: &mut IDLValue, v: IDLValue) {
    std::mem::forget(std::mem::replace(slot, v));
}

/// The type an identifier names: a primitive type's name, or a type variable.
fn name_type(s: &str) -> IDLType {
    match PrimType::str_to_enum(s) {
        Some(p) => IDLType::PrimT(p),
        None => IDLType::VarT(s.to_string()),
    }
}
