//! The page's links: the URL fragment holds what is on screen, so a link reproduces it.
//!
//! `#fen=<URL-encoded FEN>&moves=e2e4,e7e5&engine=z80|6502|<profile>&machine=<id>&depth=<N>
//! &speed=real|fast&view=<view>` and the keys the views define ([`keys::VIEW_KEYS`]). Each
//! value is checked here with the command line's own rules (the depth against the engine's
//! range and the view's); a bad one is dropped with a message that names the key and what it
//! takes, and the rest of the link still applies. A key no view reads is kept for the page and
//! named in a problem too.
//!
//! What [`format`] writes, [`parse`] reads back to the same link: both hold links up to
//! [`MAX_FRAGMENT`] bytes, and [`format`] refuses a longer one rather than write a link the
//! page could not read.

pub mod keys;

use kempelen_engine::Game;
use serde::{Deserialize, Serialize};

use crate::choice::EngineChoice;
use keys::{DEFAULT_ENGINE, check_view_key, shown, view_depths};

/// How fast an 8-bit build runs in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// At the emulated machine's own speed: a move takes what it took on the machine.
    Real,
    /// As fast as the browser runs the emulator.
    Fast,
}

/// The values of a link that passed their checks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Link {
    /// The start position's FEN.
    pub fen: Option<String>,
    /// Moves in coordinates played from it.
    pub moves: Vec<String>,
    /// The engine's id.
    pub engine: Option<String>,
    /// The machine's id (8-bit builds).
    pub machine: Option<String>,
    /// Search depth.
    pub depth: Option<u32>,
    /// Speed of the 8-bit builds.
    pub speed: Option<Speed>,
    /// The view (its name as the page registers it; checked by the page).
    pub view: Option<String>,
    /// Keys the page's views define, in the link's order.
    pub extra: Vec<(String, String)>,
}

/// A value of a link that was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinkProblem {
    /// The key.
    pub key: String,
    /// The value as given (decoded).
    pub value: String,
    /// What is wrong and what the key takes.
    pub message: String,
}

/// A link read: the values that passed and the problems.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ParsedLink {
    /// What applies.
    pub link: Link,
    /// What was refused.
    pub problems: Vec<LinkProblem>,
}

/// The longest fragment read and written: 1 MiB (Chromium takes addresses up to 2 MiB), room
/// for a program of the assembler view of some hundred KB or a game of thousands of moves.
pub const MAX_FRAGMENT: usize = 1 << 20;

/// Reads a fragment (with or without its leading `#`).
pub fn parse(fragment: &str) -> ParsedLink {
    let mut out = ParsedLink::default();
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_FRAGMENT {
        out.problems.push(LinkProblem {
            key: String::new(),
            value: format!("{} bytes", fragment.len()),
            message: format!("the link is longer than the {MAX_FRAGMENT} bytes a link of this page holds: ignored"),
        });
        return out;
    }
    for pair in fragment.split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(key).unwrap_or_else(|_| key.to_string());
        match decode(raw) {
            Ok(value) => out.take(&key, value),
            Err(message) => out.problem(&key, raw, message),
        }
    }
    out.check_together();
    out
}

impl ParsedLink {
    fn problem(&mut self, key: &str, value: &str, message: String) {
        self.problems.push(LinkProblem {
            key: shown(key),
            value: shown(value),
            message,
        });
    }

