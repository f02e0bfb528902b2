//! Each decoder and encoder fast path: a test that takes it, and one that shows it
//! does not fire where it must not (nested values, subtyping, wrong wire types).
//! `spec/decoder.md` lists the condition under which each one fires.

use candor::{decode_one, encode_one, Int, Nat};
use pretty_assertions::assert_eq;
use std::borrow::Cow;
use std::collections::BTreeMap;

// ---- text-keyed maps (`TextKeyDe`) ----------------------------------------------

#[test]
fn text_keyed_map_decodes() {
    let m: BTreeMap<String, u64> = [("a".to_string(), 1), ("bb".into(), 2)].into();
    let bytes = encode_one(&m).unwrap();
    assert_eq!(decode_one::<BTreeMap<String, u64>>(&bytes).unwrap(), m);
    // Borrowed keys too.
    let back: BTreeMap<&str, u64> = decode_one(&bytes).unwrap();
    assert_eq!(back.get("bb"), Some(&2));
}

#[test]
fn text_key_path_does_not_leak_into_values() {
    // The value of a text-keyed map is a map with nat keys: its keys must be read
    // at their own type (candid once carried the text flag into nested maps).
    let inner: BTreeMap<u32, String> = [(7, "x".to_string())].into();
    let m: BTreeMap<String, BTreeMap<u32, String>> = [("k".to_string(), inner)].into();
    let bytes = encode_one(&m).unwrap();
    assert_eq!(
        decode_one::<BTreeMap<String, BTreeMap<u32, String>>>(&bytes).unwrap(),
        m
    );

    // A blob value shares text's length-prefixed layout: it must not be accepted
    // where the map's value type is text.
    let blobs: BTreeMap<String, serde_bytes::ByteBuf> =
        [("k".to_string(), serde_bytes::ByteBuf::from(b"hi".to_vec()))].into();
    let bytes = encode_one(&blobs).unwrap();
    let err = decode_one::<BTreeMap<String, String>>(&bytes).unwrap_err();
    assert!(err.is_subtype(), "{err}");
}

#[test]
fn non_text_wire_keys_are_checked() {
    // Wire keys are nat32, expected keys text: no fast path, a subtype error.
    let m: BTreeMap<u32, u8> = [(1, 2)].into();
    let bytes = encode_one(&m).unwrap();
    assert!(decode_one::<BTreeMap<String, u8>>(&bytes)
        .unwrap_err()
        .is_subtype());
}

// ---- primitive vectors (`PrimVecAccess`) ------------------------------------------

#[test]
fn primitive_vectors_decode() {
    let v: Vec<i16> = (-300..300).collect();
    assert_eq!(decode_one::<Vec<i16>>(&encode_one(&v).unwrap()).unwrap(), v);
    let f: Vec<f64> = vec![f64::NAN, -0.0, 1.5, f64::INFINITY];
    let back: Vec<f64> = decode_one(&encode_one(&f).unwrap()).unwrap();
    assert_eq!(
        back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        f.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    let b = vec![true, false, true];
    assert_eq!(
        decode_one::<Vec<bool>>(&encode_one(&b).unwrap()).unwrap(),
        b
    );
    // Every element width, with the extreme values (each width has its own reader).
    fn round_trip<T>(v: Vec<T>)
    where
        T: candor::CandidType + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        assert_eq!(decode_one::<Vec<T>>(&encode_one(&v).unwrap()).unwrap(), v);
    }
    round_trip(vec![0u8, 1, u8::MAX]);
    round_trip(vec![i8::MIN, -1, 0, i8::MAX]);
    round_trip(vec![0u16, u16::MAX]);
    round_trip(vec![0u32, 1 << 31, u32::MAX]);
    round_trip(vec![i32::MIN, i32::MAX]);
    round_trip(vec![0u64, u64::MAX]);
    round_trip(vec![i64::MIN, -1, i64::MAX]);
    round_trip(vec![f32::MIN, 0.5, f32::MAX]);
    round_trip(Vec::<u64>::new());
    // Arrays take the same path, with their length checked.
    let a: [u32; 3] = decode_one(&encode_one([7u32, 8, 9]).unwrap()).unwrap();
    assert_eq!(a, [7, 8, 9]);
    assert!(decode_one::<[u32; 2]>(&encode_one([7u32, 8, 9]).unwrap()).is_err());
    // A count larger than the bytes left is an error before anything is read.
    let mut bytes = encode_one(vec![1u32, 2, 3]).unwrap();
    bytes.truncate(bytes.len() - 1);
    assert!(decode_one::<Vec<u32>>(&bytes).is_err());
}

