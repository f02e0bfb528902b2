//! A crate's public API as a set of one-line entries, read from rustdoc JSON.
//!
//! Every entry names an item by the path a user writes (`candid::types::Nat`, not where
//! the item is defined), so two crates that define things in different places but
//! export them at the same paths list the same entries. Listed: modules, the items in
//! them and what they re-export; the variants and public fields of types; inherent
//! methods and associated constants with their parameter count; the traits a type
//! implements (with the trait's generic arguments); the items of traits and the types
//! they are implemented for. Signatures are summarised (arity, not parameter types), as
//! types defined in two different crates cannot be compared by id.

use crate::rustdoc::{ItemRef, Krate, Target, Universe};
use serde_json::Value;
use std::collections::{BTreeSet, HashSet};

/// The public API of `krate` as seen from its root, following re-exports into the
/// other crates of `universe`.
pub fn entries(universe: &Universe, krate: &Krate) -> BTreeSet<String> {
    let mut walk = Walk {
        universe,
        out: BTreeSet::new(),
        visited: HashSet::new(),
    };
    if let Some(root) = krate.root() {
        walk.module(root, &krate.name);
    }
    for krate in universe.crates() {
        walk.foreign_impls(krate);
    }
    walk.out
}

struct Walk<'a> {
    universe: &'a Universe,
    out: BTreeSet<String>,
    /// (crate, item id, path) already listed: modules re-exported in two places are
    /// walked once per path, and glob cycles end.
    visited: HashSet<(String, String, String)>,
}

impl<'a> Walk<'a> {
    fn module(&mut self, module: ItemRef<'a>, path: &str) {
        let key = (
            module.krate.name.clone(),
            module.item["id"].to_string(),
            path.to_string(),
        );
        if !self.visited.insert(key) {
            return;
        }
        for id in array(&module.inner()["items"]) {
            let Some(item) = module.sibling(id) else {
                continue;
            };
            match item.kind() {
                "use" => self.reexport(item, path),
                "impl" | "primitive" => {}
                _ => {
                    if item.is_public() {
                        self.item(item, &format!("{path}::{}", item.name()));
                    }
                }
            }
        }
    }

    fn reexport(&mut self, item: ItemRef<'a>, path: &str) {
        let inner = item.inner();
        let name = inner["name"].as_str().unwrap_or("");
        let is_glob = inner["is_glob"] == true;
        let target = self.universe.resolve(item.krate, &inner["id"]);
        match (target, is_glob) {
            (Some(Target::Item(target)), true) => match target.kind() {
                "module" => self.module(target, path),
                "enum" => {
                    for variant in array(&target.inner()["variants"]) {
                        if let Some(v) = target.sibling(variant) {
                            self.item(v, &format!("{path}::{}", v.name()));
                        }
                    }
                }
                kind => {
                    self.out.insert(format!("glob {path}::* of {kind}"));
                }
            },
            (Some(Target::Item(target)), false) => {
                self.item(target, &format!("{path}::{name}"));
            }
            (Some(Target::Foreign(kind)), glob) => {
                // An item of a crate that was not loaded (serde's traits): its path and
                // kind are what a user sees. Where it is defined is left out, as it
                // moves between versions of that crate (serde_core).
                let what = if glob { "*" } else { name };
                self.out.insert(format!("use {path}::{what} ({kind})"));
            }
            (None, _) => {
                self.out.insert(format!("use {path}::{name}"));
            }
        }
    }

    fn item(&mut self, item: ItemRef<'a>, path: &str) {
        let inner = item.inner();
        match item.kind() {
            "module" => {
                self.out.insert(format!("mod {path}"));
                self.module(item, path);
            }
            "struct" => {
                self.out.insert(format!("struct {path}{}", generics(inner)));
                self.struct_fields(item, path);
                self.impls(item, path);
            }
            "union" => {
                self.out.insert(format!("union {path}{}", generics(inner)));
                self.impls(item, path);
            }
            "enum" => {
                self.out.insert(format!("enum {path}{}", generics(inner)));
                for id in array(&inner["variants"]) {
                    if let Some(v) = item.sibling(id) {
                        self.variant(v, &format!("{path}::{}", v.name()));
                    }
                }
                self.impls(item, path);
            }
            "variant" => self.variant(item, path),
            "trait" => self.trait_(item, path),
            "function" => {
                self.out.insert(format!("fn {path}{}", signature(inner)));
            }
            "constant" => {
                self.out
                    .insert(format!("const {path}: {}", ty(&inner["type"])));
            }
            "static" => {
                self.out
                    .insert(format!("static {path}: {}", ty(&inner["type"])));
            }
            "type_alias" => {
                self.out.insert(format!(
                    "type {path}{} = {}",
                    generics(inner),
                    ty(&inner["type"])
                ));
            }
            "macro" => {
                self.out.insert(format!("macro {path}!"));
            }
            "proc_macro" => {
                let kind = match inner["kind"].as_str() {
                    Some("derive") => "derive",
                    Some("attr") => "attribute",
                    _ => "macro",
                };
                self.out.insert(format!("{kind} {path}"));
            }
            "trait_alias" => {
                self.out.insert(format!("trait alias {path}"));
            }
            other => {
                self.out.insert(format!("{other} {path}"));
            }
        }
    }

