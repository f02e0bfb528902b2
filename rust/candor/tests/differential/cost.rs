//! The cost model: for every message of the zoo, candor consumes the same decoding
//! and skipping quota units as candid 0.10.39, and a quota of exactly candid's cost
//! is enough while one unit less is not.

use crate::zoo;

use pretty_assertions::assert_eq;
use zoo::{ours, theirs, Case};

const BIG: usize = 1_000_000_000_000;

/// (decoding, skipping) units consumed, or the error.
fn cost(c: &Case, bytes: &[u8]) -> Result<Units, String> {
    (c.decode)(bytes, Some(BIG), Some(BIG)).map(|d| (d.decoding.unwrap(), d.skipping.unwrap()))
}

/// (decoding, skipping) units.
type Units = (usize, usize);

/// (case, candor, candid, why).
type Known = (&'static str, Units, Units, Why);

fn measure() -> Vec<(String, Units, Units)> {
    let (o, t) = (ours::cases(), theirs::cases());
    o.iter()
        .zip(&t)
        .map(|(o, t)| {
            let theirs =
                cost(t, &t.bytes).unwrap_or_else(|e| panic!("candid rejects {}: {e}", t.name));
            let ours =
                cost(o, &t.bytes).unwrap_or_else(|e| panic!("candor rejects {}: {e}", o.name));
            (o.name.clone(), ours, theirs)
        })
        .collect()
}

/// Why a case is allowed to cost something else than in candid (see
/// `spec/differences.md`, "Cost").
#[derive(Clone, Copy, Debug, PartialEq)]
enum Why {
    /// An `opt` value that does not coerce: candid charges the partial decode it
    /// attempted before backtracking; candor decides first (10 + skip). A value that
    /// coerces costs the same in both (candor's value-level pre-check is free up to
    /// an allowance of a few walks over the message).
    OptBacktrack,
    /// Recursive types: candid's unroll cost depends on where its per-thread type memo
    /// cut the recursion (history since the last `IDLBuilder::new()`); candor's does not.
    KnotPlacement,
}

/// Every case where candor's (decoding, skipping) units differ from candid's, as
/// measured with a fresh candid type memo: (case, candor, candid, why).
const KNOWN: &[Known] = &[
    ("(AB::B,) => (Option<OnlyA>,)", (914, 17), (915, 17), Why::OptBacktrack),
    ("(Big::C(\"no\".into()),) => (Option<Small>,)", (1228, 22), (1229, 22), Why::OptBacktrack),
    ("(vec![Big::D { x: vec![Point { x: 1, y: 1 }; 10] }; 10],) => (Vec<Option<Small>>,)", (189266, 3780), (189276, 3780), Why::OptBacktrack),
    ("(List { head: 1, tail: list(3) },) => (List,)", (216, 0), (215, 0), Why::KnotPlacement),
    ("(tree_b(2),) => (TreeB,)", (341, 0), (342, 0), Why::KnotPlacement),
    ("(tree_b(2), tree_a(2)) => (TreeB, TreeA)", (535, 0), (538, 0), Why::KnotPlacement),
    (
        "(tree_b(1), Holder { a: tree_a(1), b: tree_b(0), again: vec![] }, tree_a(1)) => (TreeB, Holder, TreeA)",
        (617, 0),
        (618, 0),
        Why::KnotPlacement,
    ),
    ("(vec![1u8, 2],) => (Option<Vec<u16>>,)", (198, 3), (202, 3), Why::OptBacktrack),
    (
        "(Holder { a: tree_a(2), b: tree_b(2), again: vec![tree_a(1); 3] },) => (R1Holder,)",
        (30278, 597),
        (30279, 597),
        Why::KnotPlacement,
    ),
    ("(vec![AB::A, AB::B, AB::A],) => (Vec<Option<OnlyA>>,)", (948, 17), (949, 17), Why::OptBacktrack),
    ("(R1 { a: 1 },) => (Option<R2>,)", (806, 15), (820, 15), Why::OptBacktrack),
    ("(Some(R1 { a: 1 }),) => (Option<R2>,)", (914, 17), (929, 17), Why::OptBacktrack),
    ("(wide(),) => (Option<Point>,)", (32936, 656), (63273, 1262), Why::OptBacktrack),
    ("(vec![wide(), wide()],) => (Vec<Option<Point>>,)", (65762, 1312), (126436, 2524), Why::OptBacktrack),
    (
        "(Some(Big::D { x: vec![Point { x: 1, y: 2 }; 5] }),) => (Option<Small>,)",
        (10636, 210),
        (10638, 210),
        Why::OptBacktrack,
    ),
    ("(tree_a(2),) => (Option<TreeB>,)", (10986, 217), (20715, 411), Why::OptBacktrack),
    ("(vec![Some(tree_a(1)), None],) => (Vec<Option<TreeB>>,)", (6360, 124), (11340, 223), Why::OptBacktrack),
    ("(text_map(10),) => (Vec<Option<(String, Nat)>>,)", (20202, 400), (20372, 400), Why::OptBacktrack),
    (
        "(UnitFunc::new(principal(1), \"f\".into()),) => (Option<TypedFunc>,)",
        (1756, 34),
        (1758, 34),
        Why::OptBacktrack,
    ),
    (
        "(vec![TypedFunc::new(principal(1), \"f\".into())],) => (Vec<Option<UnitFunc>>,)",
        (1834, 35),
        (1837, 35),
        Why::OptBacktrack,
    ),
    ("(typed_refs(),) => (Option<Refs>,)", (12116, 238), (12170, 238), Why::OptBacktrack),
    (
        "(vec![Some(Some(wide())); 5],) => (Vec<Option<Option<Point>>>,)",
        (164730, 3290),
        (316420, 6320),
        Why::OptBacktrack,
    ),
    ("(vec![transfer(); 10],) => (Vec<Option<Narrow>>,)", (89906, 1790), (89956, 1790), Why::OptBacktrack),
    (
        "(vec![nat_map(3); 4],) => (Vec<Option<BTreeMap<String, u64>>>,)",
        (24126, 480),
        (24270, 480),
        Why::OptBacktrack,
    ),
    (
        "(Holder { a: tree_a(2), b: tree_b(2), again: vec![tree_a(1); 3] },) => (Option<Narrow>,)",
        (44142, 879),
        (55106, 1098),
        Why::OptBacktrack,
    ),
];

fn known(name: &str) -> Option<&'static Known> {
    KNOWN.iter().find(|k| k.0 == name)
}

