//! The guided examples of the assembler to try: short programs, each runnable on its own in
//! Kempelen's machine, with what to watch told in their first comment lines (as Easy6502's
//! snippets beside the text). They are plain files in `roms-src/snippets/`. An example may take
//! lines of the engine's own sources: a line `;; take FOLDER/FILE LABEL` is replaced, when the
//! example is built, by the routine at `LABEL` in that bundled port file (from its label to the
//! next routine), so the engine's code is shown and run as it is, never copied.
//!
//! ```
//! use kempelen_roms::snippets::{SNIPPETS, snippet};
//!
//! let slide = snippet("engine-slide-6502").unwrap();
//! let source = slide.source().unwrap();
//! assert!(source.contains("gq_slide:") && !source.contains(";; take"));
//! assert!(SNIPPETS.iter().any(|s| s.cpu == kempelen_emulator::Cpu::Z80));
//! ```

use kempelen_emulator::Cpu;

use crate::port::Port;

/// One example.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snippet {
    /// Its id in links (`timed-loop-z80`).
    pub id: &'static str,
    /// The CPU it is written for.
    pub cpu: Cpu,
    /// Its text as the file holds it.
    pub text: &'static str,
}

macro_rules! snippet {
    ($id:literal, $cpu:expr) => {
        Snippet {
            id: $id,
            cpu: $cpu,
            text: include_str!(concat!("../snippets/", $id, ".asm")),
        }
    };
}

/// The examples, in the order the page lists them.
pub const SNIPPETS: [Snippet; 5] = [
    snippet!("timed-loop-z80", Cpu::Z80),
    snippet!("timed-loop-6502", Cpu::Mos6502),
    snippet!("offboard-0x88-z80", Cpu::Z80),
    snippet!("offboard-0x88-6502", Cpu::Mos6502),
    snippet!("engine-slide-6502", Cpu::Mos6502),
];

/// The example with this id.
pub fn snippet(id: &str) -> Option<&'static Snippet> {
    SNIPPETS.iter().find(|s| s.id == id)
}

/// A `;; take` line that names no routine of the bundled sources.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}: no routine {label} in roms-src/{file}")]
pub struct TakeError {
    /// The line.
    pub line: String,
    /// The file it names.
    pub file: String,
    /// The label it names.
    pub label: String,
}

impl Snippet {
    /// Its title: the first comment line, up to the colon.
    pub fn title(&self) -> &'static str {
        let first = self.text.lines().next().unwrap_or("");
        let first = first.trim_start_matches(';').trim();
        first.split(':').next().unwrap_or(first)
    }

    /// What to watch: the comment lines before the code, without their `;`.
    pub fn narration(&self) -> String {
        self.text
            .lines()
            .take_while(|l| l.starts_with(';'))
            .map(|l| l.trim_start_matches(';').trim())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The source to assemble: the text with each `;; take` line replaced by the routine it
    /// names, between comments that say where it comes from.
    pub fn source(&self) -> Result<String, TakeError> {
        let mut out = String::new();
        for line in self.text.lines() {
            match line.strip_prefix(";; take ") {
                Some(what) => out.push_str(&take(line, what)?),
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        Ok(out)
    }
}

/// The routine `what` (`FOLDER/FILE LABEL`) names, with comments around it.
fn take(line: &str, what: &str) -> Result<String, TakeError> {
    let err = |file: &str, label: &str| TakeError {
        line: line.to_string(),
        file: file.to_string(),
        label: label.to_string(),
    };
    let (path, label) = what.trim().split_once(' ').ok_or_else(|| err(what, ""))?;
    let (folder, file) = path.split_once('/').ok_or_else(|| err(path, label))?;
    let text = Port::by_id(folder)
        .and_then(|p| p.engine_sources().iter().find(|(n, _)| *n == file))
        .map(|(_, t)| *t)
        .ok_or_else(|| err(path, label))?;
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.split(':').next() == Some(label) && l.contains(':'))
        .ok_or_else(|| err(path, label))?;
    // To the next routine's label (a global label at the start of a line).
    let is_routine =
        |l: &&str| l.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && l.contains(':');
    let mut end = lines[start + 1..]
        .iter()
        .position(is_routine)
        .map_or(lines.len(), |k| start + 1 + k);
    // Without the comments and blank lines that introduce the next routine.
    while end > start + 1 && (lines[end - 1].trim().is_empty() || lines[end - 1].starts_with(';')) {
        end -= 1;
    }
    let mut out = format!(
        "; ---- taken from roms-src/{path}, lines {}-{} ----\n",
        start + 1,
        end
    );
    for l in &lines[start..end] {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(&format!("; ---- end of roms-src/{path} ----\n"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_assembles_and_runs_to_its_end() {
        for s in &SNIPPETS {
            let source = s.source().unwrap();
            let out = kempelen_asm::assemble_source(s.cpu, &format!("{}.asm", s.id), &source);
            assert!(out.is_ok(), "{}: {}", s.id, out.report());
            let mut m = kempelen_emulator::MachineBuilder::new(s.cpu)
                .load(out.image.origin, &out.image.bytes)
                .entry(out.image.origin)
                .build()
                .unwrap();
            let stats = m.run(1_000_000).unwrap();
            assert!(stats.is_done(), "{}: {:?}", s.id, stats.stop);
            assert!(
                !s.title().is_empty() && s.narration().len() > 100,
                "{}",
                s.id
            );
        }
    }

    #[test]
    fn a_take_line_names_a_routine_of_the_bundled_sources() {
        let bad = Snippet {
            id: "x",
            cpu: Cpu::Mos6502,
            text: ";; take 6502/movegen.inc no_such_routine\n",
        };
        assert_eq!(bad.source().unwrap_err().label, "no_such_routine");
        let s = snippet("engine-slide-6502").unwrap().source().unwrap();
        assert!(s.contains("taken from roms-src/6502/movegen.inc"));
        assert!(s.contains("emit2:") && s.trim_end().ends_with("----"));
    }
}
