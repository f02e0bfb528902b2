//! The message header: magic, type table and argument types, parsed once into a
//! flat arena of [`Node`]s addressed by [`Ref`] indices (no `Rc` graph).
//!
//! The same arena layout is used for expected types (`de::expect`), so the decoder
//! compares a wire node and an expected node without converting either.
//!
//! Acceptance follows candid 0.10.39: table opcodes are single bytes, at most
//! `max_type_len` entries (10,000 by default), field ids strictly increasing, method
//! names strictly increasing, indices in range, function annotations at most one
//! byte, future types (opcode < -24) carry a length-prefixed blob, and records that
//! can only be inhabited by infinite values become `empty`.

use super::opcode;

mod parse;

pub(crate) use parse::parse_into;

/// A reference to a node. The low 30 bits index the arena; the top bit marks a
/// reference that candid would see as a type *variable* (a wire table entry, or a
/// Rust `Knot`): resolving such a reference costs one unit of decoding quota, as in
/// candid's `unroll_type`. The bit below it, when set, says the node is an `opt`
/// ([`is_opt`](Self::is_opt)), so that a decoder reading an absent option tells
/// both sides are options without looking either node up. It is a hint: a
/// reference to an `opt` may lack it (one made before its node was known, as a
/// forward table index is), and then the node is looked up as usual; a reference
/// that has it always names an `opt` ([`hinted`](Self::hinted) sets it only from
/// the node itself).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Ref(u32);

const VAR_BIT: u32 = 1 << 31;
pub(crate) const OPT_BIT: u32 = 1 << 30;

/// Arena indices a reference can hold: the bits below [`OPT_BIT`].
pub(crate) const MAX_INDEX: u32 = OPT_BIT - 1;

impl Ref {
    /// `null`, the wire type of a field or argument the message lacks.
    pub(crate) const NULL: Ref = Ref::prim(Prim::Null);
    /// `reserved`, the expected type of a field or argument nothing asks for.
    pub(crate) const RESERVED: Ref = Ref::prim(Prim::Reserved);

    #[inline(always)]
    pub(crate) const fn prim(p: Prim) -> Ref {
        Ref(p as u32)
    }
    /// A reference to index `idx` (at most [`MAX_INDEX`]), with no `opt` hint.
    #[inline(always)]
    pub(crate) const fn new(idx: u32, var: bool) -> Ref {
        debug_assert!(idx <= MAX_INDEX);
        let idx = idx & MAX_INDEX;
        Ref(if var { idx | VAR_BIT } else { idx })
    }
    /// The arena index.
    #[inline(always)]
    pub(crate) const fn idx(self) -> u32 {
        self.0 & MAX_INDEX
    }
    /// True if resolving this reference costs a unit (it names a table entry or knot).
    #[inline(always)]
    pub(crate) fn is_var(self) -> bool {
        self.0 & VAR_BIT != 0
    }
    /// True if the reference says its node is an `opt` (a hint: false says
    /// nothing).
    #[inline(always)]
    pub(crate) fn is_opt(self) -> bool {
        self.0 & OPT_BIT != 0
    }
    /// The same node, as a direct (already resolved) reference, with its hint.
    #[inline(always)]
    pub(crate) fn resolved(self) -> Ref {
        Ref(self.0 & !VAR_BIT)
    }
    /// The same node as a type variable (resolving it costs a unit), with its hint.
    #[inline(always)]
    pub(crate) fn as_var(self) -> Ref {
        Ref(self.0 | VAR_BIT)
    }
    /// This reference, with the `opt` hint set when `node`, the node it names, is
    /// an `opt`.
    #[inline(always)]
    pub(crate) const fn hinted(self, node: Node) -> Ref {
        match node {
            Node::Opt(_) if self.idx() >= PRIM_COUNT => Ref(self.0 | OPT_BIT),
            _ => self,
        }
    }
    /// This reference, with the `opt` hint set when the node it names in `nodes`
    /// (an arena's entries after the primitives) is an `opt`.
    #[inline(always)]
    pub(crate) const fn hinted_in(self, nodes: &[Node]) -> Ref {
        let i = self.idx();
        if i < PRIM_COUNT || (i - PRIM_COUNT) as usize >= nodes.len() {
            return self;
        }
        self.hinted(nodes[(i - PRIM_COUNT) as usize])
    }
    /// This reference's kind (variable or not) and hint, for the node now at
    /// index `idx` (the same node, renumbered).
    #[inline(always)]
    pub(crate) const fn moved(self, idx: u32) -> Ref {
        Ref(Ref::new(idx, false).0 | (self.0 & (VAR_BIT | OPT_BIT)))
    }
    /// The reference as the 32 bits it is made of, and back ([`from_bits`]):
    /// how a decoder frame packs two of them into one word.
    ///
    /// [`from_bits`]: Self::from_bits
    #[inline(always)]
    pub(crate) const fn bits(self) -> u32 {
        self.0
    }
    /// The reference [`bits`](Self::bits) gave.
    #[inline(always)]
    pub(crate) const fn from_bits(bits: u32) -> Ref {
        Ref(bits)
    }
}

