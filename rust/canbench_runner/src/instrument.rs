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

use crate::cost::{CostTable, OpNamer, FUNCTION_ENTRY_COST};
use wasmparser::{Operator, Parser, Payload, TypeRef};

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
    func_types: Vec<u32>,
    imported_funcs: u32,
    imported_globals: u32,
    defined_globals: u32,
    /// Indices of the defined globals that are mutable.
    mutable_globals: Vec<u32>,
    start: Option<u32>,
    memory64: bool,
}

// The wasm binary format uses the same LEB128 forms as Candid: candor's public
// encoders (candid's `types::leb128`) serve both. Writing to a `Vec` cannot fail.
fn leb(out: &mut Vec<u8>, v: u64) {
    let _ = candor::types::leb128::encode_nat(out, v.into());
}

fn sleb(out: &mut Vec<u8>, v: i64) {
    let _ = candor::types::leb128::encode_int(out, v.into());
}

/// A LEB128 value at the start of `bytes` and its length. The module was validated
/// first, so a failure here means the input changed under us: an error, not a panic.
fn read_leb(bytes: &[u8]) -> Result<(u64, usize), String> {
    let mut rest = bytes;
    let v = candor::types::leb128::decode_nat(&mut rest)
        .map_err(|e| format!("invalid wasm: bad LEB128 ({e})"))?;
    let v = u64::try_from(v).map_err(|_| "invalid wasm: LEB128 value over 64 bits".to_string())?;
    Ok((v, bytes.len() - rest.len()))
}

