//! Unit tests of the header cache: keys, limits, bounds, leases and replacement.

use super::*;
use crate::wire::header::Span;

fn shape(len: usize) -> Shape {
    Shape {
        args: Span { start: 0, len: 0 },
        table_len: 0,
        len,
    }
}

const LIMITS: Limits = Limits {
    max_type_len: 10,
    max_header_len: 100,
};

/// Entries whose state is lent out.
fn lent() -> usize {
    CACHE.with(|c| {
        c.borrow()
            .entries
            .iter()
            .filter(|e| e.state.is_none())
            .count()
    })
}

/// A state for the decoder that parsed `msg`'s header (`len` bytes), kept for
/// it when the cache admits it: dropping it gives it back.
fn lend(msg: &[u8], len: usize) -> (LentState, bool) {
    let state = parse_state(|| Rc::new(Arena::new()));
    let before = lent();
    let state = lend_parsed(msg, LIMITS, &shape(len), true, state);
    let admitted = lent() > before;
    (state, admitted)
}

/// `take`, paying nothing.
fn take_at(bytes: &[u8], limits: Limits) -> Option<Hit> {
    super::take(bytes, limits, |_| Ok(None)).map(|h| h.unwrap())
}

fn take(bytes: &[u8]) -> Option<Hit> {
    take_at(bytes, LIMITS)
}

/// Admits a header as the decoder that parsed it would, and gives its state
/// back at once (the decoder dropped).
fn parsed(msg: &[u8], len: usize) -> bool {
    lend(msg, len).1
}

fn entries() -> usize {
    CACHE.with(|c| c.borrow().entries.len())
}

#[test]
fn a_header_is_kept_the_first_time_and_found_by_prefix_and_limits() {
    set_enabled(true);
    let msg = b"DIDL\x00\x01\x7d\x05";
    let (lent, admitted) = lend(msg, 7);
    assert!(admitted);
    // Lent to the decoder that parsed it: not found until it is dropped, and a
    // nested parse of the same bytes is not kept twice.
    assert!(take(msg).is_none());
    assert!(!lend(msg, 7).1);
    drop(lent);
    let hit = take(b"DIDL\x00\x01\x7d\x7f\x00").unwrap();
    assert_eq!(hit.shape.len, 7);
    // Lent out: not found again until given back.
    assert!(take(msg).is_none());
    drop(hit);
    assert!(take(msg).is_some());
    // Other bytes, a shorter input, or other limits: not found.
    assert!(take(b"DIDL\x00\x01\x7c\x05").is_none());
    assert!(take(b"DIDL\x00\x01").is_none());
    let tighter = Limits {
        max_type_len: 1,
        ..LIMITS
    };
    assert!(take_at(msg, tighter).is_none());
    assert_eq!(entries(), 1);
    // Turned off: nothing is kept or found.
    set_enabled(false);
    assert!(!parsed(msg, 7));
    assert!(take(msg).is_none());
    set_enabled(true);
}

/// A hit pays for its header before its state moves: the quota left is
/// handed on, and a refusal is returned with the entry as it was (counted as a
/// hit, as when the state was taken and given back).
#[test]
fn a_hit_pays_first_and_a_refusal_leaves_the_entry() {
    set_enabled(true);
    let msg = b"DIDL\x00\x01\x7d\x05";
    assert!(parsed(msg, 7));
    let hits = super::hits();
    let refused = super::take(msg, LIMITS, |len| {
        Err(crate::error::Error::limit(
            "Decoding cost exceeds the limit",
            len,
        ))
    });
    assert_eq!(
        refused.map(|r| r.err().map(|e| e.to_string())),
        Some(Some(
            "limit exceeded: Decoding cost exceeds the limit at byte offset 7".to_string()
        ))
    );
    assert_eq!(super::hits(), hits + 1);
    let hit = super::take(msg, LIMITS, |len| Ok(Some(100 - len)))
        .expect("still kept")
        .expect("paid");
    assert_eq!(hit.decoding_quota, Some(93));
    assert_eq!(hit.shape.len, 7);
    drop(hit);
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
    assert!(take(&msgs[0]).is_none());
    assert!(take(&msgs[999 - ENTRIES]).is_none());
    for m in &msgs[1000 - ENTRIES..] {
        assert!(take(m).is_some());
    }
    // A header over MAX_KEY is never kept.
    set_enabled(true);
    let long = vec![0u8; MAX_KEY + 1];
    assert!(!parsed(&long, long.len()));
    assert_eq!(entries(), 0);
    set_enabled(true);
}

