//! `candor bind js|ts|mo|did` on real interfaces: ICRC-1/2 (exported here from
//! `icrc-ledger-types`, and `golden/ledger.did`), NNS governance (the bench
//! canister's `governance.did`), the management canister (exported here from
//! `ic-management-canister-types`), and recursive and oddly named types
//! (`golden/shapes.did`).
//!
//! * differential: the output equals candid_parser 0.4.1's generator's for the
//!   same file once layout is set aside (whitespace, trailing separators,
//!   comments), and the JS factories, run by Node against a recording `IDL`,
//!   build the same type graphs;
//! * the JS parses (`node --check`), the TypeScript type-checks (`tsc`, when
//!   installed), the `.did` is accepted by `candor check` as equivalent to the
//!   input in both directions;
//! * golden files pin the output for the ledger, the shapes and a file with
//!   comments everywhere;
//! * with the real JS agent (`CANDOR_AGENT_JS`: a directory where `npm install
//!   @icp-sdk/core` was run), the agent reads random messages of every method
//!   with the generated factory and writes them back as the same values, and a
//!   client written against the declarations and the agent's own types
//!   type-checks.
//! * with the Motoko compiler (`CANDOR_MOTOKO_JS`: a directory where `npm install
//!   motoko` was run), every module `bind mo` writes type-checks.
//!
//! Node and tsc are looked up on `PATH` (tsc also as `$TSC`); a test that needs
//! one that is missing says so and passes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// A fresh directory for a test's files, removed when the test passes (kept to
/// look at when it fails).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("candor-bind-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A service assembled from Rust types with candid's derive, printed by candid.
struct Export {
    types: candid::types::internal::TypeContainer,
    methods: Vec<(String, candid::types::Type)>,
}

impl Export {
    fn new() -> Self {
        Export {
            types: candid::types::internal::TypeContainer::new(),
            methods: Vec::new(),
        }
    }

    fn push(
        &mut self,
        name: &str,
        args: Vec<candid::types::Type>,
        rets: Vec<candid::types::Type>,
        query: bool,
    ) {
        use candid::types::{FuncMode, Function, TypeInner};
        let modes = if query { vec![FuncMode::Query] } else { vec![] };
        let f = TypeInner::Func(Function { modes, args, rets }).into();
        self.methods.push((name.to_string(), f));
    }

    fn did(mut self) -> String {
        self.methods.sort_by(|a, b| a.0.cmp(&b.0));
        let actor = candid::types::TypeInner::Service(self.methods).into();
        candid::pretty::candid::compile(&self.types.env, &Some(actor))
    }
}

/// `method!(export, name: (A, B) -> (R) query)`.
macro_rules! method {
    ($e:ident, $name:ident : ($($a:ty),*) -> ($($r:ty),*) $($q:ident)?) => {{
        let args = vec![$($e.types.add::<$a>()),*];
        let rets = vec![$($e.types.add::<$r>()),*];
        $e.push(stringify!($name), args, rets, stringify!($($q)?) == "query");
    }};
}