    fn variant(&mut self, v: ItemRef<'a>, path: &str) {
        let shape = match &v.inner()["kind"] {
            Value::Object(o) if o.contains_key("tuple") => {
                let fields: Vec<String> = array(&o["tuple"])
                    .iter()
                    .map(|f| v.sibling(f).map_or("_".into(), |f| ty(f.inner())))
                    .collect();
                format!("({})", fields.join(", "))
            }
            Value::Object(o) if o.contains_key("struct") => {
                let fields: Vec<String> = array(&o["struct"]["fields"])
                    .iter()
                    .filter_map(|f| v.sibling(f))
                    .map(|f| format!("{}: {}", f.name(), ty(f.inner())))
                    .collect();
                format!(" {{ {} }}", fields.join(", "))
            }
            _ => String::new(),
        };
        self.out.insert(format!("variant {path}{shape}"));
    }

    fn struct_fields(&mut self, item: ItemRef<'a>, path: &str) {
        let kind = &item.inner()["kind"];
        let (fields, tuple) = if let Some(plain) = kind.get("plain") {
            (array(&plain["fields"]), false)
        } else if let Some(tuple) = kind.get("tuple") {
            (array(tuple), true)
        } else {
            (&[][..], false)
        };
        for (n, id) in fields.iter().enumerate() {
            let Some(field) = item.sibling(id) else {
                continue;
            };
            if !field.is_public() {
                continue;
            }
            let name = if tuple {
                n.to_string()
            } else {
                field.name().to_string()
            };
            self.out
                .insert(format!("field {path}.{name}: {}", ty(field.inner())));
        }
    }

    /// Inherent items and the traits a type implements. Impls rustdoc synthesises (auto
    /// traits) and blanket impls (`impl<T> From<T> for T`) say nothing about the crate.
    fn impls(&mut self, item: ItemRef<'a>, path: &str) {
        for id in array(&item.inner()["impls"]) {
            let Some(imp) = item.sibling(id) else {
                continue;
            };
            let inner = imp.inner();
            if inner["is_synthetic"] == true || !inner["blanket_impl"].is_null() {
                continue;
            }
            if inner["trait"].is_null() {
                for id in array(&inner["items"]) {
                    let Some(member) = imp.sibling(id) else {
                        continue;
                    };
                    if !member.is_public() {
                        continue;
                    }
                    let member_path = format!("{path}::{}", member.name());
                    match member.kind() {
                        "function" => {
                            self.out.insert(format!(
                                "method {member_path}{}",
                                signature(member.inner())
                            ));
                        }
                        "assoc_const" => {
                            self.out.insert(format!(
                                "const {member_path}: {}",
                                ty(&member.inner()["type"])
                            ));
                        }
                        kind => {
                            self.out.insert(format!("{kind} {member_path}"));
                        }
                    }
                }
            } else if path_of(&inner["trait"]) == "StructuralPartialEq" {
                // The compiler's marker for derived `PartialEq`, not something a user
                // can name; a hand-written `PartialEq` with the same meaning lacks it.
            } else {
                let negative = if inner["is_negative"] == true {
                    "!"
                } else {
                    ""
                };
                self.out.insert(format!(
                    "impl {negative}{} for {path}",
                    path_of(&inner["trait"])
                ));
            }
        }
    }

    /// Impls of another crate's trait for another crate's type (`From<Nat> for
    /// BigUint`): neither the type's nor the trait's page lists them, and they are
    /// API all the same. They are named by the crate's paths as written, which is how
    /// a user meets them.
    fn foreign_impls(&mut self, krate: &'a Krate) {
        for imp in krate.items() {
            if imp.kind() != "impl" {
                continue;
            }
            let inner = imp.inner();
            let (trait_, for_) = (&inner["trait"], &inner["for"]);
            if trait_.is_null()
                || inner["is_synthetic"] == true
                || !inner["blanket_impl"].is_null()
                || imp.sibling(&trait_["id"]).is_some()
                || for_
                    .get("resolved_path")
                    .is_some_and(|p| imp.sibling(&p["id"]).is_some())
            {
                continue;
            }
            self.out.insert(format!(
                "impl {} for {} (foreign)",
                path_of(trait_),
                ty(for_)
            ));
        }
    }