/// A full cache replaces the entry used least recently. A lone entry's hits
/// are not dated, and need not be: every entry admitted after them is newer.
#[test]
fn the_least_recently_used_entry_is_replaced() {
    let msgs: Vec<Vec<u8>> = (0..=ENTRIES as u32)
        .map(|i| [b"DIDL".as_slice(), &i.to_le_bytes()].concat())
        .collect();
    let new = &msgs[ENTRIES];
    let kept = |m: &Vec<u8>| take(m).is_some();
    for hit_after_the_others in [false, true] {
        set_enabled(true);
        assert!(parsed(&msgs[0], 8));
        for _ in 0..3 {
            assert!(kept(&msgs[0]), "the lone entry");
        }
        for m in &msgs[1..ENTRIES] {
            assert!(parsed(m, 8));
        }
        if hit_after_the_others {
            assert!(kept(&msgs[0]));
        }
        assert!(parsed(new, 8));
        assert_eq!(entries(), ENTRIES);
        if hit_after_the_others {
            assert!(kept(&msgs[0]));
            assert!(!kept(&msgs[1]), "the oldest of the others replaced");
        } else {
            assert!(!kept(&msgs[0]), "its hits came before the others");
            assert!(kept(&msgs[1]));
        }
        assert!(kept(new));
    }
    set_enabled(true);
}

/// Among several entries, the head (bytes 4 to 8) only narrows the scan: keys
/// that share it, keys shorter than it and messages shorter than it are told
/// apart by the whole comparison.
#[test]
fn the_head_narrows_the_scan_and_never_decides() {
    set_enabled(true);
    let (a, b) = (b"DIDL\x01\x6c\x00\x01\x00", b"DIDL\x01\x6c\x00\x01\x01");
    let short = b"DIDL\x01\x6e";
    for key in [&a[..], &b[..], &short[..]] {
        assert!(parsed(key, key.len()));
    }
    assert_eq!(entries(), 3);
    let mut msg = b.to_vec();
    msg.push(9);
    assert_eq!(take(&msg).map(|h| h.shape.len), Some(b.len()));
    assert_eq!(take(&a[..]).map(|h| h.shape.len), Some(a.len()));
    assert_eq!(take(b"DIDL\x01\x6e\x7d\x01").map(|h| h.shape.len), Some(6));
    assert!(take(b"DIDL\x01\x6c\x00\x01\x02").is_none());
    assert!(take(b"DIDL\x01").is_none());
    set_enabled(true);
}

#[test]
fn pinned_headers_stay_beside_the_entries_that_come_and_go() {
    set_enabled(true);
    let msg = |i: u32| [b"DIDL".as_slice(), &i.to_le_bytes(), b"pin"].concat();
    // Not kept yet: nothing to pin.
    assert!(!pin(&msg(0), LIMITS));
    for i in 0..MAX_PINNED as u32 {
        assert!(parsed(&msg(i), 11));
        assert!(pin(&msg(i), LIMITS));
        // Pinning again changes nothing.
        assert!(pin(&msg(i), LIMITS));
    }
    // No more than MAX_PINNED: the next header is kept, but not for good.
    let extra = msg(MAX_PINNED as u32);
    assert!(parsed(&extra, 11));
    assert!(!pin(&extra, LIMITS));
    // Other limits name another entry.
    let tighter = Limits {
        max_type_len: 1,
        ..LIMITS
    };
    assert!(!pin(&msg(0), tighter));
    // A stream of other headers replaces only the entries that come and go.
    for i in 1000..1100u32 {
        assert!(parsed(&msg(i), 11));
    }
    assert_eq!(entries(), ENTRIES + MAX_PINNED);
    for i in 0..MAX_PINNED as u32 {
        assert!(take(&msg(i)).is_some(), "pinned header {i}");
    }
    assert!(take(&extra).is_none());
    set_enabled(true);
    assert_eq!(entries(), 0);
    assert!(!pin(&msg(0), LIMITS));
}

#[test]
fn lent_states_are_not_replaced_and_a_stale_lease_goes_to_the_spare() {
    set_enabled(true);
    let msgs: Vec<[u8; 5]> = (0..=ENTRIES as u8)
        .map(|i| [b'D', b'I', b'D', b'L', i])
        .collect();
    for m in &msgs[..ENTRIES] {
        assert!(parsed(m, 5));
    }
    let hits: Vec<_> = msgs[..ENTRIES].iter().map(|m| take(m).unwrap()).collect();
    // Every entry is lent: a new header cannot replace one.
    let last = &msgs[ENTRIES];
    assert!(!parsed(last, 5));
    assert!(take(last).is_none());
    drop(hits);
    // An entry replaced while its state is out: the old lease no longer fits,
    // and the state goes to the spare instead.
    let old = take(&msgs[0]).unwrap();
    set_enabled(true);
    assert!(parsed(&msgs[0], 5));
    let fresh = take(&msgs[0]).unwrap();
    drop(old);
    assert!(take(&msgs[0]).is_none(), "the stale state went elsewhere");
    assert!(SPARE.with(|s| {
        let held = s.take();
        let some = held.is_some();
        s.set(held);
        some
    }));
    drop(fresh);
    assert!(take(&msgs[0]).is_some());
    set_enabled(true);
}
