//! One named test per entry of `spec/differences.md`: the cases where candor and
//! candid 0.10.39 disagree, pinned so a change on either side is noticed.

use pretty_assertions::assert_eq;

const BIG: usize = 1_000_000_000_000;

fn ours_cost<T: candor::CandidType + for<'a> candor::Deserialize<'a>>(
    bytes: &[u8],
) -> (usize, usize) {
    let mut config = candor::DecoderConfig::new();
    config.set_decoding_quota(BIG).set_skipping_quota(BIG);
    let (_, cost) = candor::Decode!(@Debug [config]; bytes, T).unwrap();
    (cost.decoding_quota.unwrap(), cost.skipping_quota.unwrap())
}

fn theirs_cost<T: candid::CandidType + for<'a> candid::Deserialize<'a>>(
    bytes: &[u8],
) -> (usize, usize) {
    use candid::Decode;
    drop(candid::ser::IDLBuilder::new());
    let mut config = candid::DecoderConfig::new();
    config.set_decoding_quota(BIG).set_skipping_quota(BIG);
    let (_, cost) = Decode!(@Debug [config]; bytes, T).unwrap();
    (cost.decoding_quota.unwrap(), cost.skipping_quota.unwrap())
}

/// D1: an `opt` value that does not coerce. candid decodes `record { a }` as far as
/// it can inside `opt record { a; b }`, fails on the missing `b`, charges what it did,
/// adds 10 and skips the value; candor decides first and charges 10 + the skip.
#[test]
fn regression_d1_opt_backtrack_cost() {
    #[derive(candor::CandidType, candor::Deserialize)]
    struct R2 {
        a: u8,
        b: u8,
    }
    #[derive(candid::CandidType, candid::Deserialize)]
    struct TR2 {
        a: u8,
        b: u8,
    }
    #[derive(candid::CandidType)]
    struct R1 {
        a: u8,
    }
    let bytes = candid::encode_one(R1 { a: 1 }).unwrap();
    assert!(candor::decode_one::<Option<R2>>(&bytes).unwrap().is_none());
    assert!(candid::decode_one::<Option<TR2>>(&bytes).unwrap().is_none());
    assert_eq!(ours_cost::<Option<R2>>(&bytes), (806, 15));
    assert_eq!(theirs_cost::<Option<TR2>>(&bytes), (820, 15));
}

/// D2 (resolved): an `opt` value whose type is not a subtype but whose value coerces
/// (`variant { A; B }` value `A` at `opt variant { A }`) costs exactly what candid
/// charges: candor's value-level pre-check is free up to an allowance of a few walks
/// over the message, so candid's exact quota is enough.
#[test]
fn regression_d2_opt_precheck_cost() {
    #[derive(candid::CandidType)]
    enum AB {
        A,
        #[allow(dead_code)]
        B,
    }
    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    enum OnlyA {
        A,
    }
    #[derive(candid::CandidType, candid::Deserialize, Debug, PartialEq)]
    enum TOnlyA {
        A,
    }
    let bytes = candid::encode_one(AB::A).unwrap();
    assert_eq!(
        candor::decode_one::<Option<OnlyA>>(&bytes).unwrap(),
        Some(OnlyA::A)
    );
    assert_eq!(
        candid::decode_one::<Option<TOnlyA>>(&bytes).unwrap(),
        Some(TOnlyA::A)
    );
    assert_eq!(ours_cost::<Option<OnlyA>>(&bytes), (61, 0));
    assert_eq!(theirs_cost::<Option<TOnlyA>>(&bytes), (61, 0));
    let mut config = candor::DecoderConfig::new();
    config.set_decoding_quota(61);
    assert!(candor::decode_one_with_config::<Option<OnlyA>>(&bytes, &config).is_ok());
    config.set_decoding_quota(60);
    assert!(candor::decode_one_with_config::<Option<OnlyA>>(&bytes, &config).is_err());
}

/// D4: a bare `Func`/`Service` has a Candid type in candor (`func () -> ()`,
/// `service {}`); candid panics ("use `define_function!`"). Wire-neutral: the bytes
/// of values of `define_function!`/`define_service!` types are identical.
#[test]
fn regression_d4_bare_func_and_service_have_types() {
    use candor::CandidType;
    assert_eq!(candor::Func::ty().to_string(), "func () -> ()");
    assert!(candor::Service::ty().to_string().starts_with("service {"));
    assert!(std::panic::catch_unwind(<candid::Func as candid::CandidType>::ty).is_err());
}

