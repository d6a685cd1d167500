//! Standard algebraic notation: printing (`Nbd7`, `exd6`, `e8=Q+`, `O-O#`) and parsing, which
//! accepts the usual variants (`0-0`, missing `x` or `=`, over-disambiguation, annotations) and
//! resolves the text against the legal moves from the shared generator.

use crate::moves::{Move, MoveError};
use crate::piece::{self, KING, PAWN};
use crate::position::Position;
use crate::square;

impl Position {
    /// The SAN of a legal move, with `+` or `#` when it gives check or mate.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        let mut next = self.clone();
        next.play(m);
        if next.in_check() {
            s.push(if next.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        s
    }

    fn san_without_suffix(&self, m: Move) -> String {
        if self.is_castling(m) {
            return if m.to() > m.from() {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        let p = self.piece_at(m.from());
        let t = piece::piece_type(p);
        let mut s = String::new();
        let capture = self.is_capture(m);
        if t == PAWN {
            if capture {
                s.push((b'a' + square::file(m.from())) as char);
            }
        } else {
            s.push(piece::to_char(t));
            let others: Vec<Move> = self
                .legal_moves()
                .iter()
                .copied()
                .filter(|o| {
                    o.to() == m.to() && o.from() != m.from() && self.piece_at(o.from()) == p
                })
                .collect();
            if !others.is_empty() {
                let same_file = others
                    .iter()
                    .any(|o| square::file(o.from()) == square::file(m.from()));
                let same_rank = others
                    .iter()
                    .any(|o| square::rank(o.from()) == square::rank(m.from()));
                if !same_file {
                    s.push((b'a' + square::file(m.from())) as char);
                } else if !same_rank {
                    s.push((b'1' + square::rank(m.from())) as char);
                } else {
                    s.push_str(&square::name(m.from()));
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&square::name(m.to()));
        if m.promotion() != 0 {
            s.push('=');
            s.push(piece::to_char(m.promotion()));
        }
        s
    }

    /// Parses SAN into a legal move of this position.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string(), "SAN");
        let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
        let core = core.strip_suffix("e.p.").unwrap_or(core).trim();
        let legal = self.legal_moves();
        if matches!(core, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let long = core.len() == 5;
            return legal
                .iter()
                .copied()
                .find(|&m| self.is_castling(m) && (m.to() < m.from()) == long)
                .ok_or_else(|| MoveError::Illegal(text.to_string()));
        }
        let mut chars: Vec<char> = core
            .chars()
            .filter(|&c| c != 'x' && c != '-' && c != ':')
            .collect();
        // Promotion suffix: "=Q" or "Q" after the destination.
        let mut promotion = 0;
        if let Some(&last) = chars.last() {
            if let Some(pc) = piece::from_char(last).filter(|_| last.is_ascii_uppercase()) {
                let before_is_rank = chars.len() >= 2 && chars[chars.len() - 2].is_ascii_digit();
                let before_is_eq = chars.len() >= 2 && chars[chars.len() - 2] == '=';
                if before_is_rank || before_is_eq {
                    promotion = piece::piece_type(pc);
                    chars.pop();
                    if chars.last() == Some(&'=') {
                        chars.pop();
                    }
                }
            }
        }
        let mut moving = PAWN;
        if let Some(&first) = chars.first() {
            if first.is_ascii_uppercase() {
                moving = piece::from_char(first)
                    .map(piece::piece_type)
                    .ok_or_else(syntax)?;
                chars.remove(0);
            }
        }
        if chars.len() < 2 {
            return Err(syntax());
        }
        let dest: String = chars[chars.len() - 2..].iter().collect();
        let to = square::parse(&dest).ok_or_else(syntax)?;
        let mut from_file = None;
        let mut from_rank = None;
        for &c in &chars[..chars.len() - 2] {
            match c {
                'a'..='h' if from_file.is_none() => from_file = Some(c as u8 - b'a'),
                '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
                _ => return Err(syntax()),
            }
        }
        if promotion == KING || promotion == PAWN {
            return Err(syntax());
        }
        let matching: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| {
                m.to() == to
                    && piece::piece_type(self.piece_at(m.from())) == moving
                    && m.promotion() == promotion
                    && !self.is_castling(m)
                    && from_file.is_none_or(|f| square::file(m.from()) == f)
                    && from_rank.is_none_or(|r| square::rank(m.from()) == r)
            })
            .collect();
        match matching.len() {
            0 => Err(MoveError::Illegal(text.to_string())),
            1 => Ok(matching[0]),
            _ => Err(MoveError::Ambiguous(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_move_round_trips_through_san() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for &m in pos.legal_moves().iter() {
                let san = pos.san(m);
                assert_eq!(pos.parse_san(&san), Ok(m), "{fen}: {san}");
            }
        }
    }

    #[test]
    fn known_san_texts() {
        let pos = Position::startpos();
        assert_eq!(pos.san(pos.parse_uci("g1f3").unwrap()), "Nf3");
        assert_eq!(pos.parse_san("e4"), pos.parse_uci("e2e4"));
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
        assert_eq!(pos.san(pos.parse_uci("a1a8").unwrap()), "Ra8#");
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        assert_eq!(pos.san(pos.parse_uci("e1c1").unwrap()), "O-O-O");
        assert_eq!(pos.parse_san("0-0"), pos.parse_uci("e1g1"));
        let pos = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        assert!(matches!(pos.parse_san("Rd1"), Err(MoveError::Ambiguous(_))));
        assert_eq!(pos.parse_san("Rad1"), pos.parse_uci("a1d1"));
        assert!(matches!(pos.parse_san("Qd1"), Err(MoveError::Illegal(_))));
        assert!(matches!(pos.parse_san("Zz9"), Err(MoveError::Syntax(..))));
    }
}
