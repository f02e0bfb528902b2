//! [`IDLValue::annotate_type`]: gives a value the exact shape of a type, so it can be
//! encoded at that type (candid's rules, arm for arm).

use super::oneline::label_string;
use super::{IDLField, IDLValue, VariantValue};
use crate::error::{Error, Result};
use crate::types::internal::{elide_large, find_type};
use crate::types::number::{Int, Nat};
use crate::types::walk::{StackMark, STACK_CHECK_EVERY};
use crate::types::{Field, Label, Type, TypeEnv, TypeInner};
use std::cell::Cell;

/// Bound on the nesting of values and types walked by annotation (candid bounds it
/// by the remaining stack).
const MAX_DEPTH: usize = crate::limits::DEFAULT_MAX_DEPTH as usize;

/// The depths at which an annotation tests its bounds: one in every
/// [`STACK_CHECK_EVERY`], aligned so that the first depth past [`MAX_DEPTH`] is one
/// of them. A level then pays one test, as for the depth bound alone, and the walk
/// stops at the same depth as with a test at every level.
const CHECK_AT: usize = (MAX_DEPTH + 1) % STACK_CHECK_EVERY;

thread_local! {
    /// Where the stack of this thread's annotation began (the walk recurses once per
    /// level of the value and the type, and frames in debug builds are large). A
    /// thread-local rather than an argument, so the frame of a level stays as small
    /// as without it.
    static ANNOTATION_STACK: Cell<StackMark> = const { Cell::new(StackMark::UNSET) };
}

/// True once an annotation at `depth` must stop: past [`MAX_DEPTH`], or out of
/// stack. Out of line: it runs once in [`STACK_CHECK_EVERY`] levels.
#[inline(never)]
fn too_deep(depth: usize) -> bool {
    depth > MAX_DEPTH
        || ANNOTATION_STACK
            .try_with(Cell::get)
            .map_or(true, StackMark::exhausted)
}

#[cold]
fn mismatch(v: &IDLValue, t: &Type) -> Error {
    Error::msg(format!(
        "type mismatch: {v} cannot be of type {}",
        elide_large(t)
    ))
}

fn parse<T: std::str::FromStr>(s: &str) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    s.parse::<T>().map_err(|e| Error::msg(e.to_string()))
}

/// `env.trace_type` that also follows knots.
fn trace(env: &TypeEnv, t: &Type) -> Result<Type> {
    env.trace_type(t)
}

impl IDLValue {
    /// The value shaped by type `t` (names resolved in `env`), allowing subtyping.
    ///
    /// With `from_parser` (the value comes from the text format), undetermined
    /// numbers take the expected number type, a `float64` literal may be a
    /// `float32`, and `opt` values must match exactly. Without it (the value was
    /// decoded), candid's liberal `opt` rule applies: a value that does not fit
    /// becomes `null`.
    pub fn annotate_type(&self, from_parser: bool, env: &TypeEnv, t: &Type) -> Result<Self> {
        annotate_root(Src::Borrowed(self), from_parser, env, t)
    }

    /// [`IDLValue::annotate_type`] of a value that is not needed after: its texts,
    /// blobs, labels and vectors move into the result instead of being copied.
    pub(crate) fn into_annotated(
        mut self,
        from_parser: bool,
        env: &TypeEnv,
        t: &Type,
    ) -> Result<Self> {
        annotate_root(Src::Owned(&mut self), from_parser, env, t)
    }
}

/// The value being annotated: borrowed (what the result keeps is copied) or
/// owned (what the result keeps is moved out, and the rest is dropped after).
enum Src<'v> {
    Borrowed(&'v IDLValue),
    Owned(&'v mut IDLValue),
}

impl Src<'_> {
    fn get(&self) -> &IDLValue {
        match self {
            Src::Borrowed(v) => v,
            Src::Owned(v) => v,
        }
    }

    /// The value as it is: its shape is already the type's.
    fn keep(&mut self) -> IDLValue {
        match self {
            Src::Borrowed(v) => (*v).clone(),
            Src::Owned(v) => std::mem::replace(*v, IDLValue::Null),
        }
    }

    /// The value inside an `opt` (the value itself for anything else).
    fn opt_inner(&mut self) -> Src<'_> {
        match self {
            Src::Borrowed(IDLValue::Opt(inner)) => Src::Borrowed(inner),
            Src::Borrowed(v) => Src::Borrowed(v),
            Src::Owned(v) => match &mut **v {
                IDLValue::Opt(inner) => Src::Owned(inner),
                other => Src::Owned(other),
            },
        }
    }
}

