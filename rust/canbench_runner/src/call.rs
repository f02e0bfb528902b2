//! `canbench call`: sends a script of messages to a canister, offline, and prints how
//! each ended and the instructions it took.
//!
//! ```text
//! canbench call --wasm CANISTER.wasm [--script FILE|-] [--instruction-limit N]
//! canbench call --wasm CANISTER.wasm --service-did
//! ```
//!
//! Script lines: `init HEX`, `query METHOD HEX`, `update METHOD HEX` (HEX: the argument
//! bytes; `-` for none); blank lines and `#` comments are skipped. The messages go to
//! one canister, in order: `canister_init` first (with `DIDL\0\0` if the script has no
//! `init` line), then each message sees the state the committed ones left. As on the
//! IC, an update's changes are committed when it replies or rejects, and rolled back
//! when it traps; a query's are always discarded. The caller is the anonymous
//! principal, the canister id and the clock are fixed (see `exec`), and no
//! inter-canister call leaves the canister (`ic0.call_perform` traps).
//!
//! Output, one line per message: `KIND METHOD reply HEX`, `… reject TEXT`,
//! `… trap TEXT`, `… noreply` or `… no-such-method`, then `instructions=N`, TEXT
//! with `\n`, `\\` and non-printable characters escaped so each stays on one line.
//! `--service-did` prints the canister's interface instead: what its
//! `export_candid!()` compiled in (`get_candid_pointer`, read as dfx reads it).

use crate::exec::{Canister, Ending, Kind, Message};
use crate::{cost, instrument};
use std::io::Read;
use std::path::Path;

/// The empty argument list, for `init` when the script gives none.
const NO_ARGS: &[u8] = b"DIDL\x00\x00";

pub fn call_cmd(argv: &[String], limit: u64) -> Result<i32, String> {
    let mut wasm = None;
    let mut script = None;
    let mut limit = limit;
    let mut service_did = false;
    let mut show_output = false;
    let mut it = argv.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match name {
            "--wasm" => wasm = Some(value()?),
            "--script" => script = Some(value()?),
            "--instruction-limit" => {
                limit = value()?.parse().map_err(|_| "bad --instruction-limit")?
            }
            "--service-did" => service_did = true,
            "--show-canister-output" => show_output = true,
            other => return Err(format!("canbench call: unknown argument {other}")),
        }
    }
    let wasm = wasm.ok_or("canbench call needs --wasm FILE")?;
    let bytes = crate::read_wasm(Path::new(&wasm))?;
    let table = cost::CostTable::ic();
    let instrumented = instrument::instrument(&bytes, table, limit, false)?;
    let canister = Canister::new(
        &instrumented,
        table,
        Vec::new(),
        Vec::new(),
        show_output,
        limit,
    )?;

    if service_did {
        print!("{}", canister.candid_interface()?);
        return Ok(0);
    }

    let text = match script.as_deref() {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("cannot read the script: {e}"))?;
            s
        }
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?
        }
    };
    let messages = parse_script(&text)?;
    let mut committed = init_message(&canister, &messages);
    let mut out = String::new();
    for m in &messages {
        if m.kind == Kind::Init {
            // Already first in `committed`: report how it went.
            let (ending, instructions) = canister.execute(&[], m)?;
            line(&mut out, m, &ending, instructions);
            continue;
        }
        let (ending, instructions) = canister.execute(&committed, m)?;
        line(&mut out, m, &ending, instructions);
        let commits = matches!(
            ending,
            Ending::Reply(_) | Ending::Reject(_) | Ending::NoReply
        );
        if m.kind == Kind::Update && commits {
            committed.push(m.clone());
        }
    }
    print!("{out}");
    Ok(0)
}

