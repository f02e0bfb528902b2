//! The `differential` target's oracle: arbitrary bytes decoded by candor and by
//! candid 0.10.39 (the reference) at the same Rust types, and as untyped values, must
//! both be accepted with the same value, in the same decoding and skipping units, or
//! both be refused. A difference that `spec/differences.md` lists is let through by
//! the check named for its entry.
//!
//! Values built from the input alike on both sides must encode to the same bytes.
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

/// A message, or the encoder's error text.
pub type Encoded = Result<Vec<u8>, String>;

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
    recursive: true,
    ..PLAIN
};
const OPT_RECURSIVE: Holds = Holds {
    opt: true,
    ..RECURSIVE
};
const EVERYTHING: Holds = Holds {
    opt: true,
    recursive: true,
    tuple: true,
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
            use arbitrary::{Arbitrary, Unstructured};
            use serde_bytes::ByteBuf;
            use std::collections::BTreeMap;
            use $krate::{CandidType, Deserialize, Int, Nat, Principal, Reserved};

            // Values of the crate's own types, built alike on both sides.
            pub fn arb_nat(u: &mut Unstructured<'_>) -> arbitrary::Result<Nat> {
                // Past 128 bits too, so LEB128 longer than a u128's is written.
                let (hi, lo): (u128, u128) = (u.arbitrary()?, u.arbitrary()?);
                Ok(Nat::from(hi) * Nat::from(u128::MAX) + Nat::from(lo))
            }
            pub fn arb_opt_nat(u: &mut Unstructured<'_>) -> arbitrary::Result<Option<Nat>> {
                Ok(if u.arbitrary()? {
                    Some(arb_nat(u)?)
                } else {
                    None
                })
            }
            pub fn arb_int(u: &mut Unstructured<'_>) -> arbitrary::Result<Int> {
                let (hi, lo): (i128, i128) = (u.arbitrary()?, u.arbitrary()?);
                Ok(Int::from(hi) * Int::from(i128::MAX) + Int::from(lo))
            }
            pub fn arb_opt_int(u: &mut Unstructured<'_>) -> arbitrary::Result<(u16, Option<Int>)> {
                let n: u16 = u.arbitrary()?;
                let i: Option<i64> = u.arbitrary()?;
                Ok((n, i.map(Int::from)))
            }
            pub fn arb_principal(u: &mut Unstructured<'_>) -> arbitrary::Result<Principal> {
                let len = u.int_in_range(0..=29)?;
                Ok(Principal::from_slice(u.bytes(len)?))
            }
            pub fn arb_opt_blob(u: &mut Unstructured<'_>) -> arbitrary::Result<Option<ByteBuf>> {
                let blob: Option<Vec<u8>> = u.arbitrary()?;
                Ok(blob.map(ByteBuf::from))
            }
            pub fn arb_reserved(_: &mut Unstructured<'_>) -> arbitrary::Result<Reserved> {
                Ok(Reserved)
            }

            /// A recursive list (recursion through `Option<Box<_>>`).
            #[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
            pub struct List {
                pub head: i32,
                pub tail: Option<Box<List>>,
            }

            /// A recursive variant (recursion through `Box` and `Vec`).
            #[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
            pub enum Tree {
                Leaf(i64),
                Node { left: Box<Tree>, right: Box<Tree> },
                Many(Vec<Tree>),
            }

            /// Every variant payload shape.
            #[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
            pub enum Shape {
                Empty,
                Circle(f64),
                Rect { w: u32, h: u32 },
                Tagged(String, #[serde(with = "serde_bytes")] Vec<u8>),
                Nested(Option<Box<Shape>>),
            }

            #[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
            pub struct Account {
                #[arbitrary(with = arb_principal)]
                pub owner: Principal,
                #[arbitrary(with = arb_opt_blob)]
                pub subaccount: Option<ByteBuf>,
            }

            #[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
            pub struct Transfer {
                pub to: Account,
                #[arbitrary(with = arb_opt_nat)]
                pub fee: Option<Nat>,
                #[arbitrary(with = arb_opt_blob)]
                pub memo: Option<ByteBuf>,
                #[arbitrary(with = arb_opt_blob)]
                pub from_subaccount: Option<ByteBuf>,
                pub created_at_time: Option<u64>,
                #[arbitrary(with = arb_nat)]
                pub amount: Nat,
            }

            /// A record touching most of the decoder: nested vecs, maps, opts,
            /// variants, bignums, principals, blobs, floats, text, a tuple and
            /// reserved.
            #[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
            pub struct Rec {
                #[arbitrary(with = arb_nat)]
                pub id: Nat,
                #[arbitrary(with = arb_int)]
                pub delta: Int,
                #[arbitrary(with = arb_principal)]
                pub owner: Principal,
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
                #[arbitrary(with = arb_opt_int)]
                pub pair: (u16, Option<Int>),
                #[arbitrary(with = arb_reserved)]
                pub ignored: Reserved,
            }

            /// `rename` on a case, which both derives read (`rename_all` only
            /// candor's, docs/switching.md).
            #[derive(CandidType, Deserialize, Arbitrary, Debug, Clone, PartialEq)]
            pub enum Reply {
                #[serde(rename = "ok")]
                Ok(#[arbitrary(with = arb_nat)] Nat),
                Err {
                    code: u32,
                    message: String,
                },
                Later,
            }

            /// The limits both crates decode under (what a canister would set).
            fn config() -> $krate::DecoderConfig {
                let mut config = $krate::DecoderConfig::new();
                config
                    .set_decoding_quota(super::DECODING)
                    .set_skipping_quota(super::SKIPPING);
                config
            }

            /// The untyped values (`IDLArgs`) of `data`, printed.
            pub fn untyped(data: &[u8]) -> super::Answer {
                $krate::IDLArgs::from_bytes_with_config(data, &config())
                    .map(|a| super::Got {
                        value: a.to_string(),
                        units: None,
                    })
                    .map_err(|e| (super::KindOf::kind_of(&e), e.to_string()))
            }

            /// Decodes `data` as `Tuple` under the fuzzers' limits; says too
            /// whether candor read a value by a spec-only coercion meanwhile.
            fn answer<Tuple>(data: &[u8]) -> (super::Answer, bool)
            where
                Tuple: for<'a> $krate::utils::ArgumentDecoder<'a> + std::fmt::Debug,
            {
                let before = ::candor::de::spec_only_reads();
                let answer = $krate::utils::decode_args_with_config_debug::<Tuple>(data, &config())
                    .map(|(v, used)| super::Got {
                        value: format!("{v:?}"),
                        units: used.decoding_quota.zip(used.skipping_quota),
                    })
                    .map_err(|e| (super::KindOf::kind_of(&e), e.to_string()));
                (answer, ::candor::de::spec_only_reads() != before)
            }

            /// Values built from `data` (one after another, while it lasts), each
            /// printed and encoded: by name, the value's `Debug` text and its message.
            pub fn encodings(data: &[u8]) -> Vec<(&'static str, String, super::Encoded)> {
                fn one<T: CandidType + std::fmt::Debug>(v: T) -> (String, super::Encoded) {
                    let bytes = $krate::encode_one(&v).map_err(|e| e.to_string());
                    (format!("{v:?}"), bytes)
                }
                let mut u = Unstructured::new(data);
                let mut out = Vec::new();
                let mut next = |name, made: arbitrary::Result<(String, super::Encoded)>| match made
                {
                    Ok((debug, bytes)) => {
                        out.push((name, debug, bytes));
                        true
                    }
                    Err(_) => false,
                };
                let _ = next("List", u.arbitrary::<Option<Box<List>>>().map(one))
                    && next("Tree", u.arbitrary::<Tree>().map(one))
                    && next("Transfer", u.arbitrary::<Transfer>().map(one))
                    && next("Reply", u.arbitrary::<Reply>().map(one))
                    && next(
                        "Result",
                        u.arbitrary::<Result<Vec<Shape>, String>>().map(one),
                    )
                    && next("Rec", u.arbitrary::<Rec>().map(one))
                    && next(
                        "three args",
                        u.arbitrary::<(u8, Option<Account>, Vec<Shape>)>().map(|v| {
                            let bytes =
                                $krate::encode_args((&v.0, &v.1, &v.2)).map_err(|e| e.to_string());
                            (format!("{v:?}"), bytes)
                        }),
                    );
                out
            }

            /// Each type's answer, with its name and what it holds.
            pub fn answers(
                data: &[u8],
            ) -> Vec<(&'static str, super::Holds, (super::Answer, bool))> {
                use super::{EVERYTHING, OPT, OPT_RECURSIVE, PLAIN, RECURSIVE, TUPLE};
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
                    ("List", OPT_RECURSIVE, answer::<(Option<Box<List>>,)>(data)),
                    ("Tree", RECURSIVE, answer::<(Tree,)>(data)),
                    ("Account", OPT, answer::<(Account,)>(data)),
                    ("Transfer", OPT, answer::<(Transfer,)>(data)),
                    ("Rec", EVERYTHING, answer::<(Rec,)>(data)),
                    ("Reply", PLAIN, answer::<(Reply,)>(data)),
                    (
                        "Result",
                        OPT_RECURSIVE,
                        answer::<(Result<Vec<Shape>, String>,)>(data),
                    ),
                    ("map", PLAIN, answer::<(BTreeMap<String, Nat>,)>(data)),
                    ("pairs", TUPLE, answer::<(Vec<(u32, String)>,)>(data)),
                    (
                        "three args",
                        OPT_RECURSIVE,
                        answer::<(u8, Option<Account>, Vec<Shape>)>(data),
                    ),
                ]
            }
        }
    };
}

