//! Timing models: each historical machine's time as its owners saw it, not only its CPU clock.
//!
//! A [`ClockProfile`](crate::ClockProfile) turns cycles into time at the CPU's clock. The
//! real machines were slower: a video chip that stops the CPU for its display (the C64's bad
//! lines, the Atari's ANTIC, the ZX81's SLOW mode), a bus that stretches or delays the CPU's
//! accesses (the Spectrum's ULA contention, the Amstrad CPC's 4 T-state slots, the MSX's M1
//! wait state, the Apple II's long cycle), and the ROM's interrupt routine that runs 50 or 60
//! times a second. A [`TimingModel`] describes these as data, one TOML file per machine in
//! `emulator/timing/` ([`BUILT_IN`]), each figure with its source; `docs/TIMING.md` explains
//! the format and every machine's model.
//!
//! A machine built with a model ([`MachineBuilder::timing`](crate::MachineBuilder::timing))
//! reports the time of each run under it ([`RunStats::machine_time`](crate::RunStats)) and
//! paces `--realtime` runs to it. The CPU core is unchanged: the model is one layer in the
//! machine. What depends only on the CPU's cycles (display DMA, stretched cycles, the
//! interrupt) is applied at events that the step loop's one compare already covers, so it
//! costs the hot path nothing; what depends on each memory access and its moment (contention,
//! alignment, wait states) is applied in the bus, through the per-access callbacks of the
//! `rustzx-z80` core, which a machine with such a model runs on (the `z80` crate reports only
//! each instruction's total). Machines without a model run exactly as before.

pub(crate) mod timer;

// The files' types are read by `kempelen-descriptions` (a crate apart, so that a build can
// compile serde's reading for size and the step loop for speed); they are this module's.
pub use kempelen_descriptions::timing::{
    Align, Contention, Dma, Interrupt, MachineTiming, Source, Start, Stretch, TimingModel,
};

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

/// The bundled timing files, by machine id (their texts: `kempelen_descriptions::timing::built_in`).
pub use kempelen_descriptions::timing::BUILT_IN;

/// Which time a run reports (`--timing`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Timing {
    /// The machine as it ran: its default timing model (the CPU clock where it has none).
    #[default]
    Machine,
    /// The CPU clock only: `cycles / clock`.
    Cpu,
    /// One of the machine's named models (`zx81` `fast`, `atari-800` `dma-off`).
    Named(String),
}

impl Timing {
    /// Reads `machine`, `cpu` or a model's id.
    pub fn parse(s: &str) -> Timing {
        match s {
            "machine" => Timing::Machine,
            "cpu" => Timing::Cpu,
            other => Timing::Named(other.to_string()),
        }
    }

    /// The model this choice gives on `machine` (`None`: the CPU clock). A named model the
    /// machine does not have is an error that lists the ones it has.
    pub fn model_for(&self, machine: &str) -> Result<Option<&'static TimingModel>, TimingError> {
        match self {
            Timing::Cpu => Ok(None),
            Timing::Machine => Ok(machine_timing(machine).and_then(MachineTiming::default_model)),
            Timing::Named(id) => {
                let t = machine_timing(machine)
                    .filter(|t| !t.models.is_empty())
                    .ok_or_else(|| TimingError::NoModels(machine.to_string()))?;
                t.model(id)
                    .map(Some)
                    .ok_or_else(|| TimingError::UnknownModel {
                        machine: machine.to_string(),
                        model: id.clone(),
                        known: t.models.iter().map(|m| m.id.clone()).collect(),
                    })
            }
        }
    }
}

impl Timing {
    /// Refuses a named model that none of `machines` has (where each machine takes a model
    /// it has and its own otherwise, a name no machine knows is a typing error).
    pub fn check_known(&self, machines: &[&str]) -> Result<(), TimingError> {
        let Timing::Named(id) = self else {
            return Ok(());
        };
        let mut known: Vec<String> = Vec::new();
        for m in machines.iter().filter_map(|m| machine_timing(m)) {
            if m.model(id).is_some() {
                return Ok(());
            }
            for model in &m.models {
                if !known.contains(&model.id) {
                    known.push(model.id.clone());
                }
            }
        }
        Err(TimingError::UnknownAnywhere {
            model: id.clone(),
            known,
        })
    }
}

