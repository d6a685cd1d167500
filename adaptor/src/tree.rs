//! The program's search as a tree, read while it plays its turn: at the points of its code
//! that its adaptor file names (`[tree]`), the machine stops for a moment (a breakpoint the
//! program does not see) and the collector reads the move made, the ply, the value backed up
//! or the cut-off from the program's RAM and registers, into a
//! [`SearchTree`](kempelen_engine::tree::searched::SearchTree), the structure the profiles'
//! trees are recorded in. Its emulated cycles are the program's own: the stops cost host time
//! only.
//!
//! ```toml
//! [tree]
//! neutral = 128               # the program's value for "nothing changed"
//!
//! [[tree.node]]               # a move of the search has been made here
//! at = "FM19"                 # a label, a label with an offset, or an address
//! move = "MLPTRJ"             # a `move` variable: the move
//! ply = "NPLY"                # its ply (1: a move from the root)
//! leaf = false                # the position is evaluated (the end of the look-ahead)
//! when = "STATE != $F9"       # optional: counts only when this is not 0
//!
//! [[tree.value]]              # the value of the node at `ply` is known here
//! at = "FM37"
//! ply = "NPLY"                # 0: the root's
//! value = "reg(A)"
//! view = "to-move"            # whose view: "to-move" at that node (negamax) or "mover"
//!
//! [[tree.cut]]                # a cut-off: the move of `ply` refuted the node above it
//! at = "FM40"
//! ply = "NPLY"
//! value = "reg(A)"            # the refuting move's value (to-move view at it)
//! bound = "byte(word(SCRIX))" # the bound it reached, same view
//! skipped = "REST"            # a `moves` variable: the moves left unsearched
//! ```
//!
//! A node's value arrives once, and closes the node (and any node still open below it, which
//! backed up no value of its own); a value for a ply with no open node (a position without
//! legal moves, valued in place of a move) is not a node's. A move that is
//! not a move of the position the tree has reached there is an error: the tree stops with it
//! (what the adaptor file says does not fit the program).

use kempelen_emulator::{Machine, Paused, RunError, StopReason};
use kempelen_engine::Position;
use kempelen_engine::tree::searched::{Cut, NO_PARENT, SearchTree, tree_move};
use serde::Deserialize;

use crate::description::Adaptor;
use crate::expr::{Expr, Names};
use crate::variables::{MoveLayout, Variable};

/// Most nodes a program's tree keeps unless told otherwise.
pub const TREE_LIMIT: usize = 1_000_000;

/// `[tree]` as the file gives it.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct TreeFile {
    neutral: i64,
    #[serde(default)]
    node: Vec<PointFile>,
    #[serde(default)]
    value: Vec<PointFile>,
    #[serde(default)]
    cut: Vec<PointFile>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct PointFile {
    at: String,
    ply: String,
    #[serde(rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    leaf: bool,
    when: Option<String>,
    value: Option<String>,
    view: Option<String>,
    bound: Option<String>,
    skipped: Option<String>,
}

/// What happens at a point.
#[derive(Clone, Debug)]
enum What {
    Node {
        mv: Box<MoveLayout>,
        leaf: bool,
    },
    Value {
        value: Expr,
        mover: bool,
    },
    Cut {
        value: Expr,
        bound: Expr,
        skipped: Option<Box<Variable>>,
    },
}

#[derive(Clone, Debug)]
struct Point {
    at: u16,
    ply: Expr,
    when: Option<Expr>,
    what: What,
}

/// `[tree]`, resolved.
#[derive(Clone, Debug)]
pub struct TreeSpec {
    neutral: i64,
    points: Vec<Point>,
}

impl TreeSpec {
    /// The addresses where the collector stops the machine.
    pub fn addresses(&self) -> Vec<u16> {
        let mut a: Vec<u16> = self.points.iter().map(|p| p.at).collect();
        a.sort_unstable();
        a.dedup();
        a
    }
}

