//! The header parser: the magic, the type table and the argument types of a
//! message, read into an arena ([`parse_into`]).

use super::{
    prim_of_opcode, Arena, FieldEntry, FuncEntry, Node, Ref, Shape, Span, FIRST_FIELDS,
    INLINE_ARGS, MAX_INDEX, ONE_BYTE_PRIMS, PRIM_COUNT,
};
use crate::error::fault;
use crate::error::{Error, Result};
use crate::wire::opcode;
use crate::wire::reader::Reader;

/// Parses the header of `bytes` (the magic, the type table, the argument types)
/// into `arena`, which must be empty: a decode state parses into the arena it holds
/// ([`Arena::clear_for_reuse`]), so a header reuses the vectors the state's last
/// header left and nothing is moved afterwards. On an error the arena holds part of
/// the table, and is cleared before its next use.
pub(crate) fn parse_into(
    bytes: &[u8],
    max_type_len: usize,
    max_header_len: usize,
    arena: &mut Arena,
) -> Result<Shape> {
    debug_assert!(
        arena.nodes.is_empty()
            && arena.fields.is_empty()
            && arena.labels.is_empty()
            && arena.funcs.is_empty()
            && arena.methods.is_empty(),
        "a header is parsed into an empty arena"
    );
    let mut rd = Reader::bounded(bytes, max_header_len);
    magic(&mut rd, bytes)?;
    let at = rd.offset();
    let table_len = rd.leb("type table length")?;
    // A reference holds at most `MAX_INDEX`: a table past it (a billion entries,
    // more than any heap holds the arena of) is refused as one past the limit.
    if table_len > max_type_len as u64 || table_len > u64::from(MAX_INDEX - PRIM_COUNT) {
        return Err(Error::limit("type table size exceeded", at));
    }
    // Every entry takes at least one byte: an honest header cannot claim more
    // entries than it has bytes, so allocation below is bounded by the input.
    if table_len > rd.remaining() as u64 {
        return Err(rd.eof("type table"));
    }
    let mut table = Table {
        rd,
        arena,
        len: table_len,
    };
    if table_len > 0 {
        // New vectors (no earlier header left any) are allocated at their size
        // directly, which costs less than reserving in an empty one.
        let arena = &mut *table.arena;
        if arena.nodes.capacity() == 0 {
            arena.nodes = Vec::with_capacity(table_len as usize);
        } else {
            arena.nodes.reserve(table_len as usize);
        }
        if arena.fields.capacity() == 0 {
            // The fields and argument types of a typical header in one allocation,
            // instead of growing through several; no more than one per byte left,
            // which each takes at least.
            arena.fields = Vec::with_capacity(FIRST_FIELDS.min(table.rd.remaining()));
        }
        for _ in 0..table_len {
            let node = table.entry()?;
            table.arena.push_node(node);
        }
    }
    let mut args = table.arguments()?;
    let Table { rd, arena, .. } = table;
    if table_len == 0 && args.len as usize <= INLINE_ARGS {
        // No table: the arguments are primitives, held in the shape (`arg`).
        let start = args.start as usize;
        let fields = arena.fields.get(start..).unwrap_or_default();
        if let Some(inline) = Shape::inline_args(fields.iter().map(|f| f.ty)) {
            args = inline;
            arena.fields.truncate(start);
        }
    }
    if table_len > 0 {
        methods_are_functions(arena)?;
        crate::wire::empty_records::replace_empty(arena, table_len as usize);
        arena.hint_opts();
    }
    Ok(Shape {
        args,
        table_len: table_len as usize,
        len: rd.offset(),
    })
}

/// The four bytes `DIDL`.
fn magic(rd: &mut Reader<'_>, bytes: &[u8]) -> Result<()> {
    if rd.take(4, "magic").ok() == Some(&opcode::MAGIC[..]) {
        return Ok(());
    }
    if bytes.len() < 4 && opcode::MAGIC.starts_with(bytes) {
        return Err(fault::unexpected_end("magic", bytes.len()));
    }
    Err(Error::binary("wrong magic number: expected \"DIDL\"", 0))
}

