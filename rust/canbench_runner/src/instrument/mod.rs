//! Rewrites a canister module so that it counts instructions the way the IC replica does.
//!
//! The replica (dfinity/ic `rs/embedders/src/wasm_utils/instrumentation.rs`) splits every
//! function into basic blocks and, on entry to each block, charges the static cost of all the
//! block's operators (including the operator that ends it); function bodies pay one extra
//! instruction; bulk memory/table operators additionally pay their size operand at run time.
//! We do the same, except that our counter counts *up* from zero (the replica counts down from
//! the limit); like the replica, function entries and loop heads trap once the counter passes the
//! limit (the runner then reports "instruction limit exceeded"), so a runaway benchmark ends.
//!
//! Like the replica, it also exports every mutable global (so the runner can keep a canister's
//! state between messages and restore it after a trap) and replaces the start section by an
//! export (so instantiating a module runs no code: the runner calls the start function when it
//! installs the canister, and never again when it restores a snapshot into a new instance).
//!
//! Only the sections that change are rebuilt (globals, exports, code); the start section is
//! dropped; everything else is copied byte for byte, and new items are appended after existing
//! ones so no index shifts. Custom sections are dropped: nothing downstream reads them.
//! Function bodies are metered by `body`; what we add is written with `wasm-encoder`.

mod body;
pub mod hooks;

use crate::cost::{CostTable, OpNamer};
use body::{Meter, Own, Traced};
use wasm_encoder::{ConstExpr, Encode, ExportKind, GlobalType, SectionId, ValType};
use wasmparser::{BinaryReader, Parser, Payload, TypeRef};

/// Export name of the injected instruction counter (an i64 mutable global), as on the IC.
pub const COUNTER_EXPORT: &str = "canister counter_instructions";

/// Export-name prefix of the per-function counters a profiling build adds: `<prefix><index>`,
/// where the index counts defined functions from 0 (imports excluded).
pub const PROFILE_PREFIX: &str = "canbench profile ";

/// Export-name prefix of the module's own mutable globals: `<prefix><global index>`.
pub const PERSISTED_GLOBAL_PREFIX: &str = "canbench global ";

/// Export name of the module's start function, if it has one.
pub const START_EXPORT: &str = "canbench start";

/// Every export name the instrumentation adds starts with this, or is the counter.
const RESERVED_PREFIX: &str = "canbench ";

/// Facts about the module needed before its code can be rewritten.
#[derive(Default)]
struct ModuleInfo {
    type_params: Vec<u32>,
    type_results: Vec<Vec<wasmparser::ValType>>,
    func_types: Vec<u32>,
    imported_funcs: u32,
    imported_globals: u32,
    defined_globals: u32,
    /// Indices of the defined globals that are mutable.
    mutable_globals: Vec<u32>,
    start: Option<u32>,
    memory64: bool,
}

/// The count at the start of a vector-shaped section, and where its entries start. The module
/// was parsed before, so a failure here means the input changed under us: an error, not a panic.
fn read_count(bytes: &[u8]) -> Result<(u32, usize), String> {
    let mut reader = BinaryReader::new(bytes, 0);
    let count = reader.read_var_u32().map_err(invalid)?;
    Ok((count, reader.original_position()))
}

fn invalid(e: wasmparser::BinaryReaderError) -> String {
    format!("invalid wasm: {e}")
}

/// Appends a section: its id, its size, its content.
fn section(out: &mut Vec<u8>, id: u8, content: &[u8]) {
    out.push(id);
    (content.len() as u64).encode(out);
    out.extend_from_slice(content);
}

/// Position of a section id in the order the binary format requires (tag and data count sit
/// between their neighbours, not at their numeric place).
fn rank(id: u8) -> u8 {
    match id {
        13 => 6, // tag: after memory (5), before global
        6 => 7,
        7 => 8,
        8 => 9,
        9 => 10,
        12 => 11, // data count: before code
        10 => 12,
        11 => 13,
        other => other,
    }
}

const GLOBAL_ID: u8 = SectionId::Global as u8;
const EXPORT_ID: u8 = SectionId::Export as u8;
const CODE_ID: u8 = SectionId::Code as u8;

/// What we add: the counter global, then (when profiling) one global per profile counter;
/// exports of those, of the module's mutable globals and of its start function.
struct Added {
    counter: u32,
    profiled: u32,
    persisted: Vec<u32>,
    start: Option<u32>,
}

impl Added {
    fn global_count(&self) -> u64 {
        1 + u64::from(self.profiled)
    }

