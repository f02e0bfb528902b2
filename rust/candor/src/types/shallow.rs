//! What a type is down to eight levels, computed by the compiler: enough to
//! write the header of a shallow argument type (`ser/const_header.rs`) with no
//! work at run time.
//!
//! A static description (`static_type.rs`) links to other types through function
//! pointers, which the compiler cannot follow, so its header is written on the
//! first call of each method (and on every call of a query, whose caches the IC
//! discards). Constants can name other types' constants, but a constant that
//! reaches itself does not compile, and a recursive type would. So each level is
//! its own constant, and a level names only the level below it of its parts:
//!
//! * [`CandidType::_PART`](super::CandidType::_PART): what the type is to a node
//!   that holds it: a primitive's opcode, a node, or not known. It names no other
//!   type's constant (a transparent type forwards its inner type's);
//! * [`CandidType::_ENTRY`](super::CandidType::_ENTRY): the type's own table entry,
//!   from its parts' `_PART`: their opcodes written in place, a hole where a part
//!   is a node;
//! * `_L1` to [`CandidType::_L8`](super::CandidType::_L8): the type's entries down
//!   to that many levels ([`Tree`]), level `k` from its entry and its parts' level
//!   `k - 1`; complete when the type is no deeper.
//!
//! So no constant reaches itself: a recursive type's levels each name a lower
//! one, and end incomplete. Anything not known (a hand-written `CandidType`, a
//! function or service, a size past these arrays) makes the levels above it not
//! known, and the header is written at run time as before.

use super::static_type::{Prim, StaticLabel};
use crate::wire::opcode;

/// The bytes an entry holds: a record's opcode, count and up to 15 fields with
/// five-byte ids (a wider entry is written at run time).
pub const ENTRY_BYTES: usize = 96;

/// The most parts of one entry that are nodes.
pub const MAX_HOLES: usize = 8;

/// The most fields of one entry: their count is one byte.
const MAX_FIELDS: usize = 64;

/// What a type is to the node that holds it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Part {
    /// Not known to the compiler (a hand-written `CandidType`, a function or a
    /// service): nothing above it has a constant header.
    Unknown,
    /// A primitive, by the byte of its opcode in a type table.
    Prim(u8),
    /// An `opt`, `vec`, record or variant.
    Node,
}

impl Part {
    /// Primitive `p`.
    pub const fn prim(p: Prim) -> Part {
        Part::Prim(p.opcode() as u8 & 0x7f)
    }
}

/// A type's own table entry, its parts that are nodes left as holes: the entry's
/// bytes, where each hole is, and which part fills it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The type as a part; [`Part::Unknown`] when this entry is not known.
    part: Part,
    len: u8,
    bytes: [u8; ENTRY_BYTES],
    holes: u8,
    /// Each hole's offset in `bytes`.
    hole_at: [u8; MAX_HOLES],
    /// Each hole's part: the index of its field (0 for `opt` and `vec`).
    hole_of: [u8; MAX_HOLES],
    /// How the type's description labels each field (none for `opt` and `vec`):
    /// what the decoder's expected type of a header the compiler wrote holds
    /// (`de/known.rs`).
    labels: &'static [StaticLabel],
}

impl Entry {
    /// Not known.
    pub const UNKNOWN: Entry = Entry {
        part: Part::Unknown,
        len: 0,
        bytes: [0; ENTRY_BYTES],
        holes: 0,
        hole_at: [0; MAX_HOLES],
        hole_of: [0; MAX_HOLES],
        labels: &[],
    };

    /// The entry of a type whose part is `p`, when that says all: a primitive has
    /// no entry, and a node's is not known from its part alone.
    pub const fn leaf(p: Part) -> Entry {
        match p {
            Part::Prim(_) => Entry {
                part: p,
                ..Self::UNKNOWN
            },
            _ => Self::UNKNOWN,
        }
    }

    /// `opt p`.
    pub const fn opt(p: Part) -> Entry {
        Self::one(opcode::OPT, p)
    }

    /// `vec p`.
    pub const fn vec(p: Part) -> Entry {
        Self::one(opcode::VEC, p)
    }

    /// A record of `fields` (id, its LEB128 word as `StaticField::leb` holds it,
    /// part), in the order `ty()` lists them, labelled as its description labels
    /// them (one label per field).
    pub const fn record(fields: &[(u32, u64, Part)], labels: &'static [StaticLabel]) -> Entry {
        Self::fields(opcode::RECORD, fields, labels)
    }

    /// A variant of `cases`, as [`record`](Self::record) takes them.
    pub const fn variant(cases: &[(u32, u64, Part)], labels: &'static [StaticLabel]) -> Entry {
        Self::fields(opcode::VARIANT, cases, labels)
    }

    /// A node with opcode `op` and nothing else yet.
    const fn node(op: i64) -> Entry {
        let mut e = Self::UNKNOWN;
        e.part = Part::Node;
        e.bytes[0] = op as u8 & 0x7f;
        e.len = 1;
        e
    }

    /// Writes part `p` (field `of`) at the end: its opcode, or a hole. False if
    /// it is not known or there is no room.
    const fn put_part(&mut self, p: Part, of: usize) -> bool {
        let at = self.len as usize;
        if at >= ENTRY_BYTES {
            return false;
        }
        match p {
            Part::Unknown => return false,
            Part::Prim(b) => self.bytes[at] = b,
            Part::Node => {
                let h = self.holes as usize;
                if h == MAX_HOLES {
                    return false;
                }
                self.hole_at[h] = at as u8;
                self.hole_of[h] = of as u8;
                self.holes += 1;
            }
        }
        self.len += 1;
        true
    }

