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
    ClockMode, Format, GameRecord, GameSettings, GameSummary, MoveLimit, Opening, Outcome, PgnTags,
    PlayerKinds, PlayerSpec, Shard, Standings, TimeControl, Tournament, parse_openings, read_pgn,
    to_pgn,
};
use serde_json::json;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

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
    let mut bytes = Vec::new();
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

/// `LABEL=VALUE` with the label among `names`.
fn split_label<'a>(
    flag: &str,
    text: &'a str,
    names: &[&str],
) -> anyhow::Result<(&'a str, &'a str)> {
    let (label, value) = text
        .split_once('=')
        .with_context(|| format!("{flag} '{text}': expected LABEL=..."))?;
    let label = label.trim();
    if !names.contains(&label) {
        bail!(
            "{flag} '{text}': no player '{label}' (players: {})",
            names.join(", ")
        );
    }
    Ok((label, value.trim()))
}

fn parse_anchor<'a>(text: &'a str, names: &[&str]) -> anyhow::Result<(&'a str, f64)> {
    let (label, elo) = split_label("--anchor", text, names)?;
    let elo: f64 = elo
        .parse()
        .ok()
        .filter(|e: &f64| e.is_finite())
        .with_context(|| format!("--anchor '{text}': '{elo}' is not a rating"))?;
    Ok((label, elo))
}