    /// Takes one key's value if it passes its own check.
    fn take(&mut self, key: &str, value: String) {
        let checked: Result<(), String> = match key {
            "fen" => kempelen_engine::Position::from_fen(value.trim())
                .map(|p| self.link.fen = Some(p.to_fen()))
                .map_err(|e| format!("not a position: {e}")),
            "moves" => {
                self.link.moves = value
                    .split([',', ' '])
                    .filter(|m| !m.is_empty())
                    .map(str::to_string)
                    .collect();
                Ok(())
            }
            "engine" => EngineChoice::parse(&value)
                .map(|e| self.link.engine = Some(e.id().to_string()))
                .map_err(|e| e.to_string()),
            "machine" => {
                self.link.machine = Some(value.trim().to_ascii_lowercase());
                Ok(())
            }
            "depth" => match value.trim().parse::<u32>() {
                Ok(d) if d >= 1 => {
                    self.link.depth = Some(d);
                    Ok(())
                }
                _ => Err("a whole number of plies, 1 or more".into()),
            },
            "speed" => {
                let speed = match value.trim() {
                    "real" => Some(Speed::Real),
                    "fast" => Some(Speed::Fast),
                    _ => None,
                };
                self.link.speed = speed.or(self.link.speed);
                speed
                    .map(|_| ())
                    .ok_or_else(|| "real (the machine's own speed) or fast".into())
            }
            "view" => {
                let ok = !value.is_empty()
                    && value
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                if ok {
                    self.link.view = Some(value.clone());
                    Ok(())
                } else {
                    Err("a view's name (letters, digits, '-')".into())
                }
            }
            _ => match check_view_key(key, &value) {
                Some(Ok(())) => {
                    self.link.extra.push((key.to_string(), value.clone()));
                    Ok(())
                }
                Some(Err(message)) => Err(message),
                None => {
                    // Kept for the page (a view may read it), and named: a mistyped key is
                    // otherwise dropped without a word.
                    self.link.extra.push((key.to_string(), value.clone()));
                    Err("not a key of this page's links: it changes nothing here".into())
                }
            },
        };
        if let Err(message) = checked {
            self.problem(key, &value, message);
        }
    }

    /// The checks that need several keys: the moves from the position, the machine of the
    /// engine, the depth the engine takes.
    fn check_together(&mut self) {
        let fen = self
            .link
            .fen
            .clone()
            .unwrap_or_else(|| kempelen_engine::START_FEN.to_string());
        if let Ok(mut game) = Game::from_fen(&fen) {
            let moves = std::mem::take(&mut self.link.moves);
            for (i, m) in moves.iter().enumerate() {
                if let Err(e) = game.push_uci(m) {
                    let message =
                        format!("move {} ({m}): {e}; the moves from it are left out", i + 1);
                    self.problem("moves", &moves.join(","), message);
                    break;
                }
                self.link.moves.push(m.clone());
            }
        }
        let engine = self
            .link
            .engine
            .as_deref()
            .and_then(|e| EngineChoice::parse(e).ok());
        if let Some(id) = self.link.machine.clone() {
            if let Err(message) = check_machine(&id, engine) {
                self.problem("machine", &id, message);
                self.link.machine = None;
            }
        }
        if let Some(d) = self.link.depth {
            if let Err(message) = self.check_depth(d, engine) {
                self.problem("depth", &d.to_string(), message);
                self.link.depth = None;
            }
        }
    }

    /// A depth against the engine the link names and the view it opens (without an engine,
    /// Play's default engine's range; each view's own range besides).
    fn check_depth(&self, depth: u32, engine: Option<EngineChoice>) -> Result<(), String> {
        let view = self.link.view.as_deref().unwrap_or("play");
        let engine = match engine {
            Some(e) => Some(e),
            None if view == "play" => EngineChoice::parse(DEFAULT_ENGINE).ok(),
            None => None,
        };
        if let Some(e) = engine {
            if e.check_depth(depth).is_err() {
                let note = match self.link.engine {
                    None => " (Play's default opponent)",
                    Some(_) => "",
                };
                return Err(format!(
                    "the {} engine{note} searches depths 1 to {}",
                    e.id(),
                    e.max_depth()
                ));
            }
        }
        match view_depths(view) {
            Some((lo, hi, what)) if !(lo..=hi).contains(&depth) => Err(what.to_string()),
            _ => Ok(()),
        }
    }
}

