//! A decoder at the end of a function whose local holds the bytes it reads: before
//! edition 2024 the temporaries of a function's last expression are dropped after
//! its locals, so a decoder whose destructor needs the bytes alive made
//! `Decode!(&bytes, T)` there a borrow error (E0597) that candid does not have. These
//! functions are the shapes canister helpers and ic-utils write; that this file
//! compiles is the test, and the tests check the decoder still gives its header
//! back to the cache when it is dropped that late.

use candor::de::IDLDeserialize;
use candor::{CandidType, Decode, Deserialize, Encode, Result};

/// A stable-memory helper: the buffer is filled by a call, decoded on the last line.
fn restore_stable<T: CandidType + for<'a> Deserialize<'a>>(stored: &[u8]) -> T {
    let mut bytes = vec![0; stored.len()];
    bytes.copy_from_slice(stored);
    Decode!(&bytes, T).unwrap()
}

/// ic-utils' shape: the error mapped, at the end of a block.
fn decode_mapped(stored: &[u8]) -> std::result::Result<(u64, String), String> {
    let bytes = stored.to_vec();
    Decode!(&bytes, u64, String).map_err(|e| e.to_string())
}

/// The decoder itself as a temporary of the last expression.
fn first_value(stored: &[u8]) -> Result<u64> {
    let bytes = stored.to_vec();
    match IDLDeserialize::new(&bytes) {
        Ok(ref mut de) => de.get_value::<u64>(),
        Err(e) => Err(e),
    }
}

/// The cost form, in a `?` chain.
fn with_cost(stored: &[u8]) -> Result<u64> {
    let bytes = stored.to_vec();
    let config = candor::DecoderConfig::new();
    Ok(Decode!(@Debug [config]; &bytes, u64)?.0)
}

#[test]
fn decoders_dropped_after_their_input_decode() {
    let bytes = Encode!(&7u64, &"seven").unwrap();
    assert_eq!(
        restore_stable::<(u64, String)>(&Encode!(&(7u64, "seven")).unwrap()).0,
        7
    );
    assert_eq!(decode_mapped(&bytes), Ok((7, "seven".to_string())));
    assert_eq!(first_value(&bytes).unwrap(), 7);
    assert_eq!(with_cost(&Encode!(&9u64).unwrap()).unwrap(), 9);
}

/// The header goes back to the cache when such a decoder is dropped: the next
/// decode of the same header takes it.
#[test]
fn a_late_dropped_decoder_gives_its_header_back() {
    candor::de::set_header_cache(true);
    let bytes = Encode!(&vec![1u64, 2], &"x").unwrap();
    let decode = |b: &[u8]| decode_vec(b).unwrap();
    assert_eq!(decode(&bytes), vec![1, 2]);
    let before = candor::de::header_cache_hits();
    for _ in 0..3 {
        assert_eq!(decode(&bytes), vec![1, 2]);
    }
    assert_eq!(candor::de::header_cache_hits() - before, 3);
}

fn decode_vec(stored: &[u8]) -> Result<Vec<u64>> {
    let bytes = stored.to_vec();
    Decode!(&bytes, Vec<u64>, String).map(|(v, _)| v)
}
