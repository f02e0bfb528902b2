//! `#[candid_method]` and `export_service!()`: a service's interface collected from
//! its Rust endpoints and printed as a `.did` by a generated `__export_service()`.
//!
//! ic-cdk's `#[update]`/`#[query]`/`#[init]` put `#[candid::candid_method(..)]` on
//! every endpoint and `export_candid!()` calls `candid::export_service!()`, so the
//! generated function must be what candid_derive 0.10.39 generates: same name, same
//! method order (by name), same types through `TypeContainer`, same printer.
//!
//! Proc macros have no channel between invocations, so the endpoints are recorded in
//! process-wide state that `export_service!` reads and clears. That relies on one
//! crate's macros expanding in source order within one process, as candid_derive
//! does; expansion is per crate, so two crates never mix.

use crate::docs::doc_lines;
use crate::expand::Flavor;
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Error, ItemFn, Meta, Result, ReturnType, Token};

/// One endpoint, its types kept as source text (tokens cannot cross invocations).
struct Method {
    args: Vec<String>,
    rets: Vec<String>,
    mode: Mode,
    docs: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Update,
    Query,
    CompositeQuery,
    Oneway,
}

/// What the crate being compiled has declared so far.
#[derive(Default)]
struct Recorded {
    methods: BTreeMap<String, Method>,
    /// The init method's argument types, when there is one.
    init: Option<Vec<String>>,
}

static RECORDED: Mutex<Option<Recorded>> = Mutex::new(None);

/// The recorded state; a panic in another expansion does not lose it.
fn recorded() -> MutexGuard<'static, Option<Recorded>> {
    RECORDED.lock().unwrap_or_else(|e| e.into_inner())
}

/// What `#[candid_method(...)]` says about its function.
struct MethodAttrs {
    mode: Mode,
    is_init: bool,
    rename: Option<String>,
}

fn method_attrs(attrs: &[Meta]) -> Result<MethodAttrs> {
    let mut res = MethodAttrs {
        mode: Mode::Update,
        is_init: false,
        rename: None,
    };
    let mut mode_set = false;
    for meta in attrs {
        let mut set_mode = |mode: Mode| -> Result<()> {
            if mode_set {
                return Err(Error::new(meta.span(), "the method kind is given twice"));
            }
            mode_set = true;
            res.mode = mode;
            Ok(())
        };
        match meta {
            Meta::Path(p) if p.is_ident("query") => set_mode(Mode::Query)?,
            Meta::Path(p) if p.is_ident("composite_query") => set_mode(Mode::CompositeQuery)?,
            Meta::Path(p) if p.is_ident("oneway") => set_mode(Mode::Oneway)?,
            Meta::Path(p) if p.is_ident("update") => set_mode(Mode::Update)?,
            Meta::Path(p) if p.is_ident("init") => {
                set_mode(Mode::Update)?;
                res.is_init = true;
            }
            Meta::NameValue(nv) if nv.path.is_ident("rename") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => res.rename = Some(s.value()),
                other => return Err(Error::new(other.span(), "expected a string literal")),
            },
            other => {
                return Err(Error::new(
                    other.span(),
                    "unknown attribute: expected query, composite_query, oneway, update, \
                     init or rename = \"...\"",
                ))
            }
        }
    }
    Ok(res)
}

/// Parses the attribute's arguments (`query, rename = "x"`).
pub(crate) fn parse_attr_args(attr: TokenStream) -> Result<Vec<Meta>> {
    use syn::parse::Parser;
    Ok(Punctuated::<Meta, Token![,]>::parse_terminated
        .parse2(attr)?
        .into_iter()
        .collect())
}

/// The types a function takes and returns, as written (a tuple return is several).
fn signature_types(fun: &ItemFn) -> Result<(Vec<syn::Type>, Vec<syn::Type>)> {
    let mut args = Vec::new();
    for input in &fun.sig.inputs {
        match input {
            syn::FnArg::Receiver(r) if r.reference.is_none() => {
                return Err(Error::new(
                    r.span(),
                    "candid_method only works for methods that borrow self",
                ))
            }
            syn::FnArg::Receiver(_) => {}
            syn::FnArg::Typed(pt) => args.push((*pt.ty).clone()),
        }
    }
    let rets = match &fun.sig.output {
        ReturnType::Default => Vec::new(),
        ReturnType::Type(_, ty) => match ty.as_ref() {
            syn::Type::Tuple(t) => t.elems.iter().cloned().collect(),
            other => vec![other.clone()],
        },
    };
    Ok((args, rets))
}

