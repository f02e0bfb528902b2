//! canbench's end-of-run summary and its "Only significant changes" table, as upstream prints
//! them: per metric the status, the counts, the absolute and the percent changes (max, p75,
//! median, p25, min, interpolated between ranks), then every benchmark and scope whose
//! instructions, heap or stable memory changed beyond the noise threshold or is new.

use crate::gate::Change;
use crate::results_file::{BenchResult, Measurement};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// At most this many rows in the table; the middle ones are left out beyond it.
const MAX_TABLE_ROWS: usize = 50;

/// A metric now and in the results file (`None`: the benchmark or scope is new).
#[derive(Clone, Copy)]
struct Values {
    new: u64,
    old: Option<u64>,
}

impl Values {
    fn delta(self) -> Option<i64> {
        Some(self.new as i64 - self.old? as i64)
    }

    /// The change in percent of the old value; from 0 it is infinite in the direction of the
    /// change (none at all stays 0).
    fn percent(self) -> Option<f64> {
        let delta = self.delta()?;
        let old = self.old?;
        Some(if old == 0 {
            match delta.signum() {
                1 => f64::INFINITY,
                -1 => f64::NEG_INFINITY,
                _ => 0.0,
            }
        } else {
            delta as f64 / old as f64 * 100.0
        })
    }

    fn status(self, noise: f64) -> Status {
        match self.percent() {
            None => Status::New,
            Some(p) => match Change::of(p, noise) {
                Change::WithinNoise => Status::Unchanged,
                Change::Improved => Status::Improved,
                Change::Regressed => Status::Regressed,
            },
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    New,
    Improved,
    Regressed,
    Unchanged,
}

/// A benchmark's total (`scope: None`) or one of its scopes, with each metric's values.
struct Entry<'a> {
    name: &'a str,
    scope: Option<&'a str>,
    calls: Values,
    /// instructions, heap_increase, stable_memory_increase.
    metrics: [Values; 3],
}

impl Entry<'_> {
    fn full_name(&self) -> String {
        match self.scope {
            Some(s) => format!("{}::{s}", self.name),
            None => self.name.to_string(),
        }
    }
}

fn values(new: &Measurement, old: Option<&Measurement>, pick: fn(&Measurement) -> u64) -> Values {
    Values {
        new: pick(new),
        old: old.map(pick),
    }
}

fn entry<'a>(
    name: &'a str,
    scope: Option<&'a str>,
    new: &Measurement,
    old: Option<&Measurement>,
) -> Entry<'a> {
    Entry {
        name,
        scope,
        calls: values(new, old, |m| m.calls),
        metrics: [
            values(new, old, |m| m.instructions),
            values(new, old, |m| m.heap_increase),
            values(new, old, |m| m.stable_memory_increase),
        ],
    }
}

/// Every benchmark's total followed by its scopes, by name.
fn entries<'a>(
    new: &'a BTreeMap<String, BenchResult>,
    old: &'a BTreeMap<String, BenchResult>,
) -> Vec<Entry<'a>> {
    let mut out = Vec::new();
    for (name, r) in new {
        let o = old.get(name);
        out.push(entry(name, None, &r.total, o.map(|o| &o.total)));
        for (scope, m) in &r.scopes {
            out.push(entry(
                name,
                Some(scope),
                m,
                o.and_then(|o| o.scopes.get(scope)),
            ));
        }
    }
    out
}

const METRICS: [&str; 3] = ["instructions", "heap_increase", "stable_memory_increase"];

