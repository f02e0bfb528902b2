//! Runs instrumented canister code in wasmi with the `ic0` system API a canbench-rs canister
//! uses, charging each call what the replica charges.

use crate::cost::{CostTable, SysApiCost};
use crate::instrument::{COUNTER_EXPORT, PROFILE_PREFIX};
use std::sync::Arc;
use wasmi::{
    Caller, Config, Engine, Error, ExternType, Global, Linker, Memory, Module, Store, Val,
};

/// The argument canbench sends to every benchmark query: `Encode!(&())`.
pub const QUERY_ARG: &[u8] = b"DIDL\x00\x01\x7f";
const WASM_PAGE: u64 = 65_536;
/// Native stack for executing a message (see `Canister::query`).
const NATIVE_STACK: usize = 2 << 30;
/// A fixed clock, so that runs are reproducible (2023-11-14T22:13:20Z).
const FIXED_TIME_NANOS: i64 = 1_700_000_000_000_000_000;
/// The benchmark canister's id as PocketIC assigns the first canister (lxzze-o7777-77777-aaaaa-cai).
const CANISTER_ID: &[u8] = &[0xff, 0xff, 0xff, 0xff, 0xff, 0x90, 0x00, 0x00, 0x01, 0x01];
/// Queries come from the anonymous principal.
const CALLER: &[u8] = &[0x04];

/// Every `ic0` function of the public interface. Those the runner does not implement are linked
/// as stubs that trap when called, since canisters often import calls they never make here.
const KNOWN_IC0: &[&str] = &[
    "msg_arg_data_size",
    "msg_arg_data_copy",
    "msg_caller_size",
    "msg_caller_copy",
    "msg_caller_info_data_size",
    "msg_caller_info_data_copy",
    "msg_caller_info_signer_size",
    "msg_caller_info_signer_copy",
    "msg_reject_code",
    "msg_reject_msg_size",
    "msg_reject_msg_copy",
    "msg_deadline",
    "msg_reply_data_append",
    "msg_reply",
    "msg_reject",
    "msg_cycles_available",
    "msg_cycles_available128",
    "msg_cycles_refunded",
    "msg_cycles_refunded128",
    "msg_cycles_accept",
    "msg_cycles_accept128",
    "cycles_burn128",
    "canister_self_size",
    "canister_self_copy",
    "canister_cycle_balance",
    "canister_cycle_balance128",
    "canister_liquid_cycle_balance128",
    "canister_status",
    "canister_version",
    "subnet_self_size",
    "subnet_self_copy",
    "subnet_self_node_count",
    "msg_method_name_size",
    "msg_method_name_copy",
    "accept_message",
    "call_new",
    "call_on_cleanup",
    "call_data_append",
    "call_with_best_effort_response",
    "call_cycles_add",
    "call_cycles_add128",
    "call_perform",
    "stable_size",
    "stable_grow",
    "stable_write",
    "stable_read",
    "stable64_size",
    "stable64_grow",
    "stable64_write",
    "stable64_read",
    "root_key_size",
    "root_key_copy",
    "certified_data_set",
    "data_certificate_present",
    "data_certificate_size",
    "data_certificate_copy",
    "time",
    "global_timer_set",
    "performance_counter",
    "is_controller",
    "in_replicated_execution",
    "cost_call",
    "cost_create_canister",
    "cost_http_request",
    "cost_http_request_v2",
    "cost_sign_with_ecdsa",
    "cost_sign_with_schnorr",
    "cost_vetkd_derive_key",
    "env_var_count",
    "env_var_name_size",
    "env_var_name_copy",
    "env_var_name_exists",
    "env_var_value_size",
    "env_var_value_copy",
    "debug_print",
    "trap",
    "mint_cycles",
    "mint_cycles128",
];

/// Per-instance state the host functions work on.
pub struct Host {
    arg: Vec<u8>,
    method: String,
    reply: Vec<u8>,
    replied: bool,
    rejected: Option<String>,
    stable: Vec<u8>,
    memory: Option<Memory>,
    counter: Option<Global>,
    show_output: bool,
    output: Vec<String>,
    /// The per-function counters of a profiling build, and their values (with the main
    /// counter's) at every `performance_counter` call, so a profile can be split at the
    /// points where canbench-rs opens and closes its scopes.
    profile: Vec<Global>,
    snapshots: Vec<Snapshot>,
}

