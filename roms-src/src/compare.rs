//! The 8-bit builds against the native reference search, position by position: what
//! `kempelen compare` prints and what the browser page's compare view shows.
//!
//! A [`Row`] is built from each engine's outcome on one position: the native reference's
//! [`SearchResult`] first ([`Row::new`]), then each build's [`SearchOutcome`] (or the reason it
//! failed) with the machine whose clock turns its cycles into time ([`Row::add_port`],
//! [`Row::add_port_error`]), and optionally the native `full` profile's result
//! ([`Row::add_full`], scored on `bm`/`am` but not part of the agreement, which is about the
//! reference algorithm). A build agrees when its best move, score, principal variation and
//! node count are the reference's; [`PortRun::differs`] names what differs. A front end that
//! runs each engine on its own (the page runs the builds in slices inside a Web Worker) builds
//! the row from the outcomes as they arrive; [`Comparison`] runs every engine on every
//! position of a [`CompareSuite`] and keeps the totals (the command line).
//!
//! Everything here is plain data (serializable, moves as UCI text); nothing prints, reads a
//! file or starts a thread.
//!
//! ```no_run
//! use kempelen_roms::compare::{self, ComparePosition, Row};
//! use kempelen_roms::{PortEngine, port};
//! let p = ComparePosition::from_fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1").unwrap();
//! let native = compare::reference(&p, 4);
//! let mut row = Row::new(&p, &native);
//! let z80 = PortEngine::assemble(&port::Z80).unwrap();
//! let history = p.game.reference_history();
//! let out = z80.search(p.game.position(), &history, 4, None).unwrap();
//! row.add_port(&p, &port::Z80, port::Z80.default_machine(), &out);
//! assert!(row.agree);
//! ```

use kempelen_emulator::ClockProfile;
use kempelen_engine::reference::{ReferenceLimits, ReferenceSearch};
use kempelen_engine::{
    Engine, EngineError, FenError, Game, Limits, Move, NativeEngine, Profile, SearchControl,
    SearchResult, mate_in,
};
use serde::{Serialize, Serializer};
use thiserror::Error;

use crate::engine::{PortEngine, SearchOutcome};
use crate::port::Port;
use crate::suite::{self, Expected, ExpectedMoveError, SuiteError};

