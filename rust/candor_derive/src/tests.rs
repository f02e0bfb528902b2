//! Expansion-level tests: label order, serializer calls, and the attribute rules
//! (the compile-fail cases, checked on `expand`'s `Err` instead of with trybuild).

use crate::expand::{expand, idl_hash};

fn ok(src: &str) -> String {
    let input: syn::DeriveInput = syn::parse_str(src).expect("test input parses");
    match expand(input) {
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
    match expand(input) {
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

#[test]
fn rename_all_is_ignored_like_candid() {
    let out = ok(
        r#"#[serde(rename_all = "camelCase")] struct S { long_name: u8, #[serde(rename = "x")] other: u8 }"#,
    );
    assert!(out.contains("\"long_name\""));
    assert!(out.contains("\"x\""));
    let out = ok(r#"#[serde(rename_all = "snake_case")] enum E { LongName, Other(u8) }"#);
    assert!(out.contains("\"LongName\""));
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