/// The counters at one `performance_counter` call.
pub struct Snapshot {
    pub instructions: u64,
    pub profile: Vec<u64>,
}

/// How one message ended.
#[derive(Debug)]
pub enum Outcome {
    Reply(Vec<u8>),
    Reject(String),
    /// The method returned without replying (fine for `canister_init`).
    NoReply,
}

/// A compiled canister ready to be instantiated once per message.
pub struct Canister {
    engine: Engine,
    module: Module,
    linker: Arc<Linker<Host>>,
    stable_memory: Vec<u8>,
    init_args: Vec<u8>,
    has_init: bool,
    show_output: bool,
    limit: u64,
    /// How many per-function counters the module exports (0 unless built for profiling).
    profiled: usize,
}

/// One executed message.
pub struct Run {
    pub outcome: Outcome,
    pub instructions: u64,
    /// Per defined function, the instructions charged inside it (empty unless profiling).
    pub profile: Vec<u64>,
    /// The counters at each `performance_counter` call (empty unless profiling).
    pub snapshots: Vec<Snapshot>,
}

fn trap(message: impl Into<String>) -> Error {
    Error::new(message.into())
}

fn memory(c: &Caller<'_, Host>) -> Result<Memory, Error> {
    c.data()
        .memory
        .ok_or_else(|| trap("the canister exports no memory"))
}

fn charge(c: &mut Caller<'_, Host>, cost: SysApiCost, size: u64) -> Result<(), Error> {
    let counter = c.data().counter.expect("counter is set before any call");
    let now = counter.get(&*c).i64().unwrap_or(0);
    let add = cost.overhead + if cost.per_byte { size } else { 0 };
    counter
        .set(&mut *c, Val::I64(now.wrapping_add(add as i64)))
        .map_err(|e| trap(e.to_string()))
}

fn read_mem(c: &Caller<'_, Host>, src: u64, size: u64) -> Result<Vec<u8>, Error> {
    let mem = memory(c)?;
    let data = mem.data(c);
    let end = src.checked_add(size).filter(|&e| e <= data.len() as u64);
    match end {
        Some(end) => Ok(data[src as usize..end as usize].to_vec()),
        None => Err(trap(format!(
            "heap out of bounds: {src}+{size} > {}",
            data.len()
        ))),
    }
}

fn write_mem(c: &mut Caller<'_, Host>, dst: u64, bytes: &[u8]) -> Result<(), Error> {
    let mem = memory(c)?;
    let data = mem.data_mut(&mut *c);
    let end = dst
        .checked_add(bytes.len() as u64)
        .filter(|&e| e <= data.len() as u64);
    match end {
        Some(end) => {
            data[dst as usize..end as usize].copy_from_slice(bytes);
            Ok(())
        }
        None => Err(trap(format!(
            "heap out of bounds: {dst}+{} > {}",
            bytes.len(),
            data.len()
        ))),
    }
}

/// `copy(dst, offset, size)` of a slice of `source` into the heap, as the `*_copy` calls do.
fn copy_out(
    c: &mut Caller<'_, Host>,
    source: &[u8],
    dst: u64,
    offset: u64,
    size: u64,
    what: &str,
) -> Result<(), Error> {
    let end = offset
        .checked_add(size)
        .filter(|&e| e <= source.len() as u64);
    let Some(end) = end else {
        return Err(trap(format!(
            "{what}: range {offset}+{size} is outside the {} bytes available",
            source.len()
        )));
    };
    let slice = source[offset as usize..end as usize].to_vec();
    write_mem(c, dst, &slice)
}

fn stable_grow(c: &mut Caller<'_, Host>, pages: u64, max_pages: u64) -> u64 {
    let old = c.data().stable.len() as u64 / WASM_PAGE;
    match old.checked_add(pages) {
        Some(new) if new <= max_pages => {
            c.data_mut().stable.resize((new * WASM_PAGE) as usize, 0);
            old
        }
        _ => u64::MAX,
    }
}

