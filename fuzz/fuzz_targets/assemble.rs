//! `candor assemble` on any text (edited explanations included): an error or bytes,
//! never a panic; and the bytes it makes explain and assemble back to themselves.

#![no_main]

use candor_cli::assemble::assemble;
use candor_cli::explain::{explain, Context};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for keep_lengths in [false, true] {
        if let Ok(bytes) = assemble(text, keep_lengths) {
            let again = explain(&bytes, &Context::default());
            assert_eq!(assemble(&again.text(), false).unwrap(), bytes);
        }
    }
});
