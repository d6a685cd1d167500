//! The claims ledger: every claim of the documents Kempelen was built from (the `[[claims]]`
//! of `docs/history/figures.toml`) re-measured, Kempelen's figure beside the document's, with
//! a verdict (`kempelen claims` prints it). Tree claims run on synthetic uniform trees, chess
//! claims on a fixed set of positions; every figure comes from node, leaf or depth counts and
//! seeded choices, never from the host's clock, so two runs give the same report.
//!
//! [`measure`] with `quick` runs only the fast rows (the synthetic trees); the test suite runs
//! them (`kempelen claims --quick`) and checks that `docs/CLAIMS.md` (written by a full run
//! with `--markdown docs/CLAIMS.md`) still holds the same rows.

use crate::figures::{self, Claim};
use indicatif::ProgressBar;
use kempelen_emulator::grouped;
use kempelen_engine::full::{FullLimits, FullState};
use kempelen_engine::tournament::{
    GameSettings, MoveLimit, Opening, Seat, Wdl, elo_difference, play_game,
};
use kempelen_engine::tree::synthetic::{self, Count, GameTree, Table};
use kempelen_engine::tree::{
    Algorithm, Lesson, LessonConfig, NullStats, Ordering, RandomTree, UniformTree,
    alpha_beta_leaves, minimal_leaves, minimax_leaves,
};
use kempelen_engine::{Engine, NativeEngine, Position, Profile, SearchControl};
use serde::Serialize;
use std::fmt::Write as _;
use std::sync::Mutex;

/// A measurement that could not be made (the 8-bit builds' RAM per ply).
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// A port's engine did not assemble or run.
    #[error(transparent)]
    Engine(#[from] kempelen_roms::PortEngineError),
    /// The RAM suite did not parse.
    #[error(transparent)]
    Suite(#[from] kempelen_roms::suite::SuiteError),
    /// A search of the RAM suite failed.
    #[error(transparent)]
    Bench(#[from] kempelen_roms::bench::BenchError),
}

/// The fixed position set of the chess measurements: the first eight positions of the bench
/// suite (`engine/data/bench.epd`).
pub const POSITIONS: &str = include_str!("../../engine/data/bench.epd");
/// How many of them.
pub const POSITION_COUNT: usize = 8;

/// A verdict on a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Kempelen's figure agrees.
    Confirmed,
    /// Kempelen's figure contradicts it.
    Refuted,
    /// The figures differ for a reason the row gives.
    Differs,
}

impl Verdict {
    /// `Confirmed` when `agrees`, else `otherwise` (`Refuted` or `Differs`).
    fn confirmed_if(agrees: bool, otherwise: Verdict) -> Verdict {
        if agrees {
            Verdict::Confirmed
        } else {
            otherwise
        }
    }

    fn word(self) -> &'static str {
        match self {
            Verdict::Confirmed => "confirmed",
            Verdict::Refuted => "refuted",
            Verdict::Differs => "differs",
        }
    }
}

/// One figure set beside the document's.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// What is compared.
    pub figure: String,
    /// The document's figure.
    pub document: String,
    /// Kempelen's figure.
    pub kempelen: String,
    /// Verdict.
    pub verdict: Verdict,
    /// Why.
    pub why: String,
    /// Whether `--quick` measures it.
    pub quick: bool,
    /// The row as a line of the Markdown table.
    pub markdown: String,
}

