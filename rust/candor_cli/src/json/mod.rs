//! Candid values as JSON, both ways, losslessly: `decode --json` writes a message's
//! values, `encode --json` reads them back at a method's types, and the bytes come
//! back identical. The mapping (also in the crate's README):
//!
//! | Candid | JSON |
//! |---|---|
//! | `null`, `reserved` | `null` |
//! | `bool` | `true` / `false` |
//! | `nat8` … `nat32`, `int8` … `int32` | a number |
//! | `nat`, `int`, `nat64`, `int64` | a number up to 2^53 in magnitude, a string of digits beyond (`"-9007199254740993"`) |
//! | `float32`, `float64` | a number; `"NaN"`, `"Infinity"`, `"-Infinity"`, and `"NaN:0x…"` for a NaN with other bits |
//! | `text` | a string |
//! | `blob` (`vec nat8`) | a string of hex digits (an array of numbers is read too) |
//! | `vec t` | an array |
//! | `opt t` | `[]` for none, `[v]` for some (nests: `[[]]` is `opt opt` with none inside) |
//! | `record` | an object; keys are field names, or the field id in decimal when there is no name (tuples: `"0"`, `"1"`, …) |
//! | `variant` | an object with one key, the case |
//! | `principal`, `service` | the principal's text form |
//! | `func` | `{"principal": "…", "method": "…"}` |
//!
//! Reading is typed by the method, so a key may also be written as a field id or as
//! any name whose hash is the field's id (what `decode --json` prints without a
//! .did, with or without names found for the hashes), integers may be numbers or
//! strings, and an `opt`, `null` or `reserved` record field may be left out (none).
//! Numbers keep their text on the way in: a `float32` is read from its digits, not
//! through `f64`.

pub mod read;

use candor::types::{Label, Type, TypeEnv, TypeInner};
use candor::{IDLArgs, IDLField, IDLValue, Int, Nat, Principal, VariantValue};
use read::Json;
use std::fmt::Write;
use std::str::FromStr;

/// Integers beyond this magnitude are written as strings (JavaScript's
/// `Number.MAX_SAFE_INTEGER` + 1: every integer up to it is exact in an `f64`).
const SAFE: u64 = 1 << 53;

/// The arguments as a JSON array, indented, ending in a newline.
pub fn args_to_json(args: &IDLArgs) -> String {
    let mut out = String::from("[");
    for (i, v) in args.args.iter().enumerate() {
        out.push_str(if i == 0 { "\n  " } else { ",\n  " });
        write_value(&mut out, v, 1);
    }
    out.push_str(if args.args.is_empty() { "]\n" } else { "\n]\n" });
    out
}

