//! What a decode reserves before it has decoded anything: no more than the bytes
//! left in the message back. Elements that take no bytes (`null`, `record {}`)
//! make a vector's length free to claim, and a visitor reserves room by the
//! decoder's size hint (serde's `Vec` up to 1 MiB, `IDLValue` up to 1,024
//! elements), so the hint is bounded by the bytes left. The largest single
//! allocation is recorded by a global allocator (this binary only).

#[path = "common/alloc_probe.rs"]
mod alloc_probe;
use alloc_probe::largest;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

/// `vec null` of 2^30 elements (14 bytes).
const BOMB: &[u8] = b"DIDL\x01\x6d\x7f\x01\x00\x80\x80\x80\x80\x04";

/// A vector of 2^30 `null`s decoded as `Vec<Option<u8>>`: the hint is 0 (no byte
/// is left), so nothing is reserved up front; what the decode grows until the
/// size bound stops it is all it allocates (about 16,000 elements of 2 bytes).
#[test]
fn a_typed_vector_reserves_nothing_for_elements_no_byte_backs() {
    let mut config = candor::DecoderConfig::new();
    config.set_skipping_quota(10_000);
    let n = largest(|| {
        assert!(candor::Decode!([config]; BOMB, Vec<Option<u8>>).is_err());
    });
    assert!(n <= 64 << 10, "largest allocation {n} bytes");
    // A vector whose elements take bytes is still reserved for at once.
    let bytes = candor::Encode!(&vec![Some(1u8); 10_000]).unwrap();
    let n = largest(|| {
        let v = candor::Decode!(&bytes, Vec<Option<u8>>).unwrap();
        assert_eq!(v.len(), 10_000);
    });
    assert!(n >= 20_000, "largest allocation {n} bytes");
}

/// The untyped path (`IDLArgs::from_bytes`) reserves nothing for the bomb's
/// elements either, and stops at the size bound.
#[test]
fn the_untyped_path_reserves_nothing_for_elements_no_byte_backs() {
    let n = largest(|| {
        let err = candor::IDLArgs::from_bytes(BOMB).unwrap_err();
        assert!(err
            .to_string()
            .contains("Decoding cost exceeds the limit of"));
    });
    // About 16,800 values of 56 bytes, grown by doubling: under 2 MiB.
    assert!(n <= 2 << 20, "largest allocation {n} bytes");
    let n = largest(|| {
        let bytes = b"DIDL\x01\x6d\x7f\x01\x00\x05";
        let args = candor::IDLArgs::from_bytes(bytes).unwrap();
        assert!(matches!(&args.args[..], [candor::IDLValue::Vec(v)] if v.len() == 5));
    });
    assert!(n < 1024, "largest allocation {n} bytes for five nulls");
}
