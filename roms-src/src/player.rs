//! Kempelen's 8-bit builds as tournament players: `z80[:OPTIONS]` and `6502[:OPTIONS]` (the
//! [`PlayerKinds`] of this crate). Each game gets the port's engine, assembled once from the
//! bundled sources, on the port's default machine; the options are the engine's UCI options
//! (`Machine=jupiter-3`, `Realtime=true`). Its clock is the machine's, so under emulated clocks
//! each move is charged the emulated time the search took.

use crate::engine::PortEngine;
use crate::port::{PORTS, Port};
use kempelen_engine::tournament::{KindInfo, PlayerFactory, PlayerKinds};
use kempelen_engine::{Engine, EngineError};
use std::sync::Arc;

/// The player kinds of the 8-bit builds: one per port, named by its id.
pub struct PortPlayers;

struct PortPlayer(&'static Port);

impl PlayerFactory for PortPlayer {
    fn start(&self) -> Result<Box<dyn Engine>, EngineError> {
        let mut engine: PortEngine = PortEngine::shared(self.0)
            .map_err(|e| EngineError::Backend(e.to_string()))?
            .clone();
        engine.clock = Some(self.0.default_machine());
        Ok(Box::new(engine))
    }
}

impl PlayerKinds for PortPlayers {
    fn kinds(&self) -> Vec<KindInfo> {
        PORTS
            .iter()
            .map(|p| KindInfo {
                name: p.id,
                argument: None,
                help: "Kempelen's 8-bit build in the emulator, on the port's default machine \
                       (option Machine=ID)",
            })
            .collect()
    }

    fn player(
        &self,
        kind: &str,
        _argument: Option<&str>,
    ) -> Result<Arc<dyn PlayerFactory>, String> {
        let port = PORTS
            .iter()
            .copied()
            .find(|p| p.id == kind)
            .ok_or_else(|| format!("no 8-bit build '{kind}'"))?;
        port.require().map_err(|e| e.to_string())?;
        Ok(Arc::new(PortPlayer(port)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kempelen_engine::EngineClock;
    use kempelen_engine::tournament::{PlayerKind, PlayerSpec};
    use std::time::Duration;

    #[test]
    fn an_8bit_build_is_a_player_on_its_machine() {
        let kinds: [&dyn PlayerKinds; 1] = [&PortPlayers];
        let spec = PlayerSpec::parse_with("z80:Machine=jupiter-3", &kinds).unwrap();
        assert_eq!(spec.label, "z80(Machine=jupiter-3)");
        assert!(matches!(spec.kind, PlayerKind::Supplied(_)));
        let engine = spec.start(Duration::from_secs(1)).unwrap();
        assert_eq!(
            engine.clock(),
            EngineClock::Emulated {
                machine: "jupiter-3".into(),
                mhz: 2.0
            }
        );
        let spec = PlayerSpec::parse_with("z80:Machine=kim-1", &kinds).unwrap();
        let e = spec
            .start(Duration::from_secs(1))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("Machine") && e.contains("kim-1"), "{e}");
        let e = PlayerSpec::parse_with("z81", &kinds)
            .unwrap_err()
            .to_string();
        assert!(e.contains("also z80, 6502"), "{e}");
    }
}
