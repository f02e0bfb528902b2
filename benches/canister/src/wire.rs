//! Messages built byte by byte: hostile inputs a decoder must reject, bodies too large to build
//! through the encoder under test, and the header skipping the floor scopes need.

const MAGIC: &[u8] = b"DIDL";

fn push_leb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads an unsigned LEB128 value and advances `input`.
pub fn read_leb(input: &mut &[u8]) -> u64 {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let byte = input[0];
        *input = &input[1..];
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return value;
        }
        shift += 7;
    }
}

/// Skips the magic, the type table and the argument types of a message whose table holds only
/// `vec`/`opt` entries (enough for the floors), returning the value bytes.
pub fn skip_header(bytes: &[u8]) -> &[u8] {
    let mut rest = &bytes[MAGIC.len()..];
    let types = read_leb(&mut rest);
    for _ in 0..types {
        let _opcode = read_leb(&mut rest); // vec (0x6d) or opt (0x6e): one type reference
        let _inner = read_leb(&mut rest);
    }
    let args = read_leb(&mut rest);
    for _ in 0..args {
        read_leb(&mut rest);
    }
    rest
}

/// An extra argument `vec null` claiming ten million elements. Nulls take no bytes on the wire,
/// so the message is tiny while skipping it naively is ten million steps.
pub fn huge_vec_null() -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&[1, 0x6d, 0x7f]); // type 0 = vec null
    out.extend_from_slice(&[1, 0]); // one argument of type 0
    push_leb(&mut out, 10_000_000);
    out
}

/// An extra argument `vec opt t20` where `t0 = record { null; null }` and each
/// `t(i+1) = record { t(i); t(i) }`: every element stands for 2^21 nulls in zero bytes.
pub fn deep_opt_record_chain() -> Vec<u8> {
    const DEPTH: u64 = 20;
    let mut out = MAGIC.to_vec();
    push_leb(&mut out, DEPTH + 3);
    out.extend_from_slice(&[0x6c, 2, 0, 0x7f, 1, 0x7f]); // t0 = record { 0: null; 1: null }
    for i in 0..DEPTH {
        out.extend_from_slice(&[0x6c, 2, 0]); // record, 2 fields, field 0 ...
        push_leb(&mut out, i);
        out.push(1); // field 1 ...
        push_leb(&mut out, i);
    }
    out.push(0x6e); // t(DEPTH+1) = opt t(DEPTH)
    push_leb(&mut out, DEPTH);
    out.push(0x6d); // t(DEPTH+2) = vec t(DEPTH+1)
    push_leb(&mut out, DEPTH + 1);
    out.push(1); // one argument
    push_leb(&mut out, DEPTH + 2);
    out.push(5); // five elements, each present
    out.extend_from_slice(&[1; 5]);
    out
}

/// A message holding one `nat` (or a negative `int`) with a 1 MiB LEB128 body.
pub fn bignum_message(signed: bool) -> Vec<u8> {
    const BODY: usize = 1 << 20;
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&[0, 1, if signed { 0x7c } else { 0x7d }]);
    out.extend((0..BODY - 1).map(|i| 0x80 | ((i * 37 + 11) % 128) as u8));
    // Last group: non-zero, and for `int` with the sign bit (0x40) set, i.e. negative.
    out.push(if signed { 0x41 } else { 0x01 });
    out
}

/// The length of a message's header (magic, type table, argument types), for floors
/// that skip it: tables of `opt`, `vec`, record, variant and func entries.
pub fn header_len(bytes: &[u8]) -> usize {
    let mut rest = &bytes[MAGIC.len()..];
    let types = read_leb(&mut rest);
    for _ in 0..types {
        match read_sleb(&mut rest) {
            // opt, vec: one type reference
            -18 | -19 => {
                read_sleb(&mut rest);
            }
            // record, variant: fields of id and type
            -20 | -21 => {
                for _ in 0..read_leb(&mut rest) {
                    read_leb(&mut rest);
                    read_sleb(&mut rest);
                }
            }
            // func: argument types, result types, annotation bytes
            -22 => {
                for _ in 0..2 {
                    for _ in 0..read_leb(&mut rest) {
                        read_sleb(&mut rest);
                    }
                }
                let annotations = read_leb(&mut rest) as usize;
                rest = &rest[annotations..];
            }
            op => panic!("header_len: table opcode {op} not handled"),
        }
    }
    for _ in 0..read_leb(&mut rest) {
        read_sleb(&mut rest);
    }
    bytes.len() - rest.len()
}

/// Reads a signed LEB128 value and advances `input`.
pub fn read_sleb(input: &mut &[u8]) -> i64 {
    let mut value = 0i64;
    let mut shift = 0;
    loop {
        let byte = input[0];
        *input = &input[1..];
        value |= i64::from(byte & 0x7f) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            if shift < 64 && byte & 0x40 != 0 {
                value |= -1 << shift;
            }
            return value;
        }
    }
}