/// The management canister's interface, from the Rust types of
/// `ic-management-canister-types` and the method names of the IC's interface
/// specification.
fn management_did() -> String {
    use ic_management_canister_types as m;
    let mut e = Export::new();
    method!(e, create_canister: (m::CreateCanisterArgs) -> (m::CreateCanisterResult));
    method!(e, update_settings: (m::UpdateSettingsArgs) -> ());
    method!(e, upload_chunk: (m::UploadChunkArgs) -> (m::UploadChunkResult));
    method!(e, clear_chunk_store: (m::ClearChunkStoreArgs) -> ());
    method!(e, stored_chunks: (m::StoredChunksArgs) -> (m::StoredChunksResult));
    method!(e, install_code: (m::InstallCodeArgs) -> ());
    method!(e, install_chunked_code: (m::InstallChunkedCodeArgs) -> ());
    method!(e, uninstall_code: (m::UninstallCodeArgs) -> ());
    method!(e, start_canister: (m::StartCanisterArgs) -> ());
    method!(e, stop_canister: (m::StopCanisterArgs) -> ());
    method!(e, canister_status: (m::CanisterStatusArgs) -> (m::CanisterStatusResult));
    method!(e, canister_info: (m::CanisterInfoArgs) -> (m::CanisterInfoResult));
    method!(e, delete_canister: (m::DeleteCanisterArgs) -> ());
    method!(e, deposit_cycles: (m::DepositCyclesArgs) -> ());
    method!(e, raw_rand: () -> (m::RawRandResult));
    method!(e, http_request: (m::HttpRequestArgs) -> (m::HttpRequestResult));
    method!(e, ecdsa_public_key: (m::EcdsaPublicKeyArgs) -> (m::EcdsaPublicKeyResult));
    method!(e, sign_with_ecdsa: (m::SignWithEcdsaArgs) -> (m::SignWithEcdsaResult));
    method!(e, schnorr_public_key: (m::SchnorrPublicKeyArgs) -> (m::SchnorrPublicKeyResult));
    method!(e, sign_with_schnorr: (m::SignWithSchnorrArgs) -> (m::SignWithSchnorrResult));
    method!(e, vetkd_public_key: (m::VetKDPublicKeyArgs) -> (m::VetKDPublicKeyResult));
    method!(e, vetkd_derive_key: (m::VetKDDeriveKeyArgs) -> (m::VetKDDeriveKeyResult));
    method!(e, node_metrics_history: (m::NodeMetricsHistoryArgs) -> (m::NodeMetricsHistoryResult));
    method!(e, subnet_info: (m::SubnetInfoArgs) -> (m::SubnetInfoResult));
    method!(e, provisional_create_canister_with_cycles: (m::ProvisionalCreateCanisterWithCyclesArgs) -> (m::ProvisionalCreateCanisterWithCyclesResult));
    method!(e, provisional_top_up_canister: (m::ProvisionalTopUpCanisterArgs) -> ());
    method!(e, take_canister_snapshot: (m::TakeCanisterSnapshotArgs) -> (m::TakeCanisterSnapshotResult));
    method!(e, load_canister_snapshot: (m::LoadCanisterSnapshotArgs) -> ());
    method!(e, list_canister_snapshots: (m::ListCanisterSnapshotsArgs) -> (m::ListCanisterSnapshotsResult));
    method!(e, delete_canister_snapshot: (m::DeleteCanisterSnapshotArgs) -> ());
    method!(e, read_canister_snapshot_metadata: (m::ReadCanisterSnapshotMetadataArgs) -> (m::ReadCanisterSnapshotMetadataResult));
    method!(e, read_canister_snapshot_data: (m::ReadCanisterSnapshotDataArgs) -> (m::ReadCanisterSnapshotDataResult));
    method!(e, upload_canister_snapshot_metadata: (m::UploadCanisterSnapshotMetadataArgs) -> (m::UploadCanisterSnapshotMetadataResult));
    method!(e, upload_canister_snapshot_data: (m::UploadCanisterSnapshotDataArgs) -> ());
    method!(e, fetch_canister_logs: (m::FetchCanisterLogsArgs) -> (m::FetchCanisterLogsResult) query);
    e.did()
}

/// An ICRC-1/2 ledger's interface, from the Rust types of `icrc-ledger-types`
/// and the method names of the ICRC-1 and ICRC-2 standards.
fn icrc_did() -> String {
    use candid::Nat;
    use icrc_ledger_types::icrc::generic_metadata_value::MetadataValue;
    use icrc_ledger_types::icrc1::{account::Account, transfer as t};
    use icrc_ledger_types::icrc2::{allowance as a, approve as p, transfer_from as f};
    let mut e = Export::new();
    method!(e, icrc1_name: () -> (String) query);
    method!(e, icrc1_symbol: () -> (String) query);
    method!(e, icrc1_decimals: () -> (u8) query);
    method!(e, icrc1_fee: () -> (Nat) query);
    method!(e, icrc1_metadata: () -> (Vec<(String, MetadataValue)>) query);
    method!(e, icrc1_total_supply: () -> (Nat) query);
    method!(e, icrc1_minting_account: () -> (Option<Account>) query);
    method!(e, icrc1_balance_of: (Account) -> (Nat) query);
    method!(e, icrc1_transfer: (t::TransferArg) -> (Result<Nat, t::TransferError>));
    method!(e, icrc2_approve: (p::ApproveArgs) -> (Result<Nat, p::ApproveError>));
    method!(e, icrc2_allowance: (a::AllowanceArgs) -> (a::Allowance) query);
    method!(e, icrc2_transfer_from: (f::TransferFromArgs) -> (Result<Nat, f::TransferFromError>));
    e.did()
}

/// An actor class (init arguments), every annotation, references to functions
/// and services inside values, one-element and longer tuples, a recursive init
/// argument.
const CLASS: &str = "\
type Init = record { owner : principal; limits : opt Limits; peer : Peer };
type Limits = record { max : nat; next : opt Limits };
type Callback = func (nat) -> () oneway;
type Peer = service { hello : (text) -> (text) composite_query; notify : Callback };
type Pair = record { nat; text };
service : (Init, opt nat) -> {
  register : (Peer, Callback) -> ();
  peek : () -> (opt Init, nat, int64) composite_query;
  fire : (vec int32) -> () oneway;
  pair : (Pair) -> (record { 0 : nat }) query;
  callback : (func (Pair) -> ()) -> (Callback);
}
";

