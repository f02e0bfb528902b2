//! Decoding Candid bytes into Rust values through serde.
//!
//! The header is parsed once into a flat arena (`wire::header`); each expected type
//! is flattened once per Rust type (`expect`); then one `De` frame per value carries
//! the (wire type, expected type) pair down through serde (`value`, `access`, `key`).
//! The message's shared state is `state`, lent whole to each decoder (`lent`) by
//! the kept header it belongs to (`header_cache`); its quota accounting `quota` (the units
//! and the counts, knowing nothing of the input); what is kept about checked pairs
//! `kept`; the word copies and their `unsafe` `copy`. Skipping is `skip`, the
//! value-level `opt` rule `coerce`. `spec/decoder.md` describes the design and
//! every fast path.

mod access;
mod args;
mod arguments;
mod coerce;
mod config;
mod copy;

mod describe;
mod direct;
mod expect;
mod header_cache;
mod kept;
mod key;
mod known;
mod lent;
mod merge;
mod post_order;
mod primvec;
mod quota;
mod skip;
mod state;
mod subtype;
mod switches;
mod value;

pub(crate) use self::arguments::keep_arguments;
pub use self::arguments::ArgumentDecoder;
#[doc(hidden)]
pub use self::arguments::TypeList;
pub use self::direct::Direct;
#[doc(hidden)]
pub use self::expect::expected_arena_dump;
#[doc(hidden)]
pub use self::known::KnownHeader;
use self::state::DecodeState;
pub use self::switches::set_header_cache;
#[doc(hidden)]
pub use self::switches::{
    direct_decodes, header_cache_answers_taken, header_cache_hits, known_headers_taken,
    known_types_installed, plain_headers_held, set_direct_decoding, set_known_headers,
    spec_only_reads,
};
use crate::error::Result;
use crate::error::{Error, PathSegment};
use crate::types::{CandidType, Type, TypeEnv};
use crate::wire::header::{self, Node, Prim, Ref};
use crate::wire::plain_header;
use serde::de::Deserialize;
use std::rc::Rc;

use self::config::{limits_of, ConfigEcho};
pub use self::config::{
    size_bound, DecoderConfig, DEFAULT_MAX_STACK, SIZE_BOUND_BASE, SIZE_BOUND_PER_BYTE,
};
pub use crate::limits::DEFAULT_MAX_DEPTH;

/// The decoding quota left once a header of `len` bytes is paid for (candid
/// charges it before any value), or the error when `quota` cannot pay.
#[inline(always)]
fn pay_header(len: usize, quota: Option<usize>) -> Result<Option<usize>> {
    let units = len.saturating_mul(quota::HEADER_BYTE);
    match quota {
        Some(q) if q < units => Err(Error::limit("Decoding cost exceeds the limit", len)),
        q => Ok(q.map(|q| q - units)),
    }
}

/// Decodes a message argument by argument.
pub struct IDLDeserialize<'de> {
    /// The decode state, lent for this message (see [`lent::LentState`]). It
    /// holds the header's shape: where the argument types are in its wire arena.
    state: self::lent::LentState,
    next: usize,
    /// What of the config the state does not hold (for `get_config`).
    echo: ConfigEcho,
    /// The input the state reads, borrowed for as long as the decoder lives.
    input: std::marker::PhantomData<&'de [u8]>,
}

impl<'de> IDLDeserialize<'de> {
    /// Reads the header of `bytes` (no quota: bounded by the message's size, see
    /// [`DecoderConfig::set_size_bound`]).
    pub fn new(bytes: &'de [u8]) -> Result<Self> {
        Self::new_with_config(bytes, &DecoderConfig::new())
    }

    /// Reads the header of `bytes`, under `config`'s limits.
    #[inline]
    pub fn new_with_config(bytes: &'de [u8], config: &DecoderConfig) -> Result<Self> {
        Self::new_known(bytes, config, None)
    }

