//! Differential testing of a port's engine (Z80, 6502) against the native reference search: a case is a
//! position plus the history both engines get, a check is a search (depth, optional node
//! limit) or a perft, and [`compare`] runs both and reports the first field that differs.
//! The generators make cases from seeded random games (with a bias towards repetitions and
//! captures), from random piece placements and with raised halfmove clocks, so that a run is
//! reproducible from its seed.
//!
//! Cases print as EPD lines ([`Case::to_epd`]) and read back from them ([`Case::from_entry`])
//! with these operations besides `moves`:
//!
//! - `history all|none|N`: the history handed to both engines: the game's keys (at most 101),
//!   none, or the last `N + 1` keys; without it, [`Game::reference_history`];
//! - `clock N`: the halfmove clock of the searched position is set to `N` after the moves are
//!   played (the history stays as played), for the fifty-move rule;
//! - `depth D`, `nodes "N1 N2@D ..."`, `perft D`: the checks (see [`Case::checks`]).
//!
//! `roms-src/tests/differential.rs` runs a seeded sample and the regression file with it;
//! `cargo run --release -p kempelen-roms --example portfuzz -- --cpu z80|6502` runs long campaigns.

use std::fmt;

use kempelen_engine::piece::{self, BLACK, KING, PAWN, WHITE};
use kempelen_engine::reference::{ReferenceLimits, ReferenceSearch};
use kempelen_engine::square;
use kempelen_engine::{Game, Move, Position};

use crate::engine::{PortEngine, PortEngineError};
use crate::suite::SuiteEntry;

/// A seeded xorshift64* generator: every case of a run follows from the seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; 0 is mapped to a fixed non-zero state).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Which history a case hands to both engines (ALGORITHM.md section 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryMode {
    /// [`Game::reference_history`]: the last `min(halfmove clock, 100)` keys and the root.
    Reference,
    /// Every key of the game, at most the last 101 (may be longer than the halfmove clock).
    All,
    /// No history at all (both engines then use the root's key alone).
    None,
    /// The last `n + 1` keys of the game (`n` earlier positions and the root), `n <= 100`.
    Last(usize),
}

/// One position to compare: a start FEN, moves played from it (they give the history), the
/// history mode and an optional halfmove clock override.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The start position (six-field FEN).
    pub fen: String,
    /// UCI moves played from it; the searched position is the one after them.
    pub moves: Vec<String>,
    /// What history both engines get.
    pub history: HistoryMode,
    /// Halfmove clock of the searched position, replacing the played one.
    pub clock: Option<u16>,
}

/// What to compare on a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// A search to `depth` (1..=32), with an optional node limit (ALGORITHM.md section 9).
    Search { depth: u32, nodes: Option<u32> },
    /// Perft to `depth`.
    Perft(u8),
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::Search { depth, nodes: None } => write!(f, "search depth {depth}"),
            Check::Search {
                depth,
                nodes: Some(n),
            } => write!(f, "search depth {depth} nodes {n}"),
            Check::Perft(d) => write!(f, "perft {d}"),
        }
    }
}

/// Both engines gave the same answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreement {
    /// Search nodes or perft leaves.
    pub count: u64,
    /// CPU cycles of the port's run.
    pub cycles: u64,
}

/// The engines disagree, the port's run failed, or the case was bad.
#[derive(Debug)]
pub enum Difference {
    /// A field differs: its name and both values.
    Field {
        field: &'static str,
        native: String,
        /// The port's value.
        ported: String,
        /// The port (`z80`, `6502`).
        cpu: &'static str,
    },
    /// The port's run ended with an error (an engine status or a machine fault).
    Error(PortEngineError),
    /// The case cannot be built (bad FEN or move): nothing was compared.
    Case(CaseError),
}

