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
    /// The search depth typed for `{depth}`.
    depth: Option<DepthSpec>,
    /// How `{board}` is typed.
    board: Option<BoardSpec>,
    /// How the program is set up in a position: steps run on a freshly booted machine.
    #[serde(default)]
    setup: Vec<SetupStep>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct DepthSpec {
    /// When the search has no depth limit (default 1).
    default: Option<u32>,
    /// The deepest the program's keys accept (default 9: one digit).
    max: Option<u32>,
}

/// How a board is typed square by square (`{board}`).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct BoardSpec {
    /// The first square: `a1` (a1 to h1, then a2 ... h8) or `a8` (a8 to h8, then a7 ... h1).
    first: String,
    /// An empty square.
    empty: String,
    /// A piece: `{piece}` (its letter from `pieces`), `{colour}` (`keys.white` or
    /// `keys.black`), `{moved}` (the first or second of `moved`).
    piece: String,
    /// The letters of pawn, knight, bishop, rook, queen and king (default `PNBRQK`).
    pieces: Option<String>,
    /// Whether the piece has not moved / has moved (default `["0", "1"]`).
    moved: Option<[String; 2]>,
}

/// One step of setting up a position.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct SetupStep {
    /// Keys to type (placeholders: `{board}`, `{player}`, `{program}`, `{to_move}`,
    /// `{depth}`, `{fullmove}`, `{fen}`).
    keys: Option<String>,
    /// Restart the program at its entry with RAM kept (as from a monitor's go command).
    #[serde(default)]
    restart: bool,
    /// Bytes written to RAM.
    #[serde(default)]
    poke: Vec<SetupPoke>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct SetupPoke {
    /// An address, or a symbol of an assembled `[[image]]`.
    at: String,
    /// A number or a placeholder (`{depth}` is the depth asked for, not limited by `max`).
    value: String,
    /// The least value written.
    min: Option<u8>,
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
    fn assemble(
        &self,
        file: &Path,
        symbols: &mut Vec<(String, u16)>,
    ) -> Result<Vec<kempelen_emulator::loaders::Chunk>> {
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
        symbols.extend(out.symbols.iter().map(|s| (s.name.clone(), s.value)));
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
    /// Typed after the program starts, for a game from the start position (answers to its
    /// questions; `{player}`, `{program}`: the colours, `{depth}`).
    start: Option<String>,
    /// Typed instead of `start` when the program plays Black from the start position.
    start_black: Option<String>,
    /// Typed to start a new game (default: restart the machine).
    new_game: Option<String>,
    /// The opponent's move: `{from}`, `{to}` (`{FROM}`, `{TO}` in capitals), `{promotion}`,
    /// `{move}`.
    #[serde(rename = "move")]
    move_: String,
    /// Whether the program answers a move by itself (default true).
    replies_to_moves: Option<bool>,
    /// Ask for the program's move (none: the program moves by itself when it is its turn).
    go: Option<String>,
    /// Set the search depth: `{depth}`.
    depth: Option<String>,
    /// Set up a position: `{fen}`.
    position: Option<String>,
    /// Castling is typed as two moves, the king's and then the rook's (default false).
    castle_rook: Option<bool>,
    /// How the program names White and Black in `{player}`, `{program}`, `{to_move}` and
    /// `{colour}` (default `W`, `B`).
    white: Option<String>,
    black: Option<String>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct ReplySpec {
    /// A regular expression with a group `move` (from and to square and promotion) or groups
    /// `from` and `to`, or `castle` (`O-O`, `O-O-O`), or `en_passant` (the capture en passant,
    /// when the program does not name the squares); optional groups `depth`, `score`,
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
    /// From algebraic (`e2`) to the program's notation. `program_black`: Microchess playing
    /// Black (after its E command) sees the board turned round: rank and file counted from
    /// the other side.
    fn encode(self, sq: &str, program_black: bool) -> String {
        match self {
            Squares::Algebraic => sq.to_string(),
            Squares::Microchess => {
                let b = sq.as_bytes();
                let file = b[0] - b'a';
                let rank = b[1] - b'1';
                if program_black {
                    format!("{}{}", 7 - rank, file)
                } else {
                    format!("{}{}", rank, 7 - file)
                }
            }
        }
    }

    /// From the program's notation to algebraic.
    fn decode(self, text: &str, program_black: bool) -> Option<String> {
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
                ok.then(|| {
                    let (r, f) = (b[0] - b'0', b[1] - b'0');
                    if program_black {
                        format!("{}{}", (b'a' + f) as char, 8 - r)
                    } else {
                        format!("{}{}", (b'h' - f) as char, r + 1)
                    }
                })
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
    depth: DepthSpec,
    board: Option<BoardSpec>,
    setup: Vec<SetupStep>,
    /// Symbols of the assembled images (for `at` in pokes).
    symbols: Vec<(String, u16)>,
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

/// A symbol of the assembled images (exact spelling first, then ignoring case), or an address.
fn symbol_or_addr(symbols: &[(String, u16)], s: &str) -> Result<u16> {
    let found = symbols
        .iter()
        .find(|(n, _)| n == s)
        .or_else(|| symbols.iter().find(|(n, _)| n.eq_ignore_ascii_case(s)));
    match found {
        Some((_, v)) => Ok(*v),
        None => addr(s).map_err(|e| {
            if symbols.is_empty() {
                e
            } else {
                anyhow::anyhow!("`{s}` is neither a symbol of the assembled source nor an address")
            }
        }),
    }
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
        let mut symbols: Vec<(String, u16)> = Vec::new();
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
                Some(spec) => spec.assemble(&file, &mut symbols)?,
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
            .map(|p| Ok((symbol_or_addr(&symbols, &p.at)?, hex_bytes(&p.bytes)?)))
            .collect::<Result<Vec<_>>>()?;
        for step in &f.setup {
            for p in &step.poke {
                symbol_or_addr(&symbols, &p.at)
                    .with_context(|| format!("{}: [[setup]] poke", path.display()))?;
            }
            if step.restart && f.entry.is_none() {
                bail!(
                    "{}: a [[setup]] step restarts the program: give its `entry`",
                    path.display()
                );
            }
            let uses_board = step.keys.as_deref().is_some_and(|k| k.contains("{board}"));
            if uses_board && f.board.is_none() {
                bail!(
                    "{}: a [[setup]] step types {{board}}: describe it in [board]",
                    path.display()
                );
            }
        }
        if let Some(b) = &f.board {
            if b.first != "a1" && b.first != "a8" {
                bail!("{}: [board] first = `{}` (a1, a8)", path.display(), b.first);
            }
            if b.pieces.as_ref().is_some_and(|p| p.chars().count() != 6) {
                bail!(
                    "{}: [board] pieces: six letters (pawn, knight, bishop, rook, queen, king)",
                    path.display()
                );
            }
        }
        let reply = Regex::new(&f.reply.pattern)
            .with_context(|| format!("{}: reply pattern", path.display()))?;
        let has = |n: &str| reply.capture_names().any(|c| c == Some(n));
        if !(has("move") || has("castle") || has("en_passant") || (has("from") && has("to"))) {
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
            depth: f.depth.unwrap_or(DepthSpec {
                default: None,
                max: None,
            }),
            board: f.board,
            setup: f.setup,
            symbols,
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
        Ok((m, out))
    }

    /// Restarts the program at its entry, RAM kept, and runs it to its next wait for input.
    fn restart(&self, m: &mut Machine) -> Result<(String, u64), EngineError> {
        let entry = self.entry.ok_or_else(|| {
            EngineError::Backend(format!("{}: no entry to restart at", self.name))
        })?;
        m.set_pc(entry);
        self.turn(m, "")
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
        // The move is the opponent's: the program plays the other colour.
        let program_black = FenParts::of(game_before).side == 'w';
        let mut keys = self.move_keys(&uci, program_black);
        if self.keys.castle_rook.unwrap_or(false) {
            let b = uci.as_bytes();
            let piece =
                FenParts::of(game_before).board[usize::from(b[1] - b'1')][usize::from(b[0] - b'a')];
            let r = &uci[1..2];
            let rook = match (piece.to_ascii_lowercase(), &uci[0..1], &uci[2..3]) {
                ('k', "e", "g") => Some(format!("h{r}f{r}")),
                ('k', "e", "c") => Some(format!("a{r}d{r}")),
                _ => None,
            };
            if let Some(rook) = rook {
                keys.push_str(&self.move_keys(&rook, program_black));
            }
        }
        keys
    }

    /// The depth for `{depth}`: the search's depth limit, else the adaptor's default.
    fn depth_for(&self, limit: Option<u32>) -> u32 {
        self.depth
            .clamp(limit.unwrap_or(self.depth.default.unwrap_or(1)))
    }

    fn colour(&self, white: bool) -> &str {
        if white {
            self.keys.white.as_deref().unwrap_or("W")
        } else {
            self.keys.black.as_deref().unwrap_or("B")
        }
    }

    /// `{board}`: the squares of `p` typed in the order of `[board]`.
    fn board_keys(&self, p: &FenParts) -> String {
        let Some(spec) = &self.board else {
            return String::new();
        };
        let letters: Vec<char> = spec.pieces.as_deref().unwrap_or("PNBRQK").chars().collect();
        let moved = spec
            .moved
            .clone()
            .unwrap_or_else(|| ["0".to_string(), "1".to_string()]);
        let ranks: Vec<usize> = if spec.first == "a8" {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        };
        let mut out = String::new();
        for rank in ranks {
            for file in 0..8 {
                let c = p.board[rank][file];
                if c == ' ' {
                    out.push_str(&spec.empty);
                    continue;
                }
                let kind = "pnbrqk"
                    .find(c.to_ascii_lowercase())
                    .expect("a FEN piece letter");
                out.push_str(
                    &spec
                        .piece
                        .replace("{piece}", &letters[kind].to_string())
                        .replace("{colour}", self.colour(c.is_ascii_uppercase()))
                        .replace("{moved}", &moved[usize::from(!p.unmoved(rank, file, c))]),
                );
            }
        }
        out
    }

    /// Fills the placeholders of keys and pokes: the program plays the side to move of the
    /// game (`{program}`; its opponent `{player}`), set up in `base` (`{to_move}`, `{fen}`,
    /// `{fullmove}`, `{board}`), at `depth` (`{depth}`, and `{depth}` unlimited in pokes).
    fn fill(&self, text: &str, program_white: bool, base: &FenParts, depth: u32) -> String {
        let mut out = text
            .replace("{player}", self.colour(!program_white))
            .replace("{program}", self.colour(program_white))
            .replace("{to_move}", self.colour(base.side == 'w'))
            .replace("{depth}", &depth.to_string())
            .replace("{fullmove}", &base.fullmove.to_string())
            .replace("{fen}", &base.fen());
        if out.contains("{board}") {
            out = out.replace("{board}", &self.board_keys(base));
        }
        out
    }

    /// How to bring `game` into a freshly started program (see [`base_of`]).
    fn plan(&self, game: &Game, limit: Option<u32>) -> Result<Plan, EngineError> {
        let depth = self.depth_for(limit);
        let target = FenParts::of(game.position());
        let program_white = target.side == 'w';
        let (base, last) = base_of(game);
        let base = FenParts::of(&base);
        let at_start = base.same(&FenParts::of(&kempelen_engine::Position::startpos()));
        let go = self.keys.go.as_deref().unwrap_or("");
        let replies = self.keys.replies_to_moves.unwrap_or(true);
        let start = match (&self.keys.start_black, program_white) {
            (Some(k), false) => Some(k),
            _ => self.keys.start.as_ref(),
        }
        .map_or(String::new(), |k| self.fill(k, program_white, &base, depth));
        let then = |m: &Move| {
            let mut k = self.keys_for(&base_position(&base), m);
            if !replies {
                k.push_str(go);
            }
            k
        };
        // The new-game keys start a game with the program as White.
        let fresh_keys = program_white || self.keys.start_black.is_none();
        let keys = |k: String| Plan {
            start: start.clone(),
            actions: vec![Action::Keys(k)],
            fresh_keys,
        };
        match (at_start, last, &self.keys.position) {
            (true, None, _) => Ok(keys(go.to_string())),
            (_, _, Some(p)) => {
                let fen = FenParts::of(game.position());
                Ok(keys(self.fill(p, program_white, &fen, depth) + go))
            }
            (true, Some(m), _) => Ok(keys(then(&m))),
            _ if !self.setup.is_empty() => {
                let mut actions = Vec::new();
                for step in &self.setup {
                    if let Some(k) = &step.keys {
                        actions.push(Action::Keys(self.fill(k, program_white, &base, depth)));
                    }
                    if step.restart {
                        actions.push(Action::Restart);
                    }
                    if !step.poke.is_empty() {
                        let mut bytes = Vec::new();
                        for p in &step.poke {
                            bytes.push(self.poke_value(p, program_white, &base, limit)?);
                        }
                        actions.push(Action::Poke(bytes));
                    }
                }
                // The reply is read from what the program prints after the last keys only.
                actions.push(Action::Flush);
                actions.push(Action::Keys(match last {
                    Some(m) => then(&m),
                    None => go.to_string(),
                }));
                Ok(Plan {
                    start: String::new(),
                    actions,
                    fresh_keys: false,
                })
            }
            _ => Err(EngineError::Unsupported(format!(
                "{} cannot be set up in this position (its adaptor has no `position` keys or [[setup]])",
                self.name
            ))),
        }
    }

    /// A `[[setup]]` poke's address and byte.
    fn poke_value(
        &self,
        p: &SetupPoke,
        program_white: bool,
        base: &FenParts,
        limit: Option<u32>,
    ) -> Result<(u16, u8), EngineError> {
        let be = |e: String| EngineError::Backend(format!("{}: [[setup]] poke: {e}", self.name));
        let at = symbol_or_addr(&self.symbols, &p.at).map_err(|e| be(e.to_string()))?;
        let depth = limit.unwrap_or(self.depth.default.unwrap_or(1));
        let text = self.fill(&p.value, program_white, base, depth);
        let n: u32 = text
            .trim()
            .parse()
            .map_err(|_| be(format!("value `{text}` is not a number")))?;
        let n = n.max(u32::from(p.min.unwrap_or(0)));
        let b = u8::try_from(n).map_err(|_| be(format!("value {n} does not fit in a byte")))?;
        Ok((at, b))
    }

    fn move_keys(&self, uci: &str, program_black: bool) -> String {
        let from = self.squares.encode(&uci[0..2], program_black);
        let to = self.squares.encode(&uci[2..4], program_black);
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
    /// Restart the program at its entry (RAM kept) and run to the next wait.
    Restart,
    /// Write bytes to RAM.
    Poke(Vec<(u16, u8)>),
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
                    Cmd::Restart => match machine.as_mut() {
                        Some(m) => adaptor.restart(m),
                        None => Err(EngineError::Backend("the program is not running".into())),
                    },
                    Cmd::Poke(bytes) => match machine.as_mut() {
                        Some(m) => bytes
                            .iter()
                            .try_for_each(|(a, b)| m.write_bytes(*a, &[*b]))
                            .map(|_| (String::new(), 0))
                            .map_err(|e| EngineError::Backend(e.to_string())),
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

/// What is done to the running program, in order.
#[derive(Debug, PartialEq, Eq)]
enum Action {
    Keys(String),
    /// Type the keys queued so far as a turn of their own.
    Flush,
    Restart,
    Poke(Vec<(u16, u8)>),
}

/// Runs the actions; returns what the program printed in the last turn that typed keys (or,
/// when no keys were typed after a restart, in the restart) and the cycles of that turn.
fn run_actions(w: &Worker, actions: Vec<Action>) -> Reply {
    let mut last = (String::new(), 0);
    let mut pending = String::new();
    for action in actions {
        match action {
            Action::Keys(k) => pending.push_str(&k),
            other => {
                if !pending.is_empty() {
                    last = w.ask(Cmd::Turn(std::mem::take(&mut pending)))?;
                }
                match other {
                    Action::Flush => {}
                    Action::Restart => last = w.ask(Cmd::Restart)?,
                    Action::Poke(bytes) => {
                        w.ask(Cmd::Poke(bytes))?;
                    }
                    Action::Keys(_) => unreachable!("keys are pending"),
                }
            }
        }
    }
    if !pending.is_empty() {
        last = w.ask(Cmd::Turn(pending))?;
    }
    Ok(last)
}

/// How a game is brought into the program: the keys typed on a freshly booted program, the
/// actions after them, and whether the program's new-game keys may stand for the fresh boot
/// and its start keys.
struct Plan {
    start: String,
    actions: Vec<Action>,
    fresh_keys: bool,
}

impl DepthSpec {
    /// A depth as the program's keys accept it.
    fn clamp(&self, d: u32) -> u32 {
        d.clamp(1, self.max.unwrap_or(9).max(1))
    }
}

/// A position's FEN fields, the board as `[rank][file]` characters (`' '` empty, rank 0 =
/// the first rank).
#[derive(Clone, Debug, PartialEq, Eq)]
struct FenParts {
    board: [[char; 8]; 8],
    side: char,
    castling: String,
    ep: String,
    halfmove: u32,
    fullmove: u32,
}

impl FenParts {
    fn of(p: &kempelen_engine::Position) -> FenParts {
        let fen = p.to_fen();
        let f: Vec<&str> = fen.split(' ').collect();
        let mut board = [[' '; 8]; 8];
        for (i, row) in f[0].split('/').enumerate() {
            let mut file = 0;
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(d) => file += d as usize,
                    None => {
                        board[7 - i][file] = c;
                        file += 1;
                    }
                }
            }
        }
        FenParts {
            board,
            side: f[1].chars().next().unwrap_or('w'),
            castling: f[2].to_string(),
            ep: f[3].to_string(),
            halfmove: f.get(4).and_then(|n| n.parse().ok()).unwrap_or(0),
            fullmove: f.get(5).and_then(|n| n.parse().ok()).unwrap_or(1),
        }
    }

    fn fen(&self) -> String {
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|r| {
                let mut row = String::new();
                let mut gap = 0;
                for c in self.board[r] {
                    if c == ' ' {
                        gap += 1;
                    } else {
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                            gap = 0;
                        }
                        row.push(c);
                    }
                }
                if gap > 0 {
                    row.push_str(&gap.to_string());
                }
                row
            })
            .collect();
        format!(
            "{} {} {} {} {} {}",
            rows.join("/"),
            self.side,
            self.castling,
            self.ep,
            self.halfmove,
            self.fullmove
        )
    }

    /// Board, side and castling rights: what makes two positions the same here.
    fn same(&self, other: &FenParts) -> bool {
        self.board == other.board && self.side == other.side && self.castling == other.castling
    }

    /// Whether the piece `c` on (`rank`, `file`) counts as never moved: a pawn on its second
    /// rank, a knight, bishop or queen on its original square, a king at home with a castling
    /// right, a rook in its corner with its castling right (or with its king away from home,
    /// when castling is impossible anyway).
    fn unmoved(&self, rank: usize, file: usize, c: char) -> bool {
        let white = c.is_ascii_uppercase();
        let home = if white { 0 } else { 7 };
        let (short, long, king) = if white {
            ('K', 'Q', 'K')
        } else {
            ('k', 'q', 'k')
        };
        let right = |r: char| self.castling.contains(r);
        let king_home = self.board[home][4] == king;
        match c.to_ascii_lowercase() {
            'p' => rank == if white { 1 } else { 6 },
            'n' => rank == home && (file == 1 || file == 6),
            'b' => rank == home && (file == 2 || file == 5),
            'q' => rank == home && file == 3,
            'k' => rank == home && file == 4 && (right(short) || right(long)),
            'r' => {
                rank == home
                    && ((file == 7 && (right(short) || !king_home))
                        || (file == 0 && (right(long) || !king_home)))
            }
            _ => false,
        }
    }
}

/// The position of `p` (parsed from its own FEN).
fn base_position(p: &FenParts) -> kempelen_engine::Position {
    kempelen_engine::Position::from_fen(&p.fen()).expect("a FEN written from a position")
}

/// The position before a pawn's double step that the FEN's en-passant square names, and
/// that step.
fn undo_double_step(t: &FenParts) -> Option<(kempelen_engine::Position, Move)> {
    let b = t.ep.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let file = usize::from(b[0].checked_sub(b'a')?);
    if file > 7 {
        return None;
    }
    let (pawn, from, to, passed, side, fullmove) = match (b[1], t.side) {
        (b'3', 'b') => ('P', 1, 3, 2, 'w', t.fullmove),
        (b'6', 'w') => ('p', 6, 4, 5, 'b', t.fullmove.saturating_sub(1).max(1)),
        _ => return None,
    };
    if t.board[to][file] != pawn || t.board[passed][file] != ' ' || t.board[from][file] != ' ' {
        return None;
    }
    let mut base = t.clone();
    base.board[to][file] = ' ';
    base.board[from][file] = pawn;
    base.side = side;
    base.ep = "-".into();
    base.halfmove = 0;
    base.fullmove = fullmove;
    let pos = kempelen_engine::Position::from_fen(&base.fen()).ok()?;
    let f = (b'a' + file as u8) as char;
    let uci = format!("{f}{}{f}{}", from + 1, to + 1);
    let mut g = Game::new(pos.clone());
    let m = g.push_uci(&uci).ok()?;
    FenParts::of(g.position()).same(t).then_some((pos, m))
}

/// The move from the start position that leads to `target`, if one does.
fn one_move_from_start(target: &FenParts) -> Option<Move> {
    let start = kempelen_engine::Position::startpos();
    start.legal_moves().iter().copied().find(|&m| {
        let mut p = start.clone();
        p.play(m);
        FenParts::of(&p).same(target)
    })
}

/// The position to set the program up in and the move to type after it, if any: the game's
/// last move, the double step the FEN's en-passant square names (the program then knows it),
/// or the first move of a game from the start; else the position itself.
fn base_of(game: &Game) -> (kempelen_engine::Position, Option<Move>) {
    if let Some(&last) = game.moves().last() {
        return (before_last(game).position().clone(), Some(last));
    }
    let target = FenParts::of(game.position());
    if let Some((pos, m)) = undo_double_step(&target) {
        return (pos, Some(m));
    }
    if let Some(m) = one_move_from_start(&target) {
        return (kempelen_engine::Position::startpos(), Some(m));
    }
    (game.position().clone(), None)
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
        let depth = a.depth_for(limits.depth);
        let mut keys = String::new();
        if let (Some(d), Some(t)) = (limits.depth, &a.keys.depth) {
            keys.push_str(&t.replace("{depth}", &a.depth.clamp(d).to_string()));
        }
        let replies = a.keys.replies_to_moves.unwrap_or(true);
        let synced = match (&self.known, &self.worker) {
            (Some((fen, known)), Some(_)) if *fen == start && moves.starts_with(known) => {
                match (moves.len() - known.len(), &a.keys.go) {
                    (0, Some(go)) => {
                        keys.push_str(go);
                        true
                    }
                    (1, go) => {
                        let mut before = game.clone();
                        while before.moves().len() > known.len() {
                            before = before_last(&before);
                        }
                        keys.push_str(&a.keys_for(before.position(), &moves[known.len()]));
                        if !replies {
                            keys.push_str(go.as_deref().unwrap_or(""));
                        }
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        };
        let actions = if synced {
            vec![Action::Keys(keys)]
        } else {
            let plan = a.plan(game, limits.depth)?;
            // A fresh program: the new-game keys if it has them and the plan starts from
            // its own start, else a new machine.
            let mut actions = Vec::new();
            match (&self.worker, &a.keys.new_game, plan.fresh_keys) {
                (Some(w), Some(n), true) => {
                    if let Err(e) = w.ask(Cmd::Turn(n.clone())) {
                        self.worker = None;
                        self.known = None;
                        return Err(e);
                    }
                }
                _ => {
                    self.worker = None;
                    let w = Worker::spawn(Arc::clone(&a));
                    w.ask(Cmd::Boot)?;
                    self.worker = Some(w);
                    // Start keys as a turn of their own (the program answers its questions).
                    actions.push(Action::Keys(plan.start));
                    actions.push(Action::Flush);
                }
            }
            actions.push(Action::Keys(keys));
            actions.extend(plan.actions);
            actions
        };
        let w = self.worker.as_ref().expect("a running program");
        let (out, cycles) = match run_actions(w, actions) {
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
            _ if cap.name("en_passant").is_some() => {
                let pos = game.position();
                let ep: Vec<Move> = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_en_passant(m))
                    .collect();
                match ep.as_slice() {
                    [m] => m.to_uci(),
                    [] => {
                        return Err(EngineError::Backend(format!(
                            "{}: it replies with an en-passant capture, and there is none here",
                            a.name
                        )));
                    }
                    _ => {
                        return Err(EngineError::Backend(format!(
                            "{}: it replies with an en-passant capture without saying which pawn takes ({} can)",
                            a.name,
                            ep.iter().map(|m| m.to_uci()).collect::<Vec<_>>().join(", ")
                        )));
                    }
                }
            }
            (_, Some(c)) if c.as_str().len() > 3 => {
                format!("e{rank}c{rank}")
            }
            (_, Some(_)) => format!("e{rank}g{rank}"),
            (Some(mv), None) => mv.as_str().to_ascii_lowercase(),
            (None, None) => {
                let sq = |n: &str| {
                    cap.name(n)
                        .and_then(|t| a.squares.decode(t.as_str(), !white))
                };
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
        let depth = num("depth").map_or(depth, |d| d as u32);
        let nodes = num("nodes").map_or(0, |n| n as u64);
        let score = num("score").map_or(0, |s| s as i32);
        control.report(&SearchInfo {
            depth,
            seldepth: 0,
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

#[cfg(test)]
mod tests {
    use super::*;
    use kempelen_engine::Position;

    fn parts(fen: &str) -> FenParts {
        FenParts::of(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn unmoved_pieces_follow_their_squares_and_castling_rights() {
        let p = parts("r3k2r/1p4p1/8/8/8/8/P6P/R3K1NR w Kq - 0 20");
        // White: the h-rook keeps its right, the a-rook lost its right with the king at home.
        assert!(p.unmoved(0, 7, 'R'));
        assert!(!p.unmoved(0, 0, 'R'));
        assert!(p.unmoved(0, 4, 'K'));
        assert!(p.unmoved(0, 6, 'N'));
        assert!(p.unmoved(1, 0, 'P'));
        // Black: only the long right; the b- and g-pawns are at home.
        assert!(p.unmoved(7, 0, 'r'));
        assert!(!p.unmoved(7, 7, 'r'));
        assert!(p.unmoved(7, 4, 'k'));
        assert!(p.unmoved(6, 1, 'p'));
        // A king without rights counts as moved; a rook in its corner with its king away
        // from home as never moved.
        let p = parts("4k2r/8/8/8/8/8/8/R5K1 w - - 0 40");
        assert!(!p.unmoved(7, 4, 'k'));
        assert!(p.unmoved(0, 0, 'R'));
        assert!(!p.unmoved(7, 7, 'r'));
    }

    #[test]
    fn microchess_squares_turn_round_when_it_plays_black() {
        let m = Squares::Microchess;
        // As White: rank, then file counted from the h-file.
        assert_eq!(m.encode("e2", false), "13");
        assert_eq!(m.decode("13", false).as_deref(), Some("e2"));
        // As Black (after E): the board seen from the other side.
        assert_eq!(m.encode("e2", true), "64");
        assert_eq!(m.encode("e4", true), "44");
        assert_eq!(m.decode("14", true).as_deref(), Some("e7"));
        assert_eq!(m.decode("34", true).as_deref(), Some("e5"));
        for sq in ["a1", "h8", "c6", "f3"] {
            for black in [false, true] {
                assert_eq!(m.decode(&m.encode(sq, black), black).as_deref(), Some(sq));
            }
        }
        assert_eq!(m.decode("8A", true), None);
        assert_eq!(m.decode(" ", false), None);
    }

    #[test]
    fn an_en_passant_square_is_set_up_as_the_double_step_before_it() {
        let t = parts("7k/8/8/8/Pp6/4K3/8/8 b - a3 0 7");
        let (base, m) = undo_double_step(&t).unwrap();
        assert_eq!(base.to_fen(), "7k/8/8/8/1p6/4K3/P7/8 w - - 0 7");
        assert_eq!(m.to_uci(), "a2a4");
        let t = parts("8/8/3k4/6Pp/8/8/8/K7 w - h6 0 30");
        let (base, m) = undo_double_step(&t).unwrap();
        assert_eq!(base.to_fen(), "8/7p/3k4/6P1/8/8/8/K7 b - - 0 29");
        assert_eq!(m.to_uci(), "h7h5");
        // No pawn where the square says: no double step.
        assert!(undo_double_step(&parts("7k/8/8/8/8/4K3/8/8 b - - 0 1")).is_none());
    }

    #[test]
    fn the_base_position_is_the_one_before_a_known_last_move() {
        let g =
            Game::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1").unwrap();
        let (base, m) = base_of(&g);
        assert_eq!(base.to_fen(), Position::startpos().to_fen());
        assert_eq!(m.unwrap().to_uci(), "g1f3");
        let mut g = Game::new(Position::startpos());
        g.push_uci("e2e4").unwrap();
        g.push_uci("c7c5").unwrap();
        let (base, m) = base_of(&g);
        assert_eq!(m.unwrap().to_uci(), "c7c5");
        assert!(
            base.to_fen()
                .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
        );
        let g = Game::from_fen("B6k/8/8/8/8/8/8/7K w - - 0 1").unwrap();
        let (base, m) = base_of(&g);
        assert!(m.is_none());
        assert_eq!(base.to_fen(), g.position().to_fen());
    }
}
