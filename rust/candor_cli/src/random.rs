//! `candor random`: random well-typed argument values for a method, e.g. to fuzz a
//! canister with calls its interface accepts.
//!
//! The values are a function of the seed alone (a small generator of our own, so
//! the sequence does not change with a dependency's version). Recursive types stay
//! finite: past a depth or a node budget, `opt` becomes `null`, `vec` becomes empty
//! and a variant takes its shallowest case, so every step then goes to a type of
//! smaller height (see [`Heights`]) and generation ends. Types no finite value
//! inhabits (`empty`, a record that needs a value of itself) are never chosen: an
//! `opt` of one is `null`, a `vec` of one is empty, a variant avoids such cases, and
//! an argument of such a type is an error.

use candor::types::{Label, Type, TypeEnv, TypeInner};
use candor::{IDLArgs, IDLField, IDLValue, Int, Nat, Principal, VariantValue};
use std::collections::BTreeMap;

/// Past this nesting, values take their smallest form.
const MAX_DEPTH: usize = 8;
/// Past this many values in one message, values take their smallest form.
const MAX_NODES: usize = 400;
/// Vectors have at most this many elements (blobs and text at most 4 times as many).
const MAX_LEN: u64 = 5;

/// A splitmix64 stream: fast, well mixed, and fixed by its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

/// The least nesting a finite value of each named type needs (`None`: no finite
/// value exists), computed as a fixpoint over the environment so recursion through
/// names is handled once, not per value.
pub struct Heights<'a> {
    named: BTreeMap<&'a str, Option<u32>>,
}

impl<'a> Heights<'a> {
    pub fn new(env: &'a TypeEnv) -> Heights<'a> {
        let mut h = Heights {
            named: env.0.keys().map(|k| (k.as_str(), None)).collect(),
        };
        // Each round can only lower heights, from "none" to a number or a number
        // to a smaller one; a height is at most the number of names plus one, so
        // the rounds end.
        loop {
            let mut changed = false;
            for (name, t) in &env.0 {
                let new = h.height(t, 0);
                if h.named.get(name.as_str()).copied().flatten() != new {
                    h.named.insert(name.as_str(), new);
                    changed = true;
                }
            }
            if !changed {
                return h;
            }
        }
    }

    /// The height of `t` with the named heights found so far.
    pub fn height(&self, t: &Type, depth: usize) -> Option<u32> {
        if depth > 1_000 {
            return None;
        }
        match t.as_ref() {
            TypeInner::Var(name) => self.named.get(name.as_str()).copied().flatten(),
            TypeInner::Empty | TypeInner::Unknown | TypeInner::Knot(_) | TypeInner::Future => None,
            TypeInner::Record(fs) => {
                let mut h = 0;
                for f in fs {
                    h = h.max(self.height(&f.ty, depth + 1)?);
                }
                Some(h + 1)
            }
            TypeInner::Variant(fs) => fs
                .iter()
                .filter_map(|f| self.height(&f.ty, depth + 1))
                .min()
                .map(|h| h + 1),
            TypeInner::Class(_, _) => None,
            _ => Some(1),
        }
    }
}

/// `count` messages of random values of `types`, from `seed`.
pub fn generate(
    env: &TypeEnv,
    types: &[Type],
    seed: u64,
    count: usize,
) -> Result<Vec<IDLArgs>, String> {
    let heights = Heights::new(env);
    for (i, t) in types.iter().enumerate() {
        if heights.height(t, 0).is_none() {
            return Err(format!(
                "argument {i} has type {t}, which no finite value inhabits"
            ));
        }
    }
    let mut g = Gen {
        env,
        heights,
        rng: Rng::new(seed),
        nodes: 0,
    };
    let mut out = Vec::with_capacity(count.min(1 << 16));
    for _ in 0..count {
        g.nodes = 0;
        let mut args = Vec::with_capacity(types.len());
        for t in types {
            args.push(g.value(t, 0)?);
        }
        out.push(IDLArgs { args });
    }
    Ok(out)
}

struct Gen<'a> {
    env: &'a TypeEnv,
    heights: Heights<'a>,
    rng: Rng,
    nodes: usize,
}

const TEXT_PIECES: [&str; 12] = [
    "a", "b", "z", "0", " ", "-", "\"", "\\", "\n", "é", "✓", "🦀",
];

