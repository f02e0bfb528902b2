//! `IDLValue`/`IDLArgs` against candid 0.10.39 (feature "value"): the same values
//! give the same bytes, the same bytes decode to the same values, and both print the
//! same text.

mod common;

use candor::types::{Field, Function, Label, Type, TypeInner};
use candor::{IDLArgs, IDLField, IDLValue, Int, Nat, Principal, TypeEnv, VariantValue};
use common::{nested_opts, to_candid, with_stack};
use proptest::prelude::*;
use std::rc::Rc;

// ---- shorthands -----------------------------------------------------------------------

fn t(inner: TypeInner) -> Type {
    inner.into()
}
fn named(n: &str, val: IDLValue) -> IDLField {
    IDLField {
        id: Label::Named(n.into()),
        val,
    }
}
fn idf(n: u32, val: IDLValue) -> IDLField {
    IDLField {
        id: Label::Id(n),
        val,
    }
}
fn variant(f: IDLField, i: u64) -> IDLValue {
    IDLValue::Variant(VariantValue(Box::new(f), i))
}
fn text(s: &str) -> IDLValue {
    IDLValue::Text(s.into())
}
fn field(name: &str, ty: Type) -> Field {
    Field {
        id: Rc::new(Label::Named(name.into())),
        ty,
    }
}
fn principal() -> Principal {
    Principal::from_text("rrkah-fqaaa-aaaaa-aaaaq-cai").unwrap()
}

/// A few dozen values exercising every printing rule.
fn samples() -> Vec<IDLValue> {
    use IDLValue::*;
    let long_text = "x".repeat(70);
    let rec = Record(vec![
        named("name", text("alice")),
        named("balance", Nat(candor::Nat::from(1_234_567_890u64))),
        named("memo", Opt(Box::new(Nat64(42)))),
        named("type", text("keyword label")),
        named("with space", Bool(true)),
    ]);
    vec![
        Bool(true),
        Null,
        None,
        Reserved,
        text(""),
        text("hello \"world\" \\ ' \n\t\u{7f} é 日本"),
        Number("12345".into()),
        Int(candor::Int::from(-1_234_567i64)),
        Int("-123456789012345678901234567890"
            .parse::<candor::Int>()
            .unwrap()),
        Nat("123456789012345678901234567890"
            .parse::<candor::Nat>()
            .unwrap()),
        Nat8(255),
        Nat16(65535),
        Nat32(1_000_000),
        Nat64(u64::MAX),
        Int8(-128),
        Int16(-1234),
        Int32(i32::MIN),
        Int64(-100_000),
        Float32(1.5),
        Float32(3.0),
        Float64(0.1),
        Float64(-2.0),
        Float64(1e21),
        Float64(f64::INFINITY),
        Float64(f64::NAN),
        Blob(b"hello world".to_vec()),
        Blob(vec![0xde, 0xad, 0xbe, 0xef]),
        Blob(b"quote\" tab\t".to_vec()),
        Blob(vec![]),
        Vec(vec![Nat8(1), Nat8(65)]),
        Principal(principal()),
        Service(principal()),
        Func(principal(), "transfer".into()),
        Func(principal(), "query".into()),
        Opt(Box::new(Nat8(1))),
        Opt(Box::new(text("x"))),
        Opt(Box::new(Opt(Box::new(Null)))),
        Vec(vec![]),
        Vec((0..5).map(Int32).collect()),
        Vec((0..11).map(Int32).collect()),
        Vec((0..10)
            .map(|i| text(&format!("element number {i}")))
            .collect()),
        Record(vec![]),
        Record(vec![idf(0, Nat8(1)), idf(1, text("a"))]),
        Record(vec![idf(1, Nat8(1)), idf(2, text("a"))]),
        Record(vec![idf(1_000_000, Bool(false))]),
        rec.clone(),
        variant(named("ok", Null), 0),
        variant(named("err", text("boom")), 1),
        variant(named("my case", Null), 0),
        variant(idf(12345, Null), 0),
        variant(named("Ok", rec.clone()), 0),
        Record(vec![
            named("a", text(&long_text)),
            named("b", text(&long_text)),
        ]),
        Vec(vec![rec.clone(), rec.clone()]),
        Opt(Box::new(Record(vec![
            named("inner", rec.clone()),
            named("list", Vec(vec![Nat16(1); 3])),
        ]))),
        // Deeper than the layout depth: printed on one line past level 10.
        (0..14).fold(Nat8(7), |v, _| {
            Opt(Box::new(Record(vec![named("next", v)])))
        }),
        Record(vec![named("a", Vec(vec![Vec(vec![text(&long_text)]); 2]))]),
    ]
}

