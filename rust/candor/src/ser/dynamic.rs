//! Arguments typed at run time: [`IDLValue`]s added to an [`IDLBuilder`] with their
//! types, the header such a message gets (built, not cached), and
//! [`IDLArgs`]' encoding methods, which are this builder driven one value at a time.

use super::{IDLBuilder, TypeSerialize};
use crate::error::{Error, Result};
use crate::types::{self, CandidType, Type, TypeEnv, TypeId};
use crate::value::{IDLArgs, IDLValue};

/// The run-time argument types of an [`IDLBuilder`](crate::IDLBuilder) (one per
/// argument added with `value_arg*`), and the definitions they use.
#[derive(Default)]
pub(crate) struct DynamicTypes {
    pub env: TypeEnv,
    pub types: Vec<Type>,
}

impl DynamicTypes {
    /// The header of a message whose arguments are `statics` in order, a `None`
    /// standing for the next run-time type. Built afresh (not cached): the types
    /// are values. Rust types are computed without clearing the type memo, so that
    /// knots in run-time types given by `T::ty()` still resolve.
    pub(crate) fn header(&self, statics: &[Option<fn() -> Type>]) -> Result<std::rc::Rc<[u8]>> {
        let mut ts = TypeSerialize::new();
        ts.merge_env(&self.env)?;
        let mut dynamic = self.types.iter();
        for s in statics {
            match s {
                Some(ty) => ts.push_type(&ty())?,
                None => {
                    let t = dynamic
                        .next()
                        .ok_or_else(|| Error::msg("missing run-time argument type"))?;
                    ts.push_type(t)?;
                }
            }
        }
        let mut bytes = crate::wire::opcode::MAGIC.to_vec();
        bytes.extend_from_slice(&ts.finish()?);
        Ok(bytes.into())
    }
}

impl IDLBuilder {
    /// Appends a dynamic value at the type it has on its own
    /// ([`IDLValue::value_ty`](IDLValue::value_ty)).
    pub fn value_arg<'a>(&'a mut self, value: &IDLValue) -> Result<&'a mut Self> {
        self.dynamic_arg(value.value_ty(), value)
    }
    /// Appends a dynamic value at type `t`, annotating it first
    /// ([`IDLValue::annotate_type`](IDLValue::annotate_type) as parsed text).
    /// The definitions of `env` stay with the builder: later arguments can use them
    /// without passing them again.
    pub fn value_arg_with_type<'a>(
        &'a mut self,
        value: &IDLValue,
        env: &types::TypeEnv,
        t: &types::Type,
    ) -> Result<&'a mut Self> {
        let d = self.dynamic.get_or_insert_with(Default::default);
        d.env.merge(env)?;
        let v = value.annotate_type(true, &d.env, t)?;
        self.dynamic_arg(t.clone(), &v)
    }
    fn dynamic_arg(&mut self, t: types::Type, value: &IDLValue) -> Result<&mut Self> {
        self.dynamic
            .get_or_insert_with(Default::default)
            .types
            .push(t);
        self.key.push(TypeId::of::<IDLValue>());
        self.types.push(None);
        value.idl_serialize(&mut self.value_ser)?;
        Ok(self)
    }
}

impl IDLArgs {
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
}