    fn trait_(&mut self, item: ItemRef<'a>, path: &str) {
        let inner = item.inner();
        self.out.insert(format!("trait {path}{}", generics(inner)));
        for id in array(&inner["items"]) {
            let Some(member) = item.sibling(id) else {
                continue;
            };
            let what = match member.kind() {
                "function" => format!("fn {}{}", member.name(), signature(member.inner())),
                "assoc_type" => format!("type {}", member.name()),
                "assoc_const" => format!("const {}", member.name()),
                other => format!("{other} {}", member.name()),
            };
            self.out.insert(format!("trait item {path}::{what}"));
        }
        // The types the trait is implemented for, in the crate that defines it (which
        // is where both candid and candor implement their traits for std's types).
        for id in array(&inner["implementations"]) {
            let Some(imp) = item.sibling(id) else {
                continue;
            };
            let imp = imp.inner();
            if imp["is_synthetic"] == true {
                continue;
            }
            let args = path_args(&imp["trait"]);
            self.out
                .insert(format!("impl {path}{args} for {}", ty(&imp["for"])));
        }
    }
}

fn array(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

/// `(&self, &[u8]) -> Result<_>`-style summary: the parameter and return types as a
/// caller sees them (paths shortened, generic names replaced by position).
fn signature(function: &Value) -> String {
    let params: Vec<String> = array(&function["sig"]["inputs"])
        .iter()
        .map(|p| {
            let name = p.get(0).and_then(Value::as_str).unwrap_or("");
            let t = p.get(1).map(ty).unwrap_or_default();
            if name == "self" {
                match t.as_str() {
                    "Self" => "self".to_string(),
                    "&Self" => "&self".to_string(),
                    "&mut Self" => "&mut self".to_string(),
                    _ => format!("self: {t}"),
                }
            } else {
                t
            }
        })
        .collect();
    let output = &function["sig"]["output"];
    let ret = if output.is_null() {
        String::new()
    } else {
        format!(" -> {}", ty(output))
    };
    format!("{}({}){ret}", generics(function), params.join(", "))
}

/// The type and const generic parameters of an item with their trait bounds, as
/// `<_: CandidType + Deserialize, _>`: parameter names are not part of the API
/// (positions are), and neither are lifetimes. Bounds written in a `where` clause
/// count as bounds of their parameter.
fn generics(inner: &Value) -> String {
    let params: Vec<&Value> = array(&inner["generics"]["params"])
        .iter()
        .filter(|p| p["kind"].get("lifetime").is_none())
        .collect();
    if params.is_empty() {
        return String::new();
    }
    let rendered: Vec<String> = params
        .iter()
        .map(|p| {
            let name = p["name"].as_str().unwrap_or("");
            let mut bounds: Vec<String> = bound_names(&p["kind"]["type"]["bounds"]).collect();
            for w in array(&inner["generics"]["where_predicates"]) {
                let w = &w["bound_predicate"];
                if w["type"]["generic"].as_str() == Some(name) {
                    bounds.extend(bound_names(&w["bounds"]));
                }
            }
            bounds.sort();
            if bounds.is_empty() {
                "_".to_string()
            } else {
                format!("_: {}", bounds.join(" + "))
            }
        })
        .collect();
    format!("<{}>", rendered.join(", "))
}

fn bound_names(bounds: &Value) -> impl Iterator<Item = String> + '_ {
    array(bounds).iter().filter_map(|b| {
        let t = b.get("trait_bound")?;
        let modifier = if t["modifier"] == "maybe" { "?" } else { "" };
        Some(format!("{modifier}{}", path_of(&t["trait"])))
    })
}

/// A trait or type path as written, last segment only, with its generic arguments.
fn path_of(path: &Value) -> String {
    let name = path["path"]
        .as_str()
        .or_else(|| path["name"].as_str())
        .unwrap_or("?");
    let last = name.rsplit("::").next().unwrap_or(name);
    format!("{last}{}", path_args(path))
}

