//! Which path writes a static header (`ser/static_walk.rs` writes each entry as the
//! walk makes it; the general path numbers the stored nodes and writes the entries
//! afresh), and that both give `TypeSerialize`'s bytes from `ty()`:
//! * the one-pass path for types whose nodes cannot be structurally equal:
//!   records, variants, options, recursion (knots, filled once the walk ends),
//!   mutual recursion, transparent wrappers, the dapps' reply types, and nodes
//!   alike at their own level but not below (their keys cover their structure);
//! * the one-pass path too where a node is equal to an earlier one under another
//!   Rust type (it takes the earlier entry and is cut back), as in ICRC's types;
//! * the general path where two nodes alike in their keys are not equal (records
//!   alike but in a middle field) and where an entry index needs two bytes.

#![allow(dead_code)]

use candor::ser::{headers_both_ways, StaticPath};
use candor::utils::ArgumentEncoder;
use candor::{CandidType, Deserialize, Int, Principal};

/// The header of a message of `Tuple`, every way it can be written (by the
/// compiler, from the descriptions at run time, from `ty()`); which way the
/// descriptions wrote it, and whether the compiler did.
fn header_path<Tuple: ArgumentEncoder>() -> (StaticPath, bool) {
    let name = std::any::type_name::<Tuple>();
    let (from_static, from_ty) = headers_both_ways::<Tuple>();
    let from_static = from_static.unwrap_or_else(|| panic!("{name}: no static header"));
    let from_ty = from_ty.expect("ty() encodes");
    assert_eq!(from_static, from_ty, "{name}");
    let (described, path) = Tuple::_described_header().expect("a static header");
    assert_eq!(described.get(4..), Some(&from_ty[..]), "{name}: described");
    let constant = Tuple::_const_header();
    if let Some(h) = constant {
        assert_eq!(h.get(4..), Some(&from_ty[..]), "{name}: constant");
    }
    (path, constant.is_some())
}

macro_rules! path {
    ($path:ident: $($t:ty),* $(,)?) => {$(
        assert_eq!(header_path::<$t>().0, StaticPath::$path, "{}", stringify!($t));
    )*};
}

/// Whether the compiler writes the header (`ser/const_header.rs`): eight levels at
/// most, 32 entries and 256 bytes at most, no function or service, no
/// hand-written type.
macro_rules! constant {
    ($constant:literal: $($t:ty),* $(,)?) => {$(
        assert_eq!(header_path::<$t>().1, $constant, "{}", stringify!($t));
    )*};
}

macro_rules! flat {
    ($($t:ty),* $(,)?) => { path!(Flat: $($t),*) };
}

macro_rules! one_pass {
    ($($t:ty),* $(,)?) => { path!(OnePass: $($t),*) };
}

macro_rules! general {
    ($($t:ty),* $(,)?) => { path!(General: $($t),*) };
}

/// Three levels: a tuple with it takes the walk.
type Deep = Option<Option<Option<u8>>>;

#[derive(CandidType, Deserialize)]
struct Minted {
    token_id: u64,
    id: u128,
}

#[derive(CandidType, Deserialize)]
enum ApiError {
    Unauthorized,
    InvalidTokenId,
    ZeroAddress,
    Other,
}

#[derive(CandidType, Deserialize)]
enum State {
    Open,
    Accepted,
    Failed(String),
}

#[derive(CandidType, Deserialize)]
struct Account {
    owner: Principal,
    subaccount: Option<Vec<u8>>,
    tags: Vec<String>,
}

#[derive(CandidType, Deserialize)]
struct List {
    head: Int,
    tail: Option<Box<List>>,
}

#[derive(CandidType, Deserialize)]
enum Tree {
    Leaf(u8),
    Node { left: Box<Tree>, right: Box<Tree> },
}

#[derive(CandidType, Deserialize)]
struct Even {
    next: Option<Box<Odd>>,
}

#[derive(CandidType, Deserialize)]
struct Odd {
    next: Box<Even>,
}

/// A newtype inside its own recursion.
#[derive(CandidType, Deserialize)]
struct Wrapped(Option<Box<Wrapped>>);

