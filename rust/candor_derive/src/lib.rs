//! `#[derive(CandidType)]` for [candor](https://docs.rs/candor).
//!
//! The generated `CandidType` impl gives the same Candid type, and makes values encode
//! to the same bytes, as `candid_derive` 0.10.39 does for the same Rust type: a type
//! can move between `candid` and `candor` without changing its interface or its wire
//! format. The one deliberate exception is `#[serde(rename_all = "...")]`, which
//! candor applies and candid_derive ignores (see [Attributes](#attributes)).
//!
//! # Shapes
//!
//! | Rust                          | Candid type                                   |
//! |-------------------------------|-----------------------------------------------|
//! | `struct S { a: A, b: B }`     | `record { a : A; b : B }`                     |
//! | `struct S(A, B)`              | `record { 0 : A; 1 : B }` (`Label::Id`)       |
//! | `struct S(A)` (newtype)       | `A`                                           |
//! | `struct S;`                   | `null`                                        |
//! | `enum E { U, N(A), T(A, B), S { a: A } }` | `variant { U; N : A; T : record { 0 : A; 1 : B }; S : record { a : A } }` |
//!
//! Record fields and variant cases are sorted by their Candid id (`idl_hash` of the
//! name, or the position of a tuple field), and values are written in that order; a
//! variant's index on the wire is its position in that order. Two names with the same
//! id are a compile error naming both (candid_derive panics).
//!
//! Type parameters get a `CandidType` bound. Recursive types (through `Box`, `Rc`,
//! `Option`, `Vec`, ...) need nothing special: the field types' `ty()` ties the knot.
//!
//! # The candid flavour
//!
//! The `candid` compat crate re-exports `CandidTypeCompat` as its `CandidType`. That
//! derive exists because a dependency such as icrc-ledger-types derives
//! `candid::CandidType` and must get exactly the type, and so the bytes, it gets
//! from candid_derive 0.10.39: its generated code names `::candid`, and of the serde
//! attributes it reads only `rename`, `rename(serialize = ..)` and
//! `with = "serde_bytes"`, ignoring the rest as candid_derive does (`rename_all`
//! included, nothing refused). The rules below are candor's own flavour.
//!
//! # Doc comments
//!
//! `///` lines on the type, its fields and its cases become the type's `_ty_doc()`,
//! which [`export_service!`] prints into the `.did`, as candid_derive does.
//!
//! # Attributes
//!
//! `#[candid_path("::path::to::candor")]` (or its alias `#[candor_path(...)]`) on the
//! type points the generated code at a re-export of the crate; the default is
//! `::candor`. Code that says `use candor as candid;` needs nothing. Code that renames
//! the dependency (`candid = { package = "candor", ... }`) writes
//! `#[candid_path("::candid")]`.
//!
//! Serde attributes, read from `#[serde(...)]` (the derive does not claim `serde`;
//! `Serialize`/`Deserialize` do):
//!
//! * **Applied**, as in candid_derive:
//!   * `rename = "x"` / `rename(serialize = "x")` on a field or variant: the label.
//!     It wins over any `rename_all`.
//!   * `with = "serde_bytes"` on a field: written with `serialize_blob` (the field type
//!     must be `AsRef<[u8]>`; its Candid type is the field type's, `vec nat8` for the
//!     byte containers). On a variant, every payload field is written as a blob.
//!   * `transparent` on a one-field tuple struct: that is already how Candid sees a
//!     newtype.
//! * **Applied, unlike candid_derive**:
//!   * `rename_all = "..."` on a struct: the labels of its named fields; on an enum:
//!     the labels of its variants.
//!   * `rename_all_fields = "..."` on an enum: the labels of the fields of its struct
//!     variants; `rename_all = "..."` on a variant does the same for that variant and
//!     wins over the enum's `rename_all_fields`.
//!
//!   All of serde's conventions (`lowercase`, `UPPERCASE`, `PascalCase`, `camelCase`,
//!   `snake_case`, `SCREAMING_SNAKE_CASE`, `kebab-case`, `SCREAMING-KEBAB-CASE`) are
//!   applied exactly as serde applies them, with the same precedence, so the Candid
//!   labels are the names serde's `Deserialize` looks for: the type decodes what it
//!   encodes. candid_derive ignores `rename_all`, so with candid such a type encodes
//!   its Rust names while serde expects the renamed ones, and decoding fails (unless
//!   the rule leaves every name unchanged). **Migration note:** a type carrying
//!   `rename_all` that changes some name gets a different Candid type (and different
//!   bytes) under candor than under candid; that is the point, since candid's was
//!   unusable for decoding.
//!
//!   Where serde distinguishes the two directions
//!   (`rename(serialize = "a", deserialize = "b")`,
//!   `rename_all(serialize = "..", deserialize = "..")`), the label is the
//!   **serialized** name, the one candid_derive uses for `rename`, so those types
//!   keep candid's bytes. A Candid type has one label per field, so such a type
//!   round-trips only when both directions give the same name; otherwise serde's
//!   `Deserialize` looks for the other name and decoding fails, with candid as with
//!   candor. Use one name for both directions.
//! * **Accepted and ignored**, exactly as candid_derive ignores them, so the type and
//!   bytes stay identical to candid's:
//!   * `rename` on the container (a type's name is not part of its Candid type), and
//!     `rename_all_fields` on a struct (serde rejects it there).
//!   * `skip`, `skip_serializing`, `skip_deserializing`: the field stays in the Candid
//!     record and is encoded (candid does the same; the decoder then ignores it).
//!   * `default`, `alias`, `bound`, `borrow`, `deny_unknown_fields`, `crate`,
//!     `from`/`try_from`/`into`, `remote`, `expecting`, `other`: deserialization-side
//!     or serde bookkeeping, no bearing on the Candid type. (`try_from = "String"` on a
//!     validated newtype of `String` is a common and sound pattern.)
//! * **Rejected** with an error on the attribute, because serde would then read or
//!   write a shape that is not the Candid type the derive produces (candid_derive
//!   silently ignores them, and the type then fails to decode at run time):
//!   `flatten`, `untagged`, `tag`, `content`, `skip_serializing_if`,
//!   `serialize_with`, `deserialize_with`, `with = "..."` other than `serde_bytes`,
//!   `getter`, and `transparent` on anything but a one-field tuple struct.

