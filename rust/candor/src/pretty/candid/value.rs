//! Candid's text syntax for values as `pretty` documents (candid's
//! `pretty::candid::value`), for callers that embed values in larger documents
//! (candid_parser's bindings generators).
//!
//! `IDLValue`'s own `Display` and `Debug` (in `crate::value`) print the same text;
//! the leaves here are that `Debug` text, so the two cannot drift apart.

use super::pp_label_raw;
use crate::pretty::utils::{concat, enclose, enclose_space, kwd};
use crate::value::{IDLArgs, IDLField, IDLValue};
use pretty::RcDoc;

pub use crate::value::number_to_string;

/// How deep values are laid out over lines; deeper ones, and vectors of more
/// elements than this, are printed on one line (their `Debug` form).
const MAX_ELEMENTS_FOR_PRETTY_PRINT: usize = 10;

/// One byte of a blob literal: printable ASCII as itself, except the quotes, the
/// backquote and the backslash, which are escaped like any other byte (`\22`).
pub fn pp_char(v: u8) -> String {
    let plain = (0x20..=0x7e).contains(&v) && !matches!(v, b'"' | b'\'' | b'`' | b'\\');
    if plain {
        char::from(v).to_string()
    } else {
        format!("\\{v:02x}")
    }
}

/// Values whose text form ends in a type annotation (`5 : nat8`), which an `opt`
/// must parenthesise.
fn has_type_annotation(v: &IDLValue) -> bool {
    use IDLValue::*;
    matches!(
        v,
        Int(_)
            | Nat(_)
            | Nat8(_)
            | Nat16(_)
            | Nat32(_)
            | Nat64(_)
            | Int8(_)
            | Int16(_)
            | Int32(_)
            | Int64(_)
            | Float32(_)
            | Float64(_)
            | Null
            | Reserved
    )
}

/// A record whose labels are 0, 1, 2…, written without labels.
fn is_tuple(fields: &[IDLField]) -> bool {
    fields
        .iter()
        .enumerate()
        .all(|(i, f)| u32::try_from(i).is_ok_and(|i| f.id.get_id() == i))
}

/// The one-line text of a value.
fn one_line(v: &IDLValue) -> RcDoc<'_> {
    RcDoc::as_string(format!("{v:?}"))
}

/// A value laid out over lines down to `depth` levels; below that, on one line.
pub fn pp_value(depth: usize, v: &IDLValue) -> RcDoc<'_> {
    use IDLValue::*;
    let Some(below) = depth.checked_sub(1) else {
        return one_line(v);
    };
    match v {
        Text(s) => RcDoc::as_string(format!("\"{}\"", s.escape_debug())),
        Opt(inner) if has_type_annotation(inner) => {
            kwd("opt").append(enclose("(", pp_value(below, inner), ")"))
        }
        Opt(inner) => kwd("opt").append(pp_value(below, inner)),
        Vec(vs) if matches!(vs.first(), Some(Nat8(_))) => one_line(v),
        Vec(vs) if vs.len() > MAX_ELEMENTS_FOR_PRETTY_PRINT => one_line(v),
        Vec(vs) => {
            let values = vs.iter().map(|v| pp_value(below, v));
            kwd("vec").append(enclose_space("{", concat(values, ";"), "}"))
        }
        Record(fields) if is_tuple(fields) => {
            let values = fields.iter().map(|f| pp_value(below, &f.val));
            kwd("record").append(enclose_space("{", concat(values, ";"), "}"))
        }
        Record(fields) => {
            let fields = fields.iter().map(|f| pp_field(below, f, false));
            kwd("record").append(enclose_space("{", concat(fields, ";"), "}"))
        }
        Variant(case) => {
            let case = pp_field(below, &case.0, true);
            kwd("variant").append(enclose_space("{", case, "}"))
        }
        _ => one_line(v),
    }
}

/// `label = value` (a variant's `null` case as its label alone), the value laid out
/// down to `depth` levels.
fn pp_field(depth: usize, field: &IDLField, is_variant: bool) -> RcDoc<'_> {
    let label = pp_label_raw(&field.id);
    if is_variant && field.val == IDLValue::Null {
        label
    } else {
        label.append(kwd(" =")).append(pp_value(depth, &field.val))
    }
}

/// A message's arguments, `(v1, v2)`.
pub fn pp_args(args: &IDLArgs) -> RcDoc<'_> {
    let values = args
        .args
        .iter()
        .map(|v| pp_value(MAX_ELEMENTS_FOR_PRETTY_PRINT, v));
    enclose("(", concat(values, ","), ")")
}
