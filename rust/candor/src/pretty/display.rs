//! How types print (`Display`): candid's `.did` syntax, laid out in 80 columns by the
//! `.did` printer (`crate::pretty::candid`), so a type named in a message reads as
//! candid would print it.

use crate::pretty::candid::{pp_field, pp_function, pp_ty, pp_ty_inner};
use crate::pretty::utils::LINE_WIDTH;
use crate::types::{Field, Function, Type, TypeInner};
use std::fmt;

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", pp_ty(self).pretty(LINE_WIDTH))
    }
}

impl fmt::Display for TypeInner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", pp_ty_inner(self).pretty(LINE_WIDTH))
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", pp_function(self).pretty(LINE_WIDTH))
    }
}

/// A field as a record prints it, `label : type`.
impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", pp_field(self, false).pretty(LINE_WIDTH))
    }
}

/// The length of `t` printed on one line, when it is below `limit` (candid's
/// `text_size`: messages use it to decide whether a type is short enough to show).
/// Printing stops once the limit is reached, so a huge type costs no more than
/// `limit` characters of output. (`Result<_, ()>` is candid's signature.)
#[allow(clippy::result_unit_err)]
pub fn text_size(t: &Type, limit: i32) -> Result<i32, ()> {
    struct Bounded {
        len: i32,
        limit: i32,
    }
    impl fmt::Write for Bounded {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let n = i32::try_from(s.chars().count()).map_err(|_| fmt::Error)?;
            self.len = self.len.saturating_add(n);
            if self.len >= self.limit {
                Err(fmt::Error)
            } else {
                Ok(())
            }
        }
    }
    let mut out = Bounded { len: 0, limit };
    if limit <= 0 {
        return Err(());
    }
    pp_ty(t).render_fmt(usize::MAX, &mut out).map_err(|_| ())?;
    Ok(out.len)
}