fn stable_range(
    c: &Caller<'_, Host>,
    offset: u64,
    size: u64,
) -> Result<std::ops::Range<usize>, Error> {
    let len = c.data().stable.len() as u64;
    match offset.checked_add(size) {
        Some(end) if end <= len => Ok(offset as usize..end as usize),
        _ => Err(trap(format!(
            "stable memory out of bounds: {offset}+{size} > {len}"
        ))),
    }
}

fn build_linker(
    engine: &Engine,
    table: &CostTable,
) -> Result<(Linker<Host>, Vec<&'static str>), Error> {
    let mut l = Linker::<Host>::new(engine);
    let mut defined: Vec<&'static str> = vec![
        "stable_read",
        "stable_write",
        "stable64_read",
        "stable64_write",
    ];
    let cost = |name: &str| table.sysapi(name);
    macro_rules! def {
        ($name:literal, |$c:ident $(, $a:ident : $t:ty)*| -> $r:ty $body:block) => {{
            let k = cost($name);
            defined.push($name);
            l.func_wrap("ic0", $name, move |mut $c: Caller<'_, Host> $(, $a: $t)*| -> Result<$r, Error> {
                let bytes: u64 = def!(@size $($a)*);
                charge(&mut $c, k, bytes)?;
                $body
            })?;
        }};
        (@size) => { 0 };
        (@size $a:ident) => { 0 };
        (@size $a:ident $b:ident) => { $b as u32 as u64 };
        (@size $a:ident $b:ident $s:ident) => { $s as u32 as u64 };
    }

    def!("msg_arg_data_size", |c| -> i32 {
        Ok(c.data().arg.len() as i32)
    });
    def!("msg_arg_data_copy", |c,
                               dst: i32,
                               off: i32,
                               size: i32|
     -> () {
        let arg = std::mem::take(&mut c.data_mut().arg);
        let r = copy_out(
            &mut c,
            &arg,
            dst as u32 as u64,
            off as u32 as u64,
            size as u32 as u64,
            "msg_arg_data_copy",
        );
        c.data_mut().arg = arg;
        r
    });
    def!("msg_caller_size", |c| -> i32 { Ok(CALLER.len() as i32) });
    def!("msg_caller_copy", |c,
                             dst: i32,
                             off: i32,
                             size: i32|
     -> () {
        copy_out(
            &mut c,
            CALLER,
            dst as u32 as u64,
            off as u32 as u64,
            size as u32 as u64,
            "msg_caller_copy",
        )
    });
    def!("msg_method_name_size", |c| -> i32 {
        Ok(c.data().method.len() as i32)
    });
    def!("msg_method_name_copy", |c,
                                  dst: i32,
                                  off: i32,
                                  size: i32|
     -> () {
        let name = c.data().method.clone().into_bytes();
        copy_out(
            &mut c,
            &name,
            dst as u32 as u64,
            off as u32 as u64,
            size as u32 as u64,
            "msg_method_name_copy",
        )
    });
    def!("msg_reply_data_append", |c, src: i32, size: i32| -> () {
        if c.data().replied {
            return Err(trap("msg_reply_data_append called after msg_reply"));
        }
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        c.data_mut().reply.extend_from_slice(&bytes);
        Ok(())
    });
    def!("msg_reply", |c| -> () {
        if c.data().replied || c.data().rejected.is_some() {
            return Err(trap("the message was already replied to"));
        }
        c.data_mut().replied = true;
        Ok(())
    });
    def!("msg_reject", |c, src: i32, size: i32| -> () {
        if c.data().replied || c.data().rejected.is_some() {
            return Err(trap("the message was already replied to"));
        }
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        c.data_mut().rejected = Some(String::from_utf8_lossy(&bytes).into_owned());
        Ok(())
    });
    def!("canister_self_size", |c| -> i32 {
        Ok(CANISTER_ID.len() as i32)
    });
    def!("canister_self_copy", |c,
                                dst: i32,
                                off: i32,
                                size: i32|
     -> () {
        copy_out(
            &mut c,
            CANISTER_ID,
            dst as u32 as u64,
            off as u32 as u64,
            size as u32 as u64,
            "canister_self_copy",
        )
    });
    def!("canister_cycle_balance", |c| -> i64 {
        Ok(1_000_000_000_000_000)
    });
    def!("canister_cycle_balance128", |c, dst: i32| -> () {
        write_mem(
            &mut c,
            dst as u32 as u64,
            &1_000_000_000_000_000u128.to_le_bytes(),
        )
    });
    def!("canister_liquid_cycle_balance128", |c, dst: i32| -> () {
        write_mem(
            &mut c,
            dst as u32 as u64,
            &1_000_000_000_000_000u128.to_le_bytes(),
        )
    });
    def!("canister_status", |c| -> i32 { Ok(1) });
    def!("canister_version", |c| -> i64 { Ok(1) });
    def!("msg_cycles_available128", |c, dst: i32| -> () {
        write_mem(&mut c, dst as u32 as u64, &[0; 16])
    });
    def!("msg_cycles_refunded128", |c, dst: i32| -> () {
        write_mem(&mut c, dst as u32 as u64, &[0; 16])
    });
    def!("accept_message", |c| -> () { Ok(()) });
    def!("in_replicated_execution", |c| -> i32 { Ok(0) });
    def!("time", |c| -> i64 { Ok(FIXED_TIME_NANOS) });
    def!("global_timer_set", |c, _t: i64| -> i64 { Ok(0) });
    def!("is_controller", |c, src: i32, size: i32| -> i32 {
        read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        Ok(0)
    });
    def!("certified_data_set", |c, src: i32, size: i32| -> () {
        read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        Ok(())
    });
    def!("data_certificate_present", |c| -> i32 { Ok(0) });
    def!("performance_counter", |c, kind: i32| -> i64 {
        match kind {
            // 0: this message; 1: the call context. One message is the whole call here.
            0 | 1 => {
                let now = c
                    .data()
                    .counter
                    .expect("counter")
                    .get(&c)
                    .i64()
                    .unwrap_or(0);
                if !c.data().profile.is_empty() {
                    let profile = read_counters(&c.data().profile, &c);
                    c.data_mut().snapshots.push(Snapshot {
                        instructions: now as u64,
                        profile,
                    });
                }
                Ok(now)
            }
            other => Err(trap(format!(
                "performance_counter: unknown counter type {other}"
            ))),
        }
    });
    def!("debug_print", |c, src: i32, size: i32| -> () {
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if c.data().show_output {
            eprintln!("[canister] {text}");
        }
        c.data_mut().output.push(text);
        Ok(())
    });
    def!("trap", |c, src: i32, size: i32| -> () {
        let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
        Err(trap(format!(
            "canister called ic0.trap: {}",
            String::from_utf8_lossy(&bytes)
        )))
    });
    // 32-bit stable memory: at most 4 GiB, offsets and sizes are i32.
    def!("stable_size", |c| -> i32 {
        Ok((c.data().stable.len() as u64 / WASM_PAGE) as i32)
    });
    def!("stable_grow", |c, pages: i32| -> i32 {
        let old = stable_grow(&mut c, pages as u32 as u64, 65_536);
        Ok(if old == u64::MAX { -1 } else { old as i32 })
    });
    l.func_wrap("ic0", "stable_read", {
        let k = cost("stable_read");
        move |mut c: Caller<'_, Host>, dst: i32, off: i32, size: i32| -> Result<(), Error> {
            charge(&mut c, k, size as u32 as u64)?;
            let r = stable_range(&c, off as u32 as u64, size as u32 as u64)?;
            let bytes = c.data().stable[r].to_vec();
            write_mem(&mut c, dst as u32 as u64, &bytes)
        }
    })?;
    l.func_wrap("ic0", "stable_write", {
        let k = cost("stable_write");
        move |mut c: Caller<'_, Host>, off: i32, src: i32, size: i32| -> Result<(), Error> {
            charge(&mut c, k, size as u32 as u64)?;
            let bytes = read_mem(&c, src as u32 as u64, size as u32 as u64)?;
            let r = stable_range(&c, off as u32 as u64, size as u32 as u64)?;
            c.data_mut().stable[r].copy_from_slice(&bytes);
            Ok(())
        }
    })?;
    // 64-bit stable memory.
    def!("stable64_size", |c| -> i64 {
        Ok((c.data().stable.len() as u64 / WASM_PAGE) as i64)
    });
    def!("stable64_grow", |c, pages: i64| -> i64 {
        // The IC's limit is the subnet's; 500 GiB is far beyond what a benchmark can touch.
        Ok(stable_grow(&mut c, pages as u64, 500 * 16_384) as i64)
    });
    l.func_wrap("ic0", "stable64_read", {
        let k = cost("stable64_read");
        move |mut c: Caller<'_, Host>, dst: i64, off: i64, size: i64| -> Result<(), Error> {
            charge(&mut c, k, size as u64)?;
            let r = stable_range(&c, off as u64, size as u64)?;
            let bytes = c.data().stable[r].to_vec();
            write_mem(&mut c, dst as u64, &bytes)
        }
    })?;
    l.func_wrap("ic0", "stable64_write", {
        let k = cost("stable64_write");
        move |mut c: Caller<'_, Host>, off: i64, src: i64, size: i64| -> Result<(), Error> {
            charge(&mut c, k, size as u64)?;
            let bytes = read_mem(&c, src as u64, size as u64)?;
            let r = stable_range(&c, off as u64, size as u64)?;
            c.data_mut().stable[r].copy_from_slice(&bytes);
            Ok(())
        }
    })?;
    Ok((l, defined))
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
        let engine = Engine::new(&config);
        let module = Module::new(&engine, instrumented)
            .map_err(|e| format!("cannot compile the canister: {e}"))?;
        let (mut linker, defined) =
            build_linker(&engine, table).map_err(|e| format!("internal error: {e}"))?;
        let mut has_init = false;
        let mut profiled = 0;
        for export in module.exports() {
            has_init |= export.name() == "canister_init";
            profiled += usize::from(export.name().starts_with(PROFILE_PREFIX));
        }
        for import in module.imports() {
            let (m, name) = (import.module(), import.name());
            let ExternType::Func(ty) = import.ty() else {
                return Err(format!("the canister imports `{m}.{name}`, which is not a function; the runner provides only ic0 functions"));
            };
            if m != "ic0" || !KNOWN_IC0.contains(&name) {
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
                    Err(trap(format!(
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
            has_init,
            show_output,
            limit,
            profiled,
        })
    }

    /// Whether the canister exports `canister_init`.
    pub fn has_init(&self) -> bool {
        self.has_init
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

    /// Instantiates a fresh canister (running `canister_init` if it exists) and executes one
    /// query. Returns the outcome and the instructions the query consumed.
    pub fn query(&self, method: &str, arg: &[u8]) -> Result<(Outcome, u64), String> {
        self.run(method, arg).map(|r| (r.outcome, r.instructions))
    }

    /// [`Canister::query`] with the per-function profile of a profiling build.
    pub fn run(&self, method: &str, arg: &[u8]) -> Result<Run, String> {
        // wasmi's executor uses the native stack for Wasm calls, so deep canister recursion
        // needs a deep native stack: run each message on a thread that has one (the memory is
        // reserved, and only touched pages are committed).
        std::thread::scope(|s| {
            std::thread::Builder::new()
                .name(format!("canister {method}"))
                .stack_size(NATIVE_STACK)
                .spawn_scoped(s, || self.query_here(method, arg))
                .map_err(|e| format!("cannot start the execution thread: {e}"))?
                .join()
                .map_err(|_| "the execution thread panicked".to_string())?
        })
    }

    fn query_here(&self, method: &str, arg: &[u8]) -> Result<Run, String> {
        let mut store = Store::new(
            &self.engine,
            Host::new(self.stable_memory.clone(), self.show_output),
        );
        let instance = self
            .linker
            .instantiate_and_start(&mut store, &self.module)
            .map_err(|e| format!("instantiation failed: {e}"))?;
        let memory = instance.get_memory(&store, "memory");
        let counter = instance.get_global(&store, COUNTER_EXPORT);
        let host = store.data_mut();
        host.memory = memory;
        host.counter = counter;
        if store.data().counter.is_none() {
            return Err("module is not instrumented (no instruction counter)".into());
        }
        if self.has_init {
            self.call(
                &mut store,
                &instance,
                "canister_init",
                "canister_init",
                &self.init_args.clone(),
            )
            .map_err(|e| format!("canister_init trapped: {e}"))?;
        }
        // The profile covers the query only, like the counter.
        let profile: Vec<Global> = (0..self.profiled)
            .filter_map(|f| instance.get_global(&store, &format!("{PROFILE_PREFIX}{f}")))
            .collect();
        for g in &profile {
            g.set(&mut store, Val::I64(0)).map_err(|e| e.to_string())?;
        }
        store.data_mut().profile = profile;
        let export = format!("canister_query {method}");
        let outcome = self.call(&mut store, &instance, &export, method, arg)?;
        let counter = store.data().counter.unwrap().get(&store).i64().unwrap_or(0);
        let profile = read_counters(&store.data().profile, &store);
        Ok(Run {
            outcome,
            instructions: counter as u64,
            profile,
            snapshots: std::mem::take(&mut store.data_mut().snapshots),
        })
    }

    fn call(
        &self,
        store: &mut Store<Host>,
        instance: &wasmi::Instance,
        export: &str,
        method: &str,
        arg: &[u8],
    ) -> Result<Outcome, String> {
        let func = instance
            .get_func(&*store, export)
            .ok_or_else(|| format!("the canister has no export `{export}`"))?;
        {
            let host = store.data_mut();
            host.arg = arg.to_vec();
            host.method = method.to_string();
            host.reply.clear();
            host.replied = false;
            host.rejected = None;
        }
        let counter = store.data().counter.unwrap();
        counter
            .set(&mut *store, Val::I64(0))
            .map_err(|e| e.to_string())?;
        if let Err(e) = func.call(&mut *store, &[], &mut []) {
            let used = counter.get(&*store).i64().unwrap_or(0) as u64;
            if used > self.limit {
                return Err(format!(
                    "instruction limit exceeded: more than {} instructions (raise it with --instruction-limit)",
                    self.limit
                ));
            }
            return Err(e.to_string());
        }
        let host = store.data_mut();
        Ok(if let Some(reason) = host.rejected.take() {
            Outcome::Reject(reason)
        } else if host.replied {
            Outcome::Reply(std::mem::take(&mut host.reply))
        } else {
            Outcome::NoReply
        })
    }
}

/// What kind of message a script line sends (`canbench call`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Init,
    Query,
    Update,
}

/// One message of a call script.
#[derive(Clone, Debug)]
pub struct Message {
    pub kind: Kind,
    pub method: String,
    pub arg: Vec<u8>,
}

impl Message {
    fn export(&self) -> String {
        match self.kind {
            Kind::Init => "canister_init".to_string(),
            Kind::Query => format!("canister_query {}", self.method),
            Kind::Update => format!("canister_update {}", self.method),
        }
    }
}

/// How a message of a call script ended, as the replica would report it.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    Reply(Vec<u8>),
    /// `ic0.msg_reject`: reject code 4 (CANISTER_REJECT) with the canister's text.
    Reject(String),
    /// A trap (reject code 5, CANISTER_ERROR): state changes are rolled back.
    Trap(String),
    /// Returned without replying (normal for `canister_init`).
    NoReply,
    /// The canister exports no such method (reject code 3, DESTINATION_INVALID).
    NoMethod,
}

