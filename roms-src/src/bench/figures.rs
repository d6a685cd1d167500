//! The deterministic figures of one build's engine, searched position by position: speed
//! ([`speed`], [`machine_speed`]), peak RAM by depth ([`ram_by_depth`]) and the cycle profile
//! by part of the engine ([`category`], [`ProfileSummary`]). Nothing here reads a clock of the
//! host.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use kempelen_emulator::profiler::ProfileRow;
use kempelen_emulator::{ClockProfile, Timing, TimingModel};
use kempelen_emulator::{InstructionCost, LineProfile, ProfileReport};
use kempelen_engine::{Game, Move};
use thiserror::Error;

use crate::engine::{PortEngine, PortEngineError};
use crate::suite::SuiteEntry;

/// A search of one suite position failed.
#[derive(Debug, Error)]
#[error("{file}:{line}: {id}: depth {depth}: {source}")]
pub struct BenchError {
    /// The suite file.
    pub file: String,
    /// Line of the position in it.
    pub line: usize,
    /// The position's `id`.
    pub id: String,
    /// The depth searched.
    pub depth: u32,
    /// What the engine reported.
    #[source]
    pub source: PortEngineError,
}

/// A suite position ready to search: its entry (line, id) and the game (FEN plus `moves`),
/// whose current position is searched with the game's repetition history.
#[derive(Debug, Clone)]
pub struct BenchPosition {
    /// The suite line.
    pub entry: SuiteEntry,
    /// The game it describes.
    pub game: Game,
}

impl BenchPosition {
    /// Whether the side to move has a legal move (positions without one take no search).
    pub fn has_move(&self) -> bool {
        !self.game.position().legal_moves().is_empty()
    }
}

/// One position's search in the speed run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpeedRow {
    /// Suite line.
    pub line: usize,
    /// Position id.
    pub id: String,
    /// Best move (`None` without a legal move).
    pub best: Option<Move>,
    /// Its score.
    pub score: i32,
    /// Nodes (ALGORITHM.md section 7).
    pub nodes: u64,
    /// cycles from reset to the "done" host call.
    pub cycles: u64,
    /// Peak RAM in use during the search.
    pub peak_ram: u32,
}

/// The speed run under one machine's timing model: the same searches, the same nodes and
/// cycles, and the time the machine took for them.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineSpeed {
    /// The model.
    pub model: &'static TimingModel,
    /// Ticks of the model's clock for all the searches.
    pub ticks: u64,
}

/// The speed run: every position searched to one depth.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedReport {
    /// The depth.
    pub depth: u32,
    /// One row per position, in suite order.
    pub rows: Vec<SpeedRow>,
    /// Cycle profile over all the searches, when asked for.
    pub profile: Option<ProfileSummary>,
    /// The same searches under the machines' timing models ([`machine_speed`]); empty when
    /// only the CPU clock's figures were asked for.
    pub machine: Vec<MachineSpeed>,
}

impl SpeedReport {
    /// Nodes of all searches.
    pub fn nodes(&self) -> u64 {
        self.rows.iter().map(|r| r.nodes).sum()
    }

    /// cycles of all searches (each from reset to "done", setup included).
    pub fn cycles(&self) -> u64 {
        self.rows.iter().map(|r| r.cycles).sum()
    }

    /// Average cycles per node.
    pub fn cycles_per_node(&self) -> f64 {
        self.cycles() as f64 / self.nodes().max(1) as f64
    }

    /// Nodes per second at the CPU clock of `clock`: all nodes over the time all searches
    /// take at that clock.
    pub fn nodes_per_second_cpu(&self, clock: &ClockProfile) -> f64 {
        clock.per_second(self.nodes(), self.cycles())
    }

    /// The run under `clock`'s machine's timing model, if it was measured.
    pub fn machine_speed(&self, clock: &ClockProfile) -> Option<&MachineSpeed> {
        self.machine.iter().find(|m| m.model.machine == clock.id)
    }

    /// Nodes per second on `clock`'s machine as it ran: under its timing model when the run
    /// was measured with it, else at the CPU clock.
    pub fn nodes_per_second(&self, clock: &ClockProfile) -> f64 {
        match self.machine_speed(clock) {
            Some(m) if m.ticks > 0 => self.nodes() as f64 * m.model.hz / m.ticks as f64,
            _ => self.nodes_per_second_cpu(clock),
        }
    }

