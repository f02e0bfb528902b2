//! Static descriptions (`_static_type`) give what `ty()` gives, both where they are
//! used:
//! * interning an argument type from its description gives the same expected arena
//!   as interning the tree `ty()` computes with a fresh memo: the same nodes in the
//!   same order, the same fields, labels and var bits;
//! * the header of a message written from the descriptions is byte for byte the one
//!   `TypeSerialize` writes from `ty()` (for each type alone, and for tuples of them).
//!
//! Checked over the derive's surface (recursive, mutually recursive, generic, renamed, tuple,
//! unit, newtype, nested options, maps, references), the std impls, the bench
//! canister's payload types and the dapp calls' argument types.

#![allow(dead_code)]

use candor::de::expected_arena_dump;
mod common;

use candor::ser::headers_both_ways;
use candor::CandidType;
use candor::{Deserialize, Int, Nat, Principal};
use serde_bytes::ByteBuf;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

/// What the bench canister's `types.rs` imports as `crate::lib`.
mod lib {
    pub use candor::{CandidType, Deserialize, Int, Principal};
}

#[path = "../../../benches/canister/src/types.rs"]
#[allow(clippy::large_enum_variant)]
mod bench_types;

/// Both arenas for `T`; the static one must exist (the description is complete).
fn same<T: CandidType + ?Sized>() {
    let name = std::any::type_name::<T>();
    let from_static = expected_arena_dump::<T>(true)
        .unwrap_or_else(|| panic!("{name}: no complete static description"));
    let from_ty = expected_arena_dump::<T>(false).expect("ty() interns");
    assert_eq!(from_static, from_ty, "{name}");
}

/// Both headers of a message of `Tuple`.
fn same_header<Tuple: candor::utils::ArgumentEncoder>() {
    common::static_header::<Tuple>();
}

/// Arenas for each type; headers for each sized type alone and for all of them in
/// one message (shared and recursive types across arguments).
macro_rules! all_same {
    ($($t:ty),* $(,)?) => {
        $(same::<$t>();)*
        all_same!(@headers $($t),*);
    };
    (@headers $($t:ty),*) => {
        $(same_header::<($t,)>();)*
    };
}

/// Headers of messages of several arguments.
macro_rules! headers_same {
    ($($t:ty),* $(,)?) => {$(same_header::<$t>();)*};
}

#[derive(CandidType, Deserialize)]
struct Plain {
    a: u8,
    b: String,
    c: Option<Option<Option<i64>>>,
    d: Vec<Vec<u8>>,
}

#[derive(CandidType, Deserialize)]
struct Renamed {
    #[serde(rename = "type")]
    kind: u32,
    #[serde(rename = "0")]
    zero: bool,
    r#async: Nat,
}

#[derive(CandidType, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cased {
    first_field: Int,
    second_field: Principal,
}

#[derive(CandidType, Deserialize)]
struct Tuple3(u8, String, Option<Principal>);

#[derive(CandidType, Deserialize)]
struct Unit;

#[derive(CandidType, Deserialize)]
struct EmptyRecord {}

#[derive(CandidType, Deserialize)]
struct NewBlob(Vec<u8>);

#[derive(CandidType, Deserialize)]
struct NewPlain(Plain);

#[derive(CandidType, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Shape {
    Empty,
    Circle(f64),
    Pair(u8, u16),
    Rect {
        width: u32,
        height: u32,
    },
    #[serde(rename = "other")]
    Named(Plain),
}

/// Through `opt` and `Box`.
#[derive(CandidType, Deserialize)]
struct List {
    head: Int,
    tail: Option<Box<List>>,
}

/// Through a variant, `Box` in a case.
#[derive(CandidType, Deserialize)]
enum Tree {
    Leaf(u64),
    Node(Box<Tree>, Box<Tree>),
    Forest(Vec<Tree>),
}

/// A newtype whose inner type mentions the newtype.
#[derive(CandidType, Deserialize)]
struct Wrapped(Option<Box<WrappedCell>>);
#[derive(CandidType, Deserialize)]
struct WrappedCell {
    value: i32,
    next: Wrapped,
}

/// Mutual recursion, entered from both ends, and shared.
#[derive(CandidType, Deserialize)]
struct Even {
    odd: Option<Box<Odd>>,
}
#[derive(CandidType, Deserialize)]
struct Odd {
    even: Even,
    again: Vec<Odd>,
}
#[derive(CandidType)]
struct BothEnds {
    odd: Odd,
    even: Even,
    boxed: Box<Odd>,
    rc: Rc<Even>,
}

/// The same type twice, and a transparent wrapper of a recursive type reached
/// after the type.
#[derive(CandidType, Deserialize)]
struct Shared {
    x: Plain,
    y: Plain,
    list: List,
    boxed: Box<List>,
    again: Option<Box<List>>,
}