impl Difference {
    /// Whether the port stopped with the search-stack overflow status: the one error
    /// ALGORITHM.md section 10 allows instead of an answer ("stop, never a different result").
    pub fn is_stack_overflow(&self) -> bool {
        matches!(self, Difference::Error(PortEngineError::Status { code: 5 }))
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Field {
                field,
                native,
                ported,
                cpu,
            } => {
                write!(f, "{field}: native {native}, {cpu} {ported}")
            }
            Difference::Error(e) => write!(f, "port engine error: {e}"),
            Difference::Case(e) => write!(f, "bad case: {e}"),
        }
    }
}

/// A case that cannot be built (bad FEN, illegal move, bad operation).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CaseError(pub String);

fn uci_line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_uci())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Case {
    /// A case of a bare position (no moves, reference history).
    pub fn position(fen: &str) -> Case {
        Case {
            fen: fen.to_string(),
            moves: Vec::new(),
            history: HistoryMode::Reference,
            clock: None,
        }
    }

    /// The searched position and the history both engines get.
    pub fn build(&self) -> Result<(Position, Vec<u32>), CaseError> {
        let mut game = Game::from_fen(&self.fen).map_err(|e| CaseError(e.to_string()))?;
        for m in &self.moves {
            game.push_uci(m)
                .map_err(|e| CaseError(format!("move {m}: {e}")))?;
        }
        let keys = game.keys();
        let mut history = match self.history {
            HistoryMode::Reference => game.reference_history(),
            HistoryMode::All => keys[keys.len().saturating_sub(101)..].to_vec(),
            HistoryMode::None => Vec::new(),
            HistoryMode::Last(n) => keys[keys.len().saturating_sub(n.min(100) + 1)..].to_vec(),
        };
        let mut pos = game.position().clone();
        if let Some(c) = self.clock {
            let fen = pos.to_fen();
            let mut f: Vec<&str> = fen.split(' ').collect();
            let c = c.to_string();
            f[4] = &c;
            pos = Position::from_fen(&f.join(" ")).map_err(|e| CaseError(e.to_string()))?;
            // The clock does not enter the key: the history still ends with the root.
            debug_assert!(history.last().is_none_or(|&k| k == pos.key()));
        }
        history.truncate(101);
        Ok((pos, history))
    }

    /// The case as the start of an EPD line (FEN and the case's operations).
    pub fn to_epd(&self) -> String {
        let mut s = self.fen.clone();
        if !self.moves.is_empty() {
            s.push_str(&format!("; moves \"{}\"", self.moves.join(" ")));
        }
        match self.history {
            HistoryMode::Reference => {}
            HistoryMode::All => s.push_str("; history all"),
            HistoryMode::None => s.push_str("; history none"),
            HistoryMode::Last(n) => s.push_str(&format!("; history {n}")),
        }
        if let Some(c) = self.clock {
            s.push_str(&format!("; clock {c}"));
        }
        s
    }

    /// The case of a suite entry (its FEN, `moves`, `history` and `clock`).
    pub fn from_entry(e: &SuiteEntry) -> Result<Case, CaseError> {
        let op = |name: &str| {
            e.ops
                .iter()
                .find(|(c, _)| c == name)
                .map(|(_, v)| v.clone())
        };
        let history = match op("history").as_deref() {
            None => HistoryMode::Reference,
            Some("all") => HistoryMode::All,
            Some("none") => HistoryMode::None,
            Some(n) => HistoryMode::Last(
                n.parse()
                    .map_err(|_| CaseError(format!("line {}: bad history '{n}'", e.line)))?,
            ),
        };
        let clock = match op("clock") {
            None => None,
            Some(c) => Some(
                c.parse()
                    .map_err(|_| CaseError(format!("line {}: bad clock '{c}'", e.line)))?,
            ),
        };
        Ok(Case {
            fen: e.fen.clone(),
            moves: e.moves.clone(),
            history,
            clock,
        })
    }

    /// The checks a suite entry asks for: `depth D` = searches to depths 1..=D, `nodes "N
    /// ..."` = a node-limited search per limit (`N` at depth 32, `N@D` at depth `D`),
    /// `perft D` = perft 1..=D.
    pub fn checks(e: &SuiteEntry) -> Result<Vec<Check>, CaseError> {
        let bad = |what: &str, v: &str| CaseError(format!("line {}: bad {what} '{v}'", e.line));
        let mut out = Vec::new();
        for (code, v) in &e.ops {
            match code.as_str() {
                "depth" => {
                    let d: u32 = v.parse().map_err(|_| bad("depth", v))?;
                    out.extend((1..=d).map(|depth| Check::Search { depth, nodes: None }));
                }
                "nodes" => {
                    for item in v.split_whitespace() {
                        let (n, d) = item.split_once('@').unwrap_or((item, "32"));
                        let n: u32 = n.parse().map_err(|_| bad("node limit", item))?;
                        let depth: u32 = d.parse().map_err(|_| bad("node limit", item))?;
                        out.push(Check::Search {
                            depth,
                            nodes: Some(n),
                        });
                    }
                }
                "perft" => {
                    let d: u8 = v.parse().map_err(|_| bad("perft depth", v))?;
                    out.extend((1..=d).map(Check::Perft));
                }
                _ => {}
            }
        }
        Ok(out)
    }
}

