//! Function and service references.
//!
//! Decoded through the `visit_byte_buf` tag protocol shared with candid: tag 5 then
//! the method name (LEB128 length + bytes) then the principal for a func, tag 4 then
//! the principal for a service.

use super::bytes_tag::BytesTag;
use super::{CandidType, Serializer, Type, TypeInner};
use crate::wire::leb;
use ic_principal::Principal;
use serde::de::{self, Deserialize, Visitor};
use std::fmt;

/// A reference to a method of a canister.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Func {
    /// The canister that has the method.
    pub principal: Principal,
    /// The method's name.
    pub method: String,
}

/// A reference to a canister.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Service {
    /// The canister.
    pub principal: Principal,
}

impl CandidType for Func {
    fn _ty() -> Type {
        // Untyped: `define_function!` gives a typed newtype.
        TypeInner::Func(super::Function {
            modes: vec![],
            args: vec![],
            rets: vec![],
        })
        .into()
    }
    static_owned!(StaticKind::Func(&crate::types::static_type::StaticFunc {
        args: &[],
        rets: &[],
        mode: 0,
    }));
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_function(self.principal.as_slice(), &self.method)
    }
}

impl CandidType for Service {
    fn _ty() -> Type {
        TypeInner::Service(vec![]).into()
    }
    static_owned!(StaticKind::Service(&[]));
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_principal(self.principal.as_slice())
    }
}

/// Visitor for [`Func`].
pub struct FuncVisitor;

impl Visitor<'_> for FuncVisitor {
    type Value = Func;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Func value")
    }
    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Func, E> {
        let Some((BytesTag::Func, rest)) = BytesTag::split(bytes) else {
            return Err(E::custom("not func"));
        };
        let mut pos = 0;
        let len = leb::read_u64(rest, &mut pos).map_err(|_| E::custom("bad method length"))?;
        let end = usize::try_from(len)
            .ok()
            .and_then(|l| pos.checked_add(l))
            .filter(|&e| e <= rest.len())
            .ok_or_else(|| E::custom("method name out of range"))?;
        let method = std::str::from_utf8(rest.get(pos..end).unwrap_or_default())
            .map_err(E::custom)?
            .to_owned();
        let principal =
            Principal::try_from_slice(rest.get(end..).unwrap_or_default()).map_err(E::custom)?;
        Ok(Func { principal, method })
    }
    fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<Func, E> {
        self.visit_bytes(&bytes)
    }
}

impl<'de> Deserialize<'de> for Func {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Func, D::Error> {
        d.deserialize_any(FuncVisitor)
    }
}

struct ServiceVisitor;
impl Visitor<'_> for ServiceVisitor {
    type Value = Service;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Service value")
    }
    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Service, E> {
        match BytesTag::split(bytes) {
            Some((BytesTag::Service, rest)) => Ok(Service {
                principal: Principal::try_from_slice(rest).map_err(E::custom)?,
            }),
            _ => Err(E::custom("not service")),
        }
    }
    fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<Service, E> {
        self.visit_bytes(&bytes)
    }
}

impl<'de> Deserialize<'de> for Service {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Service, D::Error> {
        d.deserialize_any(ServiceVisitor)
    }
}

/// `define_function!(pub MyFunc : (u8, &str) -> (Nat) query)` defines
/// `pub struct MyFunc(pub Func)` with that Candid function type.
#[macro_export]
macro_rules! define_function {
    ( $vis:vis $func:ident : $ty:tt -> $rt:tt $($mode:tt)* ) => {
        #[derive(PartialEq, Eq, Debug, Clone)]
        $vis struct $func(pub $crate::types::reference::Func);
        // Written out rather than derived: serde's derive would name a `serde` (or,
        // with `#[serde(crate)]`, a fixed path) that the calling crate may not have;
        // `$crate` always resolves. It asks for a newtype struct, as the derive would.
        impl<'de> $crate::_serde::Deserialize<'de> for $func {
            fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
            where
                D: $crate::_serde::Deserializer<'de>,
            {
                $crate::types::reference::deserialize_newtype(deserializer, ::std::stringify!($func), $func)
            }
        }
        impl $crate::CandidType for $func {
            fn _ty() -> $crate::types::Type {
                $crate::func!($ty -> $rt $($mode)*)
            }
            fn _static_type() -> ::std::option::Option<&'static $crate::types::StaticType> {
                ::std::option::Option::Some($crate::__static_func!(
                    ::std::option::Option::Some(<$func as $crate::CandidType>::id);
                    $ty -> $rt $($mode)*
                ))
            }
            fn idl_serialize<S: $crate::types::Serializer>(&self, serializer: S) -> std::result::Result<(), S::Error> {
                self.0.idl_serialize(serializer)
            }
        }
        impl From<$crate::types::reference::Func> for $func {
            fn from(v: $crate::types::reference::Func) -> Self {
                Self(v)
            }
        }
        impl $func {
            pub fn new(principal: $crate::Principal, method: String) -> Self {
                $func($crate::types::reference::Func { principal, method })
            }
        }
    };
}

