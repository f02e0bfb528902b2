//! What candid 0.10.33 to 0.10.39 changed, each behaviour run through both crates on
//! the same input: the 64 KiB header bound (`set_max_header_len`), header lengths
//! read without trusting the claimed length, newtypes and `is_human_readable` on the
//! primitive-vector and `IDLValue` paths, the `u128`/`i128` LEB readers that read the
//! whole body, the subtype check's memo of refuted pairs, `opt` backtracking over a
//! long argument queue, and the map fast paths that now keep a key and a value under
//! their own types.

use candor::ErrorKind;
use std::cell::RefCell;

fn leb(n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    leb128::write::unsigned(&mut out, n).unwrap();
    out
}

fn sleb(n: i64) -> Vec<u8> {
    let mut out = Vec::new();
    leb128::write::signed(&mut out, n).unwrap();
    out
}

/// Both crates' answers to one message under one config: `Ok` with the units used
/// (decoding, skipping), or the error text.
type Answer = Result<(usize, usize), String>;

#[derive(Clone, Copy, Default)]
struct Limits {
    header: Option<usize>,
    decoding: Option<usize>,
    skipping: Option<usize>,
}

fn ours_config(l: Limits) -> candor::DecoderConfig {
    let mut c = candor::DecoderConfig::new();
    if let Some(n) = l.header {
        c.set_max_header_len(n);
    }
    c.set_decoding_quota(l.decoding.unwrap_or(1 << 40));
    c.set_skipping_quota(l.skipping.unwrap_or(1 << 40));
    c
}

fn theirs_config(l: Limits) -> candid::DecoderConfig {
    let mut c = candid::DecoderConfig::new();
    if let Some(n) = l.header {
        c.set_max_header_len(n);
    }
    c.set_decoding_quota(l.decoding.unwrap_or(1 << 40));
    c.set_skipping_quota(l.skipping.unwrap_or(1 << 40));
    c
}

/// Decodes every argument as `IDLValue` (untyped) with both crates.
fn untyped_both(bytes: &[u8], l: Limits) -> (Answer, Answer, Option<candor::ErrorKind>) {
    let oc = ours_config(l);
    let ours = candor::IDLDeserialize::new_with_config(bytes, &oc).and_then(|mut de| {
        while !de.is_done() {
            de.get_value::<candor::IDLValue>()?;
        }
        de.done()?;
        let c = de.get_config().compute_cost(&oc);
        Ok((c.decoding_quota.unwrap(), c.skipping_quota.unwrap()))
    });
    let tc = theirs_config(l);
    let theirs = candid::de::IDLDeserialize::new_with_config(bytes, &tc).and_then(|mut de| {
        while !de.is_done() {
            de.get_value::<candid::IDLValue>()?;
        }
        de.done()?;
        let c = de.get_config().compute_cost(&tc);
        Ok((c.decoding_quota.unwrap(), c.skipping_quota.unwrap()))
    });
    let kind = ours.as_ref().err().map(|e| e.kind());
    (
        ours.map_err(|e| e.to_string()),
        theirs.map_err(|e| format!("{e:#}")),
        kind,
    )
}

// ---- the header bound -------------------------------------------------------------

/// A message whose header (magic included) is exactly `len` bytes: one unused
/// future-type entry (opcode -25) whose blob pads the header, then the arguments
/// `args` (type opcodes), then `values`.
fn header_of_len(len: usize, args: &[u8], values: &[u8]) -> Vec<u8> {
    let fixed = 4 + 1 + 1 + 1 + args.len();
    let mut blob = len - fixed - 1;
    while blob + leb(blob as u64).len() + fixed > len {
        blob -= 1;
    }
    let mut m = b"DIDL\x01".to_vec();
    m.extend(sleb(-25));
    m.extend(leb(blob as u64));
    m.extend(std::iter::repeat_n(0xa5u8, blob));
    m.extend(leb(args.len() as u64));
    m.extend_from_slice(args);
    assert_eq!(m.len(), len, "header length");
    m.extend_from_slice(values);
    m
}

/// The same with the header padded by record fields instead: one record entry with
/// `null` fields 0, 1, 2, ... (every field a real element the header declares).
fn record_header_of_len(len: usize) -> Option<Vec<u8>> {
    // DIDL, 1 entry, record opcode, field count, fields, 1 arg, type 0.
    let mut fields = Vec::new();
    let mut n = 0u64;
    loop {
        let field = [leb(n), vec![0x7f]].concat();
        let total = 4 + 1 + 1 + leb(n + 1).len() + fields.len() + field.len() + 2;
        if total > len {
            break;
        }
        fields.extend(field);
        n += 1;
    }
    let mut m = b"DIDL\x01\x6c".to_vec();
    m.extend(leb(n));
    m.extend(fields);
    m.extend([1, 0]);
    (m.len() == len).then_some(m)
}