/// Resolves `[tree]`: addresses through `symbol`, expressions with `names`, moves and skipped
/// lists among the declared `variables`.
pub(crate) fn resolve(
    f: &TreeFile,
    names: &Names,
    variables: &[Variable],
    symbol: &dyn Fn(&str) -> Result<u16, String>,
) -> Result<TreeSpec, String> {
    let expr = |t: &str| Expr::parse(t, names).map_err(|e| e.to_string());
    let var = |n: &str| {
        variables
            .iter()
            .find(|v| v.name == n)
            .ok_or_else(|| format!("no [[variable]] `{n}`"))
    };
    let mut points = Vec::new();
    let groups = [("node", &f.node), ("value", &f.value), ("cut", &f.cut)];
    for (kind, list) in groups {
        for p in list {
            let here = |e: String| format!("[[tree.{kind}]] at `{}`: {e}", p.at);
            let need = |o: &Option<String>, what: &str| {
                o.as_deref()
                    .ok_or_else(|| here(format!("give `{what}`")))
                    .map(String::from)
            };
            let what = match kind {
                "node" => {
                    let name = need(&p.mv, "move")?;
                    let layout = var(&name)
                        .map_err(here)?
                        .layout()
                        .ok_or_else(|| here(format!("`{name}` is not a `move` variable")))?;
                    What::Node {
                        mv: Box::new(layout.clone()),
                        leaf: p.leaf,
                    }
                }
                "value" => What::Value {
                    value: expr(&need(&p.value, "value")?).map_err(here)?,
                    mover: match p.view.as_deref() {
                        None | Some("to-move") => false,
                        Some("mover") => true,
                        Some(v) => return Err(here(format!("view = `{v}` (to-move, mover)"))),
                    },
                },
                _ => What::Cut {
                    value: expr(&need(&p.value, "value")?).map_err(here)?,
                    bound: expr(&need(&p.bound, "bound")?).map_err(here)?,
                    skipped: p
                        .skipped
                        .as_deref()
                        .map(|n| {
                            var(n).map_err(here).and_then(|v| {
                                v.is_moves()
                                    .then(|| Box::new(v.clone()))
                                    .ok_or_else(|| here(format!("`{n}` is not a `moves` variable")))
                            })
                        })
                        .transpose()?,
                },
            };
            points.push(Point {
                at: symbol(&p.at).map_err(here)?,
                ply: expr(&p.ply).map_err(here)?,
                when: p.when.as_deref().map(expr).transpose().map_err(here)?,
                what,
            });
        }
    }
    if points.is_empty() {
        return Err("[tree]: no [[tree.node]]".into());
    }
    Ok(TreeSpec {
        neutral: f.neutral,
        points,
    })
}

/// Why the tree stopped growing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// The adaptor file has no `[tree]`.
    #[error("{0}: its adaptor file says nothing of its search tree (no [tree])")]
    NotDescribed(String),
    /// What the adaptor file says does not fit what the program does.
    #[error("after {cycles} cycles of the turn, at ${pc:04X}: {message}")]
    Lost {
        /// The turn's cycles.
        cycles: u64,
        /// Where.
        pc: u16,
        /// What did not fit.
        message: String,
    },
    /// The machine stopped or faulted.
    #[error("{0}")]
    Machine(String),
}

/// The tree being read from a running program.
pub struct TreeCollector {
    spec: TreeSpec,
    /// The adaptor's counters (`[[count]]`), read in expressions.
    counters: Vec<crate::variables::Counter>,
    tree: SearchTree,
    /// The open node of each ply, with its position.
    path: Vec<(u32, Position)>,
    /// The last node closed at each ply (the refuting move of a cut-off that follows).
    closed: Vec<u32>,
    program_black: bool,
    /// The turn's cycles at its start (the machine's total).
    start: u64,
    /// The last pause was at a point, at the PC: running on lets its instruction run.
    at_point: bool,
}

/// How a slice of collecting ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collecting {
    /// The budget is spent; the turn goes on.
    Running,
    /// The program waits for input again: its turn is over.
    Done,
}

impl TreeCollector {
    /// A collector for `adaptor`'s program whose turn begins on `m` now, in `root`.
    pub fn new(
        adaptor: &Adaptor,
        m: &Machine,
        root: &Position,
        limit: usize,
    ) -> Result<TreeCollector, TreeError> {
        let spec = adaptor
            .tree_spec()
            .cloned()
            .ok_or_else(|| TreeError::NotDescribed(adaptor.name.clone()))?;
        Ok(TreeCollector {
            spec,
            counters: adaptor.counters().to_vec(),
            tree: SearchTree::new(root.clone(), limit),
            path: vec![(0, root.clone())],
            closed: Vec::new(),
            program_black: root.side() != kempelen_engine::piece::WHITE,
            start: m.total_cycles(),
            at_point: false,
        })
    }

    /// The tree so far.
    pub fn tree(&self) -> &SearchTree {
        &self.tree
    }

    /// The tree, taken.
    pub fn into_tree(self) -> SearchTree {
        self.tree
    }

    /// The open nodes, the root first.
    pub fn path(&self) -> Vec<u32> {
        self.path.iter().map(|(i, _)| *i).collect()
    }

