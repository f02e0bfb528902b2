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
//! A header is kept the first time it parses, without a copy: the decoder that
//! parsed it holds its arena as if it had been lent, and gives it to the entry when
//! it is dropped (see [`Lease`]); only the header's bytes are copied, as the key. So
//! the second identical message already skips the parse. A one-off header costs that
//! key copy, and its arena stays in the cache instead of going back to the spare
//! vectors the next parse reuses; when the cache is full, the entry it replaces
//! gives its vectors back there instead, so a stream of distinct headers keeps
//! rotating the same memory.
//!
//! The kept arena is lent, not shared: a hit moves it out of its entry into the
//! decoder, which gives it back when it is dropped (see [`Lease`]). The header's
//! units are paid before the arena moves: a decode whose quota cannot pay them
//! fails and leaves the entry as it was. The decoder keeps
//! reading its own `Arena`, with no extra indirection on the hot path, and a hit
//! allocates nothing. While an arena is lent, another decode of the same header (a
//! nested one) misses and parses as usual.
//!
//! Bounds, so a stream of distinct (hostile) headers cannot grow memory: at most
//! [`ENTRIES`] headers of at most [`MAX_KEY`] bytes each; a full cache replaces the
//! least recently used entry that is not lent out (nothing is kept when all are),
//! and a header longer than [`MAX_KEY`] is never kept.

use super::subtype::{self, LentMemo, Memo};
use crate::wire::header::{Arena, Header, Shape};
use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::num::NonZeroU64;

/// Headers kept per thread.
pub(crate) const ENTRIES: usize = 8;

/// Longest header kept, in bytes (magic, table and argument types).
pub(crate) const MAX_KEY: usize = 2048;

/// The header limits a header was parsed under: part of the key, since the same
/// bytes may parse under one limit and fail under a tighter one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Limits {
    pub max_type_len: usize,
    pub max_header_len: usize,
}

struct Entry {
    /// The header's bytes; a replaced entry's buffer is reused for the next key.
    key: Vec<u8>,
    limits: Limits,
    /// `None` while lent to a decoder.
    arena: Option<Arena>,
    /// The subtype answers decodes of this header found between its wire types and
    /// the thread's interned expected types, lent with the arena.
    memo: Option<Box<Memo>>,
    shape: Shape,
    /// Tells a returned arena whether its entry is still the one it came from.
    /// Never zero, so that an `Option<Lease>` needs no tag of its own.
    generation: NonZeroU64,
    /// Last use, for replacing the least recently used entry.
    used: u64,
}

struct Cache {
    entries: Vec<Entry>,
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
}

/// Where a lent arena goes back to when its decoder is dropped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lease {
    slot: usize,
    generation: NonZeroU64,
}

/// A kept header lent to a decoder: its arena moved out of its entry, its shape,
/// the lease to return the arena on, the subtype answers earlier decodes of it
/// kept, if any, and the decoding quota left once the header is paid for.
pub(crate) struct Hit {
    pub arena: Arena,
    pub shape: Shape,
    pub lease: Lease,
    pub answers: Option<Box<Memo>>,
    pub decoding_quota: Option<usize>,
}

/// The kept header `bytes` starts with, parsed under `limits`, if there is one and
/// its arena is not lent out. `pay` is given the header's length first and returns
/// the decoding quota left after its units, or the error when the quota cannot
/// pay: then the arena stays in its entry, so that no path but the decoder's
/// needs it. Inlined, so the arena moves once, from its entry to where the decoder
/// keeps it.
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
            c.clock += 1;
            let clock = c.clock;
            let slot = c.entries.iter().position(|e| {
                e.arena.is_some()
                    && e.limits == limits
                    && bytes
                        .get(..e.key.len())
                        .is_some_and(|k| same_bytes(k, &e.key))
            })?;
            let e = c.entries.get_mut(slot)?;
            e.used = clock;
            let paid = pay(e.shape.len);
            // Answers are taken with the arena, so a refused payment takes none.
            let answers = paid.is_ok() && e.memo.is_some();
            let hit = match paid {
                // The scan found the arena there.
                Ok(decoding_quota) => e.arena.take().map(|arena| {
                    Ok(Hit {
                        arena,
                        shape: e.shape,
                        lease: Lease {
                            slot,
                            generation: e.generation,
                        },
                        answers: e.memo.take(),
                        decoding_quota,
                    })
                }),
                Err(err) => Some(Err(err)),
            };
            c.hits += 1;
            c.answers_taken += u64::from(answers);
            hit
        })
        .ok()
        .flatten()
}

