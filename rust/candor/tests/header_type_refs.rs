//! Type references in a header, every one-byte form and the longer forms beside
//! them, read by candor and by candid 0.10.39: both accept and reject the same
//! messages, and an accepted one decodes to the same value. The one-byte forms take
//! the parser's fast path (a table index below 64, a primitive from `null` to
//! `empty`); everything else (`principal`, other opcodes, indices past the table,
//! longer forms) must take the general reader, and these cases show it does.
//!
//! Also: a record whose field count is as large as the bytes left reserves no more
//! than the bytes justify.

#[path = "common/alloc_probe.rs"]
mod alloc_probe;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

/// Whether each crate accepts `m`, and the values as text when it does.
fn both(m: &[u8]) -> (Option<String>, Option<String>) {
    let ours = candor::IDLArgs::from_bytes(m).ok().map(|a| a.to_string());
    let theirs = candid::IDLArgs::from_bytes(m).ok().map(|a| a.to_string());
    (ours, theirs)
}

/// Whether both crates read `head` followed by each run of 0 to 8 zero bytes (a
/// value of every primitive that has one) alike; true if they accept one of them.
fn agree_with_values(head: &[u8], what: &str) -> bool {
    let mut accepted = false;
    for n in 0..=8 {
        let m = [head, &[0u8; 8][..n]].concat();
        accepted |= agree(&m, what);
    }
    accepted
}

/// Asserts that both crates read `m` alike; true if they accept it.
fn agree(m: &[u8], what: &str) -> bool {
    let (ours, theirs) = both(m);
    assert_eq!(
        ours.is_some(),
        theirs.is_some(),
        "{what}: {m:02x?} candor {ours:?} candid {theirs:?}"
    );
    if let (Some(o), Some(t)) = (&ours, &theirs) {
        // candid prints a few values differently; the accepted set is what matters
        // most, and the values match for every primitive here.
        assert_eq!(o, t, "{what}: {m:02x?}");
    }
    ours.is_some()
}

#[test]
fn every_one_byte_argument_type_is_read_as_candid_reads_it() {
    let mut accepted = 0;
    for b in 0..=0xffu8 {
        // No table: an index is always out of range.
        let m = [&b"DIDL\x00\x01"[..], &[b]].concat();
        accepted += usize::from(agree_with_values(&m, "argument"));
        // One table entry (`opt nat8`): index 0 is in range, 1 is not.
        let m = [&b"DIDL\x01\x6e\x7b\x01"[..], &[b]].concat();
        accepted += usize::from(agree_with_values(&m, "argument after a table"));
    }
    // Every primitive from `null` to `reserved` in both messages (`empty` has no
    // value, a principal's first byte is not 0), and after the table index 0 in
    // one byte and in two (`80` then a zero byte of the value run, read as
    // part of the reference).
    assert_eq!(accepted, 2 * 16 + 2);
    // A principal (`68`) with a value: the anonymous principal's empty form.
    assert!(agree(b"DIDL\x00\x01\x68\x01\x00", "principal"));
    assert!(agree(
        b"DIDL\x01\x6c\x01\x00\x68\x01\x00\x01\x00",
        "principal field"
    ));
}

#[test]
fn every_one_byte_field_type_is_read_as_candid_reads_it() {
    for b in 0..=0xffu8 {
        // `record { 0 : <b> }` as the only entry: index 0 names the record itself.
        let m = [&b"DIDL\x01\x6c\x01\x00"[..], &[b], b"\x01\x00"].concat();
        let _ = agree_with_values(&m, "field");
        // `vec <b>` as the second of two entries, the first `opt nat8`.
        let m = [&b"DIDL\x02\x6e\x7b\x6d"[..], &[b], b"\x01\x01\x00"].concat();
        let _ = agree(&m, "vec element");
    }
}

#[test]
fn longer_type_references_are_read_as_candid_reads_them() {
    let refs: [&[u8]; 10] = [
        // Overlong forms of index 0 and of `null`, `nat`, `principal`.
        b"\x80\x00",
        b"\xff\x7f",
        b"\xfd\x7f",
        b"\xe8\x7f",
        // `principal` in one byte, and opcodes just past the one-byte primitives.
        b"\x68",
        b"\x6e",
        b"\x69",
        // Index 64 (two bytes) and large indices and opcodes.
        b"\xc0\x00",
        b"\xff\xff\xff\xff\x0f",
        b"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x7f",
    ];
    for r in refs {
        let m = [&b"DIDL\x00\x01"[..], r].concat();
        let _ = agree_with_values(&m, "argument");
        let m = [&b"DIDL\x01\x6e\x7b\x01"[..], r].concat();
        let _ = agree_with_values(&m, "argument after a table");
        let m = [&b"DIDL\x01\x6c\x01\x00"[..], r, b"\x01\x00"].concat();
        let _ = agree_with_values(&m, "field");
    }
    // A table of 65 entries: index 64 is in range in two bytes, and its one-byte
    // look-alike 0x40 is the opcode -64, unknown.
    let mut table = b"DIDL\x41".to_vec();
    for _ in 0..65 {
        table.extend_from_slice(b"\x6e\x7b");
    }
    assert!(agree(
        &[&table[..], b"\x01\xc0\x00\x00"].concat(),
        "index 64"
    ));
    assert!(!agree(
        &[&table[..], b"\x01\x40\x00"].concat(),
        "opcode -64"
    ));
    assert!(agree(&[&table[..], b"\x01\x3f\x00"].concat(), "index 63"));
}

#[test]
fn the_fields_a_record_claims_reserve_no_more_than_the_bytes_left() {
    // A record claiming as many fields as there are bytes left, each byte zero:
    // the count passes the first check, the fields fail (ids not increasing).
    for n in [100usize, 1000, 10_000] {
        let mut m = b"DIDL\x01\x6c".to_vec();
        leb128::write::unsigned(&mut m, n as u64).unwrap();
        m.resize(m.len() + n, 0);
        let largest = alloc_probe::largest(|| {
            assert!(candor::IDLArgs::from_bytes(&m).is_err());
        });
        assert!(
            largest <= 8 * m.len(),
            "{n} fields claimed: {largest} bytes reserved for a {}-byte message",
            m.len()
        );
        assert!(candid::IDLArgs::from_bytes(&m).is_err());
    }
}
