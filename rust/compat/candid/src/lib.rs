//! # candid, backed by candor
//!
//! This crate is [candor](../candor/index.html) under the name and version of the
//! `candid` crate (0.10.39), so that a whole build — ic-cdk and its macros, type crates
//! such as icrc-ledger-types, build tools such as candid_parser — switches to candor
//! with one `[patch.crates-io]` entry:
//!
//! ```toml
//! [patch.crates-io]
//! candid = { path = "…/candor/rust/compat/candid" }
//! ```
//!
//! Nothing here is a second implementation: every item is candor's, re-exported at the
//! path where candid 0.10.39 has it. The only thing this crate chooses is which derive
//! and attribute macros stand behind candid's names: the ones whose generated code
//! names `::candid` and which follow candid_derive's attribute policy exactly, so a
//! type derives the same Candid type (and the same bytes) as under candid.
//!
//! Known differences from candid are listed in `spec/differences.md` (the entries
//! C1–C4 concern this crate); `cargo run -p candid_api_check` compares this crate's
//! public API with candid 0.10.39's, item by item, and fails on anything missing that
//! is not listed there.

#![forbid(unsafe_code)]

// The macros behind candid's names. `CandidType` is both the trait (type namespace)
// and the derive (macro namespace), as in candid.
pub use candor_derive::{
    candid_method_compat as candid_method, export_service_compat as export_service,
    CandidTypeCompat as CandidType,
};
pub use serde::Deserialize;

// Declarative macros (`#[macro_export]` in candor; their expansions name `$crate`,
// which is candor, so they work from any crate that depends on this one).
pub use candor::{
    define_function, define_service, field, func, record, service, variant, Decode, Encode,
};

pub use candor::error;
pub use error::{Error, Result};

pub use types::number::{Int, Nat};
pub use types::value::{IDLArgs, IDLValue};
pub use types::{
    arc,
    principal::Principal,
    rc,
    reference::{Func, Service},
    reserved::{Empty, Reserved},
    result::MotokoResult,
    CandidType, TypeEnv,
};

pub use candor::de;
pub use candor::pretty;
pub use candor::ser;
pub use de::DecoderConfig;

pub use candor::idl_hash;

// Not in candid: fills the caches a method's first call fills, so that queries
// start warm (see its docs).
pub use candor::warm_up;

pub use utils::{
    decode_args, decode_args_with_config, decode_args_with_decoding_and_skipping_quota,
    decode_args_with_decoding_quota, decode_args_with_skipping_quota, decode_one,
    decode_one_with_config, decode_one_with_decoding_and_skipping_quota,
    decode_one_with_decoding_quota, decode_one_with_skipping_quota, encode_args, encode_one,
    write_args,
};

/// candid's `types`: candor's type model, plus the two modules candid keeps apart.
pub mod types {
    pub use candor::types::*;

    /// candid's `types::type_env`.
    pub mod type_env {
        pub use candor::types::TypeEnv;
    }

    /// candid's `types::value`: dynamically typed values (candor's `value`).
    pub mod value {
        pub use candor::value::{IDLArgs, IDLField, IDLValue, IDLValueVisitor, VariantValue};
    }
}

/// candid's `utils`: argument tuples and the encode/decode entry points.
pub mod utils {
    pub use candor::utils::*;
}