#[test]
fn headers_of_distinct_nodes_take_the_one_pass_path() {
    one_pass!(
        (Result<Minted, ApiError>, Deep),
        (Result<u128, ApiError>, Deep),
        (Result<State, String>, Deep),
        // Flat types beside one that is not: the walk writes them all.
        (Minted, Vec<Minted>, Deep),
        (Result<u64, String>, Option<Minted>, Deep),
        (Vec<u8>, Result<(), String>, Vec<Vec<u8>>, Deep),
        (Account, Minted, Option<Account>),
        (List,),
        (Box<List>, List),
        (List, Box<List>, Option<Box<List>>),
        (Tree,),
        (Even,),
        (Odd, Even),
        (Wrapped,),
        (Vec<Account>, Vec<u8>),
        // Alike at their own level, not below: an entry each.
        (Outer8, Outer16, Deep),
        (Option<Option<Option<u8>>>,),
        (Vec<u8>, Vec<Vec<u8>>, Vec<Vec<Vec<u8>>>),
        // Equal but for the types their knots name, which `Type`'s order compares.
        (List, List2),
        (Option<Box<List>>, Option<Box<List2>>),
    );
}

#[derive(CandidType, Deserialize)]
struct A {
    x: u8,
}

#[derive(CandidType, Deserialize)]
struct B {
    x: u8,
}

#[derive(CandidType, Deserialize)]
struct Three {
    a: u8,
    b: u8,
    c: u8,
}

/// `Three` but for its middle field.
#[derive(CandidType, Deserialize)]
struct ThreeOther {
    a: u8,
    b: u16,
    c: u8,
}

#[derive(CandidType, Deserialize)]
struct Outer8 {
    x: Option<u8>,
}

#[derive(CandidType, Deserialize)]
struct Outer16 {
    x: Option<u16>,
}

/// `List` under another name: its knot names `List2`.
#[derive(CandidType, Deserialize)]
struct List2 {
    head: Int,
    tail: Option<Box<List2>>,
}

/// Holds an `A`.
#[derive(CandidType, Deserialize)]
struct HoldsA {
    x: A,
}

/// `HoldsA`'s shape, holding a `B`: equal to `HoldsA`, so its `B` is not visited.
#[derive(CandidType, Deserialize)]
struct HoldsB {
    x: B,
}

/// Two cases' payloads of one shape, each naming the enclosing type (a knot).
#[derive(CandidType, Deserialize)]
struct Top {
    a: UpA,
    b: UpB,
}

#[derive(CandidType, Deserialize)]
struct UpA {
    up: Option<Box<Top>>,
}

#[derive(CandidType, Deserialize)]
struct UpB {
    up: Option<Box<Top>>,
}

/// An ICRC-2 error: `Expired` and `CreatedInFuture` are one record.
#[derive(CandidType, Deserialize)]
enum ApproveError {
    BadFee { expected_fee: Int },
    Expired { ledger_time: u64 },
    TooOld,
    CreatedInFuture { ledger_time: u64 },
    GenericError { error_code: Int, message: String },
}

/// An ICRC-1 transfer's argument: `opt blob` from two Rust types.
#[derive(CandidType, Deserialize)]
struct Memo(serde_bytes::ByteBuf);

#[derive(CandidType, Deserialize)]
struct TransferArg {
    from_subaccount: Option<[u8; 32]>,
    to: Account,
    memo: Option<Memo>,
    created_at_time: Option<u64>,
}

#[test]
fn equal_nodes_take_the_one_pass_path_and_share_an_entry() {
    one_pass!(
        // Equal under distinct Rust types: one entry, the later node cut back.
        (A, B, Vec<u8>, Option<A>, Deep),
        (Vec<A>, Vec<B>, Deep),
        (Result<A, B>, Deep),
        (Result<Int, ApproveError>,),
        (TransferArg,),
        (TransferArg, Account, Option<Memo>),
        // A transparent type first met below a cut-back node, then met again.
        (Option<Vec<u8>>, Option<Memo>, Memo, Deep),
        (TransferArg, Memo, [u8; 32], Option<Memo>),
        // `B` not visited below `HoldsB`, then met again: made again, and equal
        // to `A`.
        (HoldsA, HoldsB, B, Deep),
        (HoldsA, HoldsB, Vec<B>, HoldsB, Deep),
        // The cut-back node's knot is not filled.
        (Top,),
        (Top, UpB, UpA),
        (Option<Box<Top>>, Top),
    );
}

#[test]
fn headers_where_nodes_alike_differ_take_the_general_path() {
    general!(
        // Alike but in a middle field: an entry each, from the general path.
        (Vec<Three>, Vec<ThreeOther>, Deep),
        (Option<Three>, ThreeOther, A, B, Deep),
    );
}

/// A chain of records, each holding the next: 65 entries from `C35`.
macro_rules! chain {
    ($($name:ident $field:ident $next:ty;)*) => {$(
        #[derive(CandidType)]
        struct $name {
            $field: Box<$next>,
        }
    )*};
}

