//! serde's `rename_all` case conventions, applied to Candid labels exactly as serde
//! applies them to names (serde_derive 1.0's `RenameRule::apply_to_field` and
//! `apply_to_variant`): fields are assumed to be written in `snake_case`, variants in
//! `PascalCase`, and the conversions are ASCII-only, like serde's.

/// One `rename_all` convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

/// The spellings serde accepts, in serde's order (also its error message's order).
const RULES: [(&str, RenameRule); 8] = [
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

/// Lowercases the first character (ASCII only), leaving the rest.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => {
            let mut out = String::with_capacity(s.len());
            out.push(c.to_ascii_lowercase());
            out.push_str(chars.as_str());
            out
        }
        None => String::new(),
    }
}

impl RenameRule {
    /// Parses a `rename_all` value; the error lists the accepted spellings, as serde's.
    pub(crate) fn parse(s: &str) -> Result<Self, String> {
        RULES
            .iter()
            .find(|(name, _)| *name == s)
            .map(|(_, r)| *r)
            .ok_or_else(|| {
                let known: Vec<String> = RULES.iter().map(|(n, _)| format!("{n:?}")).collect();
                format!(
                    "unknown rename rule `rename_all = {s:?}`, expected one of {}",
                    known.join(", ")
                )
            })
    }

    /// The label of an enum variant whose Rust name (PascalCase) is `name`.
    pub(crate) fn apply_to_variant(self, name: &str) -> String {
        use RenameRule::*;
        match self {
            Pascal => name.to_owned(),
            Lower => name.to_ascii_lowercase(),
            Upper => name.to_ascii_uppercase(),
            Camel => lower_first(name),
            Snake => {
                let mut out = String::with_capacity(name.len() + 4);
                for (i, c) in name.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                }
                out
            }
            ScreamingSnake => Snake.apply_to_variant(name).to_ascii_uppercase(),
            Kebab => Snake.apply_to_variant(name).replace('_', "-"),
            ScreamingKebab => ScreamingSnake.apply_to_variant(name).replace('_', "-"),
        }
    }

    /// The label of a struct field whose Rust name (snake_case) is `name`.
    pub(crate) fn apply_to_field(self, name: &str) -> String {
        use RenameRule::*;
        match self {
            Lower | Snake => name.to_owned(),
            Upper | ScreamingSnake => name.to_ascii_uppercase(),
            Pascal => {
                let mut out = String::with_capacity(name.len());
                let mut upper_next = true;
                for c in name.chars() {
                    if c == '_' {
                        upper_next = true;
                    } else if upper_next {
                        out.push(c.to_ascii_uppercase());
                        upper_next = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            Camel => lower_first(&Pascal.apply_to_field(name)),
            Kebab => name.replace('_', "-"),
            ScreamingKebab => name.to_ascii_uppercase().replace('_', "-"),
        }
    }
}
