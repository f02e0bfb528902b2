//! Skipping a vector whose elements take no bytes (`vec null`, `vec reserved`) is
//! its charges alone, element by element: the same units, and the same limit error
//! at the same element, as candid 0.10.39 and as candor's walk over any other
//! vector. Vectors whose elements take bytes or levels (`vec opt null`,
//! `vec record {}`) are walked as before, and are swept here beside them.

use candor::de::DecoderConfig;

/// `n` encoded as unsigned LEB128.
fn leb(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// Element types: their type table entries (after the vector's own `0x6d`
/// entry, which is entry 0) and the element's value bytes.
const ELEMENTS: [(&str, &[u8], &[u8]); 4] = [
    ("null", &[0x6d, 0x7f], &[]),
    ("reserved", &[0x6d, 0x70], &[]),
    ("opt null", &[0x6d, 0x01, 0x6e, 0x7f], &[0]),
    ("record {}", &[0x6d, 0x01, 0x6c, 0x00], &[]),
];

/// A message whose one argument is a vector of `n` elements of `element`,
/// decoded with no types: the argument is skipped.
fn extra_arg(element: &[u8], value: &[u8], n: u64) -> Vec<u8> {
    let entries = if element.len() == 2 { 1 } else { 2 };
    let mut out = b"DIDL".to_vec();
    out.push(entries);
    out.extend_from_slice(element);
    out.extend_from_slice(&[1, 0]);
    out.extend(leb(n));
    for _ in 0..n {
        out.extend_from_slice(value);
    }
    out
}

/// The same vector as field `b` of a record decoded as a record with only field
/// `a`: the field is skipped.
fn extra_field(element: &[u8], value: &[u8], n: u64) -> Vec<u8> {
    // Entry 0 is the vector; the record is the last entry.
    let entries = if element.len() == 2 { 2 } else { 3 };
    let mut out = b"DIDL".to_vec();
    out.push(entries);
    out.extend_from_slice(element);
    // record { a : nat8; b : table0 } (the ids are the names' hashes, 97 and 98)
    out.extend_from_slice(&[0x6c, 2, 0x61, 0x7b, 0x62, 0]);
    out.extend_from_slice(&[1, entries - 1, 7]);
    out.extend(leb(n));
    for _ in 0..n {
        out.extend_from_slice(value);
    }
    out
}

#[derive(candor::CandidType, candor::Deserialize, Debug, PartialEq)]
struct OnlyFirst {
    a: u8,
}

#[derive(candid::CandidType, candid::Deserialize, Debug, PartialEq)]
struct TheirOnlyFirst {
    a: u8,
}

/// How a decode ended: the (decoding, skipping) units it used, or which quota
/// stopped it.
#[derive(Debug, PartialEq)]
enum End {
    Used(Option<usize>, Option<usize>),
    Limit(&'static str),
    Other(String),
}

fn end_of(err: String) -> End {
    if err.contains("Decoding cost exceeds the limit") {
        End::Limit("decoding")
    } else if err.contains("Skipping cost exceeds the limit") {
        End::Limit("skipping")
    } else {
        End::Other(err)
    }
}

fn ours(bytes: &[u8], record: bool, d: Option<usize>, s: Option<usize>) -> End {
    let mut config = DecoderConfig::new();
    config.set_size_bound(false);
    if let Some(d) = d {
        config.set_decoding_quota(d);
    }
    if let Some(s) = s {
        config.set_skipping_quota(s);
    }
    let out = candor::de::IDLDeserialize::new_with_config(bytes, &config).and_then(|mut de| {
        if record {
            de.get_value::<OnlyFirst>()?;
        }
        de.done()?;
        Ok(de.get_config().compute_cost(&config))
    });
    match out {
        Ok(c) => End::Used(c.decoding_quota, c.skipping_quota),
        Err(e) => end_of(e.to_string()),
    }
}

fn theirs(bytes: &[u8], record: bool, d: Option<usize>, s: Option<usize>) -> End {
    let mut config = candid::de::DecoderConfig::new();
    if let Some(d) = d {
        config.set_decoding_quota(d);
    }
    if let Some(s) = s {
        config.set_skipping_quota(s);
    }
    let out = candid::de::IDLDeserialize::new_with_config(bytes, &config).and_then(|mut de| {
        if record {
            de.get_value::<TheirOnlyFirst>()?;
        }
        de.done()?;
        Ok(de.get_config().compute_cost(&config))
    });
    match out {
        Ok(c) => End::Used(c.decoding_quota, c.skipping_quota),
        Err(e) => end_of(format!("{e:?}")),
    }
}

/// Quotas around every element's boundary for short vectors, and a few for long ones.
fn quotas(n: u64) -> Vec<(Option<usize>, Option<usize>)> {
    let mut out = vec![(None, None), (Some(1 << 40), Some(1 << 40))];
    let top = if n <= 8 { 4 * n as usize + 16 } else { 64 };
    for q in 0..top {
        out.push((None, Some(q)));
        out.push((Some(50 * q), None));
        out.push((Some(50 * q + 25), Some(q)));
        out.push((Some(50 * q), Some(q / 2)));
    }
    out.push((None, Some(10_000)));
    out.push((Some(20_000_000), Some(10_000)));
    out
}

#[test]
fn empty_elements_are_skipped_as_candid_skips_them() {
    for (name, element, value) in ELEMENTS {
        for n in [0u64, 1, 2, 3, 5, 8, 300, 1_000_000] {
            // Elements that take bytes are sent in full: a long vector of them is
            // not a short message.
            if !value.is_empty() && n > 300 {
                continue;
            }
            for record in [false, true] {
                let bytes = if record {
                    extra_field(element, value, n)
                } else {
                    extra_arg(element, value, n)
                };
                for (d, s) in quotas(n) {
                    // With neither quota, a long vector is walked to its end: keep
                    // that to the short ones.
                    if n > 300 && d.is_none() && s.is_none() {
                        continue;
                    }
                    if n > 300 && d.is_some_and(|d| d >= 1 << 40) && s.is_some_and(|s| s >= 1 << 40)
                    {
                        continue;
                    }
                    assert_eq!(
                        ours(&bytes, record, d, s),
                        theirs(&bytes, record, d, s),
                        "vec {name} of {n} as an extra {}, quotas {d:?} {s:?}",
                        if record { "field" } else { "argument" },
                    );
                }
            }
        }
    }
}