impl fmt::Display for Timing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Timing::Machine => f.write_str("machine"),
            Timing::Cpu => f.write_str("cpu"),
            Timing::Named(id) => f.write_str(id),
        }
    }
}

/// A timing choice that does not fit the machine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimingError {
    /// A named model on a machine that has none.
    #[error("machine `{0}` has no timing models (use --timing machine or cpu)")]
    NoModels(String),
    /// A named model no machine of a run has.
    #[error(
        "no machine has a timing model `{model}` (models: {}; or machine, cpu)",
        known.join(", ")
    )]
    UnknownAnywhere {
        /// The name asked for.
        model: String,
        /// The models the machines have.
        known: Vec<String>,
    },
    /// A named model the machine does not have.
    #[error(
        "machine `{machine}` has no timing model `{model}` (it has: {}; or machine, cpu)",
        known.join(", ")
    )]
    UnknownModel {
        /// The machine.
        machine: String,
        /// The name asked for.
        model: String,
        /// The models it has.
        known: Vec<String>,
    },
}

/// Where a model's time went, for reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct TimerStats {
    /// Interrupts taken.
    pub interrupts: u64,
    /// Ticks spent taking them and in the ROM's routine.
    pub interrupt_ticks: u64,
    /// Ticks the display took from the CPU (DMA, and a 6502's stops on RDY).
    pub dma_ticks: u64,
    /// Ticks of wait states, contention and alignment.
    pub wait_ticks: u64,
    /// Ticks of stretched cycles.
    pub stretch_ticks: u64,
}

impl TimerStats {
    /// The figures gathered since `earlier`.
    pub fn since(&self, earlier: &TimerStats) -> TimerStats {
        TimerStats {
            interrupts: self.interrupts - earlier.interrupts,
            interrupt_ticks: self.interrupt_ticks - earlier.interrupt_ticks,
            dma_ticks: self.dma_ticks - earlier.dma_ticks,
            wait_ticks: self.wait_ticks - earlier.wait_ticks,
            stretch_ticks: self.stretch_ticks - earlier.stretch_ticks,
        }
    }
}

/// The run's time on the machine under its timing model.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MachineTime {
    /// The model (`machine/id`).
    #[serde(serialize_with = "serialize_model")]
    pub model: &'static TimingModel,
    /// Ticks of [`TimingModel::hz`].
    pub ticks: u64,
    /// Where they went.
    pub stats: TimerStats,
}

fn serialize_model<S: serde::Serializer>(m: &&TimingModel, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&m.full_id())
}

impl MachineTime {
    /// The time.
    pub fn duration(&self) -> Duration {
        self.model.duration(self.ticks)
    }

    /// The time in seconds.
    pub fn seconds(&self) -> f64 {
        self.ticks as f64 / self.model.hz
    }
}

/// A timing file that does not read or does not fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("emulator/timing/{machine}.toml: {message}")]
pub struct TimingFileError {
    /// The machine.
    pub machine: String,
    /// What is wrong.
    pub message: String,
}