    /// Hidden: [`new_with_config`](Self::new_with_config) for a message to be
    /// decoded as `Args`: a header that is the one the compiler wrote for `Args`
    /// is taken as known instead of being parsed, and `Args`' expected types are
    /// placed from it (`known.rs`). The same decoder either way.
    #[doc(hidden)]
    #[inline]
    pub fn new_for<Args: ArgumentDecoder<'de>>(
        bytes: &'de [u8],
        config: &DecoderConfig,
    ) -> Result<Self> {
        // One static per tuple type: the decoder takes one pointer more, not two.
        let known: &'static Known = const { &(Args::_known, Args::_arg_id) };
        Self::new_known(bytes, config, Some(known))
    }

    /// Hidden: [`new_for`](Self::new_for) for the tuple of the types a `Decode!`
    /// names ([`TypeList`]).
    #[doc(hidden)]
    #[inline]
    pub fn new_for_list<L: TypeList>(
        bytes: &'de [u8],
        config: &DecoderConfig,
        _types: &L,
    ) -> Result<Self>
    where
        L::Tuple: ArgumentDecoder<'de>,
    {
        Self::new_for::<L::Tuple>(bytes, config)
    }

    fn new_known(
        bytes: &'de [u8],
        config: &DecoderConfig,
        known: Option<&'static Known>,
    ) -> Result<Self> {
        let limits = limits_of(config);
        // A header with an empty type table (primitive arguments only) is not kept:
        // keeping one costs its first decode (the key's copy, a state of its own)
        // about what each later decode saves (spec/first_call.md).
        let cacheable = bytes
            .get(crate::wire::opcode::MAGIC.len())
            .is_some_and(|&n| n != 0);
        let (quota, size_bound) = config.quota_for(bytes.len());
        if cacheable {
            let pay = |len| pay_header(len, quota);
            match header_cache::take(bytes, limits, pay) {
                Some(Ok(hit)) => {
                    return Ok(Self::build(
                        bytes,
                        config,
                        hit.state,
                        (hit.decoding_quota, size_bound),
                    ));
                }
                Some(Err(e)) => return Err(e),
                None => {}
            }
            if let Some(&(header, ids)) = known {
                if let Some(k) = Self::known(bytes, limits, header, ids) {
                    return Self::from_known(bytes, config, limits, k);
                }
            }
        }
        // The out-of-line paths work their quota out again: passed, it would be
        // written to memory on every message, the kept header's too.
        Self::parsed(bytes, config, limits, cacheable)
    }

    /// A decoder for a header that is not kept (or not yet): parsed, and admitted to
    /// the cache when `cacheable`.
    #[inline(never)]
    fn parsed(
        bytes: &'de [u8],
        config: &DecoderConfig,
        limits: header_cache::Limits,
        cacheable: bool,
    ) -> Result<Self> {
        let (quota, size_bound) = config.quota_for(bytes.len());
        let mut state = if cacheable {
            header_cache::parse_state(expect::shared_arena)
        } else {
            // The spare still holding this plain header: no parse, and what it
            // learnt stays (fast path 30).
            let (state, held) =
                header_cache::plain_state(bytes, limits.max_header_len, expect::shared_arena);
            if let Some(shape) = held {
                switches::count(&switches::HELD);
                let fits = (quota, size_bound);
                return Self::lend(bytes, config, limits, shape, false, state, fits);
            }
            state
        };
        let arena = state.wire.arena_mut();
        // A header of primitive arguments (no table: not `cacheable`) first, fast
        // path 28; a header with a table goes straight to the general parse.
        let plain = if cacheable {
            None
        } else {
            plain_header::parse(bytes, limits.max_header_len, arena)
        };
        let parsed = match plain {
            Some(shape) => Ok(shape),
            None => header::parse_into(bytes, limits.max_type_len, limits.max_header_len, arena),
        };
        let shape = match parsed {
            Ok(shape) => shape,
            Err(e) => {
                header_cache::to_spare(state);
                return Err(e);
            }
        };
        if !cacheable && switches::on(&switches::HELD) {
            state.held_plain = plain_header::Held::of(bytes, shape);
        }
        Self::lend(
            bytes,
            config,
            limits,
            shape,
            cacheable,
            state,
            (quota, size_bound),
        )
    }

    /// The decoder for a header just read into `state` (`shape`): the state lent
    /// (kept with the header when `cacheable` and admitted), the header paid for.
    #[inline(always)]
    fn lend(
        bytes: &'de [u8],
        config: &DecoderConfig,
        limits: header_cache::Limits,
        shape: header::Shape,
        cacheable: bool,
        state: Box<state::Idle>,
        (quota, size_bound): (Option<usize>, bool),
    ) -> Result<Self> {
        let state = header_cache::lend_parsed(bytes, limits, &shape, cacheable, state);
        // On an error the lent state goes back (kept with the header when admitted).
        let decoding_quota = pay_header(shape.len, quota)?;
        Ok(Self::build(
            bytes,
            config,
            state,
            (decoding_quota, size_bound),
        ))
    }

    /// The decoder for a header whose units are paid for, over the lent `state`.
    #[inline(always)]
    fn build(
        bytes: &'de [u8],
        config: &DecoderConfig,
        mut state: self::lent::LentState,
        (decoding_quota, size_bound): (Option<usize>, bool),
    ) -> Self {
        // SAFETY: `bytes` lives for `'de`, as the decoder built here does.
        let s: &mut DecodeState<'de> = unsafe { state.get_mut() };
        s.begin(
            bytes,
            config,
            (decoding_quota, size_bound),
            expect::shared_arena,
        );
        IDLDeserialize {
            state,
            next: 0,
            echo: ConfigEcho::of(config),
            input: std::marker::PhantomData,
        }
    }

    /// The decode state.
    #[inline(always)]
    fn state(&self) -> &DecodeState<'de> {
        // SAFETY: the decoder holds `'de`'s input (`input`) while it lives.
        unsafe { self.state.get() }
    }

    /// The decode state, to change.
    #[inline(always)]
    fn state_mut(&mut self) -> &mut DecodeState<'de> {
        // SAFETY: as in `state`.
        unsafe { self.state.get_mut() }
    }

    /// The type of the next argument on the wire, if there is one.
    #[inline(always)]
    fn next_arg(&self) -> Option<Ref> {
        let s = self.state();
        s.shape.arg(&s.wire, self.next)
    }

    /// Decodes the next argument as `T`. When the message has no more arguments, a
    /// `T` whose type is `opt`, `null` or `reserved` decodes as absent.
    #[inline(always)]
    pub fn get_value<T>(&mut self) -> Result<T>
    where
        T: Deserialize<'de> + CandidType,
    {
        let id = crate::types::TypeId::of::<T>();
        let root = match (self.state().last_root, primitive_root::<T>()) {
            (Some((last, root)), _) if last == id => Some(root),
            (_, Some(root)) => Some(root),
            _ => self.look_up_root::<T>(id)?,
        };
        match root {
            Some(root) => {
                self.state_mut().quota.set_untyped(false);
                self.decode_arg(root.resolved())
            }
            None => {
                // No Candid type of its own: decode at the wire type, untyped.
                let w = match self.next_arg() {
                    Some(w) => w,
                    None => return Err(Error::msg("No more values on the wire")),
                };
                let wire = self.state_mut().wire_as_expected();
                self.state_mut().set_expected(wire);
                self.state_mut().quota.set_untyped(true);
                self.decode_arg(w)
            }
        }
    }

    /// Hidden: [`get_value`](Self::get_value) of the type `marker` names (`Decode!`).
    #[doc(hidden)]
    #[inline(always)]
    pub fn get_value_of<T>(&mut self, _marker: &std::marker::PhantomData<T>) -> Result<T>
    where
        T: Deserialize<'de> + CandidType,
    {
        self.get_value()
    }

    /// Places `T`'s expected type among the thread's interned types, as
    /// [`get_value`](Self::get_value) does before it reads a value, and reads
    /// nothing ([`crate::warm_up`]).
    #[doc(hidden)]
    pub fn _place<T: CandidType + ?Sized>(&mut self) -> Result<()> {
        if primitive_root::<T>().is_none() {
            self.look_up_root::<T>(crate::types::TypeId::of::<T>())?;
        }
        Ok(())
    }

    /// The root of `T`'s expected type in the thread's interned types (`None` when
    /// `T` decodes at the wire type), holding the arena it is in and keeping the
    /// root for the next argument of the same type (`last_root`).
    #[inline(never)]
    fn look_up_root<T: CandidType + ?Sized>(
        &mut self,
        id: crate::types::TypeId,
    ) -> Result<Option<Ref>> {
        let state = self.state_mut();
        let held = Rc::as_ptr(&state.exp);
        let root = expect::of::<T>(&mut state.exp);
        if !std::ptr::eq(held, Rc::as_ptr(&state.exp)) {
            // A type that failed to intern leaves a placeholder held instead.
            state.expected_replaced(root.is_ok());
        }
        let root = root?;
        state.last_root = root.map(|r| (id, r));
        Ok(root)
    }

    /// Decodes the next argument as a value of a type given at run time (`env`
    /// defines its names), with the untyped cost multiplier candid applies to
    /// `IDLValue`. Field names come from `ty`, as the wire has only their hashes.
    pub fn get_value_with_type(
        &mut self,
        env: &TypeEnv,
        ty: &Type,
    ) -> Result<crate::value::IDLValue> {
        self.get_value_with_type_as(env, ty)
    }

    /// [`get_value_with_type`](Self::get_value_with_type) into any `T` that is
    /// built as an `IDLValue` is (a visitor through `deserialize_any`): the
    /// decoder makes the same calls, so `T` may print the elements of a long
    /// vector as they come rather than hold them.
    #[doc(hidden)]
    pub fn get_value_with_type_as<T: Deserialize<'de> + CandidType>(
        &mut self,
        env: &TypeEnv,
        ty: &Type,
    ) -> Result<T> {
        let (arena, root) = expect::of_type(env, ty)?;
        self.state_mut().merge_env_names(env.0.keys());
        self.state_mut().set_expected(arena);
        self.state_mut().quota.set_untyped(true);
        self.decode_arg(root.resolved())
    }

    /// Decodes the next argument at expected type `e`. candid resolves the expected
    /// type before it starts, except when the expected type is the wire type itself.
    #[inline(always)]
    fn decode_arg<T: Deserialize<'de> + CandidType>(&mut self, e: Ref) -> Result<T> {
        self.state_mut().reset_depth();
        let index = self.next;
        let w = match self.next_arg() {
            Some(w) => w,
            None => {
                return match self.state().expected_node(e) {
                    Node::Opt(_) | Node::Prim(Prim::Null) | Node::Prim(Prim::Reserved) => {
                        T::deserialize(value::De::new(self.state_mut(), Ref::NULL, e))
                    }
                    _ => Err(Error::msg(format!(
                        "No more values on the wire, the expected type {} is not opt, null, or reserved",
                        describe::describe(&self.state().exp, e)
                    ))
                    .at(self.state().offset())
                    .within(PathSegment::Arg(index))),
                };
            }
        };
        self.next += 1;
        if T::_try_direct() && switches::on(&switches::DIRECT) {
            let mark = self.state_mut().mark();
            if let Some(v) = T::_decode_direct(Direct(value::De::new(self.state_mut(), w, e))) {
                switches::count(&switches::DIRECT);
                return Ok(v);
            }
            self.state_mut().back_to(mark);
        }
        T::deserialize(value::De::new(self.state_mut(), w, e))
            .map_err(|err| self.arg_error(err, index, w, e))
    }

    #[cold]
    fn arg_error(&self, err: Error, index: usize, w: Ref, e: Ref) -> Error {
        let err = err
            .at(self.state().offset())
            .within(PathSegment::Arg(index));
        if self.echo.has(ConfigEcho::FULL_ERROR_MESSAGE) {
            let ctx = format!(
                "while decoding argument {index} from {} to {}",
                describe::describe(&self.state().wire, w),
                describe::describe(&self.state().exp, e)
            );
            err.with_context(ctx)
        } else {
            err
        }
    }

    /// The error of a message in which a record's visitor returned before the
    /// record's end, at offset `left` (`DecodeState::unfinished`): the reader was
    /// left inside that record, so what follows was not read from its place.
    #[cold]
    fn unfinished(left: usize) -> Error {
        Error::msg("a record's visitor returned before reading all its fields").at(left)
    }

    /// True once every argument on the wire has been decoded.
    pub fn is_done(&self) -> bool {
        self.next >= self.state().shape.args.len as usize
    }

    /// Skips the arguments not decoded, then checks no bytes are left over.
    pub fn done(&mut self) -> Result<()> {
        if let Some(left) = self.state().unfinished {
            return Err(Self::unfinished(left));
        }
        if !self.is_done() {
            self.skip_rest()?;
        }
        if self.state().reader.remaining() != 0 {
            return Err(Error::binary(
                "Trailing value after finishing deserialization",
                self.state().offset(),
            ));
        }
        Ok(())
    }

    /// Skips the arguments not decoded: out of line, as most messages have none.
    #[inline(never)]
    fn skip_rest(&mut self) -> Result<()> {
        while let Some(w) = self.next_arg() {
            let index = self.next;
            self.next += 1;
            self.state_mut().reset_depth();
            let state = self.state_mut();
            let skipped = state.skip(w);
            skipped.map_err(|err| err.at(state.offset()).within(PathSegment::Arg(index)))?;
        }
        Ok(())
    }

    /// The config with the quotas that remain.
    pub fn get_config(&self) -> DecoderConfig {
        let mut config = DecoderConfig::new();
        config.decoding_quota = self.state().quota.set_decoding();
        config.skipping_quota = self.state().quota.set_skipping();
        // The header limits the state was read under are the config's, its
        // defaults filled in (`limits_of`); the echo says which were set.
        let limits = self.state().limits;
        let echo = self.echo;
        config.max_type_len = echo
            .has(ConfigEcho::MAX_TYPE_LEN)
            .then_some(limits.max_type_len);
        config.max_header_len = echo
            .has(ConfigEcho::MAX_HEADER_LEN)
            .then_some(limits.max_header_len);
        config.full_error_message = echo.has(ConfigEcho::FULL_ERROR_MESSAGE);
        config.max_depth = self.state().max_depth();
        config.max_stack = self.state().max_stack();
        config.size_bound = echo.has(ConfigEcho::SIZE_BOUND);
        config
    }
}

