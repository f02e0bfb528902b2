//! `CandidType` for `Rc` holders (candid's `types::rc`).
