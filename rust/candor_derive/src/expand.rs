//! Generates the `CandidType` impl. The produced Candid type and the sequence of
//! serializer calls are those of `candid_derive` 0.10.39, so values encode to the same
//! bytes; see the crate docs for the few places where the calls (not the bytes) differ.

use crate::attrs::{self, ItemAttrs, Place};
use crate::case::RenameRule;
use crate::docs::{doc_lines, FieldDocs, TypeDocs};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Error, Fields, GenericParam, Result};

/// Candid's field-name hash (the spec's `idl_hash`), computed at expansion time so
/// labels are sorted once, by the compiler, not at run time.
pub(crate) fn idl_hash(id: &str) -> u32 {
    id.bytes()
        .fold(0u32, |s, c| s.wrapping_mul(223).wrapping_add(c as u32))
}

/// `id` in LEB128 with the byte count in the top byte, as candor's
/// `static_type::leb_word` gives it: a description's `StaticField::leb`, written as
/// a literal.
pub(crate) fn leb_word(id: u32) -> u64 {
    let mut v = id;
    let mut word = 0u64;
    let mut n = 0u64;
    loop {
        let group = u64::from(v & 0x7f);
        v >>= 7;
        if v == 0 {
            word |= group << (8 * n);
            return word | (n + 1) << 56;
        }
        word |= (group | 0x80) << (8 * n);
        n += 1;
    }
}

/// Which crate the generated code names by default, and whose attribute policy the
/// derive follows. candor's own derive applies `rename_all` and refuses serde
/// attributes that would make serde and Candid disagree; the one behind the `candid`
/// compat crate must give every type exactly the Candid type candid_derive 0.10.39
/// gives it (the same bytes on the wire), so it ignores what candid_derive ignores.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Flavor {
    Candor,
    Candid,
}

impl Flavor {
    /// The crate path used when the type has no `#[candid_path]`.
    pub(crate) fn default_path(self) -> TokenStream {
        match self {
            Flavor::Candor => quote!(::candor),
            Flavor::Candid => quote!(::candid),
        }
    }
}

/// The whole derive, on `proc_macro2` tokens so unit tests can call it.
pub(crate) fn expand(input: DeriveInput, flavor: Flavor) -> Result<TokenStream> {
    let krate: TokenStream = match attrs::crate_path(&input.attrs)? {
        Some(p) => quote!(#p),
        None => flavor.default_path(),
    };
    let container = attrs::container_attrs(&input.attrs, flavor)?;
    let cx = Cx {
        krate: &krate,
        flavor,
        name: &input.ident,
    };

    let (ty_body, ser_body, mut docs, static_kind) = match &input.data {
        Data::Struct(data) => {
            if let (Some(span), Flavor::Candor) = (container.transparent, flavor) {
                if !matches!(&data.fields, Fields::Unnamed(f) if f.unnamed.len() == 1) {
                    return Err(Error::new(
                        span,
                        "#[serde(transparent)] is only supported on a tuple struct with \
                         exactly one field (`struct A(T);`), which Candid already \
                         represents as `T`; on any other struct Candid's record type \
                         would disagree with serde's transparent representation",
                    ));
                }
            }
            cx.struct_body(&data.fields, container.rename_all)?
        }
        Data::Enum(data) => cx.enum_body(
            &data.variants,
            container.rename_all,
            container.rename_all_fields,
        )?,
        Data::Union(u) => {
            return Err(Error::new(
                u.union_token.span(),
                "CandidType cannot be derived for a union",
            ))
        }
    };

    docs.docs = doc_lines(&input.attrs);
    let doc_body = docs.to_tokens(&krate);
    let name = &input.ident;
    let mut generics = input.generics.clone();
    for param in &mut generics.params {
        // Same bounds as candid_derive: every type parameter must be a CandidType.
        if let GenericParam::Type(tp) = param {
            tp.bounds.push(syn::parse_quote!(#krate::types::CandidType));
        }
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let static_fn = cx.static_fn(static_kind);
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics #krate::types::CandidType for #name #ty_generics #where_clause {
            fn _ty() -> #krate::types::Type {
                #ty_body
            }
            fn _ty_doc() -> #krate::types::TypeDoc {
                #doc_body
            }
            #static_fn
            fn idl_serialize<__CandorS>(
                &self,
                __serializer: __CandorS,
            ) -> ::core::result::Result<(), <__CandorS as #krate::types::Serializer>::Error>
            where
                __CandorS: #krate::types::Serializer,
            {
                #ser_body
            }
        }
    })
}

