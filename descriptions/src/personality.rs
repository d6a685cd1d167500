//! A personality file (`emulator/machines/*.toml`, or a user's `--machine FILE.toml`) as
//! written: every field as text or number, with its place in the file (`Spanned`) where the
//! emulator's checks point at it. `kempelen_emulator::personality` reads what the fields mean
//! (addresses, ranges, registers, traps) and reports errors at `file:line:col`;
//! `docs/MACHINE.md` describes the format.

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The built-in personalities (`emulator/machines/<id>.toml`), by id, in the order lists give
/// them.
pub const BUILT_IN: &[&str] = &[
    "kim-1",
    "cpm",
    "jupiter-3",
    "zx-spectrum",
    "msx",
    "trs-80",
    "c64",
    "apple-2",
    "atari-800",
    "py65",
];

/// The text of the built-in personality `id` ([`BUILT_IN`]).
pub fn built_in(id: &str) -> Option<&'static str> {
    crate::bundled(true, id)
}

/// Reads a personality file's TOML into its fields; what they mean is checked by the emulator.
pub fn read(text: &str) -> Result<File, toml::de::Error> {
    toml::from_str(text)
}

/// A text field the file may leave out, with its place in the file.
pub type OptText = Option<Spanned<String>>;

/// The whole file (`docs/MACHINE.md`, "Personalities").
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// Short id (`kim-1`).
    pub id: String,
    /// What machine it is.
    pub name: String,
    /// The CPU (`z80`, `6502`).
    pub cpu: Spanned<String>,
    /// The clock profile's id, where it is one of the bench machines.
    pub clock: OptText,
    /// Or its clock in MHz.
    pub mhz: Option<Spanned<f64>>,
    /// Where a program without an address is loaded.
    pub load: OptText,
    /// The initial stack pointer.
    pub sp: OptText,
    /// The stack's region.
    pub stack: OptText,
    /// The page of Kempelen's I/O devices (6502).
    pub io_page: OptText,
    /// The memory map's regions (`[[memory]]`).
    #[serde(default)]
    pub memory: Vec<MemorySpec>,
    /// Bytes the machine holds at start (`[[fill]]`).
    #[serde(default)]
    pub fill: Vec<FillSpec>,
    /// Mirrored ranges (`[[mirror]]`).
    #[serde(default)]
    pub mirror: Vec<MirrorSpec>,
    /// The host traps (`[[trap]]`).
    #[serde(default)]
    pub trap: Vec<Entry>,
}

/// A region of the memory map (`[[memory]]`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemorySpec {
    /// What it is.
    pub name: String,
    /// `rom`, `ram` or `io`.
    pub kind: Spanned<String>,
    /// Its addresses (`$0000-$3FFF`).
    pub range: Spanned<String>,
}

/// Bytes the machine holds at start (`[[fill]]`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FillSpec {
    /// Where they start.
    pub at: Spanned<String>,
    /// The bytes, in hex.
    pub bytes: Spanned<String>,
}

/// A range that shows another (`[[mirror]]`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MirrorSpec {
    /// The mirrored addresses.
    pub range: Spanned<String>,
    /// The address they copy from.
    pub of: Spanned<String>,
}

/// A trap, or one function of a trap (`[[trap.function]]`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Its name in reports.
    pub name: String,
    /// The address it serves.
    pub at: OptText,
    /// Its function code (a function of a trap).
    pub code: OptText,
    /// How the function is selected (a register, an inline byte, an address).
    pub select: OptText,
    /// The cycles it takes.
    pub cycles: Option<Spanned<u64>>,
    /// Its functions (`[[trap.function]]`).
    #[serde(default)]
    pub function: Vec<Entry>,
    /// What it does.
    pub service: OptText,
    /// The register it reads or writes.
    pub register: OptText,
    /// Whether a read key is echoed.
    pub echo: Option<bool>,
    /// The line's end byte.
    pub terminator: Option<String>,
    /// Whether it prints a new line.
    pub newline: Option<bool>,
    /// Inline argument bytes that follow the call.
    pub args: Option<u8>,
    /// The digits' segment codes (a display).
    pub digits: Option<Vec<Spanned<String>>>,
    /// The value for no key.
    pub none: Option<u8>,
    /// The value for a key ready.
    pub ready: Option<u8>,
    /// Key codes by name.
    pub keys: Option<BTreeMap<String, u8>>,
    /// The vector it takes the run through.
    pub vector: OptText,
    /// The machine's character set.
    pub charset: OptText,
    /// Where a key is stored.
    pub store: OptText,
    /// The flag byte that says a key is there.
    pub flag: OptText,
    /// The bit of that flag.
    pub bit: Option<u8>,
}
