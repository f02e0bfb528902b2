//! The walk of `static_table.rs`: `ty()`'s memo emulated over the descriptions,
//! and in the same pass the header written, for the common case where every node
//! is its own entry or equal to an earlier one.
//!
//! * One node per Rust type that builds one (its `Rc` in `ty()`), a knot for a
//!   mention of a type still being computed, and for a transparent type whatever it
//!   was first computed as. Nodes are made in pre-order, an index taken before the
//!   parts are computed, and stored with their parts.
//! * Each node gets a key ([`close`](Shapes::close)) when its parts are done,
//!   from its opcode, size, first and last field ids and first and last parts (a
//!   primitive's opcode, the type a knot names, a node's key). Two equal nodes have
//!   equal keys, so when every key differs no two nodes share an entry, and
//!   `TypeSerialize`'s numbering is the nodes' own order.
//! * An entry's bytes are written when its node is made, before its parts' entries,
//!   with one byte kept for each part that is not a primitive, filled in once that
//!   part is computed (a knot's once the walk ends, when the type it names has its
//!   entry).
//! * A node whose key an earlier node has is compared with it: equal (two Rust
//!   types of one shape, such as two variant cases' equal records), it is
//!   `TypeSerialize`'s node that takes an earlier entry and whose parts are not
//!   visited, so it and all made since it opened are cut back, bytes included, and
//!   its parent names the earlier node.
//!
//! Two nodes with one key that are not equal, or an entry index past one byte, make
//! the header [`general`](Shapes::general): the caller then numbers the stored
//! nodes as `TypeSerialize` does and writes the entries afresh.

use super::static_merge::{equal, COMPARE_BUDGET};
use super::static_table::{
    level, prim_of, put_modes, put_name, sleb, uleb, Node, Ty, KNOT, MAX_DEPTH, PENDING,
};
use crate::fasthash::FastHasher;
use crate::types::static_type::{StaticField, StaticKind, StaticRef};
use crate::types::{StaticType, TypeId};
use crate::wire::opcode;
use std::hash::Hasher;

/// The byte kept for a part not computed yet (no primitive's opcode is 0).
const HOLE: u8 = 0;

/// A node's key while its parts are computed.
const UNFINISHED: u64 = 0;

/// A field: its id's LEB128 bytes (`StaticField::leb`) and the byte of its type,
/// in one 8-byte store cut back to their count.
#[inline(always)]
pub(super) fn put_field(out: &mut Vec<u8>, leb: u64, byte: u8) {
    let n = (leb >> 56) as usize;
    let word = (leb & ((1 << 56) - 1)) | u64::from(byte) << (8 * n);
    let len = out.len();
    out.extend_from_slice(&word.to_le_bytes());
    out.truncate(len + n + 1);
}

/// A record's or variant's first and last field ids, in one word for its key.
#[inline(always)]
fn ids(fs: &[StaticField]) -> Option<u64> {
    let (x, y) = (fs.first()?, fs.last()?);
    Some(u64::from(x.id) << 32 | u64::from(y.id))
}

/// A function's or service's own level in one word, for its key: a function's
/// argument count and mode, a service's method names.
fn reference_ids(d: &'static StaticType) -> Option<u64> {
    match d.kind {
        StaticKind::Func(f) => Some((f.args.len() as u64) << 8 | u64::from(f.mode)),
        StaticKind::Service(ms) => {
            let mut h = FastHasher::default();
            for m in ms {
                h.write(m.name.as_bytes());
                h.write_u8(0xff);
            }
            Some(h.finish())
        }
        _ => None,
    }
}

/// Part `i` of a function (its arguments, then its results) or a service (its
/// methods' types).
fn ref_at(d: &'static StaticType, i: usize) -> Option<StaticRef> {
    match d.kind {
        StaticKind::Func(f) => match f.args.get(i) {
            Some(&r) => Some(r),
            None => f.rets.get(i - f.args.len()).copied(),
        },
        StaticKind::Service(ms) => ms.get(i).map(|m| m.ty),
        _ => None,
    }
}

/// How many bytes `n` takes in LEB128.
#[inline(always)]
fn leb_len(n: usize) -> usize {
    let bits = usize::BITS - (n | 1).leading_zeros();
    bits.div_ceil(7) as usize
}