impl Canister {
    /// Runs `message` on a canister whose state is what `committed` left (each run
    /// in order on a fresh instance), as the replica would: the instructions are the
    /// message's own. Rebuilding the state by replay rather than keeping one instance
    /// makes rollback exact: a query's changes and a trapped update's are simply
    /// never replayed, and nothing depends on wasm memory being shrinkable.
    pub fn execute(
        &self,
        committed: &[Message],
        message: &Message,
    ) -> Result<(Ending, u64), String> {
        std::thread::scope(|s| {
            std::thread::Builder::new()
                .name(format!("canister {}", message.method))
                .stack_size(NATIVE_STACK)
                .spawn_scoped(s, || self.execute_here(committed, message))
                .map_err(|e| format!("cannot start the execution thread: {e}"))?
                .join()
                .map_err(|_| "the execution thread panicked".to_string())?
        })
    }

    fn execute_here(
        &self,
        committed: &[Message],
        message: &Message,
    ) -> Result<(Ending, u64), String> {
        let mut store = Store::new(
            &self.engine,
            Host::new(self.stable_memory.clone(), self.show_output),
        );
        let instance = self
            .linker
            .instantiate_and_start(&mut store, &self.module)
            .map_err(|e| format!("instantiation failed: {e}"))?;
        let memory = instance.get_memory(&store, "memory");
        let counter = instance.get_global(&store, COUNTER_EXPORT);
        let host = store.data_mut();
        host.memory = memory;
        host.counter = counter;
        let Some(counter) = counter else {
            return Err("module is not instrumented (no instruction counter)".into());
        };
        for (i, m) in committed.iter().enumerate() {
            self.call(&mut store, &instance, &m.export(), &m.method, &m.arg)
                .map_err(|e| format!("replaying message {i} ({}) trapped: {e}", m.method))?;
        }
        let export = message.export();
        if instance.get_func(&store, &export).is_none() {
            return Ok((Ending::NoMethod, 0));
        }
        let ending = match self.call(
            &mut store,
            &instance,
            &export,
            &message.method,
            &message.arg,
        ) {
            Ok(Outcome::Reply(bytes)) => Ending::Reply(bytes),
            Ok(Outcome::Reject(text)) => Ending::Reject(text),
            Ok(Outcome::NoReply) => Ending::NoReply,
            Err(e) if e.starts_with("instruction limit exceeded") => return Err(e),
            Err(e) => Ending::Trap(e),
        };
        let used = counter.get(&store).i64().unwrap_or(0) as u64;
        Ok((ending, used))
    }
}