chain! {
    C35 f35 C36; C36 f36 C37; C37 f37 C38; C38 f38 C39; C39 f39 C40; C40 f40 C41;
    C41 f41 C42; C42 f42 C43; C43 f43 C44; C44 f44 C45; C45 f45 C46; C46 f46 C47;
    C47 f47 C48; C48 f48 C49; C49 f49 C50; C50 f50 C51; C51 f51 C52; C52 f52 C53;
    C53 f53 C54; C54 f54 C55; C55 f55 C56; C56 f56 C57; C57 f57 C58; C58 f58 C59;
    C59 f59 C60; C60 f60 C61; C61 f61 C62; C62 f62 C63; C63 f63 C64; C64 f64 C65;
    C65 f65 C66; C66 f66 C67; C67 f67 C68; C68 f68 C69; C69 f69 C70; C70 f70 C71;
    C71 f71 C72; C72 f72 C73; C73 f73 C74; C74 f74 C75; C75 f75 C76; C76 f76 C77;
    C77 f77 C78; C78 f78 C79; C79 f79 C80; C80 f80 C81; C81 f81 C82; C82 f82 C83;
    C83 f83 C84; C84 f84 C85; C85 f85 C86; C86 f86 C87; C87 f87 C88; C88 f88 C89;
    C89 f89 C90; C90 f90 C91; C91 f91 C92; C92 f92 C93; C93 f93 C94; C94 f94 C95;
    C95 f95 C96; C96 f96 C97; C97 f97 C98; C98 f98 C99; C99 f99 u8;
}

#[test]
fn headers_with_entry_indices_past_one_byte_take_the_general_path() {
    // 64 entries, the last numbered 63.
    one_pass!((C36,), (C37, C80));
    // 65 entries and more: the chains nest no deeper than 65 types, which `ty()`'s
    // encoder takes within its stack bound in every build (AddressSanitizer's
    // frames included).
    general!((C35,), (C35, C36), (C99, C35));
}

/// A record of primitives whose field ids take one to five LEB128 bytes.
#[derive(CandidType, Deserialize)]
struct WideIds {
    #[serde(rename = "0")]
    zero: u8,
    #[serde(rename = "127")]
    one_byte: u16,
    #[serde(rename = "128")]
    two_bytes: Option<u8>,
    amount_e8s: u64,
    #[serde(rename = "4294967295")]
    five_bytes: String,
}

/// A record of primitives but for one field.
#[derive(CandidType, Deserialize)]
struct WideIdsFlat {
    #[serde(rename = "0")]
    zero: u8,
    #[serde(rename = "127")]
    one_byte: u16,
    amount_e8s: u64,
    #[serde(rename = "4294967295")]
    five_bytes: String,
}

#[derive(CandidType, Deserialize)]
struct NoFields {}

#[derive(CandidType, Deserialize)]
enum Unit {
    Only,
}

#[derive(CandidType, Deserialize)]
struct Pair(u8, String);

#[test]
fn primitives_and_nodes_of_primitives_are_written_flat() {
    flat!(
        (u8,),
        (u8, String, Principal),
        (candor::Nat,),
        (Minted,),
        (Result<(), String>,),
        (Result<u64, String>,),
        (Result<candor::Nat, String>,),
        (Option<u64>,),
        (Option<candor::Nat>,),
        (Vec<u8>,),
        (serde_bytes::ByteBuf,),
        (Vec<Principal>, Option<String>),
        (WideIdsFlat,),
        (NoFields,),
        (Unit,),
        (ApiError,),
        (Pair,),
        // Equal entries, from one Rust type or two: one entry.
        (Option<u64>, u8, Option<u64>),
        (A, B),
        (A, B, Three, A, ThreeOther, B),
        (Three, ThreeOther),
        (Option<u8>, Vec<u8>, Option<u8>, Vec<u8>),
        (Result<u64, String>, Result<u64, String>),
        (u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8),
    );
    // Flat, and written by the compiler too.
    type Long = (
        A,
        B,
        Minted,
        Three,
        A,
        NoFields,
        Unit,
        ApiError,
        Pair,
        Option<u8>,
        Vec<u8>,
        Option<u16>,
        Vec<u16>,
        Result<u8, String>,
        WideIdsFlat,
        Option<u64>,
    );
    flat!(Long);
    constant!(true: Long);
    // Two levels: parts that are primitives or flat nodes.
    flat!(
        (Option<Option<u8>>,),
        (Result<Minted, String>,),
        (Option<A>,),
        (Result<u8, Unit>,),
        (Result<Minted, ApiError>,),
        (Result<u128, ApiError>,),
        (Result<State, String>,),
        (Minted, Vec<Minted>),
        (Result<u64, String>, Option<Minted>),
        (Vec<u8>, Result<(), String>, Vec<Vec<u8>>),
        (Outer8, Outer16),
        (Vec<Three>, Vec<ThreeOther>),
        (Option<Three>, ThreeOther, A, B),
        // Equal entries: flat ones under distinct Rust types, a two-level one
        // equal to an earlier one (its parts then not visited), a flat one equal
        // to an earlier one's part.
        (A, B, Vec<u8>, Option<A>),
        (Vec<A>, Vec<B>),
        (Result<A, B>,),
        (Option<Vec<u8>>, Option<Memo>, Memo),
        (HoldsA, HoldsB, B),
        (HoldsA, HoldsB, Vec<B>, HoldsB),
        (Result<A, B>, Result<B, A>, Result<A, A>, Result<Three, B>),
        (Option<u8>, Option<Option<u8>>, Option<Option<u8>>),
    );
    // Three levels, or more than four fields in an argument's own node: the walk.
    one_pass!(
        (WideIds,),
        (Option<Option<Option<u8>>>,),
        (Result<Result<Minted, String>, String>,)
    );
}

