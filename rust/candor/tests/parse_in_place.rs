//! A header that is not found kept is parsed into the wire arena of the state that
//! will decode its message: the thread's spare, which the previous such header used
//! (`de::header_cache::parse_state`). Whatever that header left there must not show
//! in the next decode: a table that failed half-way, the table of a kept header whose
//! entry was replaced, a table too long for its memory to be kept. Every decode here
//! is compared with candid 0.10.39's, outcome, value and quota left.

mod common;

use candor::Encode;
use common::decode_both;

const QUOTA: usize = 1 << 20;

/// Decodes `bytes` as `T` with both crates: the same outcome, the same value.
/// `true` when both decoded it.
fn same<T>(bytes: &[u8]) -> bool
where
    T: candor::CandidType + candid::CandidType + for<'de> serde::Deserialize<'de>,
    T: PartialEq + std::fmt::Debug,
{
    match decode_both::<T, T>(bytes, QUOTA) {
        Some((ours, theirs)) => {
            assert_eq!(ours, theirs, "{}", hex(bytes));
            true
        }
        None => false,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A message and the decode of it as its own type.
struct Message {
    bytes: Vec<u8>,
    decode: fn(&[u8]) -> bool,
}

fn message<T>(value: &T) -> Message
where
    T: candor::CandidType + candid::CandidType + for<'de> serde::Deserialize<'de>,
    T: PartialEq + std::fmt::Debug,
{
    Message {
        bytes: Encode!(value).unwrap(),
        decode: same::<T>,
    }
}

/// Messages of several shapes: no type table, records, variants, vectors, options.
fn messages() -> Vec<Message> {
    vec![
        message(&"key".to_string()),
        message(&vec![(1u64, "a".to_string()), (2, "bc".to_string())]),
        message(&Some(vec![1u8, 2, 3])),
        message(&(7u8, "x".to_string(), -3i32)),
        message(&vec![Some(3u16), None, Some(5)]),
        message(&Ok::<u64, String>(5)),
        message(&Err::<u64, String>("no".to_string())),
        message(&42u64),
    ]
}

/// Every message cut short at each byte (a parse that fails part of the way
/// through the table, leaving that much in the spare state's arena, or a header
/// that parsed and values that end early), each followed by a decode of every
/// whole message. Both crates must agree on each cut message too. With the header
/// cache off every header is parsed into the spare; with it on, only those not kept.
#[test]
fn a_message_that_failed_leaves_nothing_behind() {
    let all = messages();
    for cache in [false, true] {
        candor::de::set_header_cache(cache);
        for m in &all {
            for cut in 4..m.bytes.len() {
                (m.decode)(&m.bytes[..cut]);
                for n in &all {
                    let after = hex(&m.bytes[..cut]);
                    assert!((n.decode)(&n.bytes), "{} after {after}", hex(&n.bytes));
                }
            }
        }
    }
}

/// More distinct headers than the cache keeps: entries are replaced, and the state
/// of a replaced entry becomes the spare the next parse fills. Messages with no type
/// table, which are never kept, are parsed into that state in between.
#[test]
fn a_replaced_entry_state_parses_the_next_header() {
    let tables = [
        message(&vec![1u8]),
        message(&vec![1u16]),
        message(&vec![1u32]),
        message(&vec![1u64]),
        message(&vec![1i8]),
        message(&vec![1i16]),
        message(&vec![1i32]),
        message(&vec![1i64]),
        message(&vec![true]),
        message(&vec!["s".to_string()]),
        message(&vec![1.5f64]),
        message(&vec![1.5f32]),
    ];
    let plain = messages();
    for round in 0..3 {
        for (i, m) in tables.iter().enumerate() {
            assert!((m.decode)(&m.bytes), "table {i}, round {round}");
            let p = &plain[(i + round) % plain.len()];
            assert!((p.decode)(&p.bytes), "after table {i}, round {round}");
        }
    }
}

/// A table of more entries than a spare state keeps memory for, then the others.
#[test]
fn a_long_table_then_short_ones() {
    const ENTRIES: usize = 5000;
    let mut bytes = b"DIDL".to_vec();
    leb128::write::unsigned(&mut bytes, ENTRIES as u64).unwrap();
    // Entry k is `vec` of entry k + 1, the last one `vec nat`.
    for k in 0..ENTRIES {
        bytes.push(0x6d);
        if k + 1 < ENTRIES {
            leb128::write::signed(&mut bytes, (k + 1) as i64).unwrap();
        } else {
            bytes.push(0x7d);
        }
    }
    // One argument of entry 0, an empty vector.
    bytes.extend_from_slice(&[1, 0, 0]);
    // Read as a type it is not: both crates must agree (a subtype check fails).
    let all = messages();
    for _ in 0..2 {
        same::<Vec<Vec<u8>>>(&bytes);
        for n in &all {
            assert!(
                (n.decode)(&n.bytes),
                "{} after the long table",
                hex(&n.bytes)
            );
        }
    }
}