/// Why a comparison could not run.
#[derive(Debug, Error)]
pub enum CompareError {
    /// The suite could not be read or parsed, or one of its positions set up.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// A `bm` or `am` move that is not a legal move of its position.
    #[error(transparent)]
    Expected(#[from] ExpectedMoveError),
    /// A suite without a position.
    #[error("{file}: the suite has no positions")]
    NoPositions {
        /// The suite.
        file: String,
    },
    /// A typed position that is not a FEN.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A depth the 8-bit builds cannot search.
    #[error("depth {0}: the depth must be 1 to 32")]
    Depth(u32),
    /// The native `full` profile's search failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// One position to compare on: the game (its moves are the repetition history) and what the
/// suite expects of it (`bm`, `am`; nothing for a typed position).
pub struct ComparePosition {
    /// The suite line (0 for a typed position).
    pub line: usize,
    /// The suite's `id` (or `line N`); the FEN for a typed position.
    pub id: String,
    /// The game whose current position is searched.
    pub game: Game,
    /// The suite's `bm` and `am` moves.
    pub expected: Expected,
}

impl ComparePosition {
    /// A typed position (FEN), with no expected moves.
    pub fn from_fen(fen: &str) -> Result<ComparePosition, CompareError> {
        let game = Game::from_fen(fen)?;
        Ok(ComparePosition::from_game(game, fen.trim().to_string()))
    }

    /// A game's current position (with the game's moves as its history), named `id`, with
    /// no expected moves.
    pub fn from_game(game: Game, id: String) -> ComparePosition {
        ComparePosition {
            line: 0,
            id,
            game,
            expected: Expected {
                best: Vec::new(),
                avoid: Vec::new(),
            },
        }
    }
}

/// The positions of an EPD suite (`FEN; id "..."; moves "..."; bm ...; am ...;`).
pub struct CompareSuite {
    /// The file, or the bundled suite's name.
    pub name: String,
    /// Its positions, in the file's order.
    pub positions: Vec<ComparePosition>,
}

impl CompareSuite {
    /// The suite in `text`, named `name` in errors (every position set up first, then the
    /// expected moves read).
    pub fn parse(text: &str, name: &str) -> Result<CompareSuite, CompareError> {
        let entries = suite::parse(text, name)?;
        if entries.is_empty() {
            return Err(CompareError::NoPositions {
                file: name.to_string(),
            });
        }
        let games = entries
            .iter()
            .map(|e| e.game(name))
            .collect::<Result<Vec<_>, _>>()?;
        let expected = entries
            .iter()
            .zip(&games)
            .map(|(e, g)| Expected::of(e, g.position(), name))
            .collect::<Result<Vec<_>, _>>()?;
        let positions = entries
            .into_iter()
            .zip(games)
            .zip(expected)
            .map(|((e, game), expected)| ComparePosition {
                line: e.line,
                id: e.id,
                game,
                expected,
            })
            .collect();
        Ok(CompareSuite {
            name: name.to_string(),
            positions,
        })
    }

    /// The suite bundled with Kempelen (tests/data/suite.epd).
    pub fn bundled() -> Result<CompareSuite, CompareError> {
        CompareSuite::parse(suite::BUNDLED, suite::BUNDLED_NAME)
    }

    /// How many positions name expected moves (`bm` or `am`).
    pub fn scored(&self) -> usize {
        self.positions.iter().filter(|p| p.expected.given()).count()
    }
}

/// The native reference search of `p` to `depth` (docs/ALGORITHM.md), the row's yardstick.
pub fn reference(p: &ComparePosition, depth: u32) -> SearchResult {
    let history = p.game.reference_history();
    ReferenceSearch::new(p.game.position(), &history, ReferenceLimits::depth(depth)).run()
}

/// The native `full` profile's search of `p` to `depth` with `engine`.
pub fn full(
    engine: &mut NativeEngine,
    p: &ComparePosition,
    depth: u32,
) -> Result<SearchResult, CompareError> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Ok(engine.search(&p.game, &limits, &SearchControl::default())?)
}

fn uci<S: Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&m.map_or("-".to_string(), |m| m.to_uci()))
}

fn uci_line<S: Serializer>(pv: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(pv.iter().map(|m| m.to_uci()))
}

/// One engine's answer on a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// The best move (`-` in JSON when there is none).
    #[serde(serialize_with = "uci")]
    pub best: Option<Move>,
    /// Its score in centipawns, the side to move's view.
    pub score: i32,
    /// Mate in N moves (negative: the side to move is mated), when the score is a mate.
    pub mate: Option<i32>,
    /// The principal variation.
    #[serde(serialize_with = "uci_line")]
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the move solves the position, where the suite gives `bm` or `am`.
    pub solved: Option<bool>,
}

impl Answer {
    /// The answer of a search result, scored on `expected`.
    pub fn new(r: &SearchResult, expected: &Expected) -> Answer {
        Answer {
            best: r.best,
            score: r.score,
            mate: mate_in(r.score),
            pv: r.pv.clone(),
            nodes: r.nodes,
            solved: expected.given().then(|| expected.solved(r.best)),
        }
    }

    /// What differs from `reference`'s search (empty when the two agree).
    pub fn differences(&self, reference: &Answer) -> Vec<Difference> {
        let mut d = Vec::new();
        if self.best != reference.best {
            d.push(Difference::Best);
        }
        if self.score != reference.score {
            d.push(Difference::Score);
        }
        if self.pv != reference.pv {
            d.push(Difference::Pv);
        }
        if self.nodes != reference.nodes {
            d.push(Difference::Nodes);
        }
        d
    }
}

/// A part of an answer that differs from the reference's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Difference {
    /// The best move.
    Best,
    /// The score.
    Score,
    /// The principal variation.
    Pv,
    /// The node count.
    Nodes,
}

/// A build's completed search of a position, with its cost on the machine.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PortRun {
    /// Its answer.
    pub answer: Answer,
    /// Whether it is the reference's (best move, score, PV and nodes).
    pub agree: bool,
    /// What differs from the reference's answer.
    pub differs: Vec<Difference>,
    /// CPU cycles of the search.
    pub cycles: u64,
    /// Those cycles in seconds at the machine's CPU clock.
    pub seconds: f64,
    /// Peak RAM in use, bytes (docs/MACHINE.md).
    pub peak_ram: u32,
}

