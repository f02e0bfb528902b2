//! The per-thread memo behind [`CandidType::ty`](super::CandidType::ty).
//!
//! It follows candid's algorithm exactly, because the shape of the computed types
//! (where a recursive type is cut by a `Knot`) decides the type table that goes on
//! the wire, and candor must produce the same bytes:
//! * the first `ty()` of a type stores `Unknown` under its id, computes `_ty()`, then
//!   stores the result; a `ty()` that meets `Unknown` returns `Knot(id)`;
//! * later `ty()` calls return the stored type.
//!
//! Encoding clears the memo before it computes a type table it has not cached yet
//! (as candid does for every message), so the table depends only on the argument
//! types, not on what was computed before.

use super::model::{Type, TypeId, TypeInner};
use super::CandidType;
use crate::fasthash::FastMap;
use std::cell::RefCell;

thread_local! {
    static ENV: RefCell<FastMap<TypeId, Type>> = RefCell::new(FastMap::default());
}

pub(crate) fn memo_ty<T: CandidType + ?Sized>() -> Type {
    let id = T::id();
    if let Some(t) = find_type(&id) {
        return match *t {
            TypeInner::Unknown => TypeInner::Knot(id).into(),
            _ => t,
        };
    }
    env_add(id, TypeInner::Unknown.into());
    let t = T::_ty();
    env_add(id, t.clone());
    t
}

/// The memoised type of a Rust type id, if computed on this thread.
pub fn find_type(id: &TypeId) -> Option<Type> {
    ENV.with(|e| e.borrow().get(id).cloned())
}

pub(crate) fn env_add(id: TypeId, t: Type) {
    ENV.with(|e| {
        e.borrow_mut().insert(id, t);
    });
}

/// Forgets every memoised type of this thread.
pub fn env_clear() {
    ENV.with(|e| e.borrow_mut().clear());
}

/// The Candid type of a value's Rust type.
pub fn get_type<T: CandidType>(_v: &T) -> Type {
    T::ty()
}

/// Follows `Knot`s to the type they stand for.
pub fn unroll(t: &Type) -> Option<Type> {
    match t.as_ref() {
        TypeInner::Knot(id) => find_type(id),
        _ => Some(t.clone()),
    }
}
