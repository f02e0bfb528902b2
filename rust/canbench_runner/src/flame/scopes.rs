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

/// `stack` without the library frames on its top (canbench-rs's, and ic-cdk's
/// `performance_counter`): what the code that opened or closed a scope was running in.
fn user_stack<'s>(stack: &'s [u32], names: &[String]) -> &'s [u32] {
    let library = |f: &u32| {
        let n = names.get(*f as usize).map_or("", String::as_str);
        ["canbench_rs::", "<canbench_rs::", "ic_cdk::api::"]
            .iter()
            .any(|p| n.starts_with(p))
    };
    let below = stack.len() - stack.iter().rev().take_while(|f| library(f)).count();
    stack.get(..below).unwrap_or_default()
}

/// Each scope of `result` the trace can tell apart, by name; the others are left out.
///
/// A closing is recognised by its frame (`Drop` is not inlined away: it runs from the drop
/// glue); an opening may be inlined into the function that opens the scope, so a closing pairs
/// with the latest unpaired counter reading made from the same user stack, one made in
/// `BenchScope::new` or `bench_scope` first. Matching the result's calls and instructions
/// afterwards rejects a wrong pairing (a reading the code made itself).
pub fn scope_windows(
    rec: &Recorder,
    names: &[String],
    bench: Window,
    result: &BenchResult,
) -> BTreeMap<String, ScopeWindows> {
    // Intervals by the function that opened them, in opening order.
    let mut groups: BTreeMap<u32, ScopeWindows> = BTreeMap::new();
    // Readings not paired yet: where, from which user stack, whether in canbench-rs's code.
    let mut readings: Vec<(u64, &[u32], bool)> = Vec::new();
    for s in &rec.stretches {
        if s.start <= bench.start || s.start > bench.end {
            continue;
        }
        let user = user_stack(&s.open, names);
        match mark(&s.open, names) {
            Mark::Close => {
                let same = |r: &&(u64, &[u32], bool)| r.1 == user;
                let pick = readings
                    .iter()
                    .rposition(|r| same(&r) && r.2)
                    .or_else(|| readings.iter().rposition(|r| same(&r)));
                let (Some(k), Some(&by)) = (pick, user.last()) else {
                    continue;
                };
                let (start, _, _) = readings.remove(k);
                groups
                    .entry(by)
                    .or_insert(ScopeWindows { windows: vec![] })
                    .windows
                    .push(Window {
                        start,
                        end: s.start,
                    });
            }
            Mark::Open => readings.push((s.start, user, true)),
            Mark::Other => readings.push((s.start, user, false)),
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
