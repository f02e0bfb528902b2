//! The values: each one's lines, its quota units, and (with an interface) how it
//! meets the type the method expects.

use super::{Entry, Note, Ref, Rule, Step, Walk, MAX_DEPTH};
use crate::scalar::{self, Put, Scalar};
use candor::types::{Field, Type, TypeInner};
use candor::Principal;
use std::io::Write as _;

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

/// How a value is reached, for its units: a value reached through a table
/// reference costs 2 more (candid resolves both sides), except a vector's element
/// (resolved once for the vector); a fixed-width element was paid for with its
/// vector.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum How {
    Value,
    Element,
    Prepaid,
}

/// The units candid charges per call (`spec/limits.md` §3.5, `de/quota.rs`).
pub(super) const CALL: u64 = 1;
const ELEMENT: u64 = 3;
pub(super) const KEY: u64 = 4;
pub(super) const ID_LABEL: u64 = 4;
const CASE: u64 = 4;
const VAR: u64 = 2;
const PRINCIPAL_MIN: u64 = 30;
const FUNC_REFERENCE: u64 = 2;
/// A skipped variant's label is `"<id>,id,unit"` or `"<id>,id,newtype"`.
const LABEL_FIXED: u64 = 4;
const LABEL_UNIT: u64 = 4;
const LABEL_NEWTYPE: u64 = 7;

/// `opt`, `null` and `reserved`: what a missing field or argument may have.
pub(super) fn optional(t: &Type) -> bool {
    matches!(
        t.as_ref(),
        TypeInner::Opt(_) | TypeInner::Null | TypeInner::Reserved
    )
}

/// The width of a fixed-width primitive's values (`bool` and `natN`/`intN`/
/// `floatN`), which candid charges per element up front in a vector.
fn fixed_width(op: i64) -> Option<u64> {
    match op {
        -2 | -5 | -9 => Some(1),
        -6 | -10 => Some(2),
        -7 | -11 | -13 => Some(4),
        -8 | -12 | -14 => Some(8),
        _ => None,
    }
}

/// The scalar of a fixed-width primitive opcode.
pub(super) fn fixed_scalar(op: i64) -> Option<Scalar> {
    Some(match op {
        -2 => Scalar::Bool,
        -5 => Scalar::Nat8,
        -6 => Scalar::Nat16,
        -7 => Scalar::Nat32,
        -8 => Scalar::Nat64,
        -9 => Scalar::Int8,
        -10 => Scalar::Int16,
        -11 => Scalar::Int32,
        -12 => Scalar::Int64,
        -13 => Scalar::Float32,
        -14 => Scalar::Float64,
        _ => return None,
    })
}

/// The scalar a primitive opcode's values are shown as.
fn wire_scalar(op: i64) -> Option<Scalar> {
    match op {
        -3 => Some(Scalar::Nat),
        -4 => Some(Scalar::Int),
        -15 => Some(Scalar::Text),
        -24 => Some(Scalar::Principal),
        _ => fixed_scalar(op),
    }
}

/// Dropped values longer than this are named by their offset and size only.
const DROPPED_SHOWN: usize = 64;

