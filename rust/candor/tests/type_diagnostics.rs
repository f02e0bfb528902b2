//! Types named in errors stay within candid 0.10.39's budget, and name the same
//! types candid names: a type is printed whole when candid's size estimate finds it
//! within 500 characters and reads `(type elided)` otherwise, an argument list stops
//! after 2,048 bytes with `... and N more`, a service constructor is elided wherever
//! it sits, and the verbose setting (`set_full_error_message`) changes none of it.
//!
//! The decoders word their errors differently (spec/differences.md C4): candor says
//! `expected E, found W`, candid's verbose form says `wire_type: W, expect_type: E`.
//! The tests compare the two types of those texts; `types::subtype::equal` words
//! these errors as candid does, and those are compared whole.

use candid::types::value::{IDLField as CField, IDLValue as CValue};
use candid::types::{
    Field as CTField, Label as CLabel, Type as CType, TypeEnv as CEnv, TypeInner as CInner,
};
use candor::types::{Field, Label, Type, TypeEnv, TypeInner};

const ELIDED: &str = "(type elided)";

/// A diagnostic whose types are bounded stays well under this.
const BOUNDED: usize = 4096;

fn candid_config(full: bool) -> candid::DecoderConfig {
    let mut c = candid::DecoderConfig::new();
    c.set_full_error_message(full)
        .set_max_header_len(usize::MAX);
    c
}

fn candor_config(full: bool) -> candor::DecoderConfig {
    let mut c = candor::DecoderConfig::new();
    c.set_full_error_message(full)
        .set_max_header_len(usize::MAX);
    c
}

/// The wire and expected types candid's verbose error names at the failure.
fn candid_types(err: &candid::Error) -> (String, String) {
    let text = err.to_string();
    let at = text.rfind("wire_type: ").expect("a verbose candid error") + "wire_type: ".len();
    let rest = &text[at..];
    let (wire, expected) = rest.split_once(", expect_type: ").expect("both types");
    let expected = expected.split(", field_name: ").next().unwrap_or(expected);
    (wire.to_string(), expected.to_string())
}

/// The wire and expected types candor's error names (`expected E, found W`).
fn candor_types(err: &candor::Error) -> (String, String) {
    let msg = err.message();
    let rest = msg
        .strip_prefix("expected ")
        .unwrap_or_else(|| panic!("{msg}"));
    let (expected, wire) = rest.split_once(", found ").expect("both types");
    (wire.to_string(), expected.to_string())
}

/// Decodes `bytes` with both crates, verbose and not, at the Rust types `T` and `U`
/// (the same type in each crate), and checks that both name the same two types and
/// that candor's text is bounded. Returns candor's (wire, expected) types.
fn same_types<T, U>(bytes: &[u8]) -> (String, String)
where
    T: candor::CandidType + for<'de> serde::Deserialize<'de> + std::fmt::Debug,
    U: candid::CandidType + for<'de> serde::Deserialize<'de> + std::fmt::Debug,
{
    let theirs = candid::decode_one_with_config::<U>(bytes, &candid_config(true)).unwrap_err();
    let theirs = candid_types(&theirs);
    let mut ours = None;
    for full in [false, true] {
        let err = candor::decode_one_with_config::<T>(bytes, &candor_config(full)).unwrap_err();
        assert!(err.to_string().len() < BOUNDED, "{}", err.to_string().len());
        let types = candor_types(&err);
        assert_eq!(types, theirs, "full_error_message = {full}");
        ours = Some(types);
    }
    ours.unwrap()
}

fn cfield(name: &str, val: CValue) -> CField {
    CField {
        id: CLabel::Named(name.into()),
        val,
    }
}

fn crecord(mut fields: Vec<CField>) -> CValue {
    fields.sort_by_key(|f| f.id.get_id());
    CValue::Record(fields)
}

/// A record value of `n` fields `0 … n-1`, each an `int8`.
fn wide_value(n: u32) -> CValue {
    crecord(
        (0..n)
            .map(|i| CField {
                id: CLabel::Id(i),
                val: CValue::Int8(0),
            })
            .collect(),
    )
}

fn message(values: &[CValue]) -> Vec<u8> {
    candid::IDLArgs::new(values).to_bytes().unwrap()
}

