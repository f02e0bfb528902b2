//! Headers the compiler wrote, known to the decoder: the wire types and the
//! expected types of a message whose header is the one candor itself would write
//! for the argument types being decoded.
//!
//! A first call of a method pays for its header twice over: the wire types are
//! parsed from the message (`wire/header/parse.rs`), and the expected types are placed
//! from the Rust types' descriptions (`expect.rs`). When the arguments are no
//! deeper than eight levels, the compiler already writes their header
//! (`ser/const_header.rs`); a message sent by a client that encodes with the same
//! algorithm (candid's, as `dfx`, `ic-repl` and Rust agents do) starts with those
//! very bytes. For such a message both arenas are known before it arrives:
//!
//! * the wire types are the header's entries, parsed here by the compiler, and
//!   copied into the decode state's arena in place of a parse;
//! * the expected types are the same entries, with the fields labelled as the
//!   types' descriptions label them, appended to the thread's interned types in
//!   place of a placing (`expect::install_known`).
//!
//! The two are the same types: the compiler's header is `ty()`'s
//! (`tests/static_header_paths.rs`), and placing gives `ty()`'s nodes
//! (`tests/static_descriptions.rs`). Equal entries share one wire entry; when
//! their fields are labelled differently the expected types are placed as before.
//! agent-js writes the same entries in another order, each after the entries it
//! names; the compiler writes that order too, and a message that starts with it
//! is taken the same way (`post_order.rs`). The expected types depend on the Rust
//! types alone, so they are installed for any message with a table decoded as
//! them. A message whose header differs in any byte from both (another order,
//! other types) is parsed as always.

use super::post_order::{self, PostOrder};
use super::{expect, header_cache, switches, DecoderConfig, IDLDeserialize};
use crate::error::Result;
use crate::ser::const_header::{self, HEADER_BYTES, MAX_ENTRIES};
use crate::types::shallow::Tree;
use crate::types::static_type::StaticLabel;
use crate::wire::header::{
    Arena, FieldEntry, Node, Prim, Ref, Shape, Span, FIRST_FIELDS, ONE_BYTE_PRIMS, PRIM_COUNT,
};
use crate::wire::opcode;
use crate::wire::same_bytes::same_bytes;

/// The most fields (and argument types) a known header holds.
const MAX_FIELDS: usize = 64;

/// A header the compiler wrote for a tuple of argument types, parsed by it.
#[doc(hidden)]
pub struct KnownHeader {
    /// The header's length in bytes; 0 when there is none.
    len: usize,
    bytes: [u8; HEADER_BYTES],
    /// The table's entries, as `parse_into` makes them.
    nodes: [Node; MAX_ENTRIES],
    table_len: usize,
    /// The entries' fields, then the argument types (`args`).
    fields: [FieldEntry; MAX_FIELDS],
    args: Span,
    /// How each entry's fields are labelled.
    labels: [&'static [StaticLabel]; MAX_ENTRIES],
    /// Whether the entries left out for equal ones were labelled alike.
    labels_agree: bool,
    /// The same entries in agent-js's order, when it is not candid's.
    post: Option<PostOrder>,
}

/// Which order of the entries a message's header has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// The compiler's, candid's: an entry before the entries it names.
    Candid,
    /// agent-js's: an entry after them (`post_order.rs`).
    AgentJs,
}

const NO_FIELD: FieldEntry = FieldEntry {
    id: 0,
    ty: Ref::prim(Prim::Null),
};

const NONE: KnownHeader = KnownHeader {
    len: 0,
    bytes: [0; HEADER_BYTES],
    nodes: [Node::Prim(Prim::Empty); MAX_ENTRIES],
    table_len: 0,
    fields: [NO_FIELD; MAX_FIELDS],
    args: Span { start: 0, len: 0 },
    labels: [&[]; MAX_ENTRIES],
    labels_agree: false,
    post: None,
};

