//! The historical programs' speed, measured inside Kempelen: what `kempelen bench --program
//! FILE.toml` reports (the program searches the bench positions on its machine, and its nodes
//! are the entries to the routine(s) its adaptor file names), and the data file
//! `docs/history/program-speed.json` that holds those figures for the bench chart.
//!
//! The programs are not part of Kempelen, so the chart cannot measure them where they are
//! missing (in CI, on a fresh clone): the data file is the output of the command in its
//! `command` field, run on the local copies, committed and compiled in. [`check`] recomputes
//! every derived figure (seconds from cycles and clock, totals from the positions, positions
//! per second from nodes and seconds), so the file holds nothing but counts and what follows
//! from them; the test that reruns the command on the local copies compares its counts with
//! the file's.

use serde::{Deserialize, Serialize};

/// Where the data file lives in the repository.
pub const DATA_PATH: &str = "docs/history/program-speed.json";

/// The data file, as compiled in.
pub fn data() -> &'static str {
    crate::bundled(DATA_PATH)
}

/// The figures of one or more programs (the output of `kempelen bench --program ... --json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramSpeeds {
    /// The command line that measured them.
    pub command: String,
    /// The positions searched (a file of the repository).
    pub positions_file: String,
    /// One entry a program.
    pub programs: Vec<ProgramSpeed>,
}

/// One program's figures, level by level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramSpeed {
    /// The program (the adaptor file's `name`).
    pub program: String,
    /// The adaptor file as given on the command line.
    pub adaptor: String,
    /// The machine it ran on (a personality's id).
    pub machine: String,
    /// The clock profile its time is counted at.
    pub clock: String,
    /// That clock in MHz.
    pub mhz: f64,
    /// What a node is (the adaptor file's `[nodes] what`).
    pub node: String,
    /// The routines whose entries are counted.
    pub node_routines: Vec<String>,
    /// How the program's levels were chosen, or that it has none and what it searches then.
    pub levels_note: String,
    /// One entry a level searched (one entry with `level: null` for a program without levels).
    pub levels: Vec<LevelSpeed>,
}

/// The positions searched at one level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelSpeed {
    /// The level (look-ahead) typed to the program; `None`: it has no levels.
    pub level: Option<u32>,
    /// The positions given to it.
    pub positions: usize,
    /// The positions it searched (took, and answered with at least one node counted): the
    /// totals below are theirs.
    pub positions_searched: usize,
    /// Nodes of the searched positions.
    pub nodes: u64,
    /// Cycles of their search turns.
    pub cycles: u64,
    /// Those cycles at the clock.
    pub emulated_seconds: f64,
    /// Nodes per emulated second: the speed at the machine's clock.
    pub positions_per_second: f64,
    /// Every position, searched or not.
    pub rows: Vec<PositionSpeed>,
}

/// One position of a level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionSpeed {
    /// The position's name in the positions file.
    pub name: String,
    /// Its FEN.
    pub fen: String,
    /// The program's move (UCI), when it answered.
    pub best: Option<String>,
    /// Nodes counted in its search turn.
    pub nodes: Option<u64>,
    /// Cycles of its search turn.
    pub cycles: Option<u64>,
    /// Why it is not counted (refused, a book move, a fault), if it is not.
    pub note: Option<String>,
}

impl PositionSpeed {
    /// Whether the position counts in the level's totals: answered, with nodes counted.
    pub fn searched(&self) -> bool {
        self.note.is_none() && self.best.is_some() && self.nodes.is_some_and(|n| n > 0)
    }

    /// Why the position does not count, if it does not: its note, or what is missing.
    pub fn not_counted(&self) -> Option<String> {
        if self.searched() {
            return None;
        }
        Some(match (&self.note, &self.best, self.nodes) {
            (Some(note), ..) => note.clone(),
            (None, None, _) => "no move".into(),
            (None, Some(_), None) => "no node count".into(),
            (None, Some(_), Some(_)) => "answered without a node counted".into(),
        })
    }
}

impl LevelSpeed {
    /// A level's figures from its rows, at `mhz`.
    pub fn from_rows(level: Option<u32>, rows: Vec<PositionSpeed>, mhz: f64) -> LevelSpeed {
        let searched: Vec<&PositionSpeed> = rows.iter().filter(|r| r.searched()).collect();
        let nodes: u64 = searched.iter().filter_map(|r| r.nodes).sum();
        let cycles: u64 = searched.iter().filter_map(|r| r.cycles).sum();
        let emulated_seconds = cycles as f64 / (mhz * 1e6);
        LevelSpeed {
            level,
            positions: rows.len(),
            positions_searched: searched.len(),
            nodes,
            cycles,
            emulated_seconds,
            positions_per_second: if cycles == 0 {
                0.0
            } else {
                nodes as f64 / emulated_seconds
            },
            rows,
        }
    }
}

