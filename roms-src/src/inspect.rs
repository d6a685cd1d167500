//! Reading a port engine's state from the machine it runs in: what a learner sees of the 8-bit
//! search while it thinks. Everything comes from the machine's RAM and registers at the
//! engine's own symbols (the assembler's symbol table, never a copy of an address):
//!
//! - [`EngineMap::view`]: the state at any pause ([`EngineView`]): the board in RAM
//!   ([`RamBoard`]), the ply, the iteration, the node counter, the search path in the ply
//!   frames ([`PlyFrame`]: alpha, beta, the move bytes, the RAM each ply takes) and the routine
//!   the PC is in.
//! - [`NodeWalker`]: the search node by node. The machine stops at the engine's node entries
//!   (the labels `search` and `quiesce`: a node is entered, its window is in its frame, `V_PLY`
//!   is its ply) and at `node_exit` (its score is final: the Z80's HL, the 6502's `SCORE`),
//!   and, where the build has it, at `q_leaf` (a quiescence child that the node knows will
//!   stand pat at once, counted but never made: it is entered and left there, its window the
//!   node's negated and its value its beta); the walker reads each node there ([`LiveNode`]: the move into it from the parent's frame, its
//!   ply, alpha and beta on entry, later the value it backs up, the cycles when it was
//!   entered), so a tree of the 8-bit search grows as the Z80 or 6502 code visits it. Its nodes
//!   are the native reference search's, in the same order (`tests/inspect.rs` checks it).
//!
//! The walker reads the Z80's HL, so a Z80 engine runs on the core that shows it
//! ([`PortEngine::core`] = `CoreKind::RustzxZ80`, same cycles); [`NodeWalker::machine`] sets
//! that up.
//!
//! ```
//! use kempelen_engine::Position;
//! use kempelen_roms::inspect::{NodeWalker, Walk};
//! use kempelen_roms::{PortEngine, port};
//!
//! let engine = PortEngine::shared(&port::M6502).unwrap();
//! let root = Position::startpos();
//! let (mut walker, mut m) = NodeWalker::machine(engine, &root, &[], 2).unwrap();
//! while walker.run(&mut m, 1 << 20).unwrap() == Walk::Running {}
//! let nodes = walker.nodes();
//! assert_eq!(nodes[1].mv.unwrap().to_string(), "b1a3"); // depth 1: generation order
//! assert_eq!(nodes.len() as u64, engine.search(&root, &[], 2, None).unwrap().result.nodes);
//! ```

use kempelen_emulator::Cpu;
use kempelen_emulator::{CoreKind, Machine, Paused, Registers, RunError, StopReason};
use kempelen_engine::piece::WHITE;
use kempelen_engine::tree::lesson::NodeKind;
use kempelen_engine::{Move, Position};

use crate::engine::{PortEngine, PortEngineError, protocol_move};