    /// Runs the program's turn on for at most `budget` cycles, reading the tree at its points.
    pub fn run(&mut self, m: &mut Machine, budget: u64) -> Result<Collecting, TreeError> {
        let end = m.total_cycles().saturating_add(budget.max(1));
        let points = self.spec.addresses();
        loop {
            let left = end.saturating_sub(m.total_cycles());
            if left == 0 {
                return Ok(Collecting::Running);
            }
            let paused = m
                .run_to_break(left, &points, self.at_point)
                .map_err(|e: RunError| TreeError::Machine(e.to_string()))?;
            self.at_point = false;
            match paused {
                Paused::Break { pc } => {
                    self.at(m, pc)?;
                    self.at_point = true;
                }
                Paused::Budget => return Ok(Collecting::Running),
                Paused::Stop(StopReason::InputWait { .. }) => return Ok(Collecting::Done),
                Paused::Stop(s) => {
                    return Err(TreeError::Machine(format!(
                        "the program stopped ({s}) during its turn"
                    )));
                }
            }
        }
    }

    fn lost(&self, m: &Machine, message: String) -> TreeError {
        TreeError::Lost {
            cycles: m.total_cycles() - self.start,
            pc: m.pc(),
            message,
        }
    }

    /// The points at `pc`, in the order the file gives them.
    fn at(&mut self, machine: &Machine, pc: u16) -> Result<(), TreeError> {
        let points: Vec<Point> = self
            .spec
            .points
            .iter()
            .filter(|p| p.at == pc)
            .cloned()
            .collect();
        let counters = crate::variables::count_values(&self.counters, machine);
        let m = &crate::expr::WithCounters {
            machine,
            counters: &counters,
        };
        for p in points {
            let ev = |e: &Expr| e.eval(m).map_err(|e| self.lost(machine, e.to_string()));
            if let Some(w) = &p.when {
                if ev(w)? == 0 {
                    continue;
                }
            }
            let ply = ev(&p.ply)?;
            if !(0..=255).contains(&ply) {
                return Err(self.lost(machine, format!("ply {ply} (`{}`)", p.ply.text())));
            }
            match &p.what {
                What::Node { mv, leaf } => self.node(machine, m, ply as usize, mv, *leaf)?,
                What::Value { value, mover } => {
                    let raw = ev(value)?;
                    self.value(ply as usize, raw, *mover);
                }
                What::Cut {
                    value,
                    bound,
                    skipped,
                } => {
                    let (v, b) = (ev(value)?, ev(bound)?);
                    self.cut(machine, m, ply as usize, v, b, skipped.as_deref())?;
                }
            }
        }
        Ok(())
    }

    /// A move of ply `p` made.
    fn node(
        &mut self,
        machine: &Machine,
        m: &dyn crate::expr::Machineish,
        p: usize,
        mv: &MoveLayout,
        leaf: bool,
    ) -> Result<(), TreeError> {
        if p == 0 || p > self.path.len() {
            return Err(self.lost(
                machine,
                format!(
                    "a move of ply {p}, and the tree is open to ply {}",
                    self.path.len() - 1
                ),
            ));
        }
        self.path.truncate(p);
        let (parent, pos) = self.path[p - 1].clone();
        let e = mv
            .current(m, self.program_black)
            .map_err(|e| self.lost(machine, e))?
            .ok_or_else(|| self.lost(machine, "the move variable names no move".into()))?;
        let black = mv
            .black(m, self.program_black)
            .map_err(|e| self.lost(machine, e))?;
        let squares = mv
            .squares
            .decode(e.from, black)
            .zip(mv.squares.decode(e.to, black));
        let made = squares.and_then(|(f, t)| {
            let (f, t) = (
                kempelen_engine::square::parse(&f)?,
                kempelen_engine::square::parse(&t)?,
            );
            tree_move(&pos, f, t)
        });
        let Some(made) = made else {
            return Err(self.lost(
                machine,
                format!(
                    "the move ${:02X}-${:02X} at ply {p} is no move of {}",
                    e.from,
                    e.to,
                    pos.to_fen()
                ),
            ));
        };
        let cycles = machine.total_cycles() - self.start;
        let i = if parent == NO_PARENT {
            None
        } else {
            self.tree.push(parent, made, leaf, cycles)
        };
        let mut next = pos;
        next.play(made);
        self.path.push((i.unwrap_or(NO_PARENT), next));
        Ok(())
    }

    /// The program's number `raw` as a tree value, side to move's view at the node (`mover`:
    /// the number is the other side's).
    fn tree_value(&self, raw: i64, mover: bool) -> i16 {
        let v = (raw - self.spec.neutral).clamp(-32767, 32767) as i16;
        if mover { -v } else { v }
    }