/// The interfaces every language is tried on, with the files' paths; the
/// management canister's is written into `dir`.
fn interfaces(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let management = dir.join("management.did");
    std::fs::write(&management, management_did()).unwrap();
    let icrc = dir.join("icrc.did");
    std::fs::write(&icrc, icrc_did()).unwrap();
    let class = dir.join("class.did");
    std::fs::write(&class, CLASS).unwrap();
    vec![
        ("ledger", golden_dir().join("ledger.did")),
        ("icrc", icrc),
        ("shapes", golden_dir().join("shapes.did")),
        (
            "governance",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/canister/src/governance.did"),
        ),
        ("management", management),
        ("class", class),
    ]
}

fn ours(lang: &str, did: &Path) -> String {
    candor_cli::bind::generate(lang, did).unwrap_or_else(|e| panic!("bind {lang}: {e}"))
}

/// candid_parser 0.4.1's output for the same file.
fn theirs(lang: &str, did: &Path) -> String {
    use candid_parser::bindings::{javascript, motoko, typescript};
    let (env, actor, prog) = candid_parser::check_file(did).unwrap();
    match lang {
        "js" => javascript::compile(&env, &actor),
        "ts" => typescript::compile(&env, &actor, &prog),
        "mo" => motoko::compile(&env, &actor, &prog),
        "did" => candid::pretty::candid::compile(&env, &actor),
        _ => unreachable!(),
    }
}

/// The text without layout: comments and blank space removed, and a `,` or `;`
/// just before a closing bracket (the one a broken-up list ends with).
fn normalise(text: &str) -> String {
    let mut kept = String::new();
    let mut in_doc = false;
    for line in text.lines() {
        let t = line.trim();
        if in_doc {
            in_doc = !t.ends_with("*/");
            continue;
        }
        if t.starts_with("/**") {
            in_doc = !t.ends_with("*/");
            continue;
        }
        if t.starts_with("//") {
            continue;
        }
        kept.push_str(t);
    }
    let squeezed: String = kept.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = String::with_capacity(squeezed.len());
    let mut chars = squeezed.chars().peekable();
    while let Some(c) = chars.next() {
        if (c == ',' || c == ';') && matches!(chars.peek(), Some('}' | ']' | ')' | '>')) {
            continue;
        }
        out.push(c);
    }
    out
}

/// Two normalised texts are equal; else the first place they differ, with some\n/// context.
#[track_caller]
fn assert_same(what: &str, ours: &str, theirs: &str) {
    let (a, b) = (ours, theirs);
    if a != b {
        let at = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        let from = at.saturating_sub(80);
        let ca: String = a.chars().skip(from).take(160).collect();
        let cb: String = b.chars().skip(from).take(160).collect();
        panic!("{what}: differs at {at}\n ours:   {ca}\n theirs: {cb}");
    }
}

/// Where the output differs from candid_parser's on purpose (each is a section of
/// `spec/differences.md`): interface, language, candid_parser's text and ours,
/// both normalised. Each must occur, so the list stays true.
const DELIBERATE: &[(&str, &str, &str, &str)] = &[
    // A service reference is a `Principal` to the agent wherever it appears;
    // candid_parser writes the service's interface for one inside a definition.
    (
        "shapes",
        "ts",
        "'svc':{'ping':ActorMethod<[],undefined>}",
        "'svc':Principal",
    ),
    ("class", "ts", "'peer':Peer", "'peer':Principal"),
    // A function type as the only argument of a Motoko function is put in
    // parentheses: `shared shared A -> async () -> async B` does not parse.
    (
        "class",
        "mo",
        "callback:sharedsharedPair->async()->asyncCallback",
        "callback:shared(sharedPair->async())->asyncCallback",
    ),
];

#[test]
fn js_ts_mo_and_did_match_candid_parser_up_to_layout() {
    let dir = scratch("differential");
    for (name, did) in interfaces(&dir) {
        for lang in ["js", "ts", "mo", "did"] {
            let mut expected = normalise(&theirs(lang, &did));
            for (_, _, from, to) in DELIBERATE.iter().filter(|d| d.0 == name && d.1 == lang) {
                assert!(expected.contains(from), "{name} {lang}: {from} not found");
                expected = expected.replace(from, to);
            }
            let mine = ours(lang, &did);
            assert_same(&format!("{name} {lang}"), &normalise(&mine), &expected);
            if lang == "ts" || lang == "mo" {
                let (a, b) = (comments(&mine), comments(&theirs(lang, &did)));
                assert_eq!(a, b, "{name} {lang}: comments");
            }
        }
    }
}

fn tool(name: &str) -> Option<PathBuf> {
    let ok = |p: &Path| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if let Some(p) = std::env::var_os(name.to_uppercase()) {
        let p = PathBuf::from(p);
        if ok(&p) {
            return Some(p);
        }
    }
    let p = PathBuf::from(name);
    ok(&p).then_some(p)
}

#[track_caller]
fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?}:\n{text}");
    text
}