fn section(out: &mut Vec<u8>, id: u8, content: &[u8]) {
    out.push(id);
    leb(out, content.len() as u64);
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

const GLOBAL_ID: u8 = 6;
const EXPORT_ID: u8 = 7;

/// What we add: the counter global, then (when profiling) one global per defined function;
/// exports of those, of the module's mutable globals and of its start function.
struct Added {
    counter: u32,
    profiled: u32,
    persisted: Vec<u32>,
    start: Option<u32>,
}

const EXPORT_FUNC: u8 = 0x00;
const EXPORT_GLOBAL: u8 = 0x03;

impl Added {
    fn global_count(&self) -> u64 {
        1 + u64::from(self.profiled)
    }

    fn export_count(&self) -> u64 {
        self.global_count() + self.persisted.len() as u64 + u64::from(self.start.is_some())
    }

    fn globals(&self, out: &mut Vec<u8>) {
        for _ in 0..self.global_count() {
            out.extend_from_slice(&[0x7e, 0x01, 0x42, 0x00, 0x0b]); // mut i64 = i64.const 0
        }
    }

    fn exports(&self, out: &mut Vec<u8>) {
        export_entry(out, COUNTER_EXPORT, EXPORT_GLOBAL, self.counter);
        for f in 0..self.profiled {
            let name = format!("{PROFILE_PREFIX}{f}");
            export_entry(out, &name, EXPORT_GLOBAL, self.counter + 1 + f);
        }
        for &g in &self.persisted {
            let name = format!("{PERSISTED_GLOBAL_PREFIX}{g}");
            export_entry(out, &name, EXPORT_GLOBAL, g);
        }
        if let Some(f) = self.start {
            export_entry(out, START_EXPORT, EXPORT_FUNC, f);
        }
    }
}

fn export_entry(out: &mut Vec<u8>, name: &str, kind: u8, index: u32) {
    leb(out, name.len() as u64);
    out.extend_from_slice(name.as_bytes());
    out.push(kind);
    leb(out, u64::from(index));
}

/// Appends `added` entries to a vector-shaped section (count followed by entries).
fn append_entries(
    original: &[u8],
    added: u64,
    entries: impl FnOnce(&mut Vec<u8>),
) -> Result<Vec<u8>, String> {
    let (count, n) = read_leb(original)?;
    let mut out = Vec::with_capacity(original.len() + 32);
    leb(&mut out, count + added);
    out.extend_from_slice(&original[n..]);
    entries(&mut out);
    Ok(out)
}

/// A fresh section holding only our entries.
fn new_section(added: u64, entries: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut content = Vec::new();
    leb(&mut content, added);
    entries(&mut content);
    content
}

/// Names of the defined functions (index from 0, imports excluded), from the module's
/// `name` section, demangled; functions it does not name are called `func[<index>]`.
pub fn function_names(wasm: &[u8]) -> Result<Vec<String>, String> {
    let info = scan(wasm)?;
    let mut names: Vec<String> = (0..info.func_types.len())
        .map(|i| format!("func[{i}]"))
        .collect();
    for payload in Parser::new(0).parse_all(wasm) {
        let Payload::CustomSection(c) = payload.map_err(|e| format!("invalid wasm: {e}"))? else {
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
        match payload.map_err(|e| format!("invalid wasm: {e}"))? {
            Payload::TypeSection(r) => {
                for ty in r.into_iter_err_on_gc_types() {
                    let ty = ty.map_err(|e| format!("invalid wasm: {e}"))?;
                    info.type_params.push(ty.params().len() as u32);
                }
            }
            Payload::ImportSection(r) => {
                for import in r {
                    match import.map_err(|e| format!("invalid wasm: {e}"))?.ty {
                        TypeRef::Func(_) => info.imported_funcs += 1,
                        TypeRef::Global(_) => info.imported_globals += 1,
                        TypeRef::Memory(m) if m.memory64 => info.memory64 = true,
                        _ => {}
                    }
                }
            }
            Payload::FunctionSection(r) => {
                for f in r {
                    info.func_types
                        .push(f.map_err(|e| format!("invalid wasm: {e}"))?);
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
                    if g.map_err(|e| format!("invalid wasm: {e}"))?.ty.mutable {
                        info.mutable_globals.push(info.imported_globals + i as u32);
                    }
                }
            }
            Payload::StartSection { func, .. } => info.start = Some(func),
            Payload::ExportSection(r) => {
                for e in r {
                    let name = e.map_err(|e| format!("invalid wasm: {e}"))?.name;
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

/// Returns the instrumented module. Errors name what is wrong with the input.
///
/// With `profile`, each defined function also gets its own counter that receives the same
/// charges as the main counter for the code inside that function (its own cost, callees
/// excluded), exported as [`PROFILE_PREFIX`]`<index>`.
pub fn instrument(
    wasm: &[u8],
    table: &CostTable,
    limit: u64,
    profile: bool,
) -> Result<Vec<u8>, String> {
    if wasm.len() < 8 || &wasm[..4] != b"\0asm" {
        return Err("not a WebAssembly module (bad magic number)".into());
    }
    let info = scan(wasm)?;
    let counter = info.imported_globals + info.defined_globals;
    let added = Added {
        counter,
        profiled: if profile {
            info.func_types.len() as u32
        } else {
            0
        },
        persisted: info.mutable_globals.clone(),
        start: info.start,
    };
    let mut out = wasm[..8].to_vec();
    let (mut globals_done, mut exports_done) = (false, false);
    let mut code: Option<(Vec<u8>, u32)> = None; // (section content, bodies left)
    let mut func_index = 0usize;
    let mut namer = OpNamer::default();

    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| format!("invalid wasm: {e}"))?;
        let Some((id, range)) = payload.as_section() else {
            if let Payload::CodeSectionEntry(body) = payload {
                let (content, left) = code.as_mut().expect("code entry outside the code section");
                let ty = *info
                    .func_types
                    .get(func_index)
                    .ok_or("function without a type")?;
                let params = *info
                    .type_params
                    .get(ty as usize)
                    .ok_or("function type out of range")?;
                let own = profile.then(|| counter + 1 + func_index as u32);
                let body_bytes = instrument_body(
                    wasm,
                    &body,
                    params,
                    (counter, own),
                    info.memory64,
                    table,
                    limit,
                    &mut namer,
                )?;
                leb(content, body_bytes.len() as u64);
                content.extend_from_slice(&body_bytes);
                func_index += 1;
                *left -= 1;
                if *left == 0 {
                    let (content, _) = code.take().unwrap();
                    section(&mut out, 10, &content);
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
                leb(&mut content, u64::from(count));
                if count == 0 {
                    section(&mut out, 10, &content);
                } else {
                    code = Some((content, count));
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

#[derive(Clone, Copy)]
enum Charge {
    /// Add a constant; `reentrant` marks loop heads and function entry (always kept).
    Static { cost: u64, reentrant: bool },
    /// Add the size operand on top of the stack (i32 unless `wide`).
    Dynamic { wide: bool },
}

#[allow(clippy::too_many_arguments)] // one call site; a struct would only rename them
fn instrument_body(
    wasm: &[u8],
    body: &wasmparser::FunctionBody,
    params: u32,
    (counter, own): (u32, Option<u32>),
    memory64: bool,
    table: &CostTable,
    limit: u64,
    namer: &mut OpNamer,
) -> Result<Vec<u8>, String> {
    let err = |e: wasmparser::BinaryReaderError| format!("invalid wasm: {e}");
    let mut locals = body.get_locals_reader().map_err(err)?;
    let mut groups = Vec::new();
    let mut declared = 0u64;
    for _ in 0..locals.get_count() {
        let (n, ty) = locals.read().map_err(err)?;
        declared += u64::from(n);
        groups.push((n, ty));
    }
    let mut ops_reader = body.get_operators_reader().map_err(err)?;
    let ops_start = ops_reader.original_position();
    let body_end = body.range().end;
    let mut ops = Vec::new();
    while !ops_reader.eof() {
        let (op, offset) = ops_reader.read_with_offset().map_err(err)?;
        ops.push((op, offset));
    }

    // Injection points, computed exactly as the replica's `injections` does.
    let mut points: Vec<(usize, Charge)> = Vec::new();
    let (mut start, mut cost, mut reentrant) = (0usize, FUNCTION_ENTRY_COST, true);
    let (mut need32, mut need64) = (false, false);
    for (i, (op, _)) in ops.iter().enumerate() {
        cost += table.op_cost_by_name(namer.name(op), memory64);
        let mut close = |next_reentrant: bool, points: &mut Vec<(usize, Charge)>| {
            points.push((start, Charge::Static { cost, reentrant }));
            start = i + 1;
            cost = 0;
            reentrant = next_reentrant;
        };
        match op {
            Operator::Loop { .. } => close(true, &mut points),
            Operator::If { .. }
            | Operator::Else
            | Operator::Br { .. }
            | Operator::BrIf { .. }
            | Operator::BrTable { .. }
            | Operator::End
            | Operator::Return
            | Operator::Unreachable
            | Operator::ReturnCall { .. }
            | Operator::ReturnCallIndirect { .. } => close(false, &mut points),
            Operator::MemoryFill { .. }
            | Operator::MemoryCopy { .. }
            | Operator::TableFill { .. }
            | Operator::TableCopy { .. } => {
                points.push((i, Charge::Dynamic { wide: memory64 }));
                if memory64 {
                    need64 = true
                } else {
                    need32 = true
                }
            }
            Operator::MemoryInit { .. } | Operator::TableInit { .. } => {
                points.push((i, Charge::Dynamic { wide: false }));
                need32 = true;
            }
            _ => {}
        }
    }
    points.retain(|(_, c)| match c {
        Charge::Static { cost, reentrant } => *reentrant || *cost > 0,
        Charge::Dynamic { .. } => true,
    });
    points.sort_by_key(|(pos, _)| *pos);

    // Scratch locals for dynamic charges go after all existing locals, so no index moves.
    let mut next_local = u64::from(params) + declared;
    let tmp32 = need32.then(|| {
        next_local += 1;
        next_local - 1
    });
    let tmp64 = need64.then(|| {
        next_local += 1;
        next_local - 1
    });

    let mut out = Vec::with_capacity(body_end - body.range().start + points.len() * 12);
    leb(
        &mut out,
        (groups.len() + usize::from(need32) + usize::from(need64)) as u64,
    );
    let (_, count_len) = read_leb(&wasm[body.range().start..])?;
    out.extend_from_slice(&wasm[body.range().start + count_len..ops_start]);
    if need32 {
        out.extend_from_slice(&[1, 0x7f]);
    }
    if need64 {
        out.extend_from_slice(&[1, 0x7e]);
    }

    // Adds the i64 on top of the stack to `global`.
    let add_to = |out: &mut Vec<u8>, global: u32| {
        out.push(0x23); // global.get
        leb(out, u64::from(global));
        out.push(0x7c); // i64.add
        out.push(0x24); // global.set
        leb(out, u64::from(global));
    };
    let mut p = 0;
    for (i, &(_, offset)) in ops.iter().enumerate() {
        while p < points.len() && points[p].0 == i {
            match points[p].1 {
                Charge::Static { cost, reentrant } => {
                    out.push(0x42); // i64.const cost
                    sleb(&mut out, cost as i64);
                    add_to(&mut out, counter);
                    if let Some(own) = own {
                        out.push(0x42);
                        sleb(&mut out, cost as i64);
                        add_to(&mut out, own);
                    }
                    if reentrant {
                        // Like the replica, check the limit only where code can repeat
                        // (function entry, loop heads): `if counter > limit { unreachable }`.
                        out.push(0x23);
                        leb(&mut out, u64::from(counter));
                        out.push(0x42);
                        sleb(&mut out, limit.min(i64::MAX as u64) as i64);
                        out.extend_from_slice(&[0x55, 0x04, 0x40, 0x00, 0x0b]);
                    }
                }
                Charge::Dynamic { wide } => {
                    let tmp = if wide { tmp64 } else { tmp32 }.expect("scratch local");
                    out.push(0x22); // local.tee
                    leb(&mut out, tmp);
                    if !wide {
                        out.push(0xad); // i64.extend_i32_u
                    }
                    add_to(&mut out, counter);
                    if let Some(own) = own {
                        out.push(0x20); // local.get
                        leb(&mut out, tmp);
                        if !wide {
                            out.push(0xad);
                        }
                        add_to(&mut out, own);
                    }
                    out.push(0x20); // local.get
                    leb(&mut out, tmp);
                }
            }
            p += 1;
        }
        let end = ops.get(i + 1).map_or(body_end, |&(_, next)| next);
        out.extend_from_slice(&wasm[offset..end]);
    }
    Ok(out)
}
