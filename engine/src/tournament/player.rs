//! Who plays: a native profile (any name [`Profile`] accepts), a reference variant with one
//! feature switched off ([`Features`], for "Elo per feature"), an external UCI or xboard
//! engine, or a kind of player a crate above this one supplies ([`PlayerKinds`]: the 8-bit
//! builds in the emulator, the adapted historical programs). A [`PlayerSpec`] is parsed once
//! and starts a fresh engine for every game.
//!
//! Syntax: `[LABEL=]NAME[:OPTION=VALUE,...]` for native players (`full:Hash=16`),
//! `[LABEL=]uci:COMMAND[:OPTION=VALUE,...]` or `[LABEL=]xboard:COMMAND` for external engines
//! (`sf1350=uci:stockfish:UCI_LimitStrength=true,UCI_Elo=1350`, `xboard:fairymax`), and
//! `[LABEL=]KIND[:ARGUMENT][:OPTION=VALUE,...]` for a supplied kind (`z80:Machine=jupiter-3`,
//! `program:adaptors/sargon-jupiter3.toml`). A command may carry arguments separated by
//! spaces; a program name without `/` is looked up in `PATH` and `/usr/games`. A label holds
//! no control characters (it goes into PGN tags).

use super::error::TournamentError;
use super::external::{UciEngine, XboardEngine};
use super::game::MAX_STRING_CHARS;
use crate::engine::{Engine, EngineError, EngineOption, SearchRequest, SearchResult};
use crate::native::kempelen_name;
use crate::native::{NativeEngine, Profile};
use crate::position::Position;
use crate::reference::{Features, ReferenceSearch};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Starts the engine of a supplied player kind, fresh for each game.
pub trait PlayerFactory: Send + Sync {
    /// A new engine, before its options are set.
    fn start(&self) -> Result<Box<dyn Engine>, EngineError>;

    /// The files the player reads (an adaptor file, say), which no output of the same
    /// tournament may replace.
    fn inputs(&self) -> Vec<PathBuf> {
        Vec::new()
    }
}

/// One kind of player a [`PlayerKinds`] supplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// The name before the first `:` (`z80`, `program`).
    pub name: &'static str,
    /// What the kind takes after its name, if anything (`FILE.toml`); options follow it.
    pub argument: Option<&'static str>,
    /// What plays, in a few words.
    pub help: &'static str,
}

/// The extension point of the tournament: player kinds that a crate above the engine
/// supplies, so that any front end (the command line, a test, another program) can set them
/// in its tournaments beside the native profiles and external engines.
pub trait PlayerKinds: Send + Sync {
    /// The kinds it knows.
    fn kinds(&self) -> Vec<KindInfo>;

    /// A player of `kind` (one of [`PlayerKinds::kinds`]) with its argument, or why there
    /// can be none.
    fn player(&self, kind: &str, argument: Option<&str>) -> Result<Arc<dyn PlayerFactory>, String>;
}

/// A player of a supplied kind.
#[derive(Clone)]
pub struct Supplied {
    /// The kind's name.
    pub kind: String,
    /// Its argument.
    pub argument: Option<String>,
    /// What starts its engines.
    pub factory: Arc<dyn PlayerFactory>,
}

impl std::fmt::Debug for Supplied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Supplied")
            .field("kind", &self.kind)
            .field("argument", &self.argument)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Supplied {
    fn eq(&self, other: &Supplied) -> bool {
        (&self.kind, &self.argument) == (&other.kind, &other.argument)
    }
}

impl Eq for Supplied {}

/// A reference variant: the reference search with one feature switched off.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// Profile name (`reference-no-killers`).
    pub name: &'static str,
    /// What is switched off, for tables.
    pub removes: &'static str,
    /// The switch.
    pub switch_off: fn(&mut Features),
}

impl Variant {
    /// The variant `name` that `switch_off` makes of the reference, which `removes` a feature.
    const fn new(name: &'static str, removes: &'static str, switch_off: fn(&mut Features)) -> Self {
        Variant {
            name,
            removes,
            switch_off,
        }
    }
}

/// The reference variants, one per feature of [`Features`].
pub const VARIANTS: [Variant; 6] = [
    Variant::new("reference-no-null", "null move", |f| f.null_move = false),
    Variant::new("reference-no-killers", "killer moves", |f| {
        f.killers = false
    }),
    Variant::new("reference-no-mvv-lva", "MVV-LVA capture ordering", |f| {
        f.mvv_lva = false
    }),
    Variant::new("reference-no-pv-move", "PV move first", |f| {
        f.pv_move = false
    }),
    Variant::new("reference-no-quiescence", "quiescence search", |f| {
        f.quiescence = false
    }),
    Variant::new(
        "reference-no-id",
        "iterative deepening (each depth from scratch)",
        |f| f.iterative_deepening = false,
    ),
];

