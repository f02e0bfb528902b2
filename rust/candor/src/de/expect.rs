//! Expected types, flattened once per Rust type into the same arena layout as wire
//! types.
//!
//! `T::ty()` is an `Rc` tree whose recursion goes through `Knot`s; walking it on
//! every value would cost more than decoding. Instead each expected type is interned
//! once per thread into an append-only [`Arena`]; the decoder holds an `Rc` of it.
//! Interning a type nobody has seen yet, while a decode holds the arena, copies it
//! (`Rc::make_mut`): that happens once per new type, never on the steady path.

mod fields;
mod installed;
mod memo;

use super::quota;
use crate::error::{Error, Result};
use crate::fasthash::FastMap;
use crate::types::static_type::{StaticField, StaticFunc, StaticKind, StaticMethod, StaticRef};
use crate::types::walk::{StackMark, STACK_CHECK_EVERY};
use crate::types::StaticType;
use crate::types::{internal, Label, Type, TypeEnv, TypeId, TypeInner};
use crate::wire::header::{Arena, FieldLabel, FuncEntry, Node, Prim, Ref, Span, PRIM_COUNT};
use crate::wire::inline_vec::InlineVec;
use fields::{finish_fields, reserve_fields, reserve_static_fields, set_field_type};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Default)]
struct Interner {
    arena: Rc<Arena>,
    /// Root reference per Rust type; `None` for types without a Candid type of their
    /// own (`IDLValue`), which decode at the wire type. A canister decodes a handful
    /// of argument types: the first ones live inline (a scan of a few words, and no
    /// allocation on the first call of a fresh instance), the rest in a map.
    roots_small: InlineVec<(TypeId, Option<Ref>), 8>,
    roots: FastMap<TypeId, Option<Ref>>,
    /// Node per `Rc<TypeInner>` address, with the `Rc` itself, so an address is
    /// never reused for another type while it is in this map.
    by_ptr: FastMap<usize, (u32, Type)>,
    /// An empty arena a decoder holds while a new type is interned, so its clone of
    /// `arena` does not force `Rc::make_mut` to copy the whole arena. Made on first
    /// need.
    placeholder: Option<Rc<Arena>>,
    /// Where the stack was when the current interning began: flattening recurses
    /// once per level of a type, which a caller of `get_value_with_type` chooses.
    stack: StackMark,
    /// Placing from static descriptions: per Rust type, what it placed as (`ty()`'s
    /// memo). A type that owns a description maps to its node, which is still being
    /// placed while it holds the placeholder: a mention then is a knot.
    placed: memo::Memo,
}

/// The depths at which flattening tests its bounds: one in every
/// [`STACK_CHECK_EVERY`], aligned so that the first depth past
/// [`quota::MAX_EXPECTED_DEPTH`] is one of them (a level pays one test, and the walk
/// stops at the same depth as with a test at every level). The first few levels,
/// which every type has, are not measured: their frames fit in the stack margins.
const CHECK_AT: usize = (quota::MAX_EXPECTED_DEPTH + 1) % STACK_CHECK_EVERY;

thread_local! {
    static INTERNER: RefCell<Interner> = RefCell::new(Interner {
        arena: Rc::new(Arena::new()),
        ..Default::default()
    });
}

/// The thread's arena of expected types, shared (an `Rc` clone): what a new decoder
/// holds before its first argument, so creating one allocates nothing.
pub(crate) fn shared_arena() -> Rc<Arena> {
    INTERNER.with(|cell| cell.borrow().arena.clone())
}