/// One record field or one variant case, with its label resolved.
struct Member {
    /// Candid label id: `idl_hash` of the name, or the position of an unnamed field.
    hash: u32,
    /// What to put in the type's `Label`.
    label: LabelKind,
    /// Where to find the value: `self.<access>` in a struct, a binding in a variant.
    access: TokenStream,
    /// The Rust field type (unused for variant cases).
    ty: Option<syn::Type>,
    attrs: ItemAttrs,
    /// The member's `///` lines.
    docs: Vec<String>,
    span: Span,
}

enum LabelKind {
    Named(String),
    Id(u32),
}

/// Sorts by Candid id and reports two members sharing one (candid_derive panics).
fn sort_by_id<T>(items: &mut [T], key: impl Fn(&T) -> &Member, what: &str) -> Result<()> {
    items.sort_by_key(|m| key(m).hash);
    for pair in items.windows(2) {
        let pair = [key(&pair[0]), key(&pair[1])];
        if pair[0].hash == pair[1].hash {
            let name = |m: &Member| match &m.label {
                LabelKind::Named(n) => n.clone(),
                LabelKind::Id(i) => i.to_string(),
            };
            let mut err = Error::new(
                pair[1].span,
                format!(
                    "{what} `{}` and {what} `{}` have the same Candid id {} \
                     (idl_hash collision); rename one with #[serde(rename = \"...\")]",
                    name(pair[0]),
                    name(pair[1]),
                    pair[0].hash
                ),
            );
            err.combine(Error::new(
                pair[0].span,
                format!("the other {what} with Candid id {}", pair[0].hash),
            ));
            return Err(err);
        }
    }
    Ok(())
}

struct Cx<'a> {
    krate: &'a TokenStream,
    flavor: Flavor,
    /// The deriving type's name.
    name: &'a syn::Ident,
}

/// The docs of sorted members, keyed by their Candid ids.
fn member_docs(members: &[Member]) -> TypeDocs {
    TypeDocs {
        docs: Vec::new(),
        fields: members
            .iter()
            .map(|m| FieldDocs {
                id: m.hash,
                docs: m.docs.clone(),
                payload: None,
            })
            .collect(),
    }
}