fn annotate_root(src: Src<'_>, from_parser: bool, env: &TypeEnv, t: &Type) -> Result<IDLValue> {
    let outer = ANNOTATION_STACK.try_with(|s| s.replace(StackMark::here()));
    let out = annotate(src, from_parser, env, t, 0);
    if let Ok(outer) = outer {
        let _ = ANNOTATION_STACK.try_with(|s| s.set(outer));
    }
    out
}

/// The value shaped by `t`.
fn annotate(
    mut src: Src<'_>,
    from_parser: bool,
    env: &TypeEnv,
    t: &Type,
    depth: usize,
) -> Result<IDLValue> {
    if depth % STACK_CHECK_EVERY == CHECK_AT && too_deep(depth) {
        return Err(Error::msg(format!(
            "Recursion limit exceeded at depth {depth}"
        )));
    }
    let depth = depth + 1;
    let go = |v: Src<'_>, t: &Type| annotate(v, from_parser, env, t, depth);
    Ok(match (src.get(), t.as_ref()) {
        (_, TypeInner::Var(id)) => return go(src, env.rec_find_type(id)?),
        (_, TypeInner::Knot(id)) => {
            let ty =
                find_type(id).ok_or_else(|| Error::msg(format!("knot type {id} not found")))?;
            return go(src, &ty);
        }
        (_, TypeInner::Reserved) => IDLValue::Reserved,
        (IDLValue::Float64(n), TypeInner::Float32) if from_parser => IDLValue::Float32(*n as f32),
        (IDLValue::Null, TypeInner::Null)
        | (IDLValue::Bool(_), TypeInner::Bool)
        | (IDLValue::Nat(_), TypeInner::Nat)
        | (IDLValue::Int(_), TypeInner::Int)
        | (IDLValue::Nat8(_), TypeInner::Nat8)
        | (IDLValue::Nat16(_), TypeInner::Nat16)
        | (IDLValue::Nat32(_), TypeInner::Nat32)
        | (IDLValue::Nat64(_), TypeInner::Nat64)
        | (IDLValue::Int8(_), TypeInner::Int8)
        | (IDLValue::Int16(_), TypeInner::Int16)
        | (IDLValue::Int32(_), TypeInner::Int32)
        | (IDLValue::Int64(_), TypeInner::Int64)
        | (IDLValue::Float64(_), TypeInner::Float64)
        | (IDLValue::Float32(_), TypeInner::Float32)
        | (IDLValue::Text(_), TypeInner::Text) => src.keep(),
        (IDLValue::Nat(n), TypeInner::Int) => IDLValue::Int(n.clone().into()),
        // opt: null-like values are absent (always succeeds).
        (IDLValue::Null | IDLValue::Reserved | IDLValue::None, TypeInner::Opt(_)) => IDLValue::None,
        (IDLValue::Opt(_), TypeInner::Opt(ty)) if from_parser => {
            IDLValue::Opt(Box::new(go(src.opt_inner(), ty)?))
        }
        // Liberal decoding of optionals: what does not fit is absent.
        (IDLValue::Opt(_), TypeInner::Opt(ty)) => match go(src.opt_inner(), ty) {
            Ok(v) => IDLValue::Opt(Box::new(v)),
            Err(_) => IDLValue::None,
        },
        // A bare value for an opt: try the constituent type.
        (_, TypeInner::Opt(ty))
            if !from_parser
                && !matches!(
                    trace(env, ty)?.as_ref(),
                    TypeInner::Null | TypeInner::Reserved | TypeInner::Opt(_)
                ) =>
        {
            match go(src, ty) {
                Ok(v) => IDLValue::Opt(Box::new(v)),
                Err(_) => IDLValue::None,
            }
        }
        (_, TypeInner::Opt(_)) if !from_parser => IDLValue::None,
        (IDLValue::Blob(_), ty) if ty.is_blob(env) => src.keep(),
        (IDLValue::Vec(_) | IDLValue::Record(_) | IDLValue::Variant(_), _) => {
            return compound(src, from_parser, env, t, depth)
        }
        (IDLValue::Principal(_), TypeInner::Principal)
        | (IDLValue::Service(_), TypeInner::Service(_))
        | (IDLValue::Func(_, _), TypeInner::Func(_)) => src.keep(),
        (IDLValue::Number(s), ty) if from_parser => return number(s, ty, t),
        (v, _) => return Err(mismatch(v, t)),
    })
}