impl Gen<'_> {
    fn small(&self, depth: usize) -> bool {
        depth >= MAX_DEPTH || self.nodes >= MAX_NODES
    }

    fn value(&mut self, t: &Type, depth: usize) -> Result<IDLValue, String> {
        self.nodes += 1;
        let small = self.small(depth);
        let r = &mut self.rng;
        Ok(match t.as_ref() {
            TypeInner::Var(_) => {
                let t = self.env.trace_type(t).map_err(|e| e.to_string())?;
                return self.value(&t, depth);
            }
            TypeInner::Null => IDLValue::Null,
            TypeInner::Reserved => IDLValue::Reserved,
            TypeInner::Bool => IDLValue::Bool(r.chance(2)),
            TypeInner::Nat => IDLValue::Nat(Nat::from(edgy(r) as u128)),
            TypeInner::Int => IDLValue::Int(Int::from(edgy(r) as i64 as i128)),
            TypeInner::Nat8 => IDLValue::Nat8(edgy(r) as u8),
            TypeInner::Nat16 => IDLValue::Nat16(edgy(r) as u16),
            TypeInner::Nat32 => IDLValue::Nat32(edgy(r) as u32),
            TypeInner::Nat64 => IDLValue::Nat64(edgy(r)),
            TypeInner::Int8 => IDLValue::Int8(edgy(r) as i8),
            TypeInner::Int16 => IDLValue::Int16(edgy(r) as i16),
            TypeInner::Int32 => IDLValue::Int32(edgy(r) as i32),
            TypeInner::Int64 => IDLValue::Int64(edgy(r) as i64),
            TypeInner::Float32 => IDLValue::Float32(float32(r)),
            TypeInner::Float64 => IDLValue::Float64(float(r)),
            TypeInner::Text => IDLValue::Text(text(r)),
            TypeInner::Principal => IDLValue::Principal(principal(r)),
            TypeInner::Service(_) => IDLValue::Service(principal(r)),
            TypeInner::Func(_) => {
                let p = principal(r);
                let name = ["call", "query", "update_1", "method name"][r.below(4) as usize];
                IDLValue::Func(p, name.to_string())
            }
            TypeInner::Opt(inner) => {
                if small || self.heights.height(inner, 0).is_none() || self.rng.chance(3) {
                    IDLValue::None
                } else {
                    IDLValue::Opt(Box::new(self.value(inner, depth + 1)?))
                }
            }
            TypeInner::Vec(inner) => {
                let blob = matches!(
                    self.env.trace_type(inner).map(|t| t.as_ref().clone()),
                    Ok(TypeInner::Nat8)
                );
                let n = if small || self.heights.height(inner, 0).is_none() {
                    0
                } else if blob {
                    self.rng.below(4 * MAX_LEN + 1)
                } else {
                    self.rng.below(MAX_LEN + 1)
                };
                if blob {
                    IDLValue::Blob((0..n).map(|_| self.rng.next_u64() as u8).collect())
                } else {
                    let mut items = Vec::with_capacity(n as usize);
                    for _ in 0..n {
                        items.push(self.value(inner, depth + 1)?);
                    }
                    IDLValue::Vec(items)
                }
            }
            TypeInner::Record(fs) => {
                let mut fields = Vec::with_capacity(fs.len());
                for f in fs {
                    fields.push(IDLField {
                        id: Label::clone(&f.id),
                        val: self.value(&f.ty, depth + 1)?,
                    });
                }
                IDLValue::Record(fields)
            }
            TypeInner::Variant(fs) => {
                let heights: Vec<Option<u32>> =
                    fs.iter().map(|f| self.heights.height(&f.ty, 0)).collect();
                let pick = if small {
                    // The shallowest case, so the value ends.
                    heights
                        .iter()
                        .enumerate()
                        .filter_map(|(i, h)| h.map(|h| (h, i)))
                        .min()
                        .map(|(_, i)| i)
                } else {
                    let live: Vec<usize> =
                        (0..fs.len()).filter(|&i| heights[i].is_some()).collect();
                    live.get(self.rng.below(live.len() as u64) as usize)
                        .copied()
                };
                let Some(i) = pick else {
                    return Err(format!("no finite value of type {t}"));
                };
                let f = &fs[i];
                let val = self.value(&f.ty, depth + 1)?;
                IDLValue::Variant(VariantValue(
                    Box::new(IDLField {
                        id: Label::clone(&f.id),
                        val,
                    }),
                    i as u64,
                ))
            }
            TypeInner::Empty
            | TypeInner::Unknown
            | TypeInner::Knot(_)
            | TypeInner::Future
            | TypeInner::Class(_, _) => return Err(format!("no value of type {t} can be made")),
        })
    }
}

/// Numbers near the edges (0, 1, powers of two and their neighbours, all ones)
/// half the time, otherwise small or any.
fn edgy(r: &mut Rng) -> u64 {
    match r.below(6) {
        0 => [0, 1, 127, 128, 255, 256, 65_535, u64::MAX][r.below(8) as usize],
        1 => {
            let p = 1u64 << r.below(64);
            p.wrapping_add(r.below(3)).wrapping_sub(1)
        }
        2 | 3 => r.below(1000),
        _ => r.next_u64(),
    }
}

/// Finite floats (the text format has no literal for infinities or NaN), a few
/// of them edges.
fn float(r: &mut Rng) -> f64 {
    match r.below(4) {
        0 => [0.0, -0.0, 1.0, -1.5, 0.1, 1e300][r.below(6) as usize],
        _ => (r.next_u64() as i64 as f64) / 1024.0,
    }
}

/// Finite `float32`s (a `float64` edge such as 1e300 would round to infinity).
fn float32(r: &mut Rng) -> f32 {
    match r.below(4) {
        0 => [0.0, -0.0, 1.0, -1.5, 0.1, 3e38][r.below(6) as usize],
        _ => (r.next_u64() as i32 as f32) / 1024.0,
    }
}

fn text(r: &mut Rng) -> String {
    let n = r.below(4 * MAX_LEN + 1);
    (0..n)
        .map(|_| TEXT_PIECES[r.below(TEXT_PIECES.len() as u64) as usize])
        .collect()
}

fn principal(r: &mut Rng) -> Principal {
    match r.below(4) {
        0 => Principal::anonymous(),
        1 => Principal::management_canister(),
        _ => {
            let n = r.below(30) as usize;
            let bytes: Vec<u8> = (0..n).map(|_| r.next_u64() as u8).collect();
            Principal::try_from_slice(&bytes).unwrap_or_else(|_| Principal::anonymous())
        }
    }
}
