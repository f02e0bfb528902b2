//! Arena types named in decoder errors, as candid 0.10.39 names them: printed in
//! full (`Display`, laid out in 80 columns) when candid's size estimate finds them
//! within its 500-character budget, else `(type elided)`. The budget holds whatever
//! the configuration (`set_full_error_message` included): a wire type is chosen by
//! the sender, and what printing it costs follows its width and depth.
//!
//! A wire type reads as candid's decoder shows one: the node itself, with the table
//! entries it mentions by name (`record { 5_790_298 : nat8; 3_573_748_184 : table1 }`),
//! so the same message gives the same text and the same verdict on the budget. An
//! expected type reads as the Rust type's Candid type, nested types written out; a
//! recursive mention (candid prints the Rust type's name, which the arena does not
//! keep) reads `(recursive)`, charged as candid charges the name it stands for.
//!
//! Which of the two an arena is follows from how the decoder holds it (the wire
//! arena in place, expected arenas shared behind an `Rc`), so a call site names the
//! arena and the rendering follows.

use crate::types::internal::{text_size, ELIDED_TYPE, MAX_DIAGNOSTIC_TYPE_LEN};
use crate::types::{Field, FuncMode, Function, Label, Type, TypeInner};
use crate::wire::header::{Arena, FieldLabel, Node, Prim, Ref, PRIM_COUNT};
use std::rc::Rc;

/// How an arena names the types it refers to by reference.
pub(crate) trait Side {
    fn arena(&self) -> &Arena;
    /// True for a wire arena: references name type table entries.
    fn is_wire(&self) -> bool;
}

/// The decoder's wire arena.
impl Side for super::state::WireTypes {
    fn arena(&self) -> &Arena {
        self
    }
    fn is_wire(&self) -> bool {
        true
    }
}

/// An expected-type arena.
impl Side for Rc<Arena> {
    fn arena(&self) -> &Arena {
        self
    }
    fn is_wire(&self) -> bool {
        false
    }
}

/// What a recursive mention in an expected type reads as.
const RECURSIVE: &str = "(recursive)";

/// The type at `r` for an error message, within candid's budget.
pub(crate) fn describe(side: &impl Side, r: Ref) -> String {
    let mut conv = Convert {
        arena: side.arena(),
        wire: side.is_wire(),
        spent: 0,
        path: Vec::new(),
    };
    match conv.node(r.resolved()) {
        Some(t) if text_size(&t, MAX_DIAGNOSTIC_TYPE_LEN).is_ok() => t.to_string(),
        _ => ELIDED_TYPE.to_string(),
    }
}

/// Builds the `Type` of an arena node, charging each part what candid's
/// `text_size` charges it and giving up past the budget: whatever it gives up on,
/// `text_size` would refuse too, and what it builds is at most a few hundred
/// characters' worth (so its recursion is as shallow).
struct Convert<'a> {
    arena: &'a Arena,
    wire: bool,
    spent: i32,
    /// Expected nodes being built, outermost first (a mention of one is recursion).
    path: Vec<u32>,
}

