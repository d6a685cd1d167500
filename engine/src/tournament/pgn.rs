//! Reading PGN files back: the tag pairs, the moves as written (SAN), the comments and the
//! result of each game, for the crosstable and ratings of any set of PGN files
//! (`kempelen ratings`). The reader follows the PGN standard's import format: tag pairs with
//! `\"` and `\\` escapes, brace comments over several lines, rest-of-line comments after `;`,
//! escape lines starting with `%`, recursive variations (skipped), numeric annotation glyphs
//! (skipped), move numbers with any number of dots. A malformed file gives an error with
//! `source:line:column`.

use super::game::{MAX_STRING_CHARS, Outcome, Termination, printable};

/// The most plies a game may have: more than any game of chess (the 75-move rule of the FIDE
/// Laws ends every game within about 8,850 moves). It bounds what one game can cost.
pub const MAX_PLIES: usize = 20_000;

/// The most tag pairs a game may have (the standard's roster is seven; Kempelen writes at
/// most twenty).
pub const MAX_TAGS: usize = 1_000;

/// The most comments of one game's main line: four a ply.
pub const MAX_COMMENTS: usize = 4 * MAX_PLIES;

/// A tag pair as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnTag {
    /// The tag's name.
    pub name: String,
    /// Its value, unescaped.
    pub value: String,
    /// Where it starts (`source:line:column`).
    pub place: String,
}

/// A game as read from PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Where the game starts (`source:line`).
    pub place: String,
    /// Tag pairs in the order given (each name once).
    pub tags: Vec<PgnTag>,
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
        self.tag_pair(name).map(|t| t.value.as_str())
    }

    /// A tag pair, with its place.
    pub fn tag_pair(&self, name: &str) -> Option<&PgnTag> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// The result: the termination marker, or the `Result` tag when the marker is `*` (the
    /// reader refuses a game whose tag and marker give two different results); `None` for an
    /// unfinished game.
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

/// Reads the games of a PGN text one at a time, so that a large file costs the memory of
/// one game and what is kept of each ([`games`]).
pub struct PgnReader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    col: usize,
    source: &'a str,
    failed: bool,
}

/// Where a game starts and what is known of it while it is read.
struct Pending {
    game: PgnGame,
    in_movetext: bool,
}