zoo!(ours, candor);
zoo!(theirs, candid);

/// The quotas both crates decode under.
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

/// Decodes `data` with both crates at every type and untyped, then encodes the values
/// built from it; panics on a difference no entry of `spec/differences.md` explains.
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
    judge(&Pair {
        name: "untyped",
        holds: PLAIN,
        ours: ours::untyped(data),
        theirs: theirs::untyped(data),
        spec_only: false,
    });
    encode_both(data);
}

/// Values built from `data` alike on both sides, encoded by both crates: the same
/// bytes (or both refuse).
fn encode_both(data: &[u8]) {
    for ((name, ours, o), (_, theirs, t)) in ours::encodings(data)
        .into_iter()
        .zip(theirs::encodings(data))
    {
        assert_eq!(ours, theirs, "{name}: the two sides built different values");
        assert!(
            same_outcome(&o, &t),
            "{name} {ours}: candor encodes {o:02x?}\ncandid {t:02x?}"
        );
    }
}

/// Both succeeded with equal results, or both failed (errors are not compared: their
/// texts differ by design, spec/differences.md C4).
fn same_outcome<T: PartialEq, E, F>(a: &Result<T, E>, b: &Result<T, F>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a == b,
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

fn judge(p: &Pair) {
    if same_outcome(&p.ours, &p.theirs) || explained(p) {
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
