//! The differential fuzzer over random TYPES: random wire type tables (recursive
//! entries, future opcodes, `opt`/`vec`/`record`/`variant` nesting, `reserved` and
//! `empty`, `func` and `service`), random values of them, some with mutated bytes,
//! decoded by candor and candid 0.10.39 under random decoding and skipping quotas
//! (and, a quarter of the time, a random `set_max_header_len`) at
//!
//! * random expected types related to the wire type (the table mutated: fields and
//!   cases added and removed, `nat`/`int` swapped, `opt` wrapped and unwrapped,
//!   subtrees made `reserved` or another type, arguments added and dropped) and
//!   unrelated ones, as `IDLValue` with the type annotation;
//! * no expected type (`IDLValue` at the wire type);
//! * a fixed set of derived Rust types (`TARGETS`), the wire type this time being the
//!   Rust type's own table mutated.
//!
//! Every case must be accepted by both with the same value and the same units, or
//! rejected by both. A difference of a documented class (spec/differences.md) is
//! skipped by a predicate named for its entry; one still open is skipped by a
//! predicate named `pending_<what>`. Everything else fails the test with
//! the message's bytes, the types and both answers.
//!
//! Each case is built from one `u64` (its own small generator), so a failure is
//! reproduced from the seed it prints (`EXPLORE_REPLAY=<seed>`, see `explore`).

use crate::to_candid;
use candor::types::{Field, FuncMode, Function, Label, Type, TypeInner};
use candor::{ErrorKind, TypeEnv};
use proptest::prelude::*;

// ---- one generator per case -----------------------------------------------------------

/// splitmix64: the case's whole shape comes from one proptest-drawn seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    /// True with probability `pct` percent.
    fn pct(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

// ---- the wire table ---------------------------------------------------------------------

/// A type reference: a primitive opcode (negative) or a table index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum R {
    P(i64),
    I(usize),
}

#[derive(Clone, Debug)]
enum Entry {
    Opt(R),
    Vec(R),
    Record(Vec<(u32, R)>),
    Variant(Vec<(u32, R)>),
    Func(Vec<R>, Vec<R>, Vec<u8>),
    Service(Vec<(String, R)>),
    Future(i64, Vec<u8>),
}

#[derive(Clone, Debug)]
struct Table {
    entries: Vec<Entry>,
    args: Vec<R>,
}

const NULL: i64 = -1;
const NAT: i64 = -3;
const INT: i64 = -4;
const RESERVED: i64 = -16;
const PRIMS: [i64; 18] = [
    -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -24,
];
/// Primitives a value can be generated for without failing.
const INHABITED: [i64; 17] = [
    -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -24,
];
/// Field ids: small ones, the hashes of common names, and large ones.
const IDS: [u32; 10] = [
    0,
    1,
    2,
    3,
    97,
    98,
    5_097_222,
    1_224_700_491,
    3_456_837,
    u32::MAX,
];