/// Runs a JS module's `idlFactory` and `init` (or `types`) against an `IDL`
/// that records what it is asked to build, and prints the result as JSON:
/// records and variants with their fields sorted, `IDL.Rec()`s numbered in the
/// order the walk meets them.
const RECORDER: &str = r#"
const [, , file] = process.argv;
const mod = await import(file);
let recs = 0;
const prim = (t) => ({ t });
const IDL = {
  Null: prim('null'), Bool: prim('bool'), Nat: prim('nat'), Int: prim('int'),
  Nat8: prim('nat8'), Nat16: prim('nat16'), Nat32: prim('nat32'), Nat64: prim('nat64'),
  Int8: prim('int8'), Int16: prim('int16'), Int32: prim('int32'), Int64: prim('int64'),
  Float32: prim('float32'), Float64: prim('float64'), Text: prim('text'),
  Reserved: prim('reserved'), Empty: prim('empty'), Principal: prim('principal'),
  Opt: (t) => ({ t: 'opt', of: t }),
  Vec: (t) => ({ t: 'vec', of: t }),
  Tuple: (...ts) => ({ t: 'tuple', of: ts }),
  Record: (fs) => ({ t: 'record', fs }),
  Variant: (fs) => ({ t: 'variant', fs }),
  Func: (args, rets, modes) => ({ t: 'func', args, rets, modes }),
  Service: (ms) => ({ t: 'service', fs: ms }),
  Rec: () => {
    const r = { t: 'rec', inner: undefined };
    r.fill = (t) => { if (r.inner) throw new Error('filled twice'); r.inner = t; };
    r.getType = () => r.inner;
    return r;
  },
};
const seen = new Map();
const dump = (t) => {
  if (t === undefined) throw new Error('an unfilled IDL.Rec()');
  if (t.t === 'rec') {
    if (seen.has(t)) return { rec: seen.get(t) };
    seen.set(t, recs++);
    return { rec: seen.get(t), is: dump(t.inner) };
  }
  const out = { t: t.t };
  if (t.of) out.of = Array.isArray(t.of) ? t.of.map(dump) : dump(t.of);
  if (t.fs) out.fs = Object.keys(t.fs).sort().map((k) => [k, dump(t.fs[k])]);
  if (t.args) { out.args = t.args.map(dump); out.rets = t.rets.map(dump); out.modes = t.modes; }
  return out;
};
const result = {};
if (mod.idlFactory) {
  result.service = dump(mod.idlFactory({ IDL }));
  result.init = mod.init({ IDL }).map(dump);
}
if (mod.types) {
  const ts = mod.types({ IDL });
  result.types = Object.keys(ts).sort().map((k) => [k, dump(ts[k])]);
}
console.log(JSON.stringify(result));
"#;

fn record_js(node: &Path, dir: &Path, name: &str, js: &str) -> String {
    let file = dir.join(format!("{name}.mjs"));
    std::fs::write(&file, js).unwrap();
    run(Command::new(node).arg("--check").arg(&file));
    let recorder = dir.join("recorder.mjs");
    std::fs::write(&recorder, RECORDER).unwrap();
    run(Command::new(node).arg(&recorder).arg(&file))
}

#[test]
fn the_js_parses_and_builds_the_same_types_as_candid_parser_s() {
    let Some(node) = tool("node") else {
        eprintln!("node is not installed: the JS is not run");
        return;
    };
    let dir = scratch("node");
    for (name, did) in interfaces(&dir) {
        let a = record_js(&node, &dir, &format!("{name}_ours"), &ours("js", &did));
        let b = record_js(&node, &dir, &format!("{name}_theirs"), &theirs("js", &did));
        assert_eq!(a, b, "{name}");
        assert!(a.contains("\"service\""), "{name}: {a}");
    }
}

/// Just enough of `@icp-sdk/core` for the declarations to type-check.
const AGENT_TYPES: &str = "
declare module '@icp-sdk/core/principal' { export class Principal { toText(): string } }
declare module '@icp-sdk/core/agent' {
  export type ActorMethod<Args extends unknown[] = unknown[], Ret = unknown> =
    (...args: Args) => Promise<Ret>;
}
declare module '@icp-sdk/core/candid' {
  export namespace IDL {
    class Type {}
    type InterfaceFactory = (idl: { IDL: unknown }) => Type;
  }
}
";

