//! The placing memo: per Rust type, the reference its description placed as.
//!
//! A first decode of an argument type looks a handful of Rust types up here and
//! inserts each once, most lookups missing (a type not placed yet). The keys are
//! [`TypeId`]s, one machine word each, chosen by the program and never by a
//! message, so a small open-addressed table probed in order from the key's hash
//! does the work with a few loads and compares, where a general hash map's probing
//! and insertion cost several times that on wasm.

use crate::fasthash::FastHasher;
use crate::types::TypeId;
use crate::wire::header::Ref;
use std::hash::{Hash, Hasher};

/// Slots a memo starts with: the types a canister's argument types reach, at most
/// half full. Growing rehashes every entry, and a query that crosses the mark pays
/// that on every call (the IC discards what a query changes), so the first table
/// holds a few dozen types.
const FIRST_SLOTS: usize = 64;

/// A map from [`TypeId`] to [`Ref`].
#[derive(Default)]
pub(super) struct Memo {
    /// A power of two long (or empty), and at most half full: a probe always
    /// reaches an empty slot, where a missing key stops.
    slots: Vec<Option<(TypeId, Ref)>>,
    len: usize,
}

impl Memo {
    /// The slot a probe for `id` starts at (`slots` not empty).
    #[inline(always)]
    fn home(&self, id: &TypeId) -> usize {
        let mut h = FastHasher::default();
        id.hash(&mut h);
        // The multiply mixes into the high bits best.
        (h.finish() >> 32) as usize & (self.slots.len() - 1)
    }

    /// What `id` placed as.
    #[inline]
    pub(super) fn get(&self, id: &TypeId) -> Option<Ref> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(id);
        loop {
            match self.slots.get(i)? {
                Some((k, r)) if k == id => return Some(*r),
                Some(_) => i = (i + 1) & mask,
                None => return None,
            }
        }
    }

    /// Records (or replaces) what `id` placed as.
    pub(super) fn insert(&mut self, id: TypeId, r: Ref) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(&id);
        while let Some(slot) = self.slots.get_mut(i) {
            match slot {
                Some((k, v)) if *k == id => {
                    *v = r;
                    return;
                }
                Some(_) => i = (i + 1) & mask,
                None => {
                    *slot = Some((id, r));
                    self.len += 1;
                    return;
                }
            }
        }
    }

    /// Replaces what `id` placed as, if it is there: never grows the table.
    pub(super) fn replace(&mut self, id: TypeId, r: Ref) {
        if self.slots.is_empty() {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(&id);
        while let Some(Some((k, v))) = self.slots.get_mut(i) {
            if *k == id {
                *v = r;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Twice the slots (or the first ones), every entry placed again.
    #[cold]
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![None; size]);
        self.len = 0;
        for (id, r) in old.into_iter().flatten() {
            self.insert(id, r);
        }
    }

    /// Keeps the entries `keep` accepts (a failed placing forgets what it added).
    #[cold]
    pub(super) fn retain(&mut self, keep: impl Fn(Ref) -> bool) {
        let size = self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![None; size]);
        self.len = 0;
        for (id, r) in old.into_iter().flatten() {
            if keep(r) {
                self.insert(id, r);
            }
        }
    }

    /// Entries held.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct T<const N: usize>;

    fn ids() -> Vec<TypeId> {
        macro_rules! ids {
            ($($n:literal)*) => { vec![$(TypeId::of::<T<$n>>()),*] };
        }
        ids!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
             28 29 30 31 32 33 34 35 36 37 38 39)
    }

    /// The memo answers as a `HashMap` does, across growth, replacement and
    /// `retain`, for keys inserted in several orders.
    #[test]
    fn the_memo_answers_as_a_hash_map() {
        let ids = ids();
        for rotate in [0, 7, 23] {
            let mut ids = ids.clone();
            ids.rotate_left(rotate);
            let mut memo = Memo::default();
            let mut map = std::collections::HashMap::new();
            assert_eq!(memo.get(&ids[0]), None);
            for (i, id) in ids.iter().enumerate() {
                let r = Ref::new(18 + i as u32, i % 3 == 0);
                memo.insert(*id, r);
                map.insert(*id, r);
                for probe in &ids {
                    assert_eq!(memo.get(probe), map.get(probe).copied());
                }
            }
            // Replacing keeps one entry.
            memo.insert(ids[5], Ref::new(99, true));
            map.insert(ids[5], Ref::new(99, true));
            assert_eq!(memo.len(), map.len());
            memo.retain(|r| r.idx() < 30);
            map.retain(|_, r| r.idx() < 30);
            assert_eq!(memo.len(), map.len());
            for probe in &ids {
                assert_eq!(memo.get(probe), map.get(probe).copied());
            }
        }
    }
}