/// What became of a build's search of a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PortResult {
    /// It searched.
    Ran(PortRun),
    /// It failed (an emulator fault, the cycle budget): why.
    Error(String),
}

/// One build's column of a row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PortAnswer {
    /// The port's id (`z80`, `6502`).
    pub cpu: &'static str,
    /// The port's name (`Z80`, `6502`).
    pub name: &'static str,
    /// The machine whose clock gives the time.
    pub machine: &'static ClockProfile,
    /// The search or its failure.
    pub result: PortResult,
}

impl PortAnswer {
    /// The completed search, if any.
    pub fn run(&self) -> Option<&PortRun> {
        match &self.result {
            PortResult::Ran(r) => Some(r),
            PortResult::Error(_) => None,
        }
    }
}

/// How a row came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every build agrees with the reference.
    Ok,
    /// A build answered differently.
    Diff,
    /// A build failed.
    Error,
}

/// One position compared: the reference's answer, each build's, the `full` profile's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The suite line (0 for a typed position).
    pub line: usize,
    /// The position's id.
    pub id: String,
    /// The searched position.
    pub fen: String,
    /// The native reference's answer.
    pub native: Answer,
    /// The builds' answers, in the order added.
    pub ports: Vec<PortAnswer>,
    /// The native `full` profile's answer, when it searched.
    pub full: Option<Answer>,
    /// Whether every build added so far agrees with the reference (a failed one does not).
    pub agree: bool,
}

impl Row {
    /// The row of `p` with the reference's result `native` (from [`reference`]).
    pub fn new(p: &ComparePosition, native: &SearchResult) -> Row {
        Row {
            line: p.line,
            id: p.id.clone(),
            fen: p.game.position().to_fen(),
            native: Answer::new(native, &p.expected),
            ports: Vec::new(),
            full: None,
            agree: true,
        }
    }

    /// Adds `port`'s search of `p`, timed at `machine`'s clock.
    pub fn add_port(
        &mut self,
        p: &ComparePosition,
        port: &'static Port,
        machine: &'static ClockProfile,
        out: &SearchOutcome,
    ) {
        let answer = Answer::new(&out.result, &p.expected);
        let differs = answer.differences(&self.native);
        let agree = differs.is_empty();
        self.agree &= agree;
        let run = PortRun {
            answer,
            agree,
            differs,
            cycles: out.cycles,
            seconds: machine.duration(out.cycles).as_secs_f64(),
            peak_ram: out.ram.peak_bytes,
        };
        self.push(port, machine, PortResult::Ran(run));
    }

    /// Adds `port`'s failed search: a disagreement, with `message`.
    pub fn add_port_error(
        &mut self,
        port: &'static Port,
        machine: &'static ClockProfile,
        message: String,
    ) {
        self.agree = false;
        self.push(port, machine, PortResult::Error(message));
    }

    fn push(&mut self, port: &'static Port, machine: &'static ClockProfile, result: PortResult) {
        self.ports.push(PortAnswer {
            cpu: port.id,
            name: port.name,
            machine,
            result,
        });
    }

    /// Adds the native `full` profile's result (scored, not part of the agreement).
    pub fn add_full(&mut self, p: &ComparePosition, r: &SearchResult) {
        self.full = Some(Answer::new(r, &p.expected));
    }

    /// The row's status: an error before a difference before agreement.
    pub fn status(&self) -> Status {
        if self.ports.iter().any(|a| a.run().is_none()) {
            Status::Error
        } else if self.agree {
            Status::Ok
        } else {
            Status::Diff
        }
    }

    /// The failure messages of the builds that failed.
    pub fn errors(&self) -> impl Iterator<Item = &str> {
        self.ports.iter().filter_map(|a| match &a.result {
            PortResult::Error(e) => Some(e.as_str()),
            PortResult::Ran(_) => None,
        })
    }
}

/// A build in a [`Comparison`]: its engine and the machine whose clock gives its time.
pub struct Contender {
    /// The engine (its clock set to `machine`).
    pub engine: PortEngine,
    /// The machine.
    pub machine: &'static ClockProfile,
}

impl Contender {
    /// `engine` timed at `machine`'s clock.
    pub fn new(mut engine: PortEngine, machine: &'static ClockProfile) -> Contender {
        engine.clock = Some(machine);
        Contender { engine, machine }
    }
}