fn leb(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn sleb(out: &mut Vec<u8>, n: i64) {
    leb128::write::signed(out, n).unwrap();
}

fn sorted(mut fs: Vec<(u32, R)>) -> Vec<(u32, R)> {
    fs.sort_by_key(|f| f.0);
    fs.dedup_by_key(|f| f.0);
    fs
}

impl Table {
    fn random_ref(rng: &mut Rng, n: usize) -> R {
        if n > 0 && rng.pct(40) {
            R::I(rng.below(n))
        } else {
            let set = if rng.pct(90) {
                &INHABITED[..]
            } else {
                &PRIMS[..]
            };
            R::P(rng.pick(set))
        }
    }

    fn random_fields(rng: &mut Rng, n: usize, most: usize) -> Vec<(u32, R)> {
        let k = rng.below(most + 1);
        sorted(
            (0..k)
                .map(|_| (rng.pick(&IDS), Self::random_ref(rng, n)))
                .collect(),
        )
    }

    fn random(rng: &mut Rng) -> Table {
        let n = rng.below(6);
        let mut entries = Vec::with_capacity(n);
        for _ in 0..n {
            let e = match rng.below(16) {
                0..=2 => Entry::Opt(Self::random_ref(rng, n)),
                3..=5 => Entry::Vec(Self::random_ref(rng, n)),
                6..=9 => Entry::Record(Self::random_fields(rng, n, 4)),
                10..=12 => Entry::Variant(Self::random_fields(rng, n, 4)),
                13 => Entry::Func(
                    (0..rng.below(3))
                        .map(|_| Self::random_ref(rng, n))
                        .collect(),
                    (0..rng.below(3))
                        .map(|_| Self::random_ref(rng, n))
                        .collect(),
                    [vec![], vec![1], vec![2], vec![3]][rng.below(4)].clone(),
                ),
                14 => Entry::Service(vec![]),
                _ => Entry::Future(-25 - rng.below(20) as i64, vec![7; rng.below(3)]),
            };
            entries.push(e);
        }
        // A service's methods name function entries.
        let funcs: Vec<usize> = (0..n)
            .filter(|i| matches!(entries[*i], Entry::Func(..)))
            .collect();
        for e in entries.iter_mut() {
            if let Entry::Service(ms) = e {
                if !funcs.is_empty() {
                    for name in ["a", "m", "put"] {
                        if rng.pct(50) {
                            ms.push((name.to_string(), R::I(rng.pick(&funcs))));
                        }
                    }
                }
            }
        }
        let args = (0..rng.below(4))
            .map(|_| Self::random_ref(rng, n))
            .collect();
        Table { entries, args }
    }

    fn write_ref(out: &mut Vec<u8>, r: R) {
        match r {
            R::P(op) => sleb(out, op),
            R::I(i) => sleb(out, i as i64),
        }
    }

    fn write(&self) -> Vec<u8> {
        let mut out = b"DIDL".to_vec();
        leb(&mut out, self.entries.len() as u64);
        for e in &self.entries {
            match e {
                Entry::Opt(r) => {
                    sleb(&mut out, -18);
                    Self::write_ref(&mut out, *r);
                }
                Entry::Vec(r) => {
                    sleb(&mut out, -19);
                    Self::write_ref(&mut out, *r);
                }
                Entry::Record(fs) | Entry::Variant(fs) => {
                    sleb(
                        &mut out,
                        if matches!(e, Entry::Record(_)) {
                            -20
                        } else {
                            -21
                        },
                    );
                    leb(&mut out, fs.len() as u64);
                    for (id, r) in fs {
                        leb(&mut out, u64::from(*id));
                        Self::write_ref(&mut out, *r);
                    }
                }
                Entry::Func(args, rets, modes) => {
                    sleb(&mut out, -22);
                    for list in [args, rets] {
                        leb(&mut out, list.len() as u64);
                        for r in list {
                            Self::write_ref(&mut out, *r);
                        }
                    }
                    leb(&mut out, modes.len() as u64);
                    out.extend_from_slice(modes);
                }
                Entry::Service(ms) => {
                    sleb(&mut out, -23);
                    leb(&mut out, ms.len() as u64);
                    for (name, r) in ms {
                        leb(&mut out, name.len() as u64);
                        out.extend_from_slice(name.as_bytes());
                        Self::write_ref(&mut out, *r);
                    }
                }
                Entry::Future(op, blob) => {
                    sleb(&mut out, *op);
                    leb(&mut out, blob.len() as u64);
                    out.extend_from_slice(blob);
                }
            }
        }
        leb(&mut out, self.args.len() as u64);
        for r in &self.args {
            Self::write_ref(&mut out, *r);
        }
        out
    }

    /// Reads the header of a well-formed message (one candid encoded).
    fn parse(bytes: &[u8]) -> Table {
        let mut rd = &bytes[4..];
        let u = |rd: &mut &[u8]| leb128::read::unsigned(rd).unwrap();
        let s = |rd: &mut &[u8]| leb128::read::signed(rd).unwrap();
        let r = |rd: &mut &[u8]| {
            let v = leb128::read::signed(rd).unwrap();
            if v < 0 {
                R::P(v)
            } else {
                R::I(v as usize)
            }
        };
        let n = u(&mut rd);
        let mut entries = Vec::new();
        for _ in 0..n {
            let op = s(&mut rd);
            entries.push(match op {
                -18 => Entry::Opt(r(&mut rd)),
                -19 => Entry::Vec(r(&mut rd)),
                -20 | -21 => {
                    let k = u(&mut rd);
                    let fs = (0..k).map(|_| (u(&mut rd) as u32, r(&mut rd))).collect();
                    if op == -20 {
                        Entry::Record(fs)
                    } else {
                        Entry::Variant(fs)
                    }
                }
                -22 => {
                    let k = u(&mut rd);
                    let args = (0..k).map(|_| r(&mut rd)).collect();
                    let k = u(&mut rd);
                    let rets = (0..k).map(|_| r(&mut rd)).collect();
                    let k = u(&mut rd) as usize;
                    let modes = rd[..k].to_vec();
                    rd = &rd[k..];
                    Entry::Func(args, rets, modes)
                }
                -23 => {
                    let k = u(&mut rd);
                    let ms = (0..k)
                        .map(|_| {
                            let len = u(&mut rd) as usize;
                            let name = String::from_utf8(rd[..len].to_vec()).unwrap();
                            rd = &rd[len..];
                            (name, r(&mut rd))
                        })
                        .collect();
                    Entry::Service(ms)
                }
                other => panic!("opcode {other} in a candid header"),
            });
        }
        let k = u(&mut rd);
        let args = (0..k).map(|_| r(&mut rd)).collect();
        Table { entries, args }
    }

    /// The table as a type environment (`{prefix}{i}` for entry `i`) and its
    /// argument types.
    fn to_env(&self, prefix: &str) -> (TypeEnv, Vec<Type>) {
        let ty = |r: &R| -> Type {
            match *r {
                R::P(op) => prim(op),
                R::I(i) => TypeInner::Var(format!("{prefix}{i}")).into(),
            }
        };
        let fields = |fs: &[(u32, R)]| -> Vec<Field> {
            fs.iter()
                .map(|(id, r)| Field {
                    id: Label::Id(*id).into(),
                    ty: ty(r),
                })
                .collect()
        };
        let mut env = TypeEnv::new();
        for (i, e) in self.entries.iter().enumerate() {
            let t = match e {
                Entry::Opt(r) => TypeInner::Opt(ty(r)),
                Entry::Vec(r) => TypeInner::Vec(ty(r)),
                Entry::Record(fs) => TypeInner::Record(fields(fs)),
                Entry::Variant(fs) => TypeInner::Variant(fields(fs)),
                Entry::Func(args, rets, modes) => TypeInner::Func(Function {
                    modes: modes
                        .iter()
                        .map(|m| match m {
                            1 => FuncMode::Query,
                            2 => FuncMode::Oneway,
                            _ => FuncMode::CompositeQuery,
                        })
                        .collect(),
                    args: args.iter().map(ty).collect(),
                    rets: rets.iter().map(ty).collect(),
                }),
                Entry::Service(ms) => {
                    TypeInner::Service(ms.iter().map(|(n, r)| (n.clone(), ty(r))).collect())
                }
                Entry::Future(..) => TypeInner::Future,
            };
            env.0.insert(format!("{prefix}{i}"), t.into());
        }
        (env, self.args.iter().map(ty).collect())
    }

    /// Calls `f` on the `n`th type reference (arguments first, then entries in
    /// order); returns how many there are.
    fn visit_refs(&mut self, n: usize, f: &mut dyn FnMut(&mut R)) -> usize {
        let mut i = 0;
        let mut at = |r: &mut R| {
            if i == n {
                f(r);
            }
            i += 1;
        };
        for r in &mut self.args {
            at(r);
        }
        for e in &mut self.entries {
            match e {
                Entry::Opt(r) | Entry::Vec(r) => at(r),
                Entry::Record(fs) | Entry::Variant(fs) => fs.iter_mut().for_each(|f| at(&mut f.1)),
                Entry::Func(a, r, _) => a.iter_mut().chain(r.iter_mut()).for_each(&mut at),
                Entry::Service(_) | Entry::Future(..) => {}
            }
        }
        i
    }

    /// One random change that keeps the table well formed; the result is often a
    /// supertype or a subtype of the original, sometimes unrelated.
    fn mutate(&mut self, rng: &mut Rng) {
        let refs = self.visit_refs(usize::MAX, &mut |_| {});
        let n = self.entries.len();
        match rng.below(12) {
            // Replace a reference: another primitive, nat <-> int, reserved, null,
            // another entry (a new recursion).
            0..=3 if refs > 0 => {
                let which = rng.below(refs);
                let choice = rng.below(6);
                let prim = rng.pick(&PRIMS);
                let idx = rng.below(n.max(1));
                self.visit_refs(which, &mut |r| {
                    *r = match (choice, *r) {
                        (0, R::P(NAT)) => R::P(INT),
                        (0, R::P(INT)) => R::P(NAT),
                        (0 | 1, _) => R::P(prim),
                        (2, _) => R::P(RESERVED),
                        (3, _) => R::P(NULL),
                        (4, _) if n > 0 => R::I(idx),
                        _ => R::P(prim),
                    }
                });
            }
            // Wrap a reference in `opt`, or unwrap one that is an `opt`.
            4 | 5 if refs > 0 => {
                let which = rng.below(refs);
                let wrap = rng.pct(60);
                let opts: Vec<Option<R>> = self
                    .entries
                    .iter()
                    .map(|e| match e {
                        Entry::Opt(r) => Some(*r),
                        _ => None,
                    })
                    .collect();
                let mut new = None;
                self.visit_refs(which, &mut |r| {
                    if let (false, R::I(i)) = (wrap, *r) {
                        if let Some(inner) = opts[i] {
                            *r = inner;
                            return;
                        }
                    }
                    new = Some(*r);
                    *r = R::I(n);
                });
                if let Some(inner) = new {
                    self.entries.push(Entry::Opt(inner));
                }
            }
            // A record field or variant case added or removed.
            6 | 7 if n > 0 => {
                let i = rng.below(n);
                let add = rng.pct(50);
                let id = rng.pick(&IDS);
                let r = if rng.pct(50) {
                    R::P(rng.pick(&[NULL, RESERVED, NAT, -15]))
                } else {
                    Self::random_ref(rng, n)
                };
                let at = rng.next() as usize;
                if let Entry::Record(fs) | Entry::Variant(fs) = &mut self.entries[i] {
                    if add {
                        fs.push((id, r));
                        *fs = sorted(std::mem::take(fs));
                    } else if !fs.is_empty() {
                        fs.remove(at % fs.len());
                    }
                }
            }
            // An argument added or dropped.
            8 => {
                if rng.pct(50) || self.args.is_empty() {
                    let r = Self::random_ref(rng, n);
                    self.args.push(r);
                } else {
                    self.args.pop();
                }
            }
            // A future type in place of a reference.
            9 if refs > 0 => {
                let which = rng.below(refs);
                self.entries.push(Entry::Future(-30, vec![1, 2]));
                self.visit_refs(which, &mut |r| *r = R::I(n));
            }
            // A function's modes, arguments or results changed.
            10 if n > 0 => {
                let i = rng.below(n);
                let r = Self::random_ref(rng, n);
                let k = rng.below(4);
                if let Entry::Func(args, rets, modes) = &mut self.entries[i] {
                    match k {
                        0 => *modes = vec![1],
                        1 => args.push(r),
                        2 => {
                            rets.pop();
                        }
                        _ => rets.push(R::P(NULL)),
                    }
                }
            }
            // An `opt` entry made a `vec` or the other way round.
            _ if n > 0 => {
                let i = rng.below(n);
                self.entries[i] = match &self.entries[i] {
                    Entry::Opt(r) => Entry::Vec(*r),
                    Entry::Vec(r) => Entry::Opt(*r),
                    e => e.clone(),
                };
            }
            _ => {}
        }
    }

    // ---- values ----

    /// Appends a random value of `r` (`depth` bounds recursion: past it, `opt`s are
    /// absent, `vec`s empty and variants take their first case; `fuel` bounds the
    /// values written, as a type without a finite value never ends otherwise: the
    /// message is then cut short).
    fn value(&self, rng: &mut Rng, r: R, depth: u32, fuel: &mut u32, out: &mut Vec<u8>) {
        if depth > 40 || *fuel == 0 {
            return;
        }
        *fuel -= 1;
        let deep = depth > 5;
        match r {
            R::P(op) => prim_value(rng, op, out),
            R::I(i) => match &self.entries[i] {
                Entry::Opt(t) => {
                    if deep || rng.pct(30) {
                        out.push(0);
                    } else {
                        out.push(1);
                        self.value(rng, *t, depth + 1, fuel, out);
                    }
                }
                Entry::Vec(t) => {
                    let n = if deep {
                        0
                    } else if matches!(t, R::P(NULL | RESERVED)) && rng.pct(30) {
                        rng.below(3000)
                    } else {
                        rng.below(4)
                    };
                    leb(out, n as u64);
                    for _ in 0..n {
                        self.value(rng, *t, depth + 1, fuel, out);
                    }
                }
                Entry::Record(fs) => {
                    for (_, t) in fs {
                        self.value(rng, *t, depth + 1, fuel, out);
                    }
                }
                Entry::Variant(fs) => {
                    let k = if deep { 0 } else { rng.below(fs.len()) };
                    leb(out, k as u64);
                    if let Some((_, t)) = fs.get(k) {
                        self.value(rng, *t, depth + 1, fuel, out);
                    }
                }
                Entry::Func(..) => {
                    out.push(1);
                    principal(rng, out);
                    let name = rng.pick(&["", "m", "transfer", "a_b"]);
                    leb(out, name.len() as u64);
                    out.extend_from_slice(name.as_bytes());
                }
                Entry::Service(_) => {
                    out.push(1);
                    principal(rng, out);
                }
                Entry::Future(..) => {
                    let k = rng.below(4);
                    leb(out, k as u64);
                    leb(out, 0);
                    out.extend(std::iter::repeat_n(0xee, k));
                }
            },
        }
    }

    fn message(&self, rng: &mut Rng) -> Vec<u8> {
        let mut out = self.write();
        let mut fuel = 2000;
        for r in &self.args {
            self.value(rng, *r, 0, &mut fuel, &mut out);
        }
        out
    }
}

fn principal(rng: &mut Rng, out: &mut Vec<u8>) {
    out.push(1);
    let n = rng.pick(&[0usize, 1, 10, 29]);
    leb(out, n as u64);
    out.extend((0..n).map(|i| i as u8));
}

fn prim_value(rng: &mut Rng, op: i64, out: &mut Vec<u8>) {
    let width = |op: i64| match op {
        -5 | -9 => 1,
        -6 | -10 => 2,
        -7 | -11 | -13 => 4,
        _ => 8,
    };
    match op {
        -1 | -16 | -17 => {}
        -2 => out.push(if rng.pct(98) { rng.below(2) as u8 } else { 2 }),
        -3 => {
            let v = match rng.below(4) {
                0 => rng.below(200) as u128,
                1 => u128::from(rng.next()),
                2 => (u128::from(rng.next()) << 64) | u128::from(rng.next()),
                _ => u128::MAX,
            };
            let mut body = Vec::new();
            leb128::write::unsigned(&mut body, v as u64).unwrap();
            if v > u128::from(u64::MAX) {
                body.clear();
                let mut v = v;
                loop {
                    let b = (v & 0x7f) as u8;
                    v >>= 7;
                    if v == 0 {
                        body.push(b);
                        break;
                    }
                    body.push(b | 0x80);
                }
            }
            if rng.pct(10) {
                // overlong: trailing zero groups
                let last = body.len() - 1;
                body[last] |= 0x80;
                body.extend([0x80, 0x80, 0x00]);
            }
            out.extend(body);
        }
        -4 => {
            let v = match rng.below(3) {
                0 => rng.below(200) as i64 - 100,
                1 => rng.next() as i64,
                _ => i64::MIN,
            };
            sleb(out, v);
        }
        -15 => {
            let s = rng.pick(&["", "a", "héllo ✓", "text of some length"]);
            leb(out, s.len() as u64);
            out.extend_from_slice(s.as_bytes());
        }
        -24 => principal(rng, out),
        op => {
            let v = rng.next().to_le_bytes();
            out.extend_from_slice(&v[..width(op)]);
        }
    }
}

fn prim(op: i64) -> Type {
    match op {
        -1 => TypeInner::Null,
        -2 => TypeInner::Bool,
        -3 => TypeInner::Nat,
        -4 => TypeInner::Int,
        -5 => TypeInner::Nat8,
        -6 => TypeInner::Nat16,
        -7 => TypeInner::Nat32,
        -8 => TypeInner::Nat64,
        -9 => TypeInner::Int8,
        -10 => TypeInner::Int16,
        -11 => TypeInner::Int32,
        -12 => TypeInner::Int64,
        -13 => TypeInner::Float32,
        -14 => TypeInner::Float64,
        -15 => TypeInner::Text,
        -16 => TypeInner::Reserved,
        -17 => TypeInner::Empty,
        -24 => TypeInner::Principal,
        _ => TypeInner::Future,
    }
    .into()
}

// ---- byte mutations -----------------------------------------------------------------

fn mutate_bytes(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(3) {
        let n = bytes.len();
        if n == 0 {
            return;
        }
        let i = rng.below(n);
        match rng.below(5) {
            0 => bytes[i] ^= 1 << rng.below(8),
            1 => bytes[i] = rng.pick(&[0, 1, 0x7f, 0x80, 0xff]),
            2 => bytes.insert(i, rng.next() as u8),
            3 => {
                bytes.remove(i);
            }
            _ => bytes.truncate(i),
        }
    }
}

// ---- the decoders -------------------------------------------------------------------

/// What one crate made of one message: the value (candid's `Debug` of it) and the
/// units used, or the error.
#[derive(Clone, Debug, PartialEq)]
struct Got {
    value: String,
    decoding: usize,
    skipping: usize,
}

type Answer = Result<Got, (Option<ErrorKind>, String)>;

#[derive(Clone, Copy, Debug)]
struct Quota {
    decoding: usize,
    skipping: usize,
    /// `set_max_header_len`, when set.
    header: Option<usize>,
}

fn configs(q: Quota) -> (candor::DecoderConfig, candid::DecoderConfig) {
    let mut o = candor::DecoderConfig::new();
    o.set_decoding_quota(q.decoding)
        .set_skipping_quota(q.skipping);
    let mut t = candid::DecoderConfig::new();
    t.set_decoding_quota(q.decoding)
        .set_skipping_quota(q.skipping);
    if let Some(n) = q.header {
        o.set_max_header_len(n);
        t.set_max_header_len(n);
    }
    (o, t)
}

/// Decodes as `IDLValue`s: at `types` (in `env`) when given, else every wire argument
/// at its own type.
fn idl_both(bytes: &[u8], env: &TypeEnv, types: Option<&[Type]>, q: Quota) -> (Answer, Answer) {
    let (oc, tc) = configs(q);
    let ours = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        candor::IDLDeserialize::new_with_config(bytes, &oc).and_then(|mut de| {
            let mut vals = Vec::new();
            match types {
                Some(ts) => {
                    for t in ts {
                        vals.push(to_candid::value(&de.get_value_with_type(env, t)?));
                    }
                }
                None => {
                    while !de.is_done() {
                        vals.push(to_candid::value(&de.get_value::<candor::IDLValue>()?));
                    }
                }
            }
            de.done()?;
            let c = de.get_config().compute_cost(&oc);
            Ok(Got {
                value: format!("{vals:?}"),
                decoding: c.decoding_quota.unwrap_or(0),
                skipping: c.skipping_quota.unwrap_or(0),
            })
        })
    }))
    .unwrap_or_else(|_| panic!("candor panicked on {}", hex(bytes)))
    .map_err(|e| (Some(e.kind()), e.to_string()));
    let cenv = to_candid::env(env);
    let ctypes: Option<Vec<_>> = types.map(|ts| ts.iter().map(to_candid::ty).collect());
    let theirs = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        candid::de::IDLDeserialize::new_with_config(bytes, &tc).and_then(|mut de| {
            let mut vals = Vec::new();
            match &ctypes {
                Some(ts) => {
                    for t in ts {
                        vals.push(de.get_value_with_type(&cenv, t)?);
                    }
                }
                None => {
                    while !de.is_done() {
                        vals.push(de.get_value::<candid::IDLValue>()?);
                    }
                }
            }
            de.done()?;
            let c = de.get_config().compute_cost(&tc);
            Ok(Got {
                value: format!("{vals:?}"),
                decoding: c.decoding_quota.unwrap_or(0),
                skipping: c.skipping_quota.unwrap_or(0),
            })
        })
    }))
    .unwrap_or_else(|_| Err(candid::Error::msg("candid panicked")))
    .map_err(|e| (None, format!("{e:#}")));
    (ours, theirs)
}

