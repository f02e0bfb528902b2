//! The fields of a wire record and of an expected record, walked together by id.
//!
//! Both lists are sorted by id (the header parser and the expected-type builder
//! guarantee it), so one pass pairs them. Decoding (`access::StructAccess`) and the
//! value-level `opt` check (`skip.rs`) walk records the same way; this is that walk.

use crate::wire::header::{Arena, Ref, Span};

/// One step of the walk.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    /// A field on both sides: `k` is its index in the expected arena.
    Both { k: usize, id: u32, w: Ref, e: Ref },
    /// A field only in the expected type. `wire_done` tells whether the wire fields
    /// were exhausted (candid checks and resolves the type only while wire fields
    /// remain, and the cost of resolving follows that).
    Expected {
        k: usize,
        id: u32,
        e: Ref,
        wire_done: bool,
    },
    /// A field only on the wire.
    Wire { id: u32, w: Ref },
}

/// The position of the walk; `Copy`, so it lives in the frame that walks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldMerge {
    wire: Span,
    exp: Span,
    /// Fields of each side consumed so far.
    i: u32,
    j: u32,
}

impl FieldMerge {
    pub(super) fn new(wire: Span, exp: Span) -> Self {
        FieldMerge {
            wire,
            exp,
            i: 0,
            j: 0,
        }
    }

    /// The next step, or `None` when both sides are done.
    #[inline]
    pub(super) fn next(&mut self, wire: &Arena, exp: &Arena) -> Option<Step> {
        let ek = (self.i < self.exp.len).then(|| (self.exp.start + self.i) as usize);
        let e = ek.and_then(|k| exp.field(k).map(|f| (k, f.id, f.ty)));
        let w = (self.j < self.wire.len)
            .then(|| wire.field((self.wire.start + self.j) as usize))
            .flatten();
        match (e, w) {
            (Some((k, id, e)), Some(w)) if id == w.id => {
                self.i += 1;
                self.j += 1;
                Some(Step::Both { k, id, w: w.ty, e })
            }
            (Some((k, id, e)), w) if w.is_none_or(|w| id < w.id) => {
                self.i += 1;
                Some(Step::Expected {
                    k,
                    id,
                    e,
                    wire_done: w.is_none(),
                })
            }
            (_, Some(w)) => {
                self.j += 1;
                Some(Step::Wire { id: w.id, w: w.ty })
            }
            (_, None) => None,
        }
    }

    /// Wire fields not consumed yet (for a visitor that stopped early).
    pub(super) fn wire_left(&self) -> std::ops::Range<usize> {
        (self.wire.start + self.j) as usize..(self.wire.start + self.wire.len) as usize
    }

    /// Fields both sides still have, as a size hint.
    pub(super) fn remaining(&self) -> usize {
        self.exp
            .len
            .saturating_sub(self.i)
            .min(self.wire.len.saturating_sub(self.j)) as usize
    }
}
