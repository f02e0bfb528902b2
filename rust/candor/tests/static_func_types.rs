//! Types that hold functions and services (`define_function!`, `define_service!`,
//! bare `Func` and `Service`) have static descriptions, and both places that use
//! them give what `ty()` gives:
//! * the header written from the descriptions (the walk's one pass, or the general
//!   path) is `TypeSerialize`'s from `ty()`, and whole messages are candid
//!   0.10.39's `Encode!` bytes;
//! * the expected type placed from a description is the arena `ty()` interns
//!   (functions' argument and result lists and modes, services' methods sorted by
//!   name), so decoding gives the same values and the same errors as the `ty()`
//!   path, and the same outcomes as candid: right messages, a function of another
//!   type, a mode that differs, a service whose method differs.
//!
//! Shapes: a record with a function field, `opt` and `vec` of functions, the
//! management canister's `HttpRequestArgs` (its transform function), ICRC-3's
//! archive callback (a function whose result holds the record that holds it), the
//! HTTP gateway's streaming callback, services of several methods declared out of
//! order, one method taking the service itself, a function and a service naming
//! each other, equal function types under two Rust types and in one service, and
//! records alike in their first and last fields but not in between.

#![allow(dead_code)]

mod common;

use candid::Encode;
use candor::de::expected_arena_dump;
use candor::ser::StaticPath;
use candor::utils::ArgumentEncoder;
use candor::CandidType;

macro_rules! both {
    ($($body:tt)*) => {
        pub mod ours {
            #![allow(unused_imports, clippy::all)]
            use candor as K;
            use candor::{func, CandidType, Deserialize, Func, Nat, Principal, Service};
            $($body)*
        }
        pub mod theirs {
            #![allow(unused_imports, clippy::all)]
            use candid as K;
            use candid::{func, CandidType, Deserialize, Func, Nat, Principal, Service};
            $($body)*
        }
    };
}

