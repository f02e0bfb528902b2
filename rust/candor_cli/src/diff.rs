//! `candor diff A B`: where two messages' values differ. The values are walked
//! side by side: record fields are matched by id, vector elements by index, an
//! `opt` or a variant with the same case is entered; anything else that is not
//! equal is a difference at its path (`arg 0 → to → owner`). Floats are equal
//! when their bits are (so a NaN equals itself and `-0.0` differs from `0.0`:
//! the messages carry different bytes).

use crate::json::label_key;
use candor::types::Label;
use candor::{IDLArgs, IDLField, IDLValue, VariantValue};

/// One difference: the path, and the value on each side (`None`: absent there).
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub path: Vec<String>,
    pub a: Option<IDLValue>,
    pub b: Option<IDLValue>,
}

/// Every difference between the arguments of `a` and those of `b`, in order.
pub fn diff(a: &IDLArgs, b: &IDLArgs) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    for i in 0..a.args.len().max(b.args.len()) {
        path.push(format!("arg {i}"));
        values(a.args.get(i), b.args.get(i), &mut path, &mut out);
        path.pop();
    }
    out
}

fn differ(a: Option<&IDLValue>, b: Option<&IDLValue>, path: &[String], out: &mut Vec<Difference>) {
    out.push(Difference {
        path: path.to_vec(),
        a: a.cloned(),
        b: b.cloned(),
    });
}

fn values(
    a: Option<&IDLValue>,
    b: Option<&IDLValue>,
    path: &mut Vec<String>,
    out: &mut Vec<Difference>,
) {
    let (Some(x), Some(y)) = (a, b) else {
        return differ(a, b, path, out);
    };
    match (x, y) {
        (IDLValue::Opt(x), IDLValue::Opt(y)) => values(Some(x), Some(y), path, out),
        (IDLValue::Vec(xs), IDLValue::Vec(ys)) => {
            for i in 0..xs.len().max(ys.len()) {
                path.push(i.to_string());
                values(xs.get(i), ys.get(i), path, out);
                path.pop();
            }
        }
        (IDLValue::Record(xs), IDLValue::Record(ys)) => fields(xs, ys, path, out),
        (IDLValue::Variant(VariantValue(x, _)), IDLValue::Variant(VariantValue(y, _)))
            if x.id.get_id() == y.id.get_id() =>
        {
            path.push(name(&x.id, &y.id));
            values(Some(&x.val), Some(&y.val), path, out);
            path.pop();
        }
        (IDLValue::Float64(x), IDLValue::Float64(y)) if x.to_bits() == y.to_bits() => {}
        (IDLValue::Float32(x), IDLValue::Float32(y)) if x.to_bits() == y.to_bits() => {}
        (IDLValue::Float64(_), _) | (IDLValue::Float32(_), _) => differ(a, b, path, out),
        _ if x == y => {}
        _ => differ(a, b, path, out),
    }
}

/// A label's name from either side (a .did or the dictionary may have named
/// only one), else its id.
fn name(x: &Label, y: &Label) -> String {
    match (x, y) {
        (Label::Named(_), _) => label_key(x),
        (_, Label::Named(_)) => label_key(y),
        _ => label_key(x),
    }
}

/// Fields matched by id; both lists are sorted by id.
fn fields(xs: &[IDLField], ys: &[IDLField], path: &mut Vec<String>, out: &mut Vec<Difference>) {
    let (mut i, mut j) = (0, 0);
    loop {
        let (x, y) = (xs.get(i), ys.get(j));
        let (x, y) = match (x, y) {
            (None, None) => return,
            (Some(x), Some(y)) => match x.id.get_id().cmp(&y.id.get_id()) {
                std::cmp::Ordering::Less => (Some(x), None),
                std::cmp::Ordering::Greater => (None, Some(y)),
                std::cmp::Ordering::Equal => (Some(x), Some(y)),
            },
            other => other,
        };
        let label = match (x, y) {
            (Some(x), Some(y)) => name(&x.id, &y.id),
            (Some(f), None) | (None, Some(f)) => label_key(&f.id),
            (None, None) => return,
        };
        i += usize::from(x.is_some());
        j += usize::from(y.is_some());
        path.push(label);
        values(x.map(|f| &f.val), y.map(|f| &f.val), path, out);
        path.pop();
    }
}

/// The differences as text: each path, then `- A` and `+ B` (a value over
/// several lines is indented; an absent one is `(absent)`).
pub fn render(diffs: &[Difference]) -> String {
    let mut out = String::new();
    for d in diffs {
        out.push_str(&d.path.join(" → "));
        out.push('\n');
        for (sign, v) in [('-', &d.a), ('+', &d.b)] {
            out.push(sign);
            out.push(' ');
            match v {
                Some(v) => out.push_str(&v.to_string().replace('\n', "\n  ")),
                None => out.push_str("(absent)"),
            }
            out.push('\n');
        }
    }
    out
}