#[test]
fn display_and_debug_match_candid() {
    let mut diffs = Vec::new();
    for v in samples() {
        let c = to_candid::value(&v);
        if v.to_string() != c.to_string() {
            diffs.push(format!("Display\n{}\n---\n{}", v, c));
        }
        if format!("{v:?}") != format!("{c:?}") {
            diffs.push(format!("Debug\n{v:?}\n---\n{c:?}"));
        }
    }
    // Around the 80-column boundary, with ASCII and wide characters.
    for n in 60..80 {
        for unit in ["x", "日", "é"] {
            let s = unit.repeat(if unit == "日" { n / 2 } else { n });
            let v = IDLValue::Record(vec![named("a", text(&s)), named("b", IDLValue::Nat8(1))]);
            let c = to_candid::value(&v);
            if v.to_string() != c.to_string() {
                diffs.push(format!("Display\n{}\n---\n{}", v, c));
            }
            let half: String = s.chars().take(n / 4).collect();
            let v = IDLValue::Vec(vec![text(&half), text(&half), text(&half)]);
            if v.to_string() != to_candid::value(&v).to_string() {
                diffs.push(format!("Display\n{}\n---\n{}", v, to_candid::value(&v)));
            }
        }
    }
    let args = IDLArgs::new(&samples());
    assert_eq!(args.to_string(), to_candid::args(&args).to_string());
    assert_eq!(format!("{args:?}"), format!("{:?}", to_candid::args(&args)));
    let one = IDLArgs::new(&[IDLValue::Nat8(1)]);
    assert_eq!(format!("{one:?}"), format!("{:?}", to_candid::args(&one)));
    assert_eq!(
        IDLArgs::new(&[]).to_string(),
        to_candid::args(&IDLArgs::new(&[])).to_string()
    );
    assert!(diffs.is_empty(), "{}", diffs.join("\n=====\n"));
}

#[test]
fn doc_example() {
    #[derive(candor::CandidType)]
    struct MyStruct {
        a: u8,
        b: String,
    }
    let v = IDLValue::try_from_candid_type(&MyStruct {
        a: 42,
        b: "hello".into(),
    })
    .unwrap();
    assert_eq!(v.to_string(), "record { a = 42 : nat8; b = \"hello\" }");
}

#[test]
fn untyped_encoding_matches_candid() {
    let values: Vec<IDLValue> = samples()
        .into_iter()
        .filter(
            |v| !matches!(v, IDLValue::Vec(vs) if matches!(vs.first(), Some(IDLValue::Nat8(_)))),
        )
        .collect();
    for v in &values {
        let a = IDLArgs::new(std::slice::from_ref(v));
        let ours = a.to_bytes().unwrap();
        let theirs = to_candid::args(&a).to_bytes().unwrap();
        assert_eq!(ours, theirs, "{v:?}");
        assert_eq!(a.get_types().len(), 1);
    }
    let all = IDLArgs::new(&values);
    assert_eq!(
        all.to_bytes().unwrap(),
        to_candid::args(&all).to_bytes().unwrap()
    );
}

#[test]
fn untyped_decoding_matches_candid() {
    for v in samples() {
        if matches!(&v, IDLValue::Float64(f) if f.is_nan()) {
            continue;
        }
        let a = IDLArgs::new(&[v]);
        let bytes = a.to_bytes().unwrap();
        match (
            IDLArgs::from_bytes(&bytes),
            candid::IDLArgs::from_bytes(&bytes),
        ) {
            (Ok(ours), Ok(theirs)) => {
                assert_eq!(to_candid::args(&ours), theirs);
                assert_eq!(ours.to_string(), theirs.to_string());
            }
            // Fields out of order in the value: an invalid message for both.
            (Err(_), Err(_)) => {}
            (ours, theirs) => panic!(
                "{a:?}: candor {:?}, candid {:?}",
                ours.map(|_| ()),
                theirs.map(|_| ())
            ),
        }
    }
}

/// A record value with repeated field ids (built in code; text rejects them): the
/// last one wins, as in candid, whatever the order of the ids.
#[test]
fn annotate_record_with_repeated_fields() {
    use IDLValue::*;
    let env = TypeEnv::new();
    let ty = t(TypeInner::Record(vec![
        field("a", t(TypeInner::Nat8)),
        field("b", t(TypeInner::Opt(t(TypeInner::Nat8)))),
        field("z", t(TypeInner::Nat16)),
    ]));
    let v = Record(vec![
        named("z", Nat16(1)),
        named("a", Nat8(1)),
        named("z", Nat16(2)),
        named("a", Nat8(2)),
        named("a", Nat8(3)),
    ]);
    let ours = v.annotate_type(false, &env, &ty).unwrap();
    let theirs = to_candid::value(&v)
        .annotate_type(false, &to_candid::env(&env), &to_candid::ty(&ty))
        .unwrap();
    assert_eq!(to_candid::value(&ours), theirs);
    assert_eq!(
        ours.to_string(),
        "record { a = 3 : nat8; b = null; z = 2 : nat16 }"
    );
}

