//! Differential tests: every type of the zoo is defined twice from one token tree,
//! once deriving candid 0.10.39's `CandidType` and once candor's, and the same values
//! must encode to the same bytes (type table included, so the types are compared too).

#![allow(dead_code, clippy::enum_variant_names)]

use serde::{Deserialize, Serialize};

/// Emits the zoo into `candid_side` and `candor_side`, where `CandidType` names the
/// respective derive and `enc!`/`ty!` the respective encoder and type.
macro_rules! both {
    ($($body:tt)*) => {
        mod candid_side {
            use super::*;
            use candid::CandidType;
            macro_rules! enc {
                ($e:expr) => {
                    (stringify!($e).to_string(), candid::encode_one(&$e).unwrap())
                };
            }
            macro_rules! ty {
                ($t:ty) => {
                    (stringify!($t).to_string(), <$t as candid::CandidType>::ty().to_string())
                };
            }
            $($body)*
        }
        mod candor_side {
            use super::*;
            use candor_derive::CandidType;
            macro_rules! enc {
                ($e:expr) => {
                    (stringify!($e).to_string(), candor::encode_one(&$e).unwrap())
                };
            }
            macro_rules! ty {
                ($t:ty) => {
                    (
                        stringify!($t).to_string(),
                        <$t as candor::types::CandidType>::ty().to_string(),
                    )
                };
            }
            $($body)*
        }
    };
}

