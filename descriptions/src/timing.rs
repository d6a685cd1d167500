//! A timing file (`emulator/timing/*.toml`): what the record says about a machine's timing,
//! and the models Kempelen chose. `docs/TIMING.md` explains the format; the emulator checks a
//! file's figures (`kempelen_emulator::timing::parse`) and runs the models.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::time::Duration;

/// The bundled timing files (`emulator/timing/<id>.toml`), by machine id, in the order
/// reports list them.
pub const BUILT_IN: &[&str] = &[
    "zx-spectrum",
    "zx-spectrum-16k",
    "zx81",
    "cpc464",
    "msx",
    "trs-80",
    "jupiter-3",
    "nascom-1",
    "c64",
    "apple-2",
    "atari-800",
    "vcs-2600",
    "kim-1",
    "turbostar",
    "milano",
    "rebel5",
];

/// The text of the bundled timing file of machine `id` ([`BUILT_IN`]).
pub fn built_in(id: &str) -> Option<&'static str> {
    crate::bundled(false, id)
}

/// Reads a timing file's TOML into its types; the checks of what it says are the emulator's.
pub fn read(text: &str) -> Result<MachineTiming, toml::de::Error> {
    toml::from_str(text)
}

/// A source a timing file cites, by publication.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Author, title, publisher or place, year.
    pub cite: String,
}

/// One machine's timing file: what the record says, and the models Kempelen chose.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct MachineTiming {
    /// The clock profile's id (`zx-spectrum`).
    pub machine: String,
    /// What the sources say about the machine's timing, where they are silent, and what
    /// Kempelen chose.
    pub record: String,
    /// The model `--timing machine` uses; none: the CPU clock.
    pub default: Option<String>,
    /// The sources, by key.
    #[serde(default)]
    pub sources: BTreeMap<String, Source>,
    /// The models.
    #[serde(default, rename = "model")]
    pub models: Vec<TimingModel>,
}

impl MachineTiming {
    /// The model with this id.
    pub fn model(&self, id: &str) -> Option<&TimingModel> {
        self.models.iter().find(|m| m.id == id)
    }

    /// The default model, if the machine has one.
    pub fn default_model(&self) -> Option<&TimingModel> {
        self.default.as_deref().and_then(|d| self.model(d))
    }

    /// The citations of `keys`, joined.
    pub fn cite(&self, keys: &[String]) -> String {
        keys.iter()
            .filter_map(|k| self.sources.get(k).map(|s| s.cite.as_str()))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A machine's timing as data: the frame, what takes the CPU's time in it, and the
/// interrupt. Times are in ticks of [`TimingModel::hz`]; a CPU cycle is
/// [`TimingModel::cycle_ticks`] ticks (1 but on the Apple II, whose ticks are the 14.318 MHz
/// master clock's).
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct TimingModel {
    /// Short id, unique within the machine (`48k`, `slow`, `text`).
    pub id: String,
    /// The machine id it belongs to (filled in when the file is read).
    #[serde(default)]
    pub machine: String,
    /// What it models, in a line.
    pub name: String,
    /// The program's choice this model stands for, where a program could choose (screen
    /// off, FAST mode, code in uncontended RAM).
    pub choice: Option<String>,
    /// Ticks per second.
    pub hz: f64,
    /// Ticks per CPU cycle.
    #[serde(default = "one")]
    pub cycle_ticks: u32,
    /// Ticks per display line.
    pub line: u32,
    /// Lines per frame.
    pub lines: u32,
    /// Sources of the frame figures.
    #[serde(default)]
    pub sources: Vec<String>,
    /// Every `every`th CPU cycle lasts `extra` ticks longer (the Apple II's long cycle).
    pub stretch: Option<Stretch>,
    /// Ticks the display takes from the CPU.
    #[serde(default)]
    pub dma: Vec<Dma>,
    /// Memory and I/O contention (the ZX Spectrum's ULA).
    pub contention: Option<Contention>,
    /// Every memory and I/O cycle waits for a slot (the Amstrad CPC's gate array).
    pub align: Option<Align>,
    /// Wait states added to every M1 (opcode fetch) cycle (the MSX).
    pub m1_wait: Option<u32>,
    /// The interrupt the ROM serves.
    pub interrupt: Option<Interrupt>,
    /// The CPU state the machine's ROM leaves a program in.
    pub start: Option<Start>,
}

fn one() -> u32 {
    1
}

/// The Apple II's long cycle: every `every`th cycle lasts `extra` ticks more.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Stretch {
    /// A stretched cycle every this many.
    pub every: u32,
    /// Extra ticks of a stretched cycle.
    pub extra: u32,
    /// What the source says.
    pub what: String,
    /// Sources.
    #[serde(default)]
    pub sources: Vec<String>,
}

/// Ticks of some lines that the display takes from the CPU.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Dma {
    /// What takes them.
    pub what: String,
    /// First and last line (from 0; inclusive).
    pub lines: [u32; 2],
    /// Only every `every`th line from the first.
    #[serde(default = "one")]
    pub every: u32,
    /// First tick taken, within the line.
    pub at: u32,
    /// Ticks taken.
    pub ticks: u32,
    /// Ticks before `at` in which the CPU may still write but stops at its first read (the
    /// 6502's RDY line: the C64's BA goes low 3 cycles before the VIC-II takes the bus).
    #[serde(default)]
    pub lead: u32,
    /// Sources.
    #[serde(default)]
    pub sources: Vec<String>,
}

