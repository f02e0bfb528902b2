//! Type-level work on huge and deep types (from a wire header, a `.did` file or a
//! caller) ends in a value or an `Err`, never a stack overflow.
//!
//! A stack overflow aborts the whole process, so each case runs in a child process
//! (this test binary, re-run on that one test) whose body runs on a thread with a
//! 2 MiB stack, the default of a Rust thread: the parent sees the abort as a failed
//! exit status and the test fails instead of taking the binary down.

use candor::types::internal::{unroll, TypeContainer};
use candor::types::subtype::{
    equal, subtype, subtype_check_all, subtype_with_config, Gamma, OptReport,
};
use candor::types::{Field, Function, Label, Type, TypeEnv, TypeInner};
use std::process::Command;

/// Wide enough to matter (many arguments, many fields).
const WIDE: u32 = 20_000;
/// Deep enough to overflow any recursive walk on a 2 MiB stack.
const DEEP: usize = 100_000;
const CHILD: &str = "CANDOR_TYPE_STACK_CHILD";

/// Runs `body` on a 2 MiB thread in a child process re-running the test `name`.
fn in_child(name: &str, body: fn()) {
    if std::env::var(CHILD).as_deref() == Ok(name) {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(body)
            .expect("spawn")
            .join()
            .expect("the body panicked");
        return;
    }
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, name)
        .output()
        .expect("run the child");
    assert!(
        out.status.success(),
        "{name} failed in the child ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

fn t(inner: TypeInner) -> Type {
    inner.into()
}

fn nat() -> Type {
    t(TypeInner::Nat)
}

fn service() -> Type {
    t(TypeInner::Service(vec![(
        "m".to_string(),
        t(TypeInner::Func(Function {
            modes: vec![],
            args: vec![],
            rets: vec![],
        })),
    )]))
}

fn class(args: Vec<Type>) -> Type {
    t(TypeInner::Class(args, service()))
}

fn wide_record(n: u32) -> Type {
    t(TypeInner::Record(
        (0..n)
            .map(|i| Field {
                id: Label::Id(i).into(),
                ty: nat(),
            })
            .collect(),
    ))
}

/// `depth` nested constructors around `leaf`, cycling through `opt`, `vec` and a
/// one-field record.
fn deep(depth: usize, leaf: Type) -> Type {
    let mut ty = leaf;
    for i in 0..depth {
        ty = match i % 3 {
            0 => t(TypeInner::Opt(ty)),
            1 => t(TypeInner::Vec(ty)),
            _ => t(TypeInner::Record(vec![Field {
                id: Label::Named("f".into()).into(),
                ty,
            }])),
        };
    }
    ty
}

macro_rules! child_test {
    ($name:ident, $body:block) => {
        #[test]
        fn $name() {
            fn body() $body
            in_child(stringify!($name), body);
        }
    };
}

child_test!(classes_differing_in_20000_init_args_are_not_equal, {
    let many: Vec<Type> = (0..WIDE).map(|_| nat()).collect();
    let a = class(many.clone());
    let b = class(vec![t(TypeInner::Text)]);
    let env = TypeEnv::new();
    let e = equal(&mut Gamma::new(), &env, &a, &b)
        .unwrap_err()
        .to_string();
    assert!(e.len() < 64 * 1024, "{}", e.len());
    let mut last = many.clone();
    last[WIDE as usize - 1] = t(TypeInner::Text);
    let e = equal(&mut Gamma::new(), &env, &a, &class(last))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 64 * 1024, "{}", e.len());
    assert!(equal(&mut Gamma::new(), &env, &a, &class(many)).is_ok());
    assert!(subtype(&mut Gamma::new(), &env, &a, &b).is_ok());
});

child_test!(wide_records_compare_print_and_check, {
    let a = wide_record(WIDE);
    let b = wide_record(WIDE);
    let env = TypeEnv::new();
    assert_eq!(a, b);
    assert!(equal(&mut Gamma::new(), &env, &a, &b).is_ok());
    assert!(subtype(&mut Gamma::new(), &env, &a, &b).is_ok());
    let s = a.to_string();
    assert!(s.starts_with("record {"), "{}", &s[..40]);
    let _ = format!("{a:?}");
    assert!(candor::types::internal::text_size(&a, 500).is_err());
    let c = wide_record(WIDE - 1);
    let e = subtype_check_all(&mut Gamma::new(), &env, &c, &a);
    assert_eq!(e.len(), 1);
});

child_test!(deep_types_compare_hash_and_order, {
    let a = deep(DEEP, nat());
    let b = deep(DEEP, nat());
    let c = deep(DEEP, t(TypeInner::Int));
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(a.cmp(&b), std::cmp::Ordering::Equal);
    assert_eq!(a.cmp(&c), std::cmp::Ordering::Less);
    let mut set = std::collections::HashSet::new();
    set.insert(a.clone());
    assert!(set.contains(&b));
    assert!(!set.contains(&c));
    let mut tree = std::collections::BTreeSet::new();
    tree.insert(a);
    tree.insert(c);
    assert!(tree.contains(&b));
});

