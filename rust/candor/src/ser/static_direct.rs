//! The common case of `static_table.rs`'s header, in one pass: the walk over the
//! descriptions writes each entry as it makes its node.
//!
//! Nodes are made in pre-order, and when no two of them can be structurally equal
//! (their level keys all differ) each is its own entry, in that order: an entry's
//! bytes are then written when its node is made, before its parts' entries, with one
//! byte kept for each part that is not a primitive and filled in once that part is
//! computed (a knot's once the walk ends, when the type it names has its entry).
//!
//! Anything else gives `None` and the caller takes the general path, which stores
//! the nodes and numbers them: two nodes with one level key (they may share an
//! entry), an entry index past one byte, a table of 128 entries or more, or anything
//! the general path itself does not cover.

use super::static_table::{level, prim_of, put_leb, sleb, uleb, Ty, KNOT, MAX_DEPTH, PENDING};
use crate::fasthash::FastHasher;
use crate::types::static_type::{StaticField, StaticKind, StaticRef};
use crate::types::{StaticType, TypeId};
use crate::wire::opcode;
use std::hash::Hasher;

/// The byte kept for a part not computed yet (no primitive's opcode is 0).
const HOLE: u8 = 0;

/// A node's level key: its opcode, size, first and last field ids and the kinds of
/// its first and last parts. Two equal nodes have equal keys, so when every key
/// differs, no two nodes share an entry.
#[inline(always)]
fn level_key(op: i64, len: usize, fs: &[StaticField], first: u64, last: u64) -> u64 {
    let mut h = FastHasher::default();
    h.write_u64(level(op, len));
    if let (Some(a), Some(b)) = (fs.first(), fs.last()) {
        h.write_u64(u64::from(a.id) << 32 | u64::from(b.id));
    }
    h.write_u64(first);
    h.write_u64(last);
    h.finish()
}

/// One header's pass.
#[derive(Default)]
pub(super) struct Direct {
    /// The header so far.
    out: Vec<u8>,
    /// Per node, its kind as a part (`Shapes::kind`): opcode and size.
    levels: Vec<u64>,
    /// Per Rust type (its address), what it computed as ([`PENDING`] while it is
    /// being computed). Searched in order: a header has a handful of Rust types.
    memo: Vec<(usize, Ty)>,
    /// Per knot, the address of the type it names.
    knots: Vec<usize>,
    /// The level key of every node finished so far.
    keys: Vec<u64>,
    /// Bytes kept for knots: their position and the address of the type named.
    knot_holes: Vec<(usize, usize)>,
    /// The argument types' references.
    roots: Vec<Ty>,
}

impl Direct {
    /// Vectors that hold `n` Rust types' worth without growing.
    pub(super) fn with_capacity(n: usize) -> Direct {
        Direct {
            out: Vec::new(),
            levels: Vec::with_capacity(2 * n),
            memo: Vec::with_capacity(n),
            knots: Vec::new(),
            keys: Vec::with_capacity(2 * n),
            knot_holes: Vec::new(),
            roots: Vec::with_capacity(4),
        }
    }

    /// Empties the vectors, capacity kept (the header itself is handed out).
    pub(super) fn clear(&mut self) {
        self.out = Vec::new();
        self.levels.clear();
        self.memo.clear();
        self.knots.clear();
        self.keys.clear();
        self.knot_holes.clear();
        self.roots.clear();
    }

    /// Whether every vector's capacity is at most `max`.
    pub(super) fn small(&self, max: usize) -> bool {
        self.levels.capacity() <= max && self.memo.capacity() <= max
    }

