//! The printer (`candor::pretty`) against candid 0.10.39's: the same types, type
//! environments, doc comments and values print to the same bytes, at every width.
//!
//! Each case is built once with candor's types and converted to candid's, so both
//! printers see the same input.

mod common;

use candid::pretty::candid as theirs;
use candid::pretty::utils as their_utils;
use candor::pretty::candid as ours;
use candor::pretty::utils as our_utils;
use candor::types::{
    Field, FieldDoc, FuncMode, Function, Label, Type, TypeDoc, TypeDocs, TypeEnv, TypeInner,
};
use candor::{IDLArgs, IDLField, IDLValue, VariantValue};
use common::to_candid as convert;
use pretty_assertions::assert_eq;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Widths every document is laid out in: the printers' own 80, and narrower and
/// wider ones so that every group is seen both broken and flat.
const WIDTHS: [usize; 6] = [0, 10, 24, 40, 80, 200];

// ---- building cases ---------------------------------------------------------------------

fn t(inner: TypeInner) -> Type {
    inner.into()
}
fn var(name: &str) -> Type {
    t(TypeInner::Var(name.into()))
}
fn opt(ty: Type) -> Type {
    t(TypeInner::Opt(ty))
}
fn vec_of(ty: Type) -> Type {
    t(TypeInner::Vec(ty))
}
fn field(label: Label, ty: Type) -> Field {
    Field {
        id: Rc::new(label),
        ty,
    }
}
fn named(name: &str, ty: Type) -> Field {
    field(Label::Named(name.into()), ty)
}
fn record(fields: Vec<Field>) -> Type {
    t(TypeInner::Record(fields))
}
fn variant(fields: Vec<Field>) -> Type {
    t(TypeInner::Variant(fields))
}
fn tuple(types: Vec<Type>) -> Type {
    let fields = (0u32..)
        .zip(types)
        .map(|(i, ty)| field(Label::Unnamed(i), ty));
    record(fields.collect())
}
fn func(args: Vec<Type>, rets: Vec<Type>, modes: Vec<FuncMode>) -> Function {
    Function { modes, args, rets }
}
fn func_ty(args: Vec<Type>, rets: Vec<Type>, modes: Vec<FuncMode>) -> Type {
    t(TypeInner::Func(func(args, rets, modes)))
}
fn service(methods: Vec<(&str, Type)>) -> Type {
    let methods = methods.into_iter().map(|(n, ty)| (n.to_string(), ty));
    t(TypeInner::Service(methods.collect()))
}
fn lines(ls: &[&str]) -> Vec<String> {
    ls.iter().map(|l| l.to_string()).collect()
}

fn primitives() -> Vec<TypeInner> {
    use TypeInner::*;
    vec![
        Null, Bool, Nat, Int, Nat8, Nat16, Nat32, Nat64, Int8, Int16, Int32, Int64, Float32,
        Float64, Text, Reserved, Empty, Principal, Unknown, Future,
    ]
}

/// Names covering every quoting rule: identifiers, every keyword, names that are not
/// identifiers (digits first, spaces, quotes, backslashes, control characters, empty)
/// and non-ASCII names (accented, CJK, emoji, combining marks) whose display width
/// differs from their length.
fn tricky_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "a",
        "_",
        "_x9",
        "A_b_C",
        "snake_case_name",
        "0abc",
        "9",
        "with space",
        "dash-ed",
        "dot.ted",
        "quote\"d",
        "it's",
        "back\\slash",
        "new\nline",
        "tab\t",
        "nul\0",
        "",
        "é",
        "café",
        "日本語",
        "🦀crab",
        "e\u{301}",
        "\u{200b}",
        "ǅ",
        "ⅷ",
        "Ωmega",
        "record_",
        "queryx",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    names.extend(KEYWORDS.iter().map(|s| s.to_string()));
    names
}

const KEYWORDS: [&str; 30] = [
    "import",
    "service",
    "func",
    "type",
    "opt",
    "vec",
    "record",
    "variant",
    "blob",
    "principal",
    "nat",
    "nat8",
    "nat16",
    "nat32",
    "nat64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "float32",
    "float64",
    "bool",
    "text",
    "null",
    "reserved",
    "empty",
    "oneway",
    "query",
    "composite_query",
];

// ---- comparing ------------------------------------------------------------------------

