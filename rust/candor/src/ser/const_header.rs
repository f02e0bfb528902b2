//! The header of a tuple of shallow argument types, computed by the compiler from
//! their [`Flat`] constants (`types/shallow.rs`): a message of such types costs no
//! type work at run time, on its first call or any other.
//!
//! The bytes are those `static_flat.rs` writes at run time from the same types'
//! descriptions, by the same steps: `TypeSerialize`'s pre-order (a node's index
//! before its parts'), each entry compared by its bytes with the entries before it
//! and left out for an equal one, which is right for these types because an entry
//! of primitives names no other entry, and a two-level entry names only such
//! entries. `tests/static_header_paths.rs` checks the bytes against `ty()`'s.

use crate::types::shallow::{Entry, Flat, MAX_HOLES};
use crate::wire::opcode;

/// The bytes a constant header holds: the longest kept in the binary per tuple
/// type that has one (longer headers are written at run time).
const HEADER_BYTES: usize = 128;

/// The most entries such a table has (as `static_flat.rs`).
const MAX_ENTRIES: usize = 16;

/// A tuple's header, or none.
pub(super) struct ConstHeader {
    /// 0 when there is none.
    len: usize,
    bytes: [u8; HEADER_BYTES],
}

impl ConstHeader {
    /// The header's bytes, if the compiler could write it.
    #[inline(always)]
    pub(super) fn get(&'static self) -> Option<&'static [u8]> {
        if self.len == 0 {
            None
        } else {
            self.bytes.get(..self.len)
        }
    }
}

/// The table being written.
struct Writer {
    out: [u8; HEADER_BYTES],
    len: usize,
    /// Where each entry's own bytes are.
    spans: [(usize, usize); MAX_ENTRIES],
    count: usize,
}

impl Writer {
    /// Appends `bytes`; false if there is no room.
    const fn put(&mut self, bytes: &[u8]) -> bool {
        if self.len + bytes.len() > HEADER_BYTES {
            return false;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.out[self.len + i] = bytes[i];
            i += 1;
        }
        self.len += bytes.len();
        true
    }

    /// Whether the bytes at `a` equal those at `b`.
    const fn same(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        if a.1 - a.0 != b.1 - b.0 {
            return false;
        }
        let mut i = 0;
        while i < a.1 - a.0 {
            if self.out[a.0 + i] != self.out[b.0 + i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Writes `own`'s entry and then, into its holes, the entries of `parts` (a
    /// node of primitives has none), and gives its index: its own, or an earlier
    /// equal entry's, in which case nothing it wrote is kept. `None` past the
    /// room or the entries this path takes.
    const fn node(&mut self, own: &Entry, parts: &[Entry; MAX_HOLES]) -> Option<u8> {
        let idx = self.count;
        self.count += 1;
        let start = self.len;
        if !self.put(own.bytes()) {
            return None;
        }
        let end = self.len;
        let mut h = 0;
        while h < own.holes() {
            let Some(c) = self.node(&parts[h], &[Entry::UNKNOWN; MAX_HOLES]) else {
                return None;
            };
            self.out[start + own.hole_at(h)] = c;
            h += 1;
        }
        let mut k = 0;
        while k < idx && k < MAX_ENTRIES {
            if self.same(self.spans[k], (start, end)) {
                // Equal to an earlier entry, its parts are too: they added no
                // entry, and `TypeSerialize` would not have visited them.
                self.len = start;
                self.count = idx;
                return Some(k as u8);
            }
            k += 1;
        }
        if idx >= MAX_ENTRIES {
            return None;
        }
        self.spans[idx] = (start, end);
        Some(idx as u8)
    }
}

/// The header of a message of arguments `args` (`DIDL`, the table, the argument
/// types), or none if an argument is not known or deeper than two levels.
pub(super) const fn header(args: &[Flat]) -> ConstHeader {
    const NONE: ConstHeader = ConstHeader {
        len: 0,
        bytes: [0; HEADER_BYTES],
    };
    let mut w = Writer {
        out: [0; HEADER_BYTES],
        len: 0,
        spans: [(0, 0); MAX_ENTRIES],
        count: 0,
    };
    // The table's size goes in the byte after the magic, once it is known.
    if args.len() > MAX_ENTRIES || !w.put(opcode::MAGIC) || !w.put(&[0]) {
        return NONE;
    }
    let mut refs = [0u8; MAX_ENTRIES];
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        refs[i] = if let Some(b) = a.own.prim() {
            b
        } else if a.own.is_node() {
            match w.node(&a.own, &a.parts) {
                Some(c) => c,
                None => return NONE,
            }
        } else {
            return NONE;
        };
        i += 1;
    }
    w.out[opcode::MAGIC.len()] = w.count as u8;
    if !w.put(&[args.len() as u8]) || !w.put(refs.split_at(args.len()).0) {
        return NONE;
    }
    ConstHeader {
        len: w.len,
        bytes: w.out,
    }
}
