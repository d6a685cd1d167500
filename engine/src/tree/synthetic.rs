//! Uniform game trees made of arithmetic, and the classic searches over them.
//!
//! Every node of a tree has the same number of children (`branching`) down to a fixed
//! `depth`; nodes are numbered breadth-first (root 0, child `i` of node `n` is
//! `n * branching + i + 1`), and all values come from a seeded hash of that number, so a tree
//! costs no memory and the same seed gives the same tree on every host. Values are negamax
//! values: seen from the side to move at that node.
//!
//! Two kinds of tree:
//! - [`UniformTree`] fixes where the best move stands at every node ([`Ordering`]): first
//!   (perfect ordering), last (the worst ordering) or at a random place. Values are assigned
//!   top down: the best child has exactly the negated value of its parent, every other child
//!   is strictly worse for the parent. Alpha-beta over the first kind visits the minimal tree
//!   of D. Knuth and R. Moore (1975), `b^ceil(d/2) + b^floor(d/2) - 1` leaves
//!   ([`minimal_leaves`]); over the second, all `b^d`.
//! - [`RandomTree`] draws each leaf value uniformly from a few distinct values, as A. Adrian's
//!   test harness `baumsuche.c` does ("Computer-Schach", 2011), to compare NegaMax, NegaScout
//!   and MTD(f).
//!
//! The searches count leaf evaluations (`Count::leaves`) and all nodes entered
//! (`Count::nodes`). NegaMax here is alpha-beta in negamax form, fail-soft.

use std::collections::HashMap;
use std::ops::ControlFlow;

/// Larger than every value of a synthetic tree.
pub const INF: i32 = 1 << 30;

/// A game tree the searches of this module can walk.
pub trait GameTree {
    /// A node (small and copied).
    type Node: Copy;
    /// The root.
    fn root(&self) -> Self::Node;
    /// Number of children; 0 for a leaf.
    fn width(&self, n: Self::Node) -> u32;
    /// Child `i` (`i < width`).
    fn child(&self, n: Self::Node, i: u32) -> Self::Node;
    /// Value of a leaf from the side to move's point of view.
    fn leaf_value(&self, n: Self::Node) -> i32;
    /// A number unique to the node in this tree (the table key).
    fn id(&self, n: Self::Node) -> u64;
}