#[test]
fn primitive_vector_path_needs_equal_element_types() {
    // nat16 elements are not nat32 elements.
    let bytes = encode_one(vec![1u16, 2]).unwrap();
    assert!(decode_one::<Vec<u32>>(&bytes).unwrap_err().is_subtype());
    // opt elements: the general path, with the opt rule per element.
    let bytes = encode_one(vec![1u32, 2]).unwrap();
    assert_eq!(
        decode_one::<Vec<Option<u32>>>(&bytes).unwrap(),
        vec![Some(1), Some(2)]
    );
    // Nested vectors: each inner vector takes the path on its own.
    let nested = vec![vec![1u64, 2], vec![], vec![3]];
    assert_eq!(
        decode_one::<Vec<Vec<u64>>>(&encode_one(&nested).unwrap()).unwrap(),
        nested
    );
    // An invalid bool inside a bool vector is an error, not `true`.
    let mut bytes = encode_one(vec![true, false]).unwrap();
    let last = bytes.len() - 1;
    bytes[last] = 2;
    assert!(decode_one::<Vec<bool>>(&bytes).is_err());
}

// ---- bignum vectors ------------------------------------------------------------------

#[test]
fn bignum_vectors_decode_with_subtyping() {
    let nats: Vec<Nat> = vec![Nat::from(0u8), Nat::from(u64::MAX) * Nat::from(3u8)];
    let bytes = encode_one(&nats).unwrap();
    assert_eq!(decode_one::<Vec<Nat>>(&bytes).unwrap(), nats);
    // nat <: int
    let ints: Vec<Int> = decode_one(&bytes).unwrap();
    assert_eq!(
        ints,
        nats.iter().cloned().map(Int::from).collect::<Vec<_>>()
    );
    // int is not a nat
    let bytes = encode_one(vec![Int::from(-1)]).unwrap();
    assert!(decode_one::<Vec<Nat>>(&bytes).unwrap_err().is_subtype());
}

/// Numbers too big for 64 bits reach the visitor as little-endian bytes packed straight
/// from the LEB128 groups (eight at a time), and are written eight groups at a time:
/// both directions against candid, at sizes around the 56-bit steps, both signs, typed
/// and dynamic, and nat read as int.
#[test]
fn bignums_match_candid_both_ways() {
    use num_bigint::{BigInt, BigUint};
    let mut nats = Vec::new();
    let mut ints = Vec::new();
    for bits in [
        64u32, 65, 111, 112, 113, 119, 120, 168, 169, 447, 448, 449, 1000, 4096,
    ] {
        let p = BigUint::from(1u8) << bits;
        for n in [
            p.clone() - 1u8,
            p.clone(),
            p.clone() + 12345u32,
            p * 3u8 + 1u8,
        ] {
            ints.push(BigInt::from(n.clone()));
            ints.push(-BigInt::from(n.clone()));
            ints.push(-BigInt::from(n.clone()) - 1);
            nats.push(n);
        }
    }
    for n in nats {
        let theirs = candid::encode_one(candid::Nat(n.clone())).unwrap();
        assert_eq!(encode_one(Nat(n.clone())).unwrap(), theirs);
        assert_eq!(decode_one::<Nat>(&theirs).unwrap(), Nat(n.clone()));
        assert_eq!(
            decode_one::<Int>(&theirs).unwrap(),
            Int(BigInt::from(n.clone()))
        );
        let dynamic = candor::IDLArgs::from_bytes(&theirs).unwrap();
        assert_eq!(dynamic.args, [candor::IDLValue::Nat(Nat(n))]);
    }
    for i in ints {
        let theirs = candid::encode_one(candid::Int(i.clone())).unwrap();
        assert_eq!(encode_one(Int(i.clone())).unwrap(), theirs, "{i}");
        assert_eq!(decode_one::<Int>(&theirs).unwrap(), Int(i.clone()), "{i}");
        let dynamic = candor::IDLArgs::from_bytes(&theirs).unwrap();
        assert_eq!(dynamic.args, [candor::IDLValue::Int(Int(i))]);
    }
}

