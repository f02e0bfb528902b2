//! The `differential` target's oracle: arbitrary bytes decoded by candor and by
//! candid 0.10.39 (the reference) at the same Rust types, and as untyped values, must
//! both be accepted with the same value, in the same decoding and skipping units, or
//! both be refused. A difference that `spec/differences.md` lists is let through by
//! the check named for its entry.
//!
//! The types are written once and built twice (`zoo!`: `ours` on candor, `theirs` on
//! candid), against each crate's `CandidType`, `Nat`, `Int`, `Principal` and
//! `Reserved`, so the two decodes see the same declarations and their values print
//! alike.

use ::candor::ErrorKind;

/// A decode's value as `Debug` text and the (decoding, skipping) units it used (none
/// for untyped values: that API does not report them).
#[derive(Debug, PartialEq)]
pub struct Got {
    value: String,
    units: Option<(usize, usize)>,
}

/// What a decode gave, or the error's kind (candor's; candid's errors have none) and
/// text.
pub type Answer = Result<Got, (Option<ErrorKind>, String)>;

/// What a type holds that a documented difference depends on.
#[derive(Clone, Copy)]
pub struct Holds {
    /// An `opt` (D1: candor may charge less for a value that does not coerce).
    opt: bool,
    /// A recursive type (D3: candid's units depend on its type memo).
    recursive: bool,
    /// A Rust tuple (D7: more wire fields than it has).
    tuple: bool,
}

const PLAIN: Holds = Holds {
    opt: false,
    recursive: false,
    tuple: false,
};
const OPT: Holds = Holds { opt: true, ..PLAIN };
const RECURSIVE: Holds = Holds {
    opt: true,
    recursive: true,
    tuple: false,
};
const TUPLE: Holds = Holds {
    tuple: true,
    ..PLAIN
};

/// One type's answers from both crates.
struct Pair {
    name: &'static str,
    holds: Holds,
    ours: Answer,
    theirs: Answer,
    /// candor read a value by a coercion only the Candid spec allows
    /// (spec/differences.md D12).
    spec_only: bool,
}

