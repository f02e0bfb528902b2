//! Deeply nested hostile messages must end in an `Err`, never a stack overflow, on
//! the stack a test thread (or a canister) really has.

mod common;

use common::{nested_opts, with_stack, List};

#[derive(candor::CandidType, candor::Deserialize, Debug)]
struct Nest(Option<Box<Nest>>);

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    // 2 MiB: the default stack of a Rust test thread, and more than a canister's.
    with_stack(2 << 20, f)
}

/// The error is a limit: the depth bound, or (in debug builds, whose frames are ten
/// times larger) the stack bound.
fn assert_limit(err: candor::Error) {
    assert_eq!(err.kind(), candor::ErrorKind::Limit, "{err}");
    let msg = err.to_string();
    assert!(msg.contains("nesting"), "{msg}");
}

#[test]
fn deep_typed_value_is_an_error() {
    assert_limit(on_small_stack(|| {
        candor::decode_one::<Nest>(&nested_opts(100_000)).unwrap_err()
    }));
}

#[test]
fn deep_dynamic_value_is_an_error() {
    assert_limit(on_small_stack(|| {
        candor::IDLArgs::from_bytes(&nested_opts(100_000)).unwrap_err()
    }));
}

#[test]
fn deep_skipped_value_is_an_error() {
    // The nested value is an extra argument: skipping recurses too.
    assert_limit(on_small_stack(|| {
        candor::decode_args::<()>(&nested_opts(100_000)).unwrap_err()
    }));
}

#[test]
fn depth_limit_applies_whatever_the_stack() {
    // A generous stack budget leaves the depth bound to decide.
    let err = with_stack(256 << 20, || {
        let mut config = candor::DecoderConfig::new();
        config.set_max_stack(200 << 20).set_max_depth(1_000);
        candor::decode_args_with_config::<(Nest,)>(&nested_opts(5_000), &config).unwrap_err()
    });
    assert!(
        err.to_string().contains("nesting deeper than 1000 levels"),
        "{err}"
    );
}

#[test]
fn list_of_2048_decodes() {
    // The recursive list of the bench (2,048 levels) is legitimate and must decode:
    // on the default budget in release builds; debug frames need a larger one.
    let run = || {
        let bytes = candor::encode_one(common::list(2048)).unwrap();
        let mut config = candor::DecoderConfig::new();
        if cfg!(debug_assertions) {
            config.set_max_stack(48 << 20);
        }
        let (mut back,): (Option<Box<List>>,) =
            candor::decode_args_with_config(&bytes, &config).unwrap();
        let mut n = 0;
        while let Some(node) = back {
            n += 1;
            back = node.tail;
        }
        n
    };
    let n = if cfg!(debug_assertions) {
        with_stack(64 << 20, run)
    } else {
        on_small_stack(run)
    };
    assert_eq!(n, 2048);
}

#[test]
fn stack_budget_applies_whatever_the_depth() {
    // A small stack budget stops the decode long before the depth bound, although
    // the stack is measured only every few levels: typed, dynamic and skipped alike.
    let small = || {
        let mut config = candor::DecoderConfig::new();
        config.set_max_stack(16 << 10).set_max_depth(1_000_000);
        config
    };
    let bytes = nested_opts(10_000);
    let errors = [
        candor::decode_args_with_config::<(Nest,)>(&bytes, &small()).unwrap_err(),
        candor::IDLArgs::from_bytes_with_config(&bytes, &small()).unwrap_err(),
        candor::decode_args_with_config::<()>(&bytes, &small()).unwrap_err(),
    ];
    for err in errors {
        assert!(err.to_string().contains("bytes of stack"), "{err}");
    }
    // The same message within the budget's reach decodes.
    let shallow = nested_opts(8);
    assert!(candor::decode_args_with_config::<(Nest,)>(&shallow, &small()).is_ok());
}
