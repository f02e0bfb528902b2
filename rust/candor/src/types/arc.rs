//! `CandidType` for `Arc` holders (candid's `types::arc`).
