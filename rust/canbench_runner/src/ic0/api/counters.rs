//! `ic0.performance_counter`: the instructions the message has used so far, read from the
//! counter the instrumentation maintains.

use crate::ic0::linker::{define, Ic0Linker};
use crate::ic0::{read_counters, trap, Snapshot};
use wasmi::Error;

pub(in crate::ic0) fn link(l: &mut Ic0Linker) -> Result<(), Error> {
    define!(l, "performance_counter", |c, kind: i32| -> i64 {
        match kind {
            // 0: this message; 1: the call context. One message is the whole call here.
            0 | 1 => {
                let now = c.data().counter.map_or(0, |g| g.get(&c).i64().unwrap_or(0));
                if let Some(r) = c.data_mut().message.trace.as_mut() {
                    r.performance_counter(now as u64);
                }
                if !c.data().message.profile.is_empty() {
                    let profile = read_counters(&c.data().message.profile, &c);
                    c.data_mut().message.snapshots.push(Snapshot {
                        instructions: now as u64,
                        profile,
                    });
                }
                Ok(now)
            }
            other => Err(trap(format!(
                "ic0.performance_counter: unknown counter type {other}"
            ))),
        }
    });
    Ok(())
}