/// The reference a one-byte type in the header stands for, as `parse_into` reads
/// it: an entry below `table_len` (with the var bit), or a primitive.
const fn type_ref(b: u8, table_len: usize) -> Option<Ref> {
    if b < 0x40 {
        if (b as usize) < table_len {
            return Some(Ref::new(PRIM_COUNT + b as u32, true));
        }
        return None;
    }
    let k = (0x7f - b) as usize;
    if k >= ONE_BYTE_PRIMS.len() {
        return None;
    }
    match ONE_BYTE_PRIMS[k] {
        Some(p) => Some(Ref::prim(p)),
        None => None,
    }
}

/// `k` with the `opt` hint ([`Ref::is_opt`]) on every reference of its entries
/// and of its first `fields` fields whose entry is an `opt`, as `parse_into`
/// leaves a parsed table (`Arena::hint_opts`).
const fn hint_opts(mut k: KnownHeader, fields: usize) -> KnownHeader {
    let mut e = 0;
    while e < k.table_len {
        let entries = k.nodes.split_at(k.table_len).0;
        k.nodes[e] = match k.nodes[e] {
            Node::Opt(r) => Node::Opt(r.hinted_in(entries)),
            Node::Vec(r) => Node::Vec(r.hinted_in(entries)),
            n => n,
        };
        e += 1;
    }
    let mut f = 0;
    while f < fields {
        k.fields[f].ty = k.fields[f].ty.hinted_in(k.nodes.split_at(k.table_len).0);
        f += 1;
    }
    k
}

impl KnownHeader {
    /// The header of arguments whose trees are `args`, parsed, or none if the
    /// compiler writes none for them or it has no type table (such a header is
    /// read by the plain path, `wire/plain_header.rs`).
    pub const fn of(args: &[Tree]) -> KnownHeader {
        let written = const_header::write(args, 0);
        let Some(h) = written.header.bytes() else {
            return NONE;
        };
        let magic = opcode::MAGIC.len();
        if h.len() <= magic {
            return NONE;
        }
        // The compiler writes at most `MAX_ENTRIES` entries: one byte of count.
        let mut p = Parse {
            h,
            at: magic + 1,
            table_len: h[magic] as usize,
            k: NONE,
            fields: 0,
        };
        if p.table_len == 0 || p.table_len > MAX_ENTRIES {
            return NONE;
        }
        let mut e = 0;
        while e < p.table_len {
            let Some(node) = p.entry() else {
                return NONE;
            };
            p.k.nodes[e] = node;
            e += 1;
        }
        let Some(argc) = p.next() else {
            return NONE;
        };
        let argc = argc as usize;
        p.k.args = Span {
            start: p.fields as u32,
            len: argc as u32,
        };
        let mut i = 0;
        while i < argc {
            if !p.field(i as u32) {
                return NONE;
            }
            i += 1;
        }
        if p.at != h.len() {
            return NONE;
        }
        let mut k = p.k;
        let mut i = 0;
        while i < h.len() {
            k.bytes[i] = h[i];
            i += 1;
        }
        k.len = h.len();
        k.table_len = p.table_len;
        k.labels = written.labels;
        k.labels_agree = written.labels_agree;
        k = hint_opts(k, p.fields);
        k.post = post_order::of(
            h,
            k.nodes.split_at(p.table_len).0,
            k.fields.split_at(p.fields).0,
            k.args,
        );
        k
    }

