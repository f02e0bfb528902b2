//! Where a message comes from (an argument, a file, standard input) and how it is
//! written (raw bytes, hex, or a Candid `blob "…"` literal); and how bytes are
//! written out.

use std::io::{Read, Write};

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Format {
    Raw,
    Hex,
    Blob,
}

impl Format {
    pub fn parse(s: &str) -> Result<Format, String> {
        match s {
            "raw" => Ok(Format::Raw),
            "hex" => Ok(Format::Hex),
            "blob" => Ok(Format::Blob),
            other => Err(format!("unknown format `{other}` (raw, hex or blob)")),
        }
    }
}

/// The bytes of an input: a file mapped into memory, or bytes read or copied.
///
/// A message or a Candid text of a few megabytes is read once, front to back;
/// copying it into the heap touches as many fresh pages as it has, and on a
/// virtual machine a fresh page costs microseconds, as much as parsing its
/// contents. A regular file (standard input redirected from one, or `@FILE`) is
/// mapped instead: its pages come from the page cache, several per fault.
pub enum Input {
    Mapped(crate::mapped::Mapped),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Input::Mapped(m) => m,
            Input::Owned(v) => v,
        }
    }
}

/// The text or bytes of an input: the argument itself, the file it names with `@`,
/// or standard input for `-` or no argument.
pub fn read_source(arg: Option<&str>) -> Result<Input, String> {
    match arg {
        None | Some("-") => {
            let stdin = std::io::stdin();
            if let Some(m) = crate::mapped::Mapped::stdin(&stdin) {
                return Ok(Input::Mapped(m));
            }
            let mut buf = Vec::new();
            stdin
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(Input::Owned(buf))
        }
        Some(a) => match a.strip_prefix('@') {
            Some(path) => {
                let file =
                    std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
                if let Some(m) = crate::mapped::Mapped::file(&file) {
                    return Ok(Input::Mapped(m));
                }
                let mut buf = Vec::new();
                (&file)
                    .read_to_end(&mut buf)
                    .map_err(|e| format!("cannot read {path}: {e}"))?;
                Ok(Input::Owned(buf))
            }
            None => Ok(Input::Owned(a.as_bytes().to_vec())),
        },
    }
}

/// The message in `data`, in `format` or, without one, guessed: bytes starting
/// with `DIDL` are raw, `blob "…"` is a blob literal, anything else must be hex.
pub fn message(data: Input, format: Option<Format>) -> Result<Input, String> {
    let format = format.unwrap_or_else(|| {
        if data.starts_with(b"DIDL") {
            Format::Raw
        } else if data.trim_ascii_start().starts_with(b"blob") {
            Format::Blob
        } else {
            Format::Hex
        }
    });
    match format {
        Format::Raw => Ok(data),
        Format::Hex => from_hex(&data).map(Input::Owned),
        Format::Blob => {
            let text = std::str::from_utf8(&data).map_err(|_| "the blob literal is not UTF-8")?;
            match candor_parser::parse_idl_value(text.trim()) {
                Ok(candor::IDLValue::Blob(b)) => Ok(Input::Owned(b)),
                Ok(candor::IDLValue::Text(t)) => Ok(Input::Owned(t.into_bytes())),
                Ok(_) => Err("expected a blob literal `blob \"…\"`".into()),
                Err(e) => Err(format!("not a blob literal: {e}")),
            }
        }
    }
}

// Each byte's value as a hex digit, or NOT_HEX: the text parser's table.
use candor_parser::HEX_DIGIT as HEX_VALUE;
/// What [`HEX_VALUE`] gives a byte that is not a hex digit.
const NOT_HEX: u8 = 0xff;

