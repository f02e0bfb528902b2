//! Walks over whole `Type` trees that keep their own stack on the heap.
//!
//! Types reach candor from wire headers, `.did` files and callers building them
//! through the public API, so their depth and width are chosen by someone else. A
//! walk that recursed once per level would overflow the thread's stack (and abort the
//! process) on a type a few tens of thousands of levels deep, so comparison, hashing,
//! dropping and rebuilding walk with an explicit stack here; their answers are those
//! of the derived implementations they replace.

use super::model::{Field, Function, Type, TypeInner};
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The position of a variant in the declaration of [`TypeInner`], which is what a
/// derived `Ord` compares first.
#[inline(always)]
fn rank(t: &TypeInner) -> u8 {
    use TypeInner::*;
    match t {
        Null => 0,
        Bool => 1,
        Nat => 2,
        Int => 3,
        Nat8 => 4,
        Nat16 => 5,
        Nat32 => 6,
        Nat64 => 7,
        Int8 => 8,
        Int16 => 9,
        Int32 => 10,
        Int64 => 11,
        Float32 => 12,
        Float64 => 13,
        Text => 14,
        Reserved => 15,
        Empty => 16,
        Knot(_) => 17,
        Var(_) => 18,
        Unknown => 19,
        Opt(_) => 20,
        Vec(_) => 21,
        Record(_) => 22,
        Variant(_) => 23,
        Func(_) => 24,
        Service(_) => 25,
        Class(..) => 26,
        Principal => 27,
        Future => 28,
    }
}

/// One pending step of a comparison: two types, an already known order of two
/// leaves (labels, names, modes), or two lengths (compared after the elements).
enum Cmp<'a> {
    Types(&'a TypeInner, &'a TypeInner),
    Known(Ordering),
    Lens(usize, usize),
}

/// Pushes the lexicographic comparison of two lists of types: the elements in
/// order, then the lengths.
fn push_types<'a>(stack: &mut Vec<Cmp<'a>>, a: &'a [Type], b: &'a [Type]) {
    stack.push(Cmp::Lens(a.len(), b.len()));
    for (x, y) in a.iter().zip(b).rev() {
        stack.push(Cmp::Types(x, y));
    }
}

/// Levels walked by plain recursion before a walk moves to its heap stack: most
/// types are shallower, and recursion is cheaper than a stack on the heap.
const SHALLOW: u32 = 32;

/// The derived order of `TypeInner` (variant first, then fields in declaration
/// order, lists lexicographically), one shared subtree counting as equal to itself
/// without being walked.
#[inline]
pub(super) fn compare(a: &TypeInner, b: &TypeInner) -> Ordering {
    compare_within(a, b, SHALLOW)
}

