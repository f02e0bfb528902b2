//! Found by the mutation proptest in CI: a `func` reference whose method name is not
//! UTF-8, inside a record that the `opt` rule turns into `null` (the record lacks a
//! required field). The method name is `text`, so the message is malformed and must
//! be rejected whatever the `opt` decides (candid rejects it too).

#[derive(candor::CandidType, candor::Deserialize, Debug)]
struct Wants {
    f: candor::Func,
    missing: u64,
}

fn message(method: &[u8]) -> Vec<u8> {
    // type 0 = record { f : 1 }; type 1 = func () -> (); one argument of type 0.
    let mut b = b"DIDL\x02\x6c\x01".to_vec();
    b.extend_from_slice(&[0x66, 0x01]); // field "f" (hash 102) : type 1
    b.extend_from_slice(&[0x6a, 0x00, 0x00, 0x00]); // func () -> ()
    b.extend_from_slice(&[0x01, 0x00]); // one argument: type 0
    b.extend_from_slice(&[0x01, 0x01, 0x01, 0xaa]); // reference, principal of 1 byte
    b.push(method.len() as u8);
    b.extend_from_slice(method);
    b
}

#[test]
fn invalid_method_name_under_opt_is_rejected() {
    // Valid name: the record lacks `missing`, so `opt Wants` is null.
    let ok = candor::decode_one::<Option<Wants>>(&message(b"get")).unwrap();
    assert!(ok.is_none());
    // Invalid UTF-8 in the name: malformed, whatever the opt rule would say.
    let err = candor::decode_one::<Option<Wants>>(&message(b"\x80et")).unwrap_err();
    assert_eq!(err.kind(), candor::ErrorKind::Binary, "{err}");
    assert!(
        err.to_string().contains("invalid UTF-8 in method name"),
        "{err}"
    );
    // Skipped as an extra argument: rejected too.
    assert!(candor::decode_args::<()>(&message(b"\x80et")).is_err());
}