/// SplitMix64 of `seed` and `x`: the hash behind every synthetic value.
pub fn hash(seed: u64, x: u64) -> u64 {
    let mut z = seed
        .wrapping_add(x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where the best move stands among the children of every node of a [`UniformTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// First: perfect ordering.
    Best,
    /// Last, with the children in increasing order of value: the worst ordering.
    Worst,
    /// At a place drawn from the seed, the other children in random order.
    Random,
}

/// A uniform tree with a controlled move ordering. With [`Ordering::Worst`] the values grow
/// as `(branching + 1)^(depth - 1) * branching`, which must stay below 2^31 (branching 40:
/// depth 5 at most).
#[derive(Clone, Copy, Debug)]
pub struct UniformTree {
    /// Children per node.
    pub branching: u32,
    /// Plies from the root to the leaves.
    pub depth: u32,
    /// Where the best child stands.
    pub ordering: Ordering,
    /// Seed of the values.
    pub seed: u64,
}

/// A node of a [`UniformTree`]: its number, the plies left and its negamax value.
#[derive(Clone, Copy, Debug)]
pub struct UniformNode {
    id: u64,
    left: u32,
    value: i32,
}

impl GameTree for UniformTree {
    type Node = UniformNode;
    fn root(&self) -> UniformNode {
        UniformNode {
            id: 0,
            left: self.depth,
            value: 0,
        }
    }
    fn width(&self, n: UniformNode) -> u32 {
        if n.left == 0 { 0 } else { self.branching }
    }
    fn child(&self, n: UniformNode, i: u32) -> UniformNode {
        let b = self.branching;
        let id = n.id * u64::from(b) + u64::from(i) + 1;
        let best = match self.ordering {
            Ordering::Best => 0,
            Ordering::Worst => b - 1,
            Ordering::Random => (hash(self.seed, n.id) % u64::from(b)) as u32,
        };
        // The best child's value is -n.value (so the parent's negamax value is n.value); any
        // other child is worse for the parent by at least 1.
        let worse = match self.ordering {
            // Gaps that shrink with depth, so that no deeper value reaches a bound set
            // above it: then no move ever reaches beta before the last.
            Ordering::Worst => (b - 1 - i) as i32 * (b as i32 + 1).pow(n.left - 1),
            _ => 1 + (hash(self.seed ^ 0x5EED, id) % 8) as i32,
        };
        let value = if i == best {
            -n.value
        } else {
            -n.value + worse
        };
        UniformNode {
            id,
            left: n.left - 1,
            value,
        }
    }
    fn leaf_value(&self, n: UniformNode) -> i32 {
        n.value
    }
    fn id(&self, n: UniformNode) -> u64 {
        n.id
    }
}

/// A uniform tree whose leaves hold random values: `distinct` values, uniformly drawn,
/// centred on 0 (`-distinct/2 .. distinct - distinct/2`).
#[derive(Clone, Copy, Debug)]
pub struct RandomTree {
    /// Children per node.
    pub branching: u32,
    /// Plies from the root to the leaves.
    pub depth: u32,
    /// Number of distinct leaf values.
    pub distinct: u32,
    /// Seed of the values.
    pub seed: u64,
}

impl RandomTree {
    /// Lowest and highest leaf value.
    pub fn range(&self) -> (i32, i32) {
        let d = self.distinct.max(1) as i32;
        (-(d / 2), d - 1 - d / 2)
    }
}

impl GameTree for RandomTree {
    type Node = (u64, u32);
    fn root(&self) -> (u64, u32) {
        (0, self.depth)
    }
    fn width(&self, n: (u64, u32)) -> u32 {
        if n.1 == 0 { 0 } else { self.branching }
    }
    fn child(&self, n: (u64, u32), i: u32) -> (u64, u32) {
        (n.0 * u64::from(self.branching) + u64::from(i) + 1, n.1 - 1)
    }
    fn leaf_value(&self, n: (u64, u32)) -> i32 {
        let d = u64::from(self.distinct.max(1));
        (hash(self.seed, n.0) % d) as i32 - (d / 2) as i32
    }
    fn id(&self, n: (u64, u32)) -> u64 {
        n.0
    }
}

/// What a search visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Leaf evaluations.
    pub leaves: u64,
    /// Nodes entered (leaves included).
    pub nodes: u64,
}

/// Bounds on a node's value kept between searches (a transposition table without
/// replacement; a tree has no transpositions, so it helps only searches that visit the same
/// node twice: NegaScout's re-searches and MTD(f)'s passes).
#[derive(Default, Debug)]
pub struct Table {
    bounds: HashMap<u64, (i32, i32)>,
}

impl Table {
    /// Entries stored.
    pub fn len(&self) -> usize {
        self.bounds.len()
    }
    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }
}

/// Leaf count of the minimal tree: `b^ceil(d/2) + b^floor(d/2) - 1`.
pub fn minimal_leaves(branching: u64, depth: u32) -> u64 {
    branching.pow(depth.div_ceil(2)) + branching.pow(depth / 2) - 1
}

/// Plain minimax (negamax form, no pruning): the value and what it visited.
pub fn minimax<T: GameTree>(tree: &T) -> (i32, Count) {
    fn go<T: GameTree>(t: &T, n: T::Node, c: &mut Count) -> i32 {
        c.nodes += 1;
        let w = t.width(n);
        if w == 0 {
            c.leaves += 1;
            return t.leaf_value(n);
        }
        let mut best = -INF;
        for i in 0..w {
            best = best.max(-go(t, t.child(n, i), c));
        }
        best
    }
    let mut c = Count::default();
    let v = go(tree, tree.root(), &mut c);
    (v, c)
}

/// Leaves minimax evaluates (all of them, counted by walking the tree).
pub fn minimax_leaves<T: GameTree>(tree: &T) -> u64 {
    minimax(tree).1.leaves
}

/// Alpha-beta in negamax form (fail-soft), with an optional table of bounds (A. Plaat's
/// AlphaBetaWithMemory). Returns the value within the window's meaning: a result `<= alpha`
/// is an upper bound, `>= beta` a lower bound.
pub fn alpha_beta<T: GameTree>(
    t: &T,
    n: T::Node,
    alpha: i32,
    beta: i32,
    c: &mut Count,
    mut table: Option<&mut Table>,
) -> i32 {
    let (w, alpha, beta) = match enter(t, n, alpha, beta, c, table.as_deref()) {
        ControlFlow::Break(value) => return value,
        ControlFlow::Continue(node) => node,
    };
    let mut g = -INF;
    let mut a = alpha;
    for i in 0..w {
        let s = -alpha_beta(t, t.child(n, i), -beta, -a, c, table.as_deref_mut());
        g = g.max(s);
        a = a.max(g);
        if g >= beta {
            break;
        }
    }
    if let Some(tb) = table {
        store(tb, t.id(n), g, alpha, beta);
    }
    g
}

/// The start of a node of [`alpha_beta`] and [`negascout`]: count it, value a leaf, and
/// consult the table of bounds, which may decide the node or narrow the window. Continues
/// with the node's width and window.
fn enter<T: GameTree>(
    t: &T,
    n: T::Node,
    mut alpha: i32,
    mut beta: i32,
    c: &mut Count,
    table: Option<&Table>,
) -> ControlFlow<i32, (u32, i32, i32)> {
    c.nodes += 1;
    let w = t.width(n);
    if w == 0 {
        c.leaves += 1;
        return ControlFlow::Break(t.leaf_value(n));
    }
    if let Some(&(lo, hi)) = table.and_then(|tb| tb.bounds.get(&t.id(n))) {
        if lo >= beta {
            return ControlFlow::Break(lo);
        }
        if hi <= alpha {
            return ControlFlow::Break(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
    }
    ControlFlow::Continue((w, alpha, beta))
}

fn store(tb: &mut Table, id: u64, g: i32, alpha: i32, beta: i32) {
    let e = tb.bounds.entry(id).or_insert((-INF, INF));
    if g <= alpha {
        e.1 = e.1.min(g);
    } else if g >= beta {
        e.0 = e.0.max(g);
    } else {
        *e = (g, g);
    }
}

/// Leaves alpha-beta evaluates with the full window (no table).
pub fn alpha_beta_leaves<T: GameTree>(tree: &T) -> u64 {
    let mut c = Count::default();
    alpha_beta(tree, tree.root(), -INF, INF, &mut c, None);
    c.leaves
}

/// NegaScout as A. Reinefeld published it (1989): the first child with the full window, every
/// other with a minimal window, re-searched with `(t, beta)` when it fails high inside the
/// window, except just above the leaves, where the minimal-window result is exact. Fail-soft;
/// optional table of bounds.
pub fn negascout<T: GameTree>(
    t: &T,
    n: T::Node,
    alpha: i32,
    beta: i32,
    c: &mut Count,
    mut table: Option<&mut Table>,
) -> i32 {
    let (w, alpha, beta) = match enter(t, n, alpha, beta, c, table.as_deref()) {
        ControlFlow::Break(value) => return value,
        ControlFlow::Continue(node) => node,
    };
    let (alpha0, beta0) = (alpha, beta);
    let mut m = -INF;
    let mut a = alpha;
    let mut b = beta;
    for i in 0..w {
        let ch = t.child(n, i);
        let mut s = -negascout(t, ch, -b, -a, c, table.as_deref_mut());
        if s > a && s < beta && i > 0 && t.width(ch) > 0 && t.width(t.child(ch, 0)) > 0 {
            s = -negascout(t, ch, -beta, -s, c, table.as_deref_mut());
        }
        m = m.max(s);
        a = a.max(m);
        if a >= beta {
            break;
        }
        b = a + 1;
    }
    if let Some(tb) = table {
        store(tb, t.id(n), m, alpha0, beta0);
    }
    m
}

/// Principal variation search in the form of the Wikipedia article "Principal variation
/// search": minimal window for every child after the first, re-searched with
/// `(score, beta)` when `alpha < score < beta`, at every depth. Fail-hard.
pub fn pvs<T: GameTree>(t: &T, n: T::Node, mut alpha: i32, beta: i32, c: &mut Count) -> i32 {
    c.nodes += 1;
    let w = t.width(n);
    if w == 0 {
        c.leaves += 1;
        return t.leaf_value(n);
    }
    for i in 0..w {
        let ch = t.child(n, i);
        let mut s;
        if i == 0 {
            s = -pvs(t, ch, -beta, -alpha, c);
        } else {
            s = -pvs(t, ch, -alpha - 1, -alpha, c);
            if alpha < s && s < beta {
                s = -pvs(t, ch, -beta, -s, c);
            }
        }
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    alpha
}

/// MTD(f) (A. Plaat, 1995): minimal-window alpha-beta passes around a guess `first` until the
/// bounds meet. With `table` the passes share bounds (as Plaat requires); without, every pass
/// starts from nothing. Returns the value, what all passes visited and the number of passes.
pub fn mtdf<T: GameTree>(t: &T, first: i32, table: Option<&mut Table>) -> (i32, Count, u32) {
    mtdf_within(t, first, (-INF, INF), table)
}

/// MTD(f) when the value is known to lie in `bounds` (lowest, highest value of the tree).
pub fn mtdf_within<T: GameTree>(
    t: &T,
    first: i32,
    bounds: (i32, i32),
    mut table: Option<&mut Table>,
) -> (i32, Count, u32) {
    let mut c = Count::default();
    let mut g = first;
    let (mut lower, mut upper) = bounds;
    let mut passes = 0;
    while lower < upper {
        let beta = if g == lower { g + 1 } else { g };
        g = alpha_beta(t, t.root(), beta - 1, beta, &mut c, table.as_deref_mut());
        passes += 1;
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
    }
    (g, c, passes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_ordering_visits_the_minimal_tree() {
        for b in [2u32, 20, 40] {
            for d in 1..=6u32 {
                let t = UniformTree {
                    branching: b,
                    depth: d,
                    ordering: Ordering::Best,
                    seed: 7,
                };
                assert_eq!(
                    alpha_beta_leaves(&t),
                    minimal_leaves(u64::from(b), d),
                    "b={b} d={d}"
                );
            }
        }
        assert_eq!(minimal_leaves(2, 4), 7);
        assert_eq!(minimal_leaves(40, 4), 3199);
        assert_eq!(
            [1, 2, 3, 4, 5].map(|d| minimal_leaves(40, d)),
            [40, 79, 1639, 3199, 65599]
        );
    }

    #[test]
    fn worst_ordering_visits_every_leaf_and_minimax_counts_them() {
        for (b, d) in [(2u32, 6u32), (3, 5), (20, 3), (40, 2)] {
            let t = UniformTree {
                branching: b,
                depth: d,
                ordering: Ordering::Worst,
                seed: 1,
            };
            let all = u64::from(b).pow(d);
            assert_eq!(alpha_beta_leaves(&t), all);
            assert_eq!(minimax_leaves(&t), all);
        }
    }

    #[test]
    fn every_search_agrees_on_the_value() {
        for distinct in [3, 30, 300] {
            for seed in 0..5 {
                let t = RandomTree {
                    branching: 5,
                    depth: 5,
                    distinct,
                    seed,
                };
                let (v, _) = minimax(&t);
                let mut c = Count::default();
                assert_eq!(alpha_beta(&t, t.root(), -INF, INF, &mut c, None), v);
                let mut tb = Table::default();
                assert_eq!(
                    alpha_beta(&t, t.root(), -INF, INF, &mut c, Some(&mut tb)),
                    v
                );
                assert_eq!(negascout(&t, t.root(), -INF, INF, &mut c, None), v);
                let mut tb = Table::default();
                assert_eq!(negascout(&t, t.root(), -INF, INF, &mut c, Some(&mut tb)), v);
                assert_eq!(pvs(&t, t.root(), -INF, INF, &mut c), v);
                assert_eq!(mtdf(&t, 0, None).0, v);
                let mut tb = Table::default();
                assert_eq!(mtdf(&t, 0, Some(&mut tb)).0, v);
                assert_eq!(mtdf_within(&t, 0, t.range(), None).0, v);
                let (lo, hi) = t.range();
                assert_eq!(alpha_beta(&t, t.root(), lo, hi, &mut c, None), v);
                assert_eq!(negascout(&t, t.root(), lo, hi, &mut c, None), v);
                assert_eq!(pvs(&t, t.root(), lo, hi, &mut c), v);
            }
        }
    }

    #[test]
    fn uniform_tree_root_value_is_zero_for_every_ordering() {
        for ordering in [Ordering::Best, Ordering::Worst, Ordering::Random] {
            let t = UniformTree {
                branching: 4,
                depth: 5,
                ordering,
                seed: 3,
            };
            assert_eq!(minimax(&t).0, 0);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Alpha-beta (with and without a table), NegaScout and MTD(f) return the minimax
        /// value of any random tree.
        #[test]
        fn pruning_never_changes_the_value(
            branching in 1u32..6, depth in 0u32..6, distinct in 1u32..400, seed in 0u64..u64::MAX
        ) {
            let t = RandomTree { branching, depth, distinct, seed };
            let (v, all) = minimax(&t);
            let mut c = Count::default();
            proptest::prop_assert_eq!(alpha_beta(&t, t.root(), -INF, INF, &mut c, None), v);
            proptest::prop_assert!(c.leaves <= all.leaves);
            let mut c = Count::default();
            proptest::prop_assert_eq!(negascout(&t, t.root(), -INF, INF, &mut c, None), v);
            proptest::prop_assert_eq!(pvs(&t, t.root(), -INF, INF, &mut c), v);
            let mut tb = Table::default();
            proptest::prop_assert_eq!(mtdf(&t, 0, Some(&mut tb)).0, v);
            proptest::prop_assert_eq!(mtdf(&t, 0, None).0, v);
        }
    }
}