// ---- typed Rust targets -------------------------------------------------------------

type TypedFn = fn(&[u8], Quota) -> Answer;

/// A Rust type decoded by both crates: a sample message of it (its table is the
/// starting point of the wire types) and the two decoders.
struct Target {
    name: &'static str,
    sample: fn() -> Vec<u8>,
    ours: TypedFn,
    theirs: TypedFn,
}

macro_rules! rust_types {
    ($k:ident; $($name:ident : $t:ty = $sample:expr;)*) => {
        use $k::{CandidType, Deserialize, Int, Nat, Principal, Reserved};
        use std::collections::BTreeMap;

        #[derive(CandidType, Deserialize, Debug, Clone)]
        pub struct Rec { pub a: u8, pub b: Option<String>, pub c: Vec<i32> }

        #[derive(CandidType, Deserialize, Debug, Clone)]
        pub enum Tree { Leaf, Node(u64), Branch { left: Option<Box<Tree>>, right: Vec<Tree> } }

        #[derive(CandidType, Deserialize, Debug, Clone)]
        pub struct List { pub head: i64, pub tail: Option<Box<List>> }

        #[derive(CandidType, Deserialize, Debug, Clone)]
        pub enum Small { A, B(Nat) }

        #[derive(CandidType, Deserialize, Debug, Clone)]
        pub struct Wrapper(pub Rec);

        #[derive(CandidType, Deserialize, Debug, Clone)]
        pub struct WithOpts { pub x: Option<Rec>, pub y: Option<Small>, pub z: Option<Vec<Option<u16>>>, pub r: Reserved }

        #[derive(CandidType, Deserialize, Debug, Clone)]
        pub struct Blobs { pub b: serde_bytes::ByteBuf, pub v: Vec<u8>, pub p: Principal }

        $k::define_function!(pub F : (u8) -> (Nat) query);

        #[derive(CandidType, Deserialize, Debug, Clone)]
        pub struct Refs { pub f: F, pub fs: Option<Vec<F>> }

        pub fn rec() -> Rec { Rec { a: 1, b: Some("b".into()), c: vec![-1, 2] } }
        pub fn f() -> F { F::new(Principal::anonymous(), "m".into()) }

        $(
            pub fn $name(bytes: &[u8], q: super::Quota) -> super::Answer {
                let mut config = $k::DecoderConfig::new();
                config.set_decoding_quota(q.decoding).set_skipping_quota(q.skipping);
                if let Some(n) = q.header {
                    config.set_max_header_len(n);
                }
                drop($k::ser::IDLBuilder::new());
                $k::utils::decode_args_with_config_debug::<($t,)>(bytes, &config)
                    .map_err(|e| (super::kind_of(&e), format!("{e:#}")))
                    .and_then(|(v, cost)| {
                        let value = $k::encode_args(v)
                            .map(|b| super::hex(&b))
                            .map_err(|e| (None, format!("re-encoding: {e}")))?;
                        Ok(super::Got {
                            value,
                            decoding: cost.decoding_quota.unwrap_or(0),
                            skipping: cost.skipping_quota.unwrap_or(0),
                        })
                    })
            }
        )*
    };
}