impl Convert<'_> {
    fn charge(&mut self, n: usize) -> Option<()> {
        self.spent = self
            .spent
            .saturating_add(i32::try_from(n).unwrap_or(i32::MAX));
        (self.spent <= MAX_DIAGNOSTIC_TYPE_LEN).then_some(())
    }

    /// The type a reference inside another type stands for.
    fn reference(&mut self, r: Ref) -> Option<Type> {
        if r.is_var() && self.wire {
            let name = format!("table{}", r.idx().saturating_sub(PRIM_COUNT));
            self.charge(name.len())?;
            return Some(TypeInner::Var(name).into());
        }
        if r.is_var() && self.path.contains(&r.idx()) {
            self.charge(10)?;
            return Some(TypeInner::Var(RECURSIVE.to_string()).into());
        }
        self.node(r.resolved())
    }

    fn node(&mut self, r: Ref) -> Option<Type> {
        let inner = match self.arena.node(r) {
            Node::Prim(p) => {
                let (t, cost) = prim(p);
                self.charge(cost)?;
                t
            }
            Node::Future => {
                self.charge(6)?;
                TypeInner::Future
            }
            Node::Opt(t) | Node::Vec(t) => {
                self.charge(4)?;
                self.path.push(r.idx());
                let inner = self.reference(t);
                self.path.pop();
                match self.arena.node(r) {
                    Node::Opt(_) => TypeInner::Opt(inner?),
                    _ => TypeInner::Vec(inner?),
                }
            }
            Node::Record(span) | Node::Variant(span) => {
                self.charge(9)?;
                self.path.push(r.idx());
                let fields = self.fields(span);
                self.path.pop();
                match self.arena.node(r) {
                    Node::Record(_) => TypeInner::Record(fields?),
                    _ => TypeInner::Variant(fields?),
                }
            }
            Node::Func(i) => {
                let f = self.arena.func(i)?;
                self.charge(if f.mode == 0 { 6 } else { 12 })?;
                self.path.push(r.idx());
                let func = self.function(i);
                self.path.pop();
                TypeInner::Func(func?)
            }
            Node::Service(span) => {
                self.charge(10)?;
                self.path.push(r.idx());
                let methods = self.methods(span);
                self.path.pop();
                TypeInner::Service(methods?)
            }
        };
        Some(inner.into())
    }

    fn fields(&mut self, span: crate::wire::header::Span) -> Option<Vec<Field>> {
        let arena = self.arena;
        let mut fields = Vec::new();
        for (k, f) in span.range().zip(arena.fields(span)) {
            let label = match arena.label(k) {
                FieldLabel::Named(n) => Label::Named(n.to_string()),
                FieldLabel::Unnamed if !self.wire => Label::Unnamed(f.id),
                _ => Label::Id(f.id),
            };
            let width = match &label {
                Label::Named(n) => n.len(),
                Label::Id(n) => printed_num_width(*n),
                Label::Unnamed(_) => 0,
            };
            self.charge(width + 3)?;
            fields.push(Field {
                id: label.into(),
                ty: self.reference(f.ty)?,
            });
        }
        Some(fields)
    }

    fn function(&mut self, i: u32) -> Option<Function> {
        let f = self.arena.func(i)?;
        let mut lists = [Vec::new(), Vec::new()];
        for (list, refs) in lists.iter_mut().zip([&f.args, &f.rets]) {
            for (k, r) in refs.iter().enumerate() {
                if k > 0 {
                    self.charge(2)?;
                }
                list.push(self.reference(*r)?);
            }
        }
        let [args, rets] = lists;
        let modes = match f.mode {
            1 => vec![FuncMode::Query],
            2 => vec![FuncMode::Oneway],
            3 => vec![FuncMode::CompositeQuery],
            _ => vec![],
        };
        Some(Function { modes, args, rets })
    }

    fn methods(&mut self, span: crate::wire::header::Span) -> Option<Vec<(String, Type)>> {
        let arena = self.arena;
        let mut methods = Vec::new();
        for (name, r) in arena.methods(span) {
            self.charge(name.len() + 3)?;
            methods.push((name.to_string(), self.reference(*r)?));
        }
        Some(methods)
    }
}

/// Width of a numeric label as printed, `_` between groups of three digits.
fn printed_num_width(n: u32) -> usize {
    let digits = n.checked_ilog10().map_or(1, |d| d as usize + 1);
    digits + (digits - 1) / 3
}

/// A primitive's type and what candid's estimate charges it.
fn prim(p: Prim) -> (TypeInner, usize) {
    use TypeInner as T;
    match p {
        Prim::Null => (T::Null, 4),
        Prim::Bool => (T::Bool, 4),
        Prim::Nat => (T::Nat, 3),
        Prim::Int => (T::Int, 3),
        Prim::Nat8 => (T::Nat8, 4),
        Prim::Nat16 => (T::Nat16, 5),
        Prim::Nat32 => (T::Nat32, 5),
        Prim::Nat64 => (T::Nat64, 5),
        Prim::Int8 => (T::Int8, 4),
        Prim::Int16 => (T::Int16, 5),
        Prim::Int32 => (T::Int32, 5),
        Prim::Int64 => (T::Int64, 5),
        Prim::Float32 => (T::Float32, 7),
        Prim::Float64 => (T::Float64, 7),
        Prim::Text => (T::Text, 4),
        Prim::Reserved => (T::Reserved, 8),
        Prim::Empty => (T::Empty, 5),
        Prim::Principal => (T::Principal, 9),
    }
}