/// Keeps a header that just parsed from `bytes` under `limits`, lent at once to the
/// decoder that parsed it: the returned lease moves its arena into the entry when
/// that decoder is dropped. `None` (the decoder recycles its arena as before) when
/// the header is too long, the cache is off, an entry already holds these bytes (a
/// nested decode of a header whose arena is out), or every entry is lent.
pub(crate) fn admit(bytes: &[u8], limits: Limits, header: &Header) -> Option<Lease> {
    if header.shape.len > MAX_KEY {
        return None;
    }
    let key = bytes.get(..header.shape.len)?;
    CACHE
        .try_with(|c| c.borrow_mut().admit(key, limits, header))
        .ok()
        .flatten()
}

/// `a == b`, sixteen bytes at a time, the last sixteen bytes (overlapping the
/// ones before them) standing for the tail: on wasm, `memcmp` compares byte by
/// byte, and every hit compares a whole header. A header is mostly equal to the
/// key it is compared with, so each step tests its two words with one branch.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let word = |c: Option<&[u8; 8]>| c.map_or(0, |c| u64::from_le_bytes(*c));
    if a.len() < 16 {
        if a.len() < 8 {
            return a == b;
        }
        return (word(a.first_chunk()) ^ word(b.first_chunk()))
            | (word(a.last_chunk()) ^ word(b.last_chunk()))
            == 0;
    }
    let pair = |c: &[u8]| <[u8; 16]>::try_from(c).map_or(0, u128::from_le_bytes);
    a.chunks_exact(16)
        .zip(b.chunks_exact(16))
        .all(|(x, y)| pair(x) == pair(y))
        && a.last_chunk::<16>().map(|c| u128::from_le_bytes(*c))
            == b.last_chunk::<16>().map(|c| u128::from_le_bytes(*c))
}

impl Cache {
    /// Adds an entry for `key`, lent out from the start, replacing the least
    /// recently used entry not lent out when full. The replaced entry's arena
    /// vectors go back to the spares the next parse takes, and its key buffer holds
    /// the new key.
    fn admit(&mut self, key: &[u8], limits: Limits, header: &Header) -> Option<Lease> {
        if self.off
            || self
                .entries
                .iter()
                .any(|e| e.limits == limits && same_bytes(&e.key, key))
        {
            return None;
        }
        self.clock += 1;
        let slot = if self.entries.len() < ENTRIES {
            if self.entries.capacity() == 0 {
                self.entries.reserve_exact(ENTRIES);
            }
            self.entries.push(Entry {
                key: Vec::new(),
                limits,
                arena: None,
                memo: None,
                shape: header.shape,
                generation: NonZeroU64::MIN,
                used: 0,
            });
            self.entries.len() - 1
        } else {
            self.entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.arena.is_some())
                .min_by_key(|(_, e)| e.used)
                .map(|(i, _)| i)?
        };
        let clock = self.clock;
        let generation = NonZeroU64::new(clock)?;
        let e = self.entries.get_mut(slot)?;
        if let Some(mut old) = e.arena.take() {
            old.recycle();
        }
        if let Some(old) = e.memo.take() {
            subtype::recycle(old);
        }
        e.key.clear();
        e.key.extend_from_slice(key);
        e.limits = limits;
        e.shape = header.shape;
        e.generation = generation;
        e.used = clock;
        Some(Lease { slot, generation })
    }
}