/// Values parsed from text: undetermined numbers get the expected type.
#[test]
fn annotate_from_parser() {
    use IDLValue::*;
    let env = TypeEnv::new();
    let ty = t(TypeInner::Record(vec![
        field("a", t(TypeInner::Nat8)),
        field("b", t(TypeInner::Vec(t(TypeInner::Nat8)))),
        field("c", t(TypeInner::Opt(t(TypeInner::Int)))),
        field("d", t(TypeInner::Float32)),
        field("e", t(TypeInner::Nat)),
        field("f", t(TypeInner::Opt(t(TypeInner::Text)))),
        field("g", t(TypeInner::Reserved)),
        field("h", t(TypeInner::Int16)),
    ]));
    let v = Record(vec![
        named("a", Number("200".into())),
        named("b", Vec(vec![Number("1".into()), Number("2".into())])),
        named("c", Opt(Box::new(Number("-5".into())))),
        named("d", Float64(2.5)),
        named("e", Number("123456789012345678901234567890".into())),
        named("h", Number("-300".into())),
    ]);
    let ours = v.annotate_type(true, &env, &ty).unwrap();
    let theirs = to_candid::value(&v)
        .annotate_type(true, &to_candid::env(&env), &to_candid::ty(&ty))
        .unwrap();
    assert_eq!(to_candid::value(&ours), theirs);
    assert_eq!(ours.to_string(), theirs.to_string());
    let a = IDLArgs::new(std::slice::from_ref(&v));
    assert_eq!(
        a.to_bytes_with_types(&env, std::slice::from_ref(&ty))
            .unwrap(),
        to_candid::args(&a)
            .to_bytes_with_types(&to_candid::env(&env), &[to_candid::ty(&ty)])
            .unwrap()
    );
    // Errors where candid errs.
    for (v, ty) in [
        (Number("256".into()), t(TypeInner::Nat8)),
        (Number("-1".into()), t(TypeInner::Nat)),
        (text("x"), t(TypeInner::Nat)),
        (
            Record(vec![]),
            t(TypeInner::Record(vec![field("a", t(TypeInner::Nat))])),
        ),
        (
            variant(named("zz", Null), 0),
            t(TypeInner::Variant(vec![field("a", t(TypeInner::Null))])),
        ),
        (
            Opt(Box::new(text("x"))),
            t(TypeInner::Opt(t(TypeInner::Nat))),
        ),
    ] {
        assert!(v.annotate_type(true, &env, &ty).is_err(), "{v:?}");
        assert!(to_candid::value(&v)
            .annotate_type(true, &to_candid::env(&env), &to_candid::ty(&ty))
            .is_err());
    }
    // Omitted trailing values.
    let types = [
        t(TypeInner::Nat8),
        t(TypeInner::Opt(t(TypeInner::Nat))),
        t(TypeInner::Null),
        t(TypeInner::Reserved),
    ];
    let a = IDLArgs::new(&[Number("1".into())])
        .annotate_types(true, &env, &types)
        .unwrap();
    let c = to_candid::args(&IDLArgs::new(&[Number("1".into())]))
        .annotate_types(
            true,
            &to_candid::env(&env),
            &types
                .iter()
                .map(to_candid::ty)
                .collect::<std::vec::Vec<_>>(),
        )
        .unwrap();
    assert_eq!(to_candid::args(&a), c);
    assert!(IDLArgs::new(&[])
        .annotate_types(true, &env, &[t(TypeInner::Nat)])
        .is_err());
}

/// Decoded values (not from the parser): candid's liberal `opt` rule.
#[test]
fn annotate_decoded_opt_rule() {
    use IDLValue::*;
    let env = TypeEnv::new();
    let cases = [
        (Nat8(1), t(TypeInner::Opt(t(TypeInner::Nat8)))),
        (Nat8(1), t(TypeInner::Opt(t(TypeInner::Text)))),
        (
            Opt(Box::new(Nat8(1))),
            t(TypeInner::Opt(t(TypeInner::Text))),
        ),
        (
            Null,
            t(TypeInner::Opt(t(TypeInner::Opt(t(TypeInner::Nat))))),
        ),
        (Nat(candor::Nat::from(5u8)), t(TypeInner::Int)),
        (text("a"), t(TypeInner::Opt(t(TypeInner::Null)))),
    ];
    for (v, ty) in cases {
        let ours = v.annotate_type(false, &env, &ty).unwrap();
        let theirs = to_candid::value(&v)
            .annotate_type(false, &to_candid::env(&env), &to_candid::ty(&ty))
            .unwrap();
        assert_eq!(to_candid::value(&ours), theirs, "{v:?} : {ty}");
    }
}

