//! The composite values of a frame: vectors (with their fast paths), tuples, maps,
//! records and variants, each one nesting level down.

use super::*;

impl<'de> De<'_, 'de> {
    /// Runs `f` one nesting level deeper (the depth and stack bounds of
    /// `DecodeState::enter`), leaving the level however `f` ends.
    #[inline(always)]
    pub(super) fn nested<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        self.state.enter()?;
        let out = f(self);
        self.state.leave();
        out
    }

    /// `vec` (as a sequence) or a tuple record, charging `cost` units once the
    /// types are resolved.
    pub(super) fn seq<V: Visitor<'de>>(
        &mut self,
        v: V,
        tuple_len: Option<usize>,
        cost: usize,
    ) -> Result<V::Value> {
        match self.seq_begin(tuple_len, cost)? {
            SeqBody::Fixed { p, data, at } => {
                let (w, e) = (self.w(), self.e());
                De::new(&mut *self.state, w, e).prim_vec(p, data, at, v)
            }
            SeqBody::Elems {
                len,
                w,
                e,
                per_elem,
            } => {
                let mut access = VecAccess::new(&mut *self.state, len, w, e, per_elem);
                let out = v.visit_seq(&mut access)?;
                access.finish()?;
                Ok(out)
            }
            SeqBody::Tuple => {
                let PairSpans { wf, ef, .. } = self.state.tuple_ok;
                let first = self.state.tuple_first;
                let mut access = TupleAccess::new(&mut *self.state, wf, ef, first);
                let out = v.visit_seq(&mut access)?;
                access.finish()?;
                Ok(out)
            }
        }
    }

    /// Everything a sequence reads and charges before its first element: the type
    /// check, the length and, for a vector of fixed-width numbers, the elements'
    /// bytes. Shared by the serde path and the direct one (`direct.rs`), so both
    /// charge, read and fail alike.
    #[inline(always)]
    pub(in crate::de) fn seq_begin(
        &mut self,
        tuple_len: Option<usize>,
        cost: usize,
    ) -> Result<SeqBody<'de>> {
        let (w, e) = self.unroll_pair(cost)?;
        if self.state.tuple_ok.get(w, e).is_some() {
            return Ok(SeqBody::Tuple);
        }
        let kept = self.state.vec_ok;
        let shape = if kept.w == w && kept.e == e {
            kept
        } else {
            self.set(w, e);
            match self.nodes() {
                (Node::Vec(w_el), Node::Vec(e_el)) => {
                    let shape = self.vec_shape(w_el.resolved(), e_el);
                    self.state.vec_ok = shape;
                    shape
                }
                _ => return self.tuple_begin(),
            }
        };
        let (w_el, e_el) = (shape.w_el, shape.e_el);
        match shape.kind {
            VecKind::Fixed(p) => {
                let size = shape.min;
                let len = self.state.reader.len(size)?;
                check_array_len(self.state, tuple_len, len)?;
                self.state
                    .charge(len.saturating_mul(quota::ELEMENT + size))?;
                let at = self.state.offset();
                let data = self.state.reader.take(len * size, "vector")?;
                Ok(SeqBody::Fixed { p, data, at })
            }
            kind => {
                let len = self.state.reader.len(shape.min)?;
                check_array_len(self.state, tuple_len, len)?;
                let per_elem = if kind == VecKind::Bignum {
                    self.state.charge(len.saturating_mul(quota::ELEMENT))?;
                    0
                } else {
                    quota::ELEMENT
                };
                Ok(SeqBody::Elems {
                    len,
                    w: w_el,
                    e: e_el,
                    per_elem,
                })
            }
        }
    }

    /// How a vector of (resolved) wire elements `w_el` and expected elements `e_el`
    /// is read: a function of the two arenas, kept per pair (`DecodeState::vec_ok`).
    #[inline(always)]
    pub(super) fn vec_shape(&mut self, w_el: Ref, e_el: Ref) -> VecShape {
        let (wn, en) = (self.state.wire_node(w_el), self.state.expected_node(e_el));
        let (kind, min) = match (wn, en) {
            (Node::Prim(wp), Node::Prim(ep)) if wp == ep && primvec::is_fixed(wp) => {
                (VecKind::Fixed(wp), primvec::size(wp))
            }
            (Node::Prim(Prim::Nat), Node::Prim(Prim::Nat))
            | (Node::Prim(Prim::Int), Node::Prim(Prim::Int))
            | (Node::Prim(Prim::Nat), Node::Prim(Prim::Int)) => {
                (VecKind::Bignum, self.state.elem_min_size(w_el))
            }
            _ => (VecKind::Elems, self.state.elem_min_size(w_el)),
        };
        VecShape {
            w: self.w(),
            e: self.e(),
            w_el,
            e_el,
            min,
            kind,
        }
    }

    /// `seq_begin` for a frame that is not a vector on both sides: a tuple record
    /// on both sides, or a mismatch.
    #[inline(always)]
    pub(super) fn tuple_begin(&mut self) -> Result<SeqBody<'de>> {
        match self.nodes() {
            (Node::Record(wf), Node::Record(ef)) => {
                if !is_tuple(&self.state.exp, ef) {
                    return Err(self.mismatch());
                }
                if !is_tuple(&self.state.wire, wf) {
                    return Err(Error::subtype(format!(
                        "{} is not a tuple type",
                        describe(&self.state.wire, self.w())
                    ))
                    .at(self.state.offset()));
                }
                let first = [0, 1].map(|i| TupleAccess::pair(self.state, wf, ef, i));
                self.state.tuple_ok = self.checked(wf, ef);
                self.state.tuple_first = first;
                Ok(SeqBody::Tuple)
            }
            _ => Err(self.mismatch()),
        }
    }

    pub(super) fn map<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        let MapBody {
            len,
            wire,
            exp,
            text_keys,
            fast,
        } = self.map_begin()?;
        let mut access = MapAccess::new(&mut *self.state, len, wire, exp, text_keys, fast);
        let out = v.visit_map(&mut access)?;
        access.finish()?;
        Ok(out)
    }

    /// Everything a map reads and charges before its first entry: the type check,
    /// the length and, on a fast path, every entry's cost up front. Shared by the
    /// serde path and the direct one (`direct.rs`), so both charge, read and fail
    /// alike.
    #[inline(always)]
    pub(in crate::de) fn map_begin(&mut self) -> Result<MapBody> {
        self.unroll_then(quota::CALL)?;
        let (Node::Vec(w_el), Node::Vec(e_el)) = self.nodes() else {
            return Err(self.mismatch());
        };
        let pair = |arena: &crate::wire::header::Arena, r: Ref| match arena.node(r) {
            Node::Record(s) => match arena.fields(s) {
                [k, v] if k.id == 0 && v.id == 1 => Some((k.ty, v.ty)),
                _ => None,
            },
            _ => None,
        };
        let (Some((wk, wv)), Some((ek, ev))) =
            (pair(&self.state.wire, w_el), pair(&self.state.exp, e_el))
        else {
            return Err(Error::subtype("expect a key-value pair").at(self.state.offset()));
        };
        let min = self.state.elem_min_size(w_el.resolved());
        let len = self.state.reader.len(min)?;
        let text_keys = self.state.wire_node(wk) == Node::Prim(Prim::Text)
            && self.state.expected_node(ek) == Node::Prim(Prim::Text);
        let bignum_values = matches!(
            (self.state.wire_node(wv), self.state.expected_node(ev)),
            (Node::Prim(Prim::Nat), Node::Prim(Prim::Nat))
                | (Node::Prim(Prim::Int), Node::Prim(Prim::Int))
                | (Node::Prim(Prim::Nat), Node::Prim(Prim::Int))
        );
        let fast = text_keys || bignum_values;
        if fast {
            self.state
                .charge(len.saturating_mul(quota::FAST_MAP_ENTRY))?;
        }
        Ok(MapBody {
            len,
            wire: (wk, wv),
            exp: (ek, ev),
            text_keys,
            fast,
        })
    }

    /// A record, one level down: `deserialize_struct` entered the level, and the
    /// record leaves it, here when it fails before its fields, else when its
    /// access is dropped. The visitor's result is the record's, as it came (see
    /// `StructAccess`).
    pub(super) fn record<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        let (wf, ef) = match self.record_spans() {
            Ok(spans) => spans,
            Err(err) => {
                self.state.leave();
                return Err(err);
            }
        };
        v.visit_map(StructAccess::new(&mut *self.state, wf, ef))
    }

    /// The field spans of this frame's pair, both sides records: one of the two
    /// pairs kept (fast path 32), else read from both arenas.
    #[inline(always)]
    fn record_spans(&mut self) -> Result<(Span, Span)> {
        self.unroll_then(quota::CALL)?;
        if let Some(spans) = self.state.record_ok.get(self.pair) {
            return Ok(spans);
        }
        match self.nodes() {
            (Node::Record(wf), Node::Record(ef)) => {
                self.state.record_ok.keep(self.pair, (wf, ef));
                Ok((wf, ef))
            }
            _ => Err(self.mismatch()),
        }
    }

    #[inline(always)]
    pub(super) fn variant<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value> {
        let (w, e) = self.unroll_pair(quota::CALL)?;
        let case = match self.state.variant_ok.get(w, e) {
            Some(spans) => {
                let at = self.state.offset();
                let index = self.state.reader.leb("variant index")?;
                // A case a value at this pair took already is kept (fast path
                // 22); from the pair's second value on, each case is kept the
                // first time a value takes it.
                match self.state.kept_case(w, e, index) {
                    Some(case) => case,
                    None => keep_case_of(self.state, (w, e), spans, index, at)?,
                }
            }
            None => {
                self.set(w, e);
                let (Node::Variant(wf), Node::Variant(ef)) = self.nodes() else {
                    return Err(self.mismatch());
                };
                self.state.variant_ok = self.checked(wf, ef);
                let at = self.state.offset();
                let index = self.state.reader.leb("variant index")?;
                case_of(self.state, (wf, ef), index, at)?
            }
        };
        v.visit_enum(EnumAccess::new(
            &mut *self.state,
            case.expected_case,
            case.w,
            case.e,
        ))
    }
}

