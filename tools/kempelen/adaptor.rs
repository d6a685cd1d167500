//! Engine adaptors: a console chess program of the 1970s driven as a UCI engine.
//!
//! An adaptor file (TOML) tells Kempelen how to run a program and talk to it: the images and
//! the machine (a personality or Kempelen's own machine), the keys that start a new game,
//! enter the opponent's move, set the depth or a position, and ask for the program's move, and
//! a regular expression that finds the program's reply in its console text. `kempelen uci
//! --program FILE.toml` then plays through it; every time figure is emulated time at the
//! machine's clock. `adaptors/` holds files for Microchess and Sargon (which name where to get
//! the programs, never the programs) and the project's own Z80 console front end.
//!
//! A turn: the keys are queued, the machine runs until the program waits for input
//! ([`StopReason::InputWait`]), and the reply is read from what it printed in that turn.

use anyhow::{Context, Result, bail};
use kempelen_emulator::clock::{self, ClockProfile};
use kempelen_emulator::{Cpu, Machine, MemoryMap, Personality, StopReason};
use kempelen_engine::{
    Engine, EngineError, Game, Limits, Move, SearchControl, SearchInfo, SearchResult,
};
use regex::Regex;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use crate::run::{MachineChoice, machine_choice, read_image};

/// Default cycle budget of one turn.
const TURN_BUDGET: u64 = 100_000_000_000;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct AdaptorFile {
    name: String,
    /// A personality (built-in id or FILE.toml relative to the adaptor).
    machine: Option<String>,
    /// Without a personality: Kempelen's own machine for this CPU.
    cpu: Option<String>,
    /// The clock profile (default: the personality's, or the CPU's).
    clock: Option<String>,
    entry: Option<String>,
    turn_budget: Option<u64>,
    /// The colour the program can play (`white`, `black`; default either).
    plays: Option<String>,
    #[serde(default)]
    image: Vec<ImageSpec>,
    #[serde(default)]
    poke: Vec<PokeSpec>,
    /// Where the program comes from (documentation, printed by errors).
    source: Option<SourceSpec>,
    keys: Keys,
    reply: ReplySpec,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ImageSpec {
    /// Relative to the adaptor file; `$KEMPELEN_HISTORICAL/` is replaced by that variable.
    file: String,
    at: Option<String>,
    /// The file is a source: assemble it with Kempelen's assembler (and these dialect
    /// options) instead of loading it as an image.
    assemble: Option<AssembleSpec>,
    /// Keep only these ranges of the image (START-END).
    #[serde(default)]
    only: Vec<String>,
    sha256: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct AssembleSpec {
    /// `z80`, `6502` or `65c02`.
    cpu: String,
    /// `--ignore-case`.
    #[serde(default)]
    ignore_case: bool,
    /// `--overlap`: `error` (default) or `later-wins`.
    overlap: Option<String>,
}

impl AssembleSpec {
    /// Assembles `file` as `kempelen asm` would with these options: the image's bytes from
    /// the lowest to the highest address written.
    fn assemble(&self, file: &Path) -> Result<Vec<kempelen_emulator::loaders::Chunk>> {
        let cpu: kempelen_asm::Cpu = self.cpu.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
        let overlap = match self.overlap.as_deref() {
            None => kempelen_asm::Overlap::Error,
            Some(o) => o
                .parse()
                .map_err(|e: String| anyhow::anyhow!("overlap: {e}"))?,
        };
        let options = kempelen_asm::Options {
            ignore_case: self.ignore_case,
            overlap,
            ..kempelen_asm::Options::new(cpu)
        };
        let name = file.to_string_lossy();
        let out = kempelen_asm::assemble(&name, &kempelen_asm::source::FsSource, &options);
        if !out.is_ok() {
            bail!("assembling {}:\n{}", file.display(), out.report());
        }
        Ok(vec![kempelen_emulator::loaders::Chunk {
            addr: out.image.origin,
            bytes: out.image.bytes,
        }])
    }
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct PokeSpec {
    at: String,
    bytes: String,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SourceSpec {
    repository: String,
    commit: String,
    path: String,
    sha256: String,
    note: Option<String>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct Keys {
    /// Typed once after the program starts (answers to its questions).
    start: Option<String>,
    /// Typed to start a new game (default: restart the machine).
    new_game: Option<String>,
    /// The opponent's move: `{from}`, `{to}` (`{FROM}`, `{TO}` in capitals), `{promotion}`,
    /// `{move}`.
    #[serde(rename = "move")]
    move_: String,
    /// Whether the program answers a move by itself (default true).
    replies_to_moves: Option<bool>,
    /// Ask for the program's move.
    go: String,
    /// Set the search depth: `{depth}`.
    depth: Option<String>,
    /// Set up a position: `{fen}`.
    position: Option<String>,
    /// Castling is typed as two moves, the king's and then the rook's (default false).
    castle_rook: Option<bool>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct ReplySpec {
    /// A regular expression with a group `move` (from and to square and promotion) or groups
    /// `from` and `to`, or `castle` (`O-O`, `O-O-O`); optional groups `depth`, `score`,
    /// `nodes`.
    pattern: String,
    /// `algebraic` (e2) or `microchess` (two digits, rank then file counted from the h-file).
    squares: Option<String>,
    /// The program's reply is the last match (default) or the first.
    first: Option<bool>,
}

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Squares {
    Algebraic,
    Microchess,
}

impl Squares {
    /// From algebraic (`e2`) to the program's notation.
    fn encode(self, sq: &str) -> String {
        match self {
            Squares::Algebraic => sq.to_string(),
            Squares::Microchess => {
                let b = sq.as_bytes();
                let file = b[0] - b'a';
                let rank = b[1] - b'1';
                format!("{}{}", rank, 7 - file)
            }
        }
    }

    /// From the program's notation to algebraic.
    fn decode(self, text: &str) -> Option<String> {
        let b = text.as_bytes();
        match self {
            Squares::Algebraic => {
                let ok = b.len() == 2
                    && (b'a'..=b'h').contains(&b[0].to_ascii_lowercase())
                    && (b'1'..=b'8').contains(&b[1]);
                ok.then(|| text.to_ascii_lowercase())
            }
            Squares::Microchess => {
                let ok = b.len() == 2 && b.iter().all(|c| (b'0'..=b'7').contains(c));
                ok.then(|| format!("{}{}", (b'h' - (b[1] - b'0')) as char, b[0] - b'0' + 1))
            }
        }
    }
}

/// An adaptor, read and checked.
pub struct Adaptor {
    name: String,
    personality: Option<Personality>,
    cpu: Cpu,
    clock: &'static ClockProfile,
    entry: Option<u16>,
    turn_budget: u64,
    chunks: Vec<(u16, Vec<u8>)>,
    pokes: Vec<(u16, Vec<u8>)>,
    keys: Keys,
    reply: Regex,
    squares: Squares,
    first: bool,
    plays: Option<char>,
}

/// Expands `$KEMPELEN_HISTORICAL/` and makes a path relative to the adaptor's folder.
fn resolve(dir: &Path, file: &str) -> Result<PathBuf> {
    if let Some(rest) = file.strip_prefix("$KEMPELEN_HISTORICAL/") {
        let base = std::env::var("KEMPELEN_HISTORICAL").with_context(|| {
            format!("{file}: set KEMPELEN_HISTORICAL to the folder with the program")
        })?;
        return Ok(Path::new(&base).join(rest));
    }
    Ok(dir.join(file))
}

fn hex_bytes(s: &str) -> Result<Vec<u8>> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).with_context(|| format!("`{b}` is not a hex byte")))
        .collect()
}

fn addr(s: &str) -> Result<u16> {
    crate::run::parse_address(s).map_err(|e| anyhow::anyhow!(e))
}

impl Adaptor {
    /// Reads an adaptor file.
    pub fn from_file(path: &Path) -> Result<Adaptor> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let f: AdaptorFile = toml::from_str(&text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start).min(text.len());
            let line = text[..at].matches('\n').count() + 1;
            let col = text[..at]
                .rsplit('\n')
                .next()
                .map_or(0, |l| l.chars().count())
                + 1;
            anyhow::anyhow!("{}:{line}:{col}: {}", path.display(), e.message())
        })?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let personality = match &f.machine {
            None => None,
            Some(m) => {
                let m = if m.ends_with(".toml") {
                    dir.join(m).display().to_string()
                } else {
                    m.clone()
                };
                match machine_choice(&m)? {
                    MachineChoice::Personality(p) => Some(*p),
                    MachineChoice::Clock(_) => {
                        bail!(
                            "{}: machine `{m}` is a clock profile, not a personality (use `clock`)",
                            path.display()
                        )
                    }
                }
            }
        };
        let cpu = match (&personality, &f.cpu) {
            (Some(p), _) => p.cpu,
            (None, Some(c)) => c
                .parse::<Cpu>()
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
            (None, None) => bail!(
                "{}: give `machine` (a personality) or `cpu`",
                path.display()
            ),
        };
        let clock = match &f.clock {
            Some(id) => clock::machine(id)
                .with_context(|| format!("{}: unknown clock profile `{id}`", path.display()))?,
            None => personality
                .as_ref()
                .map_or_else(|| clock::default_machine(cpu), |p| p.clock),
        };
        let default_addr = personality.as_ref().and_then(|p| p.load).unwrap_or(0);
        let mut chunks: Vec<(u16, Vec<u8>)> = Vec::new();
        for img in &f.image {
            let file = resolve(dir, &img.file)?;
            if let Some(want) = &img.sha256 {
                let bytes = std::fs::read(&file).with_context(|| {
                    let from = f.source.as_ref().map_or(String::new(), |s| {
                        format!(
                            " (get it from {} at commit {}, {})",
                            s.repository, s.commit, s.path
                        )
                    });
                    format!("cannot read {}{from}", file.display())
                })?;
                let got = format!("{:x}", Sha256::digest(&bytes));
                if !got.eq_ignore_ascii_case(want) {
                    bail!(
                        "{}: SHA-256 {got}, the adaptor expects {want}",
                        file.display()
                    );
                }
            }
            let at = img.at.as_deref().map(addr).transpose()?;
            let mut parts = match &img.assemble {
                Some(spec) => spec.assemble(&file)?,
                None => read_image(&file, at, default_addr)?,
            };
            if !img.only.is_empty() {
                let ranges: Vec<kempelen_emulator::AddrRange> = img
                    .only
                    .iter()
                    .map(|r| r.parse().map_err(|e| anyhow::anyhow!("`only` {r}: {e}")))
                    .collect::<Result<_>>()?;
                parts = parts
                    .into_iter()
                    .flat_map(|c| {
                        let ranges = ranges.clone();
                        c.bytes
                            .iter()
                            .enumerate()
                            .filter(move |(i, _)| {
                                let a = c.addr.wrapping_add(*i as u16);
                                ranges.iter().any(|r| r.contains(a))
                            })
                            .map(move |(i, b)| kempelen_emulator::loaders::Chunk {
                                addr: c.addr.wrapping_add(i as u16),
                                bytes: vec![*b],
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect();
            }
            for c in parts {
                match chunks.last_mut() {
                    Some((a, b)) if usize::from(*a) + b.len() == usize::from(c.addr) => {
                        b.extend(&c.bytes)
                    }
                    _ => chunks.push((c.addr, c.bytes)),
                }
            }
        }
        if chunks.is_empty() {
            bail!("{}: no `[[image]]`", path.display());
        }
        let pokes = f
            .poke
            .iter()
            .map(|p| Ok((addr(&p.at)?, hex_bytes(&p.bytes)?)))
            .collect::<Result<Vec<_>>>()?;
        let reply = Regex::new(&f.reply.pattern)
            .with_context(|| format!("{}: reply pattern", path.display()))?;
        let has = |n: &str| reply.capture_names().any(|c| c == Some(n));
        if !(has("move") || has("castle") || (has("from") && has("to"))) {
            bail!(
                "{}: the reply pattern needs a group `move`, or groups `from` and `to`",
                path.display()
            );
        }
        let squares = match f.reply.squares.as_deref() {
            None | Some("algebraic") => Squares::Algebraic,
            Some("microchess") => Squares::Microchess,
            Some(s) => bail!(
                "{}: unknown squares `{s}` (algebraic, microchess)",
                path.display()
            ),
        };
        Ok(Adaptor {
            name: f.name,
            personality,
            cpu,
            clock,
            entry: f.entry.as_deref().map(addr).transpose()?,
            turn_budget: f.turn_budget.unwrap_or(TURN_BUDGET),
            chunks,
            pokes,
            keys: f.keys,
            reply,
            squares,
            first: f.reply.first.unwrap_or(false),
            plays: match f.plays.as_deref() {
                None => None,
                Some("white") => Some('w'),
                Some("black") => Some('b'),
                Some(p) => bail!("{}: plays = `{p}` (white, black)", path.display()),
            },
        })
    }

    /// A fresh machine with the program loaded, poked and run to its first wait for input.
    fn boot(&self) -> Result<(Machine, String), EngineError> {
        let be = |e: String| EngineError::Backend(e);
        let mut b = match &self.personality {
            Some(p) => p.builder(),
            None => Machine::builder(self.cpu).memory_map(MemoryMap::default_for(self.cpu)),
        };
        for (a, bytes) in &self.chunks {
            b = b.load(*a, bytes);
        }
        if let Some(e) = self.entry {
            b = b.entry(e);
        }
        let mut m = b.clock(self.clock).build().map_err(|e| be(e.to_string()))?;
        for (a, bytes) in &self.pokes {
            m.write_bytes(*a, bytes).map_err(|e| be(e.to_string()))?;
        }
        m.console_mut().set_stop_on_empty_input(true);
        let (out, _) = self.turn(&mut m, "")?;
        let mut text = out;
        if let Some(start) = &self.keys.start {
            let (out, _) = self.turn(&mut m, start)?;
            text.push_str(&out);
        }
        Ok((m, text))
    }

    /// Types `keys` and runs until the program waits for input; returns its output and the
    /// cycles of the turn.
    fn turn(&self, m: &mut Machine, keys: &str) -> Result<(String, u64), EngineError> {
        m.console_mut().push_input(keys.as_bytes());
        let stats = m.run(self.turn_budget).map_err(|e| {
            let out = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
            EngineError::Backend(format!("{}: {e}; output: {}", self.name, one_line(&out)))
        })?;
        let out = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
        match stats.stop {
            StopReason::InputWait { .. } => Ok((out, stats.cycles)),
            stop => Err(EngineError::Backend(format!(
                "{}: the program stopped ({stop}) instead of waiting for input; output: {}",
                self.name,
                one_line(&out)
            ))),
        }
    }

    /// The keys for the opponent's move `mv` in `game` (before the move).
    fn keys_for(&self, game_before: &kempelen_engine::Position, mv: &Move) -> String {
        let uci = mv.to_uci();
        let mut keys = self.move_keys(&uci);
        if self.keys.castle_rook.unwrap_or(false) {
            let fen = game_before.to_fen();
            let board = fen.split(' ').next().unwrap_or("");
            let king_from = &uci[0..2];
            // The piece on the from square, from the FEN's board field.
            let file = (king_from.as_bytes()[0] - b'a') as usize;
            let rank = (king_from.as_bytes()[1] - b'1') as usize;
            let row = board.split('/').nth(7 - rank).unwrap_or("");
            let mut col = 0;
            let mut piece = ' ';
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    col += d as usize;
                } else {
                    if col == file {
                        piece = c;
                    }
                    col += 1;
                }
            }
            let r = &uci[1..2];
            let rook = match (piece.to_ascii_lowercase(), &uci[0..1], &uci[2..3]) {
                ('k', "e", "g") => Some(format!("h{r}f{r}")),
                ('k', "e", "c") => Some(format!("a{r}d{r}")),
                _ => None,
            };
            if let Some(rook) = rook {
                keys.push_str(&self.move_keys(&rook));
            }
        }
        keys
    }

    fn move_keys(&self, uci: &str) -> String {
        let from = self.squares.encode(&uci[0..2]);
        let to = self.squares.encode(&uci[2..4]);
        self.keys
            .move_
            .replace("{from}", &from)
            .replace("{to}", &to)
            .replace("{FROM}", &from.to_ascii_uppercase())
            .replace("{TO}", &to.to_ascii_uppercase())
            .replace("{promotion}", uci.get(4..).unwrap_or(""))
            .replace("{move}", uci)
    }
}

/// What the machine's thread is asked to do.
enum Cmd {
    /// A fresh machine, run to its first wait for input.
    Boot,
    /// Type the keys and run to the next wait.
    Turn(String),
}

/// The program's output of a step and the cycles it took.
type Reply = Result<(String, u64), EngineError>;

/// The machine lives on a thread of its own (a [`Machine`] stays on the thread that built
/// it); the engine talks to it through channels.
struct Worker {
    tx: mpsc::Sender<Cmd>,
    rx: mpsc::Receiver<Reply>,
}

impl Worker {
    fn spawn(adaptor: Arc<Adaptor>) -> Worker {
        let (tx, cmds) = mpsc::channel::<Cmd>();
        let (replies, rx) = mpsc::channel::<Reply>();
        std::thread::spawn(move || {
            let mut machine: Option<Machine> = None;
            for cmd in cmds {
                let reply = match cmd {
                    Cmd::Boot => adaptor.boot().map(|(m, out)| {
                        machine = Some(m);
                        (out, 0)
                    }),
                    Cmd::Turn(keys) => match machine.as_mut() {
                        Some(m) => adaptor.turn(m, &keys),
                        None => Err(EngineError::Backend("the program is not running".into())),
                    },
                };
                if replies.send(reply).is_err() {
                    break;
                }
            }
        });
        Worker { tx, rx }
    }

    fn ask(&self, cmd: Cmd) -> Reply {
        self.tx
            .send(cmd)
            .map_err(|_| EngineError::Backend("the machine's thread has ended".into()))?;
        self.rx
            .recv()
            .map_err(|_| EngineError::Backend("the machine's thread has ended".into()))?
    }
}

/// Console text on one line (for an error that UCI prints as one `info string`), the last
/// 300 characters.
fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let n = flat.chars().count();
    flat.chars().skip(n.saturating_sub(300)).collect()
}

/// `game` without its last move.
fn before_last(game: &Game) -> Game {
    let mut g = Game::new(game.start().clone());
    let n = game.moves().len().saturating_sub(1);
    for m in &game.moves()[..n] {
        g.push(*m).expect("a move of the game");
    }
    g
}

/// An adaptor as a UCI engine.
pub struct AdaptorEngine {
    adaptor: Arc<Adaptor>,
    /// The running program, if any.
    worker: Option<Worker>,
    /// The game as the program knows it: start FEN and moves.
    known: Option<(String, Vec<Move>)>,
}

impl AdaptorEngine {
    /// An engine for the adaptor file at `path`.
    pub fn new(path: &Path) -> Result<AdaptorEngine> {
        Ok(AdaptorEngine {
            adaptor: Arc::new(Adaptor::from_file(path)?),
            worker: None,
            known: None,
        })
    }
}

impl Engine for AdaptorEngine {
    fn name(&self) -> String {
        format!("{} (in Kempelen's emulator)", self.adaptor.name)
    }

    fn perft(&mut self, _pos: &kempelen_engine::Position, _depth: u32) -> Result<u64, EngineError> {
        Err(EngineError::Unsupported(
            "perft: an adapted program only plays".into(),
        ))
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.known = None;
        Ok(())
    }

    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
    ) -> Result<SearchResult, EngineError> {
        let a = Arc::clone(&self.adaptor);
        if let Some(side) = a.plays {
            let fen = game.position().to_fen();
            if fen.split(' ').nth(1) != Some(&side.to_string()[..]) {
                return Err(EngineError::Unsupported(format!(
                    "{} plays {} only",
                    a.name,
                    if side == 'w' { "White" } else { "Black" }
                )));
            }
        }
        let start = game.start().to_fen();
        let moves = game.moves().to_vec();
        let mut keys = String::new();
        if let (Some(d), Some(t)) = (limits.depth, &a.keys.depth) {
            keys.push_str(&t.replace("{depth}", &d.to_string()));
        }
        let replies = a.keys.replies_to_moves.unwrap_or(true);
        let synced = match (&self.known, &self.worker) {
            (Some((fen, known)), Some(_)) if *fen == start && moves.starts_with(known) => {
                match moves.len() - known.len() {
                    0 => {
                        keys.push_str(&a.keys.go);
                        true
                    }
                    1 => {
                        let mut before = game.clone();
                        while before.moves().len() > known.len() {
                            before = before_last(&before);
                        }
                        keys.push_str(&a.keys_for(before.position(), &moves[known.len()]));
                        if !replies {
                            keys.push_str(&a.keys.go);
                        }
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        };
        if !synced {
            // Start afresh: a new machine (or the program's new-game keys), then the position.
            match (&self.worker, &a.keys.new_game) {
                (Some(w), Some(n)) => {
                    w.ask(Cmd::Turn(n.clone()))?;
                }
                _ => {
                    let w = Worker::spawn(Arc::clone(&a));
                    w.ask(Cmd::Boot)?;
                    self.worker = Some(w);
                }
            }
            let standard = start == kempelen_engine::START_FEN;
            if moves.is_empty() && standard {
                keys.push_str(&a.keys.go);
            } else if let Some(p) = &a.keys.position {
                keys.push_str(&p.replace("{fen}", &game.position().to_fen()));
                keys.push_str(&a.keys.go);
            } else if standard && moves.len() == 1 {
                let start_pos = kempelen_engine::Position::startpos();
                keys.push_str(&a.keys_for(&start_pos, &moves[0]));
                if !replies {
                    keys.push_str(&a.keys.go);
                }
            } else {
                return Err(EngineError::Unsupported(format!(
                    "{} cannot be set up in this position (its adaptor has no `position` keys)",
                    a.name
                )));
            }
        }
        let w = self.worker.as_ref().expect("a running program");
        let (out, cycles) = match w.ask(Cmd::Turn(keys)) {
            Ok(r) => r,
            Err(e) => {
                self.worker = None;
                self.known = None;
                return Err(e);
            }
        };
        let caps: Vec<regex::Captures> = a.reply.captures_iter(&out).collect();
        let cap = if a.first { caps.first() } else { caps.last() };
        let Some(cap) = cap else {
            self.known = None;
            return Err(EngineError::Backend(format!(
                "{}: no reply matching `{}` in: {}",
                a.name,
                a.reply.as_str(),
                one_line(&out)
            )));
        };
        let white = game.position().to_fen().split(' ').nth(1) == Some("w");
        let rank = if white { '1' } else { '8' };
        let text = match (cap.name("move"), cap.name("castle")) {
            (_, Some(c)) if c.as_str().len() > 3 => {
                format!("e{rank}c{rank}")
            }
            (_, Some(_)) => format!("e{rank}g{rank}"),
            (Some(mv), None) => mv.as_str().to_ascii_lowercase(),
            (None, None) => {
                let sq = |n: &str| cap.name(n).and_then(|t| a.squares.decode(t.as_str()));
                match (sq("from"), sq("to")) {
                    (Some(f), Some(t)) => format!("{f}{t}"),
                    _ => String::new(),
                }
            }
        };
        let mut after = game.clone();
        let best = after.push_uci(&text).map_err(|e| {
            EngineError::Backend(format!(
                "{}: its reply `{text}` is not legal here: {e}",
                a.name
            ))
        })?;
        let mut known = moves;
        known.push(best);
        self.known = Some((start, known));
        let num = |n: &str| cap.name(n).and_then(|t| t.as_str().parse::<i64>().ok());
        let time = a.clock.duration(cycles);
        let depth = num("depth").map_or(limits.depth.unwrap_or(0), |d| d as u32);
        let nodes = num("nodes").map_or(0, |n| n as u64);
        let score = num("score").map_or(0, |s| s as i32);
        control.report(&SearchInfo {
            depth,
            seldepth: depth,
            score,
            nodes,
            time,
            pv: vec![best],
            hashfull: None,
        });
        Ok(SearchResult {
            best: Some(best),
            score,
            pv: vec![best],
            depth,
            nodes,
            time: time.max(Duration::from_nanos(1)),
        })
    }
}
