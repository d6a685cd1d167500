//! Reading position suites in EPD (`FEN; operation; ...`), the format of the bundled
//! comparison suite `tests/data/suite.epd`. Besides the standard operations (`id`, `bm`,
//! `hmvc`, `fmvn`, ...) it understands `moves "..."`: UCI moves played from the FEN before
//! the search, so a suite can carry repetition histories. The FEN may have four fields (EPD)
//! or six.

use kempelen_engine::{Game, Move, Position};
use thiserror::Error;

/// The bundled comparison suite (`tests/data/suite.epd`): at least 60 positions covering
/// castling, en passant (the pinned en-passant pawn too), every promotion, checks and double
/// checks, mates, stalemates, repetitions, the fifty-move rule and insufficient material.
pub const BUNDLED: &str = include_str!("../../tests/data/suite.epd");

/// The name the bundled suite is reported under.
pub const BUNDLED_NAME: &str = "tests/data/suite.epd";

/// The positions of the RAM-by-depth table of `kempelen bench --cpu z80`
/// (`tests/data/ram.epd`): suite positions whose search to depth 8 is affordable.
pub const RAM_SUITE: &str = include_str!("../../tests/data/ram.epd");

/// The name the RAM suite is reported under.
pub const RAM_SUITE_NAME: &str = "tests/data/ram.epd";

/// One position of a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// 1-based line number in the file.
    pub line: usize,
    /// The `id` operation, or `line N` when there is none.
    pub id: String,
    /// The FEN as six fields (EPD's four plus clocks from `hmvc` / `fmvn`).
    pub fen: String,
    /// The `moves` operation, split into UCI moves.
    pub moves: Vec<String>,
    /// Every operation as (opcode, operand text without quotes).
    pub ops: Vec<(String, String)>,
}

/// A suite line that cannot be used; says where and why.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SuiteError {
    #[error("{file}:{line}:{col}: {message}")]
    Syntax {
        file: String,
        line: usize,
        col: usize,
        message: String,
    },
    /// The file has no position at all (only blank lines and comments, or nothing).
    #[error("{file}: the suite has no positions (only blank lines and comments)")]
    Empty { file: String },
    /// The file could not be read.
    #[error("cannot read {file}: {message}")]
    Io { file: String, message: String },
}

/// Reads a suite file as text; a line that is not UTF-8 is refused with its place.
pub fn read_file(path: &std::path::Path) -> Result<String, SuiteError> {
    let file = path.display().to_string();
    let bytes =
        kempelen_emulator::files::read_bounded(path, kempelen_emulator::files::MAX_TEXT_BYTES)
            .map_err(|e| SuiteError::Io {
                file: file.clone(),
                message: e.to_string(),
            })?;
    decode(&bytes, &file)
}

/// The bytes of a suite as text; the first byte that is not UTF-8 is named by line and column.
pub fn decode(bytes: &[u8], file: &str) -> Result<String, SuiteError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            Err(SuiteError::Syntax {
                file: file.to_string(),
                line,
                col: e.valid_up_to() - line_start + 1,
                message: format!(
                    "the line is not valid UTF-8 (byte 0x{:02X}); save the suite as UTF-8",
                    bytes[e.valid_up_to()]
                ),
            })
        }
    }
}

impl SuiteEntry {
    /// The game: the FEN with the `moves` played, so that its current position is the one to
    /// search and its keys are the repetition history.
    pub fn game(&self, file: &str) -> Result<Game, SuiteError> {
        let err = |message: String| SuiteError::Syntax {
            file: file.to_string(),
            line: self.line,
            col: 1,
            message,
        };
        let mut game = Game::from_fen(&self.fen).map_err(|e| err(format!("FEN: {e}")))?;
        for m in &self.moves {
            game.push_uci(m)
                .map_err(|e| err(format!("move '{m}' of `moves`: {e}")))?;
        }
        Ok(game)
    }
}

