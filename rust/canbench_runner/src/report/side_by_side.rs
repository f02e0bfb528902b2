//! Two results files side by side (candid's numbers and candor's): a plain table for the
//! console and a markdown one for the README, each with a summary of the ratios.

use crate::results_file::{BenchResult, Results};
use std::fmt::Write as _;

/// The scope of the serde floor: the value built through its `Deserialize` impl with
/// no Candid work, the least a serde-based decoder can cost.
const SERDE_FLOOR: &str = "4. Serde floor";
const SERDE_LINE: &str = "decode distance to serde floor:";

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
        let metrics: [(&str, Pick); 6] = [
            ("parse", |r| r.scope_instructions("0. Parsing")),
            ("encode", |r| r.scope_instructions("1. Encoding")),
            ("decode", |r| r.scope_instructions("2. Decoding")),
            ("floor", |r| r.scope_instructions("3. Floor")),
            ("serde", |r| r.scope_instructions(SERDE_FLOOR)),
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
            let (x, y) = (ra.scope_instructions(scope)?, rb.scope_instructions(scope)?);
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
/// needs than A (geometric mean over the workloads), where B needs more, how far each
/// is from the floor (the least work that builds the same value), and, where B has a
/// serde floor, how far each is from it and how far it is from the floor.
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
            let floor = rb.scope_instructions("3. Floor")?;
            let dec_b = rb.scope_instructions("2. Decoding")?;
            let dec_a = a
                .benches
                .get(name)
                .and_then(|ra| ra.scope_instructions("2. Decoding"));
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
    let serde: Vec<String> = b
        .benches
        .iter()
        .filter_map(|(name, rb)| {
            let floor = rb.scope_instructions("3. Floor")?;
            let serde = rb.scope_instructions(SERDE_FLOOR)?;
            let dec_b = rb.scope_instructions("2. Decoding")?;
            let dec_a = a
                .benches
                .get(name)
                .and_then(|ra| ra.scope_instructions("2. Decoding"));
            (floor > 0 && serde > 0).then(|| {
                let a_part = dec_a.map_or(String::new(), |x| {
                    format!(", {a_label} {:.2}x", x as f64 / serde as f64)
                });
                format!(
                    "{name}: {b_label} {:.2}x{a_part} (serde floor {:.2}x the floor)",
                    dec_b as f64 / serde as f64,
                    serde as f64 / floor as f64
                )
            })
        })
        .collect();
    if !serde.is_empty() {
        writeln!(out, "{SERDE_LINE} {}", serde.join("; ")).unwrap();
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
    let num = |v: Option<u64>| v.map_or("—".to_string(), grouped);
    let ratio = |x: Option<u64>, y: Option<u64>| match (x, y) {
        (Some(x), Some(y)) if y > 0 => format!("{:.2}x", x as f64 / y as f64),
        _ => "—".into(),
    };
    for name in names {
        let (ra, rb) = (a.benches.get(name), b.benches.get(name));
        let pick = |r: Option<&BenchResult>, s: &str| r.and_then(|r| r.scope_instructions(s));
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
    // The serde floor distances get a table of their own (below) rather than a line.
    for line in compare_summary(a, b, a_label, b_label)
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(SERDE_LINE))
    {
        writeln!(out, "- {line}").unwrap();
    }
    out.push_str(&floors_markdown(a, b, a_label, b_label));
    out
}

/// For the workloads where B has both floors: the floor, the serde floor, how far
/// apart they are, and each decoder's distance to the serde floor (how many times
/// more than the least a serde-based decoder can cost).
fn floors_markdown(a: &Results, b: &Results, a_label: &str, b_label: &str) -> String {
    let mut out = String::new();
    for (name, rb) in &b.benches {
        let (Some(floor), Some(serde), Some(dec_b)) = (
            rb.scope_instructions("3. Floor"),
            rb.scope_instructions(SERDE_FLOOR),
            rb.scope_instructions("2. Decoding"),
        ) else {
            continue;
        };
        if floor == 0 || serde == 0 {
            continue;
        }
        if out.is_empty() {
            writeln!(
                out,
                "\n| workload | floor | serde floor | serde floor / floor | {a_label} decode / serde floor | {b_label} decode / serde floor |"
            )
            .unwrap();
            out.push_str("|---|---:|---:|---:|---:|---:|\n");
        }
        let times = |x: u64, y: u64| format!("{:.2}x", x as f64 / y as f64);
        let dec_a = a
            .benches
            .get(name)
            .and_then(|ra| ra.scope_instructions("2. Decoding"))
            .map_or("—".to_string(), |x| times(x, serde));
        writeln!(
            out,
            "| {name} | {} | {} | {} | {dec_a} | {} |",
            grouped(floor),
            grouped(serde),
            times(serde, floor),
            times(dec_b, serde),
        )
        .unwrap();
    }
    out
}

/// A count with thousands separators.
fn grouped(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results_file::Measurement;

    fn scoped(scopes: &[(&str, u64)]) -> BenchResult {
        let m = |instructions| Measurement {
            calls: 1,
            instructions,
            heap_increase: 0,
            stable_memory_increase: 0,
        };
        BenchResult {
            total: m(scopes.iter().map(|(_, n)| n).sum()),
            scopes: scopes.iter().map(|(s, n)| (s.to_string(), m(*n))).collect(),
        }
    }

    #[test]
    fn comparison_summary_gives_geometric_means_and_floor_distances() {
        let a = Results::new(
            [
                (
                    "x".to_string(),
                    scoped(&[("1. Encoding", 100), ("2. Decoding", 400)]),
                ),
                (
                    "y".to_string(),
                    scoped(&[("1. Encoding", 100), ("2. Decoding", 100)]),
                ),
            ]
            .into(),
            None,
        );
        let b = Results::new(
            [
                (
                    "x".to_string(),
                    scoped(&[
                        ("1. Encoding", 50),
                        ("2. Decoding", 100),
                        ("3. Floor", 50),
                        ("4. Serde floor", 80),
                    ]),
                ),
                (
                    "y".to_string(),
                    scoped(&[("1. Encoding", 200), ("2. Decoding", 100)]),
                ),
            ]
            .into(),
            None,
        );
        let md = compare_markdown(&a, &b, "candid", "candor");
        // decode ratios 4 and 1: geometric mean 2; encode ratios 2 and 0.5: 1.
        assert!(md.contains("decode: candor uses 2.00x fewer instructions than candid (geometric mean over 2 workloads)"), "{md}");
        assert!(md.contains("encode: candor uses 1.00x fewer"), "{md}");
        assert!(
            md.contains("encode: candor needs more than candid on y (+100.00%)"),
            "{md}"
        );
        assert!(md.contains("x: candor 2.00x, candid 8.00x"), "{md}");
        let text = compare(&a, &b, "candid", "candor");
        assert!(
            text.contains("decode distance to serde floor: x: candor 1.25x, candid 5.00x (serde floor 1.60x the floor)"),
            "{text}"
        );
        // In markdown the serde floor is a table of its own, with only x (y has none).
        assert!(!md.contains("decode distance to serde floor"), "{md}");
        assert!(
            md.contains("| x | 50 | 80 | 1.60x | 5.00x | 1.25x |"),
            "{md}"
        );
        let floors = md.split("| workload | floor |").nth(1).unwrap_or_default();
        assert!(
            floors.contains("| x | ") && !floors.contains("| y | "),
            "{md}"
        );
        assert!(
            md.contains("| x | 100 | 50 | 2.00x | 400 | 100 | 4.00x | 2.00x |"),
            "{md}"
        );
    }
}
