//! `canbench compare A.yml B.yml`: two results files side by side, as a console table or (with
//! `--markdown`) the README's markdown table.

use crate::cli::{CompareArgs, Status, USAGE};
use crate::report;
use crate::results_file::Results;

pub fn run(args: &CompareArgs) -> Result<Status, String> {
    let [a, b] = args.files.as_slice() else {
        return Err(format!("compare needs two results files\n{USAGE}"));
    };
    let (ra, rb) = (Results::read(a)?, Results::read(b)?);
    if ra.benches.is_empty() || rb.benches.is_empty() {
        return Err("a results file is missing or empty".into());
    }
    let (la, lb) = (&args.labels.0, &args.labels.1);
    if args.markdown {
        print!("{}", report::compare_markdown(&ra, &rb, la, lb));
    } else {
        print!("{}", report::compare(&ra, &rb, la, lb));
    }
    Ok(Status::Success)
}
