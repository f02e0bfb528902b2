//! `.did` text that is huge (20,000 arguments or fields) or deep (100,000 nested
//! types, or a chain of 100,000 definitions) parses, checks, prints and compares to
//! a value or an `Err`, never a stack overflow.
//!
//! A stack overflow aborts the process, so each case runs in a child process (this
//! test binary, re-run on that one test) whose body runs on a thread with a 2 MiB
//! stack: the parent sees an abort as a failed exit status.

use candor::types::subtype::{equal, subtype_with_config, Gamma, OptReport};
use candor::types::TypeEnv;
use candor_parser::compat::{check_compatibility, service_compatible};
use candor_parser::{check_prog, parse_idl_args, parse_idl_type, IDLProg};
use std::process::Command;

const CHILD: &str = "CANDOR_PARSER_STACK_CHILD";
const WIDE: usize = 20_000;
const DEEP: usize = 100_000;

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

macro_rules! child_test {
    ($name:ident, $body:block) => {
        #[test]
        fn $name() {
            fn body() $body
            in_child(stringify!($name), body);
        }
    };
}

/// Checks `text` as a `.did` file.
fn check(text: &str) -> candor_parser::Result<(TypeEnv, Option<candor::types::Type>)> {
    let prog: IDLProg = text.parse()?;
    let mut env = TypeEnv::new();
    let actor = check_prog(&mut env, &prog)?;
    Ok((env, actor))
}

child_test!(deeply_nested_type_text_is_an_error, {
    let text = format!("type t = {}nat;", "opt ".repeat(DEEP));
    let err = check(&text).unwrap_err().to_string();
    assert!(err.contains("nesting"), "{}", &err[..err.len().min(300)]);
    let ty = format!("{}nat{}", "record { f : ".repeat(DEEP), " }".repeat(DEEP));
    assert!(parse_idl_type(&TypeEnv::new(), &ty).is_err());
    let value = format!("{}null{}", "opt ".repeat(DEEP), "");
    assert!(parse_idl_args(&format!("({value})")).is_err());
});

child_test!(a_chain_of_definitions_checks_prints_and_compares, {
    // type a0 = opt record { f : a1 }; … the last one names a0 again.
    let mut text = String::new();
    for i in 0..DEEP {
        text.push_str(&format!(
            "type a{i} = opt record {{ f : a{} }};\n",
            (i + 1) % DEEP
        ));
    }
    text.push_str("service : { m : (a0) -> (a1) }");
    let (mut env, actor) = check(&text).unwrap();
    let actor = actor.unwrap();
    let printed = candor::pretty::candid::compile(&env, &Some(actor.clone()));
    assert!(printed.len() > DEEP);
    let (env2, actor2) = check(&text.replace("(a0) -> (a1)", "(a1) -> (a0)")).unwrap();
    let actor2 = actor2.unwrap();
    let _ = check_compatibility(&env, &actor, &env2, &actor2);
    let _ = service_compatible(&env, &actor, &env2, &actor2);
    let _ = equal(&mut Gamma::new(), &env, &actor, &actor2);
    let _ = subtype_with_config(OptReport::Error, &mut Gamma::new(), &env, &actor, &actor2);
    env.replace_empty().unwrap();
});

child_test!(a_chain_of_records_is_uninhabited, {
    let mut text = String::new();
    for i in 0..DEEP {
        text.push_str(&format!(
            "type r{i} = record {{ f : r{} }};\n",
            (i + 1) % DEEP
        ));
    }
    let (mut env, _) = check(&text).unwrap();
    env.replace_empty().unwrap();
    assert_eq!(env.find_type("r5").unwrap().to_string(), "empty");
});

child_test!(wide_interfaces_check_print_and_compare, {
    let args = vec!["nat"; WIDE].join(", ");
    let fields: Vec<String> = (0..WIDE).map(|i| format!("f{i} : nat")).collect();
    let text = format!(
        "type r = record {{ {} }};\nservice : ({args}) -> {{ m : ({args}) -> (r) }}",
        fields.join("; ")
    );
    let (env, actor) = check(&text).unwrap();
    let actor = actor.unwrap();
    let printed = candor::pretty::candid::compile(&env, &Some(actor.clone()));
    assert!(printed.len() > WIDE);
    let other = text.replace("-> (r)", "-> (text)");
    let (env2, actor2) = check(&other).unwrap();
    let actor2 = actor2.unwrap();
    let report = check_compatibility(&env2, &actor2, &env, &actor);
    assert!(!report.is_compatible());
    for e in &report.errors {
        assert!(e.to_string().len() < 4096, "{}", e.to_string().len());
    }
    let e = equal(&mut Gamma::new(), &env, &actor, &actor2).unwrap_err();
    assert!(e.to_string().len() < 64 * 1024);
    let narrow = text.replacen(&format!("service : ({args})"), "service : (text)", 1);
    let (env3, actor3) = check(&narrow).unwrap();
    let actor3 = actor3.unwrap();
    let e = equal(&mut Gamma::new(), &env, &actor, &actor3)
        .unwrap_err()
        .to_string();
    assert!(e.len() < 64 * 1024, "{}", e.len());
    assert!(e.contains("more"), "{}", &e[..e.len().min(300)]);
    drop((env3, env2));
});