// ---- short ASCII text ----------------------------------------------------------------

/// Texts of at most 32 bytes that are all ASCII skip `from_utf8`; the rest are
/// validated as before. Both sides of the length bound and of the ASCII test.
#[test]
fn short_ascii_text_and_everything_else() {
    for s in [
        "",
        "a",
        "memo-17",
        &"x".repeat(32),
        &"y".repeat(33),
        &"z".repeat(1000),
    ] {
        let bytes = encode_one(s).unwrap();
        assert_eq!(decode_one::<String>(&bytes).unwrap(), s);
        assert_eq!(decode_one::<&str>(&bytes).unwrap(), s);
    }
    // Short and long non-ASCII text: still decoded, still validated.
    for s in ["é", "日本語", &"é".repeat(16), &"é".repeat(40)] {
        assert_eq!(decode_one::<String>(&encode_one(s).unwrap()).unwrap(), s);
    }
    // Invalid UTF-8 in short and long texts is a binary error, like candid's.
    let text_message = |body: &[u8]| {
        let mut m = b"DIDL\x00\x01\x71".to_vec();
        candor::types::leb128::encode_nat(&mut m, body.len() as u128).unwrap();
        m.extend_from_slice(body);
        m
    };
    for body in [
        &b"\xff"[..],
        b"abc\xc3",
        b"\xed\xa0\x80",
        &[b'a'; 31]
            .iter()
            .copied()
            .chain([0x80])
            .collect::<Vec<u8>>(),
        &[b'a'; 40]
            .iter()
            .copied()
            .chain([0xc3])
            .collect::<Vec<u8>>(),
    ] {
        let m = text_message(body);
        let ours = decode_one::<String>(&m).unwrap_err();
        assert!(!ours.is_subtype(), "{ours}");
        assert!(candid::decode_one::<String>(&m).is_err());
    }
}

// ---- borrowed text and bytes -------------------------------------------------------

fn inside(bytes: &[u8], p: *const u8) -> bool {
    bytes.as_ptr_range().contains(&p)
}

#[test]
fn str_and_bytes_borrow_from_the_input() {
    let bytes = encode_one("hello").unwrap();
    let s: &str = decode_one(&bytes).unwrap();
    assert!(inside(&bytes, s.as_ptr()));

    let blob = encode_one(serde_bytes::Bytes::new(b"\x01\x02\x03")).unwrap();
    let b: &serde_bytes::Bytes = decode_one(&blob).unwrap();
    assert!(inside(&blob, b.as_ptr()));

    #[derive(candor::Deserialize, candor::CandidType)]
    struct Named<'a> {
        #[serde(borrow)]
        name: Cow<'a, str>,
    }
    let bytes = encode_one(Named {
        name: Cow::Borrowed("zero-copy"),
    })
    .unwrap();
    let n: Named = decode_one(&bytes).unwrap();
    assert!(matches!(n.name, Cow::Borrowed(_)));
    assert!(inside(&bytes, n.name.as_ptr()));
}

#[test]
fn borrowed_bytes_require_a_blob_on_the_wire() {
    // text is not a blob, whatever their shared layout.
    let bytes = encode_one("abc").unwrap();
    assert!(decode_one::<&serde_bytes::Bytes>(&bytes).is_err());
}

// ---- encoding: cached headers and bulk copies -------------------------------------

#[test]
fn cached_headers_follow_the_argument_list() {
    // Same types, different order: different headers, each equal to candid's.
    let a = candor::encode_args((1u8, "x")).unwrap();
    let b = candor::encode_args(("x", 1u8)).unwrap();
    assert_eq!(a, candid::encode_args((1u8, "x")).unwrap());
    assert_eq!(b, candid::encode_args(("x", 1u8)).unwrap());
    // A single tuple argument is not the argument list of its elements.
    let t = candor::encode_one((1u8, "x")).unwrap();
    assert_eq!(t, candid::encode_one((1u8, "x")).unwrap());
    assert_ne!(t, a);
    // Repeated encodes reuse the cache and stay identical.
    assert_eq!(candor::encode_args((1u8, "x")).unwrap(), a);
}