#[derive(CandidType, Deserialize)]
struct Pair<T> {
    left: T,
    right: T,
}

#[derive(CandidType, Deserialize)]
enum Either<A, B> {
    Left(A),
    Right(B),
}

#[derive(CandidType, Deserialize)]
struct Generic<T> {
    pairs: Vec<Pair<T>>,
    either: Either<T, Pair<u8>>,
    more: Pair<Pair<T>>,
}

#[derive(CandidType, Deserialize)]
struct Borrowed<'a> {
    name: &'a str,
    items: Vec<&'a str>,
}

#[derive(CandidType)]
struct Maps {
    ordered: BTreeMap<String, Nat>,
    hashed: HashMap<u64, Vec<u8>>,
    nested: BTreeMap<String, BTreeMap<u8, Plain>>,
    shared: Arc<Plain>,
    bytes: ByteBuf,
    result: Result<Plain, String>,
    time: std::time::Duration,
}

#[test]
fn std_types_describe_what_ty_gives() {
    all_same!(
        u8,
        i128,
        u128,
        bool,
        String,
        Nat,
        Int,
        Principal,
        candor::Reserved,
        candor::Empty,
        (),
        Vec<u8>,
        [u8; 4],
        Vec<Vec<String>>,
        Option<Option<Option<u8>>>,
        Box<Vec<Principal>>,
        (u8, String, Option<Principal>),
        (Vec<u8>, Vec<u8>, Option<Vec<u8>>),
        BTreeMap<String, Nat>,
        HashMap<u64, (u8, u8)>,
        Result<u8, String>,
        Result<Vec<u8>, Vec<u8>>,
        ByteBuf,
        std::time::Duration,
        std::time::SystemTime,
        candor::types::result::MotokoResult<u8, String>,
        std::collections::BTreeSet<u32>,
        std::collections::VecDeque<Option<u8>>,
    );
}

#[test]
fn unsized_types_describe_what_ty_gives() {
    same::<str>();
    same::<[u16]>();
    headers_same!((&'static str, &'static [u16], Box<str>));
}

#[test]
fn derived_types_describe_what_ty_gives() {
    all_same!(
        Plain,
        Renamed,
        Cased,
        Tuple3,
        Unit,
        EmptyRecord,
        NewBlob,
        NewPlain,
        Shape,
        Option<Shape>,
        (Shape, Shape, Vec<Shape>),
        Maps,
        Borrowed<'static>,
    );
}

#[test]
fn recursive_types_describe_what_ty_gives() {
    all_same!(
        List,
        Box<List>,
        Option<Box<List>>,
        (List, Box<List>, List),
        Tree,
        Vec<Tree>,
        Wrapped,
        WrappedCell,
        (Wrapped, WrappedCell),
        (WrappedCell, Wrapped),
        Even,
        Odd,
        BothEnds,
        (Even, Odd),
        (Odd, Even),
        Shared,
    );
}

#[test]
fn generic_types_describe_what_ty_gives() {
    all_same!(
        Pair<u8>,
        Pair<Plain>,
        Pair<List>,
        Either<u8, String>,
        Either<Tree, Tree>,
        Generic<u8>,
        Generic<List>,
        (Generic<u8>, Generic<String>, Pair<u8>),
    );
}

#[test]
fn messages_of_several_arguments_have_the_same_header() {
    headers_same!(
        (u8, String),
        (Plain, Plain, Vec<Plain>),
        (List, Box<List>, Option<Box<List>>),
        (Box<List>, List),
        (Tree, Vec<u8>, ByteBuf, Vec<u8>),
        (Even, Odd, BothEnds),
        (Odd, Even, Shared),
        (Wrapped, WrappedCell, Wrapped),
        (WrappedCell, Wrapped),
        (Pair<u8>, Pair<u16>, Pair<Pair<u8>>, Either<u8, u8>),
        (Shape, Option<Shape>, Maps, Renamed, Cased),
        (Result<u8, String>, Result<u8, String>, Option<u8>),
        (
            bench_types::ConsCell,
            bench_types::Chain,
            bench_types::Chain
        ),
        (Principal, Vec<dapp::MetadataPart>, ByteBuf),
        (Principal, Principal, u64),
        (dapp::TransferArgs, dapp::VoteArgs, dapp::ProposalPayload),
    );
}

#[test]
fn bench_canister_types_describe_what_ty_gives() {
    use bench_types::gov;
    use bench_types::*;
    all_same!(
        ConsCell,
        Chain,
        ProposalPage,
        NeuronPage,
        Wallet,
        WalletResult,
        StakingStats,
        TokenOp,
        SettingsPatch,
        LedgerEntryV1,
        LedgerEntryV2,
        gov::ManageNeuronRequest,
        gov::MakeProposalRequest,
    );
}

