//! Headers written from static descriptions share a table entry between two types
//! exactly when `TypeSerialize` does (the types are equal as `Type`s): equal shapes
//! of distinct Rust types share, shapes that agree at the top but differ below do
//! not, nor do recursive types whose knots name different Rust types. Equal trees
//! of many paths are compared a level at a time (a node once its parts are
//! shared), so they too have a static header.

mod common;

use candor::ser::headers_both_ways;
use candor::utils::ArgumentEncoder;
use candor::{CandidType, Deserialize};

/// The static header (which must exist) equals `ty()`'s; its number of table entries.
fn entries<Tuple: ArgumentEncoder>() -> u8 {
    common::static_header::<Tuple>()[0]
}

#[derive(CandidType, Deserialize)]
struct A {
    x: u8,
    y: String,
}

#[derive(CandidType, Deserialize)]
struct B {
    x: u8,
    y: String,
}

#[derive(CandidType, Deserialize)]
struct Narrow {
    x: u8,
}

#[derive(CandidType, Deserialize)]
struct Wide {
    x: u16,
}

#[derive(CandidType, Deserialize)]
struct HoldsNarrow {
    a: Narrow,
}

#[derive(CandidType, Deserialize)]
struct HoldsWide {
    a: Wide,
}

#[derive(CandidType, Deserialize)]
struct List1 {
    next: Option<Box<List1>>,
}

#[derive(CandidType, Deserialize)]
struct List2 {
    next: Option<Box<List2>>,
}

#[test]
fn equal_shapes_of_distinct_types_share_an_entry() {
    assert_eq!(entries::<(A, B)>(), 1);
    assert_eq!(entries::<(A, Vec<B>, Option<A>)>(), 3);
    // `Narrow` and `HoldsNarrow` twice over.
    assert_eq!(entries::<(HoldsNarrow, HoldsNarrow, Narrow)>(), 2);
}

#[test]
fn shapes_equal_only_at_the_top_do_not_share() {
    // The same opcode, field ids and part kinds at the top; `nat8` against `nat16`
    // one level down.
    assert_eq!(entries::<(HoldsNarrow, HoldsWide)>(), 4);
    assert_eq!(entries::<(Narrow, Wide)>(), 2);
    // Knots naming different Rust types are different types.
    assert_eq!(entries::<(List1, List2)>(), 4);
    assert_eq!(entries::<(List1, List1)>(), 2);
}

#[derive(CandidType, Deserialize)]
struct Two<T> {
    a: T,
    b: T,
}

#[derive(CandidType, Deserialize)]
struct Other<T> {
    a: T,
    b: T,
}

type T1 = Two<u8>;
type T2 = Two<T1>;
type T3 = Two<T2>;
type T4 = Two<T3>;
type T5 = Two<T4>;
type T6 = Two<T5>;
type T7 = Two<T6>;
type T8 = Two<T7>;
type T9 = Two<T8>;
type T10 = Two<T9>;
type T11 = Two<T10>;
type T12 = Two<T11>;
type T13 = Two<T12>;
type T14 = Two<T13>;
type T15 = Two<T14>;
type T16 = Two<T15>;
type T17 = Two<T16>;
type T18 = Two<T17>;
type O1 = Other<u8>;
type O2 = Other<O1>;
type O3 = Other<O2>;
type O4 = Other<O3>;
type O5 = Other<O4>;
type O6 = Other<O5>;
type O7 = Other<O6>;
type O8 = Other<O7>;
type O9 = Other<O8>;
type O10 = Other<O9>;
type O11 = Other<O10>;
type O12 = Other<O11>;
type O13 = Other<O12>;
type O14 = Other<O13>;
type O15 = Other<O14>;
type O16 = Other<O15>;
type O17 = Other<O16>;
type O18 = Other<O17>;

#[test]
fn equal_trees_of_many_paths_share_within_the_budget() {
    // Each level of the comparison takes both fields: 2^8 paths.
    assert_eq!(entries::<(T8, O8)>(), 8);
}

#[test]
fn equal_trees_are_compared_one_level_at_a_time() {
    // 2^18 paths, but each node is compared when its parts are done, and its parts
    // are then already the earlier tree's nodes: the static header is written, and
    // a message still encodes.
    let (from_static, from_ty) = headers_both_ways::<(T18, O18)>();
    assert_eq!(
        from_static.expect("a static header"),
        from_ty.expect("ty() encodes")
    );
    assert_eq!(entries::<(T18, O18)>(), 18);
    let one = Two { a: 1u8, b: 2u8 };
    let bytes = candor::encode_args((&one, &Other { a: 3u8, b: 4u8 })).unwrap();
    let (x, y): (Two<u8>, Other<u8>) = candor::decode_args(&bytes).unwrap();
    assert_eq!((x.a, x.b, y.a, y.b), (1, 2, 3, 4));
}
