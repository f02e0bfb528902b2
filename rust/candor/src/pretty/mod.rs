//! Candid text printing: `.did` interfaces and types (candid's `pretty`).

pub mod candid;
pub mod utils;