/// The root reference of `T`'s expected type, with `held` (the decoder's arena)
/// set to the arena it is in; or `None`, `held` untouched, when `T` takes whatever
/// type the wire has (its Candid type is `Unknown`, as `IDLValue`'s).
pub(crate) fn of<T: crate::types::CandidType + ?Sized>(
    held: &mut Rc<Arena>,
) -> Result<Option<Ref>> {
    let id = TypeId::of::<T>();
    INTERNER.with(|cell| {
        let mut it = cell.borrow_mut();
        if let Some(r) = it.root(id) {
            if r.is_some() && !Rc::ptr_eq(held, &it.arena) {
                *held = it.arena.clone();
            }
            return Ok(r);
        }
        if let Some(desc) = T::_static_type() {
            let shared = it.let_go(held);
            if let Some(r) = it.place_root(T::id(), desc) {
                it.add_root(id, Some(r));
                *held = it.arena.clone();
                return Ok(Some(r));
            }
            if shared {
                *held = it.arena.clone();
            }
        }
        let ty = T::ty();
        if *ty == TypeInner::Unknown {
            it.add_root(id, None);
            return Ok(None);
        }
        it.let_go(held);
        let r = it.intern(&ty, None)?;
        it.add_root(id, Some(r));
        *held = it.arena.clone();
        Ok(Some(r))
    })
}

pub(crate) use installed::install_known;

/// The arena and root reference of a type given at run time (with the definitions
/// of its `Var`s in `env`). Built in a private arena: run-time types have no Rust
/// identity to cache them by, and interning them into the shared arena would grow it
/// with every call.
pub(crate) fn of_type(env: &TypeEnv, ty: &Type) -> Result<(Rc<Arena>, Ref)> {
    let mut it = Interner::default();
    let r = it.intern(ty, Some(env))?;
    Ok((it.arena, r))
}

/// Hidden, for the differential tests: `T`'s expected type interned into a fresh
/// arena, from its static description (`via_static`, `None` if it has none) or from
/// `ty()` computed afresh, printed node for node with its root.
#[doc(hidden)]
pub fn expected_arena_dump<T: crate::types::CandidType + ?Sized>(
    via_static: bool,
) -> Option<String> {
    let mut it = Interner::default();
    let r = if via_static {
        it.place_root(T::id(), T::_static_type()?)?
    } else {
        internal::env_clear();
        it.intern(&T::ty(), None).ok()?
    };
    let a = &it.arena;
    Some(format!(
        "root {r:?}\nnodes {:?}\nfields {:?}\nlabels {:?}\nfuncs {:?}\nmethods {:?}",
        a.nodes, a.fields, a.labels, a.funcs, a.methods
    ))
}

impl Interner {
    /// Before the shared arena grows: every holder but the interner lets go of it,
    /// so `Rc::make_mut` grows it in place instead of copying it. The decoder
    /// (`held`, when it holds the shared arena; the answer says whether it did) and
    /// the decode states kept for the next messages take the placeholder meanwhile.
    fn let_go(&mut self, held: &mut Rc<Arena>) -> bool {
        let shared = Rc::ptr_eq(held, &self.arena);
        if shared {
            drop(std::mem::replace(held, self.placeholder()));
        }
        self.park_holders();
        shared
    }

    /// Lets every holder of the shared arena but a live decoder go of it before it
    /// grows ([`let_go`](Self::let_go) with no decoder of its own).
    fn park_holders(&mut self) {
        if Rc::strong_count(&self.arena) > 1 {
            super::header_cache::park_expected(&self.placeholder());
        }
    }

    /// The empty arena holders take while the shared one grows, made on first need.
    fn placeholder(&mut self) -> Rc<Arena> {
        self.placeholder
            .get_or_insert_with(|| Rc::new(Arena::new()))
            .clone()
    }

    /// The cached root of a Rust type: `None` if not interned yet, `Some(None)` for
    /// a type decoded at the wire type.
    #[inline]
    fn root(&self, id: TypeId) -> Option<Option<Ref>> {
        if let Some(&(_, r)) = self.roots_small.as_slice().iter().find(|(k, _)| *k == id) {
            return Some(r);
        }
        self.roots.get(&id).copied()
    }

    fn add_root(&mut self, id: TypeId, r: Option<Ref>) {
        if self.roots_small.len() < 8 {
            self.roots_small.push((id, r));
        } else {
            self.roots.insert(id, r);
        }
    }

