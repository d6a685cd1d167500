//! Diagnostics: every problem found in a run, with the place, the line and a caret.
//!
//! Rendered like a compiler's messages:
//!
//! ```text
//! game.asm:12:9: error: unknown mnemonic 'LDAA'
//!    12 |         ldaa #1
//!       |         ^^^^
//!       = note: did you mean 'LDA'?
//! ```

use std::fmt;

/// The most characters of a source line a diagnostic shows.
const MAX_SHOWN: usize = 160;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The output is not usable.
    Error,
    /// Worth a look; the output is still what the source says.
    Warning,
}

/// One problem in a source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, and what was expected.
    pub message: String,
    /// The file as given or resolved; empty if the problem has no place (e.g. the passes cap).
    pub file: String,
    /// 1-based line, 0 if none.
    pub line: u32,
    /// 1-based column in characters, 0 if none.
    pub col: u32,
    /// Characters the caret covers (at least 1 when there is a place).
    pub width: u32,
    /// The text of the line (for lines from a macro, the line after argument substitution).
    pub source_line: String,
    /// Further help: accepted forms, the closest mnemonic, where a macro was called.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic without a place.
    pub fn global(severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            message: message.into(),
            file: String::new(),
            line: 0,
            col: 0,
            width: 0,
            source_line: String::new(),
            notes: Vec::new(),
        }
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if self.line == 0 {
            if self.file.is_empty() {
                writeln!(f, "{kind}: {}", self.message)?;
            } else {
                writeln!(f, "{}: {kind}: {}", self.file, self.message)?;
            }
        } else {
            writeln!(
                f,
                "{}:{}:{}: {kind}: {}",
                self.file, self.line, self.col, self.message
            )?;
            let gutter = self.line.to_string().len().max(4);
            // A very long line (a runaway macro expansion) is shown as a window around the
            // caret.
            let chars: Vec<char> = self.source_line.chars().collect();
            let col = self.col.saturating_sub(1) as usize;
            let (first, last) = if chars.len() > MAX_SHOWN {
                let first = col
                    .saturating_sub(MAX_SHOWN / 2)
                    .min(chars.len() - MAX_SHOWN);
                (first, first + MAX_SHOWN)
            } else {
                (0, chars.len())
            };
            let before = if first > 0 { "..." } else { "" };
            let after = if last < chars.len() { "..." } else { "" };
            let shown: String = chars[first..last].iter().collect();
            writeln!(f, "{:>gutter$} | {before}{shown}{after}", self.line)?;
            // Keep tabs so the caret lines up in a terminal.
            let pad: String = before
                .chars()
                .chain(chars[first..col.clamp(first, last)].iter().copied())
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let width = (self.width.max(1) as usize).min(MAX_SHOWN);
            writeln!(f, "{:>gutter$} | {pad}{}", "", "^".repeat(width))?;
        }
        for note in &self.notes {
            writeln!(f, "{:>4}  = note: {note}", "")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_place_line_caret_and_notes() {
        let d = Diagnostic {
            severity: Severity::Error,
            message: "unknown mnemonic 'LDAA'".into(),
            file: "game.asm".into(),
            line: 12,
            col: 3,
            width: 4,
            source_line: "\t ldaa #1".into(),
            notes: vec!["did you mean 'LDA'?".into()],
        };
        assert_eq!(
            d.to_string(),
            "game.asm:12:3: error: unknown mnemonic 'LDAA'\n  12 | \t ldaa #1\n     | \t ^^^^\n      = note: did you mean 'LDA'?\n"
        );
        assert_eq!(
            Diagnostic::global(Severity::Error, "x").to_string(),
            "error: x\n"
        );
    }
}