#[test]
fn header_at_the_bound_is_accepted_and_one_byte_over_is_not() {
    for bound in [16usize, 17, 100, 1000, 4096, 64 * 1024] {
        for (args, values) in [(&[0x7fu8][..], &[][..]), (&[0x7b][..], &[9][..])] {
            for len in [bound - 1, bound, bound + 1] {
                let m = header_of_len(len, args, values);
                let defaults = if bound == 64 * 1024 {
                    &[Some(bound), None][..]
                } else {
                    &[Some(bound)][..]
                };
                for &header in defaults {
                    let limits = Limits {
                        header,
                        ..Limits::default()
                    };
                    let (ours, theirs, kind) = untyped_both(&m, limits);
                    let within = len <= bound;
                    match (&ours, &theirs) {
                        (Ok(a), Ok(b)) if within => {
                            assert_eq!(a, b, "len {len} bound {bound}");
                        }
                        (Err(o), Err(t)) if !within => {
                            assert_eq!(kind, Some(ErrorKind::Limit), "{o}");
                            let text = format!("exceeds the limit of {bound} bytes");
                            assert!(o.contains(&text), "{o}");
                            assert!(t.contains(&text), "{t}");
                        }
                        _ => panic!("len {len} bound {bound}: candor {ours:?}, candid {theirs:?}"),
                    }
                }
            }
        }
    }
}

/// Without `set_max_header_len` the bound is 64 KiB in both.
#[test]
fn default_header_bound_is_64_kib() {
    for len in [64 * 1024, 64 * 1024 + 1] {
        let m = header_of_len(len, &[0x7b], &[1]);
        let (ours, theirs, _) = untyped_both(&m, Limits::default());
        assert_eq!(ours.is_ok(), len <= 64 * 1024, "{ours:?}");
        assert_eq!(theirs.is_ok(), len <= 64 * 1024, "{theirs:?}");
        // Fields rather than a blob: the same bound.
        if let Some(m) = record_header_of_len(len) {
            let (ours, theirs, _) = untyped_both(&m, Limits::default());
            assert_eq!(ours.is_ok(), theirs.is_ok(), "{ours:?} / {theirs:?}");
            assert_eq!(ours.is_ok(), len <= 64 * 1024, "{ours:?}");
        }
    }
}

/// A header that is malformed inside the bound keeps its own diagnosis even when it
/// also runs past the bound; one that runs out of input short of the bound is
/// malformed, not over it. Accept and reject agree with candid either way.
#[test]
fn header_errors_near_the_bound() {
    let bound = 64;
    let cases: Vec<(&str, Vec<u8>, Option<ErrorKind>)> = vec![
        (
            "truncated header inside the bound",
            b"DIDL\x01\x6c\x05\x00\x7f".to_vec(),
            Some(ErrorKind::Binary),
        ),
        (
            "bad opcode inside a header longer than the bound",
            [
                &b"DIDL\x01\x6c\x02\x00\x10"[..],
                &[0x7f; 100][..],
                &[1, 0][..],
            ]
            .concat(),
            None,
        ),
        (
            "too many table entries, header longer than the bound",
            [&b"DIDL"[..], &leb(20_000), &[0x6e, 0x7f].repeat(50)].concat(),
            None,
        ),
        (
            "bad magic in a long message",
            [&b"DIDM\x00\x01\x7f"[..], &[0; 100][..]].concat(),
            None,
        ),
    ];
    for (name, m, kind) in cases {
        let (ours, theirs, k) = untyped_both(
            &m,
            Limits {
                header: Some(bound),
                ..Limits::default()
            },
        );
        assert!(
            ours.is_err() && theirs.is_err(),
            "{name}: {ours:?} {theirs:?}"
        );
        if let Some(kind) = kind {
            assert_eq!(k, Some(kind), "{name}: {ours:?}");
        }
    }
}