    fn intern(&mut self, t: &Type, env: Option<&TypeEnv>) -> Result<Ref> {
        self.stack = StackMark::here();
        let mut vars: HashMap<String, u32> = HashMap::new();
        self.flatten(t, env, &mut vars, 0)
    }

    fn push(&mut self, node: Node) -> u32 {
        Rc::make_mut(&mut self.arena).push_node(node)
    }

    fn set(&mut self, idx: u32, node: Node) {
        Rc::make_mut(&mut self.arena).set_node(idx, node);
    }

    /// Flattens `t` into the arena: primitives are their fixed references, `Knot`s
    /// and `Var`s become references with the var bit (the cost of resolving them),
    /// and every other form a node of its own.
    fn flatten(
        &mut self,
        t: &Type,
        env: Option<&TypeEnv>,
        vars: &mut HashMap<String, u32>,
        depth: usize,
    ) -> Result<Ref> {
        if depth % STACK_CHECK_EVERY == CHECK_AT
            && depth > STACK_CHECK_EVERY
            && (depth > quota::MAX_EXPECTED_DEPTH || self.stack.exhausted())
        {
            return Err(Error::msg("expected type nests too deeply"));
        }
        if let Some(p) = prim_of(t.as_ref()) {
            return Ok(Ref::prim(p));
        }
        match t.as_ref() {
            TypeInner::Knot(id) => {
                let target = internal::find_type(id)
                    .ok_or_else(|| Error::msg(format!("recursive type {id} not computed")))?;
                let r = self.flatten(&target, env, vars, depth + 1)?;
                Ok(r.as_var())
            }
            TypeInner::Var(name) => self.var(name, env, vars, depth),
            TypeInner::Unknown | TypeInner::Future | TypeInner::Class(..) => {
                Err(Error::msg(format!("{t} cannot be an expected type")))
            }
            _ => self.constructor(t, env, vars, depth),
        }
    }

    /// A type named in `env`: one node per name, reserved before its definition is
    /// flattened so recursive mentions point back to it. Aliases of primitives
    /// resolve to the primitive itself.
    fn var(
        &mut self,
        name: &str,
        env: Option<&TypeEnv>,
        vars: &mut HashMap<String, u32>,
        depth: usize,
    ) -> Result<Ref> {
        if let Some(&idx) = vars.get(name) {
            return Ok(Ref::new(idx, true).hinted_in(&self.arena.nodes));
        }
        let env = env.ok_or_else(|| Error::msg(format!("unbound type {name}")))?;
        let def = env.find_type(name)?.clone();
        if let Ok(resolved) = env.rec_find_type(name) {
            if crate::types::is_primitive(resolved) {
                let r = self.flatten(&resolved.clone(), Some(env), vars, depth + 1)?;
                return Ok(r.as_var());
            }
        }
        let idx = self.push(Node::Prim(Prim::Empty));
        vars.insert(name.to_string(), idx);
        let r = self.flatten(&def, Some(env), vars, depth + 1)?;
        let node = self.arena.node(r);
        self.set(idx, node);
        Ok(Ref::new(idx, true).hinted(node))
    }

    /// `opt`, `vec`, records, variants, functions and services: one node per `Rc`,
    /// reserved first, so a knot inside points back here through `by_ptr`.
    fn constructor(
        &mut self,
        t: &Type,
        env: Option<&TypeEnv>,
        vars: &mut HashMap<String, u32>,
        depth: usize,
    ) -> Result<Ref> {
        let key = Rc::as_ptr(&t.0) as usize;
        if let Some(&(idx, _)) = self.by_ptr.get(&key) {
            return Ok(Ref::new(idx, false).hinted_in(&self.arena.nodes));
        }
        let idx = self.push(Node::Prim(Prim::Empty));
        self.by_ptr.insert(key, (idx, t.clone()));
        let node = match t.as_ref() {
            TypeInner::Opt(inner) => Node::Opt(self.flatten(inner, env, vars, depth + 1)?),
            TypeInner::Vec(inner) => Node::Vec(self.flatten(inner, env, vars, depth + 1)?),
            TypeInner::Record(fs) => Node::Record(self.fields(t, fs, env, vars, depth)?),
            TypeInner::Variant(fs) => Node::Variant(self.fields(t, fs, env, vars, depth)?),
            TypeInner::Func(f) => self.func(f, env, vars, depth)?,
            TypeInner::Service(ms) => self.service(ms, env, vars, depth)?,
            _ => Node::Prim(Prim::Empty),
        };
        self.set(idx, node);
        Ok(Ref::new(idx, false).hinted(node))
    }

