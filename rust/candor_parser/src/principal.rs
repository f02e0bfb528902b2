//! Principal text (`"rrkah-fqaaa-aaaaa-aaaaq-cai"`) read straight into bytes.
//!
//! `Principal::from_text` accepts exactly the canonical text: lower-case (or upper-case)
//! base32 without padding of the CRC-32 of the bytes followed by the bytes, in groups
//! of five separated by single dashes. It checks that by decoding liberally, then
//! printing the result and comparing strings; in a canister that round trip (string
//! copies, a formatter, a second base32 pass) costs about 13,000 instructions per
//! principal. Here every rule is checked once, while decoding, and the error is the
//! same `PrincipalError` that `from_text` returns, so messages do not change.

use candor::types::principal::PrincipalError;
use candor::Principal;

/// Bytes of a principal at most (the CRC is on top).
const MAX_BYTES: usize = 29;

/// Base32 value of each byte (either case), [`DASH`] for `-`, [`BAD`] for the rest.
/// The tables are `static`: a `const` array indexed at run time may be copied to the
/// stack on every call.
static BASE32: [u8; 256] = {
    let mut t = [BAD; 256];
    let mut i = 0;
    while i < 26 {
        t[b'a' as usize + i] = i as u8;
        t[b'A' as usize + i] = i as u8;
        i += 1;
    }
    let mut d = 0;
    while d < 6 {
        t[b'2' as usize + d] = 26 + d as u8;
        d += 1;
    }
    t[b'-' as usize] = DASH;
    t
};
const DASH: u8 = 0xfe;
const BAD: u8 = 0xff;

/// Parses principal text; accepts and rejects exactly what `Principal::from_text` does.
/// Canonically grouped text is decoded a group of five characters at a time; anything
/// else goes through a character-at-a-time pass that classifies it.
pub(crate) fn from_text(text: &str) -> Result<Principal, PrincipalError> {
    let mut buf = [0u8; 4 + MAX_BYTES];
    let Decoded {
        len,
        chars,
        clean,
        grouped,
    } = match decode_grouped(text.as_bytes(), &mut buf) {
        Some(d) => d,
        None => decode_any(text.as_bytes(), &mut buf)?,
    };
    // Base32 without padding ends in a whole byte only for these lengths modulo 8, and
    // the canonical form leaves the bits after the last byte zero.
    if !matches!(chars % 8, 0 | 2 | 4 | 5 | 7) || !clean {
        return Err(PrincipalError::InvalidBase32());
    }
    if len > buf.len() {
        return Err(PrincipalError::TextTooLong());
    }
    let Some((crc, data)) = buf.get(..len).and_then(|b| b.split_first_chunk::<4>()) else {
        return Err(PrincipalError::TextTooShort());
    };
    if data.len() > MAX_BYTES {
        return Err(PrincipalError::TextTooLong());
    }
    if crc32(data).to_be_bytes() != *crc {
        return Err(PrincipalError::CheckSequenceNotMatch());
    }
    let principal = Principal::from_slice(data);
    if !grouped {
        return Err(PrincipalError::AbnormalGrouped(principal));
    }
    Ok(principal)
}

/// What decoding the base32 text gave: bytes written to the buffer (counted on past
/// its end, so that text too long for any principal is still told apart), base32
/// characters, whether the bits after the last whole byte were zero, and whether the
/// dashes were exactly every sixth character.
struct Decoded {
    len: usize,
    chars: usize,
    clean: bool,
    grouped: bool,
}

