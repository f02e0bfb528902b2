//! Bounds shared by layers that do not otherwise know each other: the decoder and
//! the annotation of dynamic values (below it) walk values of the same depth.

/// Default bound on nesting (records, variants, vectors, options) while decoding.
///
/// Deep enough for the recursive lists canisters really send (a 2,048-element
/// `opt record { head; tail }` list nests about 4,100 levels), shallow enough that
/// the native and wasm stacks hold it; the same on every target.
pub const DEFAULT_MAX_DEPTH: u32 = 5_000;
