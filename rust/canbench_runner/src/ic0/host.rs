//! The state the `ic0` functions work on, split by how long it lives: [`Message`] for one
//! message, [`Persistent`] for the canister (kept across messages, rolled back with the heap),
//! and [`Host`] for one instance of the module.

use super::{Mode, ANONYMOUS};
use crate::flame::Recorder;
use std::collections::BTreeSet;
use std::sync::Arc;
use wasmi::{Global, Memory};

/// One message while it runs: what the canister reads through `ic0.msg_*` (mode, argument,
/// caller) and what it builds (its response, the call under construction, the counter
/// readings of a profiling build). Each message starts from a new value, so nothing one
/// message leaves behind can reach the next.
#[derive(Debug)]
pub struct Message {
    pub mode: Mode,
    pub arg: Vec<u8>,
    pub caller: Vec<u8>,
    pub response: Response,
    pub(super) call: CallState,
    /// The per-function counters of a profiling build (empty otherwise), and their values
    /// (with the main counter's) at every `performance_counter` call, so a profile can be
    /// split at the points where canbench-rs opens and closes its scopes.
    pub profile: Vec<Global>,
    pub snapshots: Vec<Snapshot>,
    /// The 4 KiB pages of stable memory this message has written: the replica charges for
    /// each page a message dirties, once.
    pub(super) dirty_stable_pages: BTreeSet<u64>,
    /// A tracing build's record of the calls (see `flame`), when the message is traced.
    pub trace: Option<Box<Recorder>>,
}

impl Message {
    /// A message entered in `mode`, with nothing responded and no call under construction.
    pub fn new(mode: Mode, arg: &[u8], caller: &[u8]) -> Message {
        Message {
            mode,
            arg: arg.to_vec(),
            caller: caller.to_vec(),
            response: Response::Pending,
            call: CallState::None,
            profile: Vec::new(),
            snapshots: Vec::new(),
            dirty_stable_pages: BTreeSet::new(),
            trace: None,
        }
    }

    /// The same message, recording its calls (in a tracing build), calls shorter than
    /// `resolution` collapsed (see `flame::record`).
    pub fn traced(self, resolution: u64) -> Message {
        Message {
            trace: Some(Box::new(Recorder::new(resolution))),
            ..self
        }
    }

    /// The same message, with the per-function counters it reads at `performance_counter`.
    pub fn profiled(self, profile: Vec<Global>) -> Message {
        Message { profile, ..self }
    }
}

/// How far the current message got in responding.
#[derive(Debug, Default)]
pub enum Response {
    /// No response and no reply data yet.
    #[default]
    Pending,
    /// The bytes `msg_reply_data_append` collected so far.
    Building(Vec<u8>),
    Replied(Vec<u8>),
    Rejected(String),
}

/// The inter-canister call under construction, if any.
#[derive(Debug, Default)]
pub(super) enum CallState {
    #[default]
    None,
    Building {
        payload: usize,
        cleanup: bool,
        best_effort: bool,
    },
}

/// Host state that outlives a message, as the IC keeps it with the canister: rolled back
/// with the heap when a message traps or is a query.
#[derive(Clone, Debug, Default)]
pub struct Persistent {
    pub stable: Vec<u8>,
    pub timer: u64,
    pub certified_data: Vec<u8>,
    pub version: u64,
}

/// Per-instance state the host functions work on.
pub struct Host {
    /// The message running now, or the last one that ran.
    pub message: Message,
    pub persistent: Persistent,
    pub memory: Option<Memory>,
    pub counter: Option<Global>,
    /// The canister's environment variables (a setting: the same in every message).
    pub env_vars: Arc<Vec<(String, String)>>,
    pub show_output: bool,
    /// What `ic0.debug_print` printed, over every message of the instance.
    pub output: Vec<String>,
}

/// The counters at one `performance_counter` call.
#[derive(Debug)]
pub struct Snapshot {
    pub instructions: u64,
    pub profile: Vec<u64>,
}

impl Host {
    pub fn new(persistent: Persistent, show_output: bool) -> Host {
        Host {
            message: Message::new(Mode::Start, &[], ANONYMOUS),
            persistent,
            memory: None,
            counter: None,
            env_vars: Arc::new(Vec::new()),
            show_output,
            output: Vec::new(),
        }
    }
}
