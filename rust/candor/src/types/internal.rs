//! The per-thread memo behind [`CandidType::ty`].
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

pub use super::doc::{FieldDoc, TypeDoc, TypeDocs};
pub use super::model::{
    is_primitive, Field, FuncMode, Function, Label, SharedLabel, Type, TypeId, TypeInner,
};
pub use super::text_size::text_size;
use super::CandidType;
use crate::fasthash::FastMap;
pub use crate::wire::opcode::Opcode;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

thread_local! {
    static ENV: RefCell<FastMap<TypeId, Type>> = RefCell::new(FastMap::default());
    /// Set by the first [`TypeContainer`] of this thread: from then on, computing a
    /// type also records which Rust type it came from and its docs (what naming
    /// needs). A thread that never exports a service never pays for that.
    static NAMING: Cell<bool> = const { Cell::new(false) };
    /// For naming: the Rust type a computed type came from (the shortest type name
    /// wins when several give the same type, as in candid).
    static IDS: RefCell<BTreeMap<Type, TypeId>> = const { RefCell::new(BTreeMap::new()) };
    static DOCS: RefCell<FastMap<TypeId, TypeDoc>> = RefCell::new(FastMap::default());
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
    if NAMING.with(Cell::get) {
        record_name(id, &t, T::_ty_doc());
    }
    t
}

#[cold]
fn record_name(id: TypeId, t: &Type, doc: TypeDoc) {
    IDS.with(|ids| {
        let mut ids = ids.borrow_mut();
        match ids.get_mut(t) {
            Some(old) if old.name.len() <= id.name.len() => {}
            Some(old) => *old = id,
            None => {
                ids.insert(t.clone(), id);
            }
        }
    });
    DOCS.with(|d| d.borrow_mut().insert(id, doc));
}

/// The doc comments of a Rust type whose Candid type was computed while a
/// [`TypeContainer`] was alive on this thread.
pub fn find_type_doc(id: &TypeId) -> Option<TypeDoc> {
    DOCS.with(|d| d.borrow().get(id).cloned())
}

/// The identity of a value's Rust type.
pub fn type_of<T>(_: &T) -> TypeId {
    TypeId::of::<T>()
}

/// Turns the types of Rust values into named `.did` definitions, as
/// `export_service!` needs: every record or variant that a Rust type defines gets
/// that type's name (from [`TypeId`]'s display), recursive references become `Var`s,
/// and the types' doc comments are collected under the same names.
///
/// Creating one clears the per-thread memo and the recorded names, so every type the
/// container meets is computed (and recorded) afresh; recording stays on for the
/// thread afterwards (a container's fields can be moved out, so there is no drop to
/// turn it off at).
pub struct TypeContainer {
    /// The named definitions of every type added so far.
    pub env: super::TypeEnv,
    /// The doc comments of those definitions, under the same names.
    pub docs: TypeDocs,
}

impl Default for TypeContainer {
    fn default() -> Self {
        Self::new()
    }
}

impl TypeContainer {
    /// An empty container; turns naming and recording on for this thread (see the
    /// type's docs).
    pub fn new() -> Self {
        NAMING.with(|n| n.set(true));
        env_clear();
        IDS.with(|ids| ids.borrow_mut().clear());
        DOCS.with(|d| d.borrow_mut().clear());
        TypeContainer {
            env: super::TypeEnv::new(),
            docs: TypeDocs::default(),
        }
    }

    /// The type of `T`, with its named parts moved into [`env`](Self::env).
    pub fn add<T: CandidType>(&mut self) -> Type {
        let t = T::ty();
        self.lift(&t)
    }

    fn lift(&mut self, t: &Type) -> Type {
        super::walk::rebuild(t, self)
    }

    /// `res` under the name of the Rust type that computed `t`, or inline when no
    /// Rust type did (a record written inline in an enum case).
    fn name(&mut self, t: &Type, res: Type) -> Type {
        match IDS.with(|ids| ids.borrow().get(t).copied()) {
            Some(id) => {
                let name = id.to_string();
                self.env.0.insert(name.clone(), res);
                self.remember_doc(&id, &name);
                TypeInner::Var(name).into()
            }
            None => res,
        }
    }

    fn remember_doc(&mut self, id: &TypeId, name: &str) {
        if let Some(doc) = find_type_doc(id).filter(|d| !d.is_empty()) {
            self.docs.named.entry(name.to_string()).or_insert(doc);
        }
    }
}

