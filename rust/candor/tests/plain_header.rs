//! A header with no type table whose argument types are one-byte primitive opcodes
//! (`DIDL 00 n t1 … tn`) is read by a path of its own (`wire::header`'s `plain`),
//! which must give what the general path gives, and leave to it every header it
//! would refuse. Each message here, and each one-byte change to its header, is
//! decoded by candor and by candid 0.10.39: typed (outcome, value, quota left) and as
//! `IDLArgs` (outcome and printed value).

mod common;

use candid::Principal;
use common::decode_both;

const QUOTA: usize = 1 << 20;

/// Decodes `bytes` as `T` with candor and as its twin `U` with candid (compared by
/// their `Debug` forms), and as `IDLArgs`: the same outcomes.
fn same<T, U>(bytes: &[u8])
where
    T: candor::CandidType + for<'de> serde::Deserialize<'de> + std::fmt::Debug,
    U: candid::CandidType + for<'de> serde::Deserialize<'de> + std::fmt::Debug,
{
    if let Some((ours, theirs)) = decode_both::<T, U>(bytes, QUOTA) {
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{}", hex(bytes));
    }
    let ours = candor::IDLArgs::from_bytes(bytes).map(|a| a.to_string());
    let theirs = candid::IDLArgs::from_bytes(bytes).map(|a| a.to_string());
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => assert_eq!(ours, theirs, "{}", hex(bytes)),
        (Err(_), Err(_)) => {}
        (ours, theirs) => panic!(
            "{}: candor {:?}, candid {:?}",
            hex(bytes),
            ours.map(|_| ()),
            theirs.map(|_| ())
        ),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `bytes` (a message of `T` encoded by candid, with no type table), then every
/// message made from it by changing one byte of its header to any other value, and
/// every message cut inside its header: all decoded by both crates.
fn each_header_change<T, U>(bytes: &[u8])
where
    T: candor::CandidType + for<'de> serde::Deserialize<'de> + std::fmt::Debug,
    U: candid::CandidType + for<'de> serde::Deserialize<'de> + std::fmt::Debug,
{
    assert_eq!(bytes.get(4), Some(&0), "no type table: {}", hex(bytes));
    let header_len = 6 + usize::from(bytes[5]);
    same::<T, U>(bytes);
    for at in 4..header_len {
        for b in 0..=255u8 {
            if b == bytes[at] {
                continue;
            }
            let mut changed = bytes.to_vec();
            changed[at] = b;
            same::<T, U>(&changed);
        }
    }
    for len in 0..header_len {
        same::<T, U>(&bytes[..len]);
    }
}

#[test]
fn one_argument_headers_of_every_byte() {
    each_header_change::<(String,), (String,)>(&candid::encode_args(("key".to_string(),)).unwrap());
    each_header_change::<(u64,), (u64,)>(&candid::encode_args((7u64,)).unwrap());
    each_header_change::<(candor::Nat,), (candid::Nat,)>(
        &candid::encode_args((candid::Nat::from(300u32),)).unwrap(),
    );
    each_header_change::<(bool,), (bool,)>(&candid::encode_args((true,)).unwrap());
    each_header_change::<(Principal,), (Principal,)>(
        &candid::encode_args((Principal::from_slice(&[1, 2, 3]),)).unwrap(),
    );
}

#[test]
fn several_argument_headers() {
    let p = Principal::from_slice(&[9; 29]);
    each_header_change::<(Principal, Principal, candor::Nat), (Principal, Principal, candid::Nat)>(
        &candid::encode_args((p, Principal::anonymous(), candid::Nat::from(1u8))).unwrap(),
    );
    each_header_change::<
        (i8, i16, i32, i64, f32, f64, candor::Int),
        (i8, i16, i32, i64, f32, f64, candid::Int),
    >(
        &candid::encode_args((
            -1i8,
            2i16,
            -3i32,
            4i64,
            0.5f32,
            -2.25f64,
            candid::Int::from(-9),
        ))
        .unwrap(),
    );
    each_header_change::<
        (u8, u16, u32, String, (), candor::Reserved),
        (u8, u16, u32, String, (), candid::Reserved),
    >(&candid::encode_args((1u8, 2u16, 3u32, "t".to_string(), (), candid::Reserved)).unwrap());
    each_header_change::<(), ()>(&candid::encode_args(()).unwrap());
}

/// 127 arguments still fit the one-byte count; 128 take two bytes and the general path.
#[test]
fn argument_counts_around_one_byte() {
    for n in [126usize, 127, 128, 129] {
        let mut bytes = b"DIDL\x00".to_vec();
        // n < 16384: one or two LEB128 bytes.
        if n < 0x80 {
            bytes.push(n as u8);
        } else {
            bytes.extend([0x80 | (n & 0x7f) as u8, (n >> 7) as u8]);
        }
        bytes.extend(std::iter::repeat_n(0x7e, n));
        bytes.extend(std::iter::repeat_n(1, n));
        let ours = candor::IDLArgs::from_bytes(&bytes).map(|a| a.to_string());
        let theirs = candid::IDLArgs::from_bytes(&bytes).map(|a| a.to_string());
        assert_eq!(ours.ok(), theirs.ok(), "{n} arguments");
    }
}

/// The bound on header bytes holds on this path too: a header one byte longer
/// than the bound is refused, one of the bound's length is read.
#[test]
fn header_length_bound() {
    let bytes = candid::encode_args((1u8, 2u8, 3u8)).unwrap();
    let header_len = 6 + 3;
    for (bound, ok) in [(header_len - 1, false), (header_len, true)] {
        let mut config = candor::DecoderConfig::new();
        config.set_max_header_len(bound);
        let decoded = candor::decode_args_with_config::<(u8, u8, u8)>(&bytes, &config);
        assert_eq!(decoded.is_ok(), ok, "bound {bound}: {decoded:?}");
    }
}