/// The `canister_init` message the canister starts from: the script's `init` line,
/// or the empty argument list, or nothing for a canister without `canister_init`.
fn init_message(canister: &Canister, messages: &[Message]) -> Vec<Message> {
    if let Some(init) = messages.iter().find(|m| m.kind == Kind::Init) {
        return vec![init.clone()];
    }
    if !canister.has_init() {
        return Vec::new();
    }
    vec![Message {
        kind: Kind::Init,
        method: "canister_init".into(),
        arg: NO_ARGS.to_vec(),
    }]
}

fn parse_script(text: &str) -> Result<Vec<Message>, String> {
    let mut messages = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |what: &str| format!("script line {}: {what}: `{line}`", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let (kind, method, hex) = match words.as_slice() {
            ["init", hex] => (Kind::Init, "canister_init", *hex),
            ["init"] => (Kind::Init, "canister_init", "-"),
            ["query", m, hex] => (Kind::Query, *m, *hex),
            ["update", m, hex] => (Kind::Update, *m, *hex),
            ["query", m] => (Kind::Query, *m, "-"),
            ["update", m] => (Kind::Update, *m, "-"),
            _ => {
                return Err(fail(
                    "expected `init HEX`, `query METHOD HEX` or `update METHOD HEX`",
                ))
            }
        };
        if kind == Kind::Init && messages.iter().any(|m: &Message| m.kind == Kind::Init) {
            return Err(fail("a second init"));
        }
        let arg = if hex == "-" {
            Vec::new()
        } else {
            from_hex(hex).map_err(|e| fail(&e))?
        };
        messages.push(Message {
            kind,
            method: method.to_string(),
            arg,
        });
    }
    Ok(messages)
}

/// Hex digits in pairs (bytes, not characters: any other input is an error).
pub fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    let digits = s.as_bytes();
    if digits.len() % 2 != 0 {
        return Err("odd number of hex digits".into());
    }
    digits
        .chunks(2)
        .map(|pair| {
            let d = |b: u8| (b as char).to_digit(16).ok_or("not hex");
            Ok((d(pair[0])? * 16 + d(pair[1])?) as u8)
        })
        .collect::<Result<_, &str>>()
        .map_err(str::to_string)
}

fn line(out: &mut String, m: &Message, ending: &Ending, instructions: u64) {
    use std::fmt::Write;
    let kind = match m.kind {
        Kind::Init => "init",
        Kind::Query => "query",
        Kind::Update => "update",
    };
    let _ = write!(out, "{kind} {} ", m.method);
    match ending {
        Ending::Reply(bytes) => {
            out.push_str("reply ");
            for b in bytes {
                let _ = write!(out, "{b:02x}");
            }
        }
        Ending::Reject(text) => {
            out.push_str("reject ");
            escape(out, text);
        }
        Ending::Trap(text) => {
            out.push_str("trap ");
            escape(out, text);
        }
        Ending::NoReply => out.push_str("noreply"),
        Ending::NoMethod => out.push_str("no-such-method"),
    }
    let _ = writeln!(out, " instructions={instructions}");
}

/// Text on one line: `\n`, `\r`, `\t`, `\\` and other control characters escaped.
fn escape(out: &mut String, text: &str) {
    use std::fmt::Write;
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_parse_and_bad_lines_are_named() {
        let m = parse_script("# c\n\ninit 4449444c0000\nquery f -\nupdate g 00ff\n").unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].kind, Kind::Init);
        assert_eq!(m[1].arg, Vec::<u8>::new());
        assert_eq!(m[2].arg, vec![0, 255]);
        assert!(parse_script("query").unwrap_err().contains("line 1"));
        assert!(parse_script("update f 0").is_err());
        assert!(parse_script("update f zz").is_err());
        assert!(parse_script("update f é").is_err());
        assert!(parse_script("init\ninit")
            .unwrap_err()
            .contains("second init"));
    }

    #[test]
    fn texts_stay_on_one_line() {
        let mut s = String::new();
        escape(&mut s, "a\nb\\c\u{1}");
        assert_eq!(s, "a\\nb\\\\c\\u{1}");
    }
}