    /// What `nodes_per_second` at `clock` is measured under: the model (`machine/id`), or
    /// `cpu` (the clock alone).
    pub fn timing(&self, clock: &ClockProfile) -> String {
        self.machine_speed(clock)
            .map_or_else(|| "cpu".to_string(), |m| m.model.full_id())
    }
}

/// The models the speed run is repeated under for `clocks` with the timing `choice`: each
/// machine's model as the choice gives it (a named model where the machine has it, else its
/// own), each once.
pub fn models_for(clocks: &[&'static ClockProfile], choice: &Timing) -> Vec<&'static TimingModel> {
    let mut models: Vec<&'static TimingModel> = Vec::new();
    for c in clocks {
        let m = choice
            .model_for(c.id)
            .or_else(|_| Timing::Machine.model_for(c.id))
            .ok()
            .flatten();
        if let Some(m) = m {
            if !models.iter().any(|n| n.full_id() == m.full_id()) {
                models.push(m);
            }
        }
    }
    models
}

/// Repeats the speed run's searches (`report`'s positions) under each of `models`: the same
/// nodes and cycles (a timing model changes no instruction), and each machine's ticks.
pub fn machine_speed(
    engine: &PortEngine,
    file: &str,
    positions: &[BenchPosition],
    report: &SpeedReport,
    models: &[&'static TimingModel],
    jobs: usize,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<MachineSpeed>, BenchError> {
    let mut out = Vec::new();
    for &model in models {
        let mut e = engine.clone();
        e.timing = Some(model);
        let results = parallel_map(positions, jobs, |p| {
            let pos = p.game.position();
            let history = p.game.reference_history();
            let r = e.search(pos, &history, report.depth, None);
            done();
            r.map_err(|source| BenchError {
                file: file.to_string(),
                line: p.entry.line,
                id: p.entry.id.clone(),
                depth: report.depth,
                source,
            })
        });
        let mut ticks = 0;
        for (row, r) in report.rows.iter().zip(results) {
            let o = r?;
            assert_eq!(
                (o.result.nodes, o.cycles),
                (row.nodes, row.cycles),
                "{} under {}: a timing model changes no cycle",
                row.id,
                model.full_id()
            );
            ticks += o.machine_ticks.expect("a timed search");
        }
        out.push(MachineSpeed { model, ticks });
    }
    Ok(out)
}

/// Searches every position to `depth` (1..=32), with the cycle profiler when `profile` is
/// set (the profiler changes no result and no cycle count). `done` is called after each
/// position, from the worker threads.
pub fn speed(
    engine: &PortEngine,
    file: &str,
    positions: &[BenchPosition],
    depth: u32,
    profile: bool,
    jobs: usize,
    done: &(dyn Fn() + Sync),
) -> Result<SpeedReport, BenchError> {
    let results = parallel_map(positions, jobs, |p| {
        let pos = p.game.position();
        let history = p.game.reference_history();
        let out = if profile {
            engine
                .search_profiled(pos, &history, depth, None)
                .map(|(o, r)| (o, Some(r)))
        } else {
            engine.search(pos, &history, depth, None).map(|o| (o, None))
        };
        done();
        out.map_err(|source| BenchError {
            file: file.to_string(),
            line: p.entry.line,
            id: p.entry.id.clone(),
            depth,
            source,
        })
    });
    let mut rows = Vec::with_capacity(positions.len());
    let mut reports = Vec::new();
    for (p, r) in positions.iter().zip(results) {
        let (o, report) = r?;
        rows.push(SpeedRow {
            line: p.entry.line,
            id: p.entry.id.clone(),
            best: o.result.best,
            score: o.result.score,
            nodes: o.result.nodes,
            cycles: o.cycles,
            peak_ram: o.ram.peak_bytes,
        });
        reports.extend(report);
    }
    Ok(SpeedReport {
        depth,
        rows,
        profile: profile.then(|| ProfileSummary::merge(&reports)),
        machine: Vec::new(),
    })
}

/// Peak RAM of one position's searches, depth 1..=D.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RamRow {
    /// Suite line.
    pub line: usize,
    /// Position id.
    pub id: String,
    /// Peak RAM in use (data bytes written + deepest stack) of the search to depth `i + 1`.
    pub peak: Vec<u32>,
    /// The deepest CPU stack of the search to depth `i + 1` (part of `peak`).
    pub stack: Vec<u32>,
}

/// RAM in use by search depth.
#[derive(Debug, Clone, PartialEq)]
pub struct RamReport {
    /// The deepest depth measured (the rows have this many entries).
    pub max_depth: u32,
    /// Positions with a legal move, in suite order.
    pub rows: Vec<RamRow>,
    /// Positions left out because the side to move has no legal move (no search runs).
    pub skipped: usize,
}

impl RamReport {
    /// Largest peak RAM over the positions at `depth`.
    pub fn max(&self, depth: u32) -> u32 {
        self.rows
            .iter()
            .map(|r| r.peak[depth as usize - 1])
            .max()
            .unwrap_or(0)
    }

    /// Mean peak RAM over the positions at `depth`.
    pub fn mean(&self, depth: u32) -> f64 {
        let n = self.rows.len().max(1) as f64;
        self.rows
            .iter()
            .map(|r| f64::from(r.peak[depth as usize - 1]))
            .sum::<f64>()
            / n
    }

    /// Bytes per ply: the average growth of peak RAM per extra ply of search depth, i.e. the
    /// mean over the positions of `(peak(D) - peak(1)) / (D - 1)` (which is the mean of the
    /// per-ply increments `peak(d + 1) - peak(d)`). `None` when only depth 1 was measured.
    pub fn bytes_per_ply(&self) -> Option<f64> {
        (self.max_depth > 1 && !self.rows.is_empty())
            .then(|| (self.mean(self.max_depth) - self.mean(1)) / f64::from(self.max_depth - 1))
    }
}

/// Searches every position with a legal move to each depth 1..=`max_depth` (one search per
/// depth, so each figure is the peak of exactly that search) and records the peak RAM.
pub fn ram_by_depth(
    engine: &PortEngine,
    file: &str,
    positions: &[BenchPosition],
    max_depth: u32,
    jobs: usize,
    done: &(dyn Fn() + Sync),
) -> Result<RamReport, BenchError> {
    let with_move: Vec<&BenchPosition> = positions.iter().filter(|p| p.has_move()).collect();
    let tasks: Vec<(usize, u32)> = (0..with_move.len())
        .flat_map(|i| (1..=max_depth).map(move |d| (i, d)))
        .collect();
    // The deep searches first, so the threads finish together.
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by_key(|&t| std::cmp::Reverse(tasks[t].1));
    let ordered: Vec<(usize, u32)> = order.iter().map(|&t| tasks[t]).collect();
    let results = parallel_map(&ordered, jobs, |&(i, d)| {
        let p = with_move[i];
        let out = engine.search(p.game.position(), &p.game.reference_history(), d, None);
        done();
        out.map_err(|source| BenchError {
            file: file.to_string(),
            line: p.entry.line,
            id: p.entry.id.clone(),
            depth: d,
            source,
        })
    });
    let mut rows: Vec<RamRow> = with_move
        .iter()
        .map(|p| RamRow {
            line: p.entry.line,
            id: p.entry.id.clone(),
            peak: vec![0; max_depth as usize],
            stack: vec![0; max_depth as usize],
        })
        .collect();
    for (&(i, d), r) in ordered.iter().zip(results) {
        let o = r?;
        rows[i].peak[d as usize - 1] = o.ram.peak_bytes;
        rows[i].stack[d as usize - 1] = o.ram.stack.map_or(0, |s| s.max_depth);
    }
    Ok(RamReport {
        max_depth,
        rows,
        skipped: positions.len() - with_move.len(),
    })
}

/// `f` over `items` on up to `jobs` threads; results in the order of `items`.
fn parallel_map<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    slots.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was processed"))
        .collect()
}

/// The parts of the engine the cycle profile is grouped into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Generating, scoring and picking moves (`movegen.inc`, the move picker of
    /// `search.inc`, perft's generator).
    MoveGeneration,
    /// Material and piece-square bookkeeping and the static evaluation.
    Evaluation,
    /// Alpha-beta, quiescence, iterative deepening, node counting, draws, killers, PV.
    Search,
    /// Making and unmaking moves: board, piece lists, castling and en-passant state, keys.
    MakeUnmake,
    /// Whether a square is attacked: check detection and the legality test at make time.
    AttackTest,
    /// Everything else: position setup, the command dispatcher, perft's driver.
    Other,
}

impl Category {
    /// Every category, in table order.
    pub const ALL: [Category; 6] = [
        Category::MoveGeneration,
        Category::Evaluation,
        Category::Search,
        Category::MakeUnmake,
        Category::AttackTest,
        Category::Other,
    ];

    /// Name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Category::MoveGeneration => "move generation",
            Category::Evaluation => "evaluation",
            Category::Search => "search",
            Category::MakeUnmake => "make/unmake",
            Category::AttackTest => "attack/check test",
            Category::Other => "other",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Label prefixes per category, first match wins, for both ports' labels (the 6502's own
/// names, such as `piece_value` or `node_exit`, are listed whole). The engine's sources name the
/// labels inside a routine with the routine's own short prefix (`gen_tac`: `gt_`, `gtw_` ...),
/// so a prefix covers a routine and its inner labels. Order matters where prefixes overlap
/// (`is_attacked` before the move picker's `is_`, `mk_legal` before `mk_`).
const CATEGORY_PREFIXES: &[(Category, &[&str])] = &[
    (
        Category::AttackTest,
        &[
            "is_attacked",
            "ia_",
            "iar_",
            "in_check",
            "mk_legal",
            "mkl_",
            "gqc_attacked",
            "flag_check",
            "flag_node",
            "flag_carry",
            "node_check",
            "nc_",
            "nch",
            "ncl_",
        ],
    ),
    (
        Category::MakeUnmake,
        &[
            "make",
            "mk_",
            "unmake",
            "um_",
            "key_make",
            "km_",
            "key_unmake",
            "pl_move",
            "pl_remove",
            "pl_add",
            "zob_",
            "zc_",
            "key_save",
        ],
    ),
    (
        Category::Evaluation,
        &[
            "evaluate",
            "ev_",
            "eval_",
            "em_",
            "piece_value",
            "mat_",
            "ma_pawn",
            "mr_pawn",
            "kings_eval",
            "neg_hl",
        ],
    ),
    (
        Category::MoveGeneration,
        &[
            "gen_",
            "gt_",
            "gtn_",
            "gtw",
            "gtb",
            "gtp_",
            "gq",
            "emit",
            "next_any",
            "na_",
            "any_legal",
            "al_",
            "pick_tac",
            "pt_",
            "next_move",
            "nm_",
            "is_",
            "mark_tac",
            "mt_",
            "list_ptr",
            "qlist_ptr",
            "list_end",
        ],
    ),
    (
        Category::Search,
        &[
            "eng_search",
            "es_",
            "search",
            "s_",
            "quiesce",
            "q_",
            "qs_",
            "count_node",
            "cn_",
            "child_",
            "cc_",
            "window",
            "wd_",
            "mated",
            "ret_zero",
            "lists_after_frame",
            "pv_",
            "killer_",
            "ku_",
            "repetition",
            "rp_",
            "insufficient",
            "neg_score",
            "ret_eval",
            "ret_beta",
            "ret_alpha",
            "ret_word",
            "enough_material",
            "hist_addr",
            "root_frame",
            "node_exit",
            "set_lists",
            "next_at_lp",
            "call_search",
        ],
    ),
];

/// The part of the engine the routine (a global label of `engine.asm`) belongs to.
pub fn category(routine: &str) -> Category {
    CATEGORY_PREFIXES
        .iter()
        .find(|(_, prefixes)| prefixes.iter().any(|p| routine.starts_with(p)))
        .map_or(Category::Other, |(c, _)| *c)
}

/// One label's cycles over all searches of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoutineCycles {
    /// The label.
    pub routine: String,
    /// Its address (`None` for the profiler's "no symbol" row).
    pub address: Option<u16>,
    /// Its category.
    pub category: Category,
    /// Cycles spent at addresses from this label to the next (its own code).
    pub cycles: u64,
    /// Cycles from a call into it to the return, callees included.
    pub inclusive: u64,
    /// Calls into it.
    pub calls: u64,
}

/// Cycle profiles of several searches added up, by routine, by category and by instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileSummary {
    /// Routines, most cycles first.
    pub routines: Vec<RoutineCycles>,
    /// All profiled cycles.
    pub total: u64,
    /// Every instruction that ran, by address: its cycles and executions over all searches.
    pub instructions: Vec<InstructionCost>,
}