/// What reading the engine's state can fail with.
#[derive(Debug, thiserror::Error)]
pub enum InspectError {
    /// The engine's symbol table lacks a symbol the reader needs.
    #[error("the engine has no symbol {0}")]
    MissingSymbol(&'static str),
    /// The machine faulted.
    #[error("{0}")]
    Run(Box<RunError>),
    /// The engine could not be set up.
    #[error("{0}")]
    Engine(#[from] PortEngineError),
    /// The program stopped in a way a search does not.
    #[error("the engine stopped: {0}")]
    Stopped(StopReason),
    /// What the engine holds does not fit the search the walker follows (a changed source).
    #[error("at ${pc:04X}: {what}")]
    Inconsistent {
        /// Where the machine was.
        pc: u16,
        /// What did not fit.
        what: String,
    },
}

/// The addresses of what a reader looks at, from the engine's symbols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineMap {
    cpu: Cpu,
    board: u16,
    v_side: u16,
    v_castle: u16,
    v_ep: u16,
    v_half: u16,
    v_ply: u16,
    v_iter: u16,
    r_nodes: u16,
    r_score: u16,
    frames: u16,
    /// The 6502's frame pointer in zero page (the Z80's is IX).
    fp: Option<u16>,
    /// The 6502's score register in zero page (the Z80's is HL).
    score: Option<u16>,
    f_alpha: u16,
    f_beta: u16,
    f_flags: u16,
    f_mfrom: u16,
    f_mto: u16,
    f_next: u16,
    null_ok: u8,
    max_ply: u16,
    /// The node entries and the node exit.
    search: u16,
    quiesce: u16,
    node_exit: u16,
    /// A quiescence child entered and left at once, where the build has that shortcut.
    leaf: Option<u16>,
    /// Where a build that keeps such a child's move outside the frame has it at `q_leaf`
    /// (`Q_LEAF_ENTRY`, the Z80's): a word pointing at the move's tactical-list entry (key,
    /// from, to). Without it the move is the frame's `F_MFROM` / `F_MTO`.
    leaf_entry: Option<u16>,
}

/// The board in RAM: the 64 squares in the engine's piece codes and the state beside them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RamBoard {
    /// `squares[8 * rank + file]`: 0 empty, 1-6 White pawn ... king, 9-14 Black (ALGORITHM.md).
    pub squares: Vec<u8>,
    /// Whether White is to move (`V_SIDE`).
    pub white_to_move: bool,
    /// Castling rights, bit 0 White O-O ... bit 3 Black O-O-O.
    pub castling: u8,
    /// En-passant square (0x88), 0x80 for none.
    pub ep: u8,
    /// Halfmove clock.
    pub halfmove: u8,
}

impl RamBoard {
    /// The board as a position, if it is one (in the middle of a move it may not be): FEN
    /// with move number 1, which the engine does not hold.
    pub fn position(&self) -> Result<Position, String> {
        Position::from_fen(&self.fen()).map_err(|e| e.to_string())
    }

    /// The board as FEN (move number 1); squares with codes no piece has come out as `?`.
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = self.squares[8 * rank + file];
                if c == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                let letter = b"?pnbrqk?"[usize::from(c & 7)] as char;
                s.push(match c {
                    1..=6 => letter.to_ascii_uppercase(),
                    9..=14 => letter,
                    _ => '?',
                });
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let castling: String = ["K", "Q", "k", "q"]
            .iter()
            .enumerate()
            .filter(|(i, _)| self.castling & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect();
        let ep = if self.ep & 0x88 == 0 {
            let (f, r) = (self.ep & 7, self.ep >> 4);
            format!("{}{}", (b'a' + f) as char, r + 1)
        } else {
            "-".into()
        };
        format!(
            "{s} {} {} {ep} {} 1",
            if self.white_to_move { "w" } else { "b" },
            if castling.is_empty() { "-" } else { &castling },
            self.halfmove
        )
    }
}

/// One ply of the search path as its frame holds it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlyFrame {
    /// Distance from the root.
    pub ply: usize,
    /// The frame's address.
    pub addr: u16,
    /// The RAM the ply takes: its frame and its move lists (to the next ply's frame; for the
    /// deepest, to where its child's frame would go); `None` while the frame is being entered
    /// (its `F_NEXT` not written yet: no figure the engine produced).
    pub bytes: Option<u16>,
    /// Alpha as the frame holds it now (raised as better moves are found), side to move's view.
    pub alpha: i32,
    /// Beta, side to move's view.
    pub beta: i32,
    /// The bytes of the move being searched at this ply (`from`, `to` with promotion bits);
    /// in the deepest frame possibly a move not yet begun or one left from an earlier node.
    pub move_bytes: [u8; 2],
}

/// The engine's state at a pause.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EngineView {
    /// The PC.
    pub pc: u16,
    /// `ROUTINE+offset` of the PC.
    pub routine: Option<String>,
    /// The ply (`V_PLY`); `None` outside the search (before the root is entered).
    pub ply: Option<usize>,
    /// The iteration running (`V_ITER`).
    pub iteration: u8,
    /// The node counter (`R_NODES`).
    pub nodes: u32,
    /// The board in RAM.
    pub board: RamBoard,
    /// The frames from the root to the current ply.
    pub path: Vec<PlyFrame>,
}

