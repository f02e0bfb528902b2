//! A counter with named counters, init arguments and an exported interface: the
//! smallest canister that uses every macro ic-cdk puts on endpoints.

use candid::{CandidType, Deserialize, Int, Nat};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Init arguments.
#[derive(CandidType, Deserialize)]
pub struct Init {
    /// Counters that exist from the start.
    pub names: Vec<String>,
    pub start: Nat,
}

/// What `bump` reports.
#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
pub enum Bumped {
    Created { name: String },
    Updated { name: String, old: Nat, new: Nat },
}

thread_local! {
    static COUNTERS: RefCell<BTreeMap<String, Nat>> = RefCell::new(BTreeMap::new());
}

#[ic_cdk::init]
fn init(init: Init) {
    COUNTERS.with(|c| {
        let mut c = c.borrow_mut();
        for name in init.names {
            c.insert(name, init.start.clone());
        }
    });
}

#[ic_cdk::update]
fn bump(name: String, by: Nat) -> Bumped {
    COUNTERS.with(|c| {
        let mut c = c.borrow_mut();
        match c.get_mut(&name) {
            Some(v) => {
                let old = v.clone();
                *v += by;
                Bumped::Updated { name, old, new: v.clone() }
            }
            None => {
                c.insert(name.clone(), by);
                Bumped::Created { name }
            }
        }
    })
}

#[ic_cdk::query]
fn get(name: String) -> Option<Nat> {
    COUNTERS.with(|c| c.borrow().get(&name).cloned())
}

#[ic_cdk::query]
fn all() -> Vec<(String, Nat)> {
    COUNTERS.with(|c| c.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect())
}

#[ic_cdk::query]
fn difference(a: String, b: String) -> Int {
    COUNTERS.with(|c| {
        let c = c.borrow();
        let get = |n: &str| Int::from(c.get(n).cloned().unwrap_or_default());
        get(&a) - get(&b)
    })
}

ic_cdk::export_candid!();
