//! # candor: Candid for Rust, cheaper to decode
//!
//! candor reads and writes the Candid binary format (`DIDL…`) of the Internet
//! Computer. It is a drop-in replacement for the `candid` crate (0.10.39): the same
//! names (`CandidType`, `Deserialize`, `Encode!`, `Decode!`, `encode_args`,
//! `decode_args`, `decode_one`, `DecoderConfig`, `Nat`, `Int`, `Principal`…), the
//! same bytes for the same Rust values, the same subtyping and the same decoding
//! quota units, so a canister switches with one import:
//!
//! ```
//! use candor as candid;
//! use candid::{CandidType, Decode, Deserialize, Encode};
//!
//! #[derive(CandidType, Deserialize, Debug, PartialEq)]
//! struct Transfer {
//!     to: candid::Principal,
//!     amount: candid::Nat,
//!     memo: Option<String>,
//! }
//!
//! let t = Transfer { to: candid::Principal::anonymous(), amount: 5u64.into(), memo: None };
//! let bytes = Encode!(&t, &42u64)?;
//! let (back, n) = Decode!(&bytes, Transfer, u64)?;
//! assert_eq!((back, n), (t, 42));
//! # Ok::<(), candid::Error>(())
//! ```
//!
//! In a canister endpoint, decode with a quota so a hostile message is rejected
//! early:
//!
//! ```
//! use candor::{decode_args_with_config, encode_args, DecoderConfig};
//! let bytes = encode_args((7u32, "hello"))?;
//! let mut config = DecoderConfig::new();
//! config.set_decoding_quota(25_000_000).set_skipping_quota(10_000);
//! let (n, s): (u32, String) = decode_args_with_config(&bytes, &config)?;
//! assert_eq!((n, s.as_str()), (7, "hello"));
//! # Ok::<(), candor::Error>(())
//! ```
//!
//! ## Cargo features
//! None yet: everything above is always available.
//!
//! ## Modules
//!
//! The public modules are candid 0.10.39's, so code written against candid finds
//! each name where it was. Inside, the wire format sits at the bottom, free of serde;
//! the type model and the dynamic values above it; the encoder and the decoder on
//! top. A module uses only modules in the rows above it (its `uses` column, which
//! `tests/layers.rs` checks against every `crate::` path of the sources), so the
//! graph has no cycle and each layer can be read and tested without those above it.
//!
//! | module | holds | uses |
//! |---|---|---|
//! | `error` | the one error type: kind, byte offset, path; the cold constructors of every fault | — |
//! | `limits` | bounds that layers which do not otherwise meet must agree on (value depth) | — |
//! | `fasthash` | the hasher of the crate's internal maps | — |
//! | `wire` | the format without serde: LEB128, opcodes, the reader, the type table as a flat arena | `error` |
//! | `types` | the type model, `CandidType` and its impls, `Nat`/`Int`, references, subtyping of types | `error` `fasthash` `wire` |
//! | `value` | `IDLValue` and `IDLArgs`: dynamic values, their types, annotation, their text | `error` `limits` `types` `wire` |
//! | `ser` | the type-table builder, the value writer, arguments typed at run time | `error` `fasthash` `types` `value` `wire` |
//! | `de` | the serde `Deserializer`, subtype plans, quota accounting, the header cache | `error` `fasthash` `limits` `ser` `types` `value` `wire` |
//! | `pretty` | candid's text printer: types, services, `.did` files, values; a message decoded straight to its text | `de` `error` `types` `value` |
//! | `utils` | candid's `utils`: the root's entry points again, under candid's other path | `de` `ser` `types` `crate` |
//! | `warm_up` | filling a method's caches ahead of its calls (`init`), for queries, which keep nothing | `de` `error` `ser` |
//!
//! Exception: `types` uses `de::Direct`, the view of the input that
//! `CandidType::_decode_direct` takes: a Rust type names how it reads itself from
//! the bytes (as `idl_serialize` names how it writes itself), and the trait lives
//! with the types.
//!
//! `crate` in a `uses` column is the root's own items. `de` uses `ser` only to
//! encode a typed value before decoding it as an `IDLValue`
//! (`IDLValue::try_from_candid_type`). This file holds the documentation, the
//! re-exports, `Encode!`/`Decode!` and the free functions of candid's root.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs, unreachable_pub)]