impl ProfileSummary {
    /// Adds up the profiler reports of several runs routine by routine.
    pub fn merge(reports: &[ProfileReport]) -> ProfileSummary {
        let mut by_name: HashMap<&str, RoutineCycles> = HashMap::new();
        for report in reports {
            for row in &report.rows {
                let e = by_name
                    .entry(row.routine.as_str())
                    .or_insert_with(|| RoutineCycles {
                        routine: row.routine.clone(),
                        address: row.address,
                        category: category(&row.routine),
                        cycles: 0,
                        inclusive: 0,
                        calls: 0,
                    });
                e.cycles += row.cycles;
                e.inclusive += row.inclusive;
                e.calls += row.calls;
            }
        }
        let mut routines: Vec<RoutineCycles> = by_name.into_values().collect();
        routines.sort_by(|a, b| b.cycles.cmp(&a.cycles).then(a.routine.cmp(&b.routine)));
        let mut by_address: BTreeMap<u16, InstructionCost> = BTreeMap::new();
        for ins in reports.iter().flat_map(|r| &r.instructions) {
            let e = by_address.entry(ins.address).or_insert(InstructionCost {
                address: ins.address,
                cycles: 0,
                executions: 0,
            });
            e.cycles += ins.cycles;
            e.executions += ins.executions;
        }
        ProfileSummary {
            total: reports.iter().map(|r| r.total_cycles).sum(),
            routines,
            instructions: by_address.into_values().collect(),
        }
    }