#[test]
fn bulk_vectors_encode_like_candid() {
    let v: Vec<u64> = (0..1000).collect();
    assert_eq!(encode_one(&v).unwrap(), candid::encode_one(&v).unwrap());
    let f: Vec<f32> = vec![f32::NAN, 1.0, -2.5];
    assert_eq!(encode_one(&f).unwrap(), candid::encode_one(&f).unwrap());
    // Vectors of non-fixed-width elements take the element-by-element path.
    let s = vec!["a".to_string(), "bc".into()];
    assert_eq!(encode_one(&s).unwrap(), candid::encode_one(&s).unwrap());
}

// ---- the same primitive on both sides ----------------------------------------------

#[test]
fn same_primitive_on_both_sides_and_everything_else() {
    // Taken: tuple elements, and `opt` of the same primitive (no subtype memo).
    let v: Vec<(u64, Option<u64>, String)> =
        vec![(1, Some(2), "a".into()), (u64::MAX, None, String::new())];
    let bytes = encode_one(&v).unwrap();
    assert_eq!(
        decode_one::<Vec<(u64, Option<u64>, String)>>(&bytes).unwrap(),
        v
    );
    // Not taken: another primitive on the wire is still a type error, and under
    // `opt` it still decodes as null (the special `opt` rule), as in candid.
    let narrow = encode_one(vec![(1u32, Some(2u32), "a")]).unwrap();
    let err = decode_one::<Vec<(u64, Option<u64>, String)>>(&narrow).unwrap_err();
    assert!(err.is_subtype(), "{err}");
    let opt32 = encode_one(Some(7u32)).unwrap();
    assert_eq!(decode_one::<Option<u64>>(&opt32).unwrap(), None);
    assert_eq!(candid::decode_one::<Option<u64>>(&opt32).unwrap(), None);
    // `nat` read as `int` takes its own path.
    let nat = encode_one(Some(Nat::from(5u8))).unwrap();
    assert_eq!(decode_one::<Option<Int>>(&nat).unwrap(), Some(Int::from(5)));
}

// ---- wire arenas reused from one message to the next -------------------------------

#[test]
fn reused_wire_arenas_start_empty() {
    // Type tables of different sizes, one after another on the same thread, and a
    // malformed header in between: each message decodes as if it came first.
    let big = encode_one(vec![(1u8, "x", Some(-2i64), vec![Some(true)])]).unwrap();
    let small = encode_one(Some(vec![3u16])).unwrap();
    let flat = encode_one(7u32).unwrap();
    for _ in 0..3 {
        assert_eq!(
            decode_one::<Vec<(u8, String, Option<i64>, Vec<Option<bool>>)>>(&big).unwrap(),
            vec![(1, "x".to_string(), Some(-2), vec![Some(true)])]
        );
        assert!(decode_one::<u32>(b"DIDL\x02\x6c\x01\x00").is_err());
        assert_eq!(
            decode_one::<Option<Vec<u16>>>(&small).unwrap(),
            Some(vec![3])
        );
        assert_eq!(decode_one::<u32>(&flat).unwrap(), 7);
        // A message read at the wrong type after a larger table: still a type error.
        assert!(decode_one::<Option<Vec<u16>>>(&big).is_ok_and(|v| v.is_none()));
        assert!(decode_one::<Vec<u16>>(&big).is_err());
    }
}

// ---- variant cases found by the wire index ---------------------------------------

