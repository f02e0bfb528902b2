//! Expansion-level tests: label order, serializer calls, and the attribute rules
//! (the compile-fail cases, checked on `expand`'s `Err` instead of with trybuild).

use crate::expand::{expand, idl_hash, Flavor};

fn ok(src: &str) -> String {
    ok_as(src, Flavor::Candor)
}

fn ok_as(src: &str, flavor: Flavor) -> String {
    let input: syn::DeriveInput = syn::parse_str(src).expect("test input parses");
    match expand(input, flavor) {
        Ok(ts) => {
            // The output must be a valid item.
            let item: syn::Item = syn::parse2(ts.clone()).expect("expansion is an item");
            drop(item);
            ts.to_string()
        }
        Err(e) => panic!("unexpected error: {e}"),
    }
}

fn err(src: &str) -> String {
    let input: syn::DeriveInput = syn::parse_str(src).expect("test input parses");
    match expand(input, Flavor::Candor) {
        Ok(ts) => panic!("expected an error, got {ts}"),
        Err(e) => e.to_string(),
    }
}

/// Positions of `needles` in `hay`, asserting they appear in this order.
fn assert_in_order(hay: &str, needles: &[&str]) {
    let mut last = 0;
    for n in needles {
        let pos = hay[last..]
            .find(n)
            .unwrap_or_else(|| panic!("`{n}` not found after offset {last} in {hay}"));
        last += pos + n.len();
    }
}

#[test]
fn hash_matches_spec() {
    assert_eq!(idl_hash(""), 0);
    assert_eq!(idl_hash("a"), 97);
    // Values from the Candid spec / candid's tests.
    assert_eq!(idl_hash("foo"), 5_097_222);
    assert_eq!(idl_hash("bar"), 4_895_187);
    assert_eq!(idl_hash("vhqsvke"), idl_hash("pqglka"));
}

#[test]
fn named_fields_sorted_by_hash() {
    // hash order: bar (4895187) < foo (5097222) < a_long_name
    let mut names = ["foo", "bar", "a_long_name"];
    let src = "struct S { foo: u8, bar: String, a_long_name: bool }";
    let out = ok(src);
    names.sort_by_key(|n| idl_hash(n));
    let labels: Vec<String> = names.iter().map(|n| format!("from (\"{n}\")")).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    assert_in_order(&out, &labels);
    // Serialization in the same order.
    let ser: Vec<String> = names.iter().map(|n| format!("& self . {n}")).collect();
    let ser: Vec<&str> = ser.iter().map(String::as_str).collect();
    assert_in_order(&out, &ser);
    assert!(out.contains("serialize_struct"));
    assert!(out.contains(":: candor :: types :: CandidType for S"));
}

#[test]
fn tuple_struct_uses_id_labels() {
    let out = ok("struct T(u8, String);");
    assert_in_order(&out, &["Label :: Id (0u32)", "Label :: Id (1u32)"]);
    assert_in_order(&out, &["& self . 0", "& self . 1"]);
}

#[test]
fn newtype_and_unit() {
    let out = ok("struct N(Vec<u8>);");
    assert!(out.contains("< Vec < u8 > as :: candor :: types :: CandidType > :: ty ()"));
    assert!(out.contains("idl_serialize (& self . 0 , __serializer)"));
    assert!(!out.contains("Record"));
    let out = ok("struct U;");
    assert!(out.contains("TypeInner :: Null"));
    assert!(out.contains("serialize_null"));
    // Zero-field tuple and braced structs are empty records, as in candid_derive.
    assert!(ok("struct E();").contains("Record (:: std :: vec ! [])"));
    assert!(ok("struct E {}").contains("Record (:: std :: vec ! [])"));
}

#[test]
fn renames() {
    let out = ok(
        r#"struct S { #[serde(rename = "zz")] a: u8, #[serde(rename(serialize = "yy", deserialize = "q"))] b: u8, #[serde(rename(deserialize = "q2"))] c: u8, r#type: u8 }"#,
    );
    for l in ["\"zz\"", "\"yy\"", "\"c\"", "\"type\""] {
        assert!(out.contains(l), "{l} missing in {out}");
    }
    assert!(!out.contains("\"q\""));
    assert!(!out.contains("\"a\""));
}

