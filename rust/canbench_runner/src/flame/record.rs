//! What a tracing build reports while a message runs: every function entry and exit, and every
//! `performance_counter` call, each with the instruction counter at that moment. The recorder
//! keeps two things from them, both small enough for messages of billions of instructions:
//!
//! * the call tree in time order (the flame chart): one node per call, except that a call too
//!   short to be seen (under the resolution given, or [`INVISIBLE`] of the instructions so
//!   far) keeps no callees, and is merged with the call of the same function just before it,
//!   or else left out (its instructions then count as its caller's own, which draws the same:
//!   a flame graph does not draw what is narrower than a tenth of a pixel);
//! * for each stretch between two `performance_counter` calls, the instructions charged to
//!   each call stack (a trie of stacks): canbench-rs reads the counter where a benchmark and
//!   each of its scopes begin and end, so the merged flame graph of a benchmark or a scope is
//!   the sum of the stretches it covers, exactly.

use std::collections::HashMap;

/// A call shorter than the instructions so far divided by this is collapsed in the chart: a
/// flame chart 1,200 pixels wide draws nothing under a tenth of a pixel, 1/12,000 of it.
const INVISIBLE: u64 = 200_000;
/// Stretches kept at most (a scope opened in a hot loop makes many); past this the merged
/// graphs are not made, and the chart still is.
const MAX_STRETCHES: usize = 50_000;
/// Trie nodes kept at most over all stretches.
const MAX_STACK_NODES: usize = 4_000_000;

/// One call in the chart: a function (its defined index) and the counter when it was entered
/// and left. A collapsed node stands for one or more calls without their callees.
#[derive(Debug, Clone)]
pub struct ChartNode {
    pub func: u32,
    pub start: u64,
    pub end: u64,
    /// The instructions of the call(s) (`end - start` unless merged with earlier calls).
    pub total: u64,
    pub children: Vec<usize>,
    pub collapsed: bool,
}

/// Call stacks with the instructions charged while each was the current one.
#[derive(Debug, Default, Clone)]
pub struct StackTrie {
    pub nodes: Vec<StackNode>,
}

/// One call stack: the stack of `parent` with `func` on top (the root, index 0, is empty).
#[derive(Debug, Clone)]
pub struct StackNode {
    pub func: u32,
    pub parent: usize,
    /// Instructions charged while this stack was current (callees excluded).
    pub own: u64,
    children: HashMap<u32, usize>,
}

impl StackTrie {
    fn new() -> StackTrie {
        StackTrie {
            nodes: vec![StackNode {
                func: u32::MAX,
                parent: 0,
                own: 0,
                children: HashMap::new(),
            }],
        }
    }

    fn child(&mut self, parent: usize, func: u32) -> usize {
        if let Some(&c) = self.nodes.get(parent).and_then(|p| p.children.get(&func)) {
            return c;
        }
        let id = self.nodes.len();
        self.nodes.push(StackNode {
            func,
            parent,
            own: 0,
            children: HashMap::new(),
        });
        if let Some(p) = self.nodes.get_mut(parent) {
            p.children.insert(func, id);
        }
        id
    }

    /// The functions of stack `node`, outermost first.
    pub fn path(&self, mut node: usize) -> Vec<u32> {
        let mut path = Vec::new();
        while node != 0 {
            let Some(n) = self.nodes.get(node) else { break };
            path.push(n.func);
            node = n.parent;
        }
        path.reverse();
        path
    }
}

/// The instructions between two `performance_counter` calls (or the message's start or end).
#[derive(Debug, Clone)]
pub struct Stretch {
    pub start: u64,
    pub end: u64,
    /// The call stack when it began (functions, outermost first).
    pub open: Vec<u32>,
    pub stacks: StackTrie,
}

/// A function on the stack: its chart node and its node in the current stretch's trie.
#[derive(Debug)]
struct Open {
    func: u32,
    chart: usize,
    stack: usize,
}

