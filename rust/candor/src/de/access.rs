//! serde's access traits for records (as structs and as tuples), vectors, maps and
//! variants. Each holds its own iteration state; fast-path decisions (text keys,
//! bignum values) are fields of the access that made them, so they end with it.

use super::key::{FieldAt, KeyDe, TextKeyDe};
use super::merge::{RecordWalk, Step};
use super::quota;
use super::state::DecodeState;
use super::value::De;
use crate::error::Result;
use crate::error::{Error, PathSegment};
use crate::wire::header::{FieldLabel, Node, Ref, Span};
use serde::de::{self, DeserializeSeed, Visitor};

/// Units charged with a record key: the key and the `next_value` call that must
/// follow.
const KEY_AND_VALUE: usize = quota::KEY + quota::CALL;

/// Units charged with a variant's case: the case and whichever payload access
/// (unit, newtype, tuple or struct) must follow.
const CASE_AND_PAYLOAD: usize = quota::CASE + quota::CALL;

/// Attaches the path segment of expected record field `k` to an error leaving it.
#[cold]
fn field_path(state: &DecodeState<'_>, k: usize, err: Error) -> Error {
    let seg = match state.exp.label(k) {
        FieldLabel::Named(n) => PathSegment::Field(n.to_string()),
        _ => PathSegment::FieldId(state.exp.field(k).map_or(0, |f| f.id)),
    };
    err.at(state.offset()).within(seg)
}

/// A record decoded as a struct: wire and expected fields merged by id.
///
/// It holds the record's nesting level: dropping it leaves the level, however the
/// visitor ended. So the visitor's result needs no handling after it returns, and
/// the struct it builds is written where the caller wants it, not built aside and
/// copied there (a copy priced by the byte in a canister). Dropping it also notes
/// a record left before its end (`DecodeState::unfinished`): when the visitor
/// returned a value nonetheless, candid reads what follows from inside the
/// record, and fails; candor fails the message with a clear error instead.
pub(crate) struct StructAccess<'a, 'de> {
    state: &'a mut DecodeState<'de>,
    fields: RecordWalk,
    /// The field whose key was just returned, for the `next_value` call that follows.
    pending: PendingField,
}

/// A record field between its key and its value. Only its types and its index
/// in the expected arena are kept: its id and label, needed on an error only,
/// are looked up from the index then.
#[derive(Clone, Copy)]
struct PendingField {
    wire: Ref,
    expected: Ref,
    index: usize,
}

impl<'a, 'de> StructAccess<'a, 'de> {
    pub(super) fn new(state: &'a mut DecodeState<'de>, wf: Span, ef: Span) -> Self {
        let fields = RecordWalk::new(wf, ef, &state.wire, &state.exp);
        StructAccess {
            state,
            fields,
            pending: PendingField {
                wire: Ref::NULL,
                expected: Ref::RESERVED,
                index: 0,
            },
        }
    }

    /// Hands out the key of the field `pending` names, keeping its types for the
    /// `next_value` call that must follow.
    #[inline(always)]
    fn key<K: DeserializeSeed<'de>, F: FieldAt>(
        &mut self,
        seed: K,
        pending: PendingField,
        at: F,
    ) -> Result<Option<K::Value>> {
        self.pending = pending;
        seed.deserialize(KeyDe::<KEY_AND_VALUE, F>::new(&mut *self.state, at))
            .map(Some)
    }

    /// The steps [`RecordWalk::both`] does not take: fields on one side only (and
    /// the end after them).
    #[inline]
    fn next_key_walk<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        loop {
            // `STEP` units per step, as candid. A key handed out is always followed by
            // `next_value` (serde's contract): its 1 unit is charged with the key's
            // own, in one charge (`KEY_AND_VALUE`).
            match self.fields.next(&self.state.wire, &self.state.exp) {
                Some(Step::Both { k, id, w, e }) => {
                    // The error path finds the id again from `k`.
                    debug_assert!(self.state.exp.field(k).is_some_and(|f| f.id == id));
                    let pending = PendingField {
                        wire: w,
                        expected: e,
                        index: k,
                    };
                    return self.key(seed, pending, k);
                }
                Some(Step::Expected {
                    k,
                    id,
                    e,
                    wire_done,
                }) => {
                    // Only in the expected type: must be opt, null or reserved, and
                    // decodes from an implicit null.
                    let e = if wire_done {
                        e
                    } else {
                        let resolved = e.resolved();
                        if !super::subtype::is_optional(&self.state.exp, resolved) {
                            let label = match self.state.exp.label(k) {
                                FieldLabel::Named(n) => n.to_string(),
                                _ => id.to_string(),
                            };
                            return Err(Error::subtype(format!(
                                "field {label} is not optional field"
                            ))
                            .at(self.state.offset()));
                        }
                        resolved
                    };
                    let pending = PendingField {
                        wire: Ref::NULL,
                        expected: e,
                        index: k,
                    };
                    return self.key(seed, pending, k);
                }
                Some(Step::Wire { id, w }) => {
                    // Only on the wire: skipped here, charged as candid charges the
                    // step, the `_` key, its value call and the skipped value.
                    self.state.charge(quota::KEY + 2 * quota::CALL)?;
                    if self.state.quota.untyped {
                        wire_field_untyped(self.state, w)
                    } else {
                        self.state.skip(w)
                    }
                    .map_err(|err| err.within(PathSegment::FieldId(id)))?;
                }
                None => {
                    self.state.charge(quota::KEY)?;
                    return Ok(None);
                }
            }
        }
    }
}

