//! The table of the names a `.did` file defines, for the type checker's lookups
//! (every use of a type name is one).
//!
//! A hash table whose searches have a known bound: every name's distance from its
//! home slot is measured when the table is built, and a search looks no further
//! than the largest. If names crowd together (inside a canister no hash can have
//! a secret seed, since there is no entropy source, so a hostile interface could
//! be written whose names all collide), the table gives way to a sorted vector
//! searched by bisection, at most log2(n) comparisons per search whatever the
//! names. The std `HashMap` has neither bound, and its SipHash plus the `memcmp`
//! confirming a match cost several times the cheap hash and the word-wise
//! comparison below (in wasm, `memcmp` is a byte loop).

use crate::syntax::Binding;
use std::cmp::Ordering;

/// A name, ordered by length, then by its bytes read as big-endian words: the
/// words at 0, 8, 16, … and, for the last bytes, the word that ends the name
/// (overlapping the one before it). A name shorter than eight bytes is one integer
/// made of loads that overlap the same way. Among names of one length the words
/// determine the name, so the order is total and equality is the names' equality.
#[derive(Clone, Copy)]
pub(crate) struct Key<'a> {
    name: &'a [u8],
}

impl<'a> Key<'a> {
    pub(crate) fn new(name: &'a str) -> Self {
        Key {
            name: name.as_bytes(),
        }
    }
}

/// The eight bytes of `b` at `at`, or none past its end.
fn word(b: &[u8], at: usize) -> Option<u64> {
    let eight = b.get(at..)?.first_chunk::<8>()?;
    Some(u64::from_be_bytes(*eight))
}

/// A name of fewer than eight bytes as one integer, from loads that overlap: its
/// first and last four bytes, or its first, middle and last byte. For one length,
/// these cover every byte, so different names give different integers.
fn short(b: &[u8]) -> u64 {
    let four = |at: usize| {
        b.get(at..)
            .and_then(|r| r.first_chunk::<4>())
            .map_or(0, |w| u64::from(u32::from_be_bytes(*w)))
    };
    let byte = |at: usize| b.get(at).map_or(0, |&c| u64::from(c));
    match b.len() {
        0 => 0,
        len @ 1..=3 => byte(0) << 16 | byte(len / 2) << 8 | byte(len - 1),
        len => four(0) << 32 | four(len - 4),
    }
}

impl Ord for Key<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.name, other.name);
        let len = a.len();
        match len.cmp(&b.len()) {
            Ordering::Equal => {}
            unequal => return unequal,
        }
        if len < 8 {
            return short(a).cmp(&short(b));
        }
        let mut at = 0;
        loop {
            // The last step reads the word ending the names.
            let last = at + 8 >= len;
            let at_word = if last { len - 8 } else { at };
            match word(a, at_word).cmp(&word(b, at_word)) {
                Ordering::Equal if !last => at += 8,
                decided => return decided,
            }
        }
    }
}

/// Equality through the word-wise comparison (the derived one would call `memcmp`).
impl PartialEq for Key<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key<'_> {}

impl PartialOrd for Key<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// How far from its home slot a name may land before the table gives way to the
/// sorted vector. With at most one name per four slots and a fair hash, real
/// interfaces stay far below it.
const MAX_REACH: usize = 24;

/// A cheap hash of a name: its length, then the same words as [`Key`]'s order,
/// each folded in with a multiply.
fn hash(b: &[u8]) -> u64 {
    let mix = |h: u64, w: u64| (h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let len = b.len();
    let mut h = mix(0, len as u64);
    if len < 8 {
        return mix(h, short(b));
    }
    let mut at = 0;
    while at + 8 < len {
        h = mix(h, word(b, at).unwrap_or(0));
        at += 8;
    }
    mix(h, word(b, len - 8).unwrap_or(0))
}

/// How the names are found.
enum Index<'a> {
    /// Open addressing with linear probing: each slot holds the low half of a
    /// name's hash (a cheap first test; the names are compared on a match) and its
    /// binding's index plus one (zero: empty); the home slot is the hash's top
    /// `bits` bits; no name is more than `reach` slots past its home. Eight-byte
    /// slots: the table is zeroed when built, at a price per byte.
    Hashed {
        slots: Vec<(u32, u32)>,
        bits: u32,
        reach: usize,
    },
    /// Each name with the index of its binding, sorted by [`Key`].
    Sorted(Vec<(Key<'a>, usize)>),
}

/// The bindings of one group of definitions, by name.
pub(crate) struct Names<'a> {
    index: Index<'a>,
    decs: &'a [&'a Binding],
}

