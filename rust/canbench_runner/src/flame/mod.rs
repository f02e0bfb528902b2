//! Flame graphs (`--instruction-tracing`): where a benchmark's or a message's instructions go,
//! call by call.
//!
//! A tracing build (see `instrument::hooks`) reports every function entry and exit to the
//! host with the instruction counter; `record` keeps the calls, `fold` turns them into folded
//! stacks for a window of the counter, `scopes` finds the windows of canbench-rs scopes, and
//! this module renders them with inferno, as upstream canbench does: for a benchmark,
//! `<bench>.svg` (the flame chart: every call in time order, upstream's file), then
//! `<bench>.merged.svg` (repeated calls merged and sorted: where the instructions go) and
//! `<bench>.scope.<scope>.svg` for each scope (merged likewise). Each root counts exactly the
//! instructions the benchmark (scope) reports, and a trace is never incomplete: the runner
//! meters every block, so nothing needs a buffer.

mod fold;
pub mod record;
mod scopes;

pub use fold::Window;
pub use record::Recorder;

use crate::results_file::BenchResult;
use std::path::{Path, PathBuf};

/// What upstream's charts count.
const COUNT_NAME: &str = "instructions";

fn render(lines: &[String], title: &str, chart: bool, path: &Path) -> Result<(), String> {
    let mut opt = inferno::flamegraph::Options::default();
    opt.count_name = COUNT_NAME.to_string();
    opt.title = title.to_string();
    // Colours from the names, so the same run draws the same file.
    opt.hash = true;
    let mut ordered: Vec<&str> = lines.iter().map(String::as_str).collect();
    if chart {
        opt.flame_chart = true;
        opt.no_sort = true;
        // inferno reverses a flame chart's lines again, so time runs left to right.
        ordered.reverse();
    }
    let file =
        std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    inferno::flamegraph::from_lines(&mut opt, ordered, &mut out)
        .map_err(|e| format!("cannot render {}: {e}", path.display()))
}

/// A file name made of `name`: characters a path cannot hold become `_`.
fn file_part(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' | '\0' => '_',
            c => c,
        })
        .collect()
}

/// The window of a benchmark: from the `performance_counter` call where canbench-rs starts
/// measuring to the one where it stops, the pair `total` instructions apart (the first such
/// pair, ending as late as possible). Without one (a benchmark that does not measure itself
/// with canbench-rs), the whole message.
pub fn bench_window(rec: &Recorder, total: u64, message: u64) -> Window {
    let marks: Vec<u64> = rec.stretches.iter().skip(1).map(|s| s.start).collect();
    for (i, &a) in marks.iter().enumerate() {
        if let Some(&b) = marks
            .iter()
            .skip(i + 1)
            .rev()
            .find(|&&b| b.checked_sub(a) == Some(total))
        {
            return Window { start: a, end: b };
        }
    }
    Window {
        start: 0,
        end: message,
    }
}

/// Writes a benchmark's flame graphs into `dir` and returns their paths: the chart, the
/// merged graph, one per scope the trace can tell apart. `names` are the defined functions'.
pub fn write_bench_graphs(
    rec: &Recorder,
    names: &[String],
    bench: &str,
    result: &BenchResult,
    message: u64,
    dir: &Path,
) -> Result<Vec<PathBuf>, String> {
    let window = bench_window(rec, result.total.instructions, message);
    let mut written = Vec::new();
    let chart = dir.join(format!("{}.svg", file_part(bench)));
    render(
        &fold::chart_lines(rec, names, bench, window),
        bench,
        true,
        &chart,
    )?;
    written.push(chart);
    if rec.stretches_dropped {
        return Ok(written);
    }
    let merged = dir.join(format!("{}.merged.svg", file_part(bench)));
    let parts = fold::parts_in(rec, window);
    render(
        &fold::merged_lines(&parts, names, bench),
        &format!("{bench} (calls merged)"),
        false,
        &merged,
    )?;
    written.push(merged);
    for (scope, windows) in scopes::scope_windows(rec, names, window, result) {
        let parts: Vec<fold::Part> = windows
            .union()
            .into_iter()
            .flat_map(|w| fold::parts_in(rec, w))
            .collect();
        let path = dir.join(format!(
            "{}.scope.{}.svg",
            file_part(bench),
            file_part(&scope)
        ));
        render(
            &fold::merged_lines(&parts, names, &scope),
            &format!("{bench}: scope {scope} (calls merged)"),
            false,
            &path,
        )?;
        written.push(path);
    }
    Ok(written)
}

/// Writes the flame graphs of one message (`canbench call`) into `dir`: `<stem>.svg`, the
/// chart, and `<stem>.merged.svg`, both over the whole message.
pub fn write_message_graphs(
    rec: &Recorder,
    names: &[String],
    title: &str,
    dir: &Path,
    stem: &str,
    message: u64,
) -> Result<Vec<PathBuf>, String> {
    let window = Window {
        start: 0,
        end: message,
    };
    let chart = dir.join(format!("{}.svg", file_part(stem)));
    render(
        &fold::chart_lines(rec, names, title, window),
        title,
        true,
        &chart,
    )?;
    let mut written = vec![chart];
    if !rec.stretches_dropped {
        let merged = dir.join(format!("{}.merged.svg", file_part(stem)));
        let parts = fold::parts_in(rec, window);
        render(
            &fold::merged_lines(&parts, names, title),
            &format!("{title} (calls merged)"),
            false,
            &merged,
        )?;
        written.push(merged);
    }
    Ok(written)
}
