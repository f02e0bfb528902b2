//! Deserializers for keys: record field and variant case identifiers, and text map
//! keys.
//!
//! A key is its own `Deserializer` type rather than a flag on the value deserializer,
//! so "this is an identifier" or "this map's keys are text" cannot leak into the value
//! that follows (candid keeps such flags on its one deserializer and resets them by
//! hand).

use super::merge::Walked;
use super::quota::{self, Quota};
use super::state::DecodeState;
use super::value::De;
use crate::error::Error;
use crate::error::Result;
use crate::wire::header::{Arena, FieldLabel, Prim, Ref};
use serde::de::{self, Visitor};

/// Where a key's field is in the expected arena, and how its label is found
/// there: an index looked up with a bounds check, or a field a struct's walk
/// handed out ([`Walked`]), whose label is read without one.
pub(crate) trait FieldAt: Copy {
    /// Whether a charge the fast test does not settle is made in the key's own
    /// function (else in one out of line, which keeps a variant case's key small).
    const SLOW_INLINE: bool;
    /// The field's index in the expected arena.
    fn index(self) -> usize;
    /// The field's label in `exp`, the arena the index is of.
    fn label(self, exp: &Arena) -> &FieldLabel;
}

impl FieldAt for usize {
    const SLOW_INLINE: bool = false;
    #[inline(always)]
    fn index(self) -> usize {
        self
    }
    #[inline(always)]
    fn label(self, exp: &Arena) -> &FieldLabel {
        exp.label(self)
    }
}

impl FieldAt for Walked {
    const SLOW_INLINE: bool = true;
    #[inline(always)]
    fn index(self) -> usize {
        Walked::index(self)
    }
    #[inline(always)]
    fn label(self, exp: &Arena) -> &FieldLabel {
        Walked::label(self, exp)
    }
}

/// The identifier of an expected field or case: its name when it has one (the
/// visitor matches names), else its numeric id. `EXTRA` is the units the caller
/// owes at this point, charged together with the key's own: a constant of each
/// call site, so the key carries only the state and the field.
pub(crate) struct KeyDe<'a, 'de, const EXTRA: usize, F: FieldAt = usize> {
    state: &'a mut DecodeState<'de>,
    /// The field in the expected arena.
    field: F,
}

impl<'a, 'de, const EXTRA: usize, F: FieldAt> KeyDe<'a, 'de, EXTRA, F> {
    #[inline(always)]
    pub(super) fn new(state: &'a mut DecodeState<'de>, field: F) -> Self {
        KeyDe { state, field }
    }
}

impl<'de, const EXTRA: usize, F: FieldAt> de::Deserializer<'de> for KeyDe<'_, 'de, EXTRA, F> {
    type Error = Error;

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let state = self.state;
        // The label is looked up once and lent straight from the arena: the
        // charge's fast test touches only the quota's fields, not the arena.
        let label = self.field.label(&state.exp);
        let cost = EXTRA
            + match label {
                FieldLabel::Named(name) => name.len(),
                FieldLabel::Id | FieldLabel::Unnamed => quota::ID_LABEL,
            };
        let k = self.field.index();
        if Quota::take(&mut state.quota.left, cost) {
            return visit_label(&state.exp, label, k, v);
        }
        if F::SLOW_INLINE {
            charge_and_visit(state, self.field, cost, v)
        } else {
            charged_key(state, self.field, cost, v)
        }
    }

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_identifier(v)
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum ignored_any
    }
}

/// A key whose charge the fast test did not settle: charged, then visited.
#[inline(always)]
fn charge_and_visit<'de, F: FieldAt, V: Visitor<'de>>(
    state: &mut DecodeState<'de>,
    field: F,
    cost: usize,
    v: V,
) -> Result<V::Value> {
    state.charge(cost)?;
    visit_label(&state.exp, field.label(&state.exp), field.index(), v)
}

/// [`charge_and_visit`] out of line, for the keys whose own function it would
/// make too large to be taken into their visitor (`FieldAt::SLOW_INLINE`).
#[cold]
#[inline(never)]
fn charged_key<'de, F: FieldAt, V: Visitor<'de>>(
    state: &mut DecodeState<'de>,
    field: F,
    cost: usize,
    v: V,
) -> Result<V::Value> {
    charge_and_visit(state, field, cost, v)
}

/// Hands the visitor a field's name, or its id when it has none.
#[inline(always)]
fn visit_label<'de, V: Visitor<'de>>(
    exp: &Arena,
    label: &FieldLabel,
    field: usize,
    v: V,
) -> Result<V::Value> {
    match label {
        FieldLabel::Named(name) => v.visit_str(name),
        FieldLabel::Id | FieldLabel::Unnamed => match exp.field(field) {
            Some(f) => v.visit_u32(f.id),
            None => Err(Error::msg("field index out of range")),
        },
    }
}

/// A map key when both the wire and the expected key type are `text`: the type
/// check was done once for the whole map.
pub(crate) struct TextKeyDe<'a, 'de> {
    state: &'a mut DecodeState<'de>,
}

impl<'a, 'de> TextKeyDe<'a, 'de> {
    #[inline(always)]
    pub(super) fn new(state: &'a mut DecodeState<'de>) -> Self {
        TextKeyDe { state }
    }
}

const TEXT: Ref = Ref::prim(Prim::Text);

impl<'de> de::Deserializer<'de> for TextKeyDe<'_, 'de> {
    type Error = Error;

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let s = self.state.text()?;
        v.visit_borrowed_str(s)
    }
    /// An owned copy, as `De::deserialize_string` hands one.
    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let s = self.state.text()?;
        v.visit_string(super::copy::owned_text(s))
    }

    // A key type that asks for anything else goes through the checked path.
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(De::new(self.state, TEXT, TEXT), v)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_newtype_struct(De::new(self.state, TEXT, TEXT), name, v)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_ignored_any(De::new(self.state, TEXT, TEXT), v)
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char
        bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct enum identifier
    }
}