    /// The fields of record or variant `t`, sorted by id (a collision is an error),
    /// with how each was labelled in Rust beside them. Their span is reserved before
    /// their types are flattened, as the placing reserves it (see `place_fields`).
    fn fields(
        &mut self,
        t: &Type,
        fs: &[crate::types::Field],
        env: Option<&TypeEnv>,
        vars: &mut HashMap<String, u32>,
        depth: usize,
    ) -> Result<Span> {
        let (start, sorted) = reserve_fields(
            Rc::make_mut(&mut self.arena),
            fs.iter().map(|f| {
                let label = match f.id.as_ref() {
                    Label::Named(n) => FieldLabel::Named(n.clone().into()),
                    Label::Unnamed(_) => FieldLabel::Unnamed,
                    Label::Id(_) => FieldLabel::Id,
                };
                (f.id.get_id(), label)
            }),
        );
        for (i, f) in fs.iter().enumerate() {
            let ty = self.flatten(&f.ty, env, vars, depth + 1)?;
            set_field_type(Rc::make_mut(&mut self.arena), start + i, ty);
        }
        finish_fields(Rc::make_mut(&mut self.arena), start, fs.len(), sorted)
            .ok_or_else(|| Error::msg(format!("field id collision in {t}")))
    }

    fn func(
        &mut self,
        f: &crate::types::Function,
        env: Option<&TypeEnv>,
        vars: &mut HashMap<String, u32>,
        depth: usize,
    ) -> Result<Node> {
        let args = f
            .args
            .iter()
            .map(|a| self.flatten(a, env, vars, depth + 1))
            .collect::<Result<std::vec::Vec<_>>>()?;
        let rets = f
            .rets
            .iter()
            .map(|a| self.flatten(a, env, vars, depth + 1))
            .collect::<Result<std::vec::Vec<_>>>()?;
        use crate::types::FuncMode;
        let mode = match f.modes.first() {
            None => 0,
            Some(FuncMode::Query) => 1,
            Some(FuncMode::Oneway) => 2,
            Some(FuncMode::CompositeQuery) => 3,
        };
        let arena = Rc::make_mut(&mut self.arena);
        arena.funcs.push(FuncEntry { args, rets, mode });
        Ok(Node::Func(arena.funcs.len() as u32 - 1))
    }

    /// A service's methods, sorted by name.
    fn service(
        &mut self,
        ms: &[(String, Type)],
        env: Option<&TypeEnv>,
        vars: &mut HashMap<String, u32>,
        depth: usize,
    ) -> Result<Node> {
        let mut entries = std::vec::Vec::with_capacity(ms.len());
        for (name, ty) in ms {
            entries.push((
                name.as_str().into(),
                self.flatten(ty, env, vars, depth + 1)?,
            ));
        }
        entries.sort_by(|a: &(Box<str>, Ref), b| a.0.cmp(&b.0));
        let arena = Rc::make_mut(&mut self.arena);
        let span = Span {
            start: arena.methods.len() as u32,
            len: entries.len() as u32,
        };
        arena.methods.extend(entries);
        Ok(Node::Service(span))
    }
}

