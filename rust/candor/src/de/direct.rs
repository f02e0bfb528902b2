//! Direct decoding: an argument whose Rust type is built only from std vectors and
//! candor's own leaf types is decoded without serde's visitors.
//!
//! serde's `Deserialize` for `Vec<T>` pushes one element at a time behind a capacity
//! check and grows a vector it may only pre-size up to 1 MiB; for a vector of
//! fixed-width numbers that loop costs several times the copy the bytes need. The
//! types that know their own layout opt in through `CandidType`'s hidden
//! `_decode_direct` (vectors, numbers, `bool`, `String`, `Nat`, `Int`, `Principal`);
//! every other type keeps the serde path, so a type with a hand-written or derived
//! `Deserialize` is never bypassed.
//!
//! The direct path reads and charges through the same steps as the serde path
//! (`De::seq_begin`, and each leaf's own `Deserialize` on the same frame): on
//! success it consumed the same bytes and units and built the same value. It never
//! reports an error itself: anything it does not handle, or any failure, makes it
//! give up, and the caller rewinds the decoder (`DecodeState::mark`) and decodes the
//! argument again through serde, which then gives the error it always gave
//! (`spec/decoder.md`, fast path 16).

use super::primvec::{BoolByte, LeNum};
use super::quota;
use super::value::{De, MapBody, SeqBody};
use crate::types::number::Nat;
use crate::wire::header::{Prim, Ref};
use serde::de::Deserialize;

const TEXT: Ref = Ref::prim(Prim::Text);

/// One value to decode directly: the frame the serde path would hand its
/// `Deserialize`. Opaque outside candor; it appears in `CandidType`'s hidden
/// decoding method only.
#[doc(hidden)]
pub struct Direct<'a, 'de>(pub(super) De<'a, 'de>);