impl EngineMap {
    /// The map of `engine`'s build.
    pub fn of(engine: &PortEngine) -> Result<EngineMap, InspectError> {
        let s = engine.symbols();
        let g = |n: &'static str| s.get(n).ok_or(InspectError::MissingSymbol(n));
        let cpu = engine.port().cpu;
        let z80 = cpu == Cpu::Z80;
        Ok(EngineMap {
            cpu,
            board: g("BOARD")?,
            v_side: g("V_SIDE")?,
            v_castle: g("V_CASTLE")?,
            v_ep: g("V_EP")?,
            v_half: g("V_HALF")?,
            v_ply: g("V_PLY")?,
            v_iter: g("V_ITER")?,
            r_nodes: g("R_NODES")?,
            r_score: g("R_SCORE")?,
            frames: g("FRAMES")?,
            fp: if z80 { None } else { Some(g("FP")?) },
            score: if z80 { None } else { Some(g("SCORE")?) },
            f_alpha: g("F_ALPHA")?,
            f_beta: g("F_BETA")?,
            f_flags: g("F_FLAGS")?,
            f_mfrom: g("F_MFROM")?,
            f_mto: g("F_MTO")?,
            f_next: g("F_NEXT")?,
            // The mask of "a null move may be tried" (the Z80's FL_* are bit numbers).
            null_ok: g(if z80 { "FLM_NULLOK" } else { "FL_NULLOK" })? as u8,
            max_ply: g("MAX_PLY")?,
            search: g("search")?,
            quiesce: g("quiesce")?,
            node_exit: g("node_exit")?,
            leaf: s.get("q_leaf"),
            leaf_entry: s.get("Q_LEAF_ENTRY"),
        })
    }

    /// The node entries (`search`, `quiesce`, `q_leaf`) and the node exit, where a walker
    /// stops.
    pub fn node_stops(&self) -> Vec<u16> {
        [self.search, self.quiesce, self.node_exit]
            .into_iter()
            .chain(self.leaf)
            .collect()
    }

    /// The board in RAM.
    pub fn board(&self, m: &Machine) -> RamBoard {
        let squares = (0..64)
            .map(|i| m.read_byte(self.board + (i / 8) * 16 + i % 8))
            .collect();
        RamBoard {
            squares,
            white_to_move: m.read_byte(self.v_side) == 0,
            castling: m.read_byte(self.v_castle),
            ep: m.read_byte(self.v_ep),
            halfmove: m.read_byte(self.v_half),
        }
    }

    /// The current node's frame: the Z80's IX, the 6502's `FP`.
    pub fn frame_pointer(&self, m: &Machine) -> u16 {
        match (self.fp, m.registers()) {
            (Some(fp), _) => m.read_word(fp),
            (None, Registers::Z80(r)) => r.ix,
            (None, Registers::Mos6502(_)) => unreachable!("a 6502 map has FP"),
        }
    }

    /// The ply (`V_PLY`), `None` before the root is entered (the 6502 holds -1 there).
    pub fn ply(&self, m: &Machine) -> Option<usize> {
        let p = m.read_byte(self.v_ply);
        (u16::from(p) <= self.max_ply).then_some(usize::from(p))
    }

    fn signed(m: &Machine, a: u16) -> i32 {
        i32::from(m.read_word(a) as i16)
    }

    /// The frames from the root (`FRAMES`) to the current ply, each found at its parent's
    /// `F_NEXT` (where the parent put its child's frame).
    pub fn path(&self, m: &Machine) -> Vec<PlyFrame> {
        let Some(ply) = self.ply(m) else {
            return Vec::new();
        };
        let mut path = Vec::new();
        let mut at = self.frames;
        for k in 0..=ply {
            let next = m.read_word(at + self.f_next);
            path.push(PlyFrame {
                ply: k,
                addr: at,
                bytes: (next > at).then(|| next - at),
                alpha: Self::signed(m, at + self.f_alpha),
                beta: Self::signed(m, at + self.f_beta),
                move_bytes: [m.read_byte(at + self.f_mfrom), m.read_byte(at + self.f_mto)],
            });
            if next <= at {
                // Not set up yet (the child is being entered): the path ends here.
                break;
            }
            at = next;
        }
        path
    }