child_test!(deep_types_check_without_overflow, {
    let a = deep(DEEP, nat());
    let b = deep(DEEP, t(TypeInner::Int));
    let c = deep(DEEP, t(TypeInner::Text));
    let env = TypeEnv::new();
    // Equal structures are equal; unequal ones are an error (the depth bound or a
    // mismatch), never an overflow.
    assert!(equal(&mut Gamma::new(), &env, &a, &deep(DEEP, nat())).is_ok());
    assert!(equal(&mut Gamma::new(), &env, &a, &b).is_err());
    // The special opt rule lets the lenient checks accept (with a warning); the
    // strict one refuses.
    let _ = subtype(&mut Gamma::new(), &env, &a, &c);
    assert!(subtype_with_config(OptReport::Error, &mut Gamma::new(), &env, &a, &c).is_err());
    let _ = subtype_check_all(&mut Gamma::new(), &env, &a, &c);
});

child_test!(deep_types_print_and_measure, {
    let a = deep(DEEP, nat());
    let s = a.to_string();
    assert!(s.len() < 64 * 1024, "{}", s.len());
    let d = format!("{a:?}");
    assert!(d.len() < 64 * 1024, "{}", d.len());
    let d = format!("{:?}", a.as_ref());
    assert!(d.len() < 64 * 1024, "{}", d.len());
    assert!(candor::types::internal::text_size(&a, 500).is_err());
    assert!(candor::types::internal::text_size(&a, i32::MAX).is_ok());
    let s = a.as_ref().to_string();
    assert!(s.len() < 64 * 1024, "{}", s.len());
});

child_test!(deep_types_drop, {
    drop(deep(DEEP, nat()));
    // A deep type behind a wide one, and shared parts dropped last.
    let shared = deep(DEEP, nat());
    let r = t(TypeInner::Record(vec![Field {
        id: Label::Id(0).into(),
        ty: shared.clone(),
    }]));
    drop(r);
    drop(shared);
    let f = t(TypeInner::Func(Function {
        modes: vec![],
        args: vec![deep(DEEP, nat())],
        rets: vec![deep(DEEP, nat())],
    }));
    drop(class(vec![f, deep(DEEP, nat())]));
});

child_test!(deep_types_rebuild, {
    let a = deep(DEEP, t(TypeInner::Var("x".into())));
    let tau = [("x".to_string(), "y".to_string())].into_iter().collect();
    let b = a.subst(&tau);
    assert_eq!(b, deep(DEEP, t(TypeInner::Var("y".into()))));
    let c = unroll(&a);
    assert_eq!(c, a);
});

child_test!(deep_env_chains, {
    // type a0 = record { f : a1 }; … a_{n-1} = record { f : a0 }: uninhabited.
    let n = DEEP;
    let mut env = TypeEnv::new();
    for i in 0..n {
        let next = t(TypeInner::Var(format!("a{}", (i + 1) % n)));
        env.0.insert(
            format!("a{i}"),
            t(TypeInner::Record(vec![Field {
                id: Label::Named("f".into()).into(),
                ty: next,
            }])),
        );
    }
    let _ = env.replace_empty();
    let _ = env.to_string();
    let a = t(TypeInner::Var("a0".into()));
    let b = t(TypeInner::Var("a1".into()));
    let _ = equal(&mut Gamma::new(), &env, &a, &b);
    let _ = subtype(&mut Gamma::new(), &env, &a, &b);
    drop(env);
});

child_test!(deep_types_as_expected_types, {
    let env = TypeEnv::new();
    let a = deep(DEEP, nat());
    let bytes = candor::encode_one(5u8).unwrap();
    let mut de = candor::IDLDeserialize::new(&bytes).unwrap();
    assert!(de.get_value_with_type(&env, &a).is_err());
});

child_test!(deep_types_annotate_values, {
    let env = TypeEnv::new();
    let a = deep(DEEP, nat());
    let v = candor::IDLValue::Nat8(5);
    assert!(v.annotate_type(true, &env, &a).is_err());
    let _ = TypeContainer::new();
});

child_test!(deep_types_encode_to_an_error, {
    let env = TypeEnv::new();
    let a = deep(DEEP, nat());
    let args = candor::IDLArgs::new(&[candor::IDLValue::Null]);
    assert!(args
        .to_bytes_with_types(&env, std::slice::from_ref(&a))
        .is_err());
    let mut ts = candor::ser::TypeSerialize::new();
    assert!(ts.push_type(&a).is_err());
});

child_test!(deep_values_annotate_to_an_error, {
    // As deep as the decoder's default depth bound allows a decoded value to be.
    let depth = candor::de::DEFAULT_MAX_DEPTH as usize + 100;
    let mut ty = nat();
    let mut v = candor::IDLValue::Nat(5u8.into());
    for _ in 0..depth {
        ty = t(TypeInner::Opt(ty));
        v = candor::IDLValue::Opt(Box::new(v));
    }
    let env = TypeEnv::new();
    let _ = v.annotate_type(false, &env, &ty);
    let _ = v.annotate_type(true, &env, &ty);
    // Taken apart from the outside in: a value this deep drops recursively.
    while let candor::IDLValue::Opt(inner) = v {
        v = *inner;
    }
});
