//! canbench's own formats: the per-benchmark console report and the CSV file.

use super::{color, human};
use crate::gate::{percent_change, Change};
use crate::results_file::{BenchResult, Measurement};
use std::collections::BTreeMap;
use std::fmt::Write as _;

fn metric_line(
    out: &mut String,
    metric: &str,
    value: u64,
    old: Option<u64>,
    noise: f64,
    ansi: bool,
) {
    let mut value_str = human(value);
    if metric == "heap_increase" || metric == "stable_memory_increase" {
        value_str.push_str(" pages");
    }
    let line = match old {
        None => format!("    {metric}: {value_str} (new)"),
        Some(0) if value == 0 => format!("    {metric}: {value_str} (no change)"),
        Some(0) => format!(
            "    {}",
            color(
                ansi,
                "1;31",
                format!("{metric}: {value_str} (regressed from 0)")
            )
        ),
        Some(old) => {
            let diff = percent_change(value, old);
            match Change::of(diff, noise) {
                // Exactly no change reads as such even with a zero threshold.
                _ if diff == 0.0 => format!("    {metric}: {value_str} (no change)"),
                Change::WithinNoise => format!(
                    "    {metric}: {value_str} ({diff:.2}%) (change within noise threshold)"
                ),
                Change::Regressed => format!(
                    "    {}",
                    color(
                        ansi,
                        "1;31",
                        format!("{metric}: {value_str} (regressed by {diff:.2}%)")
                    )
                ),
                Change::Improved => format!(
                    "    {}",
                    color(
                        ansi,
                        "1;32",
                        format!("{metric}: {value_str} (improved by {:.2}%)", diff.abs())
                    )
                ),
            }
        }
    };
    out.push_str(&line);
    out.push('\n');
}

fn measurement(
    out: &mut String,
    new: &Measurement,
    old: Option<&Measurement>,
    noise: f64,
    calls: bool,
    ansi: bool,
) {
    if calls {
        metric_line(out, "calls", new.calls, old.map(|m| m.calls), noise, ansi);
    }
    metric_line(
        out,
        "instructions",
        new.instructions,
        old.map(|m| m.instructions),
        noise,
        ansi,
    );
    metric_line(
        out,
        "heap_increase",
        new.heap_increase,
        old.map(|m| m.heap_increase),
        noise,
        ansi,
    );
    metric_line(
        out,
        "stable_memory_increase",
        new.stable_memory_increase,
        old.map(|m| m.stable_memory_increase),
        noise,
        ansi,
    );
}

/// One benchmark in canbench's console format.
pub fn benchmark(
    name: &str,
    new: &BenchResult,
    old: Option<&BenchResult>,
    noise: f64,
    ansi: bool,
) -> String {
    let mut out = String::new();
    let bold = color(ansi, "1", name.to_string());
    match old {
        Some(_) => writeln!(out, "Benchmark: {bold}").unwrap(),
        None => writeln!(
            out,
            "Benchmark: {bold} {}",
            color(ansi, "1;34", "(new)".into())
        )
        .unwrap(),
    }
    out.push_str("  total:\n");
    measurement(
        &mut out,
        &new.total,
        old.map(|o| &o.total),
        noise,
        false,
        ansi,
    );
    for (scope, m) in &new.scopes {
        writeln!(out, "\n  {scope} (scope):").unwrap();
        measurement(
            &mut out,
            m,
            old.and_then(|o| o.scopes.get(scope)),
            noise,
            true,
            ansi,
        );
    }
    out
}

/// canbench's CSV report (`canbench_results.csv`).
pub fn csv(new: &BTreeMap<String, BenchResult>, old: &BTreeMap<String, BenchResult>) -> String {
    let mut out = String::from("status,name,scope_calls,scope_calls Δ,scope_calls Δ%,instructions,instructions Δ,instructions Δ%,heap_increase,heap_increase Δ,heap_increase Δ%,stable_memory_increase,stable_memory_increase Δ,stable_memory_increase Δ%\n");
    let fmt_pct = |new: u64, old: u64| {
        let p = percent_change(new, old);
        if p.is_infinite() {
            "1.0E99".to_string()
        } else {
            format!("{p:.2}%")
        }
    };
    let triple = |new: u64, old: Option<u64>| match old {
        Some(o) => (
            new.to_string(),
            (new as i64 - o as i64).to_string(),
            fmt_pct(new, o),
        ),
        None => (new.to_string(), String::new(), String::new()),
    };
    let mut row =
        |status: &str, name: String, new: &Measurement, old: Option<&Measurement>, scope: bool| {
            let calls = if scope {
                triple(new.calls, old.map(|m| m.calls))
            } else {
                Default::default()
            };
            let i = triple(new.instructions, old.map(|m| m.instructions));
            let h = triple(new.heap_increase, old.map(|m| m.heap_increase));
            let s = triple(
                new.stable_memory_increase,
                old.map(|m| m.stable_memory_increase),
            );
            writeln!(
                out,
                "{status},{name},{},{},{},{},{},{},{},{},{},{},{},{}",
                calls.0, calls.1, calls.2, i.0, i.1, i.2, h.0, h.1, h.2, s.0, s.1, s.2
            )
            .unwrap();
        };
    for (name, r) in new {
        let o = old.get(name);
        row(
            if o.is_none() { "new" } else { "" },
            name.clone(),
            &r.total,
            o.map(|o| &o.total),
            false,
        );
        for (scope, m) in &r.scopes {
            let om = o.and_then(|o| o.scopes.get(scope));
            row(
                if om.is_none() { "new" } else { "" },
                format!("{name}::{scope}"),
                m,
                om,
                true,
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results_file::sample_results as results;

    #[test]
    fn console_report_matches_canbench_wording() {
        let new = results(2_000_000, "t");
        let old = results(1_000_000, "t");
        let text = benchmark(
            "blob",
            &new.benches["blob"],
            Some(&old.benches["blob"]),
            2.0,
            false,
        );
        assert!(
            text.starts_with(
                "Benchmark: blob\n  total:\n    instructions: 2.00 M (regressed by 100.00%)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\n  1. Encoding (scope):\n    calls: 1 (no change)\n"),
            "{text}"
        );
    }
}