#[test]
fn the_typescript_type_checks() {
    let Some(tsc) = tool("tsc") else {
        eprintln!("tsc is not installed (nor $TSC): the declarations are not checked");
        return;
    };
    let dir = scratch("tsc");
    std::fs::write(dir.join("agent.d.ts"), AGENT_TYPES).unwrap();
    let mut files = vec![dir.join("agent.d.ts")];
    for (name, did) in interfaces(&dir) {
        let file = dir.join(format!("{name}.d.ts"));
        std::fs::write(&file, ours("ts", &did)).unwrap();
        files.push(file);
    }
    run(Command::new(&tsc)
        .args([
            "--noEmit", "--strict", "--target", "es2020", "--lib", "es2020",
        ])
        .args(&files));
    // Against the real agent's types, with a client that uses them.
    let Some(agent) = std::env::var_os("CANDOR_AGENT_JS") else {
        eprintln!("CANDOR_AGENT_JS is not set: not checked against @icp-sdk/core's types");
        return;
    };
    let core = Path::new(&agent).join("node_modules/@icp-sdk/core/lib/esm");
    std::fs::write(dir.join("client.ts"), CLIENT).unwrap();
    let names: Vec<String> = files[1..]
        .iter()
        .map(|f| format!("{:?}", f.file_name().unwrap().to_str().unwrap()))
        .collect();
    let config = format!(
        r#"{{ "compilerOptions": {{ "strict": true, "noEmit": true, "target": "es2020",
  "module": "esnext", "moduleResolution": "bundler", "lib": ["es2020"], "types": [],
  "skipLibCheck": true, "paths": {{ "@icp-sdk/core/*": [{:?}] }} }},
  "files": [{}, "client.ts"] }}"#,
        format!("{}/*/index.d.ts", core.display()),
        names.join(", ")
    );
    std::fs::write(dir.join("tsconfig.json"), config).unwrap();
    run(Command::new(&tsc).arg("-p").arg(dir.join("tsconfig.json")));
}

/// A client of the ICRC ledger written against the declarations and the real
/// agent: `Actor.createActor<_SERVICE>`, typed arguments and results.
const CLIENT: &str = "
import { Actor, HttpAgent } from '@icp-sdk/core/agent';
import { Principal } from '@icp-sdk/core/principal';
import { idlFactory, type _SERVICE, type Account, type TransferArg } from './icrc';

export async function pay(agent: HttpAgent, to: Account): Promise<bigint | string> {
  const ledger = Actor.createActor<_SERVICE>(idlFactory, {
    agent,
    canisterId: Principal.fromText('ryjl3-tyaaa-aaaaa-aaaba-cai'),
  });
  const balance: bigint = await ledger.icrc1_balance_of(to);
  const arg: TransferArg = {
    to,
    fee: [],
    memo: [new Uint8Array([1, 2])],
    from_subaccount: [],
    created_at_time: [BigInt(Date.now()) * 1_000_000n],
    amount: balance / 2n,
  };
  const reply = await ledger.icrc1_transfer(arg);
  return 'Ok' in reply ? reply.Ok : JSON.stringify(Object.keys(reply.Err));
}
";

#[test]
fn the_did_is_equivalent_to_the_input_both_ways() {
    let dir = scratch("did");
    for (name, did) in interfaces(&dir) {
        let out = dir.join(format!("{name}.normalised.did"));
        std::fs::write(&out, ours("did", &did)).unwrap();
        let candor = env!("CARGO_BIN_EXE_candor");
        run(Command::new(candor)
            .arg("check")
            .arg(&out)
            .arg("--previous")
            .arg(&did));
        run(Command::new(candor)
            .arg("check")
            .arg(&did)
            .arg("--previous")
            .arg(&out));
        // Normalising twice changes nothing past the first line (which names the file).
        let again = ours("did", &out);
        let body = |s: &str| s.split_once('\n').map(|(_, b)| b.to_string());
        assert_eq!(
            body(&again),
            body(&std::fs::read_to_string(&out).unwrap()),
            "{name}"
        );
    }
}

/// `tests/golden/bind/NAME.EXT` holds `candor bind LANG NAME.did` for the
/// ledger, the shapes and `bind/docs.did` (`UPDATE_GOLDEN=1` rewrites them).
#[test]
fn golden_bindings() {
    for (name, did) in [
        ("ledger", "ledger.did"),
        ("shapes", "shapes.did"),
        ("docs", "bind/docs.did"),
    ] {
        for (lang, ext) in [
            ("js", "js"),
            ("ts", "d.ts"),
            ("mo", "mo"),
            ("did", "normalised.did"),
        ] {
            let out = Command::new(env!("CARGO_BIN_EXE_candor"))
                .args(["bind", lang, did])
                .current_dir(golden_dir())
                .output()
                .unwrap();
            assert!(out.status.success(), "{name} {lang}");
            let actual = String::from_utf8(out.stdout).unwrap();
            let path = golden_dir().join("bind").join(format!("{name}.{ext}"));
            if std::env::var_os("UPDATE_GOLDEN").is_some() {
                std::fs::write(&path, &actual).unwrap();
                continue;
            }
            let expected = std::fs::read_to_string(&path)
                .unwrap_or_else(|_| panic!("{} missing: run with UPDATE_GOLDEN=1", path.display()));
            assert_eq!(actual, expected, "{name} {lang}");
        }
    }
}