/// The primitive types, at fixed arena indices (the first nodes of every arena).
/// Public (hidden) because static type descriptions name them too
/// (`types::static_type`, written by the derive).
#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u32)]
pub enum Prim {
    Null = 0,
    Bool,
    Nat,
    Int,
    Nat8,
    Nat16,
    Nat32,
    Nat64,
    Int8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Text,
    Reserved,
    Empty,
    Principal,
}

impl Prim {
    /// The type's opcode in a type table.
    pub(crate) const fn opcode(self) -> i64 {
        match self {
            Prim::Principal => opcode::PRINCIPAL,
            // `null` (-1) to `empty` (-17) follow the order of the enum.
            p => -(p as i64) - 1,
        }
    }
}

/// Number of primitive nodes at the start of each arena.
pub(crate) const PRIM_COUNT: u32 = 18;

/// A range in one of the side tables of an arena.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    #[inline(always)]
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// One type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Node {
    Prim(Prim),
    Opt(Ref),
    Vec(Ref),
    /// Fields sorted by id, in `Arena::fields`.
    Record(Span),
    /// Cases sorted by id, in `Arena::fields`.
    Variant(Span),
    /// Index into `Arena::funcs`.
    Func(u32),
    /// Methods sorted by name, in `Arena::methods`.
    Service(Span),
    /// A type from a future Candid version: values are a length-prefixed blob.
    Future,
}

impl Default for Node {
    fn default() -> Self {
        Node::Prim(Prim::Empty)
    }
}

/// How an expected field was labelled in Rust, which decides what the key visitor
/// receives (a name or a number) and what the identifier costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FieldLabel {
    /// Wire fields have only ids.
    Id,
    /// Borrowed from a static type description, owned when interned from `ty()`.
    Named(std::borrow::Cow<'static, str>),
    Unnamed,
}

/// A record field or variant case: its id and type. (Expected types also have a
/// [`FieldLabel`] per field, kept apart so wire fields stay two words.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct FieldEntry {
    pub id: u32,
    pub ty: Ref,
}

/// A function type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FuncEntry {
    pub args: Vec<Ref>,
    pub rets: Vec<Ref>,
    /// 0 none, 1 query, 2 oneway, 3 composite query.
    pub mode: u8,
}

/// A flat arena of types. The primitives are implicit at indices below
/// [`PRIM_COUNT`]; `nodes` holds the entries after them.
///
/// `nodes` and `fields` are plain vectors because every value decoded looks them up,
/// and a lookup in a plain slice has no inline-or-heap branch. A message's wire arena
/// still allocates nothing in the steady state: it takes the vectors the previous
/// message's arena gave back ([`Arena::recycled`], [`Arena::recycle`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Arena {
    pub nodes: Vec<Node>,
    pub fields: Vec<FieldEntry>,
    /// Per field, how the expected type labelled it; empty for wire arenas (whose
    /// fields have only ids).
    pub labels: Vec<FieldLabel>,
    pub funcs: Vec<FuncEntry>,
    pub methods: Vec<(Box<str>, Ref)>,
}

static ID_LABEL: FieldLabel = FieldLabel::Id;

const PRIMS: [Prim; PRIM_COUNT as usize] = [
    Prim::Null,
    Prim::Bool,
    Prim::Nat,
    Prim::Int,
    Prim::Nat8,
    Prim::Nat16,
    Prim::Nat32,
    Prim::Nat64,
    Prim::Int8,
    Prim::Int16,
    Prim::Int32,
    Prim::Int64,
    Prim::Float32,
    Prim::Float64,
    Prim::Text,
    Prim::Reserved,
    Prim::Empty,
    Prim::Principal,
];