    fn export_count(&self) -> u64 {
        self.global_count() + self.persisted.len() as u64 + u64::from(self.start.is_some())
    }

    /// The added globals: each a mutable i64 starting at 0.
    fn globals(&self, out: &mut Vec<u8>) {
        let ty = GlobalType {
            val_type: ValType::I64,
            mutable: true,
            shared: false,
        };
        for _ in 0..self.global_count() {
            ty.encode(out);
            ConstExpr::i64_const(0).encode(out);
        }
    }

    fn exports(&self, out: &mut Vec<u8>) {
        export_entry(out, COUNTER_EXPORT, ExportKind::Global, self.counter);
        for f in 0..self.profiled {
            let name = format!("{PROFILE_PREFIX}{f}");
            export_entry(out, &name, ExportKind::Global, self.counter + 1 + f);
        }
        for &g in &self.persisted {
            let name = format!("{PERSISTED_GLOBAL_PREFIX}{g}");
            export_entry(out, &name, ExportKind::Global, g);
        }
        if let Some(f) = self.start {
            export_entry(out, START_EXPORT, ExportKind::Func, f);
        }
    }
}

fn export_entry(out: &mut Vec<u8>, name: &str, kind: ExportKind, index: u32) {
    name.encode(out);
    kind.encode(out);
    index.encode(out);
}

/// Appends `added` entries to a vector-shaped section (count followed by entries).
fn append_entries(
    original: &[u8],
    added: u64,
    entries: impl FnOnce(&mut Vec<u8>),
) -> Result<Vec<u8>, String> {
    let (count, start) = read_count(original)?;
    let mut out = Vec::with_capacity(original.len() + 32);
    (u64::from(count) + added).encode(&mut out);
    out.extend_from_slice(&original[start..]);
    entries(&mut out);
    Ok(out)
}

/// A fresh section holding only our entries.
fn new_section(added: u64, entries: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut content = Vec::new();
    added.encode(&mut content);
    entries(&mut content);
    content
}

/// The code section being rebuilt: its content so far and how many bodies are still to come.
struct CodeSection {
    content: Vec<u8>,
    left: u32,
}

impl CodeSection {
    fn push(&mut self, body: &[u8]) {
        (body.len() as u64).encode(&mut self.content);
        self.content.extend_from_slice(body);
        self.left = self.left.saturating_sub(1);
    }
}

impl ModuleInfo {
    /// How many parameters the defined function `index` takes.
    fn params_of(&self, index: usize) -> Result<u32, String> {
        let ty = *self
            .func_types
            .get(index)
            .ok_or("function without a type")?;
        let params = *self
            .type_params
            .get(ty as usize)
            .ok_or("function type out of range")?;
        Ok(params)
    }

    /// The block type of a block that leaves what defined function `index` returns.
    fn result_block(&self, index: usize) -> Result<wasm_encoder::BlockType, String> {
        let ty = *self
            .func_types
            .get(index)
            .ok_or("function without a type")?;
        let results = self
            .type_results
            .get(ty as usize)
            .ok_or("function type out of range")?;
        match results.as_slice() {
            [] => Ok(wasm_encoder::BlockType::Empty),
            [one] => {
                use wasm_encoder::reencode::Reencode;
                let ty = wasm_encoder::reencode::RoundtripReencoder
                    .val_type(*one)
                    .map_err(|e| format!("cannot trace a function returning {one:?}: {e}"))?;
                Ok(wasm_encoder::BlockType::Result(ty))
            }
            _ => Err("cannot trace a function with several results (multi-value)".into()),
        }
    }
}

/// For each defined function, the module offsets of the basic blocks a per-block profile
/// counts ([`Profile::Blocks`]).
fn block_offsets(wasm: &[u8], meter: &Meter) -> Result<Vec<Vec<usize>>, String> {
    let mut namer = OpNamer::default();
    let mut out = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::CodeSectionEntry(body) = payload.map_err(invalid)? {
            out.push(body::block_offsets(&body, meter, &mut namer)?);
        }
    }
    Ok(out)
}

/// Names of the counters a `profile` build of `wasm` adds, in their order: each
/// function's name ([`function_names`]), or for each basic block
/// `<function> #<block number in it> @<hex module offset of its first operator>` (the
/// offset a disassembler that prints offsets shows).
pub fn counter_names(
    wasm: &[u8],
    table: &CostTable,
    profile: Profile,
) -> Result<Vec<String>, String> {
    let functions = function_names(wasm)?;
    match profile {
        Profile::Off => Ok(Vec::new()),
        Profile::Functions | Profile::Trace => Ok(functions),
        Profile::Blocks => {
            let info = scan(wasm)?;
            let meter = Meter {
                table,
                memory64: info.memory64,
                counter: 0,
                own: Own::None,
                limit: 0,
            };
            let blocks = block_offsets(wasm, &meter)?;
            Ok(functions
                .iter()
                .zip(blocks)
                .flat_map(|(name, offsets)| {
                    offsets
                        .into_iter()
                        .enumerate()
                        .map(move |(k, at)| format!("{name} #{k} @{at:x}"))
                })
                .collect())
        }
    }
}

