//! What each key of a link takes beyond the common ones: the depths each view searches and the
//! views' own keys (`cycles`, `node`, `width`, `src`, ...), each checked when a link is read,
//! so a bad value is named with its key and what the key takes instead of reaching a view (or a
//! request to the worker) as it is.

use kempelen_claims::lessons::LESSONS;
use kempelen_engine::Position;
use kempelen_roms::snippets::SNIPPETS;

use crate::choice::EngineChoice;

/// The depths a view's searches take, and the sentence that says so; `None`: the view takes
/// the depth of the engine the link names (Play), or searches nothing.
pub fn view_depths(view: &str) -> Option<(u32, u32, &'static str)> {
    match view {
        "compare" => Some((
            1,
            32,
            "the compare view searches depths 1 to 32 (the 8-bit builds')",
        )),
        "machine" => Some((
            1,
            32,
            "the machine view runs the 8-bit builds' searches, depths 1 to 32",
        )),
        "tree" => Some((1, 4, "the tree view draws depths 1 to 4")),
        "programs" => Some((1, 3, "the real programs play at depths 1 to 3")),
        _ => None,
    }
}

/// The engine Play uses when a link names none (its menu's first choice).
pub const DEFAULT_ENGINE: &str = "z80";

/// The views' own keys, each with what it takes (in a problem's message).
pub const VIEW_KEYS: [(&str, &str); 16] = [
    (
        "cycles",
        "a cycle count of the machine view's search (a whole number, at most 10^15)",
    ),
    (
        "node",
        "a node's number in the tree view (a whole number, 1 or more)",
    ),
    (
        "width",
        "moves per node in the tree view (0 for all, up to 99)",
    ),
    ("tree", "the tree view's search: native, z80 or 6502"),
    (
        "algorithm",
        "the tree view's algorithm: live, reference, alphabeta or minimax",
    ),
    (
        "root",
        "the position the tree or programs view searches when it is not the game's (a FEN)",
    ),
    (
        "suite",
        "a position of the bundled suite (its number) or all",
    ),
    ("z80", "a machine of the Z80 build"),
    ("6502", "a machine of the 6502 build"),
    ("cmpfen", "the compare view's position (a FEN)"),
    ("snippet", "an example of the assembler view"),
    ("src", "the assembler view's program (any text)"),
    ("cpu", "the assembler view's CPU: z80, 6502 or 65c02"),
    ("lesson", "a lesson"),
    (
        "example",
        "a live command of the lesson (its number, 0 or more)",
    ),
    ("program", "a real program: microchess or sargon"),
];

/// Checks a view's own key: `None` for a key no view of the page reads; else whether the value
/// passes (the error says what the key takes).
pub fn check_view_key(key: &str, value: &str) -> Option<Result<(), String>> {
    let (_, what) = VIEW_KEYS.iter().find(|(k, _)| *k == key)?;
    let v = value.trim();
    let whole = |max: u64| v.parse::<u64>().ok().filter(|n| *n <= max);
    let ok = match key {
        "cycles" => whole(1_000_000_000_000_000).is_some(),
        "node" => whole(u64::from(u32::MAX)).is_some_and(|n| n >= 1),
        "width" => whole(99).is_some(),
        "example" => whole(u64::from(u32::MAX)).is_some(),
        "tree" => ["native", "z80", "6502"].contains(&v),
        "algorithm" => ["live", "reference", "alphabeta", "minimax"].contains(&v),
        "root" | "cmpfen" => {
            return Some(
                Position::from_fen(v)
                    .map(|_| ())
                    .map_err(|e| format!("not a position: {e}")),
            );
        }
        "suite" => v == "all" || whole(100_000).is_some(),
        "z80" | "6502" => {
            let engine = EngineChoice::parse(key).expect("the builds are engines");
            return Some(
                engine
                    .machine(Some(v))
                    .map(|_| ())
                    .map_err(|e| e.to_string()),
            );
        }
        "snippet" => SNIPPETS.iter().any(|s| s.id == v),
        "src" => true,
        "cpu" => ["z80", "6502", "65c02"].contains(&v),
        "lesson" => LESSONS.iter().any(|l| l.id == v),
        "program" => ["microchess", "sargon"].contains(&v),
        _ => false,
    };
    Some(if ok {
        Ok(())
    } else {
        Err(match key {
            "snippet" => {
                let ids: Vec<&str> = SNIPPETS.iter().map(|s| s.id).collect();
                format!("not {what} ({})", ids.join(", "))
            }
            "lesson" => {
                let ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
                format!("not {what} ({})", ids.join(", "))
            }
            _ => format!("expected {what}"),
        })
    })
}

/// A value as a message shows it: a long one cut in the middle (the message must fit the
/// screen; the value's length is said).
pub fn shown(value: &str) -> String {
    const HEAD: usize = 60;
    const TAIL: usize = 12;
    let chars = value.chars().count();
    if chars <= HEAD + TAIL + 20 {
        return value.to_string();
    }
    let head: String = value.chars().take(HEAD).collect();
    let tail: String = value.chars().skip(chars - TAIL).collect();
    format!("{head}…{tail} ({} bytes)", value.len())
}
