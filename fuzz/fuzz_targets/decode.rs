//! Decodes arbitrary bytes into several typed targets under a decoding quota of
//! 20,000,000 and a skipping quota of 10,000. Any panic (including an arithmetic
//! overflow: the fuzz profile keeps overflow checks on) is a finding.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    candor_fuzz::decode_all(data);
});
