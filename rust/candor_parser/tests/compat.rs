//! Upgrade compatibility between two interfaces.

use candor::types::{Type, TypeEnv};
use candor_parser::compat::{check_compatibility, service_compatible, Level};
use candor_parser::{check_prog, IDLProg};

fn load(src: &str) -> (TypeEnv, Type) {
    let prog: IDLProg = src.parse().unwrap();
    let mut env = TypeEnv::new();
    let t = check_prog(&mut env, &prog).unwrap().unwrap();
    (env, t)
}

fn report(new: &str, old: &str) -> (Vec<String>, Vec<String>) {
    let (ne, nt) = load(new);
    let (oe, ot) = load(old);
    let r = check_compatibility(&ne, &nt, &oe, &ot);
    assert!(r.errors.iter().all(|e| e.level == Level::Error));
    (
        r.errors.iter().map(ToString::to_string).collect(),
        r.warnings.iter().map(ToString::to_string).collect(),
    )
}

#[test]
fn identical_and_widened_interfaces_are_compatible() {
    let old = "type t = record { a : nat }; service : { f : (t) -> (nat); g : () -> () query }";
    assert_eq!(report(old, old), (vec![], vec![]));
    // New: extra method, extra optional argument, result gains a field, nat arg widened to int,
    // variant result loses a case.
    let old = "service : { f : (nat) -> (record { a : nat }, variant { x; y }) }";
    let new = "service : { f : (int, opt text) -> (record { a : nat; b : text }, variant { x }); h : () -> () }";
    assert_eq!(report(new, old), (vec![], vec![]));
}

#[test]
fn every_incompatibility_is_reported_with_its_path() {
    let old = r#"
        type t = record { bar : nat; keep : text };
        service : {
          foo : (t) -> (nat);
          gone : () -> ();
          mode : () -> () query;
          res : () -> (variant { a; b });
          more : () -> (record { x : nat });
        }"#;
    let new = r#"
        type t = record { bar : nat8; keep : text; need : nat };
        service : {
          foo : (t) -> (int);
          mode : () -> ();
          res : () -> (variant { a; b; c });
          more : () -> (record {});
        }"#;
    let (errors, warnings) = report(new, old);
    assert_eq!(
        errors,
        [
            r#"method "foo": arg 0: field bar: nat is not a subtype of nat8"#,
            r#"method "foo": arg 0: new required field need : nat is not sent by old callers (and is not opt, null or reserved)"#,
            r#"method "foo": result 0: int is not a subtype of nat"#,
            r#"method "gone": missing in the new interface"#,
            r#"method "mode": mode changed from query to update"#,
            r#"method "more": result 0: field x : nat is missing, and the old type requires it (it is not opt, null or reserved)"#,
            r#"method "res": result 0: new case c is not in the old type"#,
        ]
    );
    assert!(warnings.is_empty());
}

#[test]
fn opt_rule_is_a_warning() {
    let old = "service : { f : () -> (record { a : opt nat }) }";
    let new = "service : { f : () -> (record { a : text }) }";
    let (errors, warnings) = report(new, old);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].starts_with(
        r#"warning: method "f": result 0: field a: text <: opt nat only by the special opt rule"#
    ));
    // `opt t` to `opt t'` with t <: t' is fine, as is t <: opt t.
    let new = "service : { f : () -> (record { a : nat }) }";
    assert_eq!(report(new, old), (vec![], vec![]));
}

#[test]
fn recursive_types_and_two_environments() {
    // The same name means different things on each side.
    let old = "type list = opt record { head : nat; tail : list }; service : { f : () -> (list) }";
    let new = "type list = opt record { head : nat8; tail : list }; type t = list; service : { f : () -> (t) }";
    let (errors, _) = report(new, old);
    assert!(errors.is_empty(), "{errors:?}"); // nat8 <: nat? no: but opt rule makes it hold
    let old = "type l = record { head : nat; tail : vec l }; service : { f : () -> (l) }";
    let new = "type m = record { head : int; tail : vec m }; service : { f : () -> (m) }";
    let (errors, _) = report(new, old);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(r#"method "f": result 0: field head: int is not a subtype of nat"#),
        "{errors:?}"
    );
    // And the other way round holds.
    let (ne, nt) = load(old);
    let (oe, ot) = load(new);
    assert_eq!(service_compatible(&ne, &nt, &oe, &ot), Ok(()));
}

#[test]
fn services_and_classes() {
    let old = "service : (nat) -> { f : (service { g : () -> () }) -> () }";
    let new = "service : (text) -> { f : (principal) -> () }";
    let (errors, _) = report(new, old);
    assert!(errors.is_empty(), "{errors:?}");
    let (errors, _) = report(old, new);
    assert_eq!(
        errors,
        [r#"method "f": arg 0: principal is not a subtype of service { g : () -> () }"#]
    );
}
