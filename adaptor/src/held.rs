//! What the program holds in RAM while it searches, as its adaptor file describes it: the best
//! move of its search so far (`[best]`) and that move's score (`[score]`), read between the
//! slices of its turn and when the turn is stopped; the square a held move starts from, from
//! its piece list as the search began (`[pieces]`); and the piece a pawn of the program
//! became, from its board (`[ram_board]`).

use kempelen_emulator::Machine;

use crate::description::Adaptor;

/// The program's piece list when its search began (empty without `[pieces]`).
pub(crate) struct RootBoard {
    slots: Vec<u8>,
    program_black: bool,
}

/// The move the program holds as its best so far (UCI text, not yet checked against the
/// position) and the byte of its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Held {
    pub(crate) uci: String,
    pub(crate) score: Option<u8>,
}

impl RootBoard {
    /// The piece list as the search begins.
    pub(crate) fn read(adaptor: &Adaptor, m: &Machine, program_black: bool) -> RootBoard {
        let slots = adaptor
            .ram
            .pieces
            .as_ref()
            .map_or_else(Vec::new, |p| m.read_bytes(p.at, 2 * p.order.len()));
        RootBoard {
            slots,
            program_black,
        }
    }
}

impl Held {
    /// The move the program holds as best now, if it holds one.
    pub(crate) fn read(adaptor: &Adaptor, m: &Machine, root: &RootBoard) -> Option<Held> {
        let b = adaptor.ram.best.as_ref()?;
        if let Some((at, min)) = b.held_from {
            if m.read_byte(at) < min {
                return None;
            }
        }
        let base = match b.pointer {
            Some(p) => match m.read_word(p) {
                0 => return None,
                w => Some(w),
            },
            None => None,
        };
        let at = |x: u16| base.map_or(x, |w| w.wrapping_add(x));
        let from = match (b.from, b.piece) {
            (Some(f), _) => m.read_byte(at(f)),
            (None, Some(p)) => *root.slots.get(usize::from(m.read_byte(p)))?,
            (None, None) => return None,
        };
        let from = b.squares.decode(from, root.program_black)?;
        let to = b
            .squares
            .decode(m.read_byte(at(b.to)), root.program_black)?;
        let mut uci = format!("{from}{to}");
        if let Some((flags, mask, piece)) = b.promotion {
            if m.read_byte(at(flags)) & mask != 0 {
                uci.push(piece);
            }
        }
        Some(Held {
            uci,
            score: adaptor.ram.score.as_ref().map(|s| m.read_byte(s.at)),
        })
    }
}
