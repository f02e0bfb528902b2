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
