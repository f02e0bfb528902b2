//! rustdoc's JSON output (`--output-format json`), read as untyped values.
//!
//! rustdoc writes one file per documented crate and does not inline items that a crate
//! re-exports from another one: `pub use candor::types::Nat;` stays a `use` item whose
//! target lives in candor's file. A [`Universe`] holds several crates' files so such a
//! re-export can be followed into the crate that defines the item.

use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// The rustdoc JSON format versions this reader was written against. Another version
/// may rename the fields read here, so it is refused rather than misread.
const FORMATS: std::ops::RangeInclusive<u64> = 50..=60;

/// One crate's rustdoc JSON.
pub struct Krate {
    pub name: String,
    json: Value,
    /// Canonical path (without the crate name) to id, for this crate's own items.
    by_path: HashMap<Vec<String>, String>,
}

/// A reference to an item in one of the loaded crates.
#[derive(Clone, Copy)]
pub struct ItemRef<'a> {
    pub krate: &'a Krate,
    pub item: &'a Value,
}

impl<'a> ItemRef<'a> {
    /// The item's kind, as rustdoc names its `inner` variant (`struct`, `use`, …).
    pub fn kind(&self) -> &'a str {
        inner_kind(self.item)
    }

    /// The fields of the item's `inner` variant.
    pub fn inner(&self) -> &'a Value {
        &self.item["inner"][self.kind()]
    }

    pub fn name(&self) -> &'a str {
        self.item["name"].as_str().unwrap_or("")
    }

    pub fn is_public(&self) -> bool {
        self.item["visibility"] == "public"
    }

    /// Another item of the same crate, by id.
    pub fn sibling(&self, id: &Value) -> Option<ItemRef<'a>> {
        self.krate.item(id)
    }
}

pub fn inner_kind(item: &Value) -> &str {
    item["inner"]
        .as_object()
        .and_then(|o| o.keys().next())
        .map_or("", String::as_str)
}

impl Krate {
    pub fn load(file: &Path) -> Result<Krate, String> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let json: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not JSON: {e}", file.display()))?;
        let format = json["format_version"].as_u64().unwrap_or(0);
        if !FORMATS.contains(&format) {
            return Err(format!(
                "{}: rustdoc JSON format {format}, this checker reads formats {}..={}",
                file.display(),
                FORMATS.start(),
                FORMATS.end()
            ));
        }
        let root = json["index"][id_key(&json["root"])].clone();
        let name = root["name"].as_str().unwrap_or_default().to_string();
        let mut by_path = HashMap::new();
        if let Some(paths) = json["paths"].as_object() {
            for (id, summary) in paths {
                if summary["crate_id"] != 0 {
                    continue;
                }
                let path: Vec<String> = summary["path"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .skip(1)
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect();
                by_path.insert(path, id.clone());
            }
        }
        Ok(Krate {
            name,
            json,
            by_path,
        })
    }

    pub fn root(&self) -> Option<ItemRef<'_>> {
        self.item(&self.json["root"])
    }

    /// Every item rustdoc recorded for this crate.
    pub fn items(&self) -> impl Iterator<Item = ItemRef<'_>> {
        self.json["index"]
            .as_object()
            .into_iter()
            .flat_map(|o| o.values())
            .map(move |item| ItemRef { krate: self, item })
    }

    pub fn item(&self, id: &Value) -> Option<ItemRef<'_>> {
        let item = self.json["index"].get(id_key(id))?;
        Some(ItemRef { krate: self, item })
    }

    /// Where an id this crate mentions but does not define lives: the defining crate's
    /// name and the item's path inside it (without the crate name), and its kind.
    fn external(&self, id: &Value) -> Option<(&str, Vec<&str>, &str)> {
        let summary = self.json["paths"].get(id_key(id))?;
        let crate_id = summary["crate_id"].as_u64()?;
        let krate = self.json["external_crates"][crate_id.to_string()]["name"].as_str()?;
        let path = summary["path"]
            .as_array()?
            .iter()
            .skip(1)
            .filter_map(Value::as_str)
            .collect();
        Some((krate, path, summary["kind"].as_str().unwrap_or("")))
    }
}

/// JSON object keys are strings; rustdoc's ids are numbers (or strings in old formats).
fn id_key(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The loaded crates, by name.
#[derive(Default)]
pub struct Universe {
    crates: HashMap<String, Krate>,
}

/// What a `use` item points at.
pub enum Target<'a> {
    Item(ItemRef<'a>),
    /// An item of a crate that was not loaded, by its kind.
    Foreign(String),
}

impl Universe {
    pub fn add(&mut self, krate: Krate) {
        self.crates.insert(krate.name.clone(), krate);
    }

    pub fn crates(&self) -> impl Iterator<Item = &Krate> {
        self.crates.values()
    }

    pub fn get(&self, name: &str) -> Option<&Krate> {
        self.crates.get(name)
    }

    /// Follows an id mentioned by `from` to the item, in whichever loaded crate defines
    /// it; crates that were not loaded give the item's canonical path instead.
    pub fn resolve<'a>(&'a self, from: &'a Krate, id: &Value) -> Option<Target<'a>> {
        if id.is_null() {
            return None;
        }
        if let Some(item) = from.item(id) {
            return Some(Target::Item(item));
        }
        let (krate, path, kind) = from.external(id)?;
        let found = self.crates.get(krate).and_then(|k| {
            let key: Vec<String> = path.iter().map(|s| s.to_string()).collect();
            let id = k.by_path.get(&key)?;
            k.item(&Value::String(id.clone()))
        });
        Some(match found {
            Some(item) => Target::Item(item),
            None => Target::Foreign(kind.to_string()),
        })
    }
}
