//! Which engine searches and where: an 8-bit build (`z80`, `6502`) on one of its historical
//! machines, or a native profile (`reference`, `full`, the historical ones). The names are
//! the command line's (`--cpu z80`, `--profile sargon`, `--machine kim-1`), and so is every
//! check: a machine is one of the build's (`Port::machine`), a profile one of
//! `Profile::ALL`.

use kempelen_emulator::{ClockProfile, Timing};
use kempelen_engine::Profile;
use kempelen_roms::port::{MachineError, Port};
use serde::Serialize;

use crate::WebError;

/// The deepest search the page asks of a native profile (the 8-bit builds take 1 to 32).
pub const MAX_NATIVE_DEPTH: u32 = 64;

/// An engine the page can run.
#[derive(Debug, Clone, Copy)]
pub enum EngineChoice {
    /// An 8-bit build in the emulator.
    Port(&'static Port),
    /// The native engine with a profile.
    Native(Profile),
}

impl PartialEq for EngineChoice {
    fn eq(&self, other: &EngineChoice) -> bool {
        self.id() == other.id()
    }
}

impl Eq for EngineChoice {}

impl EngineChoice {
    /// `z80`, `6502` or a profile's name (any case).
    pub fn parse(text: &str) -> Result<EngineChoice, WebError> {
        let text = text.trim();
        if let Some(port) = Port::by_id(text) {
            return Ok(EngineChoice::Port(port));
        }
        text.parse::<Profile>()
            .map(EngineChoice::Native)
            .map_err(|_| {
                WebError::Engine(format!(
                    "'{text}' is not an engine: z80, 6502 or a profile ({})",
                    profile_names().join(", ")
                ))
            })
    }

    /// The name as a link and the command line write it.
    pub fn id(self) -> &'static str {
        match self {
            EngineChoice::Port(p) => p.id,
            EngineChoice::Native(p) => p.name(),
        }
    }

    /// The deepest search it takes.
    pub fn max_depth(self) -> u32 {
        match self {
            EngineChoice::Port(_) => 32,
            EngineChoice::Native(_) => MAX_NATIVE_DEPTH,
        }
    }

    /// Checks a depth against [`EngineChoice::max_depth`].
    pub fn check_depth(self, depth: u32) -> Result<u32, WebError> {
        if (1..=self.max_depth()).contains(&depth) {
            Ok(depth)
        } else {
            Err(WebError::Depth(format!(
                "{depth}: the {} engine searches depths 1 to {}",
                self.id(),
                self.max_depth()
            )))
        }
    }

    /// The machine `id` names for this engine (its port's default when `None`); a native
    /// profile runs on no machine.
    pub fn machine(self, id: Option<&str>) -> Result<Option<&'static ClockProfile>, WebError> {
        let EngineChoice::Port(port) = self else {
            return match id {
                None => Ok(None),
                Some(id) => Err(WebError::Machine(format!(
                    "'{id}': only the 8-bit builds (z80, 6502) run on a machine; {} is native",
                    self.id()
                ))),
            };
        };
        let Some(id) = id else {
            return Ok(Some(port.default_machine()));
        };
        port.machine(id.trim()).map(Some).map_err(|e| {
            let known = port.machines.join(", ");
            WebError::Machine(match e {
                MachineError::Unknown => {
                    format!(
                        "'{id}': unknown machine (the {} build's: {known})",
                        port.name
                    )
                }
                MachineError::OtherCpu { other, .. } => format!(
                    "'{id}': {e}: choose the {} build for it (the {} build's: {known})",
                    other.id, port.name
                ),
            })
        })
    }
}

/// Every profile's name.
pub fn profile_names() -> Vec<&'static str> {
    Profile::ALL.iter().map(|(_, n)| *n).collect()
}

/// A machine in the engine list.
#[derive(Debug, Clone, Serialize)]
pub struct MachineEntry {
    /// Id (`kim-1`).
    pub id: &'static str,
    /// The machine as the clock profile names it.
    pub name: &'static str,
    /// The chip.
    pub chip: &'static str,
    /// CPU clock in MHz.
    pub mhz: f64,
    /// The timing model the machine runs under by default (`cpu` when it has none).
    pub timing: String,
}

/// An engine in the engine list.
#[derive(Debug, Clone, Serialize)]
pub struct EngineEntry {
    /// Id (`z80`, `reference`).
    pub id: &'static str,
    /// What it is, for the menu.
    pub label: String,
    /// `port` or `native`.
    pub kind: &'static str,
    /// The machines it runs on (none for a native profile), the default first.
    pub machines: Vec<MachineEntry>,
    /// The deepest search it takes.
    pub max_depth: u32,
}

/// The engines the page offers: the 8-bit builds whose sources are bundled, then every
/// native profile.
pub fn engines() -> Vec<EngineEntry> {
    let mut out: Vec<EngineEntry> = Port::present()
        .into_iter()
        .map(|port| {
            let default = port.default_machine();
            let mut machines: Vec<&'static ClockProfile> = vec![default];
            machines.extend(port.clocks().into_iter().filter(|c| c.id != default.id));
            EngineEntry {
                id: port.id,
                label: format!("{} build (emulated)", port.name),
                kind: "port",
                machines: machines.into_iter().map(machine_entry).collect(),
                max_depth: 32,
            }
        })
        .collect();
    out.extend(Profile::ALL.iter().map(|&(_, name)| EngineEntry {
        id: name,
        label: format!("native {name}"),
        kind: "native",
        machines: Vec::new(),
        max_depth: MAX_NATIVE_DEPTH,
    }));
    out
}

fn machine_entry(c: &'static ClockProfile) -> MachineEntry {
    let timing = match Timing::Machine.model_for(c.id) {
        Ok(Some(m)) => m.full_id(),
        _ => "cpu".to_string(),
    };
    MachineEntry {
        id: c.id,
        name: c.machine,
        chip: c.chip,
        mhz: c.mhz,
        timing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_the_command_line_takes_them() {
        assert_eq!(EngineChoice::parse("Z80").unwrap().id(), "z80");
        assert_eq!(EngineChoice::parse("6502").unwrap().id(), "6502");
        assert_eq!(EngineChoice::parse("sargon").unwrap().id(), "sargon");
        let e = EngineChoice::parse("z81").unwrap_err().to_string();
        assert!(e.contains("z80, 6502") && e.contains("tartan"), "{e}");
    }

    #[test]
    fn machines_belong_to_their_build() {
        let z80 = EngineChoice::parse("z80").unwrap();
        assert_eq!(z80.machine(None).unwrap().unwrap().id, "zx-spectrum");
        assert_eq!(z80.machine(Some("trs-80")).unwrap().unwrap().id, "trs-80");
        let e = z80.machine(Some("kim-1")).unwrap_err().to_string();
        assert!(e.contains("6502"), "{e}");
        let native = EngineChoice::parse("full").unwrap();
        assert!(native.machine(Some("kim-1")).is_err());
        assert!(native.machine(None).unwrap().is_none());
        assert!(z80.check_depth(33).is_err());
        assert_eq!(native.check_depth(33).unwrap(), 33);
    }

    #[test]
    fn the_list_has_both_builds_and_every_profile() {
        let list = engines();
        assert_eq!(list[0].id, "z80");
        assert_eq!(list[0].machines[0].id, "zx-spectrum");
        assert_eq!(list[1].machines[0].id, "kim-1");
        assert_eq!(list.len(), 2 + Profile::ALL.len());
    }
}