both! {
    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct HttpHeader { pub name: String, pub value: String }

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub enum HttpMethod {
        #[serde(rename = "get")]
        Get,
        #[serde(rename = "head")]
        Head,
        #[serde(rename = "post")]
        Post,
    }

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct HttpRequestResult { pub status: Nat, pub headers: Vec<HttpHeader>, pub body: Vec<u8> }

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct TransformArgs { pub response: HttpRequestResult, pub context: Vec<u8> }

    K::define_function!(pub TransformFunc : (TransformArgs) -> (HttpRequestResult) query);

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct TransformContext { pub function: TransformFunc, pub context: Vec<u8> }

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct HttpRequestArgs {
        pub url: String,
        pub max_response_bytes: Option<u64>,
        pub method: HttpMethod,
        pub headers: Vec<HttpHeader>,
        pub body: Option<Vec<u8>>,
        pub transform: Option<TransformContext>,
        pub is_replicated: Option<bool>,
    }

    // ICRC-3: the archive callback's result holds the record that holds it.
    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct GetBlocksArgs { pub start: Nat, pub length: Nat }

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct BlockWithId { pub id: Nat, pub block: Vec<u8> }

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct GetBlocksResult {
        pub log_length: Nat,
        pub blocks: Vec<BlockWithId>,
        pub archived_blocks: Vec<ArchivedBlocks>,
    }

    K::define_function!(pub QueryArchiveFn : (Vec<GetBlocksArgs>) -> (GetBlocksResult) query);

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct ArchivedBlocks { pub args: Vec<GetBlocksArgs>, pub callback: QueryArchiveFn }

    // The HTTP gateway's streaming strategy.
    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct Token { pub key: String, pub index: Nat }

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct StreamingCallbackHttpResponse { pub body: Vec<u8>, pub token: Option<Token> }

    K::define_function!(pub StreamingCallback : (Token) -> (StreamingCallbackHttpResponse) query);

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub enum StreamingStrategy { Callback { callback: StreamingCallback, token: Token } }

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct HttpResponse {
        pub status_code: u16,
        pub headers: Vec<(String, String)>,
        pub body: Vec<u8>,
        pub streaming_strategy: Option<StreamingStrategy>,
    }

    // Modes, and functions of one shape under two Rust types.
    K::define_function!(pub Unit : () -> ());
    K::define_function!(pub QueryU8 : (u8) -> () query);
    K::define_function!(pub UpdateU8 : (u8) -> ());
    K::define_function!(pub OtherU8 : (u8) -> ());
    K::define_function!(pub Composite : (u8, String) -> (Option<u8>) composite_query);
    K::define_function!(pub Oneway : (Vec<u8>) -> () oneway);
    K::define_function!(pub Borrowed : (u8, &str) -> (Nat) query);

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct WithFunc { pub n: u8, pub f: UpdateU8, pub g: Option<UpdateU8>, pub h: OtherU8 }

    // Services: methods out of order, one naming its own service, paths on `func!`.
    K::define_service!(pub Svc : {
        "subscribe" : func!((Svc, Option<Svc>) -> ());
        "get" : K::func!((u8) -> (String) query);
        "notify" : func!((Oneway) -> () oneway);
        "count" : func!(() -> (u64) composite_query);
    });
    // Two methods of one type, which share an entry.
    K::define_service!(pub Twins : { "b" : func!((u8) -> ()); "a" : func!((u8) -> ()); });
    // A function and a service naming each other.
    K::define_function!(pub Callback : (Registry) -> (Option<Callback>));
    K::define_service!(pub Registry : { "register" : func!((Callback) -> (Registry)) });
    // The same names and method shapes but another type of argument.
    K::define_service!(pub SvcOther : {
        "subscribe" : func!((Svc, Option<Svc>) -> ());
        "get" : K::func!((u16) -> (String) query);
        "notify" : func!((Oneway) -> () oneway);
        "count" : func!(() -> (u64) composite_query);
    });

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct Services { pub svc: Svc, pub twins: Vec<Twins>, pub registry: Option<Registry>, pub f: Callback }

    // Alike in their keys (first and last fields) but not in between: the general
    // header path.
    K::define_function!(pub Mid8 : (u8, u8, u8) -> ());
    K::define_function!(pub Mid16 : (u8, u16, u8) -> ());

    #[derive(CandidType, Deserialize, Debug, Clone, PartialEq)]
    pub struct Alike { pub a: Mid8, pub b: Mid16, pub c: (Unit, u8, Unit), pub d: (Unit, u16, Unit) }
}

/// The arena `T` places from its description is the one `ty()` interns.
fn same_arena<T: CandidType + ?Sized>() {
    let name = std::any::type_name::<T>();
    let from_static = expected_arena_dump::<T>(true)
        .unwrap_or_else(|| panic!("{name}: no complete static description"));
    let from_ty = expected_arena_dump::<T>(false).expect("ty() interns");
    assert_eq!(from_static, from_ty, "{name}");
}

/// The header of `Tuple` from the descriptions (which must give one) is `ty()`'s;
/// the way it was written.
fn path<Tuple: ArgumentEncoder>() -> StaticPath {
    common::static_header::<Tuple>();
    Tuple::_described_header().expect("a static header").1
}

fn principal(n: u8) -> candor::Principal {
    candor::Principal::from_slice(&[n, 1, 2])
}

fn their_principal(n: u8) -> candid::Principal {
    candid::Principal::from_slice(&[n, 1, 2])
}