/// The argument types of the dapp calls (`dapp_calls`, tests/canisters): DIP721's
/// mint and transfer, Basic DAO's transfer, submit_proposal and vote.
mod dapp {
    use super::*;

    #[derive(CandidType, Deserialize)]
    pub enum MetadataPurpose {
        Preview,
        Rendered,
    }
    #[allow(clippy::enum_variant_names)]
    #[derive(CandidType, Deserialize)]
    pub enum MetadataVal {
        TextContent(String),
        BlobContent(Vec<u8>),
        NatContent(u128),
        Nat8Content(u8),
        Nat64Content(u64),
    }
    #[derive(CandidType, Deserialize)]
    pub struct MetadataPart {
        pub purpose: MetadataPurpose,
        pub key_val_data: HashMap<String, MetadataVal>,
        pub data: Vec<u8>,
    }
    #[derive(CandidType, Deserialize)]
    pub struct Tokens {
        pub amount_e8s: u64,
    }
    #[derive(CandidType, Deserialize)]
    pub struct TransferArgs {
        pub to: Principal,
        pub amount: Tokens,
    }
    #[derive(CandidType, Deserialize)]
    pub struct ProposalPayload {
        pub canister_id: Principal,
        pub method: String,
        pub message: Vec<u8>,
    }
    #[derive(CandidType, Deserialize)]
    pub enum Vote {
        Yes,
        No,
    }
    #[derive(CandidType, Deserialize)]
    pub struct VoteArgs {
        pub proposal_id: u64,
        pub vote: Vote,
    }
}

#[test]
fn dapp_argument_types_describe_what_ty_gives() {
    use dapp::*;
    all_same!(
        (Principal, Vec<MetadataPart>, ByteBuf),
        Vec<MetadataPart>,
        (Principal, u64),
        (Principal, Principal, u64),
        TransferArgs,
        ProposalPayload,
        VoteArgs,
    );
}

/// A hand-written `CandidType` compiles without the hidden method and keeps the
/// `ty()` path; so does a derived type that holds one.
struct HandWritten;
impl CandidType for HandWritten {
    fn _ty() -> candor::types::Type {
        candor::types::TypeInner::Nat16.into()
    }
    fn idl_serialize<S: candor::types::Serializer>(&self, s: S) -> Result<(), S::Error> {
        s.serialize_nat16(7)
    }
}

#[derive(CandidType)]
struct HoldsHandWritten {
    inner: HandWritten,
    plain: Plain,
}

#[test]
fn a_type_without_a_complete_description_keeps_the_ty_path() {
    assert!(HandWritten::_static_type().is_none());
    assert!(expected_arena_dump::<HoldsHandWritten>(true).is_none());
    assert!(headers_both_ways::<(u8, HoldsHandWritten)>().0.is_none());
    assert!(expected_arena_dump::<HoldsHandWritten>(false).is_some());
    assert!(expected_arena_dump::<candor::IDLValue>(true).is_none());
}

/// Decoding through the static path: a type with a description, then one whose
/// description is incomplete (placed from `ty()`), share the thread's arena.
#[test]
fn decoding_takes_either_path() {
    let bytes = candor::Encode!(&Plain {
        a: 1,
        b: "x".into(),
        c: Some(Some(None)),
        d: vec![vec![2]],
    })
    .unwrap();
    let back = candor::Decode!(&bytes, Plain).unwrap();
    assert_eq!(
        (back.a, back.b.as_str(), back.c),
        (1, "x", Some(Some(None)))
    );
    let bytes = candor::Encode!(&HoldsHandWritten {
        inner: HandWritten,
        plain: back,
    })
    .unwrap();
    let text = candor::IDLArgs::from_bytes(&bytes).unwrap().to_string();
    assert!(text.contains("= 7 : nat16"), "{text}");
}

/// Hand-written types with hand-written descriptions, which the derive's
/// guarantees do not cover: fields listed out of id order (the arena sorts them,
/// the header keeps `ty()`'s order), and two fields with one id.
mod hand_described {
    use candor::types::static_type::{link, StaticField, StaticKind, StaticLabel};
    use candor::types::{Field, Label, Serializer, StaticType, Type, TypeInner};
    use candor::CandidType;

    fn field(name: &str, ty: Type) -> Field {
        Field {
            id: Label::Named(name.to_string()).into(),
            ty,
        }
    }

