//! The Candid type model: the public shapes candid exposes (`Type`, `TypeInner`,
//! `Field`, `Label`, …) so that hand-written `CandidType` impls keep compiling after
//! `use candor as candid;`.
//!
//! `Type` is an `Rc` tree because that is the public API; the decoder never walks it
//! on the hot path: it flattens each expected type once into an index arena
//! (`de::expect`).

use super::hash::idl_hash;
use std::fmt;
use std::rc::Rc;

/// Identity of a Rust type, without the `'static` bound of `std::any::TypeId`
/// (Candid types of borrowed data such as `&str` need one too).
///
/// The address of a monomorphised function is unique per type parameter, and the
/// function's body differs per type (it names the type), so the linker cannot fold
/// two of them together.
#[derive(Debug, Clone, Copy, Default)]
pub struct TypeId {
    id: usize,
    /// `std::any::type_name` of the type, for diagnostics.
    pub name: &'static str,
}

// Identity is the address alone: comparing or hashing the name would cost a string
// walk on every cache lookup, and adds nothing since the address is unique.
impl PartialEq for TypeId {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for TypeId {}
impl std::hash::Hash for TypeId {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_usize(self.id);
    }
}
impl PartialOrd for TypeId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for TypeId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id.cmp(&other.id)
    }
}

impl TypeId {
    /// The address that identifies the type (what equality compares).
    #[inline]
    pub(crate) fn address(self) -> usize {
        self.id
    }
    /// The identity of `T`.
    pub fn of<T: ?Sized>() -> Self {
        TypeId {
            id: anchor::<T> as fn() -> &'static str as usize,
            name: std::any::type_name::<T>(),
        }
    }
}

/// The function whose address is `T`'s identity. Never inlined: the compiler makes a
/// copy of a function it may inline in each part of a crate that uses it (and, on its
/// own, deems a body this small inlinable), which would give one type several
/// addresses, and every cache keyed by them a miss per copy. A function never
/// inlined has one copy per crate. Its body names `T`, so no two are folded.
#[inline(never)]
fn anchor<T: ?Sized>() -> &'static str {
    std::any::type_name::<T>()
}

/// A Rust type's name as Candid text writes it: the last path segment without
/// generics, other characters than ASCII letters and digits as `_` (trailing ones
/// dropped), and `_1`, `_2`… for the second, third… distinct Rust type with that
/// name on this thread. These are the names `export_service!` gives to definitions,
/// so they follow candid's rule exactly.
impl fmt::Display for TypeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&type_name(self))
    }
}

#[derive(Default)]
struct TypeNames {
    by_id: std::collections::BTreeMap<TypeId, String>,
    /// How many distinct types took each base name so far, minus one.
    taken: std::collections::BTreeMap<String, usize>,
}

thread_local! {
    static NAMES: std::cell::RefCell<TypeNames> = std::cell::RefCell::new(TypeNames::default());
}

fn type_name(id: &TypeId) -> String {
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        if let Some(n) = names.by_id.get(id) {
            return n.clone();
        }
        let base = id.name.split('<').next().unwrap_or(id.name);
        let base = base.rsplit("::").next().unwrap_or(base);
        let base: String = base
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let base = base.trim_end_matches('_').to_string();
        let name = match names.taken.get_mut(&base) {
            None => {
                names.taken.insert(base.clone(), 0);
                base
            }
            Some(n) => {
                *n += 1;
                format!("{base}_{n}")
            }
        };
        names.by_id.insert(*id, name.clone());
        name
    })
}

/// A record field or variant case label.
#[derive(Debug, Clone)]
pub enum Label {
    /// A numeric id written as such (`0 : nat`).
    Id(u32),
    /// A name; its id is [`idl_hash`] of the name.
    Named(String),
    /// A positional field of a tuple (`record { nat; text }`).
    Unnamed(u32),
}

impl Label {
    /// The 32-bit id that goes on the wire.
    pub fn get_id(&self) -> u32 {
        match self {
            Label::Id(n) | Label::Unnamed(n) => *n,
            Label::Named(n) => idl_hash(n),
        }
    }
}

// Labels compare by id only: that is what the wire sees.
impl PartialEq for Label {
    fn eq(&self, other: &Self) -> bool {
        self.get_id() == other.get_id()
    }
}
impl Eq for Label {}
impl PartialOrd for Label {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Label {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.get_id().cmp(&other.get_id())
    }
}
impl std::hash::Hash for Label {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u32(self.get_id());
    }
}

impl fmt::Display for Label {
    /// Prints the label as candid 0.10.39's type printer does (`pp_label_raw`): a
    /// name that is a plain identifier and not a Candid keyword is printed bare;
    /// anything else (keywords such as `type`, non-identifiers such as `with space`)
    /// is quoted with `str::escape_debug`, e.g. `"type" : nat8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Id(n) | Label::Unnamed(n) => write!(f, "{n}"),
            Label::Named(name) => f.write_str(&ident_string(name)),
        }
    }
}

