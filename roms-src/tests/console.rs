//! Every port's console front end (`z80/console.asm`, `6502/console.asm`; a port without one
//! is skipped), assembled with Kempelen's assembler and run in
//! Kempelen's machine with a scripted console, played against turn by turn:
//!
//! - whole games until the front end announces the end, with every engine reply checked
//!   against the native reference search (same move, score and node count at the same depth
//!   and history, the thinking line's depths, the capture and promotion the reply names) and
//!   every announcement against the native engine's `Game::status`;
//! - the comforts: `undo` (clocks and repetition history restored, later replies still the
//!   native search's), `moves`, `fen` alone (the native FEN), the board from Black's side;
//! - refusals: one test per kind of bad input, each with the exact reply expected;
//! - the build itself: bundled sources, ROM sizes, the include list shared with `engine.asm`.

mod common;

use common::score_text;
use std::sync::OnceLock;

use kempelen_engine::reference::{self, ReferenceLimits};
use kempelen_engine::{
    Engine, Game, GameStatus, Limits, Move, NativeEngine, Position, Profile, SearchControl, piece,
    square,
};
use kempelen_roms::Port;
use kempelen_roms::console::{ConsoleRom, ConsoleSession};
use kempelen_roms::port::{PORT_COUNT, PORTS};

fn rom(port: &'static Port) -> &'static ConsoleRom {
    static ROMS: [OnceLock<ConsoleRom>; PORT_COUNT] = [const { OnceLock::new() }; PORT_COUNT];
    let i = PORTS.iter().position(|p| p.id == port.id).unwrap();
    ROMS[i].get_or_init(|| ConsoleRom::assemble(port).unwrap_or_else(|e| panic!("{e}")))
}

/// A session at its first prompt.
fn session(port: &'static Port) -> ConsoleSession {
    let (s, out) = ConsoleSession::start(rom(port)).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.ends_with("Move 1, White to move\n> "), "{out}");
    s
}

fn send(s: &mut ConsoleSession, line: &str) -> String {
    s.send(line)
        .unwrap_or_else(|e| panic!("after `{line}`: {e}"))
}

/// The announcement the front end should make for a finished game, from the native engine.
fn announcement(status: GameStatus) -> Option<&'static str> {
    match status {
        GameStatus::Ongoing => None,
        GameStatus::Checkmate { winner: 0 } => Some("Checkmate: White wins"),
        GameStatus::Checkmate { .. } => Some("Checkmate: Black wins"),
        GameStatus::Stalemate => Some("Stalemate: draw"),
        GameStatus::InsufficientMaterial => Some("Draw by insufficient material"),
        GameStatus::FiftyMoves => Some("Draw by the fifty-move rule"),
        GameStatus::ThreefoldRepetition => Some("Draw by threefold repetition"),
    }
}

const ANNOUNCEMENTS: [&str; 7] = [
    "Checkmate: White wins",
    "Checkmate: Black wins",
    "Stalemate: draw",
    "Draw by insufficient material",
    "Draw by the fifty-move rule",
    "Draw by threefold repetition",
    "Game over: n for a new game, q to quit",
];

/// The announcement lines in a reply.
fn announced(out: &str) -> Vec<&str> {
    out.lines().filter(|l| ANNOUNCEMENTS.contains(l)).collect()
}

/// The engine's reply line: "Kempelen plays e7e5 (depth 4, score 10, 2109 nodes)", with
/// what the move takes and what it promotes to between the move and the parenthesis:
/// "Kempelen plays b2a1q, takes the rook on a1, promotes to a queen (depth ...)".
struct Reply {
    mv: String,
    /// ", takes the rook on a1, promotes to a queen" (empty for a quiet move).
    notes: String,
    depth: u32,
    score: String,
    nodes: u64,
    /// The thinking line printed while the engine searched: "Thinking: depth 1 2 3 4".
    thinking: String,
}

fn engine_reply(out: &str) -> Option<Reply> {
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Kempelen plays "))?;
    let line = lines[at];
    let rest = &line["Kempelen plays ".len()..];
    let (said, info) = rest.split_once(" (")?;
    let (mv, notes) = match said.split_once(", ") {
        Some((mv, _)) => (mv, &said[mv.len()..]),
        None => (said, ""),
    };
    let info = info.strip_suffix(')')?;
    let parts: Vec<&str> = info.split(", ").collect();
    assert_eq!(parts.len(), 3, "{line}");
    Some(Reply {
        mv: mv.to_string(),
        notes: notes.to_string(),
        depth: parts[0].strip_prefix("depth ")?.parse().ok()?,
        score: parts[1].to_string(),
        nodes: parts[2].strip_suffix(" nodes")?.parse().ok()?,
        thinking: at
            .checked_sub(1)
            .map_or(String::new(), |i| lines[i].to_string()),
    })
}

/// What the front end says about the engine's move `mv` in `pos` (before it is played),
/// from the native position: ", takes the <piece> on <square>" (" en passant"),
/// ", promotes to a <piece>".
fn reply_notes(pos: &Position, mv: Move) -> String {
    const NAMES: [&str; 7] = ["", "pawn", "knight", "bishop", "rook", "queen", "king"];
    let mut notes = String::new();
    if pos.is_en_passant(mv) {
        let victim = (mv.from() & 0x70) | (mv.to() & 7);
        notes += &format!(", takes the pawn on {} en passant", square::name(victim));
    } else if pos.piece_at(mv.to()) != 0 {
        notes += &format!(
            ", takes the {} on {}",
            NAMES[usize::from(piece::piece_type(pos.piece_at(mv.to())))],
            square::name(mv.to())
        );
    }
    if mv.promotion() != 0 {
        notes += &format!(", promotes to a {}", NAMES[usize::from(mv.promotion())]);
    }
    notes
}

/// The thinking line of a search that completed iterations 1 to `depth`.
fn thinking_line(depth: u32) -> String {
    let depths: Vec<String> = (1..=depth).map(|d| d.to_string()).collect();
    format!("Thinking: depth {}", depths.join(" "))
}

/// The front end's reply line in `out` starts with "Kempelen plays " and `said`.
fn assert_plays(out: &str, said: &str) {
    assert!(out.contains(&format!("\nKempelen plays {said}")), "{out}");
}

/// A game played through the console, mirrored in the native engine.
struct Match {
    s: ConsoleSession,
    game: Game,
    depth: u32,
    engine_moves: usize,
    /// For each ply of `game`: whether the engine played it.
    by_engine: Vec<bool>,
}

