//! End-to-end tests of `kempelen tournament`: tiny node budgets only (no test depends on the
//! host's speed), the PGN parsed back with the engine's own SAN parser, crosstable totals
//! checked against the games, external engines (Kempelen's own UCI mode always, Fairymax when
//! installed), and the error paths: unknown players, engines that cannot start, send garbage,
//! illegal moves or nothing at all.

mod common;

use common::{
    arg, fails_with, games_by_round, json, kempelen, refusals, standings_of, succeeds, words,
};
use kempelen_engine::{Game, GameStatus};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `name` in the scratch folder these tests share.
fn temp(name: &str) -> PathBuf {
    common::scratch("tournament").join(name)
}

/// `kempelen tournament PLAYERS-AND-OPTIONS --json` (the words of `line`), which must succeed:
/// the report.
fn tournament(line: &str) -> Value {
    json(&[&["tournament"], &words(line)[..], &["--json"]].concat())
}

/// [`tournament`] with `--pgn pgn`.
fn tournament_to(pgn: &Path, line: &str) -> Value {
    json(
        &[
            &["tournament"],
            &words(line)[..],
            &["--json", "--pgn", arg(pgn)],
        ]
        .concat(),
    )
}

/// Two games of the reference against `engine` at 100 nodes a move ([`tournament`]), `more`
/// options added.
fn against(engine: &str, more: &[&str]) -> Value {
    let players = [&["tournament", "reference", engine][..], more].concat();
    json(&[&players[..], &["--nodes", "100", "--games", "2", "--json"]].concat())
}

/// A fake UCI engine as a shell script: handshake, then `reply` to every `go` (nothing for
/// `None`, exit for `Some("exit")`).
fn fake_uci(name: &str, reply: Option<&str>) -> String {
    let go = match reply {
        Some("exit") => "exit 3".to_string(),
        Some(r) => format!("echo \"{r}\""),
        None => ":".to_string(),
    };
    scripted_uci(name, "", &go)
}

/// The games of a PGN file: tags and SAN tokens, replayed through [`Game`].
struct PgnGame {
    tags: Vec<(String, String)>,
    game: Game,
    comment: Option<String>,
    result: String,
}

impl PgnGame {
    fn tag(&self, name: &str) -> &str {
        &self.tags.iter().find(|t| t.0 == name).expect(name).1
    }
}

fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut flush = |tags: &mut Vec<(String, String)>, movetext: &mut String| {
        if tags.is_empty() {
            return;
        }
        let fen = tags
            .iter()
            .find(|t: &&(String, String)| t.0 == "FEN")
            .map(|t| t.1.clone());
        let mut game = match fen {
            Some(f) => Game::from_fen(&f).unwrap(),
            None => Game::default(),
        };
        let (mut comment, mut result) = (None, String::new());
        let mut rest = movetext.as_str();
        while let Some(open) = rest.find('{') {
            let close = rest.find('}').unwrap();
            comment = Some(rest[open + 1..close].to_string());
            rest = &rest[close + 1..];
        }
        let moves_part = if comment.is_some() {
            movetext.split('{').next().unwrap().to_string() + " " + rest
        } else {
            movetext.clone()
        };
        for tok in moves_part.split_whitespace() {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok) {
                result = tok.to_string();
            } else if !tok.ends_with('.') {
                game.push_san(tok)
                    .unwrap_or_else(|e| panic!("PGN move '{tok}': {e}"));
            }
        }
        games.push(PgnGame {
            tags: std::mem::take(tags),
            game,
            comment,
            result,
        });
        movetext.clear();
    };
    for line in text.lines() {
        if let Some(t) = line.strip_prefix('[') {
            if !movetext.trim().is_empty() {
                flush(&mut tags, &mut movetext);
            }
            let (k, v) = t.trim_end_matches(']').split_once(' ').unwrap();
            tags.push((k.to_string(), v.trim_matches('"').to_string()));
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    flush(&mut tags, &mut movetext);
    games
}

#[test]
fn round_robin_totals_pgn_and_crosstable_agree() {
    let pgn = temp("rr.pgn");
    let v = tournament_to(
        &pgn,
        "reference full:Hash=1 reference-no-quiescence --nodes 300 --games 2",
    );
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 6, "three pairings of two games");
    // Every player: wins + draws + losses = games = 4, points add up to the games played.
    let players = v["players"].as_array().unwrap();
    let mut total = 0.0;
    for p in players {
        let g = p["games"].as_u64().unwrap();
        assert_eq!(g, 4);
        let (w, d, l) = (
            p["wins"].as_u64().unwrap(),
            p["draws"].as_u64().unwrap(),
            p["losses"].as_u64().unwrap(),
        );
        assert_eq!(w + d + l, g);
        assert_eq!(p["points"].as_f64().unwrap(), w as f64 + d as f64 / 2.0);
        total += p["points"].as_f64().unwrap();
    }
    assert_eq!(total, 6.0);
    // The crosstable: i's points against j plus j's against i = games between them.
    let table = v["crosstable"].as_array().unwrap();
    for (i, row) in table.iter().enumerate() {
        for (j, col) in table.iter().enumerate() {
            let pij = row["points"][j].as_f64().unwrap();
            let pji = col["points"][i].as_f64().unwrap();
            let g = row["games"][j].as_u64().unwrap();
            assert_eq!(pij + pji, g as f64);
            assert_eq!(g, if i == j { 0 } else { 2 });
        }
    }
    // The PGN replays with the engine's SAN parser and agrees with the JSON.
    let parsed = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(parsed.len(), 6);
    for g in &parsed {
        let round: usize = g.tag("Round").parse().unwrap();
        let j = games.iter().find(|x| x["round"] == round as u64).unwrap();
        assert_eq!(g.result, g.tag("Result"));
        assert_eq!(g.result, j["result"].as_str().unwrap());
        assert_eq!(g.tag("White"), j["white"].as_str().unwrap());
        assert_eq!(g.tag("Limit"), "300 nodes/move");
        let plies = g.game.moves().len();
        assert_eq!(plies, j["plies"].as_u64().unwrap() as usize);
        assert_eq!(g.tag("PlyCount"), plies.to_string());
        // The opening was played first: both games of a pairing start with the same moves.
        let status = g.game.status();
        match j["termination"]["kind"].as_str().unwrap() {
            "checkmate" => {
                assert!(matches!(status, GameStatus::Checkmate { .. }));
                assert_eq!(status.result(), g.result);
            }
            "move_cap" => assert_eq!(plies, 400),
            "threefold_repetition" => assert_eq!(status, GameStatus::ThreefoldRepetition),
            "fifty_moves" => assert_eq!(status, GameStatus::FiftyMoves),
            "stalemate" => assert_eq!(status, GameStatus::Stalemate),
            "insufficient_material" => assert_eq!(status, GameStatus::InsufficientMaterial),
            other => panic!("unexpected termination {other}"),
        }
        if status.is_over() {
            assert_eq!(status.result(), g.result, "{:?}", g.comment);
        }
    }
    // Same colours alternate within a pairing.
    assert_eq!(games[0]["white"], games[1]["black"]);
    assert_eq!(games[0]["opening"], games[1]["opening"]);
}

