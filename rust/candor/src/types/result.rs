//! `MotokoResult` (candid's `types::result`).
