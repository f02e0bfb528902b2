//! Text values, `.did` files and their errors.

use candor::types::{Label, Type, TypeEnv, TypeInner};
use candor::{IDLArgs, IDLField, IDLValue, VariantValue};
use candor_parser::{check_prog, parse_idl_args, parse_idl_value, IDLProg};

fn field(name: &str, val: IDLValue) -> IDLField {
    IDLField {
        id: Label::Named(name.into()),
        val,
    }
}

/// One value of every shape, with every numeric type.
fn sample_values() -> Vec<IDLValue> {
    use IDLValue::*;
    let p = candor::Principal::from_text("w7x7r-cok77-xa").unwrap();
    vec![
        Bool(true),
        Bool(false),
        Null,
        Reserved,
        // (`None` prints as `null`, which reads back as `Null`: the type says which.)
        Text("hello \"world\"\n\t\\ é 🎉 \u{7f}".into()),
        Text(String::new()),
        Nat(candor::Nat::from(
            123_456_789_012_345_678_901_234_567_890u128,
        )),
        Int(candor::Int::from(-42i64)),
        Int(candor::Int::from(0i64)),
        Nat8(255),
        Nat16(65535),
        Nat32(1 << 31),
        Nat64(u64::MAX),
        Int8(-128),
        Int16(-32768),
        Int32(i32::MIN),
        Int64(i64::MIN),
        Float32(1.5),
        Float64(-0.25),
        Float64(1e300),
        Float64(3.0),
        Opt(Box::new(Nat8(1))),
        Opt(Box::new(Opt(Box::new(Null)))),
        Vec(vec![Int8(1), Int8(-1)]),
        Vec(vec![]),
        Blob(vec![0, 1, 0xde, 0xad, b'a', b'"', b'\\']),
        Record(vec![]),
        Record(vec![
            IDLField {
                id: Label::Unnamed(0),
                val: Nat8(1),
            },
            IDLField {
                id: Label::Unnamed(1),
                val: Text("x".into()),
            },
        ]),
        Record(vec![
            IDLField {
                id: Label::Id(5),
                val: Nat16(7),
            },
            field("a", Bool(true)),
            field("long field name", Null),
        ]),
        Variant(VariantValue(Box::new(field("ok", Nat32(3))), 0)),
        Variant(VariantValue(Box::new(field("none", Null)), 0)),
        Principal(p),
        Service(p),
        Func(p, "method".into()),
        Func(p, "odd name".into()),
    ]
}

fn sort_record(v: IDLValue) -> IDLValue {
    match v {
        IDLValue::Record(mut fs) => {
            fs.sort_by_key(|f| f.id.get_id());
            IDLValue::Record(fs)
        }
        v => v,
    }
}

#[test]
fn values_round_trip_through_display() {
    for v in sample_values() {
        let v = sort_record(v);
        // Display annotates some values at the top level (`null : reserved`), which
        // only an argument list accepts.
        let text = format!("({v})");
        let back = parse_idl_args(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.args, std::slice::from_ref(&v), "{text}");
        // And as an argument list.
        let args = IDLArgs::new(&[v.clone(), v.clone()]);
        let text = args.to_string();
        let back = parse_idl_args(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, args, "{text}");
    }
}

#[test]
fn numbers() {
    use IDLValue::*;
    let args =
        parse_idl_args("(1_000, -5, +7, 0xff, 0XfF_00, -0x10, 1.5, .5, 1., 1e3, 2.5E-1, -1_0.0_1)")
            .unwrap();
    assert_eq!(
        args.args,
        vec![
            Number("1000".into()),
            Number("-5".into()),
            Number("7".into()),
            Number("255".into()),
            Number("65280".into()),
            Number("-16".into()),
            Float64(1.5),
            Float64(0.5),
            Float64(1.0),
            Float64(1000.0),
            Float64(0.25),
            Float64(-10.01),
        ]
    );
    // A float's digit runs take `_` between two digits only (the spec's `<num>`); an
    // integer takes them anywhere after its first digit (candid_parser's lexer).
    let floats = parse_idl_args("(1_000.5, 1e1_0, 2_5E-0_1, 1_, 1__0)").unwrap();
    assert_eq!(
        floats.args,
        vec![
            Float64(1000.5),
            Float64(1e10),
            Float64(2.5),
            Number("1".into()),
            Number("10".into()),
        ]
    );
    for text in ["(1e5_)", "(1.0__1)", "(1._5)", "(.5e3)", "(1_.5)", "(1e_5)"] {
        assert!(parse_idl_args(text).is_err(), "{text} parsed");
    }
    // Hex beyond 128 bits.
    let v = parse_idl_value("0x1_0000_0000_0000_0000_0000_0000_0000_0000").unwrap();
    assert_eq!(v, Number("340282366920938463463374607431768211456".into()));
}