/// [`compare`] by recursion for `budget` levels, then on a heap stack.
fn compare_within(a: &TypeInner, b: &TypeInner, budget: u32) -> Ordering {
    use TypeInner::*;
    if std::ptr::eq(a, b) {
        return Ordering::Equal;
    }
    // Telling two variants apart is a compare of tags; their order is looked up
    // only when they differ.
    if std::mem::discriminant(a) != std::mem::discriminant(b) {
        return rank(a).cmp(&rank(b));
    }
    let Some(budget) = budget.checked_sub(1) else {
        return compare_deep(a, b);
    };
    match (a, b) {
        (Knot(x), Knot(y)) => x.cmp(y),
        (Var(x), Var(y)) => x.cmp(y),
        (Opt(x), Opt(y)) | (Vec(x), Vec(y)) => compare_within(x, y, budget),
        (Record(x), Record(y)) | (Variant(x), Variant(y)) => {
            for (f, g) in x.iter().zip(y) {
                let o = f.id.cmp(&g.id);
                if o != Ordering::Equal {
                    return o;
                }
                let o = compare_within(&f.ty, &g.ty, budget);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        (Func(x), Func(y)) => x
            .modes
            .cmp(&y.modes)
            .then_with(|| compare_list(&x.args, &y.args, budget))
            .then_with(|| compare_list(&x.rets, &y.rets, budget)),
        (Service(x), Service(y)) => {
            for ((n, s), (m, t)) in x.iter().zip(y) {
                let o = n.cmp(m);
                if o != Ordering::Equal {
                    return o;
                }
                let o = compare_within(s, t, budget);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        (Class(x, s), Class(y, t)) => {
            compare_list(x, y, budget).then_with(|| compare_within(s, t, budget))
        }
        _ => Ordering::Equal,
    }
}

/// Two lists of types, lexicographically, by [`compare_within`].
fn compare_list(x: &[Type], y: &[Type], budget: u32) -> Ordering {
    for (s, t) in x.iter().zip(y) {
        let o = compare_within(s, t, budget);
        if o != Ordering::Equal {
            return o;
        }
    }
    x.len().cmp(&y.len())
}

/// [`compare`] on a heap stack, however deep the types.
fn compare_deep(a: &TypeInner, b: &TypeInner) -> Ordering {
    use TypeInner::*;
    let mut stack: std::vec::Vec<Cmp<'_>> = std::vec::Vec::new();
    let (mut a, mut b) = (a, b);
    loop {
        let next = if std::ptr::eq(a, b) {
            Ordering::Equal
        } else {
            match rank(a).cmp(&rank(b)) {
                Ordering::Equal => match (a, b) {
                    (Knot(x), Knot(y)) => x.cmp(y),
                    (Var(x), Var(y)) => x.cmp(y),
                    (Opt(x), Opt(y)) | (Vec(x), Vec(y)) => {
                        // One child: no step to remember.
                        (a, b) = (x, y);
                        continue;
                    }
                    (Record(x), Record(y)) | (Variant(x), Variant(y)) => {
                        stack.push(Cmp::Lens(x.len(), y.len()));
                        for (f, g) in x.iter().zip(y).rev() {
                            stack.push(Cmp::Types(&f.ty, &g.ty));
                            stack.push(Cmp::Known(f.id.cmp(&g.id)));
                        }
                        Ordering::Equal
                    }
                    (Func(x), Func(y)) => {
                        push_types(&mut stack, &x.rets, &y.rets);
                        push_types(&mut stack, &x.args, &y.args);
                        x.modes.cmp(&y.modes)
                    }
                    (Service(x), Service(y)) => {
                        stack.push(Cmp::Lens(x.len(), y.len()));
                        for ((n, s), (m, t)) in x.iter().zip(y).rev() {
                            stack.push(Cmp::Types(s, t));
                            stack.push(Cmp::Known(n.cmp(m)));
                        }
                        Ordering::Equal
                    }
                    (Class(x, s), Class(y, t)) => {
                        stack.push(Cmp::Types(s, t));
                        push_types(&mut stack, x, y);
                        Ordering::Equal
                    }
                    // Leaves of the same variant carry nothing else.
                    _ => Ordering::Equal,
                },
                unequal => unequal,
            }
        };
        if next != Ordering::Equal {
            return next;
        }
        // The next pending step that is not already settled as equal.
        loop {
            match stack.pop() {
                None => return Ordering::Equal,
                Some(Cmp::Types(x, y)) => {
                    (a, b) = (x, y);
                    break;
                }
                Some(Cmp::Known(Ordering::Equal)) => {}
                Some(Cmp::Known(o)) => return o,
                Some(Cmp::Lens(x, y)) => match x.cmp(&y) {
                    Ordering::Equal => {}
                    o => return o,
                },
            }
        }
    }
}

/// Feeds `t` to `state` in a pre-order walk: equal types (as [`compare`] sees them)
/// feed equal sequences. Each node feeds its rank, its own data (a knot's id, a
/// name, lengths, labels and method names, the labels last to first), then its
/// children in order; the recursive and the heap-stack walks feed the same.
pub(super) fn hash<H: Hasher>(t: &TypeInner, state: &mut H) {
    hash_within(t, state, SHALLOW);
}

/// [`hash`] by recursion for `budget` levels, then on a heap stack.
fn hash_within<H: Hasher>(t: &TypeInner, state: &mut H, budget: u32) {
    use TypeInner::*;
    let Some(budget) = budget.checked_sub(1) else {
        return hash_deep(t, state);
    };
    state.write_u8(rank(t));
    match t {
        Knot(id) => id.hash(state),
        Var(name) => name.hash(state),
        Opt(x) | Vec(x) => hash_within(x, state, budget),
        Record(fs) | Variant(fs) => {
            state.write_usize(fs.len());
            for f in fs.iter().rev() {
                f.id.hash(state);
            }
            for f in fs {
                hash_within(&f.ty, state, budget);
            }
        }
        Func(f) => {
            f.modes.hash(state);
            state.write_usize(f.args.len());
            state.write_usize(f.rets.len());
            for t in f.args.iter().chain(&f.rets) {
                hash_within(t, state, budget);
            }
        }
        Service(ms) => {
            state.write_usize(ms.len());
            for (name, _) in ms.iter().rev() {
                name.hash(state);
            }
            for (_, t) in ms {
                hash_within(t, state, budget);
            }
        }
        Class(args, body) => {
            state.write_usize(args.len());
            for t in args {
                hash_within(t, state, budget);
            }
            hash_within(body, state, budget);
        }
        _ => {}
    }
}

/// [`hash`] on a heap stack, however deep the type.
fn hash_deep<H: Hasher>(t: &TypeInner, state: &mut H) {
    use TypeInner::*;
    let mut stack: std::vec::Vec<&TypeInner> = vec![t];
    while let Some(t) = stack.pop() {
        state.write_u8(rank(t));
        match t {
            Knot(id) => id.hash(state),
            Var(name) => name.hash(state),
            Opt(x) | Vec(x) => stack.push(x),
            Record(fs) | Variant(fs) => {
                state.write_usize(fs.len());
                for f in fs.iter().rev() {
                    f.id.hash(state);
                    stack.push(&f.ty);
                }
            }
            Func(f) => {
                f.modes.hash(state);
                state.write_usize(f.args.len());
                state.write_usize(f.rets.len());
                stack.extend(f.rets.iter().rev().map(|t| t.as_ref()));
                stack.extend(f.args.iter().rev().map(|t| t.as_ref()));
            }
            Service(ms) => {
                state.write_usize(ms.len());
                for (name, ty) in ms.iter().rev() {
                    name.hash(state);
                    stack.push(ty);
                }
            }
            Class(args, body) => {
                state.write_usize(args.len());
                stack.push(body);
                stack.extend(args.iter().rev().map(|t| t.as_ref()));
            }
            _ => {}
        }
    }
}

/// Moves the child types out of `t` (which is left `null`) onto `out`.
fn take_children(t: &mut TypeInner, out: &mut Vec<Type>) {
    use TypeInner::*;
    match std::mem::replace(t, Null) {
        Opt(x) | Vec(x) => out.push(x),
        Record(fs) | Variant(fs) => out.extend(fs.into_iter().map(|f| f.ty)),
        Func(f) => {
            out.extend(f.args);
            out.extend(f.rets);
        }
        Service(ms) => out.extend(ms.into_iter().map(|(_, t)| t)),
        Class(args, body) => {
            out.extend(args);
            out.push(body);
        }
        _ => {}
    }
}

/// True for the variants that hold types.
#[inline(always)]
pub(super) fn has_children(t: &TypeInner) -> bool {
    use TypeInner::*;
    matches!(
        t,
        Opt(_) | Vec(_) | Record(_) | Variant(_) | Func(_) | Service(_) | Class(..)
    )
}

thread_local! {
    /// Levels of type trees being dropped by plain recursion on this thread.
    static DROP_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Drops the last owner's tree of a type without recursing once per level: the
/// first [`SHALLOW`] levels drop by plain recursion (most types end there), deeper
/// ones one node at a time, each node whose last owner is this walk giving up its
/// children to the walk's heap stack before it is freed. Nodes still shared
/// elsewhere only lose one owner, as with a plain drop.
pub(super) fn dismantle(t: &mut Type) {
    let Some(inner) = Rc::get_mut(&mut t.0) else {
        return;
    };
    if !has_children(inner) {
        return;
    }
    let level = DROP_DEPTH.try_with(std::cell::Cell::get).unwrap_or(SHALLOW);
    if level < SHALLOW {
        let taken = std::mem::replace(inner, TypeInner::Null);
        let _ = DROP_DEPTH.try_with(|d| d.set(level + 1));
        drop(taken);
        let _ = DROP_DEPTH.try_with(|d| d.set(level));
        return;
    }
    let mut stack = std::vec::Vec::new();
    take_children(inner, &mut stack);
    while let Some(mut child) = stack.pop() {
        if let Some(inner) = Rc::get_mut(&mut child.0) {
            take_children(inner, &mut stack);
        }
        // `child` now holds no children (or is still shared): its own drop stops here.
    }
}

/// What [`rebuild`] does at each node.
pub(crate) trait Rebuild {
    /// The node to use instead of `t`, not walked further; `None` walks `t`'s
    /// children and rebuilds it.
    fn visit(&mut self, t: &Type) -> Option<Type>;
    /// The rebuilt form of the composite `orig` (its children rebuilt), to use in
    /// its place.
    fn finish(&mut self, _orig: &Type, rebuilt: Type) -> Type {
        rebuilt
    }
}

/// The children of a composite type in the order [`with_children`] takes them.
fn children(t: &TypeInner) -> Box<dyn DoubleEndedIterator<Item = &Type> + '_> {
    use TypeInner::*;
    match t {
        Opt(x) | Vec(x) => Box::new(std::iter::once(x)),
        Record(fs) | Variant(fs) => Box::new(fs.iter().map(|f| &f.ty)),
        Func(f) => Box::new(f.args.iter().chain(&f.rets)),
        Service(ms) => Box::new(ms.iter().map(|(_, t)| t)),
        Class(args, body) => Box::new(args.iter().chain(std::iter::once(body))),
        _ => Box::new(std::iter::empty()),
    }
}

/// `t` with its children replaced by `new`, in the order of [`children`].
fn with_children(t: &TypeInner, new: std::vec::Vec<Type>) -> TypeInner {
    use TypeInner::*;
    let mut new = new.into_iter();
    let mut next = |old: &Type| new.next().unwrap_or_else(|| old.clone());
    match t {
        Opt(x) => Opt(next(x)),
        Vec(x) => Vec(next(x)),
        Record(fs) => Record(fields(fs, &mut next)),
        Variant(fs) => Variant(fields(fs, &mut next)),
        Func(f) => {
            let args = f.args.iter().map(&mut next).collect();
            let rets = f.rets.iter().map(&mut next).collect();
            Func(Function {
                modes: f.modes.clone(),
                args,
                rets,
            })
        }
        Service(ms) => Service(ms.iter().map(|(n, t)| (n.clone(), next(t))).collect()),
        Class(args, body) => {
            let args = args.iter().map(&mut next).collect();
            Class(args, next(body))
        }
        other => other.clone(),
    }
}

fn fields(fs: &[Field], next: &mut impl FnMut(&Type) -> Type) -> std::vec::Vec<Field> {
    fs.iter()
        .map(|f| Field {
            id: f.id.clone(),
            ty: next(&f.ty),
        })
        .collect()
}

/// Rebuilds `t` bottom-up, as a recursive map over the tree would, on a heap stack.
pub(crate) fn rebuild(t: &Type, how: &mut impl Rebuild) -> Type {
    enum Step<'a> {
        Enter(&'a Type),
        /// All `n` children of this node are rebuilt (the last `n` results).
        Exit(&'a Type, usize),
    }
    let mut steps = vec![Step::Enter(t)];
    let mut done: std::vec::Vec<Type> = std::vec::Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Enter(t) => {
                if let Some(new) = how.visit(t) {
                    done.push(new);
                } else if has_children(t) {
                    let kids = children(t);
                    let at = steps.len();
                    steps.push(Step::Exit(t, 0));
                    let mut n = 0;
                    for kid in kids.rev() {
                        steps.push(Step::Enter(kid));
                        n += 1;
                    }
                    if let Some(Step::Exit(_, count)) = steps.get_mut(at) {
                        *count = n;
                    }
                } else {
                    done.push(t.clone());
                }
            }
            Step::Exit(t, n) => {
                let new = done.split_off(done.len().saturating_sub(n));
                let rebuilt: Type = with_children(t, new).into();
                done.push(how.finish(t, rebuilt));
            }
        }
    }
    done.pop().unwrap_or_else(|| t.clone())
}

/// Levels of a type printed in full by `Display` and `Debug`; deeper subtrees print
/// as `…`. Printing recurses once per level (the layout documents are trees), and
/// no type written by hand or derived from Rust nests this far inline.
pub(crate) const MAX_PRINT_DEPTH: usize = 128;

thread_local! {
    static PRINT_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One level of a type being printed, held while its subtrees are printed.
pub(crate) struct PrintDepth(());

impl PrintDepth {
    /// Enters one more level, or `None` when the type is already
    /// [`MAX_PRINT_DEPTH`] levels deep here.
    pub(crate) fn enter() -> Option<PrintDepth> {
        PRINT_DEPTH.with(|d| {
            let level = d.get();
            if level >= MAX_PRINT_DEPTH {
                None
            } else {
                d.set(level + 1);
                Some(PrintDepth(()))
            }
        })
    }
}

impl Drop for PrintDepth {
    fn drop(&mut self) {
        PRINT_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Stack a recursive walk over a caller's type may use below the frame where it
/// began (interning an expected type, building a type table, annotating a value)
/// where the stack left cannot be measured (wasm): past it the walk stops with an
/// error. Frames in debug builds are an order of magnitude larger than in release
/// builds, so a depth bound alone cannot promise the stack holds.
pub(crate) const MAX_WALK_STACK: usize = 256 << 10;

/// Stack a walk leaves unused where the stack left can be measured (native
/// targets): the thread's whole stack is usable, so a legitimately deep type on a
/// large stack is walked, and a hostile one on a small stack is refused.
#[cfg(not(target_family = "wasm"))]
pub(crate) const MIN_STACK_LEFT: usize = 64 << 10;

/// Levels a recursive walk may descend between two measures of its stack: a
/// measure is an out-of-line call, and this many frames (tens of KiB in debug
/// builds) fit well inside the margins above.
pub(crate) const STACK_CHECK_EVERY: usize = 16;

/// Where a walk's stack began, to measure what it has used since.
#[derive(Clone, Copy, Default)]
pub(crate) struct StackMark(usize);

impl StackMark {
    /// A mark no walk has set: [`used_more_than`](Self::used_more_than) measures
    /// nothing from it.
    pub(crate) const UNSET: StackMark = StackMark(0);
    /// The current position of the stack.
    #[inline(never)]
    pub(crate) fn here() -> Self {
        let marker = 0u8;
        StackMark(std::hint::black_box(&marker) as *const u8 as usize)
    }
    /// True once the walk is about to run out of stack: less than
    /// [`MIN_STACK_LEFT`] left where that can be measured, else more than
    /// [`MAX_WALK_STACK`] used since this mark.
    #[inline(never)]
    pub(crate) fn exhausted(self) -> bool {
        #[cfg(not(target_family = "wasm"))]
        if let Some(left) = stacker::remaining_stack() {
            return left < MIN_STACK_LEFT;
        }
        self.used_more_than(MAX_WALK_STACK)
    }
    /// True where the thread's stack can be measured and less than
    /// [`MIN_STACK_LEFT`] is left: for recursive checks that bound their depth by
    /// a count, whose frames may still be too large for a small thread stack (an
    /// unoptimised build). On wasm the count alone applies.
    #[inline(never)]
    pub(crate) fn low() -> bool {
        #[cfg(not(target_family = "wasm"))]
        if let Some(left) = stacker::remaining_stack() {
            return left < MIN_STACK_LEFT;
        }
        false
    }
    /// True once the stack has grown more than `bytes` past this mark, on every
    /// target: for walks whose levels cost more the deeper they are, which a
    /// large stack should not let run as deep as it can.
    #[inline(never)]
    pub(crate) fn used_more_than(self, bytes: usize) -> bool {
        self.0.saturating_sub(Self::here().0) > bytes
    }
}
