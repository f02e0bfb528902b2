//! [`ArgumentDecoder`]: a tuple of arguments decoded from one message, one
//! argument at a time, and what the tuple's types tell the decoder before it reads
//! any (the header the compiler writes for them, `known.rs`; their places among
//! the interned types, for `warm_up`).

use super::{header_cache, limits_of, DecoderConfig, IDLDeserialize, KnownHeader};
use crate::error::Result;
use crate::types::CandidType;
use serde::de::Deserialize;

/// A tuple of arguments decoded from one message.
pub trait ArgumentDecoder<'a>: Sized {
    /// Decodes the next arguments, one per tuple element, in order.
    fn decode(de: &mut IDLDeserialize<'a>) -> Result<Self>;
    /// Hidden: places each argument type among the thread's interned expected
    /// types, through `de`, as decoding a message of these arguments would, and
    /// reads nothing ([`crate::warm_up`]).
    #[doc(hidden)]
    fn _place_types(_de: &mut IDLDeserialize<'a>) -> Result<()> {
        Ok(())
    }
    /// Hidden: the header the compiler writes for these argument types, parsed
    /// by it ([`KnownHeader`]), when it writes one.
    #[doc(hidden)]
    fn _known() -> Option<&'static KnownHeader> {
        None
    }
    /// Hidden: the identity of argument type `i`, as [`IDLDeserialize::get_value`]
    /// takes it.
    #[doc(hidden)]
    fn _arg_id(_i: usize) -> Option<crate::types::TypeId> {
        None
    }
}

impl<'a> ArgumentDecoder<'a> for () {
    fn decode(_de: &mut IDLDeserialize<'a>) -> Result<()> {
        Ok(())
    }
}

/// Hidden: the types a `Decode!` names, as a list of markers
/// `(PhantomData<T1>, (PhantomData<T2>, ()))`, whose tuple `(T1, T2)` gives the
/// header the compiler writes for them ([`IDLDeserialize::new_for_list`]). Each
/// value is then read through its marker (`get_value_of`), so that a type left to
/// inference (`_`) is one type in both places.
#[doc(hidden)]
pub trait TypeList {
    /// The types as a tuple.
    type Tuple;
}

impl TypeList for () {
    type Tuple = ();
}

/// The marker list of the types given.
macro_rules! type_list {
    () => { () };
    ($t:ident $(, $rest:ident)*) => { (std::marker::PhantomData<$t>, type_list!($($rest),*)) };
}

/// A tuple of arguments: how it is decoded, and its types' marker list.
macro_rules! decode_impl {
    ($($t:ident),+) => {
        impl<$($t),+> TypeList for type_list!($($t),+) {
            type Tuple = ($($t,)+);
        }

        impl<'a, $($t: Deserialize<'a> + CandidType),+> ArgumentDecoder<'a> for ($($t,)+) {
            #[inline]
            fn decode(de: &mut IDLDeserialize<'a>) -> Result<Self> {
                Ok(($(de.get_value::<$t>()?,)+))
            }
            fn _place_types(de: &mut IDLDeserialize<'a>) -> Result<()> {
                $(de._place::<$t>()?;)+
                Ok(())
            }
            #[inline(always)]
            fn _known() -> Option<&'static KnownHeader> {
                const { &KnownHeader::of(&[$($t::_L8),+]) }.get()
            }
            fn _arg_id(i: usize) -> Option<crate::types::TypeId> {
                [$(crate::types::TypeId::of::<$t>()),+].get(i).copied()
            }
        }
    };
}
decode_impl!(A);
decode_impl!(A, B);
decode_impl!(A, B, C);
decode_impl!(A, B, C, D);
decode_impl!(A, B, C, D, E);
decode_impl!(A, B, C, D, E, F);
decode_impl!(A, B, C, D, E, F, G);
decode_impl!(A, B, C, D, E, F, G, H);
decode_impl!(A, B, C, D, E, F, G, H, I);
decode_impl!(A, B, C, D, E, F, G, H, I, J);
decode_impl!(A, B, C, D, E, F, G, H, I, J, K);
decode_impl!(A, B, C, D, E, F, G, H, I, J, K, L);
decode_impl!(A, B, C, D, E, F, G, H, I, J, K, L, M);
decode_impl!(A, B, C, D, E, F, G, H, I, J, K, L, M, N);
decode_impl!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O);
decode_impl!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P);

/// Parses `header` (a message's header with no values) and keeps it for good, with
/// the expected types of `Args` placed and held by its state, as the first message
/// of `Args` with that header would leave them, decoded under ic-cdk's limits (the
/// default ones) ([`crate::warm_up`]); and so the same header in agent-js's order,
/// when the compiler wrote it and that order is another (`known.rs`), as a
/// browser's first message would. A header is not kept when it has no type table
/// (such headers never are), or [`header_cache::MAX_PINNED`] are kept already; the
/// types are placed all the same. The thread is left with a spare state, which the
/// next header that is not kept parses into.
pub(crate) fn keep_arguments<Args: for<'a> ArgumentDecoder<'a>>(header: &[u8]) -> Result<()> {
    let config = DecoderConfig::new();
    let agent_js = Args::_known().and_then(|k| k.post_header());
    for header in std::iter::once(header).chain(agent_js) {
        {
            let mut de = IDLDeserialize::new_with_config(header, &config)?;
            Args::_place_types(&mut de)?;
            // Dropped here: the state goes back to the header's entry.
        }
        header_cache::pin(header, limits_of(&config));
    }
    // A header with a table keeps the spare state it was parsed into. A header of
    // primitive arguments, which is never kept, is then parsed into a new spare and
    // leaves it as the first such call would, its arena's vectors allocated.
    if header.get(crate::wire::opcode::MAGIC.len()) != Some(&0) {
        drop(IDLDeserialize::new_with_config(
            b"DIDL\x00\x01\x7f",
            &config,
        )?);
    }
    Ok(())
}
