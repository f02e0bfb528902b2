//! Runs instrumented canister code in wasmi against the `ic0` host (see `ic0`): a canister is
//! compiled and linked once, instantiated as often as needed, and each message executes on an
//! instance with the instruction counter starting from zero.

use crate::cost::CostTable;
use crate::flame::Recorder;
use crate::ic0::{self, Host, Message, Mode, Persistent, Response, ANONYMOUS, CANISTER_REJECT};
use crate::instrument::hooks::{TRACE_ENTER, TRACE_EXIT, TRACE_MODULE};
use crate::instrument::{COUNTER_EXPORT, PROFILE_PREFIX, START_EXPORT};
use std::sync::Arc;
use wasmi::{Config, Engine, ExternType, Global, Linker, Memory, Module, Store, Val};

/// The argument canbench sends to every benchmark query: `Encode!(&())`.
pub const QUERY_ARG: &[u8] = b"DIDL\x00\x01\x7f";
/// Native stack for executing messages (see [`on_big_stack`]).
const NATIVE_STACK: usize = 2 << 30;

/// How one message ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Reply(Vec<u8>),
    Reject {
        code: u32,
        message: String,
    },
    /// The message trapped; its state changes are gone.
    Trap(String),
    /// The method returned without replying (fine for `canister_init`).
    NoReply,
}

/// One executed message: how it ended and the instructions it used.
#[derive(Debug)]
pub struct Delivery {
    pub outcome: Outcome,
    pub instructions: u64,
    /// Its calls, in a tracing build.
    pub trace: Option<Box<Recorder>>,
}

/// A compiled canister, linked against the host, ready to be instantiated.
pub struct Canister {
    engine: Engine,
    module: Module,
    linker: Arc<Linker<Host>>,
    /// Loaded after installation (see [`Canister::install_and_query`]); empty: none.
    stable_memory: Vec<u8>,
    init_args: Vec<u8>,
    /// The canister's environment variables, sorted by name.
    env_vars: Arc<Vec<(String, String)>>,
    has_init: bool,
    show_output: bool,
    limit: u64,
    /// How many per-function counters the module exports (0 unless built for profiling).
    profiled: usize,
    /// Whether the module calls the trace hooks (a tracing build): its messages are traced.
    traced: bool,
}

/// A query executed on a freshly installed canister (what a benchmark is).
pub struct QueryRun {
    pub outcome: Outcome,
    pub instructions: u64,
    /// Per defined function, the instructions charged inside it (empty unless profiling).
    pub profile: Vec<u64>,
    /// The counters at each `performance_counter` call (empty unless profiling).
    pub snapshots: Vec<ic0::Snapshot>,
    /// The query's calls, in a tracing build.
    pub trace: Option<Box<Recorder>>,
}

/// An instantiated canister: its store (heap, globals, host state) and instance.
pub struct Live {
    pub store: Store<Host>,
    pub instance: wasmi::Instance,
}

impl Live {
    /// The heap, if the canister exports it as `memory` (the host needs it to exchange data).
    pub fn memory(&self) -> Option<Memory> {
        self.store.data().memory
    }

    /// A global the instance exports.
    pub fn global(&self, name: &str) -> Option<Global> {
        self.instance.get_global(&self.store, name)
    }

    fn counter(&self) -> Result<Global, String> {
        self.store
            .data()
            .counter
            .ok_or_else(|| "module is not instrumented (no instruction counter)".to_string())
    }

    fn instructions(&self) -> Result<u64, String> {
        Ok(self.counter()?.get(&self.store).i64().unwrap_or(0) as u64)
    }

    fn reset_counter(&mut self) -> Result<(), String> {
        let counter = self.counter()?;
        counter
            .set(&mut self.store, Val::I64(0))
            .map_err(|e| e.to_string())
    }
}

/// Runs `f` on a thread with a deep native stack: wasmi's executor uses the native stack for
/// Wasm calls, so deep canister recursion needs one (the memory is reserved, and only touched
/// pages are committed).
pub fn on_big_stack<T: Send>(name: &str, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(NATIVE_STACK)
            .spawn_scoped(s, f)
            .map_err(|e| format!("cannot start the execution thread: {e}"))?
            .join()
            .map_err(|_| "the execution thread panicked".to_string())
    })
}

