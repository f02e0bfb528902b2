//! `candor explain` on any bytes: no panic, every byte on a line, and `assemble` of
//! the explanation gives the input back exactly (the CLI's losslessness promise).

#![no_main]

use candor_cli::assemble::assemble;
use candor_cli::explain::{explain, Context};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let explained = explain(data, &Context::default());
    let back = assemble(&explained.text(), false).expect("explain's own text assembles");
    assert_eq!(back, data);
});
