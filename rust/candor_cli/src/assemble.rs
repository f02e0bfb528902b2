//! `candor assemble`: `explain`'s text (possibly edited by hand) back to bytes.
//!
//! The bytes are the hex column of every line, in order, so an unedited explanation
//! gives back the exact message, malformed or not. Two edits are understood:
//! * the hex of any line can be changed, added or removed (offsets are not checked:
//!   they only help reading);
//! * the value after ` = ` on a scalar line (`nat`, `text`, `principal`, `blob`…) can
//!   be rewritten in Candid syntax: when it no longer matches the line's bytes, the
//!   value is encoded again, with its length prefix (for `text` and `blob`) computed
//!   anew unless `keep_lengths` asks to keep the old prefix (to build a message whose
//!   length lies).
//!
//! A line whose hex was edited keeps its old value text, which then no longer
//! matches: to write bytes by hand on a scalar line, remove its ` = value` part.

use crate::scalar::{self, Scalar};

/// A line that cannot be read, with its 1-based number.
#[derive(Debug, PartialEq, Eq)]
pub struct Error {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The bytes `text` describes; see the module docs.
pub fn assemble(text: &str, keep_lengths: bool) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(text.len() / 3);
    let mut rendered = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let fail = |message: String| Error {
            line: n + 1,
            message,
        };
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') || line.starts_with("!!") {
            continue;
        }
        let Some((offset, rest)) = line.split_once(':') else {
            return Err(fail("expected `OFFSET: HEX | ANNOTATION`".into()));
        };
        if offset.is_empty() || !offset.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(fail(format!("`{offset}` is not a hex offset")));
        }
        let (hex, annotation) = rest.split_once(" | ").unwrap_or((rest, ""));
        let start = out.len();
        push_hex(&mut out, hex).map_err(fail)?;
        let Some((ty, value)) = scalar_value(annotation) else {
            continue;
        };
        rendered.clear();
        let bytes = &out[start..];
        if scalar::render(&mut rendered, ty, bytes).is_some() && rendered == value.as_bytes() {
            continue;
        }
        let mut encoded = scalar::encode(ty, value).map_err(fail)?;
        if keep_lengths && matches!(ty, Scalar::Text | Scalar::Blob) {
            let old_prefix = leb_len(bytes);
            let new_prefix = leb_len(&encoded);
            let mut kept = bytes[..old_prefix].to_vec();
            kept.extend_from_slice(&encoded[new_prefix..]);
            encoded = kept;
        }
        out.truncate(start);
        out.extend_from_slice(&encoded);
    }
    Ok(out)
}

/// Appends the bytes of a hex column (`44 49 44 4c`, spaces optional between pairs).
fn push_hex(out: &mut Vec<u8>, hex: &str) -> Result<(), String> {
    let digits = hex.bytes().filter(|b| !b.is_ascii_whitespace());
    let mut high: Option<u8> = None;
    for d in digits {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return Err(format!("`{}` is not a hex digit", d as char)),
        };
        match high.take() {
            None => high = Some(v),
            Some(h) => out.push(h << 4 | v),
        }
    }
    match high {
        None => Ok(()),
        Some(_) => Err("odd number of hex digits".into()),
    }
}

/// The scalar type and value text of a value annotation
/// `PATH : TYPE = VALUE  [N units; NOTE]` (the bracket is optional).
fn scalar_value(annotation: &str) -> Option<(Scalar, &str)> {
    let (head, value) = annotation.split_once(" = ")?;
    let (_, ty) = head.rsplit_once(" : ")?;
    Some((Scalar::from_name(ty.trim())?, strip_units(value).trim()))
}

/// `VALUE` without explain's `  [N units…]` suffix. A value never ends with `]`
/// (text, blobs, principals and references end with a quote or a name, numbers
/// with a digit), so a final bracket group is the suffix.
fn strip_units(value: &str) -> &str {
    let value = value.trim_end();
    if !value.ends_with(']') {
        return value;
    }
    match value.rfind("  [") {
        Some(i) if value[i + 3..].starts_with(|c: char| c.is_ascii_digit()) => &value[..i],
        _ => value,
    }
}

/// How many bytes the LEB128 number at the start of `bytes` takes.
fn leb_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|b| b & 0x80 == 0)
        .map_or(bytes.len(), |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_columns_make_the_bytes_and_comments_are_skipped() {
        let text =
            "# comment\n00000000: 44 49 | magic\n00000002: 44 4c\n!! fault\n00000004: 00 00 | x\n";
        assert_eq!(assemble(text, false).unwrap(), b"DIDL\0\0".to_vec());
    }

    #[test]
    fn an_edited_value_is_encoded_again_with_its_length() {
        let line = "00000007: 02 68 69 | arg 0 : text = \"hello\"";
        assert_eq!(assemble(line, false).unwrap(), b"\x05hello".to_vec());
        assert_eq!(assemble(line, true).unwrap(), b"\x02hello".to_vec());
        let unchanged = "00000007: 02 68 69 | arg 0 : text = \"hi\"";
        assert_eq!(assemble(unchanged, false).unwrap(), b"\x02hi".to_vec());
        // Non-canonical LEB128 stays as written while its value is not edited.
        let padded = "00000007: 81 80 00 | arg 0 : nat = 1";
        assert_eq!(assemble(padded, false).unwrap(), vec![0x81, 0x80, 0x00]);
        let edited = "00000007: 81 80 00 | arg 0 : nat = 300";
        assert_eq!(assemble(edited, false).unwrap(), vec![0xac, 0x02]);
        // explain's units suffix is not part of the value.
        let suffixed = "00000007: 81 80 00 | arg 0 : nat = 1  [3 units]";
        assert_eq!(assemble(suffixed, false).unwrap(), vec![0x81, 0x80, 0x00]);
        let noted = "00000007: 02 68 69 | arg 0 : text = \"hi!\"  [3 units; skipped: not in the expected type]";
        assert_eq!(assemble(noted, false).unwrap(), b"\x03hi!".to_vec());
    }

    #[test]
    fn bad_lines_name_their_number() {
        let err = assemble("00000000: 44\nnonsense", false).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(assemble("00000000: 4", false).is_err());
        assert!(assemble("00000000: zz", false).is_err());
        let err = assemble("00000000: 05 | arg 0 : nat8 = 300", false).unwrap_err();
        assert!(err.message.contains("does not fit nat8"), "{}", err.message);
    }
}
