//! Expected types from a header the compiler wrote (`de/known.rs`): its entries
//! appended to the interned types as they are, where placing would walk each
//! argument type's description.

use super::{fields, Interner, TypeId};
use crate::de::known::KnownHeader;
use crate::wire::header::{FieldEntry, Node, Ref, Span, PRIM_COUNT};
use std::rc::Rc;

/// Places the expected types of the arguments whose header the compiler wrote
/// (`known`): the header's entries appended to the interned types, with the
/// fields labelled as the descriptions label them, and each argument type that
/// has no root yet given its entry as root (`id_of` gives argument `i`'s Rust
/// type). The same types as placing each argument's description gives (see
/// `known.rs`), reached with no memo, no links followed and no description read.
/// Nothing is placed when every argument type has a root already, or the header
/// cannot say how its shared entries are labelled. True when something was.
pub(crate) fn install_known(known: &KnownHeader, id_of: fn(usize) -> Option<TypeId>) -> bool {
    super::INTERNER.with(|cell| cell.borrow_mut().install(known, id_of))
}

impl Interner {
    /// [`install_known`] into this interner.
    fn install(&mut self, known: &KnownHeader, id_of: fn(usize) -> Option<TypeId>) -> bool {
        let Some(exp) = known.expected() else {
            return false;
        };
        // The arguments (at most sixteen) with no root yet, as bits.
        let mut missing = 0u32;
        for (i, f) in known.args().iter().enumerate().take(32) {
            if f.ty.idx() >= PRIM_COUNT && id_of(i).is_some_and(|id| self.root(id).is_none()) {
                missing |= 1 << i;
            }
        }
        if missing == 0 {
            return false;
        }
        self.park_holders();
        let arena = Rc::make_mut(&mut self.arena);
        if arena.nodes.capacity() == 0 {
            // As a first placing reserves (`place_root`, `place_fields`).
            arena.nodes = Vec::with_capacity(32);
        }
        if arena.fields.capacity() == 0 && !exp.fields.is_empty() {
            arena.fields = Vec::with_capacity(64);
            arena.labels = Vec::with_capacity(64);
        }
        let base = arena.nodes.len() as u32;
        let first_field = fields::span_start(arena) as u32;
        // A wire entry names another by a table reference (with the var bit); the
        // expected node names it directly, as a placed one does.
        let to_expected = move |r: Ref| {
            if r.idx() < PRIM_COUNT {
                r
            } else {
                r.resolved().moved(r.idx() + base)
            }
        };
        let moved = |s: Span| Span {
            start: s.start + first_field,
            len: s.len,
        };
        arena.nodes.extend(exp.nodes.iter().map(|n| match *n {
            Node::Opt(r) => Node::Opt(to_expected(r)),
            Node::Vec(r) => Node::Vec(to_expected(r)),
            Node::Record(s) => Node::Record(moved(s)),
            Node::Variant(s) => Node::Variant(moved(s)),
            other => other,
        }));
        arena.fields.extend(exp.fields.iter().map(|f| FieldEntry {
            id: f.id,
            ty: to_expected(f.ty),
        }));
        for labels in exp.labels {
            arena.labels.extend(labels.iter().map(fields::field_label));
        }
        for (i, f) in known.args().iter().enumerate().take(32) {
            if missing & (1 << i) != 0 {
                // Looked up again: a type named twice gets its first place.
                if let Some(id) = id_of(i).filter(|&id| self.root(id).is_none()) {
                    self.add_root(id, Some(to_expected(f.ty)));
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::de::ArgumentDecoder;
    use crate::types::CandidType;
    use crate::wire::header::Arena;
    use std::collections::BTreeMap;

    /// Whether `a`'s type at `ra` and `b`'s at `rb` are the same expected type:
    /// the same nodes, ids, labels and references' var bits, whatever the indices.
    fn same(a: &Arena, ra: Ref, b: &Arena, rb: Ref) -> bool {
        if ra.is_var() != rb.is_var() {
            return false;
        }
        match (a.node(ra), b.node(rb)) {
            (Node::Prim(p), Node::Prim(q)) => p == q,
            (Node::Opt(x), Node::Opt(y)) | (Node::Vec(x), Node::Vec(y)) => same(a, x, b, y),
            (Node::Record(s), Node::Record(t)) | (Node::Variant(s), Node::Variant(t)) => {
                s.len == t.len
                    && (0..s.len as usize).all(|k| {
                        let (i, j) = (s.start as usize + k, t.start as usize + k);
                        let (f, g) = (a.fields[i], b.fields[j]);
                        f.id == g.id && a.label(i) == b.label(j) && same(a, f.ty, b, g.ty)
                    })
            }
            _ => false,
        }
    }

    /// Installs `Args`' known header into a fresh interner and places argument
    /// `T` (at `i`) into another: the same type.
    fn check<Args: ArgumentDecoder<'static>, T: CandidType>(i: usize) {
        let k = Args::_known().expect("known");
        let mut installed = Interner::default();
        installed.install(k, Args::_arg_id);
        let r = installed
            .root(Args::_arg_id(i).unwrap())
            .expect("a root")
            .expect("typed");
        let mut placed = Interner::default();
        let p = placed
            .place_root(T::id(), T::_static_type().unwrap())
            .unwrap();
        assert!(
            same(&installed.arena, r, &placed.arena, p),
            "{}: {:?} / {:?}",
            std::any::type_name::<Args>(),
            installed.arena,
            placed.arena
        );
        // Labels line up with fields.
        assert_eq!(installed.arena.labels.len(), installed.arena.fields.len());
    }

    #[test]
    fn installed_types_are_the_placed_ones() {
        type A = Vec<Option<(u8, String)>>;
        type B = BTreeMap<String, std::result::Result<Vec<u8>, (bool, crate::Nat)>>;
        type C = (std::time::Duration, Option<std::time::SystemTime>);
        check::<(A, crate::Principal, B), A>(0);
        check::<(A, crate::Principal, B), B>(2);
        check::<(C,), C>(0);
        check::<(Vec<u8>, Option<Vec<u8>>), Option<Vec<u8>>>(1);
        // Other std types with constants: sets, deques, boxes,
        // byte buffers and arrays, `MotokoResult`, nested options, maps of maps.
        type D = (
            std::collections::BTreeSet<u16>,
            std::collections::VecDeque<Box<i8>>,
            Box<Option<Option<f64>>>,
        );
        check::<(D,), D>(0);
        type E = (
            serde_bytes::ByteBuf,
            [u8; 32],
            crate::types::result::MotokoResult<u8, String>,
        );
        check::<(E,), E>(0);
        type F = std::collections::HashMap<String, BTreeMap<u64, Vec<crate::Int>>>;
        check::<(F, Box<Vec<crate::Reserved>>), F>(0);
    }

    /// A type with a root already is not placed again; a primitive argument gets
    /// no root (its fixed reference is taken instead).
    #[test]
    fn installing_skips_types_with_roots() {
        type Args = (Vec<u64>, u8);
        let k = Args::_known().expect("known");
        let mut it = Interner::default();
        it.install(k, Args::_arg_id);
        let nodes = it.arena.nodes.len();
        assert!(nodes > 0);
        assert!(it.root(Args::_arg_id(1).unwrap()).is_none());
        it.install(k, Args::_arg_id);
        assert_eq!(it.arena.nodes.len(), nodes);
    }

    /// A type named twice gets one root, at its first argument's entry.
    #[test]
    fn a_type_named_twice_gets_one_root() {
        type Args = (Vec<u64>, Vec<u64>);
        let k = Args::_known().expect("known");
        let mut it = Interner::default();
        it.install(k, Args::_arg_id);
        assert_eq!(it.roots_small.len(), 1);
        let r = it.root(Args::_arg_id(0).unwrap()).unwrap().unwrap();
        assert_eq!(
            it.arena.node(r),
            Node::Vec(Ref::prim(crate::wire::header::Prim::Nat64))
        );
    }
}