fn indent(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// An integer's decimal digits, quoted when its magnitude is beyond 2^53.
fn write_integer(out: &mut String, digits: &str) {
    let magnitude = digits.strip_prefix('-').unwrap_or(digits);
    if magnitude.parse::<u64>().is_ok_and(|m| m <= SAFE) {
        out.push_str(digits);
    } else {
        out.push('"');
        out.push_str(digits);
        out.push('"');
    }
}

fn write_f64(out: &mut String, v: f64) {
    if v.is_finite() {
        // `{:?}` is the shortest text that reads back to the same value, and is
        // valid JSON (`1.0`, `-0.0`, `1e300`).
        let _ = write!(out, "{v:?}");
    } else if v.is_nan() && v.to_bits() == f64::NAN.to_bits() {
        out.push_str("\"NaN\"");
    } else if v.is_nan() {
        let _ = write!(out, "\"NaN:0x{:016x}\"", v.to_bits());
    } else if v > 0.0 {
        out.push_str("\"Infinity\"");
    } else {
        out.push_str("\"-Infinity\"");
    }
}

fn write_f32(out: &mut String, v: f32) {
    if v.is_finite() {
        let _ = write!(out, "{v:?}");
    } else if v.is_nan() && v.to_bits() == f32::NAN.to_bits() {
        out.push_str("\"NaN\"");
    } else if v.is_nan() {
        let _ = write!(out, "\"NaN:0x{:08x}\"", v.to_bits());
    } else if v > 0.0 {
        out.push_str("\"Infinity\"");
    } else {
        out.push_str("\"-Infinity\"");
    }
}

/// The JSON key of a label: its name, or its id in decimal.
pub fn label_key(l: &Label) -> String {
    match l {
        Label::Named(n) => n.clone(),
        Label::Id(i) | Label::Unnamed(i) => i.to_string(),
    }
}

fn write_value(out: &mut String, v: &IDLValue, level: usize) {
    match v {
        IDLValue::Null | IDLValue::Reserved => out.push_str("null"),
        IDLValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        IDLValue::Text(s) => write_string(out, s),
        IDLValue::Number(s) => write_string(out, s),
        IDLValue::Float64(f) => write_f64(out, *f),
        IDLValue::Float32(f) => write_f32(out, *f),
        IDLValue::Nat(n) => write_integer(out, &n.0.to_string()),
        IDLValue::Int(n) => write_integer(out, &n.0.to_string()),
        IDLValue::Nat64(n) => write_integer(out, &n.to_string()),
        IDLValue::Int64(n) => write_integer(out, &n.to_string()),
        IDLValue::Nat8(n) => {
            let _ = write!(out, "{n}");
        }
        IDLValue::Nat16(n) => {
            let _ = write!(out, "{n}");
        }
        IDLValue::Nat32(n) => {
            let _ = write!(out, "{n}");
        }
        IDLValue::Int8(n) => {
            let _ = write!(out, "{n}");
        }
        IDLValue::Int16(n) => {
            let _ = write!(out, "{n}");
        }
        IDLValue::Int32(n) => {
            let _ = write!(out, "{n}");
        }
        IDLValue::Principal(p) | IDLValue::Service(p) => write_string(out, &p.to_text()),
        IDLValue::Func(p, m) => {
            out.push_str("{\"principal\": ");
            write_string(out, &p.to_text());
            out.push_str(", \"method\": ");
            write_string(out, m);
            out.push('}');
        }
        IDLValue::Blob(b) => {
            out.push('"');
            for byte in b {
                let _ = write!(out, "{byte:02x}");
            }
            out.push('"');
        }
        IDLValue::None => out.push_str("[]"),
        IDLValue::Opt(v) => {
            out.push('[');
            write_value(out, v, level);
            out.push(']');
        }
        IDLValue::Vec(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                write_value(out, item, level + 1);
            }
            indent(out, level);
            out.push(']');
        }
        IDLValue::Record(fields) => {
            if fields.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                write_string(out, &label_key(&f.id));
                out.push_str(": ");
                write_value(out, &f.val, level + 1);
            }
            indent(out, level);
            out.push('}');
        }
        IDLValue::Variant(VariantValue(f, _)) => {
            out.push('{');
            write_string(out, &label_key(&f.id));
            out.push_str(": ");
            write_value(out, &f.val, level);
            out.push('}');
        }
    }
}

/// The values of a JSON array, read at `types` (defined in `env`).
pub fn args_from_json(text: &str, env: &TypeEnv, types: &[Type]) -> Result<IDLArgs, String> {
    let Json::Array(items) = read::parse(text)? else {
        return Err("the JSON values must be an array, one element per argument".into());
    };
    if items.len() > types.len() {
        return Err(format!(
            "{} values for {} argument types",
            items.len(),
            types.len()
        ));
    }
    let mut args = Vec::with_capacity(types.len());
    for (i, t) in types.iter().enumerate() {
        let path = format!("argument {i}");
        args.push(match items.get(i) {
            Some(j) => value(j, t, env, &path)?,
            None => absent(t, env).ok_or_else(|| format!("{path}: missing"))?,
        });
    }
    Ok(IDLArgs { args })
}

/// `t` with names followed to their definitions.
fn resolve<'a>(t: &'a Type, env: &'a TypeEnv) -> Result<&'a Type, String> {
    match t.as_ref() {
        TypeInner::Var(name) => env.rec_find_type(name).map_err(|e| e.to_string()),
        _ => Ok(t),
    }
}

/// The value of a left-out argument or field, when its type has one.
fn absent(t: &Type, env: &TypeEnv) -> Option<IDLValue> {
    match resolve(t, env).ok()?.as_ref() {
        TypeInner::Opt(_) => Some(IDLValue::None),
        TypeInner::Null => Some(IDLValue::Null),
        TypeInner::Reserved => Some(IDLValue::Reserved),
        _ => None,
    }
}

#[cold]
fn mismatch(path: &str, expected: &str, j: &Json) -> String {
    format!("{path}: expected {expected}, found {}", j.kind())
}