/// Hex digits, with any whitespace between them.
///
/// Plain hex (the common case: a message piped from another tool, white space at
/// most around it) is read two digits at a time from one table, with no branch
/// per byte; white space inside and errors take the byte-at-a-time path.
pub fn from_hex(data: &[u8]) -> Result<Vec<u8>, String> {
    let digits = data.trim_ascii();
    if digits.len() % 2 == 0 {
        let mut plain = true;
        let out: Vec<u8> = digits
            .chunks_exact(2)
            .map(|pair| {
                let (h, l) = match *pair {
                    [h, l] => (HEX_VALUE[usize::from(h)], HEX_VALUE[usize::from(l)]),
                    _ => (NOT_HEX, NOT_HEX),
                };
                plain &= h | l < 16;
                h << 4 | l
            })
            .collect();
        if plain {
            return Ok(out);
        }
    }
    let mut out = Vec::with_capacity(data.len() / 2);
    let mut high: Option<u8> = None;
    let mut i = 0;
    while let Some(&d) = data.get(i) {
        if high.is_none() {
            if let Some(&e) = data.get(i + 1) {
                let (h, l) = (HEX_VALUE[usize::from(d)], HEX_VALUE[usize::from(e)]);
                if h | l < 16 {
                    out.push(h << 4 | l);
                    i += 2;
                    continue;
                }
            }
        }
        i += 1;
        if d.is_ascii_whitespace() {
            continue;
        }
        let v = HEX_VALUE[usize::from(d)];
        if v == NOT_HEX {
            return Err(format!(
                "not hex: `{}` at position {} (give raw bytes with --input-format raw)",
                d as char,
                i - 1
            ));
        }
        match high.take() {
            None => high = Some(v),
            Some(h) => out.push(h << 4 | v),
        }
    }
    if high.is_some() {
        return Err("odd number of hex digits".into());
    }
    Ok(out)
}

/// `bytes` as lowercase hex digits, appended to `out`.
pub fn push_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    /// Each byte's two digits.
    static PAIRS: [[u8; 2]; 256] = {
        let mut t = [[0; 2]; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = [DIGITS[i >> 4], DIGITS[i & 15]];
            i += 1;
        }
        t
    };
    let start = out.len();
    out.resize(start + bytes.len() * 2, 0);
    let digits = out.get_mut(start..).unwrap_or_default();
    for (pair, &b) in digits.chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&PAIRS[usize::from(b)]);
    }
}

/// Writes `bytes` to standard output in `format`.
///
/// Hex goes out in pieces through one small buffer: the whole text would be twice
/// the message, in pages touched once.
pub fn write(bytes: &[u8], format: Format) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write: {e}");
    let mut stdout = std::io::stdout().lock();
    match format {
        Format::Raw => stdout.write_all(bytes).map_err(fail),
        Format::Hex => {
            const PIECE: usize = 1 << 15;
            let mut text = Vec::with_capacity(2 * PIECE + 1);
            let mut pieces = bytes.chunks(PIECE).peekable();
            while let Some(piece) = pieces.next() {
                text.clear();
                push_hex(&mut text, piece);
                if pieces.peek().is_none() {
                    text.push(b'\n');
                }
                stdout.write_all(&text).map_err(fail)?;
            }
            if bytes.is_empty() {
                stdout.write_all(b"\n").map_err(fail)?;
            }
            Ok(())
        }
        Format::Blob => {
            let mut text = Vec::new();
            crate::scalar::write_blob(&mut text, bytes);
            text.push(b'\n');
            stdout.write_all(&text).map_err(fail)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_guessed_and_forced() {
        let message =
            |data: &[u8], format| message(Input::Owned(data.to_vec()), format).map(|m| m.to_vec());
        assert_eq!(message(b"DIDL\0\0", None).unwrap(), b"DIDL\0\0");
        assert_eq!(message(b"4449 444c\n0000", None).unwrap(), b"DIDL\0\0");
        assert_eq!(
            message(b"blob \"DIDL\\00\\00\"", None).unwrap(),
            b"DIDL\0\0"
        );
        assert!(message(b"zz", None).is_err());
        assert!(message(b"abc", Some(Format::Hex)).is_err());
        assert_eq!(message(b"ab", Some(Format::Raw)).unwrap(), b"ab");
    }
}
