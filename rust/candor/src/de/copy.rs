//! Owned copies and text checks done a word at a time, and the `unsafe` they need.
//! In a canister `memory.copy` and `from_utf8` have a fixed price larger than the
//! whole work for the short texts and blobs most messages carry (names, keys,
//! hashes, principals), so short ones are copied (`wire/short_copy.rs`) and tested
//! by fixed-size loads and stores; and a text found ASCII by those words, or
//! already validated, becomes a `str`/`String` without a second validation.
//! `benches/unsafe.md` has what each block is measured to save.

use crate::error::{fault, Result};
use crate::wire::short_copy::{self, HIGH_BITS, SHORT_COPY};

/// Texts up to this many bytes are first tested for ASCII (see [`DecodeState::text`]).
pub(crate) const SHORT_TEXT: usize = 32;

/// A borrowed text, validated: short all-ASCII texts skip `from_utf8` (ASCII is
/// valid UTF-8 by definition; spec/decoder.md, fast path 12). `at` is the offset of
/// its first byte, for the error.
#[inline(always)]
pub(super) fn borrowed_text(bytes: &[u8], at: usize) -> Result<&str> {
    if bytes.len() <= SHORT_TEXT && short_ascii(bytes) {
        // SAFETY: every byte is below 0x80, and a sequence of ASCII bytes is
        // valid UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).map_err(|e| fault::invalid_utf8("text", e, at))
}

/// Whether a short text's bytes (at most [`SHORT_TEXT`]) are all ASCII (below
/// 0x80): the bytes are OR-ed a word at a time, two overlapping runs of words from
/// each end with no loop, instead of `is_ascii`'s alignment steps, whose set-up is
/// most of the work for a few bytes.
#[inline(always)]
fn short_ascii(b: &[u8]) -> bool {
    const HIGH8: u64 = 0x8080_8080_8080_8080;
    const HIGH4: u32 = 0x8080_8080;
    let word = |w: Option<&[u8; 8]>| w.map_or(0, |w| u64::from_le_bytes(*w));
    let n = b.len();
    if n < 8 {
        return match (b.first_chunk::<4>(), b.last_chunk::<4>()) {
            (Some(first), Some(last)) => {
                (u32::from_le_bytes(*first) | u32::from_le_bytes(*last)) & HIGH4 == 0
            }
            _ => b.iter().all(|&x| x < 0x80),
        };
    }
    if n < 16 {
        return (word(b.first_chunk()) | word(b.last_chunk())) & HIGH8 == 0;
    }
    if n > SHORT_TEXT {
        return b.is_ascii();
    }
    // Words at 0 and 8, and at n - 16 and n - 8: all bytes when n <= 32.
    let (head, tail) = (b.first_chunk::<16>(), b.last_chunk::<16>());
    let half = |c: Option<&[u8; 16]>, at: usize| word(c.and_then(|c| c[at..].first_chunk()));
    (half(head, 0) | half(head, 8) | half(tail, 0) | half(tail, 8)) & HIGH8 == 0
}

/// An owned copy of `b`. In a canister `memory.copy` has a fixed price larger than
/// a whole short copy done by loads and stores, and most texts and blobs of a
/// message (names, keys, hashes, principals) are short; so a copy of at most
/// [`SHORT_COPY`] bytes is made by words (`wire/short_copy.rs`). Longer ones are
/// copied by `memory.copy`.
#[inline(always)]
pub(super) fn owned_bytes(b: &[u8]) -> Vec<u8> {
    owned_bytes_or(b).0
}

/// [`owned_bytes`], with the bitwise OR of every word it copied: a short copy's
/// bytes are all ASCII exactly when that OR has no byte's high bit set (the runs
/// cover every byte). A long copy, made by `memory.copy`, reports all high bits
/// set: not tested.
#[inline(always)]
fn owned_bytes_or(b: &[u8]) -> (Vec<u8>, u64) {
    if b.len() > SHORT_COPY {
        return (b.to_vec(), HIGH_BITS);
    }
    let mut v = Vec::<u8>::with_capacity(b.len());
    let or = short_copy::push_short(&mut v, b);
    (v, or)
}

/// An owned copy of `s`, as [`owned_bytes`].
#[inline]
pub(super) fn owned_text(s: &str) -> String {
    let v = owned_bytes(s.as_bytes());
    // SAFETY: `v` holds exactly the bytes of `s`, in order, and `s` is valid
    // UTF-8; validating them again would cost more than the copy.
    unsafe { String::from_utf8_unchecked(v) }
}

/// An owned, validated copy of the text `bytes` (at offset `at`): the ASCII test is
/// made on the copy's own words instead of on the input first.
#[inline(always)]
pub(super) fn owned_text_at(bytes: &[u8], at: usize) -> Result<String> {
    let (v, or) = owned_bytes_or(bytes);
    if or & HIGH_BITS != 0 {
        validate_text(bytes, at)?;
    }
    // SAFETY: `v` holds exactly `bytes`, which are ASCII (no high bit in any
    // copied word, and the words cover every byte) or were just validated.
    Ok(unsafe { String::from_utf8_unchecked(v) })
}

/// A text that is not short ASCII, validated as `DecodeState::text` does, out of line:
/// `from_utf8`'s answer goes through memory, which would otherwise give every
/// string's read a stack frame.
#[inline(never)]
fn validate_text(bytes: &[u8], at: usize) -> Result<()> {
    match std::str::from_utf8(bytes) {
        Ok(_) => Ok(()),
        Err(e) => Err(fault::invalid_utf8("text", e, at)),
    }
}

#[cfg(test)]
mod tests {
    /// The word-wise ASCII test agrees with `is_ascii` on every short length and
    /// every position of a high byte.
    #[test]
    fn short_ascii_is_is_ascii() {
        for n in 0..=super::SHORT_TEXT + 8 {
            let mut b = vec![b'a'; n];
            assert!(super::short_ascii(&b), "{n}");
            for i in 0..n {
                b[i] = 0x80;
                assert!(!super::short_ascii(&b), "{n} {i}");
                b[i] = 0xff;
                assert!(!super::short_ascii(&b), "{n} {i}");
                b[i] = 0x7f;
                assert!(super::short_ascii(&b), "{n} {i}");
            }
        }
    }

    /// Every length, either side of each branch of the word copy, copies exactly.
    #[test]
    fn owned_copies_are_exact() {
        let src: Vec<u8> = (0..=200u8).collect();
        for n in 0..=src.len() {
            for start in [0, 1, 7] {
                let b = &src[start..(start + n).min(src.len())];
                let v = super::owned_bytes(b);
                assert_eq!(v, b, "length {}", b.len());
                assert_eq!(v.capacity(), b.len());
            }
        }
        assert_eq!(super::owned_text("héllo, wörld"), "héllo, wörld");
    }

    /// The OR a short copy reports has a high bit exactly when a copied byte has
    /// one, at every length and position; a long copy reports all high bits.
    #[test]
    fn owned_copy_or_is_the_ascii_test() {
        for n in 0..=super::SHORT_COPY + 8 {
            let mut b = vec![b'a'; n];
            let ascii = |b: &[u8]| super::owned_bytes_or(b).1 & super::HIGH_BITS == 0;
            assert_eq!(ascii(&b), n <= super::SHORT_COPY, "{n}");
            for i in 0..n {
                for x in [0x80, 0xc3, 0xff, 0x7f] {
                    b[i] = x;
                    let (v, _) = super::owned_bytes_or(&b);
                    assert_eq!(v, b);
                    assert_eq!(ascii(&b), x < 0x80 && n <= super::SHORT_COPY, "{n} {i} {x}");
                }
                b[i] = b'a';
            }
        }
    }

    /// A `String` (ASCII tested on its copy, `owned_string`) and a `&str` (tested
    /// on the input, `DecodeState::text`) agree on every short length with an ASCII,
    /// a two-byte UTF-8 or an invalid byte at every position: same text or same
    /// error.
    #[test]
    fn owned_strings_validate_as_borrowed_ones() {
        for n in 0..=super::SHORT_COPY + 8 {
            for i in 0..n.max(1) {
                for bad in [&b"a"[..], "\u{e9}".as_bytes(), &[0xff][..], &[0xc3][..]] {
                    let mut text = vec![b'k'; n];
                    if n > 0 {
                        text.splice(i..=i, bad.iter().copied());
                    }
                    let mut bytes = b"DIDL\x00\x01\x71".to_vec();
                    crate::wire::leb::write_u64(&mut bytes, text.len() as u64);
                    bytes.extend_from_slice(&text);
                    let owned = crate::Decode!(&bytes, String).map_err(|e| e.to_string());
                    let lent = crate::Decode!(&bytes, &str)
                        .map(str::to_string)
                        .map_err(|e| e.to_string());
                    assert_eq!(owned, lent, "{n} {i} {bad:?}");
                }
            }
        }
    }
}