/// Decoding at a run-time type: subtyping as the typed decoder (extra fields
/// dropped, missing opt fields null, opt that does not fit null, int from nat).
#[test]
fn decode_with_types_matches_candid() {
    use IDLValue::*;
    let env = TypeEnv::new();
    let wire_ty = t(TypeInner::Record(vec![
        field("a", t(TypeInner::Nat)),
        field("b", t(TypeInner::Text)),
        field("c", t(TypeInner::Opt(t(TypeInner::Nat8)))),
        field(
            "d",
            t(TypeInner::Variant(vec![
                field("x", t(TypeInner::Null)),
                field("y", t(TypeInner::Nat16)),
            ])),
        ),
    ]));
    let v = Record(vec![
        named(
            "a",
            Nat("340282366920938463463374607431768211456".parse().unwrap()),
        ),
        named("b", text("hi")),
        named("c", Opt(Box::new(Nat8(3)))),
        named("d", variant(named("y", Nat16(9)), 0)),
    ]);
    let a = IDLArgs::new(&[v]);
    let bytes = a
        .to_bytes_with_types(&env, std::slice::from_ref(&wire_ty))
        .unwrap();
    assert_eq!(
        bytes,
        to_candid::args(&a)
            .to_bytes_with_types(&to_candid::env(&env), &[to_candid::ty(&wire_ty)])
            .unwrap()
    );
    let expected = [
        wire_ty.clone(),
        t(TypeInner::Record(vec![
            field("a", t(TypeInner::Int)),
            field("c", t(TypeInner::Opt(t(TypeInner::Text)))),
            field(
                "d",
                t(TypeInner::Variant(vec![
                    field("x", t(TypeInner::Null)),
                    field("y", t(TypeInner::Nat16)),
                    field("z", t(TypeInner::Text)),
                ])),
            ),
            field("e", t(TypeInner::Opt(t(TypeInner::Nat)))),
            field("f", t(TypeInner::Reserved)),
        ])),
        t(TypeInner::Reserved),
        t(TypeInner::Opt(t(TypeInner::Record(vec![field(
            "b",
            t(TypeInner::Text),
        )])))),
    ];
    for ty in &expected {
        let ours = IDLArgs::from_bytes_with_types(&bytes, &env, std::slice::from_ref(ty)).unwrap();
        let theirs = candid::IDLArgs::from_bytes_with_types(
            &bytes,
            &to_candid::env(&env),
            &[to_candid::ty(ty)],
        )
        .unwrap();
        assert_eq!(to_candid::args(&ours), theirs, "{ty}");
        assert_eq!(ours.to_string(), theirs.to_string());
    }
    // Not a subtype: both reject.
    let bad = t(TypeInner::Record(vec![field("b", t(TypeInner::Nat))]));
    assert!(IDLArgs::from_bytes_with_types(&bytes, &env, std::slice::from_ref(&bad)).is_err());
    assert!(candid::IDLArgs::from_bytes_with_types(
        &bytes,
        &to_candid::env(&env),
        &[to_candid::ty(&bad)]
    )
    .is_err());
    // Trailing types on an exhausted message: opt gives none.
    let two = [wire_ty.clone(), t(TypeInner::Opt(t(TypeInner::Nat)))];
    let ours = IDLArgs::from_bytes_with_types(&bytes, &env, &two).unwrap();
    assert_eq!(ours.args[1], IDLValue::None);
}

/// Named types (`Var`) in the env, including a recursive one.
#[test]
fn env_and_recursive_types() {
    use IDLValue::*;
    let mut env = TypeEnv::new();
    let list = t(TypeInner::Opt(t(TypeInner::Record(vec![
        field("head", t(TypeInner::Int)),
        field("tail", t(TypeInner::Var("List".into()))),
    ]))));
    env.0.insert("List".into(), list);
    let ty = t(TypeInner::Var("List".into()));
    let v = (0..5).fold(None, |tail, i| {
        Opt(Box::new(Record(vec![
            named("head", Number(format!("{i}"))),
            named("tail", tail),
        ])))
    });
    let a = IDLArgs::new(&[v, Nat8(1)]);
    let types = [ty.clone(), t(TypeInner::Nat8)];
    let ours = a.to_bytes_with_types(&env, &types).unwrap();
    let theirs = to_candid::args(&a)
        .to_bytes_with_types(
            &to_candid::env(&env),
            &types
                .iter()
                .map(to_candid::ty)
                .collect::<std::vec::Vec<_>>(),
        )
        .unwrap();
    assert_eq!(ours, theirs);
    let d = IDLArgs::from_bytes_with_types(&ours, &env, &types).unwrap();
    let c = candid::IDLArgs::from_bytes_with_types(
        &ours,
        &to_candid::env(&env),
        &types
            .iter()
            .map(to_candid::ty)
            .collect::<std::vec::Vec<_>>(),
    )
    .unwrap();
    assert_eq!(to_candid::args(&d), c);
    let u = IDLArgs::from_bytes(&ours).unwrap();
    assert_eq!(
        to_candid::args(&u),
        candid::IDLArgs::from_bytes(&ours).unwrap()
    );
    assert_eq!(
        u.to_string(),
        candid::IDLArgs::from_bytes(&ours).unwrap().to_string()
    );
}

