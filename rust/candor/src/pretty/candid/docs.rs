//! Doc comments in printed `.did` files: the [`DocComments`] a caller collects (from
//! `///` lines of Rust types and canister methods) and the definition printer that
//! writes them as `//` lines above what they describe.

use super::{pp_docs, pp_label_raw, pp_tuple, pp_ty_inner};
use crate::pretty::utils::{concat, enclose_space, ident, kwd, lines};
use crate::types::{Field, FieldDoc, Type, TypeDoc, TypeDocs, TypeEnv, TypeInner};
use pretty::RcDoc;
use std::collections::HashMap;

/// Doc comments to print with [`compile_with_docs`](super::compile_with_docs): per
/// service method, and per named type (with its fields' and cases' comments).
#[derive(Default, Debug)]
pub struct DocComments {
    service_methods: HashMap<String, Vec<String>>,
    type_defs: HashMap<String, TypeDoc>,
}

impl DocComments {
    /// No comments at all.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Sets the comment lines of a service method (an empty line prints as `// `).
    pub fn add_service_method(&mut self, method: String, doc: Vec<String>) {
        self.service_methods.insert(method, doc);
    }

    /// The comment lines of a service method.
    pub fn lookup_service_method(&self, method: &str) -> Option<&Vec<String>> {
        self.service_methods.get(method)
    }

    /// Sets the comments of a named type; a type without any is not recorded, so
    /// [`lookup_type_def`](Self::lookup_type_def) finds only types with something
    /// to print.
    pub fn add_type_def(&mut self, name: String, doc: TypeDoc) {
        if !doc.is_empty() {
            self.type_defs.insert(name, doc);
        }
    }

    /// The comments of a named type.
    pub fn lookup_type_def(&self, name: &str) -> Option<&TypeDoc> {
        self.type_defs.get(name)
    }

    /// Adds the comments of every named type of `docs`.
    pub fn extend_types(&mut self, docs: TypeDocs) {
        for (name, doc) in docs.named {
            self.add_type_def(name, doc);
        }
    }
}

/// Comment lines, or nothing when there are none.
fn pp_docs_if_any(docs: Option<&[String]>) -> RcDoc<'_> {
    match docs {
        Some(docs) if !docs.is_empty() => pp_docs(docs),
        _ => RcDoc::nil(),
    }
}

/// Whether some field or case of the type has a comment to print.
fn has_field_docs(doc: Option<&TypeDoc>) -> bool {
    doc.is_some_and(|doc| doc.fields.values().any(|field| !field.is_empty()))
}

/// A type with the comments of its fields or cases (only records and variants have
/// any; the comments of a field's own inline record or variant go one level down).
/// A tuple whose elements carry comments is written with its numeric labels, so each
/// comment has a field to sit above.
fn pp_ty_with_doc<'a>(ty: &'a Type, doc: Option<&'a TypeDoc>) -> RcDoc<'a> {
    match ty.as_ref() {
        TypeInner::Record(fields) if ty.is_tuple() && !has_field_docs(doc) => {
            kwd("record").append(pp_tuple(fields, |t| pp_ty_with_doc(t, None)))
        }
        TypeInner::Record(fields) => kwd("record").append(pp_fields_with_doc(fields, false, doc)),
        TypeInner::Variant(fields) => kwd("variant").append(pp_fields_with_doc(fields, true, doc)),
        inner => pp_ty_inner(inner),
    }
}

fn pp_fields_with_doc<'a>(
    fields: &'a [Field],
    is_variant: bool,
    doc: Option<&'a TypeDoc>,
) -> RcDoc<'a> {
    let fields = fields.iter().map(|field| {
        let field_doc = doc.and_then(|doc| doc.fields.get(&field.id.get_id()));
        pp_field_with_doc(field, is_variant, field_doc)
    });
    enclose_space("{", concat(fields, ";"), "}")
}

fn pp_field_with_doc<'a>(
    field: &'a Field,
    is_variant: bool,
    doc: Option<&'a FieldDoc>,
) -> RcDoc<'a> {
    let comments = pp_docs_if_any(doc.map(|doc| doc.docs.as_slice()));
    let labelled = comments.append(pp_label_raw(&field.id));
    if super::is_bare_case(field, is_variant) {
        labelled
    } else {
        let inline_doc = doc.and_then(|doc| doc.ty.as_deref());
        labelled
            .append(kwd(" :"))
            .append(pp_ty_with_doc(&field.ty, inline_doc))
    }
}

/// One `type name = definition;` line per definition, each under its comments.
pub(super) fn pp_defs<'a>(env: &'a TypeEnv, docs: &'a DocComments) -> RcDoc<'a> {
    lines(env.0.iter().map(|(name, ty)| {
        let doc = docs.lookup_type_def(name);
        pp_docs_if_any(doc.map(|doc| doc.docs.as_slice()))
            .append(kwd("type"))
            .append(ident(name))
            .append(kwd("="))
            .append(pp_ty_with_doc(ty, doc))
            .append(";")
    }))
}