/// The summary (totals only): for each metric its status, counts and the spread of changes.
pub fn summary(
    new: &BTreeMap<String, BenchResult>,
    old: &BTreeMap<String, BenchResult>,
    noise: f64,
) -> String {
    let totals: Vec<Entry> = entries(new, old)
        .into_iter()
        .filter(|e| e.scope.is_none())
        .collect();
    let mut out = String::from("Summary:\n");
    for (i, label) in METRICS.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let (mut added, mut improved, mut regressed, mut unchanged) = (0, 0, 0, 0);
        let (mut deltas, mut percents) = (Vec::new(), Vec::new());
        for e in &totals {
            let v = e.metrics[i];
            deltas.extend(v.delta());
            percents.extend(v.percent());
            match v.status(noise) {
                Status::New => added += 1,
                Status::Improved => improved += 1,
                Status::Regressed => regressed += 1,
                Status::Unchanged => unchanged += 1,
            }
        }
        let status = match (regressed > 0, improved > 0, added > 0) {
            (false, false, false) => "No significant changes 👍",
            (true, false, false) => "Regressions detected 🔴",
            (false, true, false) => "Improvements detected 🟢",
            (false, false, true) => "New benchmarks added ➕",
            (true, true, false) => "Regressions and improvements 🔴🟢",
            (true, false, true) => "Regressions and new benchmarks 🔴➕",
            (false, true, true) => "Improvements and new benchmarks 🟢➕",
            (true, true, true) => "Regressions, improvements, and new benchmarks 🔴🟢➕",
        };
        writeln!(out, "  {label}:\n    status:   {status}").unwrap();
        writeln!(
            out,
            "    counts:   [total {} | regressed {regressed} | improved {improved} | new {added} | unchanged {unchanged}]",
            totals.len()
        )
        .unwrap();
        deltas.sort_unstable();
        percents.sort_by(f64::total_cmp);
        let spread_deltas = spread(&deltas, |s, p| {
            signed_human(interpolate(s, p, |v| v as f64).round() as i64)
        });
        let spread_percents = spread(&percents, |s, p| percent(interpolate(s, p, |v| v)));
        writeln!(out, "    change:   {spread_deltas}").unwrap();
        writeln!(out, "    change %: {spread_percents}").unwrap();
    }
    out
}

/// `[max … | p75 … | median … | p25 … | min …]` of sorted values, or `n/a` when there are
/// none.
fn spread<T>(sorted: &[T], at: impl Fn(&[T], f64) -> String) -> String {
    if sorted.is_empty() {
        return "n/a".into();
    }
    let parts: Vec<String> = [
        ("max", 100.0),
        ("p75", 75.0),
        ("median", 50.0),
        ("p25", 25.0),
        ("min", 0.0),
    ]
    .iter()
    .map(|(label, p)| format!("{label} {}", at(sorted, *p)))
    .collect();
    format!("[{}]", parts.join(" | "))
}

/// The `pct` percentile of non-empty sorted values: the linear interpolation between the two
/// ranks around `pct`% of the way from the first to the last.
fn interpolate<T: Copy>(sorted: &[T], pct: f64, as_f64: impl Fn(T) -> f64) -> f64 {
    let last = sorted.len().saturating_sub(1);
    let rank = pct / 100.0 * last as f64;
    let (lo, hi) = (rank.floor() as usize, rank.ceil() as usize);
    let at = |i: usize| sorted.get(i.min(last)).map_or(0.0, |v| as_f64(*v));
    if lo == hi {
        at(lo)
    } else {
        let w = rank - lo as f64;
        at(lo) * (1.0 - w) + at(hi) * w
    }
}

/// Scales a number to K, M, B or T from a thousand up.
fn scaled(v: f64) -> (f64, &'static str) {
    for (divisor, unit) in [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")] {
        if v.abs() >= divisor {
            return (v / divisor, unit);
        }
    }
    (v, "")
}

/// A value in the table: `207`, `3.83K`.
fn human(value: u64) -> String {
    match scaled(value as f64) {
        (v, "") => format!("{v}"),
        (v, unit) => format!("{v:.2}{unit}"),
    }
}

/// A change: `0`, `+197`, `-1.50K`.
fn signed_human(value: i64) -> String {
    if value == 0 {
        return "0".into();
    }
    match scaled(value as f64) {
        (v, "") => format!("{v:+.0}"),
        (v, unit) => format!("{v:+.2}{unit}"),
    }
}

/// A percent change, signed unless it rounds to zero: `0.00%`, `+1970.00%`, `+inf%`.
fn percent(p: f64) -> String {
    if p.abs() < 0.01 {
        format!("{p:.2}%")
    } else {
        format!("{p:+.2}%")
    }
}