/// A decoder's wire arena, with where it goes when the decoder is dropped: back to
/// the entry it was lent from (`lease`), with the subtype answers found about it
/// when they hold beyond the message, or else to the spares the next parse reuses.
///
/// The giving back is this field's `Drop`, not the decoder's: this holds nothing
/// borrowed from the input, so the decoder (`DecodeState<'de>`, `IDLDeserialize<'de>`)
/// has no destructor that needs the input alive, and may be dropped after it, as
/// candid's may: `Decode!(&bytes, T)` as the last expression of a function whose
/// local `bytes` it reads is a temporary dropped after that local (before edition
/// 2024), which a decoder with such a destructor makes a borrow error.
///
/// `repr(C)` with the arena first: the arena then sits where the decoder's field
/// does, as it did when the decoder held it directly.
#[repr(C)]
pub(crate) struct LentArena {
    /// Taken out by `Drop` (to go back to its entry or the spares) without leaving
    /// an empty arena behind to build and drop.
    arena: ManuallyDrop<Arena>,
    /// Set when the arena is lent by the cache: where it goes back.
    pub lease: Option<Lease>,
    /// The subtype memo of the decode: its answers go back with the arena.
    pub memo: LentMemo,
    /// True while the memo's answers are about the thread's interned expected types
    /// (not a run-time type's private arena or the wire types): only then are they
    /// kept with the arena for the next message.
    pub memo_on_interned: bool,
}

impl LentArena {
    #[inline(always)]
    pub(crate) fn new(arena: Arena, lease: Option<Lease>, memo: LentMemo) -> Self {
        LentArena {
            arena: ManuallyDrop::new(arena),
            lease,
            memo,
            memo_on_interned: true,
        }
    }

    /// The arena and the memo, borrowed apart, for a subtype check.
    #[inline(always)]
    pub(crate) fn with_memo(&mut self) -> (&Arena, &mut LentMemo) {
        (&self.arena, &mut self.memo)
    }
}

impl std::ops::Deref for LentArena {
    type Target = Arena;
    #[inline(always)]
    fn deref(&self) -> &Arena {
        &self.arena
    }
}

impl Drop for LentArena {
    fn drop(&mut self) {
        if let Some(lease) = self.lease.take() {
            let answers = if self.memo_on_interned {
                self.memo.take_answers()
            } else {
                None
            };
            // SAFETY: when the arena went back, `arena` is not used again: this is
            // its holder's drop, and `ManuallyDrop` does not drop it after.
            if unsafe { give_back_from(lease, &mut self.arena, answers) } {
                return;
            }
        }
        // SAFETY: as above: nothing uses `arena` after its holder's drop.
        unsafe { recycle_from(&mut self.arena) };
    }
}

/// Gives a lent arena back to its entry, with the subtype answers to keep (`None`
/// keeps none); if the entry was replaced meanwhile (or the cache is unreachable,
/// while the thread is torn down), the arena's vectors and the memo are recycled
/// instead.
pub(crate) fn give_back(lease: Lease, arena: Arena, memo: Option<Box<Memo>>) {
    let mut arena = ManuallyDrop::new(arena);
    // SAFETY: `arena` is not used again when it was given back, nor after it is
    // recycled.
    if !unsafe { give_back_from(lease, &mut arena, memo) } {
        unsafe { recycle_from(&mut arena) };
    }
}

/// [`give_back`] from where the decoder keeps its arena, without moving it anywhere
/// else first: `true` when the arena went back to its entry; `false`, `wire`
/// untouched, when the caller is to recycle it ([`recycle_from`]). The subtype
/// answers are kept or recycled either way. Inlined into the decoder's drop, with
/// the rare cases out of line, so the common one is one move and needs no stack.
///
/// # Safety
///
/// On `true` the arena has been moved out of `wire`: the caller must not use or
/// drop `wire` again.
#[inline(always)]
pub(crate) unsafe fn give_back_from(
    lease: Lease,
    wire: &mut ManuallyDrop<Arena>,
    memo: Option<Box<Memo>>,
) -> bool {
    let mut memo = memo;
    let given = CACHE
        .try_with(|c| {
            let mut c = c.borrow_mut();
            match c.entries.get_mut(lease.slot) {
                Some(e) if e.generation == lease.generation && e.arena.is_none() => {
                    // SAFETY: the caller does not use `wire` again, as this returns
                    // `true`.
                    e.arena = Some(unsafe { ManuallyDrop::take(wire) });
                    memo = std::mem::replace(&mut e.memo, memo.take());
                    true
                }
                _ => false,
            }
        })
        .unwrap_or(false);
    if let Some(m) = memo {
        recycle_memo(m);
    }
    given
}

