//! The decoding quota's units, in one place: candid's charge for each serde call
//! (spec/limits.md §3 lists them with the call that incurs each), and the depth
//! limits beside them. Call sites name the unit; the numbers live only here.

/// Each byte of the header (magic, type table, argument types).
pub(crate) const HEADER_BYTE: usize = 4;
/// One serde call: a `bool`, a constructor's entry (`opt`, `vec`, record, variant, map), `null`, a payload
/// access, a newtype.
pub(crate) const CALL: usize = 1;
/// Resolving one side of a (wire, expected) pair that names a type variable.
pub(crate) const UNROLL: usize = 1;
/// Fetching one element of a sequence (vector element, tuple element, map value
/// when not on the fast path).
pub(crate) const ELEMENT: usize = 3;
/// One `next_key` call of a record or map (the final "no more" call included).
pub(crate) const KEY: usize = 4;
/// The identifier of a numbered field or case (a named one costs its length).
pub(crate) const ID_LABEL: usize = 4;
/// `variant_seed`: choosing a variant's case.
pub(crate) const CASE: usize = 4;
/// Per entry of a map on the fast path (text keys, or bignum values), up front.
pub(crate) const FAST_MAP_ENTRY: usize = 7;
/// candid's backtracking charge for an `opt` value that does not fit its type.
pub(crate) const OPT_BACKTRACK: usize = 10;
/// A `nat`/`int` read as `u128`/`i128`, whatever its length.
pub(crate) const BIG_FLAT: usize = 16;
/// Fixed-width primitives (`natN`, `intN`, `floatN`) cost their width in bytes.
///
/// The least a principal costs, whatever its length (candid charges its 30-byte
/// buffer).
pub(crate) const PRINCIPAL_MIN: usize = 30;
/// Multiplier for values decoded or skipped without a Rust type (candid's penalty),
/// which also count against the skipping quota.
pub(crate) const UNTYPED: usize = 50;

/// candid's untyped variant label is `"<id>,id,<accessor>"`: the separators and
/// `id` around the case id.
pub(crate) const UNTYPED_LABEL_FIXED: usize = ",id,".len();
/// The accessor in that label: `unit` for a `null` payload, `newtype` otherwise.
pub(crate) const UNTYPED_UNIT: usize = "unit".len();
pub(crate) const UNTYPED_NEWTYPE: usize = "newtype".len();
/// What a func reference costs beyond its principal and method name.
pub(crate) const FUNC_REFERENCE: usize = 2;

/// How deep an expected type (a Rust type's or a run-time `Type`) may nest before
/// it is refused while flattening it.
pub(crate) const MAX_EXPECTED_DEPTH: usize = 10_000;

/// Bound on the nesting the memoised type-level check explores; past it the answer
/// is "no" (the value-level check then decides, under the decoder's own depth limit,
/// `DEFAULT_MAX_DEPTH` unless the config sets another).
pub(crate) const MAX_SUBTYPE_DEPTH: usize = 512;