/// Vectors longer than this are not kept for reuse, so one message with a huge type
/// table does not pin its memory for the life of the canister.
const MAX_SPARE: usize = 4096;

impl Arena {
    /// An arena holding just the (implicit) primitive nodes.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Empties the arena for the next header parsed into it, keeping its vectors'
    /// memory unless one grew past [`MAX_SPARE`].
    pub(crate) fn clear_for_reuse(&mut self) {
        fn empty_and_kept<T>(v: &[T], capacity: usize) -> bool {
            v.is_empty() && capacity <= MAX_SPARE
        }
        // A header of primitive arguments left only their types, in `fields`.
        if empty_and_kept(&self.nodes, self.nodes.capacity())
            && empty_and_kept(&self.labels, self.labels.capacity())
            && empty_and_kept(&self.funcs, self.funcs.capacity())
            && empty_and_kept(&self.methods, self.methods.capacity())
            && self.fields.capacity() <= MAX_SPARE
        {
            self.fields.clear();
            return;
        }
        fn clear<T>(v: &mut Vec<T>) {
            if v.capacity() > MAX_SPARE {
                *v = Vec::new();
            } else {
                v.clear();
            }
        }
        clear(&mut self.nodes);
        clear(&mut self.fields);
        clear(&mut self.labels);
        clear(&mut self.funcs);
        clear(&mut self.methods);
    }

    /// The node a reference points to. References are only created by the parser
    /// and the expected-type builder, which check every index, so the lookup cannot
    /// fail for a reference of this arena; a foreign one reads as `empty`.
    #[inline(always)]
    pub(crate) fn node(&self, r: Ref) -> Node {
        let i = r.idx();
        if i < PRIM_COUNT {
            return match PRIMS.get(i as usize) {
                Some(p) => Node::Prim(*p),
                None => Node::Prim(Prim::Empty),
            };
        }
        match self.nodes.get((i - PRIM_COUNT) as usize) {
            Some(n) => *n,
            None => Node::Prim(Prim::Empty),
        }
    }
    /// [`node`](Self::node) with one bounds check: a primitive's index wraps below
    /// zero to past any table, so the check that finds a table entry also tells
    /// a primitive. For the decoder's lookups, which are mostly of table entries;
    /// a primitive costs a little more than in `node`.
    #[inline(always)]
    pub(crate) fn entry_node(&self, r: Ref) -> Node {
        let i = r.idx();
        match self.nodes.get(i.wrapping_sub(PRIM_COUNT) as usize) {
            Some(n) => *n,
            None => match PRIMS.get(i as usize) {
                Some(p) => Node::Prim(*p),
                None => Node::Prim(Prim::Empty),
            },
        }
    }
    /// Sets the `opt` hint ([`Ref::is_opt`]) on the references this arena holds
    /// in its nodes and fields (argument types included) whose node is an `opt`:
    /// run once a whole table is in, as a reference may name a later entry.
    pub(crate) fn hint_opts(&mut self) {
        if !self.nodes.iter().any(|n| matches!(n, Node::Opt(_))) {
            return;
        }
        for k in 0..self.nodes.len() {
            let node = match self.nodes.get(k) {
                Some(&Node::Opt(r)) => Node::Opt(r.hinted_in(&self.nodes)),
                Some(&Node::Vec(r)) => Node::Vec(r.hinted_in(&self.nodes)),
                _ => continue,
            };
            if let Some(slot) = self.nodes.get_mut(k) {
                *slot = node;
            }
        }
        for f in &mut self.fields {
            f.ty = f.ty.hinted_in(&self.nodes);
        }
    }
    /// Appends a node, returning its index.
    pub(crate) fn push_node(&mut self, n: Node) -> u32 {
        self.nodes.push(n);
        PRIM_COUNT + self.nodes.len() as u32 - 1
    }
    /// Replaces the node at index `i` (a reserved placeholder).
    pub(crate) fn set_node(&mut self, i: u32, n: Node) {
        if let Some(slot) = i
            .checked_sub(PRIM_COUNT)
            .and_then(|k| self.nodes.get_mut(k as usize))
        {
            *slot = n;
        }
    }
    /// The fields of a record or variant span.
    #[inline(always)]
    pub(crate) fn fields(&self, s: Span) -> &[FieldEntry] {
        self.fields.get(s.range()).unwrap_or(&[])
    }
    /// The field at absolute index `k`.
    #[inline(always)]
    pub(crate) fn field(&self, k: usize) -> Option<FieldEntry> {
        self.fields.get(k).copied()
    }
    /// A copy of these wire types to decode at as expected types: the same
    /// references, and each field labelled by its id, as an expected arena has a
    /// label per field (a struct's walk reads them without a bounds check,
    /// `de::merge::Walked`).
    pub(crate) fn wire_as_expected(&self) -> Arena {
        let mut exp = self.clone();
        exp.labels.resize(exp.fields.len(), FieldLabel::Id);
        exp
    }
    /// How field `k` was labelled (`Id` for wire fields).
    #[inline]
    pub(crate) fn label(&self, k: usize) -> &FieldLabel {
        self.labels.get(k).unwrap_or(&ID_LABEL)
    }
    /// The methods of a service span.
    #[inline]
    pub(crate) fn methods(&self, s: Span) -> &[(Box<str>, Ref)] {
        self.methods.get(s.range()).unwrap_or(&[])
    }
    /// A function entry.
    #[inline]
    pub(crate) fn func(&self, i: u32) -> Option<&FuncEntry> {
        self.funcs.get(i as usize)
    }
}