impl Match {
    fn start(port: &'static Port) -> Match {
        Match {
            s: session(port),
            game: Game::default(),
            depth: 4,
            engine_moves: 0,
            by_engine: Vec::new(),
        }
    }

    /// A session at its first prompt with the search depth set to `depth`.
    fn at_depth(port: &'static Port, depth: u32) -> Match {
        let mut m = Match::start(port);
        m.depth(depth);
        m
    }

    fn fen(port: &'static Port, fen: &str) -> Match {
        let mut m = Match::start(port);
        let out = send(&mut m.s, &format!("fen {fen}"));
        assert!(out.contains("+-----------------+"), "{out}");
        m.game = Game::from_fen(fen).unwrap();
        m
    }

    /// The game from `fen` after the person's `moves` ([`Match::play`], each checked with the
    /// engine's reply).
    fn after(port: &'static Port, fen: &str, moves: &[&str]) -> Match {
        let mut m = Match::fen(port, fen);
        for mv in moves {
            m.play(mv);
        }
        m
    }

    fn depth(&mut self, depth: u32) {
        assert_eq!(
            send(&mut self.s, &format!("d {depth}")),
            format!("Search depth {depth}\n> ")
        );
        self.depth = depth;
    }

    /// Checks the engine's reply in `out` (if the game still asked for one) against the
    /// native reference search and plays it into the mirror game.
    fn check_engine_reply(&mut self, out: &str) {
        let reply = engine_reply(out).unwrap_or_else(|| panic!("no engine reply in:\n{out}"));
        let r = reference::search_game(&self.game, ReferenceLimits::depth(self.depth));
        let best = r.best.expect("the native engine finds a move");
        assert_eq!(
            reply.mv,
            best.to_uci(),
            "engine move, position {:?}",
            self.current_fen()
        );
        assert_eq!(reply.depth, r.depth);
        assert_eq!(reply.score, score_text(r.score));
        assert_eq!(reply.nodes, r.nodes, "node count");
        assert_eq!(reply.thinking, thinking_line(r.depth), "{out}");
        assert_eq!(
            reply.notes,
            reply_notes(self.game.position(), best),
            "{out}"
        );
        self.game
            .push_uci(&reply.mv)
            .unwrap_or_else(|e| panic!("the engine's move {} is illegal: {e}", reply.mv));
        self.by_engine.push(true);
        self.engine_moves += 1;
    }

    /// The person's move into the mirror game.
    fn push_person(&mut self, uci: &str) {
        self.game
            .push_uci(uci)
            .unwrap_or_else(|e| panic!("test error: {uci} is illegal: {e}"));
        self.by_engine.push(false);
    }

    /// `undo`: checks the exact "Took back" line (the person's last move and the engine's
    /// reply to it, or only the person's move when it ended the game, or only the engine's
    /// move when no move of the person precedes it), takes the same plies back in the mirror
    /// game, and checks the position's FEN (clocks included) and the game's status.
    fn undo(&mut self) -> String {
        let n = self.by_engine.len();
        assert!(n > 0, "test error: nothing to take back");
        let mut keep = n - 1;
        if self.by_engine[keep] && keep > 0 && !self.by_engine[keep - 1] {
            keep -= 1;
        }
        let taken: Vec<String> = self.game.moves()[keep..]
            .iter()
            .map(|mv| mv.to_uci())
            .collect();
        let out = send(&mut self.s, "undo");
        let expected = format!("Took back {}\n", taken.join(" "));
        assert!(out.starts_with(&expected), "{out}");
        let mut game = Game::new(self.game.start().clone());
        for &mv in &self.game.moves()[..keep] {
            game.push(mv).unwrap();
        }
        self.game = game;
        self.by_engine.truncate(keep);
        self.check_status(&out);
        self.check_fen();
        out
    }

    /// `fen` without a position prints exactly the native engine's FEN of the game.
    fn check_fen(&mut self) {
        assert_eq!(
            send(&mut self.s, "fen"),
            format!("{}\n> ", self.current_fen())
        );
    }

    fn current_fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// The player's move; returns the front end's reply, checked: the engine answers unless
    /// the move ended the game, and an announcement appears exactly when the native engine
    /// says the game is over.
    fn play(&mut self, mv: &str) -> String {
        let out = send(&mut self.s, mv);
        self.push_person(mv);
        if self.game.status() == GameStatus::Ongoing {
            self.check_engine_reply(&out);
        } else {
            assert!(engine_reply(&out).is_none(), "{out}");
        }
        self.check_status(&out);
        out
    }

    /// Like [`Match::play`] for a move typed differently from its UCI form (`a7a8` for
    /// `a7a8q`).
    fn play_typed(&mut self, typed: &str, uci: &str) -> String {
        let out = send(&mut self.s, typed);
        self.push_person(uci);
        self.check_engine_reply(&out);
        self.check_status(&out);
        out
    }

    /// `go`: the engine moves for the side to move.
    fn go(&mut self) -> String {
        let out = send(&mut self.s, "go");
        self.check_engine_reply(&out);
        self.check_status(&out);
        out
    }

    fn check_status(&self, out: &str) {
        match announcement(self.game.status()) {
            None => {
                assert!(announced(out).is_empty(), "{out}");
                assert!(out.ends_with(" to move\n> ") || out.ends_with(" to move, check\n> "));
            }
            Some(text) => assert_eq!(
                announced(out),
                vec![text, "Game over: n for a new game, q to quit"],
                "final position {}",
                self.current_fen()
            ),
        }
    }

    /// Plays until the game ends, the player's moves chosen by `choose`; returns the final
    /// status.
    fn play_out(&mut self, max_moves: usize, mut choose: impl FnMut(&Game) -> Move) -> GameStatus {
        for _ in 0..max_moves {
            if self.game.status().is_over() {
                return self.game.status();
            }
            let mv = choose(&self.game).to_uci();
            self.play(&mv);
        }
        panic!("no end after {max_moves} moves: {}", self.current_fen());
    }

    /// The native game has ended (or stands) as `expected`.
    fn expect_status(&self, expected: GameStatus) {
        assert_eq!(self.game.status(), expected, "{}", self.current_fen());
    }

    fn quit(mut self) {
        assert_eq!(send(&mut self.s, "q"), "Goodbye\n");
        assert!(self.s.ended());
    }
}

/// The native full-strength engine choosing a move at a fixed depth.
fn native_move(depth: u32) -> impl FnMut(&Game) -> Move {
    let mut engine = NativeEngine::new(Profile::Full);
    move |game: &Game| {
        engine
            .search(game, &Limits::depth(depth), &SearchControl::default())
            .unwrap()
            .best
            .unwrap()
    }
}

