//! Reading `#[serde(...)]`, `#[candid_path(...)]` and `#[candor_path(...)]`.
//!
//! Three serde attributes change what the derive generates: `rename` (the label) and
//! `with = "serde_bytes"` (write a blob), exactly as in `candid_derive` 0.10.39, and
//! `rename_all` / `rename_all_fields` (the labels of the items without a `rename`),
//! which candid_derive ignores. Every other serde attribute is either irrelevant to
//! the Candid type and encoding (accepted and ignored, as candid does) or would make
//! serde's view of the type disagree with the Candid type (rejected with an error on
//! that attribute).
//!
//! Where serde lets the serialized and deserialized names differ
//! (`rename(serialize = .., deserialize = ..)`, `rename_all(serialize = .., ..)`), the
//! label is the **serialized** name, as candid_derive does for `rename`.

use crate::case::RenameRule;
use crate::expand::Flavor;
use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Error, Expr, Lit, LitStr, Meta, Result, Token};

/// What a field or a variant's serde attributes mean to the derive.
#[derive(Default, Debug, PartialEq)]
pub(crate) struct ItemAttrs {
    /// `rename = "x"` or `rename(serialize = "x")`: the Candid label.
    pub rename: Option<String>,
    /// `with = "serde_bytes"`: write the value with `serialize_blob`.
    pub bytes: bool,
    /// `rename_all = ".."` on a variant: the rule for its struct fields' labels.
    pub rename_all: Option<RenameRule>,
}

/// What the container's serde attributes mean to the derive.
#[derive(Default, Debug)]
pub(crate) struct ContainerAttrs {
    /// `transparent`, with where it was written (checked against the shape later).
    pub transparent: Option<Span>,
    /// `rename_all = ".."`: the rule for struct field labels, or for variant labels.
    pub rename_all: Option<RenameRule>,
    /// `rename_all_fields = ".."` (enums): the rule for struct-variant field labels
    /// (a variant's own `rename_all` wins).
    pub rename_all_fields: Option<RenameRule>,
}

/// Where an attribute was written: the rules differ.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Place {
    Container,
    Variant,
    Field,
}

/// The `#[serde(...)]` items of `attrs`, in order. candid_derive skips a serde
/// attribute it cannot read (serde itself reports it); the candid flavour does too.
fn serde_metas(attrs: &[Attribute], flavor: Flavor) -> Result<Vec<Meta>> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        match attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) {
            Ok(nested) => out.extend(nested),
            Err(_) if flavor == Flavor::Candid => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

fn lit_str(expr: &Expr) -> Option<&LitStr> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s),
        _ => None,
    }
}

fn meta_name(meta: &Meta) -> String {
    meta.path()
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// The serialize-side rule of `rename_all = ".."` or
/// `rename_all(serialize = "..", deserialize = "..")` (the same for
/// `rename_all_fields`). An unknown rule, on either side, is an error (serde rejects
/// it too).
fn rename_rule(meta: &Meta) -> Result<Option<RenameRule>> {
    let parse = |s: &LitStr| RenameRule::parse(&s.value()).map_err(|e| Error::new(s.span(), e));
    match meta {
        Meta::NameValue(m) => match lit_str(&m.value) {
            Some(s) => parse(s).map(Some),
            None => Err(Error::new(m.value.span(), "expected a string literal rule")),
        },
        Meta::List(list) => {
            let nested = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
            let mut ser = None;
            for item in nested {
                if let Meta::NameValue(m) = &item {
                    if let Some(s) = lit_str(&m.value) {
                        let rule = parse(s)?;
                        if m.path.is_ident("serialize") {
                            ser = Some(rule);
                        }
                    }
                }
            }
            Ok(ser)
        }
        Meta::Path(p) => Err(Error::new(
            p.span(),
            "expected `rename_all = \"...\"` with a case convention",
        )),
    }
}

/// Serde attributes that make serde read or write a different shape than the Candid
/// type the derive produces. Encoding and decoding would disagree, so they are
/// refused up front. Returns the reason shown to the user.
fn rejection(name: &str, place: Place) -> Option<&'static str> {
    Some(match (name, place) {
        ("flatten", _) => {
            "Candid records have a fixed set of fields: `#[serde(flatten)]` cannot be \
             expressed; nest the inner type as a field instead"
        }
        ("untagged", _) => {
            "Candid variants are always tagged: `#[serde(untagged)]` cannot be expressed"
        }
        ("tag" | "content", Place::Container) => {
            "Candid variants are always externally tagged: `#[serde(tag = ..)]` / \
             `#[serde(content = ..)]` cannot be expressed"
        }
        ("skip_serializing_if", _) => {
            "`#[serde(skip_serializing_if = ..)]` would drop the field for some values, \
             but a Candid record always carries every field of its type; use an `Option` \
             field instead"
        }
        ("serialize_with" | "deserialize_with", _) => {
            "custom (de)serialization functions cannot change the Candid type, so serde \
             and Candid would disagree on this field; implement `CandidType` for a \
             wrapper type instead (only `#[serde(with = \"serde_bytes\")]` is supported)"
        }
        ("getter", _) => "`#[serde(getter = ..)]` (remote derive) is not supported by CandidType",
        _ => return None,
    })
}

