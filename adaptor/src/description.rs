//! The adaptor file: what it may say (the TOML fields, documented on each), read and checked
//! into an [`Adaptor`]: the machine and its clock, the images (loaded, checked against their
//! SHA-256, or assembled with Kempelen's assembler), the keys, the reply pattern; with the
//! feature `opened`, what opens the program up (`[[variable]]`, `[[count]]`, `[tree]`,
//! `[listing]`, `[[lesson]]`: [`opened`], a part of the description).

#[cfg(feature = "opened")]
pub(crate) mod opened;

use kempelen_emulator::clock::{self, ClockProfile};
use kempelen_emulator::loaders::Chunk;
use kempelen_emulator::resolve::{self, MachineChoice};
use kempelen_emulator::{AddrRange, Cpu, Personality};
use regex::Regex;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::Path;

use crate::error::AdaptorError;
use crate::files::{FileSystem, ProgramFiles};

type Result<T> = std::result::Result<T, AdaptorError>;

/// Default cycle budget of one turn.
const TURN_BUDGET: u64 = 100_000_000_000;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct AdaptorFile {
    name: String,
    /// The program's authors (UCI `id author`).
    author: Option<String>,
    /// A personality (built-in id or FILE.toml relative to the adaptor).
    machine: Option<String>,
    /// Without a personality: Kempelen's own machine for this CPU.
    cpu: Option<String>,
    /// The clock profile (default: the personality's, or the CPU's).
    clock: Option<String>,
    entry: Option<String>,
    turn_budget: Option<toml::Spanned<u64>>,
    /// The colour the program can play (`white`, `black`; default either).
    plays: Option<String>,
    /// What the program searches, in words (for a program without levels: what it always
    /// searches); reports print it.
    search: Option<String>,
    /// The native profile that re-creates the program's search (its tree is set beside the
    /// program's).
    profile: Option<String>,
    #[serde(default)]
    image: Vec<ImageSpec>,
    #[serde(default)]
    poke: Vec<PokeSpec>,
    /// Where the program comes from (documentation, printed by errors).
    source: Option<SourceSpec>,
    keys: Keys,
    reply: ReplySpec,
    /// The search depth typed for `{depth}`.
    depth: Option<DepthFile>,
    /// How `{board}` is typed.
    board: Option<BoardSpec>,
    /// How the program is set up in a position: steps run on a freshly booted machine.
    #[serde(default)]
    setup: Vec<SetupStep>,
    /// The program's board as a list of squares, one per piece (written by a `[[setup]]`
    /// step with `pieces = true`, read for the square a held move starts from).
    pieces: Option<PiecesSpec>,
    /// The routines whose entries are counted as the program's nodes.
    nodes: Option<NodesSpec>,
    /// Where the program keeps the best move of its search so far.
    best: Option<BestSpec>,
    /// Where the program keeps the score of its best move.
    score: Option<ScoreSpec>,
    /// The program's board in RAM, read for the piece a pawn of the program became (and,
    /// when it names every piece and the colour bit, read whole: [`crate::board`]).
    ram_board: Option<RamBoardSpec>,
    /// The time model: emulated time per move at each level, measured on the program.
    #[serde(default)]
    level: Vec<toml::Spanned<LevelSpec>>,
    /// Points of the program whose passes are counted in its turn (`opened`).
    #[serde(default)]
    count: Vec<toml::Value>,
    /// The program's variables and tables, decoded at every stop of a debugger.
    #[serde(default)]
    variable: Vec<toml::Value>,
    /// Where the program's search makes its moves and backs up its values.
    tree: Option<toml::Value>,
    /// A published listing laid over a binary image that has no text.
    listing: Option<toml::Value>,
    /// The lessons' steps in the program's code.
    #[serde(default)]
    lesson: Vec<toml::Value>,
}

/// The sections of an adaptor file that open the program up (`[[count]]`, `[[variable]]`,
/// `[tree]`, `[listing]`, `[[lesson]]`), as read, for `opened` to resolve (a build
/// without the feature `opened`, the page's, reads them and leaves them).
#[cfg_attr(not(feature = "opened"), allow(dead_code))]
pub(crate) struct OpenedParts<'a> {
    pub(crate) count: &'a [toml::Value],
    pub(crate) variable: &'a [toml::Value],
    pub(crate) tree: Option<&'a toml::Value>,
    pub(crate) listing: Option<&'a toml::Value>,
    pub(crate) lesson: &'a [toml::Value],
}

/// `[pieces]`: the program keeps its board as a list of squares, one slot per piece, the side
/// to move's slots first, then the same slots for the other side.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct PiecesSpec {
    /// The first slot (a symbol or an address).
    at: String,
    /// The piece of each slot of one side, as letters (`KQRRBBNNPPPPPPPP`).
    order: String,
    /// The square byte of a piece that is off the board (hex).
    captured: String,
    /// How a square is a byte: `microchess` (rank in the high nibble, file in the low one,
    /// counted from the h-file, the board turned round when the program plays Black) or
    /// `10x12` (a1 = 21, ranks 10 apart) or `0x88` (a1 = 0, rank in the high nibble).
    squares: String,
}

/// `[nodes]`: what the adaptor counts as the program's nodes.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct NodesSpec {
    /// Routines (symbols or addresses) whose every entry is one node. Each must be entered
    /// by calls only (its first instruction is not a loop's target).
    routines: Vec<String>,
    /// What a node is (positions generated, positions evaluated), for the documents.
    what: String,
}

/// An address, or an offset from `[best] pointer`.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
enum Loc {
    Offset(u16),
    At(String),
}