#[test]
fn text_output_has_crosstable_ratings_and_anchor() {
    let (stdout, stderr) = succeeds(&words(
        "tournament a=reference b=reference-no-killers --nodes 200 --games 2 --anchor a=1500",
    ));
    common::assert_contains(
        "tournament",
        &stdout,
        &[
            "Round robin of 2 players, 2 games per pairing, 200 nodes/move",
            "1500 (anchor)",
            "anchored at a = 1500",
            "Pairings (first player's view):",
        ],
    );
    // Not a terminal: no progress line on stderr.
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn gauntlet_plays_only_the_first_player() {
    let v = tournament(
        "--gauntlet reference reference-no-null reference-no-mvv-lva --nodes 200 --games 2 \
         --concurrency 2",
    );
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for g in games {
        assert!(
            g["white"] == "reference" || g["black"] == "reference",
            "{g}"
        );
    }
    assert_eq!(v["format"], "gauntlet");
    // Two games at a time: still in schedule order, every round once.
    let rounds: Vec<u64> = games.iter().map(|g| g["round"].as_u64().unwrap()).collect();
    assert_eq!(rounds, vec![1, 2, 3, 4]);
}

#[test]
fn kempelen_itself_as_an_external_uci_engine() {
    let cmd = format!("ext=uci:{} uci", env!("CARGO_BIN_EXE_kempelen"));
    let v = json(
        &[
            &["tournament", "reference", &cmd][..],
            &words("--nodes 300 --games 2 --json"),
        ]
        .concat(),
    );
    // The same algorithm at the same nodes, once native and once over UCI: the games mirror
    // each other, so each side scores exactly 1 of 2.
    let players = v["players"].as_array().unwrap();
    for p in players {
        assert_eq!(p["points"].as_f64().unwrap(), 1.0, "{v}");
    }
    for g in v["games"].as_array().unwrap() {
        assert!(g["termination"]["kind"] != "engine_failure", "{g}");
    }
}

#[test]
fn fairymax_over_xboard_if_installed() {
    let path = "/usr/games/fairymax";
    if !std::path::Path::new(path).exists() {
        eprintln!("skipped: {path} is not installed (apt-get install fairymax)");
        return;
    }
    let v = tournament("reference xboard:/usr/games/fairymax --depth 2 --games 2 --max-plies 60");
    for g in v["games"].as_array().unwrap() {
        let kind = g["termination"]["kind"].as_str().unwrap();
        assert!(
            !["engine_failure", "illegal_move", "time_forfeit"].contains(&kind),
            "{g}"
        );
        assert!(g["plies"].as_u64().unwrap() > 10, "{g}");
    }
}

fn forfeits(v: &Value) -> Vec<String> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["termination"].to_string())
        .collect()
}

#[test]
fn illegal_garbage_and_silent_engines_forfeit_with_the_reason() {
    let v = against(&fake_uci("liar", Some("bestmove e2e5")), &[]);
    for f in forfeits(&v) {
        assert!(f.contains("illegal_move") && f.contains("e2e5"), "{f}");
    }
    let p = v["players"].as_array().unwrap();
    assert_eq!(
        (p[0]["name"].as_str(), p[0]["points"].as_f64()),
        (Some("reference"), Some(2.0))
    );

    let v = against(&fake_uci("babbler", Some("bestmove banana")), &[]);
    for f in forfeits(&v) {
        assert!(
            f.contains("engine_failure") && f.contains("'banana' is not a move"),
            "{f}"
        );
    }

    let v = against(&fake_uci("crasher", Some("exit")), &[]);
    for f in forfeits(&v) {
        assert!(
            f.contains("engine exited while waiting for 'bestmove'"),
            "{f}"
        );
    }

    let v = against(&fake_uci("silent", None), &["--move-timeout", "0.5"]);
    for f in forfeits(&v) {
        assert!(f.contains("no 'bestmove' within the time limit"), "{f}");
    }
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    refusals(&[
        ("tournament reference", "at least two players"),
        (
            "tournament reference nosuch",
            "bad player 'nosuch': unknown profile",
        ),
        (
            "tournament reference reference",
            "two players are called 'reference'",
        ),
        (
            "tournament reference uci:/nonexistent/engine",
            "cannot start '/nonexistent/engine'",
        ),
        (
            "tournament reference xboard:fairymax --nodes 100",
            "no fixed-node search",
        ),
        ("tournament reference full --tc x+1", "--tc 'x+1'"),
        (
            "tournament reference full --anchor zz=100",
            "no player 'zz'",
        ),
        (
            "tournament reference full --depth 0",
            "--depth 0: the depth must be at least 1",
        ),
        (
            "tournament reference full --openings /nonexistent.epd",
            "reading opening file '/nonexistent.epd'",
        ),
    ]);
    let epd = temp("bad.epd");
    std::fs::write(
        &epd,
        "# openings\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"e5\";\n",
    )
    .unwrap();
    fails_with(
        &["tournament", "reference", "full", "--openings", arg(&epd)],
        &["bad.epd:2: c0 move 'e5'"],
    );
}

