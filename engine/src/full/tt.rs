//! The `full` profile's transposition table: 64-bit keys, buckets of two entries (one kept by
//! depth, one always replaced), sized in megabytes by the UCI `Hash` option.

use crate::moves::Move;

/// Bound type of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Exact score.
    Exact,
    /// Score is a lower bound (fail high).
    Lower,
    /// Score is an upper bound (fail low).
    Upper,
}

impl Bound {
    /// The bound a fail-soft search result `score` has for the window `(alpha, beta)`.
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: Move,
    score: i16,
    eval: i16,
    depth: i8,
    /// Bits 0-1 bound (0 empty), bits 2-7 search generation.
    flags: u8,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// Best or refuting move (may be [`Move::NULL`]).
    pub mv: Move,
    /// Stored score (mate scores relative to the stored node).
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Remaining depth of the stored search.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

/// The table.
pub struct TranspositionTable {
    buckets: Vec<[Entry; 2]>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let bytes = mb.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        TranspositionTable {
            buckets: vec![[Entry::default(); 2]; n],
            generation: 0,
        }
    }

    /// Like [`TranspositionTable::new`], but a table the host cannot give is an error instead
    /// of the end of the process.
    pub fn try_new(mb: usize) -> Result<Self, std::collections::TryReserveError> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n)?;
        buckets.resize(n, [Entry::default(); 2]);
        Ok(TranspositionTable {
            buckets,
            generation: 0,
        })
    }

    /// The size of the table in bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.buckets.as_slice())
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets
            .iter_mut()
            .for_each(|b| *b = [Entry::default(); 2]);
        self.generation = 0;
    }

    /// Starts a new search (older entries become preferred victims).
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Looks a key up.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = &self.buckets[self.index(key)];
        b.iter()
            .find(|e| e.key == key && e.flags & 3 != 0)
            .map(|e| Hit {
                mv: e.mv,
                score: e.score as i32,
                eval: e.eval as i32,
                depth: e.depth as i32,
                bound: match e.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
            })
    }

    /// Stores a search result.
    pub fn store(&mut self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let i = self.index(key);
        let b = &mut self.buckets[i];
        let flags = generation << 2
            | match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            };
        let depth = depth.clamp(-1, 127) as i8;
        let slot = if b[0].key == key
            || b[0].flags & 3 == 0
            || depth >= b[0].depth
            || (b[0].flags >> 2) != generation
        {
            0
        } else {
            1
        };
        let old = b[slot];
        let mv = if mv.is_null() && old.key == key {
            old.mv
        } else {
            mv
        };
        b[slot] = Entry {
            key,
            mv,
            score: score as i16,
            eval: eval as i16,
            depth,
            flags,
        };
        if slot == 0 && old.key != key && old.flags & 3 != 0 {
            b[1] = old;
        }
    }

    /// Fill in permille, sampled from the first 1000 buckets.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| {
                b.iter()
                    .filter(|e| e.flags & 3 != 0 && e.flags >> 2 == self.generation)
                    .count()
            })
            .sum();
        (used * 1000 / (2 * n)) as u32
    }
}