/// Reads and checks one timing file.
pub fn parse(machine: &str, text: &str) -> Result<MachineTiming, TimingFileError> {
    let err = |message: String| TimingFileError {
        machine: machine.to_string(),
        message,
    };
    let mut t = kempelen_descriptions::timing::read(text).map_err(|e| err(e.to_string()))?;
    if t.machine != machine {
        return Err(err(format!("names machine `{}`", t.machine)));
    }
    if let Some(d) = &t.default {
        if t.model(d).is_none() {
            return Err(err(format!("default model `{d}` is not in the file")));
        }
    }
    let known = |keys: &[String], what: &str| -> Result<(), TimingFileError> {
        for k in keys {
            if !t.sources.contains_key(k) {
                return Err(err(format!("{what} cites unknown source `{k}`")));
            }
        }
        Ok(())
    };
    for (i, m) in t.models.iter().enumerate() {
        let what = format!("model `{}`", m.id);
        if t.models[..i].iter().any(|n| n.id == m.id) {
            return Err(err(format!("{what} appears twice")));
        }
        if m.id == "machine" || m.id == "cpu" {
            return Err(err(format!("{what}: `machine` and `cpu` name the choices")));
        }
        if m.hz.is_nan() || m.hz <= 0.0 || m.line == 0 || m.lines == 0 || m.cycle_ticks == 0 {
            return Err(err(format!(
                "{what}: hz, line, lines and cycle_ticks must be > 0"
            )));
        }
        known(&m.sources, &what)?;
        for d in &m.dma {
            known(&d.sources, &what)?;
            if d.lines[0] > d.lines[1] || d.lines[1] >= m.lines || d.every == 0 {
                return Err(err(format!(
                    "{what}: dma `{}` lines out of the frame",
                    d.what
                )));
            }
            if d.at < d.lead || d.at + d.ticks > m.line || d.ticks == 0 {
                return Err(err(format!("{what}: dma `{}` outside its line", d.what)));
            }
        }
        if let Some(c) = &m.contention {
            known(&c.sources, &what)?;
            if c.pattern.is_empty() || c.width > m.line || c.memory.iter().any(|r| r[0] > r[1]) {
                return Err(err(format!("{what}: contention pattern, width or memory")));
            }
        }
        if let Some(a) = &m.align {
            known(&a.sources, &what)?;
            if a.every == 0 {
                return Err(err(format!("{what}: align every 0")));
            }
        }
        if let Some(s) = &m.stretch {
            known(&s.sources, &what)?;
            if s.every == 0 {
                return Err(err(format!("{what}: stretch every 0")));
            }
        }
        if let Some(irq) = &m.interrupt {
            known(&irq.sources, &what)?;
            if irq.period == Some(0) || u64::from(irq.at) >= m.frame() {
                return Err(err(format!("{what}: interrupt period or position")));
            }
        }
        if !m.dma.is_empty() && (m.cycle_ticks != 1 || m.stretch.is_some()) {
            return Err(err(format!(
                "{what}: dma goes with one tick a CPU cycle and no stretch"
            )));
        }
        if m.per_access() && (!m.dma.is_empty() || m.stretch.is_some()) {
            return Err(err(format!(
                "{what}: per-access timing (contention, align, m1_wait) goes with no dma or stretch"
            )));
        }
    }
    for m in &mut t.models {
        m.machine = machine.to_string();
    }
    Ok(t)
}

/// Every bundled timing file, read once.
pub fn all() -> &'static [MachineTiming] {
    static ALL: OnceLock<Vec<MachineTiming>> = OnceLock::new();
    ALL.get_or_init(|| {
        BUILT_IN
            .iter()
            .map(|id| {
                let text = kempelen_descriptions::timing::built_in(id)
                    .unwrap_or_else(|| panic!("emulator/timing/{id}.toml is bundled"));
                parse(id, text).unwrap_or_else(|e| panic!("bundled: {e}"))
            })
            .collect()
    })
}

/// The timing file of machine `id`, if it has one.
pub fn machine_timing(id: &str) -> Option<&'static MachineTiming> {
    all().iter().find(|t| t.machine.eq_ignore_ascii_case(id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::MACHINES;

    #[test]
    fn every_bundled_file_reads_and_every_profile_has_one() {
        for t in all() {
            assert!(crate::clock::machine(&t.machine).is_some(), "{}", t.machine);
            assert!(!t.record.trim().is_empty(), "{}", t.machine);
        }
        for m in MACHINES {
            assert!(
                machine_timing(m.id).is_some(),
                "{} has no timing file",
                m.id
            );
        }
    }

    #[test]
    fn choices_resolve_and_unknown_ones_say_what_there_is() {
        assert_eq!(Timing::Cpu.model_for("zx81"), Ok(None));
        let slow = Timing::Machine.model_for("zx81").unwrap().unwrap();
        assert_eq!(slow.full_id(), "zx81/slow");
        let fast = Timing::parse("fast").model_for("zx81").unwrap().unwrap();
        assert_eq!(fast.id, "fast");
        let e = Timing::parse("turbo").model_for("zx81").unwrap_err();
        assert!(e.to_string().contains("has no timing model `turbo`"), "{e}");
        assert!(e.to_string().contains("slow"), "{e}");
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let e = parse(
            "zx81",
            "machine = \"zx81\"\nrecord = \"r\"\ndefault = \"x\"\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("default model `x`"), "{e}");
        let e = parse(
            "zx81",
            "machine = \"zx81\"\nrecord = \"r\"\n[[model]]\nid = \"a\"\nname = \"n\"\nhz = 1.0\nline = 10\nlines = 2\nsources = [\"nobody\"]\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("unknown source `nobody`"), "{e}");
    }
}
