//! Each record's field span is reserved before its fields' types are interned, in
//! the placing path (static descriptions) and the `ty()` path alike: the two stay
//! node for node and field for field the same where the derive's guarantees do
//! not hold. Hand-written descriptions list fields out of id order around nested
//! and recursive records (the span is sorted after the records inside it were
//! placed), and one nests a collision below records already reserved (the placing
//! undoes them and `ty()` reports it). Values of such types decode as candid 0.10.39
//! decodes the same bytes into the same Rust type's twin.

use candor::de::expected_arena_dump;
use candor::types::static_type::{link, StaticField, StaticKind, StaticLabel};
use candor::types::{Field, Label, Serializer, StaticType, Type, TypeInner};
use candor::{CandidType, Deserialize};

fn field(name: &str, ty: Type) -> Field {
    Field {
        id: Label::Named(name.to_string()).into(),
        ty,
    }
}

/// `record { zeta : record { nat8; bool }; alpha : opt Outer; mid : Inner }`, in
/// that order, `alpha` reaching `Outer` itself.
#[derive(Deserialize, Debug, PartialEq)]
struct Outer {
    zeta: (u8, bool),
    alpha: Option<Box<Outer>>,
    mid: Inner,
}

/// `record { b : text; a : vec record { nat16; text } }`, in that order.
#[derive(Deserialize, Debug, PartialEq)]
struct Inner {
    b: String,
    a: Vec<(u16, String)>,
}

impl CandidType for Outer {
    fn _ty() -> Type {
        TypeInner::Record(vec![
            field("zeta", <(u8, bool)>::ty()),
            field("alpha", Option::<Box<Outer>>::ty()),
            field("mid", Inner::ty()),
        ])
        .into()
    }
    fn _static_type() -> Option<&'static StaticType> {
        Some(
            const {
                &StaticType {
                    owner: Some(<Outer as CandidType>::id),
                    kind: StaticKind::Record(&[
                        StaticField::named("zeta", link::<(u8, bool)>()),
                        StaticField::named("alpha", link::<Option<Box<Outer>>>()),
                        StaticField::named("mid", link::<Inner>()),
                    ]),
                }
            },
        )
    }
    fn idl_serialize<S: Serializer>(&self, s: S) -> Result<(), S::Error> {
        s.serialize_null(())
    }
}

impl CandidType for Inner {
    fn _ty() -> Type {
        TypeInner::Record(vec![
            field("b", String::ty()),
            field("a", Vec::<(u16, String)>::ty()),
        ])
        .into()
    }
    fn _static_type() -> Option<&'static StaticType> {
        Some(
            const {
                &StaticType {
                    owner: Some(<Inner as CandidType>::id),
                    kind: StaticKind::Record(&[
                        StaticField::named("b", link::<String>()),
                        StaticField::named("a", link::<Vec<(u16, String)>>()),
                    ]),
                }
            },
        )
    }
    fn idl_serialize<S: Serializer>(&self, s: S) -> Result<(), S::Error> {
        s.serialize_null(())
    }
}

/// `record { ok : record { nat8; text }; deep : variant { x : nat8; x : bool } }`:
/// the collision is below a record reserved before it.
#[derive(Deserialize)]
#[allow(dead_code)] // decoded only to see it refused
struct DeepCollision {
    ok: (u8, String),
}

/// The variant with two cases of one id.
struct Twice;

impl CandidType for Twice {
    fn _ty() -> Type {
        TypeInner::Variant(vec![field("x", u8::ty()), field("x", bool::ty())]).into()
    }
    fn _static_type() -> Option<&'static StaticType> {
        Some(
            const {
                &StaticType {
                    owner: Some(<Twice as CandidType>::id),
                    kind: StaticKind::Variant(&[
                        StaticField::named("x", link::<u8>()),
                        StaticField::named("x", link::<bool>()),
                    ]),
                }
            },
        )
    }
    fn idl_serialize<S: Serializer>(&self, s: S) -> Result<(), S::Error> {
        s.serialize_null(())
    }
}