/// A header kept by candor's header cache is not taken by a decode whose bound it
/// exceeds: the same message, accepted at 64 KiB, is refused at a bound one byte
/// short of its header, as in candid, and accepted again after.
#[test]
fn a_kept_header_is_held_to_the_new_bound() {
    let m = header_of_len(2000, &[0x7b], &[1]);
    for header in [None, Some(1999), None, Some(2000), Some(1999)] {
        let limits = Limits {
            header,
            ..Limits::default()
        };
        for _ in 0..2 {
            let (ours, theirs, _) = untyped_both(&m, limits);
            assert_eq!(
                ours.is_ok(),
                theirs.is_ok(),
                "{header:?}: {ours:?} {theirs:?}"
            );
            assert_eq!(ours.is_ok(), header != Some(1999), "{header:?}");
        }
    }
}

// ---- lengths in the header -------------------------------------------------------

/// Lengths a header claims are not trusted: a future type's blob, a method name, a
/// field count or an argument count of 2^62 in a message of a few bytes is rejected
/// by both, without reserving what it claims (a reservation of 2^62 bytes aborts the
/// process, so finishing the test is the check; `tests/header_alloc.rs` measures
/// the largest allocation).
#[test]
fn claimed_header_lengths_are_not_trusted() {
    let huge = leb(1 << 62);
    let messages: Vec<(&str, Vec<u8>)> = vec![
        (
            "future blob",
            [&b"DIDL\x01"[..], &sleb(-25), &huge, b"abc"].concat(),
        ),
        (
            "future blob, 1 MiB claimed",
            [&b"DIDL\x01"[..], &sleb(-30), &leb(1 << 20), &[0; 9000][..]].concat(),
        ),
        (
            "method name",
            [&b"DIDL\x02\x69\x01"[..], &huge, b"ab"].concat(),
        ),
        (
            "record fields",
            [&b"DIDL\x01\x6c"[..], &huge, &[0, 0x7f]].concat(),
        ),
        (
            "variant fields",
            [&b"DIDL\x01\x6b"[..], &huge, &[0, 0x7f]].concat(),
        ),
        ("func args", [&b"DIDL\x01\x6a"[..], &huge, &[0x7f]].concat()),
        (
            "func results",
            [&b"DIDL\x01\x6a\x00"[..], &huge, &[0x7f]].concat(),
        ),
        ("arguments", [&b"DIDL\x00"[..], &huge, &[0x7f]].concat()),
        ("table", [&b"DIDL"[..], &huge, &[0x6e, 0x7f]].concat()),
    ];
    for (name, m) in messages {
        for header in [None, Some(16)] {
            let (ours, theirs, _) = untyped_both(
                &m,
                Limits {
                    header,
                    ..Limits::default()
                },
            );
            assert!(ours.is_err(), "{name}: {ours:?}");
            assert!(theirs.is_err(), "{name}: {theirs:?}");
        }
    }
}

/// A future type's blob of 20,000 bytes (more than candid's 8 KiB read chunk) is
/// read whole, in both.
#[test]
fn long_future_blobs_are_read_whole() {
    for len in [8191usize, 8192, 8193, 20_000] {
        let mut m = b"DIDL\x01".to_vec();
        m.extend(sleb(-40));
        m.extend(leb(len as u64));
        m.extend(std::iter::repeat_n(7u8, len));
        m.extend([1, 0x7e, 1]);
        let (ours, theirs, _) = untyped_both(&m, Limits::default());
        assert_eq!(ours, theirs.clone().map_err(|_| String::new()), "{len}");
        assert!(theirs.is_ok());
        // One byte short: malformed in both.
        let short = [&m[..m.len() - 4 - 1], &m[m.len() - 3..]].concat();
        let (ours, theirs, _) = untyped_both(&short, Limits::default());
        assert!(
            ours.is_err() && theirs.is_err(),
            "{len}: {ours:?} {theirs:?}"
        );
    }
}

// ---- newtypes and is_human_readable ------------------------------------------------

thread_local! {
    /// What each probe saw, in decode order.
    static SEEN: RefCell<Vec<bool>> = const { RefCell::new(Vec::new()) };
}

