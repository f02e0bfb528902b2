//! `CandidType` for std types. The types (and the `id()` of each wrapper) follow
//! candid 0.10.39 exactly: the memo keys decide where recursive types are cut, and
//! with them the bytes of the type table.

use super::{CandidType, Compound, Field, Label, Serializer, Type, TypeInner};

macro_rules! primitive_impl {
    ($t:ty, $id:ident, $method:ident $(as $cast:ty)?) => {
        impl CandidType for $t {
            fn _ty() -> Type {
                TypeInner::$id.into()
            }
            static_prim!($id);
            #[inline]
            fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
                serializer.$method(*self $(as $cast)?)
            }
        }
    };
}

/// Fixed-width numbers whose little-endian memory is their Candid encoding.
macro_rules! le_impl {
    ($t:ty, $id:ident, $method:ident) => {
        impl CandidType for $t {
            fn _ty() -> Type {
                TypeInner::$id.into()
            }
            static_prim!($id);
            #[inline]
            fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
                serializer.$method(*self)
            }
            direct_leaf!();
            #[inline]
            fn _decode_direct_vec(d: crate::de::Direct<'_, '_>) -> Option<Vec<Self>> {
                d.vec_le()
            }
            #[inline]
            fn _le_bytes(slice: &[Self]) -> Option<&[u8]> {
                #[cfg(target_endian = "little")]
                {
                    // SAFETY: a number type has no padding and no invalid bit patterns
                    // when read as bytes; the byte slice covers exactly the memory of
                    // `slice` and borrows it for the same lifetime.
                    Some(unsafe {
                        std::slice::from_raw_parts(
                            slice.as_ptr().cast::<u8>(),
                            std::mem::size_of_val(slice),
                        )
                    })
                }
                #[cfg(not(target_endian = "little"))]
                {
                    let _ = slice;
                    None
                }
            }
        }
    };
}

primitive_impl!((), Null, serialize_null);
le_impl!(i8, Int8, serialize_int8);
le_impl!(i16, Int16, serialize_int16);
le_impl!(i32, Int32, serialize_int32);
le_impl!(i64, Int64, serialize_int64);
le_impl!(u16, Nat16, serialize_nat16);
le_impl!(u32, Nat32, serialize_nat32);
le_impl!(u64, Nat64, serialize_nat64);
le_impl!(f32, Float32, serialize_float32);
le_impl!(f64, Float64, serialize_float64);
primitive_impl!(isize, Int64, serialize_int64 as i64);
primitive_impl!(usize, Nat64, serialize_nat64 as u64);

impl CandidType for u8 {
    fn _ty() -> Type {
        TypeInner::Nat8.into()
    }
    static_prim!(Nat8);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_nat8(*self)
    }
    direct_leaf!();
    #[inline]
    fn _decode_direct_vec(d: crate::de::Direct<'_, '_>) -> Option<Vec<Self>> {
        d.vec_le()
    }
    #[inline]
    fn _le_bytes(slice: &[Self]) -> Option<&[u8]> {
        Some(slice)
    }
    fn _is_u8() -> bool {
        true
    }
}

impl CandidType for bool {
    fn _ty() -> Type {
        TypeInner::Bool.into()
    }
    static_prim!(Bool);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_bool(*self)
    }
    direct_leaf!();
    fn _decode_direct_vec(d: crate::de::Direct<'_, '_>) -> Option<Vec<Self>> {
        d.vec_bool()
    }
}

impl CandidType for i128 {
    fn _ty() -> Type {
        TypeInner::Int.into()
    }
    static_prim!(Int);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_i128(*self)
    }
}
impl CandidType for u128 {
    fn _ty() -> Type {
        TypeInner::Nat.into()
    }
    static_prim!(Nat);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_u128(*self)
    }
}