/// `pp_ty` at every width, and `Display` of the type and of its shape.
fn same_type(ty: &Type) {
    let c = convert::ty(ty);
    for w in WIDTHS {
        assert_eq!(
            ours::pp_ty(ty).pretty(w).to_string(),
            theirs::pp_ty(&c).pretty(w).to_string(),
            "pp_ty at width {w} of {ty:?}"
        );
    }
    assert_eq!(ty.to_string(), c.to_string(), "Display of {ty:?}");
    assert_eq!(ty.as_ref().to_string(), c.as_ref().to_string());
    assert_eq!(
        ours::pp_ty_inner(ty.as_ref()).pretty(80).to_string(),
        theirs::pp_ty_inner(c.as_ref()).pretty(80).to_string()
    );
    if let (TypeInner::Func(f), candid::types::TypeInner::Func(cf)) = (ty.as_ref(), c.as_ref()) {
        same_function(f, cf);
    }
    if let TypeInner::Record(fs) | TypeInner::Variant(fs) = ty.as_ref() {
        for f in fs {
            assert_eq!(
                f.to_string(),
                convert::field(f).to_string(),
                "Display of {f:?}"
            );
        }
    }
}

fn same_function(f: &Function, cf: &candid::types::Function) {
    assert_eq!(f.to_string(), cf.to_string());
    for w in WIDTHS {
        let pair = |a: pretty::RcDoc<'_>, b: pretty::RcDoc<'_>| {
            assert_eq!(
                a.pretty(w).to_string(),
                b.pretty(w).to_string(),
                "width {w}"
            )
        };
        pair(ours::pp_function(f), theirs::pp_function(cf));
        pair(ours::pp_args(&f.args), theirs::pp_args(&cf.args));
        pair(ours::pp_rets(&f.rets), theirs::pp_rets(&cf.rets));
        pair(ours::pp_modes(&f.modes), theirs::pp_modes(&cf.modes));
    }
}

/// The doc comments of a case, given on both sides.
#[derive(Default, Clone, Debug)]
struct Docs {
    methods: Vec<(String, Vec<String>)>,
    types: TypeDocs,
}

impl Docs {
    fn ours(&self) -> ours::DocComments {
        let mut d = ours::DocComments::empty();
        for (m, lines) in &self.methods {
            d.add_service_method(m.clone(), lines.clone());
        }
        d.extend_types(self.types.clone());
        d
    }
    fn theirs(&self) -> theirs::DocComments {
        let mut d = theirs::DocComments::empty();
        for (m, lines) in &self.methods {
            d.add_service_method(m.clone(), lines.clone());
        }
        d.extend_types(convert::type_docs(&self.types));
        d
    }
}

/// `compile` and `compile_with_docs` of a whole file, and `pp_init_args`.
fn same_file(env: &TypeEnv, actor: &Option<Type>, docs: &Docs) -> String {
    let cenv = convert::env(env);
    let cactor = actor.as_ref().map(convert::ty);
    let plain = ours::compile(env, actor);
    assert_eq!(plain, theirs::compile(&cenv, &cactor), "compile");
    let documented = ours::compile_with_docs(env, actor, &docs.ours());
    assert_eq!(
        documented,
        theirs::compile_with_docs(&cenv, &cactor, &docs.theirs()),
        "compile_with_docs"
    );
    let args = [t(TypeInner::Nat), var("a"), tuple(vec![t(TypeInner::Text)])];
    let cargs: Vec<_> = args.iter().map(convert::ty).collect();
    assert_eq!(
        ours::pp_init_args(env, &args).pretty(80).to_string(),
        theirs::pp_init_args(&cenv, &cargs).pretty(80).to_string()
    );
    documented
}

// ---- cases ------------------------------------------------------------------------------

#[test]
fn every_primitive() {
    for p in primitives() {
        let ty = t(p.clone());
        same_type(&ty);
        same_type(&opt(ty.clone()));
        same_type(&vec_of(ty.clone()));
        same_type(&tuple(vec![ty.clone()]));
        same_type(&record(vec![named("f", ty.clone())]));
        same_type(&variant(vec![named("c", ty.clone())]));
    }
    // `vec nat8` is `blob`; through an alias it is not.
    assert_eq!(vec_of(t(TypeInner::Nat8)).to_string(), "blob");
    same_type(&vec_of(var("nat8")));
    same_type(&opt(vec_of(t(TypeInner::Nat8))));
}

#[test]
fn records_variants_and_tuples() {
    use TypeInner::*;
    let cases = vec![
        record(vec![]),
        variant(vec![]),
        tuple(vec![]),
        tuple(vec![t(Nat), t(Text)]),
        tuple(vec![tuple(vec![t(Nat)]), record(vec![])]),
        // Labels 0 and 1 written as ids: still a tuple.
        record(vec![
            field(Label::Id(0), t(Nat)),
            field(Label::Id(1), t(Int)),
        ]),
        // Not a tuple: ids do not start at 0, or skip one.
        record(vec![field(Label::Id(1), t(Nat))]),
        record(vec![
            field(Label::Unnamed(0), t(Nat)),
            field(Label::Unnamed(2), t(Int)),
        ]),
        record(vec![
            field(Label::Id(1_136_829_802), t(Nat)),
            field(Label::Id(u32::MAX), t(Text)),
            field(Label::Id(999), t(Bool)),
            field(Label::Id(1000), t(Bool)),
        ]),
        variant(vec![
            named("ok", t(Null)),
            named("err", t(Text)),
            named("maybe", var("null")),
            field(Label::Id(42), t(Null)),
            field(Label::Unnamed(7), t(Nat)),
        ]),
        record(vec![
            named(
                "inner",
                record(vec![named("x", variant(vec![named("a", t(Null))]))]),
            ),
            named("list", vec_of(opt(record(vec![named("head", t(Nat))])))),
            named("pair", tuple(vec![vec_of(t(Nat8)), opt(t(Principal))])),
        ]),
        variant(vec![
            named(
                "Transfer",
                record(vec![named("to", t(Principal)), named("amount", t(Nat))]),
            ),
            named("Approve", tuple(vec![t(Principal), t(Nat64)])),
            named("Burn", t(Null)),
        ]),
    ];
    for ty in &cases {
        same_type(ty);
    }
}

