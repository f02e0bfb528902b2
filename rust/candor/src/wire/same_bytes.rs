//! Equality of short byte strings (kept headers, type table entries), by words.

/// `a == b`, sixteen bytes at a time, the last sixteen bytes (overlapping the
/// ones before them) standing for the tail: on wasm, `memcmp` is a call that
/// compares byte by byte. A kept header is compared
/// whole with its key on every hit, and mostly equal to it, so each step tests its
/// two words with one branch.
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let word = |c: Option<&[u8; 8]>| c.map_or(0, |c| u64::from_le_bytes(*c));
    if a.len() < 16 {
        if a.len() < 8 {
            return a == b;
        }
        return (word(a.first_chunk()) ^ word(b.first_chunk()))
            | (word(a.last_chunk()) ^ word(b.last_chunk()))
            == 0;
    }
    let pair = |c: &[u8]| <[u8; 16]>::try_from(c).map_or(0, u128::from_le_bytes);
    a.chunks_exact(16)
        .zip(b.chunks_exact(16))
        .all(|(x, y)| pair(x) == pair(y))
        && a.last_chunk::<16>().map(|c| u128::from_le_bytes(*c))
            == b.last_chunk::<16>().map(|c| u128::from_le_bytes(*c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_is_slice_equality() {
        let base: Vec<u8> = (0..100u8).collect();
        for len in 0..base.len() {
            let a = &base[..len];
            assert!(same_bytes(a, a));
            for i in 0..len {
                let mut b = a.to_vec();
                b[i] ^= 0x80;
                assert!(!same_bytes(a, &b), "len {len}, byte {i}");
            }
            assert!(!same_bytes(a, &base[..len + 1]));
        }
    }
}
