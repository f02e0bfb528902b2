//! A decode's limits and switches ([`DecoderConfig`], with candid's names and cost
//! model), and what of them a decoder keeps.

use super::header_cache;
use crate::limits::DEFAULT_MAX_DEPTH;
use crate::wire::header;

/// Default bound on the stack a decode may use below where it started.
///
/// A canister's wasm stack is 1 MiB unless it links with a larger one; a native
/// test thread has 2 MiB. Release builds use about 160 to 550 bytes per nesting level,
/// so the default holds the bench's 2,048-element recursive lists; debug builds use
/// ten times more and reach this bound sooner, with an error rather than a crash.
pub const DEFAULT_MAX_STACK: usize = if cfg!(target_family = "wasm") {
    768 * 1024
} else {
    1536 * 1024
};

/// Units of work a decode with no decoding quota may use per byte of its
/// message (see [`DecoderConfig::set_size_bound`]).
///
/// Chosen so that real messages fit with room to spare (the most units per byte
/// seen on real traffic are listed in `spec/limits.md` §1.1) while a message whose
/// values take no bytes (`vec null`, `vec record {}`) stops after a few values
/// per byte.
pub const SIZE_BOUND_PER_BYTE: usize = 128;

/// Units of work a decode with no decoding quota may use beyond
/// [`SIZE_BOUND_PER_BYTE`] × its message's length: room for small messages whose
/// expected types are larger than their bytes (a `vec null` of thousands of
/// elements, records with many absent fields).
pub const SIZE_BOUND_BASE: usize = 65_536;

/// The units a decode with no decoding quota may use for a message of `len`
/// bytes: [`SIZE_BOUND_PER_BYTE`] × `len` + [`SIZE_BOUND_BASE`]. Untyped work
/// counts once here (an explicit quota counts it 50×, as candid); skipped work has
/// a bound of its own of this size when no skipping quota is set.
pub const fn size_bound(len: usize) -> usize {
    len.saturating_mul(SIZE_BOUND_PER_BYTE)
        .saturating_add(SIZE_BOUND_BASE)
}

/// Limits for decoding, with candid's names and cost model.
#[derive(Clone, Debug)]
pub struct DecoderConfig {
    /// Remaining decoding work (see [`set_decoding_quota`](Self::set_decoding_quota)).
    pub decoding_quota: Option<usize>,
    /// Remaining skipping work (see [`set_skipping_quota`](Self::set_skipping_quota)).
    pub skipping_quota: Option<usize>,
    /// Bound on type table entries (10,000 when unset).
    pub max_type_len: Option<usize>,
    /// Bound on header bytes (64 KiB when unset).
    pub max_header_len: Option<usize>,
    pub(super) full_error_message: bool,
    pub(super) max_depth: u32,
    pub(super) max_stack: usize,
    pub(super) size_bound: bool,
}

impl Default for DecoderConfig {
    fn default() -> Self {
        Self::new()
    }
}