macro_rules! targets {
    ($($name:ident : $t:ty = $sample:expr;)*) => {
        #[allow(dead_code, unused_imports, clippy::all)]
        mod ours { rust_types!(candor; $($name : $t = $sample;)*); }
        #[allow(dead_code, unused_imports, clippy::all)]
        mod theirs { rust_types!(candid; $($name : $t = $sample;)*); }

        #[allow(unused_imports)]
        mod samples {
            use candid::{Int, Nat, Principal, Reserved};
            use super::theirs::*;
            use std::collections::BTreeMap;
            $(pub fn $name() -> Vec<u8> { candid::encode_one::<$t>($sample).unwrap() })*
        }

        const TARGETS: &[Target] = &[
            $(Target { name: stringify!($t), sample: samples::$name, ours: ours::$name, theirs: theirs::$name },)*
        ];
    };
}

targets! {
    t_rec: Rec = rec();
    t_opt_rec: Option<Rec> = Some(rec());
    t_tree: Tree = Tree::Branch { left: Some(Box::new(Tree::Node(1))), right: vec![Tree::Leaf] };
    t_list: Option<Box<List>> = Some(Box::new(List { head: 1, tail: None }));
    t_small: Small = Small::B(Nat::from(5u8));
    t_wrapper: Wrapper = Wrapper(rec());
    t_with_opts: WithOpts = WithOpts { x: Some(rec()), y: None, z: Some(vec![Some(1)]), r: Reserved };
    t_blobs: Blobs = Blobs { b: serde_bytes::ByteBuf::from(vec![1]), v: vec![2], p: Principal::anonymous() };
    t_refs: Refs = Refs { f: f(), fs: Some(vec![f()]) };
    t_vec_opt: Vec<Option<u16>> = vec![Some(1), None];
    t_opt_vec_opt: Option<Vec<Option<Int>>> = Some(vec![Some(Int::from(-1))]);
    t_bytebuf: serde_bytes::ByteBuf = serde_bytes::ByteBuf::from(vec![1, 2]);
    t_tuple: (u32, String, Nat) = (1, "t".into(), Nat::from(2u8));
    t_map: BTreeMap<String, Int> = [("k".to_string(), Int::from(1))].into_iter().collect();
    t_result: Result<u8, String> = Ok(1);
    t_reserved: Reserved = Reserved;
    t_f64: f64 = 1.5;
    t_principal: Principal = Principal::anonymous();
}

