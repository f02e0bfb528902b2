//! The header of a message whose arguments are all primitives: no type table, each
//! argument type one opcode byte. A method taking principals, numbers or text gets
//! such a header on every call, and it is never kept (`de/header_cache.rs`), so it
//! is parsed every time; this reads it with no reader set up.

use super::header::{Arena, FieldEntry, Ref, Shape, Span, FIRST_FIELDS, ONE_BYTE_PRIMS};
use super::opcode;

/// The shape of `DIDL 00 n t1 … tn` (fewer than 128 arguments, each `t` a one-byte
/// primitive opcode) read into `arena`: the shape the general path would give.
/// `None` for any other header, and for one the general path would refuse, which it
/// then reads and reports.
#[inline(always)]
pub(crate) fn parse(bytes: &[u8], max_header_len: usize, arena: &mut Arena) -> Option<Shape> {
    let (head, rest) = bytes.split_first_chunk::<6>()?;
    let [d, i, d2, l, table_len, argc] = *head;
    if [d, i, d2, l] != *opcode::MAGIC || table_len != 0 || argc >= 0x80 {
        return None;
    }
    let argc = usize::from(argc);
    let len = 6 + argc;
    let types = rest.get(..argc).filter(|_| len <= max_header_len)?;
    let start = arena.fields.len();
    if arena.fields.capacity() == 0 {
        // A new arena's fields, at the size a header with a table would make them
        // (reserving in an empty vector costs more than allocating it at its size).
        arena.fields = Vec::with_capacity(FIRST_FIELDS.max(argc));
    } else {
        arena.fields.reserve(argc);
    }
    for (id, &b) in (0u32..).zip(types) {
        // Bytes below 0x40 are table indices (none is in range), above 0x7f the
        // start of a longer opcode.
        let prim = 0x7fu8
            .checked_sub(b)
            .and_then(|k| ONE_BYTE_PRIMS.get(usize::from(k)).copied().flatten());
        let Some(p) = prim else {
            arena.fields.truncate(start);
            return None;
        };
        arena.fields.push(FieldEntry {
            id,
            ty: Ref::prim(p),
        });
    }
    Some(Shape {
        args: Span {
            start: start as u32,
            len: argc as u32,
        },
        table_len: 0,
        len,
    })
}