/// Canonically grouped text (five characters and a dash, …, then one to five
/// characters), 25 bits per group; `None` for anything else, and for text longer
/// than any principal's.
fn decode_grouped(b: &[u8], buf: &mut [u8; 4 + MAX_BYTES]) -> Option<Decoded> {
    if b.len() % 6 == 0 {
        return None; // empty, or a dash at the end
    }
    let (mut acc, mut bits, mut len) = (0u64, 0u32, 0usize);
    // Whole groups (five characters and a dash) with constant offsets, then the last
    // one to five characters.
    let mut rest = b;
    while let Some((&[c0, c1, c2, c3, c4, dash], tail)) = rest.split_first_chunk::<6>() {
        if dash != b'-' {
            return None;
        }
        let d = |c: u8| u64::from(BASE32[usize::from(c)]);
        let (d0, d1, d2, d3, d4) = (d(c0), d(c1), d(c2), d(c3), d(c4));
        // The table marks dashes and non-base32 bytes with the top bit.
        if (d0 | d1 | d2 | d3 | d4) & 0x80 != 0 {
            return None;
        }
        acc = (acc << 25) | (d0 << 20) | (d1 << 15) | (d2 << 10) | (d3 << 5) | d4;
        // 25 to 32 bits now: three whole bytes, and a fourth when there are 32.
        let out = buf.get_mut(len..len + 3)?;
        out[0] = (acc >> (bits + 17)) as u8;
        out[1] = (acc >> (bits + 9)) as u8;
        out[2] = (acc >> (bits + 1)) as u8;
        len += 3;
        bits += 1;
        if bits == 8 {
            *buf.get_mut(len)? = acc as u8;
            len += 1;
            bits = 0;
        }
        // The bits already written stay in `acc`, unmasked: every read takes its
        // byte below bit 33, and the shifts carry old bits up and out.
        rest = tail;
    }
    for &c in rest {
        let t = BASE32[usize::from(c)];
        if t & 0x80 != 0 {
            return None;
        }
        acc = (acc << 5) | u64::from(t);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            *buf.get_mut(len)? = (acc >> bits) as u8;
            len += 1;
        }
    }
    Some(Decoded {
        len,
        chars: b.len() - b.len() / 6,
        // The bits after the last whole byte.
        clean: acc & ((1 << bits) - 1) == 0,
        grouped: true,
    })
}

/// Any text, a character at a time: dashes anywhere (grouping judged, as `from_text`
/// does, only after the value is known), either case.
fn decode_any(b: &[u8], buf: &mut [u8; 4 + MAX_BYTES]) -> Result<Decoded, PrincipalError> {
    let (mut acc, mut bits, mut len, mut chars) = (0u32, 0u32, 0usize, 0usize);
    let mut grouped = true;
    // Position in the current group of five and its dash (a counter, not `i % 6`: a
    // remainder costs ten instructions in a canister).
    let mut col = 0u8;
    for &c in b {
        let dash_here = col == 5;
        col = if dash_here { 0 } else { col + 1 };
        let v = BASE32[usize::from(c)];
        if v == DASH {
            grouped &= dash_here;
            continue;
        }
        if v == BAD {
            return Err(PrincipalError::InvalidBase32());
        }
        grouped &= !dash_here;
        chars += 1;
        acc = (acc << 5) | u32::from(v);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            if let Some(slot) = buf.get_mut(len) {
                *slot = (acc >> bits) as u8;
            }
            len += 1;
            acc &= (1 << bits) - 1;
        }
    }
    grouped &= b.last() != Some(&b'-');
    Ok(Decoded {
        len,
        chars,
        clean: acc == 0,
        grouped,
    })
}

/// CRC-32 (IEEE 802.3, reflected), the check sequence of principal text. Four bytes
/// per step (four table lookups folded together, "slicing by four"), then the last
/// bytes one at a time: a principal's bytes cost about half as many instructions
/// as one step per byte.
fn crc32(data: &[u8]) -> u32 {
    let [t0, t1, t2, t3] = &CRC_TABLES;
    let at = |t: &[u32; 256], i: u32| t.get((i & 0xff) as usize).copied().unwrap_or(0);
    let mut crc = !0u32;
    let mut words = data.chunks_exact(4);
    for w in &mut words {
        let Some(w) = w.first_chunk::<4>() else { break };
        let x = crc ^ u32::from_le_bytes(*w);
        crc = at(t3, x) ^ at(t2, x >> 8) ^ at(t1, x >> 16) ^ at(t0, x >> 24);
    }
    for &b in words.remainder() {
        crc = at(t0, crc ^ u32::from(b)) ^ (crc >> 8);
    }
    !crc
}

