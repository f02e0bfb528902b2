//! `canbench call`: sends a script of messages to one installed canister, offline, and prints
//! how each ended and the instructions it used; `--service-did` prints the Candid interface
//! the canister embeds instead (what `ic_cdk::export_candid!()` compiles in).
//!
//! ```text
//! canbench call --wasm CANISTER.wasm [--script FILE|-] [--caller PRINCIPAL_HEX]
//!               [--instruction-limit N] [--show-canister-output]
//! canbench call --wasm CANISTER.wasm --service-did
//! canbench call --wasm CANISTER.wasm --instruction-tracing [--trace-dir DIR] [--script …]
//! ```
//!
//! With `--instruction-tracing`, every message after installation also gets its flame graphs
//! (see `flame`), written to `--trace-dir` (default: the current directory) as
//! `<n>-<method>.svg` (the chart) and `<n>-<method>.merged.svg`, where `n` counts the
//! script's messages from 1; each root counts the message's instructions. A line
//! `trace FILE` on stderr names each file.
//!
//! The canister is instantiated once and installed (start function, then `canister_init`);
//! the messages then run in order on that instance, as the IC runs them (see `session`): an
//! update's changes persist unless it traps, a query's are discarded. The caller is the
//! anonymous principal unless `--caller` names another; the canister id, the clock and the
//! cycle balance are fixed, and no inter-canister call leaves the canister (see `ic0`).
//!
//! Script lines (what `candor_parser`'s `encode_calls` example writes):
//! * `init [HEX]`: install with these init argument bytes (at most once, before any call;
//!   without it, a canister that exports `canister_init` is installed with `DIDL\0\0`);
//! * `query METHOD [HEX]`, `update METHOD [HEX]`: a call with these argument bytes;
//! * HEX may be `-` or left out for no bytes; blank lines and `#` comments are skipped.
//!
//! Output, one line per message, fields separated by single spaces:
//! `KIND METHOD OUTCOME instructions=N`, where KIND is `init`, `query` or `update`, METHOD is
//! `canister_init` for init, and OUTCOME is one of
//! * `reply HEX` (`reply -` for an empty reply),
//! * `reject CODE "TEXT"`: 4 (CANISTER_REJECT) from `ic0.msg_reject`, 3
//!   (DESTINATION_INVALID) for a method the canister does not export,
//! * `trap "TEXT"`: the message trapped (the IC rejects such a call with code 5,
//!   CANISTER_ERROR) and its changes were rolled back,
//! * `noreply`: the method returned without responding.
//!
//! TEXT is printable ASCII (see [`escape`]), so each message is one line whose last field is
//! the instruction count.
//!
//! Exit status: 0 when every message was sent (whatever its outcome), 1 when installing the
//! canister trapped (the IC would not have installed it, so nothing else is sent), 2 for an
//! error in the arguments, the script or the module.

use crate::cli::{CallArgs, Status};
use crate::config::read_wasm;
use crate::cost::CostTable;
use crate::exec::{self, Canister, Delivery, Outcome};
use crate::hex::{encode_hex, from_hex};
use crate::ic0::{Message, Mode, ANONYMOUS};
use crate::instrument::{function_names, instrument, Profile};
use crate::session::Session;
use std::io::{Read, Write};

/// The empty Candid argument list, `()`.
const EMPTY_ARGS: &[u8] = b"DIDL\x00\x00";
/// What output lines name an `init` message by.
const INIT_METHOD: &str = "canister_init";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Init,
    Query,
    Update,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Init => "init",
            Kind::Query => "query",
            Kind::Update => "update",
        }
    }
}

/// One message of a script.
#[derive(Debug, PartialEq, Eq)]
pub struct Step {
    pub kind: Kind,
    pub method: String,
    pub arg: Vec<u8>,
}

/// Runs `canbench call` (see the module docs for what it prints and its exit status).
pub fn command(args: &CallArgs) -> Result<Status, String> {
    let wasm = read_wasm(&args.wasm)?;
    let table = CostTable::ic();
    let profile = if args.instruction_tracing {
        Profile::Trace
    } else {
        Profile::Off
    };
    let instrumented = instrument(&wasm, table, args.instruction_limit, profile)?;
    let canister = Canister::new(
        &instrumented,
        table,
        Vec::new(),
        Vec::new(),
        args.show_canister_output,
        args.instruction_limit,
    )?;
    if args.service_did {
        let text = exec::on_big_stack("candid", || candid_interface(&canister))??;
        print!("{text}");
        return Ok(Status::Success);
    }
    let steps = parse_script(&read_script(args.script.as_deref())?)?;
    let traces = match args.instruction_tracing {
        true => Some(Traces {
            names: function_names(&wasm)?,
            dir: args.trace_dir.clone().unwrap_or_else(|| ".".into()),
        }),
        false => None,
    };
    exec::on_big_stack("call", || {
        run_script(&canister, &steps, &args.caller, traces.as_ref())
    })?
}

/// Where `--instruction-tracing` writes, and the names of the module's functions.
struct Traces {
    names: Vec<String>,
    dir: std::path::PathBuf,
}

