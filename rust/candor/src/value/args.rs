//! `IDLArgs`: a whole message of dynamic values, to and from bytes.

use super::{IDLArgs, IDLValue};
use crate::de::{DecoderConfig, IDLDeserialize};
use crate::ser::IDLBuilder;
use crate::types::{CandidType, Type, TypeEnv, TypeInner};
use crate::{Error, Result};

impl IDLArgs {
    /// Annotates each argument with its type (see [`IDLValue::annotate_type`]).
    /// Types beyond the values must be `null`, `reserved` or `opt`: they give
    /// `null`, `reserved` and `none` values.
    pub fn annotate_types(self, from_parser: bool, env: &TypeEnv, types: &[Type]) -> Result<Self> {
        let mut args = Vec::with_capacity(types.len());
        for (v, ty) in self.args.iter().zip(types) {
            args.push(v.annotate_type(from_parser, env, ty)?);
        }
        for ty in types.iter().skip(self.args.len()) {
            args.push(match env.trace_type(ty)?.as_ref() {
                TypeInner::Null => IDLValue::Null,
                TypeInner::Reserved => IDLValue::Reserved,
                TypeInner::Opt(_) => IDLValue::None,
                _ => return Err(Error::msg(format!("Omitted values cannot be of type {ty}"))),
            });
        }
        Ok(IDLArgs { args })
    }

    /// The type each argument has on its own ([`IDLValue::value_ty`]).
    pub fn get_types(&self) -> Vec<Type> {
        self.args.iter().map(IDLValue::value_ty).collect()
    }

    /// Encodes the arguments at the given types (`env` defines their names). Values
    /// beyond the types are dropped; fewer values than types is an error. Not the
    /// same as `annotate_types(true, …)` then [`to_bytes`](Self::to_bytes): the
    /// type table holds the given types (recursive ones included).
    pub fn to_bytes_with_types(&self, env: &TypeEnv, types: &[Type]) -> Result<Vec<u8>> {
        if types.len() > self.args.len() {
            return Err(Error::msg("wrong number of argument values"));
        }
        let mut idl = IDLBuilder::new();
        let empty = TypeEnv::new();
        for (i, (v, ty)) in self.args.iter().zip(types).enumerate() {
            // The builder keeps the definitions: pass them once.
            idl.value_arg_with_type(v, if i == 0 { env } else { &empty }, ty)?;
        }
        idl.serialize_to_vec()
    }

    /// Encodes the arguments, each at the type it has on its own.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut idl = IDLBuilder::new();
        for v in &self.args {
            idl.value_arg(v)?;
        }
        idl.serialize_to_vec()
    }

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
        let bytes = crate::Encode!(data)?;
        let args = IDLArgs::from_bytes_with_types(&bytes, &TypeEnv::new(), &[T::ty()])?;
        args.args
            .into_iter()
            .next()
            .ok_or_else(|| Error::msg("no value decoded"))
    }
}