/// The digits of an integer given as a number or a string.
fn integer_text<'a>(j: &'a Json, path: &str, what: &str) -> Result<&'a str, String> {
    let s = match j {
        Json::Number(s) | Json::String(s) => s.as_str(),
        _ => return Err(mismatch(path, what, j)),
    };
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{path}: `{s}` is not an integer ({what})"));
    }
    Ok(s)
}

fn fixed<T: FromStr>(j: &Json, path: &str, what: &str) -> Result<T, String> {
    integer_text(j, path, what)?
        .parse()
        .map_err(|_| format!("{path}: out of range for {what}"))
}

/// A float from a JSON number (one beyond the type's range is an error, not an
/// infinity) or from one of the strings for the values JSON has no number for.
fn float<T: FromStr + Into<f64> + Copy>(
    j: &Json,
    path: &str,
    what: &str,
    from_bits: impl Fn(&str) -> Option<T>,
) -> Result<T, String> {
    let parsed = match j {
        Json::Number(s) => match s.parse::<T>() {
            Ok(v) if v.into().is_infinite() => {
                return Err(format!("{path}: {s} is out of range for {what}"))
            }
            Ok(v) => Some(v),
            Err(_) => None,
        },
        Json::String(s) => match s.as_str() {
            "NaN" => "NaN".parse().ok(),
            "Infinity" => "inf".parse().ok(),
            "-Infinity" => "-inf".parse().ok(),
            other => other.strip_prefix("NaN:0x").and_then(from_bits),
        },
        _ => return Err(mismatch(path, what, j)),
    };
    parsed.ok_or_else(|| format!("{path}: not a {what}"))
}

fn principal(j: &Json, path: &str) -> Result<Principal, String> {
    let Json::String(s) = j else {
        return Err(mismatch(path, "a principal in text form", j));
    };
    Principal::from_text(s).map_err(|e| format!("{path}: {e}"))
}

fn blob(s: &str, path: &str) -> Result<Vec<u8>, String> {
    crate::input::from_hex(s.as_bytes())
        .map_err(|e| format!("{path}: a blob is a string of hex digits: {e}"))
}

/// Does `key` name the field labelled `l`: its name, its id in decimal, or a name
/// whose hash is its id?
fn key_matches(key: &str, l: &Label) -> bool {
    if let Label::Named(n) = l {
        if n == key {
            return true;
        }
    }
    key.parse::<u32>().ok() == Some(l.get_id()) || candor::idl_hash(key) == l.get_id()
}