impl Traces {
    /// Writes the flame graphs of message `n` (counted from 1), if it was traced.
    fn write(&self, n: usize, method: &str, delivery: &Delivery) -> Result<(), String> {
        let Some(rec) = &delivery.trace else {
            return Ok(());
        };
        for path in crate::flame::write_message_graphs(
            rec,
            &self.names,
            method,
            &self.dir,
            &format!("{n}-{method}"),
            delivery.instructions,
        )? {
            eprintln!("trace {}", path.display());
        }
        Ok(())
    }
}

fn read_script(path: Option<&str>) -> Result<String, String> {
    let mut text = String::new();
    match path {
        None | Some("-") => std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read the script from stdin: {e}"))?,
        Some(p) => {
            text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {p}: {e}"))?;
            0
        }
    };
    Ok(text)
}

/// Parses a whole script; an error names the line.
pub fn parse_script(text: &str) -> Result<Vec<Step>, String> {
    let mut steps: Vec<Step> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let step = parse_line(line).map_err(|e| format!("script line {}: {e}", i + 1))?;
        if step.kind == Kind::Init && !steps.is_empty() {
            return Err(format!(
                "script line {}: `init` must be the first message, and only one",
                i + 1
            ));
        }
        steps.push(step);
    }
    Ok(steps)
}

fn parse_line(line: &str) -> Result<Step, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let (kind, method, hex) = match fields.as_slice() {
        ["init"] => (Kind::Init, INIT_METHOD, ""),
        ["init", hex] => (Kind::Init, INIT_METHOD, *hex),
        [kind @ ("query" | "update"), method, rest @ ..] if rest.len() <= 1 => {
            let kind = if *kind == "query" {
                Kind::Query
            } else {
                Kind::Update
            };
            (kind, *method, rest.first().copied().unwrap_or(""))
        }
        [k, ..] if !matches!(*k, "init" | "query" | "update") => {
            return Err(format!(
                "unknown message kind `{k}` (expected init, query or update)"
            ))
        }
        _ => return Err("expected `init [HEX]` or `query|update METHOD [HEX]`".into()),
    };
    let hex = if hex == "-" { "" } else { hex };
    let arg = from_hex(hex).map_err(|e| format!("bad argument hex: {e}"))?;
    Ok(Step {
        kind,
        method: method.to_string(),
        arg,
    })
}

/// Installs the canister and sends every step, printing a line per message. Exits 1 if
/// installation trapped: the IC would not have installed the code, so nothing else runs.
fn run_script(
    canister: &Canister,
    steps: &[Step],
    caller: &[u8],
    traces: Option<&Traces>,
) -> Result<Status, String> {
    let mut session = Session::new(canister, caller)?;
    let (init_arg, rest) = match steps.split_first() {
        Some((first, rest)) if first.kind == Kind::Init => (Some(first.arg.as_slice()), rest),
        _ => (None, steps),
    };
    let installed = session.install(init_arg.unwrap_or(EMPTY_ARGS))?;
    if init_arg.is_some() || canister.has_init() {
        emit(&format_line(Kind::Init, INIT_METHOD, &installed))?;
    }
    if let Outcome::Trap(_) = installed.outcome {
        eprintln!(
            "error: installing the canister trapped; the remaining {} messages were not sent",
            rest.len()
        );
        return Ok(Status::Failed);
    }
    for (n, step) in rest.iter().enumerate() {
        let delivery = match step.kind {
            Kind::Query => session.query(&step.method, &step.arg)?,
            Kind::Update => session.update(&step.method, &step.arg)?,
            Kind::Init => return Err("internal error: a second init".into()),
        };
        emit(&format_line(step.kind, &step.method, &delivery))?;
        if let Some(t) = traces {
            t.write(n + 1, &step.method, &delivery)?;
        }
    }
    Ok(Status::Success)
}

/// Writes one line to stdout at once, so a long script shows progress.
fn emit(line: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

/// One output line (see the module docs).
pub fn format_line(kind: Kind, method: &str, delivery: &Delivery) -> String {
    let outcome = match &delivery.outcome {
        Outcome::Reply(bytes) if bytes.is_empty() => "reply -".to_string(),
        Outcome::Reply(bytes) => format!("reply {}", encode_hex(bytes)),
        Outcome::Reject { code, message } => format!("reject {code} \"{}\"", escape(message)),
        Outcome::Trap(message) => format!("trap \"{}\"", escape(message)),
        Outcome::NoReply => "noreply".to_string(),
    };
    format!(
        "{} {method} {outcome} instructions={}",
        kind.name(),
        delivery.instructions
    )
}

/// `text` as printable ASCII between the quotes of an output line: `"` and `\\` escaped,
/// `\n`, `\r`, `\t` as in Rust, any other character outside ASCII's printable range as
/// `\u{HEX}`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            other => out.push_str(&format!("\\u{{{:x}}}", u32::from(other))),
        }
    }
    out
}

