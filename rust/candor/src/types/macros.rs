//! Macros that build types by hand, for `CandidType` impls written without the
//! derive: `field!`, `record!`, `variant!` (candid's syntax).

/// A record field or variant case: `field!{ a: TypeInner::Nat.into() }` is labelled
/// by name, `field!{ 0: <u8>::ty() }` by number.
#[macro_export]
macro_rules! field {
    { $id:tt : $ty:expr } => {{
        $crate::types::Field {
            id: ::std::rc::Rc::new(match ::std::stringify!($id).parse::<u32>() {
                ::core::result::Result::Ok(n) => $crate::types::Label::Id(n),
                ::core::result::Result::Err(_) => {
                    $crate::types::Label::Named(::std::stringify!($id).to_string())
                }
            }),
            ty: $ty,
        }
    }};
}

/// A record type: `record!{ name: String::ty(); 42: u8::ty() }`. Fields are sorted by
/// id; two fields with one id panic (a type, not input, is wrong).
#[macro_export]
macro_rules! record {
    { $($id:tt : $ty:expr);* $(;)? } => {{
        let mut fs: ::std::vec::Vec<$crate::types::Field> = ::std::vec![$($crate::field!{ $id : $ty }),*];
        fs.sort_unstable_by_key(|f| f.id.get_id());
        if let ::core::result::Result::Err(e) = $crate::utils::check_unique(fs.iter().map(|f| &f.id)) {
            ::std::panic!("{}", e);
        }
        ::core::convert::Into::<$crate::types::Type>::into($crate::types::TypeInner::Record(fs))
    }};
}

/// A variant type: `variant!{ ok: u8::ty(); err: String::ty() }`, cases sorted by id.
#[macro_export]
macro_rules! variant {
    { $($id:tt : $ty:expr);* $(;)? } => {{
        let mut fs: ::std::vec::Vec<$crate::types::Field> = ::std::vec![$($crate::field!{ $id : $ty }),*];
        fs.sort_unstable_by_key(|f| f.id.get_id());
        if let ::core::result::Result::Err(e) = $crate::utils::check_unique(fs.iter().map(|f| &f.id)) {
            ::std::panic!("{}", e);
        }
        ::core::convert::Into::<$crate::types::Type>::into($crate::types::TypeInner::Variant(fs))
    }};
}

#[cfg(test)]
mod tests {
    use crate::types::{CandidType, Label, TypeInner};

    #[test]
    fn record_and_variant_sort_and_label() {
        let r = record! { name: String::ty(); 42: u8::ty() };
        let TypeInner::Record(fs) = r.as_ref() else {
            panic!("not a record: {r:?}")
        };
        assert_eq!(fs.len(), 2);
        assert!(matches!(fs[0].id.as_ref(), Label::Id(42)));
        assert!(matches!(fs[1].id.as_ref(), Label::Named(n) if n == "name"));
        let v = variant! { ok: u8::ty(); err: String::ty(); };
        assert_eq!(v.to_string(), "variant { ok : nat8; err : text }");
    }

    #[test]
    #[should_panic(expected = "hash collision")]
    fn duplicate_labels_panic() {
        let _ = record! { a: u8::ty(); a: u8::ty() };
    }
}
