//! The game on the page's board: a [`Game`] the player changes by moves (SAN or coordinates),
//! undo, a new game, a FEN or a PGN, and the [`BoardView`] the page draws after each change
//! (pieces, legal moves, check, last move, the moves in SAN, the status). Every rule is the
//! engine library's: the page's JavaScript only draws what the view says.

use kempelen_engine::piece::{self, EMPTY};
use kempelen_engine::square::{self, sq88};
use kempelen_engine::{Game, GameStatus, Move, Position, START_FEN};
use serde::Serialize;

use crate::WebError;

/// One legal move as the board offers it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LegalMove {
    /// From square (`e2`).
    pub from: String,
    /// To square (`e4`).
    pub to: String,
    /// Coordinates (`e7e8q`).
    pub uci: String,
    /// SAN (`e8=Q+`).
    pub san: String,
    /// The promotion piece's letter (`q`, `r`, `b`, `n`), if any.
    pub promotion: Option<char>,
}

/// One move of the game, for the move list.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PlayedMove {
    /// Full move number.
    pub number: u16,
    /// `w` or `b`: who played it.
    pub side: char,
    /// SAN.
    pub san: String,
    /// Coordinates.
    pub uci: String,
}

/// How the game stands, as words and as PGN.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct StatusView {
    /// Whether the game is over.
    pub over: bool,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// A sentence: "White to move", "Black is checkmated: 1-0", "Draw by stalemate".
    pub text: String,
}

/// Everything the board and the move list show.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct BoardView {
    /// The current position's FEN.
    pub fen: String,
    /// The start position's FEN (with `moves`, a search request's game).
    pub start_fen: String,
    /// The 64 squares from a8 to h1, rank by rank (the FEN's order): a piece letter as FEN
    /// writes it, or an empty string.
    pub squares: Vec<String>,
    /// `w` or `b`.
    pub side: char,
    /// Every legal move.
    pub legal: Vec<LegalMove>,
    /// The square of the king in check, if the side to move is in check.
    pub check: Option<String>,
    /// The last move, if any.
    pub last: Option<PlayedMove>,
    /// The game's moves.
    pub moves: Vec<PlayedMove>,
    /// The status.
    pub status: StatusView,
}

/// The game on the board.
#[derive(Debug, Clone, Default)]
pub struct Session {
    game: Game,
}

impl Session {
    /// A new game from the standard position.
    pub fn new() -> Session {
        Session::default()
    }

    /// A new game from `fen` (the error names the FEN field at fault).
    pub fn from_fen(fen: &str) -> Result<Session, WebError> {
        let game = Game::from_fen(fen.trim()).map_err(|e| WebError::Fen(e.to_string()))?;
        Ok(Session { game })
    }

    /// A game read from PGN (its first game), the position after its last move on the board.
    pub fn from_pgn(text: &str) -> Result<Session, WebError> {
        let game = Game::from_pgn(text).map_err(|e| WebError::Pgn(e.to_string()))?;
        Ok(Session { game })
    }