pub mod de;
pub mod error;
mod fasthash;
mod limits;
pub mod pretty;
pub mod ser;
pub mod types;
pub mod value;
mod warm_up;
mod wire;

pub use candor_derive::{candid_method, export_service, CandidType};
pub use de::{DecoderConfig, IDLDeserialize};
pub use error::{Error, ErrorKind, Result};
pub use ic_principal::Principal;
pub use ser::IDLBuilder;
pub use serde::Deserialize;
pub use types::number::{Int, Nat};
pub use types::reference::{Func, Service};
pub use types::reserved::{Empty, Reserved};
pub use types::{idl_hash, CandidType, Type, TypeEnv, TypeInner};
pub use value::{IDLArgs, IDLField, IDLValue, VariantValue};
pub use warm_up::warm_up;

/// serde, for the macros (`define_function!`).
#[doc(hidden)]
pub use serde as _serde;

pub mod utils;

use de::ArgumentDecoder;
use ser::ArgumentEncoder;

/// Encodes values into a message: `Encode!(&a, &b)` → `Result<Vec<u8>>`.
///
/// The arguments form one tuple, so the cached header is written first and every
/// value straight after it into the output: each byte is written once (an
/// `IDLBuilder` must buffer the values until it knows all the types). The type of
/// `&T` is `T`'s, so the bytes are candid's.
#[macro_export]
macro_rules! Encode {
    ( $($x:expr),* $(,)? ) => {{
        $crate::encode_args(( $($x,)* ))
    }};
}

/// Decodes a message into values of the given types:
/// `Decode!(&bytes, T1, T2)`, `Decode!([config]; &bytes, T)`, and
/// `Decode!(@Debug [config]; &bytes, T)` which also returns the cost consumed.
/// A single type gives the value itself rather than a 1-tuple.
#[macro_export]
macro_rules! Decode {
    ( $bytes:expr $(,$ty:ty)* ) => {{
        $crate::Decode!([$crate::de::DecoderConfig::new()]; $bytes $(,$ty)*)
    }};
    // More types than a tuple has (`ArgumentDecoder`): no known header.
    ( [ $config:expr ] ; $bytes:expr, $t1:ty, $t2:ty, $t3:ty, $t4:ty, $t5:ty, $t6:ty, $t7:ty,
      $t8:ty, $t9:ty, $t10:ty, $t11:ty, $t12:ty, $t13:ty, $t14:ty, $t15:ty, $t16:ty,
      $($ty:ty),+ ) => {{
        match $crate::de::IDLDeserialize::new_with_config($bytes, &$config) {
            ::core::result::Result::Ok(ref mut de) => $crate::Decode!(@Values de [] $t1, $t2, $t3,
                $t4, $t5, $t6, $t7, $t8, $t9, $t10, $t11, $t12, $t13, $t14, $t15, $t16, $($ty,)+),
            ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
        }
    }};
    // Straight-line matches rather than a chain of `and_then` closures: each closure
    // boundary moves the decoded values (a `memory.copy` per move on wasm for any
    // value over a few words, charged by the byte). The decoder is used where it was
    // returned (`ref mut`), not moved out of the `Result`, for the same reason.
    // The types go in as a list of markers, so that the header the compiler writes
    // for them is known to the decoder (`TypeList`), and each value comes out
    // through its marker, so that a type left to inference (`_`) is one type.
    ( [ $config:expr ] ; $bytes:expr $(,$ty:ty)* ) => {{
        let __types = $crate::Decode!(@Types $($ty,)*);
        match $crate::de::IDLDeserialize::new_for_list($bytes, &$config, &__types) {
            ::core::result::Result::Ok(ref mut de) => {
                $crate::Decode!(@Marked de (__types) [] $($ty,)*)
            }
            ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
        }
    }};
    (@Debug [ $config:expr ] ; $bytes:expr $(,$ty:ty)* ) => {{
        let __types = $crate::Decode!(@Types $($ty,)*);
        match $crate::de::IDLDeserialize::new_for_list($bytes, &$config, &__types) {
            ::core::result::Result::Ok(ref mut de) => match $crate::Decode!(@Marked de (__types) [] $($ty,)*) {
                ::core::result::Result::Ok(res) => {
                    ::core::result::Result::Ok((res, de.get_config().compute_cost(&$config)))
                }
                ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
            },
            ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
        }
    }};
    (@Types) => { () };
    (@Types $ty:ty, $($tail:ty,)*) => {
        (::core::marker::PhantomData::<$ty>, $crate::Decode!(@Types $($tail,)*))
    };
    (@Marked $de:ident ($types:expr) [$($ans:ident)*] $ty:ty, $($tail:ty,)* ) => {{
        match $de.get_value_of(&$types.0) {
            ::core::result::Result::Ok(val) => {
                $crate::Decode!(@Marked $de ($types.1) [$($ans)* val] $($tail,)*)
            }
            ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
        }
    }};
    (@Marked $de:ident ($types:expr) [$($ans:ident)*]) => {
        $crate::Decode!(@Values $de [$($ans)*])
    };
    (@Values $de:ident [$($ans:ident)*] $ty:ty, $($tail:ty,)* ) => {{
        match $de.get_value::<$ty>() {
            ::core::result::Result::Ok(val) => $crate::Decode!(@Values $de [$($ans)* val] $($tail,)*),
            ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
        }
    }};
    (@Values $de:ident [$ans:ident]) => {{
        match $de.done() {
            ::core::result::Result::Ok(()) => ::core::result::Result::Ok($ans),
            ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
        }
    }};
    (@Values $de:ident [$($ans:ident)*]) => {{
        match $de.done() {
            ::core::result::Result::Ok(()) => ::core::result::Result::Ok(($($ans),*)),
            ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
        }
    }};
}

