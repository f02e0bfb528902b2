//! Writes a small seed corpus of valid messages for the decoding targets:
//! `cargo run --example seed -- corpus/decode` (from `fuzz/`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use candor::{Int, Nat, Principal, Reserved};
use candor_fuzz::differential::ours::{Account, Reply, Transfer};
use candor_fuzz::{List, Part, Rec, Shape, Tree, Val};

fn rec(n: u32) -> Rec {
    Rec {
        id: Nat::from(u128::MAX) * Nat::from(n + 1),
        delta: Int::from(-(n as i64) - 1),
        owner: Principal::from_slice(&[n as u8; 10]),
        name: format!("rec{n}"),
        flag: n.is_multiple_of(2),
        small: -3,
        ratio: 0.5,
        tags: vec!["a".into(), "bb".into()],
        matrix: vec![vec![1, -1], vec![], vec![i16::MAX]],
        attrs: BTreeMap::from([("k".to_string(), vec![Some(1), None])]),
        maybe: Some(Some(Shape::Rect { w: 1, h: 2 })),
        shapes: vec![
            Shape::Empty,
            Shape::Circle(1.5),
            Shape::Tagged("t".into(), vec![1, 2, 3]),
            Shape::Nested(Some(Box::new(Shape::Empty))),
        ],
        blob: vec![0xff; n as usize],
        tree: Tree::Node {
            left: Box::new(Tree::Leaf(1)),
            right: Box::new(Tree::Many(vec![Tree::Leaf(2), Tree::Leaf(3)])),
        },
        list: Some(Box::new(List {
            head: 1,
            tail: Some(Box::new(List {
                head: 2,
                tail: None,
            })),
        })),
        pair: (7, Some(Int::from(-7))),
        ignored: Reserved,
    }
}

fn part() -> Part {
    Part {
        purpose: Some(true),
        data: BTreeMap::from([
            ("tag".to_string(), Val::Text("anime".into())),
            ("n".to_string(), Val::Small(4)),
        ]),
        tags: vec![(1, "x".into())],
        owner: Principal::from_slice(&[1, 2, 3]),
    }
}

fn transfer() -> Transfer {
    Transfer {
        to: Account {
            owner: Principal::from_slice(&[4; 29]),
            subaccount: Some(serde_bytes::ByteBuf::from(vec![1; 32])),
        },
        fee: Some(Nat::from(10_000u32)),
        memo: Some(serde_bytes::ByteBuf::from(b"invoice 7".to_vec())),
        from_subaccount: None,
        created_at_time: Some(1_700_000_000_000_000_000),
        amount: Nat::from(1_000_000u32),
    }
}

fn main() -> std::io::Result<()> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or("corpus/decode".into()));
    std::fs::create_dir_all(&dir)?;
    let list = List {
        head: 0,
        tail: Some(Box::new(List {
            head: -1,
            tail: None,
        })),
    };
    let seeds: Vec<Vec<u8>> = vec![
        candor::encode_one(42u64).unwrap(),
        candor::encode_one("hello").unwrap(),
        candor::encode_one(vec![1u8, 2, 3]).unwrap(),
        candor::encode_one(serde_bytes::ByteBuf::from(vec![9u8; 8])).unwrap(),
        candor::encode_one(vec![1u64, u64::MAX]).unwrap(),
        candor::encode_one(Some(Box::new(list))).unwrap(),
        candor::encode_one(None::<Box<List>>).unwrap(),
        candor::encode_one(rec(0)).unwrap(),
        candor::encode_one(rec(3)).unwrap(),
        candor::encode_one(BTreeMap::from([("x".to_string(), Nat::from(5u8))])).unwrap(),
        candor::encode_args((Reserved,)).unwrap(),
        candor::encode_args((1u8, "s", Some(rec(1)), vec![Shape::Empty], Tree::Leaf(0))).unwrap(),
        candor::encode_args(()).unwrap(),
        b"DIDL\x00\x00".to_vec(),
        // Shapes with a direct path (the `direct` target).
        candor::encode_one(vec![-1i16, 2, i16::MIN]).unwrap(),
        candor::encode_one(vec![0.5f64, -0.0]).unwrap(),
        candor::encode_one(vec![true, false]).unwrap(),
        candor::encode_one(vec!["a".to_string(), String::new()]).unwrap(),
        candor::encode_one(vec![Nat::from(1u8), Nat::from(u128::MAX) * Nat::from(3u8)]).unwrap(),
        candor::encode_one(vec![Int::from(-5i64), Int::from(i128::MIN)]).unwrap(),
        candor::encode_one(vec![vec![1u32], vec![], vec![2, 3]]).unwrap(),
        // Types whose header the compiler writes (the `known` target).
        candor::encode_one(part()).unwrap(),
        candor::encode_one(Val::Wide(u128::MAX)).unwrap(),
        candor::encode_one(vec![Some((1u8, "a".to_string())), None]).unwrap(),
        // The `differential` target's own shapes: ICRC-1 transfer arguments, a
        // variant with a record case, `Result`.
        candor::encode_one(transfer()).unwrap(),
        candor::encode_one(Reply::Err {
            code: 3,
            message: "busy".into(),
        })
        .unwrap(),
        candor::encode_one(Ok::<_, String>(vec![Shape::Circle(2.0)])).unwrap(),
        candor::encode_args((7u8, Some(transfer().to), vec![Shape::Empty])).unwrap(),
    ];
    for (i, s) in seeds.iter().enumerate() {
        std::fs::write(dir.join(format!("seed-{i:02}")), s)?;
    }
    println!("wrote {} seeds to {}", seeds.len(), dir.display());
    Ok(())
}
