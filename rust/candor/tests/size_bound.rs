//! The size bound (`DecoderConfig::set_size_bound`, spec/limits.md §1.1): with no
//! decoding quota set, no message makes a decode do more than
//! `SIZE_BOUND_PER_BYTE × bytes + SIZE_BOUND_BASE` units of work. Bombs of a few
//! bytes whose values take no bytes are rejected early, under ic-cdk's own config
//! and on the untyped path; legitimate messages, large ones included, still decode;
//! an explicit quota and `set_size_bound(false)` keep candid's behaviour.

use candor::de::{size_bound, SIZE_BOUND_BASE, SIZE_BOUND_PER_BYTE};
use candor::{CandidType, Decode, DecoderConfig, Deserialize, Encode, IDLArgs, IDLValue};

/// The config ic-cdk 0.19 and 0.20 decode every endpoint's arguments with
/// (`ic-cdk-macros`, `export.rs`): candid's defaults plus a skipping quota.
fn ic_cdk() -> DecoderConfig {
    let mut config = DecoderConfig::new();
    config.set_skipping_quota(10_000);
    config
}

/// A message of one argument of type `table[0]`'s last entry… : `DIDL`, the type
/// table, one argument of the last table entry, then `value`.
fn message(table: &[&[u8]], value: &[u8]) -> Vec<u8> {
    let mut m = b"DIDL".to_vec();
    m.push(table.len() as u8);
    for t in table {
        m.extend_from_slice(t);
    }
    m.push(1);
    m.push(table.len() as u8 - 1);
    m.extend_from_slice(value);
    m
}

