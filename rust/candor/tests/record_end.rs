//! A record's visitor that returns before the record's end (a hand-written
//! `Deserialize` that reads some fields and stops): the reader is then inside the
//! record, so nothing after it reads right. candid 0.10.39 fails such a message;
//! candor fails it too, with an error that says why, and keeps the struct a
//! derived visitor builds where its caller wants it (`StructAccess`).

use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;

/// Reads the first field of a `record { a : nat64; b : B }` and stops.
#[derive(Debug, PartialEq)]
struct FirstOnly(u64);

impl<'de> de::Deserialize<'de> for FirstOnly {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FirstOnly;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a record whose first field is a nat64")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<FirstOnly, A::Error> {
                let _key: Option<String> = m.next_key()?;
                Ok(FirstOnly(m.next_value()?))
            }
        }
        d.deserialize_struct("FirstOnly", &["a", "b"], V)
    }
}

/// `FirstOnly`'s type with `b : text` (bytes left unread) or `b : null` (none).
macro_rules! first_only_type {
    ($krate:ident, $b:ident) => {
        $krate::types::TypeInner::Record(vec![
            $krate::types::Field {
                id: $krate::types::Label::Named("a".into()).into(),
                ty: $krate::types::TypeInner::Nat64.into(),
            },
            $krate::types::Field {
                id: $krate::types::Label::Named("b".into()).into(),
                ty: $krate::types::TypeInner::$b.into(),
            },
        ])
        .into()
    };
}

/// `$t` typed as `record { a : nat64; b : $b }` in both crates.
macro_rules! typed_as_first_only {
    ($t:ty, $b:ident) => {
        impl candid::CandidType for $t {
            fn _ty() -> candid::types::Type {
                first_only_type!(candid, $b)
            }
            fn idl_serialize<S: candid::types::Serializer>(&self, _: S) -> Result<(), S::Error> {
                unreachable!("only decoded")
            }
        }
        impl candor::CandidType for $t {
            fn _ty() -> candor::types::Type {
                first_only_type!(candor, $b)
            }
            fn idl_serialize<S: candor::types::Serializer>(&self, _: S) -> Result<(), S::Error> {
                unreachable!("only decoded")
            }
        }
    };
}

typed_as_first_only!(FirstOnly, Text);

/// The same reader typed with `b : null`: nothing is left unread on the wire.
#[derive(Debug, PartialEq)]
struct FirstOfTwo(u64);

impl<'de> de::Deserialize<'de> for FirstOfTwo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        FirstOnly::deserialize(d).map(|FirstOnly(n)| FirstOfTwo(n))
    }
}
typed_as_first_only!(FirstOfTwo, Null);

#[derive(candid::CandidType, serde::Deserialize)]
struct Full {
    a: u64,
    b: String,
}

#[derive(candid::CandidType, serde::Deserialize)]
struct FullNull {
    a: u64,
    b: (),
}

const STOPPED: &str = "a record's visitor returned before reading all its fields";

#[test]
fn a_visitor_that_stops_early_fails_the_message_as_in_candid() {
    let full = || Full {
        a: 7,
        b: "left unread".into(),
    };
    let one = candid::encode_one(full()).unwrap();
    let two = candid::encode_args((full(), 5u8)).unwrap();
    let err = candor::decode_one::<FirstOnly>(&one).unwrap_err();
    assert!(err.to_string().contains(STOPPED), "{err}");
    assert!(candid::decode_one::<FirstOnly>(&one).is_err());
    // The next argument would be read from inside the record.
    let err = candor::decode_args::<(FirstOnly, u8)>(&two).unwrap_err();
    assert!(err.to_string().contains(STOPPED), "{err}");
    assert!(candid::decode_args::<(FirstOnly, u8)>(&two).is_err());
    // Also when what is left takes no bytes: candid fails that message too.
    let null = candid::encode_one(FullNull { a: 7, b: () }).unwrap();
    let err = candor::decode_one::<FirstOfTwo>(&null).unwrap_err();
    assert!(err.to_string().contains(STOPPED), "{err}");
    assert!(candid::decode_one::<FirstOfTwo>(&null).is_err());
    // Through the decoder: the value comes back, and `done` says what is wrong.
    let mut de = candor::IDLDeserialize::new(&one).unwrap();
    assert_eq!(de.get_value::<FirstOnly>().unwrap(), FirstOnly(7));
    let err = de.done().unwrap_err();
    assert!(err.to_string().contains(STOPPED), "{err}");
}

