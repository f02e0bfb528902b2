//! Known headers never change an outcome: arbitrary bytes, and arbitrary values
//! after the header the compiler writes (in candid's order of entries and in
//! agent-js's), decoded with the header taken as known and parsed give the same
//! value, quotas left, or error text.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    candor_fuzz::decode_known_and_parsed(data);
});