/// LEB128 of `n`.
fn leb(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

/// `vec null` of `n` elements (14 bytes for 2^30).
fn vec_null(n: u64) -> Vec<u8> {
    message(&[b"\x6d\x7f"], &leb(n))
}

/// `vec record {}` of `n` elements.
fn vec_empty_record(n: u64) -> Vec<u8> {
    message(&[b"\x6c\x00", b"\x6d\x00"], &leb(n))
}

/// `vec record { null; null; null }` of `n` elements.
fn vec_null_triple(n: u64) -> Vec<u8> {
    message(&[b"\x6c\x03\x00\x7f\x01\x7f\x02\x7f", b"\x6d\x00"], &leb(n))
}

#[derive(CandidType, Deserialize, Debug, PartialEq)]
struct Empty {}

const BILLION: u64 = 1 << 30;

/// The error of a rejected bomb names the bound, the message's length and the
/// call that lifts it.
fn assert_bound_error(err: candor::Error, len: usize) {
    let text = err.to_string();
    assert!(
        text.contains(&format!(
            "Decoding cost exceeds the limit of {} units that a {len}-byte message may use",
            size_bound(len)
        )),
        "{text}"
    );
    assert!(
        text.contains("DecoderConfig::set_size_bound(false)"),
        "{text}"
    );
}

/// The bombs: 14 to 20 bytes claiming 2^30 values that take no bytes,
/// decoded by an ic-cdk endpoint's config as their natural Rust types. Each is
/// rejected, with the bound in its error.
#[test]
fn ic_cdk_config_rejects_zero_sized_bombs() {
    let config = ic_cdk();
    let bomb = vec_null(BILLION);
    assert_eq!(bomb.len(), 14);
    let err = Decode!([config]; &bomb, Vec<()>).unwrap_err();
    assert_bound_error(err, 14);
    let err = Decode!([config]; &bomb, Vec<Option<u8>>).unwrap_err();
    assert_bound_error(err, 14);
    let bomb = vec_empty_record(BILLION);
    let err = Decode!([config]; &bomb, Vec<Empty>).unwrap_err();
    assert_bound_error(err, bomb.len());
    let bomb = vec_null_triple(BILLION);
    let err = Decode!([config]; &bomb, Vec<((), (), ())>).unwrap_err();
    assert_bound_error(err, bomb.len());
    // As an extra argument, skipped: the skipping quota stops it first.
    let err = Decode!([config]; &vec_null(BILLION)).unwrap_err();
    assert!(
        err.to_string().contains("Skipping cost exceeds the limit"),
        "{err}"
    );
    // With no skipping quota either, skipped work has a bound of its own, which
    // is not reported as a skipping quota (none was set).
    let err = Decode!(&vec_null(BILLION)).unwrap_err();
    assert_bound_error(err, 14);
    let (_, cost) = Decode!(@Debug [DecoderConfig::new()]; &vec_null(1000)).unwrap();
    assert_eq!((cost.decoding_quota, cost.skipping_quota), (None, None));
}

/// The untyped path (`IDLArgs::from_bytes`, what an agent or the CLI decodes a
/// reply with) rejects the same bombs instead of growing a vector of 2^30 values.
#[test]
fn untyped_path_rejects_zero_sized_bombs() {
    for bomb in [
        vec_null(BILLION),
        vec_empty_record(BILLION),
        vec_null_triple(BILLION),
        vec_null(u64::MAX >> 1),
    ] {
        let err = IDLArgs::from_bytes(&bomb).unwrap_err();
        assert_bound_error(err, bomb.len());
    }
}

/// Legitimate messages decode under the bound, typed and untyped: a `vec null`
/// of 1,000, a 1 MiB blob and text, 256 Ki `nat32`s.
#[test]
fn legitimate_messages_decode() {
    let config = ic_cdk();
    let bytes = Encode!(&vec![(); 1000]).unwrap();
    assert_eq!(Decode!([config]; &bytes, Vec<()>).unwrap().len(), 1000);
    assert_eq!(
        Decode!([config]; &bytes, Vec<Option<u8>>).unwrap(),
        vec![None; 1000]
    );
    IDLArgs::from_bytes(&bytes).unwrap();

    let blob = serde_bytes::ByteBuf::from(vec![7u8; 1 << 20]);
    let bytes = Encode!(&blob).unwrap();
    assert_eq!(
        Decode!([config]; &bytes, serde_bytes::ByteBuf).unwrap(),
        blob
    );
    assert!(
        matches!(&IDLArgs::from_bytes(&bytes).unwrap().args[0], IDLValue::Blob(b) if b.len() == 1 << 20)
    );

    let text = "é".repeat(1 << 19);
    let bytes = Encode!(&text).unwrap();
    assert_eq!(Decode!([config]; &bytes, String).unwrap(), text);
    IDLArgs::from_bytes(&bytes).unwrap();

    let nats: Vec<u32> = (0..1 << 18).collect();
    let bytes = Encode!(&nats).unwrap();
    assert_eq!(Decode!([config]; &bytes, Vec<u32>).unwrap(), nats);
    IDLArgs::from_bytes(&bytes).unwrap();
}

/// Right at the bound: a `vec null` decoded as `Vec<()>` costs 1 (the vector) +
/// 4 per element (3 to fetch it, 1 for the `null`) after the header; the largest
/// that fits is accepted and one more element is not.
#[test]
fn the_bound_is_exact() {
    let config = ic_cdk();
    // Length of the message for n elements (a LEB128 of 3 bytes for the n here).
    let fits = |n: u64| {
        let bytes = vec_null(n);
        let header = bytes.len() - leb(n).len();
        4 * header + 1 + 4 * n as usize <= size_bound(bytes.len())
    };
    let mut n = 1u64 << 14;
    while fits(n + 1) {
        n += 1;
    }
    assert_eq!(
        Decode!([config]; &vec_null(n), Vec<()>).unwrap().len(),
        n as usize
    );
    let err = Decode!([config]; &vec_null(n + 1), Vec<()>).unwrap_err();
    assert_bound_error(err, vec_null(n + 1).len());
    assert_eq!(SIZE_BOUND_PER_BYTE, 128);
    assert_eq!(SIZE_BOUND_BASE, 65_536);
}

/// An explicit decoding quota replaces the bound (candid's units, larger or
/// smaller), and `set_size_bound(false)` with no quota does what candid does: any
/// amount of work.
#[test]
fn explicit_quota_and_switch_off_keep_candids_behaviour() {
    let bytes = vec_null(1 << 20);
    let mut config = ic_cdk();
    assert!(Decode!([config]; &bytes, Vec<()>).is_err());
    config.set_size_bound(false);
    assert_eq!(Decode!([config]; &bytes, Vec<()>).unwrap().len(), 1 << 20);
    let mut config = ic_cdk();
    config.set_decoding_quota(10_000_000);
    assert_eq!(Decode!([config]; &bytes, Vec<()>).unwrap().len(), 1 << 20);
    let mut config = ic_cdk();
    config.set_decoding_quota(100);
    let err = Decode!([config]; &vec_null(100), Vec<()>).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("limit exceeded: Decoding cost exceeds the limit at byte offset"),
        "{text}"
    );
}