impl Canister {
    /// The interface `export_candid!()` compiles in: ic-cdk exports
    /// `get_candid_pointer() -> *const c_char`, which tools call on a fresh instance
    /// (no `canister_init`) and read as a NUL-terminated string.
    pub fn candid_interface(&self) -> Result<String, String> {
        std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("get_candid_pointer".into())
                .stack_size(NATIVE_STACK)
                .spawn_scoped(s, || self.candid_interface_here())
                .map_err(|e| format!("cannot start the execution thread: {e}"))?
                .join()
                .map_err(|_| "the execution thread panicked".to_string())?
        })
    }

    fn candid_interface_here(&self) -> Result<String, String> {
        const EXPORT: &str = "get_candid_pointer";
        let mut store = Store::new(&self.engine, Host::new(Vec::new(), self.show_output));
        let instance = self
            .linker
            .instantiate_and_start(&mut store, &self.module)
            .map_err(|e| format!("instantiation failed: {e}"))?;
        let memory = instance
            .get_memory(&store, "memory")
            .ok_or("the canister exports no memory")?;
        store.data_mut().memory = Some(memory);
        store.data_mut().counter = instance.get_global(&store, COUNTER_EXPORT);
        let func = instance
            .get_func(&store, EXPORT)
            .ok_or("the canister has no `get_candid_pointer` (no export_candid!())")?;
        let mut result = [Val::I32(0)];
        func.call(&mut store, &[], &mut result)
            .map_err(|e| format!("{EXPORT} trapped: {e}"))?;
        let ptr = match result[0] {
            Val::I32(p) => p as u32 as usize,
            Val::I64(p) => p as usize,
            _ => return Err(format!("{EXPORT} returned no pointer")),
        };
        let data = memory.data(&store);
        let tail = data
            .get(ptr..)
            .ok_or_else(|| format!("{EXPORT} returned {ptr}, outside memory"))?;
        let end = tail
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| format!("{EXPORT}'s string has no end"))?;
        String::from_utf8(tail[..end].to_vec()).map_err(|_| format!("{EXPORT}'s text is not UTF-8"))
    }
}

impl Host {
    fn new(stable: Vec<u8>, show_output: bool) -> Host {
        Host {
            arg: Vec::new(),
            method: String::new(),
            reply: Vec::new(),
            replied: false,
            rejected: None,
            stable,
            memory: None,
            counter: None,
            show_output,
            output: Vec::new(),
            profile: Vec::new(),
            snapshots: Vec::new(),
        }
    }
}

/// The values of the per-function counters.
fn read_counters(globals: &[Global], ctx: impl wasmi::AsContext) -> Vec<u64> {
    globals
        .iter()
        .map(|g| g.get(&ctx).i64().unwrap_or(0) as u64)
        .collect()
}

/// Stable memory as loaded from a file: rounded up to whole Wasm pages.
pub fn stable_memory_from(bytes: Vec<u8>) -> Vec<u8> {
    let mut bytes = bytes;
    let pages = (bytes.len() as u64).div_ceil(WASM_PAGE);
    bytes.resize((pages * WASM_PAGE) as usize, 0);
    bytes
}
