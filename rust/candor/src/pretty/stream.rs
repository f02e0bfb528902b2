//! A message decoded at its types straight into its Candid text:
//! [`IDLArgs::text_from_bytes_with_types`] prints what decoding to [`IDLArgs`] and
//! printing them (`Display`) prints, without holding a long vector's values.
//!
//! A vector of more than ten elements is printed on one line (by `Display for
//! IDLArgs`), each element as its one-line text; so once an argument has
//! shown eleven elements, each later one is decoded, printed and dropped. A
//! decoded message of 10,000 small values is otherwise a tree of tens of
//! thousands of blocks, megabytes of fresh pages that are written once and read
//! once. Everything else (several arguments, short vectors, a `vec nat8` held
//! as numbers, any other value) is decoded whole and printed as before.

use crate::de::{DecoderConfig, IDLDeserialize};
use crate::error::Result;
use crate::types::{CandidType, Type, TypeEnv, TypeInner};
use crate::value::{display_width, push_debug, LINE_WIDTH};
use crate::value::{IDLArgs, IDLValue, IDLValueVisitor};
use serde::de::{self, Deserialize, Visitor};
use std::fmt::{self, Write};

/// More elements than this, and a vector is printed on one line (as
/// `MAX_ELEMENTS_FOR_PRETTY_PRINT` in the layout).
const SHORT: usize = 10;

impl IDLArgs {
    /// The message decoded at `types` (as
    /// [`from_bytes_with_types`](Self::from_bytes_with_types)), ready to print:
    /// its `Display` is the decoded arguments' `Display`.
    pub fn text_from_bytes_with_types(
        bytes: &[u8],
        env: &TypeEnv,
        types: &[Type],
    ) -> Result<impl fmt::Display> {
        let [ty] = types else {
            return Self::from_bytes_with_types(bytes, env, types).map(Streamed::Args);
        };
        let mut de = IDLDeserialize::new_with_config(bytes, &DecoderConfig::new())?;
        let arg: Streamed = de.get_value_with_type_as(env, ty)?;
        de.done()?;
        Ok(arg)
    }
}

impl fmt::Display for Streamed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Streamed::Args(args) => args.fmt(f),
            // The layout of one argument printed as one long text: on the line
            // of its parentheses when it fits, else on its own line.
            Streamed::Long(text) if display_width(text) + 2 <= LINE_WIDTH => {
                f.write_char('(')?;
                f.write_str(text)?;
                f.write_char(')')
            }
            Streamed::Long(text) => {
                f.write_str("(\n  ")?;
                f.write_str(text)?;
                f.write_str(",\n)")
            }
        }
    }
}

/// The arguments decoded, or the one-line text of the one argument, a vector too
/// long to lay out.
enum Streamed {
    Args(IDLArgs),
    Long(String),
}

impl Streamed {
    fn value(v: IDLValue) -> Self {
        Streamed::Args(IDLArgs { args: vec![v] })
    }
}

/// Decoded as an [`IDLValue`] (`Unknown`: the type it is given); never encoded.
impl CandidType for Streamed {
    fn _ty() -> Type {
        TypeInner::Unknown.into()
    }
    fn idl_serialize<S: crate::types::Serializer>(
        &self,
        _: S,
    ) -> std::result::Result<(), S::Error> {
        Err(serde::ser::Error::custom(
            "a printed argument is not encoded",
        ))
    }
}

impl<'de> Deserialize<'de> for Streamed {
    fn deserialize<D: de::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        deserializer.deserialize_any(StreamVisitor)
    }
}

/// [`IDLValueVisitor`], but a long vector's elements are printed as they come.
struct StreamVisitor;

macro_rules! forward {
    ($($visit:ident: $t:ty),* $(,)?) => {$(
        fn $visit<E: de::Error>(self, v: $t) -> std::result::Result<Streamed, E> {
            IDLValueVisitor.$visit(v).map(Streamed::value)
        }
    )*};
}

impl<'de> Visitor<'de> for StreamVisitor {
    type Value = Streamed;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        IDLValueVisitor.expecting(formatter)
    }

    forward! {
        visit_bool: bool,
        visit_u8: u8,
        visit_u16: u16,
        visit_u32: u32,
        visit_u64: u64,
        visit_i8: i8,
        visit_i16: i16,
        visit_i32: i32,
        visit_i64: i64,
        visit_f32: f32,
        visit_f64: f64,
        visit_bytes: &[u8],
        visit_byte_buf: Vec<u8>,
        visit_string: String,
        visit_str: &str,
    }

    fn visit_none<E: de::Error>(self) -> std::result::Result<Streamed, E> {
        IDLValueVisitor.visit_none().map(Streamed::value)
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Streamed, E> {
        IDLValueVisitor.visit_unit().map(Streamed::value)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Streamed, D::Error> {
        IDLValueVisitor.visit_some(d).map(Streamed::value)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> std::result::Result<Streamed, A::Error> {
        IDLValueVisitor.visit_map(map).map(Streamed::value)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(
        self,
        data: A,
    ) -> std::result::Result<Streamed, A::Error> {
        IDLValueVisitor.visit_enum(data).map(Streamed::value)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Streamed, A::Error> {
        let mut first = Vec::with_capacity(SHORT + 1);
        while first.len() <= SHORT {
            match seq.next_element::<IDLValue>()? {
                Some(v) => first.push(v),
                None => return Ok(Streamed::value(IDLValue::Vec(first))),
            }
        }
        if matches!(first.first(), Some(IDLValue::Nat8(_))) {
            // Printed as a blob literal from the whole vector.
            while let Some(v) = seq.next_element::<IDLValue>()? {
                first.push(v);
            }
            return Ok(Streamed::value(IDLValue::Vec(first)));
        }
        // As `push_debug` prints a vector: "vec {", " element;" each, "}".
        let mut text = String::new();
        text.push_str("vec {");
        for v in &first {
            text.push(' ');
            push_debug(&mut text, v);
            text.push(';');
        }
        drop(first);
        while let Some(v) = seq.next_element::<IDLValue>()? {
            text.push(' ');
            push_debug(&mut text, &v);
            text.push(';');
        }
        text.push('}');
        Ok(Streamed::Long(text))
    }
}