    /// The header, if there is one.
    #[inline(always)]
    pub fn get(&'static self) -> Option<&'static KnownHeader> {
        if self.len == 0 {
            None
        } else {
            Some(self)
        }
    }

    /// In which order `bytes` start with this header's entries, if they do and
    /// parsing them under these limits would succeed (a longer table or header than
    /// they allow is parsed, and fails, as any other). Both orders are as long.
    #[inline]
    pub(crate) fn starts(
        &self,
        bytes: &[u8],
        max_type_len: usize,
        max_header_len: usize,
    ) -> Option<Order> {
        if self.len > max_header_len || self.table_len > max_type_len {
            return None;
        }
        let head = bytes.get(..self.len)?;
        let is = |h: &[u8]| h.get(..self.len).is_some_and(|h| same_bytes(head, h));
        if is(&self.bytes) {
            Some(Order::Candid)
        } else if self.post.as_ref().is_some_and(|p| is(&p.bytes)) {
            Some(Order::AgentJs)
        } else {
            None
        }
    }

    /// Fills `arena`, which is empty, with the wire types of the header in
    /// `order`, as parsing it would, and gives its shape.
    pub(crate) fn fill(&self, arena: &mut Arena, order: Order) -> Shape {
        match (order, &self.post) {
            (Order::AgentJs, Some(post)) => post_order::fill(self, post, arena),
            _ => self.fill_candid(arena),
        }
    }

    /// The header in agent-js's order, if it is not candid's.
    #[cfg(test)]
    pub(crate) fn post_order(&self) -> Option<&PostOrder> {
        self.post.as_ref()
    }

    /// The header's bytes in agent-js's order, if it is not candid's.
    pub(crate) fn post_header(&self) -> Option<&[u8]> {
        self.post.as_ref().and_then(|p| p.bytes.get(..self.len))
    }

    /// The entries, their fields and argument types, and where the argument types are.
    pub(crate) fn parts(&self) -> (&[Node], &[FieldEntry], Span) {
        let nodes = self.nodes.get(..self.table_len).unwrap_or_default();
        let fields = self
            .fields
            .get(..(self.args.start + self.args.len) as usize)
            .unwrap_or_default();
        (nodes, fields, self.args)
    }

    /// The header's length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// [`fill`](Self::fill) in candid's order.
    fn fill_candid(&self, arena: &mut Arena) -> Shape {
        let (nodes, fields, _) = self.parts();
        reserve_fresh(arena, nodes.len(), fields.len());
        arena.nodes.extend_from_slice(nodes);
        arena.fields.extend_from_slice(fields);
        Shape {
            args: self.args,
            table_len: self.table_len,
            len: self.len,
        }
    }

    /// The table's entries, their fields (before the argument types) and how each
    /// entry's fields are labelled; `None` when an entry left out for an equal
    /// one was labelled otherwise.
    pub(crate) fn expected(&self) -> Option<Expected<'_>> {
        if !self.labels_agree {
            return None;
        }
        Some(Expected {
            nodes: self.nodes.get(..self.table_len)?,
            fields: self.fields.get(..self.args.start as usize)?,
            labels: self.labels.get(..self.table_len)?,
        })
    }

    /// The argument types, in order.
    pub(crate) fn args(&self) -> &[FieldEntry] {
        self.fields.get(self.args.range()).unwrap_or_default()
    }
}

/// The compiler's parse of a header it wrote: one-byte counts, references and
/// opcodes (at most 32 entries of at most 64 fields each), ids of up to five bytes.
struct Parse<'h> {
    h: &'h [u8],
    at: usize,
    table_len: usize,
    k: KnownHeader,
    /// Fields (and argument types) so far.
    fields: usize,
}