/// Parses a suite. `file` names it in errors. Blank lines and lines starting with `#` are
/// skipped; a suite without positions is an error.
///
/// Operations follow the EPD standard (Steven J. Edwards, "Portable Game Notation
/// Specification and Implementation Guide", 1994, section 16): an opcode starting with a
/// letter, operands, and a `;` ending the operation. Kempelen also accepts a last operation
/// without its `;` (as perft suites write it) when an earlier `;` on the line shows where the
/// FEN ends. Refused with file:line:col: a string without its closing quote, anything but `;`
/// after a quoted operand (a missing `;`), and text after the FEN of a line with no `;`.
pub fn parse(text: &str, file: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut out = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        out.push(
            SuiteLine {
                file,
                line: i + 1,
                raw,
            }
            .entry()?,
        );
    }
    if out.is_empty() {
        return Err(SuiteError::Empty {
            file: file.to_string(),
        });
    }
    Ok(out)
}

/// A line of a suite that holds a position, being read.
struct SuiteLine<'a> {
    file: &'a str,
    /// Its number, from 1.
    line: usize,
    raw: &'a str,
}

impl SuiteLine<'_> {
    /// An error at column `col` of the line.
    fn err(&self, col: usize, message: String) -> SuiteError {
        SuiteError::Syntax {
            file: self.file.to_string(),
            line: self.line,
            col,
            message,
        }
    }

    /// The position and operations of the line.
    fn entry(&self) -> Result<SuiteEntry, SuiteError> {
        let raw = self.raw;
        if let Some(open) = unterminated_quote(raw) {
            return Err(self.err(
                open + 1,
                "string without its closing '\"' (operations are `opcode operand;`)".into(),
            ));
        }
        let (fen_part, rest) = match first_separator(raw) {
            Some(p) => (&raw[..p], &raw[p + 1..]),
            None => (raw, ""),
        };
        let (mut fen_fields, clocks, first_op_start) = self.fen(fen_part)?;
        let mut ops = Vec::new();
        let mut pieces = vec![(first_op_start, &fen_part[first_op_start..])];
        let mut at = fen_part.len() + 1;
        for op in split_ops(rest) {
            pieces.push((at, op));
            at += op.len() + 1;
        }
        for (start, op) in pieces {
            if let Some(op) = self.operation(start, op)? {
                ops.push(op);
            }
        }
        let op = |name: &str| ops.iter().find(|(c, _)| c == name).map(|(_, v)| v.clone());
        // The clocks: from a six-field FEN, else from `hmvc` / `fmvn`, else 0 and 1.
        let (hmvc, fmvn) = (self.number(&ops, "hmvc")?, self.number(&ops, "fmvn")?);
        let half = clocks.first().cloned().or(hmvc);
        let full = clocks.get(1).cloned().or(fmvn);
        fen_fields.push(half.unwrap_or_else(|| "0".into()));
        fen_fields.push(full.unwrap_or_else(|| "1".into()));
        let moves = op("moves")
            .map(|m| m.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        Ok(SuiteEntry {
            line: self.line,
            id: op("id").unwrap_or_else(|| format!("line {}", self.line)),
            fen: fen_fields.join(" "),
            moves,
            ops,
        })
    }

    /// The text before the first `;`: four FEN fields, then up to two clock numbers (a
    /// six-field FEN); anything else there is the first operation of a standard EPD line,
    /// whose start is returned with the fields and clocks.
    fn fen(&self, fen_part: &str) -> Result<(Vec<String>, Vec<String>, usize), SuiteError> {
        let words: Vec<&str> = fen_part.split_whitespace().collect();
        if words.len() < 4 {
            return Err(self.err(
                1,
                format!("expected a FEN of 4 or 6 fields, found {}", words.len()),
            ));
        }
        let fen_fields: Vec<String> = words[..4].iter().map(|s| s.to_string()).collect();
        let clocks: Vec<String> = words[4..]
            .iter()
            .take(2)
            .take_while(|w| w.parse::<u32>().is_ok())
            .map(|w| w.to_string())
            .collect();
        // The first operation of a standard EPD line stands before the first ';', after the
        // FEN fields (and clocks): find where it starts in the raw line.
        let skip = 4 + clocks.len();
        let first_op_start = word_offsets(fen_part)
            .get(skip)
            .copied()
            .unwrap_or(fen_part.len());
        if first_separator(self.raw).is_none() && first_op_start < fen_part.len() {
            let stray = fen_part[first_op_start..]
                .split_whitespace()
                .next()
                .unwrap_or("");
            return Err(self.err(
                first_op_start + 1,
                format!(
                    "unexpected '{stray}' after the FEN (a FEN has 4 or 6 fields; operations end with ';')"
                ),
            ));
        }
        Ok((fen_fields, clocks, first_op_start))
    }

    /// One operation, the text `op` starting at byte `start` of the line: its opcode and its
    /// operand (a quoted one without its quotes), or `None` when it is blank.
    fn operation(&self, start: usize, op: &str) -> Result<Option<(String, String)>, SuiteError> {
        let t = op.trim();
        if t.is_empty() {
            return Ok(None);
        }
        let col = start + (op.len() - op.trim_start().len()) + 1;
        let (code, operand) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        if !code.starts_with(|c: char| c.is_ascii_alphabetic())
            || code
                .chars()
                .any(|c| !(c.is_ascii_alphanumeric() || c == '_'))
        {
            return Err(self.err(
                col,
                format!("bad opcode '{code}' (an opcode is a letter, then letters, digits or '_')"),
            ));
        }
        let operand_start = col - 1 + (t.len() - operand.len());
        let operand_lead = operand.len() - operand.trim_start().len();
        let operand = operand.trim();
        // A quoted operand is the whole operand: more text after it is a missing ';'.
        let operand = if let Some(inner) = operand.strip_prefix('"') {
            // The line's quotes pair up, but a quote among the FEN fields can pair with
            // one in the first operation: its string then has no closing quote of its own.
            let Some(close) = inner.find('"') else {
                return Err(self.err(
                    operand_start + operand_lead + 1,
                    "string without its closing '\"' (operations are `opcode operand;`)".into(),
                ));
            };
            let after = inner[close + 1..].trim_start();
            if !after.is_empty() {
                let after_col = operand_start + operand_lead + operand.len() - after.len() + 1;
                return Err(self.err(
                    after_col,
                    format!(
                        "expected ';' after the string of `{code}`, found '{}'",
                        after.split_whitespace().next().unwrap_or(after)
                    ),
                ));
            }
            &inner[..close]
        } else {
            operand
        };
        Ok(Some((code.to_string(), operand.to_string())))
    }

    /// The operand of the operation `name` (`hmvc`, `fmvn`), which must be a non-negative
    /// number.
    fn number(&self, ops: &[(String, String)], name: &str) -> Result<Option<String>, SuiteError> {
        match ops.iter().find(|(c, _)| c == name).map(|(_, v)| v.clone()) {
            None => Ok(None),
            Some(v) if v.parse::<u32>().is_ok() => Ok(Some(v)),
            Some(v) => {
                let col = self.raw.find(name).map_or(1, |c| c + 1);
                Err(self.err(
                    col,
                    format!("`{name}` needs a non-negative number, found '{v}'"),
                ))
            }
        }
    }
}