    /// `record { zeta : nat8; alpha : text; mid : opt nat8 }`, in that order.
    pub struct OutOfOrder;
    impl CandidType for OutOfOrder {
        fn _ty() -> Type {
            TypeInner::Record(vec![
                field("zeta", u8::ty()),
                field("alpha", String::ty()),
                field("mid", Option::<u8>::ty()),
            ])
            .into()
        }
        fn _static_type() -> Option<&'static StaticType> {
            Some(
                const {
                    &StaticType {
                        owner: Some(<OutOfOrder as CandidType>::id),
                        kind: StaticKind::Record(&[
                            StaticField::named("zeta", link::<u8>()),
                            StaticField::named("alpha", link::<String>()),
                            StaticField::named("mid", link::<Option<u8>>()),
                        ]),
                    }
                },
            )
        }
        fn idl_serialize<S: Serializer>(&self, s: S) -> Result<(), S::Error> {
            s.serialize_null(())
        }
    }

    /// `variant { a : null; 0 : nat8; a : text }`: "a" twice, one id.
    #[derive(candor::Deserialize)]
    pub struct Collides;
    impl CandidType for Collides {
        fn _ty() -> Type {
            TypeInner::Variant(vec![
                field("a", TypeInner::Null.into()),
                Field {
                    id: Label::Id(0).into(),
                    ty: u8::ty(),
                },
                field("a", String::ty()),
            ])
            .into()
        }
        fn _static_type() -> Option<&'static StaticType> {
            Some(
                const {
                    &StaticType {
                        owner: Some(<Collides as CandidType>::id),
                        kind: StaticKind::Variant(&[
                            StaticField::named("a", link::<()>()),
                            StaticField::new(0, StaticLabel::Id, link::<u8>()),
                            StaticField::named("a", link::<String>()),
                        ]),
                    }
                },
            )
        }
        fn idl_serialize<S: Serializer>(&self, s: S) -> Result<(), S::Error> {
            s.serialize_null(())
        }
    }
}

#[test]
fn hand_written_descriptions_out_of_id_order_give_what_ty_gives() {
    use hand_described::OutOfOrder;
    all_same!(
        OutOfOrder,
        Option<OutOfOrder>,
        (OutOfOrder, Vec<OutOfOrder>)
    );
    headers_same!((OutOfOrder, Plain, OutOfOrder));
}

#[test]
fn a_described_id_collision_is_reported_as_from_ty() {
    use hand_described::Collides;
    // The placing fails and `ty()` is interned instead, which reports the collision.
    assert!(expected_arena_dump::<Collides>(true).is_none());
    assert!(expected_arena_dump::<Collides>(false).is_none());
    let bytes = candor::Encode!(&7u8).unwrap();
    let err = candor::Decode!(&bytes, Collides).map(|_| ()).unwrap_err();
    assert!(
        err.to_string().contains("field id collision in variant"),
        "{err}"
    );
    // Both headers list the cases as `ty()` does.
    same_header::<(Collides, u8)>();
}

/// Every field of `T`'s description (and of the descriptions it reaches, to a few
/// levels) carries its id's LEB128 bytes as `leb_word` computes them: the derive
/// writes them as literals.
fn lebs_match<T: CandidType + ?Sized>() {
    use candor::types::static_type::{leb_word, StaticKind, StaticRef};
    fn walk(d: &'static candor::types::StaticType, depth: u32) {
        let refs: Vec<StaticRef> = match d.kind {
            StaticKind::Record(fs) | StaticKind::Variant(fs) => {
                for f in fs {
                    assert_eq!(f.leb, leb_word(f.id), "field id {}", f.id);
                }
                fs.iter().map(|f| f.ty).collect()
            }
            StaticKind::Opt(r) | StaticKind::Vec(r) => vec![r],
            StaticKind::Func(f) => f.args.iter().chain(f.rets).copied().collect(),
            StaticKind::Service(ms) => ms.iter().map(|m| m.ty).collect(),
            StaticKind::Prim(_) => vec![],
        };
        for r in refs.into_iter().filter(|_| depth < 6) {
            match r {
                StaticRef::Inline(d) => walk(d, depth + 1),
                StaticRef::Link(l) => walk((l.ty)().expect("described"), depth + 1),
            }
        }
    }
    walk(T::_static_type().expect("described"), 0);
}

#[test]
fn derived_field_ids_carry_their_leb128_bytes() {
    use bench_types::*;
    lebs_match::<Plain>();
    lebs_match::<Renamed>();
    lebs_match::<Cased>();
    lebs_match::<Tuple3>();
    lebs_match::<Shape>();
    lebs_match::<Tree>();
    lebs_match::<Generic<u8>>();
    lebs_match::<Maps>();
    lebs_match::<Chain>();
    lebs_match::<SettingsPatch>();
    lebs_match::<gov::ManageNeuronRequest>();
    lebs_match::<hand_described::OutOfOrder>();
    assert_eq!(candor::types::static_type::leb_word(0), 1 << 56);
    assert_eq!(
        candor::types::static_type::leb_word(u32::MAX),
        0x0f_ff_ff_ff_ff | 5 << 56
    );
}