fn value(j: &Json, t: &Type, env: &TypeEnv, path: &str) -> Result<IDLValue, String> {
    let t = resolve(t, env)?;
    Ok(match t.as_ref() {
        TypeInner::Null => match j {
            Json::Null => IDLValue::Null,
            _ => return Err(mismatch(path, "null", j)),
        },
        TypeInner::Reserved => IDLValue::Reserved,
        TypeInner::Bool => match j {
            Json::Bool(b) => IDLValue::Bool(*b),
            _ => return Err(mismatch(path, "true or false", j)),
        },
        TypeInner::Nat => {
            let s = integer_text(j, path, "nat")?;
            IDLValue::Nat(Nat::from_str(s).map_err(|_| format!("{path}: not a nat: `{s}`"))?)
        }
        TypeInner::Int => {
            let s = integer_text(j, path, "int")?;
            IDLValue::Int(Int::from_str(s).map_err(|_| format!("{path}: not an int: `{s}`"))?)
        }
        TypeInner::Nat8 => IDLValue::Nat8(fixed(j, path, "nat8")?),
        TypeInner::Nat16 => IDLValue::Nat16(fixed(j, path, "nat16")?),
        TypeInner::Nat32 => IDLValue::Nat32(fixed(j, path, "nat32")?),
        TypeInner::Nat64 => IDLValue::Nat64(fixed(j, path, "nat64")?),
        TypeInner::Int8 => IDLValue::Int8(fixed(j, path, "int8")?),
        TypeInner::Int16 => IDLValue::Int16(fixed(j, path, "int16")?),
        TypeInner::Int32 => IDLValue::Int32(fixed(j, path, "int32")?),
        TypeInner::Int64 => IDLValue::Int64(fixed(j, path, "int64")?),
        TypeInner::Float32 => IDLValue::Float32(float(j, path, "float32", |h| {
            u32::from_str_radix(h, 16)
                .ok()
                .map(f32::from_bits)
                .filter(|f| f.is_nan())
        })?),
        TypeInner::Float64 => IDLValue::Float64(float(j, path, "float64", |h| {
            u64::from_str_radix(h, 16)
                .ok()
                .map(f64::from_bits)
                .filter(|f| f.is_nan())
        })?),
        TypeInner::Text => match j {
            Json::String(s) => IDLValue::Text(s.clone()),
            _ => return Err(mismatch(path, "a string", j)),
        },
        TypeInner::Principal => IDLValue::Principal(principal(j, path)?),
        TypeInner::Service(_) => IDLValue::Service(principal(j, path)?),
        TypeInner::Func(_) => {
            let Json::Object(members) = j else {
                return Err(mismatch(
                    path,
                    "an object {\"principal\": …, \"method\": …}",
                    j,
                ));
            };
            let (mut p, mut m) = (None, None);
            for (k, v) in members {
                match (k.as_str(), v) {
                    ("principal", _) if p.is_none() => p = Some(principal(v, path)?),
                    ("method", Json::String(s)) if m.is_none() => m = Some(s.clone()),
                    _ => return Err(format!("{path}: unexpected member `{k}` of a func")),
                }
            }
            match (p, m) {
                (Some(p), Some(m)) => IDLValue::Func(p, m),
                _ => return Err(format!("{path}: a func needs \"principal\" and \"method\"")),
            }
        }
        TypeInner::Opt(inner) => match j {
            Json::Array(items) => match items.as_slice() {
                [] => IDLValue::None,
                [v] => IDLValue::Opt(Box::new(value(v, inner, env, path)?)),
                _ => {
                    return Err(format!(
                        "{path}: an opt is [] or [value], not a longer array"
                    ))
                }
            },
            _ => return Err(mismatch(path, "[] or [value] (an opt)", j)),
        },
        TypeInner::Vec(inner) => {
            let is_bytes = matches!(resolve(inner, env)?.as_ref(), TypeInner::Nat8);
            match j {
                Json::String(s) if is_bytes => IDLValue::Blob(blob(s, path)?),
                Json::Array(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    for (i, item) in items.iter().enumerate() {
                        out.push(value(item, inner, env, &format!("{path} → {i}"))?);
                    }
                    IDLValue::Vec(out)
                }
                _ => return Err(mismatch(path, "an array", j)),
            }
        }
        TypeInner::Record(fields) => {
            let Json::Object(members) = j else {
                return Err(mismatch(path, "an object (a record)", j));
            };
            let mut taken = vec![false; members.len()];
            let mut out = Vec::with_capacity(fields.len());
            for f in fields {
                let key = label_key(&f.id);
                let fpath = format!("{path} → {key}");
                let found = members
                    .iter()
                    .enumerate()
                    .filter(|(_, (k, _))| key_matches(k, &f.id))
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>();
                let val = match found.as_slice() {
                    [] => absent(&f.ty, env).ok_or_else(|| format!("{fpath}: missing"))?,
                    [i] => {
                        taken[*i] = true;
                        value(&members[*i].1, &f.ty, env, &fpath)?
                    }
                    _ => return Err(format!("{fpath}: given more than once")),
                };
                out.push(IDLField {
                    id: f.id.as_ref().clone(),
                    val,
                });
            }
            if let Some(i) = taken.iter().position(|t| !t) {
                return Err(format!(
                    "{path}: the record has no field `{}`",
                    members[i].0
                ));
            }
            IDLValue::Record(out)
        }
        TypeInner::Variant(fields) => {
            let Json::Object(members) = j else {
                return Err(mismatch(path, "an object with one key (a variant)", j));
            };
            let [(k, v)] = members.as_slice() else {
                return Err(format!(
                    "{path}: a variant is an object with exactly one key"
                ));
            };
            let Some((index, f)) = fields
                .iter()
                .enumerate()
                .find(|(_, f)| key_matches(k, &f.id))
            else {
                return Err(format!("{path}: the variant has no case `{k}`"));
            };
            let val = value(v, &f.ty, env, &format!("{path} → {k}"))?;
            IDLValue::Variant(VariantValue(
                Box::new(IDLField {
                    id: f.id.as_ref().clone(),
                    val,
                }),
                index as u64,
            ))
        }
        TypeInner::Empty => return Err(format!("{path}: no value has type empty")),
        _ => return Err(format!("{path}: cannot read a value of type {t}")),
    })
}
