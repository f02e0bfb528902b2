//! How long the last messages were, for the tuple types whose header the compiler
//! wrote (`const_header.rs`), which have no cache entry to keep it in: a message
//! longer than its header and the slack records its size here, and the next one of
//! its type reserves that much at once instead of growing its buffer.
//!
//! Keyed by the address of the constant header, which is one allocation per tuple
//! type (two types whose headers the compiler merged share one hint, which is right
//! as often as not, and a hint only sizes a reservation). Messages that fit the
//! header and the slack, most replies, record nothing. The table is direct-mapped
//! by that address, so finding a hint, or that there is none, is one slot's read.

use std::cell::Cell;

/// Slots of the table: a header's slot is fixed by its address, and a type that
/// lands on a taken slot takes it over (a hint only sizes a reservation).
const SLOTS: usize = 64;

/// One slot: a header's address (0 for none) and its hint.
struct Slot {
    key: Cell<usize>,
    size: Cell<usize>,
}

thread_local! {
    /// Fixed arrays of cells: the thread-local needs no destructor and no
    /// first-use registration, and a lookup is one slot's two loads.
    static HINTS: [Slot; SLOTS] = const {
        [const {
            Slot {
                key: Cell::new(0),
                size: Cell::new(0),
            }
        }; SLOTS]
    };
}

/// The slot of the header at address `key`: its high bits after a multiply.
#[inline(always)]
fn slot(key: usize) -> usize {
    (key >> 3) % SLOTS
}

/// The size recorded for messages with header `header`, if any.
#[inline(always)]
pub(super) fn get(header: &'static [u8]) -> Option<usize> {
    let key = header.as_ptr() as usize;
    HINTS
        .try_with(|h| {
            let s = h.get(slot(key))?;
            (s.key.get() == key).then(|| s.size.get())
        })
        .ok()
        .flatten()
}

/// Records `hint` for messages with header `header`.
#[inline(never)]
pub(super) fn record(header: &'static [u8], hint: usize) {
    let key = header.as_ptr() as usize;
    let _ = HINTS.try_with(|h| {
        if let Some(s) = h.get(slot(key)) {
            s.key.set(key);
            s.size.set(hint);
        }
    });
}

/// What to record after a message of `len` bytes whose reservation had the hint
/// `last` (`None`: nothing to record, the message fit its header and `slack`, or
/// the hint stays): half way from the last hint to this size, but never below it,
/// as the cached headers' hints move.
#[inline(always)]
pub(super) fn next(last: Option<usize>, len: usize, header: usize, slack: usize) -> Option<usize> {
    match last {
        Some(last) => Some(len.max(last / 2 + len / 2)).filter(|&h| h != last),
        None => Some(len).filter(|&len| len > header + slack),
    }
}

#[cfg(test)]
mod tests {
    use super::{get, next, record};

    #[test]
    fn hints_follow_the_sizes_of_each_header() {
        // Headers at addresses picked by their slots, whatever the layout: `a`,
        // `b` in another slot, and `c` in `a`'s.
        static POOL: [[u8; 8]; 256] = [[0; 8]; 256];
        let slot = |h: &[u8]| super::slot(h.as_ptr() as usize);
        let a: &'static [u8] = &POOL[0];
        let b: &'static [u8] = POOL
            .iter()
            .find(|h| slot(*h) != slot(a))
            .expect("another slot");
        let c: &'static [u8] = POOL[1..]
            .iter()
            .find(|h| slot(*h) == slot(a))
            .expect("an address sharing a's slot");
        assert_eq!(get(a), None);
        record(a, 100);
        assert_eq!(get(a), Some(100));
        assert_eq!(get(b), None);
        record(a, 300);
        record(b, 50);
        assert_eq!((get(a), get(b)), (Some(300), Some(50)));
        // A header landing on a taken slot takes it over; the other has none.
        record(c, 7);
        assert_eq!((get(a), get(c), get(b)), (None, Some(7), Some(50)));
    }

    #[test]
    fn only_long_messages_and_changed_hints_are_recorded() {
        // A message within its header and the slack: nothing.
        assert_eq!(next(None, 40, 10, 32), None);
        assert_eq!(next(None, 43, 10, 32), Some(43));
        // Shorter: half way down; longer: at once; the same: nothing.
        assert_eq!(next(Some(100), 40, 10, 32), Some(70));
        assert_eq!(next(Some(70), 300, 10, 32), Some(300));
        assert_eq!(next(Some(300), 300, 10, 32), None);
    }
}