    /// The value of the node at ply `p` (0: the root) known.
    fn value(&mut self, p: usize, raw: i64, mover: bool) {
        let v = self.tree_value(raw, mover);
        let raw = u16::try_from(raw).ok();
        if p == 0 {
            self.tree.set_value(0, v, raw);
            return;
        }
        // No node open at this ply: a value in place of a move (a position without legal
        // moves), not a node's. Nodes open below it backed up no value of their own.
        if self.path.len() < p + 1 {
            return;
        }
        self.path.truncate(p + 1);
        let (i, _) = self.path[p];
        if i != NO_PARENT {
            self.tree.set_value(i, v, raw);
        }
        if self.closed.len() <= p {
            self.closed.resize(p + 1, NO_PARENT);
        }
        self.closed[p] = i;
        self.path.truncate(p);
    }

    /// A cut-off: the move of ply `p` (value `v`) reached the bound `b`; the node above it
    /// leaves its other moves.
    fn cut(
        &mut self,
        machine: &Machine,
        m: &dyn crate::expr::Machineish,
        p: usize,
        v: i64,
        b: i64,
        skipped: Option<&Variable>,
    ) -> Result<(), TreeError> {
        if p == 0 || p > self.path.len() {
            return Err(self.lost(machine, format!("a cut-off at ply {p}")));
        }
        self.path.truncate(p);
        let (node, pos) = &self.path[p - 1];
        if *node == NO_PARENT {
            return Ok(());
        }
        let by = self
            .closed
            .get(p)
            .copied()
            .filter(|&c| c != NO_PARENT && self.tree.nodes[c as usize].parent == *node);
        let moves = match skipped {
            Some(var) => var
                .moves_now(m, self.program_black)
                .map_err(|e| self.lost(machine, e))?,
            None => Vec::new(),
        };
        let legal = pos.legal_moves();
        let skipped = moves
            .iter()
            .filter_map(|(f, t)| {
                let mv = tree_move(pos, *f, *t)?;
                legal.contains(mv).then_some(mv)
            })
            .collect();
        self.tree.cuts.push(Cut {
            node: *node,
            by,
            value: self.tree_value(v, false),
            bound: self.tree_value(b, false),
            skipped,
        });
        Ok(())
    }
}

/// A program's turn run to collect its search tree: the program set up as for a game
/// ([`Session::open`]), its turn run slice by slice, the tree read at its points. A host
/// without threads (a page's Web Worker) calls [`TreeRun::advance`] between its messages.
pub struct TreeRun {
    session: crate::session::Session,
    collector: TreeCollector,
    done: bool,
}

impl TreeRun {
    /// The program of `adaptor` set up in `game` at `depth` (its level), its turn not begun;
    /// the tree holds at most `limit` nodes.
    pub fn open(
        adaptor: std::sync::Arc<Adaptor>,
        game: &kempelen_engine::Game,
        depth: Option<u32>,
        limit: usize,
    ) -> Result<TreeRun, TreeError> {
        if adaptor.tree_spec().is_none() {
            return Err(TreeError::NotDescribed(adaptor.name.clone()));
        }
        let session = crate::session::Session::open_on(adaptor, game, depth, false)
            .map_err(|e| TreeError::Machine(e.to_string()))?;
        let collector =
            TreeCollector::new(session.adaptor(), session.machine(), game.position(), limit)?;
        Ok(TreeRun {
            session,
            collector,
            done: false,
        })
    }

    /// Runs the turn on for at most `budget` cycles: whether it is over.
    pub fn advance(&mut self, budget: u64) -> Result<bool, TreeError> {
        if !self.done {
            let r = self.collector.run(self.session.machine_mut(), budget)?;
            self.done = r == Collecting::Done;
        }
        Ok(self.done)
    }

    /// Runs the whole turn (within the adaptor's turn budget).
    pub fn finish(mut self) -> Result<(SearchTree, u64, String), TreeError> {
        let budget = self.session.adaptor().turn_budget;
        while !self.advance(1 << 24)? {
            if self.cycles() >= budget {
                return Err(TreeError::Machine(format!(
                    "no answer within the turn's budget of {budget} cycles"
                )));
            }
        }
        let cycles = self.cycles();
        let printed = self.session.printed().to_string();
        Ok((self.collector.into_tree(), cycles, printed))
    }

    /// The tree so far.
    pub fn tree(&self) -> &SearchTree {
        self.collector.tree()
    }

    /// The open nodes, the root first.
    pub fn path(&self) -> Vec<u32> {
        self.collector.path()
    }

    /// The turn's cycles so far.
    pub fn cycles(&self) -> u64 {
        self.session.cycles()
    }

    /// Whether the turn is over.
    pub fn done(&self) -> bool {
        self.done
    }

    /// The session (the program, its game, its level).
    pub fn session(&self) -> &crate::session::Session {
        &self.session
    }
}