/// The memo's emulation and the header written on the way.
#[derive(Default)]
pub(super) struct Shapes {
    pub(super) nodes: Vec<Node>,
    /// The type of every part of every node, each node's in one run (reserved
    /// before its parts are computed, which add their own runs after it).
    pub(super) parts: Vec<Ty>,
    /// Per knot, the address of the type it names.
    knots: Vec<usize>,
    /// Per Rust type (its address), what it computed as ([`PENDING`] while it is
    /// being computed). Searched in order: a header has a handful of Rust types.
    memo: Vec<(usize, Ty)>,
    /// The header so far, while every node is its own entry.
    out: Vec<u8>,
    /// Bytes kept for knots: their position and the address of the type named.
    knot_holes: Vec<(usize, usize)>,
    /// Whether the entries must be numbered (see the module docs).
    pub(super) general: bool,
    /// Steps left for comparing nodes whose keys are equal.
    budget: u32,
}

/// How far each vector of [`Shapes`] had come when a node was opened: what is
/// cut back when the node turns out equal to an earlier one.
#[derive(Clone, Copy)]
struct Mark {
    out: usize,
    parts: usize,
    memo: usize,
    knots: usize,
    knot_holes: usize,
}

impl Shapes {
    /// Vectors that hold `n` Rust types' worth without growing.
    pub(super) fn with_capacity(n: usize) -> Shapes {
        Shapes {
            nodes: Vec::with_capacity(2 * n),
            parts: Vec::with_capacity(4 * n),
            memo: Vec::with_capacity(n),
            ..Shapes::default()
        }
    }

    /// Empties the vectors, capacity kept; false if one grew past `max` (one huge
    /// type should not pin its memory for the life of the canister).
    pub(super) fn clear(&mut self, max: usize) -> bool {
        self.out = Vec::new();
        self.nodes.clear();
        self.parts.clear();
        self.knots.clear();
        self.memo.clear();
        self.knot_holes.clear();
        self.general = false;
        self.nodes.capacity() <= max && self.parts.capacity() <= max
    }

    /// Starts a header: the magic and a byte kept for the entry count.
    pub(super) fn begin(&mut self) {
        // Room for the reply types of most canisters; a larger header grows it.
        self.out = Vec::with_capacity(128);
        self.out.extend_from_slice(opcode::MAGIC);
        self.out.push(HOLE);
        self.budget = COMPARE_BUDGET;
    }

    fn mark(&self) -> Mark {
        Mark {
            out: self.out.len(),
            parts: self.parts.len(),
            memo: self.memo.len(),
            knots: self.knots.len(),
            knot_holes: self.knot_holes.len(),
        }
    }

    /// The header written on the way, with the argument types `roots`, if every
    /// node is its own entry; `None` if it is [`general`](Self::general) or a knot
    /// names a type that computed as no node.
    pub(super) fn finish_header(&mut self, roots: &[Ty]) -> Option<Vec<u8>> {
        if self.general || self.nodes.len() >= 0x80 {
            return None;
        }
        for i in 0..self.knot_holes.len() {
            let (pos, address) = *self.knot_holes.get(i)?;
            let target = self.memo_of(address).filter(|t| (0..KNOT).contains(t))?;
            if target >= 64 {
                return None;
            }
            *self.out.get_mut(pos)? = target as u8;
        }
        *self.out.get_mut(opcode::MAGIC.len())? = self.nodes.len() as u8;
        let mut out = std::mem::take(&mut self.out);
        uleb(&mut out, roots.len() as u64);
        for &r in roots {
            sleb(&mut out, self.resolve(r)?);
        }
        Some(out)
    }

    /// A reference to `t` as a header writes it before numbering: a primitive's
    /// opcode, or a node (a knot's: the node its type computed as).
    pub(super) fn resolve(&self, t: Ty) -> Option<Ty> {
        match self.knot(t) {
            Some(address) => self.memo_of(address).filter(|t| (0..KNOT).contains(t)),
            None => Some(t),
        }
    }

    /// The node `t` refers to, if it refers to one.
    #[inline(always)]
    pub(super) fn node(&self, t: Ty) -> Option<Node> {
        if (0..KNOT).contains(&t) {
            self.nodes.get(t as usize).copied()
        } else {
            None
        }
    }

