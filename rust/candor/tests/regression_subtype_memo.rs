//! Arguments of one message decoded against different expected arenas (a Rust type,
//! then a run-time type or the wire type) must not share subtype answers: the memo is
//! keyed by node indices, and the same indices mean other types in another arena.
//! Each case decodes the same way as candid.

use candor::types::{Field, Label, TypeEnv, TypeInner};

#[derive(candor::CandidType, candor::Deserialize, Debug)]
struct Nats {
    x: candor::Nat,
}

#[derive(candor::CandidType, candor::Deserialize, Debug)]
struct Texts {
    x: String,
}

#[derive(candid::CandidType, candid::Deserialize, Debug)]
struct TheirNats {
    x: candid::Nat,
}

#[derive(candid::CandidType, candid::Deserialize, Debug)]
struct TheirTexts {
    x: String,
}

fn two_opt_records() -> Vec<u8> {
    let one = Some(Nats { x: 1u8.into() });
    let two = Some(Nats { x: 2u8.into() });
    candor::encode_args((one, two)).unwrap()
}

#[test]
fn a_run_time_type_after_a_rust_type_gets_its_own_answers() {
    let bytes = two_opt_records();
    // `opt record { x : text }`: the wire's `record { x : nat }` is no subtype, so
    // the value is null. Its arena's first nodes sit at the indices the Rust type's
    // took, where the answer was "yes".
    let ours_ty = TypeInner::Opt(
        TypeInner::Record(vec![Field {
            id: Label::Named("x".into()).into(),
            ty: TypeInner::Text.into(),
        }])
        .into(),
    )
    .into();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    let first: Option<Nats> = de.get_value().unwrap();
    assert!(first.is_some());
    let ours = de.get_value_with_type(&TypeEnv::new(), &ours_ty).unwrap();
    de.done().unwrap();

    use candid::types as t;
    let their_ty = t::TypeInner::Opt(
        t::TypeInner::Record(vec![t::Field {
            id: t::Label::Named("x".into()).into(),
            ty: t::TypeInner::Text.into(),
        }])
        .into(),
    )
    .into();
    let mut de = candid::de::IDLDeserialize::new(&bytes).unwrap();
    let first: Option<TheirNats> = de.get_value().unwrap();
    assert!(first.is_some());
    let theirs = de
        .get_value_with_type(&t::TypeEnv::new(), &their_ty)
        .unwrap();
    de.done().unwrap();

    assert_eq!(ours.to_string(), theirs.to_string());
    assert_eq!(ours.to_string(), "null");
}

#[test]
fn a_rust_type_after_a_value_at_the_wire_type_gets_its_own_answers() {
    // `(opt record { x : nat }, same)` with the `opt` first in the table, so the
    // wire's record sits at the index `Texts`'s record takes in this thread's arena.
    // Decoded at the wire type, the first record is a subtype of itself; the second
    // is no subtype of `Texts`, so it is null.
    let bytes = b"DIDL\x02\x6e\x01\x6c\x01\x78\x7d\x02\x00\x00\x01\x01\x01\x02".to_vec();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    let ours: candor::IDLValue = de.get_value().unwrap();
    let second: Option<Texts> = de.get_value().unwrap();
    de.done().unwrap();
    assert!(second.is_none());

    let mut de = candid::de::IDLDeserialize::new(&bytes).unwrap();
    let theirs: candid::IDLValue = de.get_value().unwrap();
    let second: Option<TheirTexts> = de.get_value().unwrap();
    de.done().unwrap();
    assert!(second.is_none());

    assert_eq!(ours.to_string(), theirs.to_string());
}
