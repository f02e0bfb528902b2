//! The header of a tuple of shallow argument types (eight levels at most),
//! computed by the compiler from their [`Tree`] constants (`types/shallow.rs`): a
//! message of such types costs no type work at run time, on its first call or any
//! other.
//!
//! The bytes are `TypeSerialize`'s: its pre-order (a node's index before its
//! parts'), and one entry for structurally equal types. An entry is written, its
//! parts' entries after it (their indices then filled into its holes), and it is
//! compared by its bytes with the entries before it: equal to one, it and its
//! parts are left out for it, as `TypeSerialize` would not visit them. Bytes
//! decide equality here because these types are not recursive: an entry of
//! primitives names no other entry, and an entry above it names its parts'
//! entries, each already the first of its shape (`static_flat.rs` does the same
//! for two levels at run time). `tests/static_header_paths.rs` checks the bytes
//! against `ty()`'s.

use crate::types::shallow::{Tree, MAX_TREE};
use crate::types::static_type::StaticLabel;
use crate::wire::opcode;

/// The bytes a constant header holds: the longest kept in the binary per tuple
/// type that has one (longer headers are written at run time).
pub(crate) const HEADER_BYTES: usize = 256;

/// The most entries such a table has: each entry index is then one byte.
pub(crate) const MAX_ENTRIES: usize = MAX_TREE;

/// The most arguments a tuple has (`encode_impl!`).
const MAX_ARGS: usize = 16;

/// A tuple's header, or none.
pub(crate) struct ConstHeader {
    /// 0 when there is none.
    len: usize,
    bytes: [u8; HEADER_BYTES],
    /// Whether the values of a message fit in `short` bytes whatever they are
    /// (counting a `nat` or `int` as the 19 bytes of any 128-bit number).
    short: bool,
}

impl ConstHeader {
    /// The header's bytes, if the compiler could write it (a `const fn`: for
    /// constants built on it, `de/known.rs`).
    pub(crate) const fn bytes(&self) -> Option<&[u8]> {
        if self.len == 0 {
            None
        } else {
            Some(self.bytes.split_at(self.len).0)
        }
    }

    /// The header's bytes, if the compiler could write it, and whether the values
    /// after it fit in `short` bytes (the `short` given to [`header`]).
    #[inline(always)]
    pub(super) fn get(&'static self) -> Option<(&'static [u8], bool)> {
        if self.len == 0 {
            None
        } else {
            Some((self.bytes.get(..self.len)?, self.short))
        }
    }
}

/// The most bytes a `nat` or `int` is counted as: any 128-bit number's LEB128.
const WIDE_NUMBER: usize = 19;

/// The most bytes a value of the type whose reference byte in the table of
/// `header` is `t` takes, within `depth` levels; `None` if it has no bound (a
/// `text` or a `vec`).
const fn value_bound(header: &[u8], t: u8, depth: usize) -> Option<usize> {
    if t >= 0x40 {
        // A primitive's opcode byte (`0x7f` is `null`, `-1`).
        return match t {
            0x7f | 0x70 | 0x6f => Some(0),
            0x7e | 0x7b | 0x77 => Some(1),
            0x7a | 0x76 => Some(2),
            0x79 | 0x75 | 0x73 => Some(4),
            0x78 | 0x74 | 0x72 => Some(8),
            0x7d | 0x7c => Some(WIDE_NUMBER),
            0x68 => Some(31),
            _ => None,
        };
    }
    if depth == 0 {
        return None;
    }
    // Entry `t`: entries after the magic and the count, each an opcode, then one
    // part (`opt`, `vec`) or a count and that many id-and-part fields.
    let mut at = opcode::MAGIC.len() + 1;
    let mut e = 0;
    while e < t {
        at = match entry_end(header, at) {
            Some(end) => end,
            None => return None,
        };
        e += 1;
    }
    if at + 1 >= header.len() {
        return None;
    }
    let op = header[at];
    if op == opcode::OPT as u8 & 0x7f {
        return match value_bound(header, header[at + 1], depth - 1) {
            Some(n) => Some(1 + n),
            None => None,
        };
    }
    if op != opcode::RECORD as u8 & 0x7f && op != opcode::VARIANT as u8 & 0x7f {
        return None;
    }
    let n = header[at + 1] as usize;
    let mut at = at + 2;
    let (mut sum, mut most) = (0, 0);
    let mut i = 0;
    while i < n {
        while at < header.len() && header[at] >= 0x80 {
            at += 1;
        }
        at += 1;
        if at >= header.len() {
            return None;
        }
        let Some(b) = value_bound(header, header[at], depth - 1) else {
            return None;
        };
        sum += b;
        if b > most {
            most = b;
        }
        at += 1;
        i += 1;
    }
    if op == opcode::RECORD as u8 & 0x7f {
        Some(sum)
    } else {
        // A case's index, then its value.
        Some(if n > 128 { 2 } else { 1 } + most)
    }
}