/// [`case_of`] at a checked variant pair `(w, e)` whose case spans are `spans`,
/// for a case not kept yet: it is kept for the next value that takes it. Out of
/// line, as it runs about once per case and pair.
#[inline(never)]
pub(super) fn keep_case_of(
    state: &mut DecodeState<'_>,
    (w, e): (Ref, Ref),
    spans: (Span, Span),
    index: u64,
    at: usize,
) -> Result<CaseMemo> {
    let case = case_of(state, spans, index, at)?;
    state.keep_case(w, e, index, case);
    Ok(case)
}

/// The expected case of the wire case at `index` of a variant pair whose case
/// spans are `(wf, ef)`, with the two case types. `at` is where the index was
/// read (for errors).
#[inline(always)]
pub(super) fn case_of(
    state: &DecodeState<'_>,
    (wf, ef): (Span, Span),
    index: u64,
    at: usize,
) -> Result<CaseMemo> {
    let Some(case) = case_at(&state.wire, wf, index) else {
        let cases = state.wire.fields(wf).len();
        return Err(fault::variant_index(index, cases, at));
    };
    // When both sides list the same cases (the usual case), the wire index is
    // the expected index; otherwise the sorted ids are searched.
    let (k, e_ty) = match case_at(&state.exp, ef, index) {
        Some(f) if f.id == case.id => (index as usize, f.ty),
        _ => {
            let exp_cases = state.exp.fields(ef);
            match exp_cases.binary_search_by_key(&case.id, |f| f.id) {
                Ok(k) => (k, exp_cases.get(k).map_or(Ref::RESERVED, |f| f.ty)),
                Err(_) => return Err(unknown_case(case.id).at(at)),
            }
        }
    };
    Ok(CaseMemo {
        expected_case: ef.start as usize + k,
        w: case.ty,
        e: e_ty,
    })
}