macro_rules! probes {
    ($k:ident) => {
        use serde::de::Deserializer;
        use $k::{CandidType, Deserialize};

        /// Records `is_human_readable` of the deserializer it is given, then
        /// decodes a `T`.
        #[derive(Debug, PartialEq, Clone, PartialOrd, Ord, Eq)]
        pub struct Probe<T>(pub T);

        impl<T: CandidType> CandidType for Probe<T> {
            fn _ty() -> $k::types::Type {
                T::ty()
            }
            fn idl_serialize<S: $k::types::Serializer>(&self, s: S) -> Result<(), S::Error> {
                self.0.idl_serialize(s)
            }
        }

        impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Probe<T> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                super::SEEN.with(|s| s.borrow_mut().push(d.is_human_readable()));
                T::deserialize(d).map(Probe)
            }
        }

        #[derive(CandidType, Deserialize, Debug, PartialEq, Clone, PartialOrd, Ord, Eq)]
        pub struct EventIndex(pub u32);

        #[derive(CandidType, Deserialize, Debug, PartialEq, Clone)]
        pub struct Outer(pub Inner);

        #[derive(CandidType, Deserialize, Debug, PartialEq, Clone)]
        pub struct Inner(pub f64);

        #[derive(CandidType, Deserialize, Debug, PartialEq, Clone)]
        pub struct Flag(pub bool);

        #[derive(CandidType, Deserialize, Debug, PartialEq, Clone)]
        pub struct Rec {
            pub a: Probe<u8>,
            pub b: Vec<Probe<i16>>,
            pub c: Option<Probe<String>>,
            pub m: std::collections::BTreeMap<Probe<String>, Probe<u64>>,
            pub v: Vari,
        }

        #[derive(CandidType, Deserialize, Debug, PartialEq, Clone)]
        pub enum Vari {
            A(Probe<i64>),
            B,
        }

        pub fn rec() -> Rec {
            Rec {
                a: Probe(1),
                b: vec![Probe(-1), Probe(2)],
                c: Some(Probe("c".into())),
                m: [(Probe("k".to_string()), Probe(5u64))]
                    .into_iter()
                    .collect(),
                v: Vari::A(Probe(-7)),
            }
        }
    };
}

#[allow(dead_code)]
mod probe_ours {
    probes!(candor);
}
mod probe_theirs {
    probes!(candid);
}