/// Runs `check` on `case` with the native reference and a port's engine and compares best
/// move, score, principal variation, completed depth and node count (or the perft count).
pub fn compare(engine: &PortEngine, case: &Case, check: Check) -> Result<Agreement, Difference> {
    let (pos, history) = case.build().map_err(Difference::Case)?;
    compare_position(engine, &pos, &history, check)
}

/// [`compare`] on a position and history.
pub fn compare_position(
    engine: &PortEngine,
    pos: &Position,
    history: &[u32],
    check: Check,
) -> Result<Agreement, Difference> {
    let cpu = engine.port().id;
    let field = |field: &'static str, native: String, ported: String| {
        Err(Difference::Field {
            field,
            native,
            ported,
            cpu,
        })
    };
    match check {
        // The port runs first: when it stops with an error (a deep perft that fills the frame
        // area, say) the native run, which may be out of reach, is not needed.
        Check::Perft(d) => {
            let z = engine.perft(pos, d).map_err(Difference::Error)?;
            let native = kempelen_engine::perft(pos, d as u32);
            if z.count != native {
                return field("perft", native.to_string(), z.count.to_string());
            }
            Ok(Agreement {
                count: native,
                cycles: z.cycles,
            })
        }
        Check::Search { depth, nodes } => {
            let z = engine
                .search(pos, history, depth, nodes)
                .map_err(Difference::Error)?;
            let native = native_search(pos, history, depth, nodes);
            let r = &z.result;
            let mv = |m: Option<Move>| m.map_or("none".to_string(), |m| m.to_uci());
            if r.best != native.best {
                return field("best move", mv(native.best), mv(r.best));
            }
            if r.score != native.score {
                return field("score", native.score.to_string(), r.score.to_string());
            }
            if r.pv != native.pv {
                return field("principal variation", uci_line(&native.pv), uci_line(&r.pv));
            }
            if r.depth != native.depth {
                return field(
                    "completed depth",
                    native.depth.to_string(),
                    r.depth.to_string(),
                );
            }
            if r.nodes != native.nodes {
                return field("nodes", native.nodes.to_string(), r.nodes.to_string());
            }
            Ok(Agreement {
                count: native.nodes,
                cycles: z.cycles,
            })
        }
    }
}

/// The native reference search with the port request's parameters.
pub fn native_search(
    pos: &Position,
    history: &[u32],
    depth: u32,
    nodes: Option<u32>,
) -> kempelen_engine::SearchResult {
    let limits = ReferenceLimits {
        depth: Some(depth),
        nodes: nodes.map(u64::from),
        ..ReferenceLimits::default()
    };
    ReferenceSearch::new(pos, history, limits).run()
}

