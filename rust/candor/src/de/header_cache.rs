//! Parsed headers kept per thread, keyed by their exact bytes.
//!
//! A canister receives the same few message shapes over and over: every ICRC-1
//! transfer starts with the same magic, type table and argument types. Parsing that
//! header is a large part of decoding a small message, and its result depends only
//! on the header's bytes and the two header limits. So a header that parsed is kept
//! with its bytes; a later message that *starts with* those bytes, decoded under the
//! same limits, would parse to the very same arena and end at the same offset (the
//! parser reads the header front to back and never looks past it), and takes the
//! kept arena instead. Nothing else changes: the same units are charged for the
//! header, and values, errors and subtype checks run as on a fresh parse.
//!
//! What is kept is a whole decode state ([`Idle`]) holding the header's arena: the
//! subtype answers and checked (wire, expected) pairs earlier messages of the header
//! found stay in it, so the next message starts from them, and a hit lends the
//! decoder one pointer instead of building a state (see [`LentState`]).
//!
//! A header is kept the first time it parses, without a copy: the decoder that
//! parsed it holds its state as if it had been lent, and gives it to the entry when
//! it is dropped (see [`Lease`]); only the header's bytes are copied, as the key. So
//! the second identical message already skips the parse. A one-off header costs that
//! key copy, and its state stays in the cache instead of going back to the spare
//! the next parse takes; when the cache is full, the entry it replaces gives its
//! state to the spare instead, so a stream of distinct headers keeps rotating the
//! same memory.
//!
//! The kept state is lent, not shared: a hit moves it out of its entry into the
//! decoder, which gives it back when it is dropped (see [`Lease`]). The header's
//! units are paid before the state moves: a decode whose quota cannot pay them
//! fails and leaves the entry as it was. A hit allocates nothing. While a state is
//! lent, another decode of the same header (a nested one) misses and parses as
//! usual.
//!
//! A header is parsed into the wire arena of the state that will decode it: the
//! thread's spare (one, allocated on first need), whose arena keeps the memory its
//! last header used. Decodes of headers that are not kept give it back when
//! dropped, with everything about that header forgotten, except a short header of
//! primitive arguments, which the spare holds until a message of another header
//! takes it (see [`plain_state`]).
//!
//! Bounds, so a stream of distinct (hostile) headers cannot grow memory: at most
//! [`ENTRIES`] headers of at most [`MAX_KEY`] bytes each; a full cache replaces the
//! least recently used entry that is not lent out (nothing is kept when all are),
//! and a header longer than [`MAX_KEY`] is never kept. Beside them, at most
//! [`MAX_PINNED`] headers a canister pinned ([`pin`], from `crate::warm_up`, with
//! headers its encoder wrote from its own types) are never replaced.

use super::lent::LentState;
use super::state::Idle;
use crate::wire::header::{Arena, Shape};
use crate::wire::same_bytes::same_bytes;
use std::cell::{Cell, RefCell};
use std::num::NonZeroU64;
use std::rc::Rc;

/// Headers kept per thread.
pub(crate) const ENTRIES: usize = 8;

/// Longest header kept, in bytes (magic, table and argument types).
pub(crate) const MAX_KEY: usize = 2048;

/// Headers kept for good (`crate::warm_up`), beyond the [`ENTRIES`] that come and
/// go: never replaced, so a canister's warmed query headers outlive any stream of
/// other headers its updates see. Sixteen methods' worth: a method's arguments
/// may have two headers (candid's order and agent-js's).
pub(crate) const MAX_PINNED: usize = 32;

/// The header limits a header was parsed under: part of the key, since the same
/// bytes may parse under one limit and fail under a tighter one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Limits {
    pub max_type_len: usize,
    pub max_header_len: usize,
}

impl Limits {
    /// No header read yet (a new state's).
    pub(crate) const NONE: Limits = Limits {
        max_type_len: 0,
        max_header_len: 0,
    };
}

struct Entry {
    /// The header's bytes; a replaced entry's buffer is reused for the next key.
    key: Vec<u8>,
    /// The key's bytes 4 to 8 (after the magic), and which of them it has: a
    /// message whose bytes there differ cannot start with the key, which a scan
    /// then tells with one comparison.
    head: Head,
    /// Kept for good ([`pin`]): not replaced, and not counted in [`ENTRIES`].
    pinned: bool,
    limits: Limits,
    /// The state holding the header's arena, with what decodes of it found; `None`
    /// while lent to a decoder.
    state: Option<Box<Idle>>,
    shape: Shape,
    /// Tells a returned state whether its entry is still the one it came from.
    /// Never zero, so that an `Option<Lease>` needs no tag of its own.
    generation: NonZeroU64,
    /// Last use, for replacing the least recently used entry.
    used: u64,
}