fn digits(mut n: u32) -> u64 {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// How a wire primitive meets an expected type.
pub(super) enum Fit {
    Yes,
    ReadAs,
    No,
}

#[inline]
pub(super) fn prim_fit(op: i64, e: &TypeInner) -> Fit {
    use TypeInner as T;
    let same = matches!(
        (op, e),
        (-1, T::Null)
            | (-2, T::Bool)
            | (-3, T::Nat)
            | (-4, T::Int)
            | (-5, T::Nat8)
            | (-6, T::Nat16)
            | (-7, T::Nat32)
            | (-8, T::Nat64)
            | (-9, T::Int8)
            | (-10, T::Int16)
            | (-11, T::Int32)
            | (-12, T::Int64)
            | (-13, T::Float32)
            | (-14, T::Float64)
            | (-15, T::Text)
            | (-16, T::Reserved)
            | (-24, T::Principal)
    );
    match (same, op, e) {
        (true, _, _) => Fit::Yes,
        (false, -3, T::Int) => Fit::ReadAs,
        _ => Fit::No,
    }
}

impl<'a> Walk<'a> {
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
    pub(super) fn fields(&self, i: usize) -> &[super::FieldEntry] {
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
    pub(super) fn takes_no_bytes_walk(&mut self, r: Ref, depth: usize) -> bool {
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
            Some(Entry::Record(fs)) => fs.iter().map(|(_, t, _)| *t).collect(),
            _ => return false,
        };
        let none = fields
            .into_iter()
            .all(|t| self.takes_no_bytes(t, depth + 1));
        self.no_bytes[i] = Some(none);
        none
    }

    /// The units of a value that takes no bytes (see `takes_no_bytes`), reached
    /// as `how` says. Memoised per table entry like `takes_no_bytes`.
    fn no_bytes_units(&mut self, r: Ref, how: How, depth: usize) -> u64 {
        let var = if matches!(r, Ref::Table(_)) && how == How::Value {
            VAR
        } else {
            0
        };
        let i = match r {
            Ref::Prim(_) => return var + CALL,
            Ref::Table(i) => i,
        };
        if depth > MAX_DEPTH {
            return var;
        }
        if let Some(known) = self.no_bytes_units.get(i).copied().flatten() {
            return var.saturating_add(known);
        }
        if self.no_bytes_units.len() < self.table.len() {
            self.no_bytes_units.resize(self.table.len(), None);
        }
        let mut units = CALL + KEY;
        for k in 0..self.fields(i).len() {
            let Some((_, t, _)) = self.fields(i).get(k).copied() else {
                break;
            };
            let field = self.no_bytes_units(t, How::Value, depth + 1);
            units = units
                .saturating_add(KEY + ID_LABEL + CALL)
                .saturating_add(field);
        }
        if let Some(slot) = self.no_bytes_units.get_mut(i) {
            *slot = Some(units);
        }
        var.saturating_add(units)
    }

    /// Explains one value of wire type `r`, read against `exp` when the method
    /// expects a type there; answers whether the value fits it (always, without
    /// one). Every byte of the value is shown whether it fits or not.
    pub(super) fn value(
        &mut self,
        r: Ref,
        exp: Option<&'a Type>,
        how: How,
        depth: usize,
    ) -> Step<bool> {
        if depth > MAX_DEPTH {
            return self.fault(self.pos, format!("values nested deeper than {MAX_DEPTH}"));
        }
        if matches!(r, Ref::Table(_)) && how == How::Value {
            self.charge(VAR);
        }
        let Some(e) = exp.map(|t| self.cx.resolve(t)) else {
            return self.shaped(r, None, how, depth);
        };
        let shape = self.shape(r);
        match e.as_ref() {
            TypeInner::Reserved => {
                self.note.get_or_insert(Note::Ignored);
                self.shaped(r, None, how, depth)?;
                Ok(true)
            }
            // The spec's `opt` rules for a value that is not an `opt`: `null` and
            // `reserved` become `null`; another value becomes `opt` of itself if it
            // fits the inner type (unless that is `null`, `opt` or `reserved`),
            // and `null` otherwise.
            TypeInner::Opt(inner) if !matches!(shape, Shape::Opt(_)) => {
                match shape {
                    Shape::Prim(-1) => {
                        self.shaped(r, None, how, depth)?;
                    }
                    Shape::Prim(-16) => {
                        self.shaped(r, None, how, depth)?;
                        self.decision(
                            "becomes null, as the method expects ",
                            Some(e),
                            Some(Rule::OptNull),
                        );
                    }
                    _ if optional(self.cx.resolve(inner)) => {
                        let start = self.pos;
                        self.shaped(r, None, how, depth)?;
                        self.decision_start(
                            "becomes null, as the method expects ",
                            Some(e),
                            Some(Rule::OptSpecialNotNested),
                        );
                        self.dropped(r, start);
                    }
                    _ => {
                        self.note.get_or_insert(Note::Wrapped(e));
                        let earlier = self.unfit.is_some();
                        let start = self.pos;
                        if !self.shaped(r, Some(inner), how, depth)? {
                            if !earlier {
                                self.unfit = None;
                            }
                            self.decision_start(
                                "becomes null: the value does not fit ",
                                Some(inner),
                                Some(Rule::OptSpecial),
                            );
                            self.dropped(r, start);
                        }
                    }
                }
                Ok(true)
            }
            _ => self.shaped(r, Some(e), how, depth),
        }
    }

    /// `value` past the expected type's names and `opt`/`reserved` rules: `exp`
    /// is resolved. Inlined into `value`, so a value costs one call frame.
    #[inline(always)]
    fn shaped(&mut self, r: Ref, exp: Option<&'a Type>, how: How, depth: usize) -> Step<bool> {
        let start = self.pos;
        match self.shape(r) {
            Shape::Prim(op) => self.prim(op, start, exp, how),
            Shape::Opt(t) => self.opt(t, start, exp, depth),
            Shape::Vec(Ref::Prim(-5)) => self.blob(start, exp),
            Shape::Vec(t) => self.vec(t, start, exp, depth),
            Shape::Record(_) if self.takes_no_bytes(r, depth) => {
                self.empty_record(r, start, exp, depth)
            }
            Shape::Record(i) => self.record(i, exp, depth),
            Shape::Variant(i) => self.variant(i, start, exp, depth),
            Shape::Func => self.func(start, exp),
            Shape::Service => self.service(start, exp),
        }
    }

    fn opt(&mut self, t: Ref, start: usize, exp: Option<&'a Type>, depth: usize) -> Step<bool> {
        let flag = self.byte()?;
        if flag > 1 {
            return self.fault(start, format!("opt flag {flag:#04x}, expected 00 or 01"));
        }
        self.charge(CALL);
        let (inner, fits) = match exp.map(Type::as_ref) {
            None => (None, true),
            Some(TypeInner::Opt(inner)) => (Some(inner), true),
            Some(_) => {
                self.not_fit(exp);
                (None, false)
            }
        };
        let heads = [" : opt = null", " : opt = some"];
        let head = heads.get(usize::from(flag)).copied().unwrap_or(" : opt");
        self.value_head(start, head);
        self.end_value();
        let earlier = self.unfit.is_some();
        let value_at = self.pos;
        if flag == 1 && !self.value(t, inner, How::Value, depth + 1)? {
            if !earlier {
                self.unfit = None;
            }
            self.decision_start(
                "becomes null: the value does not fit ",
                inner,
                Some(Rule::OptOpt),
            );
            self.dropped(t, value_at);
        }
        Ok(fits)
    }

    fn blob(&mut self, start: usize, exp: Option<&'a Type>) -> Step<bool> {
        let n = self.len(1)?;
        self.take(n)?;
        self.charge((n as u64).saturating_add(CALL));
        let fits = match exp.map(Type::as_ref) {
            None => true,
            Some(TypeInner::Vec(e)) => {
                matches!(
                    self.cx.resolve(e).as_ref(),
                    TypeInner::Nat8 | TypeInner::Reserved
                )
            }
            Some(_) => false,
        };
        if !fits {
            self.not_fit(exp);
        }
        self.scalar_line(start, Scalar::Blob);
        Ok(fits)
    }

    fn vec(&mut self, t: Ref, start: usize, exp: Option<&'a Type>, depth: usize) -> Step<bool> {
        let (elem, mut fits) = match exp.map(Type::as_ref) {
            None => (None, true),
            // Resolved once here rather than once per element: a named element type
            // is a lookup by name in the interface.
            Some(TypeInner::Vec(e)) => (Some(self.cx.resolve(e)), true),
            Some(_) => {
                self.not_fit(exp);
                (None, false)
            }
        };
        if self.takes_no_bytes(t, depth) {
            let n = self.leb()?;
            let each = ELEMENT.saturating_add(self.no_bytes_units(t, How::Element, depth));
            self.charge(CALL.saturating_add(n.saturating_mul(each)));
            self.value_head(start, " : vec (");
            scalar::push_decimal(&mut self.out, n, false);
            self.out.put(" elements taking no bytes)");
            self.end_value();
            return Ok(fits);
        }
        let n = self.len(1)?;
        // Fixed-width elements are charged up front, numbers' fetches too.
        let (how, up_front) = match t {
            Ref::Prim(op) => match fixed_width(op) {
                Some(w) => (How::Prepaid, ELEMENT + w),
                None if op == -3 || op == -4 => (How::Element, ELEMENT),
                None => (How::Element, 0),
            },
            Ref::Table(_) => (How::Element, 0),
        };
        self.charge(CALL.saturating_add((n as u64).saturating_mul(up_front)));
        self.value_head(start, " : vec (");
        scalar::push_decimal(&mut self.out, n as u64, false);
        self.out.put(" elements)");
        self.end_value();
        if how == How::Prepaid && self.fixed_elements(t, elem, n, depth + 1)? {
            return Ok(fits);
        }
        let each = if up_front == 0 { ELEMENT } else { 0 };
        let cut = self.path.len();
        for i in 0..n {
            self.path.push(b'[');
            scalar::push_decimal(&mut self.path, i as u64, false);
            self.path.push(b']');
            self.charge(each);
            fits &= self.value(t, elem, how, depth + 1)?;
            self.path.truncate(cut);
        }
        Ok(fits)
    }

    /// A record whose values take no bytes: one line, however deep its type.
    fn empty_record(
        &mut self,
        r: Ref,
        start: usize,
        exp: Option<&'a Type>,
        depth: usize,
    ) -> Step<bool> {
        let units = self.no_bytes_units(r, How::Element, depth);
        self.charge(units);
        let fits = match exp.map(Type::as_ref) {
            None | Some(TypeInner::Record(_)) => true,
            Some(_) => {
                self.not_fit(exp);
                false
            }
        };
        self.value_head(start, " : record");
        self.out.put(" (no bytes)");
        self.end_value();
        Ok(fits)
    }

    fn variant(
        &mut self,
        i: usize,
        start: usize,
        exp: Option<&'a Type>,
        depth: usize,
    ) -> Step<bool> {
        let index = self.leb()?;
        let case = usize::try_from(index)
            .ok()
            .and_then(|k| self.fields(i).get(k).copied());
        let Some((id, t, span)) = case else {
            let cases = self.fields(i).len();
            return self.fault(
                start,
                format!("variant index {index} out of range (the type has {cases} cases)"),
            );
        };
        let label = if matches!(t, Ref::Prim(-1)) {
            LABEL_UNIT
        } else {
            LABEL_NEWTYPE
        };
        self.charge(CALL + CASE + digits(id) + LABEL_FIXED + label + CALL);
        let (payload, fits) = match exp.map(Type::as_ref) {
            None => (None, true),
            Some(TypeInner::Variant(cases)) => match cases.iter().find(|c| c.id.get_id() == id) {
                Some(c) => (Some(&c.ty), true),
                None => {
                    self.note.get_or_insert(Note::NoCase);
                    (None, false)
                }
            },
            Some(_) => {
                self.not_fit(exp);
                (None, false)
            }
        };
        self.value_head(start, " : variant");
        self.out.put(" = case ");
        self.write_label(id);
        self.out.put(" (index ");
        scalar::push_decimal(&mut self.out, index, false);
        self.out.push(b')');
        self.end_value();
        let cut = self.path.len();
        self.push_span(span);
        let inner = self.value(t, payload, How::Value, depth + 1)?;
        self.path.truncate(cut);
        Ok(fits && inner)
    }

    fn func(&mut self, start: usize, exp: Option<&'a Type>) -> Step<bool> {
        let flag = self.byte()?;
        if flag != 1 {
            return self.fault(
                start,
                format!("func reference flag {flag:#04x}: only 01 (public) is allowed"),
            );
        }
        let p = self.principal_bytes()?.as_slice().len() as u64;
        let at = self.pos;
        let n = self.len(1)?;
        if !is_utf8(self.take(n)?) {
            return self.fault(at, "method name is not UTF-8");
        }
        self.charge(
            (self.declared_table_len as u64)
                .saturating_add(p.max(PRINCIPAL_MIN))
                .saturating_add(n as u64)
                .saturating_add(FUNC_REFERENCE),
        );
        let fits = self.reference_fits(exp, true);
        self.scalar_line(start, Scalar::Func);
        Ok(fits)
    }

    fn service(&mut self, start: usize, exp: Option<&'a Type>) -> Step<bool> {
        let p = self.principal_bytes()?.as_slice().len() as u64;
        self.charge((self.declared_table_len as u64).saturating_add(p.max(PRINCIPAL_MIN)));
        let fits = self.reference_fits(exp, false);
        self.scalar_line(start, Scalar::Service);
        Ok(fits)
    }

    /// A func (or service) reference fits an expected func (or service) type;
    /// the signatures are not compared.
    fn reference_fits(&mut self, exp: Option<&'a Type>, func: bool) -> bool {
        let fits = match exp.map(Type::as_ref) {
            None => true,
            Some(TypeInner::Func(_)) => func,
            Some(TypeInner::Service(_)) => !func,
            Some(_) => false,
        };
        if !fits {
            self.not_fit(exp);
        }
        fits
    }

    fn not_fit(&mut self, exp: Option<&'a Type>) {
        if let Some(e) = exp {
            self.note.get_or_insert(Note::NotFit(e));
            self.unfit("the value does not fit ", Some(e));
        }
    }

    /// A record's fields, in wire order, merged with the expected record's (both
    /// are sorted by id): a field only on the wire is skipped, a field only in
    /// the expected type is absent (`null` if it is optional, a rejection if not).
    fn record(&mut self, i: usize, exp: Option<&'a Type>, depth: usize) -> Step<bool> {
        let (expected, mut fits): (&'a [Field], bool) = match exp.map(Type::as_ref) {
            None => (&[], true),
            Some(TypeInner::Record(fs)) => (fs, true),
            Some(_) => {
                self.not_fit(exp);
                (&[], false)
            }
        };
        let typed = matches!(exp.map(Type::as_ref), Some(TypeInner::Record(_)));
        self.charge(CALL + KEY);
        if !self.cx.general_only {
            if exp.is_none() {
                return self.fields_untyped(i, depth).map(|()| true);
            } else if typed {
                return self.fields_typed(i, expected, depth);
            }
        }
        let mut k = 0;
        // The expected fields' ids, kept per table entry; taken out for the walk
        // (a recursive record inside computes its own) and put back after.
        let key = expected.as_ptr() as usize;
        let ids = match self.expected_ids.get_mut(i).and_then(Option::take) {
            Some((k, ids)) if k == key => ids,
            _ => expected.iter().map(|e| e.id.get_id()).collect(),
        };
        let id_at = |k: usize| ids.get(k).copied();
        let mut next = id_at(0);
        let cut = self.path.len();
        for f in 0..self.fields(i).len() {
            let Some((id, t, span)) = self.fields(i).get(f).copied() else {
                break;
            };
            while let Some(e) = expected.get(k).filter(|_| next.is_some_and(|n| n < id)) {
                fits &= self.absent(e);
                k += 1;
                next = id_at(k);
            }
            let field_exp = match expected.get(k).filter(|_| next == Some(id)) {
                Some(e) => {
                    k += 1;
                    next = id_at(k);
                    Some(&e.ty)
                }
                None => {
                    if typed {
                        self.note.get_or_insert(Note::Skipped);
                    }
                    None
                }
            };
            self.push_span(span);
            self.charge(KEY + ID_LABEL + CALL);
            fits &= self.field(t, field_exp, depth)?;
            self.path.truncate(cut);
        }
        for e in expected.get(k..).unwrap_or(&[]) {
            fits &= self.absent(e);
        }
        if !expected.is_empty() {
            if self.expected_ids.len() <= i {
                self.expected_ids.resize(i + 1, None);
            }
            if let Some(slot) = self.expected_ids.get_mut(i) {
                *slot = Some((key, ids));
            }
        }
        Ok(fits)
    }

    /// Ends a decision line with the value the decision drops (its bytes run from
    /// `start` to here): `; dropped: VALUE` for a short scalar or blob, else its
    /// size and offset, whose lines are just above.
    fn dropped(&mut self, r: Ref, start: usize) {
        let bytes = self.input.get(start..self.pos).unwrap_or(&[]);
        let scalar = match self.shape(r) {
            Shape::Prim(op) => wire_scalar(op),
            Shape::Vec(Ref::Prim(-5)) => Some(Scalar::Blob),
            _ => None,
        };
        self.out.put("; dropped: ");
        let at = self.out.len();
        let shown = bytes.len() <= DROPPED_SHOWN
            && scalar.is_some_and(|s| scalar::render(&mut self.out, s, bytes).is_some());
        if !shown {
            self.out.truncate(at);
            let n = bytes.len();
            let unit = if n == 1 { "byte" } else { "bytes" };
            let _ = write!(self.out, "the value at {start:08x} ({n} {unit})");
        }
        self.out.push(b'\n');
    }

    /// The line for a field the method expects and the message lacks.
    pub(super) fn absent(&mut self, field: &'a Field) -> bool {
        let cut = self.path.len();
        self.push_segment(field.id.get_id());
        let optional = optional(self.cx.resolve(&field.ty));
        if optional {
            self.decision(
                "absent: becomes null, as the method expects ",
                Some(&field.ty),
                Some(Rule::RecordMissing),
            );
        } else {
            self.decision(
                "absent: the method needs a value of type ",
                Some(&field.ty),
                None,
            );
            self.unfit("missing, the method needs ", Some(&field.ty));
        }
        self.path.truncate(cut);
        optional
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

    pub(super) fn prim(
        &mut self,
        op: i64,
        start: usize,
        exp: Option<&'a Type>,
        how: How,
    ) -> Step<bool> {
        let fits = match exp {
            None => true,
            Some(e) => match prim_fit(op, e.as_ref()) {
                Fit::Yes => true,
                Fit::ReadAs => {
                    self.note.get_or_insert(Note::Widened(e));
                    true
                }
                Fit::No => {
                    self.not_fit(exp);
                    false
                }
            },
        };
        let paid = how == How::Prepaid;
        match op {
            -1 | -16 => {
                // A value that takes no bytes still gets its line: the path says
                // where it is, and assemble skips lines without bytes.
                self.charge(CALL);
                self.value_head(
                    start,
                    if op == -1 {
                        " : null = null"
                    } else {
                        " : reserved (no bytes)"
                    },
                );
                self.end_value();
            }
            -17 => return self.fault(start, "a value of type empty cannot exist"),
            -3 | -4 => {
                let n = self.big_leb()?;
                self.charge(n as u64);
                self.scalar_line(start, if op == -3 { Scalar::Nat } else { Scalar::Int });
            }
            -15 => {
                let n = self.len(1)?;
                let at = self.pos;
                let input = self.input;
                let body = input.get(at..at + n).unwrap_or(&[]);
                self.take(n)?;
                if !is_utf8(body) {
                    return self.fault(at, "text is not valid UTF-8");
                }
                self.charge((n as u64).saturating_add(CALL));
                self.text_line(start, body);
            }
            -24 => {
                let p = self.principal_bytes()?;
                self.charge((p.as_slice().len() as u64).max(PRINCIPAL_MIN));
                self.principal_line(start, &p);
            }
            _ => {
                let Some(s) = fixed_scalar(op) else {
                    return self.fault(start, format!("unknown primitive {op}"));
                };
                let width = self.fixed_bytes(s, start)?;
                if !paid {
                    self.charge(width as u64);
                }
                self.fixed_line(start, s);
            }
        }
        Ok(fits)
    }
}

/// Whether `bytes` are UTF-8: ASCII, most text in messages, is checked a word at
/// a time before the full validation (whose set-up costs more than a short name).
#[inline]
pub(crate) fn is_utf8(bytes: &[u8]) -> bool {
    bytes.is_ascii() || std::str::from_utf8(bytes).is_ok()
}