both! {
    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Named {
        pub foo: u8,
        pub bar: String,
        pub a_long_name: bool,
        pub nested: Vec<Tuple>,
        pub pair: (u32, Option<String>),
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Tuple(pub u16, pub String);

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Triple(pub i8, pub i64, pub f64);

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Newtype(pub u64);

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct NewtypeOfRecord(pub Named);

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct BytesNewtype(#[serde(with = "serde_bytes")] pub Vec<u8>);

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Unit;

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct EmptyTuple();

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct EmptyBraced {}

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub enum AllKinds {
        Unit,
        Newtype(u32),
        Tuple(u8, String),
        Struct { y: i32, x: String },
        EmptyStruct {},
        EmptyTuple(),
        NewtypeRecord(Named),
        NewtypeUnit(Unit),
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub enum Discriminants {
        A = 1,
        B = 5,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Renamed {
        #[serde(rename = "other_name")]
        pub a: u8,
        #[serde(rename(serialize = "ser_only", deserialize = "de_only"))]
        pub b: u8,
        #[serde(rename(deserialize = "ignored"))]
        pub c: u8,
        pub r#type: u8,
        #[serde(rename = "with space")]
        pub d: u8,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub enum RenamedVariants {
        #[serde(rename = "first")]
        A,
        #[serde(rename = "Zed")]
        B(u8),
        C { #[serde(rename = "inner")] x: u8 },
    }

    // (`rename_all` is applied by candor and ignored by candid, so the types using it
    // are not in the shared zoo; see `mod rename_all` below.)

    // A container rule that leaves every name unchanged gives the same type in both.
    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "snake_case", rename = "Other")]
    pub struct RenameAllNoop {
        pub already_snake: u8,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Bytes {
        #[serde(with = "serde_bytes")]
        pub b: Vec<u8>,
        pub plain: Vec<u8>,
        #[serde(with = "serde_bytes")]
        pub arr: [u8; 4],
        #[serde(with = "serde_bytes")]
        pub empty: Vec<u8>,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub enum BytesVariants {
        #[serde(with = "serde_bytes")]
        B(Vec<u8>),
        S {
            #[serde(with = "serde_bytes")]
            x: Vec<u8>,
            y: u8,
        },
        N(u8),
    }

    #[derive(CandidType, Serialize, Clone, Debug)]
    pub struct Borrowed<'a> {
        pub s: &'a str,
        #[serde(with = "serde_bytes")]
        pub b: &'a [u8],
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Generic<T, U> {
        pub t: T,
        pub items: Vec<U>,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub enum GenericEnum<T> {
        Some(T),
        Nothing,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct GenericNewtype<T>(pub Vec<T>);

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct List {
        pub head: i32,
        pub tail: Option<Box<List>>,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub enum Tree {
        Leaf(i64),
        Node { left: Box<Tree>, right: Box<Tree> },
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Forest {
        pub trees: Vec<Tree>,
        pub list: List,
        pub again: Option<List>,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Skips {
        #[serde(skip)]
        pub a: u8,
        #[serde(skip_serializing)]
        pub b: u8,
        #[serde(skip_deserializing)]
        pub c: u8,
        #[serde(default, alias = "dd")]
        pub d: u8,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    #[serde(transparent)]
    pub struct Transparent(pub String);

    /// Doc comments on the type,
    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Documented {
        /// on a field,
        pub x: u8,
    }

    /// and on an enum.
    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub enum DocumentedEnum {
        /// On a variant.
        V,
    }

    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Nested {
        pub named: Named,
        pub all: Vec<AllKinds>,
        pub g: Generic<Tuple, Option<Unit>>,
        pub e: GenericEnum<Newtype>,
        pub t: Transparent,
    }

    // `__serializer` and `__s` as field names must not clash with the generated code.
    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub struct Hygiene {
        pub __serializer: u8,
        pub __s: u8,
        pub __f0: u8,
    }

    // (A variant field named `__serializer` (or `ser`) breaks serde's or candid's derive, so
    // it is not in the shared zoo.)
    #[derive(CandidType, Serialize, Deserialize, Clone, Debug)]
    pub enum HygieneEnum {
        V { __s: u8, __f1: u8 },
    }

    fn named() -> Named {
        Named {
            foo: 7,
            bar: "bar".into(),
            a_long_name: true,
            nested: vec![Tuple(1, "one".into()), Tuple(2, "two".into())],
            pair: (9, Some("x".into())),
        }
    }

    fn list(n: i32) -> List {
        (0..n).fold(List { head: -1, tail: None }, |tail, head| List {
            head,
            tail: Some(Box::new(tail)),
        })
    }

    fn tree(depth: u32) -> Tree {
        if depth == 0 {
            Tree::Leaf(depth as i64)
        } else {
            Tree::Node { left: Box::new(tree(depth - 1)), right: Box::new(Tree::Leaf(-(depth as i64))) }
        }
    }

    pub fn samples() -> Vec<(String, Vec<u8>)> {
        vec![
            enc!(named()),
            enc!(Tuple(65535, "t".into())),
            enc!(Triple(-1, i64::MIN, 1.5)),
            enc!(Newtype(u64::MAX)),
            enc!(NewtypeOfRecord(named())),
            enc!(BytesNewtype(vec![1, 2, 3])),
            enc!(Unit),
            enc!(EmptyTuple()),
            enc!(EmptyBraced {}),
            enc!(AllKinds::Unit),
            enc!(AllKinds::Newtype(42)),
            enc!(AllKinds::Tuple(3, "three".into())),
            enc!(AllKinds::Struct { y: -5, x: "ex".into() }),
            enc!(AllKinds::EmptyStruct {}),
            enc!(AllKinds::EmptyTuple()),
            enc!(AllKinds::NewtypeRecord(named())),
            enc!(AllKinds::NewtypeUnit(Unit)),
            enc!(Discriminants::A),
            enc!(Discriminants::B),
            enc!(Renamed { a: 1, b: 2, c: 3, r#type: 4, d: 5 }),
            enc!(RenamedVariants::A),
            enc!(RenamedVariants::B(9)),
            enc!(RenamedVariants::C { x: 8 }),
            enc!(RenameAllNoop { already_snake: 1 }),
            enc!(Bytes { b: vec![0, 255, 7], plain: vec![4, 5], arr: [1, 2, 3, 4], empty: vec![] }),
            enc!(BytesVariants::B(vec![9; 200])),
            enc!(BytesVariants::S { x: vec![1], y: 2 }),
            enc!(BytesVariants::N(3)),
            enc!(Borrowed { s: "borrowed", b: &[1, 2, 3] }),
            enc!(Generic { t: 1u8, items: vec!["a".to_string(), "b".to_string()] }),
            enc!(Generic { t: named(), items: vec![Some(Unit), None] }),
            enc!(GenericEnum::Some(Tuple(1, "x".into()))),
            enc!(GenericEnum::<u8>::Nothing),
            enc!(GenericNewtype(vec![1i16, -1])),
            enc!(List { head: 0, tail: None }),
            enc!(list(5)),
            enc!(tree(0)),
            enc!(tree(4)),
            enc!(Forest { trees: vec![tree(2), tree(1)], list: list(3), again: Some(list(1)) }),
            enc!(Skips { a: 1, b: 2, c: 3, d: 4 }),
            enc!(Transparent("tr".into())),
            enc!(Documented { x: 1 }),
            enc!(DocumentedEnum::V),
            enc!(Nested {
                named: named(),
                all: vec![AllKinds::Unit, AllKinds::Struct { y: 1, x: "x".into() }, AllKinds::Newtype(3)],
                g: Generic { t: Tuple(5, "five".into()), items: vec![None, Some(Unit)] },
                e: GenericEnum::Some(Newtype(6)),
                t: Transparent("t".into()),
            }),
            enc!(Hygiene { __serializer: 1, __s: 2, __f0: 3 }),
            enc!(HygieneEnum::V { __s: 2, __f1: 3 }),
            enc!(vec![AllKinds::Unit, AllKinds::Newtype(1)]),
            enc!(Some(Box::new(named()))),
        ]
    }

    /// Printed types of the non-recursive zoo members (recursive ones print knot names,
    /// which are the type printer's business, not the derive's).
    pub fn types() -> Vec<(String, String)> {
        vec![
            ty!(Named),
            ty!(Tuple),
            ty!(Newtype),
            ty!(BytesNewtype),
            ty!(Unit),
            ty!(EmptyTuple),
            ty!(AllKinds),
            ty!(Renamed),
            ty!(RenamedVariants),
            ty!(RenameAllNoop),
            ty!(Bytes),
            ty!(BytesVariants),
            ty!(Generic<u8, String>),
            ty!(GenericEnum<Newtype>),
            ty!(Skips),
        ]
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn zoo_encodes_identically() {
    let want = candid_side::samples();
    let got = candor_side::samples();
    assert_eq!(want.len(), got.len());
    let mut bad = Vec::new();
    for ((name, w), (_, g)) in want.iter().zip(&got) {
        if w != g {
            bad.push(format!(
                "{name}\n  candid: {}\n  candor: {}",
                hex(w),
                hex(g)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// candid pretty-prints long types over several lines; compare modulo layout.
fn one_line(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("; }", " }")
}

#[test]
fn zoo_types_print_identically() {
    let want = candid_side::types();
    let got = candor_side::types();
    let bad: Vec<String> = want
        .iter()
        .zip(&got)
        .filter(|((_, w), (_, g))| one_line(w) != one_line(g))
        .map(|((n, w), (_, g))| format!("{n}\n  candid: {w}\n  candor: {g}"))
        .collect();
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The label choices the derive makes, checked on candor's type model directly.
#[test]
fn type_shapes() {
    use candor::types::{CandidType, Label, TypeInner};
    use candor_side::*;

    let fields = |t: candor::types::Type| match t.0.as_ref() {
        TypeInner::Record(fs) | TypeInner::Variant(fs) => fs
            .iter()
            .map(|f| ((*f.id).clone(), f.ty.clone()))
            .collect::<Vec<_>>(),
        other => panic!("not a record/variant: {other:?}"),
    };

    // Named fields sorted by hash, renamed labels used.
    let fs = fields(Renamed::ty());
    let ids: Vec<u32> = fs.iter().map(|(l, _)| l.get_id()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted);
    let names: Vec<String> = fs
        .iter()
        .map(|(l, _)| match l {
            Label::Named(n) => n.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    for n in ["other_name", "ser_only", "c", "type", "with space"] {
        assert!(names.iter().any(|x| x == n), "{n} not in {names:?}");
    }

    // Tuple structs use `Label::Id`, like candid_derive.
    let fs = fields(Tuple::ty());
    assert!(matches!(fs[0].0, Label::Id(0)) && matches!(fs[1].0, Label::Id(1)));

    // Newtype is the inner type; unit struct is null.
    assert!(matches!(Newtype::ty().0.as_ref(), TypeInner::Nat64));
    assert!(matches!(Unit::ty().0.as_ref(), TypeInner::Null));

    // serde_bytes fields are `vec nat8`.
    for (_, t) in fields(Bytes::ty()) {
        match t.0.as_ref() {
            TypeInner::Vec(inner) => assert!(matches!(inner.0.as_ref(), TypeInner::Nat8)),
            other => panic!("{other:?}"),
        }
    }

    // Variant payloads: unit -> null, newtype -> inner, tuple -> record of ids.
    let fs = fields(AllKinds::ty());
    let by_name = |n: &str| {
        fs.iter()
            .find(|(l, _)| matches!(l, Label::Named(x) if x == n))
            .map(|(_, t)| t.clone())
            .unwrap()
    };
    assert!(matches!(by_name("Unit").0.as_ref(), TypeInner::Null));
    assert!(matches!(by_name("Newtype").0.as_ref(), TypeInner::Nat32));
    assert!(matches!(by_name("Tuple").0.as_ref(), TypeInner::Record(r) if r.len() == 2));
    assert!(matches!(by_name("EmptyTuple").0.as_ref(), TypeInner::Record(r) if r.is_empty()));
}

/// `#[candid_path]` / `#[candor_path]` pointing at a re-export of candor.
mod reexport {
    pub use candor as my_candor;
}

#[derive(candor_derive::CandidType)]
#[candor_path("crate::reexport::my_candor")]
struct ViaCandorPath {
    a: u8,
    b: AliasedEnum,
}

#[derive(candor_derive::CandidType)]
#[candid_path("crate::reexport::my_candor")]
enum AliasedEnum {
    X,
    Y(String),
}

#[derive(candid::CandidType)]
struct ViaCandorPathTwin {
    a: u8,
    b: AliasedEnumTwin,
}

#[derive(candid::CandidType)]
enum AliasedEnumTwin {
    X,
    Y(String),
}

#[test]
fn custom_crate_path() {
    let got = candor::encode_one(&ViaCandorPath {
        a: 1,
        b: AliasedEnum::Y("y".into()),
    })
    .unwrap();
    let want = candid::encode_one(&ViaCandorPathTwin {
        a: 1,
        b: AliasedEnumTwin::Y("y".into()),
    })
    .unwrap();
    assert_eq!(hex(&got), hex(&want));
    let _ = AliasedEnum::X;
    let _ = AliasedEnumTwin::X;
}

/// An uninhabited enum derives (its `idl_serialize` is an empty match).
#[derive(candor_derive::CandidType)]
enum Never {}

/// Variant fields named like the generated code's locals: candor binds payload
/// fields to fresh names, candid (and serde) bind them by field name and break, so
/// the candid twin spells the labels with `rename`.
#[derive(candor_derive::CandidType)]
enum Hygienic {
    V { __serializer: u8, __f0: u8, ser: u8 },
}

#[derive(candid::CandidType, Serialize)]
enum HygienicTwin {
    V {
        #[serde(rename = "__serializer")]
        a: u8,
        #[serde(rename = "__f0")]
        b: u8,
        #[serde(rename = "ser")]
        c: u8,
    },
}

#[test]
fn hygiene_and_empty_enum() {
    let got = candor::encode_one(&Hygienic::V {
        __serializer: 1,
        __f0: 2,
        ser: 3,
    })
    .unwrap();
    let want = candid::encode_one(&HygienicTwin::V { a: 1, b: 2, c: 3 }).unwrap();
    assert_eq!(hex(&got), hex(&want));
    assert!(matches!(
        <Never as candor::types::CandidType>::ty().0.as_ref(),
        candor::types::TypeInner::Variant(v) if v.is_empty()
    ));
}

/// `rename_all` / `rename_all_fields`: candor applies them (candid_derive ignores them,
/// so its types encode Rust names that serde then refuses to decode). Checked three
/// ways: candor round-trips the values; the bytes and printed type equal candid's for
/// a twin that spells every renamed label with an explicit `rename`; and the bytes
/// decode into a plain struct whose Rust field names are the renamed labels.
mod rename_all {
    use super::hex;
    use serde::{Deserialize, Serialize};
    use std::fmt::Debug;

    #[derive(candor::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct RenameAll {
        pub long_field_name: u8,
        #[serde(rename = "explicit")]
        pub other_field: u8,
        pub r#type: u8,
        pub nested: Vec<RenameAllEnum>,
    }

    #[derive(candid::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct RenameAllTwin {
        #[serde(rename = "longFieldName")]
        pub long_field_name: u8,
        #[serde(rename = "explicit")]
        pub other_field: u8,
        #[serde(rename = "type")]
        pub r#type: u8,
        pub nested: Vec<RenameAllEnumTwin>,
    }

    #[derive(candor::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    pub enum RenameAllEnum {
        FirstCase,
        SecondCase(u8),
        ThirdCase {
            some_field: u8,
        },
        #[serde(rename = "kept")]
        FourthCase,
    }

    #[derive(candid::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub enum RenameAllEnumTwin {
        #[serde(rename = "FIRST_CASE")]
        FirstCase,
        #[serde(rename = "SECOND_CASE")]
        SecondCase(u8),
        #[serde(rename = "THIRD_CASE")]
        ThirdCase { some_field: u8 },
        #[serde(rename = "kept")]
        FourthCase,
    }

    #[derive(candor::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[serde(rename_all = "kebab-case", rename_all_fields = "UPPERCASE")]
    pub enum RenameAllFields {
        CaseOne {
            field_one: u8,
            #[serde(rename = "own")]
            field_two: u8,
        },
        #[serde(rename_all = "PascalCase")]
        CaseTwo {
            field_three: String,
        },
        Tuple(u8, u8),
    }

    #[derive(candid::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub enum RenameAllFieldsTwin {
        #[serde(rename = "case-one")]
        CaseOne {
            #[serde(rename = "FIELD_ONE")]
            field_one: u8,
            #[serde(rename = "own")]
            field_two: u8,
        },
        #[serde(rename = "case-two")]
        CaseTwo {
            #[serde(rename = "FieldThree")]
            field_three: String,
        },
        #[serde(rename = "tuple")]
        Tuple(u8, u8),
    }

    /// Every serde convention on a struct's fields and an enum's variants.
    macro_rules! conventions {
        ($($m:ident $rule:literal [$f1:literal, $f2:literal] [$v1:literal, $v2:literal];)*) => {$(
            mod $m {
                use serde::{Deserialize, Serialize};

                #[derive(candor::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
                #[serde(rename_all = $rule)]
                pub struct S {
                    pub some_field_name: u8,
                    pub x: E,
                }

                #[derive(candor::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
                #[serde(rename_all = $rule)]
                pub enum E {
                    SomeVariant(u8),
                    Q,
                }

                #[derive(candid::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
                pub struct ST {
                    #[serde(rename = $f1)]
                    pub some_field_name: u8,
                    #[serde(rename = $f2)]
                    pub x: ET,
                }

                #[derive(candid::CandidType, Serialize, Deserialize, Clone, Debug, PartialEq)]
                pub enum ET {
                    #[serde(rename = $v1)]
                    SomeVariant(u8),
                    #[serde(rename = $v2)]
                    Q,
                }

                pub fn check() {
                    for (v, t) in [(E::SomeVariant(7), ET::SomeVariant(7)), (E::Q, ET::Q)] {
                        super::check(
                            S { some_field_name: 1, x: v },
                            ST { some_field_name: 1, x: t },
                        );
                    }
                }
            }
        )*};
    }

    conventions! {
        lower "lowercase" ["some_field_name", "x"] ["somevariant", "q"];
        upper "UPPERCASE" ["SOME_FIELD_NAME", "X"] ["SOMEVARIANT", "Q"];
        pascal "PascalCase" ["SomeFieldName", "X"] ["SomeVariant", "Q"];
        camel "camelCase" ["someFieldName", "x"] ["someVariant", "q"];
        snake "snake_case" ["some_field_name", "x"] ["some_variant", "q"];
        screaming_snake "SCREAMING_SNAKE_CASE" ["SOME_FIELD_NAME", "X"] ["SOME_VARIANT", "Q"];
        kebab "kebab-case" ["some-field-name", "x"] ["some-variant", "q"];
        screaming_kebab "SCREAMING-KEBAB-CASE" ["SOME-FIELD-NAME", "X"] ["SOME-VARIANT", "Q"];
    }

    /// `value` (candor, `rename_all`) against `twin` (candid, explicit renames): same
    /// bytes, same printed type, and each side decodes the other's bytes.
    fn check<T, U>(value: T, twin: U)
    where
        T: candor::CandidType + Serialize + for<'de> Deserialize<'de> + PartialEq + Debug,
        U: candid::CandidType + for<'de> Deserialize<'de> + PartialEq + Debug,
    {
        let bytes = candor::encode_one(&value).unwrap();
        assert_eq!(
            candor::decode_one::<T>(&bytes).unwrap(),
            value,
            "round trip"
        );
        let twin_bytes = candid::encode_one(&twin).unwrap();
        assert_eq!(hex(&bytes), hex(&twin_bytes), "bytes of {value:?}");
        assert_eq!(
            super::one_line(&T::ty().to_string()),
            super::one_line(&U::ty().to_string()),
            "type of {value:?}"
        );
        assert_eq!(candid::decode_one::<U>(&bytes).unwrap(), twin);
        assert_eq!(candor::decode_one::<T>(&twin_bytes).unwrap(), value);
    }

    #[test]
    fn rename_all_round_trips_and_matches_explicit_renames() {
        let nested = vec![
            RenameAllEnum::FirstCase,
            RenameAllEnum::SecondCase(2),
            RenameAllEnum::ThirdCase { some_field: 3 },
            RenameAllEnum::FourthCase,
        ];
        let nested_twin = vec![
            RenameAllEnumTwin::FirstCase,
            RenameAllEnumTwin::SecondCase(2),
            RenameAllEnumTwin::ThirdCase { some_field: 3 },
            RenameAllEnumTwin::FourthCase,
        ];
        check(
            RenameAll {
                long_field_name: 1,
                other_field: 2,
                r#type: 3,
                nested,
            },
            RenameAllTwin {
                long_field_name: 1,
                other_field: 2,
                r#type: 3,
                nested: nested_twin,
            },
        );
        check(
            RenameAllFields::CaseOne {
                field_one: 1,
                field_two: 2,
            },
            RenameAllFieldsTwin::CaseOne {
                field_one: 1,
                field_two: 2,
            },
        );
        check(
            RenameAllFields::CaseTwo {
                field_three: "3".into(),
            },
            RenameAllFieldsTwin::CaseTwo {
                field_three: "3".into(),
            },
        );
        check(
            RenameAllFields::Tuple(4, 5),
            RenameAllFieldsTwin::Tuple(4, 5),
        );

        lower::check();
        upper::check();
        pascal::check();
        camel::check();
        snake::check();
        screaming_snake::check();
        kebab::check();
        screaming_kebab::check();
    }

    #[test]
    fn rename_all_labels_print() {
        use candor::CandidType;
        // Fields in id order; keywords and non-identifiers quoted as candid does; the
        // type is wider than 80 columns, so it breaks as candid's printer breaks it.
        assert_eq!(
            RenameAll::ty().to_string(),
            "record {\n  longFieldName : nat8;\n  explicit : nat8;\n  \"type\" : nat8;\n  \
             nested : vec variant {\n    THIRD_CASE : record { some_field : nat8 };\n    \
             SECOND_CASE : nat8;\n    kept;\n    FIRST_CASE;\n  };\n}"
        );
        let t = RenameAllFields::ty().to_string();
        for part in [
            "\"case-one\" : record { own : nat8; FIELD_ONE : nat8 }",
            "\"case-two\" : record { FieldThree : text }",
            "tuple : record { nat8; nat8 }",
        ] {
            assert!(t.contains(part), "{part} not in {t}");
        }
    }

    /// The labels on the wire are the renamed names: a plain struct spelling them as
    /// Rust field names decodes the bytes.
    #[test]
    #[allow(non_snake_case)]
    fn rename_all_bytes_decode_into_plain_struct() {
        #[derive(candor::CandidType, Deserialize, Debug, PartialEq)]
        struct Plain {
            longFieldName: u8,
            explicit: u8,
            r#type: u8,
            nested: Vec<candor::Reserved>,
        }
        let bytes = candor::encode_one(RenameAll {
            long_field_name: 1,
            other_field: 2,
            r#type: 3,
            nested: vec![],
        })
        .unwrap();
        let plain: Plain = candor::decode_one(&bytes).unwrap();
        assert_eq!(
            (plain.longFieldName, plain.explicit, plain.r#type),
            (1, 2, 3)
        );
    }

    /// What candor fixes: candid_derive ignores `rename_all`, so candid encodes Rust
    /// names and then cannot decode its own bytes.
    #[test]
    fn candid_ignores_rename_all_and_cannot_decode_its_own_bytes() {
        use candid::CandidType;
        #[derive(candid::CandidType, Serialize, Deserialize, Debug)]
        #[serde(rename_all = "camelCase")]
        struct CandidSide {
            long_field_name: u8,
        }
        let bytes = candid::encode_one(CandidSide { long_field_name: 1 }).unwrap();
        assert!(candid::decode_one::<CandidSide>(&bytes).is_err());
        assert!(CandidSide::ty().to_string().contains("long_field_name"));
    }

    /// Directional renames: the label is the serialize-side name (candid_derive's
    /// choice for `rename(serialize = ..)`).
    #[test]
    fn rename_all_directional_uses_serialize_side() {
        use candor::CandidType;
        #[derive(candor::CandidType, Serialize)]
        #[serde(rename_all(serialize = "PascalCase", deserialize = "camelCase"))]
        struct Directional {
            some_field: u8,
        }
        assert_eq!(Directional::ty().to_string(), "record { SomeField : nat8 }");
        let _ = Directional { some_field: 0 };
    }
}
