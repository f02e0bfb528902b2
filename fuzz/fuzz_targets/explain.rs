//! `candor explain` on any bytes: no panic, every byte on a line, and `assemble` of
//! the explanation gives the input back exactly (the CLI's losslessness promise);
//! both without an interface and against one (the subtyping walk: records, opts,
//! variants, a recursive type, reserved), whose explanation must round-trip too.

#![no_main]

use candor_cli::assemble::assemble;
use candor_cli::explain::{explain, Context};
use libfuzzer_sys::fuzz_target;

const DID: &str = "type List = opt record { head : int; tail : List }; \
    service : { m : (record { a : nat; b : opt text; c : variant { x; y : nat8 } }, List, reserved, opt vec nat16) -> () }";

thread_local! {
    static TYPED: Context = {
        let prog: candor_parser::IDLProg = DID.parse().expect("the fuzz interface parses");
        let mut env = candor::TypeEnv::new();
        let actor = candor_parser::check_prog(&mut env, &prog)
            .expect("the fuzz interface checks")
            .expect("it has a service");
        let args = env.get_method(&actor, "m").expect("method m").args.clone();
        Context::from_interface(&env, &args)
    };
}

fuzz_target!(|data: &[u8]| {
    let explained = explain(data, &Context::default());
    let back = assemble(&explained.text(), false).expect("explain's own text assembles");
    assert_eq!(back, data);
    TYPED.with(|cx| {
        let typed = explain(data, cx);
        let back = assemble(&typed.text(), false).expect("the typed text assembles");
        assert_eq!(back, data);
    });
});
