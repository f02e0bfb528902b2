//! Reports: canbench's console report and CSV, the PR-comment markdown, the side-by-side
//! comparison of two result files, and the CI regression gate.

use crate::results_file::{BenchResult, Measurement, Results};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Scopes the gate watches besides the total.
pub const GATED_SCOPES: &[&str] = &["1. Encoding", "2. Decoding"];

fn color(enabled: bool, code: &str, text: String) -> String {
    if enabled {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text
    }
}

/// canbench's human formatting of a metric value.
fn human(value: u64) -> String {
    let v = value as f64;
    if value < 10_000 {
        value.to_string()
    } else if value < 1_000_000 {
        format!("{:.2} K", v / 1e3)
    } else if value < 1_000_000_000 {
        format!("{:.2} M", v / 1e6)
    } else if value < 1_000_000_000_000 {
        format!("{:.2} B", v / 1e9)
    } else {
        format!("{:.2} T", v / 1e12)
    }
}

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
            let diff = (value as f64 - old as f64) / old as f64 * 100.0;
            if diff == 0.0 {
                format!("    {metric}: {value_str} (no change)")
            } else if diff.abs() < noise {
                format!("    {metric}: {value_str} ({diff:.2}%) (change within noise threshold)")
            } else if diff > 0.0 {
                format!(
                    "    {}",
                    color(
                        ansi,
                        "1;31",
                        format!("{metric}: {value_str} (regressed by {diff:.2}%)")
                    )
                )
            } else {
                format!(
                    "    {}",
                    color(
                        ansi,
                        "1;32",
                        format!("{metric}: {value_str} (improved by {:.2}%)", diff.abs())
                    )
                )
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

fn pct(new: u64, old: u64) -> f64 {
    if old == 0 {
        if new == 0 {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        (new as f64 - old as f64) / old as f64 * 100.0
    }
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// canbench's end-of-run summary (totals only), for instructions and heap.
pub fn summary(
    new: &BTreeMap<String, BenchResult>,
    old: &BTreeMap<String, BenchResult>,
    noise: f64,
) -> String {
    let mut out = String::from("Summary:\n");
    type Pick = fn(&Measurement) -> u64;
    let metrics: [(&str, Pick); 3] = [
        ("instructions", |m| m.instructions),
        ("heap_increase", |m| m.heap_increase),
        ("stable_memory_increase", |m| m.stable_memory_increase),
    ];
    for (label, pick) in metrics {
        let (mut new_n, mut improved, mut regressed, mut unchanged) = (0, 0, 0, 0);
        let mut diffs = Vec::new();
        for (name, r) in new {
            match old.get(name) {
                None => new_n += 1,
                Some(o) => {
                    let d = pct(pick(&r.total), pick(&o.total));
                    diffs.push(d);
                    if d.abs() < noise {
                        unchanged += 1
                    } else if d < 0.0 {
                        improved += 1
                    } else {
                        regressed += 1
                    }
                }
            }
        }
        let status = match (regressed > 0, improved > 0, new_n > 0) {
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
            "    counts:   [total {} | regressed {regressed} | improved {improved} | new {new_n} | unchanged {unchanged}]",
            new.len()
        )
        .unwrap();
        diffs.retain(|d| d.is_finite());
        if diffs.is_empty() {
            out.push_str("    change %: n/a\n");
        } else {
            diffs.sort_by(|a, b| a.total_cmp(b));
            writeln!(
                out,
                "    change %: [max {:+.2}% | p75 {:+.2}% | median {:+.2}% | p25 {:+.2}% | min {:+.2}%]",
                diffs[diffs.len() - 1],
                diffs[(diffs.len() * 3) / 4],
                median(&diffs),
                diffs[diffs.len() / 4],
                diffs[0]
            )
            .unwrap();
        }
        out.push('\n');
    }
    out
}

/// canbench's CSV report (`canbench_results.csv`).
pub fn csv(new: &BTreeMap<String, BenchResult>, old: &BTreeMap<String, BenchResult>) -> String {
    let mut out = String::from("status,name,scope_calls,scope_calls Δ,scope_calls Δ%,instructions,instructions Δ,instructions Δ%,heap_increase,heap_increase Δ,heap_increase Δ%,stable_memory_increase,stable_memory_increase Δ,stable_memory_increase Δ%\n");
    let fmt_pct = |new: u64, old: u64| {
        let p = pct(new, old);
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

fn scope_instructions(r: &BenchResult, scope: &str) -> Option<u64> {
    r.scopes.get(scope).map(|m| m.instructions)
}

/// A markdown cell: value and its change against the base, green when better, red when worse.
fn cell(new: Option<u64>, old: Option<u64>, noise: f64, diffs: &mut Vec<f64>, raw: bool) -> String {
    let Some(new) = new else { return "—".into() };
    let v = if raw {
        new.to_string()
    } else {
        human(new).replace(' ', "")
    };
    match old {
        None => format!("{v} 🆕"),
        Some(old) => {
            let d = pct(new, old);
            if d.is_finite() {
                diffs.push(d);
            }
            if d.abs() < noise {
                format!("{v} ({d:+.2}%)")
            } else if d < 0.0 {
                format!("{v} $\\color{{green}}{{{d:+.2}\\\\%}}$")
            } else {
                format!("{v} $\\color{{red}}{{{d:+.2}\\\\%}}$")
            }
        }
    }
}

/// The PR comment: one row per benchmark, then the parse-cost and extra-args lines and a summary.
pub fn markdown(new: &Results, base: &Results, noise: f64) -> String {
    let mut out = String::new();
    out.push_str("| Name | Max Mem (Kb) | Encode | Decode |\n|:--|--:|--:|--:|\n");
    let mut diffs = Vec::new();
    let (mut improved, mut regressed, mut unchanged, mut added) = (0, 0, 0, 0);
    for (name, r) in &new.benches {
        let b = base.benches.get(name);
        let mem_kb = r.total.heap_increase * 64;
        let mem = cell(
            Some(mem_kb),
            b.map(|b| b.total.heap_increase * 64),
            noise,
            &mut Vec::new(),
            true,
        );
        let mut row_diffs = Vec::new();
        let enc = cell(
            scope_instructions(r, "1. Encoding"),
            b.and_then(|b| scope_instructions(b, "1. Encoding")),
            noise,
            &mut row_diffs,
            false,
        );
        let dec = cell(
            scope_instructions(r, "2. Decoding"),
            b.and_then(|b| scope_instructions(b, "2. Decoding")),
            noise,
            &mut row_diffs,
            false,
        );
        let label = if b.is_none() {
            format!("{name} (new)")
        } else {
            name.clone()
        };
        writeln!(out, "| {label} | {mem} | {enc} | {dec} |").unwrap();
        if b.is_none() {
            added += 1;
        }
        for d in row_diffs {
            if d.abs() < noise {
                unchanged += 1
            } else if d < 0.0 {
                improved += 1
            } else {
                regressed += 1
            }
            diffs.push(d);
        }
    }
    out.push('\n');
    for (name, r) in &new.benches {
        if let Some(parse) = scope_instructions(r, "0. Parsing") {
            writeln!(
                out,
                "- Parsing cost ({name}): {} instructions",
                human(parse)
            )
            .unwrap();
        }
    }
    if let Some(r) = new.benches.get("extra_args") {
        let old = base.benches.get("extra_args").map(|b| b.total.instructions);
        writeln!(
            out,
            "- extra_args (rejecting two malicious messages): {}",
            cell(
                Some(r.total.instructions),
                old,
                noise,
                &mut Vec::new(),
                false
            )
        )
        .unwrap();
    }
    writeln!(out, "\n**Summary** (Encode and Decode cells against the base, noise threshold {noise}%): {improved} improved, {regressed} regressed, {unchanged} unchanged, {added} new.").unwrap();
    if !diffs.is_empty() {
        diffs.sort_by(|a, b| a.total_cmp(b));
        writeln!(
            out,
            "Change: max {:+.2}%, median {:+.2}%, min {:+.2}%.",
            diffs[diffs.len() - 1],
            median(&diffs),
            diffs[0]
        )
        .unwrap();
    }
    if new.toolchain != base.toolchain {
        writeln!(out, "\n> Note: toolchains differ (new: {}, base: {}); instruction counts depend on the compiler.", new.toolchain.as_deref().unwrap_or("unknown"), base.toolchain.as_deref().unwrap_or("unknown")).unwrap();
    }
    out
}

/// Side-by-side table of two result files: workload × (encode, decode, heap), A, B, B/A.
pub fn compare(a: &Results, b: &Results, a_label: &str, b_label: &str) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "{:<20} {:<8} {:>16} {:>16} {:>8}",
        "workload", "metric", a_label, b_label, "B/A"
    )
    .unwrap();
    let names: std::collections::BTreeSet<&String> =
        a.benches.keys().chain(b.benches.keys()).collect();
    for name in names {
        let (ra, rb) = (a.benches.get(name), b.benches.get(name));
        type Pick = fn(&BenchResult) -> Option<u64>;
        let metrics: [(&str, Pick); 5] = [
            ("parse", |r| scope_instructions(r, "0. Parsing")),
            ("encode", |r| scope_instructions(r, "1. Encoding")),
            ("decode", |r| scope_instructions(r, "2. Decoding")),
            ("floor", |r| scope_instructions(r, "3. Floor")),
            ("heap", |r| Some(r.total.heap_increase)),
        ];
        for (metric, pick) in metrics {
            let va = ra.and_then(pick);
            let vb = rb.and_then(pick);
            if va.is_none() && vb.is_none() {
                continue;
            }
            let show = |v: Option<u64>| v.map_or("—".to_string(), |v| v.to_string());
            let ratio = match (va, vb) {
                (Some(x), Some(y)) if x > 0 => format!("{:.3}", y as f64 / x as f64),
                _ => "—".into(),
            };
            writeln!(
                out,
                "{:<20} {:<8} {:>16} {:>16} {:>8}",
                name,
                metric,
                show(va),
                show(vb),
                ratio
            )
            .unwrap();
        }
    }
    out.push_str(&compare_summary(a, b, a_label, b_label));
    if a.toolchain != b.toolchain {
        writeln!(
            out,
            "note: toolchains differ: A {}, B {}",
            a.toolchain.as_deref().unwrap_or("unknown"),
            b.toolchain.as_deref().unwrap_or("unknown")
        )
        .unwrap();
    }
    out
}

/// The pairs (A, B) of a scope's instructions over the workloads both files have.
fn scope_pairs(a: &Results, b: &Results, scope: &str) -> Vec<(String, u64, u64)> {
    a.benches
        .iter()
        .filter_map(|(name, ra)| {
            let rb = b.benches.get(name)?;
            let (x, y) = (
                scope_instructions(ra, scope)?,
                scope_instructions(rb, scope)?,
            );
            (x > 0 && y > 0).then(|| (name.clone(), x, y))
        })
        .collect()
}

fn geomean(ratios: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0usize);
    for r in ratios {
        sum += r.ln();
        n += 1;
    }
    (n > 0).then(|| (sum / n as f64).exp())
}

/// What a reader of the comparison wants first: how many times fewer instructions B
/// needs than A (geometric mean over the workloads), where B needs more, and how far
/// each is from the floor (the least work that builds the same value).
fn compare_summary(a: &Results, b: &Results, a_label: &str, b_label: &str) -> String {
    let mut out = String::new();
    writeln!(out).unwrap();
    for (what, scope) in [
        ("decode", "2. Decoding"),
        ("encode", "1. Encoding"),
        ("parse", "0. Parsing"),
    ] {
        let pairs = scope_pairs(a, b, scope);
        if let Some(g) = geomean(pairs.iter().map(|(_, x, y)| *x as f64 / *y as f64)) {
            writeln!(
                out,
                "{what}: {b_label} uses {g:.2}x fewer instructions than {a_label} (geometric mean over {} workloads)",
                pairs.len()
            )
            .unwrap();
        }
        let worse: Vec<String> = pairs
            .iter()
            .filter(|(_, x, y)| y > x)
            .map(|(n, x, y)| format!("{n} (+{:.2}%)", (*y as f64 / *x as f64 - 1.0) * 100.0))
            .collect();
        if !worse.is_empty() {
            writeln!(
                out,
                "{what}: {b_label} needs more than {a_label} on {}",
                worse.join(", ")
            )
            .unwrap();
        }
    }
    let floors: Vec<String> = b
        .benches
        .iter()
        .filter_map(|(name, rb)| {
            let floor = scope_instructions(rb, "3. Floor")?;
            let dec_b = scope_instructions(rb, "2. Decoding")?;
            let dec_a = a
                .benches
                .get(name)
                .and_then(|ra| scope_instructions(ra, "2. Decoding"));
            (floor > 0).then(|| {
                let a_part = dec_a.map_or(String::new(), |x| {
                    format!(", {a_label} {:.2}x", x as f64 / floor as f64)
                });
                format!(
                    "{name}: {b_label} {:.2}x{a_part}",
                    dec_b as f64 / floor as f64
                )
            })
        })
        .collect();
    if !floors.is_empty() {
        writeln!(out, "decode distance to floor: {}", floors.join("; ")).unwrap();
    }
    out
}

/// The comparison as a markdown table (for the README): workload | encode A | encode B |
/// ratio | decode A | decode B | ratio | decode/floor B | heap A | heap B.
pub fn compare_markdown(a: &Results, b: &Results, a_label: &str, b_label: &str) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "| workload | encode {a_label} | encode {b_label} | {a_label}/{b_label} | decode {a_label} | decode {b_label} | {a_label}/{b_label} | {b_label} decode / floor | heap {a_label} | heap {b_label} |"
    )
    .unwrap();
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    let names: std::collections::BTreeSet<&String> =
        a.benches.keys().chain(b.benches.keys()).collect();
    let num = |v: Option<u64>| {
        v.map_or("—".to_string(), |v| {
            let s = v.to_string();
            let mut out = String::new();
            for (i, c) in s.chars().enumerate() {
                if i > 0 && (s.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(c);
            }
            out
        })
    };
    let ratio = |x: Option<u64>, y: Option<u64>| match (x, y) {
        (Some(x), Some(y)) if y > 0 => format!("{:.2}x", x as f64 / y as f64),
        _ => "—".into(),
    };
    for name in names {
        let (ra, rb) = (a.benches.get(name), b.benches.get(name));
        let pick = |r: Option<&BenchResult>, s: &str| r.and_then(|r| scope_instructions(r, s));
        let (ea, eb) = (pick(ra, "1. Encoding"), pick(rb, "1. Encoding"));
        let (da, db) = (pick(ra, "2. Decoding"), pick(rb, "2. Decoding"));
        let floor = pick(rb, "3. Floor");
        let to_floor = match (db, floor) {
            (Some(d), Some(f)) if f > 0 => format!("{:.2}x", d as f64 / f as f64),
            _ => "—".into(),
        };
        writeln!(
            out,
            "| {name} | {} | {} | {} | {} | {} | {} | {to_floor} | {} | {} |",
            num(ea),
            num(eb),
            ratio(ea, eb),
            num(da),
            num(db),
            ratio(da, db),
            num(ra.map(|r| r.total.heap_increase)),
            num(rb.map(|r| r.total.heap_increase)),
        )
        .unwrap();
    }
    out.push('\n');
    for line in compare_summary(a, b, a_label, b_label)
        .lines()
        .filter(|l| !l.is_empty())
    {
        writeln!(out, "- {line}").unwrap();
    }
    out
}

/// Gate verdict: the list of regressions beyond `threshold` percent, or why no gate ran.
pub enum Gate {
    Pass,
    Fail(Vec<String>),
    Skipped(String),
}

pub fn gate(new: &Results, base: &Results, threshold: f64) -> Gate {
    if new.toolchain.is_none() || new.toolchain != base.toolchain {
        return Gate::Skipped(format!(
            "the committed results were produced by {} and this run by {}; instruction counts are only comparable from the same compiler, so the gate did not run",
            base.toolchain.as_deref().unwrap_or("an unknown toolchain"),
            new.toolchain.as_deref().unwrap_or("an unknown toolchain")
        ));
    }
    let mut failures = Vec::new();
    for (name, r) in &new.benches {
        let Some(b) = base.benches.get(name) else {
            continue;
        };
        let mut check = |what: &str, new: u64, old: u64| {
            let d = pct(new, old);
            if d > threshold {
                failures.push(format!(
                    "{name} {what}: {old} -> {new} instructions ({d:+.2}%)"
                ));
            }
        };
        check("total", r.total.instructions, b.total.instructions);
        for scope in GATED_SCOPES {
            if let (Some(n), Some(o)) = (scope_instructions(r, scope), scope_instructions(b, scope))
            {
                check(scope, n, o);
            }
        }
    }
    if failures.is_empty() {
        Gate::Pass
    } else {
        Gate::Fail(failures)
    }
}

/// A profiled run: the `top` functions of the whole message by the instructions charged
/// inside them (callees excluded), then the same for each stretch between two
/// `performance_counter` calls that holds at least 1% of the message. canbench-rs reads the
/// counter when a scope opens and closes, so each scope is one of those stretches (match them
/// by their totals). What no function was charged is the ic0 calls' overhead (the host
/// charges it); it gets its own row.
pub fn profile(bench: &str, run: &crate::exec::Run, names: &[String], top: usize) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn results(instr: u64, toolchain: &str) -> Results {
        let mut r = BenchResult::default();
        r.total.instructions = instr;
        r.scopes.insert(
            "1. Encoding".into(),
            Measurement {
                instructions: instr / 2,
                calls: 1,
                ..Default::default()
            },
        );
        r.scopes.insert(
            "2. Decoding".into(),
            Measurement {
                instructions: instr / 2,
                calls: 1,
                ..Default::default()
            },
        );
        let mut m = BTreeMap::new();
        m.insert("blob".to_string(), r);
        Results::new(m, Some(toolchain.into()))
    }

    #[test]
    fn gate_flags_regressions_beyond_threshold_only() {
        assert!(matches!(
            gate(&results(1010, "t"), &results(1000, "t"), 2.0),
            Gate::Pass
        ));
        assert!(matches!(
            gate(&results(1100, "t"), &results(1000, "t"), 2.0),
            Gate::Fail(_)
        ));
        assert!(matches!(
            gate(&results(1100, "t"), &results(1000, "u"), 2.0),
            Gate::Skipped(_)
        ));
    }

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

    #[test]
    fn markdown_and_compare_render() {
        let md = markdown(&results(900, "t"), &results(1000, "t"), 2.0);
        assert!(
            md.contains("| blob | 0 (+0.00%) | 450 $\\color{green}{-10.00\\\\%}$ |"),
            "{md}"
        );
        assert!(md.contains("2 improved, 0 regressed"), "{md}");
        let cmp = compare(&results(1000, "t"), &results(500, "t"), "candid", "candor");
        assert!(cmp.contains("0.500"), "{cmp}");
    }
}
