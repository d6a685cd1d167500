//! A [`Game`] as PGN and back: the moves in SAN with the standard tag roster (and `SetUp` /
//! `FEN` for a game that does not start from the standard position), and a PGN text read into
//! a game, each move checked against the rules. The tournament's records have their own
//! writer with clocks and limits ([`crate::tournament::to_pgn`]); this one is for a game a
//! player set up and played by hand (the page's board).

use crate::game::Game;
use crate::position::{Position, START_FEN};
use crate::tournament::pgn::read_pgn;
use crate::tournament::pgn_tag_value;

/// Why a PGN text could not be read into a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GamePgnError {
    /// The text is not PGN (the reader's error names line and column).
    #[error("{0}")]
    Syntax(String),
    /// The text holds no game.
    #[error("the PGN holds no game")]
    Empty,
    /// The `FEN` tag is not a position.
    #[error("the FEN tag: {0}")]
    Fen(String),
    /// A move that is not legal (or not SAN) where it stands.
    #[error("move {number}{dots} {san}: {reason}")]
    Move {
        /// The move number as PGN writes it.
        number: u16,
        /// `.` before White's move, `...` before Black's.
        dots: &'static str,
        /// The move as written.
        san: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl Game {
    /// The game as PGN: `tags` (name, value) first (the roster's Event, Site, Date, Round,
    /// White and Black where given, `?` where not; `Result` from the game's status), then
    /// `SetUp` and `FEN` when the game starts elsewhere than the standard position, then the
    /// moves in SAN, wrapped at 79 columns, and the result.
    pub fn to_pgn(&self, tags: &[(&str, &str)]) -> String {
        let result = self.status().result();
        let mut out = String::new();
        for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
            let value = tags
                .iter()
                .find(|(k, _)| *k == name)
                .map_or("?", |(_, v)| if v.is_empty() { "?" } else { v });
            out.push_str(&format!("[{name} \"{}\"]\n", pgn_tag_value(value)));
        }
        out.push_str(&format!("[Result \"{result}\"]\n"));
        let start = self.start().to_fen();
        if start != START_FEN {
            out.push_str("[SetUp \"1\"]\n");
            out.push_str(&format!("[FEN \"{}\"]\n", pgn_tag_value(&start)));
        }
        out.push('\n');
        let mut tokens = self.san_tokens();
        tokens.push(result.to_string());
        out.push_str(&wrap(&tokens, 79));
        out.push('\n');
        out
    }

    /// The moves as SAN, each with its number where PGN gives one (`1. e4`, `e5`, and
    /// `1... e5` for a game that starts with Black to move).
    fn san_tokens(&self) -> Vec<String> {
        let mut pos = self.start().clone();
        let mut tokens = Vec::with_capacity(self.moves().len());
        for (i, &m) in self.moves().iter().enumerate() {
            let number = if pos.side() == 0 {
                format!("{}. ", pos.fullmove_number())
            } else if i == 0 {
                format!("{}... ", pos.fullmove_number())
            } else {
                String::new()
            };
            tokens.push(number + &pos.san(m));
            pos.play(m);
        }
        tokens
    }

    /// The first game of a PGN text, its moves played from its `FEN` tag (or the standard
    /// position). Comments, variations and annotation glyphs are skipped; each move must be
    /// legal SAN where it stands, and an error names the first that is not.
    pub fn from_pgn(text: &str) -> Result<Game, GamePgnError> {
        let games = read_pgn(text, "PGN").map_err(|e| GamePgnError::Syntax(e.to_string()))?;
        let first = games.into_iter().next().ok_or(GamePgnError::Empty)?;
        let start = match first.tag("FEN") {
            Some(fen) => Position::from_fen(fen).map_err(|e| GamePgnError::Fen(e.to_string()))?,
            None => Position::startpos(),
        };
        let mut game = Game::new(start);
        for san in &first.moves {
            let pos = game.position();
            let (number, dots) = (
                pos.fullmove_number(),
                if pos.side() == 0 { "." } else { "..." },
            );
            game.push_san(san).map_err(|e| GamePgnError::Move {
                number,
                dots,
                san: san.clone(),
                reason: e.to_string(),
            })?;
        }
        Ok(game)
    }
}

/// Tokens joined by spaces in lines of at most `width` columns (a longer token alone).
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for t in tokens {
        if line > 0 && line + 1 + t.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(t);
        line += t.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_round_trips_through_pgn() {
        let mut g = Game::default();
        for m in [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5",
        ] {
            g.push_uci(m).unwrap();
        }
        let pgn = g.to_pgn(&[("White", "me"), ("Event", "a \"test\"")]);
        assert!(pgn.contains("[Event \"a \\\"test\\\"\"]"), "{pgn}");
        assert!(pgn.contains("[Black \"?\"]"), "{pgn}");
        assert!(
            pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 *"),
            "{pgn}"
        );
        let back = Game::from_pgn(&pgn).unwrap();
        assert_eq!(back.moves(), g.moves());
    }

    #[test]
    fn a_game_from_a_fen_keeps_its_start() {
        let fen = "7k/8/6K1/8/8/8/8/R7 b - - 0 80";
        let mut g = Game::from_fen(fen).unwrap();
        g.push_uci("h8g8").unwrap();
        g.push_uci("a1a8").unwrap();
        let pgn = g.to_pgn(&[]);
        assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
        assert!(pgn.contains("80... Kg8 81. Ra8# 1-0"), "{pgn}");
        let back = Game::from_pgn(&pgn).unwrap();
        assert_eq!(back.position(), g.position());
    }

    /// A PGN file saved with a UTF-8 byte-order mark reads as the same game.
    #[test]
    fn a_byte_order_mark_before_a_pgn_is_skipped() {
        let text = "\u{feff}[Event \"x\"]\n[FEN \"\u{feff}7k/8/6K1/8/8/8/8/R7 w - - 0 1\"]\n\n1. Ra8# 1-0\n";
        let g = Game::from_pgn(text).unwrap();
        assert_eq!(g.moves().len(), 1);
        assert!(g.status().is_over());
    }

    #[test]
    fn a_bad_move_is_named() {
        let err = Game::from_pgn("1. e4 e5 2. Ke3 *").unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 2. Ke3: 'Ke3' is not a legal move in this position"
        );
        assert!(matches!(Game::from_pgn(""), Err(GamePgnError::Empty)));
        assert!(matches!(
            Game::from_pgn("[FEN \"8/8 w\"]\n*"),
            Err(GamePgnError::Fen(_))
        ));
    }
}