/// Vectors, records and variants (kept out of [`annotate`] so its frame, paid once
/// per nesting level, stays small). An owned vector or variant is annotated in
/// place, keeping its buffer or box.
#[inline(never)]
fn compound(
    mut src: Src<'_>,
    from_parser: bool,
    env: &TypeEnv,
    t: &Type,
    depth: usize,
) -> Result<IDLValue> {
    let go = |v: Src<'_>, t: &Type| annotate(v, from_parser, env, t, depth);
    Ok(match (src.get(), t.as_ref()) {
        (IDLValue::Vec(vec), ty) if ty.is_blob(env) => {
            let mut blob = Vec::with_capacity(vec.len());
            for e in vec {
                match e {
                    IDLValue::Nat8(n) => blob.push(*n),
                    IDLValue::Number(n) => blob.push(parse::<u8>(n)?),
                    _ => {
                        return Err(Error::msg(format!(
                            "type mismatch: {e} cannot be of type nat8"
                        )))
                    }
                }
            }
            IDLValue::Blob(blob)
        }
        (IDLValue::Vec(_), TypeInner::Vec(ty)) => match &mut src {
            Src::Owned(v) => {
                if let IDLValue::Vec(vec) = &mut **v {
                    for e in vec.iter_mut() {
                        *e = go(Src::Owned(e), ty)?;
                    }
                }
                src.keep()
            }
            Src::Borrowed(v) => {
                let elements = match v {
                    IDLValue::Vec(vec) => vec.as_slice(),
                    _ => &[],
                };
                let out = elements.iter().map(|e| go(Src::Borrowed(e), ty));
                IDLValue::Vec(out.collect::<Result<_>>()?)
            }
        },
        (IDLValue::Record(_), TypeInner::Record(fs)) => record(src, fs, env, go)?,
        (IDLValue::Variant(v), TypeInner::Variant(fs)) => {
            let Some((i, f)) = fs.iter().enumerate().find(|(_, f)| v.0.id == *f.id) else {
                return Err(Error::msg(format!(
                    "variant field {} not found",
                    label_string(&v.0.id)
                )));
            };
            match &mut src {
                Src::Owned(value) => {
                    if let IDLValue::Variant(v) = &mut **value {
                        v.0.val = go(Src::Owned(&mut v.0.val), &f.ty)?;
                        // The label stays when it is already written as the type's.
                        if !same_form(&v.0.id, &f.id) {
                            v.0.id = f.id.as_ref().clone();
                        }
                        v.1 = i as u64;
                    }
                    src.keep()
                }
                Src::Borrowed(value) => {
                    let val = match value {
                        IDLValue::Variant(v) => go(Src::Borrowed(&v.0.val), &f.ty)?,
                        _ => IDLValue::Null,
                    };
                    let field = IDLField {
                        id: f.id.as_ref().clone(),
                        val,
                    };
                    IDLValue::Variant(VariantValue(Box::new(field), i as u64))
                }
            }
        }
        (v, _) => return Err(mismatch(v, t)),
    })
}

