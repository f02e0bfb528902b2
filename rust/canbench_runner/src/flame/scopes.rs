//! Which parts of a benchmark are its scopes. canbench-rs reads the performance counter when a
//! scope opens (in `BenchScope::new`) and when it closes (in its `Drop`), so the stretches of
//! a trace begin at those calls; the stack at each call tells an opening from a closing, and
//! openings pair with closings as the scopes nest. A scope's name is not visible to the
//! runner: each group of intervals opened from the same function is matched to the scope the
//! benchmark's result reports with the same number of calls and instructions.

use super::fold::Window;
use super::record::Recorder;
use crate::results_file::BenchResult;
use std::collections::BTreeMap;

/// The intervals of one scope, in time order, with the union of their instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeWindows {
    pub windows: Vec<Window>,
}

impl ScopeWindows {
    /// Overlapping intervals (a scope opened again inside itself) merged, as canbench-rs
    /// counts them.
    pub fn union(&self) -> Vec<Window> {
        let mut sorted = self.windows.clone();
        sorted.sort_by_key(|w| w.start);
        let mut out: Vec<Window> = Vec::new();
        for w in sorted {
            match out.last_mut() {
                Some(last) if w.start < last.end => last.end = last.end.max(w.end),
                _ => out.push(w),
            }
        }
        out
    }

    fn instructions(&self) -> u64 {
        self.union().iter().map(|w| w.len()).sum()
    }
}

enum Mark {
    Open,
    Close,
    Other,
}

fn mark(stack: &[u32], names: &[String]) -> Mark {
    let named = |f: &u32| names.get(*f as usize).map_or("", String::as_str);
    if stack
        .iter()
        .map(named)
        .any(|n| n.contains("BenchScope as") && n.ends_with("Drop>::drop"))
    {
        Mark::Close
    } else if stack
        .iter()
        .map(named)
        .any(|n| n.ends_with("BenchScope::new") || n.ends_with("canbench_rs::bench_scope"))
    {
        Mark::Open
    } else {
        Mark::Other
    }
}

/// The function that opened a scope: the frame below the library frames on top of the stack
/// (canbench-rs's, and ic-cdk's `performance_counter`).
fn opener(stack: &[u32], names: &[String]) -> Option<u32> {
    let library = |f: &u32| {
        let n = names.get(*f as usize).map_or("", String::as_str);
        ["canbench_rs::", "<canbench_rs::", "ic_cdk::api::"]
            .iter()
            .any(|p| n.starts_with(p))
    };
    let below = stack.len() - stack.iter().rev().take_while(|f| library(f)).count();
    stack.get(below.checked_sub(1)?).copied()
}

/// Each scope of `result` the trace can tell apart, by name; the others are left out.
pub fn scope_windows(
    rec: &Recorder,
    names: &[String],
    bench: Window,
    result: &BenchResult,
) -> BTreeMap<String, ScopeWindows> {
    // Intervals by the function that opened them, in opening order.
    let mut groups: BTreeMap<u32, ScopeWindows> = BTreeMap::new();
    let mut opened: Vec<(u64, Option<u32>)> = Vec::new();
    for s in &rec.stretches {
        if s.start <= bench.start || s.start > bench.end {
            continue;
        }
        match mark(&s.open, names) {
            Mark::Open => opened.push((s.start, opener(&s.open, names))),
            Mark::Close => {
                if let Some((start, Some(by))) = opened.pop() {
                    groups
                        .entry(by)
                        .or_insert(ScopeWindows { windows: vec![] })
                        .windows
                        .push(Window {
                            start,
                            end: s.start,
                        });
                }
            }
            Mark::Other => {}
        }
    }
    let mut found = BTreeMap::new();
    for (name, m) in &result.scopes {
        let mut matching = groups
            .values()
            .filter(|g| g.windows.len() as u64 == m.calls && g.instructions() == m.instructions);
        if let (Some(g), None) = (matching.next(), matching.next()) {
            found.insert(name.clone(), g.clone());
        }
    }
    // A function that opens several scopes: its intervals cut into nests (intervals that
    // overlap, as a recursive scope's do), each nest told apart by its calls and length.
    let nests: Vec<ScopeWindows> = groups
        .values()
        .filter(|g| !found.values().any(|f| f == *g))
        .flat_map(nests)
        .collect();
    for (name, m) in &result.scopes {
        if found.contains_key(name) {
            continue;
        }
        let mut matching = nests
            .iter()
            .filter(|n| n.windows.len() as u64 == m.calls && n.instructions() == m.instructions);
        if let (Some(n), None) = (matching.next(), matching.next()) {
            found.insert(name.clone(), n.clone());
        }
    }
    found
}

/// The intervals of `group` in sets of overlapping ones.
fn nests(group: &ScopeWindows) -> Vec<ScopeWindows> {
    let mut sorted = group.windows.clone();
    sorted.sort_by_key(|w| w.start);
    let mut out: Vec<(u64, ScopeWindows)> = Vec::new();
    for w in sorted {
        match out.last_mut() {
            Some((end, nest)) if w.start < *end => {
                *end = (*end).max(w.end);
                nest.windows.push(w);
            }
            _ => out.push((w.end, ScopeWindows { windows: vec![w] })),
        }
    }
    out.into_iter().map(|(_, n)| n).collect()
}