/// Lifting: knots become names defined in the container, and each record or variant
/// a Rust type defines is named after it once its fields are lifted.
impl super::walk::Rebuild for TypeContainer {
    fn visit(&mut self, t: &Type) -> Option<Type> {
        match t.as_ref() {
            TypeInner::Knot(id) => {
                let name = id.to_string();
                if let Some(def) = find_type(id) {
                    self.env.0.insert(name.clone(), def);
                }
                self.remember_doc(id, &name);
                Some(TypeInner::Var(name).into())
            }
            TypeInner::Opt(_)
            | TypeInner::Vec(_)
            | TypeInner::Record(_)
            | TypeInner::Variant(_)
            | TypeInner::Func(_)
            | TypeInner::Service(_)
            | TypeInner::Class(..) => None,
            _ => Some(t.clone()),
        }
    }
    fn finish(&mut self, orig: &Type, rebuilt: Type) -> Type {
        match orig.as_ref() {
            TypeInner::Record(_) if orig.is_tuple() => rebuilt,
            TypeInner::Record(_) | TypeInner::Variant(_) => self.name(orig, rebuilt),
            _ => rebuilt,
        }
    }
}

/// Budget for a type named in a diagnostic, in characters as [`text_size`]
/// estimates them (candid's): a type over it is named [`ELIDED_TYPE`] instead.
pub(crate) const MAX_DIAGNOSTIC_TYPE_LEN: i32 = 500;

/// What a diagnostic says in place of a type over its budget (candid's words).
pub(crate) const ELIDED_TYPE: &str = "(type elided)";

/// Budget, in bytes, for a list of types in a diagnostic: the entries after it are
/// counted (`... and 3 more`), not printed. A per-type budget alone would let the
/// list grow with its length.
pub(crate) const MAX_DIAGNOSTIC_LIST_LEN: usize = 2048;

/// `t` for a diagnostic: printed when [`text_size`] finds it within
/// [`MAX_DIAGNOSTIC_TYPE_LEN`], else [`ELIDED_TYPE`].
///
/// Types in diagnostics come from wire headers and `.did` files, chosen by whoever
/// sent them; what printing costs follows the type's width and depth, so the size is
/// settled first, at a cost bounded by the budget. The bound holds whatever the
/// caller's settings (`set_full_error_message` included), as in candid 0.10.39. A
/// service constructor, which has no one-line form, is always elided.
pub(crate) fn elide_large(t: &Type) -> impl std::fmt::Display + '_ {
    struct Elided<'a>(&'a Type);
    impl std::fmt::Display for Elided<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            if text_size(self.0, MAX_DIAGNOSTIC_TYPE_LEN).is_ok() {
                write!(f, "{}", self.0)
            } else {
                f.write_str(ELIDED_TYPE)
            }
        }
    }
    Elided(t)
}

/// An argument list for a diagnostic, `(nat, text)`: each type as
/// [`elide_large`] gives it, and once the text reaches
/// [`MAX_DIAGNOSTIC_LIST_LEN`], a count of the rest (`(nat, ... and 19999 more)`).
pub(crate) fn elide_args(args: &[Type]) -> String {
    use std::fmt::Write;
    let mut out = String::from("(");
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if out.len() >= MAX_DIAGNOSTIC_LIST_LEN {
            let _ = write!(out, "... and {} more", args.len() - i);
            break;
        }
        let _ = write!(out, "{}", elide_large(arg));
    }
    out.push(')');
    out
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

/// `t` with every `Knot` replaced by the type it stands for, recursively (candid's
/// `unroll`). A knot whose type is not in this thread's memo stays as it is.
///
/// Only for types computed from Rust types (finite trees cut at knots): the result
/// unfolds one level of each recursion.
pub fn unroll(t: &Type) -> Type {
    struct Unroll;
    impl super::walk::Rebuild for Unroll {
        fn visit(&mut self, t: &Type) -> Option<Type> {
            match t.as_ref() {
                TypeInner::Knot(id) => Some(find_type(id).unwrap_or_else(|| t.clone())),
                TypeInner::Opt(_)
                | TypeInner::Vec(_)
                | TypeInner::Record(_)
                | TypeInner::Variant(_) => None,
                _ => Some(t.clone()),
            }
        }
    }
    super::walk::rebuild(t, &mut Unroll)
}