/// D5: `Principal`'s `Deserialize` passes every error through `D::Error::custom`.
/// candid's error then becomes `Error::Custom`; candor recognises its own error
/// coming back and keeps its kind, offset and path (and does not add a second offset).
#[test]
fn regression_d5_principal_errors_keep_their_kind() {
    // principal of 30 bytes.
    let mut bytes = b"DIDL\x00\x01\x68\x01\x1e".to_vec();
    bytes.extend([7u8; 30]);
    let err = candor::decode_one::<candor::Principal>(&bytes).unwrap_err();
    assert_eq!(err.kind(), candor::ErrorKind::Binary, "{err}");
    assert_eq!(err.message(), "principal is longer than 29 bytes");
    assert_eq!(err.offset(), Some(8));
    assert!(matches!(
        candid::decode_one::<candid::Principal>(&bytes).unwrap_err(),
        candid::Error::Custom(_)
    ));
    // A text where a principal is expected: one offset, the subtype kind.
    let err = candor::decode_one::<candor::Principal>(b"DIDL\x00\x01\x71\x01\x41").unwrap_err();
    assert_eq!(err.kind(), candor::ErrorKind::Subtype, "{err}");
    assert_eq!(err.message(), "expected principal, found text");
    assert_eq!(err.offset(), Some(7));
    assert_eq!(
        err.to_string().matches("at byte offset").count(),
        1,
        "{err}"
    );
}

/// The other side of D5: a visitor's own message that only quotes a candor error
/// keeps its words and becomes a custom error.
#[test]
fn regression_d5_a_quoting_message_stays_custom() {
    use serde::de::Error as _;
    let inner = candor::Error::binary("bad flag", 3);
    let quoted = candor::Error::custom(format_args!("while reading a flag: {inner}"));
    assert_eq!(quoted.kind(), candor::ErrorKind::Custom);
    assert_eq!(
        quoted.message(),
        "while reading a flag: malformed message: bad flag at byte offset 3"
    );
    let same = candor::Error::custom(&inner);
    assert_eq!(same.kind(), candor::ErrorKind::Binary);
    assert_eq!(same.offset(), Some(3));
}

/// D6: a subtype mismatch is `ErrorKind::Subtype` in candor (`is_subtype()`); candid
/// wraps each argument's error in an `anyhow` context ("Fail to decode argument 0
/// from text to nat8"), which turns it into `Error::Custom` at the top level.
#[test]
fn regression_d6_top_level_subtype_errors_keep_their_kind() {
    let msg = candid::encode_one("text").unwrap();
    let ours = candor::decode_one::<u8>(&msg).unwrap_err();
    assert_eq!(ours.kind(), candor::ErrorKind::Subtype, "{ours}");
    let theirs = candid::decode_one::<u8>(&msg).unwrap_err();
    assert!(matches!(theirs, candid::Error::Custom(_)), "{theirs:?}");
    // The kind is gone, the context chain remains.
    let chain = match &theirs {
        candid::Error::Custom(e) => e
            .chain()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" / "),
        _ => unreachable!(),
    };
    assert!(chain.contains("Fail to decode argument 0"), "{chain}");
}

/// D11: a visitor that takes only borrowed text, reached through
/// `deserialize_string`. candid lends the text (`visit_borrowed_str`) and the visitor
/// takes it; candor hands over an owned copy (`visit_string`), which this visitor
/// refuses. Through `deserialize_str` both crates lend it.
#[test]
fn regression_d11_deserialize_string_is_owned() {
    use serde::de::{Deserializer, Visitor};
    use std::fmt;

    struct BorrowedOnly;
    impl<'de> Visitor<'de> for BorrowedOnly {
        type Value = &'de str;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("borrowed text")
        }
        fn visit_borrowed_str<E>(self, s: &'de str) -> Result<&'de str, E> {
            Ok(s)
        }
    }
    /// A text read through `deserialize_string` (`OWNED`) or `deserialize_str`.
    struct Text<'a, const OWNED: bool>(&'a str);
    impl<'de, const OWNED: bool> serde::Deserialize<'de> for Text<'de, OWNED> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s = if OWNED {
                d.deserialize_string(BorrowedOnly)?
            } else {
                d.deserialize_str(BorrowedOnly)?
            };
            Ok(Text(s))
        }
    }
    impl<const OWNED: bool> candor::CandidType for Text<'_, OWNED> {
        fn _ty() -> candor::types::Type {
            <String as candor::CandidType>::ty()
        }
        fn idl_serialize<S: candor::types::Serializer>(&self, s: S) -> Result<(), S::Error> {
            s.serialize_text(self.0)
        }
    }
    impl<const OWNED: bool> candid::CandidType for Text<'_, OWNED> {
        fn _ty() -> candid::types::Type {
            <String as candid::CandidType>::ty()
        }
        fn idl_serialize<S: candid::types::Serializer>(&self, s: S) -> Result<(), S::Error> {
            s.serialize_text(self.0)
        }
    }

    let bytes = candor::encode_one("lent").unwrap();
    let theirs = candid::decode_one::<Text<'_, true>>(&bytes).map(|t| t.0);
    assert_eq!(theirs.unwrap(), "lent");
    let ours = candor::decode_one::<Text<'_, true>>(&bytes).map(|t| t.0);
    assert!(ours.is_err(), "{ours:?}");
    assert_eq!(
        candor::decode_one::<Text<'_, false>>(&bytes).unwrap().0,
        "lent"
    );
    assert_eq!(
        candid::decode_one::<Text<'_, false>>(&bytes).unwrap().0,
        "lent"
    );
}