#[test]
fn variant_case_by_wire_index_and_by_search() {
    use candor::{CandidType, Deserialize};
    #[derive(CandidType, Deserialize, PartialEq, Debug, Clone)]
    enum Wide {
        A,
        B(u8),
        C { x: u16 },
        D,
    }
    #[derive(CandidType, Deserialize, PartialEq, Debug, Clone)]
    enum Narrow {
        B(u8),
        D,
    }
    // Taken: the same cases on both sides, so the wire index is the expected one.
    let all = vec![Wide::A, Wide::B(7), Wide::C { x: 9 }, Wide::D];
    assert_eq!(
        decode_one::<Vec<Wide>>(&encode_one(&all).unwrap()).unwrap(),
        all
    );
    // Not taken: fewer cases on the wire put them at other indices; the search
    // finds them.
    let narrow = encode_one(vec![Narrow::D, Narrow::B(3)]).unwrap();
    assert_eq!(
        decode_one::<Vec<Wide>>(&narrow).unwrap(),
        vec![Wide::D, Wide::B(3)]
    );
    // A case the expected type lacks is a subtype error, and an index past the
    // wire's cases a binary one.
    let err = decode_one::<Narrow>(&encode_one(Wide::A).unwrap()).unwrap_err();
    assert!(err.is_subtype(), "{err}");
    let mut bad = encode_one(Narrow::D).unwrap();
    if let Some(last) = bad.last_mut() {
        *last = 5;
    }
    let err = decode_one::<Narrow>(&bad).unwrap_err();
    assert!(!err.is_subtype(), "{err}");
    assert!(err.to_string().contains("Variant index 5"), "{err}");
}

// ---- the least size of a vector's record element, kept (`Core::elem_min_size`) ----

/// Vectors of records repeated through a message reuse the element's least size;
/// a vector of another record type gets its own: a length that the first type's
/// smaller size would let through is still rejected before anything is read.
#[test]
fn record_element_size_is_kept_per_type() {
    type Small = Vec<(u8,)>;
    type Wide = Vec<(u64, u64)>;
    let nested: Vec<Vec<(u64, u64)>> = vec![vec![(1, 2)]; 3];
    let bytes = candor::Encode!(&nested).unwrap();
    assert_eq!(decode_one::<Vec<Wide>>(&bytes).unwrap(), nested);

    let mut bytes = candor::Encode!(&vec![(7u8,)], &vec![(1u64, 2u64)]).unwrap();
    let (small, wide): (Small, Wide) = candor::Decode!(&bytes, Small, Wide).unwrap();
    assert_eq!((small, wide), (vec![(7,)], vec![(1, 2)]));
    // The wide vector's length (second to last 17 bytes) claims 2 elements: 32 bytes
    // where 16 are left, which only the wide record's size of 16 can tell.
    let at = bytes.len() - 17;
    assert_eq!(bytes[at], 1);
    bytes[at] = 2;
    let err = candor::Decode!(&bytes, Small, Wide)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("length 2 exceeds the 16 bytes left in the message"),
        "{err}"
    );
}

// ---- variant and tuple pairs whose shape was checked (`core::Checked`) ----------

mod checked {
    use serde::Deserialize;

    /// An ICRC-3-like recursive value: every element of its vectors is decoded at the
    /// same (wire, expected) pairs, which take the kept shape check.
    #[derive(candor::CandidType, candid::CandidType, Deserialize, Clone, PartialEq, Debug)]
    pub enum Value {
        Text(String),
        Nat64(u64),
        Array(Vec<Value>),
        Map(Vec<(String, Value)>),
    }

    /// The same cases but one: the wire's `Map` is not among them.
    #[derive(candor::CandidType, Deserialize, Clone, PartialEq, Debug)]
    pub enum Flat {
        Text(String),
        Nat64(u64),
        Array(Vec<Flat>),
    }

    pub fn value(depth: u64) -> Value {
        let leaf = |i: u64| {
            Value::Map(vec![
                ("n".to_string(), Value::Nat64(i)),
                ("t".to_string(), Value::Text(format!("v{i}"))),
                ("a".to_string(), Value::Array(vec![Value::Nat64(i); 3])),
            ])
        };
        if depth == 0 {
            leaf(0)
        } else {
            Value::Array(
                (0..4)
                    .map(|i| {
                        if i % 2 == 0 {
                            leaf(i)
                        } else {
                            value(depth - 1)
                        }
                    })
                    .collect(),
            )
        }
    }
}