#[test]
fn long_types_wrap_at_80_columns() {
    use TypeInner::*;
    let wide = |n: usize, prefix: &str| -> std::vec::Vec<Field> {
        (0..n)
            .map(|i| named(&format!("{prefix}_field_number_{i}"), t(Nat64)))
            .collect()
    };
    let long = record(wide(8, "account"));
    assert!(long.to_string().contains('\n'), "{long}");
    let cases = vec![
        long.clone(),
        variant(wide(12, "case")),
        tuple((0..30).map(|_| t(Principal)).collect()),
        record(vec![
            named("a", long.clone()),
            named("b", variant(wide(3, "v"))),
            named("c", opt(vec_of(long.clone()))),
        ]),
        func_ty(
            vec![long.clone(), t(Text)],
            vec![long.clone()],
            vec![FuncMode::Query],
        ),
        func_ty(
            (0..12)
                .map(|i| var(&format!("argument_type_{i}")))
                .collect(),
            (0..12).map(|i| var(&format!("result_type_{i}"))).collect(),
            vec![FuncMode::CompositeQuery],
        ),
        service(vec![
            ("get", func_ty(vec![long.clone()], vec![], vec![])),
            (
                "put",
                func_ty(vec![t(Text); 20], vec![t(Nat); 20], vec![FuncMode::Oneway]),
            ),
        ]),
        // Exactly around the limit: one record per length, 70 to 90 columns flat.
        record(vec![named(&"x".repeat(60), t(Nat))]),
    ];
    for ty in &cases {
        same_type(ty);
    }
    for n in 50..75 {
        same_type(&record(vec![
            named(&"y".repeat(n), t(Nat)),
            named("z", t(Int)),
        ]));
        same_type(&variant(vec![named(&"y".repeat(n), t(Null))]));
    }
}

#[test]
fn labels_that_need_quotes() {
    use TypeInner::*;
    let names = tricky_names();
    for name in &names {
        same_type(&record(vec![named(name, t(Nat))]));
        same_type(&variant(vec![named(name, t(Null)), named(name, t(Text))]));
        same_type(&service(vec![(name, func_ty(vec![], vec![], vec![]))]));
        same_type(&var(name));
        let l = Label::Named(name.clone());
        let cl = convert::label(&l);
        assert_eq!(
            ours::pp_label_raw(&l).pretty(80).to_string(),
            theirs::pp_label_raw(&cl).pretty(80).to_string()
        );
        assert_eq!(
            ours::pp_label(&Rc::new(l.clone())).pretty(80).to_string(),
            theirs::pp_label(&Rc::new(cl)).pretty(80).to_string()
        );
        assert_eq!(
            ours::pp_text(name).pretty(80).to_string(),
            theirs::pp_text(name).pretty(80).to_string()
        );
        assert_eq!(
            ours::is_valid_as_id(name),
            theirs::is_valid_as_id(name),
            "{name:?}"
        );
    }
    // All of them in one record, so unicode widths count towards line breaking.
    let all = names.iter().map(|n| named(n, t(Nat))).collect();
    same_type(&record(all));
    for n in [
        0,
        1,
        12,
        123,
        1234,
        12345,
        1_000_000,
        1_136_829_802,
        u32::MAX,
    ] {
        for l in [Label::Id(n), Label::Unnamed(n)] {
            assert_eq!(
                ours::pp_label_raw(&l).pretty(80).to_string(),
                theirs::pp_label_raw(&convert::label(&l))
                    .pretty(80)
                    .to_string()
            );
        }
    }
}