/// Names of the defined functions (index from 0, imports excluded), from the module's
/// `name` section, demangled; functions it does not name are called `func[<index>]`.
pub fn function_names(wasm: &[u8]) -> Result<Vec<String>, String> {
    let info = scan(wasm)?;
    let mut names: Vec<String> = (0..info.func_types.len())
        .map(|i| format!("func[{i}]"))
        .collect();
    for payload in Parser::new(0).parse_all(wasm) {
        let Payload::CustomSection(c) = payload.map_err(invalid)? else {
            continue;
        };
        let wasmparser::KnownCustom::Name(reader) = c.as_known() else {
            continue;
        };
        for sub in reader {
            let Ok(wasmparser::Name::Function(map)) = sub else {
                continue;
            };
            for naming in map.into_iter().flatten() {
                let defined = naming.index.checked_sub(info.imported_funcs);
                if let Some(slot) = defined.and_then(|i| names.get_mut(i as usize)) {
                    // `{:#}` leaves out the symbol hash.
                    *slot = format!("{:#}", rustc_demangle::demangle(naming.name));
                }
            }
        }
    }
    Ok(names)
}

fn scan(wasm: &[u8]) -> Result<ModuleInfo, String> {
    let mut info = ModuleInfo::default();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(invalid)? {
            Payload::TypeSection(r) => {
                for ty in r.into_iter_err_on_gc_types() {
                    let ty = ty.map_err(invalid)?;
                    info.type_params.push(ty.params().len() as u32);
                    info.type_results.push(ty.results().to_vec());
                }
            }
            Payload::ImportSection(r) => {
                for import in r {
                    match import.map_err(invalid)?.ty {
                        TypeRef::Func(_) => info.imported_funcs += 1,
                        TypeRef::Global(_) => info.imported_globals += 1,
                        TypeRef::Memory(m) if m.memory64 => info.memory64 = true,
                        _ => {}
                    }
                }
            }
            Payload::FunctionSection(r) => {
                for f in r {
                    info.func_types.push(f.map_err(invalid)?);
                }
            }
            Payload::MemorySection(r) => {
                if let Some(Ok(m)) = r.into_iter().next() {
                    info.memory64 |= m.memory64;
                }
            }
            Payload::GlobalSection(r) => {
                info.defined_globals = r.count();
                for (i, g) in r.into_iter().enumerate() {
                    if g.map_err(invalid)?.ty.mutable {
                        info.mutable_globals.push(info.imported_globals + i as u32);
                    }
                }
            }
            Payload::StartSection { func, .. } => info.start = Some(func),
            Payload::ExportSection(r) => {
                for e in r {
                    let name = e.map_err(invalid)?.name;
                    if name == COUNTER_EXPORT || name.starts_with(RESERVED_PREFIX) {
                        return Err(format!(
                            "module already exports `{name}`, a name the runner reserves"
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(info)
}

/// What a profiling build counts besides the message total, each count exported as
/// [`PROFILE_PREFIX`]`<index>`; [`counter_names`] names them in that order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Profile {
    /// Nothing: the build that measures.
    Off,
    /// Each defined function's own instructions (callees excluded).
    Functions,
    /// Each basic block's instructions: where inside a function they go.
    Blocks,
    /// No counters: every function reports its entry and exit to the host instead (the trace
    /// hooks, see [`hooks`]), with its defined index, which [`counter_names`] names.
    Trace,
}

/// Returns the instrumented module. Errors name what is wrong with the input.
///
/// A profiling build also adds the counters `profile` asks for: each receives the same
/// charges as the main counter for the code it covers.
pub fn instrument(
    wasm: &[u8],
    table: &CostTable,
    limit: u64,
    profile: Profile,
) -> Result<Vec<u8>, String> {
    if wasm.len() < 8 || &wasm[..4] != b"\0asm" {
        return Err("not a WebAssembly module (bad magic number)".into());
    }
    let mut info = scan(wasm)?;
    let traced_module;
    let mut hooks = None;
    let wasm = if profile == Profile::Trace {
        let (module, enter, exit) =
            hooks::add_hooks(wasm, info.imported_funcs, info.type_params.len() as u32)?;
        traced_module = module;
        info = scan(&traced_module)?;
        hooks = Some((enter, exit));
        &traced_module[..]
    } else {
        wasm
    };
    let counter = info.imported_globals + info.defined_globals;
    let meter = Meter {
        table,
        memory64: info.memory64,
        counter,
        own: Own::None,
        limit,
    };
    // Per defined function, the index of its first profile counter, then the total.
    let mut firsts = Vec::with_capacity(info.func_types.len() + 1);
    let mut total = 0u32;
    match profile {
        Profile::Off | Profile::Trace => {}
        Profile::Functions => {
            firsts.extend(0..=info.func_types.len() as u32);
            total = info.func_types.len() as u32;
        }
        Profile::Blocks => {
            for blocks in block_offsets(wasm, &meter)? {
                firsts.push(total);
                total = u32::try_from(blocks.len())
                    .ok()
                    .and_then(|n| total.checked_add(n))
                    .ok_or("too many basic blocks to profile")?;
            }
        }
    }
    let added = Added {
        counter,
        profiled: total,
        persisted: info.mutable_globals.clone(),
        start: info.start,
    };
    let mut out = wasm[..8].to_vec();
    let (mut globals_done, mut exports_done) = (false, false);
    let mut code: Option<CodeSection> = None;
    let mut func_index = 0usize;
    let mut namer = OpNamer::default();

    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(invalid)?;
        let Some((id, range)) = payload.as_section() else {
            if let Payload::CodeSectionEntry(body) = payload {
                let section_so_far = code
                    .as_mut()
                    .ok_or("invalid wasm: a function body outside the code section")?;
                let first = firsts.get(func_index).map(|f| counter + 1 + f);
                let own = match (profile, first) {
                    (Profile::Functions, Some(g)) => Own::Function(g),
                    (Profile::Blocks, Some(g)) => Own::Blocks(g),
                    _ => Own::None,
                };
                let traced = match hooks {
                    Some((enter, exit)) => Some(Traced {
                        enter,
                        exit,
                        index: func_index as u32,
                        result: info.result_block(func_index)?,
                    }),
                    None => None,
                };
                let metered = body::meter(
                    wasm,
                    &body,
                    info.params_of(func_index)?,
                    &Meter { own, ..meter },
                    traced,
                    &mut namer,
                )?;
                section_so_far.push(&metered);
                func_index += 1;
                if section_so_far.left == 0 {
                    if let Some(done) = code.take() {
                        section(&mut out, CODE_ID, &done.content);
                    }
                }
            }
            continue;
        };
        if id == 0 {
            continue; // custom section
        }
        // Sections the module lacks but we need are inserted where the format expects them.
        if !globals_done && rank(id) > rank(GLOBAL_ID) {
            let content = new_section(added.global_count(), |o| added.globals(o));
            section(&mut out, GLOBAL_ID, &content);
            globals_done = true;
        }
        if !exports_done && rank(id) > rank(EXPORT_ID) {
            let content = new_section(added.export_count(), |o| added.exports(o));
            section(&mut out, EXPORT_ID, &content);
            exports_done = true;
        }
        let data = &wasm[range];
        match payload {
            Payload::GlobalSection(_) => {
                let content = append_entries(data, added.global_count(), |o| added.globals(o))?;
                section(&mut out, id, &content);
                globals_done = true;
            }
            Payload::ExportSection(_) => {
                let content = append_entries(data, added.export_count(), |o| added.exports(o))?;
                section(&mut out, id, &content);
                exports_done = true;
            }
            Payload::CodeSectionStart { count, .. } => {
                let mut content = Vec::with_capacity(data.len() + data.len() / 4);
                count.encode(&mut content);
                if count == 0 {
                    section(&mut out, CODE_ID, &content);
                } else {
                    code = Some(CodeSection {
                        content,
                        left: count,
                    });
                }
            }
            Payload::StartSection { .. } => {} // exported as START_EXPORT instead
            _ => section(&mut out, id, data),
        }
    }
    if !globals_done {
        let content = new_section(added.global_count(), |o| added.globals(o));
        section(&mut out, GLOBAL_ID, &content);
    }
    if !exports_done {
        let content = new_section(added.export_count(), |o| added.exports(o));
        section(&mut out, EXPORT_ID, &content);
    }
    // Re-check the result so a bug here reports as ours, not as a broken canister.
    wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::all())
        .validate_all(&out)
        .map_err(|e| format!("internal error: instrumented module is invalid: {e}"))?;
    Ok(out)
}
