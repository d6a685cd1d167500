//! `kempelen tournament`: a round robin or gauntlet among native profiles, reference variants
//! and external UCI or xboard engines, at fixed nodes, fixed depth or a clock, over an opening
//! set played with both colours, N games at a time; a PGN file, a progress line, and at the end
//! a crosstable and ratings with 95 % margins (docs/TOURNAMENT.md). The schedule, the games and
//! the standings are `kempelen_engine::tournament`; this module parses, shows progress, writes
//! the PGN and prints.

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use kempelen_engine::tournament::{
    GameRecord, GameSettings, MoveLimit, Opening, Outcome, Pairing, PgnTags, PlayerKind,
    PlayerSpec, Standings, forfeits, parse_openings, play_all, schedule, to_pgn,
};
use serde_json::json;
use std::io::Write;
use std::sync::Mutex;
use std::time::Duration;

/// The bundled opening set: well-known openings ten plies deep, each played with both colours.
pub const BUNDLED_OPENINGS: &str = include_str!("../../match/openings.epd");

/// Arguments of `kempelen tournament`.
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// Players: native profiles (`reference`, `full`, any profile name), reference variants
    /// (`reference-no-killers`, ...), `uci:COMMAND[:OPT=VAL,...]`, `xboard:COMMAND`; prefix
    /// `LABEL=` to name one.
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
    #[arg(long, conflicts_with_all = ["depth", "tc"])]
    pub nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, conflicts_with = "tc")]
    pub depth: Option<u32>,
    /// Clock per side: BASE+INC in seconds (e.g. `10+0.1`).
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
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
    /// Seconds an external engine may exceed its limit before it forfeits (also bounds its
    /// start-up handshake, at most 10 s).
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Anchor the ratings: LABEL=ELO (a player with a known rating).
    #[arg(long, value_name = "LABEL=ELO")]
    pub anchor: Option<String>,
    /// Write the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<String>,
    /// Event name for the PGN.
    #[arg(long, default_value = "Kempelen tournament")]
    pub event: String,
    /// Machine-readable output (no progress line).
    #[arg(long)]
    pub json: bool,
}

fn parse_tc(text: &str) -> anyhow::Result<MoveLimit> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str, what: &str| -> anyhow::Result<Duration> {
        let v: f64 = s
            .trim()
            .parse()
            .with_context(|| format!("--tc '{text}': {what} '{s}' is not a number of seconds"))?;
        if !(0.0..=86_400.0).contains(&v) {
            bail!("--tc '{text}': {what} {v} is out of range (0 to 86400 seconds)");
        }
        Ok(Duration::from_secs_f64(v))
    };
    let base = secs(base, "base")?;
    if base.is_zero() {
        bail!("--tc '{text}': the base time must be positive");
    }
    Ok(MoveLimit::Clock {
        base,
        increment: secs(inc, "increment")?,
    })
}