impl<'a> Names<'a> {
    /// The table of `decs`, or the index of the first binding (in declaration
    /// order) whose name an earlier binding already has.
    pub(crate) fn new(decs: &'a [&'a Binding]) -> Result<Self, usize> {
        let index = match Self::hashed(decs, MAX_REACH)? {
            Some(index) => index,
            None => Self::sorted(decs)?,
        };
        Ok(Names { index, decs })
    }

    /// The hash table, or `None` if some name lands more than `max_reach` slots
    /// from home.
    fn hashed(decs: &'a [&'a Binding], max_reach: usize) -> Result<Option<Index<'a>>, usize> {
        // Slots hold indices as `u32`.
        if u32::try_from(decs.len()).is_err() {
            return Ok(None);
        }
        // At least four slots per name, and 16 in all.
        let Some(len) = decs
            .len()
            .checked_mul(4)
            .and_then(|n| n.max(16).checked_next_power_of_two())
        else {
            return Ok(None);
        };
        let bits = len.trailing_zeros();
        let mut slots = vec![(0u32, 0u32); len];
        let mask = slots.len() - 1;
        let mut reach = 0;
        for (i, b) in (1..).zip(decs) {
            let name = Key::new(&b.id);
            let h = hash(name.name);
            let home = (h >> (64 - bits)) as usize;
            let mut distance = 0;
            loop {
                let Some(slot) = slots.get_mut((home + distance) & mask) else {
                    return Ok(None);
                };
                match *slot {
                    (_, 0) => {
                        *slot = (h as u32, i);
                        break;
                    }
                    (other_h, other) if other_h == h as u32 => {
                        let earlier = other.checked_sub(1).and_then(|j| decs.get(j as usize));
                        if earlier.is_some_and(|e| Key::new(&e.id) == name) {
                            return Err(i as usize - 1);
                        }
                    }
                    _ => {}
                }
                distance += 1;
                if distance > max_reach {
                    return Ok(None);
                }
            }
            reach = reach.max(distance);
        }
        Ok(Some(Index::Hashed { slots, bits, reach }))
    }

    /// The sorted vector.
    fn sorted(decs: &'a [&'a Binding]) -> Result<Index<'a>, usize> {
        let mut sorted: Vec<(Key<'a>, usize)> = decs
            .iter()
            .enumerate()
            .map(|(i, b)| (Key::new(&b.id), i))
            .collect();
        // Equal names end up side by side in declaration order: the second of
        // each run is that name's first repetition.
        sorted.sort_unstable();
        let repeated = sorted
            .windows(2)
            .filter_map(|pair| match pair {
                [(a, _), (b, later)] if a == b => Some(*later),
                _ => None,
            })
            .min();
        match repeated {
            Some(i) => Err(i),
            None => Ok(Index::Sorted(sorted)),
        }
    }

    /// The binding named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&'a Binding> {
        let key = Key::new(name);
        let i = match &self.index {
            Index::Hashed { slots, bits, reach } => {
                let h = hash(key.name);
                let home = (h >> (64 - bits)) as usize;
                let mask = slots.len() - 1;
                (0..=*reach).find_map(|distance| match slots.get((home + distance) & mask) {
                    Some(&(other_h, i)) if other_h == h as u32 && i > 0 => {
                        let b = self.decs.get(i as usize - 1)?;
                        (Key::new(&b.id) == key).then_some(i as usize - 1)
                    }
                    _ => None,
                })?
            }
            Index::Sorted(sorted) => {
                let at = sorted.binary_search_by(|(k, _)| k.cmp(&key)).ok()?;
                sorted.get(at)?.1
            }
        };
        self.decs.get(i).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key is a total order whose equality is the names' equality: lengths
    /// around the word size, names that differ in one byte at any position, NUL
    /// and high bytes. Checked on all pairs against the order it claims (length,
    /// then bytes compared in its word order, which for one length is a
    /// lexicographic order on the words).
    #[test]
    fn key_order_is_total_and_exact() {
        let mut names: Vec<String> = vec![String::new()];
        for len in 1..=20 {
            let base: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            names.push(base.clone());
            for at in 0..len {
                for c in ['\0', 'A', 'z', '\u{7f}'] {
                    let mut v: Vec<char> = base.chars().collect();
                    v[at] = c;
                    names.push(v.into_iter().collect());
                }
            }
        }
        names.push("é".into());
        names.push("\u{e9}x".into());
        for a in &names {
            for b in &names {
                let (ka, kb) = (Key::new(a), Key::new(b));
                assert_eq!(ka.cmp(&kb) == Ordering::Equal, a == b, "{a:?} vs {b:?}");
                assert_eq!(ka.cmp(&kb), kb.cmp(&ka).reverse(), "{a:?} vs {b:?}");
                if a.len() != b.len() {
                    assert_eq!(ka.cmp(&kb), a.len().cmp(&b.len()));
                }
            }
        }
        // Transitivity: sorting by the key and checking neighbours is consistent.
        let mut sorted: Vec<Key<'_>> = names.iter().map(|n| Key::new(n)).collect();
        sorted.sort();
        for w in sorted.windows(2) {
            assert!(w[0] <= w[1]);
        }
        for (i, a) in sorted.iter().enumerate() {
            for b in &sorted[i..] {
                assert!(a <= b);
            }
        }
    }

    fn binding(name: &str) -> Binding {
        Binding {
            id: name.to_string(),
            typ: crate::syntax::IDLType::PrimT(crate::syntax::PrimType::Nat),
            docs: Vec::new(),
            name_span: 0..0,
            span: 0..0,
            source: None,
        }
    }

    /// Name sets from a seed: mixed lengths (short, word-sized, long with shared
    /// prefixes, as in real interfaces), sometimes with repetitions.
    fn name_set(seed: u64, count: usize) -> Vec<String> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let stems = [
            "",
            "Neuron",
            "ManageNeuron",
            "Proposal",
            "a",
            "GovernanceCachedMetrics",
        ];
        (0..count)
            .map(|_| {
                let stem = stems[(next() % stems.len() as u64) as usize];
                let tail = next() % 40;
                if tail == 0 {
                    "Neuron".to_string()
                } else {
                    format!("{stem}{}", tail * 7919 % 1000)
                }
            })
            .collect()
    }

    /// The first index whose name an earlier binding has, by brute force.
    fn first_repeat(names: &[String]) -> Option<usize> {
        (0..names.len()).find(|&i| names[..i].contains(&names[i]))
    }

    /// Hashed with a reach of zero falls back whenever two names share a slot run;
    /// with the real reach real-sized sets stay hashed. Either way, and in the
    /// sorted vector, repetitions and lookups (present and absent names) agree
    /// with brute force.
    #[test]
    fn both_indexes_agree_with_brute_force() {
        let (mut hashed, mut fell_back) = (0, 0);
        for seed in 1..300u64 {
            let count = (seed % 120) as usize;
            let names = name_set(seed, count);
            let bindings: Vec<Binding> = names.iter().map(|n| binding(n)).collect();
            let decs: Vec<&Binding> = bindings.iter().collect();
            let expected = first_repeat(&names);
            let tables = [
                Names::hashed(&decs, MAX_REACH)
                    .map(|t| t.map(|index| Names { index, decs: &decs })),
                Names::hashed(&decs, 0).map(|t| t.map(|index| Names { index, decs: &decs })),
                Names::sorted(&decs).map(|index| Some(Names { index, decs: &decs })),
                Names::new(&decs).map(Some),
            ];
            for table in tables {
                match (table, expected) {
                    // Gave way before finishing (repetitions are then the sorted
                    // vector's to find, checked by the other tables).
                    (Ok(None), _) => fell_back += 1,
                    (Err(i), Some(e)) => assert_eq!(i, e, "seed {seed}"),
                    (Err(i), None) => panic!("seed {seed}: repetition {i} reported"),
                    (Ok(_), Some(e)) => panic!("seed {seed}: repetition {e} missed"),
                    (Ok(Some(t)), None) => {
                        hashed += usize::from(matches!(t.index, Index::Hashed { .. }));
                        for (i, n) in names.iter().enumerate() {
                            let found = t.get(n).map(|b| b as *const Binding);
                            assert_eq!(found, Some(&bindings[i] as *const Binding), "{n}");
                        }
                        for absent in ["", "Neuron1", "ManageNeuronX", "zz", "Proposal10000"] {
                            if !names.iter().any(|n| n == absent) {
                                assert!(t.get(absent).is_none(), "seed {seed}: {absent}");
                            }
                        }
                    }
                }
            }
        }
        // Both paths ran: most sets hash, the zero reach forced fallbacks.
        assert!(hashed > 100, "{hashed}");
        assert!(fell_back > 10, "{fell_back}");
    }

    /// Names that all share their home slot (found by search for a small table)
    /// make the table give way to the sorted vector, which still finds them.
    #[test]
    fn crowded_names_fall_back_to_the_sorted_vector() {
        // 40 names: 256 slots (8 bits); keep names whose home slot is 0.
        let mut crowded = Vec::new();
        let mut n = 0u64;
        while crowded.len() < 40 {
            let name = format!("t{n}");
            if hash(name.as_bytes()) >> 56 == 0 {
                crowded.push(name);
            }
            n += 1;
        }
        let bindings: Vec<Binding> = crowded.iter().map(|n| binding(n)).collect();
        let decs: Vec<&Binding> = bindings.iter().collect();
        let names = Names::new(&decs).expect("no repetitions");
        assert!(matches!(names.index, Index::Sorted(_)));
        for (i, n) in crowded.iter().enumerate() {
            assert!(std::ptr::eq(names.get(n).expect("present"), &bindings[i]));
        }
        assert!(names.get("t-1").is_none());
    }
}