#[test]
fn annotations_apply_the_type() {
    use IDLValue::*;
    let args = parse_idl_args(
        "(1 : nat8, -1 : int16, 5 : nat, 5 : int, 1.5 : float32, opt (3 : nat64), vec { 1; 2 } : vec int8, \
         vec { 1; 2 } : blob, null : opt text, record { 1; 2 } : record { nat8; nat16 }, (7) : nat32)",
    )
    .unwrap();
    assert_eq!(
        args.args,
        vec![
            Nat8(1),
            Int16(-1),
            Nat(5u8.into()),
            Int(5i8.into()),
            Float32(1.5),
            Opt(Box::new(Nat64(3))),
            Vec(vec![Int8(1), Int8(2)]),
            Blob(vec![1, 2]),
            None,
            Record(vec![
                IDLField {
                    id: Label::Unnamed(0),
                    val: Nat8(1)
                },
                IDLField {
                    id: Label::Unnamed(1),
                    val: Nat16(2)
                },
            ]),
            Nat32(7),
        ]
    );
    assert!(parse_idl_args("(256 : nat8)").is_err());
    assert!(parse_idl_args("(-1 : nat)").is_err());
}

#[test]
fn text_escapes() {
    let v = parse_idl_value(r#""a\nb\rc\td\\e\"f\'g\u{1F600}\u{10_FFFF}\41\c3\a9""#).unwrap();
    assert_eq!(v, IDLValue::Text("a\nb\rc\td\\e\"f'g😀\u{10FFFF}Aé".into()));
    let v = parse_idl_value(r#"blob "\de\ad\be\ef\00z""#).unwrap();
    assert_eq!(v, IDLValue::Blob(vec![0xde, 0xad, 0xbe, 0xef, 0, b'z']));
    // Byte escapes that are not UTF-8 are fine in a blob, an error in a text.
    assert!(parse_idl_value(r#"blob "\ff""#).is_ok());
    assert!(parse_idl_value(r#""\ff""#).is_err());
    assert!(parse_idl_value(r#""\u{D800}""#).is_err());
    assert!(parse_idl_value(r#""\u{110000}""#).is_err());
    assert!(parse_idl_value(r#""\q""#).is_err());
}

#[test]
fn records_and_variants() {
    use IDLValue::*;
    // Positional fields continue after the previous field's id.
    let v = parse_idl_value("record { 5 = 1; 2; \"a\" = true; 0x10 = null; x }").unwrap_err();
    assert!(v.to_string().contains("expected `=`"), "{v}");
    let v = parse_idl_value("record { 5 = true; false; a = null; }").unwrap();
    assert_eq!(
        v,
        Record(vec![
            IDLField {
                id: Label::Id(5),
                val: Bool(true)
            },
            IDLField {
                id: Label::Unnamed(6),
                val: Bool(false)
            },
            field("a", Null),
        ])
    );
    let v = parse_idl_value("variant { 3 }").unwrap();
    assert_eq!(
        v,
        Variant(VariantValue(
            Box::new(IDLField {
                id: Label::Id(3),
                val: Null
            }),
            0
        ))
    );
    let v = parse_idl_value("variant { \"a b\" = 1 : int8 }").unwrap();
    assert_eq!(v, Variant(VariantValue(Box::new(field("a b", Int8(1))), 0)));
    // Comments anywhere, nested block comments.
    let v = parse_idl_args("( // one\n 1 /* two /* nested */ */ , /**/ 2 )").unwrap();
    assert_eq!(v.args, vec![Number("1".into()), Number("2".into())]);
}

fn err(r: Result<impl std::fmt::Debug, candor_parser::Error>) -> String {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn value_error_messages() {
    assert_eq!(
        err(parse_idl_args("(1, 2")),
        "Candid parser error: 1:6: expected `,` or `)`, found end of input\n(1, 2\n     ^"
    );
    assert_eq!(
        err(parse_idl_args("(\n  record { a = 1; b = 2; a = 3 }\n)")),
        "Candid parser error: 2:26: label 'a' hash collision with 'a'\n  record { a = 1; b = 2; a = 3 }\n                         ^^^^^"
    );
    assert_eq!(
        err(parse_idl_args("(principal \"not a principal\")")),
        "Candid parser error: 1:12: Text must be in valid Base32 encoding.\n(principal \"not a principal\")\n           ^^^^^^^^^^^^^^^^^"
    );
    assert_eq!(
        err(parse_idl_value("\"abc")),
        "Candid parser error: 1:1: unclosed string\n\"abc\n^"
    );
    assert_eq!(
        err(parse_idl_value("\"a\\qb\"")),
        "Candid parser error: 1:3: unknown escape character `\\q`\n\"a\\qb\"\n  ^^"
    );
    assert_eq!(
        err(parse_idl_args("(300 : nat8)")),
        "Candid parser error: 1:2: number too large to fit in target type\n(300 : nat8)\n ^^^"
    );
    assert_eq!(
        err(parse_idl_args("(1 : foo)")),
        "Candid parser error: 1:6: Unbound type identifier foo\n(1 : foo)\n     ^^^"
    );
    assert_eq!(
        err(parse_idl_args("(1 # 2)")),
        "Candid parser error: 1:4: unknown token `#`\n(1 # 2)\n   ^"
    );
    assert_eq!(
        err(parse_idl_args("(/* open")),
        "Candid parser error: 1:2: unclosed comment\n(/* open\n ^^"
    );
}

const DID: &str = r#"
// The ledger.
import "other.did";
type Tokens = record { e8s : nat64 };
/// A transfer.
type Transfer = record {
  to : principal;
  // How much.
  amount : Tokens;
  "memo text" : opt text;
  0x10 : blob;
};
type Result = variant { Ok : nat; Err : text; Unknown };
type List = opt record { head : int; tail : List };
type Cb = func (nat) -> () oneway;
service : (init : record { owner : principal }) -> {
  transfer : (Transfer) -> (Result);
  balance : (principal) -> (Tokens) query;
  "odd name" : (vec List) -> (Cb) composite_query;
  callback : Cb;
}
"#;

#[test]
fn did_file() {
    let prog: IDLProg = DID.parse().unwrap();
    assert_eq!(prog.decs.len(), 6);
    let mut env = TypeEnv::new();
    let actor = check_prog(&mut env, &prog).unwrap().unwrap();
    assert_eq!(env.0.len(), 5);
    let TypeInner::Class(args, serv) = actor.as_ref() else {
        panic!("{actor}")
    };
    assert_eq!(args.len(), 1);
    let TypeInner::Service(ms) = serv.as_ref() else {
        panic!("{serv}")
    };
    let names: Vec<&str> = ms.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["balance", "callback", "odd name", "transfer"]);
    let transfer = env.find_type("Transfer").unwrap();
    assert_eq!(
        transfer.to_string(),
        "record { 16 : blob; to : principal; \"memo text\" : opt text; amount : Tokens }"
    );
    // Doc comments: the line comments right above a definition or field.
    let transfer = binding(&prog, "Transfer");
    assert_eq!(transfer.docs, ["/ A transfer."]);
    let candor_parser::IDLType::RecordT(fs) = &transfer.typ else {
        panic!()
    };
    let amount = fs
        .iter()
        .find(|f| f.label == Label::Named("amount".into()))
        .unwrap();
    assert_eq!(amount.docs, ["How much."]);
}

/// Which line comments become doc comments: those right above a definition, field
/// or method (at the very start of the file too, after indentation), not a remark at
/// the end of the previous token's line, not one separated by a blank line, and not
/// one above a token that takes no docs.
#[test]
fn doc_comment_placement() {
    let src = "  // first\n\
        type a = nat; // trailing remark\n\
        type b = record {\n\
          // field x\n\
          x : nat; // after x\n\
          y : /* inline */ nat;\n\
        };\n\
        // detached\n\
        \n\
        type c = text;\n\
        // on service\n\
        service : {\n\
          // method m\n\
          m : () -> ();\n\
        }";
    let prog: IDLProg = src.parse().unwrap();
    let docs = |name: &str| binding(&prog, name).docs.clone();
    assert_eq!(docs("a"), ["first"]);
    assert!(docs("b").is_empty(), "{:?}", docs("b"));
    assert!(docs("c").is_empty(), "{:?}", docs("c"));
    let b = binding(&prog, "b");
    let candor_parser::IDLType::RecordT(fs) = &b.typ else {
        panic!()
    };
    let field = |n: &str| {
        fs.iter()
            .find(|f| f.label == Label::Named(n.into()))
            .unwrap()
            .docs
            .clone()
    };
    assert_eq!(field("x"), ["field x"]);
    assert!(field("y").is_empty(), "{:?}", field("y"));
    let actor = prog.actor.as_ref().unwrap();
    assert_eq!(actor.docs, ["on service"]);
    let candor_parser::IDLType::ServT(ms) = &actor.typ else {
        panic!()
    };
    assert_eq!(ms[0].docs, ["method m"]);
}

/// The type definition `name` of `prog`.
fn binding<'a>(prog: &'a IDLProg, name: &str) -> &'a candor_parser::syntax::Binding {
    prog.decs
        .iter()
        .find_map(|d| match d {
            candor_parser::syntax::Dec::TypD(b) if b.id == name => Some(b),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no definition of {name}"))
}

fn check(src: &str) -> Result<(TypeEnv, Option<Type>), candor_parser::Error> {
    let prog: IDLProg = src.parse()?;
    let mut env = TypeEnv::new();
    let t = check_prog(&mut env, &prog)?;
    Ok((env, t))
}

/// A field or argument that starts with an identifier is a name when a colon follows,
/// else a type name (told apart without lexing ahead twice): unnamed fields take the
/// next position after the field before them, named ones their hash.
#[test]
fn names_and_type_names_in_fields_and_arguments() {
    let mut env = TypeEnv::new();
    let prog: IDLProg = "type foo = text;\n\
        type r = record { nat; amount : nat; foo; text; memo : foo; principal };\n\
        type v = variant { foo; bar : foo };\n\
        type f = func (nat, x : foo, foo, \"y\" : int) -> (r : foo, foo) query;\n\
        service : { m : (foo, n : nat) -> () }"
        .parse()
        .unwrap();
    check_prog(&mut env, &prog).unwrap();
    let TypeInner::Record(fields) = env.0["r"].as_ref() else {
        panic!("not a record: {}", env.0["r"]);
    };
    let got: Vec<(u32, String)> = fields
        .iter()
        .map(|f| (f.id.get_id(), f.ty.to_string()))
        .collect();
    let amount = Label::Named("amount".into()).get_id();
    let memo = Label::Named("memo".into()).get_id();
    let mut want = vec![
        (0, "nat".to_string()),
        (amount, "nat".into()),
        (amount + 1, "foo".into()),
        (amount + 2, "text".into()),
        (memo, "foo".into()),
        (memo + 1, "principal".into()),
    ];
    want.sort();
    assert_eq!(got, want);
    assert_eq!(
        env.0["f"].to_string(),
        "func (nat, foo, foo, int) -> (foo, foo) query"
    );
    assert_eq!(env.0["v"].to_string(), "variant { bar : foo; foo }");
}

/// Definitions already in the environment are visible to the next program, and cannot
/// be defined again (the checker looks names up in the environment and in the
/// program's own bindings, without a merged copy).
#[test]
fn definitions_already_in_the_environment() {
    let mut env = TypeEnv::new();
    let first: IDLProg = "type a = nat; type b = vec a;".parse().unwrap();
    check_prog(&mut env, &first).unwrap();
    let second: IDLProg = "type c = record { x : a; y : b; z : c2 }; type c2 = opt c;"
        .parse()
        .unwrap();
    check_prog(&mut env, &second).unwrap();
    assert_eq!(env.0.len(), 4);
    assert_eq!(env.0["c"].to_string(), "record { x : a; y : b; z : c2 }");
    let again: IDLProg = "type d = text; type a = int;".parse().unwrap();
    assert_eq!(
        err(check_prog(&mut env, &again)),
        "Candid parser error: 1:21: duplicate binding for a\ntype d = text; type a = int;\n                    ^"
    );
    let unknown: IDLProg = "type e = f;".parse().unwrap();
    assert!(check_prog(&mut env, &unknown).is_err());
}

/// Cycles of aliases are found wherever a chain runs into one, also past chains
/// already known to end; a long chain is walked once (each alias is not walked to
/// the chain's end again), so 20,000 aliases check at once.
#[test]
fn alias_cycles_behind_chains() {
    let ends = "type a = b; type b = c; type c = nat; type d = b;";
    assert!(check(ends).is_ok());
    assert_eq!(
        err(check(&format!("{ends}\ntype e = f; type f = g; type g = f;"))),
        "Candid parser error: 2:6: e has cyclic type definition\ntype e = f; type f = g; type g = f;\n     ^"
    );
    let chain = |n: usize, last: &str| {
        let mut src = format!("type t0 = {last};\n");
        for i in 1..n {
            src.push_str(&format!("type t{i} = t{};\n", i - 1));
        }
        src
    };
    let n = 20_000;
    assert!(check(&chain(n, &format!("vec t{}", n - 1))).is_ok());
    let cyclic = err(check(&chain(n, &format!("t{}", n - 1))));
    assert!(cyclic.contains("has cyclic type definition"), "{cyclic}");
}

#[test]
fn did_error_messages() {
    assert_eq!(
        err(check("type a = nat;\ntype b = record { x : a; y : c };")),
        "Candid parser error: 2:30: Unbound type identifier c\ntype b = record { x : a; y : c };\n                             ^"
    );
    assert_eq!(
        err(check("type t = u;\ntype u = t;")),
        "Candid parser error: 1:6: t has cyclic type definition\ntype t = u;\n     ^"
    );
    assert_eq!(
        err(check("type t = t;")),
        "Candid parser error: 1:6: t has cyclic type definition\ntype t = t;\n     ^"
    );
    assert_eq!(
        err(check("type t = nat;\ntype t = int;")),
        "Candid parser error: 2:6: duplicate binding for t\ntype t = int;\n     ^"
    );
    assert_eq!(
        err(check("type r = record { a : nat; b : nat; a : int };")),
        "Candid parser error: 1:37: label 'a' hash collision with 'a'\ntype r = record { a : nat; b : nat; a : int };\n                                    ^^^^^^^"
    );
    // Two different names with the same hash.
    assert_eq!(
        err(check("type r = variant { dnctwrq; sbusnjd };")),
        "Candid parser error: 1:29: label 'sbusnjd' hash collision with 'dnctwrq'\ntype r = variant { dnctwrq; sbusnjd };\n                            ^^^^^^^"
    );
    assert_eq!(
        err(check("service : { f : (nat) -> (); f : () -> () }")),
        "Candid parser error: 1:30: duplicate method name `f`\nservice : { f : (nat) -> (); f : () -> () }\n                             ^"
    );
    assert_eq!(
        err(check("type n = nat;\nservice : {\n  f : n;\n}")),
        "Candid parser error: 3:3: method f is a non-function type\n  f : n;\n  ^"
    );
    assert_eq!(
        err(check("service : {\n  f : (nat) -> (nat) oneway;\n}")),
        "Candid parser error: 2:3: oneway function has non-unit return type\n  f : (nat) -> (nat) oneway;\n  ^^^^^^^^^^^^^^^^^^^^^^^^^"
    );
    assert_eq!(
        err(check("type s = nat;\nservice : s")),
        "Candid parser error: 2:11: s is not a service type\nservice : s\n          ^"
    );
    assert_eq!(
        err(check("type a = record {\n\tx : vec vec\n}")),
        "Candid parser error: 3:1: expected a type, found `}`\n}\n^"
    );
    assert_eq!(
        err(check("type a = nat\ntype b = nat;")),
        "Candid parser error: 2:1: expected `type`, `import`, `service` or end of input, found `type`\ntype b = nat;\n^^^^"
    );
}

#[test]
fn did_accepts_forward_references_and_recursion() {
    let (env, actor) = check(
        "type tree = variant { leaf : int; node : record { tree; tree } };\n\
         type a = b; type b = opt a;\n\
         service s : { get : () -> (tree) query; self : () -> (service { get : () -> (tree) query }) }",
    )
    .unwrap();
    assert!(actor.is_some());
    assert_eq!(env.0.len(), 3);
}

#[test]
fn imports_from_a_loader() {
    use candor_parser::loader::check_file_with_loader;
    use std::path::Path;
    let files = [
        ("/d/main.did", "import \"lib/a.did\"; import service \"svc.did\"; type m = a; service : { m : (m) -> () }"),
        ("/d/lib/a.did", "import \"../common.did\"; type a = record { c : common };"),
        ("/d/common.did", "type common = nat;"),
        ("/d/svc.did", "import \"common.did\"; service : { extra : (common) -> () }"),
        ("/d/cyc1.did", "import \"cyc2.did\"; type x = nat;"),
        ("/d/cyc2.did", "import \"./cyc1.did\"; type y = nat;"),
        ("/d/missing.did", "type q = nat;\nimport \"nope.did\";"),
    ];
    let mut loader = |p: &Path| {
        files
            .iter()
            .find(|(n, _)| Path::new(n) == p)
            .map(|(_, s)| s.to_string())
            .ok_or_else(|| candor_parser::Error::msg("no such file"))
    };
    let (env, actor, _) = check_file_with_loader(Path::new("/d/main.did"), &mut loader).unwrap();
    assert_eq!(
        env.0.keys().cloned().collect::<Vec<_>>(),
        ["a", "common", "m"]
    );
    let actor = actor.unwrap();
    assert_eq!(
        actor.to_string(),
        "service { extra : (common) -> (); m : (m) -> () }"
    );
    assert_eq!(
        err(check_file_with_loader(Path::new("/d/cyc1.did"), &mut loader)),
        "Candid parser error: /d/cyc2.did:1:1: import cycle: /d/cyc1.did -> /d/cyc2.did -> /d/cyc1.did\nimport \"./cyc1.did\"; type y = nat;\n^^^^^^^^^^^^^^^^^^^"
    );
    assert_eq!(
        err(check_file_with_loader(Path::new("/d/missing.did"), &mut loader)),
        "Candid parser error: /d/missing.did:2:1: Cannot import \"nope.did\"\nimport \"nope.did\";\n^^^^^^^^^^^^^^^^^"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for n in [300, 100_000] {
        let v = format!("{}null", "opt ".repeat(n));
        assert!(err(parse_idl_value(&v)).contains("nesting is deeper than the limit of 256"));
        let v = format!("({}{})", "vec {".repeat(n), "}".repeat(n));
        assert!(parse_idl_args(&v).is_err());
        let v = format!("({}1{})", "(".repeat(n), ")".repeat(n));
        assert!(parse_idl_args(&v).is_err());
        let t = format!("type t = {}nat;", "opt ".repeat(n));
        assert!(check(&t).is_err());
        let t = format!("type t = {}nat{};", "record { ".repeat(n), " }".repeat(n));
        assert!(check(&t).is_err());
        let c = format!("({}{} 1)", "/*".repeat(n), "*/".repeat(n));
        assert!(parse_idl_args(&c).is_ok());
    }
    // Just under the limit works.
    let v = format!("{}null", "opt ".repeat(200));
    assert!(parse_idl_value(&v).is_ok());
}

/// xorshift64*: a small deterministic generator, so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_input_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let pieces = [
        "(",
        ")",
        "{",
        "}",
        ";",
        ",",
        ".",
        ":",
        "=",
        "->",
        "==",
        "!=",
        "!:",
        "opt",
        "vec",
        "record",
        "variant",
        "func",
        "service",
        "blob",
        "principal",
        "null",
        "true",
        "type",
        "import",
        "query",
        "oneway",
        "nat8",
        "x",
        "\"a\"",
        "\"\\ff\"",
        "\"\\u{",
        "1",
        "-",
        "+",
        "0x",
        "0xff",
        "1.5e",
        "1e5",
        "/*",
        "*/",
        "//",
        "\n",
        " ",
        "é",
        "\"aaaaa-aa\"",
        "assert",
        "blob \"DIDL\\00\\00\"",
        "\\",
        "\"",
        "_",
        "1_",
    ];
    for _ in 0..20_000 {
        let n = rng.below(24);
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(pieces[rng.below(pieces.len())]);
            if rng.below(2) == 0 {
                s.push(' ');
            }
        }
        let _ = parse_idl_args(&s);
        let _ = parse_idl_value(&s);
        let _ = check(&s);
        let _ = s.parse::<candor_parser::test::Test>();
        let _ = s.parse::<candor_parser::IDLType>();
    }
    for _ in 0..5_000 {
        let n = rng.below(64);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        let s = String::from_utf8_lossy(&bytes);
        let _ = parse_idl_args(&s);
        let _ = check(&s);
        let _ = s.parse::<candor_parser::test::Test>();
    }
}

/// Fields come out sorted by id whatever their order in the source, each with its
/// own value, in values and in types, nested inside each other's fields too: every
/// order of up to six fields, and shuffles of longer records.
#[test]
fn fields_are_sorted_whatever_the_source_order() {
    fn orders(n: usize) -> Vec<Vec<usize>> {
        if n <= 6 {
            let mut all = vec![vec![]];
            for k in 0..n {
                all = all
                    .into_iter()
                    .flat_map(|p: Vec<usize>| {
                        (0..=k).map(move |at| {
                            let mut q = p.clone();
                            q.insert(at, k);
                            q
                        })
                    })
                    .collect();
            }
            all
        } else {
            let mut seed = 0x2545_f491_4f6c_dd1du64 ^ n as u64;
            (0..50)
                .map(|_| {
                    let mut p: Vec<usize> = (0..n).collect();
                    for i in (1..n).rev() {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        p.swap(i, (seed % (i as u64 + 1)) as usize);
                    }
                    p
                })
                .collect()
        }
    }
    for n in [0, 1, 2, 3, 4, 5, 6, 9, 17, 40] {
        for order in orders(n) {
            let names: Vec<String> = order.iter().map(|k| format!("f{k}")).collect();
            let inner = names
                .iter()
                .enumerate()
                .map(|(i, name)| format!("{name} = {i}; "))
                .collect::<String>();
            let text = format!("record {{ {inner}z = record {{ {inner}}} }}");
            let IDLValue::Record(outer) = parse_idl_value(&text).unwrap() else {
                panic!("{text}")
            };
            let ids: Vec<u32> = outer.iter().map(|f| f.id.get_id()).collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{text}");
            for f in &outer {
                let Label::Named(name) = &f.id else { panic!() };
                if name == "z" {
                    let IDLValue::Record(nested) = &f.val else {
                        panic!()
                    };
                    assert_eq!(nested.len(), n);
                    continue;
                }
                let at = names.iter().position(|m| m == name).unwrap();
                assert_eq!(f.val, IDLValue::Number(at.to_string()), "{text}");
            }
            let fields = names
                .iter()
                .map(|name| format!("{name} : nat"))
                .collect::<Vec<_>>()
                .join("; ");
            let did = format!("type r = record {{ {fields} }}; type v = variant {{ {fields} }};");
            let prog: IDLProg = did.parse().unwrap();
            let mut env = TypeEnv::new();
            check_prog(&mut env, &prog).unwrap();
            for t in ["r", "v"] {
                let ty = env.find_type(t).unwrap();
                let (TypeInner::Record(fs) | TypeInner::Variant(fs)) = ty.as_ref() else {
                    panic!()
                };
                let ids: Vec<u32> = fs.iter().map(|f| f.id.get_id()).collect();
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "{did}");
                assert_eq!(fs.len(), n);
            }
        }
    }
}

/// Escaped literals give their own bytes wherever they are read: as a field name
/// (read after a look-ahead), next to other escaped or plain literals, as a blob
/// and as a principal; and a bad escape is reported at its place.
#[test]
fn escaped_literals_keep_their_own_bytes() {
    use IDLValue::*;
    let v = parse_idl_args(
        "(record { \"a\\n\" = \"x\\ty\"; b = blob \"\\00\\ff\"; c = \"plain\" }, \
         \"\\u{e9}t\\u{e9}\", principal \"aaaaa\\2daa\", \"\\\"\")",
    )
    .unwrap();
    let mut fields = vec![
        field("a\n", Text("x\ty".into())),
        field("b", Blob(vec![0, 0xff])),
        field("c", Text("plain".into())),
    ];
    fields.sort_by_key(|f| f.id.get_id());
    assert_eq!(
        v.args,
        vec![
            Record(fields),
            Text("été".into()),
            Principal(candor::Principal::from_text("aaaaa-aa").unwrap()),
            Text("\"".into()),
        ]
    );
    let e = parse_idl_args("(\"ok\\n\", \"bad \\q\")").unwrap_err();
    assert!(
        e.to_string()
            .contains("1:15: unknown escape character `\\q`"),
        "{e}"
    );
}