const fn prim_of_opcode(op: i64) -> Option<Prim> {
    Some(match op {
        opcode::NULL => Prim::Null,
        opcode::BOOL => Prim::Bool,
        opcode::NAT => Prim::Nat,
        opcode::INT => Prim::Int,
        opcode::NAT8 => Prim::Nat8,
        opcode::NAT16 => Prim::Nat16,
        opcode::NAT32 => Prim::Nat32,
        opcode::NAT64 => Prim::Nat64,
        opcode::INT8 => Prim::Int8,
        opcode::INT16 => Prim::Int16,
        opcode::INT32 => Prim::Int32,
        opcode::INT64 => Prim::Int64,
        opcode::FLOAT32 => Prim::Float32,
        opcode::FLOAT64 => Prim::Float64,
        opcode::TEXT => Prim::Text,
        opcode::RESERVED => Prim::Reserved,
        opcode::EMPTY => Prim::Empty,
        opcode::PRINCIPAL => Prim::Principal,
        _ => return None,
    })
}

/// The primitive whose opcode is the one SLEB128 byte `b`, at `0x7f - b` (the
/// opcodes -1 to -24: `null` to `empty`, six composite types, `principal`).
pub(crate) const ONE_BYTE_PRIMS: [Option<Prim>; 24] = {
    let mut table = [None; 24];
    let mut k = 0;
    while k < table.len() {
        table[k] = prim_of_opcode(-(k as i64) - 1);
        k += 1;
    }
    table
};

/// Fields (and argument types) a new wire arena makes room for at once: a header
/// of a few records and variants, as a canister method's arguments have.
pub(crate) const FIRST_FIELDS: usize = 32;

/// Default bound on type table entries (candid's `MAX_TYPE_TABLE_LEN`).
pub(crate) const DEFAULT_MAX_TYPE_LEN: usize = 10_000;
/// Default bound on header bytes (candid 0.10.39).
pub(crate) const DEFAULT_MAX_HEADER_LEN: usize = 64 * 1024;

/// What a header holds besides its arena, in a few words: a decoder copies it
/// from a kept header (`de::header_cache`) for every message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The argument types, in order: a span of the arena's fields after the table's
    /// own (each entry's `ty`), so they move with the arena instead of being copied.
    /// A header with no table and at most [`INLINE_ARGS`] arguments (each then a
    /// primitive) holds them in `start` instead, under [`INLINE`], one byte each,
    /// the first lowest: its arena holds nothing, so a fresh decode state allocates
    /// nothing for it.
    pub args: Span,
    /// Number of type table entries (a cost unit of func/service checks).
    pub table_len: usize,
    /// Byte length of the header including the magic; values start here.
    pub len: usize,
}

/// The most argument types a header with no table holds in its [`Shape`]: three
/// bytes of `Span::start`, below [`INLINE`].
pub(crate) const INLINE_ARGS: usize = 3;