/// D15: `record { a : float64; b : float64 }` read at `opt record { a : e0; b : null }`
/// where `type e0 = opt e0`, at a type given at run time. Field `b` cannot coerce, so
/// the spec's answer is `null`, which candor's value-level `opt` check gives; candid
/// decodes field `a` first, tries each level of `e0`, and fails at its recursion
/// limit. (Read at `e0` alone, both fail: candid at that limit, candor at its stack
/// bound.)
#[test]
fn regression_d15_self_opt_at_run_time_type() {
    #[derive(candid::CandidType)]
    struct Wire {
        a: f64,
        b: f64,
    }
    let bytes = candid::encode_one(Wire { a: 1.5, b: 2.5 }).unwrap();

    let mut ours_env = candor::TypeEnv::new();
    let e0: candor::Type = candor::TypeInner::Var("e0".into()).into();
    ours_env
        .0
        .insert("e0".into(), candor::TypeInner::Opt(e0.clone()).into());
    let field = |name: &str, ty: candor::Type| candor::types::Field {
        id: candor::types::Label::Named(name.into()).into(),
        ty,
    };
    let expected: candor::Type = candor::TypeInner::Opt(
        candor::TypeInner::Record(vec![
            field("a", e0.clone()),
            field("b", candor::TypeInner::Null.into()),
        ])
        .into(),
    )
    .into();
    let mut de = candor::IDLDeserialize::new(&bytes).unwrap();
    let ours = de.get_value_with_type(&ours_env, &expected).unwrap();
    assert_eq!(ours, candor::IDLValue::None);

    let mut theirs_env = candid::TypeEnv::new();
    let e0: candid::types::Type = candid::types::TypeInner::Var("e0".into()).into();
    theirs_env.0.insert(
        "e0".into(),
        candid::types::TypeInner::Opt(e0.clone()).into(),
    );
    let field = |name: &str, ty: candid::types::Type| candid::types::Field {
        id: candid::types::Label::Named(name.into()).into(),
        ty,
    };
    let expected: candid::types::Type = candid::types::TypeInner::Opt(
        candid::types::TypeInner::Record(vec![
            field("a", e0.clone()),
            field("b", candid::types::TypeInner::Null.into()),
        ])
        .into(),
    )
    .into();
    let mut de = candid::de::IDLDeserialize::new(&bytes).unwrap();
    let theirs = de.get_value_with_type(&theirs_env, &expected).unwrap_err();
    assert!(
        format!("{theirs:?}").contains("Recursion limit exceeded"),
        "{theirs:?}"
    );
}

/// D16: a newtype wrapping itself through a transparent wrapper derives, as with
/// candid, and gets no header from the compiler. (Two newtypes wrapping each other
/// with nothing between do not compile with candor; a test cannot hold that.)
#[test]
fn regression_d16_a_newtype_wrapping_itself_derives() {
    #[derive(candor::CandidType)]
    struct Boxed(Box<Boxed>);
    #[derive(candor::CandidType)]
    struct Shared(std::rc::Rc<Shared>);
    use candor::utils::ArgumentEncoder;
    assert!(<(Option<Boxed>,)>::_const_header().is_none());
    assert!(<(Vec<Shared>,)>::_const_header().is_none());
}

/// D17: with `rename_all`, candor's derive puts the renamed labels on the wire and
/// decodes what it encodes; candid's derive keeps the Rust names, which its own
/// `Deserialize` (expecting the renamed ones) then refuses.
#[test]
fn regression_d17_rename_all_names_the_labels() {
    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Ours {
        some_field: u8,
    }
    #[derive(candid::CandidType, candid::Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Theirs {
        some_field: u8,
    }
    let ours = candor::encode_one(Ours { some_field: 7 }).unwrap();
    assert_eq!(
        candor::decode_one::<Ours>(&ours).unwrap(),
        Ours { some_field: 7 }
    );
    let theirs = candid::encode_one(Theirs { some_field: 7 }).unwrap();
    assert!(candid::decode_one::<Theirs>(&theirs).is_err());
    // The labels: `someField` in candor's bytes, `some_field` in candid's.
    #[derive(candid::CandidType, candid::Deserialize)]
    struct Named {
        #[serde(rename = "someField")]
        some_field: u8,
    }
    #[derive(candor::CandidType)]
    struct Plain {
        some_field: u8,
    }
    assert_eq!(ours, candid::encode_one(Named { some_field: 7 }).unwrap());
    assert_eq!(theirs, candor::encode_one(Plain { some_field: 7 }).unwrap());
}