impl PgnReader<'_> {
    fn advance(&mut self) -> Option<char> {
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
        self.place_at(self.at())
    }

    /// The line and column of the next character (formatted only for an error or a tag).
    fn at(&self) -> (usize, usize) {
        (self.line, self.col)
    }

    fn place_at(&self, (line, col): (usize, usize)) -> String {
        format!("{}:{line}:{col}", self.source)
    }

    fn error(&self, reason: impl Into<String>) -> PgnError {
        PgnError {
            place: self.place(),
            reason: reason.into(),
        }
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.advance();
        }
    }

    /// A tag's name, at most [`MAX_STRING_CHARS`] characters.
    fn tag_name(&mut self) -> Result<String, PgnError> {
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if !(c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
            if name.len() == MAX_STRING_CHARS {
                return Err(self.error(format!(
                    "a tag name longer than {MAX_STRING_CHARS} characters"
                )));
            }
            name.push(c);
            self.advance();
        }
        if name.is_empty() {
            return Err(self.error("a tag without a name"));
        }
        Ok(name)
    }

    /// A tag's quoted value after its opening quote, at most [`MAX_STRING_CHARS`] characters.
    fn tag_value(&mut self, name: &str) -> Result<String, PgnError> {
        let mut value = String::new();
        let mut chars = 0;
        loop {
            if matches!(self.peek(), Some('\n') | None) {
                return Err(self.error(format!("tag {name}: the value does not end")));
            }
            let c = match self.advance() {
                Some('\\') => match self.advance() {
                    Some(c @ ('\\' | '"')) => c,
                    _ => return Err(self.error(format!("tag {name}: a bad escape"))),
                },
                Some('"') => return Ok(value),
                Some(c) if c.is_control() => {
                    return Err(self.error(format!(
                        "tag {name}: a control character ({}) in its value: a PGN string \
                         holds printing characters only",
                        printable(&c.to_string())
                    )));
                }
                Some(c) => c,
                None => unreachable!("looked at above"),
            };
            chars += 1;
            if chars > MAX_STRING_CHARS {
                return Err(self.error(format!(
                    "tag {name}: a value longer than {MAX_STRING_CHARS} characters, the most \
                     PGN allows"
                )));
            }
            value.push(c);
        }
    }

    /// A tag pair after its `[` (which is at `place`).
    fn tag(&mut self, place: String) -> Result<PgnTag, PgnError> {
        self.skip_blanks();
        let name = self.tag_name()?;
        self.skip_blanks();
        if self.peek() != Some('"') {
            return Err(self.error(format!("tag {name}: expected a quoted value")));
        }
        self.advance();
        let value = self.tag_value(&name)?;
        self.skip_blanks();
        if self.peek() != Some(']') {
            return Err(self.error(format!("tag {name}: expected ']'")));
        }
        self.advance();
        Ok(PgnTag { name, value, place })
    }

    /// A brace comment after its `{` (which is at `start`).
    fn comment(&mut self, start: (usize, usize)) -> Result<String, PgnError> {
        let mut text = String::new();
        loop {
            match self.advance() {
                Some('}') => return Ok(text),
                Some(c) => text.push(c),
                None => {
                    return Err(PgnError {
                        place: self.place_at(start),
                        reason: "a comment that does not end ('}' missing)".into(),
                    });
                }
            }
        }
    }

    /// A comment skipped after its `{` (which is at `start`).
    fn skip_comment(&mut self, start: (usize, usize)) -> Result<(), PgnError> {
        loop {
            match self.advance() {
                Some('}') => return Ok(()),
                Some(_) => {}
                None => {
                    return Err(PgnError {
                        place: self.place_at(start),
                        reason: "a comment that does not end ('}' missing)".into(),
                    });
                }
            }
        }
    }

    /// A variation after its `(` (which is at `start`), skipped with the variations and
    /// comments inside it.
    fn variation(&mut self, start: (usize, usize)) -> Result<(), PgnError> {
        let mut depth = 1usize;
        while depth > 0 {
            let here = self.at();
            match self.advance() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => self.skip_comment(here)?,
                Some(';') => self.rest_of_line(),
                Some(_) => {}
                None => {
                    return Err(PgnError {
                        place: self.place_at(start),
                        reason: "a variation that does not end (')' missing)".into(),
                    });
                }
            }
        }
        Ok(())
    }

    fn rest_of_line(&mut self) {
        while let Some(c) = self.advance() {
            if c == '\n' {
                break;
            }
        }
    }

    /// A symbol (move, move number, result) starting with `first`, at most
    /// [`MAX_STRING_CHARS`] characters.
    fn symbol(&mut self, first: char) -> Result<String, PgnError> {
        let mut s = String::from(first);
        let mut chars = 1;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}()[];".contains(c) {
                break;
            }
            chars += 1;
            if chars > MAX_STRING_CHARS {
                return Err(self.error(format!(
                    "a symbol (a move) longer than {MAX_STRING_CHARS} characters"
                )));
            }
            s.push(c);
            self.advance();
        }
        Ok(s)
    }

    /// Adds a tag pair to the game: each name once, at most [`MAX_TAGS`].
    fn add_tag(&self, game: &mut PgnGame, tag: PgnTag) -> Result<(), PgnError> {
        if let Some(first) = game.tag_pair(&tag.name) {
            return Err(PgnError {
                reason: format!(
                    "tag {} a second time (first on line {}): a tag is given once",
                    tag.name,
                    line_of(&first.place)
                ),
                place: tag.place,
            });
        }
        if game.tags.len() == MAX_TAGS {
            return Err(PgnError {
                place: tag.place,
                reason: format!("more than {MAX_TAGS} tag pairs in one game"),
            });
        }
        game.tags.push(tag);
        Ok(())
    }

    /// Ends the game with its termination marker (which is at `place`): a marker that
    /// contradicts the game's Result tag, or a Result tag that is not a result, is refused.
    fn finish(
        &self,
        mut game: PgnGame,
        marker: String,
        place: String,
    ) -> Result<PgnGame, PgnError> {
        if let Some(tag) = game.tag_pair("Result") {
            let results = ["1-0", "0-1", "1/2-1/2", "*"];
            if !results.contains(&tag.value.as_str()) {
                return Err(PgnError {
                    place: tag.place.clone(),
                    reason: format!(
                        "Result tag '{}' is not a result (1-0, 0-1, 1/2-1/2 or *)",
                        tag.value
                    ),
                });
            }
            if marker != "*" && tag.value != "*" && marker != tag.value {
                return Err(PgnError {
                    place,
                    reason: format!(
                        "the game ends {marker}, its Result tag (line {}) says {}: which is it?",
                        line_of(&tag.place),
                        tag.value
                    ),
                });
            }
        }
        game.result = marker;
        Ok(game)
    }

    /// Adds a move or a comment to the game, within [`MAX_PLIES`] and [`MAX_COMMENTS`].
    fn add_move(&self, game: &mut PgnGame, san: &str, at: (usize, usize)) -> Result<(), PgnError> {
        if game.moves.len() == MAX_PLIES {
            return Err(PgnError {
                place: self.place_at(at),
                reason: format!(
                    "the game from line {} has more than {MAX_PLIES} plies, more than any \
                     game of chess",
                    game.start_line()
                ),
            });
        }
        game.moves.push(san.to_string());
        Ok(())
    }

    /// The next game, or `None` at the end of the text.
    fn game(&mut self) -> Option<Result<PgnGame, PgnError>> {
        let mut pending: Option<Pending> = None;
        loop {
            match self.step(&mut pending) {
                Ok(Some(game)) => return Some(Ok(game)),
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
            if self.peek().is_none() {
                return self.at_end(pending).map(Err);
            }
        }
    }

    /// The end of the text: an error when a game was begun and has no result.
    fn at_end(&self, pending: Option<Pending>) -> Option<PgnError> {
        let p = pending?;
        if !p.in_movetext && p.game.tags.is_empty() {
            return None;
        }
        // The place is the end of the file, where the result is missing.
        Some(PgnError {
            place: self.place(),
            reason: format!(
                "the game from line {} has no result at its end (1-0, 0-1, 1/2-1/2 or *)",
                p.game.start_line()
            ),
        })
    }

    /// Reads one token into the pending game; returns the game when the token ends it.
    fn step(&mut self, pending: &mut Option<Pending>) -> Result<Option<PgnGame>, PgnError> {
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        if c == '%' && self.col == 1 {
            self.rest_of_line();
            return Ok(None);
        }
        if c.is_whitespace() {
            self.advance();
            return Ok(None);
        }
        let line = self.line;
        let source = self.source;
        let p = pending.get_or_insert_with(|| Pending {
            game: PgnGame {
                place: format!("{source}:{line}"),
                tags: Vec::new(),
                moves: Vec::new(),
                comments: Vec::new(),
                result: String::new(),
            },
            in_movetext: false,
        });
        let here = self.at();
        self.advance();
        match c {
            '[' => {
                if p.in_movetext {
                    return Err(PgnError {
                        place: self.place_at(here),
                        reason: "a tag pair inside the moves: the game before it has no result"
                            .into(),
                    });
                }
                let tag = self.tag(self.place_at(here))?;
                self.add_tag(&mut p.game, tag)?;
            }
            '{' => {
                p.in_movetext = true;
                if p.game.comments.len() == MAX_COMMENTS {
                    return Err(PgnError {
                        place: self.place_at(here),
                        reason: format!("more than {MAX_COMMENTS} comments in one game"),
                    });
                }
                let text = self.comment(here)?;
                p.game.comments.push((p.game.moves.len(), text));
            }
            ';' => self.rest_of_line(),
            '(' => {
                p.in_movetext = true;
                self.variation(here)?;
            }
            ')' | '}' => {
                return Err(PgnError {
                    place: self.place_at(here),
                    reason: format!("'{c}' without its opening bracket"),
                });
            }
            '$' => {
                self.symbol(c)?;
            }
            _ => {
                p.in_movetext = true;
                let sym = self.symbol(c)?;
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&sym.as_str()) {
                    let game = pending.take().expect("a game").game;
                    return self.finish(game, sym, self.place_at(here)).map(Some);
                }
                // Move numbers: digits and dots, maybe glued to the move (`12.e4`, `3...Nf6`).
                let san = sym.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if !san.is_empty() {
                    self.add_move(&mut p.game, san, here)?;
                }
            }
        }
        Ok(None)
    }
}