/// The trace of one message.
#[derive(Debug)]
pub struct Recorder {
    /// Calls shorter than this are collapsed (see the module docs).
    resolution: u64,
    last: u64,
    open: Vec<Open>,
    /// The chart, in the order calls began; node 0 is the message itself.
    pub chart: Vec<ChartNode>,
    pub stretches: Vec<Stretch>,
    stack_nodes: usize,
    /// Whether the stretches were given up ([`MAX_STRETCHES`], [`MAX_STACK_NODES`]).
    pub stretches_dropped: bool,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder::new(0)
    }
}

impl Recorder {
    /// A recorder that collapses calls shorter than `resolution` instructions (and than the
    /// instructions so far divided by [`INVISIBLE`]).
    pub fn new(resolution: u64) -> Recorder {
        Recorder {
            resolution,
            last: 0,
            open: Vec::new(),
            chart: vec![ChartNode {
                func: u32::MAX,
                start: 0,
                end: 0,
                total: 0,
                children: Vec::new(),
                collapsed: false,
            }],
            stretches: vec![Stretch {
                start: 0,
                end: 0,
                open: Vec::new(),
                stacks: StackTrie::new(),
            }],
            stack_nodes: 1,
            stretches_dropped: false,
        }
    }

    /// Charges the instructions since the last event to the current stack.
    fn account(&mut self, now: u64) {
        let spent = now.saturating_sub(self.last);
        self.last = now.max(self.last);
        if self.stretches_dropped {
            return;
        }
        let node = self.open.last().map_or(0, |o| o.stack);
        if let Some(n) = self
            .stretches
            .last_mut()
            .and_then(|s| s.stacks.nodes.get_mut(node))
        {
            n.own += spent;
        }
    }

    /// The function `func` was entered with the counter at `now`.
    pub fn enter(&mut self, func: u32, now: u64) {
        self.account(now);
        let parent = self.open.last().map_or(0, |o| o.chart);
        let chart = self.chart.len();
        self.chart.push(ChartNode {
            func,
            start: now,
            end: now,
            total: 0,
            children: Vec::new(),
            collapsed: false,
        });
        if let Some(p) = self.chart.get_mut(parent) {
            p.children.push(chart);
        }
        let stack = self.stack_child(func);
        self.open.push(Open { func, chart, stack });
    }

    fn stack_child(&mut self, func: u32) -> usize {
        if self.stretches_dropped {
            return 0;
        }
        let parent = self.open.last().map_or(0, |o| o.stack);
        let Some(stretch) = self.stretches.last_mut() else {
            return 0;
        };
        let before = stretch.stacks.nodes.len();
        let id = stretch.stacks.child(parent, func);
        self.stack_nodes += stretch.stacks.nodes.len() - before;
        if self.stack_nodes > MAX_STACK_NODES {
            self.drop_stretches();
        }
        id
    }

    fn drop_stretches(&mut self) {
        self.stretches_dropped = true;
        self.stretches.clear();
    }

    /// The function `func` returned with the counter at `now`. Frames above it that did not
    /// report their exit are closed with it.
    pub fn exit(&mut self, func: u32, now: u64) {
        self.account(now);
        if !self.open.iter().any(|o| o.func == func) {
            return;
        }
        while let Some(top) = self.open.pop() {
            self.close(top.chart, now);
            if top.func == func {
                break;
            }
        }
    }

    /// `performance_counter` returned `now`: a new stretch begins.
    pub fn performance_counter(&mut self, now: u64) {
        self.account(now);
        if self.stretches_dropped {
            return;
        }
        if self.stretches.len() >= MAX_STRETCHES {
            self.drop_stretches();
            return;
        }
        if let Some(s) = self.stretches.last_mut() {
            s.end = now;
        }
        self.stretches.push(Stretch {
            start: now,
            end: now,
            open: self.open.iter().map(|o| o.func).collect(),
            stacks: StackTrie::new(),
        });
        self.stack_nodes += 1;
        // The open frames, as stacks of the new stretch.
        let funcs: Vec<u32> = self.open.iter().map(|o| o.func).collect();
        let mut parent = 0;
        for (k, func) in funcs.into_iter().enumerate() {
            let Some(stretch) = self.stretches.last_mut() else {
                return;
            };
            parent = stretch.stacks.child(parent, func);
            self.stack_nodes += 1;
            if let Some(o) = self.open.get_mut(k) {
                o.stack = parent;
            }
        }
    }

