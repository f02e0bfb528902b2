//! A `Deserialize` impl that reads a `reserved` field through
//! `deserialize_ignored_any` gets the wire value, as with candid (which decodes it at
//! its wire type), at the same cost; serde's `IgnoredAny` still gets a skip.

use serde::de::{Deserialize, Deserializer};

/// Defines `Embed`, whose one field has Candid type `reserved` and keeps the value
/// the wire had, for one crate.
macro_rules! embed {
    ($module:ident, $krate:ident, $visitor:path) => {
        mod $module {
            use super::*;
            use $krate::types::{Serializer, Type, TypeInner};
            use $krate::CandidType;

            #[derive(Debug)]
            pub struct Any(pub $krate::IDLValue);

            impl CandidType for Any {
                fn _ty() -> Type {
                    TypeInner::Reserved.into()
                }
                fn idl_serialize<S: Serializer>(&self, _: S) -> Result<(), S::Error> {
                    unreachable!("only decoded")
                }
            }

            impl<'de> Deserialize<'de> for Any {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    d.deserialize_ignored_any($visitor).map(Any)
                }
            }

            #[derive(Debug, $krate::Deserialize, CandidType)]
            pub struct Embed {
                pub value: Any,
            }

            /// The value as text and the decoding quota left out of 1,000,000.
            pub fn decode(bytes: &[u8]) -> (String, Option<usize>) {
                let mut config = $krate::DecoderConfig::new();
                config.set_decoding_quota(1_000_000);
                let mut de = $krate::de::IDLDeserialize::new_with_config(bytes, &config).unwrap();
                let e: Embed = de.get_value().unwrap();
                de.done().unwrap();
                (e.value.0.to_string(), de.get_config().decoding_quota)
            }
        }
    };
}

embed!(ours, candor, candor::value::IDLValueVisitor);
embed!(theirs, candid, candid::types::value::IDLValueVisitor);

#[derive(candid::CandidType)]
struct Wire<T> {
    value: T,
}

#[test]
fn the_wire_value_reaches_the_visitor_at_candids_cost() {
    #[derive(candid::CandidType)]
    enum E {
        Foo,
        Bar(bool, i32),
        Baz { a: i32, b: u32 },
    }
    let messages = [
        candid::encode_one(Wire { value: 42u8 }).unwrap(),
        candid::encode_one(Wire { value: "text" }).unwrap(),
        candid::encode_one(Wire {
            value: Some(vec![1u16, 2, 3]),
        })
        .unwrap(),
        candid::encode_one(Wire { value: E::Foo }).unwrap(),
        candid::encode_one(Wire {
            value: E::Bar(true, -3),
        })
        .unwrap(),
        candid::encode_one(Wire {
            value: E::Baz { a: 1, b: 2 },
        })
        .unwrap(),
        candid::encode_one(Wire {
            value: candid::Nat::parse(b"1180591620717411303424").unwrap(),
        })
        .unwrap(),
        candid::encode_one(Wire { value: () }).unwrap(),
    ];
    for m in &messages {
        let (ours, ours_left) = ours::decode(m);
        let (theirs, theirs_left) = theirs::decode(m);
        assert_eq!(ours, theirs);
        assert_eq!(ours_left, theirs_left, "quota left for {theirs}");
    }
    assert_eq!(ours::decode(&messages[0]).0, "42 : nat8");
}

#[test]
fn reserved_still_skips() {
    let bytes = candor::encode_args((7u64, "x")).unwrap();
    let (r, s): (candor::Reserved, String) = candor::decode_args(&bytes).unwrap();
    assert_eq!((r, s.as_str()), (candor::Reserved, "x"));
}
