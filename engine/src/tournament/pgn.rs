//! Reading PGN files back: the tag pairs, the moves as written (SAN), the comments and the
//! result of each game, for the crosstable and ratings of any set of PGN files
//! (`kempelen ratings`). The reader follows the PGN standard's import format: tag pairs with
//! `\"` and `\\` escapes, brace comments over several lines, rest-of-line comments after `;`,
//! escape lines starting with `%`, recursive variations (skipped), numeric annotation glyphs
//! (skipped), move numbers with any number of dots. A malformed file gives an error with
//! `source:line:column`.

use super::game::{Outcome, Termination};

/// A game as read from PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Where the game starts (`source:line`).
    pub place: String,
    /// Tag pairs in the order given.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line, as written (SAN).
    pub moves: Vec<String>,
    /// Comments of the main line, in order, with the number of moves before each.
    pub comments: Vec<(usize, String)>,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The result: the termination marker, or the `Result` tag when the marker is `*`;
    /// `None` for an unfinished game.
    pub fn outcome(&self) -> Option<Outcome> {
        Outcome::from_pgn(&self.result).or_else(|| Outcome::from_pgn(self.tag("Result")?))
    }

    /// Why the game ended, when the PGN says it the way [`super::to_pgn`] writes it: the last
    /// comment after the last move (without its `[%...]` commands), or checkmate when the
    /// last move is marked `#`.
    pub fn termination(&self) -> Option<Termination> {
        let n = self.moves.len();
        let last = self
            .comments
            .iter()
            .rev()
            .take_while(|(at, _)| *at == n)
            .map(|(_, c)| strip_commands(c))
            .find(|c| !c.is_empty());
        if let Some(t) = last.and_then(|c| Termination::from_text(&c)) {
            return Some(t);
        }
        self.moves
            .last()
            .is_some_and(|m| m.ends_with('#'))
            .then_some(Termination::Checkmate)
    }
}

/// A comment without its embedded commands (`[%emt 0:00:05]`).
fn strip_commands(comment: &str) -> String {
    let mut out = String::new();
    let mut rest = comment;
    while let Some(open) = rest.find("[%") {
        out.push_str(&rest[..open]);
        match rest[open..].find(']') {
            Some(close) => rest = &rest[open + close + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// A PGN text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{place}: {reason}")]
pub struct PgnError {
    /// `source:line:column`.
    pub place: String,
    /// What is wrong.
    pub reason: String,
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    col: usize,
    source: &'a str,
}

impl Reader<'_> {
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn place(&self) -> String {
        format!("{}:{}:{}", self.source, self.line, self.col)
    }

    fn error(&self, reason: impl Into<String>) -> PgnError {
        PgnError {
            place: self.place(),
            reason: reason.into(),
        }
    }

    /// A tag pair after its `[`.
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.next();
        }
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
                self.next();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(self.error("a tag without a name"));
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.next();
        }
        if self.peek() != Some('"') {
            return Err(self.error(format!("tag {name}: expected a quoted value")));
        }
        self.next();
        let mut value = String::new();
        loop {
            if matches!(self.peek(), Some('\n') | None) {
                return Err(self.error(format!("tag {name}: the value does not end")));
            }
            match self.next() {
                Some('\\') => match self.next() {
                    Some(c @ ('\\' | '"')) => value.push(c),
                    _ => return Err(self.error(format!("tag {name}: a bad escape"))),
                },
                Some('"') => break,
                Some(c) => value.push(c),
                None => unreachable!("looked at above"),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.next();
        }
        if self.peek() != Some(']') {
            return Err(self.error(format!("tag {name}: expected ']'")));
        }
        self.next();
        Ok((name, value))
    }

    /// A brace comment after its `{` (which is at `start`).
    fn comment(&mut self, start: String) -> Result<String, PgnError> {
        let mut text = String::new();
        loop {
            match self.next() {
                Some('}') => return Ok(text),
                Some(c) => text.push(c),
                None => {
                    return Err(PgnError {
                        place: start,
                        reason: "a comment that does not end ('}' missing)".into(),
                    });
                }
            }
        }
    }

    /// A variation after its `(` (which is at `start`), skipped with the variations and
    /// comments inside it.
    fn variation(&mut self, start: String) -> Result<(), PgnError> {
        let mut depth = 1;
        while depth > 0 {
            let here = self.place();
            match self.next() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => {
                    self.comment(here)?;
                }
                Some(';') => self.rest_of_line(),
                Some(_) => {}
                None => {
                    return Err(PgnError {
                        place: start,
                        reason: "a variation that does not end (')' missing)".into(),
                    });
                }
            }
        }
        Ok(())
    }

    fn rest_of_line(&mut self) {
        while let Some(c) = self.next() {
            if c == '\n' {
                break;
            }
        }
    }

    /// A symbol (move, move number, result) starting with `first`.
    fn symbol(&mut self, first: char) -> String {
        let mut s = String::from(first);
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}()[];".contains(c) {
                break;
            }
            s.push(c);
            self.next();
        }
        s
    }
}