/// `#[candid_method(...)]`: records the function and returns it unchanged.
pub(crate) fn candid_method(attrs: Vec<Meta>, fun: ItemFn) -> Result<TokenStream> {
    let attrs = method_attrs(&attrs)?;
    if !fun.sig.generics.params.is_empty() {
        return Err(Error::new(
            fun.sig.generics.span(),
            "candid_method does not support generic parameters",
        ));
    }
    let (args, rets) = signature_types(&fun)?;
    let text = |ts: &[syn::Type]| -> Vec<String> {
        ts.iter().map(|t| t.to_token_stream().to_string()).collect()
    };
    let (args, rets) = (text(&args), text(&rets));
    if attrs.mode == Mode::Oneway && !rets.is_empty() {
        return Err(Error::new(
            fun.sig.output.span(),
            "a oneway method cannot return a value",
        ));
    }
    let mut state = recorded();
    let state = state.get_or_insert_with(Recorded::default);
    if attrs.is_init {
        if !(rets.is_empty() || rets == ["Self"]) {
            return Err(Error::new(
                fun.sig.output.span(),
                "an init method returns nothing or Self",
            ));
        }
        state.init = Some(args);
    } else {
        let name = attrs.rename.unwrap_or_else(|| fun.sig.ident.to_string());
        state.methods.insert(
            name,
            Method {
                args,
                rets,
                mode: attrs.mode,
                docs: doc_lines(&fun.attrs),
            },
        );
    }
    Ok(fun.into_token_stream())
}

/// `env.add::<T>()` pushed onto `list`, for a type kept as text.
fn add_type(list: &TokenStream, ty: &str) -> Result<TokenStream> {
    let ty: syn::Type = syn::parse_str(ty)?;
    Ok(quote! { #list.push(env.add::<#ty>()); })
}

/// `export_service!()` / `export_service!(path)`: `fn __export_service() -> String`.
pub(crate) fn export_service(path: TokenStream, flavor: Flavor) -> Result<TokenStream> {
    let k = if path.is_empty() {
        flavor.default_path()
    } else {
        path
    };
    let Recorded { methods, init } = recorded().take().unwrap_or_default();

    let mut blocks = Vec::new();
    for (name, m) in &methods {
        let args = m
            .args
            .iter()
            .map(|t| add_type(&quote!(args), t))
            .collect::<Result<Vec<_>>>()?;
        let rets = m
            .rets
            .iter()
            .map(|t| add_type(&quote!(rets), t))
            .collect::<Result<Vec<_>>>()?;
        let modes = match m.mode {
            Mode::Update => quote!(::std::vec![]),
            Mode::Query => quote!(::std::vec![#k::types::FuncMode::Query]),
            Mode::CompositeQuery => quote!(::std::vec![#k::types::FuncMode::CompositeQuery]),
            Mode::Oneway => quote!(::std::vec![#k::types::FuncMode::Oneway]),
        };
        let docs = &m.docs;
        let doc_call = (!docs.is_empty()).then(|| {
            quote! {
                docs.add_service_method(
                    ::std::string::String::from(#name),
                    ::std::vec![#(::std::string::String::from(#docs)),*],
                );
            }
        });
        blocks.push(quote! {{
            #doc_call
            let mut args: ::std::vec::Vec<Type> = ::std::vec::Vec::new();
            #(#args)*
            let mut rets: ::std::vec::Vec<Type> = ::std::vec::Vec::new();
            #(#rets)*
            let func = Function { args, rets, modes: #modes };
            service.push((::std::string::String::from(#name), TypeInner::Func(func).into()));
        }});
    }
    let actor = match &init {
        Some(args) => {
            let args = args
                .iter()
                .map(|t| add_type(&quote!(init_args), t))
                .collect::<Result<Vec<_>>>()?;
            quote! {
                let mut init_args: ::std::vec::Vec<Type> = ::std::vec::Vec::new();
                #(#args)*
                let actor = ::core::option::Option::Some(TypeInner::Class(init_args, ty).into());
            }
        }
        None => quote! { let actor = ::core::option::Option::Some(ty); },
    };
    Ok(quote! {
        fn __export_service() -> ::std::string::String {
            use #k::types::{Function, Type, TypeInner};
            let mut service = ::std::vec::Vec::<(::std::string::String, Type)>::new();
            let mut env = #k::types::internal::TypeContainer::new();
            let mut docs = #k::pretty::candid::DocComments::empty();
            #(#blocks)*
            service.sort_unstable_by_key(|(name, _)| name.clone());
            let ty: Type = TypeInner::Service(service).into();
            #actor
            docs.extend_types(env.docs);
            let result = #k::pretty::candid::compile_with_docs(&env.env, &actor, &docs);
            ::std::format!("{}", result)
        }
    })
}
