//! Subtyping between Candid types given as `Type` trees (candid's `types::subtype`).