/// Reads every game of a PGN text; `source` names it in errors.
pub fn read_pgn(text: &str, source: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut r = Reader {
        chars: text.chars().peekable(),
        line: 1,
        col: 1,
        source,
    };
    let mut games = Vec::new();
    let mut current: Option<PgnGame> = None;
    let mut in_movetext = false;
    while let Some(c) = r.peek() {
        let at_line_start = r.col == 1;
        if c == '%' && at_line_start {
            r.rest_of_line();
            continue;
        }
        if c.is_whitespace() {
            r.next();
            continue;
        }
        let place = format!("{source}:{}", r.line);
        let game = current.get_or_insert_with(|| PgnGame {
            place,
            tags: Vec::new(),
            moves: Vec::new(),
            comments: Vec::new(),
            result: String::new(),
        });
        let here = r.place();
        r.next();
        match c {
            '[' => {
                if in_movetext {
                    return Err(PgnError {
                        place: here,
                        reason: "a tag pair inside the moves: the game before it has no result"
                            .into(),
                    });
                }
                let tag = r.tag()?;
                game.tags.push(tag);
            }
            '{' => {
                in_movetext = true;
                let text = r.comment(here)?;
                game.comments.push((game.moves.len(), text));
            }
            ';' => r.rest_of_line(),
            '(' => {
                in_movetext = true;
                r.variation(here)?;
            }
            ')' | '}' => {
                return Err(PgnError {
                    place: here,
                    reason: format!("'{c}' without its opening bracket"),
                });
            }
            '$' => {
                r.symbol(c);
            }
            _ => {
                in_movetext = true;
                let sym = r.symbol(c);
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&sym.as_str()) {
                    let mut g = current.take().expect("a game");
                    g.result = sym;
                    games.push(g);
                    in_movetext = false;
                    continue;
                }
                // Move numbers: digits and dots, maybe glued to the move (`12.e4`, `3...Nf6`).
                let san = sym.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if !san.is_empty() {
                    game.moves.push(san.to_string());
                }
            }
        }
    }
    if let Some(g) = current {
        if in_movetext || !g.tags.is_empty() {
            // The place is the end of the file, where the result is missing.
            let start = g.place.rsplit(':').next().unwrap_or("?");
            return Err(PgnError {
                place: r.place(),
                reason: format!(
                    "the game from line {start} has no result at its end (1-0, 0-1, 1/2-1/2 or *)"
                ),
            });
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_format_with_comments_variations_and_escapes() {
        let text = "% a comment line\n\
            [Event \"A \\\"quoted\\\" event\"]\n[White \"a\\\\b\"]\n[Result \"1-0\"]\n\n\
            1. e4 {first\nmove} e5 (1... c5 2. Nf3 {inner} (2. c3)) 2.Nf3 $1 ; rest of line\n\
            2...Nc6 3. Bb5 {[%emt 0:00:01] resigns} 1-0\n\n\
            [Event \"second\"]\n\n1. d4 *\n";
        let g = read_pgn(text, "t.pgn").unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tag("Event"), Some("A \"quoted\" event"));
        assert_eq!(g[0].tag("White"), Some("a\\b"));
        assert_eq!(g[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(g[0].comments[0], (1, "first\nmove".to_string()));
        assert_eq!(g[0].result, "1-0");
        assert_eq!(g[0].place, "t.pgn:2");
        assert_eq!(g[0].outcome(), Some(Outcome::WhiteWins));
        assert_eq!(g[0].termination(), None);
        assert_eq!(g[1].result, "*");
        assert_eq!(g[1].outcome(), None);
    }

    #[test]
    fn terminations_as_the_writer_puts_them() {
        let text = "[Result \"0-1\"]\n1. e4 {[%emt 0:00:01]} {engine failure: x: gone} 0-1\n\
            [Result \"1-0\"]\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let g = read_pgn(text, "t").unwrap();
        assert_eq!(
            g[0].termination(),
            Some(Termination::EngineFailure {
                reason: "x: gone".into()
            })
        );
        assert_eq!(g[1].termination(), Some(Termination::Checkmate));
        for t in [
            Termination::MoveCap,
            Termination::TimeForfeit,
            Termination::ThreefoldRepetition,
            Termination::IllegalMove {
                text: "e2e5".into(),
            },
        ] {
            assert_eq!(Termination::from_text(&t.to_string()), Some(t));
        }
    }

    #[test]
    fn malformed_files_say_where() {
        for (text, place, why) in [
            ("[Event \"x]\n", "t:1:11", "does not end"),
            ("[Event x]\n", "t:1:8", "quoted value"),
            ("1. e4 {open\n", "t:1:7", "comment that does not end"),
            ("1. e4 (1. d4\n", "t:1:7", "variation that does not end"),
            (
                "[Event \"x\"]\n1. e4\n[Event \"y\"]\n",
                "t:3:1",
                "has no result",
            ),
            (
                "[Event \"x\"]\n1. e4\n",
                "t:3:1",
                "the game from line 1 has no result at its end",
            ),
            ("\n\nὙ", "t:3:2", "the game from line 3 has no result"),
            ("1. e4 ) 1-0", "t:1:7", "without its opening bracket"),
        ] {
            let e = read_pgn(text, "t").unwrap_err();
            assert!(e.place == place && e.reason.contains(why), "{text:?}: {e}");
        }
        assert_eq!(read_pgn("", "t"), Ok(Vec::new()));
    }
}