    /// The cycles per source line of `engine` (its source map; an instruction without a line
    /// shown disassembled): the lines of each routine add up to its cycles here.
    pub fn lines(&self, engine: &PortEngine) -> LineProfile {
        let report = ProfileReport {
            rows: self
                .routines
                .iter()
                .map(|r| ProfileRow {
                    routine: r.routine.clone(),
                    address: r.address,
                    cycles: r.cycles,
                    share: self.share(r.cycles),
                    inclusive: r.inclusive,
                    calls: r.calls,
                })
                .collect(),
            total_cycles: self.total,
            instructions: self.instructions.clone(),
        };
        LineProfile::new(&report, Some(engine.source_map()), |a| {
            engine.disassemble(a).unwrap_or_else(|| format!("${a:04X}"))
        })
    }

    /// Cycles per category, in [`Category::ALL`] order.
    pub fn by_category(&self) -> Vec<(Category, u64)> {
        Category::ALL
            .iter()
            .map(|&c| {
                let sum = self
                    .routines
                    .iter()
                    .filter(|r| r.category == c)
                    .map(|r| r.cycles)
                    .sum();
                (c, sum)
            })
            .collect()
    }

    /// `cycles` as a percentage of all profiled cycles.
    pub fn share(&self, cycles: u64) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            cycles as f64 * 100.0 / self.total as f64
        }
    }
}

