//! A recursive type reached along exponentially many paths, for tests of the work a
//! subtype check does.

use candor::types::{Field, Label, Type, TypeInner};
use candor::TypeEnv;

/// `t_i = record { a : opt t_{i+1}; b : opt t_{i+1}; c : leaf }` for `i < levels`,
/// named `{prefix}{i}`, `t_levels` being `t_0` again: from `t_0`, every level is
/// reached along 2^i paths. Checking it against the same type with another leaf
/// probes `t_{i+1}` under both `opt`s of every level, and each probe fails (at `c`,
/// the last field): without a memo of refuted pairs the work doubles with every
/// level.
pub fn diamond(prefix: &str, levels: usize, leaf: TypeInner) -> TypeEnv {
    let mut env = TypeEnv::new();
    for i in 0..levels {
        let next: Type =
            TypeInner::Opt(TypeInner::Var(format!("{prefix}{}", (i + 1) % levels)).into()).into();
        let field = |name: &str, ty: Type| Field {
            id: Label::Named(name.into()).into(),
            ty,
        };
        env.0.insert(
            format!("{prefix}{i}"),
            TypeInner::Record(vec![
                field("a", next.clone()),
                field("b", next),
                field("c", leaf.clone().into()),
            ])
            .into(),
        );
    }
    env
}
