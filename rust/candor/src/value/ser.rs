//! `CandidType for IDLValue`: a value writes itself; its type comes from
//! [`IDLValue::value_ty`] (or from an annotation), never from `ty()`.

use super::{IDLField, IDLValue};
use crate::types::number::Int;
use crate::types::{CandidType, Compound, Field, Function, Serializer, Type, TypeInner};

impl IDLValue {
    /// The type a value has on its own, used when it is encoded without a type
    /// ([`IDLBuilder::value_arg`](crate::IDLBuilder::value_arg)). An undetermined
    /// number is an `int`; `None` is `opt empty`; a vector takes the type of its
    /// first element (`vec empty` when empty); a variant has the one case it holds.
    pub fn value_ty(&self) -> Type {
        match self {
            IDLValue::Null => TypeInner::Null,
            IDLValue::Bool(_) => TypeInner::Bool,
            IDLValue::Number(_) | IDLValue::Int(_) => TypeInner::Int,
            IDLValue::Nat(_) => TypeInner::Nat,
            IDLValue::Nat8(_) => TypeInner::Nat8,
            IDLValue::Nat16(_) => TypeInner::Nat16,
            IDLValue::Nat32(_) => TypeInner::Nat32,
            IDLValue::Nat64(_) => TypeInner::Nat64,
            IDLValue::Int8(_) => TypeInner::Int8,
            IDLValue::Int16(_) => TypeInner::Int16,
            IDLValue::Int32(_) => TypeInner::Int32,
            IDLValue::Int64(_) => TypeInner::Int64,
            IDLValue::Float32(_) => TypeInner::Float32,
            IDLValue::Float64(_) => TypeInner::Float64,
            IDLValue::Text(_) => TypeInner::Text,
            IDLValue::None => TypeInner::Opt(TypeInner::Empty.into()),
            IDLValue::Reserved => TypeInner::Reserved,
            IDLValue::Opt(v) => TypeInner::Opt(v.value_ty()),
            IDLValue::Blob(_) => TypeInner::Vec(TypeInner::Nat8.into()),
            IDLValue::Vec(vs) => TypeInner::Vec(match vs.first() {
                Some(v) => v.value_ty(),
                None => TypeInner::Empty.into(),
            }),
            IDLValue::Record(fs) => TypeInner::Record(
                fs.iter()
                    .map(|IDLField { id, val }| Field {
                        id: id.clone().into(),
                        ty: val.value_ty(),
                    })
                    .collect(),
            ),
            IDLValue::Variant(v) => TypeInner::Variant(vec![Field {
                id: v.0.id.clone().into(),
                ty: v.0.val.value_ty(),
            }]),
            IDLValue::Principal(_) => TypeInner::Principal,
            IDLValue::Service(_) => TypeInner::Service(Vec::new()),
            IDLValue::Func(_, _) => TypeInner::Func(Function {
                modes: Vec::new(),
                args: Vec::new(),
                rets: Vec::new(),
            }),
        }
        .into()
    }
}

impl CandidType for IDLValue {
    /// `Unknown`: an `IDLValue` takes the type it is given (the wire type when
    /// decoding, [`value_ty`](IDLValue::value_ty) or an annotation when encoding).
    fn ty() -> Type {
        TypeInner::Unknown.into()
    }
    fn _ty() -> Type {
        TypeInner::Unknown.into()
    }
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        match self {
            IDLValue::Null | IDLValue::Reserved => serializer.serialize_null(()),
            IDLValue::Bool(b) => serializer.serialize_bool(*b),
            IDLValue::Number(s) => {
                let v = s.parse::<Int>().map_err(serde::ser::Error::custom)?;
                serializer.serialize_int(&v)
            }
            IDLValue::Int(i) => serializer.serialize_int(i),
            IDLValue::Nat(n) => serializer.serialize_nat(n),
            IDLValue::Nat8(n) => serializer.serialize_nat8(*n),
            IDLValue::Nat16(n) => serializer.serialize_nat16(*n),
            IDLValue::Nat32(n) => serializer.serialize_nat32(*n),
            IDLValue::Nat64(n) => serializer.serialize_nat64(*n),
            IDLValue::Int8(n) => serializer.serialize_int8(*n),
            IDLValue::Int16(n) => serializer.serialize_int16(*n),
            IDLValue::Int32(n) => serializer.serialize_int32(*n),
            IDLValue::Int64(n) => serializer.serialize_int64(*n),
            IDLValue::Float32(f) => serializer.serialize_float32(*f),
            IDLValue::Float64(f) => serializer.serialize_float64(*f),
            IDLValue::Text(s) => serializer.serialize_text(s),
            IDLValue::None => serializer.serialize_option::<IDLValue>(None),
            IDLValue::Opt(v) => serializer.serialize_option(Some(&**v)),
            IDLValue::Vec(vs) => {
                let mut ser = serializer.serialize_vec(vs.len())?;
                for v in vs {
                    ser.serialize_element(v)?;
                }
                Ok(())
            }
            IDLValue::Blob(b) => serializer.serialize_blob(b),
            IDLValue::Record(fs) => {
                let mut ser = serializer.serialize_struct()?;
                for f in fs {
                    ser.serialize_element(&f.val)?;
                }
                Ok(())
            }
            IDLValue::Variant(v) => {
                let mut ser = serializer.serialize_variant(v.1)?;
                ser.serialize_element(&v.0.val)
            }
            IDLValue::Principal(p) | IDLValue::Service(p) => {
                serializer.serialize_principal(p.as_slice())
            }
            IDLValue::Func(p, method) => serializer.serialize_function(p.as_slice(), method),
        }
    }
}