fn seen() -> Vec<bool> {
    SEEN.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

/// Every deserializer candor hands a `Deserialize` impl says it is not human
/// readable, as candid's do: at the top, in a record field, in a primitive vector
/// (candid's `NewtypeCompat`), under `opt`, as a map key and value, in a variant.
#[test]
fn no_deserializer_is_human_readable() {
    let bytes = candid::encode_one(probe_theirs::rec()).unwrap();
    seen();
    let ours: probe_ours::Rec = candor::decode_one(&bytes).unwrap();
    let ours_seen = seen();
    let theirs: probe_theirs::Rec = candid::decode_one(&bytes).unwrap();
    let theirs_seen = seen();
    assert_eq!(
        candor::encode_one(ours).unwrap(),
        candid::encode_one(theirs).unwrap()
    );
    assert_eq!(ours_seen, theirs_seen);
    assert_eq!(ours_seen.len(), 7);
    assert!(ours_seen.iter().all(|h| !h), "{ours_seen:?}");
    // Primitive vectors of every width.
    macro_rules! prim_vec {
        ($($t:ty = $v:expr),*) => {$(
            let bytes = candid::encode_one(vec![$v; 3]).unwrap();
            let a: Vec<probe_ours::Probe<$t>> = candor::decode_one(&bytes).unwrap();
            let o = seen();
            let b: Vec<probe_theirs::Probe<$t>> = candid::decode_one(&bytes).unwrap();
            let t = seen();
            assert_eq!(a.into_iter().map(|p| p.0).collect::<Vec<_>>(), b.into_iter().map(|p| p.0).collect::<Vec<_>>());
            assert_eq!(o, t, stringify!($t));
            assert_eq!(o, vec![false; 3], stringify!($t));
        )*};
    }
    prim_vec!(
        bool = true,
        u8 = 7u8,
        i8 = -7i8,
        u16 = 300u16,
        i16 = -300i16,
        u32 = 7u32,
        i32 = -7i32,
        u64 = 7u64,
        i64 = -7i64,
        f32 = 1.5f32,
        f64 = -2.5f64
    );
}

/// Newtype elements of a primitive vector decode (candid 0.10.39's `NewtypeCompat`),
/// nested newtypes unwrap, and a newtype goes through `IDLValue` and back unchanged.
#[test]
fn newtypes_in_primitive_vectors_and_through_idl_value() {
    use probe_ours as o;
    use probe_theirs as t;
    let bytes = candid::encode_one(vec![1u32, 2, u32::MAX]).unwrap();
    let a: Vec<o::EventIndex> = candor::decode_one(&bytes).unwrap();
    let b: Vec<t::EventIndex> = candid::decode_one(&bytes).unwrap();
    assert_eq!(
        a.iter().map(|e| e.0).collect::<Vec<_>>(),
        b.iter().map(|e| e.0).collect::<Vec<_>>()
    );
    let bytes = candid::encode_one(vec![1.5f64, -0.0]).unwrap();
    let a: Vec<o::Outer> = candor::decode_one(&bytes).unwrap();
    let b: Vec<t::Outer> = candid::decode_one(&bytes).unwrap();
    assert_eq!(
        a.iter().map(|e| e.0 .0.to_bits()).collect::<Vec<_>>(),
        b.iter().map(|e| e.0 .0.to_bits()).collect::<Vec<_>>()
    );
    let bytes = candid::encode_one(vec![true, false]).unwrap();
    let a: Vec<o::Flag> = candor::decode_one(&bytes).unwrap();
    let b: Vec<t::Flag> = candid::decode_one(&bytes).unwrap();
    assert_eq!(
        a.iter().map(|e| e.0).collect::<Vec<_>>(),
        b.iter().map(|e| e.0).collect::<Vec<_>>()
    );
    // A bad bool inside the vector: both reject.
    let mut bad = bytes.clone();
    *bad.last_mut().unwrap() = 2;
    assert!(candor::decode_one::<Vec<o::Flag>>(&bad).is_err());
    assert!(candid::decode_one::<Vec<t::Flag>>(&bad).is_err());

    // Through IDLValue: the value of a newtype is its field's, in both.
    let ov = candor::IDLValue::try_from_candid_type(&o::Outer(o::Inner(0.25))).unwrap();
    let tv = candid::IDLValue::try_from_candid_type(&t::Outer(t::Inner(0.25))).unwrap();
    assert_eq!(ov.to_string(), tv.to_string());
    let ov = candor::IDLValue::try_from_candid_type(&vec![o::EventIndex(3)]).unwrap();
    let tv = candid::IDLValue::try_from_candid_type(&vec![t::EventIndex(3)]).unwrap();
    assert_eq!(ov.to_string(), tv.to_string());
    // Encoded from IDLValue, decoded as the newtype.
    let ob = candor::IDLArgs::new(&[ov]).to_bytes().unwrap();
    let tb = candid::IDLArgs::new(&[tv]).to_bytes().unwrap();
    assert_eq!(ob, tb);
    let a: Vec<o::EventIndex> = candor::decode_one(&tb).unwrap();
    assert_eq!(a, vec![o::EventIndex(3)]);
    // Decoded untyped and annotated with the newtype's type.
    let args = candor::IDLArgs::from_bytes(&tb).unwrap();
    let theirs = candid::IDLArgs::from_bytes(&tb).unwrap();
    assert_eq!(args.to_string(), theirs.to_string());
}

// ---- u128 and i128 ------------------------------------------------------------------

fn u128_both(body: &[u8]) -> (Result<u128, String>, Result<u128, String>) {
    let m = [&b"DIDL\x00\x01\x7d"[..], body].concat();
    (
        candor::decode_one::<u128>(&m).map_err(|e| e.to_string()),
        candid::decode_one::<u128>(&m).map_err(|e| e.to_string()),
    )
}

fn i128_both(op: u8, body: &[u8]) -> (Result<i128, String>, Result<i128, String>) {
    let m = [&b"DIDL\x00\x01"[..], &[op], body].concat();
    (
        candor::decode_one::<i128>(&m).map_err(|e| e.to_string()),
        candid::decode_one::<i128>(&m).map_err(|e| e.to_string()),
    )
}

/// An unsigned LEB128 of `groups` 7-bit groups holding `v` (overlong when `v` needs
/// fewer).
fn overlong(v: u128, groups: usize) -> Vec<u8> {
    (0..groups)
        .map(|i| {
            let g = if i * 7 < 128 {
                (v >> (i * 7)) as u8 & 0x7f
            } else {
                0
            };
            g | if i + 1 < groups { 0x80 } else { 0 }
        })
        .collect()
}

fn overlong_signed(v: i128, groups: usize) -> Vec<u8> {
    (0..groups)
        .map(|i| {
            let g = (v >> (i * 7).min(127)) as u8 & 0x7f;
            g | if i + 1 < groups { 0x80 } else { 0 }
        })
        .collect()
}

#[test]
fn u128_reads_the_whole_body_and_rejects_only_overflow() {
    let mut bodies = Vec::new();
    for v in [
        0u128,
        5,
        127,
        128,
        u64::MAX as u128,
        u128::MAX >> 1,
        u128::MAX,
    ] {
        for groups in [19usize, 20, 25, 40] {
            bodies.push(overlong(v, groups));
        }
    }
    // 2^128 and just over; set bits far past bit 127; set bits in the 19th group.
    bodies.push([vec![0x80; 18], vec![0x04]].concat());
    bodies.push([vec![0xff; 18], vec![0x07]].concat());
    bodies.push([vec![0xff; 18], vec![0x83, 0x00]].concat());
    bodies.push([vec![0x80; 30], vec![0x01]].concat());
    bodies.push([vec![0xff; 18], vec![0x83, 0x80, 0x80, 0x00]].concat());
    bodies.push([vec![0x80; 18], vec![0x80 | 0x08, 0x00]].concat());
    // Truncated: both reject.
    bodies.push(vec![0x80; 30]);
    for body in &bodies {
        let (ours, theirs) = u128_both(body);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{body:02x?}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{body:02x?}: candor {ours:?}, candid {theirs:?}"),
        }
    }
    // A value just over u128::MAX is refused; u128::MAX itself with trailing zero
    // groups is read.
    assert!(u128_both(&[vec![0x80; 18], vec![0x04]].concat()).0.is_err());
    assert_eq!(u128_both(&overlong(u128::MAX, 30)).0, Ok(u128::MAX));
}