/// `[best]`: the best move of the search so far, as the program keeps it.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct BestSpec {
    /// A word that points at the move (0: no move yet); `from`, `to` and `promotion.at` are
    /// then offsets from where it points.
    pointer: Option<String>,
    /// The square the move starts from.
    from: Option<Loc>,
    /// Instead of `from`: the slot of `[pieces]` of the piece that moves (its square when
    /// the search began is where the move starts).
    piece: Option<String>,
    /// The square the move goes to.
    to: Loc,
    /// How a square is a byte (see `[pieces]`).
    squares: String,
    /// A promotion: the byte at `at` with a bit of `mask` set, and the piece it makes.
    promotion: Option<PromotionFlag>,
    /// A move is held only while the byte at `at` is at least `min` (the program's own
    /// threshold for having a move).
    held_from: Option<Threshold>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct PromotionFlag {
    at: Loc,
    mask: u8,
    piece: String,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct Threshold {
    at: String,
    min: u8,
}

/// `[score]`: the score of the program's best move, one byte.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct ScoreSpec {
    at: String,
    /// The value of "no change" / an even game (needed for `centipawns`).
    neutral: Option<u8>,
    /// Centipawns per unit above `neutral`: with it, UCI `score cp`; without, the program's
    /// value only in the line's `string`.
    centipawns: Option<f64>,
    /// The program's scale in words (printed with the value).
    scale: String,
    /// Whether the byte still holds the score after the program moved (default true).
    after_move: Option<bool>,
    /// Values that are not a score on the scale (a mate, a book move): their meaning.
    #[serde(default)]
    special: std::collections::BTreeMap<String, String>,
}

/// `[ram_board]`: the program's board in RAM.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct RamBoardSpec {
    /// The byte of square index 0.
    at: String,
    /// How squares are numbered (`10x12`).
    squares: String,
    /// The bits of a square's byte that name the piece.
    mask: u8,
    /// The piece each value names: `q = 5` (q, r, b, n: the pieces a pawn becomes; with p and
    /// k too, and `black`, the whole board can be read).
    pieces: std::collections::BTreeMap<String, u8>,
    /// The bit of a square's byte that marks a black piece.
    black: Option<u8>,
    /// The bit that marks a piece that has moved (the program's memory of castling rights).
    moved: Option<u8>,
}

/// `[[level]]`: the emulated time the program took per move at one level (its `{depth}`),
/// measured on positions of its own games.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct LevelSpec {
    pub(crate) depth: u32,
    /// Mean seconds per move.
    pub(crate) mean: f64,
    /// The longest move, seconds.
    longest: f64,
    /// How many moves were measured (documentation: the sample behind the figures).
    #[allow(dead_code)]
    moves: u32,
}

/// `[depth]` as the file gives it, with the places of its numbers.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct DepthFile {
    default: Option<toml::Spanned<u32>>,
    max: Option<toml::Spanned<u32>>,
}

/// The deepest `[depth] max` an adaptor may give: the deepest search of any program Kempelen
/// runs (its own console front end takes depths 1 to 32; the historical programs' levels end
/// at a few plies). A program typed a deeper depth than it takes faults or misreads it.
pub const MAX_LEVEL: u32 = 32;

/// `[depth]`: the levels the program takes.
#[derive(Debug, Clone)]
pub(crate) struct DepthSpec {
    /// When the search has no depth limit (default 1).
    pub(crate) default: Option<u32>,
    /// The deepest the program's keys accept (default 9: one digit).
    max: Option<u32>,
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
    /// Write the position into the program's piece list (`[pieces]`).
    #[serde(default)]
    pub(crate) pieces: bool,
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
    file: toml::Spanned<String>,
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
pub(crate) struct AssembleSpec {
    /// `z80`, `6502` or `65c02`.
    cpu: String,
    /// `--ignore-case`.
    #[serde(default)]
    ignore_case: bool,
    /// `--overlap`: `error` (default) or `later-wins`.
    overlap: Option<String>,
    /// `--dialect`: `kempelen` (default) or `tdl` (the book's syntax of Sargon).
    dialect: Option<String>,
    /// `--paren-closes-bracket` (TDL).
    #[serde(default)]
    paren_closes_bracket: bool,
}

impl AssembleSpec {
    /// Assembles `file` as `kempelen asm` would with these options: the image's bytes from
    /// the lowest to the highest address written.
    pub(crate) fn assemble(
        &self,
        file: &Path,
        sources: &dyn kempelen_asm::source::SourceProvider,
        symbols: &mut Vec<(String, u16)>,
        program: &mut ProgramSource,
    ) -> Result<Vec<kempelen_emulator::loaders::Chunk>> {
        let out = self.assembly(file, sources)?;
        symbols.extend(out.symbols.iter().map(|s| (s.name.clone(), s.value)));
        program.add(&out);
        Ok(vec![kempelen_emulator::loaders::Chunk {
            addr: out.image.origin,
            bytes: out.image.bytes,
        }])
    }

    /// The assembly of `file` with these options (its errors are an error).
    pub(crate) fn assembly(
        &self,
        file: &Path,
        sources: &dyn kempelen_asm::source::SourceProvider,
    ) -> Result<kempelen_asm::Assembly> {
        let cpu: kempelen_asm::Cpu = self.cpu.parse()?;
        let overlap = match self.overlap.as_deref() {
            None => kempelen_asm::Overlap::Error,
            Some(o) => o.parse().map_err(AdaptorError::Overlap)?,
        };
        let dialect = match self.dialect.as_deref() {
            None => kempelen_asm::Dialect::Kempelen,
            Some(d) => d.parse().map_err(AdaptorError::Dialect)?,
        };
        let options = kempelen_asm::Options {
            ignore_case: self.ignore_case,
            overlap,
            dialect,
            paren_closes_bracket: self.paren_closes_bracket,
            ..kempelen_asm::Options::new(cpu)
        };
        let name = file.to_string_lossy();
        let out = kempelen_asm::assemble(&name, sources, &options);
        if !out.is_ok() {
            return Err(AdaptorError::Assembly {
                path: file.to_path_buf(),
                report: out.report(),
            });
        }
        Ok(out)
    }
}

/// What the assembled images say about the program: their symbols (the source's names, with
/// their kinds, for traces and profiles) and the source line that put each byte (for a
/// debugger beside the disassembly). Empty for an adaptor that only loads binaries.
#[derive(Clone, Debug, Default)]
pub struct ProgramSource {
    /// The symbols of every assembled image.
    pub symbols: kempelen_asm::SymbolTable,
    /// The source lines of every assembled image, by address.
    pub lines: kempelen_asm::isa::SourceMap,
}

impl ProgramSource {
    fn add(&mut self, out: &kempelen_asm::Assembly) {
        for s in out.symbols.iter() {
            self.symbols.insert(s.name.clone(), s.value, s.kind);
        }
        for l in out.listing.source_map().iter() {
            let (file, text) = (l.file.clone(), l.text.clone());
            self.lines.insert(l.addr, l.len, l.code, file, l.line, text);
        }
    }
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct PokeSpec {
    at: String,
    bytes: toml::Spanned<String>,
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
    /// The pieces an opponent's pawn becomes when its move to the last rank is typed (default
    /// `qrbn` when `move` types `{promotion}` or `{move}`, else none); another promotion is
    /// set up as a position.
    pub(crate) promotions: Option<String>,
    /// Whether the program removes the captured pawn when an opponent's capture en passant is
    /// typed (default true); if not, the position is set up instead.
    pub(crate) en_passant: Option<bool>,
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

/// How a square is one byte in the program's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ByteSquares {
    /// Rank in the high nibble, file in the low one counted from the h-file; turned round
    /// (rank and file counted from the other side) when the program plays Black.
    Microchess,
    /// A 10 x 12 board: a1 = 21, b1 = 22, a2 = 31, h8 = 98.
    Board10x12,
    /// A 0x88 board: rank in the high nibble, file in the low one, a1 = 0, h8 = $77.
    Board0x88,
}

impl ByteSquares {
    pub(crate) fn parse(s: &str) -> Option<ByteSquares> {
        match s {
            "microchess" => Some(ByteSquares::Microchess),
            "10x12" => Some(ByteSquares::Board10x12),
            "0x88" => Some(ByteSquares::Board0x88),
            _ => None,
        }
    }

