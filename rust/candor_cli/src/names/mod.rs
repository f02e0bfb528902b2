//! Names for the labels a message carries only as hashes. A message holds each
//! record field and variant case as the 32-bit hash of its name; without the
//! interface, `decode` and `explain` would show `1_213_809_850` where the
//! interface says `memo`. The names of well-known interfaces (ICRC-1, -2, -3, -7
//! and -37, the ICP ledger, the management canister, NNS governance, Internet
//! Identity) are built in (`well_known.txt`, a list of identifiers; regenerate it
//! with `cargo run -p candor_cli --example well_known_names -- FILE.did…`). The
//! sources: the ICRC standards' .did files (dfinity/ICRC-1 `standards/`,
//! dfinity/ICRC `ICRCs/`), `benches/canister/src/governance.did`, and, given as
//! lists collected by hand from their .did files, the ICP ledger (dfinity/ic
//! `rs/ledger_suite/icp/ledger.did`), the management canister (dfinity/ic
//! `rs/types/management_canister_types/tests/ic.did`) and Internet Identity
//! (dfinity/internet-identity `src/internet_identity/internet_identity.did`). A
//! user adds the names of their own interfaces with `--names FILE.did` or the
//! `CANDOR_NAMES` variable (paths separated as in `PATH`).
//!
//! A hash is replaced by a name only when the name hashes to it exactly. Names
//! from the user's files come before the built-in ones; when one source knows
//! several names for a hash, the hash stays and a note lists the candidates.

use candor::types::{Label, Type, TypeEnv, TypeInner};
use candor::{IDLArgs, IDLField, IDLValue, VariantValue};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The environment variable naming more interfaces to take names from.
pub const ENV_VAR: &str = "CANDOR_NAMES";

const WELL_KNOWN: &str = include_str!("well_known.txt");

/// Nesting deeper than this is not searched for names (an interface's types are
/// walked through their definitions once each, so this only bounds inline types).
const MAX_DEPTH: usize = 512;

/// Names by hash, each with where it came from.
#[derive(Default)]
pub struct Names {
    by_id: HashMap<u32, Vec<(String, usize)>>,
    /// The sources, in priority order: the user's files, then the built-in list.
    sources: Vec<String>,
}

/// What is known about one hash.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup<'a> {
    Unknown,
    One(&'a str),
    /// Several names of the same priority hash to this id.
    Ambiguous(Vec<&'a str>, &'a str),
}

impl Names {
    /// The user's interfaces (`files`, then those in [`ENV_VAR`]) and the
    /// built-in names.
    pub fn load(files: &[impl AsRef<Path>]) -> Result<Names, String> {
        let mut names = Names::default();
        let from_env: Vec<_> = std::env::var_os(ENV_VAR)
            .map(|v| std::env::split_paths(&v).collect())
            .unwrap_or_default();
        for path in files
            .iter()
            .map(|f| f.as_ref())
            .chain(from_env.iter().map(|p| p.as_path()))
            .filter(|p| !p.as_os_str().is_empty())
        {
            let (env, actor, _) =
                candor_parser::check_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
            names.add_all(
                interface_names(&env, actor.as_ref()),
                path.display().to_string(),
            );
        }
        names.add_all(well_known(), "the built-in names".into());
        Ok(names)
    }

    fn add_all(&mut self, list: impl IntoIterator<Item = String>, source: String) {
        let s = self.sources.len();
        self.sources.push(source);
        for name in list {
            let entry = self.by_id.entry(candor::idl_hash(&name)).or_default();
            if !entry.iter().any(|(n, _)| *n == name) {
                entry.push((name, s));
            }
        }
    }

    /// The name for `id`, from the first source that knows one.
    pub fn lookup(&self, id: u32) -> Lookup<'_> {
        let Some(all) = self.by_id.get(&id) else {
            return Lookup::Unknown;
        };
        let Some(best) = all.iter().map(|(_, s)| *s).min() else {
            return Lookup::Unknown;
        };
        let top: Vec<&str> = all
            .iter()
            .filter(|(_, s)| *s == best)
            .map(|(n, _)| n.as_str())
            .collect();
        match top.as_slice() {
            [one] => Lookup::One(one),
            _ => Lookup::Ambiguous(top, &self.sources[best]),
        }
    }

    /// Every hash with exactly one name (for `explain`).
    pub fn unique(&self) -> HashMap<u32, String> {
        self.by_id
            .keys()
            .filter_map(|&id| match self.lookup(id) {
                Lookup::One(n) => Some((id, n.to_string())),
                _ => None,
            })
            .collect()
    }

    /// Every hash with several names of the same priority, with the names
    /// (`a, b in SOURCE`), for `explain`'s type table.
    pub fn ambiguous(&self) -> HashMap<u32, String> {
        self.by_id
            .keys()
            .filter_map(|&id| match self.lookup(id) {
                Lookup::Ambiguous(names, source) => {
                    Some((id, format!("{} in {source}", names.join(", "))))
                }
                _ => None,
            })
            .collect()
    }

    /// The notes for the ambiguous hashes among `ids`.
    pub fn notes(&self, ids: &BTreeSet<u32>) -> Vec<String> {
        ids.iter()
            .filter_map(|&id| match self.lookup(id) {
                Lookup::Ambiguous(names, source) => Some(format!(
                    "label {id} is the hash of several names in {source} ({}): left as a number",
                    names.join(", ")
                )),
                _ => None,
            })
            .collect()
    }

    /// `args` with each numeric label that has one name renamed; returns the ids
    /// left as numbers.
    pub fn relabel(&self, args: &mut IDLArgs) -> BTreeSet<u32> {
        let mut left = BTreeSet::new();
        for v in &mut args.args {
            self.relabel_value(v, &mut left);
        }
        left
    }

    fn relabel_field(&self, f: &mut IDLField, left: &mut BTreeSet<u32>) {
        if let Label::Id(id) = f.id {
            match self.lookup(id) {
                Lookup::One(n) => f.id = Label::Named(n.to_string()),
                _ => {
                    left.insert(id);
                }
            }
        }
        self.relabel_value(&mut f.val, left);
    }

    fn relabel_value(&self, v: &mut IDLValue, left: &mut BTreeSet<u32>) {
        match v {
            IDLValue::Opt(v) => self.relabel_value(v, left),
            IDLValue::Vec(items) => {
                for v in items {
                    self.relabel_value(v, left);
                }
            }
            IDLValue::Record(fields) => {
                for f in fields {
                    self.relabel_field(f, left);
                }
            }
            IDLValue::Variant(VariantValue(f, _)) => self.relabel_field(f, left),
            _ => {}
        }
    }
}