impl ProgramSpeed {
    /// "level 2", or "one fixed search (no levels)" for a program without levels.
    pub fn level_label(level: Option<u32>) -> String {
        match level {
            Some(l) => format!("level {l}"),
            None => "one fixed search (no levels)".into(),
        }
    }
}

/// A data file that does not parse or whose figures do not follow from its counts.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {reason}")]
pub struct ProgramSpeedError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub reason: String,
}

/// Parses a data file's text (`file` names it in errors) and checks it ([`check`]).
pub fn parse(file: &str, text: &str) -> Result<ProgramSpeeds, ProgramSpeedError> {
    let speeds: ProgramSpeeds = serde_json::from_str(text).map_err(|e| ProgramSpeedError {
        file: file.to_string(),
        reason: format!("{}:{}: {e}", e.line(), e.column()),
    })?;
    check(&speeds).map_err(|reason| ProgramSpeedError {
        file: file.to_string(),
        reason,
    })?;
    Ok(speeds)
}

/// The compiled-in data file.
pub fn measured() -> Result<ProgramSpeeds, ProgramSpeedError> {
    parse(DATA_PATH, data())
}

/// Checks that every derived figure follows from the counts: each level's totals are its
/// searched positions' sums, its seconds the cycles at the clock, its positions per second
/// the nodes over the seconds (to a relative 1e-9).
pub fn check(speeds: &ProgramSpeeds) -> Result<(), String> {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    for p in &speeds.programs {
        if p.levels.is_empty() {
            return Err(format!("{}: no level measured", p.program));
        }
        if !p.mhz.is_finite() || p.mhz <= 0.0 {
            return Err(format!("{}: mhz {}", p.program, p.mhz));
        }
        for l in &p.levels {
            let what = format!("{}, {}", p.program, ProgramSpeed::level_label(l.level));
            let again = LevelSpeed::from_rows(l.level, l.rows.clone(), p.mhz);
            if again.positions != l.positions
                || again.positions_searched != l.positions_searched
                || again.nodes != l.nodes
                || again.cycles != l.cycles
            {
                return Err(format!(
                    "{what}: the totals ({} positions, {} searched, {} nodes, {} cycles) are not the rows' ({}, {}, {}, {})",
                    l.positions,
                    l.positions_searched,
                    l.nodes,
                    l.cycles,
                    again.positions,
                    again.positions_searched,
                    again.nodes,
                    again.cycles
                ));
            }
            if l.positions_searched == 0 {
                let why: Vec<String> = l
                    .rows
                    .iter()
                    .filter_map(|r| Some(format!("{}: {}", r.name, r.not_counted()?)))
                    .collect();
                return Err(format!(
                    "{what}: no position searched ({})",
                    if why.is_empty() {
                        "no position given".to_string()
                    } else {
                        why.join("; ")
                    }
                ));
            }
            if !close(again.emulated_seconds, l.emulated_seconds)
                || !close(again.positions_per_second, l.positions_per_second)
            {
                return Err(format!(
                    "{what}: {} s and {} positions/s do not follow from {} cycles at {} MHz and {} nodes",
                    l.emulated_seconds, l.positions_per_second, l.cycles, p.mhz, l.nodes
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_parses_and_its_figures_follow_from_its_counts() {
        let s = measured().unwrap();
        assert!(s.command.starts_with("kempelen bench --program "));
        for name in ["Sargon", "Microchess 1976", "Rictor"] {
            assert!(
                s.programs.iter().any(|p| p.program.contains(name)),
                "{DATA_PATH} has no measurement of {name}"
            );
        }
        for p in &s.programs {
            for l in &p.levels {
                assert!(l.positions_per_second > 0.0 && l.nodes > 0 && l.cycles > 0);
            }
        }
    }

    #[test]
    fn a_figure_that_does_not_follow_from_the_counts_is_refused() {
        let mut s = measured().unwrap();
        s.programs[0].levels[0].positions_per_second *= 1.5;
        let e = check(&s).unwrap_err();
        assert!(e.contains("do not follow"), "{e}");
        let mut s = measured().unwrap();
        s.programs[0].levels[0].nodes += 1;
        let e = check(&s).unwrap_err();
        assert!(e.contains("are not the rows'"), "{e}");
        let mut s = measured().unwrap();
        let mhz = s.programs[0].mhz;
        let level = &mut s.programs[0].levels[0];
        for (i, row) in level.rows.iter_mut().enumerate() {
            row.note = Some(format!("reason {i}"));
        }
        *level = LevelSpeed::from_rows(level.level, level.rows.clone(), mhz);
        let e = check(&s).unwrap_err();
        assert!(
            e.contains("no position searched (")
                && e.contains(": reason 0; ")
                && e.contains(": reason 1"),
            "{e}"
        );
        let e = parse("x.json", "{\"command\": 1}").unwrap_err();
        assert!(e.to_string().starts_with("x.json: 1:"), "{e}");
    }
}
