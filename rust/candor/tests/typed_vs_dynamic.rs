//! The typed decoder (derived Rust types) and the dynamic one (`IDLArgs` at
//! `T::ty()`) agree: on random values of a family of Rust types, decoding either way
//! and re-encoding gives the same bytes, at the type itself and at a supertype (a
//! "v1" type with fewer fields, opt fields, more variant cases). And candor's
//! untyped `IDLArgs::from_bytes` prints what candid's does.

use candor::{CandidType, Deserialize, IDLArgs, Int, Nat, Principal, TypeEnv};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_bytes::ByteBuf;
use std::collections::BTreeMap;

// ---- the family ----------------------------------------------------------------------

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Account {
    owner: Principal,
    subaccount: Option<ByteBuf>,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
enum Op {
    Transfer {
        from: Account,
        to: Account,
        amount: Nat,
        fee: Option<Nat>,
    },
    Mint(Account, u64),
    Burn,
    Approve(Box<Account>),
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Tx {
    id: u64,
    op: Op,
    memo: Option<ByteBuf>,
    created_at: Option<u64>,
    tags: Vec<String>,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Pair(i32, String);

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
enum Tree {
    Leaf(i64),
    Node(Vec<Tree>),
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Prims {
    a: bool,
    b: i8,
    c: i16,
    d: i32,
    e: i64,
    f: u8,
    g: u16,
    h: u32,
    i: f32,
    j: f64,
    k: Int,
    l: Nat,
    m: String,
    n: (),
    o: u128,
    p: i128,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct Ledger {
    txs: Vec<Tx>,
    balances: BTreeMap<String, Nat>,
    nested: Option<Option<u8>>,
    result: Result<u32, String>,
    #[serde(rename = "type")]
    kind: Pair,
}

// ---- "v1" supertypes -----------------------------------------------------------------

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct AccountV1 {
    owner: Principal,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
enum OpV1 {
    Transfer {
        from: AccountV1,
        to: AccountV1,
        amount: Int,
    },
    Mint(AccountV1, u64),
    Burn,
    Approve(AccountV1),
    Freeze,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct TxV1 {
    op: OpV1,
    /// Was `nat64`: does not fit, so it decodes as `null`.
    id: Option<String>,
    tags: Option<Vec<String>>,
    extra: Option<String>,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct PrimsV1 {
    a: Option<bool>,
    l: Int,
    m: String,
    z: Option<Vec<u8>>,
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq)]
struct LedgerV1 {
    txs: Vec<TxV1>,
    nested: Option<Option<u8>>,
    result: Result<u32, String>,
}

// ---- strategies ----------------------------------------------------------------------

fn principal() -> impl Strategy<Value = Principal> {
    vec(any::<u8>(), 0..=29).prop_map(|b| Principal::from_slice(&b))
}

fn nat() -> impl Strategy<Value = Nat> {
    prop_oneof![
        any::<u64>().prop_map(Nat::from),
        any::<u128>().prop_map(|n| Nat::from(n) * Nat::from(n)),
    ]
}

fn int() -> impl Strategy<Value = Int> {
    prop_oneof![
        any::<i64>().prop_map(Int::from),
        any::<i128>().prop_map(|n| Int::from(n) * Int::from(n) * Int::from(-1)),
    ]
}

fn text() -> impl Strategy<Value = String> {
    "[a-z \"\\\\\n'é日]{0,12}"
}

fn bytes() -> impl Strategy<Value = ByteBuf> {
    vec(any::<u8>(), 0..40).prop_map(ByteBuf::from)
}

fn account() -> impl Strategy<Value = Account> {
    (principal(), proptest::option::of(bytes()))
        .prop_map(|(owner, subaccount)| Account { owner, subaccount })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (account(), account(), nat(), proptest::option::of(nat())).prop_map(
            |(from, to, amount, fee)| Op::Transfer {
                from,
                to,
                amount,
                fee
            }
        ),
        (account(), any::<u64>()).prop_map(|(a, n)| Op::Mint(a, n)),
        Just(Op::Burn),
        account().prop_map(|a| Op::Approve(Box::new(a))),
    ]
}

fn tx() -> impl Strategy<Value = Tx> {
    (
        any::<u64>(),
        op(),
        proptest::option::of(bytes()),
        proptest::option::of(any::<u64>()),
        vec(text(), 0..4),
    )
        .prop_map(|(id, op, memo, created_at, tags)| Tx {
            id,
            op,
            memo,
            created_at,
            tags,
        })
}

fn tree() -> impl Strategy<Value = Tree> {
    any::<i64>()
        .prop_map(Tree::Leaf)
        .prop_recursive(4, 24, 4, |inner| vec(inner, 0..4).prop_map(Tree::Node))
}

fn float32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>(),
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(-0.0f32)
    ]
}

fn prims() -> impl Strategy<Value = Prims> {
    (
        (
            any::<bool>(),
            any::<i8>(),
            any::<i16>(),
            any::<i32>(),
            any::<i64>(),
            any::<u8>(),
        ),
        (
            any::<u16>(),
            any::<u32>(),
            float32(),
            any::<f64>(),
            int(),
            nat(),
        ),
        (text(), any::<u128>(), any::<i128>()),
    )
        .prop_map(
            |((a, b, c, d, e, f), (g, h, i, j, k, l), (m, o, p))| Prims {
                a,
                b,
                c,
                d,
                e,
                f,
                g,
                h,
                i,
                j,
                k,
                l,
                m,
                n: (),
                o,
                p,
            },
        )
}

fn ledger() -> impl Strategy<Value = Ledger> {
    (
        vec(tx(), 0..4),
        btree_map(text(), nat(), 0..4),
        proptest::option::of(proptest::option::of(any::<u8>())),
        prop_oneof![any::<u32>().prop_map(Ok), text().prop_map(Err)],
        (any::<i32>(), text()).prop_map(|(a, b)| Pair(a, b)),
    )
        .prop_map(|(txs, balances, nested, result, kind)| Ledger {
            txs,
            balances,
            nested,
            result,
            kind,
        })
}

// ---- the checks ----------------------------------------------------------------------

/// Decodes `bytes` (one argument) as `T` and re-encodes it; then decodes it as
/// `IDLArgs` at `T::ty()` and re-encodes that at the same type. Both must give the
/// same message.
fn typed_equals_dynamic<T>(bytes: &[u8]) -> Result<Vec<u8>, TestCaseError>
where
    T: CandidType + for<'a> Deserialize<'a>,
{
    let typed: T =
        candor::decode_one(bytes).map_err(|e| TestCaseError::fail(format!("typed: {e}")))?;
    let typed_bytes = candor::encode_one(&typed).unwrap();
    let env = TypeEnv::new();
    let types = [T::ty()];
    let dynamic = IDLArgs::from_bytes_with_types(bytes, &env, &types)
        .map_err(|e| TestCaseError::fail(format!("dynamic: {e}")))?;
    let dynamic_bytes = dynamic
        .to_bytes_with_types(&env, &types)
        .map_err(|e| TestCaseError::fail(format!("re-encode: {e}")))?;
    prop_assert_eq!(&typed_bytes, &dynamic_bytes, "{}", dynamic);
    // The dynamic value is also what `try_from_candid_type` gives.
    let v = candor::IDLValue::try_from_candid_type(&typed).unwrap();
    prop_assert_eq!(format!("{:?}", v), format!("{:?}", dynamic.args[0]));
    Ok(typed_bytes)
}

/// candor's and candid's untyped decoding print the same.
fn same_text_as_candid(bytes: &[u8]) -> Result<(), TestCaseError> {
    let ours = IDLArgs::from_bytes(bytes).unwrap();
    let theirs = candid::IDLArgs::from_bytes(bytes).unwrap();
    prop_assert_eq!(ours.to_string(), theirs.to_string());
    prop_assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    // And the untyped value re-encodes (at its own type) as candid's does.
    prop_assert_eq!(ours.to_bytes().unwrap(), theirs.to_bytes().unwrap());
    Ok(())
}

fn check<T>(value: &T) -> Result<(), TestCaseError>
where
    T: CandidType + for<'a> Deserialize<'a>,
{
    let bytes = candor::encode_one(value).unwrap();
    let again = typed_equals_dynamic::<T>(&bytes)?;
    prop_assert_eq!(&again, &bytes);
    same_text_as_candid(&bytes)
}

fn check_v1<T, V1>(value: &T) -> Result<(), TestCaseError>
where
    T: CandidType,
    V1: CandidType + for<'a> Deserialize<'a>,
{
    let bytes = candor::encode_one(value).unwrap();
    typed_equals_dynamic::<V1>(&bytes)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn account_roundtrip(v in account()) {
        check(&v)?;
        check_v1::<_, AccountV1>(&v)?;
    }

    #[test]
    fn op_roundtrip(v in op()) {
        check(&v)?;
        check_v1::<_, OpV1>(&v)?;
    }

    #[test]
    fn tx_roundtrip(v in tx()) {
        check(&v)?;
        check_v1::<_, TxV1>(&v)?;
    }

    #[test]
    fn pair_roundtrip(v in (any::<i32>(), text()).prop_map(|(a, b)| Pair(a, b))) {
        check(&v)?;
        check_v1::<_, (i32,)>(&v)?;
    }

    #[test]
    fn tree_roundtrip(v in tree()) {
        check(&v)?;
    }

    #[test]
    fn prims_roundtrip(v in prims()) {
        check(&v)?;
        check_v1::<_, PrimsV1>(&v)?;
    }

    #[test]
    fn ledger_roundtrip(v in ledger()) {
        check(&v)?;
        check_v1::<_, LedgerV1>(&v)?;
    }

    #[test]
    fn several_args(a in tx(), b in tree(), c in any::<Option<i16>>()) {
        let bytes = candor::encode_args((&a, &b, &c)).unwrap();
        let env = TypeEnv::new();
        let types = [Tx::ty(), Tree::ty(), <Option<i16>>::ty()];
        let dynamic = IDLArgs::from_bytes_with_types(&bytes, &env, &types).unwrap();
        let (ta, tb, tc): (Tx, Tree, Option<i16>) = candor::decode_args(&bytes).unwrap();
        let typed = candor::encode_args((&ta, &tb, &tc)).unwrap();
        prop_assert_eq!(dynamic.to_bytes_with_types(&env, &types).unwrap(), typed);
        same_text_as_candid(&bytes)?;
        // Fewer types than arguments: the rest is skipped; more: opt gives none.
        let fewer = IDLArgs::from_bytes_with_types(&bytes, &env, &types[..1]).unwrap();
        prop_assert_eq!(fewer.args.len(), 1);
        let more = [Tx::ty(), Tree::ty(), <Option<i16>>::ty(), <Option<String>>::ty()];
        let more = IDLArgs::from_bytes_with_types(&bytes, &env, &more).unwrap();
        prop_assert_eq!(&more.args[3], &candor::IDLValue::None);
    }
}
