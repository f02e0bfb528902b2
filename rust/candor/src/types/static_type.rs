//! Static descriptions of Candid types, written at compile time.
//!
//! [`CandidType::_static_type`] returns one for the types the derive writes and for
//! the std types candor implements. The decoder interns an argument type from it
//! (`de/expect.rs`) instead of building the type's `Type` tree with
//! [`CandidType::ty`] and interning that: the first call of a method then pays only
//! for a walk over these constants. The description holds what interning reads and
//! nothing more: node kinds, field ids already hashed, labels, and which Rust type
//! each node belongs to (so a type reached twice, or recursively, is placed once, as
//! `ty()`'s memo does).
//!
//! A type the derive cannot describe, and every hand-written `CandidType`, returns
//! `None` and keeps the `ty()` path.

use super::{CandidType, TypeId};

/// The primitive types: the arena's own enum, so placing a described primitive
/// needs no mapping.
#[doc(hidden)]
pub use crate::wire::header::Prim;

/// A reference from a description to the type of a field or element.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum StaticRef {
    /// Another Rust type, by its `CandidType` impl: the link carries no structure,
    /// so a description can name a type it cannot see (a generic parameter, or a
    /// type defined later), and recursion needs nothing special.
    Link(Link),
    /// A type with no Rust type of its own (a variant's record payload, a map's
    /// entry): placed once per placement of the description that holds it, as
    /// `ty()` builds it once per computation of its owner.
    Inline(&'static StaticType),
}

/// A Rust type seen from a description: its description and its memo identity.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Link {
    /// The type's description (`None`: the type has none, and the whole argument
    /// type is interned from `ty()`).
    pub ty: fn() -> Option<&'static StaticType>,
    /// [`CandidType::id`]: what `ty()` memoises the type under.
    pub id: fn() -> TypeId,
}

/// A description of one type: its node, and the Rust type whose `_ty()` builds that
/// node (`None` for inline ones). A transparent type (`Box<T>`, a newtype) has no
/// description of its own: it returns its inner type's.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct StaticType {
    /// The owner's [`CandidType::id`]; `None` for a primitive or an inline node.
    pub owner: Option<fn() -> TypeId>,
    /// The node.
    pub kind: StaticKind,
}

/// The node kinds a description can hold: the ones `ty()` of a derived or std type
/// gives, and the functions and services `define_function!` and `define_service!`
/// give.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum StaticKind {
    /// A primitive type.
    Prim(Prim),
    /// `opt t`.
    Opt(StaticRef),
    /// `vec t`.
    Vec(StaticRef),
    /// A record, fields in the order `ty()` lists them.
    Record(&'static [StaticField]),
    /// A variant, cases in the order `ty()` lists them.
    Variant(&'static [StaticField]),
    /// A function type.
    Func(&'static StaticFunc),
    /// A service type, methods sorted by name as `ty()` sorts them (made by
    /// [`sort_methods`]).
    Service(&'static [StaticMethod]),
}

/// A function type: what `func!` builds.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct StaticFunc {
    /// The argument types.
    pub args: &'static [StaticRef],
    /// The result types.
    pub rets: &'static [StaticRef],
    /// The one mode `func!` allows, as a type table writes it (1 `query`, 2
    /// `oneway`, 3 `composite_query`), or 0 for none.
    pub mode: u8,
}

/// A service's method: its name and its (function) type.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct StaticMethod {
    /// The method's name.
    pub name: &'static str,
    /// Its type.
    pub ty: StaticRef,
}

/// Whether `a` sorts before `b` as `String`'s order sorts them (byte-wise).
const fn name_less(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// `methods` sorted by name, as `service!` sorts them when `ty()` runs (computed by
/// the compiler: a stable insertion sort).
#[doc(hidden)]
pub const fn sort_methods<const N: usize>(mut methods: [StaticMethod; N]) -> [StaticMethod; N] {
    let mut i = 1;
    while i < N {
        let mut j = i;
        while j > 0 && name_less(methods[j].name, methods[j - 1].name) {
            let t = methods[j];
            methods[j] = methods[j - 1];
            methods[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    methods
}

/// Whether sorted `methods` has two of one name: `service!` panics then, and such a
/// service has no description, so that `ty()` does.
#[doc(hidden)]
pub const fn has_duplicate(methods: &[StaticMethod]) -> bool {
    let mut i = 1;
    while i < methods.len() {
        let (a, b) = (methods[i - 1].name, methods[i].name);
        if !name_less(a, b) && !name_less(b, a) {
            return true;
        }
        i += 1;
    }
    false
}

/// A record field or a variant case, made by [`StaticField::new`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct StaticField {
    /// The Candid id (`idl_hash` of a name, or a position).
    pub id: u32,
    /// How `ty()` labels it.
    pub label: StaticLabel,
    /// Its type.
    pub ty: StaticRef,
    /// The id's LEB128 bytes (low bytes first) and, in the top byte, how many there
    /// are: what a type table writes for the id, computed by the compiler. The
    /// derive writes it as a literal (an argument of a `const fn` call would keep a
    /// description's inline payload from being promoted to a constant); everyone
    /// else calls [`StaticField::new`].
    pub leb: u64,
}

impl StaticField {
    /// A field or case with id `id`.
    pub const fn new(id: u32, label: StaticLabel, ty: StaticRef) -> StaticField {
        StaticField {
            id,
            label,
            ty,
            leb: leb_word(id),
        }
    }

    /// A field or case named `name`, as a hand-written `ty()` lists it by name.
    pub const fn named(name: &'static str, ty: StaticRef) -> StaticField {
        Self::new(super::idl_hash(name), StaticLabel::Named(name), ty)
    }
}

/// `id` in LEB128 (at most five bytes), with the byte count in the top byte: a
/// [`StaticField`]'s `leb`.
#[doc(hidden)]
pub const fn leb_word(id: u32) -> u64 {
    let mut v = id;
    let mut word = 0u64;
    let mut n = 0u64;
    loop {
        let group = (v & 0x7f) as u64;
        v >>= 7;
        if v == 0 {
            word |= group << (8 * n);
            n += 1;
            return word | n << 56;
        }
        word |= (group | 0x80) << (8 * n);
        n += 1;
    }
}

/// A field's label as `ty()` gives it ([`Label`](super::Label) without the id).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum StaticLabel {
    /// `Label::Named`.
    Named(&'static str),
    /// `Label::Id`.
    Id,
    /// `Label::Unnamed`.
    Unnamed,
}

/// The link to `T` (what a description names a field's type by).
#[doc(hidden)]
pub const fn link<T: CandidType + ?Sized>() -> StaticRef {
    StaticRef::Link(Link {
        ty: T::_static_type,
        id: T::id,
    })
}

impl StaticType {
    /// A primitive's description.
    pub const fn prim(p: Prim) -> StaticType {
        StaticType {
            owner: None,
            kind: StaticKind::Prim(p),
        }
    }
}