/// `define_service!(MyService : { "f": func!(() -> () query) })` defines
/// `pub struct MyService(pub Service)` with that service type.
#[macro_export]
macro_rules! define_service {
    // The methods are taken as tokens: `service!` reads them as names and
    // expressions, and the static description as names and `func!`s, which an
    // expression already parsed would hide.
    ( $vis:vis $serv:ident : { $($methods:tt)* } ) => {
        #[derive(PartialEq, Eq, Debug, Clone)]
        $vis struct $serv(pub $crate::types::reference::Service);
        // Written out rather than derived: serde's derive would name a `serde` (or,
        // with `#[serde(crate)]`, a fixed path) that the calling crate may not have;
        // `$crate` always resolves. It asks for a newtype struct, as the derive would.
        impl<'de> $crate::_serde::Deserialize<'de> for $serv {
            fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
            where
                D: $crate::_serde::Deserializer<'de>,
            {
                $crate::types::reference::deserialize_newtype(deserializer, ::std::stringify!($serv), $serv)
            }
        }
        impl $crate::CandidType for $serv {
            fn _ty() -> $crate::types::Type {
                $crate::service!{ $($methods)* }
            }
            fn _static_type() -> ::std::option::Option<&'static $crate::types::StaticType> {
                $crate::__static_service!(<$serv as $crate::CandidType>::id; []; $($methods)*)
            }
            fn idl_serialize<S: $crate::types::Serializer>(&self, serializer: S) -> std::result::Result<(), S::Error> {
                self.0.idl_serialize(serializer)
            }
        }
        impl From<$crate::types::reference::Service> for $serv {
            fn from(v: $crate::types::reference::Service) -> Self {
                Self(v)
            }
        }
        impl $serv {
            pub fn new(principal: $crate::Principal) -> Self {
                $serv($crate::types::reference::Service { principal })
            }
        }
    };
}

/// A function type from Rust types: `func!((u8, &str) -> (Nat) query)`.
#[macro_export]
macro_rules! func {
    ( ( $($arg:ty),* $(,)? ) -> ( $($ret:ty),* $(,)? ) $($mode:ident)? ) => {
        Into::<$crate::types::Type>::into($crate::types::TypeInner::Func($crate::types::Function {
            args: vec![$(<$arg as $crate::CandidType>::ty()),*],
            rets: vec![$(<$ret as $crate::CandidType>::ty()),*],
            modes: $crate::__func_modes!($($mode)?),
        }))
    };
}

/// The static description (`types/static_type.rs`) of the type `func!` builds from
/// the same tokens, owned by `$owner` (`None` for a service's method, built afresh
/// with its service).
#[doc(hidden)]
#[macro_export]
macro_rules! __static_func {
    ( $owner:expr; ( $($arg:ty),* $(,)? ) -> ( $($ret:ty),* $(,)? ) $($mode:ident)? ) => {
        const {
            &$crate::types::StaticType {
                owner: $owner,
                kind: $crate::types::static_type::StaticKind::Func(const {
                    &$crate::types::static_type::StaticFunc {
                        args: const { &[$($crate::types::static_type::link::<$arg>()),*] },
                        rets: const { &[$($crate::types::static_type::link::<$ret>()),*] },
                        mode: $crate::__func_mode_byte!($($mode)?),
                    }
                }),
            }
        }
    };
}

/// A mode of `func!` as a type table writes it (0 for none).
#[doc(hidden)]
#[macro_export]
macro_rules! __func_mode_byte {
    () => {
        0u8
    };
    (query) => {
        1u8
    };
    (oneway) => {
        2u8
    };
    (composite_query) => {
        3u8
    };
}