    /// The square (`e2`) of a byte, if it is one.
    pub(crate) fn decode(self, b: u8, program_black: bool) -> Option<String> {
        let (file, rank) = match self {
            ByteSquares::Microchess => {
                let (r, c) = (b >> 4, b & 0x0F);
                if r > 7 || c > 7 {
                    return None;
                }
                if program_black {
                    (c, 7 - r)
                } else {
                    (7 - c, r)
                }
            }
            ByteSquares::Board10x12 => {
                let (r, f) = (b / 10, b % 10);
                if !(2..=9).contains(&r) || !(1..=8).contains(&f) {
                    return None;
                }
                (f - 1, r - 2)
            }
            ByteSquares::Board0x88 => {
                if b & 0x88 != 0 {
                    return None;
                }
                (b & 7, b >> 4)
            }
        };
        Some(format!("{}{}", (b'a' + file) as char, rank + 1))
    }

    /// The byte of a square given as file and rank (0-7).
    pub(crate) fn encode(self, file: u8, rank: u8, program_black: bool) -> u8 {
        match self {
            ByteSquares::Microchess if program_black => ((7 - rank) << 4) | file,
            ByteSquares::Microchess => (rank << 4) | (7 - file),
            ByteSquares::Board10x12 => 21 + file + 10 * rank,
            ByteSquares::Board0x88 => (rank << 4) | file,
        }
    }
}

/// `[pieces]`, resolved.
#[derive(Clone, Debug)]
pub(crate) struct Pieces {
    pub(crate) at: u16,
    /// The piece kind of each slot (`k`, `q`, `r`, `b`, `n`, `p`).
    pub(crate) order: Vec<char>,
    pub(crate) captured: u8,
    pub(crate) squares: ByteSquares,
}

/// `[best]`, resolved: addresses, or offsets from the pointer's target.
#[derive(Clone, Debug)]
pub(crate) struct Best {
    pub(crate) pointer: Option<u16>,
    pub(crate) from: Option<u16>,
    pub(crate) piece: Option<u16>,
    pub(crate) to: u16,
    pub(crate) squares: ByteSquares,
    pub(crate) promotion: Option<(u16, u8, char)>,
    pub(crate) held_from: Option<(u16, u8)>,
}

/// `[score]`, resolved.
#[derive(Clone, Debug)]
pub(crate) struct Score {
    pub(crate) at: u16,
    pub(crate) neutral: u8,
    pub(crate) centipawns: Option<f64>,
    pub(crate) scale: String,
    pub(crate) after_move: bool,
    pub(crate) special: Vec<(u8, String)>,
}

/// `[ram_board]`, resolved.
#[derive(Clone, Debug)]
pub(crate) struct RamBoard {
    pub(crate) at: u16,
    pub(crate) squares: ByteSquares,
    pub(crate) mask: u8,
    /// The value of each piece the file names (`q`, and `p`, `k` when it names all six).
    pub(crate) pieces: Vec<(u8, char)>,
    pub(crate) black: Option<u8>,
    pub(crate) moved: Option<u8>,
}

impl RamBoard {
    /// The address of `square` (`a8`) in the program's board.
    pub(crate) fn address(&self, square: &str) -> Option<u16> {
        let b = square.as_bytes();
        let (file, rank) = (b.first()?.checked_sub(b'a')?, b.get(1)?.checked_sub(b'1')?);
        Some(
            self.at
                .wrapping_add(u16::from(self.squares.encode(file, rank, false))),
        )
    }