#[test]
fn variant_equality_ignores_index() {
    let a = variant(named("ok", IDLValue::Null), 0);
    let b = variant(named("ok", IDLValue::Null), 3);
    assert_eq!(a, b);
    assert_ne!(a, variant(named("err", IDLValue::Null), 0));
}

/// Typed encodings decode to the values candid decodes, and `try_from_candid_type`
/// agrees.
#[test]
fn typed_messages() {
    #[derive(candor::CandidType, candor::Deserialize)]
    enum Shape {
        Circle { r: f64 },
        Square(u32),
        Empty,
    }
    #[derive(candor::CandidType, candor::Deserialize)]
    struct Doc {
        id: u64,
        tags: Vec<String>,
        shape: Shape,
        blob: serde_bytes::ByteBuf,
        pair: (i8, Option<bool>),
        owner: Principal,
        big: Nat,
        neg: Int,
    }
    let d = Doc {
        id: 7,
        tags: vec!["a".into(), "b".into()],
        shape: Shape::Circle { r: 1.5 },
        blob: serde_bytes::ByteBuf::from(vec![1, 2, 3]),
        pair: (-3, Some(true)),
        owner: principal(),
        big: Nat::from(u128::MAX) * 7u32,
        neg: Int::from(-5i32),
    };
    let bytes = candor::encode_args((&d, Shape::Square(4), Shape::Empty)).unwrap();
    let ours = IDLArgs::from_bytes(&bytes).unwrap();
    let theirs = candid::IDLArgs::from_bytes(&bytes).unwrap();
    assert_eq!(to_candid::args(&ours), theirs);
    assert_eq!(ours.to_string(), theirs.to_string());
    let v = IDLValue::try_from_candid_type(&d).unwrap();
    assert_eq!(v, ours.args[0]);
}

/// Decoding IDLValues costs what candid's decoder charges: the same quota accepts
/// and rejects the same messages.
#[test]
fn quota_thresholds_match_candid() {
    let msgs: Vec<Vec<u8>> = vec![
        candor::encode_args((1u8, "hello", vec![1u64, 2, 3])).unwrap(),
        candor::encode_args((Some(vec![Some(1i32), None]), Nat::from(1u64 << 40))).unwrap(),
        IDLArgs::new(&samples()[..20]).to_bytes().unwrap(),
    ];
    for bytes in &msgs {
        let min = |ok: &dyn Fn(usize) -> bool| {
            let (mut lo, mut hi) = (0usize, 1usize << 30);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if ok(mid) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            lo
        };
        let ours = min(&|q| {
            let mut c = candor::DecoderConfig::new();
            c.set_decoding_quota(q);
            IDLArgs::from_bytes_with_config(bytes, &c).is_ok()
        });
        let theirs = min(&|q| {
            let mut c = candid::DecoderConfig::new();
            c.set_decoding_quota(q);
            candid::IDLArgs::from_bytes_with_config(bytes, &c).is_ok()
        });
        assert_eq!(ours, theirs, "decoding quota");
        let ours = min(&|q| {
            let mut c = candor::DecoderConfig::new();
            c.set_skipping_quota(q);
            IDLArgs::from_bytes_with_config(bytes, &c).is_ok()
        });
        let theirs = min(&|q| {
            let mut c = candid::DecoderConfig::new();
            c.set_skipping_quota(q);
            candid::IDLArgs::from_bytes_with_config(bytes, &c).is_ok()
        });
        assert_eq!(ours, theirs, "skipping quota");
    }
}

const STACK: usize = 256 << 20;