/// Encodes a tuple of arguments.
pub fn encode_args<Tuple: ArgumentEncoder>(arguments: Tuple) -> Result<Vec<u8>> {
    ser::encode_args_owned(&arguments)
}

/// Encodes a tuple of arguments given by reference.
pub fn encode_args_ref<Tuple: ArgumentEncoder>(arguments: &Tuple) -> Result<Vec<u8>> {
    ser::encode_args_owned(arguments)
}

/// Encodes one argument.
pub fn encode_one<T: CandidType>(argument: T) -> Result<Vec<u8>> {
    ser::encode_args_owned(&(argument,))
}

/// Appends the message encoding `arguments` to `out`, for a canister that answers in
/// a loop: reuse one buffer (`out.clear()` between messages) and, once it has grown to
/// the largest message, encoding allocates nothing. On an error `out` is left as it was.
///
/// ```
/// let mut out = Vec::new();
/// for i in 0..3u64 {
///     out.clear();
///     candor::encode_args_into(&(i, "ok"), &mut out).unwrap();
///     assert_eq!(out, candor::encode_args((i, "ok")).unwrap());
/// }
/// ```
pub fn encode_args_into<Tuple: ArgumentEncoder>(
    arguments: &Tuple,
    out: &mut Vec<u8>,
) -> Result<()> {
    ser::append_message(arguments, out)
}

/// Writes a tuple of arguments to `writer`.
pub fn write_args<Tuple: ArgumentEncoder, W: std::io::Write>(
    writer: &mut W,
    arguments: Tuple,
) -> Result<()> {
    writer.write_all(&encode_args(arguments)?)?;
    Ok(())
}

/// Writes a tuple of arguments given by reference to `writer`.
pub fn write_args_ref<Tuple: ArgumentEncoder, W: std::io::Write>(
    writer: &mut W,
    arguments: &Tuple,
) -> Result<()> {
    writer.write_all(&encode_args_ref(arguments)?)?;
    Ok(())
}

/// Decodes a message into a tuple of arguments (no quota).
pub fn decode_args<'a, Tuple: ArgumentDecoder<'a>>(bytes: &'a [u8]) -> Result<Tuple> {
    decode_args_with_config(bytes, &DecoderConfig::new())
}

/// Decodes a message into a tuple of arguments under `config`'s limits.
pub fn decode_args_with_config<'a, Tuple: ArgumentDecoder<'a>>(
    bytes: &'a [u8],
    config: &DecoderConfig,
) -> Result<Tuple> {
    // The decoder is used in the `Result` it was returned in: moving it out would
    // copy it (a `memory.copy` on wasm, charged by the byte) on every call.
    match IDLDeserialize::new_for::<Tuple>(bytes, config) {
        Ok(ref mut de) => {
            let res = Tuple::decode(de)?;
            de.done()?;
            Ok(res)
        }
        Err(e) => Err(e),
    }
}