impl CandidType for DeepCollision {
    fn _ty() -> Type {
        TypeInner::Record(vec![
            field("ok", <(u8, String)>::ty()),
            field("deep", Twice::ty()),
        ])
        .into()
    }
    fn _static_type() -> Option<&'static StaticType> {
        Some(
            const {
                &StaticType {
                    owner: Some(<DeepCollision as CandidType>::id),
                    kind: StaticKind::Record(&[
                        StaticField::named("ok", link::<(u8, String)>()),
                        StaticField::new(
                            candor::idl_hash("deep"),
                            StaticLabel::Named("deep"),
                            link::<Twice>(),
                        ),
                    ]),
                }
            },
        )
    }
    fn idl_serialize<S: Serializer>(&self, s: S) -> Result<(), S::Error> {
        s.serialize_null(())
    }
}

/// The same Candid types, derived on the real candid, to write the messages.
mod twin {
    use candid::{CandidType, Deserialize};

    #[derive(CandidType, Deserialize)]
    pub struct Outer {
        pub zeta: (u8, bool),
        pub alpha: Option<Box<Outer>>,
        pub mid: Inner,
    }

    /// `Outer` without `mid`.
    #[derive(CandidType)]
    pub struct Short {
        pub zeta: (u8, bool),
        pub alpha: Option<Box<Outer>>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Inner {
        pub b: String,
        pub a: Vec<(u16, String)>,
    }
}

fn same<T: CandidType + ?Sized>() {
    let name = std::any::type_name::<T>();
    let from_static = expected_arena_dump::<T>(true).unwrap_or_else(|| panic!("{name}"));
    let from_ty = expected_arena_dump::<T>(false).expect("ty() interns");
    assert_eq!(from_static, from_ty, "{name}");
}

#[test]
fn out_of_order_fields_around_nested_and_recursive_records_intern_alike() {
    same::<Outer>();
    same::<Inner>();
    same::<(Inner, Outer)>();
    same::<Vec<Option<Outer>>>();
    same::<Result<Outer, Inner>>();
}

#[test]
fn a_collision_below_reserved_records_is_undone_and_reported() {
    assert!(expected_arena_dump::<DeepCollision>(true).is_none());
    assert!(expected_arena_dump::<DeepCollision>(false).is_none());
    // Placed first, a sound type after the failed one is whole.
    let bytes = candor::Encode!(&(7u8, "x".to_string())).unwrap();
    let err = candor::Decode!(&bytes, DeepCollision)
        .map(|_| ())
        .unwrap_err();
    assert!(err.to_string().contains("field id collision"), "{err}");
    same::<Outer>();
}

#[test]
fn out_of_order_types_decode_as_candid_decodes_their_twins() {
    let msg = twin::Outer {
        zeta: (3, true),
        alpha: Some(Box::new(twin::Outer {
            zeta: (4, false),
            alpha: None,
            mid: twin::Inner {
                b: "in".into(),
                a: vec![(1, "one".into())],
            },
        })),
        mid: twin::Inner {
            b: "out".into(),
            a: vec![(2, "two".into()), (3, "three".into())],
        },
    };
    let bytes = candid::encode_one(&msg).unwrap();
    let got = candor::Decode!(&bytes, Outer).unwrap();
    let want = Outer {
        zeta: (3, true),
        alpha: Some(Box::new(Outer {
            zeta: (4, false),
            alpha: None,
            mid: Inner {
                b: "in".into(),
                a: vec![(1, "one".into())],
            },
        })),
        mid: Inner {
            b: "out".into(),
            a: vec![(2, "two".into()), (3, "three".into())],
        },
    };
    assert_eq!(got, want);
    // candid accepts and rejects as candor does: a message missing `mid`.
    let short = candid::encode_one(twin::Short {
        zeta: (1, true),
        alpha: None,
    })
    .unwrap();
    assert!(candid::decode_one::<twin::Outer>(&short).is_err());
    assert!(candor::Decode!(&short, Outer).is_err());
}