/// The words candid's printer quotes when they are labels (`KEYWORDS` in candid
/// 0.10.39's `pretty/candid.rs`). A `match`, not a list search: every printed
/// record field and variant case asks.
fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "import"
            | "service"
            | "func"
            | "type"
            | "opt"
            | "vec"
            | "record"
            | "variant"
            | "blob"
            | "principal"
            | "nat"
            | "nat8"
            | "nat16"
            | "nat32"
            | "nat64"
            | "int"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "float32"
            | "float64"
            | "bool"
            | "text"
            | "null"
            | "reserved"
            | "empty"
            | "oneway"
            | "query"
            | "composite_query"
    )
}

fn is_plain_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether a name is written as is in Candid text (not quoted).
pub(crate) fn is_plain_label(id: &str) -> bool {
    is_plain_ident(id) && !is_keyword(id)
}

/// A name as Candid text writes it: as is when it is an identifier and not a
/// keyword, else quoted (candid's `ident_string`). Shared by the type printer, the
/// value printer and the parser's printer so all three quote alike.
pub fn ident_string(id: &str) -> String {
    if is_plain_label(id) {
        id.to_string()
    } else {
        format!("\"{}\"", id.escape_debug())
    }
}

/// Labels are shared between the many types that mention them.
pub type SharedLabel = Rc<Label>;

/// A record field or variant case.
#[derive(Debug, PartialEq, Eq, Hash, Clone, PartialOrd, Ord)]
pub struct Field {
    /// The field's name or number; the number (a name's hash) orders fields on the wire.
    pub id: SharedLabel,
    /// The field's type.
    pub ty: Type,
}

/// Function annotations.
#[derive(Debug, PartialEq, Eq, Hash, Clone, PartialOrd, Ord)]
pub enum FuncMode {
    /// `oneway`: the caller gets no reply.
    Oneway,
    /// `query`: runs without committing state changes.
    Query,
    /// `composite_query`: a query that may call other queries.
    CompositeQuery,
}

/// A function type.
#[derive(Debug, PartialEq, Eq, Hash, Clone, PartialOrd, Ord)]
pub struct Function {
    /// The annotations after the result types, in the order written.
    pub modes: Vec<FuncMode>,
    /// The argument types.
    pub args: Vec<Type>,
    /// The result types.
    pub rets: Vec<Type>,
}

impl Function {
    /// True for `query` and `composite_query` methods.
    pub fn is_query(&self) -> bool {
        self.modes
            .iter()
            .any(|m| matches!(m, FuncMode::Query | FuncMode::CompositeQuery))
    }
}

/// A Candid type (shared, immutable).
///
/// Comparing, hashing, printing and dropping a type never recurse once per level
/// (`types::walk`, `Debug` below): a type built from untrusted input may be deeper
/// than the stack.
#[derive(PartialEq, Eq, Hash, Clone)]
pub struct Type(pub Rc<TypeInner>);

impl Drop for Type {
    /// A shared type only loses an owner and a leaf has nothing below it (the
    /// common cases, checked inline); the last owner of a composite type takes the
    /// tree apart without deep recursion.
    #[inline]
    fn drop(&mut self) {
        if Rc::strong_count(&self.0) == 1 && super::walk::has_children(&self.0) {
            super::walk::dismantle(self);
        }
    }
}

/// As derived (`Type(Nat)`), with subtrees past a bounded depth printed as `…`.
impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match super::walk::PrintDepth::enter() {
            Some(_level) => f.debug_tuple("Type").field(&self.0).finish(),
            None => f.write_str("…"),
        }
    }
}

impl PartialOrd for Type {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Type {
    /// Structural order; one shared type is equal to itself without a walk of its
    /// subtree (memoized types are shared, so this is the common case of equality).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Rc::ptr_eq(&self.0, &other.0) {
            std::cmp::Ordering::Equal
        } else {
            self.0.cmp(&other.0)
        }
    }
}