fn fmt_elo(v: f64) -> String {
    if v.is_infinite() {
        if v > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if v.abs() < 0.5 {
        "0".into()
    } else {
        format!("{v:+.0}")
    }
}

fn fmt_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// Runs the command.
pub fn run(args: &TournamentArgs) -> anyhow::Result<()> {
    let specs_text: Vec<&String> = args.players.iter().chain(&args.engines).collect();
    if specs_text.len() < 2 {
        bail!(
            "give at least two players (profile names, reference variants, uci:... or xboard:...)"
        );
    }
    let mut players = Vec::new();
    for s in &specs_text {
        players.push(PlayerSpec::parse(s)?);
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
    let limit = match (args.nodes, args.depth, &args.tc) {
        (_, Some(0), _) => bail!("--depth must be at least 1"),
        (Some(0), _, _) => bail!("--nodes must be at least 1"),
        (Some(n), _, _) => MoveLimit::Nodes(n),
        (_, Some(d), _) => MoveLimit::Depth(d),
        (_, _, Some(tc)) => parse_tc(tc)?,
        _ => MoveLimit::Nodes(10_000),
    };
    if let MoveLimit::Nodes(_) = limit {
        if let Some(p) = players
            .iter()
            .find(|p| matches!(p.kind, PlayerKind::Xboard(_)))
        {
            bail!(
                "'{}' is an xboard engine: the xboard protocol has no fixed-node search; use --depth N or --tc BASE+INC",
                p.label
            );
        }
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if !(args.move_timeout > 0.0 && args.move_timeout <= 86_400.0) {
        bail!("--move-timeout must be between 0 and 86400 seconds");
    }
    let move_timeout = Duration::from_secs_f64(args.move_timeout);
    let mut openings: Vec<Opening> = Vec::new();
    for path in &args.openings {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading '{path}'"))?;
        openings.extend(parse_openings(&text, path)?);
    }
    if openings.is_empty() {
        openings = parse_openings(BUNDLED_OPENINGS, "bundled openings")?;
    }
    if args.games as usize > 2 * openings.len() && !args.json {
        eprintln!(
            "note: {} games per pairing repeat the {} openings; deterministic players \
             (every native profile at fixed nodes or depth) replay identical games",
            args.games,
            openings.len()
        );
    }
    let anchor = match &args.anchor {
        None => None,
        Some(a) => {
            let (label, elo) = a
                .rsplit_once('=')
                .with_context(|| format!("--anchor '{a}': expected LABEL=ELO"))?;
            let elo: f64 = elo
                .trim()
                .parse()
                .with_context(|| format!("--anchor '{a}': '{elo}' is not a rating"))?;
            let i = players
                .iter()
                .position(|p| p.label == label.trim())
                .with_context(|| {
                    let names: Vec<&str> = players.iter().map(|p| p.label.as_str()).collect();
                    format!(
                        "--anchor '{a}': no player '{label}' (players: {})",
                        names.join(", ")
                    )
                })?;
            Some((i, elo))
        }
    };
    // Start every external engine once, so a broken one fails here with its reason.
    for p in players.iter().filter(|p| p.is_external()) {
        p.start(move_timeout)
            .with_context(|| format!("starting '{}'", p.label))?;
    }
    let mut pgn_file = match &args.pgn {
        Some(path) => Some(
            std::fs::File::create(path).with_context(|| format!("creating PGN file '{path}'"))?,
        ),
        None => None,
    };

    let schedule = schedule(players.len(), args.gauntlet, args.games, openings.len());
    let settings = GameSettings {
        limit,
        max_plies: args.max_plies,
    };
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(schedule.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} games, {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let tags = |p: &Pairing| PgnTags {
        event: args.event.clone(),
        round: p.round.to_string(),
        date: String::new(),
        limit: Some(limit),
    };
    let pgn_error: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let tally = Mutex::new([0u32; 3]);
    let pgn_sink = Mutex::new(pgn_file.as_mut());
    let records = play_all(
        &players,
        &schedule,
        &openings,
        &settings,
        move_timeout,
        args.concurrency,
        &|k, record| {
            {
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
            }
            if let Some(file) = pgn_sink.lock().expect("pgn").as_mut() {
                if let Err(e) = file.write_all(to_pgn(record, &tags(&schedule[k])).as_bytes()) {
                    pgn_error.lock().expect("pgn error").get_or_insert(e);
                }
            }
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    if let Some(e) = pgn_error.into_inner().expect("pgn error") {
        return Err(e).with_context(|| format!("writing '{}'", args.pgn.as_deref().unwrap_or("")));
    }
    // Every engine has ended with its game: from here a closed standard output (`tournament |
    // head`) ends Kempelen quietly, as it does every other command.
    crate::exit_quietly_on_closed_pipe();
    report(
        args,
        &players,
        &schedule,
        &records,
        limit,
        anchor,
        openings.len(),
    )
}

fn report(
    args: &TournamentArgs,
    players: &[PlayerSpec],
    schedule: &[Pairing],
    records: &[GameRecord],
    limit: MoveLimit,
    anchor: Option<(usize, f64)>,
    opening_count: usize,
) -> anyhow::Result<()> {
    let n = players.len();
    let Standings {
        points,
        games,
        terminations,
        ratings,
        totals,
        order,
        pairings,
        ..
    } = Standings::new(n, schedule, records, anchor)?;
    let forfeits = forfeits(schedule, records);
    let anchor_text = match anchor {
        Some((i, elo)) => format!("anchored at {} = {elo}", players[i].label),
        None => "relative to the mean (no anchor)".to_string(),
    };
    if args.json {
        let out = json!({
            "format": if args.gauntlet { "gauntlet" } else { "round robin" },
            "limit": limit.to_string(),
            "games_per_pairing": args.games,
            "openings": opening_count,
            "max_plies": args.max_plies,
            "anchor": anchor.map(|(i, elo)| json!({"player": players[i].label, "elo": elo})),
            "players": order.iter().map(|&i| json!({
                "name": players[i].label,
                "games": totals[i].games(),
                "wins": totals[i].wins,
                "draws": totals[i].draws,
                "losses": totals[i].losses,
                "points": totals[i].points(),
                "elo": ratings[i].elo,
                "margin": ratings[i].margin,
            })).collect::<Vec<_>>(),
            "crosstable": (0..n).map(|i| json!({
                "name": players[i].label,
                "points": points[i],
                "games": games[i],
            })).collect::<Vec<_>>(),
            "pairings": pairings.iter().map(|(i, j, w, e)| json!({
                "player": players[*i].label,
                "opponent": players[*j].label,
                "wins": w.wins, "draws": w.draws, "losses": w.losses,
                "score": w.score(),
                "elo": e.map(|e| finite(e.elo)),
                "margin": e.map(|e| finite(e.margin)),
            })).collect::<Vec<_>>(),
            "terminations": terminations,
            "games": schedule.iter().zip(records).map(|(p, r)| json!({
                "round": p.round,
                "white": r.white,
                "black": r.black,
                "opening": r.opening.name,
                "result": r.outcome.pgn(),
                "termination": r.termination,
                "plies": r.moves.len(),
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "{} of {} players, {} games per pairing, {}, {} openings, draw at {} plies: {} games",
        if args.gauntlet {
            "Gauntlet"
        } else {
            "Round robin"
        },
        n,
        args.games,
        limit,
        opening_count,
        args.max_plies,
        records.len()
    );
    println!();
    let width = players
        .iter()
        .map(|p| p.label.len())
        .max()
        .unwrap_or(0)
        .max(6);
    // Columns are numbered by rank; a cell is wide enough for "points/games".
    let most = (0..n)
        .flat_map(|i| games[i].iter())
        .max()
        .copied()
        .unwrap_or(0);
    let cw = format!("{}/{most}", fmt_points(most as f64 - 0.5))
        .len()
        .max(3);
    print!("{:>3}  {:<width$}", "#", "player");
    for c in 1..=n {
        print!("  {c:>cw$}");
    }
    println!(
        "  {:>7}  {:>5}  {:>6}  {:>13}",
        "points", "games", "score", "Elo (95 %)"
    );
    for (rank, &i) in order.iter().enumerate() {
        print!("{:>3}  {:<width$}", rank + 1, players[i].label);
        for &j in &order {
            let text = if i == j {
                "-".to_string()
            } else if games[i][j] == 0 {
                ".".to_string()
            } else {
                format!("{}/{}", fmt_points(points[i][j]), games[i][j])
            };
            print!("  {text:>cw$}");
        }
        let rating = match (ratings[i].elo, ratings[i].margin) {
            (Some(e), Some(_)) if Some(i) == anchor.map(|a| a.0) => format!("{e:.0} (anchor)"),
            (Some(e), Some(m)) => format!("{e:.0} ± {m:.0}"),
            _ => "unbounded".to_string(),
        };
        println!(
            "  {:>7}  {:>5}  {:>5.1}%  {:>13}",
            fmt_points(totals[i].points()),
            totals[i].games(),
            100.0 * totals[i].score().unwrap_or(0.0),
            rating
        );
    }
    println!();
    println!("Ratings: Bradley-Terry fit, 95 % margins, {anchor_text}.");
    println!();
    println!("Pairings (first player's view):");
    for (i, j, w, e) in &pairings {
        let e = e.expect("games were played");
        println!(
            "  {:<width$}  vs  {:<width$}  +{} ={} -{}  {:>5.1}%  Elo {} ± {}",
            players[*i].label,
            players[*j].label,
            w.wins,
            w.draws,
            w.losses,
            100.0 * e.score,
            fmt_elo(e.elo),
            if e.margin.is_finite() {
                format!("{:.0}", e.margin)
            } else {
                "inf".into()
            }
        );
    }
    println!();
    let t: Vec<String> = terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!("Endings: {}", t.join(", "));
    for (round, r) in forfeits {
        println!(
            "  game {round} {} - {}: {} {}",
            r.white,
            r.black,
            r.outcome.pgn(),
            r.termination
        );
    }
    if let Some(path) = &args.pgn {
        println!("PGN: {path}");
    }
    Ok(())
}

/// JSON has no infinity: `null` for an unbounded value.
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}
