//! `MotokoResult`: Motoko's `Result` type (`variant { ok : T; err : E }`, lowercase
//! cases), for calling canisters written in Motoko.

use super::{CandidType, Compound, Field, Label, Serializer, Type, TypeInner};
use serde::{Deserialize, Serialize};

/// Motoko's `Result<T, E>`; convert to Rust's with [`into_result`](Self::into_result).
#[allow(non_camel_case_types)]
#[derive(Deserialize, Serialize, Debug, Clone)]
pub enum MotokoResult<T, E> {
    /// Success (Rust's `Ok`).
    ok(T),
    /// Failure (Rust's `Err`).
    err(E),
}

impl<T, E> MotokoResult<T, E> {
    /// Rust's `Result` with the same content.
    pub fn into_result(self) -> Result<T, E> {
        match self {
            MotokoResult::ok(v) => Ok(v),
            MotokoResult::err(e) => Err(e),
        }
    }
}

impl<T, E> From<Result<T, E>> for MotokoResult<T, E> {
    fn from(r: Result<T, E>) -> Self {
        match r {
            Ok(v) => MotokoResult::ok(v),
            Err(e) => MotokoResult::err(e),
        }
    }
}

impl<T: CandidType, E: CandidType> CandidType for MotokoResult<T, E> {
    // `ok` hashes below `err`, so it is case 0 on the wire.
    fn _ty() -> Type {
        TypeInner::Variant(vec![
            Field {
                id: Label::Named("ok".to_string()).into(),
                ty: T::ty(),
            },
            Field {
                id: Label::Named("err".to_string()).into(),
                ty: E::ty(),
            },
        ])
        .into()
    }
    static_owned!(StaticKind::Variant(&[
        StaticField::named("ok", link::<T>()),
        StaticField::named("err", link::<E>()),
    ]));
    shallow!(
        variant(
            super::idl_hash("ok"),
            crate::types::static_type::StaticLabel::Named("ok"),
            T
        ),
        (
            super::idl_hash("err"),
            crate::types::static_type::StaticLabel::Named("err"),
            E
        )
    );
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        match self {
            MotokoResult::ok(v) => serializer.serialize_variant(0)?.serialize_element(v),
            MotokoResult::err(e) => serializer.serialize_variant(1)?.serialize_element(e),
        }
    }
}
