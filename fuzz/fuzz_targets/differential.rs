//! Arbitrary bytes decoded by candor and by candid 0.10.39 at the same Rust types,
//! and as untyped values, under the same quotas: both accept with the same value or
//! both refuse, except where `spec/differences.md` says why not
//! (`src/differential.rs`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    candor_fuzz::differential::decode_both(data);
});