/// Interning from static descriptions (`types/static_type.rs`): the same nodes, in
/// the same order, as flattening the `ty()` that a fresh memo computes. A
/// description is placed once per owner, as `ty()` memoises one `Rc` per Rust type;
/// a link to a type still being placed is a knot (a reference with the var bit), and
/// a link to a type placed before gives what that type placed as, as `ty()`'s memo
/// returns a `Knot` for a transparent type first computed inside its own recursion.
impl Interner {
    /// `d`, the description of the Rust type `id`, placed; `None` (the arena as it
    /// was) if a type it reaches has no description or it nests too deeply, and the
    /// caller interns `ty()` instead, which reports the depth.
    fn place_root(&mut self, id: TypeId, d: &'static StaticType) -> Option<Ref> {
        if let StaticKind::Prim(p) = d.kind {
            // A primitive is its fixed reference: the arena is not touched.
            return Some(Ref::prim(p));
        }
        // One `Rc::make_mut` for the whole placing, which then writes the arena's
        // vectors through a plain borrow (no reference-count test per node or
        // record). The arena is copied here if another holder still has it (a
        // nested decode).
        let arena = Rc::make_mut(&mut self.arena);
        if arena.nodes.capacity() == 0 {
            // A canister's argument types take a few dozen nodes: one allocation,
            // instead of growing through several on the first call. Fields are
            // reserved at the first record or variant.
            arena.nodes = Vec::with_capacity(32);
        }
        let marks = (arena.nodes.len(), arena.fields.len(), arena.labels.len());
        let mut placer = Placer {
            arena,
            placed: &mut self.placed,
            stack: StackMark::here(),
        };
        let placed = placer.place_linked(id, d, 0);
        if placed.is_none() {
            placer.roll_back(marks);
        }
        placed
    }
}

/// One placing's view of the interner: the shared arena, borrowed mutably for the
/// whole placing, and the placing memo.
struct Placer<'a> {
    arena: &'a mut Arena,
    placed: &'a mut memo::Memo,
    /// Where the stack was when the placing began.
    stack: StackMark,
}