impl Canister {
    /// Compiles an (already instrumented) module and links it against the host.
    pub fn new(
        instrumented: &[u8],
        table: &CostTable,
        init_args: Vec<u8>,
        stable_memory: Vec<u8>,
        show_output: bool,
        limit: u64,
    ) -> Result<Canister, String> {
        let mut config = Config::default();
        // The IC lets canisters recurse deeply (its stack is large); recursive decoders of
        // 2,048-deep values need tens of thousands of frames.
        config.set_max_recursion_depth(1 << 20);
        config.set_max_stack_height(1 << 30);
        // The IC runs the deterministic SIMD of the core specification, not relaxed
        // SIMD, whose results may differ from one machine to the next.
        config.wasm_simd(true).wasm_relaxed_simd(false);
        let engine = Engine::new(&config);
        let module = Module::new(&engine, instrumented)
            .map_err(|e| format!("cannot compile the canister: {e}"))?;
        let (mut linker, defined) =
            ic0::build_linker(&engine, table).map_err(|e| format!("internal error: {e}"))?;
        let mut has_init = false;
        let mut profiled = 0;
        let mut traced = false;
        for export in module.exports() {
            has_init |= export.name() == "canister_init";
            profiled += usize::from(export.name().starts_with(PROFILE_PREFIX));
        }
        for import in module.imports() {
            let (m, name) = (import.module(), import.name());
            let ExternType::Func(ty) = import.ty() else {
                return Err(format!("the canister imports `{m}.{name}`, which is not a function; the runner provides only ic0 functions"));
            };
            if m == TRACE_MODULE && (name == TRACE_ENTER || name == TRACE_EXIT) {
                traced = true;
                continue;
            }
            if m != "ic0" || !ic0::KNOWN_IC0.contains(&name) {
                return Err(format!(
                    "the canister imports `{m}.{name}`, which the runner does not provide"
                ));
            }
            if defined.contains(&name) {
                continue;
            }
            let label = format!("ic0.{name}");
            linker
                .func_new(m, name, ty.clone(), move |_c, _args, _results| {
                    Err(ic0::trap(format!(
                        "{label} is not supported by the offline runner"
                    )))
                })
                .map_err(|e| format!("internal error: {e}"))?;
        }
        Ok(Canister {
            engine,
            module,
            linker: Arc::new(linker),
            stable_memory,
            init_args,
            env_vars: Arc::new(Vec::new()),
            has_init,
            show_output,
            limit,
            profiled,
            traced,
        })
    }

    /// The same canister, created with these environment variables (`NAME`, `VALUE`; sorted
    /// by name, as the replica keeps them and `ic0.env_var_name_copy` indexes them).
    pub fn with_env_vars(self, env_vars: Vec<(String, String)>) -> Canister {
        Canister {
            env_vars: Arc::new(env_vars),
            ..self
        }
    }

    /// Names of the `canister_query __canbench__*` benchmarks, in export order.
    pub fn benchmarks(&self) -> Vec<String> {
        self.module
            .exports()
            .filter_map(|e| {
                e.name()
                    .strip_prefix("canister_query __canbench__")
                    .map(str::to_string)
            })
            .collect()
    }

    /// Whether the module exports a function called `name`.
    pub fn exports_function(&self, name: &str) -> bool {
        self.module
            .exports()
            .any(|e| e.name() == name && matches!(e.ty(), ExternType::Func(_)))
    }

    /// Names of the module's exports that start with `prefix`.
    pub fn exports_with_prefix<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a str> {
        self.module
            .exports()
            .map(|e| e.name())
            .filter(move |n| n.starts_with(prefix))
    }

    pub fn has_init(&self) -> bool {
        self.has_init
    }

    /// A fresh instance with `persistent` host state. The module's start function (which the
    /// instrumentation turned into an export) does not run: see [`Canister::start`].
    pub fn instantiate(&self, persistent: Persistent) -> Result<Live, String> {
        let mut store = Store::new(&self.engine, Host::new(persistent, self.show_output));
        let instance = self
            .linker
            .instantiate_and_start(&mut store, &self.module)
            .map_err(|e| format!("instantiation failed: {e}"))?;
        let memory = instance.get_memory(&store, "memory");
        let counter = instance.get_global(&store, COUNTER_EXPORT);
        let host = store.data_mut();
        host.memory = memory;
        host.counter = counter;
        host.env_vars = Arc::clone(&self.env_vars);
        let live = Live { store, instance };
        live.counter()?;
        Ok(live)
    }

    /// Runs the module's start function, if it has one, as the IC does when it installs the
    /// code (before `canister_init`).
    pub fn start(&self, live: &mut Live) -> Result<Option<Delivery>, String> {
        if !self.exports_function(START_EXPORT) {
            return Ok(None);
        }
        let message = Message::new(Mode::Start, &[], ANONYMOUS);
        self.execute(live, START_EXPORT, message).map(Some)
    }

    /// Executes the exported function `export` as one message. A trap is an outcome; errors
    /// are for what no message can cause (a missing export, a wrong signature).
    pub fn execute(
        &self,
        live: &mut Live,
        export: &str,
        message: Message,
    ) -> Result<Delivery, String> {
        let func = live
            .instance
            .get_func(&live.store, export)
            .ok_or_else(|| format!("the canister has no export `{export}`"))?;
        let ty = func.ty(&live.store);
        if !ty.params().is_empty() || !ty.results().is_empty() {
            return Err(format!(
                "the export `{export}` is not a function of type () -> ()"
            ));
        }
        live.store.data_mut().message = if self.traced && message.trace.is_none() {
            message.traced(0)
        } else {
            message
        };
        live.reset_counter()?;
        let result = func.call(&mut live.store, &[], &mut []);
        let instructions = live.instructions()?;
        let mut trace = live.store.data_mut().message.trace.take();
        if let Some(r) = trace.as_mut() {
            r.finish(instructions);
        }
        let outcome = match result {
            Err(e) => Outcome::Trap(self.trap_text(instructions, e)),
            Ok(()) => match std::mem::take(&mut live.store.data_mut().message.response) {
                Response::Replied(bytes) => Outcome::Reply(bytes),
                Response::Rejected(message) => Outcome::Reject {
                    code: CANISTER_REJECT,
                    message,
                },
                Response::Pending | Response::Building(_) => Outcome::NoReply,
            },
        };
        Ok(Delivery {
            outcome,
            instructions,
            trace,
        })
    }