#[test]
fn functions_services_and_classes() {
    use FuncMode::*;
    use TypeInner::*;
    let modes = [
        vec![],
        vec![Query],
        vec![Oneway],
        vec![CompositeQuery],
        vec![Query, Oneway],
    ];
    for m in &modes {
        same_type(&func_ty(vec![], vec![], m.clone()));
        same_type(&func_ty(vec![t(Nat)], vec![t(Text), var("t")], m.clone()));
        for mode in m {
            assert_eq!(
                ours::pp_mode(mode).pretty(80).to_string(),
                theirs::pp_mode(&convert::mode(mode)).pretty(80).to_string()
            );
        }
    }
    let serv = service(vec![
        ("f", func_ty(vec![t(Nat)], vec![], vec![Query])),
        ("g", var("method_type")),
        (
            "h",
            func_ty(
                vec![service(vec![])],
                vec![func_ty(vec![], vec![], vec![])],
                vec![],
            ),
        ),
    ]);
    same_type(&serv);
    same_type(&service(vec![]));
    same_type(&opt(serv.clone()));
    same_type(&record(vec![named(
        "callback",
        func_ty(vec![], vec![], vec![Oneway]),
    )]));
    same_type(&t(Class(vec![t(Nat), t(Text)], serv.clone())));
    same_type(&t(Class(vec![], var("S"))));
}

/// Types the printer cannot show as Candid text: candid panics on them (a service
/// method that is not a function, a class whose body is not a service), candor
/// prints the type as it is. Both properties are pinned here.
#[test]
fn shapes_candid_rejects_print_without_panicking() {
    use TypeInner::*;
    let odd_method = service(vec![("m", t(Nat))]);
    assert_eq!(odd_method.to_string(), "service { m : nat }");
    let odd_class = t(Class(vec![t(Nat)], t(Text)));
    assert_eq!(odd_class.to_string(), "(nat) -> text");
    assert_eq!(
        ours::compile(&TypeEnv::new(), &Some(t(Nat))),
        "service : nat"
    );
    for ty in [odd_method, odd_class] {
        let c = convert::ty(&ty);
        assert!(std::panic::catch_unwind(|| c.to_string()).is_err());
    }
}

/// A ledger-like environment: recursive and mutually recursive definitions, many
/// definitions, names needing quotes, and every kind of actor.
fn ledger_env() -> TypeEnv {
    use TypeInner::*;
    let mut env = BTreeMap::new();
    let mut def = |name: &str, ty: Type| {
        env.insert(name.to_string(), ty);
    };
    def(
        "Account",
        record(vec![
            named("owner", t(Principal)),
            named("subaccount", opt(var("Subaccount"))),
        ]),
    );
    def("Subaccount", vec_of(t(Nat8)));
    def("Tokens", t(Nat));
    def(
        "TransferArg",
        record(vec![
            named("from_subaccount", opt(var("Subaccount"))),
            named("to", var("Account")),
            named("amount", var("Tokens")),
            named("fee", opt(var("Tokens"))),
            named("memo", opt(vec_of(t(Nat8)))),
            named("created_at_time", opt(t(Nat64))),
        ]),
    );
    def(
        "TransferError",
        variant(vec![
            named("BadFee", record(vec![named("expected_fee", var("Tokens"))])),
            named(
                "BadBurn",
                record(vec![named("min_burn_amount", var("Tokens"))]),
            ),
            named(
                "InsufficientFunds",
                record(vec![named("balance", var("Tokens"))]),
            ),
            named("TooOld", t(Null)),
            named(
                "CreatedInFuture",
                record(vec![named("ledger_time", t(Nat64))]),
            ),
            named("TemporarilyUnavailable", t(Null)),
            named("Duplicate", record(vec![named("duplicate_of", t(Nat))])),
            named(
                "GenericError",
                record(vec![named("error_code", t(Nat)), named("message", t(Text))]),
            ),
        ]),
    );
    def(
        "TransferResult",
        variant(vec![
            named("Ok", var("Tokens")),
            named("Err", var("TransferError")),
        ]),
    );
    def(
        "List",
        opt(record(vec![
            named("head", t(Int)),
            named("tail", var("List")),
        ])),
    );
    def(
        "Tree",
        variant(vec![named("leaf", t(Int)), named("node", var("Forest"))]),
    );
    def("Forest", vec_of(var("Tree")));
    def(
        "Value",
        variant(vec![
            named("Nat", t(Nat)),
            named("Int", t(Int)),
            named("Text", t(Text)),
            named("Blob", vec_of(t(Nat8))),
            named("Array", vec_of(var("Value"))),
            named("Map", vec_of(tuple(vec![t(Text), var("Value")]))),
        ]),
    );
    def(
        "Callback",
        func_ty(vec![var("Value")], vec![], vec![FuncMode::Oneway]),
    );
    def("Notifier", service(vec![("notify", var("Callback"))]));
    def("Pair", tuple(vec![t(Nat), var("List")]));
    def("with space", t(Text));
    for i in 0..40 {
        def(&format!("Generated{i:02}"), tuple(vec![t(Nat16); i % 5]));
    }
    TypeEnv(env)
}

