//! Turns a call script written in Candid text into the hex form the offline runner
//! reads (`canbench call --script`), typing each argument list by a service's `.did`.
//!
//! `cargo run -p candor_parser --example encode_calls -- SERVICE.did [--agent-js] < calls.txt`
//!
//! With `--agent-js`, each message's header is written as agent-js (browsers, Node
//! tools) writes it, each type table entry after the entries it names, instead of
//! candid's order (the bench canister's `post_order.rs`); the values are the same.
//! An argument list naming a recursive type, a function or a service keeps candid's
//! order.
//!
//! Input lines:
//! * `init (ARGS)`: the service's init (class) arguments;
//! * `query METHOD (ARGS)` / `update METHOD (ARGS)`: the method's argument types;
//! * `init hex:HEX`, `query METHOD hex:HEX`, …: raw bytes passed through as given
//!   (for malformed and hostile messages);
//! * blank lines and lines starting with `#` are copied as they are.
//!
//! Output lines: `init HEX`, `query METHOD HEX`, `update METHOD HEX`. Any line that
//! cannot be encoded is an error naming its line number (exit 1).

use candor::types::{Field, Type, TypeEnv, TypeInner};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// What the bench canister's `post_order.rs` and `wire.rs` import as `crate::lib`.
mod lib {
    pub use candor::types;
}

#[path = "../../../benches/canister/src/post_order.rs"]
mod post_order;

#[path = "../../../benches/canister/src/wire.rs"]
#[allow(dead_code)]
mod wire;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (did_path, agent_js) = match args.as_slice() {
        [did] => (did, false),
        [did, flag] if flag == "--agent-js" => (did, true),
        _ => {
            eprintln!("usage: encode_calls SERVICE.did [--agent-js] < calls.txt");
            return ExitCode::from(2);
        }
    };
    match run(did_path, agent_js) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("encode_calls: {e}");
            ExitCode::from(1)
        }
    }
}

/// The service's init argument types and methods, resolved through `env`.
struct Service {
    env: TypeEnv,
    init: Vec<Type>,
    methods: Vec<(String, Type)>,
}

fn load(did_path: &str) -> Result<Service, String> {
    let text = std::fs::read_to_string(did_path).map_err(|e| format!("{did_path}: {e}"))?;
    let prog: candor_parser::IDLProg = text.parse().map_err(|e| format!("{did_path}: {e}"))?;
    let mut env = TypeEnv::new();
    let actor = candor_parser::check_prog(&mut env, &prog)
        .map_err(|e| format!("{did_path}: {e}"))?
        .ok_or_else(|| format!("{did_path}: no service"))?;
    let (init, service) = match actor.as_ref() {
        TypeInner::Class(args, service) => (args.clone(), service.clone()),
        _ => (Vec::new(), actor.clone()),
    };
    let service = env.trace_type(&service).map_err(|e| e.to_string())?;
    let TypeInner::Service(methods) = service.as_ref() else {
        return Err(format!("{did_path}: the actor is not a service"));
    };
    let methods = methods.clone();
    Ok(Service { env, init, methods })
}

fn run(did_path: &str, agent_js: bool) -> Result<(), String> {
    let service = load(did_path)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let encoded = encode_line(&service, line.trim(), agent_js)
            .map_err(|e| format!("line {}: {e}\n  {line}", i + 1))?;
        writeln!(out, "{encoded}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn encode_line(service: &Service, line: &str, agent_js: bool) -> Result<String, String> {
    if line.is_empty() || line.starts_with('#') {
        return Ok(line.to_string());
    }
    let (kind, rest) = line
        .split_once(' ')
        .ok_or("expected `KIND [METHOD] ARGS`")?;
    let (head, args, types) = match kind {
        "init" => ("init".to_string(), rest.trim(), service.init.clone()),
        "query" | "update" => {
            let (method, args) = rest.trim().split_once(' ').ok_or("expected a method")?;
            let func = service
                .methods
                .iter()
                .find(|(name, _)| name == method)
                .map(|(_, t)| t)
                .ok_or_else(|| format!("no method {method} in the service"))?;
            let func = service.env.trace_type(func).map_err(|e| e.to_string())?;
            let TypeInner::Func(f) = func.as_ref() else {
                return Err(format!("{method} is not a function"));
            };
            (format!("{kind} {method}"), args.trim(), f.args.clone())
        }
        _ => return Err(format!("unknown kind {kind}")),
    };
    if let Some(hex) = args.strip_prefix("hex:") {
        return Ok(format!("{head} {hex}"));
    }
    let values = candor_parser::parse_idl_args(args).map_err(|e| e.to_string())?;
    let values = values
        .annotate_types(true, &service.env, &types)
        .map_err(|e| e.to_string())?;
    let mut bytes = values
        .to_bytes_with_types(&service.env, &types)
        .map_err(|e| e.to_string())?;
    if agent_js {
        bytes = in_agent_js_order(&service.env, &types, bytes);
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{head} {hex}"))
}

/// `message`, of arguments of `types`, with its header written in agent-js's
/// order; as it is when the types name a recursive type, a function or a service.
fn in_agent_js_order(env: &TypeEnv, types: &[Type], message: Vec<u8>) -> Vec<u8> {
    let inlined: Option<Vec<Type>> = types
        .iter()
        .map(|t| inline(env, t, &mut Vec::new()))
        .collect();
    let Some(mut out) = inlined.and_then(|types| post_order::header(&types)) else {
        return message;
    };
    out.extend_from_slice(&message[wire::header_len(&message)..]);
    out
}

/// `t` with every name the service defines written out; `None` for a recursive
/// type (a name met inside itself).
fn inline(env: &TypeEnv, t: &Type, open: &mut Vec<String>) -> Option<Type> {
    let fields = |fs: &[Field], open: &mut Vec<String>| -> Option<Vec<Field>> {
        fs.iter()
            .map(|f| {
                Some(Field {
                    id: f.id.clone(),
                    ty: inline(env, &f.ty, open)?,
                })
            })
            .collect()
    };
    Some(match t.as_ref() {
        TypeInner::Var(name) => {
            if open.contains(name) {
                return None;
            }
            open.push(name.clone());
            let inner = inline(env, env.find_type(name).ok()?, open);
            open.pop();
            return inner;
        }
        TypeInner::Opt(inner) => TypeInner::Opt(inline(env, inner, open)?).into(),
        TypeInner::Vec(inner) => TypeInner::Vec(inline(env, inner, open)?).into(),
        TypeInner::Record(fs) => TypeInner::Record(fields(fs, open)?).into(),
        TypeInner::Variant(fs) => TypeInner::Variant(fields(fs, open)?).into(),
        _ => t.clone(),
    })
}
