//! Fixtures shared by several test binaries (each includes this file with
//! `mod common;`): the recursive list that the round-trip, stack and golden-bytes
//! tests all use, the hostile nested-`opt` message, a thread with a chosen stack, the
//! conversion of candor's types and values to candid's for the differential tests,
//! one decode by both crates under the same quota, the header of a message
//! written from the static descriptions, checked against `ty()`'s, and decodes as
//! steps of a sequence rendered as text (`steps`).
//!
//! Every binary compiles this whole file but uses only part of it.
#![allow(dead_code)]

pub mod steps;
pub mod to_candid;

/// `type List = opt record { head : int; tail : List }`, the recursive type of the
/// bench's list workload.
#[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq, Clone)]
pub struct List {
    pub head: candor::Int,
    pub tail: Option<Box<List>>,
}

/// A list of `len` nodes, heads `len - 1` down to 0 (built from the tail up, so no
/// recursion is needed however long it is).
pub fn list(len: i32) -> Option<Box<List>> {
    let mut list = None;
    for i in 0..len {
        list = Some(Box::new(List {
            head: candor::Int::from(i),
            tail: list,
        }));
    }
    list
}

/// `type t = opt t` with `depth` nested `opt` values: the cheapest message that makes
/// a decoder recurse once per byte.
pub fn nested_opts(depth: usize) -> Vec<u8> {
    let mut bytes = b"DIDL\x01\x6e\x00\x01\x00".to_vec();
    bytes.extend(std::iter::repeat_n(1u8, depth));
    bytes.push(0);
    bytes
}

/// Runs `f` on a new thread whose stack is `bytes` long, so a test controls the stack
/// the decoder runs on; a stack overflow aborts the test binary.
pub fn with_stack<T: Send + 'static>(bytes: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(bytes)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the test thread panicked")
}

/// Decodes `bytes` as `T` with candor and as `U` (the same type, spelled with
/// candid's types where they differ) with candid, each under a decoding quota of
/// `quota`: both must succeed and leave the same quota, or both fail. `Some` holds
/// the two values; `None` means both failed.
pub fn decode_both<T, U>(bytes: &[u8], quota: usize) -> Option<(T, U)>
where
    T: candor::CandidType + for<'de> serde::Deserialize<'de>,
    U: candid::CandidType + for<'de> serde::Deserialize<'de>,
{
    let mut config = candor::DecoderConfig::new();
    config.set_decoding_quota(quota);
    let ours = candor::de::IDLDeserialize::new_with_config(bytes, &config).and_then(|mut de| {
        let v: T = de.get_value()?;
        de.done()?;
        Ok((v, de.get_config().decoding_quota))
    });
    let mut config = candid::de::DecoderConfig::new();
    config.set_decoding_quota(quota);
    let theirs = candid::de::IDLDeserialize::new_with_config(bytes, &config).and_then(|mut de| {
        let v: U = de.get_value()?;
        de.done()?;
        Ok((v, de.get_config().decoding_quota))
    });
    match (ours, theirs) {
        (Ok((ours, left)), Ok((theirs, their_left))) => {
            assert_eq!(left, their_left, "quota left at {quota}");
            Some((ours, theirs))
        }
        (Err(_), Err(_)) => None,
        (ours, theirs) => panic!(
            "at quota {quota}: candor {:?}, candid {:?}",
            ours.map(|_| ()),
            theirs.map(|_| ())
        ),
    }
}

/// [`decode_both`] of one type that is both crates' (derived for both): the
/// two values are equal too. `Some` holds the value; `None` means both failed.
pub fn decode_same<T>(bytes: &[u8], quota: usize) -> Option<T>
where
    T: candor::CandidType
        + candid::CandidType
        + for<'de> serde::Deserialize<'de>
        + PartialEq
        + std::fmt::Debug,
{
    decode_both::<T, T>(bytes, quota).map(|(ours, theirs)| {
        assert_eq!(ours, theirs, "at quota {quota}");
        ours
    })
}

/// The header (after the magic) of a message of `Tuple`, written from the static
/// descriptions, which must give one, and the same bytes as written from `ty()`.
pub fn static_header<Tuple: candor::utils::ArgumentEncoder>() -> Vec<u8> {
    let name = std::any::type_name::<Tuple>();
    let (from_static, from_ty) = candor::ser::headers_both_ways::<Tuple>();
    let from_static = from_static.unwrap_or_else(|| panic!("{name}: no static header"));
    let from_ty = from_ty.expect("ty() encodes");
    assert_eq!(from_static, from_ty, "{name}");
    // Each way the header can be written gives the same bytes: by the compiler
    // (`ser/const_header.rs`), and from the descriptions at run time.
    if let Some(h) = Tuple::_const_header() {
        assert_eq!(h.get(4..), Some(&from_ty[..]), "{name}: constant header");
    }
    if let Some((h, _)) = Tuple::_described_header() {
        assert_eq!(h.get(4..), Some(&from_ty[..]), "{name}: described header");
    }
    from_static
}
