//! One installed canister receiving messages in order, its state kept between them as the IC
//! keeps it: what an update or `canister_init` leaves in the heap, the mutable globals, stable
//! memory and the host's per-canister state (timer, certified data, version) persists; a
//! query's changes, and a trapped message's, are rolled back.
//!
//! Rollback restores a snapshot taken before the message into a new instance of the module:
//! Wasm memory cannot shrink, so writing the old bytes back into the same instance would leave
//! a memory that grew during the message larger than the canister left it.

use crate::exec::{Canister, Delivery, Live, Outcome};
use crate::ic0::{Message, Mode, Persistent, CANISTER_ID};
use crate::instrument::PERSISTED_GLOBAL_PREFIX;
use wasmi::Val;

/// The IC's reject code for a call to a method the canister does not export
/// (DESTINATION_INVALID).
const DESTINATION_INVALID: u32 = 3;

/// What the canister's state is between messages.
struct State {
    memory: Vec<u8>,
    globals: Vec<(String, Val)>,
    persistent: Persistent,
}

/// An installed canister.
pub struct Session<'c> {
    canister: &'c Canister,
    live: Live,
    caller: Vec<u8>,
    globals: Vec<String>,
}

impl<'c> Session<'c> {
    /// A fresh instance of `canister`; messages come from `caller`. Call [`Session::install`]
    /// before sending messages.
    pub fn new(canister: &'c Canister, caller: &[u8]) -> Result<Session<'c>, String> {
        let live = canister.instantiate(Persistent::default())?;
        let globals = canister
            .exports_with_prefix(PERSISTED_GLOBAL_PREFIX)
            .map(str::to_string)
            .collect();
        Ok(Session {
            canister,
            live,
            caller: caller.to_vec(),
            globals,
        })
    }

    /// Installs the code as `install_code` does: the start function, then `canister_init`
    /// (when exported) with `arg`. The instructions are those of both; a trap in either is the
    /// outcome, and leaves the canister as it was before.
    pub fn install(&mut self, arg: &[u8]) -> Result<Delivery, String> {
        let before = self.snapshot()?;
        // The version the canister sees after install_code.
        self.live.store.data_mut().persistent.version = 1;
        let mut instructions = 0;
        if let Some(start) = self.canister.start(&mut self.live)? {
            instructions = start.instructions;
            if let Outcome::Trap(e) = start.outcome {
                self.restore(before)?;
                let outcome = Outcome::Trap(format!("the start function trapped: {e}"));
                return Ok(Delivery {
                    outcome,
                    instructions,
                    trace: start.trace,
                });
            }
        }
        let mut delivery = Delivery {
            outcome: Outcome::NoReply,
            instructions: 0,
            trace: None,
        };
        if self.canister.has_init() {
            let message = Message::new(Mode::Init, arg, &self.caller);
            delivery = self
                .canister
                .execute(&mut self.live, "canister_init", message)?;
        }
        delivery.instructions += instructions;
        if matches!(delivery.outcome, Outcome::Trap(_)) {
            self.restore(before)?;
        }
        Ok(delivery)
    }

    /// A query call: `canister_query METHOD`, whose changes are discarded.
    pub fn query(&mut self, method: &str, arg: &[u8]) -> Result<Delivery, String> {
        let export = format!("canister_query {method}");
        if !self.canister.exports_function(&export) {
            return Ok(no_such_method("query", method));
        }
        self.deliver(&export, Mode::Query, arg)
    }

    /// An update call: `canister_update METHOD`, or a query method executed in replicated
    /// mode (its changes discarded all the same), as the IC does for update calls to queries.
    pub fn update(&mut self, method: &str, arg: &[u8]) -> Result<Delivery, String> {
        let update = format!("canister_update {method}");
        if self.canister.exports_function(&update) {
            return self.deliver(&update, Mode::Update, arg);
        }
        let query = format!("canister_query {method}");
        if self.canister.exports_function(&query) {
            return self.deliver(&query, Mode::ReplicatedQuery, arg);
        }
        Ok(no_such_method("update", method))
    }

    fn deliver(&mut self, export: &str, mode: Mode, arg: &[u8]) -> Result<Delivery, String> {
        let before = self.snapshot()?;
        let message = Message::new(mode, arg, &self.caller);
        let delivery = self.canister.execute(&mut self.live, export, message)?;
        let keep = mode == Mode::Update && !matches!(delivery.outcome, Outcome::Trap(_));
        if keep {
            // The IC counts every successful update as a change of the canister.
            self.live.store.data_mut().persistent.version += 1;
        } else {
            self.restore(before)?;
        }
        Ok(delivery)
    }

    /// What `ic0.debug_print` printed so far (rolled-back messages' output included).
    #[cfg(test)]
    pub fn output(&self) -> &[String] {
        &self.live.store.data().output
    }

    fn snapshot(&self) -> Result<State, String> {
        let memory = match self.live.memory() {
            Some(m) => m.data(&self.live.store).to_vec(),
            None => Vec::new(),
        };
        let mut globals = Vec::with_capacity(self.globals.len());
        for name in &self.globals {
            let global = self
                .live
                .global(name)
                .ok_or_else(|| format!("internal error: no export `{name}`"))?;
            globals.push((name.clone(), global.get(&self.live.store)));
        }
        let persistent = self.live.store.data().persistent.clone();
        Ok(State {
            memory,
            globals,
            persistent,
        })
    }

    /// Replaces the instance by a new one holding `state`.
    fn restore(&mut self, state: State) -> Result<(), String> {
        let output = std::mem::take(&mut self.live.store.data_mut().output);
        let mut live = self.canister.instantiate(state.persistent)?;
        live.store.data_mut().output = output;
        if let Some(memory) = live.memory() {
            let have = memory.size(&live.store);
            let want = state.memory.len() as u64 / crate::ic0::WASM_PAGE;
            if want > have {
                memory
                    .grow(&mut live.store, want - have)
                    .map_err(|e| format!("cannot restore the canister's memory: {e}"))?;
            }
            let data = memory.data_mut(&mut live.store);
            let target = data
                .get_mut(..state.memory.len())
                .ok_or("internal error: the restored memory is too small")?;
            target.copy_from_slice(&state.memory);
        }
        for (name, value) in state.globals {
            let global = live
                .global(&name)
                .ok_or_else(|| format!("internal error: no export `{name}`"))?;
            global
                .set(&mut live.store, value)
                .map_err(|e| format!("cannot restore global `{name}`: {e}"))?;
        }
        self.live = live;
        Ok(())
    }
}

/// The reject the IC gives for a method the canister does not export.
fn no_such_method(kind: &str, method: &str) -> Delivery {
    let id = candor::Principal::from_slice(CANISTER_ID).to_text();
    Delivery {
        outcome: Outcome::Reject {
            code: DESTINATION_INVALID,
            message: format!("Canister {id} has no {kind} method '{method}'"),
        },
        instructions: 0,
        trace: None,
    }
}
