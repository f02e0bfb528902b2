//! `IDLArgs`: a whole message of dynamic values, and their types.

use super::{IDLArgs, IDLValue};
use crate::error::{Error, Result};
use crate::types::{Type, TypeEnv, TypeInner};

impl IDLArgs {
    /// Annotates each argument with its type (see [`IDLValue::annotate_type`]).
    /// Types beyond the values must be `null`, `reserved` or `opt`: they give
    /// `null`, `reserved` and `none` values.
    pub fn annotate_types(self, from_parser: bool, env: &TypeEnv, types: &[Type]) -> Result<Self> {
        let mut args = Vec::with_capacity(types.len());
        let given = self.args.len();
        for (v, ty) in self.args.into_iter().zip(types) {
            args.push(v.annotate_type(from_parser, env, ty)?);
        }
        for ty in types.iter().skip(given) {
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
}