/// A reference search of the native engine (weaker, deterministic) choosing the move.
fn reference_move(depth: u32) -> impl FnMut(&Game) -> Move {
    move |game: &Game| {
        reference::search_game(game, ReferenceLimits::depth(depth))
            .best
            .unwrap()
    }
}

// --- whole games -------------------------------------------------------------------------

kempelen_roms::port_tests!(console fools_mate_the_engine_mates_with_black, fools_mate_the_engine_mates_with_black);
fn fools_mate_the_engine_mates_with_black(port: &'static Port) {
    let mut m = Match::start(port);
    m.play("f2f3");
    let out = m.play("g2g4");
    assert_plays(&out, "d8h4 (depth 4, mate in 1, ");
    m.expect_status(GameStatus::Checkmate {
        winner: kempelen_engine::piece::BLACK,
    });
    // Nothing more to play.
    assert_eq!(
        send(&mut m.s, "e2e4"),
        "The game is over: n for a new game, q to quit\n> "
    );
    assert_eq!(
        send(&mut m.s, "go"),
        "The game is over: n for a new game, q to quit\n> "
    );
    m.quit();
}

kempelen_roms::port_tests!(console the_engine_plays_white_after_go_and_mates_with_king_and_queen, the_engine_plays_white_after_go_and_mates_with_king_and_queen);
fn the_engine_plays_white_after_go_and_mates_with_king_and_queen(port: &'static Port) {
    let mut m = Match::fen(port, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
    m.go();
    m.play_out(100, reference_move(2));
    m.expect_status(GameStatus::Checkmate { winner: 0 });
    m.quit();
}

kempelen_roms::port_tests!(console the_player_mates_the_engine_with_king_and_queen, the_player_mates_the_engine_with_king_and_queen);
fn the_player_mates_the_engine_with_king_and_queen(port: &'static Port) {
    let mut m = Match::fen(port, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    m.depth(3);
    // A wrong move first: refused, nothing changes.
    assert_eq!(send(&mut m.s, "e1e3"), "Illegal move e1e3\n> ");
    m.play_out(60, native_move(8));
    m.expect_status(GameStatus::Checkmate { winner: 0 });
    m.quit();
}

// The Z80 engine at depth 2 against the native reference search at depth 2 as the player:
// a whole game (74 plies, both sides castle, the engine mates with Black), kept cheap by the
// low depth.
kempelen_roms::port_tests!(console a_whole_game_from_the_start_position, a_whole_game_from_the_start_position);
fn a_whole_game_from_the_start_position(port: &'static Port) {
    let mut m = Match::at_depth(port, 2);
    assert_eq!(
        send(&mut m.s, "e8e7"),
        "Illegal move e8e7: no White piece on e8\n> "
    );
    let status = m.play_out(150, reference_move(2));
    eprintln!(
        "{status:?} after {} plies ({}), {} CPU cycles: {}",
        m.game.moves().len(),
        m.game
            .moves()
            .iter()
            .map(|mv| mv.to_uci())
            .collect::<Vec<_>>()
            .join(" "),
        m.s.cycles(),
        m.current_fen()
    );
    assert!(status.is_over());
    assert!(
        m.engine_moves > 10,
        "a real game: {} engine moves",
        m.engine_moves
    );
    m.quit();
}

kempelen_roms::port_tests!(console the_player_underpromotes_to_a_knight, the_player_underpromotes_to_a_knight);
fn the_player_underpromotes_to_a_knight(port: &'static Port) {
    let m = Match::after(port, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", &["a7a8n"]);
    assert!(m.current_fen().starts_with("N"), "{}", m.current_fen());
    m.quit();
}

kempelen_roms::port_tests!(console a_promotion_without_a_letter_is_a_queen, a_promotion_without_a_letter_is_a_queen);
fn a_promotion_without_a_letter_is_a_queen(port: &'static Port) {
    let mut m = Match::fen(port, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    m.play_typed("A7A8", "a7a8q");
    assert!(m.current_fen().starts_with("Q"), "{}", m.current_fen());
    m.quit();
}

kempelen_roms::port_tests!(console en_passant_by_the_player, en_passant_by_the_player);
fn en_passant_by_the_player(port: &'static Port) {
    let m = Match::after(port, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", &["e5d6"]);
    m.quit();
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

kempelen_roms::port_tests!(console a_long_fen_fits_the_line, a_long_fen_fits_the_line);
fn a_long_fen_fits_the_line(port: &'static Port) {
    // Kiwipete: 48 legal moves, castling both ways, the engine to reply at depth 2.
    let mut m = Match::fen(port, KIWIPETE);
    m.depth(2);
    m.play("e1c1");
    m.quit();
}

kempelen_roms::port_tests!(console a_line_too_long_is_refused_whole, a_line_too_long_is_refused_whole);
fn a_line_too_long_is_refused_whole(port: &'static Port) {
    let mut s = session(port);
    let line = format!("e2e4{}", " ".repeat(200));
    assert_eq!(
        send(&mut s, &line),
        "The line is too long (at most 126 characters)\n> "
    );
    assert_eq!(send(&mut s, "d"), "Search depth 4\n> ");
}

kempelen_roms::port_tests!(console ctrl_d_quits_like_q, ctrl_d_quits_like_q);
fn ctrl_d_quits_like_q(port: &'static Port) {
    let mut s = session(port);
    assert_eq!(send(&mut s, "e2e\u{4}"), "Goodbye\n");
    assert!(s.ended());
    assert!(s.send("q").is_err());
}

/// A short scripted game from a position whose last move must end it as announced.
struct Draw {
    name: &'static str,
    fen: &'static str,
    moves: &'static [&'static str],
    end: GameStatus,
}

const DRAWS: [Draw; 4] = [
    Draw {
        name: "stalemate by the player",
        fen: "7k/8/8/6Q1/8/8/8/K7 w - - 0 1",
        moves: &["g5g6"],
        end: GameStatus::Stalemate,
    },
    Draw {
        name: "insufficient material after the last capture",
        fen: "7k/8/8/8/8/8/1q6/K7 w - - 0 1",
        moves: &["a1b2"],
        end: GameStatus::InsufficientMaterial,
    },
    Draw {
        name: "fifty-move rule",
        fen: "7k/8/8/8/8/8/8/KR6 w - - 99 80",
        moves: &["b1b2"],
        end: GameStatus::FiftyMoves,
    },
    // Black's king can only shuttle between a8 and b8 (pawn a6 and rook c1 guard the rest).
    Draw {
        name: "threefold repetition with forced king moves",
        fen: "k7/p7/P7/8/8/8/8/2R4K w - - 0 1",
        moves: &["c1c2", "c2c1", "c1c2", "c2c1"],
        end: GameStatus::ThreefoldRepetition,
    },
];

kempelen_roms::port_tests!(console each_draw_and_stalemate_is_announced, each_draw_and_stalemate_is_announced);
fn each_draw_and_stalemate_is_announced(port: &'static Port) {
    for case in &DRAWS {
        // The checks inside `Match` do not know the case: name it before it runs.
        eprintln!("case: {}", case.name);
        let m = Match::after(port, case.fen, case.moves);
        assert_eq!(
            m.game.status(),
            case.end,
            "{}: {}",
            case.name,
            m.current_fen()
        );
        m.quit();
    }
}

// --- console comforts: undo, moves, fen, the board from Black's side, the reply's notes ----

/// The board as the front end draws it (console_game.inc, con_board), from the native
/// position, seen from White's side or from Black's.
fn board_text(pos: &Position, black_side: bool) -> String {
    let mut ranks: Vec<u8> = (0..8).rev().collect();
    let mut files: Vec<u8> = (0..8).collect();
    if black_side {
        ranks.reverse();
        files.reverse();
    }
    let mut out = String::from("\n  +-----------------+\n");
    for &rank in &ranks {
        out += &format!("{} |", rank + 1);
        for &file in &files {
            let p = pos.piece_at(rank * 16 + file);
            out.push(' ');
            out.push(if p == 0 { '.' } else { piece::to_char(p) });
        }
        out += " |\n";
    }
    out += "  +-----------------+\n    ";
    let names: Vec<String> = files
        .iter()
        .map(|&f| ((b'a' + f) as char).to_string())
        .collect();
    out += &names.join(" ");
    out.push('\n');
    out
}

/// `out` ends with the board of `pos` (seen from Black's side or White's) and `prompt`.
fn assert_ends_with_board(out: &str, pos: &Position, black_side: bool, prompt: &str) {
    let board = board_text(pos, black_side);
    assert!(out.ends_with(&format!("{board}{prompt}\n> ")), "{out}");
}

/// What `moves` prints for the game: one numbered move pair a line.
fn moves_text(game: &Game) -> String {
    let mut number = game.start().fullmove_number();
    let mut out = String::new();
    let mut side = game.start().side();
    if side == piece::BLACK {
        out += &format!("{number}...");
    }
    for mv in game.moves() {
        if side == piece::WHITE {
            out += &format!("{number}.");
        }
        out += &format!(" {}", mv.to_uci());
        if side == piece::BLACK {
            out.push('\n');
            number += 1;
        }
        side ^= 8;
    }
    if side == piece::BLACK {
        out.push('\n');
    }
    out
}

kempelen_roms::port_tests!(console undo_takes_back_the_move_and_the_reply, undo_takes_back_the_move_and_the_reply);
fn undo_takes_back_the_move_and_the_reply(port: &'static Port) {
    let mut m = Match::start(port);
    assert_eq!(send(&mut m.s, "undo"), "Nothing to take back\n> ");
    let first = m.play("e2e4");
    let after_first = &first[first.find("\n\n").unwrap() + 1..];
    m.play("g1f3");
    // Exactly the reply "Took back g1f3 <reply>", then the board and the side to move as
    // they were after the first move pair.
    let out = m.undo();
    let took = out.lines().next().unwrap().to_string();
    assert_eq!(out, format!("{took}\n{after_first}"));
    // The engine's next reply is the native search's on the game without the taken-back pair.
    m.play("d2d4");
    m.undo();
    m.undo();
    assert_eq!(send(&mut m.s, "undo"), "Nothing to take back\n> ");
    assert_eq!(send(&mut m.s, "moves"), "No moves yet\n> ");
    m.play("c2c4");
    m.quit();
}

kempelen_roms::port_tests!(console undo_restores_the_fifty_move_clock, undo_restores_the_fifty_move_clock);
fn undo_restores_the_fifty_move_clock(port: &'static Port) {
    // b1b2 and the engine's reply reach 100 plies: a draw; taken back, the clock is 98 again
    // (Match::undo checks the FEN), and the draw comes again one pair later.
    let mut m = Match::after(port, "7k/8/8/8/8/8/8/KR6 w - - 98 80", &["b1b2"]);
    m.expect_status(GameStatus::FiftyMoves);
    m.undo();
    assert!(m.current_fen().ends_with(" 98 80"), "{}", m.current_fen());
    m.play("b1b3");
    assert_eq!(m.game.status(), GameStatus::FiftyMoves);
    m.quit();
}

kempelen_roms::port_tests!(console undo_restores_the_repetition_history, undo_restores_the_repetition_history);
fn undo_restores_the_repetition_history(port: &'static Port) {
    // Black's king shuttles between a8 and b8. With one pair taken back and played again,
    // the threefold repetition comes exactly when the native game says so.
    let mut m = Match::after(
        port,
        "k7/p7/P7/8/8/8/8/2R4K w - - 0 1",
        &["c1c2", "c2c1", "c1c2"],
    );
    m.undo();
    m.play("c1c2");
    assert_eq!(m.game.status(), GameStatus::Ongoing);
    m.play("c2c1");
    assert_eq!(m.game.status(), GameStatus::ThreefoldRepetition);
    m.undo();
    m.play("c2d2");
    m.quit();
}

kempelen_roms::port_tests!(console undo_after_the_persons_mating_move_takes_back_only_it, undo_after_the_persons_mating_move_takes_back_only_it);
fn undo_after_the_persons_mating_move_takes_back_only_it(port: &'static Port) {
    let mut m = Match::after(port, "k7/8/1K6/8/8/8/8/7R w - - 0 1", &["h1h8"]);
    m.expect_status(GameStatus::Checkmate { winner: 0 });
    let out = m.undo();
    assert!(out.starts_with("Took back h1h8\n"), "{out}");
    m.play("h1h7");
    m.quit();
}

kempelen_roms::port_tests!(console undo_after_go_takes_back_the_engines_move, undo_after_go_takes_back_the_engines_move);
fn undo_after_go_takes_back_the_engines_move(port: &'static Port) {
    let mut m = Match::at_depth(port, 2);
    m.go();
    let out = m.undo();
    assert!(out.ends_with("Move 1, White to move\n> "), "{out}");
    // Drawn from White's side again: the person moves White next.
    assert_eq!(
        send(&mut m.s, "b"),
        format!(
            "{}Move 1, White to move\n> ",
            board_text(m.game.position(), false)
        )
    );
    m.quit();
}

kempelen_roms::port_tests!(console undo_replays_underpromotion_and_en_passant, undo_replays_underpromotion_and_en_passant);
fn undo_replays_underpromotion_and_en_passant(port: &'static Port) {
    // Taking back the second pair plays the first again from the start position: the knight
    // must come back as a knight (Match::undo compares the FEN), and `moves` names it.
    let mut m = Match::fen(port, "4k3/P7/8/8/8/8/7P/4K3 w - - 0 1");
    m.depth(2);
    m.play("a7a8n");
    let legal = m.game.position().legal_moves();
    m.play(&legal.as_slice()[0].to_uci());
    m.undo();
    let text = moves_text(&m.game);
    assert!(text.starts_with("1. a7a8n "), "{text}");
    assert_eq!(send(&mut m.s, "moves"), format!("{text}> "));
    // The engine's en-passant capture, replayed.
    let mut m = Match::after(port, "k7/2K5/1P6/8/3p4/3P4/4P3/8 w - - 0 1", &["e2e4"]);
    let legal = m.game.position().legal_moves();
    m.play(&legal.as_slice()[0].to_uci());
    m.undo();
    assert!(
        m.current_fen().starts_with("k7/2K5/1P6/8/8/3Pp3/8/8 w "),
        "{}",
        m.current_fen()
    );
    m.quit();
}

kempelen_roms::port_tests!(console moves_prints_the_game_in_numbered_pairs, moves_prints_the_game_in_numbered_pairs);
fn moves_prints_the_game_in_numbered_pairs(port: &'static Port) {
    let mut m = Match::at_depth(port, 2);
    m.play("e2e4");
    m.play("g1f3");
    let text = moves_text(&m.game);
    assert_eq!(text.lines().count(), 2);
    assert_eq!(send(&mut m.s, "moves"), format!("{text}> "));
    assert_eq!(send(&mut m.s, "m"), format!("{text}> "));
    // From a position with Black to move, a promotion: "7... a2a1q", the letter printed.
    let mut m = Match::fen(port, "4k3/8/8/8/8/7K/p7/8 b - - 3 7");
    m.go();
    m.play("h3g3");
    let text = moves_text(&m.game);
    assert!(text.starts_with("7... a2a1q\n8. h3g3 "), "{text}");
    assert_eq!(send(&mut m.s, "moves"), format!("{text}> "));
    m.quit();
}

kempelen_roms::port_tests!(console fen_alone_prints_the_position, fen_alone_prints_the_position);
fn fen_alone_prints_the_position(port: &'static Port) {
    let mut m = Match::start(port);
    m.check_fen();
    // En passant square, castling rights lost by a king's and a rook's move, the clocks.
    m.depth(2);
    // Each turn the first of these moves that is legal then and not yet played.
    let mut wanted = vec![
        "e2e4", "g1f3", "h1g1", "e1e2", "g1h1", "d2d4", "b1c3", "a2a4",
    ];
    for _ in 0..6 {
        let legal = m.game.position().legal_moves();
        let at = wanted
            .iter()
            .position(|w| legal.as_slice().iter().any(|l| l.to_uci() == *w))
            .expect("a move to play");
        let mv = wanted.remove(at);
        m.play(mv);
        m.check_fen();
    }
    m.quit();
}

kempelen_roms::port_tests!(console the_board_is_drawn_from_blacks_side_when_the_person_plays_black, the_board_is_drawn_from_blacks_side_when_the_person_plays_black);
fn the_board_is_drawn_from_blacks_side_when_the_person_plays_black(port: &'static Port) {
    let mut m = Match::at_depth(port, 2);
    let out = m.go();
    assert_ends_with_board(&out, m.game.position(), true, "Move 1, Black to move");
    assert!(out.contains("\n8 | r n b k q b n r |\n"), "{out}");
    assert!(out.contains("\n    h g f e d c b a\n"), "{out}");
    let out = m.play("e7e5");
    assert_ends_with_board(&out, m.game.position(), true, "Move 2, Black to move");
    // A new game: White's side again.
    let out = send(&mut m.s, "n");
    assert_ends_with_board(&out, &Position::startpos(), false, "Move 1, White to move");
    // A position with Black to move: the person plays Black.
    let fen = "4k3/8/8/8/8/8/p7/4K3 b - - 0 1";
    let out = send(&mut m.s, &format!("fen {fen}"));
    assert_eq!(
        out,
        format!(
            "{}Move 1, Black to move\n> ",
            board_text(Game::from_fen(fen).unwrap().position(), true)
        )
    );
    m.quit();
}

/// An engine reply whose wording names what the move does: a promotion, a capture, both, an
/// en-passant capture.
struct Wording {
    name: &'static str,
    fen: &'static str,
    /// The search depth when not the front end's default.
    depth: Option<u32>,
    /// The person's move the engine replies to (`None`: the engine moves after `go`).
    person: Option<&'static str>,
    /// The reply line from the move on.
    said: &'static str,
}

const WORDINGS: [Wording; 4] = [
    Wording {
        name: "a promotion",
        fen: "4k3/8/8/8/8/8/p7/4K3 b - - 0 1",
        depth: None,
        person: None,
        said: "a2a1q, promotes to a queen (",
    },
    Wording {
        name: "a capture that promotes",
        fen: "4k3/8/8/8/8/8/p7/1R2K3 b - - 0 1",
        depth: None,
        person: None,
        said: "a2b1q, takes the rook on b1, promotes to a queen (",
    },
    Wording {
        name: "a capture",
        fen: "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1",
        depth: Some(1),
        person: None,
        said: "d5e4, takes the pawn on e4 (",
    },
    // After e2e4, d4xe3 is Black's only move.
    Wording {
        name: "an en-passant capture",
        fen: "k7/2K5/1P6/8/3p4/3P4/4P3/8 w - - 0 1",
        depth: None,
        person: Some("e2e4"),
        said: "d4e3, takes the pawn on e4 en passant (",
    },
];

kempelen_roms::port_tests!(console the_reply_names_captures_and_promotions, the_reply_names_captures_and_promotions);
fn the_reply_names_captures_and_promotions(port: &'static Port) {
    // Every engine reply is checked against the native position (Match::check_engine_reply);
    // here the exact wording of each kind.
    for case in &WORDINGS {
        // The checks inside `Match` do not know the case: name it before it runs.
        eprintln!("case: {}", case.name);
        let mut m = Match::fen(port, case.fen);
        if let Some(depth) = case.depth {
            m.depth(depth);
        }
        let out = match case.person {
            Some(mv) => m.play(mv),
            None => m.go(),
        };
        assert!(
            out.contains(&format!("\nKempelen plays {}", case.said)),
            "{}: {out}",
            case.name
        );
        m.quit();
    }
}

kempelen_roms::port_tests!(console the_thinking_line_shows_each_completed_depth, the_thinking_line_shows_each_completed_depth);
fn the_thinking_line_shows_each_completed_depth(port: &'static Port) {
    let mut m = Match::at_depth(port, 3);
    let out = m.go();
    assert!(
        out.starts_with("Thinking: depth 1 2 3\nKempelen plays "),
        "{out}"
    );
    m.quit();
}

kempelen_roms::port_tests!(console a_full_game_record_refuses_more_moves, a_full_game_record_refuses_more_moves);
fn a_full_game_record_refuses_more_moves(port: &'static Port) {
    // 1,400 plies take too long to play: the record's count is set one short of full (room
    // for a move but not for the reply too).
    let mut s = session(port);
    let symbol = |name: &str| {
        rom(port)
            .symbols
            .get(name)
            .unwrap_or_else(|| panic!("no symbol {name}"))
    };
    let full = "The game record is full (1400 plies): n for a new game\n> ";
    assert_eq!(symbol("MAX_PLIES"), 1400);
    s.machine_mut()
        .write_word(symbol("K_NPLY"), symbol("MAX_PLIES") - 1)
        .unwrap();
    assert_eq!(send(&mut s, "e2e4"), full);
    assert_eq!(send(&mut s, "go"), full);
    assert!(send(&mut s, "n").starts_with("New game\n"));
    assert!(send(&mut s, "e2e4").contains("\nKempelen plays "));
}

kempelen_roms::port_tests!(console help_lists_the_commands, help_lists_the_commands);
fn help_lists_the_commands(port: &'static Port) {
    let mut s = session(port);
    let help = send(&mut s, "h");
    for line in [
        "  undo    take back your last move and the reply (u)",
        "  moves   the game so far (m)",
        "  fen F   set up the position F, given in FEN; you move next",
        "  fen     show the position in FEN",
    ] {
        assert!(help.lines().any(|l| l == line), "{help}");
    }
}

// A whole game with undo: the Z80 engine at depth 2 against the native reference search;
// every third turn (unless the game just ended) the person takes the pair back and plays
// another move instead. Every engine reply must still equal the native reference search on
// the game as it now stands (repetition history and clocks included), and `fen` the native
// FEN after every turn.
kempelen_roms::port_tests!(console a_whole_game_with_undo, a_whole_game_with_undo);
fn a_whole_game_with_undo(port: &'static Port) {
    let mut m = Match::at_depth(port, 2);
    let mut choose = reference_move(2);
    let mut undos = 0;
    for turn in 0..200 {
        if m.game.status().is_over() {
            break;
        }
        let mv = choose(&m.game);
        m.play(&mv.to_uci());
        m.check_fen();
        if turn % 3 == 2 && !m.game.status().is_over() {
            m.undo();
            undos += 1;
            // Another move than the one taken back: the depth-1 choice, or the first other
            // legal move.
            let shallow = reference_move(1)(&m.game);
            let legal = m.game.position().legal_moves();
            let other = if shallow != mv {
                Some(shallow)
            } else {
                legal.as_slice().iter().copied().find(|&l| l != mv)
            };
            if let Some(other) = other {
                m.play(&other.to_uci());
                m.check_fen();
            }
        }
    }
    let status = m.game.status();
    eprintln!(
        "{status:?} after {} plies and {undos} undos: {}",
        m.game.moves().len(),
        moves_text(&m.game).replace('\n', " ")
    );
    assert!(status.is_over(), "{}", m.current_fen());
    assert!(undos >= 5, "{undos} undos");
    assert_eq!(
        send(&mut m.s, "moves"),
        format!("{}> ", moves_text(&m.game))
    );
    m.quit();
}

// --- refusals: the exact reply to each kind of bad input ---------------------------------

/// After the `setup` lines, `input` gets exactly `reply` (and a new prompt).
fn refusal(port: &'static Port, setup: &[&str], input: &str, reply: &str) {
    let mut s = session(port);
    for line in setup {
        let out = send(&mut s, line);
        assert!(
            ["Bad FEN", "Illegal", "Not a move"]
                .iter()
                .all(|bad| !out.contains(bad)),
            "setup `{line}`: {out}"
        );
    }
    assert_eq!(
        send(&mut s, input),
        format!("{reply}\n> "),
        "input `{input}`"
    );
}

macro_rules! refusals {
    ($($name:ident: [$($setup:expr),*], $input:expr => $reply:expr;)*) => {
        $(kempelen_roms::port_tests!(console $name, |port| refusal(port, &[$($setup),*], $input, $reply));)*
    };
}

refusals! {
    malformed_word: [], "hello" => "Not a move or command: hello (type h for help)";
    malformed_square: [], "e2e9" => "Not a move or command: e2e9 (type h for help)";
    malformed_promotion_letter: [], "e2e4k" => "Not a move or command: e2e4k (type h for help)";
    two_moves_on_one_line: [], "e2e4 e7e5" => "Not a move or command: e2e4 e7e5 (type h for help)";
    command_with_extra_text: [], "b now" => "Not a move or command: b now (type h for help)";
    not_a_legal_move: [], "e2e5" => "Illegal move e2e5";
    knight_move_off_pattern: [], "g1g3" => "Illegal move g1g3";
    empty_from_square: [], "e3e4" => "Illegal move e3e4: no White piece on e3";
    opponents_piece: [], "e7e5" => "Illegal move e7e5: no White piece on e7";
    opponents_piece_for_black: ["go"], "e2e4" => "Illegal move e2e4: no Black piece on e2";
    promotion_letter_on_a_plain_move: [], "e2e4q" => "Illegal move e2e4q";
    king_into_check: ["fen 4k3/8/8/8/8/8/5r2/4K3 w - - 0 1"], "e1e2" => "Illegal move e1e2: the king would be in check";
    pinned_piece: ["fen 4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"], "e2c3" => "Illegal move e2c3: the king would be in check";
    ignoring_check: ["fen 4k3/4r3/8/8/8/8/P7/4K3 w - - 0 1"], "a2a3" => "Illegal move a2a3: the king would be in check";
    castling_through_check_king_side: ["fen 4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1"], "e1g1" => "Illegal move e1g1: cannot castle through check";
    castling_through_check_queen_side: ["fen 3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1"], "e1c1" => "Illegal move e1c1: cannot castle through check";
    castling_into_check: ["fen 4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1"], "e1g1" => "Illegal move e1g1: the king would be in check";
    castling_out_of_check: ["fen 4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1"], "e1g1" => "Illegal move e1g1: cannot castle out of check";
    castling_without_the_right: ["fen 4k3/8/8/8/8/8/8/R3K2R w Q - 0 1"], "e1g1" => "Illegal move e1g1: no right to castle on that side";
    castling_through_a_piece: ["fen r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1"], "e1c1" => "Illegal move e1c1";
    black_castling_through_check: ["fen r3k2r/8/8/8/8/8/8/4KR2 b kq - 0 1"], "e8g8" => "Illegal move e8g8: cannot castle through check";
    depth_zero: [], "d 0" => "The depth must be a number from 1 to 32";
    depth_too_deep: [], "d 33" => "The depth must be a number from 1 to 32";
    depth_not_a_number: [], "d x" => "The depth must be a number from 1 to 32";
    fen_placement: [], "fen 4k3/9/8/8/8/8/8/4K3 w - -" => "Bad FEN: piece placement (field 1)";
    fen_short_rank: [], "fen 4k3/7/8/8/8/8/8/4K3 w - -" => "Bad FEN: piece placement (field 1)";
    fen_nine_ranks: [], "fen 4k3/8/8/8/8/8/8/4K3/8 w - -" => "Bad FEN: piece placement (field 1)";
    fen_side: [], "fen 4k3/8/8/8/8/8/8/4K3 x - -" => "Bad FEN: side to move (field 2)";
    fen_no_side: [], "fen 4k3/8/8/8/8/8/8/4K3" => "Bad FEN: side to move (field 2)";
    fen_castling_field: [], "fen 4k3/8/8/8/8/8/8/4K3 w" => "Bad FEN: castling rights (field 3)";
    fen_ep_field: [], "fen 4k3/8/8/8/8/8/8/4K3 w - e9" => "Bad FEN: en-passant square (field 4)";
    fen_numbers: [], "fen 4k3/8/8/8/8/8/8/4K3 w - - 1 x" => "Bad FEN: halfmove clock or fullmove number (fields 5 and 6)";
    fen_number_too_big: [], "fen 4k3/8/8/8/8/8/8/4K3 w - - 65536 1" => "Bad FEN: halfmove clock or fullmove number (fields 5 and 6)";
    fen_extra_text: [], "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 x" => "Bad FEN: text after the fullmove number";
    fen_no_king: [], "fen 8/8/8/8/8/8/8/4K3 w - - 0 1" => "Bad FEN: each side needs exactly one king";
    fen_two_kings: [], "fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1" => "Bad FEN: each side needs exactly one king";
    fen_too_many_pieces: [], "fen 4k3/8/8/8/8/QQQQQQQQ/QQQQQQQQ/4K3 w - - 0 1" => "Bad FEN: too many pieces for one side";
    fen_pawn_on_rank_8: [], "fen P3k3/8/8/8/8/8/8/4K3 w - - 0 1" => "Bad FEN: a pawn on rank 1 or 8";
    fen_castling_without_rook: [], "fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1" => "Bad FEN: a castling right without king and rook on their squares";
    fen_ep_without_double_push: [], "fen 4k3/8/8/8/8/8/8/4K3 w - e6 0 1" => "Bad FEN: no double pawn push to the en-passant square";
    fen_side_not_to_move_in_check: [], "fen 4k2R/8/8/8/8/8/8/4K3 w - - 0 1" => "Bad FEN: the side not to move is in check";
}

kempelen_roms::port_tests!(console a_refused_fen_leaves_the_game_alone, a_refused_fen_leaves_the_game_alone);
fn a_refused_fen_leaves_the_game_alone(port: &'static Port) {
    let mut s = session(port);
    send(&mut s, "e2e4");
    let before = send(&mut s, "b");
    assert_eq!(
        send(&mut s, "fen 4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
        "Bad FEN: the side not to move is in check\n> "
    );
    assert_eq!(send(&mut s, "b"), before);
}

kempelen_roms::port_tests!(console input_is_case_insensitive_and_takes_backspace_and_crlf, input_is_case_insensitive_and_takes_backspace_and_crlf);
fn input_is_case_insensitive_and_takes_backspace_and_crlf(port: &'static Port) {
    let mut s = session(port);
    // "E2E5", two backspaces, "4": e2e4, ended by CR LF.
    let out = send(&mut s, "E2E5\u{8}\u{7f}E4\r");
    assert_plays(&out, "d7d5 (");
    // The LF after the CR is not an empty line: the next line is read at once.
    assert_eq!(send(&mut s, "D"), "Search depth 4\n> ");
}

// --- the build ---------------------------------------------------------------------------

/// The `include` lines of a source, in order.
fn includes(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.split(';').next().unwrap().trim();
            let l = l.strip_prefix('.').unwrap_or(l); // 6502 sources: `.include`
            let rest = l.strip_prefix("include")?.trim();
            Some(rest.trim_matches('"').to_string())
        })
        .collect()
}

kempelen_roms::port_tests!(console console_includes_the_engine_exactly_as_engine_asm_does, console_includes_the_engine_exactly_as_engine_asm_does);
fn console_includes_the_engine_exactly_as_engine_asm_does(port: &'static Port) {
    let dir = port.source_dir();
    // Every file each build assembles, includes of includes expanded in place, in order.
    let expanded = |main: &str| {
        let mut files = Vec::new();
        let mut pending = vec![main.to_string()];
        while let Some(file) = pending.pop() {
            let text = std::fs::read_to_string(dir.join(&file)).unwrap();
            pending.extend(includes(&text).into_iter().rev());
            files.push(file);
        }
        files
    };
    let engine_incs: Vec<String> = expanded(port.engine_main).split_off(1);
    let console_incs: Vec<String> = expanded(port.console_main)
        .split_off(1)
        .into_iter()
        .filter(|f| !f.starts_with("console"))
        .collect();
    assert_eq!(
        console_incs, engine_incs,
        "console.asm must include the engine's files in engine.asm's order"
    );
}

kempelen_roms::port_tests!(console bundled_sources_are_every_file_the_rom_includes, bundled_sources_are_every_file_the_rom_includes);
fn bundled_sources_are_every_file_the_rom_includes(port: &'static Port) {
    let bundled: Vec<&str> = port.sources().iter().map(|(n, _)| *n).collect();
    let dir = port.source_dir();
    for (name, text) in port.sources() {
        let on_disk = std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(&on_disk, text, "{name} differs from the bundled copy");
    }
    let mut needed = vec![port.console_main.to_string()];
    let mut i = 0;
    while i < needed.len() {
        let text = std::fs::read_to_string(dir.join(&needed[i])).unwrap();
        for inc in includes(&text) {
            if !needed.contains(&inc) {
                needed.push(inc);
            }
        }
        i += 1;
    }
    for file in &needed {
        assert!(
            bundled.contains(&file.as_str()),
            "{file} is included but not bundled"
        );
    }
    for file in &bundled {
        assert!(
            needed.iter().any(|n| n == file) || *file == port.engine_main,
            "{file} is in the folder but neither the console nor the engine includes it"
        );
    }
}

kempelen_roms::port_tests!(console rom_sizes_engine_within_its_limit_front_end_on_top, rom_sizes_engine_within_its_limit_front_end_on_top);
fn rom_sizes_engine_within_its_limit_front_end_on_top(port: &'static Port) {
    let rom = rom(port);
    eprintln!(
        "console ROM: engine {} bytes, front end {} bytes, total {} bytes",
        rom.engine_bytes(),
        rom.front_end_bytes(),
        rom.image.len()
    );
    assert!(
        rom.engine_bytes() <= port.rom_limit,
        "engine {} bytes",
        rom.engine_bytes()
    );
    assert!(usize::from(rom.origin) + rom.image.len() <= 0x10000);
    if port.cpu == kempelen_emulator::Cpu::Z80 {
        assert_eq!(usize::from(rom.front_end.end), rom.image.len());
        assert!(rom.image.len() <= 0x4000, "the ROM region is 16 KB");
    }
}

// --- play --realtime: the person's typing time is not the engine's ----------------------

/// A simulated clock: `now` moves only when the pacer sleeps or the test says a person
/// typed, so the test does not depend on the host's speed.
#[derive(Clone, Default)]
struct SimClock {
    now: std::rc::Rc<std::cell::Cell<std::time::Duration>>,
    slept: std::rc::Rc<std::cell::Cell<std::time::Duration>>,
}

impl kempelen_roms::console::PaceClock for SimClock {
    fn now(&self) -> std::time::Duration {
        self.now.get()
    }
    fn sleep(&mut self, d: std::time::Duration) {
        self.now.set(self.now.get() + d);
        self.slept.set(self.slept.get() + d);
    }
}

// With `--realtime` the engine thinks as long as the machine would have, however
// long the person took to type the move (before, 16 s of typing were taken from the reply's
// time and the reply came at once). The person types each line after 16 s; the pacer must
// still hold every part of the program's run to the machine's time.
kempelen_roms::port_tests!(console realtime_play_does_not_charge_typing_time, realtime_play);
fn realtime_play(port: &'static Port) {
    use kempelen_roms::console::{Pacer, run_console};
    use std::time::Duration;
    let machine = port.default_machine();
    let clock = SimClock::default();
    let mut pacer = Pacer::new(clock.clone(), machine);
    let mut m = rom(port).machine().unwrap();
    let lines = ["e2e4\n", "q\n"];
    let mut next = 0;
    let mut slept_at_input = Vec::new();
    let typist = clock.clone();
    let mut input = || {
        slept_at_input.push(typist.slept.get());
        typist.now.set(typist.now.get() + Duration::from_secs(16));
        let line = lines.get(next).map(|l| l.as_bytes().to_vec());
        next += 1;
        line
    };
    let mut printed = Vec::new();
    let mut output = |b: &[u8]| printed.extend_from_slice(b);
    let cycles = run_console(&mut m, &mut input, &mut output, Some(&mut pacer), 1 << 40)
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&printed);
    assert!(text.contains("Kempelen plays "), "{text}");
    // Every cycle was paced: the pacer slept the program's whole time at the machine's clock
    // (within a slice of 10 ms), none of it excused by the 32 s of typing.
    let program = machine.duration(cycles);
    let slept = clock.slept.get();
    let diff = slept.abs_diff(program);
    assert!(
        diff < Duration::from_millis(10),
        "slept {slept:?}, program {program:?}"
    );
    // The reply to e2e4 (a depth-4 search, seconds of the machine's time) was paced although
    // 16 s of typing came before it.
    let reply = slept_at_input[1] - slept_at_input[0];
    assert!(reply > Duration::from_secs(1), "the reply took {reply:?}");
}

// In real time an iteration takes minutes of the machine's time: while the engine is silent,
// the host is told how long it has thought and how many nodes it has searched, about once a
// second of the machine's time, and takes the report back before the program prints again.
kempelen_roms::port_tests!(console realtime_play_reports_the_thinking, realtime_thinking);
fn realtime_thinking(port: &'static Port) {
    use kempelen_roms::console::{Pacer, Thinking, run_console};
    use std::cell::RefCell;
    use std::rc::Rc;
    #[derive(Debug)]
    enum Event {
        Printed,
        Report(Thinking),
        TakenBack,
    }
    let events = Rc::new(RefCell::new(Vec::new()));
    let machine = port.default_machine();
    let r = rom(port);
    let nodes_at = r.symbols.get("R_NODES");
    assert!(nodes_at.is_some(), "the ROM has the node counter");
    let log = Rc::clone(&events);
    let mut pacer = Pacer::new(SimClock::default(), machine).on_thinking(nodes_at, move |t| {
        log.borrow_mut().push(match t {
            Some(t) => Event::Report(t),
            None => Event::TakenBack,
        })
    });
    let mut m = r.machine().unwrap();
    let lines = ["e2e4\n", "q\n"];
    let mut next = 0;
    let mut input = || {
        let line = lines.get(next).map(|l| l.as_bytes().to_vec());
        next += 1;
        line
    };
    let printed = Rc::clone(&events);
    let mut output = |b: &[u8]| {
        if !b.is_empty() {
            printed.borrow_mut().push(Event::Printed);
        }
    };
    run_console(&mut m, &mut input, &mut output, Some(&mut pacer), 1 << 40)
        .unwrap_or_else(|e| panic!("{e}"));
    let events = events.borrow();
    let reports: Vec<&Thinking> = events
        .iter()
        .filter_map(|e| match e {
            Event::Report(t) => Some(t),
            _ => None,
        })
        .collect();
    // The depth-4 reply takes seconds of the machine's time: reported, with nodes growing.
    assert!(!reports.is_empty(), "{events:?}");
    assert!(
        reports
            .iter()
            .all(|t| t.time >= std::time::Duration::from_secs(1))
    );
    assert!(
        reports.iter().any(|t| t.nodes.is_some_and(|n| n > 0)),
        "{reports:?}"
    );
    // A report shown is always taken back before the program prints.
    let mut shown = false;
    for e in events.iter() {
        match e {
            Event::Report(_) => shown = true,
            Event::TakenBack => shown = false,
            Event::Printed => assert!(!shown, "{events:?}"),
        }
    }
}
