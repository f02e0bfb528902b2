//! `Decode!` in each of its forms: no type, one type (the value itself), several
//! (a tuple), with a config, with the cost (`@Debug`); and the error of each step
//! (the header, a value, the trailing check) comes out as the `Err`.

use candor::{Decode, Encode};

#[test]
fn gives_nothing_a_value_or_a_tuple() {
    let none = Encode!().unwrap();
    let () = Decode!(&none).unwrap();
    let one = Encode!(&7u16).unwrap();
    assert_eq!(Decode!(&one, u16).unwrap(), 7);
    let three = Encode!(&1u8, &"two", &Some(3i64)).unwrap();
    let (a, b, c) = Decode!(&three, u8, String, Option<i64>).unwrap();
    assert_eq!((a, b.as_str(), c), (1, "two", Some(3)));
    // Fewer types than values: the rest are skipped, as `done` does.
    assert_eq!(Decode!(&three, u8).unwrap(), 1);
    let config = candor::de::DecoderConfig::new();
    let (a, b) = Decode!([config]; &three, u8, String).unwrap();
    assert_eq!((a, b.as_str()), (1, "two"));
}

#[test]
fn each_step_can_fail() {
    // The header.
    let err = Decode!(b"DIDX\x00\x00", u8).unwrap_err();
    assert!(err.to_string().contains("magic"), "{err}");
    // A value: the second of two.
    let bytes = Encode!(&1u8, &2u8).unwrap();
    let err = Decode!(&bytes, u8, String).unwrap_err();
    assert!(err.to_string().contains("text"), "{err}");
    // Trailing bytes, found by `done` after every value decoded.
    let mut bytes = Encode!(&1u8).unwrap();
    bytes.push(0);
    let err = Decode!(&bytes, u8).unwrap_err();
    assert!(err.to_string().contains("Trailing"), "{err}");
}

/// `@Debug` gives the value with the work consumed, and fails at each step as the
/// plain form does.
#[test]
fn the_debug_form_adds_the_cost_and_fails_alike() {
    let mut config = candor::de::DecoderConfig::new();
    config.set_decoding_quota(10_000);
    let three = Encode!(&1u8, &"two", &Some(3i64)).unwrap();
    let ((a, b), cost) = Decode!(@Debug [config]; &three, u8, String).unwrap();
    assert_eq!((a, b.as_str()), (1, "two"));
    let (_, plain) =
        candor::decode_args_with_config_debug::<(u8, String)>(&three, &config).unwrap();
    assert_eq!(cost.decoding_quota, plain.decoding_quota);
    assert!(cost.decoding_quota.is_some_and(|used| used > 0));
    let (one, _) = Decode!(@Debug [config]; &three, u8).unwrap();
    assert_eq!(one, 1);
    let err = Decode!(@Debug [config]; b"DIDX\x00\x00", u8).unwrap_err();
    assert!(err.to_string().contains("magic"), "{err}");
    let err = Decode!(@Debug [config]; &three, u8, u8).unwrap_err();
    assert!(err.to_string().contains("nat8"), "{err}");
    let mut trailing = Encode!(&1u8).unwrap();
    trailing.push(0);
    let err = Decode!(@Debug [config]; &trailing, u8).unwrap_err();
    assert!(err.to_string().contains("Trailing"), "{err}");
}

/// A type left to inference is inferred from how the value is used, as with
/// candid's `Decode!`; so is one inside another type.
#[test]
fn types_left_to_inference_are_inferred() {
    let bytes = Encode!(&vec![1u32, 2], &"x").unwrap();
    let (v, s): (Vec<u32>, String) = Decode!(&bytes, _, _).unwrap();
    assert_eq!((v, s.as_str()), (vec![1, 2], "x"));
    let v: Vec<u32> = Decode!(&bytes, Vec<_>, String).map(|(v, _)| v).unwrap();
    assert_eq!(v, vec![1, 2]);
}

/// More types than a tuple has (sixteen) still decode, without a known header.
#[test]
fn seventeen_types_decode() {
    let mut builder = candor::ser::IDLBuilder::new();
    for i in 0..17u8 {
        builder.arg(&i).unwrap();
    }
    let bytes = builder.serialize_to_vec().unwrap();
    let all = Decode!(&bytes, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8)
        .unwrap();
    assert_eq!(all.16, 16);
}

/// `Decode!` takes the header the compiler writes for its types as known (see
/// `known_headers.rs`), with the header cache off as with it on.
#[test]
fn decode_takes_known_headers() {
    std::thread::spawn(|| {
        candor::de::set_header_cache(false);
        let bytes = Encode!(&vec![Some(1u8)], &"x").unwrap();
        let before = candor::de::known_headers_taken();
        for _ in 0..2 {
            let (v, s) = Decode!(&bytes, Vec<Option<u8>>, String).unwrap();
            assert_eq!((v, s.as_str()), (vec![Some(1)], "x"));
        }
        assert_eq!(candor::de::known_headers_taken() - before, 2);
    })
    .join()
    .unwrap();
}