struct Cache {
    entries: Vec<Entry>,
    /// Entries pinned, at most [`MAX_PINNED`].
    pinned: usize,
    clock: u64,
    /// Decodes that took a kept header, since the thread started.
    hits: u64,
    /// Of those, the ones that also took kept subtype answers.
    answers_taken: u64,
    /// Set by [`set_enabled`]`(false)`.
    off: bool,
}

impl Cache {
    const fn new() -> Self {
        Cache {
            entries: Vec::new(),
            pinned: 0,
            clock: 0,
            hits: 0,
            answers_taken: 0,
            off: false,
        }
    }
}

thread_local! {
    // Const-initialised: no lazy set-up on first use, which matters where every
    // query starts from the same heap again.
    static CACHE: RefCell<Cache> = const { RefCell::new(Cache::new()) };
    /// The state a decode of a header that is not kept takes (see the module doc).
    static SPARE: Cell<Option<Box<Idle>>> = const { Cell::new(None) };
}

/// Where a lent state goes back to when its decoder is dropped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lease {
    slot: usize,
    generation: NonZeroU64,
}

/// A kept header lent to a decoder: its state moved out of its entry (holding the
/// header's shape), and the decoding quota left once the header is paid for.
pub(crate) struct Hit {
    pub state: LentState,
    pub decoding_quota: Option<usize>,
    /// The entry's shape, for the tests to tell which entry was found.
    #[cfg(test)]
    pub shape: Shape,
}

/// The kept header `bytes` starts with, parsed under `limits`, if there is one and
/// its state is not lent out. `pay` is given the header's length first and returns
/// the decoding quota left after its units, or the error when the quota cannot
/// pay: then the state stays in its entry.
#[inline(always)]
pub(crate) fn take(
    bytes: &[u8],
    limits: Limits,
    pay: impl FnOnce(usize) -> crate::error::Result<Option<usize>>,
) -> Option<crate::error::Result<Hit>> {
    // `try_with`: while the thread is torn down the cache may be gone; decode as usual.
    CACHE
        .try_with(|c| {
            let mut c = c.borrow_mut();
            if c.off {
                return None;
            }
            let found = |e: &Entry| {
                e.state.is_some()
                    && e.limits == limits
                    && bytes
                        .get(..e.key.len())
                        .is_some_and(|k| same_bytes(k, &e.key))
            };
            let Cache {
                entries,
                clock,
                hits,
                answers_taken,
                ..
            } = &mut *c;
            // One entry is compared whole; among several, most are told apart by
            // their head before their key is compared. The clock orders entries
            // for replacement, so a lone entry's use need not be dated: every
            // entry admitted after it is newer than its last use.
            let e = match entries.as_mut_slice() {
                [e] => {
                    if !found(e) {
                        return None;
                    }
                    e
                }
                entries => {
                    let word = Head::word(bytes);
                    let e = entries
                        .iter_mut()
                        .find(|e| e.head.admits(word) && found(e))?;
                    *clock += 1;
                    e.used = *clock;
                    e
                }
            };
            *hits += 1;
            let decoding_quota = match pay(e.shape.len) {
                Ok(q) => q,
                Err(err) => return Some(Err(err)),
            };
            // The scan found the state there. It holds its lease, given when the
            // entry took it.
            let state = e.state.take()?;
            *answers_taken += u64::from(state.wire.answers_kept);
            Some(Ok(Hit {
                state: LentState::new(state),
                #[cfg(test)]
                shape: e.shape,
                decoding_quota,
            }))
        })
        .ok()
        .flatten()
}

/// A state to parse a new header into: the thread's spare (its last header
/// forgotten, its wire arena empty with its memory kept), or a new one when there is
/// none. `exp` is the expected arena a new state starts with. The parse fills the
/// state's own arena, so a header that is not kept costs no arena of its own.
#[inline(always)]
pub(crate) fn parse_state(exp: impl FnOnce() -> Rc<Arena>) -> Box<Idle> {
    match SPARE.try_with(Cell::take).ok().flatten() {
        Some(mut state) => {
            forget_held(&mut state);
            state
        }
        None => new_state(exp),
    }
}

