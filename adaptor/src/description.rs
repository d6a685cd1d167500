//! The adaptor file: what it may say (the TOML fields, documented on each), read and checked
//! into an [`Adaptor`]: the machine and its clock, the images (loaded, checked against their
//! SHA-256, or assembled with Kempelen's assembler), the keys, the reply pattern.

use kempelen_emulator::clock::{self, ClockProfile};
use kempelen_emulator::resolve::{self, MachineChoice};
use kempelen_emulator::{Cpu, Personality};
use regex::Regex;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

use crate::error::AdaptorError;

type Result<T> = std::result::Result<T, AdaptorError>;

/// Default cycle budget of one turn.
const TURN_BUDGET: u64 = 100_000_000_000;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct AdaptorFile {
    pub(crate) name: String,
    /// A personality (built-in id or FILE.toml relative to the adaptor).
    pub(crate) machine: Option<String>,
    /// Without a personality: Kempelen's own machine for this CPU.
    pub(crate) cpu: Option<String>,
    /// The clock profile (default: the personality's, or the CPU's).
    pub(crate) clock: Option<String>,
    pub(crate) entry: Option<String>,
    pub(crate) turn_budget: Option<u64>,
    /// The colour the program can play (`white`, `black`; default either).
    pub(crate) plays: Option<String>,
    #[serde(default)]
    pub(crate) image: Vec<ImageSpec>,
    #[serde(default)]
    pub(crate) poke: Vec<PokeSpec>,
    /// Where the program comes from (documentation, printed by errors).
    pub(crate) source: Option<SourceSpec>,
    pub(crate) keys: Keys,
    pub(crate) reply: ReplySpec,
    /// The search depth typed for `{depth}`.
    pub(crate) depth: Option<DepthSpec>,
    /// How `{board}` is typed.
    pub(crate) board: Option<BoardSpec>,
    /// How the program is set up in a position: steps run on a freshly booted machine.
    #[serde(default)]
    pub(crate) setup: Vec<SetupStep>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct DepthSpec {
    /// When the search has no depth limit (default 1).
    pub(crate) default: Option<u32>,
    /// The deepest the program's keys accept (default 9: one digit).
    pub(crate) max: Option<u32>,
}

/// How a board is typed square by square (`{board}`).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardSpec {
    /// The first square: `a1` (a1 to h1, then a2 ... h8) or `a8` (a8 to h8, then a7 ... h1).
    pub(crate) first: String,
    /// An empty square.
    pub(crate) empty: String,
    /// A piece: `{piece}` (its letter from `pieces`), `{colour}` (`keys.white` or
    /// `keys.black`), `{moved}` (the first or second of `moved`).
    pub(crate) piece: String,
    /// The letters of pawn, knight, bishop, rook, queen and king (default `PNBRQK`).
    pub(crate) pieces: Option<String>,
    /// Whether the piece has not moved / has moved (default `["0", "1"]`).
    pub(crate) moved: Option<[String; 2]>,
}