/// A build's totals over the positions compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildTotals {
    /// The port's id.
    pub cpu: &'static str,
    /// The port's name.
    pub name: &'static str,
    /// The machine whose clock gives its time.
    pub machine: &'static ClockProfile,
    /// Nodes of its completed searches.
    pub nodes: u64,
    /// Cycles of its completed searches.
    pub cycles: u64,
    /// Nodes per second at the machine's clock.
    pub nodes_per_second: f64,
    /// Positions whose `bm`/`am` its move solves.
    pub solved: usize,
    /// Positions where it failed.
    pub errors: usize,
}

impl BuildTotals {
    fn add(&mut self, a: &PortAnswer) {
        match &a.result {
            PortResult::Ran(r) => {
                self.nodes += r.answer.nodes;
                self.cycles += r.cycles;
                self.solved += usize::from(r.answer.solved == Some(true));
            }
            PortResult::Error(_) => self.errors += 1,
        }
        self.nodes_per_second = self.machine.per_second(self.nodes, self.cycles);
    }
}

/// The totals of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The suite's name.
    pub suite: String,
    /// The depth searched.
    pub depth: u32,
    /// Positions compared.
    pub positions: usize,
    /// Positions where every build agrees.
    pub agree: usize,
    /// Positions with `bm` or `am`.
    pub scored: usize,
    /// Of those, solved by the native reference.
    pub native_solved: usize,
    /// Of those, solved by the native `full` profile (when it searched).
    pub full_solved: Option<usize>,
    /// Each build's totals.
    pub builds: Vec<BuildTotals>,
}

/// Every engine on every position: the builds, the reference and optionally the `full`
/// profile, with the totals.
pub struct Comparison {
    builds: Vec<Contender>,
    full: Option<NativeEngine>,
    summary: Summary,
}

impl Comparison {
    /// A comparison of `builds` with the reference at `depth` (1 to 32) on the suite named
    /// `suite`, with the native `full` profile beside them when `full` is set.
    pub fn new(
        suite: &str,
        depth: u32,
        builds: Vec<Contender>,
        full: bool,
    ) -> Result<Comparison, CompareError> {
        if !(1..=32).contains(&depth) {
            return Err(CompareError::Depth(depth));
        }
        let totals = builds
            .iter()
            .map(|b| BuildTotals {
                cpu: b.engine.port().id,
                name: b.engine.port().name,
                machine: b.machine,
                nodes: 0,
                cycles: 0,
                nodes_per_second: 0.0,
                solved: 0,
                errors: 0,
            })
            .collect();
        Ok(Comparison {
            builds,
            full: full.then(|| NativeEngine::new(Profile::Full)),
            summary: Summary {
                suite: suite.to_string(),
                depth,
                positions: 0,
                agree: 0,
                scored: 0,
                native_solved: 0,
                full_solved: full.then_some(0),
                builds: totals,
            },
        })
    }

    /// The builds.
    pub fn builds(&self) -> &[Contender] {
        &self.builds
    }

    /// Whether the `full` profile searches too.
    pub fn has_full(&self) -> bool {
        self.full.is_some()
    }

    /// Searches `p` with every engine and adds the row to the totals. A build that fails is
    /// a disagreement reported in its row (`suite:line: id: build: why`), and the comparison
    /// goes on.
    pub fn position(&mut self, p: &ComparePosition) -> Result<Row, CompareError> {
        let depth = self.summary.depth;
        let mut row = Row::new(p, &reference(p, depth));
        let history = p.game.reference_history();
        for b in &self.builds {
            let port = b.engine.port();
            match b.engine.search(p.game.position(), &history, depth, None) {
                Ok(out) => row.add_port(p, port, b.machine, &out),
                Err(e) => {
                    let message = format!(
                        "{}:{}: {}: {}: {e}",
                        self.summary.suite, p.line, p.id, port.name
                    );
                    row.add_port_error(port, b.machine, message);
                }
            }
        }
        if let Some(engine) = self.full.as_mut() {
            let r = full(engine, p, depth)?;
            row.add_full(p, &r);
        }
        self.count(&row);
        Ok(row)
    }