/// The labels `from ("..")` in the expansion, in order of appearance.
fn labels(out: &str) -> Vec<String> {
    out.split("String :: from (\"")
        .skip(1)
        .map(|rest| rest[..rest.find("\")").unwrap()].to_string())
        .collect()
}

fn sorted_by_hash(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort_by_key(|n| idl_hash(n));
    v
}

#[test]
fn rename_all_on_struct_fields() {
    let out = ok(
        r#"#[serde(rename_all = "camelCase")] struct S { long_name: u8, #[serde(rename = "x")] other: u8, r#type: u8 }"#,
    );
    assert_eq!(labels(&out), sorted_by_hash(&["longName", "x", "type"]));
    // The accessors still use the Rust names, in label order.
    assert!(out.contains("& self . long_name"));
    // Tuple structs keep their positional ids.
    let out = ok(r#"#[serde(rename_all = "UPPERCASE")] struct T(u8, u8);"#);
    assert_in_order(&out, &["Label :: Id (0u32)", "Label :: Id (1u32)"]);
}

#[test]
fn rename_all_on_enums() {
    let out = ok(
        r#"#[serde(rename_all = "snake_case")] enum E { LongName, Other(u8), #[serde(rename = "Kept")] Third { inner_field: u8 } }"#,
    );
    // Each case's label is followed by its payload's labels; cases in id order.
    let mut want = Vec::new();
    for case in sorted_by_hash(&["long_name", "other", "Kept"]) {
        let is_kept = case == "Kept";
        want.push(case);
        if is_kept {
            // `rename_all` on the enum does not reach the struct variant's fields.
            want.push("inner_field".to_string());
        }
    }
    assert_eq!(labels(&out), want);
    // The arms still match the Rust variant names.
    assert!(out.contains("Self :: LongName"));
}

#[test]
fn rename_all_fields_and_variant_rename_all() {
    let out = ok(
        r#"#[serde(rename_all = "kebab-case", rename_all_fields = "UPPERCASE")]
           enum E {
             CaseOne { field_one: u8, #[serde(rename = "own")] field_two: u8 },
             #[serde(rename_all = "PascalCase")] CaseTwo { field_three: u8 },
             Tuple(u8, u8),
           }"#,
    );
    let ls = labels(&out);
    let mut got = ls.clone();
    got.sort();
    let mut want: Vec<String> = [
        "case-one",
        "FIELD_ONE",
        "own",
        "case-two",
        "FieldThree",
        "tuple",
    ]
    .map(String::from)
    .to_vec();
    want.sort();
    assert_eq!(got, want);
    // A variant's own rename_all, without a container rule.
    let out = ok(r#"enum E { #[serde(rename_all = "camelCase")] V { a_b: u8 } }"#);
    assert_eq!(labels(&out), ["V", "aB"]);
}

#[test]
fn rename_all_serialize_side_wins() {
    // Directional forms: the label is the serialized name (candid_derive's choice for
    // `rename(serialize = ..)`).
    let out = ok(
        r#"#[serde(rename_all(serialize = "SCREAMING-KEBAB-CASE", deserialize = "camelCase"))]
           struct S { some_field: u8, #[serde(rename(deserialize = "d"))] other_field: u8 }"#,
    );
    let mut got = labels(&out);
    got.sort();
    assert_eq!(got, ["OTHER-FIELD", "SOME-FIELD"]);
    // Only a deserialize-side rule: labels keep the Rust names.
    let out = ok(r#"#[serde(rename_all(deserialize = "camelCase"))] struct S { some_field: u8 }"#);
    assert_eq!(labels(&out), ["some_field"]);
}

#[test]
fn rename_all_rule_errors() {
    let e = err(r#"#[serde(rename_all = "Camel")] struct S { a: u8 }"#);
    assert!(
        e.contains("unknown rename rule") && e.contains("\"camelCase\""),
        "{e}"
    );
    let e = err(r#"#[serde(rename_all(deserialize = "nope"))] struct S { a: u8 }"#);
    assert!(e.contains("unknown rename rule"), "{e}");
    let e = err(r#"#[serde(rename_all_fields = "x")] enum E { A { b: u8 } }"#);
    assert!(e.contains("unknown rename rule"), "{e}");
    assert!(!err(r#"#[serde(rename_all)] struct S { a: u8 }"#).is_empty());
}

/// serde's own tables for its case conventions (serde_derive's `case.rs` tests).
#[test]
fn case_conventions_match_serde() {
    use crate::case::RenameRule;
    let rules = [
        "lowercase",
        "UPPERCASE",
        "PascalCase",
        "camelCase",
        "snake_case",
        "SCREAMING_SNAKE_CASE",
        "kebab-case",
        "SCREAMING-KEBAB-CASE",
    ]
    .map(|r| RenameRule::parse(r).unwrap());
    let variants: [(&str, [&str; 8]); 4] = [
        (
            "Outcome",
            [
                "outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome",
                "OUTCOME",
            ],
        ),
        (
            "VeryTasty",
            [
                "verytasty",
                "VERYTASTY",
                "VeryTasty",
                "veryTasty",
                "very_tasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ],
        ),
        ("A", ["a", "A", "A", "a", "a", "A", "a", "A"]),
        (
            "Z42",
            ["z42", "Z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"],
        ),
    ];
    for (original, want) in variants {
        for (rule, w) in rules.iter().zip(want) {
            assert_eq!(rule.apply_to_variant(original), w, "{rule:?} {original}");
        }
    }
    let fields: [(&str, [&str; 8]); 4] = [
        (
            "outcome",
            [
                "outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome",
                "OUTCOME",
            ],
        ),
        (
            "very_tasty",
            [
                "very_tasty",
                "VERY_TASTY",
                "VeryTasty",
                "veryTasty",
                "very_tasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ],
        ),
        ("a", ["a", "A", "A", "a", "a", "A", "a", "A"]),
        (
            "z42",
            ["z42", "Z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"],
        ),
    ];
    for (original, want) in fields {
        for (rule, w) in rules.iter().zip(want) {
            assert_eq!(rule.apply_to_field(original), w, "{rule:?} {original}");
        }
    }
    // Edge cases serde would panic on (empty results) stay total here.
    assert_eq!(rules[3].apply_to_field("_"), "");
    assert_eq!(rules[3].apply_to_field("_leading"), "leading");
}
#[test]
fn serde_bytes_fields() {
    let out = ok(r#"struct S { #[serde(with = "serde_bytes")] b: Vec<u8>, c: Vec<u8> }"#);
    assert!(out.contains("AsRef :: < [u8] > :: as_ref (& self . b)"));
    assert!(out.contains("serialize_element (& mut __s , & self . c)"));
    let out = ok(r#"struct N(#[serde(with = "serde_bytes")] Vec<u8>);"#);
    assert!(out.contains("Serializer :: serialize_blob (__serializer"));
    let out = ok(r#"enum E { #[serde(with = "serde_bytes")] B(Vec<u8>), C(Vec<u8>) }"#);
    assert!(out.contains("AsRef :: < [u8] > :: as_ref (__f0)"));
    assert!(out.contains("serialize_element (& mut __s , __f0)"));
}

#[test]
fn enum_cases_sorted_and_indexed() {
    let out = ok("enum E { Foo, Bar(u8), Baz { y: u8, x: String }, Qux(u8, u8) }");
    let mut names = ["Foo", "Bar", "Baz", "Qux"];
    names.sort_by_key(|n| idl_hash(n));
    let labels: Vec<String> = names.iter().map(|n| format!("from (\"{n}\")")).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    assert_in_order(&out, &labels);
    for (i, n) in names.iter().enumerate() {
        let arm = format!("Self :: {n}");
        let at = out.find(&arm).unwrap();
        let idx = format!("serialize_variant (__serializer , {i}u64)");
        let next = out[at..].find(&idx).unwrap();
        assert!(next < 300, "arm {n} does not use index {i}: {out}");
    }
    // struct variant fields: x < y by hash, bound by declaration position.
    assert!(idl_hash("x") < idl_hash("y"));
    assert!(out.contains("Self :: Baz { y : ref __f0 , x : ref __f1 }"));
    assert_in_order(
        &out,
        &["Self :: Baz", "& mut __s , __f1", "& mut __s , __f0"],
    );
    assert!(ok("enum Never {}").contains("match * self { }"));
}

#[test]
fn generics_get_bounds() {
    let out = ok("struct G<'a, T, const N: usize> where T: Clone { x: &'a T, y: [u8; N] }");
    assert!(out.contains("T : :: candor :: types :: CandidType"));
    assert!(out.contains("for G < 'a , T , N > where T : Clone"));
}

#[test]
fn crate_path_attrs() {
    let out = ok(r#"#[candid_path("::candid")] struct S { a: u8 }"#);
    assert!(out.contains(":: candid :: types :: CandidType for S"));
    assert!(!out.contains("candor"));
    let out = ok(r#"#[candor_path("crate::reexport::candor")] struct S { a: u8 }"#);
    assert!(out.contains("crate :: reexport :: candor :: types :: Type"));
    assert!(err(r#"#[candid_path("::a")] #[candor_path("::b")] struct S;"#).contains("twice"));
    assert!(err(r#"#[candid_path(::a)] struct S;"#).contains("string literal"));
    assert!(!err(r#"#[candid_path("not a path!")] struct S;"#).is_empty());
}

#[test]
fn hash_collisions_are_errors() {
    let e = err("struct S { vhqsvke: u8, pqglka: u8 }");
    assert!(
        e.contains("vhqsvke") && e.contains("pqglka") && e.contains("480723324"),
        "{e}"
    );
    let e = err(r#"enum E { A, #[serde(rename = "A")] B }"#);
    assert!(e.contains("variant `A` and variant `A`"), "{e}");
    let e = err("enum E { V { vhqsvke: u8, pqglka: u8 } }");
    assert!(e.contains("collision"), "{e}");
}

#[test]
fn accepted_serde_attributes() {
    ok(
        r#"#[serde(deny_unknown_fields, rename = "T", bound = "", crate = "serde", rename_all_fields = "camelCase")]
          struct S {
            #[serde(skip)] a: u8,
            #[serde(skip_serializing)] b: u8,
            #[serde(skip_deserializing, default)] c: u8,
            #[serde(default = "f", alias = "dd")] d: u8,
            #[serde(borrow)] e: u8,
            #[serde(with = "::serde_bytes")] f: Vec<u8>,
          }"#,
    );
    ok(r#"#[serde(transparent)] struct N(u64);"#);
    ok(r#"#[serde(try_from = "String", into = "String")] struct V(String);"#);
    ok(r#"enum E { #[serde(skip)] A, #[serde(alias = "b", other)] B }"#);
    ok("/// docs\nstruct D { /// more\n a: u8 }");
}

#[test]
fn rejected_serde_attributes() {
    let cases = [
        (r#"struct S { #[serde(flatten)] a: Inner }"#, "flatten"),
        (r#"#[serde(untagged)] enum E { A(u8) }"#, "untagged"),
        (r#"enum E { #[serde(untagged)] A(u8) }"#, "untagged"),
        (r#"#[serde(tag = "t")] enum E { A { x: u8 } }"#, "tag"),
        (
            r#"#[serde(tag = "t", content = "c")] enum E { A(u8) }"#,
            "tag",
        ),
        (r#"#[serde(content = "c")] enum E { A(u8) }"#, "content"),
        (
            r#"struct S { #[serde(skip_serializing_if = "Option::is_none")] a: Option<u8> }"#,
            "skip_serializing_if",
        ),
        (
            r#"struct S { #[serde(serialize_with = "f")] a: u8 }"#,
            "custom",
        ),
        (
            r#"struct S { #[serde(deserialize_with = "f")] a: u8 }"#,
            "custom",
        ),
        (
            r#"struct S(#[serde(with = "hex")] Vec<u8>, u8);"#,
            "serde_bytes",
        ),
        (
            r#"enum E { #[serde(with = "other")] A(u8) }"#,
            "serde_bytes",
        ),
        (r#"enum E { A { #[serde(flatten)] x: Inner } }"#, "flatten"),
        (r#"struct S { #[serde(getter = "S::a")] a: u8 }"#, "getter"),
        (r#"#[serde(transparent)] struct S { a: u8 }"#, "transparent"),
        (r#"#[serde(transparent)] struct S(u8, u8);"#, "transparent"),
        ("union U { a: u8 }", "union"),
    ];
    for (src, needle) in cases {
        let e = err(src);
        assert!(e.contains(needle), "{src}: error `{e}` lacks `{needle}`");
    }
}

// ---- the candid flavour (behind the `candid` compat crate) ----

#[test]
fn candid_flavour_names_candid_by_default() {
    let out = ok_as("struct S { a: u8 }", Flavor::Candid);
    assert!(out.contains(":: candid :: types :: CandidType for S"));
    assert!(!out.contains("candor"));
    let out = ok_as(
        r#"#[candid_path("crate::c")] struct S { a: u8 }"#,
        Flavor::Candid,
    );
    assert!(out.contains("crate :: c :: types :: CandidType for S"));
}

#[test]
fn candid_flavour_ignores_what_candid_derive_ignores() {
    // Refused by candor's flavour, accepted and without effect in candid's.
    for src in [
        r#"struct S { #[serde(flatten)] a: u8 }"#,
        r#"struct S { #[serde(with = "hex")] a: Vec<u8> }"#,
        r#"struct S { #[serde(skip_serializing_if = "Option::is_none")] a: Option<u8> }"#,
        r#"#[serde(untagged)] enum E { A(u8) }"#,
        r#"#[serde(tag = "t")] enum E { A { x: u8 } }"#,
        r#"#[serde(transparent)] struct S { a: u8 }"#,
    ] {
        err(src);
        ok_as(src, Flavor::Candid);
    }
    // rename_all changes labels in candor's flavour only.
    let src = r#"#[serde(rename_all = "camelCase")] struct S { snake_case: u8 }"#;
    assert!(ok(src).contains("\"snakeCase\""));
    let out = ok_as(src, Flavor::Candid);
    assert!(out.contains("\"snake_case\""));
    assert!(!out.contains("snakeCase"));
    // rename and serde_bytes count in both.
    let out = ok_as(
        r#"struct S { #[serde(rename = "x")] a: u8, #[serde(with = "serde_bytes")] b: Vec<u8> }"#,
        Flavor::Candid,
    );
    assert!(out.contains("\"x\""));
    assert!(out.contains("serialize_blob"));
}

#[test]
fn doc_comments_become_the_type_doc() {
    let out = ok("/// A type.\n///\n/// More.\nstruct S {\n /// the a\n a: u8, b: u8 }");
    assert!(out.contains("fn _ty_doc"));
    assert_in_order(&out, &["\"A type.\"", "\"\"", "\"More.\""]);
    assert!(out.contains(&format!("insert ({}u32", idl_hash("a"))));
    assert!(!out.contains(&format!("insert ({}u32", idl_hash("b"))));
    // A case's record payload carries its fields' docs.
    let out = ok("enum E { A { /// x doc\n x: u8 }, B }");
    assert!(out.contains("\"x doc\""));
    assert!(out.contains("Some (:: std :: boxed :: Box :: new"));
    // No docs: the default value, nothing inserted.
    let out = ok("struct S { a: u8 }");
    assert!(out.contains("TypeDoc as :: core :: default :: Default > :: default ()"));
    assert!(!out.contains("insert"));
}