/// Repeated values take the kept check, and cost what candid charges for them.
#[test]
fn checked_pairs_decode_and_cost_as_candid() {
    let v = checked::value(3);
    let bytes = candor::Encode!(&v).unwrap();
    let quota = 1_000_000;
    let mut config = candor::DecoderConfig::new();
    config.set_decoding_quota(quota);
    let mut de = candor::de::IDLDeserialize::new_with_config(&bytes, &config).unwrap();
    let ours: checked::Value = de.get_value().unwrap();
    de.done().unwrap();
    let ours_left = de.get_config().decoding_quota;
    let mut config = candid::de::DecoderConfig::new();
    config.set_decoding_quota(quota);
    let mut de = candid::de::IDLDeserialize::new_with_config(&bytes, &config).unwrap();
    let theirs: checked::Value = de.get_value().unwrap();
    de.done().unwrap();
    assert_eq!(ours, v);
    assert_eq!(theirs, v);
    assert_eq!(ours_left, de.get_config().decoding_quota);
}

/// The kept check is for one expected type: the same wire variant decoded at
/// another type in the same message is checked again (and here rejected, as the
/// wire uses a case that type lacks).
#[test]
fn checked_pairs_are_per_expected_type() {
    let v = checked::value(1);
    let bytes = candor::Encode!(&v, &v).unwrap();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    assert_eq!(de.get_value::<checked::Value>().unwrap(), v);
    let err = de.get_value::<checked::Flat>().unwrap_err().to_string();
    assert!(err.contains("Unknown variant field"), "{err}");
    let flat = checked::Flat::Array(vec![checked::Flat::Nat64(1); 2]);
    let bytes = candor::Encode!(&flat, &vec![(1u8, 2u8)], &vec![(1u8, 2u16)]).unwrap();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    assert_eq!(de.get_value::<checked::Flat>().unwrap(), flat);
    assert_eq!(de.get_value::<Vec<(u8, u8)>>().unwrap(), vec![(1, 2)]);
    let err = de.get_value::<Vec<(u8, u8)>>().unwrap_err().to_string();
    assert!(err.contains("expected nat8, found nat16"), "{err}");
}

// ---- owned texts and blobs copied by words (`owned_bytes`) ------------------------

/// `String`, `ByteBuf` and text map keys take an owned copy, by words up to 64
/// bytes and by one bulk copy beyond: every length either side of each branch
/// decodes to the bytes sent, as candid decodes them.
#[test]
fn owned_texts_and_blobs_of_every_length() {
    for n in 0..=130usize {
        let text: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let text = if n > 3 {
            format!("é{}", &text[2..])
        } else {
            text
        };
        let bytes = encode_one(&text).unwrap();
        assert_eq!(decode_one::<String>(&bytes).unwrap(), text);
        assert_eq!(candid::decode_one::<String>(&bytes).unwrap(), text);

        let blob = serde_bytes::ByteBuf::from((0..n).map(|i| i as u8).collect::<Vec<u8>>());
        let bytes = encode_one(&blob).unwrap();
        assert_eq!(decode_one::<serde_bytes::ByteBuf>(&bytes).unwrap(), blob);

        let map: BTreeMap<String, u8> = [(text.clone(), 1), (format!("{text}!"), 2)].into();
        let bytes = encode_one(&map).unwrap();
        assert_eq!(decode_one::<BTreeMap<String, u8>>(&bytes).unwrap(), map);
    }
}

/// Texts, blobs and principals are appended by words up to 64 bytes and by one bulk
/// copy beyond (`wire/short_copy.rs`), as is each message's cached header: every
/// length either side of each branch, in a message after a header, gives candid's
/// bytes.
#[test]
fn appended_texts_blobs_and_principals_of_every_length() {
    for n in 0..=130usize {
        let text: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        assert_eq!(
            encode_one(&text).unwrap(),
            candid::encode_one(&text).unwrap(),
            "text of {n} bytes"
        );
        let blob = serde_bytes::ByteBuf::from((0..n).map(|i| i as u8).collect::<Vec<u8>>());
        assert_eq!(
            encode_one(&blob).unwrap(),
            candid::encode_one(&blob).unwrap(),
            "blob of {n} bytes"
        );
        let pair = (n as u8, text.clone());
        assert_eq!(
            candor::Encode!(&pair, &blob).unwrap(),
            candid::encode_args((&pair, &blob)).unwrap(),
            "record and blob of {n} bytes"
        );
    }
    for n in 0..=29usize {
        let p = candor::Principal::from_slice(&(1..=n as u8).collect::<Vec<u8>>());
        assert_eq!(
            encode_one(p).unwrap(),
            candid::encode_one(p).unwrap(),
            "principal of {n} bytes"
        );
    }
}