impl CandidType for String {
    fn _ty() -> Type {
        TypeInner::Text.into()
    }
    static_prim!(Text);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_text(self)
    }
    direct_leaf!();
}
impl CandidType for str {
    fn _ty() -> Type {
        TypeInner::Text.into()
    }
    static_prim!(Text);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_text(self)
    }
}
impl CandidType for std::path::Path {
    fn _ty() -> Type {
        TypeInner::Text.into()
    }
    static_prim!(Text);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        use serde::ser::Error;
        match self.to_str() {
            Some(s) => s.idl_serialize(serializer),
            None => Err(S::Error::custom("path contains invalid UTF-8 characters")),
        }
    }
}
impl CandidType for std::path::PathBuf {
    fn _ty() -> Type {
        TypeInner::Text.into()
    }
    static_prim!(Text);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        self.as_path().idl_serialize(serializer)
    }
}

impl<T: CandidType> CandidType for Option<T> {
    fn _ty() -> Type {
        TypeInner::Opt(T::ty()).into()
    }
    static_owned!(StaticKind::Opt(link::<T>()));
    shallow!(opt T);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_option(self.as_ref())
    }
}

impl<T: CandidType> CandidType for [T] {
    fn _ty() -> Type {
        TypeInner::Vec(T::ty()).into()
    }
    static_owned!(StaticKind::Vec(link::<T>()));
    shallow!(vec T);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        let mut ser = serializer.serialize_vec(self.len())?;
        if let Some(bytes) = T::_le_bytes(self) {
            if ser.try_write_raw_elements(bytes)? {
                return Ok(());
            }
        }
        let mut elements = self.iter();
        if let Some(first) = elements.next() {
            ser.serialize_element(first)?;
            // `self[1..]`, not the iterator's slice: its length is the vector's minus
            // one, where the iterator's takes a division by the element size.
            ser.reserve_for_rest(self.get(1..).unwrap_or_default());
        }
        for e in elements {
            ser.serialize_element(e)?;
        }
        Ok(())
    }
}

impl<T: CandidType> CandidType for Vec<T> {
    fn _ty() -> Type {
        TypeInner::Vec(T::ty()).into()
    }
    static_owned!(StaticKind::Vec(link::<T>()));
    shallow!(vec T);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        self.as_slice().idl_serialize(serializer)
    }
    #[inline]
    fn _has_direct() -> bool {
        T::_has_direct()
    }
    #[inline]
    fn _try_direct() -> bool {
        T::_has_direct()
    }
    #[inline]
    fn _decode_direct(d: crate::de::Direct<'_, '_>) -> Option<Self> {
        T::_decode_direct_vec(d)
    }
}

impl<T: CandidType, const N: usize> CandidType for [T; N] {
    fn _ty() -> Type {
        TypeInner::Vec(T::ty()).into()
    }
    static_owned!(StaticKind::Vec(link::<T>()));
    shallow!(vec T);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        self.as_slice().idl_serialize(serializer)
    }
}

impl CandidType for serde_bytes::ByteBuf {
    fn _ty() -> Type {
        TypeInner::Vec(TypeInner::Nat8.into()).into()
    }
    static_owned!(StaticKind::Vec(StaticRef::Inline(
        &crate::types::StaticType {
            owner: None,
            kind: StaticKind::Prim(Prim::Nat8),
        }
    )));
    shallow!(blob);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_blob(self.as_slice())
    }
}
impl CandidType for serde_bytes::Bytes {
    fn _ty() -> Type {
        TypeInner::Vec(TypeInner::Nat8.into()).into()
    }
    static_owned!(StaticKind::Vec(StaticRef::Inline(
        &crate::types::StaticType {
            owner: None,
            kind: StaticKind::Prim(Prim::Nat8),
        }
    )));
    shallow!(blob);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_blob(self)
    }
}
impl<const N: usize> CandidType for serde_bytes::ByteArray<N> {
    fn _ty() -> Type {
        TypeInner::Vec(TypeInner::Nat8.into()).into()
    }
    static_owned!(StaticKind::Vec(StaticRef::Inline(
        &crate::types::StaticType {
            owner: None,
            kind: StaticKind::Prim(Prim::Nat8),
        }
    )));
    shallow!(blob);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_blob(self.as_slice())
    }
}