/// "Only significant changes": each total and scope with a metric that is new or changed
/// beyond `noise`, the largest instruction change first; `None` when there is none.
pub fn significant_changes(
    new: &BTreeMap<String, BenchResult>,
    old: &BTreeMap<String, BenchResult>,
    noise: f64,
) -> Option<String> {
    let mut rows: Vec<(String, Entry)> = entries(new, old)
        .into_iter()
        .filter_map(|e| {
            let statuses = e.metrics.map(|v| v.status(noise));
            let mut status = String::new();
            if statuses.contains(&Status::New) {
                status.push_str("new");
            } else {
                if statuses.contains(&Status::Regressed) {
                    status.push('+');
                }
                if statuses.contains(&Status::Improved) {
                    if !status.is_empty() {
                        status.push('/');
                    }
                    status.push('-');
                }
            }
            (!status.is_empty()).then_some((status, e))
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    // By name, then status, then instruction change (largest first; new ones last), each
    // sort stable so the previous order breaks ties.
    rows.sort_by_key(|(_, e)| e.full_name());
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let change = |e: &Entry| e.metrics[0].percent().unwrap_or(f64::MIN);
    rows.sort_by(|a, b| {
        change(&b.1)
            .partial_cmp(&change(&a.1))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let cells: Vec<[String; 9]> = rows
        .iter()
        .map(|(status, e)| {
            let pct = |v: Values| v.percent().map(percent).unwrap_or_default();
            let [ins, heap, stable] = e.metrics;
            [
                status.clone(),
                e.full_name(),
                e.scope.map(|_| human(e.calls.new)).unwrap_or_default(),
                human(ins.new),
                pct(ins),
                human(heap.new),
                pct(heap),
                human(stable.new),
                pct(stable),
            ]
        })
        .collect();
    Some(table(cells))
}

/// The table text, with the rows beyond [`MAX_TABLE_ROWS`] left out of the middle.
fn table(mut rows: Vec<[String; 9]>) -> String {
    const HEADER: [&str; 9] = [
        "status", "name", "calls", "ins", "ins Δ%", "HI", "HI Δ%", "SMI", "SMI Δ%",
    ];
    if rows.len() > MAX_TABLE_ROWS {
        let omitted = rows.len() - MAX_TABLE_ROWS;
        let head = MAX_TABLE_ROWS / 2;
        let tail = rows.split_off(rows.len() - (MAX_TABLE_ROWS - head));
        rows.truncate(head);
        let mut gap: [String; 9] = Default::default();
        gap[0] = "...".into();
        gap[1] = format!(
            "... {omitted} row{} omitted ...",
            if omitted == 1 { "" } else { "s" }
        );
        rows.push(gap);
        rows.extend(tail);
    }
    // Widths in bytes, padding in characters: what upstream does, so its tables (where the
    // Δ columns get one extra space) come out byte for byte.
    let mut widths = HEADER.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &[String]| {
        out.push('|');
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            match i {
                0 => write!(out, " {cell:^w$} |").unwrap(),
                1 => write!(out, " {cell:<w$} |").unwrap(),
                _ => write!(out, " {cell:>w$} |").unwrap(),
            }
        }
        out.push('\n');
    };
    line(&HEADER.map(String::from));
    for row in &rows {
        line(row);
    }
    // The rule goes after the header.
    let rule: String = widths.iter().fold("|".into(), |mut s, w| {
        s.push_str(&"-".repeat(w + 2));
        s.push('|');
        s
    });
    let header_end = out.find('\n').map_or(0, |i| i + 1);
    out.insert_str(header_end, &format!("{rule}\n"));
    out.push_str(
        "\nins = instructions, HI = heap_increase, SMI = stable_memory_increase, Δ% = percent change\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_format_as_upstream() {
        assert_eq!(percent(0.0), "0.00%");
        assert_eq!(percent(0.004), "0.00%");
        assert_eq!(percent(-1.4286), "-1.43%");
        assert_eq!(percent(f64::INFINITY), "+inf%");
        assert_eq!(signed_human(0), "0");
        assert_eq!(signed_human(-999), "-999");
        assert_eq!(signed_human(1_500), "+1.50K");
        assert_eq!(human(999), "999");
        assert_eq!(human(3_834), "3.83K");
        assert_eq!(human(2_000_000_000), "2.00B");
    }

    /// Beyond fifty rows, the first and last twenty-five stay and a row says how many went.
    #[test]
    fn long_tables_leave_out_the_middle() {
        let new: BTreeMap<String, BenchResult> = (0..53)
            .map(|i| (format!("b{i:02}"), BenchResult::default()))
            .collect();
        let text = significant_changes(&new, &BTreeMap::new(), 2.0).unwrap();
        let rows: Vec<&str> = text.lines().skip(2).take_while(|l| !l.is_empty()).collect();
        assert_eq!(rows.len(), 51);
        assert!(rows[24].contains("| b24 "), "{text}");
        assert!(
            rows[25].starts_with("|  ...   | ... 3 rows omitted ... |"),
            "{text}"
        );
        assert!(rows[26].contains("| b28 "), "{text}");
        assert!(significant_changes(&new, &new, 2.0).is_none());
    }
}
