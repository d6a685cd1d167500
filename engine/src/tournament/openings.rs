//! Opening sets as plain EPD text: one opening a line, `#` comments. A line is a position
//! (the four EPD fields, or a full FEN) with optional operations `id "NAME";` and
//! `c0 "SAN MOVES";`. With `c0`, the game starts from the standard position and the moves are
//! played first (so engines that cannot set up a position still can play it), and they must
//! lead to the given position; without it, the game starts from the position.

use super::error::TournamentError;
use super::game::Opening;
use crate::position::Position;

/// Parses an opening set; `source` names it in errors (`source:line: reason`).
pub fn parse_openings(text: &str, source: &str) -> Result<Vec<Opening>, TournamentError> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| TournamentError::BadOpening {
            place: format!("{source}:{}", n + 1),
            reason,
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(bad("expected at least the four EPD fields".into()));
        }
        // Up to six position fields: the two counters when they are numbers.
        let mut npos = 4;
        while npos < fields.len().min(6) && fields[npos].parse::<u32>().is_ok() {
            npos += 1;
        }
        let fen = fields[..npos].join(" ");
        let position = Position::from_fen(&fen).map_err(|e| bad(format!("bad position: {e}")))?;
        let ops = fields[npos..].join(" ");
        let op = |name: &str| -> Option<String> {
            for item in ops.split(';') {
                let item = item.trim();
                if let Some(rest) = item.strip_prefix(name) {
                    if rest.starts_with(' ') {
                        return Some(rest.trim().trim_matches('"').to_string());
                    }
                }
            }
            None
        };
        let name = op("id").unwrap_or_else(|| format!("{source}:{}", n + 1));
        let opening = match op("c0") {
            Some(moves) => {
                let mut pos = Position::startpos();
                let mut list = Vec::new();
                for san in moves.split_whitespace() {
                    let m = pos
                        .parse_san(san)
                        .map_err(|e| bad(format!("c0 move '{san}': {e}")))?;
                    pos.play(m);
                    list.push(m);
                }
                let epd = |p: &Position| {
                    p.to_fen()
                        .split_whitespace()
                        .take(3)
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                if epd(&pos) != epd(&position) {
                    return Err(bad(format!(
                        "the c0 moves lead to '{}', not to the line's position",
                        epd(&pos)
                    )));
                }
                Opening {
                    name,
                    start: Position::startpos(),
                    moves: list,
                }
            }
            None => Opening {
                name,
                start: position,
                moves: Vec::new(),
            },
        };
        out.push(opening);
    }
    if out.is_empty() {
        return Err(TournamentError::BadOpening {
            place: source.to_string(),
            reason: "no openings".into(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_with_and_without_moves() {
        let text = "# comment\n\
            rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"Open\"; c0 \"e4 e5\";\n\
            7k/8/6K1/8/8/8/8/R7 w - - 0 1\n";
        let o = parse_openings(text, "set").unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!((o[0].name.as_str(), o[0].moves.len()), ("Open", 2));
        assert_eq!(o[1].name, "set:3");
        assert!(o[1].moves.is_empty());
        let e = parse_openings("8/8/8/8/8/8/8/8 w - - c0 \"e4\";", "f").unwrap_err();
        assert!(e.to_string().starts_with("f:1: bad position"), "{e}");
        let wrong = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - c0 \"d4 d5\";";
        let e = parse_openings(wrong, "f").unwrap_err().to_string();
        assert!(e.contains("f:1: the c0 moves lead to"), "{e}");
        let e = parse_openings(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"e5\";",
            "f",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("c0 move 'e5'"), "{e}");
        assert!(parse_openings("# nothing\n", "f").is_err());
    }
}
