//! Filling a method's caches ahead of its calls, for the calls that cannot keep
//! what they fill: queries.
//!
//! A method's first call does work that depends only on its types: it parses its
//! arguments' header, places their expected types among the interned ones, and
//! writes its reply's header. Later calls find all three kept. A query never
//! keeps them: the IC discards whatever a query changes, so every call of a query
//! method is a first call. What `init` and `post_upgrade` change persists, so
//! [`warm_up`] called there does that work once for every later call.

use crate::de::ArgumentDecoder;
use crate::error::Result;
use crate::ser::ArgumentEncoder;

/// Fills this thread's caches for a method that takes the arguments `Args` and
/// replies with `Reply`, as the method's first call would fill them. Both are
/// tuples, as ic-cdk decodes and encodes them: `(Account,)` for one argument,
/// `(Nat,)` for a method that returns a `Nat` (ic-cdk replies `encode_one(value)`).
///
/// Call it from `init` and `post_upgrade` for the methods whose calls should
/// start warm, queries above all:
///
/// ```
/// # use candor::{CandidType, Deserialize, Nat, Principal};
/// #[derive(CandidType, Deserialize)]
/// struct Account {
///     owner: Principal,
///     subaccount: Option<Vec<u8>>,
/// }
///
/// // In `init` and `post_upgrade`: `icrc1_balance_of(Account) -> Nat`.
/// candor::warm_up::<(Account,), (Nat,)>().unwrap();
/// ```
///
/// What is kept:
/// * the header of `Args` as candor's encoder writes it (candid's writes the same
///   bytes), parsed, for good: a message that starts with it decodes without
///   parsing it; and, when the compiler writes that header and agent-js (browsers,
///   Node tools) orders its entries otherwise, the same header in agent-js's
///   order. Up to 32 such headers are kept beside the 8 that come and go; a
///   header of primitive arguments only (no type table) is never kept, and needs
///   no parse worth keeping. A client whose header differs in any byte from both
///   parses its own, as without this call;
/// * the expected types of `Args`, placed;
/// * the header of `Reply`, for a message of its values (`encode_one(x)`,
///   `encode_args((x, y))`) and of references to them (`Encode!(&x, &y)`).
///
/// Nothing decoded or encoded changes: the caches hold what the first call would
/// have put there. An error is one the first call would have met too (a type
/// whose header cannot be written, say).
pub fn warm_up<Args, Reply>() -> Result<()>
where
    Args: ArgumentEncoder + for<'a> ArgumentDecoder<'a>,
    Reply: ArgumentEncoder,
{
    let header = crate::ser::header_bytes::<Args>()?;
    crate::de::keep_arguments::<Args>(&header)?;
    Reply::_keep_headers()
}
