//! The impls candid 0.10.39 has and candor added for the compat crate encode to
//! candid's bytes and decode back: std time types, Motoko results, Nat/Int arithmetic
//! with primitives.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[test]
fn time_types_encode_as_candid_does() {
    let d = Duration::new(1_700_000_000, 123_456_789);
    let t = UNIX_EPOCH + d;
    assert_eq!(
        candor::encode_one(d).unwrap(),
        candid::encode_one(d).unwrap()
    );
    assert_eq!(
        candor::encode_one(t).unwrap(),
        candid::encode_one(t).unwrap()
    );
    let bytes = candor::encode_args((t, d)).unwrap();
    let (t2, d2): (SystemTime, Duration) = candor::decode_args(&bytes).unwrap();
    assert_eq!((t2, d2), (t, d));
    let before = UNIX_EPOCH - Duration::from_secs(1);
    assert!(candor::encode_one(before).is_err());
}

#[test]
fn motoko_result_encodes_as_candid_does() {
    let ok: candor::types::result::MotokoResult<u8, String> = Ok(7).into();
    let theirs: candid::MotokoResult<u8, String> = Ok(7).into();
    assert_eq!(
        candor::encode_one(&ok).unwrap(),
        candid::encode_one(&theirs).unwrap()
    );
    let err: candor::types::result::MotokoResult<u8, String> = Err("no".to_string()).into();
    let bytes = candor::encode_one(&err).unwrap();
    let back: candor::types::result::MotokoResult<u8, String> = candor::decode_one(&bytes).unwrap();
    assert_eq!(back.into_result(), Err("no".to_string()));
}

#[test]
fn nat_and_int_mix_with_primitives_both_ways() {
    use candor::{Int, Nat};
    let fee = Nat::from(10_000u64);
    assert!(fee > 0u8 && 20_000u32 > fee && fee == 10_000usize && 10_000u128 == fee);
    assert_eq!(fee.clone() * 2u64, Nat::from(20_000u32));
    assert_eq!(2u64 * fee.clone(), Nat::from(20_000u32));
    assert_eq!(100_000u64 / fee.clone(), Nat::from(10u8));
    let mut n = fee.clone();
    n -= 1u8;
    n %= 1_000u16;
    assert_eq!(n, 999u32);
    let i = Int::from(-5i8);
    assert!(i < 0i32 && i < 1u8 && -6i64 < i);
    assert_eq!(i.clone() + 10u64, Int::from(5));
    assert_eq!(3u8 - i.clone(), Int::from(8));
    assert_eq!(
        candid::Nat::from(20_000u32).to_string(),
        (fee * 2u8).to_string()
    );
}

#[test]
#[should_panic]
fn nat_underflow_panics_as_in_candid() {
    let _ = candor::Nat::from(1u8) - 2u8;
}

/// Callers match on candid's wording of these two errors (candid's own tests do);
/// candor leads with it and keeps the offset and path after it.
#[test]
fn empty_and_variant_index_errors_lead_with_candids_wording() {
    // `Result<u8, Empty>` with the `Err` case on the wire.
    let bytes = [
        0x44, 0x49, 0x44, 0x4c, 0x01, 0x6b, 0x02, 0xbc, 0x8a, 0x01, 0x7b, 0xc5, 0xfe, 0xd2, 0x01,
        0x6f, 0x01, 0x00, 0x01,
    ];
    let e = candor::decode_one::<Result<u8, candor::Empty>>(&bytes).unwrap_err();
    assert!(e.to_string().starts_with("Cannot decode empty type"), "{e}");
    // A two-case variant with index 3 on the wire.
    let bytes = [
        0x44, 0x49, 0x44, 0x4c, 0x01, 0x6b, 0x02, 0x00, 0x7f, 0x01, 0x7f, 0x01, 0x00, 0x03,
    ];
    let e = candor::decode_one::<candor::Reserved>(&bytes).unwrap_err();
    assert!(
        e.to_string()
            .contains("Variant index 3 larger than length 2"),
        "{e}"
    );
}

#[test]
fn opcodes_match_the_wire_and_candid() {
    use candor::types::internal::Opcode;
    assert_eq!(Opcode::Null as i64, -1);
    assert_eq!(Opcode::Principal as i64, -24);
    assert_eq!(
        Opcode::Record as i64,
        candid::types::internal::Opcode::Record as i64
    );
}

#[test]
fn text_size_is_candids_estimate() {
    use candor::types::internal::text_size;
    use candor::types::{Field, Label, TypeInner};
    let nat = TypeInner::Nat.into();
    assert_eq!(text_size(&nat, 10), Ok(3));
    assert_eq!(text_size(&nat, 2), Err(()));
    let record = TypeInner::Record(vec![Field {
        id: Label::Named("balance".into()).into(),
        ty: TypeInner::Vec(TypeInner::Nat8.into()).into(),
    }])
    .into();
    // An estimate, not a measure: `vec nat8` counts as written out although it
    // prints as `blob` (candid's charges, which decide what a diagnostic elides).
    let theirs = candid::types::internal::text_size(
        &candid::types::TypeInner::Record(vec![candid::types::Field {
            id: candid::types::Label::Named("balance".into()).into(),
            ty: candid::types::TypeInner::Vec(candid::types::TypeInner::Nat8.into()).into(),
        }])
        .into(),
        100,
    );
    assert_eq!(text_size(&record, 100), theirs);
    assert_eq!(theirs, Ok(27));
    assert_eq!(text_size(&record, 26), Err(()));
}

#[test]
fn parse_int_errors_convert_as_in_candid() {
    fn parse(s: &str) -> candor::Result<u8> {
        Ok(s.parse::<u8>()?)
    }
    let ours = parse("x").unwrap_err().to_string();
    assert!(ours.starts_with("ParseIntError: invalid digit"), "{ours}");
}

#[test]
fn value_with_type_takes_field_names_from_the_type() {
    use candor::types::{Field, Label, TypeEnv, TypeInner};
    use candor::IDLValue;
    let bytes = candor::encode_one((7u8,)).unwrap();
    let ty = TypeInner::Record(vec![Field {
        id: Label::Id(0).into(),
        ty: TypeInner::Nat8.into(),
    }])
    .into();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    let v = de.get_value_with_type(&TypeEnv::new(), &ty).unwrap();
    assert!(
        matches!(v, IDLValue::Record(ref fs) if fs.len() == 1),
        "{v:?}"
    );
}

#[test]
fn missing_and_extra_values_and_unknown_cases_use_candids_wording() {
    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    enum Unit {
        Foo,
        Bar,
    }
    // `variant { Baa; Foo }`: the case on the wire (id 3_303_860) is not in `Unit`.
    let bytes = [
        0x44, 0x49, 0x44, 0x4c, 0x01, 0x6b, 0x02, 0xb4, 0xd3, 0xc9, 0x01, 0x7f, 0xe6, 0xfd, 0xd5,
        0x01, 0x7f, 0x01, 0x00, 0x00,
    ];
    let e = candor::decode_one::<Unit>(&bytes).unwrap_err();
    assert_eq!(e.kind(), candor::ErrorKind::Subtype);
    assert!(
        e.to_string()
            .contains("Unknown variant field 3_303_860 at byte offset 19"),
        "{e}"
    );
    let e = candor::decode_one::<u8>(b"DIDL\x00\x00").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("No more values on the wire, the expected type nat8"),
        "{e}"
    );
    let e = candor::decode_one::<bool>(b"DIDL\x00\x01\x7e\x01\x01").unwrap_err();
    assert_eq!(
        e.to_string(),
        "malformed message: Trailing value after finishing deserialization at byte offset 8"
    );
}
