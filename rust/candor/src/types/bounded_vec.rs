//! Vectors with bounds checked while they decode (candid's `types::bounded_vec`).
//!
//! A canister that takes a `vec` from an untrusted caller can declare the argument as
//! `BoundedVec<LEN, TOTAL, ELEMENT, T>`: it has the Candid type `vec T` and encodes as
//! a `Vec<T>`, but decoding fails as soon as the message holds more than `LEN`
//! elements, more than `TOTAL` bytes of element data in all, or an element of more
//! than `ELEMENT` bytes. [`UNBOUNDED`] leaves a bound out.
//!
//! ```
//! use candor::types::bounded_vec::{BoundedVec, UNBOUNDED};
//! use candor::{Decode, Encode};
//!
//! let bytes = Encode!(&vec![7u64; 11]).unwrap();
//! let err = Decode!(&bytes, BoundedVec<10, UNBOUNDED, UNBOUNDED, u64>).unwrap_err();
//! assert!(err.to_string().contains("exceeds maximum allowed 10"));
//! ```

use super::{CandidType, Serializer, Type, TypeInner};
use ic_principal::Principal;
use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// The value of a bound that does not apply.
pub const UNBOUNDED: usize = usize::MAX;

/// A `Vec<T>` whose decoding is bounded; see the [module docs](self).
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub struct BoundedVec<
    const MAX_ALLOWED_LEN: usize,
    const MAX_ALLOWED_TOTAL_DATA_SIZE: usize,
    const MAX_ALLOWED_ELEMENT_DATA_SIZE: usize,
    T,
>(Vec<T>);

impl<const LEN: usize, const TOTAL: usize, const ELEMENT: usize, T>
    BoundedVec<LEN, TOTAL, ELEMENT, T>
{
    /// Wraps `data` (the bounds are not checked: they guard decoding).
    ///
    /// # Panics
    /// When all three bounds are [`UNBOUNDED`], as in candid: such a vector guards
    /// nothing, and the type is a mistake.
    pub fn new(data: Vec<T>) -> Self {
        assert!(
            LEN != UNBOUNDED || TOTAL != UNBOUNDED || ELEMENT != UNBOUNDED,
            "BoundedVec must be bounded by at least one parameter."
        );
        BoundedVec(data)
    }

    /// The elements (read-only, so the bounds checked on decoding stay true).
    pub fn get(&self) -> &Vec<T> {
        &self.0
    }

    /// The elements, without the bounds.
    pub fn into_inner(self) -> Vec<T> {
        self.0
    }
}

impl<const LEN: usize, const TOTAL: usize, const ELEMENT: usize, T: CandidType> CandidType
    for BoundedVec<LEN, TOTAL, ELEMENT, T>
{
    fn _ty() -> Type {
        TypeInner::Vec(T::ty()).into()
    }
    static_owned!(StaticKind::Vec(link::<T>()));
    shallow!(vec T);

    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        self.0.idl_serialize(serializer)
    }
}

/// The size an element counts for against a [`BoundedVec`]'s data bounds: the bytes
/// of a number, string or principal; for a vector, its `Vec` header plus its
/// elements (the same sizes candid counts).
pub trait DataSize {
    /// The size this value counts for, in bytes.
    fn data_size(&self) -> usize;
}

impl DataSize for u8 {
    fn data_size(&self) -> usize {
        1
    }
}

impl DataSize for u64 {
    fn data_size(&self) -> usize {
        8
    }
}

impl DataSize for [u8] {
    fn data_size(&self) -> usize {
        self.len()
    }
}

impl DataSize for &str {
    fn data_size(&self) -> usize {
        self.len()
    }
}

impl DataSize for String {
    fn data_size(&self) -> usize {
        self.len()
    }
}

impl DataSize for Principal {
    fn data_size(&self) -> usize {
        self.as_slice().len()
    }
}

impl<T: DataSize> DataSize for Vec<T> {
    fn data_size(&self) -> usize {
        self.iter().fold(std::mem::size_of::<Self>(), |n, x| {
            n.saturating_add(x.data_size())
        })
    }
}

impl<'de, const LEN: usize, const TOTAL: usize, const ELEMENT: usize, T> Deserialize<'de>
    for BoundedVec<LEN, TOTAL, ELEMENT, T>
where
    T: Deserialize<'de> + DataSize,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(Bounded::<LEN, TOTAL, ELEMENT, T>(PhantomData))
    }
}