/// A machine against the engine the link names; without one, a machine of either build.
fn check_machine(id: &str, engine: Option<EngineChoice>) -> Result<(), String> {
    if let Some(e) = engine {
        return e.machine(Some(id)).map(|_| ()).map_err(|e| e.to_string());
    }
    let builds = ["z80", "6502"].map(|b| EngineChoice::parse(b).expect("the builds are engines"));
    if builds.iter().any(|b| b.machine(Some(id)).is_ok()) {
        return Ok(());
    }
    let known: Vec<&str> = crate::choice::engines()
        .into_iter()
        .flat_map(|e| e.machines.into_iter().map(|m| m.id))
        .collect();
    Err(format!(
        "'{}': not a machine of the 8-bit builds ({})",
        shown(id),
        known.join(", ")
    ))
}

/// A link [`format`] will not write: longer than [`MAX_FRAGMENT`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the link would be {bytes} bytes, more than the {MAX_FRAGMENT} a link of this page holds \
     ({key}= alone is {key_bytes} bytes): the address keeps its last link"
)]
pub struct TooLong {
    /// The link's length.
    pub bytes: usize,
    /// Its longest key.
    pub key: String,
    /// That key's part of the link.
    pub key_bytes: usize,
}

/// Writes a link's fragment (without `#`), the keys in a fixed order, then the views' own;
/// refused when it would be longer than [`parse`] reads.
pub fn format(link: &Link) -> Result<String, TooLong> {
    let mut parts = Vec::new();
    if let Some(f) = &link.fen {
        parts.push(format!("fen={}", encode(f)));
    }
    if !link.moves.is_empty() {
        parts.push(format!("moves={}", encode(&link.moves.join(","))));
    }
    if let Some(e) = &link.engine {
        parts.push(format!("engine={}", encode(e)));
    }
    if let Some(m) = &link.machine {
        parts.push(format!("machine={}", encode(m)));
    }
    if let Some(d) = link.depth {
        parts.push(format!("depth={d}"));
    }
    match link.speed {
        Some(Speed::Real) => parts.push("speed=real".into()),
        Some(Speed::Fast) => parts.push("speed=fast".into()),
        None => {}
    }
    if let Some(v) = &link.view {
        parts.push(format!("view={}", encode(v)));
    }
    for (k, v) in &link.extra {
        parts.push(format!("{}={}", encode(k), encode(v)));
    }
    let text = parts.join("&");
    if text.len() <= MAX_FRAGMENT {
        return Ok(text);
    }
    let longest = parts
        .iter()
        .max_by_key(|p| p.len())
        .expect("a long link has parts");
    Err(TooLong {
        bytes: text.len(),
        key: longest.split('=').next().unwrap_or("").to_string(),
        key_bytes: longest.len(),
    })
}

/// Percent-decoding of a fragment's value (`+` is a space, as in a query string: a FEN has no
/// `+`); the bytes must be UTF-8.
pub fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("'%' at byte {i} is not followed by two hex digits"))?;
                out.push(hex);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| "the decoded bytes are not UTF-8".to_string())
}

