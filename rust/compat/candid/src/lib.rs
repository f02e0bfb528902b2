//! candor under candid's name.
pub use candor::*;
pub use candor_derive::CandidTypeAtCandid as CandidType;