fn ledger_service() -> Type {
    use FuncMode::*;
    use TypeInner::*;
    service(vec![
        (
            "icrc1_balance_of",
            func_ty(vec![var("Account")], vec![var("Tokens")], vec![Query]),
        ),
        (
            "icrc1_transfer",
            func_ty(
                vec![var("TransferArg")],
                vec![var("TransferResult")],
                vec![],
            ),
        ),
        (
            "icrc1_metadata",
            func_ty(
                vec![],
                vec![vec_of(tuple(vec![t(Text), var("Value")]))],
                vec![Query],
            ),
        ),
        (
            "subscribe",
            func_ty(vec![var("Notifier"), var("Callback")], vec![], vec![Oneway]),
        ),
        (
            "composite",
            func_ty(vec![], vec![t(Nat)], vec![CompositeQuery]),
        ),
        ("by_alias", var("Callback")),
        ("type", func_ty(vec![], vec![], vec![])),
        (
            "with space",
            func_ty(
                vec![record(vec![
                    named("long_field_name_number_one", t(Nat)),
                    named("long_field_name_number_two", t(Nat)),
                ])],
                vec![],
                vec![],
            ),
        ),
    ])
}

fn ledger_docs() -> Docs {
    let field = |docs: &[&str]| FieldDoc {
        docs: lines(docs),
        ty: None,
    };
    let id = |name: &str| candor::idl_hash(name);
    let mut named = BTreeMap::new();
    named.insert(
        "Account".to_string(),
        TypeDoc {
            docs: lines(&[
                "An account: an owner and an optional subaccount.",
                "",
                "See ICRC-1.",
            ]),
            fields: [
                (
                    id("owner"),
                    field(&["The principal that controls the account."]),
                ),
                (id("subaccount"), field(&[])),
            ]
            .into_iter()
            .collect(),
        },
    );
    named.insert(
        "TransferError".to_string(),
        TypeDoc {
            docs: vec![],
            fields: [
                (
                    id("TooOld"),
                    field(&["The transaction is older than the window."]),
                ),
                (
                    id("GenericError"),
                    FieldDoc {
                        docs: lines(&["Anything else."]),
                        ty: Some(Box::new(TypeDoc {
                            docs: lines(&["ignored: inline types have no line of their own"]),
                            fields: [(id("message"), field(&["Human readable."]))]
                                .into_iter()
                                .collect(),
                        })),
                    },
                ),
                (
                    id("BadFee"),
                    FieldDoc {
                        docs: vec![],
                        ty: Some(Box::new(TypeDoc {
                            docs: vec![],
                            fields: [(id("expected_fee"), field(&["What the fee must be."]))]
                                .into_iter()
                                .collect(),
                        })),
                    },
                ),
            ]
            .into_iter()
            .collect(),
        },
    );
    // A tuple with element docs is written with its labels.
    named.insert(
        "Pair".to_string(),
        TypeDoc {
            docs: lines(&["A pair."]),
            fields: [(0, field(&["first"])), (1, field(&["second", "two lines"]))]
                .into_iter()
                .collect(),
        },
    );
    // A type whose doc is empty is not recorded; one not in the environment is unused.
    named.insert("Tokens".to_string(), TypeDoc::default());
    named.insert(
        "Missing".to_string(),
        TypeDoc {
            docs: lines(&["x"]),
            fields: BTreeMap::new(),
        },
    );
    named.insert(
        "Value".to_string(),
        TypeDoc {
            docs: lines(&["unicode: é 日本 🦀", "quote \" and backslash \\"]),
            fields: [
                (id("Array"), field(&[""])),
                (12345, field(&["no such case"])),
            ]
            .into_iter()
            .collect(),
        },
    );
    named.insert(
        "Subaccount".to_string(),
        TypeDoc {
            docs: lines(&["32 bytes"]),
            fields: [(0, field(&["not a record"]))].into_iter().collect(),
        },
    );
    Docs {
        methods: vec![
            (
                "icrc1_transfer".into(),
                lines(&["Moves tokens.", "", "Fails with TransferError."]),
            ),
            ("by_alias".into(), lines(&["A method typed by an alias."])),
            ("type".into(), vec![]),
            ("absent".into(), lines(&["not a method of the service"])),
        ],
        types: TypeDocs { named },
    }
}

#[test]
fn whole_files_with_and_without_docs() {
    use TypeInner::*;
    let env = ledger_env();
    let docs = ledger_docs();
    let serv = ledger_service();
    for actor in [
        None,
        Some(serv.clone()),
        Some(t(Class(vec![var("TransferArg"), t(Nat)], serv.clone()))),
        Some(t(Class(vec![], var("Notifier")))),
        Some(var("Notifier")),
        Some(service(vec![])),
    ] {
        same_file(&env, &actor, &docs);
        same_file(&TypeEnv::new(), &actor, &docs);
        same_file(&env, &actor, &Docs::default());
    }
    let file = same_file(&env, &Some(serv), &docs);
    assert!(
        file.contains(
            "  // Moves tokens.\n  // \n  // Fails with TransferError.\n  icrc1_transfer :"
        ),
        "{file}"
    );
    assert!(
        file.contains("// The principal that controls the account."),
        "{file}"
    );
    for (name, ty) in &env.0 {
        same_type(ty);
        same_type(&var(name));
    }
}