/// A record at the record type `fs`. Later fields with the same id win, as in
/// candid. Sorted by id (the sort is stable, so equal ids keep their order)
/// instead of hashed: no hasher to pay for, and no hash to flood with chosen ids.
fn record(
    mut src: Src<'_>,
    fs: &[Field],
    env: &TypeEnv,
    go: impl Fn(Src<'_>, &Type) -> Result<IDLValue>,
) -> Result<IDLValue> {
    // Each field's id and position, sorted by id.
    let mut order: Vec<(u32, usize)> = match src.get() {
        IDLValue::Record(vec) => vec
            .iter()
            .enumerate()
            .map(|(i, f)| (f.id.get_id(), i))
            .collect(),
        _ => Vec::new(),
    };
    order.sort_by_key(|f| f.0);
    let mut res = Vec::with_capacity(fs.len());
    for Field { id, ty } in fs {
        let id_num = id.get_id();
        let end = order.partition_point(|f| f.0 <= id_num);
        let found = end
            .checked_sub(1)
            .and_then(|last| order.get(last))
            .filter(|f| f.0 == id_num)
            .map(|f| f.1);
        // Each of the type's ids is distinct: a value is taken once.
        let (label, val) = match (found, &mut src) {
            (Some(i), Src::Owned(v)) => match &mut **v {
                IDLValue::Record(vec) => match vec.get_mut(i) {
                    Some(f) => (take_label(&mut f.id, id), go(Src::Owned(&mut f.val), ty)?),
                    None => (None, IDLValue::Null),
                },
                _ => (None, IDLValue::Null),
            },
            (Some(i), Src::Borrowed(IDLValue::Record(vec))) => match vec.get(i) {
                Some(f) => (None, go(Src::Borrowed(&f.val), ty)?),
                None => (None, IDLValue::Null),
            },
            (Some(_), Src::Borrowed(_)) => (None, IDLValue::Null),
            (None, _) => {
                let absent = match trace(env, ty)?.as_ref() {
                    TypeInner::Null => IDLValue::Null,
                    TypeInner::Opt(_) => IDLValue::None,
                    TypeInner::Reserved => IDLValue::Reserved,
                    _ => {
                        return Err(Error::msg(format!(
                            "record field {} not found",
                            label_string(id)
                        )))
                    }
                };
                (None, go(Src::Borrowed(&absent), ty)?)
            }
        };
        res.push(IDLField {
            id: label.unwrap_or_else(|| id.as_ref().clone()),
            val,
        });
    }
    Ok(IDLValue::Record(res))
}

/// The value's label `given`, moved out, when it is written as the type's label
/// `want` is (labels compare equal by id alone, and the type's form is kept).
fn take_label(given: &mut Label, want: &Label) -> Option<Label> {
    same_form(given, want).then(|| std::mem::replace(given, Label::Id(0)))
}

/// Whether two labels are written alike (`==` compares ids only).
fn same_form(a: &Label, b: &Label) -> bool {
    match (a, b) {
        (Label::Named(a), Label::Named(b)) => a == b,
        (Label::Id(a), Label::Id(b)) | (Label::Unnamed(a), Label::Unnamed(b)) => a == b,
        _ => false,
    }
}

#[inline(never)]
fn number(s: &str, ty: &TypeInner, t: &Type) -> Result<IDLValue> {
    Ok(match ty {
        // Most numbers fit a machine word: no digit string to clean, no bignum parse.
        TypeInner::Int => IDLValue::Int(match s.parse::<i64>() {
            Ok(n) => Int::from(n),
            Err(_) => parse::<Int>(s)?,
        }),
        TypeInner::Nat => IDLValue::Nat(match s.parse::<u64>() {
            Ok(n) => Nat::from(n),
            Err(_) => parse::<Nat>(s)?,
        }),
        TypeInner::Nat8 => IDLValue::Nat8(parse(s)?),
        TypeInner::Nat16 => IDLValue::Nat16(parse(s)?),
        TypeInner::Nat32 => IDLValue::Nat32(parse(s)?),
        TypeInner::Nat64 => IDLValue::Nat64(parse(s)?),
        TypeInner::Int8 => IDLValue::Int8(parse(s)?),
        TypeInner::Int16 => IDLValue::Int16(parse(s)?),
        TypeInner::Int32 => IDLValue::Int32(parse(s)?),
        TypeInner::Int64 => IDLValue::Int64(parse(s)?),
        _ => {
            return Err(Error::msg(format!(
                "type mismatch: {s} can not be of type {t}"
            )))
        }
    })
}