    /// The engine's state now.
    pub fn view(&self, m: &Machine) -> EngineView {
        let pc = m.pc();
        EngineView {
            pc,
            routine: m.symbols().and_then(|s| s.containing(pc)).map(|(n, off)| {
                if off == 0 {
                    n.to_string()
                } else {
                    format!("{n}+{off}")
                }
            }),
            ply: self.ply(m),
            iteration: m.read_byte(self.v_iter),
            nodes: u32::from_le_bytes(m.read_bytes(self.r_nodes, 4).try_into().expect("4")),
            board: self.board(m),
            path: self.path(m),
        }
    }

    /// The score the node ending at `node_exit` backs up: the Z80's HL, the 6502's `SCORE`.
    fn exit_score(&self, m: &Machine) -> Option<i32> {
        match (self.score, m.registers()) {
            (Some(a), _) => Some(Self::signed(m, a)),
            (None, Registers::Z80(r)) => r.main.map(|main| i32::from(main.hl as i16)),
            (None, Registers::Mos6502(_)) => None,
        }
    }
}

/// One node of the 8-bit search, as read from the machine.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LiveNode {
    /// Parent's index (`None` for an iteration's root).
    pub parent: Option<usize>,
    /// The move into it, read from the parent's frame (`Move::NULL` for a null move).
    #[serde(serialize_with = "move_text")]
    pub mv: Option<Move>,
    /// Ply (`V_PLY`).
    pub ply: usize,
    /// Full-width, quiescence or null-move node: which entry the engine took.
    #[serde(serialize_with = "kind_text")]
    pub kind: NodeKind,
    /// Whether White is to move.
    pub white_to_move: bool,
    /// Alpha on entry, from its frame (side to move's view).
    pub alpha: i32,
    /// Beta on entry.
    pub beta: i32,
    /// The value it backed up (side to move's view), once it has returned; `None` while it
    /// searches, or if the search stopped inside it.
    pub score: Option<i32>,
    /// The iteration (`V_ITER`).
    pub iteration: u32,
    /// Cycles of the search when it was entered.
    pub cycles: u64,
    /// Its frame's address.
    pub frame: u16,
}

fn move_text<S: serde::Serializer>(m: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match m {
        None => s.serialize_none(),
        Some(m) if *m == Move::NULL => s.serialize_str("null"),
        Some(m) => s.serialize_str(&m.to_string()),
    }
}

fn kind_text<S: serde::Serializer>(k: &NodeKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match k {
        NodeKind::Search => "search",
        NodeKind::Quiescence => "quiescence",
        NodeKind::Null => "null",
    })
}

/// Where [`NodeWalker::run`] paused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// The budget is spent; run again to go on.
    Running,
    /// The search is over (the engine's host call "done").
    Done,
}

/// Follows an 8-bit search node by node (see the module documentation).
#[derive(Debug, Clone)]
pub struct NodeWalker {
    map: EngineMap,
    root: Position,
    nodes: Vec<LiveNode>,
    /// The open nodes, root first, with their positions.
    open: Vec<(usize, Position)>,
    /// The machine stands at a stop the walker has read.
    at_stop: bool,
    /// Cycles of the machine when the search began.
    start: u64,
    done: bool,
}

impl NodeWalker {
    /// A walker of `engine`'s search of `root`, for a machine that has not begun it.
    pub fn new(engine: &PortEngine, root: &Position, m: &Machine) -> Result<Self, InspectError> {
        Ok(NodeWalker {
            map: EngineMap::of(engine)?,
            root: root.clone(),
            nodes: Vec::new(),
            open: Vec::new(),
            at_stop: false,
            start: m.total_cycles(),
            done: false,
        })
    }

    /// `engine`'s search of `root` (with `history`, as for [`PortEngine::search`]) to `depth`
    /// set up in a machine that shows the registers the walker reads, and its walker.
    pub fn machine(
        engine: &PortEngine,
        root: &Position,
        history: &[u32],
        depth: u32,
    ) -> Result<(NodeWalker, Machine), InspectError> {
        let mut engine = engine.clone();
        if engine.port().cpu == Cpu::Z80 {
            engine.core = CoreKind::RustzxZ80;
        }
        let mut m = engine.search_machine(root, history, depth, None)?;
        m.set_stop_on_iteration(true);
        Ok((NodeWalker::new(&engine, root, &m)?, m))
    }

