//! Values as canisters keep them in `ic-stable-structures` maps: a type implements
//! `Storable` by encoding itself with `Encode!` and decoding with `Decode!`, and every
//! insert or read of the map goes through those two functions. The same values are also
//! stored as CBOR with ciborium (the `Cbor` wrapper), the codec such canisters most often
//! use instead, so the report sets candor (or candid) beside it on identical data.
//!
//! Scopes: "1. Encoding" and "2. Decoding" call the value's own `Storable` impl
//! (`to_bytes`, `from_bytes`) on every value of the workload; "5. CBOR encoding" and
//! "6. CBOR decoding" do the same through `Cbor<T>`'s impl. A map is read and written
//! many times in a canister's life, so each workload converts many values (the type
//! caches are warm after the first): divide by the count for one value.

use crate::lib::{CandidType, Decode, Deserialize, Encode, Principal};
use canbench_rs::{bench, bench_fn, bench_scope, BenchResult};
use ic_stable_structures::storable::{Bound, Storable};
use serde::Serialize;
use std::borrow::Cow;

/// Values per workload with a small struct.
const SMALL: u64 = 1_000;
/// Values per workload with ~10 KB of content each.
const LARGE: u64 = 100;
/// Bytes of text in a large value's body.
const BODY: usize = 10_000;

/// A user's profile: the small record a canister keeps per principal.
#[derive(CandidType, Deserialize, Serialize, Clone, PartialEq, Debug)]
pub struct Profile {
    pub owner: Principal,
    pub name: String,
    pub email: Option<String>,
    pub balance: u64,
    pub created_at: u64,
    pub verified: bool,
}

/// A stored document: a few fields around ~10 KB of text.
#[derive(CandidType, Deserialize, Serialize, Clone, PartialEq, Debug)]
pub struct Document {
    pub id: u64,
    pub owner: Principal,
    pub title: String,
    pub body: String,
    pub tags: Vec<String>,
    pub created_at: u64,
    pub updated_at: Option<u64>,
}

fn principal(i: u64) -> Principal {
    Principal::from_slice(&(0x0100_0000_0000_0000 | i).to_be_bytes())
}

fn profile(i: u64) -> Profile {
    Profile {
        owner: principal(i),
        name: format!("user-{i}"),
        email: i.is_multiple_of(2).then(|| format!("user{i}@example.org")),
        balance: i * 1_000_003,
        created_at: 1_700_000_000_000_000_000 + i,
        verified: i.is_multiple_of(3),
    }
}

fn document(i: u64) -> Document {
    // Printable ASCII text whose bytes vary with the document and the position.
    let body: String = (0..BODY)
        .map(|k| char::from(b' ' + ((k as u64 * 7 + i) % 95) as u8))
        .collect();
    Document {
        id: i,
        owner: principal(i),
        title: format!("Document {i}"),
        body,
        tags: vec!["draft".into(), format!("team-{}", i % 4), "notes".into()],
        created_at: 1_700_000_000_000_000_000 + i,
        updated_at: (i % 2 == 1).then_some(1_700_000_100_000_000_000 + i),
    }
}

/// `Storable` the way canisters write it for a Candid-encoded value.
macro_rules! candid_storable {
    ($t:ty) => {
        impl Storable for $t {
            fn to_bytes(&self) -> Cow<'_, [u8]> {
                Cow::Owned(Encode!(self).unwrap())
            }
            fn into_bytes(self) -> Vec<u8> {
                Encode!(&self).unwrap()
            }
            fn from_bytes(bytes: Cow<'_, [u8]>) -> Self {
                Decode!(bytes.as_ref(), Self).unwrap()
            }
            const BOUND: Bound = Bound::Unbounded;
        }
    };
}

candid_storable!(Profile);
candid_storable!(Document);

/// The same value stored as CBOR (ciborium), as canisters that avoid Candid in stable
/// memory write it.
#[derive(Clone, PartialEq, Debug)]
pub struct Cbor<T>(pub T);

impl<T: Serialize + for<'de> Deserialize<'de>> Storable for Cbor<T> {
    fn to_bytes(&self) -> Cow<'_, [u8]> {
        let mut out = Vec::new();
        ciborium::into_writer(&self.0, &mut out).unwrap();
        Cow::Owned(out)
    }
    fn into_bytes(self) -> Vec<u8> {
        self.to_bytes().into_owned()
    }
    fn from_bytes(bytes: Cow<'_, [u8]>) -> Self {
        Cbor(ciborium::from_reader(bytes.as_ref()).unwrap())
    }
    const BOUND: Bound = Bound::Unbounded;
}

/// Stores and loads every value with its own `Storable` impl (scopes 1 and 2), then as
/// CBOR (scopes 5 and 6); both round trips are checked before measuring.
fn storable<T>(values: Vec<T>) -> BenchResult
where
    T: Storable + Serialize + for<'de> Deserialize<'de> + Clone + PartialEq + std::fmt::Debug,
{
    let first = values[0].clone();
    assert_eq!(T::from_bytes(first.to_bytes()), first);
    let cbor = Cbor(first);
    assert_eq!(Cbor::<T>::from_bytes(cbor.to_bytes()), cbor);
    let wrapped: Vec<Cbor<T>> = values.iter().cloned().map(Cbor).collect();
    bench_fn(|| {
        let stored: Vec<Vec<u8>> = {
            let _p = bench_scope("1. Encoding");
            values.iter().map(|v| v.to_bytes().into_owned()).collect()
        };
        {
            let _p = bench_scope("2. Decoding");
            for bytes in &stored {
                crate::keep(T::from_bytes(Cow::Borrowed(bytes)));
            }
        }
        let stored: Vec<Vec<u8>> = {
            let _p = bench_scope("5. CBOR encoding");
            wrapped.iter().map(|v| v.to_bytes().into_owned()).collect()
        };
        {
            let _p = bench_scope("6. CBOR decoding");
            for bytes in &stored {
                crate::keep(Cbor::<T>::from_bytes(Cow::Borrowed(bytes)));
            }
        }
    })
}

/// 1,000 profiles of six fields each.
#[bench(raw)]
fn storable_small() -> BenchResult {
    storable((0..SMALL).map(profile).collect())
}

/// 100 documents of ~10 KB each.
#[bench(raw)]
fn storable_10k() -> BenchResult {
    storable((0..LARGE).map(document).collect())
}
