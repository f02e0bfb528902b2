//! Equality of short byte strings (kept headers, type table entries), by words.

/// `a == b`, thirty-two bytes at a time, the last thirty-two bytes (overlapping
/// the ones before them) standing for the tail: on wasm, `memcmp` is a call that
/// compares byte by byte. A kept header is compared whole with its key on every
/// hit, and mostly equal to it, so each step folds its four words into one test
/// and one branch.
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let word = |c: Option<&[u8; 8]>| c.map_or(0, |c| u64::from_le_bytes(*c));
    let pair = |c: Option<&[u8; 16]>| c.map_or(0, |c| u128::from_le_bytes(*c));
    if a.len() < 32 {
        if a.len() < 8 {
            return a == b;
        }
        if a.len() < 16 {
            return (word(a.first_chunk()) ^ word(b.first_chunk()))
                | (word(a.last_chunk()) ^ word(b.last_chunk()))
                == 0;
        }
        return (pair(a.first_chunk()) ^ pair(b.first_chunk()))
            | (pair(a.last_chunk()) ^ pair(b.last_chunk()))
            == 0;
    }
    // Two pairs of sixteen bytes of each side, XOR-ed and OR-ed: zero exactly when
    // all thirty-two bytes agree.
    let differ = |x: Option<&[u8; 32]>, y: Option<&[u8; 32]>| {
        let half = |c: Option<&[u8; 32]>, at: usize| pair(c.and_then(|c| c[at..].first_chunk()));
        (half(x, 0) ^ half(y, 0)) | (half(x, 16) ^ half(y, 16))
    };
    a.chunks_exact(32)
        .zip(b.chunks_exact(32))
        .all(|(x, y)| differ(x.first_chunk(), y.first_chunk()) == 0)
        && differ(a.last_chunk(), b.last_chunk()) == 0
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