fn kind_of<E: std::fmt::Display + 'static>(e: &E) -> Option<ErrorKind> {
    (e as &dyn std::any::Any)
        .downcast_ref::<candor::Error>()
        .map(|e| e.kind())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

// ---- the documented differences -------------------------------------------------------

/// What one case compared, for the predicates.
struct Seen<'a> {
    bytes: &'a [u8],
    wire: &'a Table,
    /// The expected side as a table (`None`: at the wire types).
    expected: Option<&'a Table>,
    typed: bool,
    /// The typed target is a Rust tuple and the first wire argument a record with more
    /// fields than it.
    tuple: bool,
    /// candor's full-quota decode read a value by a coercion only the spec allows
    /// (`candor::de::spec_only_reads` moved).
    spec_only: bool,
}

impl Seen<'_> {
    fn expected_has_opt(&self) -> bool {
        self.expected
            .is_none_or(|t| t.entries.iter().any(|e| matches!(e, Entry::Opt(_))))
    }
}

/// spec/differences.md D9: candor checks a method name's UTF-8 wherever it reads one;
/// candid only when it decodes the func. Our messages always have valid names, so
/// only a mutated name can be invalid: candor rejects with that message.
fn d9_method_name_utf8(ours: &Answer, theirs: &Answer) -> bool {
    matches!((ours, theirs), (Err((_, e)), Ok(_)) if e.contains("invalid UTF-8 in method name"))
}

