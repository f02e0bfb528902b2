//! Field ids: the 32-bit hash of a field name that the spec defines
//! (`hash(id) = (Σ_i utf8(id)[i] · 223^(k-i)) mod 2^32`).

/// The id of a record field or variant case named `id`.
pub const fn idl_hash(id: &str) -> u32 {
    let bytes = id.as_bytes();
    let mut s: u32 = 0;
    let mut i = 0;
    while i < bytes.len() {
        s = s.wrapping_mul(223).wrapping_add(bytes[i] as u32);
        i += 1;
    }
    s
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
}