/// Under the bound, the config a decode reports has no decoding quota (none was
/// set), so `compute_cost` reports none, as candid's does.
#[test]
fn get_config_reports_no_quota_under_the_bound() {
    let bytes = Encode!(&vec![1u8, 2]).unwrap();
    let config = DecoderConfig::new();
    let (_, cost) = Decode!(@Debug [config]; &bytes, Vec<u8>).unwrap();
    assert_eq!(cost.decoding_quota, None);
}

/// Units of work (counted once, typed or untyped) of decoding `bytes` as `T`, and
/// as `IDLValue`s.
fn work_per_byte<T>(bytes: &[u8]) -> (f64, f64)
where
    T: CandidType + for<'de> Deserialize<'de>,
{
    let mut config = DecoderConfig::new();
    config
        .set_decoding_quota(usize::MAX / 2)
        .set_skipping_quota(usize::MAX / 100);
    // Units used: decoding less 49 per skipping unit (each was 50 and 1).
    let units = |c: DecoderConfig| c.decoding_quota.unwrap() - 49 * c.skipping_quota.unwrap();
    let (_, typed) = candor::utils::decode_args_with_config_debug::<(T,)>(bytes, &config).unwrap();
    let mut de = candor::IDLDeserialize::new_with_config(bytes, &config).unwrap();
    de.get_value::<IDLValue>().unwrap();
    de.done().unwrap();
    let untyped = de.get_config().compute_cost(&config);
    let len = bytes.len() as f64;
    (
        (units(typed) - 4 * header_len(bytes)) as f64 / len,
        (units(untyped) - 4 * header_len(bytes)) as f64 / len,
    )
}

/// The header's length: what `DIDL`, the type table and the argument types take.
fn header_len(bytes: &[u8]) -> usize {
    let mut config = DecoderConfig::new();
    config.set_decoding_quota(usize::MAX / 2);
    let de = candor::IDLDeserialize::new_with_config(bytes, &config).unwrap();
    (usize::MAX / 2 - de.get_config().decoding_quota.unwrap()) / 4
}

