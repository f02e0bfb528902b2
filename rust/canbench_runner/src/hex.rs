//! Hex text for bytes: how init arguments, script arguments, callers and replies are written.

/// Hex digits, two per byte, any case; empty is no bytes.
pub fn from_hex(text: &str) -> Result<Vec<u8>, String> {
    if let Some(bad) = text.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(format!("`{bad}` is not a hex digit"));
    }
    if text.len() % 2 != 0 {
        return Err("odd number of hex digits".into());
    }
    // Only ASCII hex digits are left, so every pair parses.
    text.as_bytes()
        .chunks(2)
        .map(|pair| {
            let pair = std::str::from_utf8(pair).map_err(|e| e.to_string())?;
            u8::from_str_radix(pair, 16).map_err(|e| e.to_string())
        })
        .collect()
}

/// Lower-case hex digits, two per byte.
pub fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