/// Reads the serde attributes of a field or a variant. In the candid flavour only
/// `rename` and `with = "serde_bytes"` count, as in candid_derive; nothing is refused.
pub(crate) fn item_attrs(attrs: &[Attribute], place: Place, flavor: Flavor) -> Result<ItemAttrs> {
    let mut res = ItemAttrs::default();
    let candid = flavor == Flavor::Candid;
    for meta in serde_metas(attrs, flavor)? {
        let name = meta_name(&meta);
        if let Some(why) = rejection(&name, place).filter(|_| !candid) {
            return Err(Error::new(meta.span(), why));
        }
        match &meta {
            // #[serde(rename = "foo")]
            Meta::NameValue(m) if name == "rename" => {
                if let Some(s) = lit_str(&m.value) {
                    res.rename = Some(s.value());
                }
            }
            // #[serde(rename(serialize = "foo", deserialize = "bar"))]: the serialized
            // name is the one on the wire (candid_derive does the same).
            Meta::List(list) if name == "rename" => {
                let nested =
                    match list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) {
                        Ok(nested) => nested,
                        Err(_) if candid => continue,
                        Err(e) => return Err(e),
                    };
                for item in nested {
                    if let Meta::NameValue(m) = item {
                        if m.path.is_ident("serialize") {
                            if let Some(s) = lit_str(&m.value) {
                                res.rename = Some(s.value());
                            }
                        }
                    }
                }
            }
            // #[serde(rename_all = "camelCase")] on a variant: its struct fields.
            _ if name == "rename_all" && place == Place::Variant && !candid => {
                res.rename_all = rename_rule(&meta)?;
            }
            // #[serde(with = "serde_bytes")]
            Meta::NameValue(m) if name == "with" => match lit_str(&m.value) {
                Some(s) if matches!(s.value().as_str(), "serde_bytes" | "::serde_bytes") => {
                    res.bytes = true;
                }
                _ if candid => {}
                _ => {
                    return Err(Error::new(
                        m.value.span(),
                        "only `#[serde(with = \"serde_bytes\")]` is supported by \
                         CandidType: another `with` module cannot change the Candid type, \
                         so serde and Candid would disagree on this field",
                    ))
                }
            },
            // Everything else (`default`, `alias`, `skip*`, `bound`, `borrow`, ...)
            // concerns only deserialization or serde's own bookkeeping, and
            // candid_derive ignores it too.
            _ => {}
        }
    }
    Ok(res)
}

/// Reads the serde attributes of the struct or enum itself. The candid flavour reads
/// none of them: candid_derive ignores container attributes, `rename_all` included.
pub(crate) fn container_attrs(attrs: &[Attribute], flavor: Flavor) -> Result<ContainerAttrs> {
    let mut res = ContainerAttrs::default();
    if flavor == Flavor::Candid {
        return Ok(res);
    }
    for meta in serde_metas(attrs, flavor)? {
        let name = meta_name(&meta);
        if let Some(why) = rejection(&name, Place::Container) {
            return Err(Error::new(meta.span(), why));
        }
        match name.as_str() {
            "transparent" => res.transparent = Some(meta.span()),
            "rename_all" => res.rename_all = rename_rule(&meta)?,
            "rename_all_fields" => res.rename_all_fields = rename_rule(&meta)?,
            // `rename` (the type's name is not part of its Candid type), `crate`,
            // `bound`, `default`, `deny_unknown_fields`, `from`/`try_from`/`into`,
            // `remote`, `expecting`: no effect on the Candid type (candid_derive
            // ignores them too).
            _ => {}
        }
    }
    Ok(res)
}

/// The crate path given by `#[candid_path("...")]` or `#[candor_path("...")]`, if any.
pub(crate) fn crate_path(attrs: &[Attribute]) -> Result<Option<syn::Path>> {
    let mut found: Option<(syn::Path, Span)> = None;
    for attr in attrs {
        if !(attr.path().is_ident("candid_path") || attr.path().is_ident("candor_path")) {
            continue;
        }
        if let Some((_, first)) = &found {
            let mut err = Error::new(attr.span(), "the crate path is given twice");
            err.combine(Error::new(*first, "first given here"));
            return Err(err);
        }
        let lit: LitStr = attr.parse_args().map_err(|e| {
            Error::new(
                e.span(),
                "expected a string literal path, e.g. #[candid_path(\"::candid\")]",
            )
        })?;
        let path: syn::Path = lit.parse()?;
        found = Some((path, attr.span()));
    }
    Ok(found.map(|(p, _)| p))
}
