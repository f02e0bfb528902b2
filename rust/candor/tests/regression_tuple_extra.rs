//! A Rust tuple decodes from a wire tuple with more fields: record subtyping ignores
//! the extra fields (spec/differences.md D7; candid leaves them in the input).

#[test]
fn extra_tuple_fields_are_skipped() {
    let bytes = candor::encode_one((1u8, 2u8, 3u8)).unwrap();
    let (a, b): (u8, u8) = candor::decode_one(&bytes).unwrap();
    assert_eq!((a, b), (1, 2));
    // A following argument is still read from the right place.
    let bytes = candor::encode_args(((1u8, 2u8, 3u8), 9u32)).unwrap();
    let ((a, b), n): ((u8, u8), u32) = candor::decode_args(&bytes).unwrap();
    assert_eq!((a, b, n), (1, 2, 9));
}

#[test]
fn arrays_take_exactly_their_length() {
    // A fixed-size array must not drop elements silently (fast path included).
    let bytes = candor::encode_one(vec![1u8, 2, 3]).unwrap();
    let err = candor::decode_one::<[u8; 2]>(&bytes).unwrap_err();
    assert!(
        err.to_string()
            .contains("expected a vector of 2 elements, found 3"),
        "{err}"
    );
    let bytes = candor::encode_one(vec!["a".to_string(), "b".into(), "c".into()]).unwrap();
    assert!(candor::decode_one::<[String; 2]>(&bytes).is_err());
    let bytes = candor::encode_one(vec![7u16, 8]).unwrap();
    assert_eq!(candor::decode_one::<[u16; 2]>(&bytes).unwrap(), [7, 8]);
}

/// Only records whose ids are exactly 0..n are tuples: the check looks at the last id
/// (ids are strictly increasing), so gaps and offsets must still be refused, as candid
/// refuses them.
#[test]
fn records_with_gaps_are_not_tuples() {
    // `record { 0 : nat8; 2 : nat8 }` and `record { 1 : nat8; 2 : nat8 }`, value (1, 2).
    let message = |first_id: u8, second_id: u8| {
        let mut m = b"DIDL\x01\x6c\x02".to_vec();
        m.extend_from_slice(&[first_id, 0x7b, second_id, 0x7b, 0x01, 0x00, 0x01, 0x02]);
        m
    };
    for bytes in [message(0, 2), message(1, 2)] {
        let ours = candor::decode_one::<(u8, u8)>(&bytes);
        let theirs = candid::decode_one::<(u8, u8)>(&bytes);
        assert!(ours.is_err(), "{ours:?}");
        assert!(theirs.is_err(), "{theirs:?}");
    }
    // The same layout with ids 0 and 1 is a tuple.
    assert_eq!(
        candor::decode_one::<(u8, u8)>(&message(0, 1)).unwrap(),
        (1, 2)
    );
    // A one-field tuple and the empty record stay tuples.
    let bytes = candor::encode_one((5u8,)).unwrap();
    assert_eq!(candor::decode_one::<(u8,)>(&bytes).unwrap(), (5,));
    let bytes = candor::encode_one(()).unwrap();
    candor::decode_one::<()>(&bytes).unwrap();
}

/// An extra field of type `empty` (D7): candid reads the tuple's fields and leaves
/// the extra one unread, so it accepts; candor skips it, and a value of `empty`
/// does not exist, so it refuses the message, as both crates do for a struct with
/// named fields, whose extra fields candid skips too.
#[test]
fn an_extra_empty_field_is_refused() {
    // `record { 0 : nat8; 1 : nat8; 2 : empty }`, values 1 and 2 (none for `empty`).
    let bytes = b"DIDL\x01\x6c\x03\x00\x7b\x01\x7b\x02\x6f\x01\x00\x01\x02";
    let ours = candor::decode_one::<(u8, u8)>(bytes).map_err(|e| e.to_string());
    let theirs = candid::decode_one::<(u8, u8)>(bytes).map_err(|e| e.to_string());
    assert!(
        ours.as_ref()
            .is_err_and(|e| e.starts_with("Cannot decode empty type")),
        "{ours:?}"
    );
    assert_eq!(theirs, Ok((1, 2)));

    // `record { a : nat8; z : empty }` (ids in increasing order), value 1.
    let (a, z) = (candor::idl_hash("a"), candor::idl_hash("z"));
    assert!(a < z);
    let mut bytes = b"DIDL\x01\x6c\x02".to_vec();
    for (id, ty) in [(a, 0x7b), (z, 0x6f)] {
        leb128::write::unsigned(&mut bytes, u64::from(id)).unwrap();
        bytes.push(ty);
    }
    bytes.extend_from_slice(b"\x01\x00\x01");
    #[derive(candor::Deserialize, candor::CandidType)]
    struct Ours {
        a: u8,
    }
    #[derive(candid::Deserialize, candid::CandidType)]
    struct Theirs {
        a: u8,
    }
    assert!(candor::decode_one::<Ours>(&bytes).is_err());
    assert!(candid::decode_one::<Theirs>(&bytes).is_err());
}
