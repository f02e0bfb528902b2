//! Future types (a type-table opcode below the known ones, its body skipped by its
//! length): a future type is a subtype of itself, and a future value read at its
//! own type is `null`, as in candid 0.10.39 (an old decoder skips what it does not
//! understand). Each message is decoded by both crates.

mod common;

use common::to_candid;

/// Type-table entry 0 of every message below: opcode -25 with a two-byte body.
const FUTURE: &[u8] = b"\x67\x02\xaa\xbb";

/// A future value: two bytes, no references.
const FUTURE_VALUE: &[u8] = b"\x02\x00ab";

fn message(table: &[&[u8]], args: &[u8], values: &[u8]) -> Vec<u8> {
    let mut m = b"DIDL".to_vec();
    m.push(table.len() as u8);
    for t in table {
        m.extend_from_slice(t);
    }
    m.push(args.len() as u8);
    m.extend_from_slice(args);
    m.extend_from_slice(values);
    m
}

/// Both crates' `IDLArgs` of a message at its own types, as candid's values.
fn at_wire_types(
    bytes: &[u8],
) -> (
    Result<candid::IDLArgs, String>,
    Result<candid::IDLArgs, String>,
) {
    let ours = candor::IDLArgs::from_bytes(bytes)
        .map(|a| to_candid::args(&a))
        .map_err(|e| e.to_string());
    let theirs = candid::IDLArgs::from_bytes(bytes).map_err(|e| e.to_string());
    (ours, theirs)
}

/// `func (future) -> ()` read at its own type: reflexivity holds for the future
/// argument type, so the reference is accepted.
#[test]
fn a_func_of_a_future_type_is_a_subtype_of_itself() {
    let func = b"\x6a\x01\x00\x00\x00";
    let value = b"\x01\x01\x03\x01\x02\x03\x01m";
    let bytes = message(&[FUTURE, func], &[1], value);
    let (ours, theirs) = at_wire_types(&bytes);
    let theirs = theirs.unwrap();
    assert_eq!(ours.unwrap(), theirs);
    assert!(matches!(theirs.args[0], candid::IDLValue::Func(..)));
    // A service whose method takes a future argument, the same way.
    let service = b"\x69\x01\x01m\x01";
    let bytes = message(&[FUTURE, func, service], &[2], b"\x01\x03\x01\x02\x03");
    let (ours, theirs) = at_wire_types(&bytes);
    assert_eq!(ours.unwrap(), theirs.unwrap());
}

/// A future-typed argument, record field or `opt` content, read at its own type:
/// `null`.
#[test]
fn future_values_read_as_null() {
    // The argument itself.
    let bytes = message(&[FUTURE], &[0], FUTURE_VALUE);
    let (ours, theirs) = at_wire_types(&bytes);
    let theirs = theirs.unwrap();
    assert_eq!(theirs.args, [candid::IDLValue::Null]);
    assert_eq!(ours.unwrap(), theirs);

    // A record field: `record { 0 : nat8; 1 : future }`.
    let record = b"\x6c\x02\x00\x7b\x01\x00";
    let mut value = vec![7u8];
    value.extend_from_slice(FUTURE_VALUE);
    let bytes = message(&[FUTURE, record], &[1], &value);
    let (ours, theirs) = at_wire_types(&bytes);
    assert_eq!(ours.unwrap(), theirs.unwrap());

    // `opt future`, present, and a vector of two future values.
    let mut value = vec![1u8];
    value.extend_from_slice(FUTURE_VALUE);
    let bytes = message(&[FUTURE, b"\x6e\x00"], &[1], &value);
    let (ours, theirs) = at_wire_types(&bytes);
    let theirs = theirs.unwrap();
    assert_eq!(
        theirs.args,
        [candid::IDLValue::Opt(Box::new(candid::IDLValue::Null))]
    );
    assert_eq!(ours.unwrap(), theirs);
    let mut value = vec![2u8];
    value.extend_from_slice(FUTURE_VALUE);
    value.extend_from_slice(FUTURE_VALUE);
    let bytes = message(&[FUTURE, b"\x6d\x00"], &[1], &value);
    let (ours, theirs) = at_wire_types(&bytes);
    assert_eq!(ours.unwrap(), theirs.unwrap());

    // The decoding quota left is candid's: the value is decoded, not skipped.
    let bytes = message(&[FUTURE], &[0], FUTURE_VALUE);
    let mut config = candor::DecoderConfig::new();
    config.set_decoding_quota(10_000);
    let mut de = candor::IDLDeserialize::new_with_config(&bytes, &config).unwrap();
    let v: candor::IDLValue = de.get_value().unwrap();
    de.done().unwrap();
    assert_eq!(v, candor::IDLValue::Null);
    let ours = de.get_config().decoding_quota;
    let mut config = candid::de::DecoderConfig::new();
    config.set_decoding_quota(10_000);
    let mut de = candid::de::IDLDeserialize::new_with_config(&bytes, &config).unwrap();
    let v: candid::IDLValue = de.get_value().unwrap();
    de.done().unwrap();
    assert_eq!(v, candid::IDLValue::Null);
    assert_eq!(ours, de.get_config().decoding_quota);
}