impl Placer<'_> {
    /// Forgets what a failed placing added.
    #[cold]
    fn roll_back(&mut self, (nodes, fields, labels): (usize, usize, usize)) {
        let arena = &mut *self.arena;
        // The functions and service methods it added are those its nodes name
        // (each is pushed just before its node is set): cut back to the first.
        let (mut funcs, mut methods) = (arena.funcs.len(), arena.methods.len());
        for node in arena.nodes.get(nodes..).unwrap_or_default() {
            match *node {
                Node::Func(i) => funcs = funcs.min(i as usize),
                Node::Service(span) if span.len > 0 => {
                    methods = methods.min(span.start as usize);
                }
                _ => {}
            }
        }
        arena.funcs.truncate(funcs);
        arena.methods.truncate(methods);
        arena.nodes.truncate(nodes);
        arena.fields.truncate(fields);
        arena.labels.truncate(labels);
        let end = PRIM_COUNT + nodes as u32;
        self.placed.retain(|r| r.idx() < end);
    }

    fn place_ref(&mut self, r: StaticRef, depth: usize) -> Option<Ref> {
        match r {
            StaticRef::Inline(d) => self.place(d, depth),
            StaticRef::Link(l) => {
                let d = (l.ty)()?;
                // A primitive is its fixed reference, whoever names it: no `id()`.
                if let StaticKind::Prim(p) = d.kind {
                    return Some(Ref::prim(p));
                }
                self.place_linked((l.id)(), d, depth)
            }
        }
    }

    /// The Rust type `id`, described by `d`, as `ty()`'s memo would give it.
    fn place_linked(&mut self, id: TypeId, d: &'static StaticType, depth: usize) -> Option<Ref> {
        if let StaticKind::Prim(p) = d.kind {
            return Some(Ref::prim(p));
        }
        if let Some(r) = self.placed.get(&id) {
            return Some(self.memoised(r));
        }
        match d.owner.map(|f| f()) {
            Some(o) if o == id => self.place_new(d, Some(o), depth),
            // A transparent type: its `_ty()` is its inner type's `ty()`, which is
            // what it memoises (a knot, if the inner type was being computed).
            _ => {
                let r = self.place(d, depth)?;
                self.placed.insert(id, r);
                Some(r)
            }
        }
    }

    /// A memoised reference: a node still being placed (it holds the placeholder)
    /// is reached through a knot, which has the var bit.
    fn memoised(&self, r: Ref) -> Ref {
        if r.idx() >= PRIM_COUNT && self.arena.node(r) == Node::Prim(Prim::Empty) {
            r.as_var()
        } else {
            r
        }
    }

    /// A description reached without a link of its own (inline, or through a
    /// transparent type): placed once per owner.
    fn place(&mut self, d: &'static StaticType, depth: usize) -> Option<Ref> {
        let owner = d.owner.map(|f| f());
        if let Some(r) = owner.as_ref().and_then(|o| self.placed.get(o)) {
            return Some(self.memoised(r));
        }
        self.place_new(d, owner, depth)
    }

    /// One description's node, reserved (and memoised for its owner) before its
    /// parts, so that a knot inside points back to it.
    fn place_new(
        &mut self,
        d: &'static StaticType,
        owner: Option<TypeId>,
        depth: usize,
    ) -> Option<Ref> {
        if depth % STACK_CHECK_EVERY == CHECK_AT
            && depth > STACK_CHECK_EVERY
            && (depth > quota::MAX_EXPECTED_DEPTH || self.stack.exhausted())
        {
            return None;
        }
        let idx = match d.kind {
            StaticKind::Prim(p) => return Some(Ref::prim(p)),
            _ => self.arena.push_node(Node::Prim(Prim::Empty)),
        };
        if let Some(o) = owner {
            self.placed.insert(o, Ref::new(idx, false));
        }
        let node = match d.kind {
            StaticKind::Opt(r) => Node::Opt(self.place_ref(r, depth + 1)?),
            StaticKind::Vec(r) => Node::Vec(self.place_ref(r, depth + 1)?),
            StaticKind::Record(fs) => Node::Record(self.place_fields(fs, depth)?),
            StaticKind::Variant(fs) => Node::Variant(self.place_fields(fs, depth)?),
            StaticKind::Func(f) => self.place_func(f, depth)?,
            StaticKind::Service(ms) => self.place_service(ms, depth)?,
            StaticKind::Prim(_) => Node::Prim(Prim::Empty),
        };
        self.arena.set_node(idx, node);
        let r = Ref::new(idx, false).hinted(node);
        if let (Some(o), true) = (owner, r.is_opt()) {
            // The owner's entry, made before the node was known, with its hint.
            self.placed.replace(o, r);
        }
        Some(r)
    }

    /// The fields of a description: their span reserved first, with the ids and
    /// labels the description gives, then each field's type placed into its slot,
    /// and the span sorted by id if the description lists it otherwise (a collision
    /// fails the placing, and `ty()` reports it).
    fn place_fields(&mut self, fs: &'static [StaticField], depth: usize) -> Option<Span> {
        if self.arena.fields.capacity() == 0 && self.arena.labels.capacity() == 0 {
            // The first record or variant: room for a few dozen fields at once
            // (types without any, as vectors of primitives, allocate none).
            let arena = &mut *self.arena;
            arena.fields = Vec::with_capacity(64);
            arena.labels = Vec::with_capacity(64);
        }
        let (start, sorted) = reserve_static_fields(self.arena, fs);
        for (i, f) in fs.iter().enumerate() {
            let ty = self.place_ref(f.ty, depth + 1)?;
            set_field_type(self.arena, start + i, ty);
        }
        finish_fields(self.arena, start, fs.len(), sorted)
    }
}

