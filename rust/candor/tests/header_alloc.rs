//! A length a header claims is never reserved before the bytes are there: the largest
//! single allocation while candor rejects a message that claims a 1 GiB future-type
//! blob, method name, field list or argument list is a small multiple of the message
//! (candid 0.10.39 reads such blobs in 8 KiB steps for the same reason). A global
//! allocator records the largest request on this thread (this binary only).

#[path = "common/alloc_probe.rs"]
mod alloc_probe;
use alloc_probe::largest;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

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

#[test]
fn claimed_header_lengths_are_not_reserved() {
    let gib = leb(1 << 30);
    let messages: Vec<(&str, Vec<u8>)> = vec![
        (
            "future blob",
            [&b"DIDL\x01"[..], &sleb(-25), &gib, &[7; 100]].concat(),
        ),
        (
            "method name",
            [&b"DIDL\x02\x69\x01"[..], &gib, &[b'm'; 100]].concat(),
        ),
        (
            "record fields",
            [&b"DIDL\x01\x6c"[..], &gib, &[0, 0x7f]].concat(),
        ),
        (
            "variant cases",
            [&b"DIDL\x01\x6b"[..], &gib, &[0, 0x7f]].concat(),
        ),
        (
            "func arguments",
            [&b"DIDL\x01\x6a"[..], &gib, &[0x7f]].concat(),
        ),
        ("service methods", [&b"DIDL\x01\x69"[..], &gib].concat()),
        ("arguments", [&b"DIDL\x00"[..], &gib, &[0x7f; 10]].concat()),
        ("table", [&b"DIDL"[..], &leb(9_999), &[0x6e, 0x7f]].concat()),
    ];
    for (name, m) in &messages {
        let ours = largest(|| {
            let r = candor::IDLArgs::from_bytes(m);
            assert!(r.is_err(), "{name}");
        });
        assert!(ours <= 64 * 1024, "{name}: candor reserved {ours} bytes");
        let theirs = largest(|| assert!(candid::IDLArgs::from_bytes(m).is_err(), "{name}"));
        println!("{name}: largest allocation candor {ours} bytes, candid {theirs} bytes");
    }
}