impl<'de> de::MapAccess<'de> for StructAccess<'_, 'de> {
    type Error = Error;

    /// serde's own method, inlined with the step it takes: a derived visitor
    /// asks for every key through it, and the seed in between is nothing.
    #[inline(always)]
    fn next_key<K: de::Deserialize<'de>>(&mut self) -> Result<Option<K>> {
        self.next_key_seed(std::marker::PhantomData)
    }

    #[inline(always)]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        // A field on both sides, or the end, straight through; a field on one
        // side only takes the walk.
        if let Some((at, w, e)) = self.fields.both(&self.state.wire, &self.state.exp) {
            let pending = PendingField {
                wire: w,
                expected: e,
                index: at.index(),
            };
            return self.key(seed, pending, at);
        }
        if self.fields.done() {
            self.state.charge(quota::KEY)?;
            return Ok(None);
        }
        self.next_key_walk(seed)
    }

    /// serde's own method, inlined with the read it makes: a derived visitor
    /// calls it for every field, and out of line it holds the access in memory
    /// across every key and value.
    #[inline(always)]
    fn next_value<V: de::Deserialize<'de>>(&mut self) -> Result<V> {
        self.next_value_seed(std::marker::PhantomData)
    }

    #[inline(always)]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        // Its unit was charged with the key.
        let PendingField {
            wire: w,
            expected: e,
            index: k,
        } = self.pending;
        seed.deserialize(De::new(&mut *self.state, w, e))
            .map_err(|err| field_path(self.state, k, err))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.remaining())
    }
}

impl Drop for StructAccess<'_, '_> {
    /// Leaves the record's level, and notes a record left before its end (see
    /// the type's doc).
    #[inline(always)]
    fn drop(&mut self) {
        if !self.fields.done() && self.state.unfinished.is_none() {
            self.state.unfinished = Some(self.state.offset());
        }
        self.state.leave();
    }
}

/// A tuple record decoded as a sequence: fields paired by position.
pub(crate) struct TupleAccess<'a, 'de> {
    state: &'a mut DecodeState<'de>,
    wf: Span,
    ef: Span,
    i: u32,
    /// The types of the first two fields, looked up (or kept) beforehand.
    first: [(Ref, Ref); 2],
}

impl<'a, 'de> TupleAccess<'a, 'de> {
    /// `first` holds [`pair`](Self::pair) of fields 0 and 1.
    pub(super) fn new(
        state: &'a mut DecodeState<'de>,
        wf: Span,
        ef: Span,
        first: [(Ref, Ref); 2],
    ) -> Self {
        TupleAccess {
            state,
            wf,
            ef,
            i: 0,
            first,
        }
    }

    /// The (wire, expected) types of field `i`: a field missing on the wire reads
    /// as `null`, one missing in the expected type as `reserved`.
    #[inline]
    pub(super) fn pair(state: &DecodeState<'_>, wf: Span, ef: Span, i: u32) -> (Ref, Ref) {
        let e = if i < ef.len {
            state
                .exp
                .field((ef.start + i) as usize)
                .map_or(Ref::RESERVED, |f| f.ty)
        } else {
            Ref::RESERVED
        };
        let w = if i < wf.len {
            state
                .wire
                .field((wf.start + i) as usize)
                .map_or(Ref::NULL, |f| f.ty)
        } else {
            Ref::NULL
        };
        (w, e)
    }
    /// Skips wire fields beyond the ones the visitor read, so the next value starts
    /// at the right byte.
    #[inline(always)]
    pub(super) fn finish(&mut self) -> Result<()> {
        if self.i >= self.wf.len {
            return Ok(());
        }
        self.skip_rest()
    }

    #[inline(never)]
    fn skip_rest(&mut self) -> Result<()> {
        while self.i < self.wf.len {
            let w = self
                .state
                .wire
                .field((self.wf.start + self.i) as usize)
                .map(|f| f.ty);
            self.i += 1;
            if let Some(w) = w {
                self.state.skip(w)?;
            }
        }
        Ok(())
    }
}