/// The line of a place (`source:line:column`).
fn line_of(place: &str) -> &str {
    place.rsplit(':').nth(1).unwrap_or("?")
}

impl PgnGame {
    /// The line the game starts on.
    fn start_line(&self) -> &str {
        self.place.rsplit(':').next().unwrap_or("?")
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;

    /// The next game; after an error, nothing more.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let game = self.game();
        self.failed = matches!(game, Some(Err(_)));
        game
    }
}

/// The games of a PGN text one at a time; `source` names it in errors. A UTF-8 byte-order
/// mark at the start (as some editors write one) is not part of the text.
pub fn games<'a>(text: &'a str, source: &'a str) -> PgnReader<'a> {
    let text = text
        .strip_prefix(crate::fen::BYTE_ORDER_MARK)
        .unwrap_or(text);
    PgnReader {
        chars: text.chars().peekable(),
        line: 1,
        col: 1,
        source,
        failed: false,
    }
}

/// Reads every game of a PGN text; `source` names it in errors.
pub fn read_pgn(text: &str, source: &str) -> Result<Vec<PgnGame>, PgnError> {
    games(text, source).collect()
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
            [Result \"0-1\"]\n1. f3 e5 2. g4 Qh4# 0-1\n";
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

    #[test]
    fn what_contradicts_itself_or_exceeds_the_standard_is_refused_at_its_place() {
        let long = "x".repeat(MAX_STRING_CHARS + 1);
        let plies = "e4 ".repeat(MAX_PLIES + 1);
        for (text, place, why) in [
            (
                "[Result \"1-0\"]\n1. e4 0-1\n".to_string(),
                "t:2:7",
                "the game ends 0-1, its Result tag (line 1) says 1-0",
            ),
            (
                "[Result \"2-0\"]\n1. e4 *\n".into(),
                "t:1:1",
                "Result tag '2-0' is not a result",
            ),
            (
                "[White \"a\"]\n[White \"b\"]\n1-0\n".into(),
                "t:2:1",
                "tag White a second time (first on line 1)",
            ),
            (
                format!("[White \"{long}\"]\n1-0\n"),
                "t:1:265",
                "a value longer than 255 characters",
            ),
            (
                format!("[{long} \"a\"]\n1-0\n"),
                "t:1:257",
                "a tag name longer than 255",
            ),
            (
                format!("{long} 1-0\n"),
                "t:1:256",
                "a symbol (a move) longer",
            ),
            (
                format!("{plies}1-0\n"),
                "t:1:60001",
                "more than 20000 plies",
            ),
        ] {
            let e = read_pgn(&text, "t").unwrap_err();
            assert!(e.place == place && e.reason.contains(why), "{e}");
        }
        // A `*` on either side leaves the result to the other.
        let g = read_pgn("[Result \"*\"]\n1. e4 1-0\n[Result \"0-1\"] *\n", "t").unwrap();
        assert_eq!(g[0].outcome(), Some(Outcome::WhiteWins));
        assert_eq!(g[1].outcome(), Some(Outcome::BlackWins));
        // A value of exactly 255 characters is PGN's and is read.
        let most = "y".repeat(MAX_STRING_CHARS);
        let g = read_pgn(&format!("[White \"{most}\"] 1-0"), "t").unwrap();
        assert_eq!(g[0].tag("White"), Some(most.as_str()));
    }

    #[test]
    fn games_come_one_at_a_time_and_stop_at_the_first_error() {
        let text = "[Round \"1\"] 1. e4 1-0\n[Round \"2\"] 1. d4 ) 0-1\n[Round \"3\"] *\n";
        let mut reader = games(text, "t");
        assert_eq!(reader.next().unwrap().unwrap().tag("Round"), Some("1"));
        assert!(reader.next().unwrap().is_err());
        assert!(reader.next().is_none());
    }
}
