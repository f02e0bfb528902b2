//! The recorded trace as folded stacks (`root;f;g COUNT`, the input of flame graph tools),
//! cut to a window of the counter: a benchmark (between the two `performance_counter` calls
//! canbench-rs makes around it) or a scope (the stretches between its own calls).
//!
//! The functions open when the window begins (the export, canbench-rs's own frames) are not
//! shown: what they run inside the window is the root's own count, as upstream canbench draws
//! its charts. The counts add up to the window's length, so the root counts exactly the
//! instructions the benchmark or scope reports.

use super::record::{ChartNode, Recorder, Stretch};
use std::collections::HashMap;

/// A part of the counter's range: `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub start: u64,
    pub end: u64,
}

impl Window {
    pub fn len(self) -> u64 {
        self.end.saturating_sub(self.start)
    }

    fn overlap(self, start: u64, end: u64) -> u64 {
        end.min(self.end).saturating_sub(start.max(self.start))
    }
}

/// The chart of the calls made inside `window`, in time order, as upstream canbench folds it:
/// a line per call, its own count (callees excluded) given after its callees' lines, and an
/// empty `spacer` between two calls of one function that follow each other (so they are not
/// drawn as one). The caller renders the lines reversed, as a flame chart.
pub fn chart_lines(rec: &Recorder, names: &[String], root: &str, window: Window) -> Vec<String> {
    let mut folder = ChartFolder {
        rec,
        names,
        window,
        lines: Vec::new(),
        previous: None,
    };
    let mut inside = 0;
    if let Some(node) = rec.chart.first() {
        inside = folder.children(node, root);
    }
    folder.push(root.to_string(), window.len().saturating_sub(inside));
    folder.lines
}

struct ChartFolder<'a> {
    rec: &'a Recorder,
    names: &'a [String],
    window: Window,
    lines: Vec<String>,
    previous: Option<String>,
}

impl ChartFolder<'_> {
    /// Folds the callees of `node` under `prefix`; returns the instructions they cover.
    fn children(&mut self, node: &ChartNode, prefix: &str) -> u64 {
        let mut covered = 0;
        for &c in &node.children {
            let Some(child) = self.rec.chart.get(c) else {
                continue;
            };
            let total = self.clipped(child);
            if total == 0 {
                continue;
            }
            if child.start < self.window.start {
                // Open when the window began: its callees stand in its place.
                covered += self.children(child, prefix);
                continue;
            }
            let path = format!("{prefix};{}", name(self.names, child.func));
            let inner = self.children(child, &path);
            self.push(path, total.saturating_sub(inner));
            covered += total;
        }
        covered
    }

    fn clipped(&self, node: &ChartNode) -> u64 {
        let span = self.window.overlap(node.start, node.end);
        if node.collapsed {
            span.min(node.total)
        } else {
            span
        }
    }

    fn push(&mut self, frame: String, count: u64) {
        if self.previous.as_deref() == Some(frame.as_str()) {
            let parent = frame.rsplit_once(';').map_or("", |(p, _)| p);
            self.lines.push(format!("{parent};spacer 0"));
        }
        self.lines.push(format!("{frame} {count}"));
        self.previous = Some(frame);
    }
}

/// The name of defined function `func`.
fn name(names: &[String], func: u32) -> String {
    let raw = names
        .get(func as usize)
        .cloned()
        .unwrap_or_else(|| format!("func[{func}]"));
    // `;` separates frames and a trailing count is read as the sample count.
    raw.replace(';', ",")
}

/// Where merged graphs come from: stretches whose instructions lie in one window, each with
/// the stack open when the window began (what is cut from the front of its stacks).
pub struct Part<'a> {
    pub stretch: &'a Stretch,
    pub base: &'a [u32],
}

/// Every call of a function merged with the others made from the same stack, over `parts`:
/// one line per stack, sorted, the root's own count included. The counts add up to the
/// parts' instructions.
pub fn merged_lines(parts: &[Part], names: &[String], root: &str) -> Vec<String> {
    let mut counts: HashMap<Vec<u32>, u64> = HashMap::new();
    for part in parts {
        for (id, node) in part.stretch.stacks.nodes.iter().enumerate() {
            if node.own == 0 {
                continue;
            }
            let path = part.stretch.stacks.path(id);
            let common = path
                .iter()
                .zip(part.base)
                .take_while(|(a, b)| a == b)
                .count();
            let key = path.get(common..).unwrap_or_default().to_vec();
            *counts.entry(key).or_default() += node.own;
        }
    }
    let mut lines: Vec<String> = counts
        .into_iter()
        .map(|(path, count)| {
            let mut line = root.replace(';', ",");
            for f in path {
                line.push(';');
                line.push_str(&name(names, f));
            }
            format!("{line} {count}")
        })
        .collect();
    lines.sort();
    lines
}

/// The stretches that make up `window`, each with the stack open at the window's start.
pub fn parts_in(rec: &Recorder, window: Window) -> Vec<Part<'_>> {
    let base = rec
        .stretches
        .iter()
        .find(|s| s.start == window.start)
        .map_or(&[][..], |s| s.open.as_slice());
    rec.stretches
        .iter()
        .filter(|s| s.start >= window.start && s.end <= window.end)
        .map(|stretch| Part { stretch, base })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["export", "bench_fn", "work", "leaf"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    /// export → bench_fn (perf at 20) → work → leaf ×2, (perf at 80).
    fn recorded() -> Recorder {
        let mut r = Recorder::new(0);
        r.enter(0, 0);
        r.enter(1, 5);
        r.performance_counter(20);
        r.enter(2, 22);
        r.enter(3, 30);
        r.exit(3, 40);
        r.enter(3, 40);
        r.exit(3, 50);
        r.exit(2, 70);
        r.performance_counter(80);
        r.exit(1, 85);
        r.exit(0, 90);
        r.finish(90);
        r
    }

    fn sum(lines: &[String]) -> u64 {
        lines
            .iter()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum()
    }

    #[test]
    fn the_chart_counts_the_window_and_separates_repeated_calls() {
        let r = recorded();
        let w = Window { start: 20, end: 80 };
        let lines = chart_lines(&r, &names(), "b", w);
        assert_eq!(
            lines,
            [
                "b;work;leaf 10",
                "b;work;spacer 0",
                "b;work;leaf 10",
                "b;work 28",
                "b 12"
            ]
        );
        assert_eq!(sum(&lines), 60);
    }

    #[test]
    fn merged_stacks_count_the_window() {
        let r = recorded();
        let w = Window { start: 20, end: 80 };
        let lines = merged_lines(&parts_in(&r, w), &names(), "b");
        assert_eq!(lines, ["b 12", "b;work 28", "b;work;leaf 20"]);
    }
}
