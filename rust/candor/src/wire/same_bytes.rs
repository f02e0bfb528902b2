//! Equality of short byte strings (kept headers, type table entries), by words.

/// `a == b` by words: on wasm, `memcmp` is a call that compares byte by byte. A
/// kept header is compared whole with its key on every hit, and mostly equal to
/// it, so a step reads four words of each side at one base (the offsets fold
/// into the loads) and tests their differences with one branch; the last step
/// overlaps the one before it.
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    let word = |c: Option<&[u8; 8]>| c.map_or(0, |c| u64::from_le_bytes(*c));
    if len < 16 {
        if len < 8 {
            return a == b;
        }
        return (word(a.first_chunk()) ^ word(b.first_chunk()))
            | (word(a.last_chunk()) ^ word(b.last_chunk()))
            == 0;
    }
    if len < STEP {
        let pair = |c: Option<&[u8; 16]>| c.map_or(0, |c| u128::from_le_bytes(*c));
        return (pair(a.first_chunk()) ^ pair(b.first_chunk()))
            | (pair(a.last_chunk()) ^ pair(b.last_chunk()))
            == 0;
    }
    let (pa, pb) = (a.as_ptr(), b.as_ptr());
    let mut at = 0;
    loop {
        // The last step starts where a whole step still fits.
        let start = at.min(len - STEP);
        // SAFETY: `start + STEP <= len`, and both slices are `len` bytes long,
        // so each step reads inside them; unaligned reads of plain bytes.
        let differ = unsafe { step_differs(pa.add(start), pb.add(start)) };
        if differ {
            return false;
        }
        at += STEP;
        if at >= len {
            return true;
        }
    }
}

/// Bytes compared per step of [`same_bytes`].
const STEP: usize = 32;

/// Whether the [`STEP`] bytes at `x` and at `y` differ.
///
/// # Safety
///
/// `x` and `y` are each valid for reads of [`STEP`] bytes.
#[inline(always)]
unsafe fn step_differs(x: *const u8, y: *const u8) -> bool {
    // SAFETY: each offset is below `STEP`, inside what the caller vouches for.
    let word = |p: *const u8, i: usize| unsafe { p.add(i).cast::<u64>().read_unaligned() };
    (word(x, 0) ^ word(y, 0))
        | (word(x, 8) ^ word(y, 8))
        | (word(x, 16) ^ word(y, 16))
        | (word(x, 24) ^ word(y, 24))
        != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to a few steps, at every alignment of either side: equal
    /// copies are equal, and a change in any one byte is seen. Run under
    /// AddressSanitizer too (`docs/testing.md`), for the unaligned word reads.
    #[test]
    fn same_bytes_is_slice_equality() {
        let base: Vec<u8> = (0..140u8).collect();
        for len in 0..100 {
            for off in 0..4 {
                let a = &base[off..off + len];
                let mut copy = vec![0u8; len + 3];
                for at in 0..3 {
                    copy[at..at + len].copy_from_slice(a);
                    let b = &mut copy[at..at + len];
                    assert!(same_bytes(a, b), "len {len}, offsets {off} and {at}");
                    for i in 0..len {
                        b[i] ^= 0x80;
                        assert!(!same_bytes(a, b), "len {len}, byte {i}");
                        b[i] ^= 0x80;
                    }
                }
                assert!(!same_bytes(a, &base[off..off + len + 1]));
                // Allocations of exactly `len` bytes: a read past either end is
                // one a sanitizer sees.
                let (mut x, y) = (a.to_vec(), a.to_vec());
                assert!(same_bytes(&x, &y));
                if let Some(last) = x.last_mut() {
                    *last ^= 1;
                    assert!(!same_bytes(&x, &y));
                }
            }
        }
    }
}