#[test]
fn doc_comment_collection() {
    let mut d = ours::DocComments::empty();
    d.add_type_def("empty".into(), TypeDoc::default());
    assert_eq!(d.lookup_type_def("empty"), None);
    let doc = TypeDoc {
        docs: lines(&["x"]),
        fields: BTreeMap::new(),
    };
    d.add_type_def("t".into(), doc.clone());
    assert_eq!(d.lookup_type_def("t"), Some(&doc));
    d.add_service_method("m".into(), vec![]);
    assert_eq!(d.lookup_service_method("m"), Some(&vec![]));
    assert_eq!(d.lookup_service_method("n"), None);
    assert!(format!("{:?}", ours::DocComments::default()).starts_with("DocComments"));
    for ls in [vec![], lines(&[""]), lines(&["a", "", "b c"])] {
        assert_eq!(
            ours::pp_docs(&ls).pretty(80).to_string(),
            theirs::pp_docs(&ls).pretty(80).to_string()
        );
    }
}

#[test]
fn combinators_match() {
    let words = |n: usize| -> Vec<String> { (0..n).map(|i| format!("word{i}")).collect() };
    for n in [0, 1, 2, 7, 25] {
        let ws = words(n);
        let ours_docs = || ws.iter().map(|w| pretty::RcDoc::text(w.as_str()));
        let theirs_docs = ours_docs;
        for w in WIDTHS {
            let pair = |a: pretty::RcDoc<'_>, b: pretty::RcDoc<'_>| {
                assert_eq!(
                    a.pretty(w).to_string(),
                    b.pretty(w).to_string(),
                    "n {n} width {w}"
                )
            };
            pair(
                our_utils::enclose("(", our_utils::concat(ours_docs(), ","), ")"),
                their_utils::enclose("(", their_utils::concat(theirs_docs(), ","), ")"),
            );
            pair(
                our_utils::enclose_space("{", our_utils::concat(ours_docs(), ";"), "}"),
                their_utils::enclose_space("{", their_utils::concat(theirs_docs(), ";"), "}"),
            );
            pair(
                our_utils::enclose("[", our_utils::strict_concat(ours_docs(), ","), "]"),
                their_utils::enclose("[", their_utils::strict_concat(theirs_docs(), ","), "]"),
            );
            pair(
                our_utils::lines(ours_docs()),
                their_utils::lines(theirs_docs()),
            );
            pair(
                our_utils::sep_enclose(ours_docs(), ",", "(", ")"),
                their_utils::sep_enclose(theirs_docs(), ",", "(", ")"),
            );
            pair(
                our_utils::sep_enclose_space(ours_docs(), ";", "{", "}"),
                their_utils::sep_enclose_space(theirs_docs(), ";", "{", "}"),
            );
            pair(
                our_utils::kwd("record").append(our_utils::ident("x")),
                their_utils::kwd("record").append(their_utils::ident("x")),
            );
        }
    }
    for name in tricky_names() {
        assert_eq!(
            our_utils::quote_ident(&name).pretty(80).to_string(),
            their_utils::quote_ident(&name).pretty(80).to_string()
        );
        assert_eq!(
            our_utils::str(&name).pretty(80).to_string(),
            their_utils::str(&name).pretty(80).to_string()
        );
    }
    assert_eq!(our_utils::INDENT_SPACE, their_utils::INDENT_SPACE);
    assert_eq!(our_utils::LINE_WIDTH, their_utils::LINE_WIDTH);
}

// ---- values -----------------------------------------------------------------------------

fn nf(name: &str, val: IDLValue) -> IDLField {
    IDLField {
        id: Label::Named(name.into()),
        val,
    }
}

fn is_number(v: &IDLValue) -> bool {
    use IDLValue::*;
    matches!(
        v,
        Number(_)
            | Int(_)
            | Nat(_)
            | Nat8(_)
            | Nat16(_)
            | Nat32(_)
            | Nat64(_)
            | Int8(_)
            | Int16(_)
            | Int32(_)
            | Int64(_)
            | Float32(_)
            | Float64(_)
    )
}