/// ULA-style contention: an access to contended memory (or a contended I/O port) during the
/// display waits as many ticks as `pattern` gives for its moment in the line.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Contention {
    /// The frame tick of the first contended moment.
    pub first: u32,
    /// Contended lines from there.
    pub lines: u32,
    /// Contended ticks at the start of each of those lines.
    pub width: u32,
    /// Delay at each tick of a repeating group (`6,5,4,3,2,1,0,0`).
    pub pattern: Vec<u32>,
    /// Contended address ranges (inclusive).
    pub memory: Vec<[u16; 2]>,
    /// I/O contention too (the Spectrum's rules: ports with A0 low go to the ULA, ports
    /// whose high byte lies in contended memory are contended on the address lines).
    #[serde(default)]
    pub io: bool,
    /// Sources.
    #[serde(default)]
    pub sources: Vec<String>,
}

/// Bus cycles wait until the moment the CPU samples its WAIT line falls on a slot that
/// comes every `every` ticks (the Amstrad CPC: every memory and I/O access is in step with
/// the video's 1 MHz, so instructions take whole microseconds).
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Align {
    /// The slot period in ticks.
    pub every: u32,
    /// Sources.
    #[serde(default)]
    pub sources: Vec<String>,
}

/// The machine's regular interrupt and the ROM routine that serves it.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Interrupt {
    /// What raises it and what the routine does.
    pub what: String,
    /// Tick (from the start of the frame) of the first interrupt.
    #[serde(default)]
    pub at: u32,
    /// Ticks between interrupts; none: one per frame.
    pub period: Option<u32>,
    /// How long the line stays active: an interrupt the CPU does not take within this many
    /// ticks is lost (the Spectrum's 32 T-states); none: until taken.
    pub length: Option<u32>,
    /// CPU cycles of taking it (the Z80's IM 1 acknowledge, 13; the 6502's, 7).
    pub ack: u32,
    /// CPU cycles of the ROM's routine, to its return.
    pub routine: u32,
    /// How `routine` was found.
    pub routine_source: String,
    /// Sources.
    #[serde(default)]
    pub sources: Vec<String>,
}

/// The CPU state the machine's ROM leaves a program in.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// Interrupts enabled (Z80: IFF1 and IFF2 set; 6502: I flag clear).
    #[serde(default)]
    pub interrupts: bool,
    /// Z80 interrupt mode.
    pub im: Option<u8>,
    /// Z80 I register.
    pub i: Option<u8>,
}

impl TimingModel {
    /// `machine/id`, as reports name the model.
    pub fn full_id(&self) -> String {
        format!("{}/{}", self.machine, self.id)
    }

    /// Ticks per frame.
    pub fn frame(&self) -> u64 {
        u64::from(self.line) * u64::from(self.lines)
    }

    /// Whether the model needs each memory access and its moment (contention, alignment,
    /// wait states), which only the `rustzx-z80` core reports.
    pub fn per_access(&self) -> bool {
        self.contention.is_some() || self.align.is_some() || self.m1_wait.is_some()
    }

    /// How long `ticks` last.
    pub fn duration(&self, ticks: u64) -> Duration {
        Duration::from_secs_f64(ticks as f64 / self.hz)
    }
}