impl DecoderConfig {
    /// No quota, as candid, but bounded by size: with no decoding quota set, a
    /// decode may use at most [`size_bound`]`(message length)` units of work, so
    /// no short message makes it do unbounded work (see
    /// [`set_size_bound`](Self::set_size_bound)).
    pub fn new() -> Self {
        DecoderConfig {
            decoding_quota: None,
            skipping_quota: None,
            max_type_len: None,
            max_header_len: None,
            full_error_message: cfg!(not(target_arch = "wasm32")),
            max_depth: DEFAULT_MAX_DEPTH,
            max_stack: DEFAULT_MAX_STACK,
            size_bound: true,
        }
    }
    /// Whether a decode with no decoding quota is bounded by its message's size
    /// (the default, and a deliberate difference from candid, which does any
    /// amount of work a message asks for when no quota is set): at most
    /// [`size_bound`]`(bytes)` units, counted as an explicit quota counts them
    /// except that untyped work counts once instead of 50×, and, when no skipping
    /// quota is set, as many units of skipped work.
    /// `set_size_bound(false)` restores candid's behaviour. An explicit
    /// [`set_decoding_quota`](Self::set_decoding_quota) replaces the bound.
    ///
    /// ```
    /// use candor::{DecoderConfig, IDLArgs};
    /// // `vec null` claiming 2^30 elements: 14 bytes, no work they can pay for.
    /// let bomb = b"DIDL\x01\x6d\x7f\x01\x00\x80\x80\x80\x80\x04";
    /// let err = IDLArgs::from_bytes(bomb).unwrap_err();
    /// assert!(err.to_string().contains("Decoding cost exceeds the limit"));
    /// let mut config = DecoderConfig::new();
    /// config.set_size_bound(false);
    /// # let _ = &config;
    /// ```
    pub fn set_size_bound(&mut self, on: bool) -> &mut Self {
        self.size_bound = on;
        self
    }
    /// The decoding quota a decode of a `len`-byte message starts with, and
    /// whether it is the size bound (`None`: no limit).
    #[inline(always)]
    pub(super) fn quota_for(&self, len: usize) -> (Option<usize>, bool) {
        match self.decoding_quota {
            Some(q) => (Some(q), false),
            None if self.size_bound => (Some(size_bound(len)), true),
            None => (None, false),
        }
    }
    /// Limits the total work of a decode, in candid's units:
    ///
    /// ```text
    /// C(message)        = 4 × header bytes + Σ C(value)
    /// C(n : nat/int)    = LEB128 bytes        C(x : nat<N>/int<N>/float<N>) = N / 8
    /// C(b : bool)       = 1                   C(t : text)   = 1 + |t|
    /// C(null), C(reserved) = 1                C(p : principal) = max(30, |p|)
    /// C(opt v)          = 2 + C(v)            C(vec v^N)    = 2 + 3N + Σ C(v_i)
    /// C(record)         = 2 + Σ (7 + |key| + C(v_i))      (roughly: the exact
    /// C(variant)        = 2 + 5 + |key| + C(v)              units follow serde calls)
    /// ```
    /// A skipped value (extra argument, extra field, an `opt` that does not fit)
    /// costs 50× its cost. `spec/limits.md` lists the exact per-call units.
    pub fn set_decoding_quota(&mut self, n: usize) -> &mut Self {
        self.decoding_quota = Some(n);
        self
    }
    /// Limits the work spent on skipped values (1× their cost). A small value such as
    /// 10,000 is recommended on canister endpoints.
    pub fn set_skipping_quota(&mut self, n: usize) -> &mut Self {
        self.skipping_quota = Some(n);
        self
    }
    /// Bounds the number of type table entries.
    pub fn set_max_type_len(&mut self, n: usize) -> &mut Self {
        self.max_type_len = Some(n);
        self
    }
    /// Bounds the byte length of the header (default 64 KiB).
    pub fn set_max_header_len(&mut self, n: usize) -> &mut Self {
        self.max_header_len = Some(n);
        self
    }
    /// Bounds nesting depth (default [`DEFAULT_MAX_DEPTH`]).
    pub fn set_max_depth(&mut self, n: u32) -> &mut Self {
        self.max_depth = n;
        self
    }
    /// Bounds the bytes of stack a decode may use below the frame where it started
    /// (default [`DEFAULT_MAX_STACK`]). Raise it only when the decode runs on a stack
    /// with that much room.
    pub fn set_max_stack(&mut self, bytes: usize) -> &mut Self {
        self.max_stack = bytes;
        self
    }
    /// With `true`, errors also carry the decoder state (types and input around the
    /// failure). Default: on natively, off on wasm (as candid).
    pub fn set_full_error_message(&mut self, n: bool) -> &mut Self {
        self.full_error_message = n;
        self
    }
    /// The work consumed, given the config the decode started with (`self` being the
    /// config after decoding, from
    /// [`IDLDeserialize::get_config`](super::IDLDeserialize::get_config)).
    pub fn compute_cost(&self, original: &Self) -> Self {
        let used = |orig: Option<usize>, now: Option<usize>| match (orig, now) {
            (Some(o), Some(n)) => Some(o.saturating_sub(n)),
            _ => None,
        };
        DecoderConfig {
            decoding_quota: used(original.decoding_quota, self.decoding_quota),
            skipping_quota: used(original.skipping_quota, self.skipping_quota),
            ..original.clone()
        }
    }
}

/// The switches of a decoder's config that its state does not hold, one bit each:
/// a decoder is built for every message, and one byte is cheaper to write than
/// the config's fields. The header limits' values are the state's
/// (`DecodeState::limits`); their bits say whether the config set them.
#[derive(Clone, Copy)]
pub(super) struct ConfigEcho(u8);

impl ConfigEcho {
    pub(super) const FULL_ERROR_MESSAGE: u8 = 1;
    pub(super) const SIZE_BOUND: u8 = 2;
    pub(super) const MAX_TYPE_LEN: u8 = 4;
    pub(super) const MAX_HEADER_LEN: u8 = 8;

    #[inline(always)]
    pub(super) fn of(config: &DecoderConfig) -> Self {
        let bit = |on: bool, b: u8| if on { b } else { 0 };
        ConfigEcho(
            bit(config.full_error_message, Self::FULL_ERROR_MESSAGE)
                | bit(config.size_bound, Self::SIZE_BOUND)
                | bit(config.max_type_len.is_some(), Self::MAX_TYPE_LEN)
                | bit(config.max_header_len.is_some(), Self::MAX_HEADER_LEN),
        )
    }

    pub(super) fn has(self, b: u8) -> bool {
        self.0 & b != 0
    }
}

/// The header limits `config` parses under, which key the header cache.
#[inline(always)]
pub(super) fn limits_of(config: &DecoderConfig) -> header_cache::Limits {
    header_cache::Limits {
        max_type_len: config.max_type_len.unwrap_or(header::DEFAULT_MAX_TYPE_LEN),
        max_header_len: config
            .max_header_len
            .unwrap_or(header::DEFAULT_MAX_HEADER_LEN),
    }
}