/// A UCI engine as a shell script that answers the handshake and runs `on_go` for every `go`;
/// `before` runs once at its start.
fn scripted_uci(name: &str, before: &str, on_go: &str) -> String {
    let path = temp(name);
    let script = format!(
        "{before}\n\
         while read line; do case \"$line\" in\n\
         uci) echo 'id name {name}'; echo uciok;;\n\
         isready) echo readyok;;\n\
         go*) {on_go};;\n\
         quit) exit 0;;\n\
         esac; done\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("{name}=uci:sh {}", path.display())
}

/// `kempelen args` under a 4 GB address-space limit, so that an engine that makes Kempelen
/// read without bound ends the test with an allocation failure instead of taking the host's
/// memory.
fn kempelen_limited(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4000000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("run kempelen");
    common::outcome(&out)
}

/// The reasons of the games `name` lost, from a gauntlet's JSON.
fn reasons_of(v: &Value, name: &str) -> Vec<String> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["white"] == name || g["black"] == name)
        .map(|g| {
            let loser_white = g["result"] == "0-1";
            assert!(
                (loser_white && g["white"] == name) || (!loser_white && g["black"] == name),
                "{name} did not lose: {g}"
            );
            g["termination"].to_string()
        })
        .collect()
}

/// Two games of the reference against `engines` (a gauntlet) at 100 nodes, a move timeout of
/// 1 s, under the memory limit; the command must succeed.
fn gauntlet_of(engines: &[&str]) -> Value {
    let options = words("--nodes 100 --games 2 --move-timeout 1 --json");
    let args = [
        &["tournament", "--gauntlet", "reference"][..],
        engines,
        &options,
    ]
    .concat();
    let (ok, stdout, stderr) = kempelen_limited(&args);
    assert!(ok, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// `cat /dev/zero` as the answer to `go`: one line without end. The line read is bounded, so
/// the engine loses at once with the reason (it used to take all memory: "memory allocation
/// of 4294967296 bytes failed").
fn zero_engine() -> String {
    scripted_uci("zero", "", "cat /dev/zero")
}

/// `yes 'info string spam'`: lines without end. The queue is bounded and the deadline is
/// looked at before it, so the move timeout forfeits the engine (it used to fill an unbounded
/// queue whose reader never timed out).
fn spam_engine() -> String {
    scripted_uci("spam", "", "yes 'info string spam'")
}

/// An `info string` with a Latin-1 byte, then `bestmove e2e4` (illegal as Black, and as
/// White on its second move): the line after the odd byte is still read (the reader used to
/// end at it, and the engine forfeited with "engine exited" while it still ran).
fn latin_engine() -> String {
    scripted_uci(
        "latin",
        "",
        "printf 'info string caf\\351\\n'; echo 'bestmove e2e4'",
    )
}

/// A wrapper script that starts a child (which holds on to the output pipe) and then plays
/// like [`latin_engine`]; the child's pid goes to `pidfile`.
fn wrapper_engine(pidfile: &std::path::Path) -> String {
    scripted_uci(
        "wrapper",
        &format!("sleep 600 & echo $! > {}", pidfile.display()),
        "echo 'bestmove e2e4'",
    )
}

/// Whether the process `pid` is gone (or a zombie, which holds nothing, where no reaper runs).
/// A killed process dies when it is next scheduled: the 60 s are a guard for a busy host, not
/// a measure.
fn gone(pid: &str) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .next();
        if stat.is_empty() || state == Some("Z") {
            return true;
        }
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn an_engine_flooding_one_endless_line_loses_at_once() {
    let v = gauntlet_of(&[&zero_engine()]);
    for r in reasons_of(&v, "zero") {
        assert!(r.contains("a line longer than 65536 bytes"), "{r}");
    }
}

#[test]
fn an_engine_flooding_lines_is_forfeited_by_the_move_timeout() {
    let v = gauntlet_of(&[&spam_engine()]);
    for r in reasons_of(&v, "spam") {
        assert!(r.contains("no 'bestmove' within the time limit"), "{r}");
    }
}

#[test]
fn a_latin1_byte_does_not_end_the_line_reader() {
    let v = gauntlet_of(&[&latin_engine()]);
    let reasons = reasons_of(&v, "latin");
    assert_eq!(reasons.len(), 2);
    for r in reasons {
        assert!(r.contains("illegal_move") && r.contains("e2e4"), "{r}");
    }
}

#[test]
fn a_wrapper_scripts_child_is_killed_with_it() {
    let pidfile = temp("wrapper-alone.pid");
    let _ = std::fs::remove_file(&pidfile);
    let v = gauntlet_of(&[&wrapper_engine(&pidfile)]);
    for r in reasons_of(&v, "wrapper") {
        assert!(r.contains("illegal_move"), "{r}");
    }
    // The file holds the child of the last start (one at the check before play, one a game).
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    assert!(gone(&pid), "the wrapper's child {} lives on", pid.trim());
}

/// All of them in one tournament, with an engine that says nothing and one that crashes: each
/// loses its games with its reason, and the tournament ends.
#[test]
fn misbehaving_engines_forfeit_and_leave_nothing_behind() {
    let pidfile = temp("wrapper-child.pid");
    let _ = std::fs::remove_file(&pidfile);
    let silent = scripted_uci("silent", "", ":");
    let crash = scripted_uci("crash", "", "exit 3");
    let v = gauntlet_of(&[
        &zero_engine(),
        &spam_engine(),
        &latin_engine(),
        &silent,
        &crash,
        &wrapper_engine(&pidfile),
    ]);
    assert_eq!(v["games"].as_array().unwrap().len(), 12);
    let expect: [(&str, &[&str]); 6] = [
        ("zero", &["a line longer than 65536 bytes"]),
        ("spam", &["no 'bestmove' within the time limit"]),
        ("latin", &["illegal_move", "e2e4"]),
        ("silent", &["no 'bestmove' within the time limit"]),
        ("crash", &["engine exited while waiting for 'bestmove'"]),
        ("wrapper", &["illegal_move", "e2e4"]),
    ];
    for (name, words) in expect {
        let reasons = reasons_of(&v, name);
        assert_eq!(reasons.len(), 2, "{name}");
        for r in reasons {
            assert!(words.iter().all(|w| r.contains(w)), "{name}: {r}");
        }
    }
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    assert!(gone(&pid), "the wrapper's child {} lives on", pid.trim());
}

/// An engine that answers `bestmove 0000` in a position with legal moves gives up the game,
/// and the reason it gave in an `info string` goes into the PGN.
#[test]
fn a_null_move_loses_with_the_engines_reason_in_the_pgn() {
    let pgn = temp("null.pgn");
    let quitter = scripted_uci(
        "quitter",
        "",
        "echo 'info string error: the program faulted'; echo 'bestmove 0000'",
    );
    let v = against(&quitter, &["--pgn", arg(&pgn)]);
    for r in reasons_of(&v, "quitter") {
        assert!(
            r.contains("no move ('bestmove 0000')")
                && r.contains("it said 'error: the program faulted'"),
            "{r}"
        );
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("it said 'error: the program faulted'").count(),
        2,
        "{text}"
    );
}

/// A tournament played in three slices (`--shard K/3`, each into its own PGN) and joined by
/// `kempelen ratings` gives the games and the standings of the tournament played at once.
#[test]
fn sharded_and_unsharded_tournaments_give_the_same_crosstable() {
    let base = "reference micromax reference-no-killers --nodes 150 --games 4 --max-plies 60";
    let whole_pgn = temp("whole.pgn");
    let whole = tournament_to(&whole_pgn, base);
    assert_eq!(whole["games"].as_array().unwrap().len(), 12);
    let mut shard_files = Vec::new();
    for k in 1..=3 {
        let file = temp(&format!("shard{k}.pgn"));
        let shard = format!("{k}/3");
        let v = tournament_to(&file, &format!("{base} --shard {shard}"));
        assert_eq!(v["games"].as_array().unwrap().len(), 4, "slice {k}");
        assert_eq!(v["shard"], shard.as_str());
        shard_files.push(file);
    }
    let mut ratings = vec!["ratings", "--json"];
    // The order of the files does not matter.
    ratings.extend(shard_files.iter().rev().map(|f| f.to_str().unwrap()));
    let merged = json(&ratings);
    assert_eq!(standings_of(&merged), standings_of(&whole));
    // The same from the unsharded PGN, and the games themselves are the same, round by round.
    let from_whole = json(&["ratings", "--json", arg(&whole_pgn)]);
    assert_eq!(standings_of(&from_whole), standings_of(&whole));
    let mut joined = std::collections::BTreeMap::new();
    for f in &shard_files {
        joined.extend(games_by_round(&std::fs::read_to_string(f).unwrap()));
    }
    assert_eq!(
        joined,
        games_by_round(&std::fs::read_to_string(&whole_pgn).unwrap())
    );
    // The text report is the same table too.
    let shard = |k: usize| arg(&shard_files[k]);
    let (text, _) = succeeds(&["ratings", shard(0), shard(1), shard(2)]);
    assert!(
        text.starts_with("3 players, 12 games from 3 PGN files"),
        "{text}"
    );
    // A slice given twice is refused: its games would count twice.
    fails_with(&["ratings", shard(0), shard(0)], &["the same game"]);
}

#[test]
fn ratings_refuses_bad_pgn_with_the_place() {
    let bad = temp("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n[White \"a\n1. e4 1-0\n").unwrap();
    fails_with(
        &["ratings", arg(&bad)],
        &["bad.pgn:2:10: tag White: the value does not end"],
    );
    refusals(&[
        ("ratings /nonexistent.pgn", "/nonexistent.pgn"),
        ("ratings /dev/zero", "'/dev/zero' is larger than 64 MiB"),
    ]);
    let empty = temp("empty.pgn");
    std::fs::write(&empty, "[Event \"x\"]\n1. e4 *\n").unwrap();
    fails_with(
        &["ratings", arg(&empty)],
        &["no finished games", "1 unfinished"],
    );
}

/// A PGN file that begins with a UTF-8 byte-order mark (as some editors save one) reads as
/// the same games.
#[test]
fn ratings_reads_a_pgn_with_a_byte_order_mark() {
    let plain = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
        [White \"b\"]\n[Black \"a\"]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n";
    let with_mark = temp("bom.pgn");
    std::fs::write(&with_mark, format!("\u{feff}{plain}")).unwrap();
    let without = temp("plain.pgn");
    std::fs::write(&without, plain).unwrap();
    let a = json(&["ratings", "--json", arg(&with_mark)]);
    let b = json(&["ratings", "--json", arg(&without)]);
    assert_eq!(a["groups"], b["groups"]);
}

/// The crosstable shows a score as `1:1` (never `1/2`, which reads as a draw), and the
/// pairings never print an infinity or a margin of 0.
#[test]
fn crosstable_and_pairings_read_as_they_mean() {
    let (stdout, _) = succeeds(&words(
        "tournament reference tartan micromax --nodes 300 --games 2",
    ));
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.trim_start().starts_with('#'))
        .take(4)
        .collect();
    assert_eq!(table.len(), 4, "{stdout}");
    for row in &table[1..] {
        assert!(!row.contains("/2"), "{row}");
        assert!(row.contains(":"), "{row}");
    }
    for line in stdout.lines().filter(|l| l.contains(" vs ")) {
        assert!(!line.contains("inf") && !line.contains("± 0 "), "{line}");
        assert!(!line.ends_with("± 0"), "{line}");
    }
}

/// The opening file cannot be the PGN output of the same tournament; nothing is written.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let epd = temp("op.epd");
    let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n";
    std::fs::write(&epd, text).unwrap();
    let players = ["tournament", "reference", "full", "--nodes", "100"];
    fails_with(
        &[&players[..], &["--openings", arg(&epd), "--pgn", arg(&epd)]].concat(),
        &["--pgn", "that is the input"],
    );
    assert_eq!(std::fs::read_to_string(&epd).unwrap(), text);
    // An engine's script too.
    let engine = scripted_uci("victim", "", "echo 'bestmove e2e4'");
    let script = temp("victim");
    let before = std::fs::read_to_string(&script).unwrap();
    fails_with(
        &["tournament", "reference", &engine, "--pgn", arg(&script)],
        &["that is the input"],
    );
    assert_eq!(std::fs::read_to_string(&script).unwrap(), before);
}

/// Until the last game is over the PGN file keeps what it held: a tournament stopped half way
/// leaves it as it was, and its games so far in `.FILE.partial` beside it.
#[test]
fn the_pgn_is_written_whole_or_not_at_all() {
    let pgn = temp("keep.pgn");
    std::fs::write(&pgn, "old games\n").unwrap();
    let partial = pgn.with_file_name(".keep.pgn.partial");
    let _ = std::fs::remove_file(&partial);
    let slow = scripted_uci("slow", "", "sleep 0.3; echo 'bestmove e2e4'");
    let options = [
        "--nodes",
        "100",
        "--games",
        "40",
        "--json",
        "--pgn",
        arg(&pgn),
    ];
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args([&["tournament", "reference", &slow][..], &options].concat())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for two finished games in the partial file, then stop the tournament.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let text = std::fs::read_to_string(&partial).unwrap_or_default();
        if text.matches("[Event ").count() >= 2 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no games in {partial:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), "old games\n");
    // A finished tournament replaces it and removes the partial file.
    let v = tournament_to(&pgn, "reference micromax --nodes 100 --games 2");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    assert!(!partial.exists());
}

