//! The subtype answers `opt` values ask for are kept per message in a few slots
//! (`de/subtype.rs`, `Recent`): a record with many `opt` fields asks one question
//! per field for every record, more questions than slots, some answered "yes"
//! (the value is read) and some "no" (a value-level check decides, per value).
//! Values and units left are candid 0.10.39's whichever slot an answer is in.

mod common;

/// The types, spelled with one crate's derive: `Two` on the wire has a case the
/// expected `One` lacks, so a `Two` in an `opt` is `null` when it is that case.
macro_rules! types {
    ($lib:ident) => {
        #[derive($lib::CandidType, serde::Deserialize, Debug, Clone, Copy)]
        pub enum Two {
            A,
            B,
        }

        #[derive($lib::CandidType, serde::Deserialize, Debug)]
        pub enum One {
            A,
        }

        #[derive($lib::CandidType, serde::Deserialize, Debug)]
        pub struct Inner<T> {
            pub x: T,
            pub n: u8,
        }

        #[derive($lib::CandidType, serde::Deserialize, Debug)]
        pub struct Rec<T> {
            pub a: Option<T>,
            pub b: Option<u64>,
            pub c: Option<Vec<T>>,
            pub d: Option<String>,
            pub e: Option<(T, u8)>,
            pub f: Option<Option<T>>,
            pub g: Option<i32>,
            pub h: Option<Inner<T>>,
            pub i: Option<u16>,
            pub j: Option<Vec<Option<T>>>,
            pub k: Option<bool>,
            pub l: Option<Inner<Option<T>>>,
        }
    };
}

mod ours {
    types!(candor);
}

mod theirs {
    types!(candid);
}

fn sample(i: usize) -> theirs::Rec<theirs::Two> {
    use theirs::{Inner, Two};
    let t = if i % 3 == 0 { Two::B } else { Two::A };
    let u = if i % 2 == 0 { Two::A } else { Two::B };
    theirs::Rec {
        a: Some(t),
        b: (i % 4 != 0).then_some(i as u64),
        c: Some(vec![u, t]),
        d: Some(format!("d{i}")),
        e: Some((u, i as u8)),
        f: Some((i % 5 != 0).then_some(t)),
        g: Some(-(i as i32)),
        h: Some(Inner { x: u, n: 1 }),
        i: None,
        j: Some(vec![Some(t), None, Some(u)]),
        k: Some(i % 2 == 0),
        l: Some(Inner { x: Some(t), n: 2 }),
    }
}

/// Many records, the same twelve questions asked for each: candor's values are
/// candid's. Where values do not fit, candor charges its own units for them
/// (`spec/differences.md` D1), so units are compared where every value fits.
#[test]
fn many_opt_fields_decode_as_candid() {
    let sent: Vec<_> = (0..40).map(sample).collect();
    let bytes = candid::encode_one(&sent).unwrap();
    let ours: Vec<ours::Rec<ours::One>> = candor::decode_one(&bytes).unwrap();
    let theirs: Vec<theirs::Rec<theirs::One>> = candid::decode_one(&bytes).unwrap();
    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    // Some values fit and some do not, in every field that can hold a `B`.
    assert!(ours.iter().any(|r| r.a.is_none()) && ours.iter().any(|r| r.a.is_some()));
    assert!(ours.iter().any(|r| r.h.is_none()) && ours.iter().any(|r| r.h.is_some()));

    type Ours = Vec<ours::Rec<ours::Two>>;
    type Theirs = Vec<theirs::Rec<theirs::Two>>;
    let (ours, theirs) = common::decode_both::<Ours, Theirs>(&bytes, 10_000_000).unwrap();
    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    for quota in (0..bytes.len() * 8).step_by(97) {
        common::decode_both::<Ours, Theirs>(&bytes, quota);
    }
}

/// The same message decoded at two expected types in turn, on one thread: an
/// answer kept for one expected type is never taken for the other.
#[test]
fn answers_do_not_outlive_their_expected_type() {
    let sent: Vec<_> = (0..12).map(sample).collect();
    let bytes = candid::encode_one(&sent).unwrap();
    for _ in 0..3 {
        let one: Vec<ours::Rec<ours::One>> = candor::decode_one(&bytes).unwrap();
        let two: Vec<ours::Rec<ours::Two>> = candor::decode_one(&bytes).unwrap();
        assert!(one.iter().any(|r| r.a.is_none()));
        assert!(two.iter().all(|r| r.a.is_some() && r.h.is_some()));
        let theirs: Vec<theirs::Rec<theirs::One>> = candid::decode_one(&bytes).unwrap();
        assert_eq!(format!("{one:?}"), format!("{theirs:?}"));
    }
}