macro_rules! zoo {
    ($module:ident, $krate:ident) => {
        /// The shared declarations, built on this crate.
        pub mod $module {
            use std::collections::BTreeMap;
            use $krate::{CandidType, Deserialize, Int, Nat, Principal, Reserved};

            #[derive(CandidType, Deserialize, Debug)]
            pub struct List {
                pub head: i32,
                pub tail: Option<Box<List>>,
            }

            #[derive(CandidType, Deserialize, Debug)]
            pub enum Tree {
                Leaf(i64),
                Node { left: Box<Tree>, right: Box<Tree> },
                Many(Vec<Tree>),
            }

            #[derive(CandidType, Deserialize, Debug)]
            pub enum Shape {
                Empty,
                Circle(f64),
                Rect { w: u32, h: u32 },
                Tagged(String, #[serde(with = "serde_bytes")] Vec<u8>),
                Nested(Option<Box<Shape>>),
            }

            #[derive(CandidType, Deserialize, Debug)]
            pub struct Account {
                pub owner: Principal,
                pub subaccount: Option<serde_bytes::ByteBuf>,
            }

            #[derive(CandidType, Deserialize, Debug)]
            pub struct Transfer {
                pub to: Account,
                pub fee: Option<Nat>,
                pub memo: Option<serde_bytes::ByteBuf>,
                pub from_subaccount: Option<serde_bytes::ByteBuf>,
                pub created_at_time: Option<u64>,
                pub amount: Nat,
            }

            #[derive(CandidType, Deserialize, Debug)]
            pub struct Rec {
                pub id: Nat,
                pub delta: Int,
                pub name: String,
                pub flag: bool,
                pub small: i8,
                pub ratio: f32,
                pub tags: Vec<String>,
                pub matrix: Vec<Vec<i16>>,
                pub attrs: BTreeMap<String, Vec<Option<u64>>>,
                pub maybe: Option<Option<Shape>>,
                pub shapes: Vec<Shape>,
                #[serde(with = "serde_bytes")]
                pub blob: Vec<u8>,
                pub tree: Tree,
                pub list: Option<Box<List>>,
                pub ignored: Reserved,
            }

            /// `rename` on a case, which both derives read (`rename_all` only
            /// candor's, docs/switching.md).
            #[derive(CandidType, Deserialize, Debug)]
            pub enum Reply {
                #[serde(rename = "ok")]
                Ok(Nat),
                Err {
                    code: u32,
                    message: String,
                },
                Later,
            }

            /// Decodes `data` as `Tuple` under the fuzzers' limits; says too
            /// whether candor read a value by a spec-only coercion meanwhile.
            fn answer<Tuple>(data: &[u8]) -> (super::Answer, bool)
            where
                Tuple: for<'a> $krate::utils::ArgumentDecoder<'a> + std::fmt::Debug,
            {
                let mut config = $krate::DecoderConfig::new();
                config
                    .set_decoding_quota(super::DECODING)
                    .set_skipping_quota(super::SKIPPING);
                let before = ::candor::de::spec_only_reads();
                let answer = $krate::utils::decode_args_with_config_debug::<Tuple>(data, &config)
                    .map(|(v, used)| super::Got {
                        value: format!("{v:?}"),
                        units: used.decoding_quota.zip(used.skipping_quota),
                    })
                    .map_err(|e| (super::kind_of(&e), e.to_string()));
                (answer, ::candor::de::spec_only_reads() != before)
            }

            /// Each type's answer, with its name and what it holds.
            pub fn answers(
                data: &[u8],
            ) -> Vec<(&'static str, super::Holds, (super::Answer, bool))> {
                use super::{OPT, PLAIN, RECURSIVE, TUPLE};
                vec![
                    ("nat64", PLAIN, answer::<(u64,)>(data)),
                    ("text", PLAIN, answer::<(String,)>(data)),
                    ("vec nat8", PLAIN, answer::<(Vec<u8>,)>(data)),
                    ("blob", PLAIN, answer::<(serde_bytes::ByteBuf,)>(data)),
                    ("vec int64", PLAIN, answer::<(Vec<i64>,)>(data)),
                    ("opt vec text", OPT, answer::<(Option<Vec<String>>,)>(data)),
                    ("nat", PLAIN, answer::<(Nat,)>(data)),
                    ("int", PLAIN, answer::<(Int,)>(data)),
                    ("principal", PLAIN, answer::<(Principal,)>(data)),
                    ("List", RECURSIVE, answer::<(Option<Box<List>>,)>(data)),
                    ("Tree", RECURSIVE, answer::<(Tree,)>(data)),
                    ("Account", OPT, answer::<(Account,)>(data)),
                    ("Transfer", OPT, answer::<(Transfer,)>(data)),
                    ("Rec", RECURSIVE, answer::<(Rec,)>(data)),
                    ("Reply", PLAIN, answer::<(Reply,)>(data)),
                    (
                        "Result",
                        RECURSIVE,
                        answer::<(Result<Vec<Shape>, String>,)>(data),
                    ),
                    ("map", PLAIN, answer::<(BTreeMap<String, Nat>,)>(data)),
                    ("pairs", TUPLE, answer::<(Vec<(u32, String)>,)>(data)),
                    (
                        "three args",
                        RECURSIVE,
                        answer::<(u8, Option<Account>, Vec<Shape>)>(data),
                    ),
                ]
            }
        }
    };
}

zoo!(ours, candor);
zoo!(theirs, candid);

/// The limits both crates decode under (what a canister would set).
const DECODING: usize = 20_000_000;
const SKIPPING: usize = 10_000;

/// An error's kind, where the crate gives one.
trait KindOf {
    fn kind_of(&self) -> Option<ErrorKind>;
}

impl KindOf for ::candor::Error {
    fn kind_of(&self) -> Option<ErrorKind> {
        Some(self.kind())
    }
}

impl KindOf for ::candid::Error {
    fn kind_of(&self) -> Option<ErrorKind> {
        None
    }
}

fn kind_of<E: KindOf>(e: &E) -> Option<ErrorKind> {
    e.kind_of()
}

/// Decodes `data` with both crates at every type and untyped; panics on a difference
/// no entry of `spec/differences.md` explains.
pub fn decode_both(data: &[u8]) {
    let ours = ours::answers(data);
    let theirs = theirs::answers(data);
    for ((name, holds, (ours, spec_only)), (_, _, (theirs, _))) in ours.into_iter().zip(theirs) {
        judge(&Pair {
            name,
            holds,
            ours,
            theirs,
            spec_only,
        });
    }
    untyped(data);
}

/// Both crates' untyped values (`IDLArgs`), printed.
fn untyped(data: &[u8]) {
    let got = |value: String| Got { value, units: None };
    let mut config = ::candor::DecoderConfig::new();
    config
        .set_decoding_quota(DECODING)
        .set_skipping_quota(SKIPPING);
    let ours = ::candor::IDLArgs::from_bytes_with_config(data, &config)
        .map(|a| got(a.to_string()))
        .map_err(|e| (Some(e.kind()), e.to_string()));
    let mut config = ::candid::DecoderConfig::new();
    config
        .set_decoding_quota(DECODING)
        .set_skipping_quota(SKIPPING);
    let theirs = ::candid::IDLArgs::from_bytes_with_config(data, &config)
        .map(|a| got(a.to_string()))
        .map_err(|e| (None, e.to_string()));
    judge(&Pair {
        name: "untyped",
        holds: PLAIN,
        ours,
        theirs,
        spec_only: false,
    });
}

fn judge(p: &Pair) {
    let agree = match (&p.ours, &p.theirs) {
        (Ok(o), Ok(t)) => o == t,
        (Err(_), Err(_)) => true,
        _ => false,
    };
    if agree || explained(p) {
        return;
    }
    panic!("{}: candor {:?}\ncandid {:?}", p.name, p.ours, p.theirs);
}

/// Whether an entry of `spec/differences.md` explains the difference.
fn explained(p: &Pair) -> bool {
    let limit = |a: &Answer| matches!(a, Err((Some(ErrorKind::Limit), _)));
    let candid_limit = |a: &Answer| matches!(a, Err((_, e)) if e.contains("quota") || e.contains("limit") || e.contains("Recursion"));
    match (&p.ours, &p.theirs) {
        (Ok(o), Ok(t)) if o.value == t.value => match (o.units, t.units) {
            (Some((od, os)), Some((td, ts))) => {
                // D1: an `opt` value that does not coerce costs candor at most
                // what candid charges for its attempt.
                let cheaper = p.holds.opt && od <= td && os <= ts;
                // D3: a recursive type's decoding units, within 3.
                let knot = p.holds.recursive && os == ts && od.abs_diff(td) <= 3;
                cheaper || knot
            }
            _ => false,
        },
        // D1, D3, D14: the two crates' units differ in documented ways, so one may
        // run out where the other does not.
        (Err(_), Ok(_)) if limit(&p.ours) => true,
        (Ok(_), Err(_)) if candid_limit(&p.theirs) => true,
        // D9: method names are checked for UTF-8.
        (Err((_, e)), Ok(_)) if e.contains("invalid UTF-8 in method name") => true,
        // D12: a blob read from an empty vector of another element type.
        (Ok(_), _) if p.spec_only => true,
        // D7: a Rust tuple with more wire fields than it has.
        (Ok(_), Err(_)) if p.holds.tuple => true,
        (Err((_, e)), Ok(_)) if p.holds.tuple => {
            e.contains("unexpected end of input") || e.starts_with("Cannot decode empty type")
        }
        _ => false,
    }
}
