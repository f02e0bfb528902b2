//! The header of a message whose arguments are all primitives: no type table, each
//! argument type one opcode byte. A method taking principals, numbers or text gets
//! such a header on every call, and it is never kept (`de/header_cache.rs`), so it
//! is parsed whenever the thread's spare decode state does not hold it ([`Held`]);
//! this reads it with no reader set up.

use super::header::{
    Arena, FieldEntry, Prim, Ref, Shape, Span, FIRST_FIELDS, INLINE_ARGS, ONE_BYTE_PRIMS,
};
use super::opcode;

/// The shape of `DIDL 00 n t1 … tn` (fewer than 128 arguments, each `t` a one-byte
/// primitive opcode): the shape the general path would give, up to
/// [`INLINE_ARGS`] argument types held in the shape itself (nothing written to
/// `arena`, so a fresh state allocates nothing for them) and more read into
/// `arena`. `None` for any other header, and for one the general path would
/// refuse, which it then reads and reports.
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
    if argc <= INLINE_ARGS {
        let mut prims = [Prim::Null; INLINE_ARGS];
        for (slot, &b) in prims.iter_mut().zip(types) {
            *slot = prim(b)?;
        }
        return Some(Shape {
            args: Shape::inline_args(prims.into_iter().take(argc).map(Ref::prim))?,
            table_len: 0,
            len,
        });
    }
    let start = arena.fields.len();
    if arena.fields.capacity() == 0 {
        // A new arena's fields, at the size a header with a table would make them
        // (reserving in an empty vector costs more than allocating it at its size).
        arena.fields = Vec::with_capacity(FIRST_FIELDS.max(argc));
    } else {
        arena.fields.reserve(argc);
    }
    for (id, &b) in (0u32..).zip(types) {
        let Some(p) = prim(b) else {
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

/// A plain header whose argument types its shape holds (at most [`INLINE_ARGS`], so
/// at most nine bytes), kept by the thread's spare decode state after a decode of it
/// (see `de/header_cache.rs`, `plain_state`): a message that starts with it is told
/// by one word compare (and one byte's, for nine bytes), and decoded with the shape
/// and what the state learnt.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Held {
    /// The header's first eight bytes as a little-endian word, the bytes past its
    /// end zero.
    word: u64,
    /// The bits of that word the header's bytes fill.
    mask: u64,
    /// Its ninth byte (a header of nine bytes; unread for a shorter one).
    ninth: u8,
    shape: Shape,
}

impl Held {
    /// `bytes`' header, parsed to `shape`, when it can be held: its argument types
    /// in the shape, and the message at least a word long.
    pub(crate) fn of(bytes: &[u8], shape: Shape) -> Option<Held> {
        if !shape.is_inline() || !(1..=9).contains(&shape.len) {
            return None;
        }
        let mask = u64::MAX >> ((8 * 8usize.saturating_sub(shape.len)) & 63);
        Some(Held {
            word: first_word(bytes)? & mask,
            mask,
            ninth: if shape.len == 9 { *bytes.get(8)? } else { 0 },
            shape,
        })
    }

    /// The held shape, when `bytes` starts with the held header and its length is
    /// within `max_header_len` (the parse would refuse a longer one).
    #[inline(always)]
    pub(crate) fn shape_of(&self, bytes: &[u8], max_header_len: usize) -> Option<Shape> {
        if first_word(bytes)? & self.mask != self.word || self.shape.len > max_header_len {
            return None;
        }
        if self.shape.len == 9 && bytes.get(8) != Some(&self.ninth) {
            return None;
        }
        Some(self.shape)
    }
}

/// The first eight bytes of `bytes` as a little-endian word.
#[inline(always)]
fn first_word(bytes: &[u8]) -> Option<u64> {
    bytes.first_chunk::<8>().map(|w| u64::from_le_bytes(*w))
}

/// The primitive whose one-byte opcode is `b`: bytes below 0x40 are table indices
/// (none is in range), above 0x7f the start of a longer opcode.
#[inline(always)]
fn prim(b: u8) -> Option<Prim> {
    0x7fu8
        .checked_sub(b)
        .and_then(|k| ONE_BYTE_PRIMS.get(usize::from(k)).copied().flatten())
}

#[cfg(test)]
mod tests {
    use super::super::header::{parse_into, Arena, Prim, Ref, Shape, INLINE_ARGS};
    use super::parse;

    /// The argument types a shape gives over its arena.
    fn args(shape: &Shape, arena: &Arena) -> Vec<Ref> {
        (0..shape.args.len as usize)
            .map(|i| shape.arg(arena, i).expect("an argument"))
            .collect()
    }

    /// Up to `INLINE_ARGS` argument types are held in the shape, by this path and
    /// by the general one alike (nothing in the arena), more in the arena; both
    /// give the same types, also for opcodes the general path reads in a longer
    /// form than one byte.
    #[test]
    fn argument_types_inline_and_in_the_arena() {
        let prims = [
            Prim::Null,
            Prim::Principal,
            Prim::Nat,
            Prim::Text,
            Prim::Empty,
            Prim::Int8,
        ];
        for n in 0..=prims.len() + 2 {
            let types: Vec<Prim> = (0..n).map(|i| prims[i % prims.len()]).collect();
            let mut bytes = b"DIDL\x00".to_vec();
            bytes.push(n as u8);
            bytes.extend(types.iter().map(|p| p.opcode() as u8 & 0x7f));
            let want: Vec<Ref> = types.iter().map(|&p| Ref::prim(p)).collect();

            let mut plain_arena = Arena::new();
            let plain = parse(&bytes, usize::MAX, &mut plain_arena).expect("a plain header");
            let mut arena = Arena::new();
            let general = parse_into(&bytes, usize::MAX, usize::MAX, &mut arena).unwrap();
            assert_eq!(args(&plain, &plain_arena), want, "{n} arguments");
            assert_eq!(args(&general, &arena), want, "{n} arguments");
            assert_eq!((plain.len, general.len), (bytes.len(), bytes.len()));
            let inline = n <= INLINE_ARGS;
            assert_eq!(plain_arena.fields.is_empty(), inline, "{n} arguments");
            assert_eq!(arena.fields.is_empty(), inline, "{n} arguments");
        }
        // `null` as two SLEB128 bytes: only the general path reads it.
        let long = b"DIDL\x00\x02\xff\x7f\x7d";
        assert!(parse(long, usize::MAX, &mut Arena::new()).is_none());
        let mut arena = Arena::new();
        let shape = parse_into(long, usize::MAX, usize::MAX, &mut arena).unwrap();
        assert_eq!(
            args(&shape, &arena),
            [Ref::prim(Prim::Null), Ref::prim(Prim::Nat)]
        );
        assert!(arena.fields.is_empty());
    }
}