impl Parse<'_> {
    /// The next byte (never past the end: a constant that indexed past it would
    /// not compile).
    const fn next(&mut self) -> Option<u8> {
        if self.at >= self.h.len() {
            return None;
        }
        self.at += 1;
        Some(self.h[self.at - 1])
    }

    /// The next entry: `opt`, `vec`, a record or a variant.
    const fn entry(&mut self) -> Option<Node> {
        let Some(op) = self.next() else {
            return None;
        };
        if op == opcode::OPT as u8 & 0x7f || op == opcode::VEC as u8 & 0x7f {
            let Some(b) = self.next() else {
                return None;
            };
            let Some(r) = type_ref(b, self.table_len) else {
                return None;
            };
            return Some(if op == opcode::OPT as u8 & 0x7f {
                Node::Opt(r)
            } else {
                Node::Vec(r)
            });
        }
        if op != opcode::RECORD as u8 & 0x7f && op != opcode::VARIANT as u8 & 0x7f {
            return None;
        }
        let Some(n) = self.next() else {
            return None;
        };
        let n = n as usize;
        if n >= 0x80 {
            return None;
        }
        let span = Span {
            start: self.fields as u32,
            len: n as u32,
        };
        let mut i = 0;
        while i < n {
            // The id's LEB128 (32 bits at most: five bytes).
            let mut id: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(b) = self.next() else {
                    return None;
                };
                id |= ((b & 0x7f) as u64) << shift;
                shift += 7;
                if b < 0x80 {
                    break;
                }
                if shift > 28 {
                    return None;
                }
            }
            if !self.field(id as u32) {
                return None;
            }
            i += 1;
        }
        Some(if op == opcode::RECORD as u8 & 0x7f {
            Node::Record(span)
        } else {
            Node::Variant(span)
        })
    }

    /// A field (or argument type) `id` whose type is the next byte; false past
    /// the room or on a reference the table does not have.
    const fn field(&mut self, id: u32) -> bool {
        if self.fields >= MAX_FIELDS {
            return false;
        }
        let Some(b) = self.next() else {
            return false;
        };
        let Some(ty) = type_ref(b, self.table_len) else {
            return false;
        };
        self.k.fields[self.fields] = FieldEntry { id, ty };
        self.fields += 1;
        true
    }
}

/// A known header's entries, to be appended to the expected types.
pub(crate) struct Expected<'a> {
    pub nodes: &'a [Node],
    pub fields: &'a [FieldEntry],
    pub labels: &'a [&'static [StaticLabel]],
}

/// Sizes a fresh state's vectors (`arena` has never held a header) for `nodes`
/// entries and `fields` fields at once, as the parse allocates them (growing an
/// empty one costs more), the fields with room for a typical header's, as the
/// state is reused for the next. A reused state's vectors are left as they are.
#[inline(always)]
pub(super) fn reserve_fresh(arena: &mut Arena, nodes: usize, fields: usize) {
    if arena.nodes.capacity() == 0 {
        arena.nodes = Vec::with_capacity(nodes);
    }
    if arena.fields.capacity() == 0 {
        arena.fields = Vec::with_capacity(fields.max(FIRST_FIELDS));
    }
}

/// The decoder's side of the path: taking a known header in place of a parse.
impl<'de> IDLDeserialize<'de> {
    /// The header the compiler wrote for the arguments, and in which order of
    /// entries (candid's or agent-js's) `bytes` start with it, if they do (fast
    /// path 29). The expected types, which depend on the Rust types alone, are
    /// installed from it whatever header a Candid message has, before the header
    /// takes a state (placing may park the kept states). Cold: once per header a
    /// thread keeps.
    #[cold]
    #[inline(never)]
    pub(super) fn known(
        bytes: &[u8],
        limits: header_cache::Limits,
        header: fn() -> Option<&'static KnownHeader>,
        ids: fn(usize) -> Option<crate::types::TypeId>,
    ) -> Option<(&'static KnownHeader, Order)> {
        if !switches::on(&switches::KNOWN) {
            return None;
        }
        let k = header()?;
        // Not for a wrong magic, which fails at once.
        if bytes.starts_with(crate::wire::opcode::MAGIC) && expect::install_known(k, ids) {
            switches::count_installed();
        }
        k.starts(bytes, limits.max_type_len, limits.max_header_len)
            .map(|order| (k, order))
    }