impl<'de> Direct<'_, 'de> {
    /// A leaf through its own `Deserialize`, on the frame the serde path would use.
    #[inline(always)]
    pub(crate) fn serde<T: Deserialize<'de>>(self) -> Option<T> {
        T::deserialize(self.0).ok()
    }

    /// A vector of fixed-width numbers: its bytes are its elements.
    #[inline(always)]
    pub(crate) fn vec_le<T: LeNum>(self) -> Option<Vec<T>> {
        Some(from_le::<T>(self.fixed(T::PRIM)?))
    }

    /// A vector of `bool`: one byte each, 0 or 1.
    pub(crate) fn vec_bool(self) -> Option<Vec<bool>> {
        let data = self.fixed(BoolByte::PRIM)?;
        if data.iter().any(|&b| b > 1) {
            return None;
        }
        Some(data.iter().map(|&b| b == 1).collect())
    }

    /// The bytes of a vector whose elements are the fixed-width `prim` on both
    /// sides, its level entered and left.
    #[inline(always)]
    fn fixed(self, prim: Prim) -> Option<&'de [u8]> {
        let Direct(mut de) = self;
        let SeqBody::Fixed { p, data, .. } = begin(&mut de)? else {
            return None;
        };
        if p != prim {
            return None;
        }
        de.state.leave();
        Some(data)
    }

    /// A vector whose elements are each decoded by `elem`, charged as the serde
    /// path charges them.
    #[inline(always)]
    pub(crate) fn vec_of<T>(self, elem: impl Fn(Direct<'_, 'de>) -> Option<T>) -> Option<Vec<T>> {
        let Direct(mut de) = self;
        let SeqBody::Elems {
            len,
            w,
            e,
            per_elem,
        } = begin(&mut de)?
        else {
            return None;
        };
        // `len` was checked against the bytes left only when elements take at
        // least one byte; the remaining input bounds the reservation either way.
        let mut out = Vec::with_capacity(len.min(de.state.reader.remaining()));
        for _ in 0..len {
            if per_elem != 0 {
                de.state.charge(per_elem).ok()?;
            }
            out.push(elem(Direct(De::new(&mut *de.state, w, e)))?);
        }
        de.state.leave();
        Some(out)
    }

    /// A map's entries (`vec record { K; V }`), each key and value decoded by
    /// `key` and `val`, read and charged as the serde path's `MapAccess` reads and
    /// charges them for a visitor that takes every entry and then asks for one more
    /// key (serde's map visitors do).
    ///
    /// The entries come back in wire order with duplicates kept; the caller builds
    /// its map from them, which for keys whose equality is identity (candor's leaf
    /// types and vectors of them) gives the map serde's one-by-one inserts give.
    pub(crate) fn map_of<K, V>(
        self,
        key: impl Fn(Direct<'_, 'de>) -> Option<K>,
        val: impl Fn(Direct<'_, 'de>) -> Option<V>,
    ) -> Option<Vec<(K, V)>> {
        let Direct(mut de) = self;
        de.state.enter().ok()?;
        let MapBody {
            len,
            wire: (wk, wv),
            exp: (ek, ev),
            text_keys,
            fast,
        } = de.map_begin().ok()?;
        // A text key is read on the text frame, as `TextKeyDe` reads it.
        let (wk, ek) = if text_keys { (TEXT, TEXT) } else { (wk, ek) };
        let key_units = if text_keys || fast { 0 } else { quota::KEY };
        let value_units = if fast { 0 } else { quota::ELEMENT };
        let mut out = Vec::with_capacity(len.min(de.state.reader.remaining()));
        for _ in 0..len {
            de.state.charge(quota::KEY + key_units).ok()?;
            let k = key(Direct(De::new(&mut *de.state, wk, ek)))?;
            if value_units != 0 {
                de.state.charge(value_units).ok()?;
            }
            let v = val(Direct(De::new(&mut *de.state, wv, ev)))?;
            out.push((k, v));
        }
        // The visitor's last request for a key, answered "no more".
        de.state.charge(quota::KEY).ok()?;
        de.state.leave();
        Some(out)
    }

    /// A vector of `nat` read as `nat`: the element frame's type checks hold for
    /// every element once they hold for the element types, so each element is
    /// `DecodeState::small_nat`, as `De::nat` reads and charges it; a value past `u64`
    /// takes `De::nat` itself.
    pub(crate) fn vec_nat(self) -> Option<Vec<Nat>> {
        let Direct(mut de) = self;
        let SeqBody::Elems { len, w, e, .. } = begin(&mut de)? else {
            return None;
        };
        let nat = Ref::prim(Prim::Nat);
        if w != nat || e != nat || de.state.quota.untyped {
            return None;
        }
        let mut out = Vec::with_capacity(len.min(de.state.reader.remaining()));
        for _ in 0..len {
            let n = match de.state.small_nat().ok()? {
                Some(x) => Nat::from(x),
                None => big_nat(de.state)?,
            };
            out.push(n);
        }
        de.state.leave();
        Some(out)
    }
}

/// A `nat` past `u64` in a vector of `nat`, read by `De::nat`: out of the
/// element loop, which then holds only the small read.
#[inline(never)]
fn big_nat(state: &mut super::state::DecodeState<'_>) -> Option<Nat> {
    let nat = Ref::prim(Prim::Nat);
    Nat::deserialize(De::new(state, nat, nat)).ok()
}

/// Enters a vector's nesting level and reads what comes before its elements, as
/// `De::deserialize_seq` does on the serde path.
#[inline(always)]
fn begin<'de>(de: &mut De<'_, 'de>) -> Option<SeqBody<'de>> {
    de.state.enter().ok()?;
    de.seq_begin(None, 1).ok()
}

/// The elements whose little-endian bytes are `data` (whole elements only).
#[inline(always)]
fn from_le<T: LeNum>(data: &[u8]) -> Vec<T> {
    let n = data.len() / T::SIZE;
    #[cfg(target_endian = "little")]
    {
        let mut out = Vec::<T>::with_capacity(n);
        // SAFETY: `LeNum` types are plain numbers (no padding, every bit pattern
        // valid) whose memory on a little-endian target is their Candid encoding;
        // `out` has room for `n` elements, `n * SIZE` bytes, which `data` holds and
        // which do not overlap the new allocation.
        unsafe {
            std::ptr::copy_nonoverlapping(
                data.as_ptr(),
                out.as_mut_ptr().cast::<u8>(),
                n * T::SIZE,
            );
            out.set_len(n);
        }
        out
    }
    #[cfg(not(target_endian = "little"))]
    {
        let mut rest = data;
        (0..n).filter_map(|_| T::take(&mut rest)).collect()
    }
}