/// spec/differences.md D1: an `opt` value that does not coerce costs candor at most
/// what candid charged for its attempt; the values agree.
fn d1_opt_backtrack_cost(s: &Seen, o: &Got, t: &Got) -> bool {
    o.value == t.value
        && s.expected_has_opt()
        && o.decoding <= t.decoding
        && o.skipping <= t.skipping
}

/// spec/differences.md D3: candid's unroll cost of a recursive Rust type depends on
/// its per-thread type memo, within 3 units.
fn d3_knot_placement(s: &Seen, o: &Got, t: &Got) -> bool {
    s.typed
        && o.value == t.value
        && o.skipping == t.skipping
        && o.decoding.abs_diff(t.decoding) <= 3
}

/// spec/differences.md D8: a byte slice target does not decode from `text`.
fn d8_bytes_from_text(s: &Seen, ours: &Answer, theirs: &Answer) -> bool {
    s.typed
        && matches!((ours, theirs), (Err((Some(ErrorKind::Subtype), _)), Ok(_)))
        && s.wire
            .args
            .iter()
            .chain(s.wire.entries.iter().filter_map(|e| match e {
                Entry::Record(fs) => fs.first().map(|f| &f.1),
                _ => None,
            }))
            .any(|r| *r == R::P(-15))
}

/// spec/differences.md D7: a tuple with more wire fields than the Rust tuple. candid
/// reads as many fields as the tuple has and leaves the rest: "Trailing value" when
/// the rest has bytes; when it has none (`null`, `reserved`) candid accepts and
/// charges nothing for it, while candor skips it (1 skipping unit and 50 decoding
/// units a field); when one is `empty` candid accepts, while candor refuses the value
/// (`empty` has none); and when the rest is missing from the message candid never sees
/// the message is short, while candor does (malformed: the spec's value has every
/// field). With a following argument candid reads it from the wrong place (any
/// error).
fn d7_tuple_extra(s: &Seen, ours: &Answer, theirs: &Answer) -> bool {
    s.tuple
        && match (ours, theirs) {
            (Ok(_), Err(_)) => true,
            (Err((Some(ErrorKind::Binary), e)), Ok(_)) => e.contains("unexpected end of input"),
            (Err((_, e)), Ok(_)) => e.starts_with("Cannot decode empty type"),
            (Ok(o), Ok(t)) => {
                let ds = o.skipping.saturating_sub(t.skipping);
                o.value == t.value && ds > 0 && o.decoding == t.decoding + 50 * ds
            }
            _ => false,
        }
}

/// spec/differences.md D12: a blob reads an empty vector of any element type, which
/// candid refuses (an error, or `null` under an `opt`); the decode that did it moved `candor::de::spec_only_reads`.
fn d12_empty_vector_blob(s: &Seen, ours: &Answer) -> bool {
    // candid refuses the read: the message fails, or inside an `opt` the value is
    // `null` where candor has the empty blob.
    s.spec_only && ours.is_ok()
}

/// Runs `decode` and says whether it read a value by a coercion only the spec allows.
fn counting_spec_only<T>(decode: impl FnOnce() -> T) -> (T, bool) {
    let before = candor::de::spec_only_reads();
    let out = decode();
    (out, candor::de::spec_only_reads() != before)
}

/// spec/differences.md D13: an expected type that holds `future` (only a caller can
/// build one: no Rust type and no `.did` names it) is refused by candor ("future
/// cannot be an expected type"); candid checks against it.
fn d13_future_expected(s: &Seen) -> bool {
    s.expected
        .is_some_and(|t| t.entries.iter().any(|e| matches!(e, Entry::Future(..))))
}

/// The byte length of the header of `bytes` (magic included), when it parses, read
/// leniently (a future type's entry is its opcode, a byte count and that many bytes).
fn header_len(bytes: &[u8]) -> Option<usize> {
    fn scan(rd: &mut &[u8]) -> Option<()> {
        let u = |rd: &mut &[u8]| leb128::read::unsigned(rd).ok();
        let s = |rd: &mut &[u8]| leb128::read::signed(rd).ok();
        let skip = |rd: &mut &[u8], n: u64| -> Option<()> {
            *rd = rd.get(usize::try_from(n).ok()?..)?;
            Some(())
        };
        for _ in 0..u(rd)? {
            match s(rd)? {
                -18 | -19 => {
                    s(rd)?;
                }
                -20 | -21 => {
                    for _ in 0..u(rd)?.min(1 << 16) {
                        u(rd)?;
                        s(rd)?;
                    }
                }
                -22 => {
                    for _ in 0..2 {
                        for _ in 0..u(rd)?.min(1 << 16) {
                            s(rd)?;
                        }
                    }
                    let n = u(rd)?;
                    skip(rd, n)?;
                }
                -23 => {
                    for _ in 0..u(rd)?.min(1 << 16) {
                        let n = u(rd)?;
                        skip(rd, n)?;
                        s(rd)?;
                    }
                }
                op if op < -24 => {
                    let n = u(rd)?;
                    skip(rd, n)?;
                }
                _ => return None,
            }
        }
        for _ in 0..u(rd)?.min(1 << 16) {
            s(rd)?;
        }
        Some(())
    }
    let mut rd = bytes.get(4..)?;
    scan(&mut rd)?;
    Some(bytes.len() - rd.len())
}

/// spec/differences.md D14: with no decoding quota set, a decode is bounded by its
/// message's size (`vec null` bombs): a limit error where candid accepts.
fn d14_size_bound(ours: &Answer, theirs: &Answer) -> bool {
    matches!((ours, theirs), (Err((Some(ErrorKind::Limit), _)), Ok(_)))
}

