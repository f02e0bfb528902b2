//! The thread's switches and counters of the decoder's fast paths: the header
//! cache (public, as candid users may turn it off), and, for tests and benchmarks
//! that compare a path with the one it shortens or check that it fires, direct
//! decoding, known headers and their counts.

use super::{header_cache, value};
use std::cell::Cell;
use std::thread::LocalKey;

/// A fast path that tests compare with the path it shortens: whether it is on (the
/// default) and how often it was taken, on this thread.
pub(super) struct Path {
    on: Cell<bool>,
    taken: Cell<u64>,
}

impl Path {
    const fn new() -> Path {
        Path {
            on: Cell::new(true),
            taken: Cell::new(0),
        }
    }
}

thread_local! {
    /// Direct decoding (fast path 16).
    pub(super) static DIRECT: Path = const { Path::new() };
    /// Known headers (fast path 29).
    pub(super) static KNOWN: Path = const { Path::new() };
    /// Plain headers held by the spare decode state (fast path 30), on with the
    /// header cache.
    pub(super) static HELD: Path = const { Path::new() };
    /// Expected types installed from a known header (fast path 29), whether or
    /// not the message's header was that one.
    static INSTALLED: Cell<u64> = const { Cell::new(0) };
}

/// Whether `path` is on.
#[inline]
pub(super) fn on(path: &'static LocalKey<Path>) -> bool {
    path.with(|p| p.on.get())
}

/// Counts `path` taken once.
#[inline]
pub(super) fn count(path: &'static LocalKey<Path>) {
    path.with(|p| p.taken.set(p.taken.get().wrapping_add(1)));
}

/// Counts one install of expected types from a known header.
pub(super) fn count_installed() {
    INSTALLED.with(|n| n.set(n.get().wrapping_add(1)));
}

fn set(path: &'static LocalKey<Path>, on: bool) {
    path.with(|p| p.on.set(on));
}

fn taken(path: &'static LocalKey<Path>) -> u64 {
    path.with(|p| p.taken.get())
}

/// Turns this thread's header cache on (the default) or off, and empties it.
///
/// A header (magic, type table, argument types) parsed on a thread is kept, and
/// a later message that starts with the same bytes, decoded under the same header
/// limits, skips parsing it; values, errors and the units charged are the same
/// either way (`spec/decoder.md`, "Header cache"). A header of primitive
/// arguments only is not kept, but the thread's spare decode state holds the last
/// one it decoded (fast path 30). Off, every header is parsed.
pub fn set_header_cache(on: bool) {
    header_cache::set_enabled(on);
    set(&HELD, on);
}

/// How many decodes on this thread took a header of primitive arguments the
/// spare decode state held instead of parsing it (fast path 30): for tests that
/// check the path fires, and only where it may.
#[doc(hidden)]
pub fn plain_headers_held() -> u64 {
    taken(&HELD)
}

/// Turns this thread's direct decoding on (the default) or off. On, an argument
/// whose type is a std vector of candor's leaf types (or of such vectors) is decoded without
/// serde's visitors, with the same value, error and units (`spec/decoder.md`,
/// fast path 16); off, every argument takes the serde path. For tests and fuzz
/// targets that compare the two.
#[doc(hidden)]
pub fn set_direct_decoding(on: bool) {
    set(&DIRECT, on);
}

/// How many arguments this thread decoded directly: for tests that check direct
/// decoding fires, and only where it may.
#[doc(hidden)]
pub fn direct_decodes() -> u64 {
    taken(&DIRECT)
}

/// How many values this thread read by the spec's coercions that candid refuses
/// (`spec/differences.md` D12): for the differential tests, which accept exactly
/// those decodes where candid fails.
#[doc(hidden)]
pub fn spec_only_reads() -> u64 {
    value::spec_only_reads()
}

/// Turns this thread's known headers on (the default) or off. On, a message whose
/// header is the one the compiler writes for the argument types it is decoded as
/// takes its wire and expected types from that header instead of parsing and
/// placing them, with the same values, errors and units (`spec/decoder.md`, fast
/// path 29); off, every header is parsed. For tests that compare the two.
#[doc(hidden)]
pub fn set_known_headers(on: bool) {
    set(&KNOWN, on);
}

/// How many decodes on this thread took their header as known instead of parsing
/// it: for tests and benchmarks that check known headers fire, and only where
/// they may.
#[doc(hidden)]
pub fn known_headers_taken() -> u64 {
    taken(&KNOWN)
}

/// How many decodes on this thread placed their argument types' expected types
/// from the header the compiler wrote for them (fast path 29), whatever header
/// the message had: for tests that check a client's other order of entries still
/// installs them.
#[doc(hidden)]
pub fn known_types_installed() -> u64 {
    INSTALLED.with(Cell::get)
}

/// How many decodes on this thread took a kept header instead of parsing: for tests
/// and benchmarks that check the cache fires.
#[doc(hidden)]
pub fn header_cache_hits() -> u64 {
    header_cache::hits()
}

/// How many decodes on this thread started from the subtype answers earlier decodes
/// of the same kept header found: for tests that check they are kept, and only
/// where they hold.
#[doc(hidden)]
pub fn header_cache_answers_taken() -> u64 {
    header_cache::answers_taken()
}