/// The bit of `Span::start` that says the argument types are held in it (no arena
/// has two billion fields).
const INLINE: u32 = 1 << 31;

impl Shape {
    /// No header: no arguments, no table, no bytes.
    pub(crate) const NONE: Shape = Shape {
        args: Span { start: 0, len: 0 },
        table_len: 0,
        len: 0,
    };

    /// The type of argument `i` of the header whose arena is `arena`.
    #[inline(always)]
    pub(crate) fn arg(&self, arena: &Arena, i: usize) -> Option<Ref> {
        let Span { start, len } = self.args;
        if i >= len as usize {
            None
        } else if !self.is_inline() {
            arena.field(start as usize + i).map(|f| f.ty)
        } else {
            // `i` is below `INLINE_ARGS`, so the shift is below 24.
            Some(Ref::new((start >> ((8 * i as u32) & 31)) & 0xff, false))
        }
    }

    /// Whether the argument types are held in the shape (nothing in the arena).
    #[inline(always)]
    pub(crate) fn is_inline(&self) -> bool {
        self.args.start & INLINE != 0
    }

    /// The argument types `refs` held inline, or `None` if there are more than
    /// [`INLINE_ARGS`] or one is not a primitive's reference.
    #[inline(always)]
    pub(crate) fn inline_args(refs: impl Iterator<Item = Ref>) -> Option<Span> {
        let (mut start, mut len) = (INLINE, 0u32);
        for r in refs {
            if len as usize == INLINE_ARGS || r.is_var() || r.idx() >= PRIM_COUNT {
                return None;
            }
            start |= r.idx() << (8 * len);
            len += 1;
        }
        Some(Span { start, len })
    }
}

