//! Macros that build types: `field!`, `record!`, `variant!`.