    /// The address of the type knot `t` names, if `t` refers to a knot.
    #[inline(always)]
    pub(super) fn knot(&self, t: Ty) -> Option<usize> {
        self.knots
            .get(usize::try_from(t.checked_sub(KNOT)?).ok()?)
            .copied()
    }

    /// The parts of `n`.
    #[inline(always)]
    pub(super) fn parts(&self, n: Node) -> &[Ty] {
        self.parts
            .get(n.start as usize..(n.start + n.len) as usize)
            .unwrap_or_default()
    }

    /// What a part is, for comparing nodes: a primitive's opcode, the type a knot
    /// names, or a node's key (its structure).
    #[inline(always)]
    pub(super) fn kind(&self, t: Ty) -> u64 {
        if let Some(n) = usize::try_from(t).ok().and_then(|i| self.nodes.get(i)) {
            n.key
        } else if let Some(address) = self.knot(t) {
            address as u64
        } else {
            t as u64
        }
    }

    /// What the Rust type at `address` computed as.
    fn memo_of(&self, address: usize) -> Option<Ty> {
        self.memo.iter().find(|m| m.0 == address).map(|m| m.1)
    }

    /// Fills the byte kept at `pos` with a reference to `t`; a knot's waits for
    /// the end of the walk, and an entry index past one byte makes the header
    /// general.
    fn fill(&mut self, pos: usize, t: Ty) -> Option<()> {
        let byte = if (-64..64).contains(&t) {
            t as u8 & 0x7f
        } else if let Some(address) = self.knot(t) {
            self.knot_holes.push((pos, address));
            return Some(());
        } else {
            self.general = true;
            return Some(());
        };
        *self.out.get_mut(pos)? = byte;
        Some(())
    }

    /// `ty()` of the Rust type `id` described by `d`.
    pub(super) fn linked(
        &mut self,
        id: TypeId,
        d: &'static StaticType,
        depth: usize,
    ) -> Option<Ty> {
        self.linked_as(id, d, false, depth)
    }

    /// [`linked`](Self::linked), `own` when `d` is known to be `id`'s own
    /// description (not a transparent type's), so its owner need not be asked.
    #[inline(always)]
    fn linked_as(
        &mut self,
        id: TypeId,
        d: &'static StaticType,
        own: bool,
        depth: usize,
    ) -> Option<Ty> {
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
        // Entries are only ever added: the slot stays this type's.
        let slot = self.memo.len();
        self.memo.push((address, PENDING));
        let t = match d.owner.filter(|_| !own).map(|f| f()) {
            // A transparent type: its `_ty()` is the owner's `ty()`.
            Some(o) if o != id => self.linked(o, d, depth + 1)?,
            _ => self.make(d, depth)?,
        };
        self.memo.get_mut(slot)?.1 = t;
        Some(t)
    }

    #[inline(always)]
    fn child(&mut self, r: StaticRef, depth: usize) -> Option<Ty> {
        match r {
            StaticRef::Link(l) => {
                let d = (l.ty)()?;
                // A primitive is its opcode, whoever names it.
                if let StaticKind::Prim(p) = d.kind {
                    return Some(p.opcode());
                }
                // The link's own identity function owning the description: not a
                // transparent type (a different function may still name the same
                // type, and then the owner is asked).
                let own = d.owner.is_some_and(|o| o as usize == l.id as usize);
                self.linked_as((l.id)(), d, own, depth + 1)
            }
            StaticRef::Inline(d) => match d.owner {
                Some(o) => self.linked(o(), d, depth + 1),
                None => self.make(d, depth + 1),
            },
        }
    }

