//! Headers written from the static descriptions share one type-table entry between
//! structurally equal types exactly where candid does, wherever in the table the
//! equal types stand: distinct Rust types of one shape, at one level or at different
//! depths, reached first deep and then shallow or the other way round, as variant
//! payloads and inline entries, recursive types of one shape, and tables past 127
//! entries (whose indices take two LEB128 bytes).
//!
//! Each message is checked three ways: the header written from the descriptions
//! against the one `TypeSerialize` writes from `ty()`, and whole messages against
//! candid 0.10.39's `Encode!` of the same values.

#![allow(dead_code)]

use candid::Encode;
mod common;

use std::collections::BTreeMap;

/// Derives both crates' `CandidType` (and `Default`, for a value to encode).
macro_rules! both {
    ($($item:item)*) => {$(
        #[derive(candor::CandidType, candid::CandidType, Default, Clone, Debug)]
        $item
    )*};
}

both! {
    struct A { x: u8 }
    struct B { x: u8 }
    struct C { x: u8, y: Option<A> }
    struct D { x: u8, y: Option<B> }
    struct Deep { a: Vec<Option<A>>, b: Option<Vec<B>>, c: Vec<Option<B>>, d: Option<Vec<A>> }
    struct DeepFirst { deep: Vec<Vec<Option<A>>>, shallow: Option<B> }
    struct ShallowFirst { shallow: Option<B>, deep: Vec<Vec<Option<A>>> }
    struct L1 { next: Option<Box<L1>> }
    struct L2 { next: Option<Box<L2>> }
    struct L3 { v: u8, next: Option<Box<L1>> }
    struct Pair(u8, u8);
    struct Maps { a: BTreeMap<String, u8>, b: Vec<(String, u8)> }
    struct Late { first: Vec<u16>, second: A, third: (u8,), fourth: B, fifth: Pair }
}

#[derive(candor::CandidType, candid::CandidType, Clone, Debug)]
enum E {
    One(A),
    Two(B),
    Three { x: u8 },
    Four(C),
    Five(D),
    Six,
}

impl Default for E {
    fn default() -> Self {
        E::Three { x: 7 }
    }
}

/// The header from the descriptions is the one from `ty()`; its type table's length.
fn same_header<Tuple: candor::utils::ArgumentEncoder>() -> u64 {
    let header = common::static_header::<Tuple>();
    leb128::read::unsigned(&mut &header[..]).expect("a table length")
}

/// The headers of each tuple type both ways, and its default value's message as
/// candid encodes it.
macro_rules! check {
    ($(($($t:ty),+)),+ $(,)?) => {$({
        check!(@one $($t),+);
    })+};
    (@one $($t:ty),+) => {{
        let entries = same_header::<($($t,)+)>();
        let candor_bytes = candor::Encode!($(&<$t>::default()),+).unwrap();
        let candid_bytes = candid::Encode!($(&<$t>::default()),+).unwrap();
        assert_eq!(
            candor_bytes,
            candid_bytes,
            "{}",
            stringify!(($($t),+))
        );
        entries
    }};
}

#[test]
fn equal_shapes_share_entries_as_in_candid() {
    check!(
        (A),
        (A, B),
        (B, A),
        (C, D, A),
        (D, C, B),
        (E),
        (E, C, A),
        (Deep),
        (DeepFirst),
        (ShallowFirst),
        (DeepFirst, ShallowFirst, A, B),
        (L1, L2, L3),
        (L3, L2),
        (Pair, (u8, u8)),
        ((u8, u8), Pair, Vec<Pair>, Vec<(u8, u8)>),
        (Maps),
        (Late),
        (Vec<A>, Vec<B>, Option<A>, Option<B>),
        (Option<Option<A>>, Option<Option<B>>, Option<C>),
    );
}

/// Twelve pairs with first element `$a`: twelve distinct record shapes.
macro_rules! row {
    ($a:ty) => {
        (
            ($a, u8),
            ($a, u16),
            ($a, u32),
            ($a, u64),
            ($a, i8),
            ($a, i16),
            ($a, i32),
            ($a, i64),
            ($a, bool),
            ($a, String),
            ($a, f32),
            ($a, f64),
        )
    };
}

/// 144 distinct pairs in twelve rows: a table of over 150 entries.
type Wide = (
    row!(u8),
    row!(u16),
    row!(u32),
    row!(u64),
    row!(i8),
    row!(i16),
    row!(i32),
    row!(i64),
    row!(bool),
    row!(String),
    row!(f32),
    row!(f64),
);

both! {
    /// `Wide`, then types met again past the 127th entry: the same Rust type (a
    /// row), a distinct Rust type of an early pair's shape (`Pair`), and records of
    /// distinct Rust types equal to each other (`A`, `B`).
    struct WideThenEqual { wide: Wide, again: row!(u8), pair: Pair, a: A, b: B }
}

#[test]
fn tables_past_127_entries_share_entries_as_in_candid() {
    // 144 pairs, 12 rows and the whole.
    assert_eq!(check!(@one Wide), 157);
    // Nothing met again takes an entry of its own but the record that holds it all
    // and the one `A` and `B` share.
    assert_eq!(check!(@one WideThenEqual), 159);
    assert_eq!(check!(@one A, WideThenEqual, B), 159);
    assert_eq!(check!(@one WideThenEqual, Wide, Pair), 159);
}