/// What cannot be played or written is refused before the first game: bad options of a native
/// player, a depth no search reaches, a line end in a player's name or the event (it would
/// end the PGN tag).
#[test]
fn players_and_names_that_cannot_be_played_or_written_are_refused_before_play() {
    let cases: &[(&[&str], &str)] = &[
        (&["full:Nosuch=1", "reference"], "unknown option 'Nosuch'"),
        (
            &["full:Hash=abc", "reference"],
            "invalid value 'abc' for option 'Hash'",
        ),
        (
            &["reference:Hash=0", "full"],
            "invalid value '0' for option 'Hash'",
        ),
        (
            &["reference", "full", "--depth", "4294967295"],
            "--depth 4294967295: depth 4294967295 is beyond any search (at most 64)",
        ),
        (&["a\nb=reference", "full"], "a control character"),
        (
            &["reference", "full", "--event", "x\ny"],
            "--event \"x\\ny\"",
        ),
        (
            &["reference", "full", "--limit", "full=depth:0"],
            "--limit 'depth:0': the depth must be at least 1",
        ),
        (
            &["reference", "full", "--limit", "zz=depth:2"],
            "no player 'zz'",
        ),
        (&["reference", "full", "--shard", "4/3"], "shard '4/3'"),
        (
            &["reference", "full", "--tc", "40/0"],
            "must give some time",
        ),
        (
            &["reference", "full", "--openings", "/dev/zero"],
            "opening file '/dev/zero' is larger than 64 MiB",
        ),
    ];
    for (players, expected) in cases {
        let mut args = vec!["tournament", "--nodes", "100"];
        if players.contains(&"--depth") {
            args.pop();
            args.pop();
        }
        if players.contains(&"--tc") {
            args.truncate(1);
        }
        args.extend_from_slice(players);
        let (ok, stdout, stderr) = kempelen(&args);
        assert!(!ok, "{args:?} succeeded: {stdout}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?} printed {stdout}");
    }
}

