//! Records whose values would be infinite, found in a parsed type table and made
//! `empty` (candid's `replace_empty`), so a message cannot claim to carry one.

use super::header::{Arena, FieldEntry, Node, Prim, PRIM_COUNT};
use super::inline_vec::InlineVec;

/// Records whose every value would be infinite (`type t = record { t }`) have no
/// values: they become `empty`, so a message cannot claim to carry one (candid's
/// `replace_empty`). Only record-to-entry edges are followed, as in candid.
#[inline]
pub(super) fn replace_empty(arena: &mut Arena, table_len: usize) {
    if goes_back(arena) {
        search(arena, table_len);
    }
}

/// Whether a record field names a record at its own entry or an earlier one. Only
/// a cycle of record fields that name records makes a type empty, and a cycle goes
/// back at least once. Tables list a type before the types inside it, so without
/// recursion every such field names a later entry, and nothing is searched.
#[inline]
fn goes_back(arena: &Arena) -> bool {
    for (own, n) in (PRIM_COUNT..).zip(arena.nodes.as_slice()) {
        if let Node::Record(s) = n {
            for f in arena.fields(*s) {
                if f.ty.is_var() && f.ty.idx() <= own && matches!(arena.node(f.ty), Node::Record(_))
                {
                    return true;
                }
            }
        }
    }
    false
}

/// Finds the empty records (a search from each entry, on a stack of its own so a
/// deep chain cannot overflow the thread's) and makes them `empty`.
#[inline(never)]
fn search(arena: &mut Arena, table_len: usize) {
    #[derive(Clone, Copy, PartialEq, Default)]
    enum State {
        #[default]
        Unvisited,
        InProgress,
        Done(bool),
    }
    let mut state: InlineVec<State, 16> = InlineVec::new();
    for _ in 0..table_len {
        state.push(State::Unvisited);
    }
    for root in 0..table_len {
        if state.get(root) != Some(&State::Unvisited) {
            continue;
        }
        // Stack of (entry, next field position).
        let mut stack: InlineVec<(usize, usize), 16> = InlineVec::new();
        stack.push((root, 0));
        if let Some(s) = state.get_mut(root) {
            *s = State::InProgress;
        }
        while let Some(&mut (entry, ref mut next)) = stack.as_mut_slice().last_mut() {
            let node = arena.nodes.get(entry).copied();
            let fields: &[FieldEntry] = match node {
                Some(Node::Record(span)) => arena.fields(span),
                _ => &[],
            };
            let mut result: Option<bool> = None;
            let mut descend: Option<usize> = None;
            while *next < fields.len() {
                let f = fields.get(*next).map(|f| f.ty);
                *next += 1;
                let Some(fty) = f else { break };
                if !fty.is_var() {
                    continue;
                }
                let child = (fty.idx() - PRIM_COUNT) as usize;
                match state.get(child) {
                    Some(State::Done(true)) | Some(State::InProgress) => {
                        result = Some(true);
                        break;
                    }
                    Some(State::Unvisited) => {
                        descend = Some(child);
                        break;
                    }
                    _ => {}
                }
            }
            if let Some(child) = descend {
                if let Some(s) = state.get_mut(child) {
                    *s = State::InProgress;
                }
                stack.push((child, 0));
                continue;
            }
            let empty = result.unwrap_or(false);
            if let Some(s) = state.get_mut(entry) {
                *s = State::Done(empty);
            }
            stack.truncate(stack.len() - 1);
            if empty {
                // Every entry still on the stack descended here through record
                // fields: all of them are empty too.
                for &(e, _) in stack.as_slice() {
                    if let Some(s) = state.get_mut(e) {
                        *s = State::Done(true);
                    }
                }
                stack.truncate(0);
            }
        }
    }
    for (i, s) in state.as_slice().iter().enumerate() {
        if *s == State::Done(true) {
            if let Some(n) = arena.nodes.get_mut(i) {
                *n = Node::Prim(Prim::Empty);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::header::parse_into;
    use super::super::opcode;
    use super::*;

    /// Which entries of `table` (the bytes after the magic) were made `empty`.
    fn emptied(table: &[u8]) -> Vec<bool> {
        let mut bytes = opcode::MAGIC.to_vec();
        bytes.extend_from_slice(table);
        let mut arena = Arena::new();
        parse_into(&bytes, 100, 1000, &mut arena).expect("parses");
        arena
            .nodes
            .iter()
            .map(|n| matches!(n, Node::Prim(Prim::Empty)))
            .collect()
    }

    /// Records whose values would be infinite become `empty`, found through a field
    /// naming a record at its own entry or an earlier one; fields naming later
    /// entries only (no recursion) leave every record as it is.
    #[test]
    fn empty_records_are_found_through_backward_fields() {
        // 0: record { 0: 0 }.
        assert_eq!(emptied(&[1, 0x6c, 1, 0, 0, 1, 0]), [true]);
        // 0: record { 0: 1 }, 1: record { 0: 0 }: a cycle through a forward field.
        assert_eq!(
            emptied(&[2, 0x6c, 1, 0, 1, 0x6c, 1, 0, 0, 1, 0]),
            [true, true]
        );
        // 0: record {}, 1: record { 0: 0 }: backward, but no cycle.
        assert_eq!(emptied(&[2, 0x6c, 0, 0x6c, 1, 0, 0, 1, 1]), [false, false]);
        // 0: record { 0: 1 }, 1: record {}: forward only.
        assert_eq!(emptied(&[2, 0x6c, 1, 0, 1, 0x6c, 0, 1, 0]), [false, false]);
        // 0: record { 0: 1; 1: 2 }, 1: record {}, 2: record { 0: 2 }: entry 2 is
        // empty, so entry 0 is too; entry 1 is not.
        assert_eq!(
            emptied(&[3, 0x6c, 2, 0, 1, 1, 2, 0x6c, 0, 0x6c, 1, 0, 2, 1, 0]),
            [true, false, true]
        );
        // 0: opt 1, 1: record { 0: 0 }: an `opt` ends the recursion.
        assert_eq!(emptied(&[2, 0x6e, 1, 0x6c, 1, 0, 0, 1, 0]), [false, false]);
    }
}
