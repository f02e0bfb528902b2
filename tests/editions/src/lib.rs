//! Where candid's decode and encode surface may be written, written out: every item
//! in every position a caller puts it (the tail of a function, the `match` it is
//! the scrutinee of, a `?` chain, a closure, an `async` block, an `if let`), with
//! the input buffer a local of the function that decodes it.
//!
//! That last part is the point: a decoder that borrows the buffer and still needs
//! it when it is dropped makes `Decode!(&bytes, T)` at the end of a function fail
//! to compile (`bytes` does not live long enough), since the temporaries of a
//! function's last expression are dropped after its locals (before edition 2024).
//!
//! The same source is compiled as three crates, one per edition (2018, 2021,
//! 2024), twice: in `candor/` with `candid` patched to `rust/compat/candid`, and in
//! `candid/` against the real candid 0.10.39, which shows the source is one candid
//! accepts. `cargo test` in `candor/` also runs a few of the functions.

use candid::de::IDLDeserialize;
use candid::utils::decode_args_with_config_debug;
use candid::{
    decode_args, decode_args_with_config, decode_args_with_decoding_and_skipping_quota,
    decode_args_with_decoding_quota, decode_args_with_skipping_quota, decode_one,
    decode_one_with_config, decode_one_with_decoding_and_skipping_quota,
    decode_one_with_decoding_quota, decode_one_with_skipping_quota, encode_args, encode_one,
    CandidType, Decode, DecoderConfig, Deserialize, Encode, IDLArgs, Result,
};
use std::future::Future;

/// A record with an owned field, so the decoded value borrows nothing from the input.
#[derive(CandidType, Deserialize, Debug, PartialEq, Clone)]
pub struct Account {
    pub owner: String,
    pub balance: u64,
}

/// A config with both quotas, as a canister endpoint would set.
pub fn config() -> DecoderConfig {
    let mut config = DecoderConfig::new();
    config
        .set_decoding_quota(1_000_000)
        .set_skipping_quota(10_000);
    config
}

/// The shape reported first: a stable-memory helper generic over the type, whose
/// buffer is filled by a call and decoded on the function's last line.
pub fn restore_stable<T: CandidType + for<'a> Deserialize<'a>>(stored: &[u8]) -> T {
    let mut bytes = vec![0; stored.len()];
    bytes.copy_from_slice(stored);
    Decode!(&bytes, T).unwrap()
}

/// ic-utils' shape: a `Decode!` whose error is mapped, at the end of a block.
pub fn decode_mapped(stored: &[u8]) -> std::result::Result<Account, String> {
    let bytes = stored.to_vec();
    Decode!(&bytes, Account).map_err(|e| e.to_string())
}

/// Seven functions for one surface item, in module `$m`. `$e` decodes (or encodes)
/// from the local `$b`, a copy of the input made in each function, and gives a
/// `Result<$t>`.
macro_rules! positions {
    ($m:ident: $b:ident => $e:expr, $t:ty) => {
        pub mod $m {
            #[allow(unused_imports)]
            use super::*;

            /// The function's last expression.
            pub fn tail(input: &[u8]) -> Result<$t> {
                let $b = input.to_vec();
                $e
            }

            /// The last expression, with a method called on the result.
            pub fn tail_method(input: &[u8]) -> Option<$t> {
                let $b = input.to_vec();
                $e.ok()
            }

            /// The scrutinee of a `match` that is the last expression.
            pub fn scrutinee(input: &[u8]) -> Result<$t> {
                let $b = input.to_vec();
                match $e {
                    Ok(v) => Ok(v),
                    Err(e) => Err(e),
                }
            }

            /// The scrutinee of an `if let` that is the last expression.
            pub fn if_let(input: &[u8]) -> Option<$t> {
                let $b = input.to_vec();
                if let Ok(v) = $e {
                    Some(v)
                } else {
                    None
                }
            }

            /// In a `?` chain inside the last expression.
            pub fn question(input: &[u8]) -> Result<$t> {
                let $b = input.to_vec();
                Ok($e?)
            }

            /// The last expression of a closure that owns the buffer.
            pub fn closure(input: &[u8]) -> Result<$t> {
                let f = |input: &[u8]| {
                    let $b = input.to_vec();
                    $e
                };
                f(input)
            }

            /// The last expression of an `async` block that owns the buffer.
            pub fn in_async(input: &[u8]) -> impl Future<Output = Result<$t>> {
                let input = input.to_vec();
                async move {
                    let $b = input;
                    $e
                }
            }
        }
    };
}