/// Deep nesting is refused by the decoder's depth bound, not by a stack overflow.
#[test]
fn deep_values() {
    let bytes = nested_opts(100_000);
    let r = with_stack(STACK, move || {
        IDLArgs::from_bytes(&bytes).map(|a| a.args.len())
    });
    assert!(r.is_err());
    // Within the bound, a long recursive list decodes and prints.
    let v = (0..1_000).fold(IDLValue::None, |tail, i| {
        IDLValue::Opt(Box::new(IDLValue::Record(vec![
            named("head", IDLValue::Nat16(i)),
            named("tail", tail),
        ])))
    });
    let r = with_stack(STACK, move || {
        let a = IDLArgs::new(&[v]);
        let mut env = TypeEnv::new();
        env.0.insert(
            "L".into(),
            t(TypeInner::Opt(t(TypeInner::Record(vec![
                field("head", t(TypeInner::Nat16)),
                field("tail", t(TypeInner::Var("L".into()))),
            ])))),
        );
        let bytes = a
            .to_bytes_with_types(&env, &[t(TypeInner::Var("L".into()))])
            .unwrap();
        // Debug builds take ten times the stack per level: lift the bound.
        let mut config = candor::DecoderConfig::new();
        config.set_max_stack(STACK / 2);
        let back = IDLArgs::from_bytes_with_config(&bytes, &config).unwrap();
        let s = back.to_string();
        (back == a, s.len())
    });
    assert!(r.0 && r.1 > 1000);
}

#[test]
fn func_and_service_values() {
    let env = TypeEnv::new();
    let fty = t(TypeInner::Func(Function {
        modes: vec![],
        args: vec![t(TypeInner::Nat)],
        rets: vec![],
    }));
    let sty = t(TypeInner::Service(vec![("m".into(), fty.clone())]));
    let a = IDLArgs::new(&[
        IDLValue::Func(principal(), "go".into()),
        IDLValue::Service(principal()),
    ]);
    let types = [fty, sty];
    let bytes = a.to_bytes_with_types(&env, &types).unwrap();
    let ctypes: std::vec::Vec<_> = types.iter().map(to_candid::ty).collect();
    assert_eq!(
        bytes,
        to_candid::args(&a)
            .to_bytes_with_types(&to_candid::env(&env), &ctypes)
            .unwrap()
    );
    let ours = IDLArgs::from_bytes(&bytes).unwrap();
    assert_eq!(ours, a);
    assert_eq!(
        to_candid::args(&ours),
        candid::IDLArgs::from_bytes(&bytes).unwrap()
    );
    let ours = IDLArgs::from_bytes_with_types(&bytes, &env, &types).unwrap();
    assert_eq!(
        to_candid::args(&ours),
        candid::IDLArgs::from_bytes_with_types(&bytes, &to_candid::env(&env), &ctypes).unwrap()
    );
}

#[test]
fn builder_mixes_typed_and_dynamic_args() {
    let mut b = candor::IDLBuilder::new();
    b.arg(&5u16).unwrap();
    b.value_arg(&text("x")).unwrap();
    b.value_arg_with_type(
        &IDLValue::Number("3".into()),
        &TypeEnv::new(),
        &t(TypeInner::Nat32),
    )
    .unwrap();
    let ours = b.serialize_to_vec().unwrap();
    let mut c = candid::ser::IDLBuilder::new();
    c.arg(&5u16).unwrap();
    c.value_arg(&candid::IDLValue::Text("x".into())).unwrap();
    c.value_arg_with_type(
        &candid::IDLValue::Number("3".into()),
        &candid::TypeEnv::new(),
        &candid::types::TypeInner::Nat32.into(),
    )
    .unwrap();
    assert_eq!(ours, c.serialize_to_vec().unwrap());
    // The plain typed path still caches and is unaffected.
    assert_eq!(
        candor::encode_one(5u16).unwrap(),
        candid::encode_one(5u16).unwrap()
    );
}

// ---- random types and values ----------------------------------------------------------

/// A small deterministic generator: proptest gives the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const NAMES: [&str; 10] = [
    "a",
    "b",
    "foo",
    "bar_baz",
    "type",
    "with space",
    "é",
    "_1",
    "0abc",
    "long_field_name_for_layout",
];

