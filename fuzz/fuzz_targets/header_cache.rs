//! The header cache never changes an outcome: arbitrary bytes decoded without it and
//! then from a kept header give the same value, quotas left, or error text.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    candor_fuzz::decode_cached_and_plain(data);
});
