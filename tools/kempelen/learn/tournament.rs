//! `kempelen tournament` and `kempelen ratings`. The tournament: a round robin or gauntlet
//! among native profiles, reference variants, Kempelen's 8-bit builds in the emulator, adapted
//! historical programs and external UCI or xboard engines, at fixed nodes, fixed depth, a time
//! per move or a clock (host or emulated time), each player with its own limit if given, over
//! an opening set played with both colours, N games at a time, all of the schedule or one
//! slice of it; a PGN file, a progress line, and at the end a crosstable and ratings with 95 %
//! margins. `ratings` makes the same table from any set of PGN files (the slices of a
//! tournament played on several machines). See docs/TOURNAMENT.md. The games, the schedule,
//! the PGN and the arithmetic are `kempelen_engine::tournament`; this module parses, checks
//! files and prints.

use crate::output::{Outputs, check_outputs};
use anyhow::{Context, bail};
use kempelen_engine::tournament::{
    ClockMode, GameRecord, Outcome, PgnCollection, PlayerKinds, Setup, Shard,
};
use serde_json::json;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The bundled opening set: well-known openings ten plies deep, each played with both colours.
pub const BUNDLED_OPENINGS: &str = include_str!("../../match/openings.epd");

/// The largest opening or PGN file read, in bytes (so `--openings /dev/zero` ends).
const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The player kinds beyond the engine crate's: the 8-bit builds and the adapted programs.
fn supplied_kinds() -> [&'static dyn PlayerKinds; 2] {
    [
        &kempelen_roms::player::PortPlayers,
        &kempelen_adaptor::player::ProgramPlayers,
    ]
}