/// Plays `plies` random legal moves from `start` (fewer if the game ends): a quarter of the
/// moves take back the mover's previous move when they can (repetitions), a third of the
/// others are captures when there are any (all game phases).
pub fn random_playout(rng: &mut Rng, start: &Position, plies: usize) -> Vec<Move> {
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        let list = legal.as_slice();
        if list.is_empty() {
            break;
        }
        let mut choice = None;
        if moves.len() >= 2 && rng.chance(25) {
            let back = moves[moves.len() - 2];
            choice = list
                .iter()
                .copied()
                .find(|m| m.from() == back.to() && m.to() == back.from() && m.promotion() == 0);
        }
        if choice.is_none() && rng.chance(33) {
            let captures: Vec<Move> = list
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m))
                .collect();
            if !captures.is_empty() {
                choice = Some(*rng.pick(&captures));
            }
        }
        let m = choice.unwrap_or_else(|| *rng.pick(list));
        pos.play(m);
        moves.push(m);
    }
    moves
}

/// Start positions of the random games: the start position and the positions of the native
/// engine's perft suite (`engine/tests/data/perft_suite.epd`).
pub fn starts() -> Vec<String> {
    let mut s = vec![kempelen_engine::START_FEN.to_string()];
    for line in include_str!("../../engine/tests/data/perft_suite.epd").lines() {
        if !line.starts_with('#') && !line.trim().is_empty() {
            s.extend(line.split(';').next().map(|f| f.trim().to_string()));
        }
    }
    s
}

/// A case from a random game of up to `max_plies` plies from one of `starts`, with a random
/// history mode and, one time in eight, a raised halfmove clock (90..=150). A start that is
/// not a valid FEN is an error.
pub fn random_game_case(
    rng: &mut Rng,
    starts: &[String],
    max_plies: usize,
) -> Result<Case, CaseError> {
    let fen = rng.pick(starts).clone();
    let start =
        Position::from_fen(&fen).map_err(|e| CaseError(format!("start position {fen}: {e}")))?;
    let plies = rng.range(0, max_plies as u64) as usize;
    let moves = random_playout(rng, &start, plies);
    let history = match rng.below(10) {
        0 => HistoryMode::All,
        1 => HistoryMode::None,
        2 => HistoryMode::Last(rng.range(0, 100) as usize),
        _ => HistoryMode::Reference,
    };
    let clock = if rng.chance(12) {
        Some(rng.range(90, 150) as u16)
    } else {
        None
    };
    Ok(Case {
        fen,
        moves: moves.iter().map(|m| m.to_uci()).collect(),
        history,
        clock,
    })
}

/// Piece sets for [`random_placement`]: per side, the count of each non-king type
/// (pawn, knight, bishop, rook, queen).
fn random_material(rng: &mut Rng) -> [u8; 5] {
    match rng.below(8) {
        // bare king, or one minor / one rook (null-move npm limits 320, 330, 500)
        0 => {
            let mut m = [0; 5];
            match rng.below(4) {
                0 => {}
                1 => m[1] = 1,
                2 => m[2] = 1,
                _ => m[3] = 1,
            }
            m[0] = rng.range(0, 3) as u8;
            m
        }
        // a few pieces
        1..=3 => [
            rng.range(0, 4) as u8,
            rng.range(0, 1) as u8,
            rng.range(0, 1) as u8,
            rng.range(0, 1) as u8,
            rng.range(0, 1) as u8,
        ],
        // many queens (move-list and search-stack size)
        4 => [0, rng.range(0, 2) as u8, rng.range(0, 2) as u8, 2, 9],
        // pawns about to promote
        5 => [rng.range(2, 6) as u8, 0, 0, rng.range(0, 1) as u8, 0],
        // a middle game
        _ => [
            rng.range(3, 8) as u8,
            rng.range(0, 2) as u8,
            rng.range(0, 2) as u8,
            rng.range(0, 2) as u8,
            rng.range(0, 1) as u8,
        ],
    }
}

