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

/// A decoder made in a helper and used by its caller, or made by the caller and
/// used deep in its own recursion: the budget counts from where the decoder was
/// made, and still stops a deep message (and lets a shallow one through).
#[test]
fn stack_budget_counts_from_where_the_decoder_was_made() {
    fn small() -> candor::DecoderConfig {
        let mut config = candor::DecoderConfig::new();
        config.set_max_stack(64 << 10).set_max_depth(1_000_000);
        config
    }
    #[inline(never)]
    fn made_here<'a>(
        bytes: &'a [u8],
        config: &candor::DecoderConfig,
    ) -> candor::IDLDeserialize<'a> {
        candor::IDLDeserialize::new_with_config(bytes, config).expect("a valid header")
    }
    /// Decodes `Nest` `frames` calls deeper than the decoder was made, with a
    /// frame of at least 1 KiB per call.
    #[inline(never)]
    fn deeper(de: &mut candor::IDLDeserialize<'_>, frames: u32) -> candor::Result<Nest> {
        let pad = std::hint::black_box([frames as u8; 1024]);
        if frames == 0 {
            return de.get_value::<Nest>();
        }
        let out = deeper(de, frames - 1);
        std::hint::black_box(pad);
        out
    }
    let config = small();
    let deep = nested_opts(10_000);
    let err = made_here(&deep, &config).get_value::<Nest>().unwrap_err();
    assert!(err.to_string().contains("bytes of stack"), "{err}");
    let err = deeper(&mut made_here(&deep, &config), 4).unwrap_err();
    assert!(err.to_string().contains("bytes of stack"), "{err}");
    let shallow = nested_opts(8);
    let mut de = made_here(&shallow, &config);
    assert!(de.get_value::<Nest>().is_ok());
    assert!(de.done().is_ok());
    // The deepest message the budget lets through from the caller's frame (past
    // the first measure, at 8 levels) is stopped below 64 frames that take the
    // whole budget: the frames between the decoder's making and its use count.
    let fits = |n: usize| {
        made_here(&nested_opts(n), &config)
            .get_value::<Nest>()
            .is_ok()
    };
    let deepest = (9..200)
        .take_while(|&n| fits(n))
        .last()
        .expect("9 levels fit 64 KiB");
    let err = deeper(&mut made_here(&nested_opts(deepest), &config), 64).unwrap_err();
    assert!(err.to_string().contains("bytes of stack"), "{err}");
}