/// A record left unfinished by `x`, then a Rust tuple read from a record whose
/// ids are not 0..n: the tuple's read fails with a subtype error, so an `opt`
/// around `Inner` decodes as `null` (`tests/opt_coercion.rs`).
#[derive(Debug, PartialEq, candor::Deserialize, candor::CandidType)]
struct Inner {
    x: FirstOfTwo,
    y: (u8, u8),
}

#[derive(Debug, PartialEq, candor::Deserialize, candor::CandidType)]
struct Outer {
    x: FirstOfTwo,
    y: Option<Inner>,
}

mod wire {
    use candid::types::value::IDLField;
    use candid::types::{Field, Label, Type, TypeInner as T};
    use candid::{IDLArgs, IDLValue as V, TypeEnv};

    fn record(fields: Vec<(Label, Type, V)>) -> (Type, V) {
        let mut fields = fields;
        fields.sort_by_key(|(l, ..)| l.get_id());
        let ty = T::Record(
            fields
                .iter()
                .map(|(id, ty, _)| Field {
                    id: id.clone().into(),
                    ty: ty.clone(),
                })
                .collect(),
        );
        let val = V::Record(
            fields
                .into_iter()
                .map(|(id, _, val)| IDLField { id, val })
                .collect(),
        );
        (ty.into(), val)
    }

    fn named(name: &str) -> Label {
        Label::Named(name.into())
    }

    /// `record { a : nat64; b : null }`.
    fn first(a: u64) -> (Type, V) {
        record(vec![
            (named("a"), T::Nat64.into(), V::Nat64(a)),
            (named("b"), T::Null.into(), V::Null),
        ])
    }

    /// `record { x : record { a; b }; y : record { 0 : nat8; 1 : nat8; 4 : null } }`.
    pub fn inner() -> (Type, V) {
        let (yt, yv) = record(vec![
            (Label::Id(0), T::Nat8.into(), V::Nat8(2)),
            (Label::Id(1), T::Nat8.into(), V::Nat8(3)),
            (Label::Id(4), T::Null.into(), V::Null),
        ]);
        let (xt, xv) = first(1);
        record(vec![(named("x"), xt, xv), (named("y"), yt, yv)])
    }

    /// `record { x : record { a; b }; y : opt inner }`, `y` holding a value.
    pub fn outer() -> (Type, V) {
        let (it, iv) = inner();
        let (xt, xv) = first(4);
        record(vec![
            (named("x"), xt, xv),
            (named("y"), T::Opt(it).into(), V::Opt(Box::new(iv))),
        ])
    }

    pub fn encode((ty, val): (Type, V)) -> Vec<u8> {
        IDLArgs::new(&[val])
            .to_bytes_with_types(&TypeEnv::new(), &[ty])
            .unwrap()
    }

    pub fn some(t: (Type, V)) -> (Type, V) {
        (T::Opt(t.0).into(), V::Opt(Box::new(t.1)))
    }
}

/// A record left before its end inside an `opt` whose read fails with a
/// subtype error goes with that read (the `opt` is `null`); one left before the
/// `opt` still fails the message.
#[test]
fn a_record_left_inside_an_opt_that_reads_as_null_goes_with_it() {
    let bytes = wire::encode(wire::some(wire::inner()));
    assert_eq!(candor::decode_one::<Option<Inner>>(&bytes).unwrap(), None);
    let err = candor::decode_one::<Outer>(&wire::encode(wire::outer())).unwrap_err();
    assert!(err.to_string().contains(STOPPED), "{err}");
}

/// Typed `nat8`, read as a struct: every read fails with a subtype error, which
/// an `opt` around it turns into `null`.
#[derive(Debug, PartialEq)]
struct NotARecord;

impl<'de> de::Deserialize<'de> for NotARecord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The struct read fails before any visitor is called.
        FirstOnly::deserialize(d).map(|_| NotARecord)
    }
}

impl candor::CandidType for NotARecord {
    fn _ty() -> candor::types::Type {
        candor::types::TypeInner::Nat8.into()
    }
    fn idl_serialize<S: candor::types::Serializer>(&self, _: S) -> Result<(), S::Error> {
        unreachable!("only decoded")
    }
}

/// A struct read of a value that is not a record leaves the level it entered:
/// many of them in a row, each `null` in its `opt`, never reach the depth bound.
#[test]
fn a_record_read_that_fails_at_once_leaves_its_level() {
    let n = 4 * candor::de::DEFAULT_MAX_DEPTH as usize;
    let bytes = candid::encode_one(vec![Some(1u8); n]).unwrap();
    let got = candor::decode_one::<Vec<Option<NotARecord>>>(&bytes).unwrap();
    assert_eq!(got.len(), n);
    assert!(got.iter().all(Option::is_none));
}