    /// A game from a start position and moves in coordinates (a search request's form).
    pub fn from_moves(fen: &str, moves: &[String]) -> Result<Session, WebError> {
        let mut s = Session::from_fen(fen)?;
        for (i, m) in moves.iter().enumerate() {
            s.game
                .push_uci(m)
                .map_err(|e| WebError::Move(format!("move {} of the list: {e}", i + 1)))?;
        }
        Ok(s)
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays `text`: coordinates (`e2e4`, `e7e8q`) or SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`).
    /// A finished game takes no move.
    pub fn play(&mut self, text: &str) -> Result<Move, WebError> {
        let text = text.trim();
        if let Some(reason) = self.finished() {
            return Err(WebError::Move(format!("the game is over ({reason})")));
        }
        if text.is_empty() {
            return Err(WebError::Move("type a move: e2e4 or e4, Nf3, O-O".into()));
        }
        let pos = self.game.position();
        let by_coordinates = Move::parse_uci_parts(text).is_some();
        let m = if by_coordinates {
            pos.parse_uci(text)
        } else {
            pos.parse_san(text)
        };
        let m = m.map_err(|e| WebError::Move(e.to_string()))?;
        self.game
            .push(m)
            .map_err(|e| WebError::Move(e.to_string()))?;
        Ok(m)
    }

    /// Takes the last move back; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        let moves = self.game.moves();
        let Some((_, rest)) = moves.split_last() else {
            return false;
        };
        let mut g = Game::new(self.game.start().clone());
        for &m in rest {
            g.push(m)
                .expect("a move of the game is legal where it was played");
        }
        self.game = g;
        true
    }

    /// Why the game is over, `None` while it goes on.
    pub fn finished(&self) -> Option<String> {
        let s = self.game.status();
        s.is_over().then(|| status_text(s, self.game.position()))
    }

    /// The game as PGN (players named by the page).
    pub fn pgn(&self, white: &str, black: &str) -> String {
        self.game.to_pgn(&[
            ("Event", "Kempelen in the browser"),
            ("Site", "Kempelen"),
            ("White", white),
            ("Black", black),
        ])
    }

    /// The moves played, in coordinates.
    pub fn moves_uci(&self) -> Vec<String> {
        self.game.moves().iter().map(|m| m.to_uci()).collect()
    }

    /// What the page draws.
    pub fn view(&self) -> BoardView {
        let pos = self.game.position();
        let mut squares = Vec::with_capacity(64);
        for rank in (0..8).rev() {
            for file in 0..8 {
                let p = pos.piece_at(sq88(rank * 8 + file));
                squares.push(if p == EMPTY {
                    String::new()
                } else {
                    piece::to_char(p).to_string()
                });
            }
        }
        let legal = pos
            .legal_moves()
            .iter()
            .map(|&m| LegalMove {
                from: square::name(m.from()),
                to: square::name(m.to()),
                uci: m.to_uci(),
                san: pos.san(m),
                promotion: m.to_uci().chars().nth(4),
            })
            .collect();
        let moves = self.played();
        BoardView {
            fen: pos.to_fen(),
            start_fen: self.game.start().to_fen(),
            squares,
            side: side_letter(pos),
            legal,
            check: pos
                .in_check()
                .then(|| square::name(pos.king_square(pos.side()))),
            last: moves.last().cloned(),
            moves,
            status: StatusView {
                over: self.game.status().is_over(),
                result: self.game.status().result(),
                text: status_text(self.game.status(), pos),
            },
        }
    }

    fn played(&self) -> Vec<PlayedMove> {
        let mut pos = self.game.start().clone();
        let mut out = Vec::with_capacity(self.game.moves().len());
        for &m in self.game.moves() {
            out.push(PlayedMove {
                number: pos.fullmove_number(),
                side: side_letter(&pos),
                san: pos.san(m),
                uci: m.to_uci(),
            });
            pos.play(m);
        }
        out
    }
}

/// Moves in coordinates from `fen` in SAN (a move list or a principal variation as the page
/// writes moves), as far as they are legal there.
pub fn san_line(fen: &str, moves: &[String]) -> Result<Vec<String>, WebError> {
    let mut pos = Position::from_fen(fen.trim()).map_err(|e| WebError::Fen(e.to_string()))?;
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let Ok(mv) = pos.parse_uci(m) else { break };
        out.push(pos.san(mv));
        pos.play(mv);
    }
    Ok(out)
}

/// Whether `fen` is the standard start position.
pub fn is_start(fen: &str) -> bool {
    fen.trim() == START_FEN
}

fn side_letter(pos: &Position) -> char {
    if pos.side() == piece::BLACK { 'b' } else { 'w' }
}

fn colour_name(side: u8) -> &'static str {
    if side == piece::BLACK {
        "Black"
    } else {
        "White"
    }
}

/// The status as a sentence.
fn status_text(status: GameStatus, pos: &Position) -> String {
    let mover = colour_name(pos.side());
    match status {
        GameStatus::Ongoing if pos.in_check() => format!("{mover} to move, in check"),
        GameStatus::Ongoing => format!("{mover} to move"),
        GameStatus::Checkmate { winner } => format!(
            "{mover} is checkmated: {} wins {}",
            colour_name(winner),
            status.result()
        ),
        GameStatus::Stalemate => format!("Draw: {mover} is stalemated 1/2-1/2"),
        GameStatus::ThreefoldRepetition => "Draw by threefold repetition 1/2-1/2".into(),
        GameStatus::FiftyMoves => "Draw by the fifty-move rule 1/2-1/2".into(),
        GameStatus::InsufficientMaterial => "Draw: neither side can mate 1/2-1/2".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_san_and_coordinates() {
        let mut s = Session::new();
        s.play("e4").unwrap();
        s.play("e7e5").unwrap();
        s.play("Nf3").unwrap();
        let v = s.view();
        assert_eq!(
            v.moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(),
            ["e4", "e5", "Nf3"]
        );
        assert_eq!(v.side, 'b');
        assert_eq!(v.squares[0], "r");
        assert_eq!(v.squares[63 - 1], "");
        assert_eq!(v.squares[5 * 8 + 5], "N", "f3");
        assert_eq!(v.last.unwrap().uci, "g1f3");
        assert!(s.play("Ke3").is_err());
        assert!(s.play("zz").is_err());
        assert!(s.undo());
        assert_eq!(s.view().moves.len(), 2);
    }

    #[test]
    fn promotion_moves_are_offered_each() {
        let s = Session::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
        let v = s.view();
        let promos: Vec<_> = v.legal.iter().filter_map(|m| m.promotion).collect();
        assert_eq!(promos.len(), 4);
        let mut s = s;
        s.play("e8=N").unwrap();
        assert_eq!(s.view().squares[4], "N");
    }

    #[test]
    fn status_and_check() {
        let mut s = Session::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
        s.play("Ra8").unwrap();
        let v = s.view();
        assert!(v.status.over);
        assert_eq!(v.status.result, "1-0");
        assert_eq!(v.check.as_deref(), Some("h8"));
        assert!(s.play("Kh7").unwrap_err().to_string().contains("over"));
    }

    #[test]
    fn coordinates_read_as_san() {
        let fen = "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR b KQkq - 3 3";
        let line: Vec<String> = ["f6g4", "f3g4", "d7d5"].map(String::from).to_vec();
        assert_eq!(san_line(fen, &line).unwrap(), ["Ng4", "Qxg4", "d5"]);
        let bad: Vec<String> = ["e2e4", "f6g4"].map(String::from).to_vec();
        assert!(san_line(fen, &bad).unwrap().is_empty());
    }

    #[test]
    fn a_bad_fen_names_its_field() {
        let e = Session::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
            .unwrap_err();
        assert!(e.to_string().contains("side"), "{e}");
    }
}
