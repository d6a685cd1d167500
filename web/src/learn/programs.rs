//! The real programs from the user's own files: the adaptor files of Microchess (KIM-1) and
//! Sargon (Jupiter III) compiled in, the files each names (the page never holds them: the user
//! picks them), each checked against the SHA-256 its adaptor gives, the program assembled and
//! run on its machine by the adaptor, and the move it chose on a position with its cycles and
//! its machine's time. The page compares it with the move of the program's profile.

use std::path::Path;

use kempelen_adaptor::board::{BoardError, ProgramBoard, SquareDifference};
use kempelen_adaptor::engine::{OpenSearch, SearchSlice};
use kempelen_adaptor::files::PickedFiles;
use kempelen_adaptor::{Adaptor, AdaptorEngine};
use kempelen_engine::{Game, Limits, Position, SearchControl, SearchResult};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::atomic::Ordering;
use web_time::Instant;

use crate::WebError;

/// A program the page can run from the user's files.
pub struct ProgramText {
    /// Its id in links.
    pub id: &'static str,
    /// Its adaptor file's name (in `adaptors/`).
    pub file: &'static str,
    /// The adaptor file.
    pub text: &'static str,
    /// The native profile that re-creates its search.
    pub profile: &'static str,
}

/// The programs.
pub const PROGRAMS: [ProgramText; 2] = [
    ProgramText {
        id: "microchess",
        file: "microchess-kim1.toml",
        text: include_str!("../../../adaptors/microchess-kim1.toml"),
        profile: "microchess",
    },
    ProgramText {
        id: "sargon",
        file: "sargon-jupiter3.toml",
        text: include_str!("../../../adaptors/sargon-jupiter3.toml"),
        profile: "sargon",
    },
];

fn program(id: &str) -> Result<&'static ProgramText, WebError> {
    PROGRAMS
        .iter()
        .find(|p| p.id == id)
        .ok_or_else(|| WebError::Request(format!("no program '{id}' (microchess, sargon)")))
}

/// A file a program needs, and what was picked for it.
#[derive(Debug, Clone, Serialize)]
pub struct FileCheck {
    /// Its name as the adaptor file gives it.
    pub name: String,
    /// The SHA-256 the adaptor file gives.
    pub sha256: String,
    /// The picked file's SHA-256 (`None`: not picked).
    pub picked: Option<String>,
    /// The picked file's name, when it is not `name` (a file with the same contents under
    /// another name, or a browser's copy `name (1).ext`).
    pub picked_as: Option<String>,
    /// Picked and equal.
    pub ok: bool,
}

/// A picked file the program does not use, and why.
#[derive(Debug, Clone, Serialize)]
pub struct UnusedFile {
    /// Its name as picked.
    pub name: String,
    /// Its SHA-256.
    pub sha256: String,
    /// Why it is not used, in a sentence.
    pub reason: String,
}

/// What the page shows of a program before it runs.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramInfo {
    /// Its id.
    pub id: &'static str,
    /// Its name (the adaptor's).
    pub name: String,
    /// The adaptor file.
    pub file: &'static str,
    /// The adaptor file's text (compiled in), for the page to show.
    pub adaptor: &'static str,
    /// Its profile.
    pub profile: &'static str,
    /// The files it needs, checked against the picked ones.
    pub files: Vec<FileCheck>,
    /// The picked files it does not use (each said, never dropped without a word).
    pub unused: Vec<UnusedFile>,
}