/// Values of the same shape in both crates, `$n` choosing the principals.
macro_rules! values {
    ($k:ident, $p:ident, $n:expr) => {{
        use $k::*;
        let header = |n: &str| HttpHeader {
            name: n.into(),
            value: "v".repeat(3),
        };
        let response = HttpRequestResult {
            status: 200u32.into(),
            headers: vec![header("a"), header("b")],
            body: b"ok".to_vec(),
        };
        let request = HttpRequestArgs {
            url: "https://example.org".into(),
            max_response_bytes: Some(2000),
            method: HttpMethod::Post,
            headers: vec![header("content-type")],
            body: Some(vec![1, 2, 3]),
            transform: Some(TransformContext {
                function: TransformFunc::new($p($n), "transform".into()),
                context: vec![9],
            }),
            is_replicated: None,
        };
        let archived = ArchivedBlocks {
            args: vec![GetBlocksArgs {
                start: 5u32.into(),
                length: 7u32.into(),
            }],
            callback: QueryArchiveFn::new($p($n + 1), "get_blocks".into()),
        };
        let blocks = GetBlocksResult {
            log_length: 12u32.into(),
            blocks: vec![BlockWithId {
                id: 1u32.into(),
                block: vec![4, 5],
            }],
            archived_blocks: vec![archived.clone()],
        };
        let token = Token {
            key: "k".into(),
            index: 3u32.into(),
        };
        let http = HttpResponse {
            status_code: 200,
            headers: vec![("a".into(), "b".into())],
            body: vec![0; 4],
            streaming_strategy: Some(StreamingStrategy::Callback {
                callback: StreamingCallback::new($p($n + 2), "next".into()),
                token,
            }),
        };
        let with_func = WithFunc {
            n: 4,
            f: UpdateU8::new($p($n), "f".into()),
            g: Some(UpdateU8::new($p($n + 1), "g".into())),
            h: OtherU8::new($p($n + 2), String::new()),
        };
        let services = Services {
            svc: Svc::new($p($n)),
            twins: vec![Twins::new($p($n + 1)), Twins::new($p($n + 2))],
            registry: Some(Registry::new($p($n + 3))),
            f: Callback::new($p($n + 4), "cb".into()),
        };
        let alike = Alike {
            a: Mid8::new($p($n), "a".into()),
            b: Mid16::new($p($n), "b".into()),
            c: (
                Unit::new($p(1), "c".into()),
                1,
                Unit::new($p(2), "d".into()),
            ),
            d: (
                Unit::new($p(3), "e".into()),
                2,
                Unit::new($p(4), "f".into()),
            ),
        };
        (
            request, response, blocks, archived, http, with_func, services, alike,
        )
    }};
}

#[test]
fn descriptions_place_the_arenas_ty_interns() {
    use ours::*;
    same_arena::<TransformFunc>();
    same_arena::<TransformContext>();
    same_arena::<HttpRequestArgs>();
    same_arena::<Option<TransformFunc>>();
    same_arena::<Vec<Option<QueryU8>>>();
    same_arena::<GetBlocksResult>();
    same_arena::<ArchivedBlocks>();
    same_arena::<QueryArchiveFn>();
    same_arena::<HttpResponse>();
    same_arena::<WithFunc>();
    same_arena::<Composite>();
    same_arena::<Oneway>();
    same_arena::<Borrowed>();
    same_arena::<Svc>();
    same_arena::<Twins>();
    same_arena::<Registry>();
    same_arena::<Callback>();
    same_arena::<Services>();
    same_arena::<Alike>();
    same_arena::<(candor::Func, candor::Service, Option<candor::Func>)>();
}

#[test]
fn headers_from_descriptions_are_ty_s() {
    use ours::*;
    use StaticPath::{General, OnePass};
    assert_eq!(path::<(HttpRequestArgs,)>(), OnePass);
    assert_eq!(path::<(TransformFunc,)>(), OnePass);
    assert_eq!(path::<(Option<TransformFunc>, u8)>(), OnePass);
    assert_eq!(path::<(TransformArgs, TransformContext)>(), OnePass);
    assert_eq!(path::<(GetBlocksResult,)>(), OnePass);
    assert_eq!(path::<(ArchivedBlocks, GetBlocksResult)>(), OnePass);
    assert_eq!(path::<(HttpResponse,)>(), OnePass);
    // `f`, `g` and `h` are one type: `h` (another Rust type) takes `f`'s entry.
    assert_eq!(path::<(WithFunc,)>(), OnePass);
    assert_eq!(
        path::<(QueryU8, UpdateU8, OtherU8, Composite, Oneway)>(),
        OnePass
    );
    assert_eq!(path::<(Svc,)>(), OnePass);
    assert_eq!(path::<(Twins, Svc, SvcOther)>(), OnePass);
    assert_eq!(path::<(Registry,)>(), OnePass);
    assert_eq!(path::<(Callback, Registry)>(), OnePass);
    assert_eq!(path::<(Services,)>(), OnePass);
    assert_eq!(path::<(candor::Func, candor::Service)>(), OnePass);
    assert_eq!(path::<(Alike,)>(), General);
    assert_eq!(path::<(Alike, Services, HttpRequestArgs)>(), General);
}