/// Definitions named like the generated code's own names or the languages'
/// reserved words, labels that are keywords, numbers, or no identifiers.
const RESERVED: &str = "\
type IDL = record { \"type\" : nat; \"kebab-name\" : text; ok_ : nat; 7 : bool };
type number = vec IDL;
type Principal = variant { a; b : number };
type class = opt class;
service : { \"type\" : (IDL, number, Principal, class) -> (); \"with space\" : () -> () }
";

/// candid_parser writes `const IDL = IDL.Record(…)` inside the factory, which
/// throws when run (the parameter `IDL` is shadowed before it is read), and
/// `export type number = …`, which TypeScript refuses; candor renames such
/// definitions (`IDL_`, `number_`).
#[test]
fn reserved_names_are_renamed_so_the_js_runs_and_the_typescript_checks() {
    let dir = scratch("reserved");
    let did = dir.join("reserved.did");
    std::fs::write(&did, RESERVED).unwrap();
    let js = ours("js", &did);
    assert!(js.contains("const IDL_ = IDL.Record({"), "{js}");
    assert!(js.contains("const class_ = IDL.Rec();"), "{js}");
    let ts = ours("ts", &did);
    assert!(ts.contains("export type number_ = Array<IDL_>;"), "{ts}");
    assert!(
        ts.contains("export type Principal_ = { 'a' : null } |"),
        "{ts}"
    );
    if let Some(node) = tool("node") {
        let dump = record_js(&node, &dir, "reserved_ours", &js);
        assert!(dump.contains("\"type\""), "{dump}");
        let file = dir.join("reserved_theirs.mjs");
        std::fs::write(&file, theirs("js", &did)).unwrap();
        let recorder = dir.join("recorder.mjs");
        let out = Command::new(&node)
            .arg(&recorder)
            .arg(&file)
            .output()
            .unwrap();
        assert!(!out.status.success(), "candid_parser's factory ran");
    } else {
        eprintln!("node is not installed: the JS is not run");
    }
    if let Some(tsc) = tool("tsc") {
        std::fs::write(dir.join("agent.d.ts"), AGENT_TYPES).unwrap();
        std::fs::write(dir.join("reserved.d.ts"), &ts).unwrap();
        run(Command::new(tsc)
            .args([
                "--noEmit", "--strict", "--target", "es2020", "--lib", "es2020",
            ])
            .arg(dir.join("agent.d.ts"))
            .arg(dir.join("reserved.d.ts")));
    } else {
        eprintln!("tsc is not installed (nor $TSC): the declarations are not checked");
    }
}

/// Motoko: keywords and names ending in `_` get one more `_`, labels that are no
/// identifiers and numbers are `_N_`; a method that is no identifier cannot be
/// written and is refused with its name.
#[test]
fn motoko_escapes_labels_and_refuses_methods_it_cannot_name() {
    let dir = scratch("motoko");
    let did = dir.join("reserved.did");
    std::fs::write(&did, RESERVED).unwrap();
    let err = candor_cli::bind::generate("mo", &did).unwrap_err();
    assert!(
        err.ends_with("method \"with space\" has no Motoko name (methods have no _N_ form)"),
        "{err}"
    );
    let named = RESERVED.replace("\"with space\"", "ignore");
    std::fs::write(&did, named).unwrap();
    let mo = ours("mo", &did);
    let hash = candor::idl_hash("kebab-name");
    let expected = format!(
        "  public type IDL = {{\n    _7_ : Bool;\n    ok__ : Nat;\n    type_ : Nat;\n    _{hash}_ : Text;\n  }};\n"
    );
    assert!(mo.contains(&expected), "{mo}");
    assert!(
        mo.contains("    ignore_ : shared () -> async ();\n"),
        "{mo}"
    );
    assert!(
        mo.contains("    type_ : shared (IDL, number, Principal__, class_) -> async ()"),
        "{mo}"
    );
}

/// A file without a service: JS gets `types`, every definition by name.
#[test]
fn a_file_without_a_service_gives_js_types() {
    let dir = scratch("types");
    let did = dir.join("types.did");
    std::fs::write(
        &did,
        "type A = record { b : B }; type B = opt A; type C = nat;",
    )
    .unwrap();
    let js = ours("js", &did);
    assert!(js.contains("export const types = ({ IDL }) => {"), "{js}");
    assert!(js.contains("return { A, B, C };"), "{js}");
    if let Some(node) = tool("node") {
        let dump = record_js(&node, &dir, "types", &js);
        assert!(dump.starts_with("{\"types\":[[\"A\""), "{dump}");
    }
    assert!(!ours("ts", &did).contains("_SERVICE"));
}

/// A type nested deeper than the `.did` printer prints in full is refused by
/// `bind did` (it would print `…`); the other languages write it whole.
#[test]
fn bind_did_refuses_what_the_printer_would_elide() {
    let dir = scratch("deep");
    let did = dir.join("deep.did");
    let deep = format!("type T = {}nat;", "opt ".repeat(130));
    std::fs::write(&did, format!("{deep}\nservice : {{ f : (T) -> () }}")).unwrap();
    let err = candor_cli::bind::generate("did", &did).unwrap_err();
    assert!(
        err.ends_with("type T nests deeper than 120 levels"),
        "{err}"
    );
    let js = normalise(&ours("js", &did));
    assert!(js.contains(&format!("{}IDL.Nat", "IDL.Opt(".repeat(130))));
    let shallow = format!("type T = {}nat;", "opt ".repeat(100));
    std::fs::write(&did, format!("{shallow}\nservice : {{ f : (T) -> () }}")).unwrap();
    let printed = normalise(&ours("did", &did));
    assert!(
        printed.contains(&format!("{}nat", "opt".repeat(100))),
        "{printed}"
    );
}

/// The comment lines of a binding, in order (the generated first line aside).
fn comments(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| {
            l.starts_with("/**")
                || l.starts_with("* ")
                || l.starts_with("*/")
                || l.starts_with("///")
        })
        .map(String::from)
        .collect()
}

