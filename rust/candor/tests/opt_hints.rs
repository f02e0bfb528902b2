//! Options read with both sides' types hinted as `opt` (spec/decoder.md, the row
//! "An option told by its references"): the flag is read before either node is
//! looked up. Values, units and errors are candid's on that path, and where it
//! does not fire (a wire type or expected type that is not an `opt`).

mod common;

use common::decode_same as both;
use pretty_assertions::assert_eq;
use serde_bytes::ByteBuf;

#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Args {
    from: Option<ByteBuf>,
    to: Option<ByteBuf>,
    fee: Option<u64>,
    nested: Option<Option<String>>,
    many: Vec<Option<u8>>,
    tail: Option<Box<Args>>,
}

/// The same fields, none of them an option: an `opt` on the wire does not fit.
#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Plain {
    from: ByteBuf,
    fee: u64,
}

/// The fields as options, where the wire has `null` or a plain value.
#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Wider {
    from: Option<ByteBuf>,
    fee: Option<u64>,
    absent: Option<u8>,
}

#[derive(candor::CandidType, candid::CandidType, serde::Deserialize, PartialEq, Debug, Clone)]
struct Nulls {
    from: (),
    fee: u64,
}

fn sample(i: u8) -> Args {
    let blob = |k: u8| ByteBuf::from(vec![k; usize::from(k % 4)]);
    Args {
        from: (i % 2 == 0).then(|| blob(i)),
        to: (i % 3 != 0).then(|| blob(i + 1)),
        fee: (i % 4 == 1).then_some(u64::from(i) * 1000),
        nested: match i % 3 {
            0 => None,
            1 => Some(None),
            _ => Some(Some(format!("n{i}"))),
        },
        many: (0..i % 5).map(|k| (k % 2 == 0).then_some(k)).collect(),
        tail: (i > 0 && i % 2 == 1).then(|| Box::new(sample(i - 1))),
    }
}

/// Absent and present options, nested, in vectors and in a recursive field, each
/// message decoded twice (the second from the kept header), with candid's values
/// and units, and the quota running out at the same unit.
#[test]
fn options_decode_and_cost_as_candid() {
    for i in 0..8u8 {
        let v = sample(i);
        let bytes = candid::encode_one(&v).unwrap();
        for _ in 0..2 {
            assert_eq!(both::<Args>(&bytes, 10_000_000), Some(v.clone()));
        }
        for quota in (0..400).step_by(3) {
            both::<Args>(&bytes, quota);
        }
    }
}

const QUOTA: usize = 10_000_000;

/// Every one-byte change of the messages' values (each flag to 1, 2 and 0xff among
/// them) and every cut: the same outcome, value and units as candid. (Changes to
/// the header are `tests/differential`'s, with its documented exceptions: a
/// changed table can make a value not fit its `opt` field, spec/differences.md
/// D1 and D12.)
#[test]
fn changed_and_cut_messages_decode_as_candid() {
    let messages: Vec<Vec<u8>> = (0..8)
        .map(|i| candid::encode_one(sample(i)).unwrap())
        .collect();
    // The header is the bytes every message starts with (the values differ).
    let header = (0..)
        .find(|&k| messages.iter().any(|m| m.get(k) != messages[0].get(k)))
        .unwrap();
    assert!(header > 40 && header < messages[0].len());
    for bytes in &messages[..4] {
        for at in header..bytes.len() {
            for b in [0u8, 1, 2, 0x6e, 0x7f, 0xff] {
                let mut changed = bytes.clone();
                changed[at] = b;
                both::<Args>(&changed, QUOTA);
                both::<Args>(&changed, 200);
            }
        }
        for at in 0..bytes.len() {
            both::<Args>(&bytes[..at], QUOTA);
        }
    }
}

/// Where one side is not an option the path does not fire: an `opt` on the wire
/// into a plain field is refused, `null` and plain values into options are read
/// as candid reads them (a missing field too).
#[test]
fn one_sided_options_decode_as_candid() {
    let opts = candid::encode_one(Wider {
        from: Some(ByteBuf::from(vec![1, 2])),
        fee: Some(7),
        absent: None,
    })
    .unwrap();
    assert_eq!(both::<Plain>(&opts, 10_000_000), None);
    let plain = candid::encode_one(Plain {
        from: ByteBuf::from(vec![3]),
        fee: 9,
    })
    .unwrap();
    let wider = both::<Wider>(&plain, 10_000_000).expect("read as options");
    assert_eq!(wider.fee, Some(9));
    let nulls = candid::encode_one(Nulls { from: (), fee: 4 }).unwrap();
    let wider = both::<Wider>(&nulls, 10_000_000).expect("read as options");
    assert_eq!((wider.from, wider.fee), (None, Some(4)));
    for quota in 0..120 {
        both::<Wider>(&plain, quota);
        both::<Wider>(&nulls, quota);
        both::<Plain>(&opts, quota);
    }
}
