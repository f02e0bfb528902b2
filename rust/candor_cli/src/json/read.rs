//! A small JSON reader that keeps each number's text, so `nat`, `int` and
//! `float32` values are converted from the digits as written (no detour through
//! `f64`), and reports errors with their byte offset. Nesting is bounded by
//! [`MAX_DEPTH`].

/// Arrays and objects nested deeper than this are refused.
pub const MAX_DEPTH: usize = 256;

/// A JSON value; numbers keep their text, objects their members in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// What the value is, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

/// Parses one JSON document (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json, String> {
    let mut r = Reader {
        s: text.as_bytes(),
        pos: 0,
    };
    let v = r.value(0)?;
    r.space();
    if r.pos != r.s.len() {
        return Err(r.error("unexpected text after the JSON value"));
    }
    Ok(v)
}

struct Reader<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    #[cold]
    fn error(&self, what: &str) -> String {
        format!("invalid JSON at byte {}: {what}", self.pos)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.s[self.pos..].starts_with(w.as_bytes()) {
            self.pos += w.len();
            Ok(v)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        self.space();
        match self.peek() {
            None => Err(self.error("unexpected end of input")),
            Some(b'n') => self.word("null", Json::Null),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'[') => {
                let depth = self.deeper(depth)?;
                self.pos += 1;
                let mut items = Vec::new();
                self.space();
                if self.eat(b']') {
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth)?);
                    self.space();
                    if self.eat(b']') {
                        return Ok(Json::Array(items));
                    }
                    if !self.eat(b',') {
                        return Err(self.error("expected `,` or `]`"));
                    }
                }
            }
            Some(b'{') => {
                let depth = self.deeper(depth)?;
                self.pos += 1;
                let mut members = Vec::new();
                self.space();
                if self.eat(b'}') {
                    return Ok(Json::Object(members));
                }
                loop {
                    self.space();
                    if self.peek() != Some(b'"') {
                        return Err(self.error("expected a member name in quotes"));
                    }
                    let key = self.string()?;
                    self.space();
                    if !self.eat(b':') {
                        return Err(self.error("expected `:`"));
                    }
                    members.push((key, self.value(depth)?));
                    self.space();
                    if self.eat(b'}') {
                        return Ok(Json::Object(members));
                    }
                    if !self.eat(b',') {
                        return Err(self.error("expected `,` or `}`"));
                    }
                }
            }
            Some(_) => Err(self.error("expected a value")),
        }
    }

    fn deeper(&self, depth: usize) -> Result<usize, String> {
        if depth >= MAX_DEPTH {
            return Err(self.error(&format!("nested deeper than {MAX_DEPTH}")));
        }
        Ok(depth + 1)
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.pos;
        self.eat(b'-');
        let digits = |r: &mut Self| {
            let at = r.pos;
            while let Some(b'0'..=b'9') = r.peek() {
                r.pos += 1;
            }
            r.pos > at
        };
        if self.eat(b'0') {
            if let Some(b'0'..=b'9') = self.peek() {
                return Err(self.error("a number cannot start with 0"));
            }
        } else if !digits(self) {
            return Err(self.error("expected digits"));
        }
        if self.eat(b'.') && !digits(self) {
            return Err(self.error("expected digits after `.`"));
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if !digits(self) {
                return Err(self.error("expected exponent digits"));
            }
        }
        // Only ASCII was consumed.
        Ok(Json::Number(
            String::from_utf8_lossy(&self.s[start..self.pos]).into_owned(),
        ))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut v = 0;
        for _ in 0..4 {
            let d = self
                .peek()
                .and_then(|b| (b as char).to_digit(16))
                .ok_or_else(|| self.error("expected four hex digits after \\u"))?;
            v = v * 16 + d;
            self.pos += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, String> {
        self.pos += 1; // the opening quote
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error("unterminated string"));
            };
            self.pos += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return Err(self.error("unterminated string"));
                    };
                    self.pos += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&hi) {
                                if !(self.eat(b'\\') && self.eat(b'u')) {
                                    return Err(self.error("unpaired surrogate"));
                                }
                                let lo = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&lo) {
                                    return Err(self.error("unpaired surrogate"));
                                }
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or_else(|| self.error("unpaired surrogate"))?
                        }
                        _ => return Err(self.error("unknown escape")),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return Err(self.error("control character in a string")),
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.error("a string is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_errors() {
        assert_eq!(
            parse(r#" {"a": [1, -2.5e3, "x\u00e9\ud83d\ude00"], "b": null} "#).unwrap(),
            Json::Object(vec![
                (
                    "a".into(),
                    Json::Array(vec![
                        Json::Number("1".into()),
                        Json::Number("-2.5e3".into()),
                        Json::String("xé😀".into()),
                    ])
                ),
                ("b".into(), Json::Null),
            ])
        );
        for bad in [
            "",
            "[1,]",
            "{1:2}",
            "01",
            "\"\\x\"",
            "[1] 2",
            "\"\\ud800\"",
            "-",
            "1.",
            "tru",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).unwrap_err().contains("nested deeper"));
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&ok).is_ok());
    }
}