    /// The whole header for `args`, or `None` (see the module docs).
    pub(super) fn header(&mut self, args: &[(TypeId, &'static StaticType)]) -> Option<Vec<u8>> {
        // Room for the reply types of most canisters; a larger header grows it.
        self.out = Vec::with_capacity(64);
        self.out.extend_from_slice(opcode::MAGIC);
        self.out.push(HOLE);
        for &(id, d) in args {
            let t = self.linked(id, d, 0)?;
            self.roots.push(t);
        }
        for i in 0..self.knot_holes.len() {
            let (pos, address) = *self.knot_holes.get(i)?;
            let target = self.memo_of(address)?;
            if !(0..KNOT).contains(&target) {
                return None;
            }
            self.fill(pos, target)?;
        }
        let count = self.levels.len();
        if count >= 0x80 {
            return None;
        }
        *self.out.get_mut(opcode::MAGIC.len())? = count as u8;
        let mut out = std::mem::take(&mut self.out);
        uleb(&mut out, self.roots.len() as u64);
        for &r in &self.roots {
            let r = match self.knot(r) {
                Some(address) => self.memo_of(address).filter(|t| (0..KNOT).contains(t))?,
                None => r,
            };
            sleb(&mut out, r);
        }
        Some(out)
    }

    fn memo_of(&self, address: usize) -> Option<Ty> {
        self.memo.iter().find(|m| m.0 == address).map(|m| m.1)
    }

    #[inline(always)]
    fn knot(&self, t: Ty) -> Option<usize> {
        self.knots
            .get(usize::try_from(t.checked_sub(KNOT)?).ok()?)
            .copied()
    }

    /// A part's kind at its own level, as `Shapes::kind` gives it.
    #[inline(always)]
    fn kind(&self, t: Ty) -> u64 {
        if let Some(&level) = usize::try_from(t).ok().and_then(|i| self.levels.get(i)) {
            level
        } else if let Some(address) = self.knot(t) {
            address as u64
        } else {
            t as u64
        }
    }

    /// Fills the byte kept at `pos` with a reference to `t`; a knot's waits for
    /// the end of the walk. `None` for an entry index past one byte.
    fn fill(&mut self, pos: usize, t: Ty) -> Option<()> {
        let byte = if (-64..64).contains(&t) {
            t as u8 & 0x7f
        } else if let Some(address) = self.knot(t) {
            self.knot_holes.push((pos, address));
            return Some(());
        } else {
            return None;
        };
        *self.out.get_mut(pos)? = byte;
        Some(())
    }

    /// `ty()` of the Rust type `id` described by `d` (`Shapes::linked`).
    fn linked(&mut self, id: TypeId, d: &'static StaticType, depth: usize) -> Option<Ty> {
        if let StaticKind::Prim(p) = d.kind {
            return Some(p.opcode());
        }
        let address = id.address();
        match self.memo_of(address) {
            Some(PENDING) => {
                self.knots.push(address);
                return Some(KNOT + self.knots.len() as Ty - 1);
            }
            Some(t) => return Some(t),
            None => {}
        }
        let slot = self.memo.len();
        self.memo.push((address, PENDING));
        let t = match d.owner.map(|f| f()) {
            Some(o) if o != id => self.linked(o, d, depth + 1)?,
            _ => self.make(d, depth)?,
        };
        self.memo.get_mut(slot)?.1 = t;
        Some(t)
    }

    fn child(&mut self, r: StaticRef, depth: usize) -> Option<Ty> {
        match r {
            StaticRef::Link(l) => {
                let d = (l.ty)()?;
                if let StaticKind::Prim(p) = d.kind {
                    return Some(p.opcode());
                }
                self.linked((l.id)(), d, depth + 1)
            }
            StaticRef::Inline(d) => match d.owner {
                Some(o) => self.linked(o(), d, depth + 1),
                None => self.make(d, depth + 1),
            },
        }
    }

    /// The node `d` describes: its entry written, then its parts computed in order.
    fn make(&mut self, d: &'static StaticType, depth: usize) -> Option<Ty> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = self.levels.len() as Ty;
        match d.kind {
            StaticKind::Prim(p) => return Some(p.opcode()),
            StaticKind::Opt(r) => self.one(opcode::OPT, r, depth)?,
            StaticKind::Vec(r) => self.one(opcode::VEC, r, depth)?,
            StaticKind::Record(fs) => self.fields(opcode::RECORD, fs, depth)?,
            StaticKind::Variant(fs) => self.fields(opcode::VARIANT, fs, depth)?,
        }
        Some(n)
    }

    /// Keeps a finished node's level key; `None` if another node has it (the two
    /// might be equal and share an entry).
    #[inline(always)]
    fn finish(&mut self, key: u64) -> Option<()> {
        if self.keys.contains(&key) {
            return None;
        }
        self.keys.push(key);
        Some(())
    }

    /// `opt t` or `vec t`: its entry, then `t`.
    #[inline(always)]
    fn one(&mut self, op: i64, r: StaticRef, depth: usize) -> Option<()> {
        self.levels.push(level(op, 1));
        self.out.push(op as u8 & 0x7f);
        let mut t = prim_of(r);
        let pos = self.out.len();
        if t == PENDING {
            self.out.push(HOLE);
            t = self.child(r, depth)?;
            self.fill(pos, t)?;
        } else {
            self.out.push(t as u8 & 0x7f);
        }
        let k = self.kind(t);
        self.finish(level_key(op, 1, &[], k, k))
    }

    /// A record or variant: its entry with a byte kept for each part that is not
    /// a primitive, then those parts in order.
    #[inline(always)]
    fn fields(&mut self, op: i64, fs: &'static [StaticField], depth: usize) -> Option<()> {
        self.levels.push(level(op, fs.len()));
        self.out.push(op as u8 & 0x7f);
        uleb(&mut self.out, fs.len() as u64);
        let start = self.out.len();
        let mut pending = false;
        let (mut first, mut last) = (PENDING, PENDING);
        for (i, f) in fs.iter().enumerate() {
            put_leb(&mut self.out, f.leb);
            let t = prim_of(f.ty);
            pending |= t == PENDING;
            self.out
                .push(if t == PENDING { HOLE } else { t as u8 & 0x7f });
            if i == 0 {
                first = t;
            }
            last = t;
        }
        if pending {
            let mut pos = start;
            let end = fs.len().checked_sub(1)?;
            for (i, f) in fs.iter().enumerate() {
                pos += (f.leb >> 56) as usize;
                if *self.out.get(pos)? == HOLE {
                    let t = self.child(f.ty, depth)?;
                    self.fill(pos, t)?;
                    if i == 0 {
                        first = t;
                    }
                    if i == end {
                        last = t;
                    }
                }
                pos += 1;
            }
        }
        let (a, b) = (self.kind(first), self.kind(last));
        self.finish(level_key(op, fs.len(), fs, a, b))
    }
}
