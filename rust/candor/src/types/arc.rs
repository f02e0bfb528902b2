//! serde `with` helpers for `Arc<T>` fields (`#[serde(with = "candid::types::arc")]`):
//! serde's own `Arc` support needs its `rc` feature, which a crate may not enable.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// Serializes the value the `Arc` points to.
pub fn serialize<T: Serialize, S: Serializer>(
    data: &Arc<T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    T::serialize(data, serializer)
}

/// Deserializes a value into a new `Arc`.
pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Arc<T>, D::Error> {
    T::deserialize(deserializer).map(Arc::new)
}