/// Each value's message, from each crate: the same bytes.
#[test]
fn messages_are_candid_s() {
    let o = values!(ours, principal, 10);
    let t = values!(theirs, their_principal, 10);
    macro_rules! same {
        ($($i:tt),*) => {$(
            assert_eq!(
                candor::Encode!(&o.$i).unwrap(),
                candid::Encode!(&t.$i).unwrap(),
                "value {}", $i
            );
        )*};
    }
    same!(0, 1, 2, 3, 4, 5, 6, 7);
    assert_eq!(
        candor::Encode!(&o.0, &o.6, &o.2, &o.7).unwrap(),
        candid::Encode!(&t.0, &t.6, &t.2, &t.7).unwrap()
    );
}

/// `T` with no static description: decoded at the arena `ty()` interns.
#[derive(Debug, PartialEq)]
struct TyOnly<T>(T);

impl<T: CandidType> CandidType for TyOnly<T> {
    fn _ty() -> candor::types::Type {
        T::ty()
    }
    fn idl_serialize<S: candor::types::Serializer>(&self, s: S) -> Result<(), S::Error> {
        self.0.idl_serialize(s)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for TyOnly<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(TyOnly)
    }
}

/// `bytes` decoded as `T` (placed from its description) and as `TyOnly<T>`: the
/// same value or the same error text; and by candid as `U`: both succeed (the
/// values re-encoding to the same bytes) or both fail.
fn decode_all<T, U>(bytes: &[u8]) -> bool
where
    T: CandidType + for<'de> serde::Deserialize<'de> + PartialEq + std::fmt::Debug,
    U: candid::CandidType + for<'de> serde::Deserialize<'de>,
{
    let name = std::any::type_name::<T>();
    assert!(T::_static_type().is_some(), "{name}: no description");
    let placed = candor::decode_one::<T>(bytes);
    let interned = candor::decode_one::<TyOnly<T>>(bytes);
    match (&placed, &interned) {
        (Ok(a), Ok(b)) => assert_eq!(a, &b.0, "{name}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{name}"),
        _ => panic!("{name}: placed {placed:?}, interned {interned:?}"),
    }
    let theirs = candid::decode_one::<U>(bytes);
    match (placed, theirs) {
        (Ok(a), Ok(b)) => {
            assert_eq!(
                candor::encode_one(&a).unwrap(),
                candid::encode_one(&b).unwrap(),
                "{name}"
            );
            true
        }
        (Err(_), Err(_)) => false,
        (a, b) => panic!("{name}: candor {a:?}, candid {:?}", b.map(|_| ())),
    }
}

/// Decodes a message as one type both ways (`decode_all`).
type Decoder = fn(&[u8]) -> bool;

