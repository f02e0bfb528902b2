//! Vectors with a length bound checked on decode (candid's `types::bounded_vec`).