fn path_args(path: &Value) -> String {
    let Some(args) = path["args"].get("angle_bracketed") else {
        return String::new();
    };
    let mut parts: Vec<String> = array(&args["args"])
        .iter()
        .filter_map(|a| {
            if let Some(t) = a.get("type") {
                Some(ty(t))
            } else if let Some(c) = a.get("const") {
                // A const parameter passed on (`N`) is positional like a type
                // parameter; a literal (`3`) is kept.
                let expr = c["expr"].as_str().unwrap_or("_");
                let is_param = expr.starts_with(|ch: char| ch.is_ascii_alphabetic() || ch == '_');
                Some(if is_param {
                    "_".into()
                } else {
                    expr.to_string()
                })
            } else {
                None // lifetimes
            }
        })
        .collect();
    for c in array(&args["constraints"]) {
        let name = c["name"].as_str().unwrap_or("?");
        if let Some(t) = c["binding"].get("equality").and_then(|e| e.get("type")) {
            parts.push(format!("{name} = {}", ty(t)));
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("<{}>", parts.join(", "))
    }
}

/// A type as a user would write it, with paths shortened to their last segment.
fn ty(t: &Value) -> String {
    match inner_kind_of_type(t) {
        Some(("primitive", v)) => v.as_str().unwrap_or("?").to_string(),
        // Generic parameters by position, not name: `Vec<T>` and `Vec<K>` are the
        // same impl to a caller.
        Some(("generic", v)) => match v.as_str() {
            Some("Self") => "Self".to_string(),
            _ => "_".to_string(),
        },
        Some(("resolved_path", v)) => path_of(v),
        Some(("borrowed_ref", v)) => {
            let m = if v["is_mutable"] == true { "mut " } else { "" };
            format!("&{m}{}", ty(&v["type"]))
        }
        Some(("raw_pointer", v)) => {
            let m = if v["is_mutable"] == true {
                "mut"
            } else {
                "const"
            };
            format!("*{m} {}", ty(&v["type"]))
        }
        Some(("slice", v)) => format!("[{}]", ty(v)),
        Some(("array", v)) => format!("[{}; {}]", ty(&v["type"]), v["len"].as_str().unwrap_or("_")),
        Some(("tuple", v)) => {
            let parts: Vec<String> = array(v).iter().map(ty).collect();
            format!("({})", parts.join(", "))
        }
        Some(("dyn_trait", v)) => {
            let traits: Vec<String> = array(&v["traits"])
                .iter()
                .map(|t| path_of(&t["trait"]))
                .collect();
            format!("dyn {}", traits.join(" + "))
        }
        Some(("impl_trait", v)) => {
            let traits: Vec<String> = array(v)
                .iter()
                .filter_map(|b| b.get("trait_bound"))
                .map(|b| path_of(&b["trait"]))
                .collect();
            format!("impl {}", traits.join(" + "))
        }
        Some(("qualified_path", v)) => {
            let name = v["name"].as_str().unwrap_or("?");
            let self_type = ty(&v["self_type"]);
            if v["trait"].is_null() {
                format!("{self_type}::{name}")
            } else {
                format!("<{self_type} as {}>::{name}", path_of(&v["trait"]))
            }
        }
        Some(("function_pointer", _)) => "fn(..)".to_string(),
        Some(("infer", _)) => "_".to_string(),
        Some((other, _)) => other.to_string(),
        None => "?".to_string(),
    }
}

fn inner_kind_of_type(t: &Value) -> Option<(&str, &Value)> {
    let (k, v) = t.as_object()?.iter().next()?;
    Some((k.as_str(), v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(name: &str, args: Value) -> Value {
        json!({ "resolved_path": { "path": name, "id": 1, "args": args } })
    }

    #[test]
    fn parameter_names_do_not_count_and_bounds_do() {
        let with = |name: &str, bound: &str| {
            json!({
                "generics": { "params": [
                    { "name": "'a", "kind": { "lifetime": { "outlives": [] } } },
                    { "name": name, "kind": { "type": { "bounds": [
                        { "trait_bound": { "trait": { "path": bound, "id": 2, "args": null },
                          "generic_params": [], "modifier": "none" } }
                    ], "default": null, "is_synthetic": false } } }
                ], "where_predicates": [] },
                "sig": { "inputs": [
                    ["self", { "borrowed_ref": { "lifetime": null, "is_mutable": true,
                               "type": { "generic": "Self" } } }],
                    ["value", { "borrowed_ref": { "lifetime": "'a", "is_mutable": false,
                                "type": { "generic": name } } }]
                ], "output": path("Result", Value::Null) }
            })
        };
        let a = signature(&with("T", "CandidType"));
        assert_eq!(a, "<_: CandidType>(&mut self, &_) -> Result");
        assert_eq!(a, signature(&with("U", "candid::types::CandidType")));
        assert_ne!(a, signature(&with("T", "Serialize")));
    }

    #[test]
    fn types_print_as_written_with_short_paths() {
        let arg = json!({ "angle_bracketed": { "args": [
            { "type": { "primitive": "u8" } },
            { "const": { "expr": "N", "value": null, "is_literal": false } },
            { "const": { "expr": "3", "value": "3", "is_literal": true } }
        ], "constraints": [] } });
        let t = json!({ "slice": path("std::vec::Vec", arg) });
        assert_eq!(ty(&t), "[Vec<u8, _, 3>]");
        let tuple = json!({ "tuple": [ { "generic": "A" }, { "primitive": "bool" } ] });
        assert_eq!(ty(&tuple), "(_, bool)");
    }
}
