//! Encoding into a caller's buffer: `encode_args_into` and a reused `IDLBuilder`
//! give the bytes `encode_args` gives, append after what the buffer holds, and leave
//! it untouched when encoding fails.

use candor::types::{Serializer, Type, TypeInner};
use candor::{encode_args, encode_args_into, CandidType, Deserialize, IDLBuilder, Nat};

#[derive(CandidType, Deserialize, Clone, PartialEq, Debug)]
struct Transfer {
    to: String,
    amount: Nat,
    memo: Option<Vec<u8>>,
}

fn transfer(i: u64) -> Transfer {
    Transfer {
        to: format!("account-{i}"),
        amount: Nat::from(1_000_000u64 * i),
        memo: (i % 2 == 0).then(|| vec![i as u8; i as usize % 40]),
    }
}

/// A value whose serialization fails after it has written some bytes.
struct FailsHalfway;

impl CandidType for FailsHalfway {
    fn _ty() -> Type {
        TypeInner::Nat64.into()
    }
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        let _ = serializer;
        Err(serde::ser::Error::custom("refused"))
    }
}

#[test]
fn appends_the_same_bytes_as_encode_args() {
    let mut out = Vec::new();
    for i in 0..50 {
        out.clear();
        encode_args_into(&(transfer(i), i, "ok"), &mut out).unwrap();
        assert_eq!(
            out,
            encode_args((transfer(i), i, "ok")).unwrap(),
            "message {i}"
        );
    }
    // Appends after what the buffer already holds.
    let mut out = b"prefix".to_vec();
    encode_args_into(&(transfer(3),), &mut out).unwrap();
    assert_eq!(&out[..6], b"prefix");
    assert_eq!(&out[6..], &encode_args((transfer(3),)).unwrap()[..]);
}

#[test]
fn a_failed_encoding_leaves_the_buffer_as_it_was() {
    let mut out = b"kept".to_vec();
    let err = encode_args_into(&(1u8, FailsHalfway), &mut out).unwrap_err();
    assert!(err.to_string().contains("refused"), "{err}");
    assert_eq!(out, b"kept");
    // The next message of the same types still encodes correctly.
    encode_args_into(&(7u8, "x"), &mut out).unwrap();
    assert_eq!(&out[4..], &encode_args((7u8, "x")).unwrap()[..]);
}

#[test]
fn a_cleared_builder_builds_the_next_message_from_scratch() {
    let mut builder = IDLBuilder::new();
    let mut out = Vec::new();
    for i in 0..20 {
        builder.clear();
        out.clear();
        builder.arg(&transfer(i)).unwrap().arg(&i).unwrap();
        builder.serialize_into(&mut out).unwrap();
        assert_eq!(out, encode_args((transfer(i), i)).unwrap(), "message {i}");
    }
    // A different argument list after clear: nothing of the previous one remains.
    builder.clear();
    out.clear();
    builder.arg(&"only").unwrap();
    builder.serialize_into(&mut out).unwrap();
    assert_eq!(out, encode_args(("only",)).unwrap());
    // And a dynamic argument after clear.
    builder.clear();
    out.clear();
    builder.value_arg(&candor::IDLValue::Nat64(5)).unwrap();
    builder.serialize_into(&mut out).unwrap();
    assert_eq!(out, encode_args((5u64,)).unwrap());
}

/// A message of 4 KiB or more is kept at its exact size, as candid keeps one (a kept
/// reply of many blocks must not hold more memory than candid's), whether it is the
/// first of its type, one of the same size, or one a little shorter than the last;
/// a message just under that keeps its spare room.
#[test]
fn large_messages_are_exact() {
    for len in [4096usize, 4096, 4200, 4100, 70_000] {
        let message = candor::encode_one(vec![7u8; len]).unwrap();
        assert!(message.len() >= 4096);
        assert_eq!(message.capacity(), message.len(), "a blob of {len} bytes");
    }
    // Another type, so the size kept from the long blobs above does not apply.
    let mut spare = 0;
    for _ in 0..3 {
        let message = candor::encode_one(vec![7u16; 1990]).unwrap();
        assert!(message.len() < 4096);
        spare = message.capacity() - message.len();
        assert!(spare <= 32);
    }
    assert!(
        spare > 0,
        "a message under 4 KiB of a repeated size keeps its slack"
    );
}

/// A new message keeps little spare room (a kept message must not hold more memory
/// than candid's), also when sizes alternate, as with an optional field set every
/// other time.
#[test]
fn new_messages_keep_little_spare_room() {
    #[derive(candor::CandidType)]
    struct Account {
        owner: candor::Principal,
        subaccount: Option<serde_bytes::ByteBuf>,
    }
    for i in 0..20u8 {
        let account = Account {
            owner: candor::Principal::from_slice(&[i; 29]),
            subaccount: (i % 2 == 0).then(|| serde_bytes::ByteBuf::from(vec![i; 32])),
        };
        let message = candor::encode_one(&account).unwrap();
        assert!(
            message.capacity() - message.len() <= 32,
            "message {i}: {} bytes, capacity {}",
            message.len(),
            message.capacity()
        );
    }
}
