//! Short renderings of arena types for error messages (bounded in length, so a
//! hostile type table cannot make an error message expensive).

use crate::wire::header::{Arena, Node, Prim, Ref};
use std::fmt::Write;

const MAX_LEN: usize = 120;

/// The type at `r`, in Candid syntax, cut at about 120 characters.
pub(crate) fn describe(arena: &Arena, r: Ref) -> String {
    let mut out = String::new();
    write_type(arena, r, 0, &mut out);
    if out.len() > MAX_LEN {
        let mut cut = MAX_LEN;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
}

fn prim_name(p: Prim) -> &'static str {
    match p {
        Prim::Null => "null",
        Prim::Bool => "bool",
        Prim::Nat => "nat",
        Prim::Int => "int",
        Prim::Nat8 => "nat8",
        Prim::Nat16 => "nat16",
        Prim::Nat32 => "nat32",
        Prim::Nat64 => "nat64",
        Prim::Int8 => "int8",
        Prim::Int16 => "int16",
        Prim::Int32 => "int32",
        Prim::Int64 => "int64",
        Prim::Float32 => "float32",
        Prim::Float64 => "float64",
        Prim::Text => "text",
        Prim::Reserved => "reserved",
        Prim::Empty => "empty",
        Prim::Principal => "principal",
    }
}

fn write_type(arena: &Arena, r: Ref, depth: usize, out: &mut String) {
    if out.len() > MAX_LEN {
        return;
    }
    if depth > 3 {
        out.push('…');
        return;
    }
    match arena.node(r) {
        Node::Prim(p) => out.push_str(prim_name(p)),
        Node::Opt(t) => {
            out.push_str("opt ");
            write_type(arena, t, depth + 1, out);
        }
        Node::Vec(t) => {
            if arena.node(t) == Node::Prim(Prim::Nat8) {
                out.push_str("blob");
            } else {
                out.push_str("vec ");
                write_type(arena, t, depth + 1, out);
            }
        }
        Node::Record(s) | Node::Variant(s) => {
            let is_record = matches!(arena.node(r), Node::Record(_));
            out.push_str(if is_record { "record {" } else { "variant {" });
            for (i, f) in arena.fields(s).iter().enumerate() {
                if out.len() > MAX_LEN {
                    break;
                }
                out.push_str(if i == 0 { " " } else { "; " });
                match arena.label(s.start as usize + i) {
                    crate::wire::header::FieldLabel::Named(n) => out.push_str(n),
                    _ => {
                        let _ = write!(out, "{}", f.id);
                    }
                }
                out.push_str(" : ");
                write_type(arena, f.ty, depth + 1, out);
            }
            out.push_str(" }");
        }
        Node::Func(_) => out.push_str("func"),
        Node::Service(_) => out.push_str("service"),
        Node::Future => out.push_str("future"),
    }
}