/// A memo [`give_back_from`] could not keep (or replaced), to the spares.
#[cold]
#[inline(never)]
fn recycle_memo(m: Box<Memo>) {
    subtype::recycle(m);
}

/// A wire arena no entry takes: its vectors go to the spares the next parse
/// reuses, and the rest is dropped. By reference, so that a decoder does not copy
/// its arena for this path.
///
/// # Safety
///
/// The arena is dropped: the caller must not use or drop `wire` again.
#[inline(never)]
pub(crate) unsafe fn recycle_from(wire: &mut ManuallyDrop<Arena>) {
    wire.recycle();
    // SAFETY: the caller does not use `wire` again.
    unsafe { ManuallyDrop::drop(wire) }
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
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(len: usize) -> Header {
        Header {
            arena: Arena::new(),
            shape: Shape {
                args: crate::wire::header::Span { start: 0, len: 0 },
                table_len: 0,
                len,
            },
        }
    }

    const LIMITS: Limits = Limits {
        max_type_len: 10,
        max_header_len: 100,
    };

    /// `take`, without the answers.
    fn take(bytes: &[u8], limits: Limits) -> Option<(Header, Lease)> {
        super::take(bytes, limits, |_| Ok(None)).map(|h| {
            let h = h.unwrap();
            let header = Header {
                arena: h.arena,
                shape: h.shape,
            };
            (header, h.lease)
        })
    }

    fn entries() -> usize {
        CACHE.with(|c| c.borrow().entries.len())
    }

    #[test]
    fn same_bytes_is_slice_equality() {
        let base: Vec<u8> = (0..40u8).collect();
        for len in 0..base.len() {
            let a = &base[..len];
            assert!(same_bytes(a, a));
            for i in 0..len {
                let mut b = a.to_vec();
                b[i] ^= 0x80;
                assert!(!same_bytes(a, &b), "len {len}, byte {i}");
            }
            assert!(!same_bytes(a, &base[..len + 1]));
        }
    }

    /// Admits a header as the decoder that parsed it would, and returns its arena
    /// at once (the decoder dropped).
    fn parsed(msg: &[u8], len: usize) -> bool {
        let h = header(len);
        match admit(msg, LIMITS, &h) {
            Some(lease) => {
                give_back(lease, h.arena, None);
                true
            }
            None => false,
        }
    }

    #[test]
    fn a_header_is_kept_the_first_time_and_found_by_prefix_and_limits() {
        set_enabled(true);
        let msg = b"DIDL\x00\x01\x7d\x05";
        let h = header(7);
        let lease = admit(msg, LIMITS, &h).unwrap();
        // Lent to the decoder that parsed it: not found until it is dropped, and a
        // nested parse of the same bytes is not kept twice.
        assert!(take(msg, LIMITS).is_none());
        assert!(admit(msg, LIMITS, &header(7)).is_none());
        give_back(lease, h.arena, None);
        let (h, lease) = take(b"DIDL\x00\x01\x7d\x7f\x00", LIMITS).unwrap();
        assert_eq!(h.shape.len, 7);
        // Lent out: not found again until given back.
        assert!(take(msg, LIMITS).is_none());
        give_back(lease, h.arena, None);
        assert!(take(msg, LIMITS)
            .map(|(h, l)| give_back(l, h.arena, None))
            .is_some());
        // Other bytes, a shorter input, or other limits: not found.
        assert!(take(b"DIDL\x00\x01\x7c\x05", LIMITS).is_none());
        assert!(take(b"DIDL\x00\x01", LIMITS).is_none());
        let tighter = Limits {
            max_type_len: 1,
            ..LIMITS
        };
        assert!(take(msg, tighter).is_none());
        assert_eq!(entries(), 1);
        // Turned off: nothing is kept or found.
        set_enabled(false);
        assert!(!parsed(msg, 7));
        assert!(take(msg, LIMITS).is_none());
        set_enabled(true);
    }

    /// A hit pays for its header before its arena moves: the quota left is
    /// handed on, and a refusal is returned with the entry as it was, its kept
    /// answers included (counted as a hit, as when the arena was taken and given
    /// back, but not as answers taken).
    #[test]
    fn a_hit_pays_first_and_a_refusal_leaves_the_entry() {
        set_enabled(true);
        let msg = b"DIDL\x00\x01\x7d\x05";
        assert!(parsed(msg, 7));
        let (h, lease) = take(msg, LIMITS).expect("kept");
        give_back(lease, h.arena, Some(Box::default()));
        let hits = super::hits();
        let answers = super::answers_taken();
        let refused = super::take(msg, LIMITS, |len| {
            Err(crate::Error::limit("Decoding cost exceeds the limit", len))
        });
        assert_eq!(
            refused.map(|r| r.err().map(|e| e.to_string())),
            Some(Some(
                "limit exceeded: Decoding cost exceeds the limit at byte offset 7".to_string()
            ))
        );
        assert_eq!(super::hits(), hits + 1);
        assert_eq!(super::answers_taken(), answers);
        let hit = super::take(msg, LIMITS, |len| Ok(Some(100 - len)))
            .expect("still kept")
            .expect("paid");
        assert_eq!(hit.decoding_quota, Some(93));
        assert_eq!(hit.shape.len, 7);
        assert!(hit.answers.is_some());
        assert_eq!(super::answers_taken(), answers + 1);
        give_back(hit.lease, hit.arena, None);
        set_enabled(true);
    }

    #[test]
    fn distinct_headers_stay_within_the_bounds() {
        set_enabled(true);
        let msgs: Vec<Vec<u8>> = (0..1000u32)
            .map(|i| [b"DIDL".as_slice(), &i.to_le_bytes()].concat())
            .collect();
        // At most ENTRIES kept, the most recent.
        for m in &msgs {
            assert!(parsed(m, m.len()));
        }
        assert_eq!(entries(), ENTRIES);
        assert!(take(&msgs[0], LIMITS).is_none());
        assert!(take(&msgs[999 - ENTRIES], LIMITS).is_none());
        for m in &msgs[1000 - ENTRIES..] {
            let (h, lease) = take(m, LIMITS).unwrap();
            give_back(lease, h.arena, None);
        }
        // A header over MAX_KEY is never kept.
        set_enabled(true);
        let long = vec![0u8; MAX_KEY + 1];
        assert!(!parsed(&long, long.len()));
        assert_eq!(entries(), 0);
        set_enabled(true);
    }

    #[test]
    fn lent_arenas_are_not_replaced_and_a_stale_lease_recycles() {
        set_enabled(true);
        let msgs: Vec<[u8; 5]> = (0..=ENTRIES as u8)
            .map(|i| [b'D', b'I', b'D', b'L', i])
            .collect();
        for m in &msgs[..ENTRIES] {
            assert!(parsed(m, 5));
        }
        let leases: Vec<_> = msgs[..ENTRIES]
            .iter()
            .map(|m| take(m, LIMITS).unwrap())
            .collect();
        // Every entry is lent: a new header cannot replace one.
        let last = &msgs[ENTRIES];
        assert!(!parsed(last, 5));
        assert!(take(last, LIMITS).is_none());
        for (h, lease) in leases {
            give_back(lease, h.arena, None);
        }
        // An entry replaced while its arena is out: the old lease no longer fits.
        let (h, old) = take(&msgs[0], LIMITS).unwrap();
        set_enabled(true);
        assert!(parsed(&msgs[0], 5));
        let (h2, fresh) = take(&msgs[0], LIMITS).unwrap();
        give_back(old, h.arena, None);
        assert!(
            take(&msgs[0], LIMITS).is_none(),
            "the stale arena went back"
        );
        give_back(fresh, h2.arena, None);
        assert!(take(&msgs[0], LIMITS).is_some());
        set_enabled(true);
    }
}