/// The tables of [`crc32`], built at compile time: `[0]` is the byte-at-a-time table
/// of the reflected polynomial 0xEDB88320, and `[k]` advances `[k - 1]` by one more
/// zero byte, so that four bytes can be looked up at once.
static CRC_TABLES: [[u32; 256]; 4] = {
    let mut tables = [[0u32; 256]; 4];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        tables[0][i] = c;
        i += 1;
    }
    let mut t = 1;
    while t < 4 {
        let mut i = 0;
        while i < 256 {
            let prev = tables[t - 1][i];
            tables[t][i] = (prev >> 8) ^ tables[0][(prev & 0xff) as usize];
            i += 1;
        }
        t += 1;
    }
    tables
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Same result as `Principal::from_text`: the same principal, or the same error.
    fn agrees(text: &str) {
        let ours = from_text(text).map_err(|e| e.to_string());
        let theirs = Principal::from_text(text).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{text:?}");
    }

    /// The four-at-a-time CRC equals the bit-at-a-time definition for every length
    /// around the step size.
    #[test]
    fn crc32_matches_the_bitwise_definition() {
        let bitwise = |data: &[u8]| {
            let mut crc = !0u32;
            for &b in data {
                crc ^= u32::from(b);
                for _ in 0..8 {
                    crc = if crc & 1 != 0 {
                        0xEDB8_8320 ^ (crc >> 1)
                    } else {
                        crc >> 1
                    };
                }
            }
            !crc
        };
        let data: Vec<u8> = (0..64u32).map(|i| (i * 37 + 11) as u8).collect();
        for len in 0..data.len() {
            assert_eq!(crc32(&data[..len]), bitwise(&data[..len]), "{len}");
        }
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn agrees_with_from_text() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for fixed in [
            "aaaaa-aa",
            "2vxsx-fae",
            "rrkah-fqaaa-aaaaa-aaaaq-cai",
            "RRKAH-FQAAA-AAAAA-AAAAQ-CAI",
            "rrkah-fqaaa-aaaaa-aaaaq-cai-",
            "-rrkah-fqaaa-aaaaa-aaaaq-cai",
            "rrkahfqaaa-aaaaa-aaaaq-cai",
            "rrkah--fqaaa-aaaaa-aaaaq-cai",
            "rrkah-fqaaa-aaaaa-aaaaq-caj",
            "",
            "-",
            "a",
            "aa",
            "aaaa-",
            "aaaaa-a1",
            "aaaaa-ab",
            "aaaaa-aa8",
            "é",
        ] {
            agrees(fixed);
        }
        for round in 0..3000 {
            let len = (next() % 31) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            // Canonical text of up to 30 bytes (30 is one too many).
            let text = match Principal::try_from_slice(&bytes) {
                Ok(p) => p.to_text(),
                Err(_) => continue,
            };
            agrees(&text);
            // One mutation of the canonical text.
            let mut t: Vec<u8> = text.clone().into_bytes();
            let at = (next() as usize) % t.len().max(1);
            match round % 7 {
                0 => t.insert(at, b'-'),
                1 => {
                    t.remove(at);
                }
                2 => t[at] = b"abcxyz234567-=0"[(next() % 15) as usize],
                3 => t.make_ascii_uppercase(),
                4 => t.truncate(at),
                5 => t.extend_from_slice(b"-aaaaa-aaaaa"),
                _ => t.retain(|&c| c != b'-'),
            }
            agrees(&String::from_utf8_lossy(&t));
        }
        // Far too long, valid and invalid base32 lengths.
        agrees(&"a".repeat(64));
        agrees(&"a".repeat(65));
        agrees(&"aaaaa-".repeat(20));
    }
}
