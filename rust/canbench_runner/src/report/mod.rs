//! Reports, rendered as text: canbench's console report and CSV (`console`), its summary and
//! significant-changes table (`summary`), the
//! PR-comment markdown (`markdown`), two results files side by side (`side_by_side`), and a
//! profiling run's most expensive functions (`profile`). What counts as a regression is
//! decided in `gate`; these only render it.

mod console;
mod markdown;
mod profile;
mod side_by_side;
mod summary;

pub use console::{benchmark, csv};
pub use markdown::{markdown, verdict_markdown};
pub use profile::profile;
pub use side_by_side::{compare, compare_markdown};
pub use summary::{significant_changes, summary};

pub(super) fn color(enabled: bool, code: &str, text: String) -> String {
    if enabled {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text
    }
}

/// canbench's human formatting of a metric value.
pub(super) fn human(value: u64) -> String {
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

pub(super) fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results_file::sample_results as results;

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