/// Reads the positions of a suite (`file` names it in errors): the entries and their games.
pub fn positions(text: &str, file: &str) -> Result<Vec<BenchPosition>, crate::suite::SuiteError> {
    crate::suite::parse(text, file)?
        .into_iter()
        .map(|entry| {
            let game = entry.game(file)?;
            Ok(BenchPosition { entry, game })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_of_the_engines_routines() {
        // The 6502's own routine names.
        assert_eq!(category("piece_value"), Category::Evaluation);
        assert_eq!(category("node_exit"), Category::Search);
        assert_eq!(category("flag_check"), Category::AttackTest);
        assert_eq!(category("list_end"), Category::MoveGeneration);
        assert_eq!(category("key_save"), Category::MakeUnmake);
        assert_eq!(category("setup_history"), Category::Other);
        assert_eq!(category("is_attacked"), Category::AttackTest);
        assert_eq!(category("ia_knight"), Category::AttackTest);
        assert_eq!(category("mk_legal"), Category::AttackTest);
        assert_eq!(category("mkl_walk"), Category::AttackTest);
        assert_eq!(category("mk_pawn"), Category::MakeUnmake);
        assert_eq!(category("unmake_null"), Category::MakeUnmake);
        assert_eq!(category("zob_xor4"), Category::MakeUnmake);
        // The Z80's gen_tac unrolled per side, node_check and q_stands' inner labels.
        assert_eq!(category("gtwp_plain"), Category::MoveGeneration);
        assert_eq!(category("gtbr3"), Category::MoveGeneration);
        assert_eq!(category("nchl_walk"), Category::AttackTest);
        assert_eq!(category("nc_line"), Category::AttackTest);
        assert_eq!(category("qs_x"), Category::Search);
        assert_eq!(category("evaluate"), Category::Evaluation);
        assert_eq!(category("mat_npm"), Category::Evaluation);
        assert_eq!(category("ma_pawn"), Category::Evaluation);
        assert_eq!(category("mr_pawn"), Category::Evaluation);
        assert_eq!(category("pt_qfirst"), Category::MoveGeneration);
        assert_eq!(category("mk_cap"), Category::MakeUnmake);
        assert_eq!(category("qs_view"), Category::Search);
        assert_eq!(category("gen_quiet"), Category::MoveGeneration);
        assert_eq!(category("gqc_long"), Category::MoveGeneration);
        assert_eq!(category("gqc_attacked"), Category::AttackTest);
        assert_eq!(category("is_special"), Category::MoveGeneration);
        assert_eq!(category("nm_killer"), Category::MoveGeneration);
        assert_eq!(category("search"), Category::Search);
        assert_eq!(category("s_null"), Category::Search);
        assert_eq!(category("quiesce"), Category::Search);
        assert_eq!(category("repetition"), Category::Search);
        assert_eq!(category("setup"), Category::Other);
        assert_eq!(category("perft_node"), Category::Other);
    }

    #[test]
    fn bytes_per_ply_is_the_mean_growth_per_extra_ply() {
        let row = |peak: Vec<u32>| RamRow {
            line: 1,
            id: String::new(),
            stack: vec![0; peak.len()],
            peak,
        };
        let r = RamReport {
            max_depth: 3,
            rows: vec![row(vec![100, 150, 300]), row(vec![200, 260, 340])],
            skipped: 0,
        };
        assert_eq!(r.mean(1), 150.0);
        assert_eq!(r.max(3), 340);
        // ((300 - 100) / 2 + (340 - 200) / 2) / 2 = (100 + 70) / 2
        assert_eq!(r.bytes_per_ply(), Some(85.0));
        let one = RamReport {
            max_depth: 1,
            rows: vec![row(vec![100])],
            skipped: 0,
        };
        assert_eq!(one.bytes_per_ply(), None);
    }

    #[test]
    fn parallel_map_keeps_the_order() {
        let items: Vec<u32> = (0..50).collect();
        for jobs in [1, 3, 64] {
            assert_eq!(
                parallel_map(&items, jobs, |x| x * 2),
                (0..100).step_by(2).collect::<Vec<_>>()
            );
        }
        assert!(parallel_map(&[] as &[u32], 4, |x| *x).is_empty());
    }

    #[test]
    fn the_lines_of_each_routine_add_up_to_its_cycles_on_both_builds() {
        for port in crate::port::PORTS {
            let Ok(engine) = PortEngine::shared(port) else {
                continue;
            };
            let game = Game::from_fen(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            )
            .unwrap();
            let reports: Vec<ProfileReport> = (1..=2)
                .map(|depth| {
                    engine
                        .search_profiled(game.position(), &[], depth, None)
                        .unwrap()
                        .1
                })
                .collect();
            let summary = ProfileSummary::merge(&reports);
            let lines = summary.lines(engine);
            assert_eq!(lines.total_cycles, summary.total, "{}", port.name);
            for r in &summary.routines {
                let sum: u64 = lines.of_routine(&r.routine).map(|l| l.cycles).sum();
                assert_eq!(sum, r.cycles, "{}: {}", port.name, r.routine);
            }
            // Every instruction of the engine has its source line.
            assert!(
                lines.lines.iter().all(|l| l.file.is_some()),
                "{}: {:?}",
                port.name,
                lines.lines.iter().find(|l| l.file.is_none())
            );
            let executions: u64 = summary.instructions.iter().map(|i| i.executions).sum();
            assert_eq!(
                lines.lines.iter().map(|l| l.executions).sum::<u64>(),
                executions
            );
        }
    }
}
