//! Doc comments (`///`) of a derived type, turned into the `TypeDoc` value its
//! `_ty_doc()` returns, so an exported service's `.did` carries them (candid_derive
//! 0.10.39 does the same, and the printed `.did` must match its).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Expr, Lit, Meta};

/// The doc lines of one item: each `#[doc = "…"]` line trimmed; an empty `///` keeps
/// its place as an empty line (paragraph breaks survive).
pub(crate) fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        let Expr::Lit(lit) = &nv.value else {
            continue;
        };
        let Lit::Str(s) = &lit.lit else {
            continue;
        };
        let text = s.value();
        if text.is_empty() {
            out.push(String::new());
        } else {
            out.extend(text.lines().map(|l| l.trim().to_string()));
        }
    }
    out
}

/// The docs of a type: its own lines and, by Candid field id, its fields' or cases'.
#[derive(Default, Clone)]
pub(crate) struct TypeDocs {
    pub docs: Vec<String>,
    pub fields: Vec<FieldDocs>,
}

/// The docs of one field or case, and of its inline record payload (enum cases).
#[derive(Clone)]
pub(crate) struct FieldDocs {
    pub id: u32,
    pub docs: Vec<String>,
    pub payload: Option<TypeDocs>,
}

impl TypeDocs {
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty() && self.fields.iter().all(FieldDocs::is_empty)
    }

    /// An expression building the `TypeDoc` value.
    pub fn to_tokens(&self, krate: &TokenStream) -> TokenStream {
        if self.is_empty() {
            return quote!(<#krate::types::TypeDoc as ::core::default::Default>::default());
        }
        let docs = &self.docs;
        let inserts = self.fields.iter().filter(|f| !f.is_empty()).map(|f| {
            let id = f.id;
            let docs = &f.docs;
            let payload = match &f.payload {
                Some(p) if !p.is_empty() => {
                    let p = p.to_tokens(krate);
                    quote!(::core::option::Option::Some(::std::boxed::Box::new(#p)))
                }
                _ => quote!(::core::option::Option::None),
            };
            quote! {
                __doc.fields.insert(#id, #krate::types::FieldDoc {
                    docs: ::std::vec![#(::std::string::String::from(#docs)),*],
                    ty: #payload,
                });
            }
        });
        quote! {{
            let mut __doc = <#krate::types::TypeDoc as ::core::default::Default>::default();
            __doc.docs = ::std::vec![#(::std::string::String::from(#docs)),*];
            #(#inserts)*
            __doc
        }}
    }
}

impl FieldDocs {
    fn is_empty(&self) -> bool {
        self.docs.is_empty() && self.payload.as_ref().is_none_or(TypeDocs::is_empty)
    }
}
