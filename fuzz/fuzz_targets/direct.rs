//! Direct decoding never changes an outcome: arbitrary bytes decoded through serde
//! and then directly give the same value, quotas left, or error text.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    candor_fuzz::decode_direct_and_serde(data);
});