/// The static description of a `define_service!` service owned by `$owner`: its
/// methods taken one at a time (into the bracketed list) from the tokens
/// `service!` gets. Each must be a literal name and a `func!` (bare or through one
/// path segment, as `candid::func!`); any other method (a type computed by an
/// expression of its own) leaves the service without a description, and `ty()`
/// builds it. A name given twice does too: `service!` panics on it.
#[doc(hidden)]
#[macro_export]
macro_rules! __static_service {
    ( $owner:expr; [ $($done:tt)* ]; ) => {{
        const METHODS: &[$crate::types::static_type::StaticMethod] =
            &$crate::types::static_type::sort_methods([$($done)*]);
        const SERVICE: $crate::types::StaticType = $crate::types::StaticType {
            owner: ::std::option::Option::Some($owner),
            kind: $crate::types::static_type::StaticKind::Service(METHODS),
        };
        const DESCRIPTION: ::std::option::Option<&'static $crate::types::StaticType> =
            if $crate::types::static_type::has_duplicate(METHODS) {
                ::std::option::Option::None
            } else {
                ::std::option::Option::Some(&SERVICE)
            };
        DESCRIPTION
    }};
    ( $owner:expr; [ $($done:tt)* ]; $meth:literal : func ! ( $($f:tt)* ) $(; $($rest:tt)*)? ) => {
        $crate::__static_service!($owner; [ $($done)* $crate::__static_method!($meth; $($f)*), ]; $($($rest)*)?)
    };
    ( $owner:expr; [ $($done:tt)* ]; $meth:literal : $p:ident :: func ! ( $($f:tt)* ) $(; $($rest:tt)*)? ) => {
        $crate::__static_service!($owner; [ $($done)* $crate::__static_method!($meth; $($f)*), ]; $($($rest)*)?)
    };
    ( $owner:expr; [ $($done:tt)* ]; $($other:tt)* ) => {
        ::std::option::Option::None
    };
}

/// One method of [`__static_service!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __static_method {
    ( $meth:literal; $($f:tt)* ) => {
        $crate::types::static_type::StaticMethod {
            name: ::std::concat!($meth),
            ty: $crate::types::static_type::StaticRef::Inline($crate::__static_func!(
                ::std::option::Option::None; $($f)*
            )),
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __func_modes {
    () => {
        vec![]
    };
    (query) => {
        vec![$crate::types::FuncMode::Query]
    };
    (composite_query) => {
        vec![$crate::types::FuncMode::CompositeQuery]
    };
    (oneway) => {
        vec![$crate::types::FuncMode::Oneway]
    };
}

/// A service type: `service!{ "f": func!((HttpRequest) -> ()) }`. Methods are sorted
/// by name; a duplicate name panics.
#[macro_export]
macro_rules! service {
    { $($meth:tt : $ty:expr);* $(;)? } => {{
        let mut ms: Vec<(String, $crate::types::Type)> = vec![ $(($meth.to_string(), $ty)),* ];
        ms.sort_by(|a, b| a.0.cmp(&b.0));
        for w in ms.windows(2) {
            if w[0].0 == w[1].0 {
                panic!("duplicate method name {}", w[0].0);
            }
        }
        Into::<$crate::types::Type>::into($crate::types::TypeInner::Service(ms))
    }}
}

/// `Deserialize` for the newtypes `define_function!`/`define_service!` define, as
/// serde's derive would write it for `struct F(pub Func)`: a newtype struct (or a
/// one-element sequence) holding the inner value.
#[doc(hidden)]
pub fn deserialize_newtype<'de, D, T, W>(
    deserializer: D,
    name: &'static str,
    wrap: fn(T) -> W,
) -> Result<W, D::Error>
where
    D: de::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct NewtypeVisitor<T, W>(fn(T) -> W);
    impl<'de, T: Deserialize<'de>, W> Visitor<'de> for NewtypeVisitor<T, W> {
        type Value = W;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a newtype struct")
        }
        fn visit_newtype_struct<D2: de::Deserializer<'de>>(self, d: D2) -> Result<W, D2::Error> {
            T::deserialize(d).map(self.0)
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<W, A::Error> {
            match seq.next_element()? {
                Some(v) => Ok((self.0)(v)),
                None => Err(de::Error::invalid_length(0, &self)),
            }
        }
    }
    deserializer.deserialize_newtype_struct(name, NewtypeVisitor(wrap))
}