mod ours {
    #[derive(candor::CandidType, candor::Deserialize, Debug)]
    pub struct Amount {
        pub amount: i128,
        pub tag: u8,
    }
    #[derive(candor::CandidType, candor::Deserialize, Debug)]
    pub struct Status {
        pub status_code: u16,
        pub body: Vec<u8>,
    }
    #[derive(candor::CandidType, candor::Deserialize, Debug)]
    pub struct Account {
        pub owner: candor::Principal,
        pub subaccount: Option<Vec<u8>>,
    }
    /// ICRC-2's `transfer_from` argument (eleven fields).
    #[derive(candor::CandidType, candor::Deserialize, Debug)]
    pub struct TransferFromArgs {
        pub spender_subaccount: Option<Vec<u8>>,
        pub from: Account,
        pub to: Account,
        pub amount: candor::Nat,
        pub fee: Option<candor::Nat>,
        pub memo: Option<Vec<u8>>,
        pub created_at_time: Option<u64>,
        pub expected_allowance: Option<candor::Nat>,
        pub expires_at: Option<u64>,
        pub comment: Option<String>,
        pub tag: String,
    }
    #[derive(candor::CandidType, candor::Deserialize, Debug)]
    pub struct Outer {
        pub inner: u8,
    }
}

mod theirs {
    #[derive(candid::CandidType, serde::Deserialize, Debug)]
    pub struct Amount {
        pub amount: i128,
        pub tag: u8,
    }
    #[derive(candid::CandidType, serde::Deserialize, Debug)]
    pub struct Status {
        pub status_code: u16,
        pub body: Vec<u8>,
    }
    #[derive(candid::CandidType, serde::Deserialize, Debug)]
    pub struct Account {
        pub owner: candid::Principal,
        pub subaccount: Option<Vec<u8>>,
    }
    #[derive(candid::CandidType, serde::Deserialize, Debug)]
    pub struct TransferFromArgs {
        pub spender_subaccount: Option<Vec<u8>>,
        pub from: Account,
        pub to: Account,
        pub amount: candid::Nat,
        pub fee: Option<candid::Nat>,
        pub memo: Option<Vec<u8>>,
        pub created_at_time: Option<u64>,
        pub expected_allowance: Option<candid::Nat>,
        pub expires_at: Option<u64>,
        pub comment: Option<String>,
        pub tag: String,
    }
    #[derive(candid::CandidType, serde::Deserialize, Debug)]
    pub struct Outer {
        pub inner: u8,
    }
}

#[test]
fn a_500_field_wire_record_is_elided() {
    for wide in [500, 20_000] {
        let bytes = message(&[crecord(vec![
            cfield("amount", wide_value(wide)),
            cfield("tag", CValue::Nat8(1)),
        ])]);
        let (wire, expected) = same_types::<ours::Amount, theirs::Amount>(&bytes);
        assert_eq!((wire.as_str(), expected.as_str()), (ELIDED, "int"));
        let bytes = message(&[crecord(vec![
            cfield("status_code", wide_value(wide)),
            cfield("body", CValue::Blob(vec![])),
        ])]);
        let (wire, expected) = same_types::<ours::Status, theirs::Status>(&bytes);
        assert_eq!((wire.as_str(), expected.as_str()), (ELIDED, "nat16"));
    }
}

#[test]
fn a_wire_record_naming_table_entries_is_printed_whole() {
    // The outsized record is an entry of its own: the record holding it names it.
    let bytes = message(&[crecord(vec![cfield(
        "inner",
        crecord(vec![
            cfield("big", wide_value(500)),
            cfield("n", CValue::Nat8(1)),
        ]),
    )])]);
    let (wire, _) = same_types::<ours::Outer, theirs::Outer>(&bytes);
    assert!(
        wire.starts_with("record {") && wire.contains(": table"),
        "{wire}"
    );
}

#[test]
fn an_icrc2_transfer_from_argument_is_printed_whole() {
    let bytes = message(&[CValue::Text("x".into())]);
    let (wire, expected) = same_types::<ours::TransferFromArgs, theirs::TransferFromArgs>(&bytes);
    assert_eq!(wire, "text");
    assert!(!expected.contains(ELIDED), "{expected}");
    for field in [
        "spender_subaccount",
        "expected_allowance",
        "created_at_time",
        "owner",
    ] {
        assert!(expected.contains(field), "{expected}");
    }
    // candid's layout: more than 80 columns, so one field per line.
    assert!(expected.lines().count() > 11, "{expected}");
}

/// A record type of `n` fields `0 … n-1` of type `nat`, in both crates.
fn wide_types(n: u32) -> (Type, CType) {
    let ours = TypeInner::Record(
        (0..n)
            .map(|i| Field {
                id: Label::Id(i).into(),
                ty: TypeInner::Nat.into(),
            })
            .collect(),
    );
    let theirs = CInner::Record(
        (0..n)
            .map(|i| CTField {
                id: CLabel::Id(i).into(),
                ty: CInner::Nat.into(),
            })
            .collect(),
    );
    (ours.into(), theirs.into())
}