/// Runs `kempelen tournament`.
pub fn run(args: &TournamentArgs) -> anyhow::Result<()> {
    let specs_text: Vec<&String> = args.players.iter().chain(&args.engines).collect();
    if specs_text.len() < 2 {
        bail!(
            "give at least two players (profile names, reference variants, z80, 6502, \
             program:FILE.toml, uci:... or xboard:...)"
        );
    }
    let kinds = supplied_kinds();
    let mut players = Vec::new();
    for s in &specs_text {
        players.push(PlayerSpec::parse_with(s, &kinds)?);
    }
    for (i, p) in players.iter().enumerate() {
        if players[..i].iter().any(|q| q.label == p.label) {
            bail!(
                "two players are called '{}': name them with LABEL=SPEC (e.g. a={} b={})",
                p.label,
                specs_text[i],
                specs_text[i]
            );
        }
    }
    if args.event.chars().any(char::is_control) {
        bail!(
            "--event {:?}: a control character (a line end, a tab) cannot go into a PGN tag",
            args.event
        );
    }
    let limit = match (args.nodes, args.depth, args.movetime.as_deref(), &args.tc) {
        (Some(n), ..) => MoveLimit::Nodes(n),
        (_, Some(d), ..) => MoveLimit::Depth(d),
        (_, _, Some(t), _) => MoveLimit::MoveTime(
            kempelen_engine::tournament::parse_movetime(t)
                .map_err(|e| anyhow::anyhow!("--movetime {e}"))?,
        ),
        (_, _, _, Some(tc)) => MoveLimit::Clock(
            tc.parse::<TimeControl>()
                .map_err(|e| anyhow::anyhow!("--tc '{}': {}", e.text, e.reason))?,
        ),
        _ => MoveLimit::Nodes(10_000),
    };
    if let Err(e) = limit.check() {
        match &limit {
            MoveLimit::Depth(d) => bail!("--depth {d}: {e}"),
            MoveLimit::Nodes(n) => bail!("--nodes {n}: {e}"),
            _ => bail!("{e}"),
        }
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if !(args.move_timeout > 0.0 && args.move_timeout <= 86_400.0) {
        bail!("--move-timeout must be between 0 and 86400 seconds");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let names: Vec<&str> = players.iter().map(|p| p.label.as_str()).collect();
    let mut own: Vec<Option<MoveLimit>> = vec![None; players.len()];
    for text in &args.limits {
        let (label, value) = split_label("--limit", text, &names)?;
        let l = MoveLimit::parse_fixed(value).map_err(|e| anyhow::anyhow!("--limit {e}"))?;
        let i = names.iter().position(|n| *n == label).expect("a player");
        if own[i].is_some() {
            bail!("--limit '{text}': '{label}' has a limit already");
        }
        own[i] = Some(l);
    }
    let anchor = args
        .anchor
        .as_deref()
        .map(|a| parse_anchor(a, &names))
        .transpose()?;
    let mut inputs: Vec<PathBuf> = Vec::new();
    let mut openings: Vec<Opening> = Vec::new();
    for path in &args.openings {
        let text = read_text(Path::new(path), "opening file")?;
        openings.extend(parse_openings(&text, path)?);
        inputs.push(PathBuf::from(path));
    }
    if openings.is_empty() {
        openings = parse_openings(BUNDLED_OPENINGS, "bundled openings")?;
    }
    for p in &players {
        inputs.extend(p.inputs());
    }
    if let Some(pgn) = &args.pgn {
        check_outputs(&inputs, &[("--pgn", pgn.as_path())])?;
    }
    if args.games as usize > 2 * openings.len() && !args.json {
        eprintln!(
            "note: {} games per pairing repeat the {} openings; deterministic players \
             (native profiles and 8-bit builds at fixed nodes or depth, or on emulated clocks) \
             replay identical games",
            args.games,
            openings.len()
        );
    }
    let opening_count = openings.len();
    let settings = GameSettings {
        limit: limit.clone(),
        max_plies: args.max_plies,
        clock: args.clock,
        move_timeout: None,
    };
    let mut t = Tournament::new(players, settings, openings);
    t.limits = own;
    t.format = if args.gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    t.games_per_pairing = args.games;
    t.move_timeout = Duration::from_secs_f64(args.move_timeout);
    // Every player is started once, with its options: one that cannot play stops here.
    t.check()?;
    let all = t.schedule();
    let games = match args.shard {
        Some(shard) => shard.select(&all),
        None => all.clone(),
    };
    if games.is_empty() {
        bail!(
            "--shard {}: the schedule has only {} games, none in this slice",
            args.shard.expect("a shard"),
            all.len()
        );
    }
    let partial = match &args.pgn {
        Some(pgn) => Partial::create(pgn)?,
        None => None,
    };
    let bar = crate::progress::bar(games.len() as u64, "games", args.json);
    let tags = |round: usize| PgnTags {
        event: args.event.clone(),
        round: round.to_string(),
        date: String::new(),
    };
    let tally = Mutex::new([0u32; 3]);
    let partial = Mutex::new(partial);
    let records = t.play(&games, args.concurrency, &|k, record: &GameRecord| {
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
            p.append(&to_pgn(record, &tags(games[k].round)));
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(path) = &args.pgn {
        let text: String = games
            .iter()
            .zip(&records)
            .map(|(p, r)| to_pgn(r, &tags(p.round)))
            .collect();
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
    let summaries: Vec<GameSummary> = games
        .iter()
        .zip(&records)
        .map(|(p, r)| GameSummary::of_record(r, p.round))
        .collect();
    let standings = Standings::new(
        t.players.iter().map(|p| p.label.clone()).collect(),
        summaries,
        anchor,
    )?;
    if args.json {
        let mut v = standings.to_json();
        v["format"] = json!(t.format.to_string());
        v["limit"] = json!(limit.to_string());
        v["clock"] = json!(args.clock);
        v["games_per_pairing"] = json!(args.games);
        v["openings"] = json!(opening_count);
        v["max_plies"] = json!(args.max_plies);
        v["shard"] = json!(args.shard.map(|s| s.to_string()));
        v["scheduled_games"] = json!(all.len());
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    let format = match t.format {
        Format::RoundRobin => "Round robin",
        Format::Gauntlet => "Gauntlet",
    };
    let clocks = match (&limit, args.clock) {
        (MoveLimit::Clock(_) | MoveLimit::MoveTime(_), ClockMode::Emulated) => " (emulated clocks)",
        (MoveLimit::Clock(_) | MoveLimit::MoveTime(_), ClockMode::Host) => " (host clocks)",
        _ => "",
    };
    let slice = match args.shard {
        Some(s) => format!(" (slice {s}: {} of {} games)", games.len(), all.len()),
        None => String::new(),
    };
    println!(
        "{format} of {} players, {} games per pairing, {limit}{clocks}, {opening_count} openings, \
         draw at {} plies: {} games{slice}",
        t.players.len(),
        args.games,
        args.max_plies,
        records.len()
    );
    for (p, l) in t.players.iter().zip(&t.limits) {
        if let Some(l) = l {
            println!("  {} plays at {l}", p.label);
        }
    }
    println!();
    print!("{}", standings.to_text());
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
    let mut summaries = Vec::new();
    let mut unfinished = 0usize;
    let mut seen: std::collections::HashMap<(String, String, String, String, String), String> =
        std::collections::HashMap::new();
    for path in &args.files {
        let text = read_text(path, "PGN file")?;
        let source = path.display().to_string();
        for g in read_pgn(&text, &source)? {
            // The same game twice (a slice given twice) would count twice: refused.
            let round = g.tag("Round").unwrap_or("").trim().to_string();
            if !round.is_empty() && round != "?" && round != "-" {
                let tag = |t: &str| g.tag(t).unwrap_or("").to_string();
                let key = (tag("Event"), tag("Site"), round, tag("White"), tag("Black"));
                if let Some(first) = seen.insert(key, g.place.clone()) {
                    bail!(
                        "{}: the same game (event, round, players) as {first}; is a file given twice?",
                        g.place
                    );
                }
            }
            match GameSummary::of_pgn(&g) {
                Some(s) => summaries.push(s),
                None => unfinished += 1,
            }
        }
    }
    if summaries.is_empty() {
        bail!(
            "no finished games in {} ({unfinished} unfinished)",
            args.files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let names: Vec<String> = {
        let s = Standings::from_games(summaries.clone(), None)?;
        s.players
    };
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let anchor = args
        .anchor
        .as_deref()
        .map(|a| parse_anchor(a, &name_refs))
        .transpose()?;
    let standings = Standings::from_games(summaries, anchor)?;
    let groups = standings.groups();
    if args.json {
        let mut v = standings.to_json();
        v["files"] = json!(args.files);
        v["unfinished"] = json!(unfinished);
        v["groups"] = json!(groups);
        println!("{}", serde_json::to_string_pretty(&v)?);
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