/// The most units per byte of their values (the header apart) that kinds of real
/// traffic use, typed and untyped, stay far below `SIZE_BOUND_PER_BYTE`: the
/// margin spec/limits.md §1.1 claims. Printed with `--nocapture`.
#[test]
fn real_traffic_uses_a_fraction_of_the_bound_per_byte() {
    #[derive(CandidType, Deserialize, Clone)]
    struct Account {
        owner: candor::Principal,
        subaccount: Option<serde_bytes::ByteBuf>,
    }
    #[derive(CandidType, Deserialize, Clone)]
    struct TransferArg {
        from_subaccount: Option<serde_bytes::ByteBuf>,
        to: Account,
        amount: candor::Nat,
        fee: Option<candor::Nat>,
        memo: Option<serde_bytes::ByteBuf>,
        created_at_time: Option<u64>,
    }
    #[derive(CandidType, Deserialize, Clone)]
    struct Transaction {
        kind: String,
        burn: Option<TransferArg>,
        mint: Option<TransferArg>,
        approve: Option<TransferArg>,
        transfer: Option<TransferArg>,
        timestamp: u64,
    }
    #[derive(CandidType, Deserialize, Clone)]
    #[allow(clippy::enum_variant_names)]
    enum Status {
        TransactionTypeNotSupported,
        InsufficientAllowanceForFee,
        DuplicateTransactionFound,
    }
    #[derive(CandidType, Deserialize, Clone)]
    struct HttpRequest {
        method: String,
        url: String,
        headers: Vec<(String, String)>,
        body: serde_bytes::ByteBuf,
        certificate_version: Option<u16>,
    }
    let account = Account {
        owner: candor::Principal::from_slice(&[1; 29]),
        subaccount: None,
    };
    let transfer = TransferArg {
        from_subaccount: None,
        to: account.clone(),
        amount: candor::Nat::from(1_000_000u64),
        fee: None,
        memo: None,
        created_at_time: None,
    };
    let tx = Transaction {
        kind: "transfer".into(),
        burn: None,
        mint: None,
        approve: None,
        transfer: Some(transfer.clone()),
        timestamp: 1_700_000_000_000_000_000,
    };
    let request = HttpRequest {
        method: "GET".into(),
        url: "/metrics".into(),
        headers: (0..20).map(|i| (format!("x-h{i}"), "1".into())).collect(),
        body: serde_bytes::ByteBuf::new(),
        certificate_version: Some(2),
    };
    let rows = [
        (
            "icrc1_transfer arg",
            work_per_byte::<TransferArg>(&Encode!(&transfer).unwrap()),
        ),
        (
            "1,000 transactions",
            work_per_byte::<Vec<Transaction>>(&Encode!(&vec![tx; 1000]).unwrap()),
        ),
        (
            "1,000 accounts without subaccount",
            work_per_byte::<Vec<Account>>(&Encode!(&vec![account; 1000]).unwrap()),
        ),
        (
            "1,000 unit variants of 25-27 characters",
            work_per_byte::<Vec<Status>>(
                &Encode!(&(0..1000)
                    .map(|i| [
                        Status::TransactionTypeNotSupported,
                        Status::InsufficientAllowanceForFee,
                        Status::DuplicateTransactionFound
                    ][i % 3]
                        .clone())
                    .collect::<Vec<_>>())
                .unwrap(),
            ),
        ),
        (
            "http_request, 20 headers",
            work_per_byte::<HttpRequest>(&Encode!(&request).unwrap()),
        ),
        (
            "vec nat32",
            work_per_byte::<Vec<u32>>(&Encode!(&vec![7u32; 4096]).unwrap()),
        ),
        (
            "blob",
            work_per_byte::<serde_bytes::ByteBuf>(
                &Encode!(&serde_bytes::ByteBuf::from(vec![7u8; 4096])).unwrap(),
            ),
        ),
    ];
    for (name, (typed, untyped)) in rows {
        println!("{name}: {typed:.1} units per byte typed, {untyped:.1} untyped");
        assert!(
            typed.max(untyped) * 2.0 <= SIZE_BOUND_PER_BYTE as f64,
            "{name}: {typed:.1} / {untyped:.1}"
        );
    }
}

/// With no quota set, the config a decode reports is the one it was given: the
/// header limits set or left unset, the switches on or off, whether the header was
/// parsed or taken from the header cache.
#[test]
fn get_config_reports_the_config_given() {
    let bytes = Encode!(&vec![(7u64, "seven".to_string())]).unwrap();
    for bits in 0..16u8 {
        let mut config = DecoderConfig::new();
        config.set_full_error_message(bits & 1 != 0);
        config.set_size_bound(bits & 2 != 0);
        if bits & 4 != 0 {
            config.set_max_type_len(50);
        }
        if bits & 8 != 0 {
            config.set_max_header_len(300);
        }
        // The first decode under these limits parses the header; the second
        // takes it kept.
        for round in 0..2 {
            let mut de = candor::IDLDeserialize::new_with_config(&bytes, &config).unwrap();
            de.get_value::<Vec<(u64, String)>>().unwrap();
            de.done().unwrap();
            assert_eq!(
                format!("{:?}", de.get_config()),
                format!("{config:?}"),
                "switches {bits:04b}, round {round}"
            );
        }
    }
}
