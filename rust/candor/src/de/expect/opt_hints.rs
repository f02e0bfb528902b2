//! Tests: the `opt` hint (`Ref::is_opt`) on expected types, placed from static
//! descriptions and interned from `ty()` or a run-time type. A hinted reference
//! always names an `opt`; a record's `opt` field is hinted however it was reached
//! (the first mention of its Rust type, or a later one through the memo).

use super::{of_type, Interner};
use crate::types::{CandidType, Field, Label, Type, TypeEnv, TypeInner};
use crate::wire::header::{Arena, Node};
use std::collections::BTreeMap;

/// Every hinted reference names an `opt`; returns how many were hinted.
fn hints_are_sound(arena: &Arena) -> usize {
    let refs = arena.held_refs();
    for r in &refs {
        if r.is_opt() {
            assert!(matches!(arena.node(*r), Node::Opt(_)), "{r:?}");
        }
    }
    refs.iter().filter(|r| r.is_opt()).count()
}

/// Every field whose type is an `opt` node is hinted (types with no recursion,
/// where every node is known when its references are made).
fn fields_are_hinted(arena: &Arena) {
    for f in &arena.fields {
        let is_opt = matches!(arena.node(f.ty), Node::Opt(_));
        assert_eq!(f.ty.is_opt(), is_opt, "{f:?}");
    }
}

type Fields = (
    Option<u8>,
    Vec<Option<String>>,
    Option<Option<bool>>,
    (Option<u8>, Option<u8>),
    Option<Vec<Option<u8>>>,
);

#[test]
fn placed_options_are_hinted() {
    let mut it = Interner::default();
    let d = Fields::_static_type().expect("described");
    let root = it.place_root(Fields::id(), d).expect("placed");
    assert!(!root.is_opt());
    assert!(hints_are_sound(&it.arena) >= 6);
    fields_are_hinted(&it.arena);
}

#[test]
fn interned_options_are_hinted() {
    let mut it = Interner::default();
    let root = it.intern(&Fields::ty(), None).expect("interned");
    assert!(!root.is_opt());
    assert!(hints_are_sound(&it.arena) >= 6);
    fields_are_hinted(&it.arena);
}

/// `type list = opt record { head: nat; tail: list }` and a record naming it:
/// the reference made while the name's node was still a placeholder has no
/// hint, and none names anything but an `opt`.
#[test]
fn recursive_options_are_hinted_only_soundly() {
    let field = |name: &str, ty: Type| Field {
        id: Label::Named(name.to_string()).into(),
        ty,
    };
    let var = || Type::from(TypeInner::Var("list".to_string()));
    let node = TypeInner::Record(vec![
        field("head", TypeInner::Nat.into()),
        field("tail", var()),
    ]);
    let list = TypeInner::Opt(node.into()).into();
    let env = TypeEnv(BTreeMap::from([("list".to_string(), list)]));
    let ty = TypeInner::Record(vec![field("a", var()), field("b", var())]).into();
    let (arena, root) = of_type(&env, &ty).expect("interned");
    assert!(!root.is_opt());
    assert!(hints_are_sound(&arena) >= 1);
}
