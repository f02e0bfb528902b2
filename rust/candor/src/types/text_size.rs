//! How wide a type prints on one line, up to a limit: what diagnostics ask before
//! they name a type (candid's `text_size`, to the character). It lives with the types
//! rather than the printer because `types::internal` exports it and the error
//! messages of every layer above use it.

use super::{Field, Label, Type, TypeInner};

/// Width of a numeric label as the printer writes it, with `_` between groups of
/// three digits (`1_136_829_802` is 13).
fn printed_num_width(n: u32) -> i32 {
    let digits = n.checked_ilog10().map_or(1, |d| d as i32 + 1);
    digits + (digits - 1) / 3
}

/// A composite type being sized: what it has charged so far and what is left.
enum Sizing<'a> {
    /// `opt t` or `vec t`: four characters and the element.
    Wrap { limit: i32 },
    /// The fields of a record or variant; `next` is the one being sized.
    Fields {
        fields: &'a [Field],
        next: usize,
        charged: i32,
        left: i32,
        limit: i32,
    },
    /// The argument then result lists of a function.
    Func {
        lists: [&'a [Type]; 2],
        list: usize,
        next: usize,
        charged: i32,
        left: i32,
        limit: i32,
    },
    /// The methods of a service.
    Methods {
        methods: &'a [(String, Type)],
        next: usize,
        charged: i32,
        left: i32,
        limit: i32,
    },
}

fn label_width(f: &Field) -> i32 {
    match f.id.as_ref() {
        Label::Named(n) => i32::try_from(n.len()).unwrap_or(i32::MAX),
        Label::Id(n) => printed_num_width(*n),
        // A tuple prints its fields without labels.
        Label::Unnamed(_) => 0,
    }
}

/// candid's estimate of the width of `t` on one line, when it is at most `limit`:
/// a fixed charge per form (`opt ` is 4, a record's braces 9, a field's label and
/// ` : `, a function's parentheses and arrow 6, and so on), a name or label its
/// length. Diagnostics ask it whether a type is small enough to name
/// (`types::internal::elide_large`), so candor's budget is candid's to the character.
/// Sizing stops at the limit, so it costs no more than the part of the type within
/// it, and walks on its own stack. A service constructor (`Class`) has no one-line
/// form and is never within a limit. (`Result<_, ()>` is candid's signature.)
#[allow(clippy::result_unit_err)]
pub fn text_size(t: &Type, limit: i32) -> Result<i32, ()> {
    use TypeInner::*;
    let mut stack: std::vec::Vec<Sizing<'_>> = std::vec::Vec::new();
    let (mut t, mut limit) = (t, limit);
    loop {
        if limit <= 1 {
            return Err(());
        }
        let leaf = match t.as_ref() {
            Null | Bool | Text | Nat8 | Int8 => 4,
            Nat | Int => 3,
            Nat16 | Nat32 | Nat64 | Int16 | Int32 | Int64 | Empty => 5,
            Float32 | Float64 => 7,
            Reserved => 8,
            Principal => 9,
            Knot(_) => 10,
            Var(id) => i32::try_from(id.len()).unwrap_or(i32::MAX),
            Future => 6,
            Unknown => 7,
            Class(..) => return Err(()),
            Opt(inner) | Vec(inner) => {
                stack.push(Sizing::Wrap { limit });
                (t, limit) = (inner, limit.saturating_sub(4));
                continue;
            }
            Record(fs) | Variant(fs) => match fs.first() {
                Some(f) => {
                    stack.push(Sizing::Fields {
                        fields: fs,
                        next: 0,
                        charged: 0,
                        left: limit,
                        limit,
                    });
                    (t, limit) = (
                        &f.ty,
                        limit.saturating_sub(label_width(f)).saturating_sub(3),
                    );
                    continue;
                }
                None => 9,
            },
            Func(func) => {
                let charged = if func.modes.is_empty() { 6 } else { 12 };
                let lists = [func.args.as_slice(), func.rets.as_slice()];
                let first = if func.args.is_empty() { 1 } else { 0 };
                match lists.get(first).and_then(|l| l.first()) {
                    Some(arg) => {
                        stack.push(Sizing::Func {
                            lists,
                            list: first,
                            next: 0,
                            charged,
                            left: limit.saturating_sub(charged),
                            limit,
                        });
                        (t, limit) = (arg, limit.saturating_sub(charged));
                        continue;
                    }
                    None => charged,
                }
            }
            Service(ms) => match ms.first() {
                Some((name, ty)) => {
                    stack.push(Sizing::Methods {
                        methods: ms,
                        next: 0,
                        charged: 0,
                        left: limit,
                        limit,
                    });
                    let len = i32::try_from(name.len()).unwrap_or(i32::MAX);
                    (t, limit) = (ty, limit.saturating_sub(len).saturating_sub(3));
                    continue;
                }
                None => 10,
            },
        };
        if leaf > limit {
            return Err(());
        }
        match hand_up(&mut stack, leaf)? {
            Next::Part(part, left) => (t, limit) = (part, left),
            Next::Done(size) => return Ok(size),
        }
    }
}