fn pair_vec<K: CandidType, V: CandidType>() -> Type {
    let entry: Type = TypeInner::Record(vec![
        Field {
            id: Label::Id(0).into(),
            ty: K::ty(),
        },
        Field {
            id: Label::Id(1).into(),
            ty: V::ty(),
        },
    ])
    .into();
    TypeInner::Vec(entry).into()
}

macro_rules! map_impl {
    ($($map:ident [$($gen:tt)*] [$($args:tt)*] $reserve:ident $({ $($direct:tt)* })?),* $(,)?) => {$(
        impl<$($gen)*> CandidType for std::collections::$map<$($args)*> {
            fn _ty() -> Type {
                pair_vec::<K, V>()
            }
            static_owned!(StaticKind::Vec(StaticRef::Inline(
                &crate::types::StaticType {
                    owner: None,
                    kind: StaticKind::Record(&[
                        StaticField::new(0, StaticLabel::Id, link::<K>()),
                        StaticField::new(1, StaticLabel::Id, link::<V>()),
                    ]),
                }
            )));
            shallow!(map K, V);
            $($($direct)*)?
            fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
                let mut ser = serializer.serialize_vec(self.len())?;
                let mut entries = self.iter();
                if let Some(first) = entries.next() {
                    ser.serialize_element(&first)?;
                    $reserve!(ser, self, self.len() - 1);
                }
                for e in entries {
                    ser.serialize_element(&e)?;
                }
                Ok(())
            }
        }
    )*};
}

/// After an ordered map's first entry: reserve for the rest from the first and the
/// last entry, as a vector does (keys that count up grow along the map).
macro_rules! reserve_ordered {
    ($ser:ident, $map:ident, $remaining:expr) => {
        if let Some(last) = $map.iter().next_back() {
            $ser.reserve_for_rest_ending($remaining, &last);
        }
    };
}

/// After an unordered map's first entry: its last entry is not at hand, so reserve
/// from the first.
macro_rules! reserve_unordered {
    ($ser:ident, $map:ident, $remaining:expr) => {
        $ser.reserve_like_first($remaining);
    };
}
map_impl!(
    // A `BTreeMap` of types with a direct path is built from its entries at once
    // (sorted, then bulk-built) instead of serde's one insert per entry, each a
    // search from the root. Equal keys of those types are identical, so keeping the
    // last entry of a run of equal keys gives the map serde's inserts give.
    // (`HashMap` is left to serde: building one needs `H: Default`, which its
    // `CandidType` impl does not ask for, and its inserts cost no search.)
    BTreeMap [K: CandidType + Ord, V: CandidType] [K, V] reserve_ordered {
        #[inline]
        fn _has_direct() -> bool {
            K::_has_direct() && V::_has_direct()
        }
        #[inline]
        fn _try_direct() -> bool {
            K::_has_direct() && V::_has_direct()
        }
        fn _decode_direct(d: crate::de::Direct<'_, '_>) -> Option<Self> {
            Some(d.map_of(K::_decode_direct, V::_decode_direct)?.into_iter().collect())
        }
    },
    HashMap [K: CandidType + Eq + std::hash::Hash, V: CandidType, H: std::hash::BuildHasher] [K, V, H] reserve_unordered,
);

macro_rules! seq_impl {
    ($($seq:ident [$($gen:tt)*] [$($args:tt)*]),* $(,)?) => {$(
        impl<$($gen)*> CandidType for std::collections::$seq<$($args)*> {
            fn _ty() -> Type {
                TypeInner::Vec(K::ty()).into()
            }
            static_owned!(StaticKind::Vec(link::<K>()));
            shallow!(vec K);
            fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
                let mut ser = serializer.serialize_vec(self.len())?;
                for e in self {
                    ser.serialize_element(&e)?;
                }
                Ok(())
            }
        }
    )*};
}
seq_impl!(
    VecDeque [K: CandidType] [K],
    LinkedList [K: CandidType] [K],
    BinaryHeap [K: CandidType + Ord] [K],
    BTreeSet [K: CandidType + Ord] [K],
    HashSet [K: CandidType + Eq + std::hash::Hash, H: std::hash::BuildHasher] [K, H],
);