/// The historical files an adaptor names (`$KEMPELEN_HISTORICAL/NAME`) with their SHA-256.
fn needed(text: &str) -> Result<Vec<(String, String)>, WebError> {
    let value: toml::Value = toml::from_str(text).map_err(|e| WebError::Request(e.to_string()))?;
    let images = value.get("image").and_then(|i| i.as_array());
    Ok(images
        .into_iter()
        .flatten()
        .filter_map(|img| {
            let file = img.get("file")?.as_str()?;
            let name = file.strip_prefix("$KEMPELEN_HISTORICAL/")?;
            let sha = img.get("sha256").and_then(|s| s.as_str()).unwrap_or("");
            Some((name.to_string(), sha.to_string()))
        })
        .collect())
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Whether `picked` names the file `name`: the same name, or a browser's copy of it
/// (`microchess (1).h65`, as browsers save a file whose name is taken).
fn same_name(picked: &str, name: &str) -> bool {
    let picked = base_name(picked);
    if picked == name {
        return true;
    }
    let (stem, ext) = name.rsplit_once('.').map_or((name, ""), |(s, e)| (s, e));
    let (p_stem, p_ext) = picked
        .rsplit_once('.')
        .map_or((picked, ""), |(s, e)| (s, e));
    p_ext == ext
        && p_stem
            .strip_prefix(stem)
            .and_then(|rest| rest.trim_start().strip_prefix('('))
            .and_then(|rest| rest.strip_suffix(')'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The picked files matched to the files a program needs: by contents first (a file with
/// the published SHA-256 whatever its name), then by name (then it differs); each needed
/// file with the index of its picked file, and the picked files left unused.
fn assign(
    needed: &[(String, String)],
    picked: &[(String, Vec<u8>)],
) -> (Vec<(FileCheck, Option<usize>)>, Vec<UnusedFile>) {
    let hashes: Vec<String> = picked.iter().map(|(_, b)| sha256_hex(b)).collect();
    let mut used = vec![false; picked.len()];
    let mut checks = Vec::new();
    for (name, sha256) in needed {
        let free = |i: &usize, used: &[bool]| !used[*i];
        let by_content = (0..picked.len()).find(|i| free(i, &used) && hashes[*i] == *sha256);
        let by_name =
            || (0..picked.len()).find(|i| free(i, &used) && same_name(&picked[*i].0, name));
        let at = by_content.or_else(by_name);
        if let Some(i) = at {
            used[i] = true;
        }
        let picked_name = at.map(|i| base_name(&picked[i].0).to_string());
        checks.push((
            FileCheck {
                ok: at.is_some_and(|i| hashes[i] == *sha256),
                picked: at.map(|i| hashes[i].clone()),
                picked_as: picked_name.filter(|n| n != name),
                name: name.clone(),
                sha256: sha256.clone(),
            },
            at,
        ));
    }
    let names: Vec<&str> = needed.iter().map(|(n, _)| n.as_str()).collect();
    let unused = (0..picked.len())
        .filter(|i| !used[*i])
        .map(|i| UnusedFile {
            name: base_name(&picked[i].0).to_string(),
            sha256: hashes[i].clone(),
            reason: if names.iter().any(|n| same_name(&picked[i].0, n)) {
                "another file was picked for the same name".into()
            } else {
                format!(
                    "neither its name nor its contents are those of a file this program needs ({})",
                    names.join(", ")
                )
            },
        })
        .collect();
    (checks, unused)
}

/// The program `id`, its files checked against `picked` (name, bytes).
pub fn info(id: &str, picked: &[(String, Vec<u8>)]) -> Result<ProgramInfo, WebError> {
    let p = program(id)?;
    let (checks, unused) = assign(&needed(p.text)?, picked);
    let name = toml::from_str::<toml::Value>(p.text)
        .ok()
        .and_then(|v| v.get("name")?.as_str().map(String::from))
        .unwrap_or_else(|| p.id.to_string());
    Ok(ProgramInfo {
        id: p.id,
        name,
        file: p.file,
        adaptor: p.text,
        profile: p.profile,
        files: checks.into_iter().map(|(c, _)| c).collect(),
        unused,
    })
}

/// The picked files under the names the adaptor file gives them (a file picked under another
/// name, matched by its contents or as a browser's copy, goes in under the adaptor's name).
fn as_named(text: &str, picked: &[(String, Vec<u8>)]) -> Result<PickedFiles, WebError> {
    let (checks, _) = assign(&needed(text)?, picked);
    let mut files = PickedFiles::new();
    for (check, at) in checks {
        if let Some(i) = at {
            files.add(&check.name, picked[i].1.clone());
        }
    }
    Ok(files)
}

/// What the page asks a program to play.
#[derive(Debug, Clone, Deserialize)]
pub struct ProgramSpec {
    /// `microchess` or `sargon`.
    pub id: String,
    /// The position (default: the start position).
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves played from it (coordinates).
    #[serde(default)]
    pub moves: Vec<String>,
    /// The depth (the adaptor maps it to the program's level).
    pub depth: u32,
    /// The turn that computes the move at the machine's real speed (its clock), not as fast
    /// as the host goes.
    #[serde(default)]
    pub realtime: bool,
}

/// The move a program chose.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramMove {
    /// Its move in coordinates (`None`: it answered none).
    pub best: Option<String>,
    /// In SAN.
    pub san: Option<String>,
    /// The turn's cycles.
    pub cycles: Option<u64>,
    /// The adaptor's node count.
    pub nodes: Option<u64>,
    /// The level it searched at.
    pub level: Option<u32>,
    /// Its turn was stopped: the move is the one it held as best then.
    pub stopped: bool,
    /// Its machine.
    pub machine: String,
    /// The machine's clock in MHz.
    pub mhz: f64,
    /// The turn's time on the machine (cycles at its clock), seconds.
    pub seconds: Option<f64>,
    /// The position it played in.
    pub fen: String,
    /// Its board read from its RAM as its turn began (what the set-up left there).
    pub board_before: Option<BoardRead>,
    /// Its board read from its RAM as it answered.
    pub board_after: Option<BoardRead>,
}

/// The program's board read from its RAM, set against the game's position; or why it could
/// not be read.
#[derive(Debug, Clone, Serialize)]
pub struct BoardRead {
    /// The board as the program holds it.
    pub board: Option<ProgramBoard>,
    /// Its pieces as a FEN's first field.
    pub placement: Option<String>,
    /// The castling its "moved" marks allow (`None`: it keeps no such marks).
    pub castling: Option<String>,
    /// The game's position it is set against (FEN).
    pub game: String,
    /// The squares where the program's board and the game's differ.
    pub differences: Vec<SquareDifference>,
    /// Why the board could not be read.
    pub error: Option<String>,
}

impl BoardRead {
    /// `read` set against `game`.
    pub fn of(read: &Result<ProgramBoard, BoardError>, game: &Position) -> BoardRead {
        match read {
            Ok(b) => BoardRead {
                placement: Some(b.placement()),
                castling: b.castling(),
                differences: b.differences(game),
                game: game.to_fen(),
                board: Some(b.clone()),
                error: None,
            },
            Err(e) => BoardRead {
                board: None,
                placement: None,
                castling: None,
                game: game.to_fen(),
                differences: Vec::new(),
                error: Some(e.to_string()),
            },
        }
    }
}

/// Cycles of the program's machine per slice (65 ms at the Jupiter III's 2 MHz, 131 ms at
/// the KIM-1's 1 MHz; a few ms of host time).
pub const SLICE_CYCLES: u64 = 1 << 17;

/// A real program's move, its turns run a slice at a time in the worker: the set-up (as
/// `kempelen uci --program` does it), then the turn in which it computes its move, with its
/// cycles and nodes as it thinks, paced to its machine's clock at real speed; a stop ends it
/// at once with the move the program holds as best (none when it holds none yet).
pub struct ProgramJob {
    engine: AdaptorEngine,
    open: OpenSearch,
    control: SearchControl<'static>,
    game: Game,
    machine: String,
    mhz: f64,
    realtime: bool,
    /// At real speed: the host's time and the turn's cycles when the turn's pace began.
    pace: Option<(Instant, u64)>,
    /// The turn under way computes the move; its cycles and nodes so far.
    searching: bool,
    cycles: u64,
    nodes: Option<u64>,
    /// The board as the search turn began, once read (sent once).
    before: Option<BoardRead>,
    before_sent: bool,
    result: Option<ProgramMove>,
}

/// What a call of [`ProgramJob::advance`] brings the page.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramAdvance {
    /// The program computes its move (else its set-up's turns run).
    pub searching: bool,
    /// The cycles of the turn under way.
    pub cycles: u64,
    /// Their time at the machine's clock (s).
    pub seconds: f64,
    /// Its nodes in that turn, when its adaptor counts them.
    pub nodes: Option<u64>,
    /// Its board read from its RAM as its turn began: in the first update after it began.
    pub board_before: Option<BoardRead>,
    /// At real speed: how long the page waits before the next call (ms).
    pub wait_ms: f64,
    /// Its move, once the turn is over.
    pub result: Option<ProgramMove>,
}

impl ProgramJob {
    /// The program of `spec` from the picked files: assembled, booted and its search opened
    /// on the position (no turn runs yet).
    pub fn start(spec: &ProgramSpec, picked: &[(String, Vec<u8>)]) -> Result<ProgramJob, WebError> {
        let p = program(&spec.id)?;
        let files = as_named(p.text, picked)?;
        let adaptor = Adaptor::from_text(Path::new(p.file), p.text, &files)
            .map_err(|e| WebError::Engine(e.to_string()))?;
        let machine = adaptor.machine().to_string();
        let mhz = adaptor.clock().mhz;
        let mut engine = AdaptorEngine::with_thread(adaptor, false);
        let fen = spec.fen.as_deref().unwrap_or(kempelen_engine::START_FEN);
        let mut game = Game::from_fen(fen).map_err(|e| WebError::Fen(e.to_string()))?;
        for m in &spec.moves {
            game.push_uci(m)
                .map_err(|e| WebError::Request(format!("move {m}: {e}")))?;
        }
        let limits = Limits {
            depth: Some(spec.depth),
            ..Limits::default()
        };
        let control = SearchControl::default();
        let open = engine
            .open_search(&game, &limits, &control)
            .map_err(|e| WebError::Search(e.to_string()))?;
        Ok(ProgramJob {
            engine,
            open,
            control,
            game,
            machine,
            mhz,
            realtime: spec.realtime,
            pace: None,
            searching: false,
            cycles: 0,
            nodes: None,
            before: None,
            before_sent: false,
            result: None,
        })
    }

    /// Runs the program's turns on for at most `cycles` cycles: whether the search is over.
    pub fn step(&mut self, cycles: u64) -> Result<bool, WebError> {
        if self.result.is_some() {
            return Ok(true);
        }
        let slice = self
            .engine
            .advance(&self.open, cycles, &self.control)
            .map_err(|e| WebError::Search(e.to_string()))?;
        match slice {
            SearchSlice::Running {
                searching,
                cycles,
                nodes,
                board_before,
            } => {
                if searching && !self.searching {
                    self.before = board_before.map(|b| BoardRead::of(&b, self.game.position()));
                }
                self.searching = searching;
                self.cycles = cycles;
                self.nodes = nodes;
                Ok(false)
            }
            SearchSlice::Done(result) => {
                self.result = Some(self.program_move(&result));
                Ok(true)
            }
        }
    }

    /// Runs slices for at most `max_host_ms` of host time; at real speed the turn that
    /// computes the move goes no faster than the machine's clock (the page waits `wait_ms`).
    pub fn advance(&mut self, max_host_ms: f64) -> Result<ProgramAdvance, WebError> {
        let started = Instant::now();
        let mut wait_ms = 0.0;
        while self.result.is_none() {
            let budget = match self.paced() {
                Ok(c) => c,
                Err(ahead_ms) => {
                    wait_ms = ahead_ms;
                    break;
                }
            };
            self.step(budget)?;
            if started.elapsed().as_secs_f64() * 1000.0 >= max_host_ms {
                break;
            }
        }
        let board_before = if self.before.is_some() && !self.before_sent {
            self.before_sent = true;
            self.before.clone()
        } else {
            None
        };
        Ok(ProgramAdvance {
            searching: self.searching,
            cycles: self.cycles,
            seconds: self.cycles as f64 / (self.mhz * 1e6),
            nodes: self.nodes,
            board_before,
            wait_ms,
            result: self.result.clone(),
        })
    }

    /// The cycles the next slice may run: [`SLICE_CYCLES`], or at real speed (while the
    /// program computes its move) as many as bring its clock up to the host's since the turn
    /// began; `Err(ms)` when its clock is ahead by that much.
    fn paced(&mut self) -> Result<u64, f64> {
        if !self.realtime || !self.searching {
            return Ok(SLICE_CYCLES);
        }
        let (since, from) = *self.pace.get_or_insert((Instant::now(), self.cycles));
        let hz = self.mhz * 1e6;
        let allowed = from + (since.elapsed().as_secs_f64() * hz) as u64;
        if self.cycles >= allowed {
            return Err(((self.cycles - allowed) as f64 / hz * 1000.0).max(1.0));
        }
        Ok((allowed - self.cycles).clamp(1, SLICE_CYCLES))
    }

    /// After a pause: at real speed the machine's clock is counted again from now.
    pub fn resume(&mut self) {
        self.pace = None;
    }

    /// Ends the turn: the next slice ends it with the move the program holds as best.
    pub fn stop(&mut self) {
        self.control.stop.store(true, Ordering::Relaxed);
        self.realtime = false;
    }

    /// What the page shows of the search's result.
    fn program_move(&self, result: &SearchResult) -> ProgramMove {
        let game = &self.game;
        let figures = self.engine.last_search();
        let cycles = figures.as_ref().map(|f| f.cycles);
        let boards = self.engine.last_boards();
        let after = result.best.and_then(|m| {
            let mut g = game.clone();
            g.push(m).ok().map(|_| g.position().clone())
        });
        ProgramMove {
            board_before: boards.map(|b| BoardRead::of(&b.before, game.position())),
            board_after: boards
                .and_then(|b| b.after.as_ref())
                .zip(after)
                .map(|(read, pos)| BoardRead::of(read, &pos)),
            best: result.best.map(|m| m.to_uci()),
            san: result.best.map(|m| game.position().san(m)),
            cycles,
            nodes: figures.as_ref().and_then(|f| f.nodes),
            level: figures.as_ref().and_then(|f| f.level),
            stopped: figures.as_ref().is_some_and(|f| f.stopped),
            machine: self.machine.clone(),
            mhz: self.mhz,
            seconds: cycles.map(|c| c as f64 / (self.mhz * 1e6)),
            fen: game.position().to_fen(),
        }
    }
}

/// The program of `spec` from the picked files: assembled, set up at the position, its move
/// (its turns run to their end, a slice after another).
pub fn play(spec: &ProgramSpec, picked: &[(String, Vec<u8>)]) -> Result<ProgramMove, WebError> {
    let mut job = ProgramJob::start(spec, picked)?;
    while !job.step(SLICE_CYCLES)? {}
    Ok(job.result.take().expect("a finished search has its move"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_program_names_its_files_and_checks_what_was_picked() {
        let m = info("microchess", &[]).unwrap();
        assert_eq!(m.files.len(), 1);
        assert_eq!(m.files[0].name, "microchess.h65");
        assert!(!m.files[0].ok && m.files[0].picked.is_none());
        let wrong = info(
            "sargon",
            &[("dir/sargon-z80.asm".into(), b"; not it".to_vec())],
        )
        .unwrap();
        assert_eq!(wrong.files[0].name, "sargon-z80.asm");
        assert!(wrong.files[0].picked.is_some() && !wrong.files[0].ok);
        let spec = ProgramSpec {
            id: "microchess".into(),
            fen: None,
            moves: vec![],
            depth: 1,
            realtime: false,
        };
        let e = play(&spec, &[]).unwrap_err().to_string();
        assert!(e.contains("microchess.h65"), "{e}");
        assert!(info("chess4", &[]).is_err());
    }

    /// A picked file is matched by its contents whatever its name, or by its name (also as a
    /// browser's copy `name (1).ext`); a file that is neither is said, never dropped.
    #[test]
    fn picked_files_are_matched_by_contents_or_name_and_the_rest_named() {
        let needed = vec![
            ("microchess.h65".to_string(), sha256_hex(b"the program")),
            ("rom.bin".to_string(), sha256_hex(b"the rom")),
        ];
        let picked = vec![
            ("Downloads/mc.txt".to_string(), b"the program".to_vec()),
            ("rom (1).bin".to_string(), b"another rom".to_vec()),
            ("notes.txt".to_string(), b"hello".to_vec()),
        ];
        let (checks, unused) = assign(&needed, &picked);
        assert!(checks[0].0.ok);
        assert_eq!(checks[0].0.picked_as.as_deref(), Some("mc.txt"));
        assert!(!checks[1].0.ok && checks[1].0.picked.is_some());
        assert_eq!(checks[1].0.picked_as.as_deref(), Some("rom (1).bin"));
        assert_eq!(unused.len(), 1);
        assert_eq!(unused[0].name, "notes.txt");
        assert!(
            unused[0].reason.contains("microchess.h65, rom.bin"),
            "{}",
            unused[0].reason
        );
        for (a, b, same) in [
            ("dir/x.h65", "x.h65", true),
            ("x (12).h65", "x.h65", true),
            ("x(2).h65", "x.h65", true),
            ("x (a).h65", "x.h65", false),
            ("x (1).asm", "x.h65", false),
            ("xy.h65", "x.h65", false),
        ] {
            assert_eq!(same_name(a, b), same, "{a} {b}");
        }
    }

    /// With the historical files (KEMPELEN_HISTORICAL): each program's board read from its
    /// RAM holds the position set up before its turn and the position after its move when
    /// it answered (on a position without castling or en passant to come, where neither
    /// program's board lacks anything the game has). Skipped without the files.
    #[test]
    fn each_programs_board_is_read_from_its_ram_around_its_turn() {
        let Ok(dir) = std::env::var("KEMPELEN_HISTORICAL") else {
            eprintln!("SKIPPED: KEMPELEN_HISTORICAL is not set (the programs' boards)");
            return;
        };
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        for (id, file, depth, castling) in [
            ("microchess", "microchess.h65", 1, None),
            ("sargon", "sargon-z80.asm", 1, Some("KQkq")),
        ] {
            let bytes = std::fs::read(Path::new(&dir).join(file)).unwrap();
            let spec = ProgramSpec {
                id: id.into(),
                fen: Some(fen.into()),
                moves: vec![],
                depth,
                realtime: false,
            };
            let m = play(&spec, &[(file.to_string(), bytes)]).unwrap();
            let before = m.board_before.expect("read before");
            assert_eq!(before.error, None, "{id}");
            assert_eq!(before.placement.as_deref(), fen.split(' ').next(), "{id}");
            assert_eq!(before.castling.as_deref(), castling, "{id}");
            let after = m.board_after.expect("read after");
            let mut game = Game::from_fen(fen).unwrap();
            game.push_uci(m.best.as_deref().unwrap()).unwrap();
            let placement = game.position().to_fen();
            assert_eq!(
                after.placement.as_deref(),
                placement.split(' ').next(),
                "{id}"
            );
            assert!(
                after.differences.is_empty(),
                "{id}: {:?}",
                after.differences
            );
        }
        // Castling rights as Sargon's "moved" marks: the set-up (its ANALYS mode) marks the
        // king or rook whose castling the position has lost.
        let bytes = std::fs::read(Path::new(&dir).join("sargon-z80.asm")).unwrap();
        let placement = "r3k2r/pppq1ppp/2n5/4p3/4P3/2N5/PPPQ1PPP/R3K2R";
        for (rest, castling) in [
            ("w Kq - 0 9", "Kq"),
            ("b Qk - 0 9", "Qk"),
            ("w - - 0 9", "-"),
        ] {
            let fen = format!("{placement} {rest}");
            let spec = ProgramSpec {
                id: "sargon".into(),
                fen: Some(fen.clone()),
                moves: vec![],
                depth: 1,
                realtime: false,
            };
            let m = play(&spec, &[("sargon-z80.asm".to_string(), bytes.clone())]).unwrap();
            let before = m.board_before.expect("read before");
            assert_eq!(before.castling.as_deref(), Some(castling), "{fen}");
            assert!(before.differences.is_empty(), "{fen}");
        }
    }

    /// With the historical files: Microchess's turn run in slices shows its cycles growing as
    /// it thinks and its board before its turn; stopped half-way, it plays the move it holds
    /// as best (`stopped`), fewer cycles than the whole turn takes. Skipped without the files.
    #[test]
    fn a_programs_turn_runs_in_slices_and_stops_with_the_move_it_holds() {
        let Ok(dir) = std::env::var("KEMPELEN_HISTORICAL") else {
            eprintln!("SKIPPED: KEMPELEN_HISTORICAL is not set (a program's turn in slices)");
            return;
        };
        let bytes = std::fs::read(Path::new(&dir).join("microchess.h65")).unwrap();
        let spec = ProgramSpec {
            id: "microchess".into(),
            fen: Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into()),
            moves: vec![],
            depth: 1,
            realtime: false,
        };
        let picked = [("microchess.h65".to_string(), bytes)];
        let whole = play(&spec, &picked).unwrap();
        let mut job = ProgramJob::start(&spec, &picked).unwrap();
        let mut last = 0;
        while !(job.searching && job.cycles >= 20_000_000) {
            assert!(
                !job.step(1_000_000).unwrap(),
                "it answered before it was stopped"
            );
            if job.searching {
                assert!(job.cycles >= last);
                last = job.cycles;
            }
        }
        let before = job.before.clone().expect("its board as its turn began");
        assert_eq!(before.placement, whole.board_before.unwrap().placement);
        job.stop();
        assert!(job.step(1_000_000).unwrap());
        let stopped = job.result.clone().unwrap();
        assert!(stopped.stopped && !whole.stopped);
        assert!(stopped.best.is_some(), "it holds a move after 20M cycles");
        assert!(stopped.cycles.unwrap() < whole.cycles.unwrap());
        assert!(
            stopped.board_after.is_none(),
            "no board after a stopped search"
        );
    }
}
