//! `candor bind did`: the interface as one normalised `.did`: imports merged in,
//! definitions sorted by name, comments dropped, laid out by candor's `.did`
//! printer (candid's layout). It states the same types as the input, so
//! `candor check OUT --previous IN` and the reverse both pass.

use candor::pretty::candid::compile;
use candor::types::{Type, TypeEnv, TypeInner};

/// How deep a type may nest and still be printed whole (candor's printer writes
/// `…` for what lies deeper, which would not be the input's type any more).
const MAX_NESTING: usize = 120;

/// The normalised `.did` for `env` and `actor`.
pub(super) fn did(env: &TypeEnv, actor: Option<&Type>) -> Result<String, String> {
    for (name, t) in env.0.iter() {
        if nesting(t) > MAX_NESTING {
            return Err(format!(
                "type {name} nests deeper than {MAX_NESTING} levels"
            ));
        }
    }
    if actor.is_some_and(|t| nesting(t) > MAX_NESTING) {
        return Err(format!(
            "the service nests deeper than {MAX_NESTING} levels"
        ));
    }
    Ok(compile(env, &actor.cloned()))
}

/// Levels of nesting in `t` (names count as one level: their definitions are
/// printed apart). The parser bounds nesting, so the recursion is bounded.
fn nesting(t: &Type) -> usize {
    use TypeInner::*;
    1 + match t.as_ref() {
        Opt(t) | Vec(t) => nesting(t),
        Record(fs) | Variant(fs) => fs.iter().map(|f| nesting(&f.ty)).max().unwrap_or(0),
        Func(f) => f.args.iter().chain(&f.rets).map(nesting).max().unwrap_or(0),
        Service(ms) => ms.iter().map(|(_, t)| nesting(t)).max().unwrap_or(0),
        Class(args, t) => args.iter().map(nesting).max().unwrap_or(0).max(nesting(t)),
        _ => 0,
    }
}
