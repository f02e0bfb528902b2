//! Metering one function body: where the charges go (the replica's injection points, before
//! the first operator of every basic block and before every bulk memory or table operator),
//! and the code that adds them to the counters. The body's own operators are copied byte for
//! byte; only the charges are new.

use super::invalid;
use crate::cost::{CostTable, OpNamer, FUNCTION_ENTRY_COST};
use wasm_encoder::{BlockType, Encode, InstructionSink, ValType};
use wasmparser::{FunctionBody, Operator};

/// What the injected code charges, and to which counters.
#[derive(Clone, Copy)]
pub(super) struct Meter<'t> {
    pub(super) table: &'t CostTable,
    pub(super) memory64: bool,
    /// The global every charge is added to.
    pub(super) counter: u32,
    /// The counters of a profiling build that receive the same charges.
    pub(super) own: Own,
    /// Where function entry and loop heads trap.
    pub(super) limit: u64,
}

/// Where a profiling build adds a body's charges besides the main counter.
#[derive(Clone, Copy)]
pub(super) enum Own {
    /// Nowhere: the measuring build.
    None,
    /// The function's own counter: every charge in the body.
    Function(u32),
    /// One counter per basic block, from this global on, in the order of the blocks'
    /// constant charges (a bulk operator's size charge goes to its block's counter):
    /// the blocks [`block_offsets`] lists.
    Blocks(u32),
}

/// A tracing build's calls around one body: the hooks, and what the body is to them.
#[derive(Clone, Copy)]
pub(super) struct Traced {
    pub(super) enter: u32,
    pub(super) exit: u32,
    /// The function's defined index, what the hooks receive.
    pub(super) index: u32,
    /// The type of the block the body is wrapped in (the function's results).
    pub(super) result: BlockType,
}

#[derive(Clone, Copy)]
enum Charge {
    /// Add a constant; `reentrant` marks loop heads and function entry (always kept).
    Static { cost: u64, reentrant: bool },
    /// Add the size operand on top of the stack (i32 unless `wide`).
    Dynamic { wide: bool },
}

/// The charges of one body, each to go before the operator at its index, in order.
struct Injections {
    points: Vec<(usize, Charge)>,
    /// Whether dynamic charges need a scratch local of type i32, of type i64.
    need32: bool,
    need64: bool,
}

/// The scratch locals dynamic charges keep the size operand in.
struct Scratch {
    i32: Option<u32>,
    i64: Option<u32>,
}

/// The body's operators, each with its offset in the module, and where the body ends.
struct Operators<'a> {
    ops: Vec<(Operator<'a>, usize)>,
    end: usize,
}

/// Returns `body` (of a function taking `params` parameters) with its charges injected.
///
/// A `traced` body also calls the enter hook first, and runs inside a block after which it
/// calls the exit hook: branches to the function's label now reach that block (it is one label
/// further out, so their depths do not change), a `return` becomes a branch to it, and a tail
/// call reports the exit before it leaves. None of this is charged.
pub(super) fn meter(
    wasm: &[u8],
    body: &FunctionBody,
    params: u32,
    meter: &Meter,
    traced: Option<Traced>,
    namer: &mut OpNamer,
) -> Result<Vec<u8>, String> {
    let mut locals = body.get_locals_reader().map_err(invalid)?;
    let groups = locals.get_count();
    let groups_start = locals.original_position();
    let mut declared = 0u64;
    for _ in 0..groups {
        let (n, _) = locals.read().map_err(invalid)?;
        declared += u64::from(n);
    }
    let ops = read_operators(body)?;
    let injections = injection_points(&ops.ops, meter, namer);

    // Scratch locals go after all existing locals, so no index moves.
    let mut next_local = u64::from(params) + declared;
    let mut scratch_local = |needed: bool| -> Result<Option<u32>, String> {
        if !needed {
            return Ok(None);
        }
        let index = u32::try_from(next_local)
            .map_err(|_| "invalid wasm: too many locals for a scratch local".to_string())?;
        next_local += 1;
        Ok(Some(index))
    };
    let scratch = Scratch {
        i32: scratch_local(injections.need32)?,
        i64: scratch_local(injections.need64)?,
    };

    let mut out = Vec::with_capacity(ops.end - body.range().start + injections.points.len() * 12);
    let added = u32::from(injections.need32) + u32::from(injections.need64);
    (u64::from(groups) + u64::from(added)).encode(&mut out);
    let ops_start = ops.ops.first().map_or(ops.end, |&(_, offset)| offset);
    out.extend_from_slice(&wasm[groups_start..ops_start]);
    for (needed, ty) in [
        (injections.need32, ValType::I32),
        (injections.need64, ValType::I64),
    ] {
        if needed {
            1u32.encode(&mut out);
            ty.encode(&mut out);
        }
    }

    let mut points = injections.points.iter().peekable();
    // In a per-block build: the next block's counter, and the current one's.
    let (mut next_block, mut block) = (0u32, None);
    if let Some(t) = traced {
        let mut sink = InstructionSink::new(&mut out);
        sink.i32_const(t.index as i32).call(t.enter).block(t.result);
    }
    // Blocks open inside the body (in a traced body: inside the wrapping block).
    let mut depth = 0u32;
    let last = ops.ops.len().saturating_sub(1);
    for (i, &(ref op, offset)) in ops.ops.iter().enumerate() {
        while let Some(&(_, charge)) = points.next_if(|(at, _)| *at == i) {
            let own = match (meter.own, charge) {
                (Own::None, _) => None,
                (Own::Function(g), _) => Some(g),
                (Own::Blocks(first), Charge::Static { .. }) => {
                    block = Some(first + next_block);
                    next_block += 1;
                    block
                }
                (Own::Blocks(_), Charge::Dynamic { .. }) => block,
            };
            meter.emit(charge, own, &scratch, &mut out)?;
        }
        let end = ops.ops.get(i + 1).map_or(ops.end, |&(_, next)| next);
        if let Some(t) = traced {
            let mut sink = InstructionSink::new(&mut out);
            match op {
                Operator::Return => {
                    sink.br(depth);
                    continue;
                }
                Operator::ReturnCall { .. } | Operator::ReturnCallIndirect { .. } => {
                    sink.i32_const(t.index as i32).call(t.exit);
                }
                Operator::End if i == last => {
                    sink.end().i32_const(t.index as i32).call(t.exit);
                }
                _ => {}
            }
            match op {
                Operator::Block { .. }
                | Operator::Loop { .. }
                | Operator::If { .. }
                | Operator::Try { .. }
                | Operator::TryTable { .. } => depth += 1,
                Operator::End | Operator::Delegate { .. } => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        out.extend_from_slice(&wasm[offset..end]);
    }
    Ok(out)
}

/// The module offsets of the first operators of the body's basic blocks that charge a
/// constant, in order: the blocks a per-block profile ([`Own::Blocks`]) counts.
pub(super) fn block_offsets(
    body: &FunctionBody,
    meter: &Meter,
    namer: &mut OpNamer,
) -> Result<Vec<usize>, String> {
    let ops = read_operators(body)?;
    let injections = injection_points(&ops.ops, meter, namer);
    Ok(injections
        .points
        .iter()
        .filter(|(_, c)| matches!(c, Charge::Static { .. }))
        .map(|&(at, _)| ops.ops.get(at).map_or(ops.end, |&(_, offset)| offset))
        .collect())
}

fn read_operators<'a>(body: &FunctionBody<'a>) -> Result<Operators<'a>, String> {
    let mut reader = body.get_operators_reader().map_err(invalid)?;
    let mut ops = Vec::new();
    while !reader.eof() {
        ops.push(reader.read_with_offset().map_err(invalid)?);
    }
    Ok(Operators {
        ops,
        end: body.range().end,
    })
}

