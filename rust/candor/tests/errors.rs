//! The decoder's common failures, each pinned by kind, byte offset and exact text.
//! The texts are part of the user interface (canisters return them to callers, and
//! some callers match on candid's wording), so changing one is a deliberate change
//! to this table.
//!
//! Messages are written out byte by byte: `DIDL`, the type table, the argument
//! types, then the values. Offsets count from the `D`.

use candor::{CandidType, DecoderConfig, Deserialize, ErrorKind, IDLDeserialize, IDLValue};

/// One failure: the message, how it is decoded, and the error it must give.
struct Case {
    name: &'static str,
    bytes: &'static [u8],
    decode: fn(&[u8], DecoderConfig) -> candor::Result<()>,
    kind: ErrorKind,
    offset: Option<usize>,
    text: &'static str,
}

/// Decodes the first argument as `T`, then checks that nothing is left.
fn one<T: CandidType + for<'de> Deserialize<'de>>(
    bytes: &[u8],
    config: DecoderConfig,
) -> candor::Result<()> {
    let mut de = IDLDeserialize::new_with_config(bytes, &config)?;
    de.get_value::<T>()?;
    de.done()
}

#[derive(CandidType, Deserialize)]
struct Record {
    a: u16,
}

#[derive(CandidType, Deserialize)]
enum Variant {
    #[serde(rename = "0")]
    A,
}