/// Nine levels.
type Deeper = O4<O4<Option<u8>>>;

/// Four levels of `opt`.
type O4<T> = Option<Option<Option<Option<T>>>>;

/// Three levels of `opt`.
type O3<T> = Option<Option<Option<T>>>;

/// A newtype wrapping itself (it has no finite value): it derives, as with
/// candid, and has no constants (forwarded, they would reach themselves).
#[derive(CandidType)]
struct SelfBox(Box<SelfBox>);

/// A hand-written `CandidType`: no description, no constants.
struct HandWritten;

impl CandidType for HandWritten {
    fn _ty() -> candor::types::Type {
        candor::types::TypeInner::Nat8.into()
    }
    fn idl_serialize<S: candor::types::Serializer>(&self, s: S) -> Result<(), S::Error> {
        s.serialize_nat8(0)
    }
}

#[test]
fn the_compiler_writes_headers_eight_levels_deep_and_no_deeper() {
    constant!(true:
        (u8,),
        (Minted,),
        (Result<Minted, ApiError>,),
        (Deep,),
        (WideIds,),
        (Account,),
        (Result<Result<Minted, String>, String>,),
        (Option<Deep>,),
        (A, B, Vec<u8>, Option<A>, Deep),
        (Vec<Three>, Vec<ThreeOther>, Deep),
        (std::collections::BTreeMap<String, Vec<u8>>,),
        (Option<std::collections::BTreeMap<String, Option<u8>>>,),
        (Result<State, ApproveError>,),
        // `opt blob` from `[u8; 32]` and from `Memo`: one entry.
        (TransferArg, Memo, [u8; 32], Option<Memo>),
    );
    constant!(true: (Option<Option<Deep>>,), (Option<TransferArg>,), (O4<O4<u8>>,));
    constant!(false:
        (Deeper,),
        (u8, Deeper),
        (List,),
        (Tree,),
        (Wrapped,),
        (Even,),
        // 33 entries.
        (
            O3<u8>,
            O3<u16>,
            O3<u32>,
            O3<u64>,
            O3<i8>,
            O3<i16>,
            O3<i32>,
            O3<i64>,
            O3<f32>,
            O3<f64>,
            O3<String>
        ),
    );
    // Nor a header with a type it knows nothing of (it has no description either).
    assert!(<(Option<HandWritten>,)>::_const_header().is_none());
    assert!(<(u8, HandWritten)>::_const_header().is_none());
    assert!(<(Option<SelfBox>,)>::_const_header().is_none());
}

type O2<T> = Option<Option<T>>;

#[test]
fn flat_tables_past_sixteen_entries_take_the_walk() {
    // Two entries each: sixteen in all, then eighteen.
    flat!((
        O2<u8>,
        O2<u16>,
        O2<u32>,
        O2<u64>,
        O2<i8>,
        O2<i16>,
        O2<i32>,
        O2<i64>
    ));
    one_pass!((
        O2<u8>,
        O2<u16>,
        O2<u32>,
        O2<u64>,
        O2<i8>,
        O2<i16>,
        O2<i32>,
        O2<i64>,
        O2<bool>
    ));
    // Repeated, the entries are shared: still flat.
    flat!((
        O2<u8>,
        O2<u16>,
        O2<u32>,
        O2<u64>,
        O2<i8>,
        O2<i16>,
        O2<i32>,
        O2<i64>,
        O2<u8>
    ));
}
