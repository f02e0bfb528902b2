//! [`ArgumentEncoder`]: a tuple of arguments encoded as one message, and its
//! header, which the compiler writes for shallow types (`const_header.rs`), the
//! descriptions at run time for the others (`static_table.rs`), or `ty()`.

use super::{const_header, short_copy, static_table, tuple_header, IDLBuilder, StaticPath, SLACK};
use super::{TypeSerialize, ValueSerializer};
use crate::error::Result;
use crate::types::CandidType;

/// A tuple of arguments that can be encoded as one message.
pub trait ArgumentEncoder {
    /// Pushes the argument types in order (used once per tuple type).
    #[doc(hidden)]
    fn push_types(ts: &mut TypeSerialize) -> Result<()>;
    /// Hidden: the whole header, written from the argument types' static
    /// descriptions (`ser/static_table.rs`); `None` when a type has none, and the
    /// header is built from [`push_types`](Self::push_types).
    #[doc(hidden)]
    fn _static_header() -> Option<Vec<u8>> {
        None
    }
    /// Hidden: the whole header as the compiler wrote it (`ser/const_header.rs`),
    /// when every argument type is eight levels deep at most.
    #[doc(hidden)]
    #[inline(always)]
    fn _const_header() -> Option<&'static [u8]> {
        Self::_const_message().map(|(h, _)| h)
    }
    /// Hidden: [`_const_header`](Self::_const_header), and whether the values
    /// after it always fit in the slack a message reserves past its header (then
    /// no size is kept for the next message: `ser/size_hints.rs`).
    #[doc(hidden)]
    fn _const_message() -> Option<(&'static [u8], bool)> {
        None
    }
    /// Hidden: computes and keeps the header of a message of these arguments, by
    /// value and by reference (as `encode_one(x)` and `Encode!(&x)` give them),
    /// as the first such messages would ([`crate::warm_up`]).
    #[doc(hidden)]
    fn _keep_headers() -> Result<()> {
        Ok(())
    }
    /// Hidden, for tests: the header as the static descriptions give it at run
    /// time, leaving out [`_const_header`](Self::_const_header), and which way it
    /// was written: straight from flat descriptions, in the walk's one pass, or on
    /// the general path, which numbers the nodes (two of them might be
    /// structurally equal, or the table is large); `None` when there is no static
    /// header.
    #[doc(hidden)]
    fn _described_header() -> Option<(Vec<u8>, StaticPath)> {
        None
    }
    /// Writes the argument values in order.
    #[doc(hidden)]
    fn write_values(&self, ser: &mut ValueSerializer) -> Result<()>;
    /// Appends each argument to a builder.
    fn encode(self, ser: &mut IDLBuilder) -> Result<()>;
    /// Appends each argument to a builder, leaving the tuple with the caller.
    fn encode_ref(&self, ser: &mut IDLBuilder) -> Result<()>;
}

impl ArgumentEncoder for () {
    fn push_types(_: &mut TypeSerialize) -> Result<()> {
        Ok(())
    }
    fn write_values(&self, _: &mut ValueSerializer) -> Result<()> {
        Ok(())
    }
    fn encode(self, _: &mut IDLBuilder) -> Result<()> {
        Ok(())
    }
    fn encode_ref(&self, _: &mut IDLBuilder) -> Result<()> {
        Ok(())
    }
}

macro_rules! encode_impl {
    ($($n:tt $t:ident),+) => {
        impl<$($t: CandidType),+> ArgumentEncoder for ($($t,)+) {
            fn push_types(ts: &mut TypeSerialize) -> Result<()> {
                $(ts.push_type(&$t::ty())?;)+
                Ok(())
            }
            fn _static_header() -> Option<Vec<u8>> {
                if let Some(h) = Self::_const_header() {
                    let mut out = Vec::with_capacity(h.len());
                    short_copy::push_short(&mut out, h);
                    return Some(out);
                }
                static_table::header(&[$(($t::id(), $t::_static_type()?)),+])
            }
            #[inline(always)]
            fn _const_message() -> Option<(&'static [u8], bool)> {
                const { &const_header::header(&[$($t::_L8),+], SLACK) }.get()
            }
            fn _keep_headers() -> Result<()> {
                // `Encode!(&a, &b)` encodes a tuple of references, a tuple type of
                // its own with the same header.
                fn by_reference<'a, $($t: CandidType + 'a),+>() -> Result<()> {
                    tuple_header::<($(&'a $t,)+)>().map(drop)
                }
                // A header the compiler wrote is never kept (nor is its tuple of
                // references', which is the same).
                if Self::_const_header().is_some() {
                    return Ok(());
                }
                tuple_header::<Self>()?;
                by_reference::<$($t),+>()
            }
            fn _described_header() -> Option<(Vec<u8>, StaticPath)> {
                static_table::header_and_path(&[$(($t::id(), $t::_static_type()?)),+])
            }
            #[inline]
            fn write_values(&self, ser: &mut ValueSerializer) -> Result<()> {
                $(self.$n.idl_serialize(&mut *ser)?;)+
                Ok(())
            }
            fn encode(self, ser: &mut IDLBuilder) -> Result<()> {
                self.encode_ref(ser)
            }
            fn encode_ref(&self, ser: &mut IDLBuilder) -> Result<()> {
                $(ser.arg(&self.$n)?;)+
                Ok(())
            }
        }
    };
}
encode_impl!(0 A);
encode_impl!(0 A, 1 B);
encode_impl!(0 A, 1 B, 2 C);
encode_impl!(0 A, 1 B, 2 C, 3 D);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L, 12 M);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L, 12 M, 13 N);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L, 12 M, 13 N, 14 O);
encode_impl!(0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L, 12 M, 13 N, 14 O, 15 P);