    /// Calls `export`, a function of type () -> i32, as the tools that read a canister's
    /// interface call `get_candid_pointer`: outside any message, in query mode.
    pub fn call_i32(&self, live: &mut Live, export: &str) -> Result<i32, String> {
        let func = live
            .instance
            .get_typed_func::<(), i32>(&live.store, export)
            .map_err(|e| format!("the canister has no export `{export}` of type () -> i32: {e}"))?;
        live.store.data_mut().message = Message::new(Mode::Query, &[], ANONYMOUS);
        live.reset_counter()?;
        func.call(&mut live.store, ()).map_err(|e| {
            let used = live.instructions().unwrap_or(0);
            format!("`{export}` trapped: {}", self.trap_text(used, e))
        })
    }

    fn trap_text(&self, instructions: u64, error: wasmi::Error) -> String {
        if instructions > self.limit {
            format!(
                "instruction limit exceeded: more than {} instructions (raise it with --instruction-limit)",
                self.limit
            )
        } else {
            error.to_string()
        }
    }

    /// Installs the canister in a fresh instance (start function, then `canister_init` if it
    /// exists), loads the stable memory file if there is one (after `canister_init`, as
    /// upstream canbench installs the code, then sets the stable memory: what `canister_init`
    /// wrote there is replaced), and executes the query `method` on it, as canbench runs a
    /// benchmark. The
    /// instructions, and the profile of a profiling build, are those of the query alone; a
    /// trap anywhere is an error.
    pub fn install_and_query(&self, method: &str, arg: &[u8]) -> Result<QueryRun, String> {
        self.install_and_query_traced(method, arg, 0)
    }

    /// [`Canister::install_and_query`]; in a tracing build, calls shorter than `resolution`
    /// are collapsed in the trace (see `flame::record`).
    pub fn install_and_query_traced(
        &self,
        method: &str,
        arg: &[u8],
        resolution: u64,
    ) -> Result<QueryRun, String> {
        let run = on_big_stack(&format!("canister {method}"), || {
            self.install_and_query_on_this_thread(method, arg, resolution)
        })??;
        match run.outcome {
            Outcome::Trap(e) => Err(e),
            _ => Ok(run),
        }
    }

    /// [`Canister::install_and_query`], with a trap in the query returned as its outcome (a
    /// trap while installing is still an error), so the caller can tell them apart.
    pub fn install_and_run_query(&self, method: &str, arg: &[u8]) -> Result<QueryRun, String> {
        on_big_stack(&format!("canister {method}"), || {
            self.install_and_query_on_this_thread(method, arg, 0)
        })?
    }

    fn install_and_query_on_this_thread(
        &self,
        method: &str,
        arg: &[u8],
        resolution: u64,
    ) -> Result<QueryRun, String> {
        let mut live = self.instantiate(Persistent::default())?;
        if let Some(Delivery {
            outcome: Outcome::Trap(e),
            ..
        }) = self.start(&mut live)?
        {
            return Err(format!("the start function trapped: {e}"));
        }
        if self.has_init {
            let init = Message::new(Mode::Init, &self.init_args, ANONYMOUS);
            if let Outcome::Trap(e) = self.execute(&mut live, "canister_init", init)?.outcome {
                return Err(format!("canister_init trapped: {e}"));
            }
        }
        if !self.stable_memory.is_empty() {
            live.store.data_mut().persistent.stable = self.stable_memory.clone();
        }
        // The profile covers the query only, like the counter.
        let profile: Vec<Global> = (0..self.profiled)
            .filter_map(|f| live.global(&format!("{PROFILE_PREFIX}{f}")))
            .collect();
        for g in &profile {
            g.set(&mut live.store, Val::I64(0))
                .map_err(|e| e.to_string())?;
        }
        let export = format!("canister_query {method}");
        let mut query = Message::new(Mode::Query, arg, ANONYMOUS).profiled(profile);
        if self.traced {
            query = query.traced(resolution);
        }
        let delivery = self.execute(&mut live, &export, query)?;
        let query = &mut live.store.data_mut().message;
        let snapshots = std::mem::take(&mut query.snapshots);
        let profile = std::mem::take(&mut query.profile);
        Ok(QueryRun {
            outcome: delivery.outcome,
            instructions: delivery.instructions,
            profile: ic0::read_counters(&profile, &live.store),
            snapshots,
            trace: delivery.trace,
        })
    }
}
