//! serde `with` helpers for `Rc<T>` fields (`#[serde(with = "candid::types::rc")]`):
//! serde's own `Rc` support needs its `rc` feature, which a crate may not enable.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::rc::Rc;

/// Serializes the value the `Rc` points to.
pub fn serialize<T: Serialize, S: Serializer>(
    data: &Rc<T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    T::serialize(data, serializer)
}

/// Deserializes a value into a new `Rc`.
pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Rc<T>, D::Error> {
    T::deserialize(deserializer).map(Rc::new)
}
