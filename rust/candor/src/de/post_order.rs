//! A known header (`known.rs`) as agent-js writes it: the same entries, each
//! after the entries it names, where candid writes each before them.
//!
//! agent-js (browsers, Node tools) builds its type table depth first, as candid
//! does, but adds an entry once its parts are in (an `opt`'s type, a record's
//! fields in id order, the arguments in order), and shares one entry between
//! structurally equal types, as candid does. So a browser's message for the
//! argument types the compiler wrote a header for starts with a permutation of
//! that header: the entries reordered, every entry reference renumbered, and
//! nothing else changed (with at most 32 entries every reference is one byte, so
//! the two headers are equally long). The compiler writes that permutation too,
//! and a message that starts with it takes its wire types from the known header
//! laid out in its order ([`fill`]), which is what parsing it gives.
//!
//! Whether agent-js would write these bytes decides only how often the path is
//! taken: a message is taken only when it starts with them, and what is filled is
//! what the parser makes of them (`tests` below, `tests/known_headers.rs`).

use super::known::KnownHeader;
use crate::ser::const_header::{entry_end, HEADER_BYTES, MAX_ENTRIES};
use crate::wire::header::{Arena, FieldEntry, Node, Ref, Shape, Span, PRIM_COUNT};
use crate::wire::opcode;

/// Each entry's index in agent-js's order, by its index in candid's, and the
/// header written in that order.
#[derive(Clone, Copy)]
pub(crate) struct PostOrder {
    /// `order[e]`: where candid's entry `e` goes.
    pub order: [u8; MAX_ENTRIES],
    /// `source[j]`: candid's entry at place `j`.
    pub source: [u8; MAX_ENTRIES],
    pub bytes: [u8; HEADER_BYTES],
}

/// Not yet given an index.
const UNSEEN: u8 = u8::MAX;
/// Being visited: its parts are being given theirs.
const OPEN: u8 = u8::MAX - 1;

/// The walk that gives each entry its index in agent-js's order.
struct Walk<'k> {
    nodes: &'k [Node],
    fields: &'k [FieldEntry],
    order: [u8; MAX_ENTRIES],
    next: usize,
    /// False once the walk met what a header the compiler wrote cannot hold (a
    /// reference out of the table, a cycle).
    ok: bool,
}

impl Walk<'_> {
    /// Gives the entry `r` names, if any, its index after its parts'.
    const fn visit(&mut self, r: Ref) {
        let i = r.idx();
        if i < PRIM_COUNT {
            return;
        }
        let e = (i - PRIM_COUNT) as usize;
        if e >= self.nodes.len() || e >= MAX_ENTRIES {
            self.ok = false;
            return;
        }
        match self.order[e] {
            UNSEEN => {}
            OPEN => {
                self.ok = false;
                return;
            }
            _ => return,
        }
        self.order[e] = OPEN;
        match self.nodes[e] {
            Node::Opt(t) | Node::Vec(t) => self.visit(t),
            Node::Record(s) | Node::Variant(s) => {
                let mut f = s.start as usize;
                while f < (s.start + s.len) as usize && f < self.fields.len() {
                    self.visit(self.fields[f].ty);
                    f += 1;
                }
            }
            _ => self.ok = false,
        }
        self.order[e] = self.next as u8;
        self.next += 1;
    }
}

/// agent-js's order of the entries of the header `h` (as the compiler parsed it:
/// its entries `nodes`, their `fields` and the argument types at `args`), and the
/// header written in it; `None` when it is candid's order too, so no second header
/// is needed, or `h` is not one the compiler wrote. Called on headers
/// `KnownHeader::of` has parsed, whose references are one byte each.
pub(crate) const fn of(
    h: &[u8],
    nodes: &[Node],
    fields: &[FieldEntry],
    args: Span,
) -> Option<PostOrder> {
    let mut walk = Walk {
        nodes,
        fields,
        order: [UNSEEN; MAX_ENTRIES],
        next: 0,
        ok: true,
    };
    let mut a = args.start as usize;
    while a < (args.start + args.len) as usize && a < fields.len() {
        walk.visit(fields[a].ty);
        a += 1;
    }
    if !walk.ok || walk.next != nodes.len() {
        return None;
    }
    let order = walk.order;
    let mut same = true;
    let mut e = 0;
    while e < nodes.len() {
        same = same && order[e] as usize == e;
        e += 1;
    }
    if same {
        return None;
    }
    write(h, nodes.len(), order)
}

/// The header `h` (of `n` entries) with its entries in `order` (`order[e]`: where
/// entry `e` goes) and their references renumbered.
const fn write(h: &[u8], n: usize, order: [u8; MAX_ENTRIES]) -> Option<PostOrder> {
    // Where each of candid's entries starts; the argument count after the last.
    let magic = opcode::MAGIC.len();
    let mut starts = [0usize; MAX_ENTRIES + 1];
    let mut at = magic + 1;
    let mut e = 0;
    while e < n {
        starts[e] = at;
        at = match entry_end(h, at) {
            Some(end) => end,
            None => return None,
        };
        e += 1;
    }
    starts[n] = at;
    let mut out = [0u8; HEADER_BYTES];
    let mut w = 0;
    while w <= magic {
        out[w] = h[w];
        w += 1;
    }
    let mut source = [0u8; MAX_ENTRIES];
    let mut e = 0;
    while e < n {
        source[order[e] as usize] = e as u8;
        e += 1;
    }
    let mut j = 0;
    while j < n {
        let e = source[j] as usize;
        let (mut r, end) = (starts[e], starts[e + 1]);
        let op = h[r];
        out[w] = op;
        if op == opcode::OPT as u8 & 0x7f || op == opcode::VEC as u8 & 0x7f {
            out[w + 1] = renumber(h[r + 1], &order);
            w += 2;
        } else {
            // A count, then each field's id (copied) and its type (renumbered).
            out[w + 1] = h[r + 1];
            r += 2;
            w += 2;
            while r < end {
                while h[r] >= 0x80 {
                    out[w] = h[r];
                    r += 1;
                    w += 1;
                }
                out[w] = h[r];
                out[w + 1] = renumber(h[r + 1], &order);
                r += 2;
                w += 2;
            }
        }
        j += 1;
    }
    // The argument count, then the argument types.
    let mut r = starts[n];
    out[w] = h[r];
    r += 1;
    w += 1;
    while r < h.len() {
        out[w] = renumber(h[r], &order);
        r += 1;
        w += 1;
    }
    if w != h.len() {
        return None;
    }
    Some(PostOrder {
        order,
        source,
        bytes: out,
    })
}