#[test]
fn decoding_gives_candid_s_outcomes_and_ty_s_values_and_errors() {
    let o = values!(ours, principal, 20);
    macro_rules! ok {
        ($v:expr => $t:ident) => {
            assert!(
                decode_all::<ours::$t, theirs::$t>(&candor::encode_one(&$v).unwrap()),
                "{} decodes",
                stringify!($t)
            );
        };
    }
    ok!(o.0 => HttpRequestArgs);
    ok!(o.2 => GetBlocksResult);
    ok!(o.3 => ArchivedBlocks);
    ok!(o.4 => HttpResponse);
    ok!(o.5 => WithFunc);
    ok!(o.6 => Services);
    ok!(o.7 => Alike);

    use ours::*;
    let p = principal(1);
    // Each message is encoded by candor (the bytes are candid's, above) and decoded
    // as another type: `true` where candid decodes it too.
    let cases: Vec<(Vec<u8>, Decoder, bool)> = vec![
        // A function of another type.
        (
            candor::encode_one(Unit::new(p, "m".into())).unwrap(),
            |b| decode_all::<TransformFunc, theirs::TransformFunc>(b),
            false,
        ),
        (
            candor::encode_one(QueryU8::new(p, "m".into())).unwrap(),
            |b| decode_all::<Composite, theirs::Composite>(b),
            false,
        ),
        // The same arguments, another mode, both ways.
        (
            candor::encode_one(QueryU8::new(p, "m".into())).unwrap(),
            |b| decode_all::<UpdateU8, theirs::UpdateU8>(b),
            false,
        ),
        (
            candor::encode_one(UpdateU8::new(p, "m".into())).unwrap(),
            |b| decode_all::<QueryU8, theirs::QueryU8>(b),
            false,
        ),
        // The same type under another Rust type.
        (
            candor::encode_one(UpdateU8::new(p, "m".into())).unwrap(),
            |b| decode_all::<OtherU8, theirs::OtherU8>(b),
            true,
        ),
        // Under `opt`: a mismatch is `null`.
        (
            candor::encode_one(Some(QueryU8::new(p, "m".into()))).unwrap(),
            |b| decode_all::<Option<UpdateU8>, Option<theirs::UpdateU8>>(b),
            true,
        ),
        // A service whose method takes another type; its own type; one with fewer
        // methods.
        (
            candor::encode_one(SvcOther::new(p)).unwrap(),
            |b| decode_all::<Svc, theirs::Svc>(b),
            false,
        ),
        (
            candor::encode_one(Svc::new(p)).unwrap(),
            |b| decode_all::<Svc, theirs::Svc>(b),
            true,
        ),
        (
            candor::encode_one(Twins::new(p)).unwrap(),
            |b| decode_all::<Svc, theirs::Svc>(b),
            false,
        ),
        (
            candor::encode_one(Registry::new(p)).unwrap(),
            |b| decode_all::<Option<Registry>, Option<theirs::Registry>>(b),
            true,
        ),
        // A transform of another function type inside the request.
        (
            {
                // `transform` as `opt record { function : func () -> (); context : blob }`.
                #[derive(CandidType)]
                struct Ctx {
                    function: Unit,
                    context: Vec<u8>,
                }
                #[derive(CandidType)]
                struct Req {
                    url: String,
                    transform: Option<Ctx>,
                    method: HttpMethod,
                    headers: Vec<HttpHeader>,
                }
                candor::encode_one(Req {
                    url: "u".into(),
                    transform: Some(Ctx {
                        function: Unit::new(p, "t".into()),
                        context: vec![],
                    }),
                    method: HttpMethod::Get,
                    headers: vec![],
                })
                .unwrap()
            },
            |b| decode_all::<HttpRequestArgs, theirs::HttpRequestArgs>(b),
            true,
        ),
    ];
    for (i, (bytes, decode, expected)) in cases.into_iter().enumerate() {
        assert_eq!(decode(&bytes), expected, "case {i}");
    }
}

#[test]
fn services_of_other_methods_keep_the_ty_path() {
    candor::define_function!(Lone : (u8) -> ());
    // A method whose type is not a `func!`: no description.
    candor::define_service!(Computed : { "f" : Lone::ty() });
    assert!(Computed::_static_type().is_none());
    // A name given twice: no description (`ty()` panics on it, as candid's does).
    candor::define_service!(Twice : { "f" : candor::func!(() -> ()); "f" : candor::func!((u8) -> ()) });
    assert!(Twice::_static_type().is_none());
    // Both keep `ty()`'s header.
    let (from_static, from_ty) = candor::ser::headers_both_ways::<(Computed,)>();
    assert!(from_static.is_none());
    assert!(from_ty.is_ok());
}