    /// The piece (`q`) a byte of the program's board names, if it names one a pawn becomes.
    pub(crate) fn piece(&self, byte: u8) -> Option<char> {
        self.pieces
            .iter()
            .find(|(v, p)| byte & self.mask == *v && "qrbn".contains(*p))
            .map(|(_, p)| *p)
    }
}

/// Where the program keeps its state in RAM, as far as the adaptor file says (`[pieces]`,
/// `[best]`, `[score]`, `[ram_board]`), resolved.
pub(crate) struct ProgramRam {
    pub(crate) pieces: Option<Pieces>,
    pub(crate) best: Option<Best>,
    pub(crate) score: Option<Score>,
    pub(crate) board: Option<RamBoard>,
}

/// An adaptor, read and checked.
pub struct Adaptor {
    pub(crate) name: String,
    pub(crate) author: Option<String>,
    /// The addresses of the node routines and what a node is.
    pub(crate) nodes: Option<(Vec<u16>, String)>,
    /// The node routines as the file names them (symbols or addresses).
    pub(crate) node_routines: Vec<String>,
    /// What the program searches, in words.
    pub(crate) search: Option<String>,
    /// What the adaptor reads from the program's RAM.
    pub(crate) ram: ProgramRam,
    /// The time model, by level.
    pub(crate) levels: Vec<LevelSpec>,
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
    /// Whether the file describes the program's levels (`[depth]`).
    pub(crate) has_levels: bool,
    pub(crate) board: Option<BoardSpec>,
    pub(crate) setup: Vec<SetupStep>,
    /// Symbols of the assembled images (for `at` in pokes).
    pub(crate) symbols: Vec<(String, u16)>,
    /// The symbols and source lines of the assembled images.
    pub(crate) program: ProgramSource,
    /// The declarations that open the program up (variables, counters, tree, listing,
    /// lessons).
    #[cfg(feature = "opened")]
    pub(crate) opened: opened::Opened,
    /// The profile that re-creates its search.
    pub(crate) profile: Option<kempelen_engine::history::TreeProfile>,
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

/// A symbol of the assembled images (exact spelling first, then ignoring case) or an
/// address, optionally plus a decimal offset (`SCORE+1`).
pub(crate) fn symbol_or_addr(symbols: &[(String, u16)], s: &str) -> Result<u16> {
    if let Some((base, plus)) = s.rsplit_once('+') {
        if let Ok(n) = plus.trim().parse::<u16>() {
            let a = plain_symbol_or_addr(symbols, base.trim())?;
            return a
                .checked_add(n)
                .ok_or_else(|| AdaptorError::Symbol(s.to_string()));
        }
    }
    plain_symbol_or_addr(symbols, s)
}

fn plain_symbol_or_addr(symbols: &[(String, u16)], s: &str) -> Result<u16> {
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

/// What an adaptor file says of its program, for reports (`kempelen bench --program`).
impl Adaptor {
    /// The program's name (`name`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The machine it runs on: the personality's id, else the clock profile's.
    pub fn machine(&self) -> &str {
        self.personality
            .as_ref()
            .map_or(self.clock.id, |p| p.id.as_str())
    }

    /// The clock its time is counted at.
    pub fn clock(&self) -> &'static ClockProfile {
        self.clock
    }

    /// Whether the program has levels (the file's `[depth]`): the deepest one the keys accept,
    /// or `None`.
    pub fn max_level(&self) -> Option<u32> {
        self.has_levels.then(|| self.depth.clamp(u32::MAX))
    }

    /// The level it plays at without a limit (`[depth] default`), when it has levels.
    pub fn default_level(&self) -> Option<u32> {
        self.has_levels.then(|| self.depth_for(None))
    }

    /// The levels of the file's time model (`[[level]]`), lowest first.
    pub fn modelled_levels(&self) -> Vec<u32> {
        let mut l: Vec<u32> = self.levels.iter().map(|l| l.depth).collect();
        l.sort_unstable();
        l.dedup();
        l
    }

    /// What the program searches, in words (the file's `search`).
    pub fn search(&self) -> Option<&str> {
        self.search.as_deref()
    }

    /// The symbols and source lines of the program's assembled images (the book's names and
    /// lines for a program assembled from its published source).
    pub fn program_source(&self) -> &ProgramSource {
        &self.program
    }

    /// The native profile that re-creates the program's search (`profile`).
    pub fn profile(&self) -> Option<kempelen_engine::history::TreeProfile> {
        self.profile
    }

    /// The CPU.
    pub fn cpu(&self) -> Cpu {
        self.cpu
    }

    /// The node routines as the file names them and what a node is (`[nodes]`), when the
    /// adaptor counts nodes.
    pub fn node_routines(&self) -> Option<(&[String], &str)> {
        self.nodes
            .as_ref()
            .map(|(_, what)| (self.node_routines.as_slice(), what.as_str()))
    }
}

impl Adaptor {
    /// Reads an adaptor file: its sections in the order below, each read and checked by a
    /// function of its own (the first error found is the one reported).
    pub fn from_file(path: &Path) -> Result<Adaptor> {
        let text = read_text(path)?;
        Adaptor::from_text(path, &text, &FileSystem)
    }