/// `///` comments on definitions, fields, cases, methods and the service reach
/// the TypeScript and the Motoko as candid_parser's carry them
/// (`golden/bind/docs.did`).
#[test]
fn comments_are_carried_as_candid_parser_carries_them() {
    let did = golden_dir().join("bind/docs.did");
    for lang in ["ts", "mo"] {
        let (a, b) = (ours(lang, &did), theirs(lang, &did));
        assert_eq!(comments(&a), comments(&b), "{lang}\n{a}\n{b}");
        assert!(comments(&a).len() >= 8, "{a}");
    }
}

/// Reads messages with a generated `idlFactory` through the real agent's `IDL`
/// (`@icp-sdk/core/candid`) and writes them back: argv is the agent's
/// directory (holding `node_modules/@icp-sdk/core`), the factory's module and a
/// JSON file `{ method: [hex, …] }`; prints the same shape with the agent's bytes.
const AGENT_ROUND_TRIP: &str = r#"
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [, , agentDir, factory, messages] = process.argv;
const require = createRequire(agentDir + '/package.json');
const { IDL } = await import(pathToFileURL(require.resolve('@icp-sdk/core/candid')).href);
const mod = await import(pathToFileURL(factory).href);
const methods = new Map(mod.idlFactory({ IDL })._fields);
const input = JSON.parse(readFileSync(messages, 'utf8'));
const output = {};
for (const [name, list] of Object.entries(input)) {
  const func = methods.get(name);
  if (!func) throw new Error('no method ' + name);
  output[name] = list.map((hex) => {
    // A copy: a Buffer may sit at an offset inside a shared pool.
    const values = IDL.decode(func.argTypes, Uint8Array.from(Buffer.from(hex, 'hex')));
    return Buffer.from(IDL.encode(func.argTypes, values)).toString('hex');
  });
}
console.log(JSON.stringify(output));
"#;