impl Placer<'_> {
    /// A function's entry, as `Interner::func` makes it from `ty()`: its argument
    /// types placed, then its result types, then the entry pushed.
    fn place_func(&mut self, f: &'static StaticFunc, depth: usize) -> Option<Node> {
        let mut args = Vec::with_capacity(f.args.len());
        for &r in f.args {
            args.push(self.place_ref(r, depth + 1)?);
        }
        let mut rets = Vec::with_capacity(f.rets.len());
        for &r in f.rets {
            rets.push(self.place_ref(r, depth + 1)?);
        }
        let funcs = &mut self.arena.funcs;
        funcs.push(FuncEntry {
            args,
            rets,
            mode: f.mode,
        });
        Some(Node::Func(funcs.len() as u32 - 1))
    }

    /// A service's methods, as `Interner::service` makes them from `ty()`: each
    /// method's type placed in order (the description lists them sorted by name,
    /// as `ty()` does), then the span pushed.
    fn place_service(&mut self, ms: &'static [StaticMethod], depth: usize) -> Option<Node> {
        let mut entries = Vec::with_capacity(ms.len());
        for m in ms {
            entries.push((Box::<str>::from(m.name), self.place_ref(m.ty, depth + 1)?));
        }
        let methods = &mut self.arena.methods;
        let span = Span {
            start: methods.len() as u32,
            len: entries.len() as u32,
        };
        methods.extend(entries);
        Some(Node::Service(span))
    }
}

/// The primitive a type is, if it is one.
fn prim_of(t: &TypeInner) -> Option<Prim> {
    use TypeInner::*;
    Some(match t {
        Null => Prim::Null,
        Bool => Prim::Bool,
        Nat => Prim::Nat,
        Int => Prim::Int,
        Nat8 => Prim::Nat8,
        Nat16 => Prim::Nat16,
        Nat32 => Prim::Nat32,
        Nat64 => Prim::Nat64,
        Int8 => Prim::Int8,
        Int16 => Prim::Int16,
        Int32 => Prim::Int32,
        Int64 => Prim::Int64,
        Float32 => Prim::Float32,
        Float64 => Prim::Float64,
        Text => Prim::Text,
        Reserved => Prim::Reserved,
        Empty => Prim::Empty,
        Principal => Prim::Principal,
        _ => return None,
    })
}

#[cfg(test)]
mod opt_hints;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_type_grows_the_arena_in_place_unless_another_decoder_holds_it() {
        let mut held = shared_arena();
        let first = of::<(u8, i16, bool)>(&mut held).unwrap().unwrap();
        let at = Rc::as_ptr(&held);
        // Only this decoder holds the arena: it is swapped out while the type is
        // interned, so the arena grows where it is instead of being copied.
        of::<(u16, i8, bool, u8)>(&mut held).unwrap().unwrap();
        assert!(std::ptr::eq(Rc::as_ptr(&held), at));
        // A second holder (a nested decode) keeps its arena, which still resolves
        // its types; the interner copies.
        let other = held.clone();
        of::<(i64, u16, i8)>(&mut held).unwrap().unwrap();
        assert!(!Rc::ptr_eq(&held, &other));
        assert_eq!(other.node(first.resolved()), held.node(first.resolved()));
        // A type already interned leaves the arena alone.
        let again = of::<(u8, i16, bool)>(&mut held).unwrap().unwrap();
        assert_eq!(again, first);
    }

    #[test]
    fn a_new_type_grows_the_arena_in_place_while_kept_decode_states_hold_it() {
        // Decoded twice, the message's header is kept with its decode state, which
        // holds the shared arena between messages; so does the thread's spare.
        let bytes = crate::encode_one((7u32, true)).unwrap();
        for _ in 0..2 {
            let mut de = super::super::IDLDeserialize::new(&bytes).unwrap();
            let _: (u32, bool) = de.get_value().unwrap();
            de.done().unwrap();
        }
        let mut held = shared_arena();
        let at = Rc::as_ptr(&held);
        // A type placed from its static description (a tuple) and one interned from
        // `ty()` (a hand-written impl with no description): the kept states let go
        // of the arena meanwhile, so neither copies it.
        of::<(u64, i32, bool, u16)>(&mut held).unwrap().unwrap();
        assert!(std::ptr::eq(Rc::as_ptr(&held), at));
        of::<crate::Func>(&mut held).unwrap().unwrap();
        assert!(std::ptr::eq(Rc::as_ptr(&held), at));
    }
}