#[test]
fn i128_reads_the_whole_body_and_rejects_only_overflow() {
    let mut bodies = Vec::new();
    for v in [
        0i128,
        -1,
        63,
        -64,
        64,
        -65,
        i64::MIN as i128,
        i128::MAX,
        i128::MIN,
    ] {
        for groups in [19usize, 20, 25] {
            bodies.push(overlong_signed(v, groups));
        }
    }
    // Sign bits that disagree past bit 127.
    bodies.push([vec![0xff; 18], vec![0x80 | 0x3f, 0x00]].concat());
    bodies.push([vec![0x80; 18], vec![0x80 | 0x40, 0x7f]].concat());
    bodies.push([vec![0xff; 18], vec![0xff, 0x7e]].concat());
    bodies.push([vec![0x80; 19], vec![0x01]].concat());
    for body in &bodies {
        for op in [0x7c, 0x7d] {
            let (ours, theirs) = i128_both(op, body);
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{op:x} {body:02x?}"),
                (Err(_), Err(_)) => {}
                _ => panic!("{op:x} {body:02x?}: candor {ours:?}, candid {theirs:?}"),
            }
        }
    }
}

// ---- the subtype memo ---------------------------------------------------------------

use crate::diamond::diamond;
use crate::to_candid;

/// The leaf value of `diamond_message`, by leaf type.
fn leaf_value(leaf: &candor::TypeInner) -> (u8, Vec<u8>) {
    use candor::TypeInner as T;
    match leaf {
        T::Text => (0x71, vec![1, b'x']),
        T::Nat => (0x7d, vec![5]),
        T::Int => (0x7c, vec![5]),
        T::Nat8 => (0x7b, vec![5]),
        T::Null => (0x7f, vec![]),
        other => panic!("no leaf value for {other:?}"),
    }
}

/// A message of type `t_0` of `diamond(levels, leaf)`: both `opt`s absent.
fn diamond_message(levels: usize, leaf: &candor::TypeInner) -> Vec<u8> {
    let (op, value) = leaf_value(leaf);
    let mut fields = [
        (candor::idl_hash("a"), levels as i64),
        (candor::idl_hash("b"), levels as i64),
        (candor::idl_hash("c"), 0),
    ];
    fields.sort();
    let mut m = b"DIDL".to_vec();
    m.extend(leb(2 * levels as u64));
    for i in 0..levels {
        m.push(0x6c);
        m.push(3);
        for (h, t) in fields {
            m.extend(leb(h as u64));
            // entry `levels + i` is `opt (i + 1) % levels`; `c` is the leaf.
            m.extend(sleb(if t == 0 {
                i64::from(op) - 128
            } else {
                (levels + i) as i64
            }));
        }
    }
    for i in 0..levels {
        m.push(0x6e);
        m.extend(sleb(((i + 1) % levels) as i64));
    }
    m.extend([1, 0]);
    // a = null, b = null (fields sorted by hash: a, b, c), then c.
    m.extend([0, 0]);
    m.extend(value);
    m
}