/// A header the compiler wrote for a tuple of arguments, with each argument
/// type's identity by position (see [`IDLDeserialize::new_for`]).
type Known = (
    fn() -> Option<&'static KnownHeader>,
    fn(usize) -> Option<crate::types::TypeId>,
);

/// The root of `T`'s expected type when its static description is a primitive: that
/// primitive's fixed reference, the same in every arena, which is what placing the
/// description in the interned types gives (`expect::of`). So an argument of a
/// primitive type (a principal, a number, a text) needs no look-up there.
#[inline(always)]
fn primitive_root<T: CandidType + ?Sized>() -> Option<Ref> {
    match T::_static_type() {
        Some(crate::types::StaticType {
            kind: crate::types::static_type::StaticKind::Prim(p),
            ..
        }) => Some(Ref::prim(*p)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::primitive_root;
    use crate::types::number::{Int, Nat};
    use crate::types::CandidType;
    use crate::Principal;
    use crate::Reserved;
    use std::rc::Rc;

    /// The root `T` is decoded at, looked up in the interned types.
    fn interned<T: CandidType + ?Sized>() -> Option<super::Ref> {
        super::expect::of::<T>(&mut super::expect::shared_arena()).unwrap()
    }

    /// A primitive's fixed root is the one interning gives it, for every primitive
    /// and for wrappers that are their inner type.
    #[test]
    fn a_primitive_root_is_the_interned_one() {
        fn same<T: CandidType + ?Sized>() {
            let root = primitive_root::<T>();
            assert!(root.is_some(), "{}", std::any::type_name::<T>());
            assert_eq!(root, interned::<T>(), "{}", std::any::type_name::<T>());
        }
        same::<bool>();
        same::<u8>();
        same::<u16>();
        same::<u32>();
        same::<u64>();
        same::<i8>();
        same::<i16>();
        same::<i32>();
        same::<i64>();
        same::<f32>();
        same::<f64>();
        same::<String>();
        same::<str>();
        same::<Principal>();
        same::<Nat>();
        same::<Int>();
        same::<Reserved>();
        same::<()>();
        same::<Box<u64>>();
        same::<Rc<String>>();
    }

    /// Types that are not primitive take the look-up: compound descriptions, and
    /// hand-written impls with no description.
    #[test]
    fn other_roots_are_looked_up() {
        assert_eq!(primitive_root::<Vec<u8>>(), None);
        assert_eq!(primitive_root::<Option<u64>>(), None);
        assert_eq!(primitive_root::<(u8, bool)>(), None);
        assert_eq!(primitive_root::<crate::Func>(), None);
        assert!(interned::<Vec<u8>>().is_some());
    }
}