impl Cx<'_> {
    /// The fields of a struct or variant, sorted by Candid id. `in_variant` makes the
    /// accessors bindings (`__f0`) instead of `self.x`. `rule` (from `rename_all`)
    /// renames the named fields that have no `rename` of their own.
    fn members(
        &self,
        fields: &Fields,
        in_variant: bool,
        rule: Option<RenameRule>,
    ) -> Result<Vec<Member>> {
        let mut out = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let attrs = attrs::item_attrs(&f.attrs, Place::Field, self.flavor)?;
            let (hash, label, self_access) = match &f.ident {
                Some(ident) => {
                    let name = match (&attrs.rename, rule) {
                        (Some(r), _) => r.clone(),
                        (None, Some(rule)) => rule.apply_to_field(&ident.unraw().to_string()),
                        (None, None) => ident.unraw().to_string(),
                    };
                    (idl_hash(&name), LabelKind::Named(name), quote!(#ident))
                }
                None => {
                    // Tuple fields are `Label::Id(i)`, as in candid_derive (not
                    // `Unnamed`): the id is the same on the wire, and the printed type
                    // stays `record { 0 : T; 1 : U }` like candid's.
                    let idx = syn::Index::from(i);
                    (i as u32, LabelKind::Id(i as u32), quote!(#idx))
                }
            };
            let access = if in_variant {
                let b = format_ident!("__f{}", i);
                quote!(#b)
            } else {
                quote!(self.#self_access)
            };
            out.push(Member {
                hash,
                label,
                access,
                ty: Some(f.ty.clone()),
                attrs,
                docs: doc_lines(&f.attrs),
                span: f.span(),
            });
        }
        sort_by_id(&mut out, |m| m, "field")?;
        Ok(out)
    }

    fn label(&self, l: &LabelKind) -> TokenStream {
        let k = self.krate;
        match l {
            LabelKind::Named(n) => {
                quote!(#k::types::Label::Named(::std::string::String::from(#n)))
            }
            LabelKind::Id(i) => quote!(#k::types::Label::Id(#i)),
        }
    }

    fn field_ty(&self, ty: &syn::Type) -> TokenStream {
        let k = self.krate;
        quote_spanned!(ty.span()=> <#ty as #k::types::CandidType>::ty())
    }

    /// `TypeInner::Record([...]).into()` for already-sorted members.
    fn record_ty(&self, members: &[Member]) -> TokenStream {
        let k = self.krate;
        let fields = members.iter().map(|m| {
            let label = self.label(&m.label);
            let ty = self.field_ty(m.ty.as_ref().expect("record members have types"));
            quote! {
                #k::types::Field {
                    id: ::core::convert::Into::into(#label),
                    ty: #ty,
                }
            }
        });
        quote! {
            ::core::convert::Into::into(#k::types::TypeInner::Record(::std::vec![#(#fields),*]))
        }
    }

    /// One `serialize_element`/`serialize_blob` call on the compound `__s`.
    fn element(&self, value: TokenStream, bytes: bool) -> TokenStream {
        let k = self.krate;
        if bytes {
            quote! {
                #k::types::Compound::serialize_blob(
                    &mut __s,
                    ::core::convert::AsRef::<[u8]>::as_ref(#value),
                )?;
            }
        } else {
            quote! { #k::types::Compound::serialize_element(&mut __s, #value)?; }
        }
    }

    fn struct_body(
        &self,
        fields: &Fields,
        rename_all: Option<RenameRule>,
    ) -> Result<(TokenStream, TokenStream, TypeDocs, StaticBody)> {
        let k = self.krate;
        match fields {
            // Newtype: Candid sees the inner type, and the value is the inner value.
            // candid_derive writes it through `serialize_struct` + one element, which
            // writes the same bytes as serializing the inner value directly; we skip
            // the compound.
            Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                let field = &f.unnamed[0];
                let attrs = attrs::item_attrs(&field.attrs, Place::Field, self.flavor)?;
                let ty = self.field_ty(&field.ty);
                let ser = if attrs.bytes {
                    quote! {
                        #k::types::Serializer::serialize_blob(
                            __serializer,
                            ::core::convert::AsRef::<[u8]>::as_ref(&self.0),
                        )
                    }
                } else {
                    quote! { #k::types::CandidType::idl_serialize(&self.0, __serializer) }
                };
                // A newtype is its field's type: no record to hang field docs on.
                let stat = if self.mentions_self(&field.ty) {
                    StaticBody::ForwardRecursive(Box::new(field.ty.clone()))
                } else {
                    StaticBody::Forward(Box::new(field.ty.clone()))
                };
                Ok((ty, ser, TypeDocs::default(), stat))
            }
            // Unit struct: `null`, which has no value bytes (candid_derive opens an
            // empty struct compound; same bytes).
            Fields::Unit => Ok((
                quote!(::core::convert::Into::into(#k::types::TypeInner::Null)),
                quote!(#k::types::Serializer::serialize_null(__serializer, ())),
                TypeDocs::default(),
                StaticBody::Null,
            )),
            // Named fields, or 0 / 2+ tuple fields: a record, fields in id order.
            _ => {
                let members = self.members(fields, false, rename_all)?;
                let ty = self.record_ty(&members);
                let elems = members.iter().map(|m| {
                    let access = &m.access;
                    self.element(quote!(&#access), m.attrs.bytes)
                });
                let ser = quote! {
                    let mut __s = #k::types::Serializer::serialize_struct(__serializer)?;
                    #(#elems)*
                    ::core::result::Result::Ok(())
                };
                let entry = self.shallow_record(&members);
                let parts = members
                    .iter()
                    .map(|m| {
                        ShallowPart::Type(Box::new(
                            m.ty.clone().expect("record members have types"),
                        ))
                    })
                    .collect();
                let stat = StaticBody::Kind(self.static_record(&members), entry, parts);
                Ok((ty, ser, member_docs(&members), stat))
            }
        }
    }

    /// `rename_all` renames the variants, `rename_all_fields` the fields of struct
    /// variants (a variant's own `rename_all` wins over it), as in serde.
    fn enum_body(
        &self,
        variants: &syn::punctuated::Punctuated<syn::Variant, syn::Token![,]>,
        rename_all: Option<RenameRule>,
        rename_all_fields: Option<RenameRule>,
    ) -> Result<(TokenStream, TokenStream, TypeDocs, StaticBody)> {
        let k = self.krate;
        struct Case<'v> {
            member: Member,
            variant: &'v syn::Variant,
            payload_ty: TokenStream,
            /// The payload as a `StaticRef`.
            payload_static: TokenStream,
            /// The payload's shallow part (`types/shallow.rs`), and where its trees
            /// come from.
            payload_shallow: (TokenStream, ShallowPart),
            fields: Vec<Member>,
            /// Docs of a record payload's fields (none for unit and newtype cases).
            payload_docs: Option<TypeDocs>,
        }
        let mut cases = Vec::new();
        for v in variants {
            let attrs = attrs::item_attrs(&v.attrs, Place::Variant, self.flavor)?;
            let name = match (&attrs.rename, rename_all) {
                (Some(r), _) => r.clone(),
                (None, Some(rule)) => rule.apply_to_variant(&v.ident.unraw().to_string()),
                (None, None) => v.ident.unraw().to_string(),
            };
            let field_rule = attrs.rename_all.or(rename_all_fields);
            let s = quote!(#k::types::static_type);
            let sh = quote!(#k::types::shallow);
            let (payload_ty, fields, payload_docs, payload_static, payload_shallow) =
                match &v.fields {
                    Fields::Unit => (
                        quote!(::core::convert::Into::into(#k::types::TypeInner::Null)),
                        Vec::new(),
                        None,
                        quote!(#s::StaticRef::Inline(&#k::types::StaticType {
                            owner: ::core::option::Option::None,
                            kind: #s::StaticKind::Prim(#s::Prim::Null),
                        })),
                        (quote!(#sh::Part::prim(#s::Prim::Null)), ShallowPart::Null),
                    ),
                    Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                        // Checks the field's attributes too.
                        let fields = self.members(&v.fields, true, field_rule)?;
                        let ty = &f.unnamed[0].ty;
                        let link = self.static_link(ty);
                        let shallow = (
                            quote!(<#ty as #k::types::CandidType>::_PART),
                            ShallowPart::Type(Box::new(ty.clone())),
                        );
                        (self.field_ty(ty), fields, None, link, shallow)
                    }
                    _ => {
                        let fields = self.members(&v.fields, true, field_rule)?;
                        let docs = member_docs(&fields);
                        let record = self.static_record(&fields);
                        let inline = quote!(#s::StaticRef::Inline(&#k::types::StaticType {
                            owner: ::core::option::Option::None,
                            kind: #record,
                        }));
                        let shallow = (
                            quote!(#sh::Part::Node),
                            ShallowPart::Record(self.shallow_record(&fields), field_types(&fields)),
                        );
                        (self.record_ty(&fields), fields, Some(docs), inline, shallow)
                    }
                };
            cases.push(Case {
                member: Member {
                    hash: idl_hash(&name),
                    label: LabelKind::Named(name),
                    access: TokenStream::new(),
                    ty: None,
                    attrs,
                    docs: doc_lines(&v.attrs),
                    span: v.span(),
                },
                variant: v,
                payload_ty,
                payload_static,
                payload_shallow,
                fields,
                payload_docs,
            });
        }
        sort_by_id(&mut cases, |c| &c.member, "variant")?;

        let mut ty_fields = Vec::new();
        let mut static_cases = Vec::new();
        let mut shallow_cases = Vec::new();
        let mut shallow_labels = Vec::new();
        let mut shallow_parts = Vec::new();
        let mut arms = Vec::new();
        for (index, case) in cases.iter().enumerate() {
            let m = &case.member;
            let label = self.label(&m.label);
            let payload_ty = &case.payload_ty;
            ty_fields.push(quote! {
                #k::types::Field { id: ::core::convert::Into::into(#label), ty: #payload_ty }
            });
            static_cases.push(self.static_field(m, &case.payload_static));
            shallow_cases.push(self.shallow_field(m.hash, &case.payload_shallow.0));
            shallow_labels.push(self.static_label(&m.label));
            shallow_parts.push(case.payload_shallow.1.clone());

            let ident = &case.variant.ident;
            let index = index as u64;
            let pattern = match &case.variant.fields {
                Fields::Unit => quote!(),
                Fields::Named(named) => {
                    let binds = named.named.iter().enumerate().map(|(i, f)| {
                        let fname = f.ident.as_ref().expect("named field");
                        let b = format_ident!("__f{}", i);
                        quote!(#fname: ref #b)
                    });
                    quote!({ #(#binds),* })
                }
                Fields::Unnamed(un) => {
                    let binds = (0..un.unnamed.len()).map(|i| {
                        let b = format_ident!("__f{}", i);
                        quote!(ref #b)
                    });
                    quote!(( #(#binds),* ))
                }
            };
            // Payload fields in id order, each written on the variant's compound (a
            // record payload is just its fields' bytes in id order). As in
            // candid_derive, `with = "serde_bytes"` on the variant makes every payload
            // field a blob; on a field inside a variant it writes the same bytes
            // either way, and the element path is kept (it compiles for every type
            // serde_bytes accepts).
            let elems = case
                .fields
                .iter()
                .map(|f| self.element(f.access.clone(), m.attrs.bytes));
            let body = if case.fields.is_empty() {
                quote! {
                    let _ = #k::types::Serializer::serialize_variant(__serializer, #index)?;
                }
            } else {
                quote! {
                    let mut __s = #k::types::Serializer::serialize_variant(__serializer, #index)?;
                    #(#elems)*
                }
            };
            arms.push(quote! { Self::#ident #pattern => { #body } });
        }
        let ty = quote! {
            ::core::convert::Into::into(#k::types::TypeInner::Variant(::std::vec![#(#ty_fields),*]))
        };
        let docs = TypeDocs {
            docs: Vec::new(),
            fields: cases
                .iter()
                .map(|c| FieldDocs {
                    id: c.member.hash,
                    docs: c.member.docs.clone(),
                    payload: c.payload_docs.clone(),
                })
                .collect(),
        };
        let ser = if arms.is_empty() {
            // An uninhabited enum has no value to write.
            quote! { match *self {} }
        } else {
            quote! {
                match *self {
                    #(#arms)*
                }
                ::core::result::Result::Ok(())
            }
        };
        let s = quote!(#k::types::static_type);
        let stat = quote!(#s::StaticKind::Variant(&[#(#static_cases),*]));
        let entry = quote! {
            #k::types::shallow::Entry::variant(&[#(#shallow_cases),*], &[#(#shallow_labels),*])
        };
        Ok((ty, ser, docs, StaticBody::Kind(stat, entry, shallow_parts)))
    }
}

/// What the derived `_static_type` returns.
pub(crate) enum StaticBody {
    /// A newtype: its field type's description.
    Forward(Box<syn::Type>),
    /// A newtype whose field type names the newtype itself: its field type's
    /// description, and no shallow constants (forwarding them would make a
    /// constant that reaches itself, which does not compile, where the field is
    /// a transparent wrapper of the newtype; a recursive type never gets a
    /// constant header anyway).
    ForwardRecursive(Box<syn::Type>),
    /// A unit struct: `null`.
    Null,
    /// A record or variant owned by the type: a `StaticKind` expression, its
    /// shallow entry (`types/shallow.rs`) and its parts, in field order.
    Kind(TokenStream, TokenStream, Vec<ShallowPart>),
}

/// Where the shallow trees (`types/shallow.rs`) of a field or case come from.
#[derive(Clone)]
pub(crate) enum ShallowPart {
    /// A Rust type's own constants.
    Type(Box<syn::Type>),
    /// A unit case: `null`.
    Null,
    /// A record payload: its entry, and its fields' types in its order.
    Record(TokenStream, Vec<syn::Type>),
}

/// The types of already-sorted record members.
fn field_types(members: &[Member]) -> Vec<syn::Type> {
    members
        .iter()
        .map(|m| m.ty.clone().expect("record members have types"))
        .collect()
}

/// The static description (`types/static_type.rs` in candor): the same type as the
/// derived `_ty()`, as a constant the decoder interns without building the tree.
impl Cx<'_> {
    fn static_fn(&self, body: StaticBody) -> TokenStream {
        let k = self.krate;
        let s = quote!(#k::types::static_type);
        let sh = quote!(#k::types::shallow);
        let (value, shallow) = match body {
            StaticBody::Forward(ty) => (
                quote!(<#ty as #k::types::CandidType>::_static_type()),
                quote! {
                    const _PART: #sh::Part = <#ty as #k::types::CandidType>::_PART;
                    const _ENTRY: #sh::Entry = <#ty as #k::types::CandidType>::_ENTRY;
                    const _L1: #sh::Tree = <#ty as #k::types::CandidType>::_L1;
                    const _L2: #sh::Tree = <#ty as #k::types::CandidType>::_L2;
                    const _L3: #sh::Tree = <#ty as #k::types::CandidType>::_L3;
                    const _L4: #sh::Tree = <#ty as #k::types::CandidType>::_L4;
                    const _L5: #sh::Tree = <#ty as #k::types::CandidType>::_L5;
                    const _L6: #sh::Tree = <#ty as #k::types::CandidType>::_L6;
                    const _L7: #sh::Tree = <#ty as #k::types::CandidType>::_L7;
                    const _L8: #sh::Tree = <#ty as #k::types::CandidType>::_L8;
                },
            ),
            StaticBody::ForwardRecursive(ty) => (
                quote!(<#ty as #k::types::CandidType>::_static_type()),
                TokenStream::new(),
            ),
            StaticBody::Null => (
                quote! {
                    ::core::option::Option::Some(const {
                        &#k::types::StaticType {
                            owner: ::core::option::Option::None,
                            kind: #s::StaticKind::Prim(#s::Prim::Null),
                        }
                    })
                },
                quote!(const _PART: #sh::Part = #sh::Part::prim(#s::Prim::Null);),
            ),
            StaticBody::Kind(kind, entry, parts) => {
                // Level `k` over the parts' level `k - 1`.
                let levels = (2..=8).map(|level| {
                    let name = format_ident!("_L{}", level);
                    let trees = parts.iter().map(|p| self.shallow_tree(p, level - 1));
                    quote! {
                        const #name: #sh::Tree = #sh::Tree::of(
                            <Self as #k::types::CandidType>::_ENTRY,
                            &[#(#trees),*],
                        );
                    }
                });
                (
                    quote! {
                        ::core::option::Option::Some(const {
                            &#k::types::StaticType {
                                owner: ::core::option::Option::Some(
                                    <Self as #k::types::CandidType>::id,
                                ),
                                kind: #kind,
                            }
                        })
                    },
                    quote! {
                        const _PART: #sh::Part = #sh::Part::Node;
                        const _ENTRY: #sh::Entry = #entry;
                        #(#levels)*
                    },
                )
            }
        };
        quote! {
            #[doc(hidden)]
            fn _static_type() -> ::core::option::Option<&'static #k::types::StaticType> {
                #value
            }
            #shallow
        }
    }

    /// The link to a field's type.
    fn static_link(&self, ty: &syn::Type) -> TokenStream {
        let k = self.krate;
        quote_spanned!(ty.span()=> #k::types::static_type::link::<#ty>())
    }

    /// One field or case, with its type already a `StaticRef`.
    fn static_field(&self, m: &Member, ty: &TokenStream) -> TokenStream {
        let k = self.krate;
        let s = quote!(#k::types::static_type);
        let hash = m.hash;
        let label = self.static_label(&m.label);
        let leb = leb_word(hash);
        quote!(#s::StaticField { id: #hash, label: #label, ty: #ty, leb: #leb })
    }

    /// How a description labels a field or case (`StaticLabel`).
    fn static_label(&self, label: &LabelKind) -> TokenStream {
        let k = self.krate;
        let s = quote!(#k::types::static_type);
        match label {
            LabelKind::Named(n) => quote!(#s::StaticLabel::Named(#n)),
            LabelKind::Id(_) => quote!(#s::StaticLabel::Id),
        }
    }

    /// One field or case of a shallow entry: its id, the id's LEB128 word and its
    /// type's part.
    fn shallow_field(&self, hash: u32, part: &TokenStream) -> TokenStream {
        let leb = leb_word(hash);
        quote!((#hash, #leb, #part))
    }

    /// Whether `ty` names the deriving type (or `Self`) anywhere in its tokens.
    fn mentions_self(&self, ty: &syn::Type) -> bool {
        fn walk(tokens: TokenStream, name: &syn::Ident) -> bool {
            tokens.into_iter().any(|t| match t {
                proc_macro2::TokenTree::Ident(i) => i == *name || i == "Self",
                proc_macro2::TokenTree::Group(g) => walk(g.stream(), name),
                _ => false,
            })
        }
        walk(quote!(#ty), self.name)
    }

    /// The tree of a part down to `level` levels (`types/shallow.rs`).
    fn shallow_tree(&self, part: &ShallowPart, level: usize) -> TokenStream {
        let k = self.krate;
        let sh = quote!(#k::types::shallow);
        match part {
            ShallowPart::Type(ty) => {
                let name = format_ident!("_L{}", level);
                quote!(<#ty as #k::types::CandidType>::#name)
            }
            ShallowPart::Null => quote! {
                #sh::Tree::leaf(#sh::Entry::leaf(#sh::Part::prim(#k::types::static_type::Prim::Null)))
            },
            ShallowPart::Record(entry, _) if level == 1 => quote!(#sh::Tree::leaf(#entry)),
            ShallowPart::Record(entry, tys) => {
                let name = format_ident!("_L{}", level - 1);
                quote! {
                    #sh::Tree::of(#entry, &[#(<#tys as #k::types::CandidType>::#name),*])
                }
            }
        }
    }

    /// The shallow entry (`types/shallow.rs`) of a record of already-sorted members.
    fn shallow_record(&self, members: &[Member]) -> TokenStream {
        let k = self.krate;
        let fields = members.iter().map(|m| {
            let ty = m.ty.as_ref().expect("record members have types");
            self.shallow_field(m.hash, &quote!(<#ty as #k::types::CandidType>::_PART))
        });
        let labels = members.iter().map(|m| self.static_label(&m.label));
        quote!(#k::types::shallow::Entry::record(&[#(#fields),*], &[#(#labels),*]))
    }

    /// `StaticKind::Record` of already-sorted members.
    fn static_record(&self, members: &[Member]) -> TokenStream {
        let k = self.krate;
        let fields = members.iter().map(|m| {
            let link = self.static_link(m.ty.as_ref().expect("record members have types"));
            self.static_field(m, &link)
        });
        quote!(#k::types::static_type::StaticKind::Record(&[#(#fields),*]))
    }
}