#[test]
fn every_zoo_case_costs_what_candid_charges() {
    let all = measure();
    println!("{} cases compared", all.len());
    let mut bad = Vec::new();
    for (name, o, t) in &all {
        match known(name) {
            None if o == t => {}
            None => bad.push(format!("{name}\n  candor (decoding, skipping) = {o:?}\n  candid = {t:?}")),
            Some(k) if (k.1, k.2) != (*o, *t) => bad.push(format!(
                "{name}: documented candor {:?} / candid {:?}, measured candor {o:?} / candid {t:?}",
                k.1, k.2
            )),
            Some(_) => {}
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        all.len(),
        bad.join("\n")
    );
    for k in KNOWN {
        assert!(all.iter().any(|(n, _, _)| n == k.0), "stale entry {}", k.0);
        match k.3 {
            // Deciding before decoding never costs more than candid's attempt.
            Why::OptBacktrack => assert!(k.1 .0 <= k.2 .0 && k.1 .1 <= k.2 .1, "{}", k.0),
            Why::KnotPlacement => {
                assert!(k.1 .0.abs_diff(k.2 .0) <= 3 && k.1 .1 == k.2 .1, "{}", k.0)
            }
        }
    }
}

#[test]
fn exact_quota_accepts_and_one_less_rejects() {
    let (o, t) = (ours::cases(), theirs::cases());
    for (o, t) in o.iter().zip(&t) {
        let (dq, sq) = cost(t, &t.bytes).unwrap();
        let (odq, osq) = cost(o, &t.bytes).unwrap();
        assert!(
            (t.decode)(&t.bytes, Some(dq), Some(sq)).is_ok(),
            "candid at exact quota: {}",
            t.name
        );
        assert!(
            (t.decode)(&t.bytes, Some(dq - 1), Some(sq)).is_err(),
            "candid at quota - 1: {}",
            t.name
        );
        // candor at candid's exact quota: accepted unless candor documents a higher cost.
        let at_theirs = (o.decode)(&t.bytes, Some(dq), Some(sq));
        assert_eq!(
            at_theirs.is_ok(),
            odq <= dq && osq <= sq,
            "candor at candid's quota: {}",
            o.name
        );
        if odq > dq {
            assert!(known(&o.name).is_some(), "{}", o.name);
        }
        // candor at its own exact cost, and one unit less.
        assert!(
            (o.decode)(&t.bytes, Some(odq), Some(osq)).is_ok(),
            "candor at own quota: {}",
            o.name
        );
        assert!(
            (o.decode)(&t.bytes, Some(odq - 1), Some(osq)).is_err(),
            "candor at quota - 1: {}",
            o.name
        );
        if sq > 0 {
            assert!(
                (t.decode)(&t.bytes, Some(dq), Some(sq - 1)).is_err(),
                "candid skipping - 1: {}",
                t.name
            );
        }
        if osq > 0 {
            assert!(
                (o.decode)(&t.bytes, Some(odq), Some(osq - 1)).is_err(),
                "candor skipping - 1: {}",
                o.name
            );
        }
    }
}

/// candid's cost for a recursive type depends on its per-thread type memo; candor's
/// does not. The same message, decoded right after encoding `opt List` (which memoises
/// `List` with the recursion cut at the `opt`) and from a fresh memo.
#[test]
fn candid_recursive_cost_depends_on_type_memo_history() {
    use zoo::theirs::List as TList;
    let bytes = candid::encode_one(TList {
        head: 1,
        tail: None,
    })
    .unwrap();
    let mut config = candid::DecoderConfig::new();
    config.set_decoding_quota(BIG);
    let theirs = |prime: bool| {
        drop(candid::ser::IDLBuilder::new());
        if prime {
            candid::encode_one(None::<Box<TList>>).unwrap();
        }
        let (_, cost) =
            candid::utils::decode_args_with_config_debug::<(TList,)>(&bytes, &config).unwrap();
        cost.decoding_quota.unwrap()
    };
    let (fresh, primed) = (theirs(false), theirs(true));
    assert_eq!(primed, fresh + 1);
    let mut ours_config = candor::DecoderConfig::new();
    ours_config.set_decoding_quota(BIG);
    let ours = |prime: bool| {
        if prime {
            candor::encode_one(None::<Box<zoo::ours::List>>).unwrap();
        }
        let (_, cost) = candor::utils::decode_args_with_config_debug::<(zoo::ours::List,)>(
            &bytes,
            &ours_config,
        )
        .unwrap();
        cost.decoding_quota.unwrap()
    };
    assert_eq!(ours(false), ours(true));
    assert!(ours(false) == fresh || ours(false) == primed);
}

#[test]
fn decode_debug_macro_and_get_config_agree() {
    use candid::{Decode, Encode};
    let bytes = Encode!(&vec![Some(1u8), None], &"extra", &candid::Nat::from(5u8)).unwrap();
    let mut ours_config = candor::DecoderConfig::new();
    ours_config.set_decoding_quota(BIG).set_skipping_quota(BIG);
    let mut theirs_config = candid::DecoderConfig::new();
    theirs_config
        .set_decoding_quota(BIG)
        .set_skipping_quota(BIG);

    let (v, ours) = candor::Decode!(@Debug [ours_config]; &bytes, Vec<Option<u8>>).unwrap();
    let (w, theirs) = Decode!(@Debug [theirs_config]; &bytes, Vec<Option<u8>>).unwrap();
    assert_eq!(v, w);
    assert_eq!(
        (ours.decoding_quota, ours.skipping_quota),
        (theirs.decoding_quota, theirs.skipping_quota)
    );

    // Argument by argument through IDLDeserialize.
    let mut de = candor::IDLDeserialize::new_with_config(&bytes, &ours_config).unwrap();
    let _: Vec<Option<u8>> = de.get_value().unwrap();
    let _: String = de.get_value().unwrap();
    let _: candor::Int = de.get_value().unwrap();
    de.done().unwrap();
    let ours = de.get_config().compute_cost(&ours_config);
    let mut de = candid::de::IDLDeserialize::new_with_config(&bytes, &theirs_config).unwrap();
    let _: Vec<Option<u8>> = de.get_value().unwrap();
    let _: String = de.get_value().unwrap();
    let _: candid::Int = de.get_value().unwrap();
    de.done().unwrap();
    let theirs = de.get_config().compute_cost(&theirs_config);
    assert_eq!(
        (ours.decoding_quota, ours.skipping_quota),
        (theirs.decoding_quota, theirs.skipping_quota)
    );
}

/// A record field only on the wire, decoded into an `IDLValue` at a type without
/// it (`get_value_with_type`): candid hands it to the value's visitor as
/// `reserved` after skipping it, one untyped unit more than a typed struct pays
/// for a field it ignores (a table reference pays it back: it is resolved once).
/// Every kind of field, nested too, costs what candid charges, and a quota of
/// exactly that is enough while one unit less is not.
#[test]
fn wire_only_fields_cost_what_candid_charges_on_the_idlvalue_path() {
    use candid::CandidType as TC;
    #[derive(TC)]
    struct Narrow {
        a: u8,
    }
    #[derive(candor::CandidType)]
    #[allow(dead_code)]
    struct OursNarrow {
        a: u8,
    }
    #[derive(TC)]
    struct Wide<X: TC> {
        a: u8,
        b: X,
    }
    /// (decoding, skipping) units, or the error, of decoding `bytes` at `Narrow`,
    /// then at `vec Narrow` for the second argument, with an `IDLValue`.
    fn theirs(bytes: &[u8], quotas: (usize, usize)) -> Result<Units, String> {
        let mut config = candid::DecoderConfig::new();
        config
            .set_decoding_quota(quotas.0)
            .set_skipping_quota(quotas.1);
        let env = candid::TypeEnv::new();
        let narrow = <Narrow as TC>::ty();
        let types = [narrow.clone(), candid::types::TypeInner::Vec(narrow).into()];
        let mut de = candid::de::IDLDeserialize::new_with_config(bytes, &config)
            .map_err(|e| e.to_string())?;
        for ty in &types {
            de.get_value_with_type(&env, ty)
                .map_err(|e| e.to_string())?;
        }
        de.done().map_err(|e| e.to_string())?;
        let cost = de.get_config().compute_cost(&config);
        Ok((cost.decoding_quota.unwrap(), cost.skipping_quota.unwrap()))
    }
    fn ours(bytes: &[u8], quotas: (usize, usize)) -> Result<Units, String> {
        let mut config = candor::DecoderConfig::new();
        config
            .set_decoding_quota(quotas.0)
            .set_skipping_quota(quotas.1);
        let env = candor::TypeEnv::new();
        let narrow = <OursNarrow as candor::CandidType>::ty();
        let types = [narrow.clone(), candor::TypeInner::Vec(narrow).into()];
        let mut de =
            candor::IDLDeserialize::new_with_config(bytes, &config).map_err(|e| e.to_string())?;
        for ty in &types {
            de.get_value_with_type(&env, ty)
                .map_err(|e| e.to_string())?;
        }
        de.done().map_err(|e| e.to_string())?;
        let cost = de.get_config().compute_cost(&config);
        Ok((cost.decoding_quota.unwrap(), cost.skipping_quota.unwrap()))
    }
    fn check<X: TC + Clone>(x: X) {
        let name = std::any::type_name::<X>();
        let one = Wide { a: 1, b: x.clone() };
        let bytes =
            candid::encode_args((one, vec![Wide { a: 2, b: x.clone() }, Wide { a: 3, b: x }]))
                .unwrap();
        let t = theirs(&bytes, (BIG, BIG)).unwrap();
        let o = ours(&bytes, (BIG, BIG)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(o, t, "{name}: (decoding, skipping) candor vs candid");
        assert!(ours(&bytes, t).is_ok(), "{name} at candid's exact quota");
        assert!(
            ours(&bytes, (t.0 - 1, t.1)).is_err(),
            "{name} at decoding - 1"
        );
        assert!(
            ours(&bytes, (t.0, t.1 - 1)).is_err(),
            "{name} at skipping - 1"
        );
    }
    check(());
    check(true);
    check(-5i64);
    check(1.5f64);
    check(candid::Principal::anonymous());
    check(candid::Nat::from(300u32));
    check(candid::Int::from(-300));
    check("text".to_string());
    check(candid::Reserved);
    check(Some(3u8));
    check(None::<u8>);
    check(vec![1u16, 2]);
    check(vec![1u8, 2]);
    check(serde_bytes::ByteBuf::from(vec![1u8]));
    check((1u8, "x".to_string()));
    check(Ok::<u8, String>(1));
    check(vec![candid::Nat::from(1u8)]);
}
