//! A seeded search for the messages that make a decode do the most work per byte
//! under the default config (spec/limits.md §1.1), candor beside candid 0.10.39.
//!
//! Work is counted deterministically, in the decoder's own units, counted once
//! whoever pays them (typed, skipped or untyped): with explicit quotas of `D` and
//! `S`, a decode that used `d` and `s` did `d - 49·s` units of work (each skipped
//! or untyped unit is 50 decoding units and one skipping unit). Each candidate is
//! measured that way with the bound off and a cap, then decoded under the default
//! config, which must accept it exactly when its work fits the bound, so the work a
//! default decode does is `min(work, size_bound(len))`. Values produced by the
//! accepted untyped decodes are counted too: each costs at least one unit.
//!
//! The messages come from a grammar of wire types weighted towards values that
//! take no bytes (`null`, `reserved`, `record {}`, absent `opt`, vectors and
//! records of them), decoded three ways: untyped (`IDLArgs::from_bytes`), skipped
//! (as an extra argument) and typed (as a few Rust types they are subtypes of).
//! The search keeps the best candidates and mutates them (longer vectors, another
//! level of nesting, more fields) for a few rounds. The seed is fixed
//! (`SIZE_BOUND_SEED` overrides it locally), so CI sees the same messages.
//!
//! The worst ratios found are written into spec/limits.md (generated block):
//! `CANDOR_BLESS=1 cargo test -p candor --test size_bound_search` rewrites it,
//! and without it the test fails when the block is stale (`scripts/limits.sh`).

use candor::de::{size_bound, SIZE_BOUND_BASE, SIZE_BOUND_PER_BYTE};
use candor::{CandidType, DecoderConfig, Deserialize, IDLArgs, IDLValue};

/// Work past which a measurement stops (with the bound off): larger than the
/// bound of every message the search makes (at most `MAX_LEN` bytes), small
/// enough for candid to reach quickly in a debug build.
const CAP: usize = 1 << 18;

/// The longest message the search makes: twice its bound (typed and skipped
/// work are bounded apart) stays within `CAP`.
const MAX_LEN: usize = (CAP / 2 - SIZE_BOUND_BASE) / SIZE_BOUND_PER_BYTE - 24;

/// A wire type with the choices its value makes (vector lengths, which case).
#[derive(Clone, Debug)]
enum Wire {
    Null,
    Reserved,
    Bool,
    Nat8,
    Opt(Box<Wire>, bool),
    Vec(Box<Wire>, u64),
    Record(Vec<Wire>),
    Variant(Vec<Wire>, usize),
}

impl Wire {
    /// Whether a value of this type takes no bytes on the wire.
    fn zero_sized(&self) -> bool {
        match self {
            Wire::Null | Wire::Reserved => true,
            Wire::Record(fs) => fs.iter().all(Wire::zero_sized),
            _ => false,
        }
    }

    /// The bytes the value takes, without writing it (to keep messages small).
    fn value_len(&self) -> u64 {
        match self {
            Wire::Null | Wire::Reserved => 0,
            Wire::Bool | Wire::Nat8 => 1,
            Wire::Opt(t, present) => 1 + if *present { t.value_len() } else { 0 },
            Wire::Vec(t, n) => leb(*n).len() as u64 + n.saturating_mul(t.value_len()),
            Wire::Record(fs) => fs.iter().map(Wire::value_len).sum(),
            Wire::Variant(cs, k) => leb(*k as u64).len() as u64 + cs[*k].value_len(),
        }
    }