    /// Reads an adaptor file given as text, with the files it names from `files` (for a page:
    /// the files its user picked, [`crate::files::PickedFiles`]); `path` names it in errors,
    /// and the paths it gives are relative to its folder.
    pub fn from_text(path: &Path, text: &str, files: &dyn ProgramFiles) -> Result<Adaptor> {
        let file = Reader {
            path,
            text,
            dir: path.parent().unwrap_or(Path::new(".")),
            files,
        };
        let f: AdaptorFile = toml::from_str(text)
            .map_err(|e| file.at_place(e.span().map_or(0, |s| s.start), e.message().to_string()))?;
        let (personality, cpu, clock) = file.machine(&f)?;
        let default_addr = personality.as_ref().and_then(|p| p.load).unwrap_or(0);
        #[cfg_attr(not(feature = "opened"), allow(unused_mut))]
        let (chunks, symbols, mut program) =
            file.images(&f.image, f.source.as_ref(), default_addr)?;
        let parts = OpenedParts {
            count: &f.count,
            variable: &f.variable,
            tree: f.tree.as_ref(),
            listing: f.listing.as_ref(),
            lesson: &f.lesson,
        };
        #[cfg(feature = "opened")]
        let opened = opened::Opened::read(&file, &parts, &chunks, &symbols, &mut program)?;
        #[cfg(not(feature = "opened"))]
        let _ = parts;
        let pokes = file.pokes(&f.poke, &symbols)?;
        file.check_setup(&f, &symbols)?;
        file.check_board(f.board.as_ref())?;
        let (reply, squares) = file.reply(&f.reply)?;
        let pieces = file.pieces(f.pieces.as_ref(), &symbols)?;
        let nodes = file.nodes(f.nodes.as_ref(), &symbols)?;
        let best = file.best(f.best.as_ref(), pieces.is_some(), &symbols)?;
        let score = file.score(f.score.as_ref(), &symbols)?;
        let ram_board = file.ram_board(f.ram_board.as_ref(), &symbols)?;
        file.check_turn_budget(f.turn_budget.as_ref())?;
        let depth = file.depth(f.depth.as_ref(), &f.keys, &f.setup)?;
        file.check_levels(depth.as_ref(), &f.level)?;
        let entry = f.entry.as_deref().map(addr).transpose()?;
        let plays = file.plays(f.plays.as_deref())?;
        Ok(Adaptor {
            name: f.name,
            author: f.author,
            nodes,
            node_routines: f
                .nodes
                .as_ref()
                .map(|n| n.routines.clone())
                .unwrap_or_default(),
            search: f.search,
            ram: ProgramRam {
                pieces,
                best,
                score,
                board: ram_board,
            },
            levels: f.level.into_iter().map(toml::Spanned::into_inner).collect(),
            personality,
            cpu,
            clock,
            entry,
            turn_budget: f.turn_budget.map_or(TURN_BUDGET, toml::Spanned::into_inner),
            chunks,
            pokes,
            keys: f.keys,
            reply,
            squares,
            first: f.reply.first.unwrap_or(false),
            plays,
            has_levels: depth.is_some(),
            depth: depth.unwrap_or(DepthSpec {
                default: None,
                max: None,
            }),
            board: f.board,
            setup: f.setup,
            symbols,
            program,
            #[cfg(feature = "opened")]
            opened,
            profile: f
                .profile
                .as_deref()
                .map(str::parse)
                .transpose()
                .map_err(|e: String| file.invalid(format!("profile: {e}")))?,
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

/// The adaptor file's text, bounded (an endless file ends in an error) and UTF-8.
fn read_text(path: &Path) -> Result<String> {
    kempelen_emulator::files::read_bounded(path, kempelen_emulator::personality::MAX_FILE_BYTES)
        .and_then(|b| {
            String::from_utf8(b)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        })
        .map_err(|source| AdaptorError::Read {
            path: path.to_path_buf(),
            hint: String::new(),
            source,
        })
}

/// The memory image so far: runs of bytes, each starting at its address.
pub(crate) type Chunks = Vec<(u16, Vec<u8>)>;

/// The symbols of the assembled images, with their values.
type Symbols = Vec<(String, u16)>;

/// The adaptor file being read: where it is and its text, for errors that point into it.
pub(crate) struct Reader<'a> {
    path: &'a Path,
    text: &'a str,
    /// The folder the file's paths are relative to.
    pub(crate) dir: &'a Path,
    /// Where the files it names come from.
    pub(crate) files: &'a dyn ProgramFiles,
}

/// The address range of an image read before, with where the image is named.
struct Taken {
    /// The image's file and the line of the adaptor file that names it.
    image: String,
    start: u32,
    end: u32,
}

impl Reader<'_> {
    /// An error at a byte offset of the file (`file:line:col: message`).
    fn at_place(&self, offset: usize, message: String) -> AdaptorError {
        let (line, col) = line_col(self.text, offset);
        AdaptorError::Syntax {
            path: self.path.to_path_buf(),
            line,
            col,
            message,
        }
    }

    /// A value of the file that does not make sense (`file: message`).
    pub(crate) fn invalid(&self, message: String) -> AdaptorError {
        AdaptorError::Invalid {
            path: self.path.to_path_buf(),
            message,
        }
    }

    /// An address the file gives (a symbol or an address) for `what`.
    fn addr_of(&self, symbols: &[(String, u16)], what: &str, s: &str) -> Result<u16> {
        symbol_or_addr(symbols, s).map_err(|e| self.invalid(format!("{what}: {e}")))
    }

    /// How `what` writes a square as a byte.
    fn squares_of(&self, what: &str, s: &str) -> Result<ByteSquares> {
        ByteSquares::parse(s).ok_or_else(|| {
            self.invalid(format!("{what} squares = `{s}` (microchess, 10x12, 0x88)"))
        })
    }

    /// `machine`, `cpu` and `clock`: the personality (if any), its CPU and the clock profile.
    fn machine(
        &self,
        f: &AdaptorFile,
    ) -> Result<(Option<Personality>, Cpu, &'static ClockProfile)> {
        let personality = match &f.machine {
            None => None,
            Some(m) => {
                let m = if m.ends_with(".toml") {
                    self.dir.join(m).display().to_string()
                } else {
                    m.clone()
                };
                match resolve::machine(&m)? {
                    MachineChoice::Personality(p) => Some(*p),
                    MachineChoice::Clock(_) => {
                        return Err(self.invalid(format!(
                            "machine `{m}` is a clock profile, not a personality (use `clock`)"
                        )));
                    }
                }
            }
        };
        let cpu = match (&personality, &f.cpu) {
            (Some(p), _) => p.cpu,
            (None, Some(c)) => c.parse::<Cpu>().map_err(|e| self.invalid(e.to_string()))?,
            (None, None) => {
                return Err(self.invalid("give `machine` (a personality) or `cpu`".into()));
            }
        };
        let clock = match &f.clock {
            Some(id) => clock::machine(id)
                .ok_or_else(|| self.invalid(format!("unknown clock profile `{id}`")))?,
            None => personality
                .as_ref()
                .map_or_else(|| clock::default_machine(cpu), |p| p.clock),
        };
        Ok((personality, cpu, clock))
    }

    /// `[[image]]`: every image's bytes, in the order the file names them, and the symbols
    /// of the assembled ones. Images may not overlap (as bytes inside one image may not,
    /// unless its assembler is told).
    fn images(
        &self,
        images: &[ImageSpec],
        source: Option<&SourceSpec>,
        default_addr: u16,
    ) -> Result<(Chunks, Symbols, ProgramSource)> {
        let mut chunks: Chunks = Vec::new();
        let mut symbols: Symbols = Vec::new();
        let mut program = ProgramSource::default();
        let mut taken: Vec<Taken> = Vec::new();
        for img in images {
            let parts = self.image(img, source, default_addr, &mut symbols, &mut program)?;
            let ranges = ranges_of(&parts);
            self.check_overlap(img, &ranges, &taken)?;
            let (line, _) = line_col(self.text, img.file.span().start);
            for &(start, end) in &ranges {
                taken.push(Taken {
                    image: format!("{} (line {line})", img.file.get_ref()),
                    start,
                    end,
                });
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
            return Err(self.invalid("no `[[image]]`".into()));
        }
        Ok((chunks, symbols, program))
    }

    /// One `[[image]]`'s bytes: the file checked against its SHA-256, loaded or assembled,
    /// and cut to its `only` ranges.
    fn image(
        &self,
        img: &ImageSpec,
        source: Option<&SourceSpec>,
        default_addr: u16,
        symbols: &mut Symbols,
        program: &mut ProgramSource,
    ) -> Result<Vec<Chunk>> {
        let file = self.files.locate(self.dir, img.file.get_ref())?;
        let bytes = self.files.read(&file).map_err(|e| AdaptorError::Read {
            path: file.clone(),
            hint: source.map_or(String::new(), |s| {
                format!(
                    " (get it from {} at commit {}, {})",
                    s.repository, s.commit, s.path
                )
            }),
            source: e,
        })?;
        if let Some(want) = &img.sha256 {
            check_sha256(&file, &bytes, want)?;
        }
        let at = img.at.as_deref().map(addr).transpose()?;
        let parts = match &img.assemble {
            Some(spec) => spec.assemble(&file, self.files.sources(), symbols, program)?,
            None => resolve::program_bytes(&file, &bytes, at, default_addr)?.chunks,
        };
        if img.only.is_empty() {
            Ok(parts)
        } else {
            keep_only(parts, &img.only)
        }
    }

    /// An image's address ranges against those of the images before it.
    fn check_overlap(&self, img: &ImageSpec, ranges: &[(u32, u32)], taken: &[Taken]) -> Result<()> {
        for &(start, end) in ranges {
            if let Some(other) = taken.iter().find(|t| start < t.end && t.start < end) {
                let (os, oe) = (other.start, other.end);
                let (lo, hi) = (start.max(os), end.min(oe) - 1);
                return Err(self.at_place(
                    img.file.span().start,
                    format!(
                        "this [[image]] ({}, ${start:04X}-${:04X}) overlaps the [[image]] {} (${os:04X}-${:04X}) at ${lo:04X}-${hi:04X}: images may not overlap",
                        img.file.get_ref(),
                        end - 1,
                        other.image,
                        oe - 1
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `[[poke]]`: bytes written after loading, each run inside the 64K.
    fn pokes(&self, pokes: &[PokeSpec], symbols: &[(String, u16)]) -> Result<Chunks> {
        let mut out = Vec::new();
        for p in pokes {
            let at = symbol_or_addr(symbols, &p.at)?;
            let bytes = hex_bytes(p.bytes.get_ref())?;
            if usize::from(at) + bytes.len() > 0x10000 {
                return Err(self.at_place(
                    p.bytes.span().start,
                    format!(
                        "[[poke]] of {} bytes at ${at:04X} runs past $FFFF",
                        bytes.len()
                    ),
                ));
            }
            out.push((at, bytes));
        }
        Ok(out)
    }

    /// `[[setup]]`: each step's pokes have addresses, and what a step uses (the pieces, a
    /// restart, `{board}`) is described elsewhere in the file.
    fn check_setup(&self, f: &AdaptorFile, symbols: &[(String, u16)]) -> Result<()> {
        for step in &f.setup {
            if step.pieces && f.pieces.is_none() {
                return Err(self.invalid(
                    "a [[setup]] step writes the pieces: describe them in [pieces]".into(),
                ));
            }
            for p in &step.poke {
                symbol_or_addr(symbols, &p.at).map_err(|e| AdaptorError::SetupPoke {
                    path: self.path.to_path_buf(),
                    source: Box::new(e),
                })?;
            }
            if step.restart && f.entry.is_none() {
                return Err(
                    self.invalid("a [[setup]] step restarts the program: give its `entry`".into())
                );
            }
            let uses_board = step.keys.as_deref().is_some_and(|k| k.contains("{board}"));
            if uses_board && f.board.is_none() {
                return Err(
                    self.invalid("a [[setup]] step types {board}: describe it in [board]".into())
                );
            }
        }
        Ok(())
    }

    /// `[board]`: the first square and the six piece letters.
    fn check_board(&self, board: Option<&BoardSpec>) -> Result<()> {
        let Some(b) = board else { return Ok(()) };
        if b.first != "a1" && b.first != "a8" {
            return Err(self.invalid(format!("[board] first = `{}` (a1, a8)", b.first)));
        }
        if b.pieces.as_ref().is_some_and(|p| p.chars().count() != 6) {
            return Err(self.invalid(
                "[board] pieces: six letters (pawn, knight, bishop, rook, queen, king)".into(),
            ));
        }
        Ok(())
    }

    /// `[reply]`: the pattern (with a group that names the move) and how it writes squares.
    fn reply(&self, spec: &ReplySpec) -> Result<(Regex, Squares)> {
        let reply = Regex::new(&spec.pattern).map_err(|source| AdaptorError::Pattern {
            path: self.path.to_path_buf(),
            source,
        })?;
        let has = |n: &str| reply.capture_names().any(|c| c == Some(n));
        if !(has("move") || has("castle") || has("en_passant") || (has("from") && has("to"))) {
            return Err(self.invalid(
                "the reply pattern needs a group `move`, or groups `from` and `to`".into(),
            ));
        }
        let squares = match spec.squares.as_deref() {
            None | Some("algebraic") => Squares::Algebraic,
            Some("microchess") => Squares::Microchess,
            Some(s) => {
                return Err(self.invalid(format!("unknown squares `{s}` (algebraic, microchess)")));
            }
        };
        Ok((reply, squares))
    }

    /// `[pieces]`: the piece list's first slot, its order, the captured byte, its squares.
    fn pieces(
        &self,
        spec: Option<&PiecesSpec>,
        symbols: &[(String, u16)],
    ) -> Result<Option<Pieces>> {
        let Some(p) = spec else { return Ok(None) };
        let order: Vec<char> = p.order.to_ascii_lowercase().chars().collect();
        if order.is_empty() || order.len() > 64 || order.iter().any(|c| !"kqrbnp".contains(*c)) {
            return Err(self.invalid(format!(
                "[pieces] order = `{}`: piece letters (KQRBNP), one per slot",
                p.order
            )));
        }
        Ok(Some(Pieces {
            at: self.addr_of(symbols, "[pieces] at", &p.at)?,
            order,
            captured: u8::from_str_radix(p.captured.trim(), 16).map_err(|_| {
                self.invalid(format!("[pieces] captured = `{}`: a hex byte", p.captured))
            })?,
            squares: self.squares_of("[pieces]", &p.squares)?,
        }))
    }

    /// `[nodes]`: the node routines' addresses and what a node is.
    fn nodes(
        &self,
        spec: Option<&NodesSpec>,
        symbols: &[(String, u16)],
    ) -> Result<Option<(Vec<u16>, String)>> {
        let Some(n) = spec else { return Ok(None) };
        if n.routines.is_empty() {
            return Err(self.invalid("[nodes] routines: name at least one".into()));
        }
        let routines = n
            .routines
            .iter()
            .map(|r| self.addr_of(symbols, "[nodes] routines", r))
            .collect::<Result<Vec<_>>>()?;
        Ok(Some((routines, n.what.clone())))
    }

    /// `[best]`: where the best move so far is, as addresses or offsets from its pointer.
    fn best(
        &self,
        spec: Option<&BestSpec>,
        has_pieces: bool,
        symbols: &[(String, u16)],
    ) -> Result<Option<Best>> {
        let Some(b) = spec else { return Ok(None) };
        let pointer = b
            .pointer
            .as_deref()
            .map(|p| self.addr_of(symbols, "[best] pointer", p))
            .transpose()?;
        let loc = |what: &str, l: &Loc| self.best_loc(symbols, pointer, what, l);
        if b.from.is_some() == b.piece.is_some() {
            return Err(self.invalid("[best]: give `from` or `piece`".into()));
        }
        if b.piece.is_some() && !has_pieces {
            return Err(self.invalid("[best] piece: describe the slots in [pieces]".into()));
        }
        let promotion = match &b.promotion {
            None => None,
            Some(p) => {
                let piece = p.piece.to_ascii_lowercase();
                if !["q", "r", "b", "n"].contains(&piece.as_str()) {
                    return Err(self.invalid(format!(
                        "[best] promotion piece = `{}` (q, r, b, n)",
                        p.piece
                    )));
                }
                Some((
                    loc("[best] promotion at", &p.at)?,
                    p.mask,
                    piece.chars().next().unwrap_or('q'),
                ))
            }
        };
        Ok(Some(Best {
            pointer,
            from: b.from.as_ref().map(|l| loc("[best] from", l)).transpose()?,
            piece: b
                .piece
                .as_deref()
                .map(|p| self.addr_of(symbols, "[best] piece", p))
                .transpose()?,
            to: loc("[best] to", &b.to)?,
            squares: self.squares_of("[best]", &b.squares)?,
            promotion,
            held_from: b
                .held_from
                .as_ref()
                .map(|t| {
                    Ok::<_, AdaptorError>((
                        self.addr_of(symbols, "[best] held_from", &t.at)?,
                        t.min,
                    ))
                })
                .transpose()?,
        }))
    }

    /// A place of `[best]`: an address, or with `pointer` an offset from where it points.
    fn best_loc(
        &self,
        symbols: &[(String, u16)],
        pointer: Option<u16>,
        what: &str,
        l: &Loc,
    ) -> Result<u16> {
        match (l, pointer) {
            (Loc::Offset(o), Some(_)) => Ok(*o),
            (Loc::At(a), None) => self.addr_of(symbols, what, a),
            (Loc::Offset(_), None) => Err(self.invalid(format!(
                "{what}: an offset needs `pointer`; give an address"
            ))),
            (Loc::At(_), Some(_)) => Err(self.invalid(format!(
                "{what}: with `pointer`, give an offset from where it points"
            ))),
        }
    }

    /// `[score]`: the score byte, its scale and its special values.
    fn score(&self, spec: Option<&ScoreSpec>, symbols: &[(String, u16)]) -> Result<Option<Score>> {
        let Some(sc) = spec else { return Ok(None) };
        Ok(Some(Score {
            at: self.addr_of(symbols, "[score] at", &sc.at)?,
            neutral: sc.neutral.unwrap_or(0),
            centipawns: match sc.centipawns {
                Some(_) if sc.neutral.is_none() => {
                    return Err(self.invalid("[score] centipawns: give `neutral` too".into()));
                }
                Some(c) if !(c.is_finite() && c > 0.0 && c <= 1000.0) => {
                    return Err(self.invalid(format!(
                        "[score] centipawns = {c}: more than 0, at most 1000"
                    )));
                }
                c => c,
            },
            scale: sc.scale.clone(),
            after_move: sc.after_move.unwrap_or(true),
            special: sc
                .special
                .iter()
                .map(|(k, v)| {
                    k.parse::<u8>().map(|k| (k, v.clone())).map_err(|_| {
                        self.invalid(format!("[score] special: `{k}` is not a byte value"))
                    })
                })
                .collect::<Result<_>>()?,
        }))
    }

    /// `[ram_board]`: the program's board and the pieces a pawn may become.
    fn ram_board(
        &self,
        spec: Option<&RamBoardSpec>,
        symbols: &[(String, u16)],
    ) -> Result<Option<RamBoard>> {
        let Some(r) = spec else { return Ok(None) };
        Ok(Some(RamBoard {
            at: self.addr_of(symbols, "[ram_board] at", &r.at)?,
            squares: self.squares_of("[ram_board]", &r.squares)?,
            mask: r.mask,
            pieces: r
                .pieces
                .iter()
                .map(|(k, v)| match k.as_str() {
                    "p" | "n" | "b" | "r" | "q" | "k" => Ok((*v, k.chars().next().unwrap_or('q'))),
                    _ => Err(self.invalid(format!("[ram_board] pieces: `{k}` (p, n, b, r, q, k)"))),
                })
                .collect::<Result<_>>()?,
            black: r.black,
            moved: r.moved,
        }))
    }

    /// `turn_budget`: at least one cycle.
    fn check_turn_budget(&self, budget: Option<&toml::Spanned<u64>>) -> Result<()> {
        match budget {
            Some(b) if *b.get_ref() == 0 => Err(self.at_place(
                b.span().start,
                "turn_budget = 0: a turn needs at least one cycle (leave it out for the default)"
                    .into(),
            )),
            _ => Ok(()),
        }
    }

    /// `[depth]`: a default and a maximum of 1 or more, the default at most the maximum, the
    /// maximum at most [`MAX_LEVEL`], and at most 9 where the depth is typed as one key (a
    /// `{depth}` with no line end after it in its keys).
    fn depth(
        &self,
        depth: Option<&DepthFile>,
        keys: &Keys,
        setup: &[SetupStep],
    ) -> Result<Option<DepthSpec>> {
        let Some(d) = depth else {
            return Ok(None);
        };
        let place = |v: &toml::Spanned<u32>| v.span().start;
        let one_key = [
            &keys.start,
            &keys.start_black,
            &keys.depth,
            &keys.new_game,
            &keys.go,
        ]
        .into_iter()
        .flatten()
        .chain(setup.iter().filter_map(|s| s.keys.as_ref()))
        .find(|k| {
            k.split("{depth}")
                .skip(1)
                .any(|after| !after.contains(['\n', '\r']))
        });
        let ceiling = if one_key.is_some() { 9 } else { MAX_LEVEL };
        for (name, v) in [("default", &d.default), ("max", &d.max)] {
            match v {
                Some(v) if *v.get_ref() == 0 => {
                    return Err(
                        self.at_place(place(v), format!("[depth] {name} = 0: depths start at 1"))
                    );
                }
                Some(v) if *v.get_ref() > ceiling => {
                    let why = match one_key {
                        Some(k) => format!(
                            "the depth is typed as one key ({k:?}: no line end after {{depth}}), \
                             so it has one digit"
                        ),
                        None => format!(
                            "no program Kempelen runs takes more (its own console, the deepest, \
                             takes 1 to {MAX_LEVEL})"
                        ),
                    };
                    return Err(self.at_place(
                        place(v),
                        format!("[depth] {name} = {}: at most {ceiling}: {why}", v.get_ref()),
                    ));
                }
                _ => {}
            }
        }
        let max = d.max.as_ref().map_or(9, |m| *m.get_ref());
        if let Some(def) = d.default.as_ref().filter(|v| *v.get_ref() > max) {
            return Err(self.at_place(
                place(def),
                format!(
                    "[depth] default = {} is above the deepest level, max = {max}",
                    def.get_ref()
                ),
            ));
        }
        Ok(Some(DepthSpec {
            default: d.default.as_ref().map(|v| *v.get_ref()),
            max: d.max.as_ref().map(|v| *v.get_ref()),
        }))
    }

    /// `[[level]]`: each level inside `[depth]`'s range, with a sound time per move.
    fn check_levels(
        &self,
        depth: Option<&DepthSpec>,
        levels: &[toml::Spanned<LevelSpec>],
    ) -> Result<()> {
        let max_depth = depth.and_then(|d| d.max).unwrap_or(9);
        for spanned in levels {
            let l = spanned.get_ref();
            let at = spanned.span().start;
            if depth.is_none() {
                return Err(
                    self.at_place(at, "[[level]]: give the levels' range in [depth]".into())
                );
            }
            let sound = (1..=max_depth).contains(&l.depth)
                && l.mean.is_finite()
                && l.mean > 0.0
                && l.longest.is_finite()
                && l.longest >= l.mean;
            if !sound {
                return Err(self.at_place(
                    at,
                    format!(
                        "[[level]] depth {}: a depth of 1 to {max_depth}, mean > 0, longest >= mean",
                        l.depth
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `plays`: the colour the program can play (`w`, `b`), or either.
    fn plays(&self, plays: Option<&str>) -> Result<Option<char>> {
        match plays {
            None => Ok(None),
            Some("white") => Ok(Some('w')),
            Some("black") => Ok(Some('b')),
            Some(p) => Err(self.invalid(format!("plays = `{p}` (white, black)"))),
        }
    }
}

/// An image file's bytes against the SHA-256 the adaptor expects.
pub(crate) fn check_sha256(file: &Path, bytes: &[u8], want: &str) -> Result<()> {
    let got = format!("{:x}", Sha256::digest(bytes));
    if !got.eq_ignore_ascii_case(want) {
        return Err(AdaptorError::Invalid {
            path: file.to_path_buf(),
            message: format!("SHA-256 {got}, the adaptor expects {want}"),
        });
    }
    Ok(())
}

/// An image's bytes inside its `only` ranges (START-END), one chunk per byte kept.
fn keep_only(parts: Vec<Chunk>, only: &[String]) -> Result<Vec<Chunk>> {
    let ranges: Vec<AddrRange> = only
        .iter()
        .map(|r| {
            r.parse()
                .map_err(|e: kempelen_emulator::ConfigError| AdaptorError::Only {
                    range: r.clone(),
                    message: e.to_string(),
                })
        })
        .collect::<Result<_>>()?;
    Ok(parts
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
                .map(move |(i, b)| Chunk {
                    addr: c.addr.wrapping_add(i as u16),
                    bytes: vec![*b],
                })
                .collect::<Vec<_>>()
        })
        .collect())
}

/// The address ranges (start, end exclusive) an image's chunks cover, adjacent ones joined.
fn ranges_of(parts: &[Chunk]) -> Vec<(u32, u32)> {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for c in parts {
        let (start, end) = (u32::from(c.addr), u32::from(c.addr) + c.bytes.len() as u32);
        match ranges.last_mut() {
            Some((_, e)) if *e == start => *e = end,
            _ => ranges.push((start, end)),
        }
    }
    ranges
}

/// Line and column (from 1) of a byte offset in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let line = text[..at].matches('\n').count() + 1;
    let col = text[..at]
        .rsplit('\n')
        .next()
        .map_or(0, |l| l.chars().count())
        + 1;
    (line, col)
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
    fn square_bytes_of_microchess_and_of_a_10x12_board() {
        let m = ByteSquares::Microchess;
        // e1 as White: rank 0, file 3 from the h-file; as Black the board turned round.
        assert_eq!(m.encode(4, 0, false), 0x03);
        assert_eq!(m.decode(0x03, false).as_deref(), Some("e1"));
        assert_eq!(m.encode(4, 7, true), 0x04);
        assert_eq!(m.decode(0x04, true).as_deref(), Some("e8"));
        assert_eq!(m.decode(0xCC, false), None);
        let x = ByteSquares::Board0x88;
        assert_eq!(
            (x.encode(4, 1, false), x.decode(0x34, false).as_deref()),
            (0x14, Some("e4"))
        );
        assert_eq!(x.decode(0x08, false), None);
        let b = ByteSquares::Board10x12;
        assert_eq!(b.encode(0, 0, false), 21);
        assert_eq!(b.encode(7, 7, false), 98);
        assert_eq!(b.decode(35, false).as_deref(), Some("e2"));
        assert_eq!(b.decode(91, true).as_deref(), Some("a8"));
        assert_eq!(b.decode(20, false), None);
        assert_eq!(b.decode(99, false), None);
        for file in 0..8 {
            for rank in 0..8 {
                for black in [false, true] {
                    for s in [m, b, x] {
                        let sq = format!("{}{}", (b'a' + file) as char, rank + 1);
                        assert_eq!(s.decode(s.encode(file, rank, black), black), Some(sq));
                    }
                }
            }
        }
    }

    #[test]
    fn symbols_take_an_offset() {
        let symbols = vec![("SCORE".to_string(), 0x0150)];
        assert_eq!(symbol_or_addr(&symbols, "SCORE+1").unwrap(), 0x0151);
        assert_eq!(symbol_or_addr(&symbols, "score").unwrap(), 0x0150);
        assert_eq!(symbol_or_addr(&symbols, "00FA").unwrap(), 0x00FA);
        assert!(symbol_or_addr(&symbols, "NOSUCH+1").is_err());
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
}