/// Percent-encoding of a value: everything but letters, digits and `-_.~/,` is escaped (a
/// FEN keeps its slashes readable, its spaces become `%20`).
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/,".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIWI: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn a_link_round_trips() {
        let link = Link {
            fen: Some(KIWI.into()),
            moves: vec!["a2a3".into()],
            engine: Some("6502".into()),
            machine: Some("kim-1".into()),
            depth: Some(3),
            speed: Some(Speed::Real),
            view: Some("compare".into()),
            extra: vec![("cmpfen".into(), KIWI.into())],
        };
        let text = format(&link).unwrap();
        assert!(text.starts_with("fen=r3k2r/p1ppqpb1/"), "{text}");
        let back = parse(&format!("#{text}"));
        assert!(back.problems.is_empty(), "{:?}", back.problems);
        assert_eq!(back.link.fen, link.fen);
        assert_eq!(back.link.engine, link.engine);
        assert_eq!(back.link.extra, link.extra);
        assert_eq!(back.link.depth, Some(3));
    }

    #[test]
    fn the_issue_form_with_spaces_as_plus_or_percent() {
        let p = parse("#fen=8/8/8/8/8/8/k7/4K2R+w+K+-+0+1&engine=z80&machine=trs-80&depth=4");
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.link.fen.as_deref(), Some("8/8/8/8/8/8/k7/4K2R w K - 0 1"));
        assert_eq!(p.link.machine.as_deref(), Some("trs-80"));
    }

    #[test]
    fn bad_values_are_named_and_the_rest_applies() {
        let p = parse(
            "fen=rnbqkbnr%2Fpppppppp%2F8%2F8%2F8%2F8%2FPPPPPPPP%2FRNBQKBNR%20x&engine=6502&machine=trs-80&depth=40&view=compare&speed=warp&x=%zz",
        );
        let keys: Vec<&str> = p.problems.iter().map(|q| q.key.as_str()).collect();
        assert_eq!(
            keys,
            ["fen", "speed", "x", "machine", "depth"],
            "{:?}",
            p.problems
        );
        assert!(p.problems[0].message.contains("not a position"));
        assert!(
            p.problems[3].message.contains("Z80"),
            "{}",
            p.problems[3].message
        );
        assert_eq!(p.link.engine.as_deref(), Some("6502"));
        assert_eq!(p.link.view.as_deref(), Some("compare"));
        assert!(p.link.fen.is_none() && p.link.machine.is_none() && p.link.depth.is_none());
    }

    /// A depth is checked against the view it opens even when no engine is named, and a view's
    /// own key against what it takes: each problem names the key.
    #[test]
    fn depths_and_view_keys_are_checked_whatever_the_link_names() {
        for (text, key, says) in [
            ("depth=99", "depth", "1 to 32"),
            ("view=tree&depth=9", "depth", "1 to 4"),
            ("view=compare&depth=40", "depth", "1 to 32"),
            ("view=compare&engine=reference&depth=40", "depth", "1 to 32"),
            ("view=programs&depth=4", "depth", "1 to 3"),
            ("view=tree&width=1e99", "width", "up to 99"),
            ("view=tree&node=0", "node", "1 or more"),
            ("view=machine&cycles=-5", "cycles", "cycle count"),
            ("view=compare&z80=kim-1", "z80", "6502"),
            ("view=lessons&lesson=chess", "lesson", "tartan"),
            ("view=tree&root=8/8/8", "root", "not a position"),
            ("dpeth=3", "dpeth", "not a key"),
            ("machine=vic-21", "machine", "trs-80"),
        ] {
            let p = parse(text);
            assert_eq!(p.problems.len(), 1, "{text}: {:?}", p.problems);
            assert_eq!(p.problems[0].key, key, "{text}");
            assert!(
                p.problems[0].message.contains(says),
                "{text}: {:?}",
                p.problems
            );
        }
        for ok in [
            "view=tree&depth=4",
            "view=play&engine=full&depth=40",
            "view=asm&depth=50",
        ] {
            assert!(
                parse(ok).problems.is_empty(),
                "{ok}: {:?}",
                parse(ok).problems
            );
        }
    }

    /// A long value is shown cut in a problem (its message must fit a screen), and the page
    /// writes no link longer than it reads.
    #[test]
    fn long_values_are_cut_in_messages_and_long_links_refused() {
        let long = "x".repeat(100_000);
        let p = parse(&format!("fen={long}"));
        assert!(p.problems[0].value.len() < 200, "{}", p.problems[0].value);
        assert!(p.problems[0].value.contains("100000 bytes"));
        let link = Link {
            extra: vec![("src".into(), "; a comment\n".repeat(MAX_FRAGMENT / 10))],
            ..Link::default()
        };
        let e = format(&link).unwrap_err();
        assert_eq!(e.key, "src");
        assert!(e.to_string().contains("more than the 1048576"), "{e}");
    }

    #[test]
    fn illegal_moves_are_cut_where_they_fail() {
        let p = parse("moves=e2e4,e7e5,e1e3,d2d4");
        assert_eq!(p.link.moves, ["e2e4", "e7e5"]);
        assert!(p.problems[0].message.starts_with("move 3 (e1e3)"));
    }
}