fn sample_values() -> Vec<IDLValue> {
    use IDLValue::*;
    let p = candor::Principal::from_text("rrkah-fqaaa-aaaaa-aaaaq-cai").unwrap();
    let rec = Record(vec![
        nf("name", Text("alice".into())),
        nf("balance", Nat(candor::Nat::from(1_234_567_890u64))),
        nf("memo", Opt(Box::new(Nat64(42)))),
        nf("type", Text("keyword label".into())),
        nf("with space", Bool(true)),
    ]);
    let mut deep = Nat8(1);
    for _ in 0..14 {
        deep = Opt(Box::new(Record(vec![nf("inner", deep)])));
    }
    let mut values = vec![
        Bool(false),
        Null,
        None,
        Reserved,
        Text("tab\t quote\" é 日本".into()),
        Number("-12".into()),
        Int(candor::Int::from(-1_234_567i64)),
        Nat(candor::Nat::from(0u8)),
        Nat8(7),
        Nat16(65535),
        Nat32(1_000_000),
        Nat64(u64::MAX),
        Int8(-8),
        Int16(-1234),
        Int32(i32::MIN),
        Int64(i64::MAX),
        Float32(3.0),
        Float32(-0.5),
        Float64(1e21),
        Float64(f64::NAN),
        Float64(f64::NEG_INFINITY),
        Blob(b"printable \" ' ` \\ ok".to_vec()),
        Blob(vec![0, 1, 0xff]),
        Vec(vec![Nat8(1), Nat8(b'a')]),
        Vec((0..10).map(|i| Nat16(i * 1000)).collect()),
        Vec((0..11).map(Int32).collect()),
        Principal(p),
        Service(p),
        Func(p, "method".into()),
        Func(p, "query".into()),
        Opt(Box::new(Nat16(3))),
        Opt(Box::new(Text("x".into()))),
        Opt(Box::new(Null)),
        Record(vec![]),
        Record(vec![
            IDLField {
                id: Label::Unnamed(0),
                val: Nat8(1),
            },
            IDLField {
                id: Label::Unnamed(1),
                val: Text("two".into()),
            },
        ]),
        Record(vec![IDLField {
            id: Label::Id(1_234_567),
            val: Bool(true),
        }]),
        Variant(VariantValue(Box::new(nf("ok", Null)), 0)),
        Variant(VariantValue(Box::new(nf("err", Text("boom".into()))), 1)),
        Variant(VariantValue(
            Box::new(IDLField {
                id: Label::Id(99_999),
                val: Null,
            }),
            3,
        )),
        rec.clone(),
        Vec(vec![rec.clone(); 4]),
        Opt(Box::new(Vec(vec![rec; 3]))),
        deep,
    ];
    values.push(Record(
        tricky_names()
            .into_iter()
            .map(|n| nf(&n, Nat8(0)))
            .collect(),
    ));
    values
}

#[test]
fn values_match() {
    use candid::pretty::candid::value as their_value;
    use candor::pretty::candid::value as our_value;
    let values = sample_values();
    for v in &values {
        let c = convert::value(v);
        for depth in [0, 1, 2, 10] {
            for w in WIDTHS {
                assert_eq!(
                    our_value::pp_value(depth, v).pretty(w).to_string(),
                    their_value::pp_value(depth, &c).pretty(w).to_string(),
                    "depth {depth} width {w} of {v:?}"
                );
            }
        }
        // candor's own Display of values is the same text.
        assert_eq!(
            v.to_string(),
            our_value::pp_value(10, v).pretty(80).to_string()
        );
        if is_number(v) {
            assert_eq!(
                our_value::number_to_string(v),
                their_value::number_to_string(&c)
            );
        }
    }
    let args = IDLArgs::new(&values);
    for some in [&values[..0], &values[..1], &values[..3], &values[..]] {
        let a = IDLArgs::new(some);
        assert_eq!(
            our_value::pp_args(&a).pretty(80).to_string(),
            their_value::pp_args(&convert::args(&a))
                .pretty(80)
                .to_string()
        );
    }
    assert_eq!(
        args.to_string(),
        our_value::pp_args(&args).pretty(80).to_string()
    );
    for b in 0..=u8::MAX {
        assert_eq!(our_value::pp_char(b), their_value::pp_char(b), "byte {b}");
    }
}

// ---- random types -----------------------------------------------------------------------

/// A label: mostly names from a pool with every quoting rule, some numeric.
fn arb_label() -> impl Strategy<Value = Label> {
    let names = tricky_names();
    prop_oneof![
        4 => proptest::sample::select(names).prop_map(Label::Named),
        1 => "[a-z_][a-z0-9_]{0,30}".prop_map(Label::Named),
        1 => any::<u32>().prop_map(Label::Id),
        1 => (0u32..4).prop_map(Label::Unnamed),
    ]
}

fn arb_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(vec!["A", "list", "Tree_node", "t0", "text", "with space"])
            .prop_map(String::from),
        1 => "[A-Za-z][A-Za-z0-9_]{0,20}",
    ]
}

fn arb_mode() -> impl Strategy<Value = Vec<FuncMode>> {
    prop_oneof![
        Just(vec![]),
        Just(vec![FuncMode::Query]),
        Just(vec![FuncMode::Oneway]),
        Just(vec![FuncMode::CompositeQuery]),
    ]
}