    /// The node `d` describes: its index taken and its entry written, then its
    /// parts computed in order, then its key.
    fn make(&mut self, d: &'static StaticType, depth: usize) -> Option<Ty> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (op, fs) = match d.kind {
            StaticKind::Prim(p) => return Some(p.opcode()),
            StaticKind::Opt(r) => return self.one(opcode::OPT, d, r, depth),
            StaticKind::Vec(r) => return self.one(opcode::VEC, d, r, depth),
            StaticKind::Record(fs) => (opcode::RECORD, fs),
            StaticKind::Variant(fs) => (opcode::VARIANT, fs),
            StaticKind::Func(_) | StaticKind::Service(_) => return self.reference(d, depth),
        };
        let mark = self.mark();
        let n = self.open(op, d, fs.len());
        uleb(&mut self.out, fs.len() as u64);
        let (a, b) = self.fields(fs, depth)?;
        self.close(n, mark, op, fs.len(), ids(fs), a, b)
    }

    /// A function or service node, written as `TypeSerialize` writes it: a
    /// function's argument types, then its result types (each list after its
    /// count), then its modes; a service's methods, each its name and its type.
    /// Every part gets a byte, kept for the ones computed after the entry is
    /// written, in order, as `fields` does.
    fn reference(&mut self, d: &'static StaticType, depth: usize) -> Option<Ty> {
        let mark = self.mark();
        let start = self.parts.len();
        let at = self.out.len();
        let (n, op, len) = match d.kind {
            StaticKind::Func(f) => {
                let len = f.args.len() + f.rets.len();
                let n = self.open(opcode::FUNC, d, len);
                uleb(&mut self.out, f.args.len() as u64);
                self.ref_bytes(f.args.iter().copied());
                uleb(&mut self.out, f.rets.len() as u64);
                self.ref_bytes(f.rets.iter().copied());
                put_modes(&mut self.out, f.mode);
                (n, opcode::FUNC, len)
            }
            StaticKind::Service(ms) => {
                let n = self.open(opcode::SERVICE, d, ms.len());
                uleb(&mut self.out, ms.len() as u64);
                for m in ms {
                    put_name(&mut self.out, m.name);
                    self.ref_bytes(std::iter::once(m.ty));
                }
                (n, opcode::SERVICE, ms.len())
            }
            _ => return None,
        };
        // The parts not computed yet, in order, each into its kept byte.
        for i in 0..len {
            if *self.parts.get(start + i)? != PENDING {
                continue;
            }
            let pos = hole_at(at, d, i)?;
            let r = ref_at(d, i)?;
            let t = self.child(r, depth)?;
            *self.parts.get_mut(start + i)? = t;
            self.fill(pos, t)?;
        }
        let (a, b) = match self.parts.get(start..start + len) {
            Some([first, .., last]) => (*first, *last),
            Some([only]) => (*only, *only),
            _ => (PENDING, PENDING),
        };
        self.close(n, mark, op, len, reference_ids(d), a, b)
    }

    /// Each of `refs`' bytes: a primitive's opcode, or a hole (the part is
    /// [`PENDING`] in `parts` until computed).
    fn ref_bytes(&mut self, refs: impl Iterator<Item = StaticRef>) {
        for r in refs {
            let t = prim_of(r);
            self.parts.push(t);
            self.out
                .push(if t == PENDING { HOLE } else { t as u8 & 0x7f });
        }
    }

    /// Takes the next node index for `d` and writes its opcode.
    #[inline(always)]
    fn open(&mut self, op: i64, d: &'static StaticType, len: usize) -> usize {
        let n = self.nodes.len();
        self.nodes.push(Node {
            op,
            d,
            start: self.parts.len() as u32,
            len: len as u32,
            key: UNFINISHED,
        });
        self.out.push(op as u8 & 0x7f);
        n
    }

    /// `opt t` or `vec t`.
    fn one(&mut self, op: i64, d: &'static StaticType, r: StaticRef, depth: usize) -> Option<Ty> {
        let mark = self.mark();
        let n = self.open(op, d, 1);
        let start = self.parts.len();
        let t = prim_of(r);
        self.parts.push(t);
        let pos = self.out.len();
        let t = if t == PENDING {
            self.out.push(HOLE);
            let t = self.child(r, depth)?;
            *self.parts.get_mut(start)? = t;
            self.fill(pos, t)?;
            t
        } else {
            self.out.push(t as u8 & 0x7f);
            t
        };
        self.close(n, mark, op, 1, None, t, t)
    }

    /// A record's or variant's fields: each id and part written, primitives in a
    /// first pass (most fields are) and a byte kept for the others, which are then
    /// computed in order. Gives the first and last parts.
    #[inline(always)]
    fn fields(&mut self, fs: &'static [StaticField], depth: usize) -> Option<(Ty, Ty)> {
        let start = self.parts.len();
        let at = self.out.len();
        let mut pending = false;
        let (mut first, mut last) = (PENDING, PENDING);
        for (i, f) in fs.iter().enumerate() {
            let t = prim_of(f.ty);
            pending |= t == PENDING;
            self.parts.push(t);
            let byte = if t == PENDING { HOLE } else { t as u8 & 0x7f };
            put_field(&mut self.out, f.leb, byte);
            if i == 0 {
                first = t;
            }
            last = t;
        }
        if pending {
            let mut pos = at;
            let end = fs.len() - 1;
            for (i, f) in fs.iter().enumerate() {
                pos += (f.leb >> 56) as usize;
                if *self.parts.get(start + i)? == PENDING {
                    let t = self.child(f.ty, depth)?;
                    *self.parts.get_mut(start + i)? = t;
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
        Some((first, last))
    }

    /// Gives node `n` (opened at `mark`; opcode `op`, `len` parts, `ids` its own
    /// level's word ([`ids`], [`reference_ids`]), first and last parts `a` and
    /// `b`) its key, and gives what `n` is: `n`, or an earlier node equal to it.
    ///
    /// The key hashes the opcode and size, the own level's word, and the
    /// first and last parts' kinds (a node's being its key, so the key follows the
    /// node's first and last paths down). Two equal nodes have equal keys. When an
    /// earlier node has `n`'s key, the two are compared: equal, `n` is
    /// [`dropped`](Self::drop_since) for it; not (they differ in a middle field, or
    /// the keys collide), the header is general.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn close(
        &mut self,
        n: usize,
        mark: Mark,
        op: i64,
        len: usize,
        ids: Option<u64>,
        a: Ty,
        b: Ty,
    ) -> Option<Ty> {
        let mut h = FastHasher::default();
        h.write_u64(level(op, len));
        if let Some(ids) = ids {
            h.write_u64(ids);
        }
        h.write_u64(self.kind(a));
        h.write_u64(self.kind(b));
        // Never `UNFINISHED`, so that an unfinished node matches no key.
        let key = h.finish() | 1;
        self.nodes.get_mut(n)?.key = key;
        if let Some(m) = self
            .nodes
            .iter()
            .position(|x| x.key == key)
            .filter(|&m| m != n)
        {
            // An earlier node is closed (an open one is `n`'s ancestor, whose key
            // is unfinished); a later one is `n`'s part, never equal to it.
            let mut budget = self.budget;
            let same = m < n && equal(self, m as Ty, n as Ty, &mut budget) == Some(true);
            self.budget = budget;
            if same {
                self.drop_since(n, mark);
                return Some(m as Ty);
            }
            self.general = true;
        }
        Some(n as Ty)
    }

    /// Forgets node `n`, opened at `mark`, and everything made since (its parts'
    /// nodes and entries, the Rust types first met below it, its knots), as
    /// `TypeSerialize` gives a node equal to an earlier entry that entry and does
    /// not visit its parts. A Rust type first met below `n` and met again later
    /// is made again then, a new node compared like any other, as `TypeSerialize`
    /// compares it by structure the first time it numbers it.
    fn drop_since(&mut self, n: usize, mark: Mark) {
        self.nodes.truncate(n);
        self.parts.truncate(mark.parts);
        self.out.truncate(mark.out);
        self.memo.truncate(mark.memo);
        self.knots.truncate(mark.knots);
        self.knot_holes.truncate(mark.knot_holes);
    }
}

/// Where part `i` of the function or service `d`, whose entry starts at `at`, has
/// its byte: past the opcode and what precedes the part.
fn hole_at(at: usize, d: &'static StaticType, i: usize) -> Option<usize> {
    let mut pos = at + 1;
    match d.kind {
        StaticKind::Func(f) => {
            pos += leb_len(f.args.len());
            if i < f.args.len() {
                return Some(pos + i);
            }
            pos += f.args.len() + leb_len(f.rets.len());
            Some(pos + i - f.args.len())
        }
        StaticKind::Service(ms) => {
            pos += leb_len(ms.len());
            for m in ms.get(..i)? {
                pos += leb_len(m.name.len()) + m.name.len() + 1;
            }
            let m = ms.get(i)?;
            Some(pos + leb_len(m.name.len()) + m.name.len())
        }
        _ => None,
    }
}