/// The features of a variant name (`reference-no-killers`), `None` for other names.
pub fn variant_features(name: &str) -> Option<Features> {
    let name = name.to_ascii_lowercase();
    VARIANTS.iter().find(|v| v.name == name).map(|v| {
        let mut f = Features::ALL;
        (v.switch_off)(&mut f);
        f
    })
}

/// The reference search with some features switched off, as an engine.
pub struct ReferenceVariant {
    name: String,
    features: Features,
}

impl ReferenceVariant {
    /// A variant running `features`, reporting `name`.
    pub fn new(name: &str, features: Features) -> ReferenceVariant {
        ReferenceVariant {
            name: name.to_string(),
            features,
        }
    }
}

impl Engine for ReferenceVariant {
    fn name(&self) -> String {
        kempelen_name(&self.name)
    }

    fn perft(&mut self, pos: &Position, depth: u32) -> Result<u64, EngineError> {
        Ok(crate::perft::perft(pos, depth))
    }

    fn search_request(&mut self, request: SearchRequest<'_>) -> Result<SearchResult, EngineError> {
        Ok(ReferenceSearch::for_request(request)?
            .with_features(self.features)
            .run())
    }

    fn options(&self) -> Vec<EngineOption> {
        Vec::new()
    }
}

/// What kind of player a spec names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A native profile.
    Native(Profile),
    /// A reference variant (name, features).
    Variant(String, Features),
    /// A UCI engine command.
    Uci(Vec<String>),
    /// An xboard engine command.
    Xboard(Vec<String>),
    /// A kind a crate above supplies ([`PlayerKinds`]).
    Supplied(Supplied),
}

/// A parsed player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// The name in tables and PGN.
    pub label: String,
    /// What plays.
    pub kind: PlayerKind,
    /// Options set after start (name, value).
    pub options: Vec<(String, String)>,
}

impl PlayerSpec {
    /// Parses `[LABEL=]NAME[:OPTIONS]`, `[LABEL=]uci:COMMAND[:OPTIONS]`, `[LABEL=]xboard:COMMAND`.
    pub fn parse(text: &str) -> Result<PlayerSpec, TournamentError> {
        PlayerSpec::parse_with(text, &[])
    }

    /// [`PlayerSpec::parse`] with the kinds that `supplied` adds (looked at before the
    /// native profiles).
    pub fn parse_with(
        text: &str,
        supplied: &[&dyn PlayerKinds],
    ) -> Result<PlayerSpec, TournamentError> {
        let bad = |reason: String| TournamentError::BadPlayer {
            spec: text.escape_debug().to_string(),
            reason,
        };
        if text.chars().any(char::is_control) {
            return Err(bad(
                "a control character (a line end, a tab) in a player: names go into PGN tags"
                    .into(),
            ));
        }
        let (label, rest) = split_spec_label(text.trim());
        if label == Some("") {
            return Err(bad("empty label before '='".into()));
        }
        let head = rest.split(':').next().unwrap_or("").trim();
        let lower = head.to_ascii_lowercase();
        let spec = if lower == "uci" || lower == "xboard" || lower == "cecp" {
            external_spec(label, rest)
        } else if let Some((kinds, info)) = supplied_kind(supplied, &lower) {
            supplied_spec(label, rest, kinds, info)
        } else {
            native_spec(label, rest, supplied)
        }
        .map_err(bad)?;
        let chars = spec.label.chars().count();
        if chars > MAX_STRING_CHARS {
            return Err(TournamentError::BadPlayer {
                spec: text
                    .chars()
                    .take(40)
                    .collect::<String>()
                    .escape_debug()
                    .to_string()
                    + "...",
                reason: format!(
                    "a name of {chars} characters, more than a PGN tag holds \
                     ({MAX_STRING_CHARS}): give it a shorter LABEL="
                ),
            });
        }
        Ok(spec)
    }

    /// Starts a fresh engine for one game and sets its options. External engines get
    /// `move_timeout` per move on top of their clock.
    pub fn start(&self, move_timeout: Duration) -> Result<Box<dyn Engine>, EngineError> {
        let mut engine: Box<dyn Engine> = match &self.kind {
            PlayerKind::Native(p) => Box::new(NativeEngine::new(*p)),
            PlayerKind::Variant(name, f) => Box::new(ReferenceVariant::new(name, *f)),
            PlayerKind::Supplied(s) => s.factory.start()?,
            PlayerKind::Uci(cmd) => {
                return Ok(Box::new(UciEngine::start(
                    &self.label,
                    cmd,
                    &self.options,
                    move_timeout,
                )?));
            }
            PlayerKind::Xboard(cmd) => {
                return Ok(Box::new(XboardEngine::start(
                    &self.label,
                    cmd,
                    move_timeout,
                )?));
            }
        };
        for (k, v) in &self.options {
            engine.set_option(k, v)?;
        }
        Ok(engine)
    }