positions!(decode_one_type: b => Decode!(&b, Account), Account);
positions!(decode_two_types: b => Decode!(&b, Account, u64), (Account, u64));
positions!(decode_config: b => Decode!([config()]; &b, Account), Account);
positions!(decode_debug: b => Decode!(@Debug [config()]; &b, Account).map(|(v, _)| v), Account);
positions!(encode: b => Encode!(&b, &(b.len() as u64)), Vec<u8>);
positions!(encode_args_fn: b => encode_args((&b, b.len() as u64)), Vec<u8>);
positions!(encode_one_fn: b => encode_one(&b), Vec<u8>);
positions!(decode_args_fn: b => decode_args::<(Account, u64)>(&b), (Account, u64));
positions!(decode_one_fn: b => decode_one::<Account>(&b), Account);
positions!(decode_args_config: b => decode_args_with_config::<(Account,)>(&b, &config()), (Account,));
positions!(decode_one_config: b => decode_one_with_config::<Account>(&b, &config()), Account);
positions!(decode_args_debug: b => decode_args_with_config_debug::<(Account,)>(&b, &config()).map(|(v, _)| v), (Account,));
positions!(deserializer_value: b => IDLDeserialize::new(&b).and_then(|mut de| de.get_value::<Account>()), Account);
positions!(deserializer_config: b => match IDLDeserialize::new_with_config(&b, &config()) {
    Ok(ref mut de) => de.get_value::<Account>(),
    Err(e) => Err(e),
}, Account);
positions!(deserializer_match: b => match IDLDeserialize::new(&b) {
    Ok(ref mut de) => de.get_value::<Account>().and_then(|v| de.done().map(|()| v)),
    Err(e) => Err(e),
}, Account);
positions!(args_from_bytes: b => IDLArgs::from_bytes(&b), IDLArgs);
positions!(args_quota: b => Ok::<_, candid::Error>(decode_args_with_decoding_quota::<1_000_000, (Account,)>(b.clone())), (Account,));
positions!(args_skipping: b => Ok::<_, candid::Error>(decode_args_with_skipping_quota::<10_000, (Account,)>(b.clone())), (Account,));
positions!(args_both: b => Ok::<_, candid::Error>(decode_args_with_decoding_and_skipping_quota::<1_000_000, 10_000, (Account,)>(b.clone())), (Account,));
positions!(one_quota: b => Ok::<_, candid::Error>(decode_one_with_decoding_quota::<1_000_000, Account>(b.clone())), Account);
positions!(one_skipping: b => Ok::<_, candid::Error>(decode_one_with_skipping_quota::<10_000, Account>(b.clone())), Account);
positions!(one_both: b => Ok::<_, candid::Error>(decode_one_with_decoding_and_skipping_quota::<1_000_000, 10_000, Account>(b.clone())), Account);

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    fn account() -> Account {
        Account {
            owner: "alice".into(),
            balance: 42,
        }
    }

    /// Polls a future that never waits to its end.
    fn ready<F: Future>(f: F) -> F::Output {
        let mut f = pin!(f);
        match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(v) => v,
            Poll::Pending => panic!("the future waited"),
        }
    }

    #[test]
    fn decodes_in_every_position() {
        let one = Encode!(&account()).unwrap();
        let two = Encode!(&account(), &7u64).unwrap();
        assert_eq!(restore_stable::<Account>(&one), account());
        assert_eq!(decode_mapped(&one), Ok(account()));
        assert_eq!(decode_one_type::tail(&one).unwrap(), account());
        assert_eq!(decode_one_type::tail_method(&one), Some(account()));
        assert_eq!(decode_two_types::scrutinee(&two).unwrap(), (account(), 7));
        assert_eq!(decode_config::if_let(&one), Some(account()));
        assert_eq!(decode_debug::question(&one).unwrap(), account());
        assert_eq!(decode_args_fn::closure(&two).unwrap(), (account(), 7));
        assert_eq!(ready(decode_one_fn::in_async(&one)).unwrap(), account());
        assert_eq!(deserializer_match::tail(&one).unwrap(), account());
        assert_eq!(one_both::tail(&one).unwrap(), account());
        assert_eq!(args_from_bytes::tail(&two).unwrap().args.len(), 2);
        let bytes = encode::tail(&[1, 2]).unwrap();
        assert_eq!(Decode!(&bytes, Vec<u8>, u64).unwrap(), (vec![1, 2], 2));
    }

    #[test]
    fn errors_come_back_in_every_position() {
        let bad = b"DIDL\x00\x01\x71".to_vec();
        assert!(decode_one_type::tail(&bad).is_err());
        assert!(decode_config::scrutinee(&bad).is_err());
        assert!(ready(decode_debug::in_async(&bad)).is_err());
        assert!(deserializer_value::question(&bad).is_err());
    }
}
