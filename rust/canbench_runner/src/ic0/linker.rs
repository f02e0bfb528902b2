//! Links the `ic0` functions: every call is charged what the replica charges, then checked
//! against the mode, then does what the spec says. The calls themselves are defined by the
//! `api` modules, one group of the interface each.

use super::{api, availability, trap, Host};
use crate::cost::{CostTable, SysApiCost};
use wasmi::{Caller, Engine, Error, Linker, Val};

/// A linker being filled with `ic0` functions, and the names defined so far.
pub(super) struct Ic0Linker<'t> {
    pub(super) linker: Linker<Host>,
    pub(super) defined: Vec<&'static str>,
    table: &'t CostTable,
}

impl Ic0Linker<'_> {
    /// What the replica charges for the call `name`.
    pub(super) fn cost(&self, name: &str) -> SysApiCost {
        self.table.sysapi(name)
    }

    /// The modes `name` may be called from.
    pub(super) fn availability(&self, name: &str) -> u8 {
        availability(name)
    }
}

/// A linker with every implemented `ic0` function, and the names it defines.
pub fn build_linker(
    engine: &Engine,
    table: &CostTable,
) -> Result<(Linker<Host>, Vec<&'static str>), Error> {
    let mut l = Ic0Linker {
        linker: Linker::<Host>::new(engine),
        defined: Vec::new(),
        table,
    };
    api::message::link(&mut l)?;
    api::calls::link(&mut l)?;
    api::stable::link(&mut l)?;
    api::counters::link(&mut l)?;
    api::debug::link(&mut l)?;
    api::system::link(&mut l)?;
    api::trace::link(&mut l)?;
    Ok((l.linker, l.defined))
}

/// Defines `ic0.NAME` on an [`Ic0Linker`]: the closure's arguments are the call's, and its
/// body runs after the call is charged (overhead, plus the size argument for calls the cost
/// table charges per byte) and its mode is checked.
macro_rules! define {
    ($l:ident, $name:literal, |$c:ident $(, $a:ident : $t:ty)*| -> $r:ty $body:block) => {{
        let cost = $l.cost($name);
        let allowed = $l.availability($name);
        $l.defined.push($name);
        $l.linker.func_wrap(
            "ic0",
            $name,
            move |mut $c: ::wasmi::Caller<'_, $crate::ic0::Host> $(, $a: $t)*|
                  -> ::std::result::Result<$r, ::wasmi::Error> {
                let bytes: u64 = $crate::ic0::linker::define!(@size $($a)*);
                $crate::ic0::linker::charge(&mut $c, cost, bytes)?;
                $crate::ic0::linker::check_mode(&$c, $name, allowed)?;
                $body
            },
        )?;
    }};
    // The size a per-byte cost applies to: the last of `(src, size)` or
    // `(dst, offset, size)`; the stable memory calls name it themselves.
    (@size) => { 0 };
    (@size $a:ident) => { 0 };
    (@size $a:ident $b:ident) => { $crate::ic0::access::SizeArg::byte_count($b) };
    (@size $a:ident $b:ident $s:ident) => { $crate::ic0::access::SizeArg::byte_count($s) };
    (@size $($a:ident)*) => { 0 };
}
pub(super) use define;

/// Adds what a call costs to the instruction counter.
pub(super) fn charge(c: &mut Caller<'_, Host>, cost: SysApiCost, size: u64) -> Result<(), Error> {
    charge_instructions(c, cost.overhead + if cost.per_byte { size } else { 0 })
}

/// Adds `instructions` to the instruction counter.
pub(super) fn charge_instructions(
    c: &mut Caller<'_, Host>,
    instructions: u64,
) -> Result<(), Error> {
    let counter = c
        .data()
        .counter
        .ok_or_else(|| trap("internal error: no instruction counter"))?;
    let now = counter.get(&*c).i64().unwrap_or(0);
    counter
        .set(&mut *c, Val::I64(now.wrapping_add(instructions as i64)))
        .map_err(|e| trap(e.to_string()))
}

/// Traps unless `name` may be called in the current mode.
pub(super) fn check_mode(c: &Caller<'_, Host>, name: &str, allowed: u8) -> Result<(), Error> {
    let mode = c.data().message.mode;
    if allowed & mode.bit() == 0 {
        return Err(trap(format!(
            "ic0.{name} cannot be executed in {} mode",
            mode.name()
        )));
    }
    Ok(())
}