fn labels(r: &mut Rng, n: usize, tuple: bool) -> Vec<Label> {
    if tuple {
        return (0..n as u32).map(Label::Unnamed).collect();
    }
    let mut out: Vec<Label> = Vec::new();
    for _ in 0..n {
        let l = if r.below(3) == 0 {
            Label::Id(r.below(2000) as u32)
        } else {
            Label::Named(NAMES[r.below(NAMES.len() as u64) as usize].to_string())
        };
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out.sort();
    out
}

fn gen_type(r: &mut Rng, depth: u32) -> Type {
    let leaf = depth == 0 || r.below(3) == 0;
    if leaf {
        return t(match r.below(19) {
            0 => TypeInner::Null,
            1 => TypeInner::Bool,
            2 => TypeInner::Nat,
            3 => TypeInner::Int,
            4 => TypeInner::Nat8,
            5 => TypeInner::Nat16,
            6 => TypeInner::Nat32,
            7 => TypeInner::Nat64,
            8 => TypeInner::Int8,
            9 => TypeInner::Int16,
            10 => TypeInner::Int32,
            11 => TypeInner::Int64,
            12 => TypeInner::Float32,
            13 => TypeInner::Float64,
            14 | 15 => TypeInner::Text,
            16 => TypeInner::Reserved,
            17 => TypeInner::Principal,
            _ => TypeInner::Vec(t(TypeInner::Nat8)),
        });
    }
    t(match r.below(5) {
        0 => TypeInner::Opt(gen_type(r, depth - 1)),
        1 => TypeInner::Vec(gen_type(r, depth - 1)),
        2 | 3 => {
            let tuple = r.below(4) == 0;
            let n = r.below(5) as usize;
            TypeInner::Record(
                labels(r, n, tuple)
                    .into_iter()
                    .map(|id| Field {
                        id: Rc::new(id),
                        ty: gen_type(r, depth - 1),
                    })
                    .collect(),
            )
        }
        _ => {
            let n = 1 + r.below(4) as usize;
            TypeInner::Variant(
                labels(r, n, false)
                    .into_iter()
                    .map(|id| Field {
                        id: Rc::new(id),
                        ty: gen_type(r, depth - 1),
                    })
                    .collect(),
            )
        }
    })
}

fn gen_text(r: &mut Rng) -> String {
    const PIECES: [&str; 12] = [
        "a",
        "hello",
        " ",
        "\"",
        "\\",
        "'",
        "\n",
        "\t",
        "é",
        "日本",
        "\u{1}",
        "0123456789",
    ];
    (0..r.below(8))
        .map(|_| PIECES[r.below(PIECES.len() as u64) as usize])
        .collect()
}

/// A value of type `ty`, in the form decoding gives (variant index 0).
fn gen_value(r: &mut Rng, ty: &Type) -> IDLValue {
    use IDLValue as V;
    match ty.as_ref() {
        TypeInner::Null => V::Null,
        TypeInner::Bool => V::Bool(r.below(2) == 0),
        TypeInner::Nat => V::Nat(match r.below(3) {
            0 => Nat::from(r.below(100)),
            1 => Nat::from(r.next()),
            _ => Nat::from(r.next()) * Nat::from(r.next()) * Nat::from(r.next()),
        }),
        TypeInner::Int => V::Int(match r.below(3) {
            0 => Int::from(r.below(100) as i64 - 50),
            1 => Int::from(r.next() as i64),
            _ => Int::from(r.next() as i64) * Int::from(r.next()) * Int::from(r.next()),
        }),
        TypeInner::Nat8 => V::Nat8(r.next() as u8),
        TypeInner::Nat16 => V::Nat16(r.next() as u16),
        TypeInner::Nat32 => V::Nat32(r.next() as u32),
        TypeInner::Nat64 => V::Nat64(r.next()),
        TypeInner::Int8 => V::Int8(r.next() as i8),
        TypeInner::Int16 => V::Int16(r.next() as i16),
        TypeInner::Int32 => V::Int32(r.next() as i32),
        TypeInner::Int64 => V::Int64(r.next() as i64),
        TypeInner::Float32 => V::Float32(match r.below(3) {
            0 => r.below(1000) as f32,
            1 => (r.next() as i32) as f32 / 7.0,
            _ => f32::NEG_INFINITY,
        }),
        TypeInner::Float64 => V::Float64(match r.below(3) {
            0 => r.below(1000) as f64 - 500.0,
            1 => (r.next() as i64) as f64 / 3.0,
            _ => 1e300,
        }),
        TypeInner::Text => V::Text(gen_text(r)),
        TypeInner::Reserved => V::Reserved,
        TypeInner::Principal => V::Principal(Principal::from_slice(
            &r.next().to_le_bytes()[..r.below(9) as usize],
        )),
        TypeInner::Opt(inner) => {
            if r.below(3) == 0 {
                V::None
            } else {
                V::Opt(Box::new(gen_value(r, inner)))
            }
        }
        TypeInner::Vec(inner) if **inner == TypeInner::Nat8 => {
            let n = r.below(12);
            V::Blob(
                (0..n)
                    .map(|_| {
                        if r.below(2) == 0 {
                            b'a' + r.below(26) as u8
                        } else {
                            r.next() as u8
                        }
                    })
                    .collect(),
            )
        }
        TypeInner::Vec(inner) => {
            let bound = if r.below(4) == 0 { 14 } else { 4 };
            let n = r.below(bound);
            V::Vec((0..n).map(|_| gen_value(r, inner)).collect())
        }
        TypeInner::Record(fs) => V::Record(
            fs.iter()
                .map(|f| IDLField {
                    id: match f.id.as_ref() {
                        Label::Named(n) => Label::Named(n.clone()),
                        l => Label::Id(l.get_id()),
                    },
                    val: gen_value(r, &f.ty),
                })
                .collect(),
        ),
        TypeInner::Variant(fs) => {
            let f = &fs[r.below(fs.len() as u64) as usize];
            let id = match f.id.as_ref() {
                Label::Named(n) => Label::Named(n.clone()),
                l => Label::Id(l.get_id()),
            };
            variant(
                IDLField {
                    id,
                    val: gen_value(r, &f.ty),
                },
                0,
            )
        }
        other => panic!("no values for {other:?}"),
    }
}

fn gen_args(seed: u64) -> (Vec<Type>, IDLArgs) {
    let mut r = Rng(seed | 1);
    let n = r.below(4) as usize;
    let types: Vec<Type> = (0..n).map(|_| gen_type(&mut r, 4)).collect();
    let values: Vec<IDLValue> = types.iter().map(|ty| gen_value(&mut r, ty)).collect();
    (types, IDLArgs::new(&values))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random types and values: the same bytes as candid (typed and untyped), the
    /// same values decoded back (untyped and at the types), the same text.
    #[test]
    fn random_values_match_candid(seed in any::<u64>()) {
        let (types, args) = gen_args(seed);
        let env = TypeEnv::new();
        let cenv = candid::TypeEnv::new();
        let ctypes: Vec<_> = types.iter().map(to_candid::ty).collect();
        let cargs = to_candid::args(&args);

        prop_assert_eq!(args.to_string(), cargs.to_string());
        prop_assert_eq!(format!("{args:?}"), format!("{cargs:?}"));

        let untyped = args.to_bytes().unwrap();
        prop_assert_eq!(&untyped, &cargs.to_bytes().unwrap());
        let typed = args.to_bytes_with_types(&env, &types).unwrap();
        prop_assert_eq!(&typed, &cargs.to_bytes_with_types(&cenv, &ctypes).unwrap());

        // A value's own type can be wrong for the message (a vector whose first
        // element has a narrower type than the others, fields out of order): then
        // both crates write the same invalid message and both reject it.
        match (IDLArgs::from_bytes(&untyped), candid::IDLArgs::from_bytes(&untyped)) {
            (Ok(ours), Ok(theirs)) => {
                prop_assert_eq!(ours.to_string(), theirs.to_string());
                prop_assert_eq!(to_candid::args(&ours), theirs);
            }
            (Err(_), Err(_)) => {}
            (ours, theirs) => prop_assert!(false, "candor {:?}, candid {:?}", ours.map(|_| ()), theirs.map(|_| ())),
        }
        let ours = IDLArgs::from_bytes(&typed).unwrap();
        let theirs = candid::IDLArgs::from_bytes(&typed).unwrap();
        prop_assert_eq!(ours.to_string(), theirs.to_string());
        prop_assert_eq!(to_candid::args(&ours), theirs);
        prop_assert_eq!(&ours, &args);
        let ours = IDLArgs::from_bytes_with_types(&typed, &env, &types).unwrap();
        let theirs = candid::IDLArgs::from_bytes_with_types(&typed, &cenv, &ctypes).unwrap();
        prop_assert_eq!(to_candid::args(&ours), theirs);
        // Re-encoding a decoded value at its type gives the message back.
        prop_assert_eq!(ours.to_bytes_with_types(&env, &types).unwrap(), typed);
    }
}

/// A recursive list of 2,048 cells (4,096 levels) decodes as `IDLValue` on an 8 MiB
/// stack in release builds. About 800 bytes of stack per level: more than the
/// default stack bound (1.5 MiB) allows, so the bound is raised (and, for debug
/// builds, whose frames are ten times larger, the stack and the bound both).
#[test]
fn list_of_2048_decodes_dynamically() {
    let (stack, budget) = if cfg!(debug_assertions) {
        (256 << 20, 200 << 20)
    } else {
        (8 << 20, 6 << 20)
    };
    let bytes = candor::encode_one(common::list(2048)).unwrap();
    let r = with_stack(stack, move || {
        let mut config = candor::DecoderConfig::new();
        config.set_max_stack(budget);
        IDLArgs::from_bytes_with_config(&bytes, &config)
            .map(|a| a.args.len())
            .map_err(|e| e.to_string())
    });
    assert_eq!(r, Ok(1));
}
