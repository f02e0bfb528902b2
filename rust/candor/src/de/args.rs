//! [`IDLArgs`]' decoding methods and [`IDLValue::try_from_candid_type`]: the typed
//! decoder driven one dynamic value at a time.

use super::{DecoderConfig, IDLDeserialize};
use crate::error::{Error, Result};
use crate::types::{CandidType, Type, TypeEnv};
use crate::value::{IDLArgs, IDLValue};

impl IDLArgs {
    /// Decodes a message at the given types (with subtyping, as the typed decoder).
    pub fn from_bytes_with_types(bytes: &[u8], env: &TypeEnv, types: &[Type]) -> Result<Self> {
        Self::from_bytes_with_types_with_config(bytes, env, types, &DecoderConfig::new())
    }

    /// [`from_bytes_with_types`](Self::from_bytes_with_types) under `config`'s limits.
    pub fn from_bytes_with_types_with_config(
        bytes: &[u8],
        env: &TypeEnv,
        types: &[Type],
        config: &DecoderConfig,
    ) -> Result<Self> {
        let mut de = IDLDeserialize::new_with_config(bytes, config)?;
        let mut args = Vec::with_capacity(types.len());
        for ty in types {
            args.push(de.get_value_with_type(env, ty)?);
        }
        de.done()?;
        Ok(IDLArgs { args })
    }

    /// Decodes every argument of a message at its wire type.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        Self::from_bytes_with_config(bytes, &DecoderConfig::new())
    }

    /// [`from_bytes`](Self::from_bytes) under `config`'s limits (values decoded
    /// without a type cost 50×, and count against the skipping quota, as in candid).
    pub fn from_bytes_with_config(bytes: &[u8], config: &DecoderConfig) -> Result<Self> {
        let mut de = IDLDeserialize::new_with_config(bytes, config)?;
        let mut args = Vec::new();
        while !de.is_done() {
            args.push(de.get_value::<IDLValue>()?);
        }
        de.done()?;
        Ok(IDLArgs { args })
    }
}

impl IDLValue {
    /// The dynamic value of a typed one: encodes `data`, then decodes it at `T`'s
    /// type.
    ///
    /// ```
    /// # use candor::{CandidType, IDLValue};
    /// #[derive(CandidType)]
    /// struct MyStruct { a: u8, b: String }
    /// let v = IDLValue::try_from_candid_type(&MyStruct { a: 42, b: "hello".into() })?;
    /// assert_eq!(v.to_string(), "record { a = 42 : nat8; b = \"hello\" }");
    /// # Ok::<(), candor::Error>(())
    /// ```
    pub fn try_from_candid_type<T: CandidType>(data: &T) -> Result<Self> {
        let bytes = crate::ser::encode_args_owned(&(data,))?;
        let args = IDLArgs::from_bytes_with_types(&bytes, &TypeEnv::new(), &[T::ty()])?;
        args.args
            .into_iter()
            .next()
            .ok_or_else(|| Error::msg("no value decoded"))
    }
}