/// A visitor that asks for an owned string but reads only `visit_str` gets the
/// text (serde's default hands the owned copy over as a `&str`); a principal read
/// as a byte buffer is still lent, not copied.
#[test]
fn owned_copies_reach_any_visitor() {
    struct Upper(String);
    impl<'de> serde::Deserialize<'de> for Upper {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl serde::de::Visitor<'_> for V {
                type Value = Upper;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("text")
                }
                fn visit_str<E>(self, s: &str) -> Result<Upper, E> {
                    Ok(Upper(s.to_uppercase()))
                }
            }
            d.deserialize_string(V)
        }
    }
    impl candor::CandidType for Upper {
        fn _ty() -> candor::types::Type {
            String::ty()
        }
        fn idl_serialize<S: candor::types::Serializer>(&self, s: S) -> Result<(), S::Error> {
            self.0.idl_serialize(s)
        }
    }
    let bytes = encode_one("shout").unwrap();
    assert_eq!(decode_one::<Upper>(&bytes).unwrap().0, "SHOUT");

    let p = candor::Principal::from_slice(&[1, 2, 3]);
    let bytes = encode_one(p).unwrap();
    assert_eq!(decode_one::<candor::Principal>(&bytes).unwrap(), p);
}

/// The first two element types kept with a tuple pair are the ones a field-by-field
/// read finds, where the two sides have different lengths too: a field missing on
/// the wire reads as `null` (as candid decodes it), one only on the wire is skipped
/// (spec/differences.md D7: candid leaves it in the input).
#[test]
fn checked_tuple_elements_follow_both_lengths() {
    let wide = vec![(1u8, 2u16, 3u32); 3];
    let bytes = candor::Encode!(&wide).unwrap();
    let ours: Vec<(u8,)> = decode_one(&bytes).unwrap();
    assert_eq!(ours, vec![(1,); 3]);
    let ours: Vec<(u8, u16)> = decode_one(&bytes).unwrap();
    assert_eq!(ours, vec![(1, 2); 3]);

    let narrow = vec![(7u8,); 3];
    let bytes = candor::Encode!(&narrow).unwrap();
    let ours: Vec<(u8, Option<u8>)> = decode_one(&bytes).unwrap();
    let theirs: Vec<(u8, Option<u8>)> = candid::decode_one(&bytes).unwrap();
    assert_eq!(ours, vec![(7, None); 3]);
    assert_eq!(ours, theirs);
}

/// A blob pair checked once (`Core::blob_ok`) serves the next blob at the same
/// pair only: another wire type at a blob is still checked and rejected, and a
/// principal read as bytes still takes the principal path.
#[test]
fn checked_blob_pairs_are_per_pair() {
    use serde_bytes::ByteBuf;
    let blobs = vec![ByteBuf::from(vec![1u8, 2]); 3];
    let bytes = candor::Encode!(&blobs, &vec![7u16, 8]).unwrap();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    assert_eq!(de.get_value::<Vec<ByteBuf>>().unwrap(), blobs);
    let err = de.get_value::<ByteBuf>().unwrap_err().to_string();
    assert!(err.contains("expected blob, found vec nat16"), "{err}");

    let p = candor::Principal::from_slice(&[9, 9, 9]);
    let bytes = candor::Encode!(&blobs, &p).unwrap();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    assert_eq!(de.get_value::<Vec<ByteBuf>>().unwrap(), blobs);
    assert_eq!(de.get_value::<candor::Principal>().unwrap(), p);
}