/// The wire and expected environments of the diamond with these leaves, and the
/// two root types.
fn diamonds(
    levels: usize,
    wire_leaf: &candor::TypeInner,
    exp_leaf: &candor::TypeInner,
) -> (candor::TypeEnv, candor::types::Type, candor::types::Type) {
    use candor::TypeInner as T;
    let mut env = diamond("t", levels, wire_leaf.clone());
    for (k, v) in diamond("e", levels, exp_leaf.clone()).0 {
        env.0.insert(k, v);
    }
    (env, T::Var("t0".into()).into(), T::Var("e0".into()).into())
}

/// (wire leaf, expected leaf, whether `t_0 <: e_0`).
fn diamond_cases() -> Vec<(candor::TypeInner, candor::TypeInner, bool)> {
    use candor::TypeInner as T;
    vec![
        (T::Nat, T::Int, true),
        (T::Int, T::Nat, false),
        (T::Text, T::Nat, false),
        (T::Nat8, T::Reserved, true),
        (T::Null, T::Nat8, false),
    ]
}

/// 60 levels: the level count is the time box (2^60 probes without a memo of
/// refuted pairs; no check would end).
const DIAMOND_LEVELS: usize = 60;

/// A refuted pair is not explored again by the decoder: a message of type `t_0`
/// decoded at `opt e_0` is `null` when the check fails (the value otherwise), at
/// `e_0` an error, at `t_0` the value, as in candid (whose own check, through
/// `types::subtype`, decides alike and ends too).
#[test]
fn refuted_pairs_are_not_explored_again_when_decoding() {
    use candor::TypeInner as T;
    for (wire_leaf, exp_leaf, holds) in diamond_cases() {
        let (env, wt, et) = diamonds(DIAMOND_LEVELS, &wire_leaf, &exp_leaf);
        let cenv = to_candid::env(&env);
        let theirs = candid::types::subtype::subtype_with_config(
            candid::types::subtype::OptReport::Silence,
            &mut Default::default(),
            &cenv,
            &to_candid::ty(&wt),
            &to_candid::ty(&et),
        );
        assert_eq!(
            theirs.is_ok(),
            holds,
            "{wire_leaf:?} <: {exp_leaf:?}: {theirs:?}"
        );

        let m = diamond_message(DIAMOND_LEVELS, &wire_leaf);
        let opt_e: candor::types::Type = T::Opt(et.clone()).into();
        for expected in [&opt_e, &et, &wt] {
            let ours =
                candor::IDLArgs::from_bytes_with_types(&m, &env, std::slice::from_ref(expected));
            let theirs =
                candid::IDLArgs::from_bytes_with_types(&m, &cenv, &[to_candid::ty(expected)]);
            assert_eq!(
                ours.as_ref().map(|a| a.to_string()).ok(),
                theirs.as_ref().map(|a| a.to_string()).ok(),
                "{wire_leaf:?} at {expected:?}\ncandor {ours:?}\ncandid {theirs:?}"
            );
            if expected == &opt_e {
                let ours = ours.unwrap_or_else(|e| panic!("{wire_leaf:?}: {e}; candid {theirs:?}"));
                assert_eq!(ours.args[0] == candor::IDLValue::None, !holds);
            }
        }
    }
}

// The same check through `types::subtype` is in `tests/subtype_work.rs`, counted in
// allocations against candid's (both checkers remember the pairs they refuted).

// ---- opt backtracking over a long argument queue ------------------------------------