/// A random legal position: kings and random material (see `random_material`) on random
/// squares, pawns often on the ranks before promotion, castling rights where king and rook
/// stand at home, sometimes an en-passant square. `None` when the drawn placement is
/// illegal (for example the side not to move in check).
pub fn random_placement(rng: &mut Rng) -> Option<String> {
    let mut board = [0u8; 64];
    let take = |rng: &mut Rng, board: &mut [u8; 64], p: u8, allowed: &dyn Fn(usize) -> bool| {
        let candidates: Vec<usize> = (0..64).filter(|&s| board[s] == 0 && allowed(s)).collect();
        if !candidates.is_empty() {
            board[*rng.pick(&candidates)] = p;
        }
    };
    let any = |_: usize| true;
    // Kings at home half of the time, so that castling happens.
    for colour in [WHITE, BLACK] {
        let home = if colour == WHITE { 4 } else { 60 };
        if rng.chance(40) && board[home] == 0 {
            board[home] = KING | colour;
        } else {
            take(rng, &mut board, KING | colour, &any);
        }
    }
    for colour in [WHITE, BLACK] {
        let m = random_material(rng);
        for (i, &n) in m.iter().enumerate() {
            let t = i as u8 + 1;
            for _ in 0..n {
                if t == PAWN {
                    let near = rng.chance(30);
                    let promo_rank = if colour == WHITE { 6 } else { 1 };
                    take(rng, &mut board, PAWN | colour, &|s: usize| {
                        let r = s / 8;
                        (1..=6).contains(&r) && (!near || r == promo_rank)
                    });
                } else if t == piece::ROOK && rng.chance(50) {
                    let home = if colour == WHITE {
                        [0usize, 7]
                    } else {
                        [56, 63]
                    };
                    take(rng, &mut board, t | colour, &|s: usize| home.contains(&s));
                } else {
                    take(rng, &mut board, t | colour, &any);
                }
            }
        }
    }
    let side = if rng.chance(50) { WHITE } else { BLACK };
    let mut castling = String::new();
    for (c, king, rook, colour) in [
        ('K', 4, 7, WHITE),
        ('Q', 4, 0, WHITE),
        ('k', 60, 63, BLACK),
        ('q', 60, 56, BLACK),
    ] {
        if board[king] == KING | colour && board[rook] == piece::ROOK | colour && rng.chance(75) {
            castling.push(c);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    // En passant: a pawn of the side not to move that may just have made a double push.
    let mut ep = "-".to_string();
    if rng.chance(40) {
        let (rank, dir): (usize, isize) = if side == WHITE { (4, 8) } else { (3, -8) };
        let them = side ^ BLACK;
        let candidates: Vec<usize> = (0..8)
            .map(|f| rank * 8 + f)
            .filter(|&s| {
                let behind = (s as isize + dir) as usize;
                let origin = (s as isize + 2 * dir) as usize;
                board[s] == PAWN | them && board[behind] == 0 && board[origin] == 0
            })
            .collect();
        if !candidates.is_empty() {
            let s = *rng.pick(&candidates);
            ep = square::name(square::sq88((s as isize + dir) as usize));
        }
    }
    let clock = if rng.chance(10) {
        rng.range(95, 150)
    } else {
        rng.range(0, 20)
    };
    let fen = format!(
        "{} {} {castling} {ep} {clock} {}",
        placement(&board),
        if side == WHITE { "w" } else { "b" },
        rng.range(1, 80)
    );
    Position::from_fen(&fen).ok().map(|_| fen)
}

/// The FEN piece-placement field of a 64-square board (a1 = 0).
fn placement(board: &[u8; 64]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let p = board[rank * 8 + file];
            if p == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(piece::to_char(p));
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Smaller cases that may show the same difference, simplest first: the searched position
/// alone (no moves), then with one piece (not a king) taken off, for every piece.
pub fn simplifications(case: &Case) -> Vec<Case> {
    let Ok((pos, _)) = case.build() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if !case.moves.is_empty() || case.history != HistoryMode::Reference {
        let mut c = Case::position(&pos.to_fen());
        c.clock = None;
        out.push(c);
    }
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    for sq in 0..128u8 {
        let p = pos.piece_at(sq);
        if sq & 0x88 != 0 || p == 0 || piece::piece_type(p) == KING {
            continue;
        }
        let mut board: [u8; 64] = std::array::from_fn(|s| pos.piece_at(square::sq88(s)));
        board[square::sq64(sq)] = 0;
        // Rights and en passant that the removal breaks are dropped.
        for (castling, ep) in [
            (fields[2].to_string(), fields[3].to_string()),
            (fields[2].to_string(), "-".to_string()),
            ("-".to_string(), "-".to_string()),
        ] {
            let f = format!(
                "{} {} {castling} {ep} {} {}",
                placement(&board),
                fields[1],
                fields[4],
                fields[5]
            );
            if Position::from_fen(&f).is_ok() {
                out.push(Case::position(&f));
                break;
            }
        }
    }
    out
}

/// Shrinks a failing case: repeatedly takes the first simplification (and the smallest
/// depth) that still fails the same way, until none does. Returns the case, the check and
/// the difference.
pub fn minimize(
    engine: &PortEngine,
    case: &Case,
    check: Check,
    first: Difference,
) -> (Case, Check, Difference) {
    let same_kind = |a: &Difference, b: &Difference| match (a, b) {
        (Difference::Field { .. }, Difference::Field { .. }) => true,
        (Difference::Error(x), Difference::Error(y)) => x.to_string() == y.to_string(),
        _ => false,
    };
    let (mut case, mut check, mut diff) = (case.clone(), check, first);
    // The smallest depth that still fails.
    let lower: Vec<Check> = match check {
        Check::Search { depth, nodes: None } => (1..depth)
            .map(|d| Check::Search {
                depth: d,
                nodes: None,
            })
            .collect(),
        Check::Perft(d) => (1..d).map(Check::Perft).collect(),
        Check::Search { .. } => Vec::new(),
    };
    for c in lower {
        if let Err(d) = compare(engine, &case, c) {
            check = c;
            diff = d;
            break;
        }
    }
    'outer: loop {
        for smaller in simplifications(&case) {
            if let Err(d) = compare(engine, &smaller, check) {
                if same_kind(&d, &diff) {
                    case = smaller;
                    diff = d;
                    continue 'outer;
                }
            }
        }
        return (case, check, diff);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_round_trip_through_epd() {
        let case = Case {
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            moves: vec!["g1f3".into(), "g8f6".into(), "f3g1".into()],
            history: HistoryMode::Last(2),
            clock: Some(99),
        };
        let line = format!("{}; depth 2; nodes \"5 70@3\"; perft 1", case.to_epd());
        let entries = crate::suite::parse(&line, "t.epd").unwrap();
        assert_eq!(Case::from_entry(&entries[0]).unwrap(), case);
        let checks = Case::checks(&entries[0]).unwrap();
        assert_eq!(checks.len(), 5);
        assert_eq!(
            checks[3],
            Check::Search {
                depth: 3,
                nodes: Some(70)
            }
        );
        let (pos, history) = case.build().unwrap();
        assert_eq!(pos.halfmove_clock(), 99);
        assert_eq!(history.len(), 3);
        assert_eq!(history.last(), Some(&pos.key()));
    }

    #[test]
    fn generators_are_seeded_and_legal() {
        let starts = vec![kempelen_engine::START_FEN.to_string()];
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..50 {
            let x = random_game_case(&mut a, &starts, 120).unwrap();
            assert_eq!(x, random_game_case(&mut b, &starts, 120).unwrap());
            x.build().unwrap();
            if let Some(f) = random_placement(&mut a) {
                Position::from_fen(&f).unwrap();
            }
            let _ = random_placement(&mut b);
        }
    }
}
