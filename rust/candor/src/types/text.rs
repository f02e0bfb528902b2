//! How Candid text writes labels and numbers: the checks and the digit grouping that
//! the printers, the decoder's messages and the type macros share. Below every other
//! module that prints (candid has them in `utils`, which re-exports them here).

use crate::error::{Error, Result};

/// Checks that a sorted sequence has no two equal neighbours (labels whose hashes
/// collide, methods defined twice); the error names both.
pub fn check_unique<'a, I, T>(sorted: I) -> Result<()>
where
    T: 'a + PartialEq + std::fmt::Display,
    I: Iterator<Item = &'a T>,
{
    let mut prev: Option<&T> = None;
    for item in sorted {
        if let Some(p) = prev.filter(|p| *p == item) {
            return Err(Error::msg(format!(
                "label '{item}' hash collision with '{p}'"
            )));
        }
        prev = Some(item);
    }
    Ok(())
}

/// Writes a decimal number with `_` between groups of three digits from the right
/// (`-1234567` → `-1_234_567`), as Candid text prints numbers.
pub fn pp_num_str(s: &str) -> String {
    let (sign, digits) = match s.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", s),
    };
    if !digits.is_ascii() {
        // Grouping is defined on digits; anything else is returned as given.
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + digits.len() / 3);
    out.push_str(sign);
    let first = match digits.len() % 3 {
        0 => 3.min(digits.len()),
        n => n,
    };
    let (head, tail) = digits.split_at(first);
    out.push_str(head);
    for group in tail.as_bytes().chunks(3) {
        out.push('_');
        out.extend(group.iter().map(|&b| b as char));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_unique_names_both_labels() {
        assert!(check_unique([1, 2, 3].iter()).is_ok());
        let e = check_unique(["a", "b", "b"].iter()).unwrap_err();
        assert_eq!(e.to_string(), "label 'b' hash collision with 'b'");
    }

    #[test]
    fn pp_num_str_groups_from_the_right() {
        for (n, s) in [
            ("0", "0"),
            ("12", "12"),
            ("123", "123"),
            ("1234", "1_234"),
            ("123456", "123_456"),
            ("1234567", "1_234_567"),
            ("-1", "-1"),
            ("-123", "-123"),
            ("-1234", "-1_234"),
            ("", ""),
            ("1é234", "1é234"),
        ] {
            assert_eq!(pp_num_str(n), s, "{n}");
        }
    }
}