/// The `[%emt ...]` and `[%clk ...]` comments of a PGN game, in order, in milliseconds.
fn clock_comments(game: &str) -> Vec<(u64, u64)> {
    let ms = |t: &str| -> u64 {
        let f: Vec<&str> = t.split(':').collect();
        let secs: f64 = f[2].parse().unwrap();
        (f[0].parse::<u64>().unwrap() * 3600 + f[1].parse::<u64>().unwrap() * 60) * 1000
            + (secs * 1000.0).round() as u64
    };
    game.split("{[%emt ")
        .skip(1)
        .map(|c| {
            let emt = c.split(']').next().unwrap();
            let clk = c.split("[%clk ").nth(1).unwrap().split(']').next().unwrap();
            (ms(emt), ms(clk))
        })
        .collect()
}

/// Kempelen's Z80 build against its 6502 build on emulated clocks at 40 moves in two
/// minutes: each move is charged the emulated time it took at its machine's clock, so the
/// match played twice gives the same games move for move, with the same times. Each side's
/// clock is its time control less the `[%emt]` of its moves.
#[test]
fn emulated_clocks_make_a_match_reproducible_move_for_move() {
    let run = |name: &str| {
        let pgn = temp(name);
        let v = tournament_to(
            &pgn,
            "z80 6502:Machine=turbostar --clock emulated --tc 40/120 --games 2 --max-plies 24",
        );
        (v, std::fs::read_to_string(pgn).unwrap())
    };
    let (v1, pgn1) = run("emulated-1.pgn");
    let (v2, pgn2) = run("emulated-2.pgn");
    assert_eq!(
        pgn1, pgn2,
        "the same games, move for move, with the same times"
    );
    assert_eq!(standings_of(&v1), standings_of(&v2));
    assert_eq!(v1["clock"], "emulated");
    for game in pgn1.split("\n\n[Event") {
        common::assert_contains(
            "a game",
            game,
            &[
                "[TimeControl \"40/120\"]",
                "[WhiteClock \"emulated\"]",
                "[BlackClock \"emulated\"]",
            ],
        );
    }
    common::assert_contains(
        "the games",
        &pgn1,
        &[
            "[WhiteMachine \"zx-spectrum\"]\n[WhiteMHz \"3.5\"]",
            "[BlackMachine \"turbostar\"]\n[BlackMHz \"4\"]",
        ],
    );
    for game in pgn1.split("\n\n[Event") {
        // The ten opening plies carry no time; every other move does (the game ends at 24
        // plies or before).
        let stamps = clock_comments(game);
        let plies = common::ply_count(game);
        assert_eq!(stamps.len(), plies - 10, "{game}");
        // Within the first period each clock is 120 s less the times of its moves (to the
        // millisecond each figure is rounded to).
        for side in 0..2 {
            let mut used = 0;
            for (k, &(emt, clk)) in stamps.iter().enumerate().filter(|(k, _)| k % 2 == side) {
                used += emt;
                assert!(
                    clk.abs_diff(120_000 - used) <= 1 + k as u64 / 2,
                    "{k}: {emt} {clk} {used}"
                );
            }
        }
    }
}