/// Where the entry starting at `at` ends.
pub(crate) const fn entry_end(header: &[u8], at: usize) -> Option<usize> {
    if at + 1 >= header.len() {
        return None;
    }
    let op = header[at];
    if op == opcode::OPT as u8 & 0x7f || op == opcode::VEC as u8 & 0x7f {
        return Some(at + 2);
    }
    let n = header[at + 1] as usize;
    let mut at = at + 2;
    let mut i = 0;
    while i < n {
        while at < header.len() && header[at] >= 0x80 {
            at += 1;
        }
        at += 2;
        i += 1;
    }
    Some(at)
}

/// The table being written.
struct Writer {
    out: [u8; HEADER_BYTES],
    len: usize,
    /// Where each entry's own bytes are.
    spans: [(usize, usize); MAX_ENTRIES],
    count: usize,
    /// How each entry's fields are labelled (`Entry::labels`).
    labels: [&'static [StaticLabel]; MAX_ENTRIES],
    /// False once an entry was left out for an earlier equal one whose fields
    /// are labelled otherwise: the same wire entry, two expected types.
    labels_agree: bool,
}

/// Whether two entries' fields are labelled alike.
const fn same_labels(a: &[StaticLabel], b: &[StaticLabel]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        let same = match (&a[i], &b[i]) {
            (StaticLabel::Named(x), StaticLabel::Named(y)) => same_str(x, y),
            (StaticLabel::Id, StaticLabel::Id) | (StaticLabel::Unnamed, StaticLabel::Unnamed) => {
                true
            }
            _ => false,
        };
        if !same {
            return false;
        }
        i += 1;
    }
    true
}

const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
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

    /// Writes entry `i` of `tree` and then, into its holes, its parts' entries,
    /// and gives its index: its own, or an earlier equal entry's, in which case
    /// nothing it wrote is kept. `None` past the room or the entries this path
    /// takes.
    const fn node(&mut self, tree: &Tree, i: usize) -> Option<u8> {
        let own = tree.entry(i);
        let idx = self.count;
        self.count += 1;
        let start = self.len;
        if !self.put(own.bytes()) {
            return None;
        }
        let end = self.len;
        let mut h = 0;
        while h < own.holes() {
            let Some(c) = self.node(tree, tree.kid(i, h)) else {
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
                if !same_labels(self.labels[k], own.labels()) {
                    self.labels_agree = false;
                }
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
        self.labels[idx] = own.labels();
        Some(idx as u8)
    }
}

/// The header of a message of arguments `args` (`DIDL`, the table, the argument
/// types), or none if an argument is not known or deeper than eight levels; and
/// whether their values always fit in `short` bytes.
pub(super) const fn header(args: &[Tree], short: usize) -> ConstHeader {
    write(args, short).header
}

/// A header the compiler wrote, with how each of its entries' fields are
/// labelled (see [`Writer::labels`]).
pub(crate) struct Written {
    pub header: ConstHeader,
    pub labels: [&'static [StaticLabel]; MAX_ENTRIES],
    pub labels_agree: bool,
}

/// [`header`], with the labels.
pub(crate) const fn write(args: &[Tree], short: usize) -> Written {
    const NONE: Written = Written {
        header: ConstHeader {
            len: 0,
            bytes: [0; HEADER_BYTES],
            short: false,
        },
        labels: [&[]; MAX_ENTRIES],
        labels_agree: false,
    };
    let mut w = Writer {
        out: [0; HEADER_BYTES],
        len: 0,
        spans: [(0, 0); MAX_ENTRIES],
        count: 0,
        labels: [&[]; MAX_ENTRIES],
        labels_agree: true,
    };
    // The table's size goes in the byte after the magic, once it is known.
    if args.len() > MAX_ARGS || !w.put(opcode::MAGIC) || !w.put(&[0]) {
        return NONE;
    }
    let mut refs = [0u8; MAX_ARGS];
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if !a.is_complete() {
            return NONE;
        }
        refs[i] = if let Some(b) = a.entry(0).prim() {
            b
        } else {
            match w.node(a, 0) {
                Some(c) => c,
                None => return NONE,
            }
        };
        i += 1;
    }
    w.out[opcode::MAGIC.len()] = w.count as u8;
    if !w.put(&[args.len() as u8]) || !w.put(refs.split_at(args.len()).0) {
        return NONE;
    }
    // The values' bound: the arguments' bounds added up.
    let mut total = 0;
    let mut i = 0;
    while i < args.len() {
        match value_bound(w.out.split_at(w.len).0, refs[i], MAX_ENTRIES) {
            Some(n) if total + n <= short => total += n,
            _ => {
                total = usize::MAX;
                break;
            }
        }
        i += 1;
    }
    Written {
        header: ConstHeader {
            len: w.len,
            bytes: w.out,
            short: total <= short,
        },
        labels: w.labels,
        labels_agree: w.labels_agree,
    }
}