    /// The nodes so far, in the order the engine entered them (every iteration).
    pub fn nodes(&self) -> &[LiveNode] {
        &self.nodes
    }

    /// The open nodes, root first (the search path, with the moves that lead there).
    pub fn path(&self) -> Vec<&LiveNode> {
        self.open.iter().map(|(i, _)| &self.nodes[*i]).collect()
    }

    /// The indices of the open nodes, root first.
    pub fn path_indices(&self) -> Vec<usize> {
        self.open.iter().map(|(i, _)| *i).collect()
    }

    /// Cycles `m` ran since the search began.
    pub fn cycles(&self, m: &Machine) -> u64 {
        m.total_cycles() - self.start
    }

    /// The position at the node `index` (replayed from the root along the engine's moves).
    pub fn position_at(&self, index: usize) -> Option<Position> {
        let mut path = Vec::new();
        let mut at = Some(index).filter(|&i| i < self.nodes.len());
        while let Some(i) = at {
            path.extend(self.nodes[i].mv);
            at = self.nodes[i].parent;
        }
        let mut p = self.root.clone();
        for &m in path.iter().rev() {
            if m == Move::NULL {
                let _ = p.make_null();
            } else {
                p.play(m);
            }
        }
        (index < self.nodes.len()).then_some(p)
    }

    /// The engine's map.
    pub fn map(&self) -> &EngineMap {
        &self.map
    }

    /// Whether the search is over.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Runs the search on for at most `budget` cycles, reading every node it enters and
    /// leaves. A host without threads calls it again and again (the page's worker, between
    /// two messages).
    pub fn run(&mut self, m: &mut Machine, budget: u64) -> Result<Walk, InspectError> {
        let end = m.total_cycles().saturating_add(budget);
        let stops = self.map.node_stops();
        while !self.done {
            let left = end.saturating_sub(m.total_cycles());
            if left == 0 {
                return Ok(Walk::Running);
            }
            let paused = m
                .run_to_break(left, &stops, self.at_stop)
                .map_err(|e| InspectError::Run(Box::new(e)))?;
            self.at_stop = false;
            match paused {
                Paused::Break { pc } => {
                    self.at_stop = true;
                    self.read_stop(m, pc)?;
                }
                Paused::Budget => return Ok(Walk::Running),
                Paused::Stop(StopReason::HostIteration { .. }) => self.close_root(m),
                Paused::Stop(StopReason::HostDone) => self.done = true,
                Paused::Stop(other) => return Err(InspectError::Stopped(other)),
            }
        }
        Ok(Walk::Done)
    }

    fn inconsistent(m: &Machine, what: String) -> InspectError {
        InspectError::Inconsistent { pc: m.pc(), what }
    }

