//! The PR comment: a markdown table of every benchmark against a base results file.

use super::{human, median};
use crate::gate::{percent_change, Change, Verdict};
use crate::results_file::Results;
use std::fmt::Write as _;

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
            let d = percent_change(new, old);
            if d.is_finite() {
                diffs.push(d);
            }
            match Change::of(d, noise) {
                Change::WithinNoise => format!("{v} ({d:+.2}%)"),
                Change::Improved => format!("{v} $\\color{{green}}{{{d:+.2}\\\\%}}$"),
                Change::Regressed => format!("{v} $\\color{{red}}{{{d:+.2}\\\\%}}$"),
            }
        }
    }
}

/// The PR comment: one row per benchmark, regressions first (the largest instruction change
/// on top, new benchmarks last), then the parse-cost and extra-args lines and a summary.
/// Encode and Decode are the scopes candor's bench canister opens; Total is what every
/// canbench benchmark has.
pub fn markdown(new: &Results, base: &Results, noise: f64) -> String {
    let mut out = String::new();
    out.push_str("| Name | Max Mem (Kb) | Encode | Decode | Total |\n|:--|--:|--:|--:|--:|\n");
    let mut diffs = Vec::new();
    let (mut improved, mut regressed, mut unchanged, mut added) = (0, 0, 0, 0);
    let mut rows = Vec::new();
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
            r.scope_instructions("1. Encoding"),
            b.and_then(|b| b.scope_instructions("1. Encoding")),
            noise,
            &mut row_diffs,
            false,
        );
        let dec = cell(
            r.scope_instructions("2. Decoding"),
            b.and_then(|b| b.scope_instructions("2. Decoding")),
            noise,
            &mut row_diffs,
            false,
        );
        let mut total_diff = Vec::new();
        let total = cell(
            Some(r.total.instructions),
            b.map(|b| b.total.instructions),
            noise,
            &mut total_diff,
            false,
        );
        // The row's largest change, scopes and total alike, orders the table.
        let worst = row_diffs
            .iter()
            .chain(&total_diff)
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let label = if b.is_none() {
            format!("{name} (new)")
        } else {
            name.clone()
        };
        rows.push((
            b.is_none(),
            worst,
            format!("| {label} | {mem} | {enc} | {dec} | {total} |"),
        ));
        if b.is_none() {
            added += 1;
        }
        // A benchmark without the Encode/Decode scopes is counted by its total.
        if row_diffs.is_empty() {
            row_diffs = total_diff;
        }
        for d in row_diffs {
            match Change::of(d, noise) {
                Change::WithinNoise => unchanged += 1,
                Change::Improved => improved += 1,
                Change::Regressed => regressed += 1,
            }
            diffs.push(d);
        }
    }
    // Stable: equal changes keep the name order.
    rows.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
    for (_, _, row) in rows {
        writeln!(out, "{row}").unwrap();
    }
    // Lines about particular benchmarks, under the table when there are any.
    let mut notes = String::new();
    for (name, r) in &new.benches {
        if let Some(parse) = r.scope_instructions("0. Parsing") {
            writeln!(
                notes,
                "- Parsing cost ({name}): {} instructions",
                human(parse)
            )
            .unwrap();
        }
    }
    if let Some(r) = new.benches.get("extra_args") {
        let old = base.benches.get("extra_args").map(|b| b.total.instructions);
        writeln!(
            notes,
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
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    writeln!(out, "\n**Summary** (Encode and Decode cells against the base, or Total for a benchmark without those scopes; noise threshold {noise}%): {improved} improved, {regressed} regressed, {unchanged} unchanged, {added} new.").unwrap();
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

/// The gate's verdict, for the end of the PR comment.
pub fn verdict_markdown(verdict: &Verdict, noise: f64) -> String {
    match verdict {
        Verdict::Pass => format!("**Gate: passed**, no instruction regression above {noise}%.\n"),
        Verdict::Skipped(why) => format!("**Gate: skipped**: {why}.\n"),
        Verdict::Fail(list) => {
            let mut out = format!("**Gate: FAILED**, regressions above {noise}%:\n\n");
            for l in list {
                writeln!(out, "- {l}").unwrap();
            }
            out
        }
    }
}