use proc_macro::TokenStream;

mod attrs;
mod case;
mod docs;
mod expand;
mod service;

use expand::Flavor;

fn derive(input: TokenStream, flavor: Flavor) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::expand(input, flavor)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives `candor::CandidType`. See the [crate docs](crate) for shapes and attributes.
#[proc_macro_derive(CandidType, attributes(candid_path, candor_path))]
pub fn derive_candid_type(input: TokenStream) -> TokenStream {
    derive(input, Flavor::Candor)
}

/// The derive behind the `candid` compat crate's `CandidType`: generated code names
/// `::candid`, and serde attributes count exactly as candid_derive 0.10.39 counts
/// them (see [candid's attribute policy](crate#the-candid-flavour)).
#[proc_macro_derive(CandidTypeCompat, attributes(candid_path))]
pub fn derive_candid_type_compat(input: TokenStream) -> TokenStream {
    derive(input, Flavor::Candid)
}

fn method(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attrs = match service::parse_attr_args(attr.into()) {
        Ok(a) => a,
        Err(e) => return e.into_compile_error().into(),
    };
    let fun = syn::parse_macro_input!(item as syn::ItemFn);
    service::candid_method(attrs, fun)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Records a service method for [`export_service!`]: `#[candid_method(query)]`,
/// `#[candid_method(update, rename = "name")]`, `#[candid_method(init)]`, also
/// `composite_query` and `oneway`. The function itself is left unchanged.
#[proc_macro_attribute]
pub fn candid_method(attr: TokenStream, item: TokenStream) -> TokenStream {
    method(attr, item)
}

/// `candid_method` for the `candid` compat crate (the same; kept beside
/// [`export_service_compat`] so both default to `::candid`).
#[proc_macro_attribute]
pub fn candid_method_compat(attr: TokenStream, item: TokenStream) -> TokenStream {
    method(attr, item)
}

/// Defines `fn __export_service() -> String`: the `.did` of the service made of the
/// methods marked with [`macro@candid_method`] so far in this crate (generated code
/// names `::candor`; `export_service!(path)` names another path).
#[proc_macro]
pub fn export_service(input: TokenStream) -> TokenStream {
    service::export_service(input.into(), Flavor::Candor)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `export_service!` for the `candid` compat crate: generated code names `::candid`.
#[proc_macro]
pub fn export_service_compat(input: TokenStream) -> TokenStream {
    service::export_service(input.into(), Flavor::Candid)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

#[cfg(test)]
mod tests;
