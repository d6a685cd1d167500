//! A game: a start position and the moves played from it. It supplies the repetition history
//! the reference search needs (keys of earlier positions, ALGORITHM.md §6) and the game status
//! (checkmate, stalemate, threefold repetition, fifty-move rule, insufficient material).

use crate::fen::FenError;
use crate::moves::{Move, MoveError};
use crate::piece::BLACK;
use crate::position::Position;

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// The side to move has legal moves and no draw applies.
    Ongoing,
    /// The side to move is checkmated; the other side (0 white, 8 black) won.
    Checkmate {
        /// Colour bit of the winner.
        winner: u8,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The current position occurred for the third time.
    ThreefoldRepetition,
    /// 100 plies without capture or pawn move.
    FiftyMoves,
    /// Neither side can mate (ALGORITHM.md §6 definition).
    InsufficientMaterial,
}

impl GameStatus {
    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        self != GameStatus::Ongoing
    }

    /// PGN result text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(self) -> &'static str {
        match self {
            GameStatus::Ongoing => "*",
            GameStatus::Checkmate { winner: BLACK } => "0-1",
            GameStatus::Checkmate { .. } => "1-0",
            _ => "1/2-1/2",
        }
    }
}

/// A start position plus the moves played.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    current: Position,
    moves: Vec<Move>,
    /// Reference keys of every position from the start, the current one last.
    keys: Vec<u32>,
    /// 64-bit keys of the same positions (for the game status and the `full` profile).
    keys64: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::startpos())
    }
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            keys: vec![start.key()],
            keys64: vec![start.key64()],
            current: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// A game starting from a FEN.
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Ok(Game::new(Position::from_fen(fen)?))
    }

    /// Plays a move if it is legal.
    pub fn push(&mut self, m: Move) -> Result<(), MoveError> {
        if !self.current.legal_moves().contains(m) {
            return Err(MoveError::Illegal(m.to_uci()));
        }
        self.current.play(m);
        self.moves.push(m);
        self.keys.push(self.current.key());
        self.keys64.push(self.current.key64());
        Ok(())
    }

    /// Plays a move given in UCI text.
    pub fn push_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.current.parse_uci(text)?;
        self.push(m)?;
        Ok(m)
    }

    /// Plays a move given in SAN.
    pub fn push_san(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.current.parse_san(text)?;
        self.push(m)?;
        Ok(m)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Reference keys of all positions from the start, the current one last.
    pub fn keys(&self) -> &[u32] {
        &self.keys
    }

    /// 64-bit keys of all positions from the start, the current one last.
    pub fn keys64(&self) -> &[u64] {
        &self.keys64
    }

    /// The history the reference search starts from (ALGORITHM.md §6): the keys of the last
    /// `min(halfmove clock, 100)` positions before the current one, oldest first, then the
    /// current position's key.
    pub fn reference_history(&self) -> Vec<u32> {
        let n = (self.current.halfmove_clock() as usize)
            .min(100)
            .min(self.keys.len() - 1);
        self.keys[self.keys.len() - 1 - n..].to_vec()
    }

    /// Like [`Game::reference_history`] with 64-bit keys (for the `full` profile).
    pub fn history64(&self) -> Vec<u64> {
        let n = (self.current.halfmove_clock() as usize)
            .min(100)
            .min(self.keys64.len() - 1);
        self.keys64[self.keys64.len() - 1 - n..].to_vec()
    }

    /// How often the current position has occurred (counting itself), looking back as far as
    /// the halfmove clock allows.
    pub fn repetition_count(&self) -> usize {
        let current = *self.keys64.last().expect("at least one position");
        let window = self.current.halfmove_clock() as usize;
        self.keys64
            .iter()
            .rev()
            .take(window + 1)
            .step_by(2)
            .filter(|&&k| k == current)
            .count()
    }

    /// The game status. Checkmate takes precedence over the fifty-move rule.
    pub fn status(&self) -> GameStatus {
        let pos = &self.current;
        if pos.legal_moves().is_empty() {
            return if pos.in_check() {
                GameStatus::Checkmate {
                    winner: pos.side() ^ BLACK,
                }
            } else {
                GameStatus::Stalemate
            };
        }
        if pos.insufficient_material() {
            GameStatus::InsufficientMaterial
        } else if pos.halfmove_clock() >= 100 {
            GameStatus::FiftyMoves
        } else if self.repetition_count() >= 3 {
            GameStatus::ThreefoldRepetition
        } else {
            GameStatus::Ongoing
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_shuffle_is_threefold() {
        let mut g = Game::default();
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                assert_eq!(g.status(), GameStatus::Ongoing);
                g.push_uci(m).unwrap();
            }
        }
        assert_eq!(g.repetition_count(), 3);
        assert_eq!(g.status(), GameStatus::ThreefoldRepetition);
        assert_eq!(g.reference_history().len(), 9);
    }

    #[test]
    fn fifty_moves_and_mate() {
        let g = Game::from_fen("7k/8/8/8/8/8/8/K6R b - - 100 80").unwrap();
        assert_eq!(g.status(), GameStatus::FiftyMoves);
        let mut g = Game::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80").unwrap();
        g.push_uci("a1a8").unwrap();
        assert_eq!(g.status(), GameStatus::Checkmate { winner: 0 });
        assert_eq!(g.status().result(), "1-0");
    }

    #[test]
    fn illegal_move_is_refused() {
        let mut g = Game::default();
        assert!(matches!(g.push_uci("e2e5"), Err(MoveError::Illegal(_))));
        assert!(matches!(g.push_uci("e2"), Err(MoveError::Syntax(..))));
        assert_eq!(g.moves().len(), 0);
    }
}