    /// The message ended with the counter at `now` (returned or trapped): every open frame
    /// closes there.
    pub fn finish(&mut self, now: u64) {
        self.account(now);
        while let Some(top) = self.open.pop() {
            self.close(top.chart, now);
        }
        if let Some(s) = self.stretches.last_mut() {
            s.end = now;
        }
        if let Some(root) = self.chart.first_mut() {
            root.end = now;
            root.total = now;
        }
    }

    /// Closes chart node `id` at `now`, collapsing it when it is too short to be seen.
    fn close(&mut self, id: usize, now: u64) {
        let Some(node) = self.chart.get_mut(id) else {
            return;
        };
        node.end = now;
        node.total = now.saturating_sub(node.start);
        if node.total >= self.resolution.max(now / INVISIBLE) {
            return;
        }
        // Every node made after `id` is one of its callees: drop them.
        self.chart.truncate(id + 1);
        let (func, total) = match self.chart.get_mut(id) {
            Some(n) => {
                n.children.clear();
                n.collapsed = true;
                (n.func, n.total)
            }
            None => return,
        };
        let parent = self.open.last().map_or(0, |o| o.chart);
        let previous = self.chart.get(parent).and_then(|p| {
            let k = p.children.len().checked_sub(2)?;
            p.children.get(k).copied()
        });
        let Some(prev) = previous.filter(|&p| self.chart.get(p).is_some_and(|n| n.collapsed))
        else {
            return;
        };
        // After another short call: merged with it if it is of the same function, else left
        // out (its instructions become the caller's own).
        if let Some(p) = self.chart.get_mut(prev).filter(|p| p.func == func) {
            p.total += total;
            p.end = now;
        }
        if let Some(p) = self.chart.get_mut(parent) {
            p.children.pop();
        }
        self.chart.truncate(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretches_split_at_the_performance_counter_and_sum_to_the_message() {
        let mut r = Recorder::new(0);
        r.enter(0, 0); // the export
        r.enter(1, 10);
        r.performance_counter(20);
        r.enter(2, 25);
        r.exit(2, 45);
        r.exit(1, 50);
        r.performance_counter(60);
        r.exit(0, 70);
        r.finish(70);
        let sums: Vec<u64> = r
            .stretches
            .iter()
            .map(|s| s.stacks.nodes.iter().map(|n| n.own).sum())
            .collect();
        assert_eq!(sums, [20, 40, 10]);
        assert_eq!(r.stretches[1].open, [0, 1]);
        let chart = &r.chart;
        assert_eq!(chart[0].total, 70);
        assert_eq!(chart[1].total, 70);
        assert_eq!(chart[2].total, 40);
        assert_eq!(chart[3].total, 20);
    }

    #[test]
    fn short_calls_collapse_into_one() {
        let mut r = Recorder::new(0);
        r.enter(0, 0);
        r.enter(1, 1_000_000);
        for k in 0..100u64 {
            let at = 1_000_000 + k * 3;
            r.enter(2, at);
            r.enter(3, at + 1);
            r.exit(3, at + 2);
            r.exit(2, at + 3);
        }
        r.exit(1, 2_000_000);
        r.exit(0, 2_000_001);
        r.finish(2_000_001);
        // export, f, one merged node for the hundred calls of 2.
        assert_eq!(r.chart.len(), 4);
        assert_eq!(r.chart[3].total, 300);
        assert!(r.chart[3].collapsed);
    }

    #[test]
    fn short_calls_between_short_calls_are_left_to_their_caller() {
        let mut r = Recorder::new(100);
        r.enter(0, 0);
        for k in 0..50u64 {
            r.enter(1 + (k % 2) as u32, k * 10);
            r.exit(1 + (k % 2) as u32, k * 10 + 5);
        }
        r.enter(3, 1_000);
        r.exit(3, 2_000);
        r.exit(0, 2_000);
        r.finish(2_000);
        // The export, the 25 calls of 1 as one node (those of 2 left out), the long call.
        let kept: Vec<(u32, u64)> = r.chart.iter().skip(1).map(|n| (n.func, n.total)).collect();
        assert_eq!(kept, [(0, 2_000), (1, 125), (3, 1_000)]);
    }
}
