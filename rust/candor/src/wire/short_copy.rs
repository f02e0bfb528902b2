//! Appending a short byte string by words, and the `unsafe` it needs.
//!
//! In a canister a copy of variable length is a `memory.copy`, which the IC charges
//! a fixed price for on top of its size; that price is more than a whole copy of a
//! few dozen bytes done by loads and stores. Most byte strings a message carries
//! (principals, names, keys, hashes, a reply's header) are that short, so the
//! decoder's owned texts and blobs and the encoder's short appends are copied here,
//! as two overlapping runs of fixed-size words with no loop.
//! `benches/unsafe.md` has what the copy is measured to save.

/// The longest byte string [`push_short`] copies by words.
pub(crate) const SHORT_COPY: usize = 64;

/// The high bit of every byte of a word.
pub(crate) const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Appends `b` to `out` and returns the bitwise OR of the words it copied: the
/// bytes are all ASCII exactly when that OR has no byte's high bit set, as the
/// runs cover every byte. A string longer than [`SHORT_COPY`] is appended by
/// `extend_from_slice` and reports all high bits set.
#[inline(always)]
pub(crate) fn push_short(out: &mut Vec<u8>, b: &[u8]) -> u64 {
    let n = b.len();
    if n > SHORT_COPY {
        out.extend_from_slice(b);
        return HIGH_BITS;
    }
    out.reserve(n);
    let len = out.len();
    let src = b.as_ptr();
    // SAFETY: `reserve` left room for `n` bytes past `len`, so `dst` and the `n`
    // bytes after it lie inside `out`'s allocation, which `b` (a shared borrow
    // while `out` is borrowed mutably) cannot overlap.
    let dst = unsafe { out.as_mut_ptr().add(len) };
    // SAFETY: `b` holds `n` bytes and `dst` has room for `n`. Each branch copies
    // words that lie inside the first `n` bytes: a run of `k` bytes starts at 0 or
    // at `n - k`, and is taken only when `k <= n`. Together the two runs cover all
    // `n` bytes, so every byte below the length set at the end has been written.
    unsafe {
        let or = if n >= 32 {
            words::<4>(src, dst, 0) | words::<4>(src, dst, n - 32)
        } else if n >= 16 {
            words::<2>(src, dst, 0) | words::<2>(src, dst, n - 16)
        } else if n >= 8 {
            words::<1>(src, dst, 0) | words::<1>(src, dst, n - 8)
        } else if n >= 4 {
            half(src, dst, 0) | half(src, dst, n - 4)
        } else if n > 0 {
            byte(src, dst, 0) | byte(src, dst, n / 2) | byte(src, dst, n - 1)
        } else {
            0
        };
        out.set_len(len + n);
        or
    }
}

/// Copies `K` eight-byte words from `src + at` to `dst + at`, each a fixed-size
/// load and store (never `memory.copy`), and returns their bitwise OR.
///
/// # Safety
///
/// `src + at .. src + at + 8 * K` must be readable and the same range of `dst`
/// writable, and the two must not overlap.
#[inline(always)]
unsafe fn words<const K: usize>(src: *const u8, dst: *mut u8, at: usize) -> u64 {
    let mut or = 0;
    for i in 0..K {
        // SAFETY: inside the range the caller vouches for.
        unsafe {
            let w = std::ptr::read_unaligned(src.add(at + 8 * i).cast::<u64>());
            std::ptr::write_unaligned(dst.add(at + 8 * i).cast::<u64>(), w);
            or |= w;
        }
    }
    or
}

/// [`words`] for one four-byte word.
///
/// # Safety
///
/// As [`words`], for `src + at .. src + at + 4`.
#[inline(always)]
unsafe fn half(src: *const u8, dst: *mut u8, at: usize) -> u64 {
    // SAFETY: inside the range the caller vouches for.
    unsafe {
        let w = std::ptr::read_unaligned(src.add(at).cast::<u32>());
        std::ptr::write_unaligned(dst.add(at).cast::<u32>(), w);
        u64::from(w)
    }
}

/// [`words`] for the one byte at `at`.
///
/// # Safety
///
/// As [`words`], for the byte at `src + at`.
#[inline(always)]
unsafe fn byte(src: *const u8, dst: *mut u8, at: usize) -> u64 {
    // SAFETY: inside the range the caller vouches for.
    unsafe {
        let b = *src.add(at);
        *dst.add(at) = b;
        u64::from(b)
    }
}

#[cfg(test)]
mod tests {
    use super::{push_short, HIGH_BITS, SHORT_COPY};

    /// Every length, either side of each branch, appended after every short prefix,
    /// gives exactly the bytes `extend_from_slice` gives.
    #[test]
    fn appends_are_exact() {
        let src: Vec<u8> = (0..=200u8).collect();
        for n in 0..=SHORT_COPY + 8 {
            for start in [0, 1, 7] {
                for before in [0, 3, 16] {
                    let b = &src[start..start + n];
                    let mut out = vec![0xaa; before];
                    push_short(&mut out, b);
                    let mut want = vec![0xaa; before];
                    want.extend_from_slice(b);
                    assert_eq!(out, want, "length {n} after {before}");
                }
            }
        }
    }

    /// The OR has a high bit exactly when a copied byte has one, at every length
    /// and position; a long string reports all high bits.
    #[test]
    fn the_or_is_the_ascii_test() {
        for n in 0..=SHORT_COPY + 8 {
            let mut b = vec![b'a'; n];
            let ascii = |b: &[u8]| push_short(&mut Vec::new(), b) & HIGH_BITS == 0;
            assert_eq!(ascii(&b), n <= SHORT_COPY, "{n}");
            for i in 0..n {
                for x in [0x80, 0xc3, 0xff, 0x7f] {
                    b[i] = x;
                    assert_eq!(ascii(&b), x < 0x80 && n <= SHORT_COPY, "{n} {i} {x}");
                }
                b[i] = b'a';
            }
        }
    }
}
