//! The header cache keeps whole argument tuples by their one id (apart from the
//! builders' lists of argument types): a message of another tuple type must still get
//! its own header, whether it alternates with another or follows a run of one.

use candor::{decode_args, encode_args, encode_one, CandidType, Deserialize};

#[derive(CandidType, Deserialize, Debug, PartialEq)]
struct Ping {
    n: u32,
}

#[derive(CandidType, Deserialize, Debug, PartialEq)]
struct Pong {
    text: String,
}

#[test]
fn a_run_of_one_type_reuses_its_header() {
    let first = encode_one(Ping { n: 1 }).unwrap();
    for n in 2..5 {
        let again = encode_one(Ping { n }).unwrap();
        assert_eq!(again[..again.len() - 4], first[..first.len() - 4]);
        assert_eq!(candor::decode_one::<Ping>(&again).unwrap(), Ping { n });
    }
}

#[test]
fn alternating_types_each_get_their_own_header() {
    for n in 0..4u32 {
        let ping = encode_one(Ping { n }).unwrap();
        let pong = encode_one(Pong {
            text: n.to_string(),
        })
        .unwrap();
        let pair = encode_args((Ping { n }, 7u8)).unwrap();
        assert_eq!(candor::decode_one::<Ping>(&ping).unwrap(), Ping { n });
        assert_eq!(
            candor::decode_one::<Pong>(&pong).unwrap(),
            Pong {
                text: n.to_string()
            }
        );
        let (p, b): (Ping, u8) = decode_args(&pair).unwrap();
        assert_eq!((p, b), (Ping { n }, 7));
        // A one-argument tuple of `Ping` and `Ping` itself are the same message.
        assert_eq!(encode_args((Ping { n },)).unwrap(), ping);
    }
}