    /// A decoder for a header the compiler wrote (fast path 29), whose expected
    /// types are in place: its wire types copied into a state instead of parsed,
    /// then kept and paid for as a parsed header is.
    #[cold]
    #[inline(never)]
    pub(super) fn from_known(
        bytes: &'de [u8],
        config: &DecoderConfig,
        limits: header_cache::Limits,
        (known, order): (&'static KnownHeader, Order),
    ) -> Result<Self> {
        let (quota, size_bound) = config.quota_for(bytes.len());
        let mut state = header_cache::parse_state(expect::shared_arena);
        let shape = known.fill(state.wire.arena_mut(), order);
        switches::count(&switches::KNOWN);
        Self::lend(
            bytes,
            config,
            limits,
            shape,
            true,
            state,
            (quota, size_bound),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::de::ArgumentDecoder;
    use crate::ser::ArgumentEncoder;
    use crate::wire::header::parse_into;

    /// The compiler's parse of `T`'s header, beside the run-time parse.
    fn both<T: ArgumentDecoder<'static> + ArgumentEncoder>() -> (&'static KnownHeader, Arena, Shape)
    {
        let k = T::_known().expect("a known header");
        let bytes = T::_const_header().expect("a constant header");
        let mut arena = Arena::new();
        let shape = parse_into(bytes, usize::MAX, usize::MAX, &mut arena).unwrap();
        (k, arena, shape)
    }

    fn check<T: ArgumentDecoder<'static> + ArgumentEncoder>() {
        let (k, parsed, shape) = both::<T>();
        let mut filled = Arena::new();
        assert_eq!(
            k.fill(&mut filled, Order::Candid),
            shape,
            "{}",
            std::any::type_name::<T>()
        );
        assert_eq!(filled.nodes, parsed.nodes, "{}", std::any::type_name::<T>());
        assert_eq!(
            filled.fields,
            parsed.fields,
            "{}",
            std::any::type_name::<T>()
        );
        let bytes = T::_const_header().unwrap();
        assert_eq!(k.starts(bytes, usize::MAX, usize::MAX), Some(Order::Candid));
        let mut longer = bytes.to_vec();
        longer.extend_from_slice(&[1, 2, 3]);
        assert_eq!(
            k.starts(&longer, usize::MAX, usize::MAX),
            Some(Order::Candid)
        );
        assert_eq!(
            k.starts(&bytes[..bytes.len() - 1], usize::MAX, usize::MAX),
            None
        );
        assert_eq!(k.starts(bytes, usize::MAX, bytes.len() - 1), None);
        assert_eq!(k.starts(bytes, shape.table_len - 1, usize::MAX), None);
        for (order, bytes) in [(Order::Candid, bytes)].into_iter().chain(
            k.post_order()
                .map(|p| (Order::AgentJs, p.bytes.get(..bytes.len()).unwrap())),
        ) {
            assert_eq!(k.starts(bytes, usize::MAX, usize::MAX), Some(order));
            assert_eq!(k.starts(bytes, usize::MAX, bytes.len() - 1), None);
            for i in 4..bytes.len() {
                let mut other = bytes.to_vec();
                other[i] ^= 1;
                assert_eq!(k.starts(&other, usize::MAX, usize::MAX), None);
            }
        }
    }

    /// The compiler parses a header as `parse_into` does: the same entries,
    /// fields, argument types and shape, for tables with entries shared between
    /// arguments (a later entry naming an earlier one), ids of every length, and
    /// primitives among the arguments.
    #[test]
    fn the_compiler_parses_headers_as_the_parser_does() {
        use std::collections::BTreeMap;
        check::<(Vec<u8>,)>();
        check::<(Option<Vec<(u8, String)>>, crate::Principal)>();
        check::<(Vec<u8>, Option<Vec<u8>>, u64)>();
        check::<(
            BTreeMap<String, Vec<u64>>,
            std::result::Result<(u8, bool), String>,
        )>();
        check::<(Vec<Vec<Vec<Option<i16>>>>,)>();
        check::<(crate::Principal, u8, Vec<(crate::Nat, crate::Int)>)>();
        check::<(std::time::Duration, std::time::SystemTime)>();
    }

    /// No table, no known header (the plain path reads it); nor for a type the
    /// compiler does not know.
    #[test]
    fn only_tables_the_compiler_wrote_are_known() {
        assert!(<(u8, String)>::_known().is_none());
        assert!(<(crate::Func,)>::_known().is_none());
        assert!(<(crate::IDLValue,)>::_known().is_none());
    }
}