impl<'de> de::SeqAccess<'de> for TupleAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.state.charge(quota::ELEMENT)?;
        let i = self.i;
        if i >= self.ef.len && i >= self.wf.len {
            return Ok(None);
        }
        let (w, e) = match self.first.get(i as usize) {
            Some(&pair) => pair,
            None => Self::pair(self.state, self.wf, self.ef, i),
        };
        self.i += 1;
        match seed.deserialize(De::new(&mut *self.state, w, e)) {
            Ok(x) => Ok(Some(x)),
            Err(err) => Err(element_path(self.state, PathSegment::FieldId(i), err)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(
            self.ef
                .len
                .saturating_sub(self.i)
                .min(self.wf.len.saturating_sub(self.i)) as usize,
        )
    }
}

/// The elements of a vector.
pub(crate) struct VecAccess<'a, 'de> {
    state: &'a mut DecodeState<'de>,
    len: usize,
    done: usize,
    w: Ref,
    e: Ref,
    per_elem: usize,
}

impl<'a, 'de> VecAccess<'a, 'de> {
    pub(super) fn new(
        state: &'a mut DecodeState<'de>,
        len: usize,
        w: Ref,
        e: Ref,
        per_elem: usize,
    ) -> Self {
        VecAccess {
            state,
            len,
            done: 0,
            w,
            e,
            per_elem,
        }
    }
    /// Skips elements the visitor did not read (none, when it read them all).
    #[inline]
    pub(super) fn finish(&mut self) -> Result<()> {
        if self.done >= self.len {
            return Ok(());
        }
        self.skip_rest()
    }

    #[inline(never)]
    fn skip_rest(&mut self) -> Result<()> {
        while self.done < self.len {
            self.done += 1;
            self.state.skip(self.w)?;
        }
        Ok(())
    }
}

impl<'de> de::SeqAccess<'de> for VecAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.done >= self.len {
            return Ok(None);
        }
        let i = self.done;
        self.done += 1;
        if self.per_elem != 0 {
            self.state.charge(self.per_elem)?;
        }
        match seed.deserialize(De::new(&mut *self.state, self.w, self.e)) {
            Ok(x) => Ok(Some(x)),
            Err(err) => Err(element_path(self.state, PathSegment::Index(i), err)),
        }
    }

    /// The elements left, but no more than the bytes left in the message: a
    /// visitor reserves room by this hint, and elements that take no bytes
    /// (`null`, `record {}`) must not make it reserve for a length no byte backs.
    fn size_hint(&self) -> Option<usize> {
        Some((self.len - self.done).min(self.state.reader.remaining()))
    }
}

/// Attaches the offset and the path segment of a tuple's field or a vector's
/// element to an error leaving it: out of line, so the element's read holds only
/// the success path.
#[cold]
#[inline(never)]
fn element_path(state: &DecodeState<'_>, seg: PathSegment, err: Error) -> Error {
    err.at(state.offset()).within(seg)
}

/// A `vec record { K; V }` decoded as a map.
pub(crate) struct MapAccess<'a, 'de> {
    state: &'a mut DecodeState<'de>,
    len: usize,
    done: usize,
    wire: (Ref, Ref),
    exp: (Ref, Ref),
    /// Keys are text on both sides: they are read without a per-entry type check.
    text_keys: bool,
    /// A fast path was taken and its per-entry cost charged up front.
    fast: bool,
}

impl<'a, 'de> MapAccess<'a, 'de> {
    pub(super) fn new(
        state: &'a mut DecodeState<'de>,
        len: usize,
        wire: (Ref, Ref),
        exp: (Ref, Ref),
        text_keys: bool,
        fast: bool,
    ) -> Self {
        MapAccess {
            state,
            len,
            done: 0,
            wire,
            exp,
            text_keys,
            fast,
        }
    }
    /// Skips entries the visitor did not read.
    pub(super) fn finish(&mut self) -> Result<()> {
        while self.done < self.len {
            self.done += 1;
            self.state.skip(self.wire.0)?;
            self.state.skip(self.wire.1)?;
        }
        Ok(())
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        self.state.charge(quota::KEY)?;
        if self.done >= self.len {
            return Ok(None);
        }
        let i = self.done;
        self.done += 1;
        let out = if self.text_keys {
            seed.deserialize(TextKeyDe::new(&mut *self.state))
        } else {
            self.state.charge(if self.fast { 0 } else { quota::KEY })?;
            seed.deserialize(De::new(&mut *self.state, self.wire.0, self.exp.0))
        };
        out.map(Some)
            .map_err(|err| err.at(self.state.offset()).within(PathSegment::Index(i)))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if !self.fast {
            self.state.charge(quota::ELEMENT)?;
        }
        let i = self.done.saturating_sub(1);
        seed.deserialize(De::new(&mut *self.state, self.wire.1, self.exp.1))
            .map_err(|err| err.at(self.state.offset()).within(PathSegment::Index(i)))
    }