/// An 8-bit build keeps emulated time: on host clocks its time limits would mean nothing,
/// so a clock with it needs `--clock emulated`.
#[test]
fn an_emulated_player_on_host_clocks_is_refused() {
    fails_with(
        &words("tournament z80 reference --tc 40/120"),
        &[
            "'z80' keeps emulated time (zx-spectrum at 3.5 MHz)",
            "--clock emulated",
        ],
    );
}

/// The moves of a PGN game's movetext, after the blank line that ends its tags (comments,
/// move numbers and the result left out).
fn movetext_moves(game: &str) -> Vec<String> {
    let movetext = game.split_once("\n\n").map_or("", |(_, m)| m);
    let mut text = String::new();
    let mut depth = 0;
    for line in movetext.lines() {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => text.push(c),
                _ => {}
            }
        }
        text.push(' ');
    }
    text.split_whitespace()
        .filter(|t| !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .map(str::to_string)
        .collect()
}

/// The championship's record at 40 moves in two hours on emulated clocks (`docs/championship/`,
/// each program on its own machine at its own clock, 20 games a pairing): every move is legal,
/// every move a player searched carries its emulated time, each player ran on its machine at
/// its clock, every game ended as its `Termination` says (every forfeit is Microchess's, which
/// cannot hold a second queen), and `kempelen ratings` on the championship's three files gives
/// the points the README's table shows.
#[test]
fn the_championship_record_gives_the_readme_table() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/championship");
    // The championship's three pairings, then Rictor's version of Microchess against Sargon
    // and against the 1976 binary.
    let files: Vec<String> = [
        "z80-sargon.pgn",
        "6502-microchess.pgn",
        "sargon-microchess.pgn",
        "sargon-rictor.pgn",
        "microchess-rictor.pgn",
    ]
    .iter()
    .map(|f| dir.join(f).to_str().unwrap().to_string())
    .collect();
    let machine_of = |player: &str| match player {
        "z80" | "sargon" => ("jupiter-3", "2"),
        "6502" | "microchess" => ("kim-1", "1"),
        "rictor" => ("rictor-sbc", "1"),
        other => panic!("a player the championship does not have: {other}"),
    };
    let mut forfeits = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let games = games_by_round(&text);
        assert_eq!(games.len(), 20, "{file}");
        for game in games.values() {
            let tag = |name: &str| -> String {
                let prefix = format!("[{name} \"");
                game.lines()
                    .find_map(|l| l.strip_prefix(prefix.as_str()))
                    .unwrap_or_else(|| panic!("no {name}: {game}"))
                    .trim_end_matches("\"]")
                    .to_string()
            };
            assert_eq!(tag("TimeControl"), "40/7200");
            for side in ["White", "Black"] {
                let (machine, mhz) = machine_of(&tag(side));
                assert_eq!(tag(&format!("{side}Machine")), machine, "{game}");
                assert_eq!(tag(&format!("{side}MHz")), mhz, "{game}");
                assert_eq!(tag(&format!("{side}Clock")), "emulated", "{game}");
            }
            let mut replay = Game::default();
            let moves = movetext_moves(game);
            for san in &moves {
                replay
                    .push_san(san)
                    .unwrap_or_else(|e| panic!("'{san}': {e}: {game}"));
            }
            let plies: usize = tag("PlyCount").parse().unwrap();
            assert_eq!(moves.len(), plies);
            // The bundled openings are ten plies deep; every move after them was searched.
            assert_eq!(game.matches("[%emt ").count(), plies - 10, "{game}");
            let status = replay.status();
            match tag("Termination").as_str() {
                "normal" => {
                    assert!(status.is_over(), "{game}");
                    let winner = match tag("Result").as_str() {
                        "1-0" => Some(0),
                        "0-1" => Some(8),
                        _ => None,
                    };
                    match status {
                        GameStatus::Checkmate { winner: w } => assert_eq!(Some(w), winner),
                        _ => assert_eq!(winner, None, "{game}"),
                    }
                }
                "rules infraction" => {
                    assert!(!status.is_over(), "{game}");
                    assert!(
                        game.contains("cannot take this position: it keeps 1 queen"),
                        "{game}"
                    );
                    let loser = match tag("Result").as_str() {
                        "1-0" => tag("Black"),
                        _ => tag("White"),
                    };
                    assert!(["microchess", "rictor"].contains(&loser.as_str()), "{game}");
                    forfeits += 1;
                }
                other => panic!("termination {other}: {game}"),
            }
        }
    }
    // Both versions of Microchess, twice each: neither can take its opponent's second queen.
    assert_eq!(forfeits, 4);
    let mut args = vec!["ratings", "--json"];
    args.extend(files[..3].iter().map(String::as_str));
    let v = json(&args);
    let points: Vec<(String, f64)> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["points"].as_f64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, f64)> = [
        ("6502", 20.0),
        ("z80", 19.5),
        ("sargon", 18.5),
        ("microchess", 2.0),
    ]
    .iter()
    .map(|&(n, p)| (n.to_string(), p))
    .collect();
    assert_eq!(points, expected);
}