/// Arguments of `kempelen tournament`.
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// Players: native profiles (`reference`, `full`, any profile name), reference variants
    /// (`reference-no-killers`, ...), Kempelen's 8-bit builds (`z80`, `6502`, with options
    /// such as `z80:Machine=jupiter-3`), adapted programs (`program:FILE.toml`),
    /// `uci:COMMAND[:OPT=VAL,...]`, `xboard:COMMAND`; prefix `LABEL=` to name one.
    #[arg(value_name = "PLAYER")]
    pub players: Vec<String>,
    /// Another player (same syntax; for external engines, e.g.
    /// `--engine uci:stockfish:UCI_LimitStrength=true,UCI_Elo=1350`).
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Gauntlet: the first player meets every other one; the others do not meet each other.
    #[arg(long)]
    pub gauntlet: bool,
    /// Fixed nodes per move (the default, 10000, when no limit is given).
    #[arg(long, conflicts_with_all = ["depth", "tc", "movetime"])]
    pub nodes: Option<u64>,
    /// Fixed depth per move (1 to 64).
    #[arg(long, conflicts_with_all = ["tc", "movetime"])]
    pub depth: Option<u32>,
    /// Fixed time per move, in milliseconds as in `search` and `uci` (`30000`; also `30s`,
    /// `500ms`), on each player's clock (see --clock).
    #[arg(long, value_name = "MS", conflicts_with = "tc")]
    pub movetime: Option<String>,
    /// A clock per side, as PGN's TimeControl writes it: BASE+INC in seconds (`10+0.1`),
    /// MOVES/BASE (`40/7200`: 40 moves in two hours, repeated), periods joined by `:`
    /// (`40/7200:3600`).
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Whose time the clocks charge: `host` (the wall time of each search on this host) or
    /// `emulated` (the time each player reports: emulated time at its machine's clock for the
    /// 8-bit builds and adapted programs, host time for native profiles and external engines).
    #[arg(long, value_name = "host|emulated", default_value = "host")]
    pub clock: ClockMode,
    /// A player's own limit: LABEL=depth:N, LABEL=nodes:N or LABEL=movetime:MS
    /// (with a clock, on top of it; else instead of the game's limit). Repeat for several.
    #[arg(long = "limit", value_name = "LABEL=LIMIT")]
    pub limits: Vec<String>,
    /// Games per pairing (even numbers play every opening with both colours).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Opening set (EPD; default: the bundled set of 50 openings); repeat to join several.
    #[arg(long, value_name = "FILE")]
    pub openings: Vec<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Adjudicate a draw when a game reaches this many plies.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Seconds of host time a move may take beyond its limit before its player forfeits (for
    /// an external engine it also bounds the start-up handshake, at most 10 s).
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Play only the K-th of N slices of the schedule (K/N; rounds keep their numbers), for
    /// spreading a tournament over machines; `kempelen ratings` joins the PGN files.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Anchor the ratings: LABEL=ELO (a player with a known rating).
    #[arg(long, value_name = "LABEL=ELO")]
    pub anchor: Option<String>,
    /// Write the games to this PGN file (in schedule order, at the end; meanwhile the games
    /// so far are in `.FILE.partial` beside it).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Event name for the PGN.
    #[arg(long, default_value = "Kempelen tournament")]
    pub event: String,
    /// Machine-readable output (no progress line).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `kempelen ratings`.
#[derive(clap::Args, Debug)]
pub struct RatingsArgs {
    /// PGN files (for example the slices of a tournament played with --shard).
    #[arg(value_name = "FILE.pgn", required = true)]
    pub files: Vec<PathBuf>,
    /// Anchor the ratings: LABEL=ELO (a player with a known rating).
    #[arg(long, value_name = "LABEL=ELO")]
    pub anchor: Option<String>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// A text file of at most [`MAX_INPUT_BYTES`].
fn read_text(path: &Path, what: &str) -> anyhow::Result<String> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("reading {what} '{}'", path.display()))?;
    // Room for the whole file at once (a growing buffer would double past it).
    let size = file.metadata().map_or(0, |m| m.len()).min(MAX_INPUT_BYTES) + 1;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {what} '{}'", path.display()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "{what} '{}' is larger than {} MiB",
            path.display(),
            MAX_INPUT_BYTES >> 20
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{what} '{}': not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

impl TournamentArgs {
    /// The settings the flags give.
    fn setup(&self) -> Setup {
        Setup {
            players: self.players.iter().chain(&self.engines).cloned().collect(),
            gauntlet: self.gauntlet,
            nodes: self.nodes,
            depth: self.depth,
            movetime: self.movetime.clone(),
            tc: self.tc.clone(),
            clock: self.clock,
            limits: self.limits.clone(),
            games: self.games,
            opening_files: self.openings.clone(),
            concurrency: self.concurrency,
            max_plies: self.max_plies,
            move_timeout: self.move_timeout,
            shard: self.shard,
            anchor: self.anchor.clone(),
            event: self.event.clone(),
        }
    }
}

/// Runs `kempelen tournament`.
pub fn run(args: &TournamentArgs) -> anyhow::Result<()> {
    let planned = args
        .setup()
        .prepare(&supplied_kinds(), BUNDLED_OPENINGS, |path| {
            read_text(Path::new(path), "opening file")
        })?;
    if let Some(pgn) = &args.pgn {
        check_outputs(&planned.inputs, &[("--pgn", pgn.as_path())])?;
    }
    if let (Some(note), false) = (planned.note(), args.json) {
        eprintln!("note: {note}");
    }
    // Every player is started once, with its options: one that cannot play stops here.
    let slice = planned.check()?;
    let partial = match &args.pgn {
        Some(pgn) => Partial::create(pgn)?,
        None => None,
    };
    let bar = crate::progress::bar(slice.len() as u64, "games", args.json);
    let tally = Mutex::new([0u32; 3]);
    let partial = Mutex::new(partial);
    let played = planned.tournament.play(
        &slice,
        planned.concurrency,
        &|_, record: &GameRecord, pgn: &str| {
            let mut t = tally.lock().expect("tally");
            t[match record.outcome {
                Outcome::WhiteWins => 0,
                Outcome::Draw => 1,
                Outcome::BlackWins => 2,
            }] += 1;
            bar.set_message(format!(
                "white +{} ={} -{}, last {} {}",
                t[0],
                t[1],
                t[2],
                record.outcome.pgn(),
                record.termination
            ));
            if let Some(p) = partial.lock().expect("partial").as_mut() {
                p.append(pgn);
            }
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    if let Some(path) = &args.pgn {
        let text: String = played.iter().map(|g| g.pgn.as_str()).collect();
        let mut out = Outputs::new();
        out.stage(path, text.as_bytes())?;
        out.commit()?;
        if let Some(p) = partial.into_inner().expect("partial") {
            p.remove();
        }
    }
    // Every engine has ended with its game: from here a closed standard output (`tournament |
    // head`) ends Kempelen quietly, as it does every other command.
    crate::exit_quietly_on_closed_pipe();
    let standings = planned.standings(&played)?;
    if args.json {
        standings.write_json(planned.report_fields(&slice), &mut std::io::stdout().lock())?;
        return Ok(());
    }
    print!("{}", planned.report_text(&standings, &slice));
    if let Some(path) = &args.pgn {
        println!("PGN: {}", path.display());
    }
    Ok(())
}

/// The games so far, appended as each ends, in a file beside the PGN target
/// (`.NAME.partial`): what a long tournament has played if it is stopped. Removed once the
/// PGN is written.
struct Partial {
    path: PathBuf,
    file: std::fs::File,
    failed: bool,
}

impl Partial {
    /// The partial file of `target`; `None` when the target is not a regular file (a device:
    /// the games go there at the end only).
    fn create(target: &Path) -> anyhow::Result<Option<Partial>> {
        if std::fs::metadata(target).is_ok_and(|m| !m.is_file()) {
            return Ok(None);
        }
        let name = target
            .file_name()
            .with_context(|| format!("--pgn {}: not a file name", target.display()))?;
        let mut partial = std::ffi::OsString::from(".");
        partial.push(name);
        partial.push(".partial");
        let path = target.with_file_name(partial);
        let file = std::fs::File::create(&path).with_context(|| {
            format!(
                "--pgn {}: cannot write beside it ({})",
                target.display(),
                path.display()
            )
        })?;
        Ok(Some(Partial {
            path,
            file,
            failed: false,
        }))
    }

    fn append(&mut self, text: &str) {
        if !self.failed && self.file.write_all(text.as_bytes()).is_err() {
            // The games still reach the PGN at the end; only the running copy stops.
            self.failed = true;
        }
    }

    fn remove(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Runs `kempelen ratings`.
pub fn ratings(args: &RatingsArgs) -> anyhow::Result<()> {
    let mut games = PgnCollection::new();
    for path in &args.files {
        let text = read_text(path, "PGN file")?;
        games.add(&text, &path.display().to_string())?;
    }
    let unfinished = games.unfinished();
    let standings = games.standings(args.anchor.as_deref())?;
    let groups = standings.groups();
    if args.json {
        let fields = json!({ "files": args.files, "unfinished": unfinished, "groups": groups });
        standings.write_json(fields, &mut std::io::stdout().lock())?;
        return Ok(());
    }
    println!(
        "{} players, {} games from {} PGN file{}{}",
        standings.players.len(),
        standings.games.len(),
        args.files.len(),
        if args.files.len() == 1 { "" } else { "s" },
        if unfinished > 0 {
            format!(" ({unfinished} unfinished games left out)")
        } else {
            String::new()
        }
    );
    if groups.len() > 1 {
        let listed: Vec<String> = groups.iter().map(|g| g.join(", ")).collect();
        println!(
            "The players fall into {} groups that never met: {}. Elo is on one scale within a group only; between groups the figures compare nothing.",
            groups.len(),
            listed.join(" | ")
        );
    }
    println!();
    print!("{}", standings.to_text());
    Ok(())
}