    fn count(&mut self, row: &Row) {
        let s = &mut self.summary;
        let solved = |a: &Answer| usize::from(a.solved == Some(true));
        s.positions += 1;
        s.agree += usize::from(row.agree);
        s.scored += usize::from(row.native.solved.is_some());
        s.native_solved += solved(&row.native);
        if let (Some(n), Some(a)) = (s.full_solved.as_mut(), &row.full) {
            *n += solved(a);
        }
        for (t, a) in s.builds.iter_mut().zip(&row.ports) {
            t.add(a);
        }
    }

    /// The totals so far.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Every position of `suite` in order, each row handed to `on_row` as it is done (an
    /// error of `on_row` stops the run); the totals.
    pub fn run<E: From<CompareError>>(
        &mut self,
        suite: &CompareSuite,
        mut on_row: impl FnMut(&Row) -> Result<(), E>,
    ) -> Result<Summary, E> {
        for p in &suite.positions {
            let row = self.position(p)?;
            on_row(&row)?;
        }
        Ok(self.summary.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::port;

    const SUITE: &str = "# two positions\n\
        4k3/8/8/8/8/8/4P3/4K3 w - - 0 1; id \"pawn\"; bm Kd2;\n\
        4k3/8/8/8/8/8/8/R3K3 w - - 0 1; id \"rook\";\n";

    #[test]
    fn a_row_is_built_from_each_engines_outcome() {
        let p = ComparePosition::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let native = reference(&p, 3);
        let engine = PortEngine::assemble(&port::Z80).unwrap();
        let history = p.game.reference_history();
        let mut out = engine.search(p.game.position(), &history, 3, None).unwrap();
        let machine = port::Z80.default_machine();
        let mut row = Row::new(&p, &native);
        row.add_port(&p, &port::Z80, machine, &out);
        assert!(row.agree, "{row:?}");
        assert_eq!(row.status(), Status::Ok);
        let run = row.ports[0].run().unwrap();
        assert_eq!(run.answer.nodes, native.nodes);
        assert_eq!(run.answer.solved, None, "a typed position expects nothing");
        assert_eq!(run.seconds, machine.duration(out.cycles).as_secs_f64());
        // Another node count is a difference, named.
        out.result.nodes += 1;
        row.add_port(&p, &port::Z80, machine, &out);
        assert!(!row.agree);
        assert_eq!(row.status(), Status::Diff);
        assert_eq!(row.ports[1].run().unwrap().differs, [Difference::Nodes]);
        // A failed build is reported before a difference.
        row.add_port_error(&port::M6502, port::M6502.default_machine(), "gone".into());
        assert_eq!(row.status(), Status::Error);
        assert_eq!(row.errors().collect::<Vec<_>>(), ["gone"]);
        let v = serde_json::to_value(&row).unwrap();
        assert_eq!(v["ports"][1]["result"]["ran"]["differs"][0], "nodes");
        assert_eq!(v["ports"][2]["result"]["error"], "gone");
        assert_eq!(v["native"]["best"], native.best.unwrap().to_uci());
    }

    #[test]
    fn a_suite_is_compared_with_totals_and_bm_scores() {
        let suite = CompareSuite::parse(SUITE, "two.epd").unwrap();
        assert_eq!(suite.scored(), 1);
        let engine = PortEngine::assemble(&port::M6502).unwrap();
        let machine = port::M6502.default_machine();
        let builds = vec![Contender::new(engine, machine)];
        let mut c = Comparison::new(&suite.name, 2, builds, true).unwrap();
        let mut ids = Vec::new();
        let s = c
            .run(&suite, |row| -> Result<(), CompareError> {
                ids.push(row.id.clone());
                assert!(row.full.is_some());
                Ok(())
            })
            .unwrap();
        assert_eq!(ids, ["pawn", "rook"]);
        assert_eq!((s.positions, s.agree, s.scored), (2, 2, 1));
        let b = &s.builds[0];
        assert_eq!((b.cpu, b.errors), ("6502", 0));
        assert!(b.nodes > 0 && b.cycles > 0);
        assert_eq!(b.nodes_per_second, machine.per_second(b.nodes, b.cycles));
        assert!(s.full_solved.is_some());
        assert!(matches!(
            Comparison::new("x", 33, Vec::new(), false),
            Err(CompareError::Depth(33))
        ));
        assert!(matches!(
            CompareSuite::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1; bm Qd8;\n", "bad.epd"),
            Err(CompareError::Expected(_))
        ));
    }
}