/// A one-byte type reference with its entry renumbered (a primitive's opcode
/// stays).
const fn renumber(b: u8, order: &[u8; MAX_ENTRIES]) -> u8 {
    if b < 0x40 && (b as usize) < MAX_ENTRIES {
        order[b as usize]
    } else {
        b
    }
}

/// Fills `arena`, which is empty, with the wire types of `k`'s header written in
/// agent-js's order `post`, as parsing those bytes would: the entries in that
/// order, each entry's fields after the fields of the entries before it, then the
/// argument types, every entry reference renumbered.
pub(crate) fn fill(k: &KnownHeader, post: &PostOrder, arena: &mut Arena) -> Shape {
    let (nodes, fields, args) = k.parts();
    let order = &post.order;
    let renumber = |r: Ref| -> Ref {
        match r
            .idx()
            .checked_sub(PRIM_COUNT)
            .and_then(|e| order.get(e as usize))
        {
            Some(&j) => r.moved(PRIM_COUNT + u32::from(j)),
            None => r,
        }
    };
    super::known::reserve_fresh(arena, nodes.len(), fields.len());
    let copy_fields = |arena: &mut Arena, s: Span| -> Span {
        let start = arena.fields.len() as u32;
        arena.fields.extend(
            fields
                .get(s.range())
                .unwrap_or_default()
                .iter()
                .map(|f| FieldEntry {
                    id: f.id,
                    ty: renumber(f.ty),
                }),
        );
        Span { start, len: s.len }
    };
    for &e in post.source.get(..nodes.len()).unwrap_or_default() {
        let node = match nodes.get(usize::from(e)) {
            Some(&Node::Opt(t)) => Node::Opt(renumber(t)),
            Some(&Node::Vec(t)) => Node::Vec(renumber(t)),
            Some(&Node::Record(s)) => Node::Record(copy_fields(arena, s)),
            Some(&Node::Variant(s)) => Node::Variant(copy_fields(arena, s)),
            Some(&other) => other,
            None => continue,
        };
        arena.nodes.push(node);
    }
    Shape {
        args: copy_fields(arena, args),
        table_len: nodes.len(),
        len: k.len(),
    }
}

#[cfg(test)]
mod tests {
    use crate::de::ArgumentDecoder;
    use crate::ser::ArgumentEncoder;
    use crate::wire::header::{parse_into, Arena};

    /// The header in agent-js's order is a permutation of candid's, and filling
    /// from it gives what the parser makes of those bytes.
    fn check<T: ArgumentDecoder<'static> + ArgumentEncoder>() -> bool {
        let name = std::any::type_name::<T>();
        let k = T::_known().expect("a known header");
        let Some(post) = k.post_order() else {
            return false;
        };
        let candid = T::_const_header().unwrap();
        let bytes = &post.bytes[..candid.len()];
        assert_ne!(bytes, candid, "{name}");
        let mut parsed = Arena::new();
        let shape = parse_into(bytes, usize::MAX, usize::MAX, &mut parsed).unwrap();
        let mut filled = Arena::new();
        assert_eq!(super::fill(k, post, &mut filled), shape, "{name}");
        assert_eq!(filled.nodes, parsed.nodes, "{name}");
        assert_eq!(filled.fields, parsed.fields, "{name}");
        true
    }

    #[test]
    fn agent_js_order_fills_as_the_parser_reads_it() {
        use std::collections::BTreeMap;
        // One entry, or entries already in agent-js's order (the `vec` an
        // argument before the `opt` naming it): no second header.
        assert!(!check::<(Vec<u8>,)>());
        assert!(!check::<(Vec<u8>, Option<Vec<u8>>, u64)>());
        assert!(check::<(Option<Vec<(u8, String)>>, crate::Principal)>());
        assert!(check::<(
            BTreeMap<String, Vec<u64>>,
            Result<(u8, bool), String>
        )>());
        assert!(check::<(Vec<Vec<Vec<Option<i16>>>>,)>());
        assert!(check::<(crate::Principal, u8, Vec<(crate::Nat, crate::Int)>)>());
    }

    /// candid's `Option<Vec<u8>>` header is `opt` (entry 0) naming `vec nat8`
    /// (entry 1); agent-js writes the `vec` first.
    #[test]
    fn an_opt_of_a_blob_in_agent_js_order() {
        let k = <(Option<Vec<u8>>,)>::_known().unwrap();
        let candid = <(Option<Vec<u8>>,)>::_const_header().unwrap();
        assert_eq!(candid, b"DIDL\x02\x6e\x01\x6d\x7b\x01\x00");
        let post = k.post_order().unwrap();
        assert_eq!(
            &post.bytes[..candid.len()],
            b"DIDL\x02\x6d\x7b\x6e\x00\x01\x01"
        );
    }
}
