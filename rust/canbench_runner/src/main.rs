//! The offline canbench runner (in progress).
fn main() {}
