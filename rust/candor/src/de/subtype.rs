//! Type-level subtyping between a wire type and an expected type, memoised per
//! (wire node, expected node) pair for the life of one message.
//!
//! The relation answers "can decoding a value of this wire type at this expected type
//! never fail with a type error?". `opt` is a supertype of everything (a value that
//! does not fit becomes `null`), so the answer is "yes" below any `opt`. When the
//! answer is "no", the decoder falls back to the value-level check in `skip.rs`,
//! because the spec's `opt` rule is decided per value (`variant {a; b}` decoded at
//! `opt variant {a}` is `opt variant {a}` when the value is `a`).
//!
//! Recursive types are handled co-inductively: a pair under examination is assumed
//! to hold; if the examination fails, every conclusion drawn under that assumption is
//! retracted (the log below), and the failure is recorded.

use super::merge::{FieldMerge, Step};
use crate::fasthash::FastMap;
use crate::wire::header::{Arena, Node, Prim, Ref};
use crate::wire::inline_vec::InlineVec;
use Prim as P;

/// Which arena each side of a pair lives in: function arguments are contravariant,
/// so a check can run "expected against wire" as well.
#[derive(Clone, Copy)]
pub(crate) struct Sides<'a> {
    pub wire: &'a Arena,
    pub exp: &'a Arena,
}

/// A pair of nodes (and which arena each is in), packed into one key.
type Key = u64;

fn key(a: Ref, b: Ref, flipped: bool) -> Key {
    (u64::from(a.idx()) << 33) | (u64::from(b.idx()) << 1) | u64::from(flipped)
}

/// The memo: inline for the few pairs a typical message checks (no allocation), a
/// hash map past that.
#[derive(Default)]
struct PairMap {
    small: InlineVec<(Key, bool), 4>,
    big: Option<FastMap<Key, bool>>,
}

impl PairMap {
    fn get(&self, k: Key) -> Option<bool> {
        match &self.big {
            Some(m) => m.get(&k).copied(),
            None => self.small.as_slice().iter().find(|e| e.0 == k).map(|e| e.1),
        }
    }
    fn insert(&mut self, k: Key, v: bool) {
        if let Some(m) = &mut self.big {
            m.insert(k, v);
            return;
        }
        if let Some(e) = self.small.as_mut_slice().iter_mut().find(|e| e.0 == k) {
            e.1 = v;
        } else if self.small.len() < 4 {
            self.small.push((k, v));
        } else {
            let mut m: FastMap<Key, bool> = self.small.as_slice().iter().copied().collect();
            m.insert(k, v);
            self.big = Some(m);
        }
    }
    fn remove(&mut self, k: Key) {
        if let Some(m) = &mut self.big {
            m.remove(&k);
            return;
        }
        let slice = self.small.as_mut_slice();
        if let Some(i) = slice.iter().position(|e| e.0 == k) {
            let last = slice.len() - 1;
            slice.swap(i, last);
            self.small.truncate(last);
        }
    }
}

#[derive(Default)]
pub(crate) struct Memo {
    known: PairMap,
    log: InlineVec<Key, 4>,
    /// Recent top-level answers: a vector or list of `opt` values asks the same
    /// question for every element, and a record with several `opt` fields asks a
    /// few questions in turn, one per field, for every record.
    recent: Recent,
    /// Set when a check gave up at the depth limit: its "no" depended on where the
    /// check started, so these answers are not kept past the message.
    depth_limited: bool,
}

/// Slots of [`Recent`].
const RECENT: usize = 16;

/// Top-level answers, each in the slot its key hashes to (a newer answer takes
/// the slot): one comparison to find an answer, where the memo proper
/// ([`PairMap`]) is searched, or hashed once it holds more than four pairs.
/// `used` tells whether any slot was filled since the last emptying, so a
/// message that asks nothing empties nothing.
#[derive(Clone, Copy)]
struct Recent {
    slots: [(Key, bool); RECENT],
    used: bool,
}

/// No pair has this key (node indices take 31 bits, so keys are below 2^64 - 1).
const NO_KEY: Key = Key::MAX;

impl Default for Recent {
    fn default() -> Self {
        Recent {
            slots: [(NO_KEY, false); RECENT],
            used: false,
        }
    }
}

impl Recent {
    #[inline(always)]
    fn slot(k: Key) -> usize {
        // The expected node's index modulo the slots (bits 1 to 4 of the key): the
        // `opt` fields of a record, and the elements of a vector, are expected at
        // distinct nodes, mostly consecutive ones, so their questions fall in
        // distinct slots, found with a mask and no multiplication.
        (k as usize >> 1) % RECENT
    }

    #[inline(always)]
    fn get(&self, k: Key) -> Option<bool> {
        match self.slots.get(Self::slot(k)) {
            Some(&(key, v)) if key == k => Some(v),
            _ => None,
        }
    }

    #[inline(always)]
    fn put(&mut self, k: Key, v: bool) {
        if let Some(slot) = self.slots.get_mut(Self::slot(k)) {
            *slot = (k, v);
            self.used = true;
        }
    }