#[test]
fn a_500_field_expected_record_is_elided() {
    let bytes = message(&[CValue::Text("x".into())]);
    for n in [10, 500] {
        let (ours, theirs) = wide_types(n);
        let their_err = candid::de::IDLDeserialize::new_with_config(&bytes, &candid_config(true))
            .unwrap()
            .get_value_with_type(&CEnv::new(), &theirs)
            .unwrap_err();
        for full in [false, true] {
            let err = candor::de::IDLDeserialize::new_with_config(&bytes, &candor_config(full))
                .unwrap()
                .get_value_with_type(&TypeEnv::new(), &ours)
                .unwrap_err();
            assert!(err.to_string().len() < BOUNDED);
            assert_eq!(candor_types(&err), candid_types(&their_err));
            let elided = candor_types(&err).1 == ELIDED;
            assert_eq!(elided, n == 500, "{n} fields");
        }
    }
}

/// `service { m : nat }` in both crates.
fn service() -> (Type, CType) {
    (
        TypeInner::Service(vec![("m".into(), TypeInner::Nat.into())]).into(),
        CInner::Service(vec![("m".into(), CInner::Nat.into())]).into(),
    )
}

/// `types::subtype::equal` of the two pairs, candor's and candid's messages.
fn equal_messages(ours: (&Type, &Type), theirs: (&CType, &CType)) -> (String, String) {
    let e = candor::types::subtype::equal(&mut Default::default(), &TypeEnv::new(), ours.0, ours.1)
        .unwrap_err();
    let f =
        candid::types::subtype::equal(&mut Default::default(), &CEnv::new(), theirs.0, theirs.1)
            .unwrap_err();
    (e.message().to_string(), f.to_string())
}

#[test]
fn a_service_constructor_is_elided_wherever_it_sits() {
    let (serv, cserv) = service();
    let class: Type = TypeInner::Class(vec![TypeInner::Nat.into()], serv).into();
    let cclass: CType = CInner::Class(vec![CInner::Nat.into()], cserv).into();
    let in_record = |t: Type| -> Type {
        TypeInner::Record(vec![Field {
            id: Label::Named("f".into()).into(),
            ty: t,
        }])
        .into()
    };
    let c_in_record = |t: CType| -> CType {
        CInner::Record(vec![CTField {
            id: CLabel::Named("f".into()).into(),
            ty: t,
        }])
        .into()
    };
    let cases: Vec<(Type, CType)> = vec![
        (class.clone(), cclass.clone()),
        (in_record(class.clone()), c_in_record(cclass.clone())),
        (
            TypeInner::Vec(class.clone()).into(),
            CInner::Vec(cclass.clone()).into(),
        ),
        (
            in_record(TypeInner::Opt(class.clone()).into()),
            c_in_record(CInner::Opt(cclass.clone()).into()),
        ),
    ];
    let (text, ctext): (Type, CType) = (TypeInner::Text.into(), CInner::Text.into());
    for (ours, theirs) in &cases {
        let (e, f) = equal_messages((ours, &text), (theirs, &ctext));
        assert_eq!(e, f);
        assert_eq!(e, format!("{ELIDED} is not equal to text"));
    }
}

#[test]
fn a_long_argument_list_is_cut_as_candid_cuts_it() {
    let (serv, cserv) = service();
    for n in [2, 100, 20_000] {
        let many: Vec<Type> = (0..n).map(|_| TypeInner::Nat.into()).collect();
        let cmany: Vec<CType> = (0..n).map(|_| CInner::Nat.into()).collect();
        let a: Type = TypeInner::Class(many, serv.clone()).into();
        let b: Type = TypeInner::Class(vec![TypeInner::Text.into()], serv.clone()).into();
        let ca: CType = CInner::Class(cmany, cserv.clone()).into();
        let cb: CType = CInner::Class(vec![CInner::Text.into()], cserv.clone()).into();
        let (e, f) = equal_messages((&a, &b), (&ca, &cb));
        assert_eq!(e, f);
        assert!(e.len() < BOUNDED, "{}", e.len());
        assert_eq!(e.contains("... and"), n == 20_000, "{e}");
    }
    // Same length, one argument differs: the lists are named, without a trailing
    // separator.
    let a: Type = TypeInner::Class(
        vec![TypeInner::Nat.into(), TypeInner::Text.into()],
        serv.clone(),
    )
    .into();
    let b: Type =
        TypeInner::Class(vec![TypeInner::Nat.into(), TypeInner::Bool.into()], serv).into();
    let ca: CType =
        CInner::Class(vec![CInner::Nat.into(), CInner::Text.into()], cserv.clone()).into();
    let cb: CType = CInner::Class(vec![CInner::Nat.into(), CInner::Bool.into()], cserv).into();
    let (e, f) = equal_messages((&a, &b), (&ca, &cb));
    assert_eq!(e, f);
    assert_eq!(e, "Mismatch in init args: (nat, text) and (nat, bool)");
}