/// The real JS agent, given `CANDOR_AGENT_JS`, a directory where
/// `npm install @icp-sdk/core` was run, reads random messages of every method
/// with `bind js`'s factory and writes them back; candor reads the agent's bytes
/// as the same values.
#[test]
fn the_agent_reads_and_writes_messages_with_the_generated_factory() {
    let (Some(node), Some(agent)) = (tool("node"), std::env::var_os("CANDOR_AGENT_JS")) else {
        eprintln!("node or CANDOR_AGENT_JS (a directory with @icp-sdk/core installed) missing: the agent is not run");
        return;
    };
    let dir = scratch("agent");
    let script = dir.join("round_trip.mjs");
    std::fs::write(&script, AGENT_ROUND_TRIP).unwrap();
    let mut checked = 0;
    for (name, did) in interfaces(&dir) {
        let factory = dir.join(format!("{name}.mjs"));
        std::fs::write(&factory, ours("js", &did)).unwrap();
        let (env, actor, _) = candor_parser::check_file(&did).unwrap();
        let methods = env.as_service(actor.as_ref().unwrap()).unwrap().to_vec();
        let mut sent = std::collections::BTreeMap::new();
        for (method, _) in &methods {
            let types = env
                .get_method(actor.as_ref().unwrap(), method)
                .unwrap()
                .args
                .clone();
            // A method whose arguments have no value (`empty` inside) is skipped.
            let Ok(messages) = candor_cli::random::generate(&env, &types, 7, 4) else {
                continue;
            };
            let hex: Vec<String> = messages
                .iter()
                .map(|m| hex_string(&m.to_bytes_with_types(&env, &types).unwrap()))
                .collect();
            sent.insert(method.clone(), (types, hex));
        }
        let json = format!(
            "{{{}}}",
            sent.iter()
                .map(|(m, (_, hex))| format!(
                    "{m:?}:[{}]",
                    hex.iter()
                        .map(|h| format!("{h:?}"))
                        .collect::<Vec<_>>()
                        .join(",")
                ))
                .collect::<Vec<_>>()
                .join(",")
        );
        let input = dir.join(format!("{name}.json"));
        std::fs::write(&input, json).unwrap();
        let reply = run(Command::new(&node)
            .arg(&script)
            .arg(&agent)
            .arg(&factory)
            .arg(&input));
        for (method, (types, hex)) in &sent {
            let key = format!("{method:?}:[");
            let at = reply
                .find(&key)
                .unwrap_or_else(|| panic!("{name} {method}: {reply}"))
                + key.len();
            let back: Vec<&str> = reply[at..reply[at..].find(']').unwrap() + at]
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.trim_matches('"'))
                .collect();
            assert_eq!(back.len(), hex.len(), "{name} {method}");
            for (ours, theirs) in hex.iter().zip(back) {
                let read = |h: &str| {
                    let bytes = (0..h.len())
                        .step_by(2)
                        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
                        .collect::<Vec<_>>();
                    candor::IDLArgs::from_bytes_with_types(&bytes, &env, types)
                        .unwrap_or_else(|e| panic!("{name} {method}: {e}"))
                        .to_string()
                };
                assert_eq!(read(ours), read(theirs), "{name} {method}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

fn hex_string(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Type-checks Motoko files with the `motoko` npm package (moc compiled to JS):
/// argv is that package's directory, then the files; prints every error.
const MOTOKO_CHECK: &str = r#"
const { createRequire } = require('node:module');
const fs = require('node:fs');
const [, , dir, ...files] = process.argv;
const mo = createRequire(dir + '/package.json')('motoko');
let errors = 0;
for (const file of files) {
  mo.write(file, fs.readFileSync(file, 'utf8'));
  for (const d of mo.check(file).filter((d) => d.severity === 1)) {
    errors++;
    console.log(`${file}:${d.range.start.line + 1}: ${d.message}`);
  }
}
process.exit(errors ? 1 : 0);
"#;

/// With `CANDOR_MOTOKO_JS`, a directory where `npm install motoko` was run, the
/// Motoko compiler accepts every module `bind mo` writes for the test interfaces
/// (and refuses candid_parser's for the class, whose function-typed argument it
/// does not parenthesise: B3).
#[test]
fn the_motoko_compiler_accepts_the_modules() {
    let (Some(node), Some(motoko)) = (tool("node"), std::env::var_os("CANDOR_MOTOKO_JS")) else {
        eprintln!("node or CANDOR_MOTOKO_JS (a directory with the motoko npm package) missing: the Motoko is not compiled");
        return;
    };
    let motoko = Path::new(&motoko).join("node_modules/motoko");
    let dir = scratch("motoko_compiler");
    let script = dir.join("check.cjs");
    std::fs::write(&script, MOTOKO_CHECK).unwrap();
    let reserved = dir.join("reserved.did");
    std::fs::write(&reserved, RESERVED.replace("\"with space\"", "ignore")).unwrap();
    let mut files = Vec::new();
    let mut all = interfaces(&dir);
    all.push(("reserved", reserved));
    all.push(("docs", golden_dir().join("bind/docs.did")));
    for (name, did) in all {
        let file = dir.join(format!("{name}.mo"));
        std::fs::write(&file, ours("mo", &did)).unwrap();
        files.push(file);
    }
    run(Command::new(&node).arg(&script).arg(&motoko).args(&files));
    let theirs_file = dir.join("class_theirs.mo");
    std::fs::write(&theirs_file, theirs("mo", &dir.join("class.did"))).unwrap();
    let out = Command::new(&node)
        .arg(&script)
        .arg(&motoko)
        .arg(&theirs_file)
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "candid_parser's class module compiled"
    );
}

/// `bind did` merges imported definitions and imported services' methods into
/// one file, which `check` finds equivalent to the importing one both ways.
#[test]
fn imports_are_merged_into_the_normalised_did() {
    let dir = scratch("imports");
    std::fs::write(
        dir.join("types.did"),
        "type Account = record { owner : principal; sub : opt blob };",
    )
    .unwrap();
    std::fs::write(
        dir.join("extra.did"),
        "import \"types.did\";\nservice : { owner_of : (nat) -> (Account) query }",
    )
    .unwrap();
    let main = dir.join("main.did");
    std::fs::write(
        &main,
        "import \"types.did\";\nimport service \"extra.did\";\n\
         service : { balance : (Account) -> (nat) query }",
    )
    .unwrap();
    let text = ours("did", &main);
    assert!(!text.contains("import"), "{text}");
    assert!(text.contains("type Account = record"), "{text}");
    assert!(
        text.contains("owner_of : (nat) -> (Account) query;"),
        "{text}"
    );
    let out = dir.join("out.did");
    std::fs::write(&out, &text).unwrap();
    let candor = env!("CARGO_BIN_EXE_candor");
    run(Command::new(candor)
        .arg("check")
        .arg(&out)
        .arg("--previous")
        .arg(&main));
    run(Command::new(candor)
        .arg("check")
        .arg(&main)
        .arg("--previous")
        .arg(&out));
    assert!(ours("js", &main).contains("'owner_of' : IDL.Func([IDL.Nat], [Account], ['query'])"));
}