    fn clear(&mut self) {
        if self.used {
            *self = Recent::default();
        }
    }

    fn is_empty(&self) -> bool {
        !self.used
    }
}

use super::quota::MAX_SUBTYPE_DEPTH as MAX_DEPTH;

/// A memo's map is kept for the next message up to this many pairs; a larger one
/// (a hostile message's) is dropped rather than pinned for the life of the thread.
const KEEP_PAIRS: usize = 64;

/// Memos kept for the next decoders (a message, a value decoded at the wire type
/// inside it, a nested decode).
const SPARES: usize = 4;

thread_local! {
    // Const-initialised: reaching it never allocates or lazily initialises.
    static SPARE: std::cell::RefCell<[Option<Box<Memo>>; SPARES]> =
        const { std::cell::RefCell::new([None, None, None, None]) };
}

/// A decoder's memo, lent from the thread's spares (allocated only when there is
/// none) and given back empty when dropped. Boxed, so a decoder stays small: the
/// decoder is moved by value on every message, and on wasm every move of a large
/// struct is a `memory.copy` charged by the byte.
pub(crate) struct LentMemo(Option<Box<Memo>>);

impl LentMemo {
    /// No memo yet: one is taken on the first check that needs it.
    pub(crate) const fn none() -> Self {
        LentMemo(None)
    }

    /// The memo, taken from the spares (or made) on first use.
    #[inline]
    pub(crate) fn get(&mut self) -> &mut Memo {
        self.0.get_or_insert_with(take_spare)
    }

    /// Forgets every answer, keeping the memo.
    pub(crate) fn clear(&mut self) {
        if let Some(m) = &mut self.0 {
            m.clear();
        }
    }

    /// A memo holding the answers a kept header's previous decode found.
    pub(crate) fn with(memo: Box<Memo>) -> Self {
        LentMemo(Some(memo))
    }

    /// The memo, for keeping with a header, when its answers hold beyond this
    /// message: there are some, and none is a depth-limit artefact. (Every answer is
    /// then the relation itself, whatever order the checks ran in.)
    pub(crate) fn take_answers(&mut self) -> Option<Box<Memo>> {
        match &mut self.0 {
            Some(m) if !m.depth_limited && !m.is_empty() => {
                // Only a check in progress needs its log of assumptions.
                m.log.truncate(0);
                self.0.take()
            }
            _ => None,
        }
    }
}

impl Drop for LentMemo {
    fn drop(&mut self) {
        if let Some(mut m) = self.0.take() {
            m.clear();
            // `try_with`: while the thread is torn down the spares may be gone.
            let _ = SPARE.try_with(|s| {
                if let Ok(mut s) = s.try_borrow_mut() {
                    if let Some(free) = s.iter_mut().find(|x| x.is_none()) {
                        *free = Some(m);
                    }
                }
            });
        }
    }
}

fn take_spare() -> Box<Memo> {
    SPARE
        .try_with(|s| {
            s.try_borrow_mut()
                .ok()
                .and_then(|mut s| s.iter_mut().find_map(Option::take))
        })
        .ok()
        .flatten()
        .unwrap_or_default()
}

impl Memo {
    /// Forgets every answer. A small map keeps its memory for the next message.
    fn clear(&mut self) {
        self.known.small.truncate(0);
        if let Some(m) = &mut self.known.big {
            if m.capacity() > KEEP_PAIRS {
                self.known.big = None;
            } else {
                m.clear();
            }
        }
        self.log.truncate(0);
        self.recent.clear();
        self.depth_limited = false;
    }

    fn is_empty(&self) -> bool {
        self.recent.is_empty()
            && self.known.small.len() == 0
            && self.known.big.as_ref().is_none_or(|m| m.is_empty())
    }

    /// Is `w` (wire) a subtype of `e` (expected)?
    pub(super) fn check(&mut self, sides: Sides<'_>, w: Ref, e: Ref) -> bool {
        let k = key(w, e, false);
        if let Some(v) = self.recent.get(k) {
            return v;
        }
        let v = self.holds(sides.wire, w, sides.exp, e, false, 0);
        self.recent.put(k, v);
        v
    }

    fn holds(
        &mut self,
        a_arena: &Arena,
        a: Ref,
        b_arena: &Arena,
        b: Ref,
        flipped: bool,
        depth: usize,
    ) -> bool {
        if depth > MAX_DEPTH {
            self.depth_limited = true;
            return false;
        }
        let k = key(a, b, flipped);
        if let Some(v) = self.known.get(k) {
            return v;
        }
        let mark = self.log.len();
        self.known.insert(k, true);
        self.log.push(k);
        let ok = self.rule(a_arena, a, b_arena, b, flipped, depth + 1);
        if !ok {
            for i in mark..self.log.len() {
                if let Some(&old) = self.log.get(i) {
                    self.known.remove(old);
                }
            }
            self.log.truncate(mark);
            self.known.insert(k, false);
        }
        ok
    }