/// Service methods must have function types (checked once the whole table is read,
/// as a method may name a later entry).
fn methods_are_functions(arena: &Arena) -> Result<()> {
    for (name, ty) in &arena.methods {
        if !matches!(arena.node(*ty), Node::Func(_)) {
            return Err(Error::binary(
                format!("method {name} has a non-function type"),
                4,
            ));
        }
    }
    Ok(())
}

/// The type table being read into its arena.
struct Table<'a> {
    rd: Reader<'a>,
    arena: &'a mut Arena,
    /// Entries the table declares (the bound on type indices).
    len: u64,
}

impl Table<'_> {
    /// One table entry, by its opcode byte.
    fn entry(&mut self) -> Result<Node> {
        let at = self.rd.offset();
        Ok(match self.rd.byte("type opcode")? {
            0x6e => Node::Opt(self.type_ref("opt type")?),
            0x6d => Node::Vec(self.type_ref("vec type")?),
            0x6c => Node::Record(self.fields(at)?),
            0x6b => Node::Variant(self.fields(at)?),
            0x6a => self.func()?,
            0x69 => self.service()?,
            _ => self.future(at)?,
        })
    }

    /// A type reference: a table index (below the table length) or a primitive
    /// opcode.
    ///
    /// Nearly every reference takes one byte: an index below 64 (`0x00..=0x3f`) or
    /// a primitive from `null` (`0x7f`) to `principal` (`0x68`), found at
    /// `0x7f - byte` in [`ONE_BYTE_PRIMS`]. Those are read here; every other form
    /// (longer forms, unknown opcodes, indices out of range) takes
    /// [`type_ref_any`](Self::type_ref_any), which reads and fails as always.
    #[inline(always)]
    fn type_ref(&mut self, what: &str) -> Result<Ref> {
        if let Some(b) = self.rd.peek() {
            if b < 0x40 {
                if u64::from(b) < self.len {
                    self.rd.bump();
                    return Ok(Ref::new(PRIM_COUNT + u32::from(b), true));
                }
            } else if let Some(&Some(p)) =
                (0x7fu8.checked_sub(b)).and_then(|k| ONE_BYTE_PRIMS.get(usize::from(k)))
            {
                self.rd.bump();
                return Ok(Ref::prim(p));
            }
        }
        self.type_ref_any(what)
    }

    /// [`type_ref`](Self::type_ref) for a reference of any form.
    #[inline(never)]
    fn type_ref_any(&mut self, what: &str) -> Result<Ref> {
        let at = self.rd.offset();
        let v = self.rd.sleb(what)?;
        if v >= 0 {
            if (v as u64) >= self.len {
                return Err(Error::binary(format!("type index {v} out of range"), at));
            }
            return Ok(Ref::new(PRIM_COUNT + v as u32, true));
        }
        match prim_of_opcode(v) {
            Some(p) => Ok(Ref::prim(p)),
            None => Err(Error::binary(format!("unknown opcode {v}"), at)),
        }
    }

    /// A count of items that take at least one byte each: more than the bytes left
    /// is a message cut short.
    #[inline]
    fn count(&mut self, what: &str, items: &str) -> Result<u64> {
        let n = self.rd.leb(what)?;
        if n > self.rd.remaining() as u64 {
            return Err(self.rd.eof(items));
        }
        Ok(n)
    }

    /// The fields of a record or variant (the entry starts at `at`): ids in 32 bits
    /// and strictly increasing.
    fn fields(&mut self, at: usize) -> Result<Span> {
        let n = self.rd.leb("field count")?;
        if n > u64::from(u32::MAX) {
            return Err(Error::binary("field length out of 32-bit range", at));
        }
        if n > self.rd.remaining() as u64 {
            return Err(self.rd.eof("fields"));
        }
        // Each field takes two bytes at least (an id and a type).
        self.reserve_fields(n as usize, 2);
        let start = self.arena.fields.len() as u32;
        // The least id the next field may have: ids strictly increase.
        let mut least: u64 = 0;
        for _ in 0..n {
            let fat = self.rd.offset();
            let id = self.rd.leb("field id")?;
            let id = u32::try_from(id)
                .map_err(|_| Error::binary("field id out of 32-bit range", fat))?;
            if u64::from(id) < least {
                return Err(Error::binary(
                    format!("field id {id} collision or not sorted"),
                    fat,
                ));
            }
            least = u64::from(id) + 1;
            let ty = self.type_ref("field type")?;
            self.arena.fields.push(FieldEntry { id, ty });
        }
        Ok(Span {
            start,
            len: n as u32,
        })
    }

    /// Room for `n` more fields (record fields, variant cases, argument types) of
    /// at least `min_bytes` each, for no more of them than the bytes left can hold:
    /// no count a message claims reserves more than its bytes justify.
    #[inline(always)]
    fn reserve_fields(&mut self, n: usize, min_bytes: usize) {
        let fields = &mut self.arena.fields;
        if fields.capacity() - fields.len() < n {
            fields.reserve(n.min(self.rd.remaining() / min_bytes));
        }
    }

    /// A function type: arguments, results, and at most one annotation byte.
    fn func(&mut self) -> Result<Node> {
        let n = self.count("function argument count", "function arguments")?;
        let args = (0..n)
            .map(|_| self.type_ref("function argument"))
            .collect::<Result<Vec<_>>>()?;
        let n = self.count("function result count", "function results")?;
        let rets = (0..n)
            .map(|_| self.type_ref("function result"))
            .collect::<Result<Vec<_>>>()?;
        let mat = self.rd.offset();
        let mode = match self.rd.byte("function annotation length")? {
            0 => 0,
            1 => match self.rd.byte("function annotation")? {
                m @ 1..=3 => m,
                _ => return Err(Error::binary("unknown function annotation", mat + 1)),
            },
            _ => {
                return Err(Error::binary(
                    "function annotation length should be at most 1",
                    mat,
                ))
            }
        };
        self.arena.funcs.push(FuncEntry { args, rets, mode });
        Ok(Node::Func(self.arena.funcs.len() as u32 - 1))
    }

    /// A service type: methods with UTF-8 names in strictly increasing order.
    fn service(&mut self) -> Result<Node> {
        let n = self.count("method count", "methods")?;
        let start = self.arena.methods.len() as u32;
        let mut prev: Option<Box<str>> = None;
        for _ in 0..n {
            let mat = self.rd.offset();
            let len = self.rd.leb("method name length")?;
            let name = std::str::from_utf8(self.blob(len, "method name")?)
                .map_err(|_| Error::binary("invalid utf8 in method name", mat))?;
            if prev.as_deref().is_some_and(|p| p >= name) {
                return Err(Error::binary(
                    format!("method name {name} duplicate or not sorted"),
                    mat,
                ));
            }
            let name: Box<str> = name.into();
            prev = Some(name.clone());
            let ty = self.type_ref("method type")?;
            self.arena.methods.push((name, ty));
        }
        Ok(Node::Service(Span {
            start,
            len: n as u32,
        }))
    }

    /// A type from a future Candid version (the entry starts at `at`): its opcode
    /// (SLEB128, below -24), then a blob.
    fn future(&mut self, at: usize) -> Result<Node> {
        self.rd.rewind(at);
        let op = self.rd.sleb("type opcode")?;
        if op >= opcode::PRINCIPAL {
            return Err(Error::binary(
                format!("unknown opcode {op} in type table"),
                at,
            ));
        }
        let len = self.rd.leb("future type length")?;
        self.blob(len, "future type")?;
        Ok(Node::Future)
    }

    /// A length-prefixed run of bytes (a method name, a future type's body).
    fn blob(&mut self, len: u64, what: &str) -> Result<&[u8]> {
        let n = usize::try_from(len).map_err(|_| self.rd.eof(what))?;
        self.rd.take(n, what)
    }

    /// The argument types, after the table: appended to the arena's fields.
    fn arguments(&mut self) -> Result<Span> {
        let at = self.rd.offset();
        let argc = self.count("argument count", "argument types")?;
        let len = u32::try_from(argc)
            .map_err(|_| Error::binary("argument count out of 32-bit range", at))?;
        self.reserve_fields(len as usize, 1);
        let start = self.arena.fields.len() as u32;
        for id in 0..len {
            let ty = self.type_ref("argument type")?;
            self.arena.fields.push(FieldEntry { id, ty });
        }
        Ok(Span { start, len })
    }
}