    const fn one(op: i64, p: Part) -> Entry {
        let mut e = Self::node(op);
        if !e.put_part(p, 0) {
            return Self::UNKNOWN;
        }
        e
    }

    const fn fields(op: i64, fields: &[(u32, u64, Part)], labels: &'static [StaticLabel]) -> Entry {
        if fields.len() > MAX_FIELDS || labels.len() != fields.len() {
            return Self::UNKNOWN;
        }
        let mut e = Self::node(op);
        e.labels = labels;
        e.bytes[1] = fields.len() as u8;
        e.len = 2;
        let mut i = 0;
        while i < fields.len() {
            let (id, leb, part) = fields[i];
            // Ids in increasing order, as every derived and std description lists
            // them; anything else (a collision) is left to run time, which reports it.
            if i > 0 && fields[i - 1].0 >= id {
                return Self::UNKNOWN;
            }
            let n = (leb >> 56) as usize;
            let at = e.len as usize;
            if at + n >= ENTRY_BYTES {
                return Self::UNKNOWN;
            }
            let mut j = 0;
            while j < n {
                e.bytes[at + j] = (leb >> (8 * j)) as u8;
                j += 1;
            }
            e.len += n as u8;
            if !e.put_part(part, i) {
                return Self::UNKNOWN;
            }
            i += 1;
        }
        e
    }

    /// The entry's bytes (holes as 0).
    pub(crate) const fn bytes(&self) -> &[u8] {
        self.bytes.split_at(self.len as usize).0
    }

    /// Its primitive's opcode byte, if it is a primitive.
    pub(crate) const fn prim(&self) -> Option<u8> {
        match self.part {
            Part::Prim(b) => Some(b),
            _ => None,
        }
    }

    /// Whether it is a known node.
    pub(crate) const fn is_node(&self) -> bool {
        matches!(self.part, Part::Node)
    }

    /// Hole `h`: its offset in [`bytes`](Self::bytes).
    pub(crate) const fn hole_at(&self, h: usize) -> usize {
        self.hole_at[h] as usize
    }

    /// How many holes it has.
    pub(crate) const fn holes(&self) -> usize {
        self.holes as usize
    }

    /// How its fields are labelled, in order (none for `opt` and `vec`).
    pub(crate) const fn labels(&self) -> &'static [StaticLabel] {
        self.labels
    }
}

/// The most entries a [`Tree`] holds (and a constant header: `ser/const_header.rs`).
pub const MAX_TREE: usize = 32;

/// A type's entries down to some level: its own entry first, then, for each of
/// its holes in order, the tree of the part that fills it. *Complete* when no
/// hole is left unfilled, that is when the type is no deeper than the level.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Tree {
    /// How many entries; 0 when not known.
    n: u8,
    complete: bool,
    entries: [Entry; MAX_TREE],
    /// For entry `i`, the entry filling each of its holes (always after `i`).
    kids: [[u8; MAX_HOLES]; MAX_TREE],
}

impl Tree {
    /// Not known.
    pub const UNKNOWN: Tree = Tree {
        n: 0,
        complete: false,
        entries: [Entry::UNKNOWN; MAX_TREE],
        kids: [[0; MAX_HOLES]; MAX_TREE],
    };

    /// A type down to its own entry: complete if that has no holes (a primitive,
    /// or a node of primitives).
    pub const fn leaf(own: Entry) -> Tree {
        if matches!(own.part, Part::Unknown) {
            return Self::UNKNOWN;
        }
        let mut t = Self::UNKNOWN;
        t.n = 1;
        t.complete = own.holes == 0;
        t.entries[0] = own;
        t
    }

    /// A type whose entry is `own` and whose parts' trees, a level less deep, are
    /// `parts`, one per field in the order of `own` (one for `opt` and `vec`). Not
    /// known if a part is not known or the entries do not fit; not complete if a
    /// part is not.
    pub const fn of(own: Entry, parts: &[Tree]) -> Tree {
        let mut t = Self::leaf(own);
        if t.n == 0 || t.complete {
            return t;
        }
        t.complete = true;
        let mut h = 0;
        while h < own.holes as usize {
            let i = own.hole_of[h] as usize;
            if i >= parts.len() {
                return Self::UNKNOWN;
            }
            let p = &parts[i];
            if p.n == 0 || !p.entries[0].is_node() {
                return Self::UNKNOWN;
            }
            if !p.complete {
                // Deeper than this level: no header from it, whatever else fits.
                t.complete = false;
                return t;
            }
            let base = t.n as usize;
            if base + p.n as usize > MAX_TREE {
                return Self::UNKNOWN;
            }
            let mut k = 0;
            while k < p.n as usize {
                t.entries[base + k] = p.entries[k];
                let mut j = 0;
                while j < MAX_HOLES {
                    t.kids[base + k][j] = p.kids[k][j] + base as u8;
                    j += 1;
                }
                k += 1;
            }
            t.kids[0][h] = base as u8;
            t.n += p.n;
            h += 1;
        }
        t
    }

    /// Whether every hole is filled.
    pub(crate) const fn is_complete(&self) -> bool {
        self.n != 0 && self.complete
    }

    /// Entry `i`.
    pub(crate) const fn entry(&self, i: usize) -> &Entry {
        &self.entries[i]
    }

    /// The entry filling hole `h` of entry `i`.
    pub(crate) const fn kid(&self, i: usize, h: usize) -> usize {
        self.kids[i][h] as usize
    }
}