impl<T: CandidType, E: CandidType> CandidType for Result<T, E> {
    fn _ty() -> Type {
        // "Ok" (17724) sorts before "Err" (3456837).
        TypeInner::Variant(vec![
            Field {
                id: Label::Named("Ok".to_owned()).into(),
                ty: T::ty(),
            },
            Field {
                id: Label::Named("Err".to_owned()).into(),
                ty: E::ty(),
            },
        ])
        .into()
    }
    static_owned!(StaticKind::Variant(&[
        StaticField::named("Ok", link::<T>()),
        StaticField::named("Err", link::<E>()),
    ]));
    shallow!(
        variant(
            super::idl_hash("Ok"),
            crate::types::static_type::StaticLabel::Named("Ok"),
            T
        ),
        (
            super::idl_hash("Err"),
            crate::types::static_type::StaticLabel::Named("Err"),
            E
        )
    );
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        match self {
            Ok(v) => {
                let mut ser = serializer.serialize_variant(0)?;
                ser.serialize_element(v)
            }
            Err(e) => {
                let mut ser = serializer.serialize_variant(1)?;
                ser.serialize_element(e)
            }
        }
    }
}

/// Wrappers that are transparent in Candid. Each keeps its own memo id, as in candid.
macro_rules! transparent_impl {
    ($($wrapper:ty => |$v:ident| $inner:expr),* $(,)?) => {$(
        impl<T: CandidType + ?Sized> CandidType for $wrapper {
            fn _ty() -> Type {
                T::ty()
            }
            static_forward!(T);
            #[inline]
            fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
                let $v = self;
                ($inner).idl_serialize(serializer)
            }
        }
    )*};
}
transparent_impl!(
    Box<T> => |v| &**v,
    std::rc::Rc<T> => |v| &**v,
    std::sync::Arc<T> => |v| &**v,
    &T => |v| &**v,
    &mut T => |v| &**v,
);

impl<T: CandidType> CandidType for std::cmp::Reverse<T> {
    fn _ty() -> Type {
        T::ty()
    }
    static_forward!(T);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        self.0.idl_serialize(serializer)
    }
}

impl<T> CandidType for std::borrow::Cow<'_, T>
where
    T: CandidType + ToOwned + ?Sized,
{
    fn _ty() -> Type {
        T::ty()
    }
    static_forward!(T);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        (**self).idl_serialize(serializer)
    }
}

impl<T: CandidType + Copy> CandidType for std::cell::Cell<T> {
    fn _ty() -> Type {
        T::ty()
    }
    static_forward!(T);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        self.get().idl_serialize(serializer)
    }
}

impl<T: CandidType> CandidType for std::cell::RefCell<T> {
    fn _ty() -> Type {
        T::ty()
    }
    static_forward!(T);
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        use serde::ser::Error;
        match self.try_borrow() {
            Ok(v) => v.idl_serialize(serializer),
            Err(_) => Err(S::Error::custom("already mutably borrowed")),
        }
    }
}

impl<T: CandidType> CandidType for std::marker::PhantomData<T> {
    fn _ty() -> Type {
        T::ty()
    }
    static_forward!(T);
    fn idl_serialize<S: Serializer>(&self, _: S) -> Result<(), S::Error> {
        use serde::ser::Error;
        Err(S::Error::custom("`PhantomData` cannot be serialized"))
    }
}

impl CandidType for ic_principal::Principal {
    fn _ty() -> Type {
        TypeInner::Principal.into()
    }
    static_prim!(Principal);
    #[inline]
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        serializer.serialize_principal(self.as_slice())
    }
    direct_leaf!();
}