/// The state for a message whose header has no type table (never kept): the
/// thread's spare, with the shape of the plain header it still holds when the
/// message starts with that header (what the spare learnt about it stays, as a kept
/// header's state keeps it), else as [`parse_state`] gives it, to parse into.
#[inline(always)]
pub(crate) fn plain_state(
    bytes: &[u8],
    max_header_len: usize,
    exp: impl FnOnce() -> Rc<Arena>,
) -> (Box<Idle>, Option<Shape>) {
    let Some(mut state) = SPARE.try_with(Cell::take).ok().flatten() else {
        return (new_state(exp), None);
    };
    if let Some(held) = state.held_plain {
        if let Some(shape) = held.shape_of(bytes, max_header_len) {
            return (state, Some(shape));
        }
        forget_held(&mut state);
    }
    (state, None)
}

/// Forgets the plain header a spare still holds, if any.
#[inline(always)]
fn forget_held(state: &mut Idle) {
    if state.held_plain.is_some() {
        state.forget_header();
    }
}

#[inline(never)]
fn new_state(exp: impl FnOnce() -> Rc<Arena>) -> Box<Idle> {
    Box::new(Idle::blank(Arena::new(), exp()))
}

/// Lends `state`, which has just parsed the header of `bytes` (`shape`), to the
/// decoder that parsed it: kept for the header when `cacheable` and the cache
/// admits it (the lease moves the state into the entry when that decoder is
/// dropped), else given back to the thread's spare.
#[inline(always)]
pub(crate) fn lend_parsed(
    bytes: &[u8],
    limits: Limits,
    shape: &Shape,
    cacheable: bool,
    mut state: Box<Idle>,
) -> LentState {
    state.shape = *shape;
    state.limits = limits;
    state.lease = if cacheable {
        admit(bytes, limits, shape)
    } else {
        None
    };
    LentState::new(state)
}

/// Keeps a header that just parsed from `bytes` under `limits`, lent at once to the
/// decoder that parsed it: the returned lease moves its state into the entry when
/// that decoder is dropped. `None` (the decoder gives its state to the spare) when
/// the header is too long, the cache is off, an entry already holds these bytes (a
/// nested decode of a header whose state is out), or every entry is lent.
fn admit(bytes: &[u8], limits: Limits, shape: &Shape) -> Option<Lease> {
    if shape.len > MAX_KEY {
        return None;
    }
    let key = bytes.get(..shape.len)?;
    CACHE
        .try_with(|c| c.borrow_mut().admit(key, limits, shape))
        .ok()
        .flatten()
}

/// Gives a lent state back: to the entry of its lease, keeping what holds for the
/// header's next message, or, when there is no lease or the entry was replaced
/// meanwhile (or the cache is unreachable, while the thread is torn down), to the
/// thread's spare with its header forgotten.
#[inline]
pub(crate) fn give_back(mut state: Box<Idle>) {
    if let Some(lease) = state.lease {
        state.end_message();
        let refused = CACHE
            .try_with(|c| {
                let mut c = c.borrow_mut();
                match c.entries.get_mut(lease.slot) {
                    Some(e) if e.generation == lease.generation && e.state.is_none() => {
                        e.state = Some(state);
                        None
                    }
                    _ => Some(state),
                }
            })
            .ok();
        match refused {
            Some(None) => return,
            Some(Some(s)) => state = s,
            // The cache is gone, and the state with it.
            None => return,
        }
    }
    to_spare(state);
}

/// A state no entry takes (or one whose header failed to parse), to the thread's
/// spare with its header forgotten, or, for a plain header it holds, with the
/// message ended as a kept header's is (a spare there already, from a nested
/// decode, stays and this one is dropped).
#[inline(never)]
pub(crate) fn to_spare(mut state: Box<Idle>) {
    state.lease = None;
    if state.held_plain.is_some() {
        state.end_message();
    } else {
        state.forget_header();
    }
    let _ = SPARE.try_with(|s| {
        let held = s.take();
        s.set(Some(match held {
            Some(held) => held,
            None => state,
        }));
    });
}

/// Has every waiting state let go of the interned expected types, for
/// `placeholder` (see `Idle::park_expected`): called before a new type is interned.
pub(crate) fn park_expected(placeholder: &Rc<Arena>) {
    let _ = CACHE.try_with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            for e in &mut c.entries {
                if let Some(state) = e.state.as_deref_mut() {
                    state.park_expected(placeholder);
                }
            }
        }
    });
    let _ = SPARE.try_with(|s| {
        let mut held = s.take();
        if let Some(state) = held.as_deref_mut() {
            state.park_expected(placeholder);
        }
        s.set(held);
    });
}