/// The same future values read into Rust types: skipped as an extra field, `null`
/// inside an `opt`, refused where a value is required; as candid does.
#[test]
fn future_values_in_rust_types() {
    let record = b"\x6c\x02\x00\x7b\x01\x00";
    let mut value = vec![7u8];
    value.extend_from_slice(FUTURE_VALUE);
    let bytes = message(&[FUTURE, record], &[1], &value);
    #[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
    struct Ours(u8, Option<u8>);
    #[derive(candid::CandidType, candid::Deserialize, Debug, PartialEq)]
    struct Theirs(u8, Option<u8>);
    assert_eq!(candor::decode_one::<Ours>(&bytes).unwrap(), Ours(7, None));
    assert_eq!(
        candid::decode_one::<Theirs>(&bytes).unwrap(),
        Theirs(7, None)
    );
    assert_eq!(
        candor::decode_one::<(u8, candor::Reserved)>(&bytes)
            .unwrap()
            .0,
        7
    );
    assert_eq!(
        candid::decode_one::<(u8, candid::Reserved)>(&bytes)
            .unwrap()
            .0,
        7
    );
    assert!(candor::decode_one::<(u8, ())>(&bytes).is_err());
    assert!(candid::decode_one::<(u8, ())>(&bytes).is_err());

    let mut value = vec![1u8];
    value.extend_from_slice(FUTURE_VALUE);
    let bytes = message(&[FUTURE, b"\x6e\x00"], &[1], &value);
    assert_eq!(candor::decode_one::<Option<u8>>(&bytes).unwrap(), None);
    assert_eq!(candid::decode_one::<Option<u8>>(&bytes).unwrap(), None);
    assert_eq!(candor::decode_one::<Option<()>>(&bytes).unwrap(), None);
    assert_eq!(candid::decode_one::<Option<()>>(&bytes).unwrap(), None);

    // The argument itself, read as an `IDLValue` at an `opt` type: `null`.
    let bytes = message(&[FUTURE], &[0], FUTURE_VALUE);
    assert_eq!(candor::decode_one::<Option<u8>>(&bytes).unwrap(), None);
    assert_eq!(candid::decode_one::<Option<u8>>(&bytes).unwrap(), None);
    assert!(candor::decode_one::<u8>(&bytes).is_err());
    assert!(candid::decode_one::<u8>(&bytes).is_err());
}

/// A future value's byte count and reference count are lengths: candid reads each
/// in at most nine LEB128 bytes, so ten are refused even for a small number, as for
/// a text's length. Nine are read; ten are refused, whether the value is read at its
/// own type or skipped as an extra argument.
#[test]
fn a_future_values_counts_take_at_most_nine_leb_bytes() {
    let nine = b"\x80\x80\x80\x80\x80\x80\x80\x80\x00";
    let ten = b"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00";
    let zero_byte_count = |count: &[u8], refs: &[u8]| [count, refs].concat();
    for (values, accepted) in [
        (zero_byte_count(b"\x00", nine), true),
        (zero_byte_count(nine, b"\x00"), true),
        (zero_byte_count(b"\x00", ten), false),
        (zero_byte_count(ten, b"\x00"), false),
    ] {
        let bytes = message(&[FUTURE], b"\x00", &values);
        let (ours, theirs) = at_wire_types(&bytes);
        assert_eq!(ours.is_ok(), accepted, "{values:02x?}: {ours:?}");
        assert_eq!(theirs.is_ok(), accepted, "{values:02x?}: {theirs:?}");
        if accepted {
            assert_eq!(ours, theirs);
        }
        let ours = candor::decode_args::<()>(&bytes).map_err(|e| e.to_string());
        let theirs = candid::decode_args::<()>(&bytes).map_err(|e| e.to_string());
        assert_eq!(ours.is_ok(), accepted, "skipped {values:02x?}: {ours:?}");
        assert_eq!(
            theirs.is_ok(),
            accepted,
            "skipped {values:02x?}: {theirs:?}"
        );
    }
}