/// The injection points, computed exactly as the replica's `injections` does: a basic block
/// ends after a branch, `if`, `else`, `end`, `return` or `unreachable`, and before a `loop`
/// (whose head is reentrant); each block is charged the static costs of its operators on
/// entry, and the bulk operators their size operand as well.
fn injection_points(ops: &[(Operator, usize)], meter: &Meter, namer: &mut OpNamer) -> Injections {
    let mut points: Vec<(usize, Charge)> = Vec::new();
    let (mut start, mut cost, mut reentrant) = (0usize, FUNCTION_ENTRY_COST, true);
    let (mut need32, mut need64) = (false, false);
    for (i, (op, _)) in ops.iter().enumerate() {
        cost += meter.table.op_cost_by_name(namer.name(op), meter.memory64);
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
                points.push((
                    i,
                    Charge::Dynamic {
                        wide: meter.memory64,
                    },
                ));
                if meter.memory64 {
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
    Injections {
        points,
        need32,
        need64,
    }
}

impl Meter<'_> {
    /// Writes the code for one charge, added to the main counter and to `own`.
    fn emit(
        &self,
        charge: Charge,
        own: Option<u32>,
        scratch: &Scratch,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        let counters = || std::iter::once(self.counter).chain(own);
        let mut sink = InstructionSink::new(out);
        match charge {
            Charge::Static { cost, reentrant } => {
                for counter in counters() {
                    sink.i64_const(cost as i64);
                    add_to(&mut sink, counter);
                }
                if reentrant {
                    // Like the replica, check the limit only where code can repeat
                    // (function entry, loop heads): `if counter > limit { unreachable }`.
                    sink.global_get(self.counter)
                        .i64_const(self.limit.min(i64::MAX as u64) as i64)
                        .i64_gt_s()
                        .if_(BlockType::Empty)
                        .unreachable()
                        .end();
                }
            }
            Charge::Dynamic { wide } => {
                let tmp = if wide { scratch.i64 } else { scratch.i32 }
                    .ok_or("internal error: no scratch local for a bulk operator")?;
                // The size operand, kept for the operator, widened to i64 for each counter.
                sink.local_tee(tmp);
                for (k, counter) in counters().enumerate() {
                    if k > 0 {
                        sink.local_get(tmp);
                    }
                    if !wide {
                        sink.i64_extend_i32_u();
                    }
                    add_to(&mut sink, counter);
                }
                sink.local_get(tmp);
            }
        }
        Ok(())
    }
}

/// Adds the i64 on top of the stack to `global`.
fn add_to(sink: &mut InstructionSink, global: u32) {
    sink.global_get(global).i64_add().global_set(global);
}
