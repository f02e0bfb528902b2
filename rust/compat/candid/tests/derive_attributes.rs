//! The compat crate's `CandidType` derive reads serde's attributes as candid_derive
//! 0.10.39 does, so a dependency that derives `candid::CandidType` gets candid's type
//! and bytes: `rename` names a label, `rename_all` is ignored (candor's own derive
//! applies it, docs/switching.md).

use candid::{CandidType, Deserialize};

/// The labels `rename_all` would change, and one `rename` that stays.
#[derive(CandidType, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Renamed {
    some_field: u8,
    #[serde(rename = "x")]
    other_field: u8,
}

/// `Renamed` with the labels candid_derive gives it written out.
#[derive(CandidType, Deserialize, Debug, PartialEq)]
struct Written {
    some_field: u8,
    #[serde(rename = "x")]
    other_field: u8,
}

#[derive(CandidType, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Cases {
    FirstCase,
    #[serde(rename = "second")]
    SecondCase(u8),
}

#[derive(CandidType, Deserialize, Debug, PartialEq)]
enum WrittenCases {
    FirstCase,
    #[serde(rename = "second")]
    SecondCase(u8),
}

#[test]
fn rename_all_is_ignored_and_rename_is_read() {
    let renamed = candid::encode_one(Renamed {
        some_field: 1,
        other_field: 2,
    })
    .unwrap();
    let written = candid::encode_one(Written {
        some_field: 1,
        other_field: 2,
    })
    .unwrap();
    assert_eq!(renamed, written);
    assert_eq!(
        Renamed::ty().to_string(),
        "record { x : nat8; some_field : nat8 }"
    );

    let renamed = candid::encode_one(Cases::SecondCase(3)).unwrap();
    let written = candid::encode_one(WrittenCases::SecondCase(3)).unwrap();
    assert_eq!(renamed, written);
    assert_eq!(
        Cases::ty().to_string(),
        "variant { second : nat8; FirstCase }"
    );
}