#[cfg(test)]
mod reserve_tests {
    use super::*;
    use crate::types::CandidType;

    fn place<T: CandidType>(it: &mut Interner) -> Ref {
        let d = T::_static_type().expect("a static description");
        it.place_root(T::id(), d).expect("placed")
    }

    /// The expected arena reserves room when something is placed in it, not before:
    /// a primitive root takes no memory, a vector of primitives room for nodes only,
    /// and the first record room for fields and labels. What is placed is the same
    /// either way.
    #[test]
    fn the_arena_reserves_at_the_first_node_and_the_first_record() {
        let mut it = Interner::default();
        assert_eq!(place::<String>(&mut it), Ref::prim(Prim::Text));
        assert_eq!(it.arena.nodes.capacity(), 0);
        assert_eq!(it.arena.fields.capacity(), 0);
        assert_eq!(it.arena.labels.capacity(), 0);
        let v = place::<Vec<u64>>(&mut it);
        assert_eq!(it.arena.node(v), Node::Vec(Ref::prim(Prim::Nat64)));
        assert!(it.arena.nodes.capacity() >= 32);
        assert_eq!(it.arena.fields.capacity(), 0);
        assert_eq!(it.arena.labels.capacity(), 0);
        let r = place::<(u8, bool)>(&mut it);
        assert!(it.arena.fields.capacity() >= 64);
        assert!(it.arena.labels.capacity() >= 64);
        let Node::Record(span) = it.arena.node(r) else {
            panic!("a record");
        };
        assert_eq!(span.len, 2);
        // Placed into a fresh arena, the record is the same.
        let mut fresh = Interner::default();
        let again = place::<(u8, bool)>(&mut fresh);
        let Node::Record(span2) = fresh.arena.node(again) else {
            panic!("a record");
        };
        let fields = |a: &Arena, s: Span| {
            (s.start..s.start + s.len)
                .map(|i| a.fields[i as usize])
                .collect::<Vec<_>>()
        };
        assert_eq!(fields(&it.arena, span), fields(&fresh.arena, span2));
    }
}

#[cfg(test)]
mod roll_back_tests {
    // The macros' constructors, unused here.
    #![allow(dead_code, unreachable_pub)]
    use super::*;
    use crate::types::CandidType;

    crate::define_function!(F : (u8) -> (String) query);
    crate::define_service!(S : { "f" : crate::func!((F) -> ()); "g" : crate::func!(() -> (u8)) });

    /// No description: the placing of a type holding it fails when it is reached.
    struct Hand;
    impl CandidType for Hand {
        fn _ty() -> Type {
            TypeInner::Nat.into()
        }
        fn idl_serialize<Ser: crate::types::Serializer>(
            &self,
            s: Ser,
        ) -> std::result::Result<(), Ser::Error> {
            s.serialize_nat(&crate::Nat::from(0u8))
        }
    }

    /// A placing that fails after placing functions and a service leaves the
    /// arena as it was: their entries go with their nodes.
    #[test]
    fn a_failed_placing_forgets_its_functions_and_methods() {
        let mut it = Interner::default();
        let kept = it
            .place_root(F::id(), F::_static_type().expect("described"))
            .expect("placed");
        let before = format!("{:?}", it.arena);
        type Failing = (F, S, Option<S>, Hand);
        let d = Failing::_static_type().expect("described");
        assert_eq!(it.place_root(Failing::id(), d), None);
        assert_eq!(format!("{:?}", it.arena), before);
        assert_eq!((it.arena.funcs.len(), it.arena.methods.len()), (1, 0));
        // What was placed before is still what the memo gives.
        let again = it.place_root(F::id(), F::_static_type().expect("described"));
        assert_eq!(again, Some(kept));
    }
}