/// `ratings` on files whose players never met says so, and names the groups: the Z80
/// build's match with Sargon and the 6502 build's with Microchess share no player; with the
/// Sargon - Microchess match the four are one group and nothing is said.
#[test]
fn ratings_of_players_who_never_met_says_so() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/championship");
    let file = |n: &str| dir.join(n).display().to_string();
    let (z80, m6502, link) = (
        file("z80-sargon.pgn"),
        file("6502-microchess.pgn"),
        file("sargon-microchess.pgn"),
    );
    let (stdout, _) = succeeds(&["ratings", &z80, &m6502]);
    assert!(
        stdout.contains("fall into 2 groups that never met"),
        "{stdout}"
    );
    let (stdout, _) = succeeds(&["ratings", &z80, &m6502, &link]);
    assert!(!stdout.contains("never met"), "{stdout}");
    let (stdout, _) = succeeds(&["ratings", "--json", &z80, &m6502]);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let mut groups: Vec<Vec<String>> = serde_json::from_value(v["groups"].clone()).unwrap();
    for g in &mut groups {
        g.sort();
    }
    groups.sort();
    assert_eq!(
        groups,
        [["6502", "microchess"], ["sargon", "z80"]],
        "{stdout}"
    );
}

/// A name longer than a PGN tag holds (255 characters): a label is refused before the first
/// game, a PGN tag at its place; neither reaches the crosstable (whose formatting panicked on
/// a name of 65,536 characters after every game was played).
#[test]
fn names_longer_than_a_pgn_tag_are_refused_before_play_and_at_their_place() {
    let long = "x".repeat(65_536);
    let label = format!("{long}=reference");
    let (ok, _, stderr) = kempelen(&[
        "tournament",
        &label,
        "micromax",
        "--nodes",
        "1",
        "--games",
        "1",
    ]);
    assert!(
        !ok && stderr.contains("more than a PGN tag holds (255)") && !stderr.contains("panicked"),
        "{}",
        &stderr[..stderr.len().min(500)]
    );
    let pgn = temp("long-name.pgn");
    std::fs::write(
        &pgn,
        format!("[White \"{long}\"]\n[Black \"b\"]\n1. e4 1-0\n"),
    )
    .unwrap();
    fails_with(
        &["ratings", arg(&pgn)],
        &["long-name.pgn:1:265: tag White: a value longer than 255 characters"],
    );
    let event = "e".repeat(256);
    fails_with(
        &["tournament", "reference", "micromax", "--event", &event],
        &["--event: 256 characters, more than a PGN tag holds"],
    );
}