/// The service description the canister embeds: the C string `get_candid_pointer` returns
/// (`ic_cdk::export_candid!`), or else the reply of the `__get_candid_interface_tmp_hack`
/// query that older ic-cdk versions export. Read as tools read it, from a fresh instance
/// without `canister_init`: the text is a constant of the code.
pub fn candid_interface(canister: &Canister) -> Result<String, String> {
    let mut live = canister.instantiate(Default::default())?;
    if let Some(Delivery {
        outcome: Outcome::Trap(e),
        ..
    }) = canister.start(&mut live)?
    {
        return Err(format!("the start function trapped: {e}"));
    }
    if canister.exports_function("get_candid_pointer") {
        let ptr = canister.call_i32(&mut live, "get_candid_pointer")?;
        let memory = live
            .memory()
            .ok_or("the canister exports no memory to read the interface from")?;
        return c_string_at(memory.data(&live.store), ptr as u32 as usize);
    }
    let export = "canister_query __get_candid_interface_tmp_hack";
    if canister.exports_function(export) {
        let message = Message::new(Mode::Query, EMPTY_ARGS, ANONYMOUS);
        return match canister.execute(&mut live, export, message)?.outcome {
            Outcome::Reply(bytes) => candor::decode_one::<String>(&bytes)
                .map_err(|e| format!("the interface query's reply is not a Candid text: {e}")),
            other => Err(format!("the interface query did not reply: {other:?}")),
        };
    }
    Err("the canister exports neither `get_candid_pointer` nor the \
         `__get_candid_interface_tmp_hack` query"
        .into())
}

/// The NUL-terminated UTF-8 string at `ptr` in `heap`.
fn c_string_at(heap: &[u8], ptr: usize) -> Result<String, String> {
    let tail = heap
        .get(ptr..)
        .ok_or_else(|| format!("the interface pointer {ptr} is outside the heap"))?;
    let len = tail
        .iter()
        .position(|&b| b == 0)
        .ok_or("the interface text has no terminating NUL")?;
    String::from_utf8(tail[..len].to_vec())
        .map_err(|_| "the interface text is not valid UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_parse_and_bad_lines_are_named() {
        let steps =
            parse_script("# c\n\ninit 4449444c0000\nquery f -\nupdate g 00FF\nquery h\n").unwrap();
        assert_eq!(steps.len(), 4);
        assert_eq!(steps[0].kind, Kind::Init);
        assert_eq!(steps[0].arg, b"DIDL\0\0");
        assert_eq!((steps[1].kind, steps[1].arg.len()), (Kind::Query, 0));
        assert_eq!(
            (steps[2].method.as_str(), steps[2].arg.as_slice()),
            ("g", &[0, 255][..])
        );
        assert_eq!(steps[3].arg, Vec::<u8>::new());
        let err = |script: &str| parse_script(script).unwrap_err();
        assert_eq!(
            err("query"),
            "script line 1: expected `init [HEX]` or `query|update METHOD [HEX]`"
        );
        assert_eq!(
            err("\ncall f 00"),
            "script line 2: unknown message kind `call` (expected init, query or update)"
        );
        assert_eq!(
            err("update f 0"),
            "script line 1: bad argument hex: odd number of hex digits"
        );
        assert_eq!(
            err("update f zz"),
            "script line 1: bad argument hex: `z` is not a hex digit"
        );
        assert_eq!(
            err("update f é0"),
            "script line 1: bad argument hex: `é` is not a hex digit"
        );
        assert!(err("update f 00 11").contains("line 1"));
        assert_eq!(
            err("query f\ninit"),
            "script line 2: `init` must be the first message, and only one"
        );
    }

    #[test]
    fn output_lines_are_one_line_each() {
        let line = |outcome| {
            format_line(
                Kind::Update,
                "m",
                &Delivery {
                    outcome,
                    instructions: 42,
                    trace: None,
                },
            )
        };
        assert_eq!(
            line(Outcome::Reply(vec![0x44, 0x0a])),
            "update m reply 440a instructions=42"
        );
        assert_eq!(
            line(Outcome::Reply(vec![])),
            "update m reply - instructions=42"
        );
        assert_eq!(
            line(Outcome::Reject {
                code: 4,
                message: "say \"no\"\n".into()
            }),
            "update m reject 4 \"say \\\"no\\\"\\n\" instructions=42"
        );
        assert_eq!(
            line(Outcome::Trap("a\\b\u{1}é".into())),
            "update m trap \"a\\\\b\\u{1}\\u{e9}\" instructions=42"
        );
        assert_eq!(line(Outcome::NoReply), "update m noreply instructions=42");
    }

    #[test]
    fn interface_strings_end_at_nul_inside_the_heap() {
        assert_eq!(c_string_at(b"xxab\0c", 2).unwrap(), "ab");
        assert!(c_string_at(b"ab", 3)
            .unwrap_err()
            .contains("outside the heap"));
        assert!(c_string_at(b"ab", 0)
            .unwrap_err()
            .contains("no terminating NUL"));
        assert!(c_string_at(b"\xff\0", 0).unwrap_err().contains("UTF-8"));
    }
}