/// One claim and its rows.
#[derive(Clone, Debug, Serialize)]
pub struct Section {
    /// Claim id.
    pub id: String,
    /// The claim in words.
    pub claim: String,
    /// Sources by publication.
    pub source: String,
    /// How Kempelen measures it.
    pub how: String,
    /// The command that measures it.
    pub command: String,
    /// The figures.
    pub rows: Vec<Row>,
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn row(
    figure: &str,
    document: &str,
    kempelen: &str,
    verdict: Verdict,
    why: &str,
    quick: bool,
) -> Row {
    let markdown = format!(
        "| {} | {} | {} | **{}** | {} |",
        md_cell(figure),
        md_cell(document),
        md_cell(kempelen),
        verdict.word(),
        md_cell(why)
    );
    Row {
        figure: figure.into(),
        document: document.into(),
        kempelen: kempelen.into(),
        verdict,
        why: why.into(),
        quick,
        markdown,
    }
}

fn section(c: &Claim, how: &str, command: &str, rows: Vec<Row>) -> Section {
    Section {
        id: c.id.clone(),
        claim: c.claim.clone(),
        source: figures::cite(&c.sources),
        how: how.into(),
        command: command.into(),
        rows,
    }
}

fn list(v: &[u64]) -> String {
    v.iter()
        .map(|&n| grouped(n))
        .collect::<Vec<_>>()
        .join(" / ")
}

fn within(x: f64, low: f64, high: f64, tolerance: f64) -> bool {
    x >= low * (1.0 - tolerance) && x <= high * (1.0 + tolerance)
}

/// The verdict on `x` against the document's range `(low, high, tolerance)` ([`within`]) and
/// its reason: `why[0]` within the range, `why[1]` below it, `why[2]` above it.
fn against_range(
    x: f64,
    (low, high, tolerance): (f64, f64, f64),
    why: [&str; 3],
) -> (Verdict, &str) {
    if within(x, low, high, tolerance) {
        (Verdict::Confirmed, why[0])
    } else if x < low {
        (Verdict::Differs, why[1])
    } else {
        (Verdict::Differs, why[2])
    }
}

// --- 1. The minimal tree --------------------------------------------------------------------

/// A uniform tree of `branching` moves per node, `depth` plies deep.
fn uniform(branching: u32, depth: u32, ordering: Ordering, seed: u64) -> UniformTree {
    UniformTree {
        branching,
        depth,
        ordering,
        seed,
    }
}

fn minimal_tree(quick: bool) -> Section {
    let c = figures::claim("minimal-tree");
    let mut rows = tartan_rows(c);
    rows.push(salomon_best_row(c));
    rows.extend(salomon_worst_rows(c, quick));
    rows.push(random_order_row());
    section(
        c,
        "Uniform synthetic trees (every node has b children; values assigned top down so that the best move stands first, last or at a seeded random place); alpha-beta (negamax, fail-soft) and minimax count the leaves they evaluate.",
        "kempelen claims --only minimal-tree",
        rows,
    )
}

/// The Tartan figures: leaves of alpha-beta with the best move first and of minimax, 2 and
/// 40 moves per node at depth 4.
fn tartan_rows(c: &Claim) -> Vec<Row> {
    let mut rows = Vec::new();
    for (b, key) in [(2u32, "tartan_two_moves"), (40, "tartan_forty_moves")] {
        let doc = c.numbers(key);
        let ab = alpha_beta_leaves(&uniform(b, 4, Ordering::Best, 1));
        let mm = minimax_leaves(&uniform(b, 4, Ordering::Best, 1));
        let ok = ab as f64 == doc[0] && mm as f64 == doc[1];
        rows.push(row(
            &format!("{b} moves per node, depth 4: leaves of alpha-beta with the best move first / of minimax"),
            &format!("{} / {}", grouped(doc[0] as u64), grouped(doc[1] as u64)),
            &format!("{} / {}", grouped(ab), grouped(mm)),
            Verdict::confirmed_if(ok, Verdict::Refuted),
            &format!(
                "formula b^ceil(d/2) + b^floor(d/2) - 1 = {}; minimax b^d = {}",
                grouped(minimal_leaves(u64::from(b), 4)),
                grouped(u64::from(b).pow(4))
            ),
            true,
        ));
    }
    rows
}

/// Salomon's best case, 40 moves, depth 1-5: the search against the thesis and the formula.
fn salomon_best_row(c: &Claim) -> Row {
    let doc = c.counts("salomon_best");
    let ours: Vec<u64> = (1..=5)
        .map(|d| alpha_beta_leaves(&uniform(40, d, Ordering::Best, 1)))
        .collect();
    let formula: Vec<u64> = (1..=5).map(|d| minimal_leaves(40, d)).collect();
    let off: Vec<usize> = (0..5).filter(|&i| doc[i] != ours[i]).collect();
    let (verdict, why) = if off.is_empty() {
        (
            Verdict::Confirmed,
            "every depth equals the formula".to_string(),
        )
    } else if off.iter().all(|&i| ours[i] == formula[i]) {
        let at =
            |v: &dyn Fn(usize) -> String| off.iter().map(|&i| v(i)).collect::<Vec<_>>().join(", ");
        (
            Verdict::Differs,
            format!(
                "depth {}: the thesis prints {}, the formula and the search give {}: a misprint in the thesis (the other depths agree)",
                at(&|i| (i + 1).to_string()),
                at(&|i| grouped(doc[i])),
                at(&|i| grouped(ours[i]))
            ),
        )
    } else {
        (
            Verdict::Refuted,
            "the search disagrees with the formula".to_string(),
        )
    };
    row(
        "best case, 40 moves, depth 1-5 (leaves)",
        &list(&doc),
        &list(&ours),
        verdict,
        &why,
        true,
    )
}

/// Salomon's worst case (best move last), 40 moves: depth 1-4, and depth 5 unless `quick`.
fn salomon_worst_rows(c: &Claim, quick: bool) -> Vec<Row> {
    let worst_doc = c.counts("salomon_worst");
    let worst: Vec<u64> = (1..=4)
        .map(|d| alpha_beta_leaves(&uniform(40, d, Ordering::Worst, 1)))
        .collect();
    let mut rows = vec![row(
        "worst case (best move last), 40 moves, depth 1-4 (leaves)",
        &list(&worst_doc[..4]),
        &list(&worst),
        Verdict::confirmed_if(worst == worst_doc[..4], Verdict::Refuted),
        "alpha-beta with the moves in increasing order of value prunes nothing: b^d",
        true,
    )];
    if !quick {
        let w5 = alpha_beta_leaves(&uniform(40, 5, Ordering::Worst, 1));
        rows.push(row(
            "worst case, 40 moves, depth 5 (leaves)",
            &grouped(worst_doc[4]),
            &grouped(w5),
            Verdict::confirmed_if(w5 == worst_doc[4], Verdict::Refuted),
            "102.4 million leaves walked one by one",
            false,
        ));
    }
    rows
}

/// "der Gewinn liegt wohl meist irgendwo in der Mitte": the best move at a random place.
fn random_order_row() -> Row {
    let seeds = 1..=10u64;
    let n = seeds.clone().count() as u64;
    let random: u64 = seeds
        .map(|s| alpha_beta_leaves(&uniform(40, 4, Ordering::Random, s)))
        .sum::<u64>()
        / n;
    let (best, worst4) = (minimal_leaves(40, 4), 40u64.pow(4));
    let between = random > best && random < worst4;
    row(
        "best move at a random place, 40 moves, depth 4 (leaves, mean of 10 seeded trees)",
        "in practice the gain lies somewhere between best and worst case",
        &format!(
            "{} ({:.1} x the best case, 1/{:.0} of the worst)",
            grouped(random),
            random as f64 / best as f64,
            worst4 as f64 / random as f64
        ),
        Verdict::confirmed_if(between, Verdict::Refuted),
        "random ordering keeps most of the saving: the count grows like b^(3d/4) (Knuth and Moore), far below b^d",
        true,
    )
}

// --- 4. NegaMax, NegaScout, MTD(f) ------------------------------------------------------------

/// A search of a random tree between two bounds, with a transposition table or without
/// ([`synthetic::alpha_beta`], [`synthetic::negascout`]).
type WindowSearch = fn(
    &RandomTree,
    <RandomTree as GameTree>::Node,
    i32,
    i32,
    &mut Count,
    Option<&mut Table>,
) -> i32;

/// The leaves `search` visits on `t` over the tree's whole value range, with a fresh table
/// when `with_table`.
fn full_window_leaves(t: &RandomTree, search: WindowSearch, with_table: bool) -> u64 {
    let mut c = Count::default();
    let mut tb = Table::default();
    let (lo, hi) = t.range();
    search(t, t.root(), lo, hi, &mut c, with_table.then_some(&mut tb));
    c.leaves
}

/// Leaf counts and their ratios to NegaMax's: "1 / 2 / 3 (x NegaMax: 1.00 / 0.95 / 0.90)".
fn against_negamax(leaves: &[u64], ratios: &[f64]) -> String {
    let ratios: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
    format!("{} (x NegaMax: {})", list(leaves), ratios.join(" / "))
}

/// A search of the claim: its name, the document's key for its figures (none: Adrian
/// measured it without a table only), and the leaves it visits on a tree.
type Algo = (&'static str, Option<&'static str>, fn(&RandomTree) -> u64);

/// The searches Adrian compared, each with and without a transposition table.
const WINDOW_ALGORITHMS: [Algo; 7] = [
    ("NegaMax (alpha-beta)", Some("negamax"), |t| {
        full_window_leaves(t, synthetic::alpha_beta, false)
    }),
    ("NegaMax with table", None, |t| {
        full_window_leaves(t, synthetic::alpha_beta, true)
    }),
    ("NegaScout (Reinefeld)", Some("negascout_reinefeld"), |t| {
        full_window_leaves(t, synthetic::negascout, false)
    }),
    ("NegaScout (Reinefeld) with table", None, |t| {
        full_window_leaves(t, synthetic::negascout, true)
    }),
    (
        "NegaScout (Wikipedia's PVS)",
        Some("negascout_wikipedia"),
        |t| {
            let mut c = Count::default();
            let (lo, hi) = t.range();
            synthetic::pvs(t, t.root(), lo, hi, &mut c);
            c.leaves
        },
    ),
    ("MTD(f) without table", Some("mtdf_without_hash"), |t| {
        synthetic::mtdf_within(t, 0, t.range(), None).1.leaves
    }),
    ("MTD(f) with table", None, |t| {
        let mut tb = Table::default();
        synthetic::mtdf_within(t, 0, t.range(), Some(&mut tb))
            .1
            .leaves
    }),
];

fn negascout_mtdf() -> Section {
    let c = figures::claim("negascout-mtdf");
    let distinct: Vec<u32> = c.numbers("distinct").iter().map(|&x| x as u32).collect();
    let counts: Vec<Vec<u64>> = WINDOW_ALGORITHMS
        .iter()
        .map(|(_, _, f)| mean_leaves(*f, &distinct))
        .collect();
    let negamax = counts[0].clone();
    let mut rows = Vec::new();
    for ((name, key, _), ours) in WINDOW_ALGORITHMS.iter().zip(&counts) {
        let ours_ratio: Vec<f64> = ours
            .iter()
            .zip(&negamax)
            .map(|(&a, &b)| a as f64 / b as f64)
            .collect();
        let (document, verdict, why) = match key.map(|k| (k, c.counts(k))) {
            Some(("negamax", d)) => negamax_verdict(&d, ours),
            Some((_, d)) => direction_verdict(c, &d, &ours_ratio, &distinct),
            None => table_verdict(name, ours, &counts),
        };
        rows.push(row(
            &format!("{name}: leaves at 3 / 30 / 300 distinct values"),
            &document,
            &against_negamax(ours, &ours_ratio),
            verdict,
            &why,
            true,
        ));
    }
    section(
        c,
        "Random trees as in Adrian's baumsuche.c: depth 6, 20 moves per node, every leaf a seeded random value out of 3, 30 or 300 distinct values (centred on 0); leaves evaluated by each search, mean of 5 seeded trees. The root window is the range of the values (lowest, highest), so a move that reaches the highest value cuts off at once: with an infinite window no search could visit fewer leaves than the minimal tree (15,999 here), and Adrian's 9,222 is fewer. MTD(f) starts from the guess 0; the table keeps lower and upper bounds per inner node without limit (Plaat's AlphaBetaWithMemory).",
        "kempelen claims --only negascout-mtdf",
        rows,
    )
}

/// The leaves `search` visits at each count of distinct values: the mean over 5 seeded
/// random trees of depth 6 and 20 moves per node.
fn mean_leaves(search: fn(&RandomTree) -> u64, distinct: &[u32]) -> Vec<u64> {
    let seeds: Vec<u64> = (1..=5).collect();
    distinct
        .iter()
        .map(|&k| {
            let total: u64 = seeds
                .iter()
                .map(|&seed| {
                    search(&RandomTree {
                        branching: 20,
                        depth: 6,
                        distinct: k,
                        seed,
                    })
                })
                .sum();
            (total as f64 / seeds.len() as f64).round() as u64
        })
        .collect()
}

/// NegaMax against Adrian's counts: the point is that the counts grow with the number of
/// distinct values. The document's figures, the verdict and why.
fn negamax_verdict(d: &[u64], ours: &[u64]) -> (String, Verdict, String) {
    let grows = ours.windows(2).all(|w| w[0] < w[1]);
    let factors: Vec<String> = ours
        .iter()
        .zip(d)
        .map(|(&a, &b)| format!("{:.1}", a as f64 / b as f64))
        .collect();
    (
        list(d),
        if grows {
            Verdict::Differs
        } else {
            Verdict::Refuted
        },
        if grows {
            format!(
                "the counts are {} times Adrian's: his baumsuche.c and its random array are not published, and on independent random leaves alpha-beta visits more; his point holds: the coarser the evaluation, the fewer leaves",
                factors.join(" / ")
            )
        } else {
            "coarser evaluations do not prune more here".to_string()
        },
    )
}

/// A search Adrian measured against NegaMax: confirmed when it lies on the same side of
/// NegaMax as his at every count of distinct values (ratios within 3 % count as equal).
fn direction_verdict(
    c: &Claim,
    d: &[u64],
    ours_ratio: &[f64],
    distinct: &[u32],
) -> (String, Verdict, String) {
    let doc_ratio: Vec<f64> = d
        .iter()
        .zip(c.numbers("negamax"))
        .map(|(&a, b)| a as f64 / b)
        .collect();
    let side = |r: f64| {
        if r < 0.97 {
            -1
        } else if r > 1.03 {
            1
        } else {
            0
        }
    };
    let same: Vec<bool> = doc_ratio
        .iter()
        .zip(ours_ratio)
        .map(|(&dr, &or)| side(dr) == side(or))
        .collect();
    let all = same.iter().all(|&b| b);
    (
        against_negamax(d, &doc_ratio),
        Verdict::confirmed_if(all, Verdict::Differs),
        if all {
            "same direction against NegaMax at 3, 30 and 300 values (ratios within 3 % count as equal)".to_string()
        } else {
            format!(
                "direction against NegaMax differs at {} distinct values",
                distinct
                    .iter()
                    .zip(&same)
                    .filter(|(_, s)| !**s)
                    .map(|(k, _)| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
    )
}

/// A search with a table, which Adrian did not measure: what the table should save (MTD(f)
/// every earlier pass, NegaScout part of its re-searches, NegaMax nothing) against the same
/// search without it.
fn table_verdict(name: &str, ours: &[u64], counts: &[Vec<u64>]) -> (String, Verdict, String) {
    let verdict = if name.starts_with("MTD") {
        let helps = ours.iter().zip(&counts[5]).all(|(a, b)| a <= b)
            && ours.iter().zip(&counts[5]).any(|(a, b)| a < b);
        Verdict::confirmed_if(helps, Verdict::Refuted)
    } else if name.starts_with("NegaScout") {
        let helps = ours.iter().zip(&counts[2]).all(|(a, b)| a <= b);
        Verdict::confirmed_if(helps, Verdict::Refuted)
    } else {
        let same = ours == counts[0].as_slice();
        Verdict::confirmed_if(same, Verdict::Differs)
    };
    let why = if name.starts_with("MTD") {
        "the table saves MTD(f) the leaves of every earlier pass"
    } else if name.starts_with("NegaScout") {
        "the table saves part of the re-searches"
    } else {
        "one pass over a tree without transpositions never meets a node twice, so a table cannot help NegaMax"
    };
    (
        "- (Adrian measured no table; a table is \"recommended for NegaScout, required for MTD(f)\")".to_string(),
        verdict,
        why.to_string(),
    )
}

// --- Chess measurements -----------------------------------------------------------------------

/// The fixed positions of the chess measurements.
pub fn positions() -> Vec<(String, Position)> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(POSITION_COUNT)
        .map(|l| {
            let fen = l.split(';').next().unwrap_or("").trim();
            let id = l
                .split("id \"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or(fen)
                .to_string();
            (
                id,
                Position::from_fen(fen).expect("the bench suite's positions are valid"),
            )
        })
        .collect()
}

/// Total nodes to complete each depth `1..=depth` over the positions (cumulative within a
/// position's search, summed over positions), and null-move figures.
struct Growth {
    nodes: Vec<u64>,
    null: NullStats,
}

fn lesson_growth(cfg: &LessonConfig, depth: u32, bar: &ProgressBar) -> Growth {
    let mut nodes = vec![0u64; depth as usize];
    let mut null = NullStats::default();
    for (_, pos) in positions() {
        if cfg.iterative {
            let r = Lesson::new(&pos, &[], cfg.clone()).run(depth);
            for (d, n) in r.nodes_by_depth.iter().enumerate() {
                nodes[d] += n;
            }
            null.add(&r.null);
        } else {
            for d in 1..=depth {
                nodes[d as usize - 1] += Lesson::new(&pos, &[], cfg.clone()).run(d).nodes;
            }
        }
        bar.inc(1);
    }
    Growth { nodes, null }
}

fn full_growth(depth: u32, bar: &ProgressBar) -> Vec<u64> {
    let mut nodes = vec![0u64; depth as usize];
    for (_, pos) in positions() {
        let mut state = FullState::new(16);
        let per = Mutex::new(Vec::new());
        let control = SearchControl::with_info(|i| {
            per.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((i.depth.unwrap_or(0), i.nodes.unwrap_or(0)))
        });
        state.search(
            &pos,
            &[pos.key64()],
            FullLimits {
                depth: Some(depth),
                ..FullLimits::default()
            },
            &control,
        );
        drop(control);
        // The last report of each depth (the full profile also reports when the best move
        // changes).
        let mut last = vec![0u64; depth as usize];
        for (d, n) in per.into_inner().unwrap_or_else(|e| e.into_inner()) {
            if (1..=depth).contains(&d) {
                last[d as usize - 1] = n;
            }
        }
        for (t, l) in nodes.iter_mut().zip(last) {
            *t += l;
        }
        bar.inc(1);
    }
    nodes
}

/// Growth per ply at the deepest depth, averaged over two plies (odd and even plies of
/// alpha-beta grow differently): `sqrt(N(D) / N(D-2))`.
fn ebf(nodes: &[u64]) -> f64 {
    let n = nodes.len();
    (nodes[n - 1] as f64 / nodes[n - 3] as f64).sqrt()
}

fn ebf_text(name: &str, nodes: &[u64]) -> String {
    format!(
        "{:.1} ({name}; nodes to depth {}: {})",
        ebf(nodes),
        nodes.len(),
        grouped(nodes[nodes.len() - 1])
    )
}

struct Depths {
    minimax: u32,
    alphabeta: u32,
    ordered: u32,
    reference: u32,
    full: u32,
}

const DEPTHS: Depths = Depths {
    minimax: 4,
    alphabeta: 5,
    ordered: 8,
    reference: 8,
    full: 9,
};

/// Measures the branching-factor and null-move claims (as `which` selects); returns the
/// reference's nodes by depth with and without its null move, for the elo-per-ply claim.
fn branching_and_null(
    bar: &ProgressBar,
    sections: &mut Vec<Section>,
    which: &dyn Fn(&str) -> bool,
) -> (Vec<u64>, Vec<u64>) {
    let mut no_null = LessonConfig::of(Algorithm::Reference);
    no_null.null_move = false;
    let mut with_null = LessonConfig::of(Algorithm::Reference);
    with_null.null_stats = true;
    bar.set_message("reference without null move");
    let off = lesson_growth(&no_null, DEPTHS.ordered, bar);
    bar.set_message("reference (null move measured)");
    let on = lesson_growth(&with_null, DEPTHS.reference, bar);
    if which("branching-factor") {
        sections.push(branching_factor(bar, &on, &off));
    }
    if which("null-move") {
        sections.push(null_move(bar, &on, &off));
    }
    (on.nodes, off.nodes)
}

/// The branching factor of brute force, of plain and of ordered alpha-beta, and of the
/// selective searches (`on`, `off`: the reference with and without its null move).
fn branching_factor(bar: &ProgressBar, on: &Growth, off: &Growth) -> Section {
    let n = POSITION_COUNT as u64;
    let c = figures::claim("branching-factor");
    bar.set_message("minimax");
    let mm = lesson_growth(&LessonConfig::of(Algorithm::Minimax), DEPTHS.minimax, bar);
    bar.set_message("alpha-beta");
    let ab = lesson_growth(
        &LessonConfig::of(Algorithm::AlphaBeta),
        DEPTHS.alphabeta,
        bar,
    );
    bar.set_message("full profile");
    let full = full_growth(DEPTHS.full, bar);
    let brute = c.number("brute_force");
    let optimal = c.number("optimal");
    let mm_ebf = ebf(&mm.nodes);
    let mut rows = vec![row(
        "brute force (minimax): growth per ply",
        &format!("{brute:.0}"),
        &ebf_text("minimax", &mm.nodes),
        Verdict::confirmed_if(within(mm_ebf, brute, brute, 0.15), Verdict::Differs),
        "minimax grows by the number of legal moves; these positions have about that many",
        false,
    )];
    let ab_ebf = ebf(&ab.nodes);
    rows.push(row(
        "optimal alpha-beta: sqrt(b) per ply; plain alpha-beta (generation order) cannot do better",
        &format!("sqrt(40) = {optimal:.1}"),
        &format!(
            "{} against sqrt(minimax growth) = {:.1}",
            ebf_text("alpha-beta in generation order", &ab.nodes),
            mm_ebf.sqrt()
        ),
        Verdict::confirmed_if(ab_ebf >= mm_ebf.sqrt() * 0.97, Verdict::Refuted),
        "without ordering the refutation often comes late, so alpha-beta stays well above the optimum",
        false,
    ));
    rows.push(practice_row(c, &off.nodes));
    let (sel_lo, sel_hi) = (c.number("selective_low"), c.number("selective_high"));
    for (name, nodes) in [
        ("reference (null move R = 2)", &on.nodes),
        (
            "full profile (null move, late-move reductions, table)",
            &full,
        ),
    ] {
        let (verdict, why) = against_range(
            ebf(nodes),
            (sel_lo, sel_hi, 0.1),
            [
                "within the range (10 % margin)",
                "more selective than the programs of 1993",
                "less selective than the programs of 1993 at this depth",
            ],
        );
        rows.push(row(
            &format!("4-5 for selective programs: {name}"),
            &format!("{sel_lo:.0}-{sel_hi:.0}"),
            &ebf_text(name, nodes),
            verdict,
            why,
            false,
        ));
    }
    section(
        c,
        &format!(
            "Nodes (every node entered, quiescence included) summed over the first {n} positions of engine/data/bench.epd; growth per ply = sqrt(N(D) / N(D-2)) at the deepest depth D (averaging an odd and an even ply). Minimax and plain alpha-beta search each depth from scratch with the static evaluation at the leaves; the reference searches count every iteration. Depths: minimax {}, alpha-beta {}, reference {}, full profile {}.",
            DEPTHS.minimax, DEPTHS.alphabeta, DEPTHS.reference, DEPTHS.full
        ),
        "kempelen claims --only branching-factor",
        rows,
    )
}

/// Donninger's "about 7 in practice" against the reference without its null move.
fn practice_row(c: &Claim, off: &[u64]) -> Row {
    let n = POSITION_COUNT as u64;
    let practice = c.number("practice");
    let ord = ebf(off);
    row(
        "about 7 in practice (good ordering, no selectivity)",
        &format!("{practice:.0}"),
        &ebf_text(
            "reference without null move: ID, PV move, MVV-LVA, killers, quiescence",
            off,
        ),
        Verdict::confirmed_if(within(ord, practice, practice, 0.2), Verdict::Differs),
        &if within(ord, practice, practice, 0.2) {
            "within 20 % of Donninger's figure".to_string()
        } else {
            format!(
                "{} than Donninger's 7: counted are all nodes (quiescence included) of an iterative-deepening search, on these {n} positions",
                if ord < practice { "lower" } else { "higher" }
            )
        },
        false,
    )
}

/// The null move's claims: plies gained at equal nodes, its speed-up where it refutes, its
/// cost where it fails, and its Elo in self-play.
fn null_move(bar: &ProgressBar, on: &Growth, off: &Growth) -> Section {
    let n = POSITION_COUNT as u64;
    let c = figures::claim("null-move");
    let d = DEPTHS.reference as usize;
    let mut rows = vec![plies_gained_row(c, &on.nodes, &off.nodes)];
    rows.extend(null_speedup_rows(c, &on.null));
    rows.push(null_overhead_row(c, &on.null));
    bar.set_message("null move: self-play at equal nodes");
    let (wdl, games) = null_move_games(bar);
    rows.extend(null_elo_row(c, wdl, games));
    section(
        c,
        &format!(
            "The reference search with its null move switched on and off (every other rule unchanged), to depth {d} on the first {n} positions of engine/data/bench.epd. Plies gained: the depth the search without null move reaches with the nodes the null-move search needs for depth {d}, interpolated on a log scale. Speed-up and overhead: at every node where the null move is tried, its own nodes against those of the normal search of the node (where it refutes, that search is run as well, off the record, to count what was saved). Elo: self-play from {} two-move openings, each with both colours.",
            OPENINGS
        ),
        "kempelen claims --only null-move",
        rows,
    )
}

/// The depth the search without null move (`off`: its nodes by depth) reaches with the nodes
/// the null-move search (`on`) needs for depth `k`, log-interpolated between whole depths.
fn depth_reached(on: &[u64], off: &[u64], k: usize) -> f64 {
    let budget = on[k - 1] as f64;
    let mut r = 1.0;
    for j in 1..off.len() {
        let (a, b) = (off[j - 1] as f64, off[j] as f64);
        if budget >= a {
            r = if budget >= b {
                (j + 1) as f64
            } else {
                j as f64 + (budget.ln() - a.ln()) / (b.ln() - a.ln())
            };
        }
    }
    r
}

/// Plies the null move gains at equal nodes, at the reference's depth (and by depth).
fn plies_gained_row(c: &Claim, on: &[u64], off: &[u64]) -> Row {
    let d = DEPTHS.reference as usize;
    let reach_d = depth_reached(on, off, d);
    let gain = d as f64 - reach_d;
    let trend: Vec<String> = (3..=d)
        .map(|k| format!("{k}: {:.2}", k as f64 - depth_reached(on, off, k)))
        .collect();
    let (lo, hi) = (c.number("plies_low"), c.number("plies_high"));
    let (verdict, why) = against_range(
        gain,
        (lo, hi, 0.0),
        [
            "within the range",
            "less than a ply at this depth: the gain grows with depth (Donninger: the null move pays more the deeper the search)",
            "more than two plies",
        ],
    );
    row(
        "plies gained at equal nodes",
        &format!("{lo:.0}-{hi:.0}"),
        &format!(
            "{gain:.2} (depth {d} with null move: {} nodes; without it those nodes reach depth {reach_d:.2}; gain by depth {})",
            grouped(on[d - 1]),
            trend.join(", ")
        ),
        verdict,
        why,
        false,
    )
}

/// The speed-up where the null move refutes: over all such nodes, and at nodes 4 plies from
/// the horizon (Donninger's example), when there are any.
fn null_speedup_rows(c: &Claim, s: &NullStats) -> Vec<Row> {
    let d = DEPTHS.reference as usize;
    let speedup = s.speedup();
    let mut rows = vec![row(
        "speed-up where the null move refutes",
        &format!("{:.0}x", c.number("speedup")),
        &format!(
            "{speedup:.1}x ({} nodes: {} in the normal searches the null move saved, {} in the null-move searches)",
            grouped(s.refuted),
            grouped(s.refuted_full_nodes),
            grouped(s.refuted_null_nodes)
        ),
        Verdict::confirmed_if(within(speedup, 20.0, 20.0, 0.5), Verdict::Differs),
        "Donninger's 20x is one estimate (about 1000 positions against 50); counted over every node where the null move refutes, Kempelen's normal search would mostly have cut off with its first, well-ordered move almost as cheaply",
        false,
    )];
    let donninger_depth = 4;
    if let Some(sp) = s.speedup_at(donninger_depth) {
        rows.push(row(
            "speed-up where the null move refutes, at nodes 4 plies from the horizon (Donninger's example: after 1.h4 in a 5-ply search)",
            &format!("{:.0}x", c.number("speedup")),
            &format!(
                "{sp:.1}x (by remaining depth 1-{}: {})",
                d - 1,
                (1..d)
                    .filter_map(|k| s.speedup_at(k).map(|x| format!("{x:.1}")))
                    .collect::<Vec<_>>()
                    .join(" / ")
            ),
            Verdict::confirmed_if(within(sp, 20.0, 20.0, 0.5), Verdict::Differs),
            "the saving varies with the remaining depth (listed); where the normal search's first move already refutes, it costs little more than the null-move search, so Kempelen saves less than Donninger's estimate of about 1000 positions against 50",
            false,
        ));
    }
    rows
}

/// The extra cost where the null move fails.
fn null_overhead_row(c: &Claim, s: &NullStats) -> Row {
    let overhead = s.overhead();
    row(
        "extra cost where the null move fails",
        &format!("{:.0} %", c.number("overhead") * 100.0),
        &format!(
            "{:.1} % ({} nodes: {} in failed null-move searches, {} in the searches that followed)",
            overhead * 100.0,
            grouped(s.failed),
            grouped(s.failed_null_nodes),
            grouped(s.failed_search_nodes)
        ),
        Verdict::confirmed_if(within(overhead, 0.05, 0.05, 0.5), Verdict::Differs),
        &if within(overhead, 0.05, 0.05, 0.5) {
            "within half of Donninger's figure either way".to_string()
        } else {
            "the null-move search runs 2 plies shallower than the normal one; its share depends on how much of the tree lies near the horizon".to_string()
        },
        false,
    )
}

/// The null move's Elo from self-play at equal nodes, when the games allow an estimate.
fn null_elo_row(c: &Claim, wdl: Wdl, games: usize) -> Option<Row> {
    let e = elo_difference(wdl)?;
    let (lo, hi) = (c.number("elo_low"), c.number("elo_high"));
    let overlap = e.high >= lo && e.low <= hi;
    Some(row(
        "Elo of the null move (reference against reference without null move, equal nodes)",
        &format!("{lo:.0}-{hi:.0}"),
        &format!(
            "{:+.0} (95 %: {:+.0} to {:+.0}; {games} games, +{} ={} -{}, {} nodes a move)",
            e.elo,
            e.low,
            e.high,
            wdl.wins,
            wdl.draws,
            wdl.losses,
            grouped(NULL_GAME_NODES)
        ),
        Verdict::confirmed_if(overlap, Verdict::Differs),
        &if overlap {
            "the 95 % interval overlaps Donninger's range".to_string()
        } else if e.high < lo {
            "below Donninger's range at this small node budget (his figure is for 1993 tournament time controls)".to_string()
        } else {
            "above Donninger's range".to_string()
        },
        false,
    ))
}

// --- Self-play -------------------------------------------------------------------------------

/// Openings of the self-play: this many seeded two-ply starts, each played with both colours.
pub const OPENINGS: usize = 20;
/// Nodes a move of the null-move games.
pub const NULL_GAME_NODES: u64 = 20_000;
/// Plies before a game is adjudicated a draw.
pub const MAX_PLIES: usize = 200;

/// The seeded two-ply openings (distinct).
pub fn openings() -> Vec<Opening> {
    let start = Position::startpos();
    let mut out: Vec<Opening> = Vec::new();
    let mut x = 0x4b45_4d50u64;
    while out.len() < OPENINGS {
        x = synthetic::hash(7, x);
        let white = start.legal_moves();
        let w = white.as_slice()[(x % white.len() as u64) as usize];
        let mut p = start.clone();
        p.play(w);
        let black = p.legal_moves();
        let b = black.as_slice()[((x >> 32) % black.len() as u64) as usize];
        if out.iter().any(|o| o.moves == [w, b]) {
            continue;
        }
        out.push(Opening {
            name: format!("{w} {b}"),
            start: start.clone(),
            moves: vec![w, b],
        });
    }
    out
}

/// Plays every opening twice (colours swapped) between `a` and `b`; the result from `a`'s side.
fn match_games(
    a: &mut dyn FnMut() -> Box<dyn Engine>,
    b: &mut dyn FnMut() -> Box<dyn Engine>,
    a_limit: MoveLimit,
    b_limit: MoveLimit,
    bar: &ProgressBar,
) -> Wdl {
    let mut wdl = Wdl::default();
    for o in openings() {
        for a_white in [true, false] {
            let (mut ea, mut eb) = (a(), b());
            let a_seat = Seat::new("a", ea.as_mut()).with_limit(Some(a_limit.clone()));
            let b_seat = Seat::new("b", eb.as_mut()).with_limit(Some(b_limit.clone()));
            let (white, black) = if a_white {
                (a_seat, b_seat)
            } else {
                (b_seat, a_seat)
            };
            let settings = GameSettings {
                limit: a_limit.clone(),
                max_plies: MAX_PLIES,
                ..GameSettings::default()
            };
            let white_points = play_game(white, black, &o, &settings)
                .outcome
                .white_points();
            wdl.add(if a_white {
                white_points
            } else {
                1.0 - white_points
            });
            bar.inc(1);
        }
    }
    wdl
}

fn null_move_games(bar: &ProgressBar) -> (Wdl, usize) {
    let mut a = || -> Box<dyn Engine> { Box::new(NativeEngine::new(Profile::Reference)) };
    let mut b = || -> Box<dyn Engine> {
        let f = kempelen_engine::tournament::variant_features("reference-no-null")
            .expect("the tournament library has reference-no-null");
        Box::new(kempelen_engine::tournament::ReferenceVariant::new(
            "reference-no-null",
            f,
        ))
    };
    let limit = MoveLimit::Nodes(NULL_GAME_NODES);
    let wdl = match_games(&mut a, &mut b, limit.clone(), limit, bar);
    (wdl, OPENINGS * 2)
}

/// Depth pairs of the Elo-per-ply games.
pub const ELO_DEPTHS: [u32; 3] = [2, 3, 4];

fn elo_per_ply(bar: &ProgressBar, growth: Option<&[u64]>) -> Section {
    let c = figures::claim("elo-per-ply");
    let target = c.number("elo_per_ply");
    let mut rows = Vec::new();
    let mut total = Wdl::default();
    for &d in &ELO_DEPTHS {
        bar.set_message(format!("self-play: depth {} against depth {d}", d + 1));
        let mut a = || -> Box<dyn Engine> { Box::new(NativeEngine::new(Profile::Reference)) };
        let mut b = || -> Box<dyn Engine> { Box::new(NativeEngine::new(Profile::Reference)) };
        let wdl = match_games(
            &mut a,
            &mut b,
            MoveLimit::Depth(d + 1),
            MoveLimit::Depth(d),
            bar,
        );
        total.wins += wdl.wins;
        total.draws += wdl.draws;
        total.losses += wdl.losses;
        if let Some(e) = elo_difference(wdl) {
            let overlap = e.low <= target && e.high >= target;
            rows.push(row(
                &format!("reference at depth {} against depth {d}", d + 1),
                &format!("+{target:.0}"),
                &format!(
                    "{:+.0} (95 %: {:+.0} to {:+.0}; {} games, +{} ={} -{})",
                    e.elo,
                    e.low,
                    e.high,
                    wdl.games(),
                    wdl.wins,
                    wdl.draws,
                    wdl.losses
                ),
                Verdict::confirmed_if(overlap, Verdict::Differs),
                &if overlap {
                    "the 95 % interval holds 200".to_string()
                } else if e.low > target {
                    "more than 200: at these shallow depths one ply sees much more (the gain per ply shrinks as depth grows)".to_string()
                } else {
                    "less than 200 Elo per ply here".to_string()
                },
                false,
            ));
        }
    }
    if let Some(e) = elo_difference(total) {
        let overlap = e.low <= target && e.high >= target;
        rows.push(row(
            &format!("one more ply, all {} games together", total.games()),
            &format!("+{target:.0} (Belle: 1235 at 4 plies, 1570 at 5)"),
            &format!("{:+.0} (95 %: {:+.0} to {:+.0})", e.elo, e.low, e.high),
            Verdict::confirmed_if(overlap, Verdict::Differs),
            &if overlap {
                "the 95 % interval holds 200".to_string()
            } else {
                "outside 200 at these depths".to_string()
            },
            false,
        ));
    }
    if let Some(nodes) = growth {
        let work = c.number("work_per_ply");
        let e = ebf(nodes);
        rows.push(row(
            "each ply multiplies the work by about 6 (Belle searched full width)",
            &format!("{work:.0}"),
            &ebf_text("reference without null move", nodes),
            Verdict::confirmed_if(within(e, work, work, 0.2), Verdict::Differs),
            "growth per ply of the full-width reference (no null move) on the position set, as in the branching-factor claim",
            false,
        ));
    }
    section(
        c,
        &format!(
            "The reference search at depth d+1 against itself at depth d for d = {}, from {OPENINGS} seeded two-move openings, each with both colours; games end by the rules or as a draw at {MAX_PLIES} plies. Elo from the score with a 95 % interval (tournament library).",
            ELO_DEPTHS
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        "kempelen claims --only elo-per-ply",
        rows,
    )
}

// --- Bytes per ply of the 8-bit builds ----------------------------------------------------------

/// An 8-bit port whose RAM per ply can be measured.
struct Port {
    name: &'static str,
    port: &'static kempelen_roms::Port,
}

impl Port {
    fn ram(
        &self,
        depth: u32,
        bar: &ProgressBar,
    ) -> Result<kempelen_roms::bench::RamReport, LedgerError> {
        let engine = kempelen_roms::PortEngine::assemble(self.port)?;
        let positions = kempelen_roms::bench::positions(
            kempelen_roms::suite::RAM_SUITE,
            kempelen_roms::suite::RAM_SUITE_NAME,
        )?;
        Ok(kempelen_roms::bench::ram_by_depth(
            &engine,
            kempelen_roms::suite::RAM_SUITE_NAME,
            &positions,
            depth,
            1,
            &|| bar.inc(1),
        )?)
    }
}

/// Every port whose sources this build has.
fn ports() -> Vec<Port> {
    kempelen_roms::Port::present()
        .into_iter()
        .map(|port| Port {
            name: port.name,
            port,
        })
        .collect()
}

/// Depth of the RAM measurement (as `kempelen bench --cpu z80`).
pub const RAM_DEPTH: u32 = 8;

fn stack_per_ply(bar: &ProgressBar) -> Result<Section, LedgerError> {
    let c = figures::claim("stack-per-ply");
    let (rec, it) = (c.number("recursive"), c.number("iterative"));
    let mut rows = Vec::new();
    for p in ports() {
        bar.set_message(format!("{}: RAM by depth", p.name));
        let r = p.ram(RAM_DEPTH, bar)?;
        let Some(bpp) = r.bytes_per_ply() else {
            continue;
        };
        let n = r.rows.len().max(1) as f64;
        let stack = |d: u32| {
            r.rows
                .iter()
                .map(|x| f64::from(x.stack[d as usize - 1]))
                .sum::<f64>()
                / n
        };
        let stack_pp = (stack(RAM_DEPTH) - stack(1)) / f64::from(RAM_DEPTH - 1);
        let close = within(bpp, rec, rec, 0.15);
        rows.push(row(
            &format!(
                "{} build: RAM per ply (peak RAM growth, depth 1 to {RAM_DEPTH})",
                p.name
            ),
            &format!("{rec:.0} recursive (AVR-Max), {it:.0} iterative"),
            &format!(
                "{bpp:.1} bytes per ply, of which {stack_pp:.1} on the CPU stack ({} positions)",
                r.rows.len()
            ),
            Verdict::confirmed_if(close, Verdict::Differs),
            &format!(
                "the {} search is recursive (its CPU stack grows with depth) and keeps a move list per ply; its figure is {} AVR-Max's recursive {rec:.0}. Kempelen has no iterative build, so the 34 is not re-measured",
                p.name,
                if close { "within 15 % of" } else { "not close to" }
            ),
            false,
        ));
    }
    Ok(section(
        c,
        &format!(
            "Each 8-bit build present searches the RAM suite ({}) to every depth 1..{RAM_DEPTH} in the emulator; peak RAM = distinct data bytes written + deepest stack, as `kempelen bench --cpu z80` reports; bytes per ply = (mean peak at depth {RAM_DEPTH} - mean at depth 1) / {}.",
            kempelen_roms::suite::RAM_SUITE_NAME,
            RAM_DEPTH - 1
        ),
        "kempelen claims --only stack-per-ply",
        rows,
    ))
}

// --- Report ------------------------------------------------------------------------------------

/// Runs the claims (`quick`: the fast rows only; `only`: one claim).
pub fn measure(
    quick: bool,
    only: Option<&str>,
    bar: &ProgressBar,
) -> Result<Vec<Section>, LedgerError> {
    let which = |id: &str| only.is_none_or(|o| o == id);
    let mut out = Vec::new();
    if which("minimal-tree") {
        bar.set_message("minimal tree");
        out.push(minimal_tree(quick));
    }
    let mut growth = None;
    if !quick && (which("branching-factor") || which("null-move") || which("elo-per-ply")) {
        let mut s = Vec::new();
        growth = Some(branching_and_null(bar, &mut s, &which).1);
        out.extend(s);
    }
    if which("negascout-mtdf") {
        bar.set_message("NegaMax, NegaScout, MTD(f)");
        out.push(negascout_mtdf());
    }
    if !quick && which("stack-per-ply") {
        out.push(stack_per_ply(bar)?);
    }
    if !quick && which("elo-per-ply") {
        out.push(elo_per_ply(bar, growth.as_deref()));
    }
    let order = figures::claims();
    out.sort_by_key(|s| order.iter().position(|c| c.id == s.id));
    Ok(out)
}

/// The Markdown report.
pub fn markdown(sections: &[Section]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# The documents' claims, measured\n");
    let _ = writeln!(
        s,
        "Written by `kempelen claims --markdown docs/CLAIMS.md`; every figure below comes from that command (node, leaf and depth counts, seeded trees and openings, no clock), so a rerun gives the same page. `kempelen claims --quick` re-measures the rows marked *quick* in seconds, and the test suite fails when they no longer match this page. The claims and their sources are data: `docs/history/figures.toml`.\n"
    );
    let _ = writeln!(s, "## Summary\n");
    let _ = writeln!(s, "| Claim | Source | Verdicts |");
    let _ = writeln!(s, "|---|---|---|");
    for sec in sections {
        let mut counts: Vec<(Verdict, usize)> = Vec::new();
        for v in [Verdict::Confirmed, Verdict::Differs, Verdict::Refuted] {
            let k = sec.rows.iter().filter(|r| r.verdict == v).count();
            if k > 0 {
                counts.push((v, k));
            }
        }
        let _ = writeln!(
            s,
            "| [{}](#{}) | {} | {} |",
            md_cell(&sec.claim),
            sec.id,
            md_cell(&sec.source),
            counts
                .iter()
                .map(|(v, k)| format!("{k} {}", v.word()))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for sec in sections {
        let _ = writeln!(s, "\n<a id=\"{}\"></a>\n## {}\n", sec.id, sec.claim);
        let _ = writeln!(s, "Source: {}.\n", sec.source);
        let _ = writeln!(s, "How Kempelen measures it: {}\n", sec.how);
        let _ = writeln!(s, "Command: `{}`\n", sec.command);
        let _ = writeln!(s, "| Figure | Document | Kempelen | Verdict | Why |");
        let _ = writeln!(s, "|---|---|---|---|---|");
        for r in &sec.rows {
            let _ = writeln!(s, "{}", r.markdown);
        }
        let quick: Vec<&Row> = sec.rows.iter().filter(|r| r.quick).collect();
        if !quick.is_empty() {
            let _ = writeln!(
                s,
                "\n*quick*: {} of these rows (`kempelen claims --quick`).",
                if quick.len() == sec.rows.len() {
                    "all".to_string()
                } else {
                    quick.len().to_string()
                }
            );
        }
    }
    s
}

/// The plain-text summary.
pub fn text(sections: &[Section]) -> String {
    let mut s = String::new();
    for sec in sections {
        let _ = writeln!(s, "{} ({})", sec.claim, sec.source);
        for r in &sec.rows {
            let _ = writeln!(
                s,
                "  {:<10} {}\n             document: {}\n             Kempelen: {}\n             {}",
                r.verdict.word(),
                r.figure,
                r.document,
                r.kempelen,
                r.why
            );
        }
        let _ = writeln!(s);
    }
    s
}
