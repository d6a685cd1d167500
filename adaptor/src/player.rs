//! Adapted programs as tournament players: `program:FILE.toml` (the [`PlayerKinds`] of this
//! crate). Each game starts the program afresh from its adaptor file; its clock is the
//! adaptor's machine, so under emulated clocks each move is charged the emulated time the
//! program took.

use crate::engine::AdaptorEngine;
use kempelen_engine::tournament::{KindInfo, PlayerFactory, PlayerKinds};
use kempelen_engine::{Engine, EngineError};
use std::path::PathBuf;
use std::sync::Arc;

/// The player kind of the adapted programs.
pub struct ProgramPlayers;

struct ProgramPlayer(PathBuf);

impl PlayerFactory for ProgramPlayer {
    fn start(&self) -> Result<Box<dyn Engine>, EngineError> {
        let engine =
            AdaptorEngine::new(&self.0).map_err(|e| EngineError::Backend(e.to_string()))?;
        Ok(Box::new(engine))
    }

    fn inputs(&self) -> Vec<PathBuf> {
        vec![self.0.clone()]
    }
}

impl PlayerKinds for ProgramPlayers {
    fn kinds(&self) -> Vec<KindInfo> {
        vec![KindInfo {
            name: "program",
            argument: Some("FILE.toml"),
            help: "a console chess program in Kempelen's emulator, through its adaptor file",
        }]
    }

    fn player(
        &self,
        _kind: &str,
        argument: Option<&str>,
    ) -> Result<Arc<dyn PlayerFactory>, String> {
        let path = PathBuf::from(argument.unwrap_or(""));
        if !path.is_file() {
            return Err(format!("no adaptor file '{}'", path.display()));
        }
        Ok(Arc::new(ProgramPlayer(path)))
    }
}
