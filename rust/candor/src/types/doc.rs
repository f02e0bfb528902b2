//! Doc comments carried with Rust types (`/// …` on a derived type and its fields), so
//! that a service exported from Rust (`export_service!`) prints them into its `.did`.

use std::collections::BTreeMap;

/// The doc comments of every named type of an environment, by type name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeDocs {
    /// Type name → that type's doc comments.
    pub named: BTreeMap<String, TypeDoc>,
}

/// The doc comments of one type: its own lines and those of its fields or cases,
/// keyed by the field's Candid id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeDoc {
    /// The type's own doc lines, one per `///` line.
    pub docs: Vec<String>,
    /// Field or case id → its doc comments.
    pub fields: BTreeMap<u32, FieldDoc>,
}

impl TypeDoc {
    /// True when the type has no doc lines and no documented field.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty() && self.fields.is_empty()
    }
}

/// The doc comments of one field or case, and those of its anonymous type (a record
/// written inline in an enum case) when it has some.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldDoc {
    /// The field's own doc lines, one per `///` line.
    pub docs: Vec<String>,
    /// The doc comments inside the field's type when that type is written inline.
    pub ty: Option<Box<TypeDoc>>,
}

impl FieldDoc {
    /// True when neither the field nor its inline type carries a doc line.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty() && self.ty.as_deref().is_none_or(TypeDoc::is_empty)
    }
}
