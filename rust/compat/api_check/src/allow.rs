//! The differences kept on purpose, read from `spec/differences.md`.
//!
//! They sit in a fenced block opened with ` ```api-differences `, one entry pattern per
//! line followed by `#` and the section that gives the reason:
//!
//! ```text
//! variant candid::Error::*   # C1
//! ```
//!
//! A pattern is an entry as the checker prints it; a trailing `*` matches any entry
//! that starts with what comes before it.

pub struct Allowed {
    patterns: Vec<Pattern>,
}

struct Pattern {
    text: String,
    reason: String,
}

impl Pattern {
    fn matches(&self, entry: &str) -> bool {
        match self.text.strip_suffix('*') {
            Some(prefix) => entry.starts_with(prefix),
            None => entry == self.text,
        }
    }
}

impl Allowed {
    pub fn parse(markdown: &str) -> Result<Allowed, String> {
        let mut lines = markdown.lines();
        if !lines.any(|l| l.trim() == "```api-differences") {
            return Err("spec/differences.md has no ```api-differences block".into());
        }
        let mut patterns = Vec::new();
        for line in lines {
            let line = line.trim();
            if line == "```" {
                return Ok(Allowed { patterns });
            }
            if line.is_empty() {
                continue;
            }
            let (text, reason) = line.rsplit_once('#').unwrap_or((line, ""));
            let (text, reason) = (text.trim(), reason.trim());
            if reason.is_empty() {
                return Err(format!(
                    "spec/differences.md: `{line}` names no section (`# C1`) for its reason"
                ));
            }
            patterns.push(Pattern {
                text: text.to_string(),
                reason: reason.to_string(),
            });
        }
        Err("spec/differences.md: the ```api-differences block is not closed".into())
    }

    pub fn covers(&self, entry: &str) -> bool {
        self.patterns.iter().any(|p| p.matches(entry))
    }

    /// Patterns that match none of `missing`, with their reasons.
    pub fn unused(&self, missing: &[&String]) -> Vec<String> {
        self.patterns
            .iter()
            .filter(|p| !missing.iter().any(|e| p.matches(e)))
            .map(|p| format!("{}   # {}", p.text, p.reason))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str =
        "text\n```api-differences\nvariant candid::Error::*  # C1\nfn candid::f(1)  # C4\n```\n";

    #[test]
    fn prefix_and_exact_patterns() {
        let allowed = Allowed::parse(DOC).unwrap();
        assert!(allowed.covers("variant candid::Error::Custom(Error)"));
        assert!(allowed.covers("fn candid::f(1)"));
        assert!(!allowed.covers("fn candid::f(2)"));
        assert!(!allowed.covers("enum candid::Error"));
        let missing = ["fn candid::f(1)".to_string()];
        let refs: Vec<&String> = missing.iter().collect();
        assert_eq!(allowed.unused(&refs), ["variant candid::Error::*   # C1"]);
    }

    #[test]
    fn a_pattern_needs_a_reason_and_the_block_an_end() {
        assert!(Allowed::parse("```api-differences\nfn candid::f(1)\n```\n").is_err());
        assert!(Allowed::parse("```api-differences\nfn candid::f(1) # C1\n").is_err());
        assert!(Allowed::parse("no block").is_err());
    }
}
