//! The zoo of the differential tests (`encode`, `decode`, `cost`, `hostile`):
//! every type is defined twice from one token tree, once in
//! `ours` (candor's derive and types) and once in `theirs` (candid 0.10.39's), and
//! every case is one message (a tuple of arguments) plus the argument types to decode
//! it at. `ours::cases()` and `theirs::cases()` list the same cases in the same order.
//!
//! Not every test module uses every item.
#![allow(dead_code, clippy::type_complexity, non_camel_case_types)]

/// The result of decoding a message: the values re-encoded by the same crate (so two
/// decoders are compared by the bytes of what they produced) and the work consumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub reencoded: Vec<u8>,
    pub decoding: Option<usize>,
    pub skipping: Option<usize>,
}

/// Decodes a message at the case's types with optional decoding and skipping quotas.
pub type DecodeFn = Box<dyn Fn(&[u8], Option<usize>, Option<usize>) -> Result<Decoded, String>>;

/// One message of the zoo.
pub struct Case {
    /// `args => types`, as written.
    pub name: String,
    /// The message as this crate encodes it.
    pub bytes: Vec<u8>,
    /// Decodes with this crate at the case's types.
    pub decode: DecodeFn,
}

/// A plain tree that both sides turn into their own `Shape` (for property tests).
#[derive(Clone, Debug)]
pub enum Seed {
    Leaf(u32),
    Text(String, u128),
    Pair(Box<Seed>, Box<Seed>),
    Many(Vec<Seed>),
    Maybe(Option<Box<Seed>>),
    Nothing,
    Signed(i64, Vec<u8>),
}

/// `case!(args => (T1, T2, …))`: a message of the arguments `args` (a tuple), decoded
/// at the tuple type. `K` is the crate of the module the macro is used in.
macro_rules! case {
    ($args:expr => $tys:ty) => {{
        let bytes = K::encode_args($args).unwrap_or_else(|e| panic!("{}: {e}", stringify!($args)));
        let decode: $crate::zoo::DecodeFn =
            Box::new(|bytes: &[u8], dq: Option<usize>, sq: Option<usize>| {
                // candid memoises derived types per thread until the next `IDLBuilder::new()`,
                // and the memo's state changes where recursive types are cut (hence the
                // cost of unrolling them): decode from a fresh memo, as after a reply.
                drop(K::ser::IDLBuilder::new());
                let mut config = K::DecoderConfig::new();
                if let Some(n) = dq {
                    config.set_decoding_quota(n);
                }
                if let Some(n) = sq {
                    config.set_skipping_quota(n);
                }
                K::utils::decode_args_with_config_debug::<$tys>(bytes, &config)
                    .map_err(|e| e.to_string())
                    .and_then(|(v, cost)| {
                        Ok($crate::zoo::Decoded {
                            reencoded: K::encode_args(v)
                                .map_err(|e| format!("re-encoding: {e}"))?,
                            decoding: cost.decoding_quota,
                            skipping: cost.skipping_quota,
                        })
                    })
            });
        $crate::zoo::Case {
            name: format!("{} => {}", stringify!($args), stringify!($tys)),
            bytes,
            decode,
        }
    }};
}

/// `one!(v => T)`: a message of one argument decoded at `T`; `one!(v: T)` at its own type.
macro_rules! one {
    ($v:expr => $t:ty) => {
        case!(($v,) => ($t,))
    };
    ($v:expr ; $t:ty) => {
        case!(($v,) => ($t,))
    };
}

macro_rules! zoo {
    ($($body:tt)*) => {
        pub mod ours {
            #![allow(unused_imports, clippy::all)]
            use candor as K;
            use candor::{CandidType, Deserialize, Empty, Func, Int, Nat, Principal, Reserved, Service};
            use std::collections::{BTreeMap, BTreeSet, HashMap};
            use std::rc::Rc;
            use std::sync::Arc;
            use super::Seed;
            $($body)*
        }
        pub mod theirs {
            #![allow(unused_imports, clippy::all)]
            use candid as K;
            use candid::{CandidType, Deserialize, Empty, Func, Int, Nat, Principal, Reserved, Service};
            use std::collections::{BTreeMap, BTreeSet, HashMap};
            use std::rc::Rc;
            use std::sync::Arc;
            use super::Seed;
            $($body)*
        }
    };
}

