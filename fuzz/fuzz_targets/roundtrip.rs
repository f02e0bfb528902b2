//! Structured values (built by `arbitrary` from the fuzz input) must survive
//! encode → decode unchanged, as one argument and as a multi-argument message.
//! Values are compared through `Debug`, so a NaN payload or a -0.0 that changed
//! would show.

#![no_main]

use candor_fuzz::{config, List, Rec, Shape, Tree};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;

type Args = (u8, String, Option<Rec>, Vec<Shape>, Tree);

#[derive(arbitrary::Arbitrary, Debug)]
struct Input {
    rec: Rec,
    list: Option<Box<List>>,
    map: BTreeMap<String, u64>,
    args: (u8, String, Option<Rec>, Vec<Shape>, Tree),
}

fn same<T: std::fmt::Debug>(a: &T, b: &T) {
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

fuzz_target!(|input: Input| {
    let config = config();

    let bytes = candor::encode_one(&input.rec).expect("encode Rec");
    let back: Rec = candor::decode_one_with_config(&bytes, &config).expect("decode Rec");
    same(&input.rec, &back);

    let bytes = candor::encode_one(&input.list).expect("encode List");
    let back: Option<Box<List>> =
        candor::decode_one_with_config(&bytes, &config).expect("decode List");
    same(&input.list, &back);

    let bytes = candor::encode_one(&input.map).expect("encode map");
    let back: BTreeMap<String, u64> =
        candor::decode_one_with_config(&bytes, &config).expect("decode map");
    same(&input.map, &back);

    let bytes = candor::encode_args_ref(&input.args).expect("encode args");
    let back: Args = candor::decode_args_with_config(&bytes, &config).expect("decode args");
    same(&input.args, &back);
});