#[cfg(test)]
impl Arena {
    /// Every reference the arena holds: in its nodes, fields, functions and methods.
    pub(crate) fn held_refs(&self) -> Vec<Ref> {
        let mut refs: Vec<Ref> = self
            .nodes
            .iter()
            .filter_map(|n| match *n {
                Node::Opt(r) | Node::Vec(r) => Some(r),
                _ => None,
            })
            .collect();
        refs.extend(self.fields.iter().map(|f| f.ty));
        for f in &self.funcs {
            refs.extend(f.args.iter().chain(&f.rets).copied());
        }
        refs.extend(self.methods.iter().map(|m| m.1));
        refs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parsed table's references carry the `opt` hint exactly when they name an
    /// `opt`: entries naming later and earlier entries, an `opt` argument, `opt`
    /// inside `opt` and `vec`, a variant's case and a recursive list. A reference
    /// to anything else never has it.
    #[test]
    fn parsed_references_are_hinted_exactly_at_options() {
        let tuple = crate::encode_args((
            Some(1u8),
            vec![Some(2u16), None],
            Some(Some("x".to_string())),
            None::<Vec<Option<bool>>>,
            (Some(3i8), 4u8),
        ))
        .unwrap();
        let headers: [&[u8]; 3] = [
            // record {0: nat; 1: opt <record>} (a list), its opt as the argument.
            b"DIDL\x02\x6c\x02\x00\x7d\x01\x01\x6e\x00\x01\x01",
            // variant {0: opt bool}.
            b"DIDL\x02\x6b\x01\x00\x01\x6e\x7e\x01\x00",
            &tuple,
        ];
        for bytes in headers {
            let mut arena = Arena::new();
            parse_into(bytes, usize::MAX, usize::MAX, &mut arena).unwrap();
            let refs = arena.held_refs();
            assert!(refs.iter().any(|r| r.is_opt()), "{bytes:?}");
            for r in refs {
                let is_opt = matches!(arena.node(r), Node::Opt(_));
                assert_eq!(r.is_opt(), is_opt, "{r:?} in {bytes:?}");
                assert_eq!(r.resolved().is_opt(), is_opt);
                assert_eq!(arena.node(r.resolved()), arena.node(r));
            }
        }
    }

    /// The hint is neither an index nor a kind: a hinted reference names the same
    /// node and costs the same as its plain self, and only an `opt` node (past the
    /// primitives) sets it.
    #[test]
    fn the_hint_keeps_index_and_kind() {
        let opt = Node::Opt(Ref::prim(Prim::Nat));
        for var in [false, true] {
            let r = Ref::new(PRIM_COUNT + 5, var);
            let h = r.hinted(opt);
            assert!(h.is_opt() && !r.is_opt());
            assert_eq!((h.idx(), h.is_var()), (r.idx(), r.is_var()));
            assert_eq!(h.as_var().idx(), r.idx());
            assert!(h.as_var().is_var() && h.as_var().is_opt());
            assert_eq!(h.moved(PRIM_COUNT + 9).idx(), PRIM_COUNT + 9);
            assert!(h.moved(PRIM_COUNT + 9).is_opt());
            assert_eq!(h.moved(PRIM_COUNT + 9).is_var(), var);
            assert_eq!(Ref::from_bits(h.bits()), h);
            assert!(!r.hinted(Node::Vec(Ref::prim(Prim::Nat))).is_opt());
            assert!(!r.hinted(Node::Prim(Prim::Null)).is_opt());
        }
        assert!(!Ref::prim(Prim::Nat).hinted(opt).is_opt());
        assert_eq!(Ref::new(MAX_INDEX, true).idx(), MAX_INDEX);
        assert!(!Ref::new(MAX_INDEX, true).is_opt());
    }

    /// The one-byte table holds the primitives from `null` to `empty` in the order
    /// of `Prim`, then `principal` last; no one-byte opcode past it is one.
    #[test]
    fn one_byte_primitives_are_the_opcodes_primitives() {
        for (k, p) in ONE_BYTE_PRIMS.iter().enumerate().take(17) {
            assert_eq!(p.map(|p| p as usize), Some(k));
        }
        assert_eq!(ONE_BYTE_PRIMS[17..23], [None; 6]);
        assert_eq!(ONE_BYTE_PRIMS[23], Some(Prim::Principal));
        for opcode in -64..=-25 {
            assert_eq!(prim_of_opcode(opcode), None);
        }
    }

    /// The one-check lookup agrees with `node` on every index: each primitive,
    /// each table entry, and indices past the table (with or without the
    /// variable bit), where both read `empty`.
    #[test]
    fn entry_lookup_agrees_with_node_everywhere() {
        let mut arena = Arena::new();
        let first = arena.push_node(Node::Opt(Ref::prim(Prim::Nat)));
        arena.push_node(Node::Vec(Ref::new(first, true)));
        let end = PRIM_COUNT + arena.nodes.len() as u32;
        for i in (0..end + 3).chain([MAX_INDEX]) {
            for var in [false, true] {
                let r = Ref::new(i, var);
                assert_eq!(arena.entry_node(r), arena.node(r), "{i} {var}");
            }
        }
        assert_eq!(
            arena.entry_node(Ref::prim(Prim::Principal)),
            Node::Prim(Prim::Principal)
        );
        assert_eq!(
            arena.entry_node(Ref::new(end, false)),
            Node::Prim(Prim::Empty)
        );
    }

    /// Emptied for reuse, an arena keeps its vectors' memory up to `MAX_SPARE`
    /// entries each, whether only `fields` was used (a header of primitive
    /// arguments) or others were (a table, or a parse that failed half-way).
    #[test]
    fn cleared_arenas_keep_bounded_memory() {
        let mut arena = Arena::new();
        arena.fields.reserve(8);
        arena.fields.push(FieldEntry {
            id: 0,
            ty: Ref::prim(Prim::Nat),
        });
        arena.clear_for_reuse();
        assert!(arena.fields.is_empty() && arena.fields.capacity() >= 8);

        // An empty table vector over the bound is let go.
        arena.nodes.reserve(MAX_SPARE + 1);
        arena.clear_for_reuse();
        assert_eq!(arena.nodes.capacity(), 0);
        assert!(arena.fields.capacity() >= 8);

        arena.fields.reserve(MAX_SPARE + 1);
        arena.clear_for_reuse();
        assert_eq!(arena.fields.capacity(), 0);

        arena.nodes.push(Node::Prim(Prim::Nat));
        arena.fields.push(FieldEntry {
            id: 0,
            ty: Ref::prim(Prim::Nat),
        });
        arena.clear_for_reuse();
        assert!(arena.nodes.is_empty() && arena.fields.is_empty());
        assert!(arena.nodes.capacity() > 0);
    }
}