macro_rules! tuple_impls {
    ($(($($n:tt $name:ident)+))+) => {$(
        impl<$($name: CandidType),+> CandidType for ($($name,)+) {
            fn _ty() -> Type {
                TypeInner::Record(vec![
                    $(Field { id: Label::Id($n).into(), ty: $name::ty() },)+
                ]).into()
            }
            static_owned!(StaticKind::Record(&[
                $(StaticField::new($n, StaticLabel::Id, link::<$name>()),)+
            ]));
            shallow!(record $(($n, crate::types::static_type::StaticLabel::Id, $name)),+);
            #[inline]
            fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
                let mut ser = serializer.serialize_struct()?;
                $(ser.serialize_element(&self.$n)?;)+
                Ok(())
            }
        }
    )+};
}
tuple_impls! {
    (0 T0)
    (0 T0 1 T1)
    (0 T0 1 T1 2 T2)
    (0 T0 1 T1 2 T2 3 T3)
    (0 T0 1 T1 2 T2 3 T3 4 T4)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7 8 T8)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7 8 T8 9 T9)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7 8 T8 9 T9 10 T10)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7 8 T8 9 T9 10 T10 11 T11)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7 8 T8 9 T9 10 T10 11 T11 12 T12)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7 8 T8 9 T9 10 T10 11 T11 12 T12 13 T13)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7 8 T8 9 T9 10 T10 11 T11 12 T12 13 T13 14 T14)
    (0 T0 1 T1 2 T2 3 T3 4 T4 5 T5 6 T6 7 T7 8 T8 9 T9 10 T10 11 T11 12 T12 13 T13 14 T14 15 T15)
}

/// The record `{ name₀ : t₀; name₁ : t₁ }`, fields given in Candid id order.
fn two_field_record(a: (&str, Type), b: (&str, Type)) -> Type {
    TypeInner::Record(vec![
        Field {
            id: Label::Named(a.0.to_string()).into(),
            ty: a.1,
        },
        Field {
            id: Label::Named(b.0.to_string()).into(),
            ty: b.1,
        },
    ])
    .into()
}

/// serde's shape of `SystemTime` (`secs_since_epoch`, `nanos_since_epoch`), so the
/// value decodes with serde's own `Deserialize`; as in candid, a time before the Unix
/// epoch cannot be encoded.
impl CandidType for std::time::SystemTime {
    fn _ty() -> Type {
        // `nanos_since_epoch` has the smaller id.
        two_field_record(
            ("nanos_since_epoch", u32::ty()),
            ("secs_since_epoch", u64::ty()),
        )
    }
    static_owned!(StaticKind::Record(&[
        StaticField::named("nanos_since_epoch", link::<u32>()),
        StaticField::named("secs_since_epoch", link::<u64>()),
    ]));
    shallow!(
        record(
            super::idl_hash("nanos_since_epoch"),
            crate::types::static_type::StaticLabel::Named("nanos_since_epoch"),
            u32
        ),
        (
            super::idl_hash("secs_since_epoch"),
            crate::types::static_type::StaticLabel::Named("secs_since_epoch"),
            u64
        )
    );
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        use serde::ser::Error;
        let since = self
            .duration_since(std::time::UNIX_EPOCH)
            .map_err(|_| S::Error::custom("SystemTime must be later than UNIX_EPOCH"))?;
        let mut s = serializer.serialize_struct()?;
        s.serialize_element(&since.subsec_nanos())?;
        s.serialize_element(&since.as_secs())
    }
}

/// serde's shape of `Duration` (`secs`, `nanos`).
impl CandidType for std::time::Duration {
    fn _ty() -> Type {
        // `secs` has the smaller id.
        two_field_record(("secs", u64::ty()), ("nanos", u32::ty()))
    }
    static_owned!(StaticKind::Record(&[
        StaticField::named("secs", link::<u64>()),
        StaticField::named("nanos", link::<u32>()),
    ]));
    shallow!(
        record(
            super::idl_hash("secs"),
            crate::types::static_type::StaticLabel::Named("secs"),
            u64
        ),
        (
            super::idl_hash("nanos"),
            crate::types::static_type::StaticLabel::Named("nanos"),
            u32
        )
    );
    fn idl_serialize<S: Serializer>(&self, serializer: S) -> Result<(), S::Error> {
        let mut s = serializer.serialize_struct()?;
        s.serialize_element(&self.as_secs())?;
        s.serialize_element(&self.subsec_nanos())
    }
}
