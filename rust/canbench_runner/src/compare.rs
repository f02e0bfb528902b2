//! `canbench compare A.yml B.yml`: two results files side by side, as a console table or (with
//! `--markdown`) the markdown table of docs/benchmarks.md.

use crate::cli::{CompareArgs, Status};
use crate::report;
use crate::results_file::Results;

pub fn run(args: &CompareArgs) -> Result<Status, String> {
    let [a, b] = args.files.as_slice() else {
        return Err("compare needs two results files (canbench compare A.yml B.yml)".into());
    };
    let (mut ra, mut rb) = (Results::read(a)?, Results::read(b)?);
    if ra.benches.is_empty() || rb.benches.is_empty() {
        return Err("a results file is missing or empty".into());
    }
    select(&mut ra, args);
    select(&mut rb, args);
    if ra.benches.is_empty() || rb.benches.is_empty() {
        return Err("no benchmark of both files is selected".into());
    }
    let (la, lb) = (&args.labels.0, &args.labels.1);
    if args.markdown {
        print!("{}", report::compare_markdown(&ra, &rb, la, lb));
    } else {
        print!("{}", report::compare(&ra, &rb, la, lb));
    }
    Ok(Status::Success)
}

/// Keeps the benchmarks `--only` and `--except` select, e.g. for one table per kind of
/// workload, each with its own geometric means.
fn select(results: &mut Results, args: &CompareArgs) {
    results.benches.retain(|name, _| {
        args.only.as_ref().is_none_or(|only| only.contains(name)) && !args.except.contains(name)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_and_except_select_benchmarks() {
        let mut results = Results::new(
            ["a", "b", "c"]
                .into_iter()
                .map(|n| (n.to_string(), Default::default()))
                .collect(),
            None,
        );
        let names = |l: &[&str]| l.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let args = CompareArgs {
            files: Vec::new(),
            labels: ("A".into(), "B".into()),
            markdown: false,
            only: Some(names(&["a", "b"])),
            except: names(&["b"]),
        };
        select(&mut results, &args);
        assert_eq!(results.benches.keys().collect::<Vec<_>>(), ["a"]);
    }
}