#[test]
fn wide_types_are_elided_in_subtype_messages() {
    let (ours, theirs) = wide_types(500);
    let (e, f) = equal_messages(
        (&ours, &TypeInner::Text.into()),
        (&theirs, &CInner::Text.into()),
    );
    assert_eq!(e, f);
    let e = candor::types::subtype::subtype(
        &mut Default::default(),
        &TypeEnv::new(),
        &ours,
        &TypeInner::Text.into(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains(ELIDED) && e.len() < BOUNDED, "{e}");
}

#[test]
fn text_size_is_candids_on_random_types() {
    use proptest::prelude::*;
    fn leaf() -> impl Strategy<Value = (Type, CType)> {
        prop_oneof![
            Just((TypeInner::Nat.into(), CInner::Nat.into())),
            Just((TypeInner::Text.into(), CInner::Text.into())),
            Just((TypeInner::Principal.into(), CInner::Principal.into())),
            Just((TypeInner::Float64.into(), CInner::Float64.into())),
            "[a-z]{0,12}".prop_map(|n| (TypeInner::Var(n.clone()).into(), CInner::Var(n).into())),
        ]
    }
    let tree = leaf().prop_recursive(6, 200, 12, |inner| {
        prop_oneof![
            inner
                .clone()
                .prop_map(|(a, b)| (TypeInner::Opt(a).into(), CInner::Opt(b).into())),
            inner
                .clone()
                .prop_map(|(a, b)| (TypeInner::Vec(a).into(), CInner::Vec(b).into())),
            proptest::collection::vec(
                (any::<u32>(), "[a-z]{1,10}", any::<bool>(), inner.clone()),
                0..12
            )
            .prop_map(|fs| {
                let mut ours = Vec::new();
                let mut theirs = Vec::new();
                for (id, name, named, (a, b)) in fs {
                    let (l, cl) = if named {
                        (Label::Named(name.clone()), CLabel::Named(name))
                    } else {
                        (Label::Id(id), CLabel::Id(id))
                    };
                    ours.push(Field {
                        id: l.into(),
                        ty: a,
                    });
                    theirs.push(CTField {
                        id: cl.into(),
                        ty: b,
                    });
                }
                (
                    TypeInner::Record(ours).into(),
                    CInner::Record(theirs).into(),
                )
            }),
            (
                proptest::collection::vec(inner.clone(), 0..6),
                proptest::collection::vec(inner.clone(), 0..6),
                any::<bool>()
            )
                .prop_map(|(args, rets, query)| {
                    let (a, ca): (Vec<_>, Vec<_>) = args.into_iter().unzip();
                    let (r, cr): (Vec<_>, Vec<_>) = rets.into_iter().unzip();
                    let modes = if query {
                        vec![candor::types::FuncMode::Query]
                    } else {
                        vec![]
                    };
                    let cmodes = if query {
                        vec![candid::types::FuncMode::Query]
                    } else {
                        vec![]
                    };
                    (
                        TypeInner::Func(candor::types::Function {
                            modes,
                            args: a,
                            rets: r,
                        })
                        .into(),
                        CInner::Func(candid::types::Function {
                            modes: cmodes,
                            args: ca,
                            rets: cr,
                        })
                        .into(),
                    )
                }),
            proptest::collection::vec(("[a-z]{1,8}", inner), 0..5).prop_map(|ms| {
                let (ours, theirs): (Vec<_>, Vec<_>) = ms
                    .into_iter()
                    .map(|(n, (a, b))| ((n.clone(), a), (n, b)))
                    .unzip();
                (
                    TypeInner::Service(ours).into(),
                    CInner::Service(theirs).into(),
                )
            }),
        ]
    });
    proptest!(ProptestConfig::with_cases(512), |((ours, theirs) in tree, limit in 0i32..700)| {
        prop_assert_eq!(
            candor::types::internal::text_size(&ours, limit),
            candid::types::internal::text_size(&theirs, limit)
        );
    });
}
