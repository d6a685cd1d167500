//! Every port's console front end (`z80/console.asm`, `6502/console.asm`; a port without one
//! is skipped), assembled with Kempelen's assembler and run in
//! Kempelen's machine with a scripted console, played against turn by turn:
//!
//! - whole games until the front end announces the end, with every engine reply checked
//!   against the native reference search (same move, score and node count at the same depth
//!   and history) and every announcement against the native engine's `Game::status`;
//! - refusals: one test per kind of bad input, each with the exact reply expected;
//! - the build itself: bundled sources, ROM sizes, the include list shared with `engine.asm`.

use std::sync::OnceLock;

use kempelen_engine::reference::{self, ReferenceLimits};
use kempelen_engine::{
    Engine, Game, GameStatus, Limits, Move, NativeEngine, Profile, SearchControl,
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

/// The engine's reply line: "Kempelen plays e7e5 (depth 4, score 10, 2109 nodes)".
struct Reply {
    mv: String,
    depth: u32,
    score: String,
    nodes: u64,
}

fn engine_reply(out: &str) -> Option<Reply> {
    let line = out.lines().find(|l| l.starts_with("Kempelen plays "))?;
    let rest = &line["Kempelen plays ".len()..];
    let (mv, info) = rest.split_once(" (")?;
    let info = info.strip_suffix(')')?;
    let parts: Vec<&str> = info.split(", ").collect();
    assert_eq!(parts.len(), 3, "{line}");
    Some(Reply {
        mv: mv.to_string(),
        depth: parts[0].strip_prefix("depth ")?.parse().ok()?,
        score: parts[1].to_string(),
        nodes: parts[2].strip_suffix(" nodes")?.parse().ok()?,
    })
}

/// How the front end prints a score (console_game.inc, con_pscore).
fn score_text(score: i32) -> String {
    const MATE: i32 = kempelen_engine::MATE;
    if score >= MATE - 64 {
        format!("mate in {}", (MATE - score + 1) / 2)
    } else if score <= -(MATE - 64) {
        format!("mated in {}", (MATE + score + 1) / 2)
    } else {
        format!("score {score}")
    }
}

/// A game played through the console, mirrored in the native engine.
struct Match {
    s: ConsoleSession,
    game: Game,
    depth: u32,
    engine_moves: usize,
}

impl Match {
    fn start(port: &'static Port) -> Match {
        Match {
            s: session(port),
            game: Game::default(),
            depth: 4,
            engine_moves: 0,
        }
    }

    fn fen(port: &'static Port, fen: &str) -> Match {
        let mut m = Match::start(port);
        let out = send(&mut m.s, &format!("fen {fen}"));
        assert!(out.contains("+-----------------+"), "{out}");
        m.game = Game::from_fen(fen).unwrap();
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
        let r = reference::search(
            self.game.position(),
            &self.game.reference_history(),
            ReferenceLimits {
                depth: Some(self.depth),
                ..ReferenceLimits::default()
            },
        );
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
        self.game
            .push_uci(&reply.mv)
            .unwrap_or_else(|e| panic!("the engine's move {} is illegal: {e}", reply.mv));
        self.engine_moves += 1;
    }

    fn current_fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// The player's move; returns the front end's reply, checked: the engine answers unless
    /// the move ended the game, and an announcement appears exactly when the native engine
    /// says the game is over.
    fn play(&mut self, mv: &str) -> String {
        let out = send(&mut self.s, mv);
        self.game
            .push_uci(mv)
            .unwrap_or_else(|e| panic!("test error: {mv} is illegal: {e}"));
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
        self.game.push_uci(uci).unwrap();
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
        reference::search(
            game.position(),
            &game.reference_history(),
            ReferenceLimits {
                depth: Some(depth),
                ..ReferenceLimits::default()
            },
        )
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
    assert!(
        out.contains("Kempelen plays d8h4 (depth 4, mate in 1, "),
        "{out}"
    );
    assert_eq!(
        m.game.status(),
        GameStatus::Checkmate {
            winner: kempelen_engine::piece::BLACK
        }
    );
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
    let status = m.play_out(100, reference_move(2));
    assert_eq!(
        status,
        GameStatus::Checkmate { winner: 0 },
        "{}",
        m.current_fen()
    );
    m.quit();
}

kempelen_roms::port_tests!(console the_player_mates_the_engine_with_king_and_queen, the_player_mates_the_engine_with_king_and_queen);
fn the_player_mates_the_engine_with_king_and_queen(port: &'static Port) {
    let mut m = Match::fen(port, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    m.depth(3);
    // A wrong move first: refused, nothing changes.
    assert_eq!(send(&mut m.s, "e1e3"), "Illegal move e1e3\n> ");
    let status = m.play_out(60, native_move(8));
    assert_eq!(
        status,
        GameStatus::Checkmate { winner: 0 },
        "{}",
        m.current_fen()
    );
    m.quit();
}

// The Z80 engine at depth 2 against the native reference search at depth 2 as the player:
// a whole game (74 plies, both sides castle, the engine mates with Black), kept cheap by the
// low depth.
kempelen_roms::port_tests!(console a_whole_game_from_the_start_position, a_whole_game_from_the_start_position);
fn a_whole_game_from_the_start_position(port: &'static Port) {
    let mut m = Match::start(port);
    m.depth(2);
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
    let mut m = Match::fen(port, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    m.play("a7a8n");
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

kempelen_roms::port_tests!(console the_engine_promotes_and_prints_the_piece, the_engine_promotes_and_prints_the_piece);
fn the_engine_promotes_and_prints_the_piece(port: &'static Port) {
    let mut m = Match::fen(port, "4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
    let out = m.go();
    assert!(out.starts_with("Kempelen plays a2a1q "), "{out}");
    m.quit();
}

kempelen_roms::port_tests!(console en_passant_by_the_player, en_passant_by_the_player);
fn en_passant_by_the_player(port: &'static Port) {
    let mut m = Match::fen(port, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    m.play("e5d6");
    m.quit();
}

kempelen_roms::port_tests!(console the_engine_takes_en_passant, the_engine_takes_en_passant);
fn the_engine_takes_en_passant(port: &'static Port) {
    // After e2e4, d4xe3 is Black's only move.
    let mut m = Match::fen(port, "k7/2K5/1P6/8/3p4/3P4/4P3/8 w - - 0 1");
    let out = m.play("e2e4");
    assert!(out.starts_with("Kempelen plays d4e3 "), "{out}");
    m.quit();
}

kempelen_roms::port_tests!(console a_long_fen_fits_the_line, a_long_fen_fits_the_line);
fn a_long_fen_fits_the_line(port: &'static Port) {
    // Kiwipete: 48 legal moves, castling both ways, the engine to reply at depth 2.
    let mut m = Match::fen(
        port,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    );
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

/// A short scripted game from a position; the last move must end it as announced.
fn draw_case(port: &'static Port, fen: &str, moves: &[&str], expected: GameStatus) {
    let mut m = Match::fen(port, fen);
    for mv in moves {
        m.play(mv);
    }
    assert_eq!(m.game.status(), expected, "{}", m.current_fen());
    m.quit();
}

kempelen_roms::port_tests!(console stalemate_by_the_player, stalemate_by_the_player);
fn stalemate_by_the_player(port: &'static Port) {
    draw_case(
        port,
        "7k/8/8/6Q1/8/8/8/K7 w - - 0 1",
        &["g5g6"],
        GameStatus::Stalemate,
    );
}

kempelen_roms::port_tests!(console insufficient_material_after_the_last_capture, insufficient_material_after_the_last_capture);
fn insufficient_material_after_the_last_capture(port: &'static Port) {
    draw_case(
        port,
        "7k/8/8/8/8/8/1q6/K7 w - - 0 1",
        &["a1b2"],
        GameStatus::InsufficientMaterial,
    );
}

kempelen_roms::port_tests!(console fifty_move_rule, fifty_move_rule);
fn fifty_move_rule(port: &'static Port) {
    draw_case(
        port,
        "7k/8/8/8/8/8/8/KR6 w - - 99 80",
        &["b1b2"],
        GameStatus::FiftyMoves,
    );
}

kempelen_roms::port_tests!(console threefold_repetition_with_forced_king_moves, threefold_repetition_with_forced_king_moves);
fn threefold_repetition_with_forced_king_moves(port: &'static Port) {
    // Black's king can only shuttle between a8 and b8 (pawn a6 and rook c1 guard the rest).
    draw_case(
        port,
        "k7/p7/P7/8/8/8/8/2R4K w - - 0 1",
        &["c1c2", "c2c1", "c1c2", "c2c1"],
        GameStatus::ThreefoldRepetition,
    );
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
    assert!(out.starts_with("Kempelen plays d7d5 "), "{out}");
    // The LF after the CR is not an empty line: the next line is read at once.
    assert_eq!(send(&mut s, "D"), "Search depth 4\n> ");
}

// --- the build ---------------------------------------------------------------------------

/// The `include` lines of a source, in order.
fn includes(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.split(';').next().unwrap().trim();
            let rest = l.strip_prefix("include")?.trim();
            Some(rest.trim_matches('"').to_string())
        })
        .collect()
}

kempelen_roms::port_tests!(console console_includes_the_engine_exactly_as_engine_asm_does, console_includes_the_engine_exactly_as_engine_asm_does);
fn console_includes_the_engine_exactly_as_engine_asm_does(port: &'static Port) {
    let dir = port.source_dir();
    let engine = std::fs::read_to_string(dir.join(port.engine_main)).unwrap();
    let console = std::fs::read_to_string(dir.join(port.console_main)).unwrap();
    let engine_incs = includes(&engine);
    let console_incs: Vec<String> = includes(&console)
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

kempelen_roms::port_tests!(console rom_sizes_engine_within_8_kb_front_end_on_top, rom_sizes_engine_within_8_kb_front_end_on_top);
fn rom_sizes_engine_within_8_kb_front_end_on_top(port: &'static Port) {
    let rom = rom(port);
    eprintln!(
        "console ROM: engine {} bytes, front end {} bytes, total {} bytes",
        rom.engine_bytes(),
        rom.front_end_bytes(),
        rom.image.len()
    );
    assert!(
        rom.engine_bytes() <= 8192,
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

// Issue 13: with `--realtime` the engine thinks as long as the machine would have, however
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