/// The shape of a Candid type.
///
/// `PartialEq`, `Eq`, `PartialOrd`, `Ord` and `Hash` are those a derive would give,
/// computed without recursion (`types::walk`).
#[derive(Debug, Clone)]
pub enum TypeInner {
    /// `null`: the type whose one value is `null`.
    Null,
    /// `bool`: one byte, 0 or 1.
    Bool,
    /// `nat`: an unbounded natural number (LEB128 on the wire).
    Nat,
    /// `int`: an unbounded integer (SLEB128 on the wire).
    Int,
    /// `nat8`: an 8-bit unsigned integer.
    Nat8,
    /// `nat16`: a 16-bit unsigned integer.
    Nat16,
    /// `nat32`: a 32-bit unsigned integer.
    Nat32,
    /// `nat64`: a 64-bit unsigned integer.
    Nat64,
    /// `int8`: an 8-bit signed integer.
    Int8,
    /// `int16`: a 16-bit signed integer.
    Int16,
    /// `int32`: a 32-bit signed integer.
    Int32,
    /// `int64`: a 64-bit signed integer.
    Int64,
    /// `float32`: an IEEE 754 single-precision number.
    Float32,
    /// `float64`: an IEEE 754 double-precision number.
    Float64,
    /// `text`: a UTF-8 string.
    Text,
    /// `reserved`: any value, ignored; every type is a subtype of it.
    Reserved,
    /// `empty`: the type with no values.
    Empty,
    /// A back reference to a Rust type whose type is being computed (recursion).
    Knot(TypeId),
    /// A named type of a [`TypeEnv`](super::TypeEnv) (from a `.did` file or a wire
    /// type table).
    Var(String),
    /// Placeholder while a recursive Rust type is computed; never in a finished type.
    Unknown,
    /// `opt t`: a value of `t` or none.
    Opt(Type),
    /// `vec t`: a sequence of values of `t` (`vec nat8` is a blob).
    Vec(Type),
    /// `record { … }`: labelled fields, all present.
    Record(Vec<Field>),
    /// `variant { … }`: labelled cases, one present.
    Variant(Vec<Field>),
    /// `func (…) -> (…)`: a reference to a method of a canister.
    Func(Function),
    /// `service { … }`: a reference to a canister, with its methods' names and types.
    Service(Vec<(String, Type)>),
    /// An actor class: init arguments and the service type.
    Class(Vec<Type>, Type),
    /// `principal`: a canister or user id.
    Principal,
    /// A type from a future version of Candid (opcode < -24), skipped on decode.
    Future,
}

impl PartialEq for TypeInner {
    fn eq(&self, other: &Self) -> bool {
        super::walk::compare(self, other) == std::cmp::Ordering::Equal
    }
}
impl Eq for TypeInner {}
impl PartialOrd for TypeInner {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for TypeInner {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        super::walk::compare(self, other)
    }
}
impl std::hash::Hash for TypeInner {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        super::walk::hash(self, state);
    }
}

impl std::ops::Deref for Type {
    type Target = TypeInner;
    fn deref(&self) -> &TypeInner {
        &self.0
    }
}
impl AsRef<TypeInner> for Type {
    fn as_ref(&self) -> &TypeInner {
        &self.0
    }
}
impl From<TypeInner> for Type {
    fn from(t: TypeInner) -> Self {
        Type(Rc::new(t))
    }
}

impl TypeInner {
    /// A record whose field ids are 0, 1, 2… (a tuple).
    pub fn is_tuple(&self) -> bool {
        match self {
            TypeInner::Record(fs) => fs
                .iter()
                .enumerate()
                .all(|(i, f)| f.id.get_id() == i as u32),
            _ => false,
        }
    }
    /// `vec nat8`.
    pub fn is_blob(&self, env: &super::TypeEnv) -> bool {
        match self {
            TypeInner::Vec(t) => env
                .trace_type(t)
                .map(|t| *t == TypeInner::Nat8)
                .unwrap_or(false),
            _ => false,
        }
    }
}

impl Type {
    /// [`TypeInner::is_tuple`] of the shape behind the `Rc`.
    pub fn is_tuple(&self) -> bool {
        self.0.is_tuple()
    }
    /// [`TypeInner::is_blob`] of the shape behind the `Rc`.
    pub fn is_blob(&self, env: &super::TypeEnv) -> bool {
        self.0.is_blob(env)
    }
}

/// True for types that are written inline in a type table (no table entry): the
/// primitives, and knots, which point back to an entry.
pub fn is_primitive(t: &Type) -> bool {
    use TypeInner::*;
    matches!(
        t.as_ref(),
        Null | Bool
            | Nat
            | Int
            | Nat8
            | Nat16
            | Nat32
            | Nat64
            | Int8
            | Int16
            | Int32
            | Int64
            | Float32
            | Float64
            | Text
            | Reserved
            | Empty
            | Principal
            | Knot(_)
    )
}

impl Type {
    /// `self` with the names of `tau`'s keys replaced by its values (every `Var` and
    /// the `Var`s inside), as [`TypeEnv::merge_type`](super::TypeEnv::merge_type) needs.
    pub fn subst(&self, tau: &std::collections::BTreeMap<String, String>) -> Self {
        struct Rename<'a>(&'a std::collections::BTreeMap<String, String>);
        impl super::walk::Rebuild for Rename<'_> {
            fn visit(&mut self, t: &Type) -> Option<Type> {
                match t.as_ref() {
                    TypeInner::Var(id) => Some(match self.0.get(id) {
                        Some(new) => TypeInner::Var(new.clone()).into(),
                        None => t.clone(),
                    }),
                    _ => None,
                }
            }
        }
        super::walk::rebuild(self, &mut Rename(tau))
    }
}