    /// Whether this is an external engine.
    pub fn is_external(&self) -> bool {
        matches!(self.kind, PlayerKind::Uci(_) | PlayerKind::Xboard(_))
    }

    /// The files this player reads: a supplied kind's inputs, an external engine's program
    /// when it is a file.
    pub fn inputs(&self) -> Vec<PathBuf> {
        match &self.kind {
            PlayerKind::Supplied(s) => s.factory.inputs(),
            PlayerKind::Uci(cmd) | PlayerKind::Xboard(cmd) => {
                let mut out = vec![PathBuf::from(super::external::resolve(&cmd[0]))];
                // A script run by an interpreter (`sh engine.sh`): its file too.
                out.extend(cmd[1..].iter().map(PathBuf::from).filter(|p| p.is_file()));
                out.retain(|p| p.is_file());
                out
            }
            _ => Vec::new(),
        }
    }
}

/// `LABEL=REST` (the `=` before any `:`) or `REST` alone.
fn split_spec_label(text: &str) -> (Option<&str>, &str) {
    match (text.find('='), text.find(':')) {
        (Some(eq), colon) if colon.is_none_or(|c| eq < c) => {
            (Some(text[..eq].trim()), text[eq + 1..].trim())
        }
        _ => (None, text),
    }
}

/// `NAME=VALUE,...` (none for `None`).
fn parse_options(s: Option<&str>) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for item in s.unwrap_or("").split(',').filter(|x| !x.trim().is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("option '{item}' is not NAME=VALUE"))?;
        out.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok(out)
}

/// The label `label`, or one from a name and the options: `stockfish(UCI_Elo=1350)`.
fn label_or_default(label: Option<&str>, base: String, options: &[(String, String)]) -> String {
    if let Some(label) = label {
        return label.to_string();
    }
    if options.is_empty() {
        base
    } else {
        let o: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{base}({})", o.join(","))
    }
}

/// `uci:COMMAND[:OPTIONS]` or `xboard:COMMAND` (`cecp:` too).
fn external_spec(label: Option<&str>, rest: &str) -> Result<PlayerSpec, String> {
    let mut parts = rest.splitn(3, ':');
    let head = parts.next().unwrap_or("").trim();
    let command: Vec<String> = parts
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    if command.is_empty() {
        return Err(format!("no command after '{head}:'"));
    }
    let options = parse_options(parts.next())?;
    let base = std::path::Path::new(&command[0])
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| command[0].clone());
    let label = label_or_default(label, base, &options);
    if head.eq_ignore_ascii_case("uci") {
        return Ok(PlayerSpec {
            label,
            kind: PlayerKind::Uci(command),
            options,
        });
    }
    if !options.is_empty() {
        return Err("xboard engines take no options here".into());
    }
    Ok(PlayerSpec {
        label,
        kind: PlayerKind::Xboard(command),
        options,
    })
}

/// The supplied kind named `lower`, with the [`PlayerKinds`] that knows it.
fn supplied_kind<'a>(
    supplied: &[&'a dyn PlayerKinds],
    lower: &str,
) -> Option<(&'a dyn PlayerKinds, KindInfo)> {
    supplied.iter().find_map(|kinds| {
        let info = kinds.kinds().into_iter().find(|k| k.name == lower)?;
        Some((*kinds, info))
    })
}

/// A supplied kind: `KIND[:ARGUMENT][:OPTIONS]`.
fn supplied_spec(
    label: Option<&str>,
    rest: &str,
    kinds: &dyn PlayerKinds,
    info: KindInfo,
) -> Result<PlayerSpec, String> {
    let mut parts = rest.splitn(if info.argument.is_some() { 3 } else { 2 }, ':');
    parts.next();
    let argument = match info.argument {
        Some(what) => {
            let a = parts.next().unwrap_or("").trim();
            if a.is_empty() {
                return Err(format!("{} takes {what}: {}:{what}", info.name, info.name));
            }
            Some(a.to_string())
        }
        None => None,
    };
    let options = parse_options(parts.next())?;
    let factory = kinds.player(info.name, argument.as_deref())?;
    let file_stem = |path: &str| {
        std::path::Path::new(path)
            .file_stem()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.to_string())
    };
    let base = argument
        .as_deref()
        .map_or_else(|| info.name.to_string(), file_stem);
    Ok(PlayerSpec {
        label: label_or_default(label, base, &options),
        kind: PlayerKind::Supplied(Supplied {
            kind: info.name.to_string(),
            argument,
            factory,
        }),
        options,
    })
}

