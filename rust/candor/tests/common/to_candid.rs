//! candor's type model and values converted to candid's, so a test can give both
//! crates the same input (the two models have the same shapes under the same names).

use candid::types as c;
use candor::types::{
    Field, FieldDoc, FuncMode, Function, Label, Type, TypeDoc, TypeDocs, TypeEnv, TypeInner,
};
use candor::{IDLArgs, IDLField, IDLValue};
use std::rc::Rc;

pub fn label(l: &Label) -> c::Label {
    match l {
        Label::Id(n) => c::Label::Id(*n),
        Label::Unnamed(n) => c::Label::Unnamed(*n),
        Label::Named(s) => c::Label::Named(s.clone()),
    }
}

fn fields(fs: &[Field]) -> Vec<c::Field> {
    fs.iter().map(field).collect()
}

pub fn field(f: &Field) -> c::Field {
    c::Field {
        id: Rc::new(label(&f.id)),
        ty: ty(&f.ty),
    }
}

fn types(ts: &[Type]) -> Vec<c::Type> {
    ts.iter().map(ty).collect()
}

pub fn mode(m: &FuncMode) -> c::FuncMode {
    match m {
        FuncMode::Oneway => c::FuncMode::Oneway,
        FuncMode::Query => c::FuncMode::Query,
        FuncMode::CompositeQuery => c::FuncMode::CompositeQuery,
    }
}

pub fn function(f: &Function) -> c::Function {
    c::Function {
        modes: f.modes.iter().map(mode).collect(),
        args: types(&f.args),
        rets: types(&f.rets),
    }
}

pub fn ty(t: &Type) -> c::Type {
    c::Type::from(inner(t.as_ref()))
}

pub fn inner(t: &TypeInner) -> c::TypeInner {
    use c::TypeInner as C;
    match t {
        TypeInner::Null => C::Null,
        TypeInner::Bool => C::Bool,
        TypeInner::Nat => C::Nat,
        TypeInner::Int => C::Int,
        TypeInner::Nat8 => C::Nat8,
        TypeInner::Nat16 => C::Nat16,
        TypeInner::Nat32 => C::Nat32,
        TypeInner::Nat64 => C::Nat64,
        TypeInner::Int8 => C::Int8,
        TypeInner::Int16 => C::Int16,
        TypeInner::Int32 => C::Int32,
        TypeInner::Int64 => C::Int64,
        TypeInner::Float32 => C::Float32,
        TypeInner::Float64 => C::Float64,
        TypeInner::Text => C::Text,
        TypeInner::Reserved => C::Reserved,
        TypeInner::Empty => C::Empty,
        TypeInner::Principal => C::Principal,
        TypeInner::Unknown => C::Unknown,
        TypeInner::Future => C::Future,
        TypeInner::Var(s) => C::Var(s.clone()),
        TypeInner::Opt(t) => C::Opt(ty(t)),
        TypeInner::Vec(t) => C::Vec(ty(t)),
        TypeInner::Record(fs) => C::Record(fields(fs)),
        TypeInner::Variant(fs) => C::Variant(fields(fs)),
        TypeInner::Func(f) => C::Func(function(f)),
        TypeInner::Service(ms) => C::Service(ms.iter().map(|(n, t)| (n.clone(), ty(t))).collect()),
        TypeInner::Class(args, t) => C::Class(types(args), ty(t)),
        // A knot names a Rust type; the two crates name those differently (and
        // candid's ids cannot be built from outside), so knots are not compared.
        TypeInner::Knot(_) => panic!("knots are not converted"),
    }
}

pub fn env(e: &TypeEnv) -> c::TypeEnv {
    c::TypeEnv(e.0.iter().map(|(k, v)| (k.clone(), ty(v))).collect())
}

pub fn type_doc(d: &TypeDoc) -> c::TypeDoc {
    c::TypeDoc {
        docs: d.docs.clone(),
        fields: d.fields.iter().map(|(k, v)| (*k, field_doc(v))).collect(),
    }
}

fn field_doc(d: &FieldDoc) -> c::FieldDoc {
    c::FieldDoc {
        docs: d.docs.clone(),
        ty: d.ty.as_deref().map(|t| Box::new(type_doc(t))),
    }
}

pub fn type_docs(d: &TypeDocs) -> c::TypeDocs {
    c::TypeDocs {
        named: d
            .named
            .iter()
            .map(|(k, v)| (k.clone(), type_doc(v)))
            .collect(),
    }
}

pub fn value(v: &IDLValue) -> candid::IDLValue {
    use candid::IDLValue as C;
    match v {
        IDLValue::Bool(b) => C::Bool(*b),
        IDLValue::Null => C::Null,
        IDLValue::Text(s) => C::Text(s.clone()),
        IDLValue::Number(s) => C::Number(s.clone()),
        IDLValue::Float64(f) => C::Float64(*f),
        IDLValue::Opt(v) => C::Opt(Box::new(value(v))),
        IDLValue::Vec(vs) => C::Vec(vs.iter().map(value).collect()),
        IDLValue::Record(fs) => C::Record(fs.iter().map(idl_field).collect()),
        IDLValue::Variant(v) => C::Variant(candid::types::value::VariantValue(
            Box::new(idl_field(&v.0)),
            v.1,
        )),
        IDLValue::Blob(b) => C::Blob(b.clone()),
        IDLValue::Principal(p) => C::Principal(*p),
        IDLValue::Service(p) => C::Service(*p),
        IDLValue::Func(p, m) => C::Func(*p, m.clone()),
        IDLValue::None => C::None,
        IDLValue::Int(i) => C::Int(candid::Int(i.0.clone())),
        IDLValue::Nat(n) => C::Nat(candid::Nat(n.0.clone())),
        IDLValue::Nat8(n) => C::Nat8(*n),
        IDLValue::Nat16(n) => C::Nat16(*n),
        IDLValue::Nat32(n) => C::Nat32(*n),
        IDLValue::Nat64(n) => C::Nat64(*n),
        IDLValue::Int8(n) => C::Int8(*n),
        IDLValue::Int16(n) => C::Int16(*n),
        IDLValue::Int32(n) => C::Int32(*n),
        IDLValue::Int64(n) => C::Int64(*n),
        IDLValue::Float32(f) => C::Float32(*f),
        IDLValue::Reserved => C::Reserved,
    }
}

pub fn idl_field(f: &IDLField) -> candid::types::value::IDLField {
    candid::types::value::IDLField {
        id: label(&f.id),
        val: value(&f.val),
    }
}

pub fn args(a: &IDLArgs) -> candid::IDLArgs {
    candid::IDLArgs {
        args: a.args.iter().map(value).collect(),
    }
}