/// The built-in names.
pub fn well_known() -> impl Iterator<Item = String> {
    WELL_KNOWN
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
}

/// Every field and case name in an interface's types.
pub fn interface_names(env: &TypeEnv, actor: Option<&Type>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for t in env.0.values().chain(actor) {
        each_label_name(t, &mut |n| {
            out.insert(n.to_string());
        });
    }
    out
}

/// Calls `f` with the name of every named field and case in `t` (through records,
/// variants, options, vectors, functions, services and classes; names of other
/// definitions are not followed), down to [`MAX_DEPTH`] levels.
pub fn each_label_name(t: &Type, f: &mut impl FnMut(&str)) {
    walk_labels(t, f, 0);
}

fn walk_labels(t: &Type, f: &mut impl FnMut(&str), depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match t.as_ref() {
        TypeInner::Record(fs) | TypeInner::Variant(fs) => {
            for field in fs {
                if let Label::Named(n) = field.id.as_ref() {
                    f(n);
                }
                walk_labels(&field.ty, f, depth + 1);
            }
        }
        TypeInner::Opt(t) | TypeInner::Vec(t) => walk_labels(t, f, depth + 1),
        TypeInner::Func(func) => {
            for t in func.args.iter().chain(&func.rets) {
                walk_labels(t, f, depth + 1);
            }
        }
        TypeInner::Service(ms) => {
            for (_, t) in ms {
                walk_labels(t, f, depth + 1);
            }
        }
        TypeInner::Class(args, t) => {
            for a in args {
                walk_labels(a, f, depth + 1);
            }
            walk_labels(t, f, depth + 1);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_list_is_sorted_names_that_hash_apart() {
        let list: Vec<String> = well_known().collect();
        assert!(list.len() > 500, "{}", list.len());
        assert!(
            list.windows(2).all(|w| w[0] < w[1]),
            "sorted, no duplicates"
        );
        for name in [
            "memo",
            "owner",
            "subaccount",
            "canister_id",
            "neuron_ids",
            "pubkey",
            "token_id",
        ] {
            assert!(list.iter().any(|n| n == name), "{name}");
        }
        let names = Names::load(&[] as &[&Path]).unwrap();
        assert_eq!(
            names.unique().len(),
            list.len(),
            "two built-in names hash alike"
        );
        assert_eq!(names.lookup(candor::idl_hash("memo")), Lookup::One("memo"));
        assert_eq!(names.lookup(12345), Lookup::Unknown);
    }

    #[test]
    fn ambiguous_hashes_are_reported_and_user_names_come_first() {
        let mut names = Names::default();
        names.add_all(["mine".to_string()], "user.did".into());
        names.add_all(["memo".to_string(), "mine".to_string()], "built-in".into());
        assert_eq!(names.lookup(candor::idl_hash("mine")), Lookup::One("mine"));

        let (x, y) = collision();
        let mut twice = Names::default();
        twice.add_all([x.clone(), y.clone()], "built-in".into());
        let id = candor::idl_hash(&x);
        assert!(matches!(twice.lookup(id), Lookup::Ambiguous(ref v, "built-in") if v.len() == 2));
        let notes = twice.notes(&[id].into());
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains(&x) && notes[0].contains(&y),
            "{}",
            notes[0]
        );
        // A user's name for that hash settles it.
        let mut settled = Names::default();
        settled.add_all([y.clone()], "user.did".into());
        settled.add_all([x, y.clone()], "built-in".into());
        assert_eq!(settled.lookup(id), Lookup::One(y.as_str()));
    }

    /// Two distinct names with the same hash, by a birthday search over random
    /// ten-letter names (the hash wraps around 2^32 from five bytes on).
    fn collision() -> (String, String) {
        let mut seen: HashMap<u32, String> = HashMap::new();
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..4_000_000 {
            let name: String = (0..10)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    char::from(b'a' + (state >> 59) as u8 % 26)
                })
                .collect();
            if let Some(other) = seen.insert(candor::idl_hash(&name), name.clone()) {
                if other != name {
                    return (other, name);
                }
            }
        }
        panic!("no collision found");
    }
}
