//! A profiling run (`--profile N`): where a benchmark's instructions went, by function.

use super::human;
use crate::exec::QueryRun;

/// A profiled run: the `top` functions of the whole message by the instructions charged
/// inside them (callees excluded), then the same for each stretch between two
/// `performance_counter` calls that holds at least 1% of the message. canbench-rs reads the
/// counter when a scope opens and closes, so each scope is one of those stretches (match them
/// by their totals). What no function was charged is the ic0 calls' overhead (the host
/// charges it); it gets its own row.
pub fn profile(bench: &str, run: &QueryRun, names: &[String], top: usize) -> String {
    let mut out = format!(
        "Benchmark: {bench} ({} instructions)\n",
        human(run.instructions)
    );
    out.push_str(&profile_rows(run.instructions, &run.profile, names, top));
    let zero = vec![0; run.profile.len()];
    let mut marks: Vec<(u64, &[u64])> = vec![(0, &zero)];
    marks.extend(
        run.snapshots
            .iter()
            .map(|s| (s.instructions, s.profile.as_slice())),
    );
    marks.push((run.instructions, &run.profile));
    for (k, pair) in marks.windows(2).enumerate() {
        let [(a, pa), (b, pb)] = pair else { continue };
        let total = b.saturating_sub(*a);
        if run.snapshots.is_empty() || total * 100 < run.instructions {
            continue;
        }
        let counts: Vec<u64> = pb.iter().zip(*pa).map(|(b, a)| b - a).collect();
        out.push_str(&format!(
            "\n  between performance_counter calls {k} and {}: {} instructions\n",
            k + 1,
            human(total)
        ));
        out.push_str(&profile_rows(total, &counts, names, top));
    }
    out
}

fn profile_rows(total: u64, counts: &[u64], names: &[String], top: usize) -> String {
    let system = total.saturating_sub(counts.iter().sum());
    let mut rows: Vec<(u64, &str)> = counts
        .iter()
        .zip(names)
        .filter(|(c, _)| **c > 0)
        .map(|(c, n)| (*c, n.as_str()))
        .chain((system > 0).then_some((system, "(ic0 system API overhead)")))
        .collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let mut out = String::new();
    for (count, name) in rows.into_iter().take(top) {
        let share = if total == 0 {
            0.0
        } else {
            100.0 * count as f64 / total as f64
        };
        out.push_str(&format!("{:>16} {share:>5.1}%  {name}\n", human(count)));
    }
    out
}