/// Like [`decode_args_with_config`], also returning the work consumed.
pub fn decode_args_with_config_debug<'a, Tuple: ArgumentDecoder<'a>>(
    bytes: &'a [u8],
    config: &DecoderConfig,
) -> Result<(Tuple, DecoderConfig)> {
    match IDLDeserialize::new_for::<Tuple>(bytes, config) {
        Ok(ref mut de) => {
            let res = Tuple::decode(de)?;
            de.done()?;
            let cost = de.get_config().compute_cost(config);
            Ok((res, cost))
        }
        Err(e) => Err(e),
    }
}

/// Decodes a message holding one argument.
pub fn decode_one<'a, T: Deserialize<'a> + CandidType>(bytes: &'a [u8]) -> Result<T> {
    let (res,) = decode_args(bytes)?;
    Ok(res)
}

/// Decodes a message holding one argument under `config`'s limits.
pub fn decode_one_with_config<'a, T: Deserialize<'a> + CandidType>(
    bytes: &'a [u8],
    config: &DecoderConfig,
) -> Result<T> {
    let (res,) = decode_args_with_config(bytes, config)?;
    Ok(res)
}

fn quota_config(decoding: Option<usize>, skipping: Option<usize>) -> DecoderConfig {
    let mut config = DecoderConfig::new();
    if let Some(n) = decoding {
        config.set_decoding_quota(n);
    }
    if let Some(m) = skipping {
        config.set_skipping_quota(m);
    }
    config
}

/// ic-cdk's `decode_with` helper: decodes with a decoding quota of `N` and traps
/// (panics) on failure, as the canister would reject the call.
pub fn decode_args_with_decoding_quota<const N: usize, Tuple>(byte_vec: Vec<u8>) -> Tuple
where
    Tuple: for<'a> ArgumentDecoder<'a>,
{
    expect_decoded(decode_args_with_config(
        &byte_vec,
        &quota_config(Some(N), None),
    ))
}

/// ic-cdk's `decode_with` helper with a skipping quota of `M`.
pub fn decode_args_with_skipping_quota<const M: usize, Tuple>(byte_vec: Vec<u8>) -> Tuple
where
    Tuple: for<'a> ArgumentDecoder<'a>,
{
    expect_decoded(decode_args_with_config(
        &byte_vec,
        &quota_config(None, Some(M)),
    ))
}

/// ic-cdk's `decode_with` helper with both quotas.
pub fn decode_args_with_decoding_and_skipping_quota<const N: usize, const M: usize, Tuple>(
    byte_vec: Vec<u8>,
) -> Tuple
where
    Tuple: for<'a> ArgumentDecoder<'a>,
{
    expect_decoded(decode_args_with_config(
        &byte_vec,
        &quota_config(Some(N), Some(M)),
    ))
}

/// ic-cdk's `decode_with` helper for one argument with a decoding quota of `N`.
pub fn decode_one_with_decoding_quota<const N: usize, T>(byte_vec: Vec<u8>) -> T
where
    T: for<'a> Deserialize<'a> + CandidType,
{
    expect_decoded(decode_one_with_config(
        &byte_vec,
        &quota_config(Some(N), None),
    ))
}

/// ic-cdk's `decode_with` helper for one argument with a skipping quota of `M`.
pub fn decode_one_with_skipping_quota<const M: usize, T>(byte_vec: Vec<u8>) -> T
where
    T: for<'a> Deserialize<'a> + CandidType,
{
    expect_decoded(decode_one_with_config(
        &byte_vec,
        &quota_config(None, Some(M)),
    ))
}

/// ic-cdk's `decode_with` helper for one argument with both quotas.
pub fn decode_one_with_decoding_and_skipping_quota<const N: usize, const M: usize, T>(
    byte_vec: Vec<u8>,
) -> T
where
    T: for<'a> Deserialize<'a> + CandidType,
{
    expect_decoded(decode_one_with_config(
        &byte_vec,
        &quota_config(Some(N), Some(M)),
    ))
}

/// The `decode_with` helpers have no `Result` in their signature (ic-cdk calls them
/// as `fn(Vec<u8>) -> T`): a failed decode must reject the call, which in a canister
/// is a trap. This is the one deliberate panic of the crate.
#[track_caller]
fn expect_decoded<T>(r: Result<T>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic!("failed to decode call arguments: {e}"),
    }
}