/// The schedule is computed game by game: the last of 4,294,967,295 slices of a match of
/// 4,294,967,295 games plays its one game under a 1 GB address-space limit (the whole
/// schedule, built first, took 137 GB: "memory allocation ... failed").
#[test]
fn a_slice_of_a_huge_tournament_costs_only_its_games() {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_kempelen"))
        .args(words(
            "tournament reference micromax --nodes 50 --max-plies 4 --games 4294967295 \
             --shard 4294967295/4294967295",
        ))
        .output()
        .unwrap();
    let (ok, stdout, stderr) = common::outcome(&out);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("1 games (slice 4294967295/4294967295: 1 of 4294967295 games)"),
        "{stdout}"
    );
}

/// `ratings` refuses what it cannot score as given, at its place: a Result tag that
/// contradicts the game's end, a tag given twice, a player on both sides; an anchor beyond
/// any rating is refused by `ratings` and `tournament`.
#[test]
fn ratings_refuses_games_it_cannot_score_as_given() {
    let write = |name: &str, text: &str| {
        let path = temp(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let games = "[White \"a\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n1. e4 1/2-1/2\n";
    let cases = [
        (
            "mismatch.pgn",
            "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n1. e4 0-1\n",
            "mismatch.pgn:4:7: the game ends 0-1, its Result tag (line 3) says 1-0",
        ),
        (
            "twice.pgn",
            "[White \"a\"]\n[White \"c\"]\n[Black \"b\"]\n1. e4 1-0\n",
            "twice.pgn:2:1: tag White a second time (first on line 1)",
        ),
        (
            "self.pgn",
            "[White \"a\"]\n[Black \"a\"]\n1. e4 1-0\n",
            "self.pgn:2:1: White and Black are both 'a': a game against oneself cannot be rated",
        ),
        (
            "nonames.pgn",
            "1. e4 1-0\n",
            "nonames.pgn:1:1: White and Black are both '?'",
        ),
    ];
    for (name, text, why) in cases {
        fails_with(&["ratings", arg(&write(name, text))], &[why]);
    }
    let good = write("good.pgn", games);
    for anchor in ["a=1e308", "a=10001", "a=-1e5"] {
        fails_with(
            &["ratings", arg(&good), "--anchor", anchor],
            &["is beyond any rating (at most 10000 either way)"],
        );
    }
    let (stdout, _) = succeeds(&["ratings", arg(&good), "--anchor", "b=-10000"]);
    assert!(stdout.contains("-10000 (anchor)"), "{stdout}");
    fails_with(
        &[
            "tournament",
            "reference",
            "micromax",
            "--anchor",
            "micromax=1e308",
        ],
        &["is beyond any rating"],
    );
}

/// An engine's bytes that a terminal would act on (NUL, ESC and its sequences) reach neither
/// the PGN nor the terminal raw: the reason shows them as `\x1B`.
#[test]
fn an_engines_control_bytes_are_shown_escaped() {
    let pgn = temp("control.pgn");
    let rude = scripted_uci(
        "rude",
        "",
        "printf 'info string \\033[2J\\000gone\\n'; printf 'bestmove \\033[31mxyz\\n'",
    );
    let players = ["tournament", "reference", &rude];
    let options = words("--nodes 100 --games 2 --max-plies 30");
    let (stdout, _) = succeeds(&[&players[..], &options, &["--pgn", arg(&pgn)]].concat());
    let text = std::fs::read_to_string(&pgn).unwrap();
    for out in [&stdout, &text] {
        assert!(
            !out.contains('\u{1b}') && !out.contains('\0'),
            "a raw control byte: {out:?}"
        );
    }
    assert!(
        text.contains("bestmove '\\x1B[31mxyz' is not a move")
            && text.contains("it said '\\x1B[2J\\x00gone'"),
        "{text}"
    );
    assert!(stdout.contains("\\x1B[31mxyz"), "{stdout}");
}

/// An xboard engine that never moves forfeits with a reason that reads: "no 'move' within
/// the time limit" (it read "no a move").
#[test]
fn a_silent_xboard_engine_forfeits_with_a_reason_that_reads() {
    let path = temp("mute-xboard");
    std::fs::write(
        &path,
        "while read line; do case \"$line\" in\n\
         protover*) echo 'feature setboard=1 done=1';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    )
    .unwrap();
    let engine = format!("mute=xboard:sh {}", path.display());
    let v = json(&[
        "tournament",
        "reference",
        &engine,
        "--depth",
        "1",
        "--games",
        "1",
        "--move-timeout",
        "1",
        "--json",
    ]);
    let reasons = reasons_of(&v, "mute");
    assert!(
        reasons
            .iter()
            .all(|r| r.contains("mute: no 'move' within the time limit")),
        "{reasons:?}"
    );
}

/// A PGN file just under the 64 MiB read limit, of the shortest games (about two million: the
/// most games a file can hold), is read a game at a time and kept small: it is rated under a
/// 400 MB address-space limit (the whole file held as games took about 1 GB).
#[test]
fn a_large_pgn_is_read_in_bounded_memory() {
    let pgn = temp("large.pgn");
    let limit = 64 << 20;
    let mut text = String::with_capacity(limit);
    let mut round = 0;
    loop {
        let (w, b) = if round % 2 == 0 {
            ("a", "b")
        } else {
            ("b", "a")
        };
        let game = format!("[White \"{w}\"]\n[Black \"{b}\"]\n\n1/2-1/2\n\n");
        if text.len() + game.len() > limit {
            break;
        }
        text += &game;
        round += 1;
    }
    std::fs::write(&pgn, &text).unwrap();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 400000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_kempelen"))
        .args(["ratings", arg(&pgn)])
        .output()
        .unwrap();
    let (ok, stdout, stderr) = common::outcome(&out);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains(&format!("{round} games from 1 PGN file")),
        "{stdout}"
    );
    let _ = std::fs::remove_file(&pgn);
}