const CASES: &[Case] = &[
    // ---- malformed header
    Case {
        name: "wrong magic",
        bytes: b"DIDX\x00\x00",
        decode: one::<()>,
        kind: ErrorKind::Binary,
        offset: Some(0),
        text: "malformed message: wrong magic number: expected \"DIDL\" at byte offset 0",
    },
    Case {
        name: "magic cut short",
        bytes: b"DI",
        decode: one::<()>,
        kind: ErrorKind::Binary,
        offset: Some(2),
        text: "malformed message: unexpected end of input reading magic at byte offset 2",
    },
    Case {
        name: "type table cut short",
        bytes: b"DIDL\x02\x6e\x7e",
        decode: one::<Option<bool>>,
        kind: ErrorKind::Binary,
        offset: Some(7),
        text: "malformed message: unexpected end of input reading type opcode at byte offset 7",
    },
    Case {
        name: "type index out of range",
        bytes: b"DIDL\x01\x6e\x05\x01\x00",
        decode: one::<Option<u8>>,
        kind: ErrorKind::Binary,
        offset: Some(6),
        text: "malformed message: type index 5 out of range at byte offset 6",
    },
    Case {
        name: "LEB128 overflow in the header",
        bytes: b"DIDL\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f",
        decode: one::<()>,
        kind: ErrorKind::Binary,
        offset: Some(4),
        text: "malformed message: type table length: LEB128 overflow at byte offset 4",
    },
    // ---- truncated values
    Case {
        name: "fixed-width number cut short",
        bytes: b"DIDL\x00\x01\x79\x01\x02",
        decode: one::<u32>,
        kind: ErrorKind::Binary,
        offset: Some(7),
        text: "malformed message: unexpected end of input reading Nat32 at byte offset 7 in arg 0",
    },
    Case {
        name: "length past the end",
        bytes: b"DIDL\x00\x01\x71\x05ab",
        decode: one::<String>,
        kind: ErrorKind::Binary,
        offset: Some(7),
        text: "malformed message: length 5 exceeds the 2 bytes left in the message at byte offset 7 in arg 0",
    },
    // ---- bad bytes in a value
    Case {
        name: "opt flag neither 00 nor 01",
        bytes: b"DIDL\x01\x6e\x7e\x01\x00\x02",
        decode: one::<Option<bool>>,
        kind: ErrorKind::Binary,
        offset: Some(9),
        text: "malformed message: expected bool 00 or 01, found 02 at byte offset 9 in arg 0",
    },
    Case {
        name: "invalid UTF-8",
        bytes: b"DIDL\x00\x01\x71\x02a\xff",
        decode: one::<String>,
        kind: ErrorKind::Binary,
        offset: Some(8),
        text: "malformed message: invalid UTF-8 in text: invalid utf-8 sequence of 1 bytes from index 1 at byte offset 8 in arg 0",
    },
    Case {
        name: "variant index out of range",
        bytes: b"DIDL\x01\x6b\x01\x00\x7f\x01\x00\x03",
        decode: one::<Variant>,
        kind: ErrorKind::Binary,
        offset: Some(11),
        text: "malformed message: Variant index 3 larger than length 1 at byte offset 11 in arg 0",
    },
    Case {
        name: "variant index out of range in a skipped value",
        bytes: b"DIDL\x01\x6b\x01\x00\x7f\x01\x00\x05",
        decode: one::<candor::Reserved>,
        kind: ErrorKind::Binary,
        offset: Some(11),
        text: "malformed message: Variant index 5 larger than length 1 at byte offset 11 in arg 0",
    },
    Case {
        name: "a value of type empty",
        bytes: b"DIDL\x00\x01\x6f",
        decode: one::<candor::Reserved>,
        kind: ErrorKind::Custom,
        offset: Some(7),
        text: "Cannot decode empty type at byte offset 7 in arg 0",
    },
    Case {
        name: "trailing bytes",
        bytes: b"DIDL\x00\x01\x7b\x01\x02",
        decode: one::<u8>,
        kind: ErrorKind::Binary,
        offset: Some(8),
        text: "malformed message: Trailing value after finishing deserialization at byte offset 8",
    },
    // ---- type mismatches
    Case {
        name: "type mismatch",
        bytes: b"DIDL\x00\x01\x7b\x01",
        decode: one::<u16>,
        kind: ErrorKind::Subtype,
        offset: Some(7),
        text: "Subtyping error: expected nat16, found nat8 at byte offset 7 in arg 0",
    },
    Case {
        name: "type mismatch in a record field",
        bytes: b"DIDL\x01\x6c\x01\x61\x7b\x01\x00\x07",
        decode: one::<Record>,
        kind: ErrorKind::Subtype,
        offset: Some(11),
        text: "Subtyping error: expected nat16, found nat8 at byte offset 11 in arg 0 → a",
    },
    Case {
        name: "record field missing on the wire",
        bytes: b"DIDL\x01\x6c\x00\x01\x00",
        decode: one::<Record>,
        kind: ErrorKind::Subtype,
        offset: Some(9),
        text: "Subtyping error: expected nat16, found null at byte offset 9 in arg 0 → a",
    },
    Case {
        name: "variant case the expected type lacks",
        bytes: b"DIDL\x01\x6b\x02\x00\x7f\x01\x7f\x01\x00\x01",
        decode: one::<Variant>,
        kind: ErrorKind::Subtype,
        offset: Some(13),
        text: "Subtyping error: Unknown variant field 1 at byte offset 13 in arg 0",
    },
    Case {
        name: "missing argument",
        bytes: b"DIDL\x00\x00",
        decode: one::<u8>,
        kind: ErrorKind::Custom,
        offset: Some(6),
        text: "No more values on the wire, the expected type nat8 is not opt, null, or reserved at byte offset 6 in arg 0",
    },
    // ---- limits
    Case {
        name: "decoding quota exceeded",
        bytes: b"DIDL\x00\x01\x71\x05hello",
        // The header's 7 bytes cost 28; the text 6 more.
        decode: |b, mut c| one::<String>(b, c.set_decoding_quota(28 + 5).clone()),
        kind: ErrorKind::Limit,
        offset: Some(8),
        text: "limit exceeded: Decoding cost exceeds the limit at byte offset 8 in arg 0",
    },
    Case {
        name: "skipping quota exceeded",
        bytes: b"DIDL\x00\x02\x7b\x71\x01\x05hello",
        // The extra text argument costs 6 skipped units.
        decode: |b, mut c| one::<u8>(b, c.set_skipping_quota(5).clone()),
        kind: ErrorKind::Limit,
        offset: Some(10),
        text: "limit exceeded: Skipping cost exceeds the limit at byte offset 10 in arg 1",
    },
    Case {
        name: "depth limit",
        bytes: b"DIDL\x01\x6e\x00\x01\x00\x01\x01\x01\x00",
        decode: |b, mut c| one::<IDLValue>(b, c.set_max_depth(2).clone()),
        kind: ErrorKind::Limit,
        offset: Some(12),
        text: "limit exceeded: nesting deeper than 2 levels at byte offset 12 in arg 0 → ? → ?",
    },
    Case {
        name: "header longer than its bound",
        bytes: b"DIDL\x01\x6e\x7e\x01\x00\x00",
        decode: |b, mut c| one::<Option<bool>>(b, c.set_max_header_len(7).clone()),
        kind: ErrorKind::Limit,
        offset: Some(7),
        text: "limit exceeded: type table header exceeds the limit of 7 bytes at byte offset 7",
    },
    Case {
        name: "type table longer than its bound",
        bytes: b"DIDL\x02\x6e\x7e\x6e\x7e\x00",
        decode: |b, mut c| one::<()>(b, c.set_max_type_len(1).clone()),
        kind: ErrorKind::Limit,
        offset: Some(4),
        text: "limit exceeded: type table size exceeded at byte offset 4",
    },
];

/// Errors without the decoder-state context, so the text is one line.
fn config() -> DecoderConfig {
    let mut config = DecoderConfig::new();
    config.set_full_error_message(false);
    config
}

#[test]
fn common_failures_by_kind_offset_and_text() {
    let mut wrong = Vec::new();
    for case in CASES {
        let got = match (case.decode)(case.bytes, config()) {
            Ok(()) => format!("{}: decoded without error", case.name),
            Err(e)
                if (e.kind(), e.offset(), e.to_string().as_str())
                    == (case.kind, case.offset, case.text) =>
            {
                continue
            }
            Err(e) => format!(
                "{}: {:?} at {:?}: {e}\n  expected {:?} at {:?}: {}",
                case.name,
                e.kind(),
                e.offset(),
                case.kind,
                case.offset,
                case.text
            ),
        };
        wrong.push(got);
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn full_error_messages_add_the_decoder_state() {
    let mut config = config();
    config.set_full_error_message(true);
    let err = one::<u16>(b"DIDL\x00\x01\x7b\x01", config).err();
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some(
            "Subtyping error: expected nat16, found nat8 at byte offset 7 in arg 0\n\
             while decoding argument 0 from nat8 to nat16"
        )
    );
}