    /// The elements left, but no more than the bytes left in the message: a
    /// visitor reserves room by this hint, and elements that take no bytes
    /// (`null`, `record {}`) must not make it reserve for a length no byte backs.
    fn size_hint(&self) -> Option<usize> {
        Some((self.len - self.done).min(self.state.reader.remaining()))
    }
}

/// A variant: the case was chosen by the caller from the wire index.
pub(crate) struct EnumAccess<'a, 'de> {
    state: &'a mut DecodeState<'de>,
    /// The case's index in the expected arena's fields (and labels).
    k: usize,
    w: Ref,
    e: Ref,
}

impl<'a, 'de> EnumAccess<'a, 'de> {
    pub(super) fn new(state: &'a mut DecodeState<'de>, k: usize, w: Ref, e: Ref) -> Self {
        EnumAccess { state, k, w, e }
    }
    #[cold]
    fn path(&self, err: Error) -> Error {
        let k = self.k;
        let seg = match (self.state.exp.label(k), self.state.exp.field(k)) {
            (FieldLabel::Named(n), _) => PathSegment::Case(n.to_string()),
            (_, Some(f)) => PathSegment::Case(f.id.to_string()),
            (_, None) => PathSegment::Case(String::new()),
        };
        err.at(self.state.offset()).within(seg)
    }
}

impl EnumAccess<'_, '_> {
    fn untyped_label(&self, k: usize) -> String {
        // Pushed, not `format!`ted: this runs once per decoded variant.
        let mut label = String::with_capacity(32);
        let kind = match (self.state.exp.label(k), self.state.exp.field(k)) {
            (FieldLabel::Named(n), _) => {
                label.push_str(n);
                "name"
            }
            (_, Some(f)) => {
                label.push_str(&f.id.to_string());
                "id"
            }
            (_, None) => "id",
        };
        let accessor = if self.e.is_var() {
            "newtype"
        } else {
            match self.state.expected_node(self.e) {
                Node::Prim(crate::wire::header::Prim::Null) => "unit",
                Node::Record(_) => "struct",
                _ => "newtype",
            }
        };
        for part in [",", kind, ",", accessor] {
            label.push_str(part);
        }
        label
    }
}

impl<'a, 'de> de::EnumAccess<'de> for EnumAccess<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let k = self.k;
        if self.state.quota.untyped {
            // Without a Rust type the visitor (`IDLValue`) learns the label, whether
            // it is a name or an id, and the payload's shape from one string, as in
            // candid: "<label>,<name|id>,<unit|struct|newtype>".
            let label = self.untyped_label(k);
            self.state.charge(CASE_AND_PAYLOAD + label.len())?;
            let v = seed.deserialize(de::value::StringDeserializer::<Error>::new(label))?;
            return Ok((v, self));
        }
        let v = seed.deserialize(KeyDe::<CASE_AND_PAYLOAD>::new(&mut *self.state, k))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for EnumAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        // A unit case's payload is `null` by direct reference on both sides when
        // both sides declare it so: no arena lookup.
        if self.w == Ref::NULL && self.e == Ref::NULL {
            return Ok(());
        }
        let unit = self.state.wire_node(self.w) == Node::Prim(crate::wire::header::Prim::Null)
            && self.state.expected_node(self.e) == Node::Prim(crate::wire::header::Prim::Null);
        if !unit {
            let err = Error::mismatch(
                super::describe::describe(&self.state.exp, self.e),
                super::describe::describe(&self.state.wire, self.w),
                self.state.offset(),
            );
            return Err(self.path(err));
        }
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let out = seed.deserialize(De::new(&mut *self.state, self.w, self.e));
        out.map_err(|err| self.path(err))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        let out = de::Deserializer::deserialize_tuple(
            De::new(&mut *self.state, self.w, self.e),
            len,
            visitor,
        );
        out.map_err(|err| self.path(err))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let out = de::Deserializer::deserialize_struct(
            De::new(&mut *self.state, self.w, self.e),
            "_",
            fields,
            visitor,
        );
        out.map_err(|err| self.path(err))
    }
}

/// A record field only on the wire, for an `IDLValue`: candid takes it as
/// `reserved`, so it skips the value, then charges the `reserved` value, one
/// unit more than a typed struct pays (a table reference pays it back, as it is
/// resolved once, not twice; a `reserved` field is not skipped). Out of line:
/// typed records, which never take this path, keep their loop as small as it was.
#[inline(never)]
fn wire_field_untyped(state: &mut DecodeState<'_>, w: Ref) -> Result<()> {
    state.skip(w)?;
    if !w.is_var() && w != Ref::RESERVED {
        state.charge(quota::CALL)?;
    }
    Ok(())
}