/// spec/differences.md D15: an expected type with an `opt` that holds itself
/// (`e0 = opt e0`): candor answers (its value-level `opt` check finds another field
/// that cannot coerce), where candid fails at its recursion limit.
fn d15_self_opt(s: &Seen, ours: &Answer, theirs: &Answer) -> bool {
    let self_opt = s.expected.is_some_and(|t| {
        t.entries.iter().enumerate().any(|(i, e)| {
            // Follow `opt` to `opt` from entry `i`: a chain that comes back to it.
            let mut at = e;
            for _ in 0..t.entries.len() {
                match at {
                    Entry::Opt(R::I(j)) if *j == i => return true,
                    Entry::Opt(R::I(j)) => match t.entries.get(*j) {
                        Some(next) => at = next,
                        None => return false,
                    },
                    _ => return false,
                }
            }
            false
        })
    });
    self_opt
        && matches!((ours, theirs), (Ok(_), Err((_, e))) if e.contains("Recursion limit exceeded"))
}

/// `Ok(None)` when the answers agree, `Ok(Some(class))` when a predicate explains
/// the difference, else the difference described.
fn judge(
    s: &Seen,
    ours: &Answer,
    theirs: &Answer,
    tally: &mut Tally,
) -> Result<Option<&'static str>, String> {
    let same = match (ours, theirs) {
        (Ok(o), Ok(t)) => o == t,
        (Err(_), Err(_)) => true,
        _ => false,
    };
    if same {
        return Ok(None);
    }
    let class = if d9_method_name_utf8(ours, theirs) {
        "d9_method_name_utf8"
    } else if d7_tuple_extra(s, ours, theirs) {
        "d7_tuple_extra"
    } else if d8_bytes_from_text(s, ours, theirs) {
        "d8_bytes_from_text"
    } else if d12_empty_vector_blob(s, ours) {
        "d12_empty_vector_blob"
    } else if d13_future_expected(s) {
        "d13_future_expected"
    } else if d14_size_bound(ours, theirs) {
        "d14_size_bound"
    } else if d15_self_opt(s, ours, theirs) {
        "d15_self_opt"
    } else {
        match (ours, theirs) {
            (Ok(o), Ok(t)) if d1_opt_backtrack_cost(s, o, t) => "d1_opt_backtrack_cost",
            (Ok(o), Ok(t)) if d3_knot_placement(s, o, t) => "d3_knot_placement",
            _ => return Err(describe_pair(s, ours, theirs)),
        }
    };
    if std::env::var("EXPLORE_SHOW").is_ok_and(|c| c == class) {
        println!(
            "==== {class}\n  wire {:?}\n  expected {:?}\n  bytes  {}\n  candor {ours:?}\n  candid {theirs:?}",
            s.wire,
            s.expected,
            hex(s.bytes)
        );
    }
    tally.skip(class);
    Ok(Some(class))
}

fn describe_pair(s: &Seen, ours: &Answer, theirs: &Answer) -> String {
    format!(
        "bytes  {}\n  candor {ours:?}\n  candid {theirs:?}",
        hex(s.bytes)
    )
}

