//! [`IDLValue::annotate_type`]: gives a value the exact shape of a type, so it can be
//! encoded at that type (candid's rules, arm for arm).

use super::oneline::label_string;
use super::{IDLField, IDLValue, VariantValue};
use crate::error::{Error, Result};
use crate::types::internal::{elide_large, find_type};
use crate::types::number::{Int, Nat};
use crate::types::walk::{StackMark, STACK_CHECK_EVERY};
use crate::types::{Field, Type, TypeEnv, TypeInner};
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
        let outer = ANNOTATION_STACK.try_with(|s| s.replace(StackMark::here()));
        let out = self.annotate(from_parser, env, t, 0);
        if let Ok(outer) = outer {
            let _ = ANNOTATION_STACK.try_with(|s| s.set(outer));
        }
        out
    }

    fn annotate(&self, from_parser: bool, env: &TypeEnv, t: &Type, depth: usize) -> Result<Self> {
        if depth % STACK_CHECK_EVERY == CHECK_AT && too_deep(depth) {
            return Err(Error::msg(format!(
                "Recursion limit exceeded at depth {depth}"
            )));
        }
        let depth = depth + 1;
        let go = |v: &IDLValue, t: &Type| v.annotate(from_parser, env, t, depth);
        Ok(match (self, t.as_ref()) {
            (_, TypeInner::Var(id)) => return go(self, env.rec_find_type(id)?),
            (_, TypeInner::Knot(id)) => {
                let ty =
                    find_type(id).ok_or_else(|| Error::msg(format!("knot type {id} not found")))?;
                return go(self, &ty);
            }
            (_, TypeInner::Reserved) => IDLValue::Reserved,
            (IDLValue::Float64(n), TypeInner::Float32) if from_parser => {
                IDLValue::Float32(*n as f32)
            }
            (IDLValue::Null, TypeInner::Null) => IDLValue::Null,
            (IDLValue::Bool(b), TypeInner::Bool) => IDLValue::Bool(*b),
            (IDLValue::Nat(n), TypeInner::Nat) => IDLValue::Nat(n.clone()),
            (IDLValue::Int(i), TypeInner::Int) => IDLValue::Int(i.clone()),
            (IDLValue::Nat(n), TypeInner::Int) => IDLValue::Int(n.clone().into()),
            (IDLValue::Nat8(n), TypeInner::Nat8) => IDLValue::Nat8(*n),
            (IDLValue::Nat16(n), TypeInner::Nat16) => IDLValue::Nat16(*n),
            (IDLValue::Nat32(n), TypeInner::Nat32) => IDLValue::Nat32(*n),
            (IDLValue::Nat64(n), TypeInner::Nat64) => IDLValue::Nat64(*n),
            (IDLValue::Int8(n), TypeInner::Int8) => IDLValue::Int8(*n),
            (IDLValue::Int16(n), TypeInner::Int16) => IDLValue::Int16(*n),
            (IDLValue::Int32(n), TypeInner::Int32) => IDLValue::Int32(*n),
            (IDLValue::Int64(n), TypeInner::Int64) => IDLValue::Int64(*n),
            (IDLValue::Float64(n), TypeInner::Float64) => IDLValue::Float64(*n),
            (IDLValue::Float32(n), TypeInner::Float32) => IDLValue::Float32(*n),
            (IDLValue::Text(s), TypeInner::Text) => IDLValue::Text(s.clone()),
            // opt: null-like values are absent (always succeeds).
            (IDLValue::Null | IDLValue::Reserved | IDLValue::None, TypeInner::Opt(_)) => {
                IDLValue::None
            }
            (IDLValue::Opt(v), TypeInner::Opt(ty)) if from_parser => {
                IDLValue::Opt(Box::new(go(v, ty)?))
            }
            // Liberal decoding of optionals: what does not fit is absent.
            (IDLValue::Opt(v), TypeInner::Opt(ty)) => match go(v, ty) {
                Ok(v) => IDLValue::Opt(Box::new(v)),
                Err(_) => IDLValue::None,
            },
            // A bare value for an opt: try the constituent type.
            (v, TypeInner::Opt(ty))
                if !from_parser
                    && !matches!(
                        trace(env, ty)?.as_ref(),
                        TypeInner::Null | TypeInner::Reserved | TypeInner::Opt(_)
                    ) =>
            {
                match go(v, ty) {
                    Ok(v) => IDLValue::Opt(Box::new(v)),
                    Err(_) => IDLValue::None,
                }
            }
            (_, TypeInner::Opt(_)) if !from_parser => IDLValue::None,
            (IDLValue::Blob(blob), ty) if ty.is_blob(env) => IDLValue::Blob(blob.clone()),
            (IDLValue::Vec(_) | IDLValue::Record(_) | IDLValue::Variant(_), _) => {
                return self.compound(from_parser, env, t, depth)
            }
            (IDLValue::Principal(id), TypeInner::Principal) => IDLValue::Principal(*id),
            (IDLValue::Service(_), TypeInner::Service(_))
            | (IDLValue::Func(_, _), TypeInner::Func(_)) => self.clone(),
            (IDLValue::Number(s), ty) if from_parser => return number(self, s, ty, t),
            _ => return Err(mismatch(self, t)),
        })
    }

    /// Vectors, records and variants (kept out of [`annotate`](Self::annotate) so
    /// its frame, paid once per nesting level, stays small).
    #[inline(never)]
    fn compound(&self, from_parser: bool, env: &TypeEnv, t: &Type, depth: usize) -> Result<Self> {
        let go = |v: &IDLValue, t: &Type| v.annotate(from_parser, env, t, depth);
        Ok(match (self, t.as_ref()) {
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
            (IDLValue::Vec(vec), TypeInner::Vec(ty)) => {
                IDLValue::Vec(vec.iter().map(|e| go(e, ty)).collect::<Result<_>>()?)
            }
            (IDLValue::Record(vec), TypeInner::Record(fs)) => {
                // Later fields with the same id win, as in candid. Sorted by id (the
                // sort is stable, so equal ids keep their order) instead of hashed: no
                // hasher to pay for, and no hash to flood with chosen ids.
                let mut fields: Vec<(u32, &IDLValue)> =
                    vec.iter().map(|f| (f.id.get_id(), &f.val)).collect();
                fields.sort_by_key(|f| f.0);
                let last_with = |id: u32| {
                    let end = fields.partition_point(|f| f.0 <= id);
                    fields[..end].last().filter(|f| f.0 == id).map(|f| f.1)
                };
                let mut res = Vec::with_capacity(fs.len());
                for Field { id, ty } in fs {
                    let val = match last_with(id.get_id()) {
                        Some(v) => v,
                        None => match trace(env, ty)?.as_ref() {
                            TypeInner::Null => &IDLValue::Null,
                            TypeInner::Opt(_) => &IDLValue::None,
                            TypeInner::Reserved => &IDLValue::Reserved,
                            _ => {
                                return Err(Error::msg(format!(
                                    "record field {} not found",
                                    label_string(id)
                                )))
                            }
                        },
                    };
                    res.push(IDLField {
                        id: id.as_ref().clone(),
                        val: go(val, ty)?,
                    });
                }
                IDLValue::Record(res)
            }
            (IDLValue::Variant(v), TypeInner::Variant(fs)) => {
                let Some((i, f)) = fs.iter().enumerate().find(|(_, f)| v.0.id == *f.id) else {
                    return Err(Error::msg(format!(
                        "variant field {} not found",
                        label_string(&v.0.id)
                    )));
                };
                let field = IDLField {
                    id: f.id.as_ref().clone(),
                    val: go(&v.0.val, &f.ty)?,
                };
                IDLValue::Variant(VariantValue(Box::new(field), i as u64))
            }
            _ => return Err(mismatch(self, t)),
        })
    }
}

#[inline(never)]
fn number(v: &IDLValue, s: &str, ty: &TypeInner, t: &Type) -> Result<IDLValue> {
    Ok(match ty {
        TypeInner::Int => IDLValue::Int(parse::<Int>(s)?),
        TypeInner::Nat => IDLValue::Nat(parse::<Nat>(s)?),
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
                "type mismatch: {v} can not be of type {t}"
            )))
        }
    })
}