/// A key's bytes 4 to 8, the first after the magic (the table's length, its first
/// opcode and more): those of a message that starts with the key are the same.
#[derive(Clone, Copy)]
struct Head {
    bytes: u32,
    /// All ones when the key has those bytes; none when it is shorter, and every
    /// message passes.
    mask: u32,
}

impl Head {
    fn of(key: &[u8]) -> Head {
        match key.get(4..8) {
            Some(_) => Head {
                bytes: Head::word(key),
                mask: u32::MAX,
            },
            None => Head { bytes: 0, mask: 0 },
        }
    }

    /// Bytes 4 to 8 of `bytes`, or nothing when it is shorter.
    #[inline(always)]
    fn word(bytes: &[u8]) -> u32 {
        bytes
            .get(4..8)
            .and_then(|w| w.try_into().ok())
            .map_or(0, u32::from_le_bytes)
    }

    /// Whether a message whose bytes 4 to 8 are `word` (0 if it is shorter) may
    /// start with the key. A message shorter than a key of 8 bytes or more reads 0
    /// and may pass; the comparison of the whole key then refuses it.
    #[inline(always)]
    fn admits(self, word: u32) -> bool {
        word & self.mask == self.bytes
    }
}

/// Keeps the header whose bytes are `key`, parsed under `limits`, for good: its
/// entry is not replaced from now on (see [`MAX_PINNED`]). False when no entry
/// holds it (it was not admitted, or the cache is off) or [`MAX_PINNED`] entries
/// are pinned already.
pub(crate) fn pin(key: &[u8], limits: Limits) -> bool {
    CACHE
        .try_with(|c| {
            let mut c = c.borrow_mut();
            let full = c.pinned >= MAX_PINNED;
            let Some(e) = c
                .entries
                .iter_mut()
                .find(|e| e.limits == limits && e.key.as_slice() == key)
            else {
                return false;
            };
            if e.pinned {
                return true;
            }
            if full {
                return false;
            }
            e.pinned = true;
            c.pinned += 1;
            true
        })
        .unwrap_or(false)
}

impl Cache {
    /// Adds an entry for `key`, lent out from the start, replacing the least
    /// recently used entry not lent out when full. The replaced entry's state goes
    /// to the spare (its arena vectors to the spares the next parse takes), and its
    /// key buffer holds the new key.
    fn admit(&mut self, key: &[u8], limits: Limits, shape: &Shape) -> Option<Lease> {
        if self.off
            || self
                .entries
                .iter()
                .any(|e| e.limits == limits && same_bytes(&e.key, key))
        {
            return None;
        }
        self.clock += 1;
        let clock = self.clock;
        let generation = NonZeroU64::new(clock)?;
        if self.entries.len() < ENTRIES + self.pinned {
            if self.entries.capacity() == 0 {
                self.entries = Vec::with_capacity(ENTRIES);
            }
            // A new entry, made whole at once: its key at its exact size, in one
            // allocation, copied by words when short (most argument headers): a
            // `memory.copy` has a fixed price above that whole copy.
            self.entries.push(Entry {
                key: super::copy::owned_bytes(key),
                head: Head::of(key),
                pinned: false,
                limits,
                state: None,
                shape: *shape,
                generation,
                used: clock,
            });
            return Some(Lease {
                slot: self.entries.len() - 1,
                generation,
            });
        }
        let slot = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.state.is_some() && !e.pinned)
            .min_by_key(|(_, e)| e.used)
            .map(|(i, _)| i)?;
        let e = self.entries.get_mut(slot)?;
        if let Some(old) = e.state.take() {
            to_spare(old);
        }
        // The replaced entry's key buffer holds the new key.
        e.key.clear();
        e.key.extend_from_slice(key);
        e.head = Head::of(key);
        e.limits = limits;
        e.shape = *shape;
        e.generation = generation;
        e.used = clock;
        Some(Lease { slot, generation })
    }
}

/// Decodes on this thread that took a kept header.
pub(crate) fn hits() -> u64 {
    CACHE.with(|c| c.borrow().hits)
}

/// Decodes on this thread that took kept subtype answers with a kept header.
pub(crate) fn answers_taken() -> u64 {
    CACHE.with(|c| c.borrow().answers_taken)
}

/// Turns the cache off (or on again) on this thread, dropping what it holds: for
/// tests that compare decoding with and without it.
pub(crate) fn set_enabled(on: bool) {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.off = !on;
        c.entries.clear();
        c.pinned = 0;
    });
    let _ = SPARE.try_with(Cell::take);
}

#[cfg(test)]
mod tests;
