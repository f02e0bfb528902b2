//! The CI regression gate (`--check`), and the threshold logic the reports share: how much a
//! number changed, and whether that change is noise, an improvement or a regression.

use crate::results_file::Results;

/// Scopes the gate watches besides the total.
pub const GATED_SCOPES: &[&str] = &["1. Encoding", "2. Decoding"];

/// The change from `old` to `new` in percent of `old`; from 0 to anything else it is infinite.
pub fn percent_change(new: u64, old: u64) -> f64 {
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

/// What a change amounts to against the noise threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Smaller than the threshold either way.
    WithinNoise,
    Improved,
    Regressed,
}

impl Change {
    /// Classifies a [`percent_change`] against `noise` percent.
    pub fn of(percent: f64, noise: f64) -> Change {
        if percent.abs() < noise {
            Change::WithinNoise
        } else if percent < 0.0 {
            Change::Improved
        } else {
            Change::Regressed
        }
    }
}

/// Gate verdict: the list of regressions beyond the threshold, or why no gate ran.
pub enum Verdict {
    Pass,
    Fail(Vec<String>),
    Skipped(String),
}

/// Compares `new` with `base`: a benchmark whose total, or one of the [`GATED_SCOPES`], grew by
/// more than `threshold` percent fails the gate. Numbers from different compilers are not
/// compared at all.
pub fn gate(new: &Results, base: &Results, threshold: f64) -> Verdict {
    if new.toolchain.is_none() || new.toolchain != base.toolchain {
        return Verdict::Skipped(format!(
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
            let d = percent_change(new, old);
            if d > threshold {
                failures.push(format!(
                    "{name} {what}: {old} -> {new} instructions ({d:+.2}%)"
                ));
            }
        };
        check("total", r.total.instructions, b.total.instructions);
        for scope in GATED_SCOPES {
            if let (Some(n), Some(o)) = (r.scope_instructions(scope), b.scope_instructions(scope)) {
                check(scope, n, o);
            }
        }
    }
    if failures.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail(failures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results_file::sample_results as results;

    #[test]
    fn gate_flags_regressions_beyond_threshold_only() {
        assert!(matches!(
            gate(&results(1010, "t"), &results(1000, "t"), 2.0),
            Verdict::Pass
        ));
        assert!(matches!(
            gate(&results(1100, "t"), &results(1000, "t"), 2.0),
            Verdict::Fail(_)
        ));
        assert!(matches!(
            gate(&results(1100, "t"), &results(1000, "u"), 2.0),
            Verdict::Skipped(_)
        ));
    }
}