/// One step of setting up a position.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetupStep {
    /// Keys to type (placeholders: `{board}`, `{player}`, `{program}`, `{to_move}`,
    /// `{depth}`, `{fullmove}`, `{fen}`).
    pub(crate) keys: Option<String>,
    /// Restart the program at its entry with RAM kept (as from a monitor's go command).
    #[serde(default)]
    pub(crate) restart: bool,
    /// Bytes written to RAM.
    #[serde(default)]
    pub(crate) poke: Vec<SetupPoke>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetupPoke {
    /// An address, or a symbol of an assembled `[[image]]`.
    pub(crate) at: String,
    /// A number or a placeholder (`{depth}` is the depth asked for, not limited by `max`).
    pub(crate) value: String,
    /// The least value written.
    pub(crate) min: Option<u8>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ImageSpec {
    /// Relative to the adaptor file; `$KEMPELEN_HISTORICAL/` is replaced by that variable.
    pub(crate) file: String,
    pub(crate) at: Option<String>,
    /// The file is a source: assemble it with Kempelen's assembler (and these dialect
    /// options) instead of loading it as an image.
    pub(crate) assemble: Option<AssembleSpec>,
    /// Keep only these ranges of the image (START-END).
    #[serde(default)]
    pub(crate) only: Vec<String>,
    pub(crate) sha256: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct AssembleSpec {
    /// `z80`, `6502` or `65c02`.
    pub(crate) cpu: String,
    /// `--ignore-case`.
    #[serde(default)]
    pub(crate) ignore_case: bool,
    /// `--overlap`: `error` (default) or `later-wins`.
    pub(crate) overlap: Option<String>,
}

impl AssembleSpec {
    /// Assembles `file` as `kempelen asm` would with these options: the image's bytes from
    /// the lowest to the highest address written.
    pub(crate) fn assemble(
        &self,
        file: &Path,
        symbols: &mut Vec<(String, u16)>,
    ) -> Result<Vec<kempelen_emulator::loaders::Chunk>> {
        let cpu: kempelen_asm::Cpu = self.cpu.parse()?;
        let overlap = match self.overlap.as_deref() {
            None => kempelen_asm::Overlap::Error,
            Some(o) => o.parse().map_err(AdaptorError::Overlap)?,
        };
        let options = kempelen_asm::Options {
            ignore_case: self.ignore_case,
            overlap,
            ..kempelen_asm::Options::new(cpu)
        };
        let name = file.to_string_lossy();
        let out = kempelen_asm::assemble(&name, &kempelen_asm::source::FsSource, &options);
        if !out.is_ok() {
            return Err(AdaptorError::Assembly {
                path: file.to_path_buf(),
                report: out.report(),
            });
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
    pub(crate) at: String,
    pub(crate) bytes: String,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SourceSpec {
    pub(crate) repository: String,
    pub(crate) commit: String,
    pub(crate) path: String,
    pub(crate) sha256: String,
    pub(crate) note: Option<String>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct Keys {
    /// Typed after the program starts, for a game from the start position (answers to its
    /// questions; `{player}`, `{program}`: the colours, `{depth}`).
    pub(crate) start: Option<String>,
    /// Typed instead of `start` when the program plays Black from the start position.
    pub(crate) start_black: Option<String>,
    /// Typed to start a new game (default: restart the machine).
    pub(crate) new_game: Option<String>,
    /// The opponent's move: `{from}`, `{to}` (`{FROM}`, `{TO}` in capitals), `{promotion}`,
    /// `{move}`.
    #[serde(rename = "move")]
    pub(crate) move_: String,
    /// Whether the program answers a move by itself (default true).
    pub(crate) replies_to_moves: Option<bool>,
    /// Ask for the program's move (none: the program moves by itself when it is its turn).
    pub(crate) go: Option<String>,
    /// Set the search depth: `{depth}`.
    pub(crate) depth: Option<String>,
    /// Set up a position: `{fen}`.
    pub(crate) position: Option<String>,
    /// Castling is typed as two moves, the king's and then the rook's (default false).
    pub(crate) castle_rook: Option<bool>,
    /// How the program names White and Black in `{player}`, `{program}`, `{to_move}` and
    /// `{colour}` (default `W`, `B`).
    pub(crate) white: Option<String>,
    pub(crate) black: Option<String>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReplySpec {
    /// A regular expression with a group `move` (from and to square and promotion) or groups
    /// `from` and `to`, or `castle` (`O-O`, `O-O-O`), or `en_passant` (the capture en passant,
    /// when the program does not name the squares); optional groups `depth`, `score`,
    /// `nodes`.
    pub(crate) pattern: String,
    /// `algebraic` (e2) or `microchess` (two digits, rank then file counted from the h-file).
    pub(crate) squares: Option<String>,
    /// The program's reply is the last match (default) or the first.
    pub(crate) first: Option<bool>,
}

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Squares {
    Algebraic,
    Microchess,
}

impl Squares {
    /// From algebraic (`e2`) to the program's notation. `program_black`: Microchess playing
    /// Black (after its E command) sees the board turned round: rank and file counted from
    /// the other side.
    pub(crate) fn encode(self, sq: &str, program_black: bool) -> String {
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
    pub(crate) fn decode(self, text: &str, program_black: bool) -> Option<String> {
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
    pub(crate) name: String,
    pub(crate) personality: Option<Personality>,
    pub(crate) cpu: Cpu,
    pub(crate) clock: &'static ClockProfile,
    pub(crate) entry: Option<u16>,
    pub(crate) turn_budget: u64,
    pub(crate) chunks: Vec<(u16, Vec<u8>)>,
    pub(crate) pokes: Vec<(u16, Vec<u8>)>,
    pub(crate) keys: Keys,
    pub(crate) reply: Regex,
    pub(crate) squares: Squares,
    pub(crate) first: bool,
    pub(crate) plays: Option<char>,
    pub(crate) depth: DepthSpec,
    pub(crate) board: Option<BoardSpec>,
    pub(crate) setup: Vec<SetupStep>,
    /// Symbols of the assembled images (for `at` in pokes).
    pub(crate) symbols: Vec<(String, u16)>,
}

/// Expands `$KEMPELEN_HISTORICAL/` and makes a path relative to the adaptor's folder.
fn resolve(dir: &Path, file: &str) -> Result<PathBuf> {
    if let Some(rest) = file.strip_prefix("$KEMPELEN_HISTORICAL/") {
        let base =
            std::env::var("KEMPELEN_HISTORICAL").map_err(|source| AdaptorError::Historical {
                file: file.to_string(),
                source,
            })?;
        return Ok(Path::new(&base).join(rest));
    }
    Ok(dir.join(file))
}

fn hex_bytes(s: &str) -> Result<Vec<u8>> {
    s.split_whitespace()
        .map(|b| {
            u8::from_str_radix(b, 16).map_err(|source| AdaptorError::HexByte {
                text: b.to_string(),
                source,
            })
        })
        .collect()
}

fn addr(s: &str) -> Result<u16> {
    Ok(resolve::address(s)?)
}

/// A symbol of the assembled images (exact spelling first, then ignoring case), or an address.
pub(crate) fn symbol_or_addr(symbols: &[(String, u16)], s: &str) -> Result<u16> {
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
                AdaptorError::Symbol(s.to_string())
            }
        }),
    }
}

impl Adaptor {
    /// Reads an adaptor file.
    pub fn from_file(path: &Path) -> Result<Adaptor> {
        // Bounded (an endless file ends in an error) and UTF-8.
        let text = kempelen_emulator::files::read_bounded(
            path,
            kempelen_emulator::personality::MAX_FILE_BYTES,
        )
        .and_then(|b| {
            String::from_utf8(b)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        })
        .map_err(|source| AdaptorError::Read {
            path: path.to_path_buf(),
            hint: String::new(),
            source,
        })?;
        let f: AdaptorFile = toml::from_str(&text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start).min(text.len());
            let line = text[..at].matches('\n').count() + 1;
            let col = text[..at]
                .rsplit('\n')
                .next()
                .map_or(0, |l| l.chars().count())
                + 1;
            AdaptorError::Syntax {
                path: path.to_path_buf(),
                line,
                col,
                message: e.message().to_string(),
            }
        })?;
        let invalid = |message: String| AdaptorError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        let personality = match &f.machine {
            None => None,
            Some(m) => {
                let m = if m.ends_with(".toml") {
                    dir.join(m).display().to_string()
                } else {
                    m.clone()
                };
                match resolve::machine(&m)? {
                    MachineChoice::Personality(p) => Some(*p),
                    MachineChoice::Clock(_) => {
                        return Err(invalid(format!(
                            "machine `{m}` is a clock profile, not a personality (use `clock`)"
                        )));
                    }
                }
            }
        };
        let cpu = match (&personality, &f.cpu) {
            (Some(p), _) => p.cpu,
            (None, Some(c)) => c.parse::<Cpu>().map_err(|e| invalid(e.to_string()))?,
            (None, None) => return Err(invalid("give `machine` (a personality) or `cpu`".into())),
        };
        let clock = match &f.clock {
            Some(id) => clock::machine(id)
                .ok_or_else(|| invalid(format!("unknown clock profile `{id}`")))?,
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
                let bytes = kempelen_emulator::files::read_bounded(
                    &file,
                    kempelen_emulator::files::MAX_TEXT_BYTES,
                )
                .map_err(|source| AdaptorError::Read {
                    path: file.clone(),
                    hint: f.source.as_ref().map_or(String::new(), |s| {
                        format!(
                            " (get it from {} at commit {}, {})",
                            s.repository, s.commit, s.path
                        )
                    }),
                    source,
                })?;
                let got = format!("{:x}", Sha256::digest(&bytes));
                if !got.eq_ignore_ascii_case(want) {
                    return Err(AdaptorError::Invalid {
                        path: file,
                        message: format!("SHA-256 {got}, the adaptor expects {want}"),
                    });
                }
            }
            let at = img.at.as_deref().map(addr).transpose()?;
            let mut parts = match &img.assemble {
                Some(spec) => spec.assemble(&file, &mut symbols)?,
                None => resolve::image(&file, at, default_addr)?,
            };
            if !img.only.is_empty() {
                let ranges: Vec<kempelen_emulator::AddrRange> = img
                    .only
                    .iter()
                    .map(|r| {
                        r.parse()
                            .map_err(|e: kempelen_emulator::ConfigError| AdaptorError::Only {
                                range: r.clone(),
                                message: e.to_string(),
                            })
                    })
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
            return Err(invalid("no `[[image]]`".into()));
        }
        let pokes = f
            .poke
            .iter()
            .map(|p| Ok((symbol_or_addr(&symbols, &p.at)?, hex_bytes(&p.bytes)?)))
            .collect::<Result<Vec<_>>>()?;
        for step in &f.setup {
            for p in &step.poke {
                symbol_or_addr(&symbols, &p.at).map_err(|e| AdaptorError::SetupPoke {
                    path: path.to_path_buf(),
                    source: Box::new(e),
                })?;
            }
            if step.restart && f.entry.is_none() {
                return Err(invalid(
                    "a [[setup]] step restarts the program: give its `entry`".into(),
                ));
            }
            let uses_board = step.keys.as_deref().is_some_and(|k| k.contains("{board}"));
            if uses_board && f.board.is_none() {
                return Err(invalid(
                    "a [[setup]] step types {board}: describe it in [board]".into(),
                ));
            }
        }
        if let Some(b) = &f.board {
            if b.first != "a1" && b.first != "a8" {
                return Err(invalid(format!("[board] first = `{}` (a1, a8)", b.first)));
            }
            if b.pieces.as_ref().is_some_and(|p| p.chars().count() != 6) {
                return Err(invalid(
                    "[board] pieces: six letters (pawn, knight, bishop, rook, queen, king)".into(),
                ));
            }
        }
        let reply = Regex::new(&f.reply.pattern).map_err(|source| AdaptorError::Pattern {
            path: path.to_path_buf(),
            source,
        })?;
        let has = |n: &str| reply.capture_names().any(|c| c == Some(n));
        if !(has("move") || has("castle") || has("en_passant") || (has("from") && has("to"))) {
            return Err(invalid(
                "the reply pattern needs a group `move`, or groups `from` and `to`".into(),
            ));
        }
        let squares = match f.reply.squares.as_deref() {
            None | Some("algebraic") => Squares::Algebraic,
            Some("microchess") => Squares::Microchess,
            Some(s) => {
                return Err(invalid(format!(
                    "unknown squares `{s}` (algebraic, microchess)"
                )));
            }
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
                Some(p) => return Err(invalid(format!("plays = `{p}` (white, black)"))),
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

    /// The depth for `{depth}`: the search's depth limit, else the adaptor's default.
    pub(crate) fn depth_for(&self, limit: Option<u32>) -> u32 {
        self.depth
            .clamp(limit.unwrap_or(self.depth.default.unwrap_or(1)))
    }

    pub(crate) fn colour(&self, white: bool) -> &str {
        if white {
            self.keys.white.as_deref().unwrap_or("W")
        } else {
            self.keys.black.as_deref().unwrap_or("B")
        }
    }
}

impl DepthSpec {
    /// A depth as the program's keys accept it.
    pub(crate) fn clamp(&self, d: u32) -> u32 {
        d.clamp(1, self.max.unwrap_or(9).max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
