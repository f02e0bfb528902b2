//! How types print (`Display`): the one-line form used in diagnostics.

use super::model::{FuncMode, Function, Label, Type, TypeInner};
use std::fmt;

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_ref(), f)
    }
}

impl fmt::Display for TypeInner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TypeInner::*;
        match self {
            Null => f.write_str("null"),
            Bool => f.write_str("bool"),
            Nat => f.write_str("nat"),
            Int => f.write_str("int"),
            Nat8 => f.write_str("nat8"),
            Nat16 => f.write_str("nat16"),
            Nat32 => f.write_str("nat32"),
            Nat64 => f.write_str("nat64"),
            Int8 => f.write_str("int8"),
            Int16 => f.write_str("int16"),
            Int32 => f.write_str("int32"),
            Int64 => f.write_str("int64"),
            Float32 => f.write_str("float32"),
            Float64 => f.write_str("float64"),
            Text => f.write_str("text"),
            Reserved => f.write_str("reserved"),
            Empty => f.write_str("empty"),
            Principal => f.write_str("principal"),
            Knot(id) => write!(f, "{id}"),
            Var(name) => f.write_str(name),
            Unknown => f.write_str("unknown"),
            Future => f.write_str("future"),
            Opt(t) => write!(f, "opt {t}"),
            Vec(t) => {
                if **t == Nat8 {
                    f.write_str("blob")
                } else {
                    write!(f, "vec {t}")
                }
            }
            Record(fs) => {
                f.write_str("record {")?;
                let tuple = self.is_tuple();
                for (i, fd) in fs.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { "; " })?;
                    if tuple {
                        write!(f, "{}", fd.ty)?;
                    } else {
                        write!(f, "{} : {}", fd.id, fd.ty)?;
                    }
                }
                f.write_str(if fs.is_empty() { "}" } else { " }" })
            }
            Variant(fs) => {
                f.write_str("variant {")?;
                for (i, fd) in fs.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { "; " })?;
                    if *fd.ty == Null {
                        write!(f, "{}", fd.id)?;
                    } else {
                        write!(f, "{} : {}", fd.id, fd.ty)?;
                    }
                }
                f.write_str(if fs.is_empty() { "}" } else { " }" })
            }
            Func(func) => write!(f, "func {func}"),
            Service(ms) => {
                f.write_str("service {")?;
                for (name, t) in ms {
                    write!(f, " {} : {};", Label::Named(name.clone()), t)?;
                }
                f.write_str(" }")
            }
            Class(args, t) => {
                f.write_str("(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, ") -> {t}")
            }
        }
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, ts: &[Type]| -> fmt::Result {
            f.write_str("(")?;
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{t}")?;
            }
            f.write_str(")")
        };
        list(f, &self.args)?;
        f.write_str(" -> ")?;
        list(f, &self.rets)?;
        for m in &self.modes {
            f.write_str(match m {
                FuncMode::Oneway => " oneway",
                FuncMode::Query => " query",
                FuncMode::CompositeQuery => " composite_query",
            })?;
        }
        Ok(())
    }
}