fn arb_func(ty: impl Strategy<Value = Type> + Clone) -> impl Strategy<Value = Function> {
    (
        proptest::collection::vec(ty.clone(), 0..4),
        proptest::collection::vec(ty, 0..3),
        arb_mode(),
    )
        .prop_map(|(args, rets, modes)| Function { modes, args, rets })
}

fn arb_type() -> impl Strategy<Value = Type> {
    let leaf = prop_oneof![
        4 => proptest::sample::select(primitives()).prop_map(t),
        1 => arb_name().prop_map(|n| var(&n)),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        let fields = proptest::collection::vec((arb_label(), inner.clone()), 0..8)
            .prop_map(|fs| {
                fs.into_iter()
                    .map(|(l, ty)| field(l, ty))
                    .collect::<Vec<_>>()
            })
            .boxed();
        let method = prop_oneof![
            3 => arb_func(inner.clone()).prop_map(|f| t(TypeInner::Func(f))),
            1 => arb_name().prop_map(|n| var(&n)),
        ];
        prop_oneof![
            inner.clone().prop_map(opt),
            inner.clone().prop_map(vec_of),
            fields.clone().prop_map(record),
            fields.prop_map(variant),
            proptest::collection::vec(inner.clone(), 0..6).prop_map(tuple),
            arb_func(inner.clone()).prop_map(|f| t(TypeInner::Func(f))),
            proptest::collection::vec((proptest::sample::select(tricky_names()), method), 0..5)
                .prop_map(|ms| t(TypeInner::Service(ms))),
        ]
    })
}

/// Doc comments for a type, keyed by its own field ids where it has fields, with
/// the comments of inline records and variants one level down.
fn arb_type_doc(ty: &Type, depth: u32) -> BoxedStrategy<TypeDoc> {
    let docs = proptest::collection::vec("[ -~]{0,12}|é日本", 0..3);
    let fields: Vec<Field> = match ty.as_ref() {
        TypeInner::Record(fs) | TypeInner::Variant(fs) => fs.clone(),
        _ => vec![],
    };
    let per_field: Vec<BoxedStrategy<Option<(u32, FieldDoc)>>> = fields
        .iter()
        .map(|f| {
            let id = f.id.get_id();
            let inline = if depth > 0 {
                proptest::option::of(arb_type_doc(&f.ty, depth - 1).prop_map(Box::new)).boxed()
            } else {
                Just(None).boxed()
            };
            proptest::option::of(
                (proptest::collection::vec("[ -~]{0,10}", 0..3), inline)
                    .prop_map(move |(docs, ty)| (id, FieldDoc { docs, ty })),
            )
            .boxed()
        })
        .collect();
    (docs, per_field)
        .prop_map(|(docs, fields)| TypeDoc {
            docs,
            fields: fields.into_iter().flatten().collect(),
        })
        .boxed()
}

/// An environment of random definitions, a service over them, and random docs.
fn arb_file() -> impl Strategy<Value = (TypeEnv, Option<Type>, Docs)> {
    let defs = proptest::collection::btree_map(arb_name(), arb_type(), 0..8);
    let actor = proptest::option::of(prop_oneof![
        3 => arb_type().prop_filter_map("a service", |t| match t.as_ref() {
            TypeInner::Service(_) => Some(t),
            _ => None,
        }),
        1 => arb_name().prop_map(|n| var(&n)),
    ]);
    (defs, actor).prop_flat_map(|(defs, actor)| {
        let type_docs: Vec<_> = defs
            .iter()
            .map(|(name, ty)| {
                let name = name.clone();
                arb_type_doc(ty, 2).prop_map(move |d| (name.clone(), d))
            })
            .collect();
        let methods: Vec<String> = match actor.as_ref().map(|a| a.as_ref()) {
            Some(TypeInner::Service(ms)) => ms.iter().map(|(n, _)| n.clone()).collect(),
            _ => vec![],
        };
        let method_docs = methods
            .into_iter()
            .map(|m| {
                proptest::option::of(
                    proptest::collection::vec("[ -~]{0,10}", 0..3)
                        .prop_map(move |d| (m.clone(), d)),
                )
            })
            .collect::<Vec<_>>();
        let env = TypeEnv(defs);
        (Just(env), Just(actor), type_docs, method_docs).prop_map(|(env, actor, types, methods)| {
            let docs = Docs {
                methods: methods.into_iter().flatten().collect(),
                types: TypeDocs {
                    named: types.into_iter().collect(),
                },
            };
            (env, actor, docs)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_types_print_as_candid_prints_them(ty in arb_type()) {
        same_type(&ty);
    }

    #[test]
    fn random_files_print_as_candid_prints_them((env, actor, docs) in arb_file()) {
        same_file(&env, &actor, &docs);
    }
}