/// Under a random quota, after the full-quota decode gave `full`: when the two crates
/// agreed there, they must agree here; when a documented class made their units
/// differ, each crate must accept exactly when its own units fit the quota.
fn judge_quota(
    s: &Seen,
    full: (&Answer, &Answer, Option<&'static str>),
    q: Quota,
    ours: &Answer,
    theirs: &Answer,
    tally: &mut Tally,
) -> Result<(), String> {
    let header_fits = q
        .header
        .is_none_or(|n| header_len(s.bytes).is_some_and(|len| len <= n));
    let fits = |a: &Answer| {
        header_fits && matches!(a, Ok(g) if g.decoding <= q.decoding && g.skipping <= q.skipping)
    };
    match full {
        (Ok(fo), Ok(ft), Some(class))
            if ours.is_ok() == fits(full.0)
                && theirs.is_ok() == fits(full.1)
                && ours.as_ref().map_or(true, |o| o == fo)
                && theirs.as_ref().map_or(true, |t| t == ft) =>
        {
            tally.skip(class);
            Ok(())
        }
        _ => judge(s, ours, theirs, tally).map(drop),
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    skipped: std::collections::BTreeMap<&'static str, usize>,
    /// Per path (`typed`, `wire`, `expected`): (both accepted, both rejected) under
    /// the full quota.
    agreed: std::collections::BTreeMap<&'static str, (usize, usize)>,
}

impl Tally {
    fn skip(&mut self, class: &'static str) {
        *self.skipped.entry(class).or_default() += 1;
    }
    fn agreed(&mut self, path: &'static str, ours: &Answer, theirs: &Answer) {
        let e = self.agreed.entry(path).or_default();
        match (ours, theirs) {
            (Ok(_), Ok(_)) => e.0 += 1,
            (Err(_), Err(_)) => e.1 += 1,
            _ => {}
        }
    }
}

// ---- one case -----------------------------------------------------------------------

fn quota(rng: &mut Rng) -> Quota {
    Quota {
        decoding: match rng.below(4) {
            0 => rng.below(2000),
            1 => rng.below(200_000),
            _ => 20_000_000,
        },
        skipping: match rng.below(4) {
            0 => rng.below(100),
            1 => rng.below(5000),
            _ => 100_000,
        },
        header: rng.pct(25).then(|| 4 + rng.below(60)),
    }
}

const FULL: Quota = Quota {
    decoding: 20_000_000,
    skipping: 100_000,
    header: None,
};

/// Runs the case of `seed`; returns a description of an unexplained difference.
fn run(seed: u64, tally: &mut Tally) -> Option<String> {
    let mut rng = Rng(seed);
    tally.cases += 1;
    let typed = rng.pct(35);
    let target = &TARGETS[rng.below(TARGETS.len())];
    // The wire table: random, or a typed target's table mutated.
    let fields = |t: &Table| match t.args.first() {
        Some(R::I(i)) => match &t.entries[*i] {
            Entry::Record(fs) => fs.len(),
            _ => 0,
        },
        _ => 0,
    };
    let mut tuple = false;
    let wire = if typed {
        let mut t = Table::parse(&(target.sample)());
        let own = fields(&t);
        for _ in 0..rng.below(3) {
            t.mutate(&mut rng);
        }
        tuple = target.name.starts_with('(') && fields(&t) > own;
        t
    } else {
        Table::random(&mut rng)
    };
    let mut bytes = wire.message(&mut rng);
    if rng.pct(20) {
        mutate_bytes(&mut rng, &mut bytes);
    }
    if std::env::var_os("EXPLORE_VERBOSE").is_some() {
        eprintln!("  wire {wire:?}\n  bytes {}", hex(&bytes));
    }
    // Under the full quota, then under a random one.
    let quotas = [FULL, quota(&mut rng)];
    let describe =
        |what: &str, detail: String| format!("seed {seed:#x}: {what}\n  wire {wire:?}\n  {detail}");
    if typed {
        let (fo, spec_only) = counting_spec_only(|| (target.ours)(&bytes, FULL));
        let ft = (target.theirs)(&bytes, FULL);
        let s = Seen {
            bytes: &bytes,
            wire: &wire,
            expected: None,
            typed: true,
            tuple,
            spec_only,
        };
        tally.agreed("typed", &fo, &ft);
        let class = match judge(&s, &fo, &ft, tally) {
            Ok(class) => class,
            Err(d) => return Some(describe(&format!("at {} under {FULL:?}", target.name), d)),
        };
        let q = quotas[1];
        let (o, t) = ((target.ours)(&bytes, q), (target.theirs)(&bytes, q));
        if let Err(d) = judge_quota(&s, (&fo, &ft, class), q, &o, &t, tally) {
            return Some(describe(&format!("at {} under {q:?}", target.name), d));
        }
        return None;
    }
    // IDLValue at the wire types.
    let ((o, t), spec_only) =
        counting_spec_only(|| idl_both(&bytes, &TypeEnv::new(), None, quotas[1]));
    let s = Seen {
        bytes: &bytes,
        wire: &wire,
        expected: None,
        typed: false,
        tuple: false,
        spec_only,
    };
    tally.agreed("wire", &o, &t);
    if let Err(d) = judge(&s, &o, &t, tally) {
        return Some(describe("as IDLValue", d));
    }
    // IDLValue at an expected type: the wire table mutated, or another random one.
    let expected = if rng.pct(80) {
        let mut e = wire.clone();
        for _ in 0..1 + rng.below(3) {
            e.mutate(&mut rng);
        }
        e
    } else {
        Table::random(&mut rng)
    };
    let (env, types) = expected.to_env("e");
    if std::env::var_os("EXPLORE_VERBOSE").is_some() {
        eprintln!("  expected {expected:?}");
    }
    let ((fo, ft), spec_only) = counting_spec_only(|| idl_both(&bytes, &env, Some(&types), FULL));
    let s = Seen {
        bytes: &bytes,
        wire: &wire,
        expected: Some(&expected),
        typed: false,
        tuple: false,
        spec_only,
    };
    let at = |q: Quota, d: String| {
        Some(describe(
            &format!("at {types:?} under {q:?}"),
            format!("expected {expected:?}\n  {d}"),
        ))
    };
    tally.agreed("expected", &fo, &ft);
    let class = match judge(&s, &fo, &ft, tally) {
        Ok(class) => class,
        Err(d) => return at(FULL, d),
    };
    let q = quotas[1];
    let (o, t) = idl_both(&bytes, &env, Some(&types), q);
    if let Err(d) = judge_quota(&s, (&fo, &ft, class), q, &o, &t, tally) {
        return at(q, d);
    }
    None
}

/// Runs `EXPLORE_CASES` cases (default 20,000) from `EXPLORE_SEED` (default the
/// clock) and prints every unexplained difference instead of stopping at the first;
/// `EXPLORE_REPLAY=<seed>` runs that one case. For local runs:
/// `cargo test -p candor --test differential explore -- --ignored --nocapture`.
#[test]
#[ignore = "exploration: run by hand with other seeds"]
fn explore() {
    let var = |k: &str| {
        std::env::var(k)
            .ok()
            .and_then(|v| u64::from_str_radix(v.trim_start_matches("0x"), 16).ok())
    };
    let mut tally = Tally::default();
    if let Some(seed) = var("EXPLORE_REPLAY") {
        println!("{:?}\n{:?}", run(seed, &mut tally), tally.skipped);
        return;
    }
    let start = var("EXPLORE_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64
    });
    let cases = std::env::var("EXPLORE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let mut rng = Rng(start);
    let mut found = 0;
    let verbose = std::env::var("EXPLORE_VERBOSE").is_ok();
    for _ in 0..cases {
        let seed = rng.next();
        if verbose {
            eprintln!("seed {seed:x}");
        }
        if let Some(d) = run(seed, &mut tally) {
            found += 1;
            println!("---- {}", d.chars().take(3000).collect::<String>());
        }
    }
    println!(
        "start {start:x}: {} cases, {found} unexplained, skipped {:?}, \
         (both accept, both reject) {:?}",
        tally.cases, tally.skipped, tally.agreed
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn random_types_values_and_quotas_decode_alike(seed in any::<u64>()) {
        let found = run(seed, &mut Tally::default());
        prop_assert!(found.is_none(), "{}", found.unwrap_or_default());
    }
}

/// Found by this fuzzer: the subtype check of a `func` value
/// decoded as `IDLValue` at a type of the caller's environment. candid merges the
/// environment (one entry, `e0`) into its table (one entry) and charges the merged
/// length, 2 units (`× 50` decoding), where candor charges the wire table's 1.
#[test]
fn ref_check_units_count_the_callers_environment() {
    let wire = Table {
        entries: vec![Entry::Func(vec![], vec![], vec![])],
        args: vec![R::I(0)],
    };
    let mut bytes = wire.write();
    bytes.extend([1, 1, 1, 7, 1, b'm']);
    let (env, types) = wire.to_env("e");
    let (ours, theirs) = idl_both(&bytes, &env, Some(&types), FULL);
    let (ours, theirs) = (ours.unwrap(), theirs.unwrap());
    assert_eq!(ours.value, theirs.value);
    assert_eq!(
        (ours.decoding, ours.skipping),
        (theirs.decoding, theirs.skipping),
        "candor (decoding, skipping) units, then candid's"
    );
}