/// The byte offsets where the whitespace-separated words of `s` start.
fn word_offsets(s: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut in_word = false;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            in_word = false;
        } else if !in_word {
            in_word = true;
            out.push(i);
        }
    }
    out
}

/// The byte index of a `"` that is never closed.
fn unterminated_quote(s: &str) -> Option<usize> {
    let mut open = None;
    for (i, c) in s.char_indices() {
        if c == '"' {
            open = if open.is_some() { None } else { Some(i) };
        }
    }
    open
}

/// The byte index of the first `;` outside double quotes.
fn first_separator(s: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits the operation part at semicolons outside quotes.
fn split_ops(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// An expected move of an EPD entry (`bm`, `am`) that is not a legal move of its position.
#[derive(Debug, Error)]
#[error("{file}:{line}: `{op} {text}`: not a legal move in {fen}")]
pub struct ExpectedMoveError {
    /// The suite file.
    pub file: String,
    /// The entry's line.
    pub line: usize,
    /// The operation (`bm` or `am`).
    pub op: String,
    /// The move as written.
    pub text: String,
    /// The position.
    pub fen: String,
}

/// The moves an EPD entry expects, parsed in its position (SAN or UCI): `bm` (best moves)
/// and `am` (moves to avoid).
pub struct Expected {
    /// The `bm` moves.
    pub best: Vec<Move>,
    /// The `am` moves.
    pub avoid: Vec<Move>,
}

impl Expected {
    /// The `bm` and `am` moves of `entry` (of the suite `file`) in `pos`.
    pub fn of(
        entry: &SuiteEntry,
        pos: &Position,
        file: &str,
    ) -> Result<Expected, ExpectedMoveError> {
        let mut e = Expected {
            best: Vec::new(),
            avoid: Vec::new(),
        };
        for (op, operand) in &entry.ops {
            let list = match op.as_str() {
                "bm" => &mut e.best,
                "am" => &mut e.avoid,
                _ => continue,
            };
            for text in operand.split_whitespace() {
                let m = pos
                    .parse_san(text)
                    .ok()
                    .or_else(|| {
                        pos.legal_moves()
                            .iter()
                            .copied()
                            .find(|m| m.to_uci() == text)
                    })
                    .ok_or_else(|| ExpectedMoveError {
                        file: file.to_string(),
                        line: entry.line,
                        op: op.clone(),
                        text: text.to_string(),
                        fen: pos.to_fen(),
                    })?;
                list.push(m);
            }
        }
        Ok(e)
    }

    /// Whether the entry names any expected move.
    pub fn given(&self) -> bool {
        !self.best.is_empty() || !self.avoid.is_empty()
    }

    /// Whether `best` solves the position: one of the `bm` moves (when given) and none of
    /// the `am` moves.
    pub fn solved(&self, best: Option<Move>) -> bool {
        let Some(m) = best else { return false };
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_epd_and_six_field_lines() {
        let s = parse(
            "# c\n8/8/8/8/8/8/8/K6k w - - hmvc 7; id \"a; b\"; bm Kb2;\n\
             8/8/8/8/8/8/8/K6k b - - 3 9; moves \"h1g1 a1b1\";\n",
            "t.epd",
        );
        let s = s.unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].fen, "8/8/8/8/8/8/8/K6k w - - 7 1");
        assert_eq!(s[0].id, "a; b");
        assert_eq!(s[1].fen, "8/8/8/8/8/8/8/K6k b - - 3 9");
        assert_eq!(s[1].moves, vec!["h1g1", "a1b1"]);
        assert_eq!(s[1].line, 3);
        let g = s[1].game("t.epd").unwrap();
        assert_eq!(g.moves().len(), 2);
    }

    #[test]
    fn hmvc_operation_sets_the_clock() {
        let s = parse("8/8/8/8/8/8/8/K6k w - -; hmvc 7; fmvn 40;\n", "t.epd").unwrap();
        assert_eq!(s[0].fen, "8/8/8/8/8/8/8/K6k w - - 7 40");
    }

    #[test]
    fn standard_opcodes_are_read() {
        let line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - \
                    c0 \"x; y\"; bm Bb5 Bc4; am a3; id \"Ruy; Lopez\"; hmvc 2; fmvn 3; ce 35; \
                    acd 12; acn 123456; acs 3; pv Bb5 a6 Ba4; c1 \"\"; dm 5; noop;\n";
        let s = parse(line, "t.epd").unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(
            s[0].fen,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        );
        assert_eq!(s[0].id, "Ruy; Lopez");
        let codes: Vec<&str> = s[0].ops.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(
            codes,
            [
                "c0", "bm", "am", "id", "hmvc", "fmvn", "ce", "acd", "acn", "acs", "pv", "c1",
                "dm", "noop"
            ]
        );
        assert_eq!(s[0].ops[0].1, "x; y");
        assert_eq!(s[0].ops[1].1, "Bb5 Bc4");
        s[0].game("t.epd").unwrap();
    }

    #[test]
    fn byte_order_mark_and_crlf_are_accepted() {
        let s = parse("\u{feff}8/8/8/8/8/8/8/K6k w - -; id \"a\";\r\n", "t.epd").unwrap();
        assert_eq!(s[0].id, "a");
        assert_eq!(s[0].fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
    }

    #[test]
    fn a_bad_clock_operation_is_refused_with_its_place() {
        let e = parse("8/8/8/8/8/8/8/K6k w - -; id \"a\"; hmvc x;\n", "t.epd").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.epd:1:34: `hmvc` needs a non-negative number, found 'x'"
        );
    }

    fn refusal(text: &str) -> String {
        parse(text, "t.epd").unwrap_err().to_string()
    }

    #[test]
    fn an_empty_or_comment_only_suite_is_an_error() {
        assert_eq!(
            refusal(""),
            "t.epd: the suite has no positions (only blank lines and comments)"
        );
        assert_eq!(
            refusal("# nothing\n\n   \n"),
            "t.epd: the suite has no positions (only blank lines and comments)"
        );
    }

    #[test]
    fn malformed_operations_are_refused_with_their_place() {
        assert_eq!(
            refusal("8/8/8/8/8/8/8/K6k w - -; id \"unterminated;\n"),
            "t.epd:1:29: string without its closing '\"' (operations are `opcode operand;`)"
        );
        assert_eq!(
            refusal("8/8/8/8/8/8/8/K6k w - -; id \"a\" bm Kb2;\n"),
            "t.epd:1:33: expected ';' after the string of `id`, found 'bm'"
        );
        assert_eq!(
            refusal("8/8/8/8/8/8/8/K6k w - - 0 1 junk\n"),
            "t.epd:1:29: unexpected 'junk' after the FEN (a FEN has 4 or 6 fields; operations end with ';')"
        );
        assert_eq!(
            refusal("8/8/8/8/8/8/8/K6k w - - 0 1 7; id \"x\";\n"),
            "t.epd:1:29: bad opcode '7' (an opcode is a letter, then letters, digits or '_')"
        );
        // A quote among the FEN fields pairs with one in the first operation, whose string
        // then has no closing quote of its own (found by the EPD fuzz test).
        assert_eq!(
            refusal("id id id id\n id \" ; ; id \" ;"),
            "t.epd:2:14: string without its closing '\"' (operations are `opcode operand;`)"
        );
        // The standard forms stay accepted: the first operation before the first ';', a
        // last operation without its ';' after an earlier one.
        let s = parse("8/8/8/8/8/8/8/K6k w - - bm Kb2; id \"x\"\n", "t.epd").unwrap();
        assert_eq!(
            s[0].ops,
            [("bm".into(), "Kb2".into()), ("id".into(), "x".into())]
        );
    }

    #[test]
    fn every_suite_of_the_repository_parses() {
        for (text, file) in [
            (BUNDLED, BUNDLED_NAME),
            (RAM_SUITE, RAM_SUITE_NAME),
            (
                include_str!("../tests/data/edge_cases.epd"),
                "edge_cases.epd",
            ),
            (
                include_str!("../tests/data/regressions.epd"),
                "regressions.epd",
            ),
        ] {
            let entries = parse(text, file).unwrap_or_else(|e| panic!("{e}"));
            assert!(!entries.is_empty(), "{file}");
        }
    }

    #[test]
    fn a_suite_that_is_not_utf8_names_the_line() {
        let e = decode(b"# ok\n8/8/8/8/8/8/8/K6k w - -; id \"\xe9\";\n", "t.epd").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.epd:2:30: the line is not valid UTF-8 (byte 0xE9); save the suite as UTF-8"
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = parse("\n8/8/8 w\n", "t.epd").unwrap_err();
        assert!(e.to_string().starts_with("t.epd:2:1:"), "{e}");
        let e = parse("8/8/8/8/8/8/8/K6k w - - 0 1; moves \"a1a3\";\n", "t.epd").unwrap()[0]
            .game("t.epd")
            .unwrap_err();
        assert!(e.to_string().contains("a1a3"), "{e}");
    }
}
