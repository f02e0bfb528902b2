//! The path segment a record field adds to an error leaving its value: the
//! field's name when the expected type names it, else its id. The decoder keeps
//! only the field's index between its key and its value, and finds the name or id
//! from it on the error path.

#[derive(candor::CandidType, serde::Deserialize, Debug)]
struct Named {
    a: u8,
    b: String,
}

/// A message whose field `b` holds text that is not UTF-8.
fn bad_text() -> Vec<u8> {
    let mut bytes = candor::encode_one(Named {
        a: 1,
        b: "ab".to_string(),
    })
    .unwrap();
    // The text is the message's last byte.
    *bytes.last_mut().unwrap() = 0xff;
    bytes
}

#[test]
fn a_named_field_names_itself_in_the_path() {
    let err = candor::decode_one::<Named>(&bad_text()).unwrap_err();
    assert_eq!(
        err.to_string().lines().next(),
        Some(
            "malformed message: invalid UTF-8 in text: invalid utf-8 sequence of 1 bytes \
             from index 1 at byte offset 15 in arg 0 → b"
        )
    );
}

#[test]
fn an_unnamed_field_gives_its_id_in_the_path() {
    let err = candor::IDLArgs::from_bytes(&bad_text()).unwrap_err();
    let id = candor::idl_hash("b");
    assert_eq!(
        err.to_string().lines().next().map(str::to_string),
        Some(format!(
            "malformed message: invalid UTF-8 in text: invalid utf-8 sequence of 1 bytes \
             from index 1 at byte offset 15 in arg 0 → {id}"
        ))
    );
}
