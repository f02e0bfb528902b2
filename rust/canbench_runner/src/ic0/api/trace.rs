//! The trace hooks a tracing build calls (see `instrument::hooks`): not part of `ic0`, never
//! charged; they pass each function entry and exit, with the counter, to the message's
//! recorder (when it has one).

use crate::ic0::linker::Ic0Linker;
use crate::ic0::Host;
use crate::instrument::hooks::{TRACE_ENTER, TRACE_EXIT, TRACE_MODULE};
use wasmi::{Caller, Error};

fn now(c: &Caller<'_, Host>) -> u64 {
    c.data()
        .counter
        .map_or(0, |g| g.get(c).i64().unwrap_or(0) as u64)
}

pub(in crate::ic0) fn link(l: &mut Ic0Linker) -> Result<(), Error> {
    l.linker.func_wrap(
        TRACE_MODULE,
        TRACE_ENTER,
        |mut c: Caller<'_, Host>, func: i32| {
            let at = now(&c);
            if let Some(r) = c.data_mut().message.trace.as_mut() {
                r.enter(func as u32, at);
            }
        },
    )?;
    l.linker.func_wrap(
        TRACE_MODULE,
        TRACE_EXIT,
        |mut c: Caller<'_, Host>, func: i32| {
            let at = now(&c);
            if let Some(r) = c.data_mut().message.trace.as_mut() {
                r.exit(func as u32, at);
            }
        },
    )?;
    Ok(())
}
