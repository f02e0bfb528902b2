//! Unit tests of the decode state's kept answers.

use super::test_state as state;
use crate::wire::header::Arena;

/// The least size of a vector's record element is kept for the next vector of
/// that element type, and only for it: another record type, or one that is not
/// a record, gets its own answer.
#[test]
fn elem_min_size_keeps_the_last_record_only() {
    use crate::wire::header::{parse_into, Node};
    let args = (vec![(1u64, 2u64)], vec![(1u8,)], vec![3u16]);
    let bytes = crate::ser::encode_args_owned(&args).unwrap();
    let mut arena = Arena::new();
    let shape = parse_into(&bytes, usize::MAX, usize::MAX, &mut arena).unwrap();
    let el = |arena: &Arena, r: crate::wire::header::Ref| match arena.node(r.resolved()) {
        Node::Vec(el) => el.resolved(),
        _ => panic!("not a vector"),
    };
    let els: Vec<_> = (0..3)
        .map(|i| el(&arena, shape.arg(&arena, i).unwrap()))
        .collect();
    let mut c = state(None, None);
    c.hold(arena);
    assert_eq!(c.elem_min_size(els[0]), 16);
    assert_eq!(c.min_memo, (els[0], 16));
    assert_eq!(c.elem_min_size(els[0]), 16);
    assert_eq!(c.elem_min_size(els[1]), 1);
    assert_eq!(c.min_memo, (els[1], 1));
    assert_eq!(c.elem_min_size(els[2]), 2);
    assert_eq!(c.min_memo, (els[1], 1), "a primitive element is not kept");
    assert_eq!(c.elem_min_size(els[0]), 16);
}