/// The case at position `index` of a variant's cases, or `None` past the last one:
/// one bounds test on the position and one on the arena, instead of slicing the
/// cases first.
#[inline(always)]
pub(super) fn case_at(arena: &Arena, cases: Span, index: u64) -> Option<FieldEntry> {
    if index < u64::from(cases.len) {
        arena.field(cases.start as usize + index as usize)
    } else {
        None
    }
}

/// A fixed-size array (`[T; N]`, decoded through `deserialize_tuple`) takes exactly
/// `N` elements: a longer vector would lose data silently.
pub(super) fn check_array_len(
    state: &DecodeState<'_>,
    expected: Option<usize>,
    len: usize,
) -> Result<()> {
    match expected {
        Some(n) if n != len => Err(Error::msg(format!(
            "expected a vector of {n} elements, found {len}"
        ))
        .at(state.offset())),
        _ => Ok(()),
    }
}

pub(super) fn is_tuple(arena: &Arena, fields: Span) -> bool {
    // Both arenas keep field ids strictly increasing (the header parser rejects
    // anything else; the interner sorts and rejects collisions), so the ids are
    // 0..n exactly when the last one is n - 1: one test, not a walk per value.
    fields.len == 0
        || arena
            .field(fields.start as usize + fields.len as usize - 1)
            .is_some_and(|f| f.id == fields.len - 1)
}

/// candid's wording, which callers match on: the case id as candid prints labels.
#[cold]
pub(super) fn unknown_case(id: u32) -> Error {
    Error::subtype(format!(
        "Unknown variant field {}",
        crate::types::text::pp_num_str(&id.to_string())
    ))
}