/// A vector pair read once (`Core::vec_ok`) gives the next vector at that pair
/// its element types, least element size and read (fixed-width, bignum, element
/// by element); another pair is classified again, and each vector's own length
/// is still checked (a fixed-size array, a length past the end).
#[test]
fn kept_vector_shapes_are_per_pair() {
    let nested = vec![vec![1u16, 2], vec![3], vec![]];
    let nats = vec![vec![Nat::from(5u8)], vec![Nat::from(u64::MAX) * 3u8]];
    let recs = vec![
        vec![(1u8, "a".to_string())],
        vec![(2, "b".into()), (3, "c".into())],
    ];
    let bytes = candor::Encode!(&nested, &nats, &recs, &vec![vec![7u8; 3]; 2]).unwrap();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    assert_eq!(de.get_value::<Vec<Vec<u16>>>().unwrap(), nested);
    assert_eq!(de.get_value::<Vec<Vec<Nat>>>().unwrap(), nats);
    assert_eq!(de.get_value::<Vec<Vec<(u8, String)>>>().unwrap(), recs);
    let err = de.get_value::<Vec<[u8; 2]>>().unwrap_err().to_string();
    assert!(
        err.contains("expected a vector of 2 elements, found 3"),
        "{err}"
    );

    // The same wire vectors at another element type are checked again.
    let bytes = candor::Encode!(&nested, &nested).unwrap();
    let mut de = candor::de::IDLDeserialize::new(&bytes).unwrap();
    assert_eq!(de.get_value::<Vec<Vec<u16>>>().unwrap(), nested);
    let err = de.get_value::<Vec<Vec<u32>>>().unwrap_err().to_string();
    assert!(err.contains("expected nat32, found nat16"), "{err}");

    // A kept shape does not let a later length past the end through.
    let mut bytes = candor::Encode!(&vec![vec![9u64]; 2]).unwrap();
    let at = bytes.len() - 9;
    assert_eq!(bytes[at], 1);
    bytes[at] = 2;
    let err = decode_one::<Vec<Vec<u64>>>(&bytes).unwrap_err().to_string();
    assert!(err.contains("length 2 exceeds the 8 bytes left"), "{err}");
}

/// Fast path 22 (a variant's cases, kept by wire index): values decode as without
/// it, where both sides list the same cases and where the expected type has more
/// (its cases then sit at other positions than the wire's).
#[test]
fn kept_variant_cases_decode_every_case() {
    use candor::{CandidType, Decode, Deserialize, Encode};
    #[derive(CandidType, Deserialize, PartialEq, Debug, Clone)]
    enum Narrow {
        A(u8),
        B(String),
        C,
    }
    #[derive(CandidType, Deserialize, PartialEq, Debug)]
    enum Wide {
        A(u8),
        B(String),
        C,
        D(u64),
        E,
    }
    let values = vec![
        Narrow::C,
        Narrow::A(1),
        Narrow::B("x".into()),
        Narrow::A(2),
        Narrow::C,
        Narrow::B("y".into()),
        Narrow::C,
    ];
    let bytes = Encode!(&values).unwrap();
    assert_eq!(Decode!(&bytes, Vec<Narrow>).unwrap(), values);
    let widened: Vec<Wide> = values
        .iter()
        .map(|v| match v {
            Narrow::A(x) => Wide::A(*x),
            Narrow::B(s) => Wide::B(s.clone()),
            Narrow::C => Wide::C,
        })
        .collect();
    assert_eq!(Decode!(&bytes, Vec<Wide>).unwrap(), widened);
}

/// Fast path 22 does not carry one pair's cases to another: two vectors of
/// variants with the same case ids but other payload types, one after the other
/// and interleaved in records, decode as written.
#[test]
fn kept_variant_cases_are_per_pair() {
    use candor::{CandidType, Decode, Deserialize, Encode};
    #[derive(CandidType, Deserialize, PartialEq, Debug)]
    enum One {
        A(u8),
        B(String),
    }
    #[derive(CandidType, Deserialize, PartialEq, Debug)]
    enum Other {
        A(String),
        B(u8),
    }
    let ones = vec![One::A(1), One::B("b".into()), One::A(3), One::B("d".into())];
    let others = vec![Other::A("a".into()), Other::B(2), Other::A("c".into())];
    let both: Vec<(One, Other)> = vec![
        (One::A(1), Other::B(1)),
        (One::B("x".into()), Other::A("y".into())),
        (One::A(2), Other::B(2)),
    ];
    let bytes = Encode!(&ones, &others, &both).unwrap();
    let (a, b, c) = Decode!(&bytes, Vec<One>, Vec<Other>, Vec<(One, Other)>).unwrap();
    assert_eq!((a, b, c), (ones, others, both));
}
