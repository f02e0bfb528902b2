//! Field ids: the 32-bit hash of a field name that the spec defines
//! (`hash(id) = (Σ_i utf8(id)[i] · 223^(k-i)) mod 2^32`).

/// `223^k` (wrapping) for `k` in `0..=8`.
const POW223: [u32; 9] = {
    let mut p = [1u32; 9];
    let mut k = 1;
    while k < 9 {
        p[k] = p[k - 1].wrapping_mul(223);
        k += 1;
    }
    p
};

/// The id of a record field or variant case named `id`: `h = h * 223 + byte` over
/// its bytes, wrapping, taken eight bytes per step. The eight steps unrolled are
/// one multiply of `h` by `223^8` plus each byte times its power, which are
/// independent, instead of a chain of eight multiply-adds with a bounds check and a
/// branch per byte (the text parser hashes every field name it reads).
pub const fn idl_hash(id: &str) -> u32 {
    let [p0, p1, p2, p3, p4, p5, p6, p7, p8] = POW223;
    let mut b = id.as_bytes();
    let mut h: u32 = 0;
    while let Some((eight, rest)) = b.split_first_chunk::<8>() {
        let [c0, c1, c2, c3, c4, c5, c6, c7] = *eight;
        h = h
            .wrapping_mul(p8)
            .wrapping_add((c0 as u32).wrapping_mul(p7))
            .wrapping_add((c1 as u32).wrapping_mul(p6))
            .wrapping_add((c2 as u32).wrapping_mul(p5))
            .wrapping_add((c3 as u32).wrapping_mul(p4))
            .wrapping_add((c4 as u32).wrapping_mul(p3))
            .wrapping_add((c5 as u32).wrapping_mul(p2))
            .wrapping_add((c6 as u32).wrapping_mul(p1))
            .wrapping_add((c7 as u32).wrapping_mul(p0));
        b = rest;
    }
    if let Some((four, rest)) = b.split_first_chunk::<4>() {
        let [c0, c1, c2, c3] = *four;
        h = h
            .wrapping_mul(p4)
            .wrapping_add((c0 as u32).wrapping_mul(p3))
            .wrapping_add((c1 as u32).wrapping_mul(p2))
            .wrapping_add((c2 as u32).wrapping_mul(p1))
            .wrapping_add(c3 as u32);
        b = rest;
    }
    while let Some((&c, rest)) = b.split_first() {
        h = h.wrapping_mul(223).wrapping_add(c as u32);
        b = rest;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::idl_hash;

    #[test]
    fn known_hashes() {
        // Values from the spec's examples and candid's own tests.
        assert_eq!(idl_hash(""), 0);
        assert_eq!(idl_hash("a"), 97);
        assert_eq!(idl_hash("foo"), 5097222);
        assert_eq!(idl_hash("Ok"), 17724);
        assert_eq!(idl_hash("Err"), 3456837);
        for name in ["neurons", "dissolve_state", "héllo", "_"] {
            assert_eq!(idl_hash(name), candid::idl_hash(name));
        }
    }

    /// The spec's definition, one byte per step.
    fn by_bytes(id: &str) -> u32 {
        id.bytes()
            .fold(0u32, |h, c| h.wrapping_mul(223).wrapping_add(u32::from(c)))
    }

    /// The word-wise steps give the spec's hash: every length around the step
    /// sizes, with ASCII, high and zero bytes, and non-ASCII text.
    #[test]
    fn eight_bytes_per_step_is_the_spec_hash() {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        for len in 0..48 {
            for _ in 0..50 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        (seed >> 24) as u8 & 0x7f
                    })
                    .collect();
                let name = String::from_utf8(bytes).unwrap_or_default();
                assert_eq!(idl_hash(&name), by_bytes(&name), "{name:?}");
            }
        }
        for name in [
            "",
            "a",
            "Ok",
            "Err",
            "héllo wörld ✓ and more",
            "\u{0}x",
            "\u{ff}",
        ] {
            assert_eq!(idl_hash(name), by_bytes(name), "{name:?}");
            assert_eq!(idl_hash(name), candid::idl_hash(name), "{name:?}");
        }
        let high = "é".repeat(13);
        assert_eq!(idl_hash(&high), by_bytes(&high));
    }
}