    fn rule(
        &mut self,
        aa: &Arena,
        a: Ref,
        ba: &Arena,
        b: Ref,
        flipped: bool,
        depth: usize,
    ) -> bool {
        use Node::*;
        let (na, nb) = (aa.node(a), ba.node(b));
        match (na, nb) {
            (_, Prim(P::Reserved)) => true,
            (Prim(P::Empty), _) => true,
            (_, Opt(_)) => true,
            (Prim(p), Prim(q)) => p == q || (p == P::Nat && q == P::Int),
            (Service(_), Prim(P::Principal)) => true,
            (Vec(x), Vec(y)) => self.holds(aa, x, ba, y, flipped, depth),
            (Record(fa), Record(fb)) => {
                let mut fields = FieldMerge::new(fa, fb);
                while let Some(step) = fields.next(aa, ba) {
                    match step {
                        Step::Both { w, e, .. } => {
                            if !self.holds(aa, w, ba, e, flipped, depth) {
                                return false;
                            }
                        }
                        Step::Expected { e, .. } => {
                            if !is_optional(ba, e) {
                                return false;
                            }
                        }
                        Step::Wire { .. } => {}
                    }
                }
                true
            }
            (Variant(fa), Variant(fb)) => {
                let mut cases = FieldMerge::new(fa, fb);
                while let Some(step) = cases.next(aa, ba) {
                    match step {
                        Step::Both { w, e, .. } => {
                            if !self.holds(aa, w, ba, e, flipped, depth) {
                                return false;
                            }
                        }
                        Step::Expected { .. } => {}
                        Step::Wire { .. } => return false,
                    }
                }
                true
            }
            (Func(x), Func(y)) => {
                let (Some(fx), Some(fy)) = (aa.func(x), ba.func(y)) else {
                    return false;
                };
                if fx.mode != fy.mode {
                    return false;
                }
                // Arguments are contravariant: the expected function's arguments must
                // be accepted by the wire function.
                self.seq(ba, &fy.args, aa, &fx.args, !flipped, depth)
                    && self.seq(aa, &fx.rets, ba, &fy.rets, flipped, depth)
            }
            (Service(x), Service(y)) => {
                let (mx, my) = (aa.methods(x), ba.methods(y));
                my.iter().all(|(name, ty)| {
                    match mx.binary_search_by(|(n, _)| n.as_ref().cmp(name.as_ref())) {
                        Ok(i) => match mx.get(i) {
                            Some((_, wty)) => self.holds(aa, *wty, ba, *ty, flipped, depth),
                            None => false,
                        },
                        Err(_) => false,
                    }
                })
            }
            // Reflexivity for future types: the parser keeps no more of one than
            // that it is one, so any two are the same type (as in candid). An
            // expected future type is only ever a wire type read at itself. Tested
            // in the fallback, so the common pairs' match is unchanged.
            _ => na == Future && nb == Future,
        }
    }

    /// Argument sequence subtyping: extra values are ignored, missing ones must be
    /// optional.
    fn seq(
        &mut self,
        aa: &Arena,
        xs: &[Ref],
        ba: &Arena,
        ys: &[Ref],
        flipped: bool,
        depth: usize,
    ) -> bool {
        for (i, y) in ys.iter().enumerate() {
            match xs.get(i) {
                Some(x) => {
                    if !self.holds(aa, *x, ba, *y, flipped, depth) {
                        return false;
                    }
                }
                None => {
                    if !is_optional(ba, *y) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// `opt _`, `null` or `reserved`: the types a missing field or argument may have.
pub(crate) fn is_optional(arena: &Arena, r: Ref) -> bool {
    matches!(
        arena.node(r),
        Node::Opt(_) | Node::Prim(Prim::Null) | Node::Prim(Prim::Reserved)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::header::PRIM_COUNT;

    /// `vec vec … nat8`, `depth` vectors deep.
    fn nested_vecs(depth: u32) -> (Arena, Ref) {
        let mut arena = Arena::new();
        for i in 0..depth {
            let inner = if i + 1 == depth {
                Ref::prim(P::Nat8)
            } else {
                Ref::new(PRIM_COUNT + i + 1, false)
            };
            arena.push_node(Node::Vec(inner));
        }
        (arena, Ref::new(PRIM_COUNT, false))
    }

    #[test]
    fn answers_are_kept_unless_a_check_hit_the_depth_limit() {
        let (shallow, root) = nested_vecs(3);
        let mut memo = LentMemo::none();
        let sides = Sides {
            wire: &shallow,
            exp: &shallow,
        };
        assert!(memo.get().check(sides, root, root));
        assert!(memo.take_answers().is_some());

        let depth = MAX_DEPTH as u32 + 2;
        let (deep, root) = nested_vecs(depth);
        let sides = Sides {
            wire: &deep,
            exp: &deep,
        };
        // The same type, but deeper than the check goes: "no", an artefact of the
        // limit, which is not kept.
        assert!(!memo.get().check(sides, root, root));
        assert!(memo.take_answers().is_none());
        // Cleared, the memo may be kept again.
        memo.clear();
        let (shallow, root) = nested_vecs(3);
        let sides = Sides {
            wire: &shallow,
            exp: &shallow,
        };
        assert!(memo.get().check(sides, root, root));
        assert!(memo.take_answers().is_some());
    }
}