/// 2,000 arguments, each a record decoded at `opt` of a record it does not coerce
/// to: candid snapshots its argument queue for every backtrack (an `Rc` since
/// 0.10.39); the values are `null` in both and candor never charges more.
#[test]
fn opt_backtracking_over_many_arguments() {
    #[derive(candid::CandidType)]
    struct R1 {
        a: u8,
    }
    let n = 2000;
    let mut b = candid::ser::IDLBuilder::new();
    for i in 0..n {
        b.arg(&R1 { a: i as u8 }).unwrap();
    }
    let bytes = b.serialize_to_vec().unwrap();
    use candor::types::{Field, Label, TypeInner};
    let exp: candor::types::Type = TypeInner::Opt(
        TypeInner::Record(vec![
            Field {
                id: Label::Named("a".into()).into(),
                ty: TypeInner::Nat8.into(),
            },
            Field {
                id: Label::Named("b".into()).into(),
                ty: TypeInner::Nat8.into(),
            },
        ])
        .into(),
    )
    .into();
    let types = vec![exp; n];
    let env = candor::TypeEnv::new();
    let ctypes: Vec<_> = types.iter().map(to_candid::ty).collect();
    let oc = ours_config(Limits::default());
    let tc = theirs_config(Limits::default());
    let mut de = candor::IDLDeserialize::new_with_config(&bytes, &oc).unwrap();
    let ours: Vec<String> = types
        .iter()
        .map(|t| de.get_value_with_type(&env, t).unwrap().to_string())
        .collect();
    de.done().unwrap();
    let ocost = de.get_config().compute_cost(&oc);
    let mut de = candid::de::IDLDeserialize::new_with_config(&bytes, &tc).unwrap();
    let theirs: Vec<String> = ctypes
        .iter()
        .map(|t| {
            de.get_value_with_type(&candid::TypeEnv::new(), t)
                .unwrap()
                .to_string()
        })
        .collect();
    de.done().unwrap();
    let tcost = de.get_config().compute_cost(&tc);
    assert_eq!(ours, theirs);
    assert!(ours.iter().all(|v| v == "null"));
    // spec/differences.md D1: deciding first never costs more.
    assert!(ocost.decoding_quota <= tcost.decoding_quota);
    assert!(ocost.skipping_quota <= tcost.skipping_quota);
}

// ---- map fast paths --------------------------------------------------------------

/// A map's key and value each decode under their own type: a `blob` value is not read
/// as `text` (candid 0.10.39 turned the key's text fast path off for the value), and a
/// `text` key is not read as a `nat` (its bignum fast path is the value's only).
#[test]
fn map_keys_and_values_keep_their_types() {
    use std::collections::BTreeMap;
    let blob_values: Vec<(String, serde_bytes::ByteBuf)> =
        vec![("k".into(), serde_bytes::ByteBuf::from(b"v".to_vec()))];
    let bytes = candid::encode_one(&blob_values).unwrap();
    let ours = candor::decode_one::<BTreeMap<String, String>>(&bytes);
    let theirs = candid::decode_one::<BTreeMap<String, String>>(&bytes);
    assert!(theirs.is_err(), "{theirs:?}");
    assert!(ours.is_err(), "{ours:?}");
    let ours = candor::decode_one::<BTreeMap<String, serde_bytes::ByteBuf>>(&bytes);
    let theirs = candid::decode_one::<BTreeMap<String, serde_bytes::ByteBuf>>(&bytes);
    assert_eq!(ours.ok(), theirs.ok());

    let text_keys: Vec<(String, candid::Nat)> = vec![("k".into(), 5u8.into())];
    let bytes = candid::encode_one(&text_keys).unwrap();
    let ours = candor::decode_one::<BTreeMap<candor::Nat, candor::Nat>>(&bytes);
    let theirs = candid::decode_one::<BTreeMap<candid::Nat, candid::Nat>>(&bytes);
    assert!(ours.is_err() && theirs.is_err(), "{ours:?} {theirs:?}");
    let nats: Vec<(candid::Nat, candid::Nat)> = vec![(1u8.into(), 2u8.into())];
    let bytes = candid::encode_one(&nats).unwrap();
    let ours = candor::decode_one::<BTreeMap<candor::Nat, candor::Int>>(&bytes).unwrap();
    let theirs = candid::decode_one::<BTreeMap<candid::Nat, candid::Int>>(&bytes).unwrap();
    assert_eq!(
        candor::encode_one(ours).unwrap(),
        candid::encode_one(theirs).unwrap()
    );
}

/// A type name missing from the environment is an error in both subtype checks
/// (candid 0.10.39 no longer panics there).
#[test]
fn an_unknown_type_name_is_an_error() {
    use candor::TypeInner as T;
    let env = candor::TypeEnv::new();
    let v: candor::types::Type = T::Var("missing".into()).into();
    let n: candor::types::Type = T::Nat.into();
    for (a, b) in [(&v, &n), (&n, &v)] {
        let ours = candor::types::subtype::subtype(&mut Default::default(), &env, a, b);
        let theirs = std::panic::catch_unwind(|| {
            candid::types::subtype::subtype(
                &mut Default::default(),
                &to_candid::env(&env),
                &to_candid::ty(a),
                &to_candid::ty(b),
            )
            .is_err()
        });
        assert!(ours.is_err());
        assert_eq!(theirs.ok(), Some(true));
    }
}