/// Why a name is no player: the profiles, the variants, the external and supplied kinds.
fn unknown_player(profile_error: impl std::fmt::Display, supplied: &[&dyn PlayerKinds]) -> String {
    let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
    let more: Vec<String> = supplied
        .iter()
        .flat_map(|k| k.kinds())
        .map(|k| match k.argument {
            Some(a) => format!("{}:{a}", k.name),
            None => k.name.to_string(),
        })
        .collect();
    let more = if more.is_empty() {
        String::new()
    } else {
        format!("; also {}", more.join(", "))
    };
    format!(
        "{profile_error}; reference variants: {}; external engines: \
         uci:COMMAND or xboard:COMMAND{more}",
        names.join(", ")
    )
}

/// A native profile or a reference variant; options after the first ':'.
fn native_spec(
    label: Option<&str>,
    rest: &str,
    supplied: &[&dyn PlayerKinds],
) -> Result<PlayerSpec, String> {
    let head = rest.split(':').next().unwrap_or("").trim();
    let options = parse_options(rest.split_once(':').map(|x| x.1))?;
    let kind = match head.parse::<Profile>() {
        Ok(p) => PlayerKind::Native(p),
        Err(profile_error) => match variant_features(head) {
            Some(f) => PlayerKind::Variant(head.to_ascii_lowercase(), f),
            None => return Err(unknown_player(profile_error, supplied)),
        },
    };
    if matches!(kind, PlayerKind::Variant(..)) && !options.is_empty() {
        return Err("reference variants take no options".into());
    }
    let label = label
        .map(String::from)
        .unwrap_or_else(|| head.to_ascii_lowercase());
    Ok(PlayerSpec {
        label,
        kind,
        options,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::reference::ReferenceLimits;

    #[test]
    fn specs_parse() {
        let p = PlayerSpec::parse("reference").unwrap();
        assert_eq!(
            (p.label.as_str(), &p.kind),
            ("reference", &PlayerKind::Native(Profile::Reference))
        );
        let p = PlayerSpec::parse("big=full:Hash=16").unwrap();
        assert_eq!(p.label, "big");
        assert_eq!(p.options, vec![("Hash".to_string(), "16".to_string())]);
        let p = PlayerSpec::parse("uci:stockfish:UCI_LimitStrength=true,UCI_Elo=1350").unwrap();
        assert_eq!(p.label, "stockfish(UCI_LimitStrength=true,UCI_Elo=1350)");
        assert_eq!(p.kind, PlayerKind::Uci(vec!["stockfish".into()]));
        let p = PlayerSpec::parse("fm=xboard:/usr/games/fairymax").unwrap();
        assert_eq!((p.label.as_str(), p.is_external()), ("fm", true));
        let p = PlayerSpec::parse("reference-no-killers").unwrap();
        let PlayerKind::Variant(_, f) = p.kind else {
            panic!("not a variant")
        };
        assert!(!f.killers && f.null_move && f.quiescence);
        for bad in [
            "nosuch",
            "uci:",
            "reference-no-null:Hash=1",
            "full:Hash",
            "=full",
        ] {
            let e = PlayerSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
        assert!(
            PlayerSpec::parse("nosuch")
                .unwrap_err()
                .to_string()
                .contains("reference-no-quiescence")
        );
    }

    #[test]
    fn all_features_is_the_reference_bit_for_bit() {
        let mut game = Game::default();
        game.push_uci("e2e4").unwrap();
        let rl = ReferenceLimits::depth(4);
        let plain = ReferenceSearch::new(game.position(), &game.reference_history(), rl).run();
        let with = ReferenceSearch::new(game.position(), &game.reference_history(), rl)
            .with_features(Features::ALL)
            .run();
        assert_eq!(
            (plain.best, plain.score, plain.nodes, &plain.pv),
            (with.best, with.score, with.nodes, &with.pv)
        );
        // Every variant searches a different tree.
        for v in VARIANTS {
            let f = variant_features(v.name).unwrap();
            let r = ReferenceSearch::new(game.position(), &game.reference_history(), rl)
                .with_features(f)
                .run();
            assert_ne!(r.nodes, plain.nodes, "{}", v.name);
        }
    }
}