    /// Reads the node entered or left at the stop `pc`.
    fn read_stop(&mut self, m: &Machine, pc: u16) -> Result<(), InspectError> {
        if pc == self.map.node_exit {
            return self.leave(m);
        }
        if Some(pc) == self.map.leaf {
            return self.leaf(m);
        }
        let map = &self.map;
        let frame = map.frame_pointer(m);
        let ply = map
            .ply(m)
            .ok_or_else(|| Self::inconsistent(m, "a node entered outside the search".into()))?;
        let kind = if pc == map.quiesce {
            NodeKind::Quiescence
        } else if m.read_byte(frame + map.f_flags) & map.null_ok != 0 {
            NodeKind::Search
        } else {
            NodeKind::Null
        };
        if ply != self.open.len() {
            return Err(Self::inconsistent(
                m,
                format!("a node at ply {ply} with {} open", self.open.len()),
            ));
        }
        let (parent, mv, pos) = match self.open.last() {
            None => (None, None, self.root.clone()),
            Some((p, parent_pos)) => {
                let mut pos = parent_pos.clone();
                let mv = if kind == NodeKind::Null {
                    let _ = pos.make_null();
                    Move::NULL
                } else {
                    let at = self.nodes[*p].frame;
                    let (from, to) = (m.read_byte(at + map.f_mfrom), m.read_byte(at + map.f_mto));
                    let mv = protocol_move(&pos, from, to).ok_or_else(|| {
                        Self::inconsistent(
                            m,
                            format!("no legal move {from:02X} {to:02X} in {}", pos.to_fen()),
                        )
                    })?;
                    pos.play(mv);
                    mv
                };
                (Some(*p), Some(mv), pos)
            }
        };
        self.nodes.push(LiveNode {
            parent,
            mv,
            ply,
            kind,
            white_to_move: pos.side() == WHITE,
            alpha: EngineMap::signed(m, frame + map.f_alpha),
            beta: EngineMap::signed(m, frame + map.f_beta),
            score: None,
            iteration: u32::from(m.read_byte(map.v_iter)),
            cycles: m.total_cycles() - self.start,
            frame,
        });
        self.open.push((self.nodes.len() - 1, pos));
        Ok(())
    }

    /// A quiescence child of the node on top of the path that stands pat at once (`q_leaf`):
    /// the move in the node's frame, the node's window negated, and that window's beta backed
    /// up, as the child would have returned it.
    fn leaf(&mut self, m: &Machine) -> Result<(), InspectError> {
        let map = &self.map;
        let frame = map.frame_pointer(m);
        let Some(&(p, ref parent_pos)) = self.open.last() else {
            return Err(Self::inconsistent(m, "a leaf with no node open".into()));
        };
        if self.nodes[p].frame != frame {
            return Err(Self::inconsistent(
                m,
                format!("a leaf of node {p} in frame ${frame:04X}"),
            ));
        }
        let mut pos = parent_pos.clone();
        let (from, to) = match map.leaf_entry {
            Some(at) => {
                let entry = u16::from_le_bytes([m.read_byte(at), m.read_byte(at.wrapping_add(1))]);
                (
                    m.read_byte(entry.wrapping_add(1)),
                    m.read_byte(entry.wrapping_add(2)),
                )
            }
            None => (
                m.read_byte(frame + map.f_mfrom),
                m.read_byte(frame + map.f_mto),
            ),
        };
        let mv = protocol_move(&pos, from, to).ok_or_else(|| {
            Self::inconsistent(
                m,
                format!("no legal move {from:02X} {to:02X} in {}", pos.to_fen()),
            )
        })?;
        pos.play(mv);
        let (alpha, beta) = (
            -EngineMap::signed(m, frame + map.f_beta),
            -EngineMap::signed(m, frame + map.f_alpha),
        );
        self.nodes.push(LiveNode {
            parent: Some(p),
            mv: Some(mv),
            ply: self.open.len(),
            kind: NodeKind::Quiescence,
            white_to_move: pos.side() == WHITE,
            alpha,
            beta,
            score: Some(beta),
            iteration: u32::from(m.read_byte(map.v_iter)),
            cycles: m.total_cycles() - self.start,
            frame: m.read_word(frame + map.f_next),
        });
        Ok(())
    }

    /// The node on top of the path returns its score.
    fn leave(&mut self, m: &Machine) -> Result<(), InspectError> {
        let frame = self.map.frame_pointer(m);
        let Some(&(i, _)) = self.open.last() else {
            return Err(Self::inconsistent(m, "a node left with none open".into()));
        };
        if self.nodes[i].frame != frame {
            return Err(Self::inconsistent(
                m,
                format!("node {i} left in frame ${frame:04X}"),
            ));
        }
        self.nodes[i].score = self.map.exit_score(m);
        self.open.pop();
        Ok(())
    }

    /// An iteration is complete: its root, if still open (the Z80's root returns to the
    /// iteration's driver, not through `node_exit`), backs up `R_SCORE`.
    fn close_root(&mut self, m: &Machine) {
        if let [(i, _)] = self.open[..] {
            self.nodes[i].score = Some(EngineMap::signed(m, self.map.r_score));
            self.open.clear();
        }
    }
}