    /// Adds this type to `table`; its type code (negative) or table index.
    fn add(&self, table: &mut Vec<Vec<u8>>) -> i64 {
        let entry = match self {
            Wire::Null => return -1,
            Wire::Reserved => return -16,
            Wire::Bool => return -2,
            Wire::Nat8 => return -5,
            Wire::Opt(t, _) => {
                let t = t.add(table);
                [vec![0x6e], sleb(t)].concat()
            }
            Wire::Vec(t, _) => {
                let t = t.add(table);
                [vec![0x6d], sleb(t)].concat()
            }
            Wire::Record(fs) | Wire::Variant(fs, _) => {
                let code = if matches!(self, Wire::Record(_)) {
                    0x6c
                } else {
                    0x6b
                };
                let mut e = vec![code];
                e.extend(leb(fs.len() as u64));
                for (i, f) in fs.iter().enumerate() {
                    let t = f.add(table);
                    e.extend(leb(i as u64));
                    e.extend(sleb(t));
                }
                e
            }
        };
        table.push(entry);
        table.len() as i64 - 1
    }

    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Wire::Null | Wire::Reserved => {}
            Wire::Bool => out.push(1),
            Wire::Nat8 => out.push(7),
            Wire::Opt(t, present) => {
                out.push(*present as u8);
                if *present {
                    t.write(out);
                }
            }
            Wire::Vec(t, n) => {
                out.extend(leb(*n));
                if !t.zero_sized() {
                    for _ in 0..*n {
                        t.write(out);
                    }
                }
            }
            Wire::Record(fs) => fs.iter().for_each(|f| f.write(out)),
            Wire::Variant(cs, k) => {
                out.extend(leb(*k as u64));
                cs[*k].write(out);
            }
        }
    }

    /// The message holding one value of this type.
    fn message(&self) -> Vec<u8> {
        let mut table = Vec::new();
        let t = self.add(&mut table);
        let mut m = b"DIDL".to_vec();
        m.extend(leb(table.len() as u64));
        table.iter().for_each(|e| m.extend(e));
        m.push(1);
        m.extend(sleb(t));
        self.write(&mut m);
        m
    }
}