/// What [`text_size`] sizes after a part: the next part of an open composite, with
/// the characters left for it, or nothing more (the whole type's size).
enum Next<'a> {
    Part(&'a Type, i32),
    Done(i32),
}

/// Hands a part's `size` up the open composites until one has another part to size;
/// `Err` once a composite grows past its limit.
fn hand_up<'a>(stack: &mut std::vec::Vec<Sizing<'a>>, mut size: i32) -> Result<Next<'a>, ()> {
    loop {
        let Some(top) = stack.last_mut() else {
            return Ok(Next::Done(size));
        };
        match top {
            Sizing::Wrap { limit } => {
                size = size.saturating_add(4);
                if size > *limit {
                    return Err(());
                }
            }
            Sizing::Fields {
                fields,
                next,
                charged,
                left,
                limit: whole,
            } => {
                let field = fields.get(*next).map_or(0, label_width);
                let field = field.saturating_add(size).saturating_add(3);
                *charged = charged.saturating_add(field);
                *left = left.saturating_sub(field);
                *next += 1;
                if let Some(f) = fields.get(*next) {
                    return Ok(Next::Part(
                        &f.ty,
                        left.saturating_sub(label_width(f)).saturating_sub(3),
                    ));
                }
                size = charged.saturating_add(9);
                if size > *whole {
                    return Err(());
                }
            }
            Sizing::Func {
                lists,
                list,
                next,
                charged,
                left,
                limit: whole,
            } => {
                let sep = if *next == 0 { 0 } else { 2 };
                let arg = size.saturating_add(sep);
                *charged = charged.saturating_add(arg);
                *left = left.saturating_sub(arg);
                *next += 1;
                while *list < 2 && lists.get(*list).map_or(0, |l| l.len()) <= *next {
                    *list += 1;
                    *next = 0;
                }
                if let Some(arg) = lists.get(*list).and_then(|l| l.get(*next)) {
                    let sep = if *next == 0 { 0 } else { 2 };
                    return Ok(Next::Part(arg, left.saturating_sub(sep)));
                }
                size = *charged;
                if size > *whole {
                    return Err(());
                }
            }
            Sizing::Methods {
                methods,
                next,
                charged,
                left,
                limit: whole,
            } => {
                let len = methods
                    .get(*next)
                    .map_or(0, |(n, _)| i32::try_from(n.len()).unwrap_or(i32::MAX));
                let method = len.saturating_add(size).saturating_add(3);
                *charged = charged.saturating_add(method);
                *left = left.saturating_sub(method);
                *next += 1;
                if let Some((name, ty)) = methods.get(*next) {
                    let len = i32::try_from(name.len()).unwrap_or(i32::MAX);
                    return Ok(Next::Part(ty, left.saturating_sub(len).saturating_sub(3)));
                }
                size = charged.saturating_add(10);
                if size > *whole {
                    return Err(());
                }
            }
        }
        stack.pop();
    }
}