zoo! {
    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Point { pub x: i32, pub y: i32 }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Fixed4 { pub a: u64, pub b: u32, pub c: i16, pub d: bool }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Renamed {
        #[serde(rename = "type")]
        pub kind: u8,
        #[serde(rename = "camelCase")]
        pub snake_case: String,
    }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct TupleS(pub u8, pub String, pub Vec<i8>);

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct NewtypeS(pub u64);

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct NewtypeRec(pub Point);

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct UnitS;

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub enum AllKinds {
        Unit,
        Newtype(u32),
        Tuple(u8, String),
        Struct { a: bool, b: Option<i64> },
        #[serde(rename = "renamed_case")]
        Other(Vec<u8>),
    }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct List { pub head: i32, pub tail: Option<Box<List>> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct TreeA { pub v: u8, pub kids: Vec<TreeB> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct TreeB { pub name: String, pub a: Option<Box<TreeA>> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Holder { pub a: TreeA, pub b: TreeB, pub again: Vec<TreeA> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Wide { pub a: u8, pub b: String, pub c: Vec<u16>, pub d: Option<u8>, pub e: Vec<Point> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Narrow { pub b: String }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct NarrowOpt { pub b: String, pub z: Option<u32>, pub r: Reserved, pub n: () }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub enum Small { A, B(u8) }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub enum Big { A, B(u8), C(String), D { x: Vec<Point> } }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub enum AB { A, B }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub enum OnlyA { A }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct R1 { pub a: u8 }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct R2 { pub a: u8, pub b: u8 }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct R2Opt { pub a: u8, pub b: Option<u8> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Rec17 {
        pub f0: u64, pub f1: u32, pub f2: u16, pub f3: u8, pub f4: i64, pub f5: i32,
        pub f6: i16, pub f7: i8, pub f8: bool, pub f9: f64, pub f10: f32, pub f11: u64,
        pub f12: u64, pub f13: u32, pub f14: i64, pub f15: bool, pub f16: u8,
    }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Blobs {
        #[serde(with = "serde_bytes")]
        pub data: Vec<u8>,
        pub buf: serde_bytes::ByteBuf,
        pub plain: Vec<u8>,
    }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Refs { pub p: Principal, pub f: TypedFunc, pub s: TypedService, pub n: Nat, pub i: Int, pub r: Reserved }

    K::define_function!(pub TypedFunc : (u8, String) -> (Nat) query);
    K::define_function!(pub UnitFunc : () -> ());
    K::define_function!(pub WiderFunc : (u8, String, Option<u8>) -> (Nat, Option<u8>) query);
    K::define_service!(pub TypedService : { "get" : K::func!((u8) -> (String) query); "put" : K::func!((String) -> ()) });

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct TypedRefs { pub f: TypedFunc, pub s: TypedService, pub fs: Vec<TypedFunc> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Account { pub owner: Principal, pub subaccount: Option<serde_bytes::ByteBuf> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Transfer {
        pub from_subaccount: Option<serde_bytes::ByteBuf>,
        pub to: Account,
        pub amount: Nat,
        pub fee: Option<Nat>,
        pub memo: Option<serde_bytes::ByteBuf>,
        pub created_at_time: Option<u64>,
    }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub enum Shape {
        Leaf(u32),
        Text { s: String, n: Nat },
        Pair(Box<Shape>, Box<Shape>),
        Many(Vec<Shape>),
        Maybe(Option<Box<Shape>>),
        Nothing,
        Signed(Int, #[serde(with = "serde_bytes")] Vec<u8>),
    }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Doc { pub id: u64, pub tags: Vec<String>, pub shape: Shape, pub score: Option<f64> }

    /// Builds this crate's `Shape` from a seed.
    pub fn grow(seed: &Seed) -> Shape {
        match seed {
            Seed::Leaf(n) => Shape::Leaf(*n),
            Seed::Text(s, n) => Shape::Text { s: s.clone(), n: Nat::from(*n) },
            Seed::Pair(a, b) => Shape::Pair(Box::new(grow(a)), Box::new(grow(b))),
            Seed::Many(v) => Shape::Many(v.iter().map(grow).collect()),
            Seed::Maybe(o) => Shape::Maybe(o.as_ref().map(|s| Box::new(grow(s)))),
            Seed::Nothing => Shape::Nothing,
            Seed::Signed(i, b) => Shape::Signed(Int::from(*i), b.clone()),
        }
    }

    /// A message holding the seed's shape in several positions, decoded at its types.
    pub fn shape_case(seed: &Seed) -> super::Case {
        let shape = grow(seed);
        let doc = Doc { id: 7, tags: vec!["a".into(), "bc".into()], shape: shape.clone(), score: Some(0.5) };
        case!((shape.clone(), doc, vec![shape.clone(), shape]) => (Shape, Doc, Vec<Shape>))
    }

    fn principal(n: usize) -> Principal {
        Principal::from_slice(&(0..n as u8).collect::<Vec<u8>>())
    }

    fn list(n: i32) -> Option<Box<List>> {
        let mut l = None;
        for i in 0..n {
            l = Some(Box::new(List { head: i * 1000 - 7, tail: l }));
        }
        l
    }

    fn tree_a(depth: u8) -> TreeA {
        TreeA {
            v: depth,
            kids: if depth == 0 {
                vec![]
            } else {
                vec![tree_b(depth - 1), TreeB { name: "leaf".into(), a: None }]
            },
        }
    }

    fn tree_b(depth: u8) -> TreeB {
        TreeB { name: format!("b{depth}"), a: Some(Box::new(tree_a(depth))) }
    }

    fn big_nat() -> Nat {
        "123456789012345678901234567890123456789012345678901234567890".parse().unwrap()
    }

    fn big_int() -> Int {
        "-987654321098765432109876543210987654321098765432109876543210".parse().unwrap()
    }

    fn refs() -> Refs {
        Refs {
            p: principal(29),
            f: TypedFunc::new(principal(10), "transfer".into()),
            s: TypedService::new(Principal::management_canister()),
            n: big_nat(),
            i: big_int(),
            r: Reserved,
        }
    }

    fn typed_refs() -> TypedRefs {
        TypedRefs {
            f: TypedFunc::new(principal(3), "get".into()),
            s: TypedService::new(Principal::anonymous()),
            fs: vec![TypedFunc::new(principal(0), String::new()), TypedFunc::new(principal(29), "x".repeat(40))],
        }
    }

    fn rec17(i: u64) -> Rec17 {
        Rec17 {
            f0: i, f1: i as u32 * 3, f2: 7, f3: 255, f4: -(i as i64), f5: -5, f6: 300, f7: -128, f8: i % 2 == 0,
            f9: i as f64 / 3.0, f10: 1.5, f11: u64::MAX, f12: 0, f13: 9, f14: i64::MIN, f15: true, f16: 1,
        }
    }

    fn wide() -> Wide {
        Wide {
            a: 1,
            b: "wide".into(),
            c: (0..50).collect(),
            d: Some(9),
            e: (0..10).map(|i| Point { x: i, y: -i }).collect(),
        }
    }

    fn transfer() -> Transfer {
        Transfer {
            from_subaccount: Some(serde_bytes::ByteBuf::from(vec![0u8; 32])),
            to: Account { owner: principal(29), subaccount: None },
            amount: Nat::from(1_000_000_000u64),
            fee: Some(Nat::from(10_000u32)),
            memo: None,
            created_at_time: Some(1_700_000_000_000_000_000),
        }
    }

    fn text_map(n: usize) -> BTreeMap<String, u64> {
        (0..n).map(|i| (format!("key-{i:04}"), i as u64)).collect()
    }

    fn nat_map(n: usize) -> BTreeMap<String, Nat> {
        (0..n).map(|i| (format!("account-{i}"), Nat::from(i as u64 * 1_000_000_007))).collect()
    }

    fn hash_map() -> HashMap<String, Vec<u32>> {
        let mut m = HashMap::new();
        m.insert("only".to_string(), vec![1, 2, 3]);
        m
    }

    /// Values encoded and decoded at their own type (plus a few at a natural
    /// supertype, where the Rust type cannot be decoded into, e.g. arrays and `&str`).
    pub fn same_type_cases() -> Vec<super::Case> {
        vec![
            one!(true; bool),
            one!(false; bool),
            one!(0u8; u8),
            one!(u8::MAX; u8),
            one!(u16::MAX; u16),
            one!(u32::MAX; u32),
            one!(u64::MAX; u64),
            one!(u128::MAX; u128),
            one!(0u128; u128),
            one!(i8::MIN; i8),
            one!(i16::MIN; i16),
            one!(i32::MIN; i32),
            one!(i64::MIN; i64),
            one!(i128::MIN; i128),
            one!(i128::MAX; i128),
            one!(-1i128; i128),
            one!(usize::MAX; usize),
            one!(isize::MIN; isize),
            one!(1.5f32; f32),
            one!(f32::from_bits(0x7fc0_0001); f32),
            one!(f32::from_bits(0xffa0_0000); f32),
            one!(-0.0f32; f32),
            one!(f32::INFINITY; f32),
            one!(f64::from_bits(0xfff8_0000_0000_0123); f64),
            one!(f64::from_bits(0x7ff0_0000_0000_0001); f64),
            one!(f64::NEG_INFINITY; f64),
            one!(std::f64::consts::PI; f64),
            one!(String::new(); String),
            one!("héllo wörld ✓".to_string(); String),
            one!("borrowed" => String),
            one!("x".repeat(1000) => String),
            one!((); ()),
            one!(Reserved; Reserved),
            one!(Nat::from(0u8); Nat),
            one!(Nat::from(127u8); Nat),
            one!(Nat::from(128u8); Nat),
            one!(big_nat(); Nat),
            one!(Int::from(-64); Int),
            one!(Int::from(-65); Int),
            one!(Int::from(63); Int),
            one!(Int::from(64); Int),
            one!(big_int(); Int),
            one!(Principal::anonymous(); Principal),
            one!(Principal::management_canister(); Principal),
            one!(principal(29); Principal),
            one!(UnitFunc::new(principal(5), "m".into()); UnitFunc),
            one!(TypedService::new(principal(5)); TypedService),
            one!(refs(); Refs),
            one!(typed_refs(); TypedRefs),
            one!(vec![1u8, 2, 3]; Vec<u8>),
            one!(Vec::<u8>::new(); Vec<u8>),
            one!((0..1000u16).collect::<Vec<_>>(); Vec<u16>),
            one!((0..100).map(|i: u32| i.wrapping_mul(2_654_435_761)).collect::<Vec<_>>(); Vec<u32>),
            one!((0..100u64).map(|i| i << 40).collect::<Vec<_>>(); Vec<u64>),
            one!((-50..50i64).collect::<Vec<_>>(); Vec<i64>),
            one!(vec![-1i8, 0, 1]; Vec<i8>),
            one!(vec![-1i16, 0, 1]; Vec<i16>),
            one!(vec![-1i32, 0, 1]; Vec<i32>),
            one!(vec![1.0f32, f32::NAN, -0.0]; Vec<f32>),
            one!(vec![1.0f64, f64::from_bits(0x7ff8_dead_beef_0001)]; Vec<f64>),
            one!(vec![true, false, true]; Vec<bool>),
            one!(vec![(), (), ()]; Vec<()>),
            one!(vec![u128::MAX, 0]; Vec<u128>),
            one!(vec!["a".to_string(), String::new(), "ccc".into()]; Vec<String>),
            one!(vec![Nat::from(1u8), big_nat()]; Vec<Nat>),
            one!(vec![Int::from(-1), big_int()]; Vec<Int>),
            one!(vec![principal(1), principal(29)]; Vec<Principal>),
            one!(vec![vec![1u8], vec![], vec![2, 3]]; Vec<Vec<u8>>),
            one!(vec![Point { x: 1, y: 2 }, Point { x: -3, y: 4 }]; Vec<Point>),
            one!([1u8, 2, 3, 4] => Vec<u8>),
            one!(["a".to_string(), "b".to_string()] => Vec<String>),
            one!([[1u16, 2], [3, 4]] => Vec<Vec<u16>>),
            one!(Some(5u8); Option<u8>),
            one!(None::<u8>; Option<u8>),
            one!(Some(Some(5u8)); Option<Option<u8>>),
            one!(Some(None::<u8>); Option<Option<u8>>),
            one!(None::<Option<u8>>; Option<Option<u8>>),
            one!(Some(Some(Some("deep".to_string()))); Option<Option<Option<String>>>),
            one!(vec![Some(1u32), None, Some(3)]; Vec<Option<u32>>),
            one!(Box::new(42u16) => u16),
            one!(Box::new(Point { x: 1, y: 1 }); Box<Point>),
            one!(Rc::new("rc".to_string()) => String),
            one!(Arc::new(vec![1u32, 2]) => Vec<u32>),
            one!((1u8, "two".to_string()); (u8, String)),
            one!((1u8, 2u16, 3u32, 4u64, 5i8, 6i16, 7i32, 8i64, 9u8, 10u8, 11u8, 12u8, 13u8, 14u8, 15u8, "sixteen".to_string());
                (u8, u16, u32, u64, i8, i16, i32, i64, u8, u8, u8, u8, u8, u8, u8, String)),
            one!(text_map(3); BTreeMap<String, u64>),
            one!(BTreeMap::<u32, Vec<String>>::new(); BTreeMap<u32, Vec<String>>),
            one!(nat_map(5); BTreeMap<String, Nat>),
            one!(hash_map(); HashMap<String, Vec<u32>>),
            one!([3u16, 1, 2].into_iter().collect::<BTreeSet<_>>(); BTreeSet<u16>),
            one!(Ok::<u8, String>(1); Result<u8, String>),
            one!(Err::<u8, String>("bad".into()); Result<u8, String>),
            one!(Ok::<(), ()>(()); Result<(), ()>),
            one!(serde_bytes::ByteBuf::from(vec![9u8; 40]); serde_bytes::ByteBuf),
            one!(Blobs { data: vec![1, 2], buf: serde_bytes::ByteBuf::from(vec![3]), plain: vec![4, 5] }; Blobs),
            one!(Point { x: i32::MIN, y: i32::MAX }; Point),
            one!(Fixed4 { a: 1, b: 2, c: -3, d: true }; Fixed4),
            one!(Renamed { kind: 3, snake_case: "c".into() }; Renamed),
            one!(TupleS(1, "t".into(), vec![-1]); TupleS),
            one!(NewtypeS(77); NewtypeS),
            one!(NewtypeRec(Point { x: 0, y: 0 }); NewtypeRec),
            one!(UnitS; UnitS),
            one!(AllKinds::Unit; AllKinds),
            one!(AllKinds::Newtype(5); AllKinds),
            one!(AllKinds::Tuple(1, "x".into()); AllKinds),
            one!(AllKinds::Struct { a: true, b: Some(-9) }; AllKinds),
            one!(AllKinds::Other(vec![1, 2, 3]); AllKinds),
            one!(vec![AllKinds::Unit, AllKinds::Newtype(1), AllKinds::Struct { a: false, b: None }]; Vec<AllKinds>),
            one!(list(0); Option<Box<List>>),
            one!(list(1); Option<Box<List>>),
            one!(list(50); Option<Box<List>>),
            one!(List { head: 1, tail: list(3) }; List),
            one!(tree_a(3); TreeA),
            one!(tree_b(2); TreeB),
            one!(Holder { a: tree_a(1), b: tree_b(1), again: vec![tree_a(0)] }; Holder),
            case!((tree_a(2), tree_b(2)) => (TreeA, TreeB)),
            case!((tree_b(2), tree_a(2)) => (TreeB, TreeA)),
            case!((tree_b(1), Holder { a: tree_a(1), b: tree_b(0), again: vec![] }, tree_a(1)) => (TreeB, Holder, TreeA)),
            case!((tree_a(1), tree_a(2)) => (TreeA, TreeA)),
            case!((Point { x: 1, y: 2 }, Point { x: 3, y: 4 }, vec![Point { x: 5, y: 6 }]) => (Point, Point, Vec<Point>)),
            case!((list(2), List { head: 9, tail: None }) => (Option<Box<List>>, List)),
            one!(wide(); Wide),
            one!(Small::B(3); Small),
            one!(Big::D { x: vec![Point { x: 1, y: 1 }] }; Big),
            one!(AB::B; AB),
            one!(rec17(3); Rec17),
            one!((0..100).map(rec17).collect::<Vec<_>>(); Vec<Rec17>),
            one!(transfer(); Transfer),
            one!(vec![transfer(), transfer()]; Vec<Transfer>),
            case!((42u32, "hello".to_string()) => (u32, String)),
            case!((1u8, 2u16, "three".to_string(), vec![4u32], Some(5u64), Nat::from(6u8), Int::from(-7), principal(8))
                => (u8, u16, String, Vec<u32>, Option<u64>, Nat, Int, Principal)),
            case!(() => ()),
            case!((1u8, 2u8, 3u8, 4u8, 5u8, 6u8, 7u8, 8u8, 9u8, 10u8, 11u8, 12u8, 13u8, 14u8, 15u8, 16u8)
                => (u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8)),
            shape_case(&Seed::Pair(
                Box::new(Seed::Many(vec![Seed::Leaf(1), Seed::Nothing, Seed::Maybe(None)])),
                Box::new(Seed::Maybe(Some(Box::new(Seed::Signed(-3, vec![1, 2]))))),
            )),
        ]
    }

    /// Values decoded at a supertype of their type (Candid subtyping, including the
    /// value-level `opt` rule).
    pub fn subtype_cases() -> Vec<super::Case> {
        vec![
            // Records: fewer fields, opt/null/reserved fields missing on the wire.
            one!(wide() => Narrow),
            one!(wide() => R1),
            one!(vec![wide(), wide()] => Vec<Narrow>),
            one!(Narrow { b: "n".into() } => NarrowOpt),
            one!(R1 { a: 1 } => R2Opt),
            one!(R2 { a: 1, b: 2 } => R2Opt),
            one!(R2 { a: 1, b: 2 } => R1),
            one!((0..100).map(rec17).collect::<Vec<_>>() => Vec<Fixed4Like>),
            // Variants: more cases expected.
            one!(Small::A => Big),
            one!(Small::B(7) => Big),
            one!(vec![Small::A, Small::B(1)] => Vec<Big>),
            one!(AB::A => AB),
            // nat <: int.
            one!(Nat::from(5u8) => Int),
            one!(big_nat() => Int),
            one!(vec![Nat::from(1u8), big_nat()] => Vec<Int>),
            one!(Some(Nat::from(300u16)) => Option<Int>),
            // Anything <: reserved.
            one!(wide() => Reserved),
            one!(refs() => Reserved),
            one!("text".to_string() => Reserved),
            one!(vec![Point { x: 1, y: 1 }; 20] => Reserved),
            // Extra arguments are ignored; missing trailing opt/null/reserved are absent.
            case!((1u8, "extra".to_string(), vec![wide()]) => (u8,)),
            case!((1u8, tree_a(2), list(5)) => (u8,)),
            case!((1u8, Some(Big::C("x".into()))) => (u8,)),
            case!((1u8,) => (u8, Option<String>, (), Reserved)),
            case!(() => (Option<Vec<u8>>,)),
            case!((wide(), 5u32) => (Narrow,)),
            // The opt rule: t <: opt t' when t <: t', else the value is None.
            one!(5u8 => Option<u8>),
            one!("x".to_string() => Option<u8>),
            one!(() => Option<u8>),
            one!(Reserved => Option<u8>),
            one!(Some("x".to_string()) => Option<u8>),
            one!(None::<String> => Option<u8>),
            one!(vec![1u8, 2] => Option<Vec<u8>>),
            one!(vec![1u8, 2] => Option<Vec<u16>>),
            one!(5u8 => Option<Option<u8>>),
            one!(Some(5u8) => Option<Option<u8>>),
            one!(Some(Some(5u8)) => Option<Option<u16>>),
            one!(Some(Some("deep".to_string())) => Option<Option<Option<String>>>),
            one!(AB::A => Option<OnlyA>),
            one!(AB::B => Option<OnlyA>),
            one!(vec![AB::A, AB::B, AB::A] => Vec<Option<OnlyA>>),
            one!(R1 { a: 1 } => Option<R2>),
            one!(R2 { a: 1, b: 2 } => Option<R2>),
            one!(Some(R1 { a: 1 }) => Option<R2>),
            one!(wide() => Option<Point>),
            one!(vec![wide(), wide()] => Vec<Option<Point>>),
            one!(Some(Big::D { x: vec![Point { x: 1, y: 2 }; 5] }) => Option<Small>),
            one!(Big::C("no".into()) => Option<Small>),
            one!(Nat::from(5u8) => Option<u64>),
            one!(Int::from(-5) => Option<Nat>),
            one!(list(5) => Option<Option<Box<List>>>),
            one!(tree_a(2) => Option<TreeB>),
            one!(vec![Some(tree_a(1)), None] => Vec<Option<TreeB>>),
            one!(text_map(10) => Vec<Option<(String, Nat)>>),
            one!(nat_map(10) => Vec<(String, Option<u64>)>),
            one!(nat_map(10) => Vec<(String, Int)>),
            one!(UnitFunc::new(principal(1), "f".into()) => Option<TypedFunc>),
            one!(TypedFunc::new(principal(1), "f".into()) => Option<WiderFunc>),
            one!(TypedFunc::new(principal(1), "f".into()) => WiderFunc),
            one!(vec![TypedFunc::new(principal(1), "f".into())] => Vec<Option<UnitFunc>>),
            one!(typed_refs() => Option<Refs>),
            one!(Narrow { b: "n".into() } => Option<NarrowOpt>),
            one!(Narrow { b: "n".into() } => NarrowOpt),
            // Hostile-ish: much to skip.
            case!((vec![wide(); 20], nat_map(50), text_map(50), vec![typed_refs(); 3]) => ()),
            case!((7u8, vec![Some(Some(wide())); 5], Big::D { x: vec![Point { x: 1, y: 1 }; 30] }) => (u8, Reserved)),
            one!(Some(Some(Some(5u8))) => Option<Option<Option<String>>>),
            one!(vec![Some(Some(wide())); 5] => Vec<Option<Option<Point>>>),
            one!(vec![Big::D { x: vec![Point { x: 1, y: 1 }; 10] }; 10] => Vec<Option<Small>>),
            one!(vec![transfer(); 10] => Vec<Option<Narrow>>),
            one!(vec![rec17(1); 20] => Vec<Option<Fixed4Like>>),
            one!(typed_refs() => Option<TypedRefs>),
            one!(vec![nat_map(3); 4] => Vec<Option<BTreeMap<String, u64>>>),
            one!(Holder { a: tree_a(2), b: tree_b(2), again: vec![tree_a(1); 3] } => Option<Narrow>),
            one!(Holder { a: tree_a(2), b: tree_b(2), again: vec![tree_a(1); 3] } => R1Holder),
        ]
    }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct R1Holder { pub b: TreeB, pub x: Option<u8> }

    #[derive(CandidType, Deserialize, Debug, Clone)]
    pub struct Fixed4Like { pub f0: u64, pub f1: u32, pub f8: bool, pub f16: u8 }

    /// Every case.
    pub fn cases() -> Vec<super::Case> {
        let mut v = same_type_cases();
        v.extend(subtype_cases());
        v
    }
}