fn leb(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

fn sleb(mut n: i64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if (n == 0 && b & 0x40 == 0) || (n == -1 && b & 0x40 != 0) {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

/// xorshift64: a fixed sequence for a fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A vector length: mostly large, as the search is after work per byte.
    fn len(&mut self) -> u64 {
        1 << self.below(22)
    }

    fn wire(&mut self, depth: u32) -> Wire {
        let leaf = depth == 0 || self.below(3) == 0;
        if leaf {
            return match self.below(8) {
                0..=3 => Wire::Null,
                4 | 5 => Wire::Reserved,
                6 => Wire::Bool,
                _ => Wire::Nat8,
            };
        }
        match self.below(6) {
            0 | 1 => {
                let t = self.wire(depth - 1);
                // Elements that take bytes get few of them: the message stays small.
                let n = if t.value_len() == 0 {
                    self.len()
                } else {
                    self.below(64)
                };
                Wire::Vec(Box::new(t), n)
            }
            2 => Wire::Opt(Box::new(self.wire(depth - 1)), self.below(2) == 0),
            3 | 4 => Wire::Record((0..self.below(5)).map(|_| self.wire(depth - 1)).collect()),
            _ => {
                let cases: Vec<Wire> = (0..1 + self.below(3))
                    .map(|_| self.wire(depth - 1))
                    .collect();
                let k = self.below(cases.len() as u64) as usize;
                Wire::Variant(cases, k)
            }
        }
    }

    /// One change that may add work without adding many bytes.
    fn mutate(&mut self, w: &Wire) -> Wire {
        match (self.below(4), w) {
            (0, Wire::Vec(t, n)) if t.value_len() == 0 => {
                Wire::Vec(t.clone(), n.saturating_mul(2 + self.below(8)).min(1 << 40))
            }
            (1, _) => Wire::Vec(Box::new(w.clone()), self.len()),
            (2, Wire::Record(fs)) => {
                let mut fs = fs.clone();
                fs.push(self.wire(2));
                Wire::Record(fs)
            }
            (3, Wire::Vec(t, n)) => Wire::Vec(Box::new(self.mutate(t)), *n),
            (_, Wire::Record(fs)) if !fs.is_empty() => {
                let mut fs = fs.clone();
                let i = self.below(fs.len() as u64) as usize;
                fs[i] = self.mutate(&fs[i]);
                Wire::Record(fs)
            }
            _ => Wire::Record(vec![w.clone(), self.wire(2)]),
        }
    }
}

/// Rust types the typed decodes try (a message decodes as those it is a subtype of).
#[derive(CandidType, Deserialize)]
struct Flags {
    a: Option<bool>,
    b: Option<u8>,
}

/// How a message is decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Path {
    Untyped,
    Skipped,
    Typed(usize),
}

const TYPED: [&str; 8] = [
    "Vec<()>",
    "Vec<Option<u8>>",
    "Vec<Vec<()>>",
    "Vec<Flags>",
    "Vec<((), (), ())>",
    "Vec<Option<Vec<()>>>",
    "Vec<Reserved>",
    "Vec<Vec<Option<bool>>>",
];

/// The (decoding, skipping) units a decode by `$krate` used under `config` on
/// `path`, or its error: one body for both crates, whose types differ only in
/// their path (`$flags` is each crate's derive of the same record).
macro_rules! decode_units {
    ($name:ident, $krate:ident, $flags:ty) => {
        fn $name(
            bytes: &[u8],
            path: Path,
            config: &$krate::DecoderConfig,
        ) -> Result<(usize, usize), String> {
            use $krate::de::IDLDeserialize;
            let mut de =
                IDLDeserialize::new_with_config(bytes, config).map_err(|e| e.to_string())?;
            let r = match path {
                Path::Untyped => de.get_value::<$krate::IDLValue>().map(|_| ()),
                Path::Skipped => Ok(()),
                Path::Typed(i) => match i {
                    0 => de.get_value::<Vec<()>>().map(|_| ()),
                    1 => de.get_value::<Vec<Option<u8>>>().map(|_| ()),
                    2 => de.get_value::<Vec<Vec<()>>>().map(|_| ()),
                    3 => de.get_value::<Vec<$flags>>().map(|_| ()),
                    4 => de.get_value::<Vec<((), (), ())>>().map(|_| ()),
                    5 => de.get_value::<Vec<Option<Vec<()>>>>().map(|_| ()),
                    6 => de.get_value::<Vec<$krate::Reserved>>().map(|_| ()),
                    _ => de.get_value::<Vec<Vec<Option<bool>>>>().map(|_| ()),
                },
            };
            r.and_then(|()| de.done()).map_err(|e| e.to_string())?;
            let cost = de.get_config().compute_cost(config);
            Ok((
                cost.decoding_quota.unwrap_or(0),
                cost.skipping_quota.unwrap_or(0),
            ))
        }
    };
}

decode_units!(ours, candor, Flags);

#[derive(candid::CandidType, Deserialize)]
struct TheirFlags {
    a: Option<bool>,
    b: Option<u8>,
}

decode_units!(theirs, candid, TheirFlags);

/// Work of a decode with explicit quotas: `Some((typed, skipped or untyped))`
/// units, `None` past `CAP` in all; `Err` for a message this path cannot decode.
fn work(r: Result<(usize, usize), String>) -> Result<Option<(usize, usize)>, String> {
    match r {
        Ok((d, s)) => Ok(Some((d - 50 * s, s)).filter(|(t, s)| t + s <= CAP)),
        Err(e) if e.contains("cost exceeds the limit") => Ok(None),
        Err(e) => Err(e),
    }
}

fn ours_work(bytes: &[u8], path: Path) -> Result<Option<(usize, usize)>, String> {
    let mut config = DecoderConfig::new();
    config.set_decoding_quota(CAP * 50).set_skipping_quota(CAP);
    work(ours(bytes, path, &config))
}

fn theirs_work(bytes: &[u8], path: Path) -> Result<Option<usize>, String> {
    let mut config = candid::DecoderConfig::new();
    config.set_decoding_quota(CAP * 50).set_skipping_quota(CAP);
    work(theirs(bytes, path, &config)).map(|w| w.map(|(t, s)| t + s))
}

/// The units a message's header costs (4 per byte).
fn header_units(bytes: &[u8]) -> usize {
    let mut config = DecoderConfig::new();
    config.set_decoding_quota(usize::MAX / 2);
    let de = candor::IDLDeserialize::new_with_config(bytes, &config).unwrap();
    usize::MAX / 2 - de.get_config().decoding_quota.unwrap()
}

/// Values in a decoded value tree (each node one).
fn values(v: &IDLValue) -> usize {
    1 + match v {
        IDLValue::Opt(v) => values(v),
        IDLValue::Vec(vs) => vs.iter().map(values).sum(),
        IDLValue::Record(fs) => fs.iter().map(|f| values(&f.val)).sum(),
        IDLValue::Variant(v) => values(&v.0.val),
        _ => 0,
    }
}

/// One measured candidate.
#[derive(Clone, Debug)]
struct Found {
    path: Path,
    len: usize,
    /// Work under the default config (`min(work, bound)`).
    ours: usize,
    /// candid's work with no quota, or `None` past the cap.
    theirs: Option<usize>,
    /// Values produced by candor's default decode (untyped, accepted).
    values: usize,
    wire: Wire,
}

/// Measures one message on one path; `None` when it does not decode there.
fn measure(wire: &Wire, path: Path) -> Option<Found> {
    let bytes = wire.message();
    let len = bytes.len();
    let bound = size_bound(len);
    let raw = ours_work(&bytes, path).ok()?;
    let theirs = theirs_work(&bytes, path).ok().flatten();
    // Under the default config: accepted exactly when the work fits the bound.
    // Untyped work counts against the bound with the header; typed and skipped
    // work are bounded apart (the skipping quota is a copy of the bound, less the
    // header's units, paid before it is made).
    let default = DecoderConfig::new();
    let untyped = path == Path::Untyped;
    let header = header_units(&bytes);
    let fits = raw.is_some_and(|(t, s)| {
        if untyped {
            t + s <= bound
        } else {
            t <= bound && s + header <= bound
        }
    });
    let (outcome, values) = match path {
        Path::Untyped => match IDLArgs::from_bytes(&bytes) {
            Ok(args) => (Ok(()), args.args.iter().map(values).sum()),
            Err(e) => (Err(e.to_string()), 0),
        },
        _ => (ours(&bytes, path, &default).map(|_| ()), 0),
    };
    match (&outcome, fits) {
        (Ok(()), true) => {}
        (Err(e), false) => assert!(
            e.contains(&format!(
                "Decoding cost exceeds the limit of {bound} units that a {len}-byte message"
            )),
            "{path:?} {wire:?}: {e}"
        ),
        _ => panic!("{path:?} {wire:?}: work {raw:?}, bound {bound}, default decode {outcome:?}"),
    }
    // The work done under the default config: at most the bound(s) it stopped at.
    let limit = if untyped { bound } else { 2 * bound };
    let ours = raw.map_or(limit, |(t, s)| {
        if untyped {
            (t + s).min(bound)
        } else {
            t.min(bound) + s.min(bound)
        }
    });
    assert!(values <= ours, "{wire:?}: {values} values for {ours} units");
    Some(Found {
        path,
        len,
        ours,
        theirs,
        values,
        wire: wire.clone(),
    })
}

fn paths() -> impl Iterator<Item = Path> {
    [Path::Untyped, Path::Skipped]
        .into_iter()
        .chain((0..TYPED.len()).map(Path::Typed))
}

/// The work a decode did as a share of its message's bound: at most 1 untyped,
/// 2 typed (typed and skipped work are bounded apart).
fn share(f: &Found) -> f64 {
    f.ours as f64 / size_bound(f.len) as f64
}

#[test]
fn worst_case_search() {
    let seed = std::env::var("SIZE_BOUND_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_b0b5_2026_1127u64);
    let mut rng = Rng(seed);
    let mut all: Vec<Found> = Vec::new();
    // The bombs first, so they are always among the candidates.
    let seeds = [
        Wire::Vec(Box::new(Wire::Null), 1 << 30),
        Wire::Vec(Box::new(Wire::Record(vec![])), 1 << 30),
        Wire::Vec(
            Box::new(Wire::Record(vec![Wire::Null, Wire::Null, Wire::Null])),
            1 << 30,
        ),
    ];
    let mut pool: Vec<Wire> = seeds.to_vec();
    let mut messages = 0;
    pool.extend((0..60).map(|_| rng.wire(4)));
    for round in 0..4 {
        let mut found: Vec<Found> = Vec::new();
        for w in &pool {
            if w.value_len() > 1 << 16 || w.message().len() > MAX_LEN {
                continue;
            }
            messages += 1;
            for path in paths() {
                found.extend(measure(w, path));
            }
        }
        // Rank by work per byte with candid (the unbounded side), then candor.
        found.sort_by(|a, b| {
            let key = |f: &Found| {
                (
                    f.theirs.unwrap_or(CAP) as f64 / f.len as f64,
                    f.ours as f64 / f.len as f64,
                )
            };
            key(b).partial_cmp(&key(a)).unwrap()
        });
        all.extend(found.iter().cloned());
        if round < 3 {
            let best: Vec<Wire> = found.iter().take(8).map(|f| f.wire.clone()).collect();
            pool = best
                .iter()
                .flat_map(|w| (0..3).map(|_| rng.mutate(w)).collect::<Vec<_>>())
                .collect();
        }
    }
    assert!(all.len() > 100, "only {} decodes measured", all.len());

    // The bound holds everywhere (measure checked each accept/reject against it).
    for f in &all {
        assert!(f.ours <= 2 * size_bound(f.len), "{f:?}");
    }
    let worst_ours = all
        .iter()
        .max_by(|a, b| share(a).total_cmp(&share(b)))
        .unwrap();
    let worst_ratio = all
        .iter()
        .max_by(|a, b| (a.ours as f64 / a.len as f64).total_cmp(&(b.ours as f64 / b.len as f64)))
        .unwrap();
    let capped = all.iter().filter(|f| f.theirs.is_none()).count();
    let most_values = all.iter().max_by_key(|f| f.values).unwrap();
    let path = |p: Path| match p {
        Path::Untyped => "untyped (IDLValue)".to_string(),
        Path::Skipped => "skipped (extra argument)".to_string(),
        Path::Typed(i) => format!("typed as `{}`", TYPED[i]),
    };
    let theirs = |f: &Found| match f.theirs {
        None => (
            format!("> {CAP}"),
            format!("> {:.0}", CAP as f64 / f.len as f64),
        ),
        Some(w) => (w.to_string(), format!("{:.0}", w as f64 / f.len as f64)),
    };
    let mut block = format!(
        "{} decodes of {messages} messages (seed {seed:#x}); a = {SIZE_BOUND_PER_BYTE}, b = {SIZE_BOUND_BASE}.\n\n",
        all.len(),
    );
    block.push_str("| worst found | bytes | decoded | candor: work | per byte | share of `a × bytes + b` | candid: work | per byte |\n");
    block.push_str("|---|---:|---|---:|---:|---:|---:|---:|\n");
    for (label, f) in [
        ("most units per byte", worst_ratio),
        ("largest share of the bound", worst_ours),
        ("most values produced", most_values),
    ] {
        let (t, tb) = theirs(f);
        block.push_str(&format!(
            "| {label} | {} | {} | {} | {:.0} | {:.2} | {t} | {tb} |\n",
            f.len,
            path(f.path),
            f.ours,
            f.ours as f64 / f.len as f64,
            share(f),
        ));
    }
    block.push_str(&format!(
        "\ncandid did more than the search's cap of {CAP} units on {capped} of the {} decodes \
         (it has no bound: the cap is the search's); candor's work stayed within \
         `a × bytes + b` typed and as much skipped on all of them (a rejected decode is \
         shown at the most its bounds allow), and its untyped decodes produced at most {} values \
         ({} bytes).\n",
        all.len(),
        most_values.values,
        most_values.len
    ));
    println!("{block}");
    let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/limits.md");
    let text = std::fs::read_to_string(spec).unwrap();
    let (start, end) = (
        "<!-- generated by: scripts/limits.sh -->\n",
        "<!-- end generated -->",
    );
    let a = text.find(start).expect("generated block in spec/limits.md") + start.len();
    let b = a + text[a..].find(end).expect("end of the generated block");
    if std::env::var_os("CANDOR_BLESS").is_some() {
        std::fs::write(spec, format!("{}{block}{}", &text[..a], &text[b..])).unwrap();
    } else if seed == 0x5eed_b0b5_2026_1127 {
        assert_eq!(
            text[a..b],
            block,
            "spec/limits.md's search results are stale: run scripts/limits.sh"
        );
    }
}