struct Bounded<const LEN: usize, const TOTAL: usize, const ELEMENT: usize, T>(PhantomData<T>);

impl<'de, const LEN: usize, const TOTAL: usize, const ELEMENT: usize, T> Visitor<'de>
    for Bounded<LEN, TOTAL, ELEMENT, T>
where
    T: Deserialize<'de> + DataSize,
{
    type Value = BoundedVec<LEN, TOTAL, ELEMENT, T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&describe(LEN, TOTAL, ELEMENT))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        use serde::de::Error;
        // The decoder's size hint is already checked against the input; the bound
        // caps what a small `LEN` needs.
        let hint = seq.size_hint().unwrap_or(0).min(LEN);
        let mut elements = Vec::with_capacity(hint);
        let mut total = 0usize;
        while let Some(element) = seq.next_element::<T>()? {
            if elements.len() >= LEN {
                return Err(S::Error::custom(format!(
                    "The number of elements exceeds maximum allowed {LEN}"
                )));
            }
            let size = element.data_size();
            if size > ELEMENT {
                return Err(S::Error::custom(format!(
                    "The single element data size exceeds maximum allowed {ELEMENT}"
                )));
            }
            total = total.saturating_add(size);
            if total > TOTAL {
                return Err(S::Error::custom(format!(
                    "The total data size exceeds maximum allowed {TOTAL}"
                )));
            }
            elements.push(element);
        }
        Ok(BoundedVec::new(elements))
    }
}

/// What a bounded sequence expects, for serde's "invalid type" messages.
fn describe(len: usize, total: usize, element: usize) -> String {
    let bounds: Vec<String> = [
        (len, "elements"),
        (total, "bytes total"),
        (element, "bytes per element"),
    ]
    .iter()
    .filter(|(n, _)| *n != UNBOUNDED)
    .map(|(n, what)| format!("max {n} {what}"))
    .collect();
    format!("a sequence with {}", bounds.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Decode, Encode};

    #[test]
    fn describes_the_bounds_that_apply() {
        assert_eq!(
            describe(3, UNBOUNDED, UNBOUNDED),
            "a sequence with max 3 elements"
        );
        assert_eq!(
            describe(UNBOUNDED, 10, 4),
            "a sequence with max 10 bytes total, max 4 bytes per element"
        );
    }

    #[test]
    fn encodes_as_a_vec() {
        let v = BoundedVec::<4, UNBOUNDED, UNBOUNDED, u64>::new(vec![1, 2]);
        assert_eq!(Encode!(&v).unwrap(), Encode!(&vec![1u64, 2]).unwrap());
    }

    #[test]
    fn each_bound_rejects_and_admits_at_its_edge() {
        let four = Encode!(&vec![1u64; 4]).unwrap();
        let ok = Decode!(&four, BoundedVec<4, UNBOUNDED, UNBOUNDED, u64>).unwrap();
        assert_eq!(ok.get(), &vec![1u64; 4]);
        let err = Decode!(&four, BoundedVec<3, UNBOUNDED, UNBOUNDED, u64>).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("The number of elements exceeds maximum allowed 3"));

        assert!(Decode!(&four, BoundedVec<UNBOUNDED, 32, UNBOUNDED, u64>).is_ok());
        let err = Decode!(&four, BoundedVec<UNBOUNDED, 31, UNBOUNDED, u64>).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("The total data size exceeds maximum allowed 31"));

        let texts = Encode!(&vec!["ab".to_string(), "abc".to_string()]).unwrap();
        assert!(Decode!(&texts, BoundedVec<UNBOUNDED, UNBOUNDED, 3, String>).is_ok());
        let err = Decode!(&texts, BoundedVec<UNBOUNDED, UNBOUNDED, 2, String>).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("The single element data size exceeds maximum allowed 2"));
    }

    #[test]
    fn nested_vectors_count_their_header() {
        let v: Vec<Vec<u8>> = vec![vec![1, 2, 3]];
        assert_eq!(v.data_size(), 2 * std::mem::size_of::<Vec<u8>>() + 3);
    }

    #[test]
    #[should_panic(expected = "bounded by at least one parameter")]
    fn a_vector_with_no_bound_is_refused() {
        let _ = BoundedVec::<UNBOUNDED, UNBOUNDED, UNBOUNDED, u8>::new(vec![1]);
    }
}
