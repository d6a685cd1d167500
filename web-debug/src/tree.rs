//! The program's search tree beside its profile's: the positions the program reaches while it
//! plays its turn (each move made by the routine its adaptor file names, with the ply) and the
//! values it backs up ([`kempelen_adaptor::tree`]), collected a slice of cycles at a time,
//! then set against the tree of its profile (the Rust re-creation) at the same level, node
//! by node ([`kempelen_engine::tree::searched::compare`]): a move one tries and the other does
//! not, another value, another order is marked on the node. The nodes go to the page in the
//! shape its tree widget draws (lazily: a node's children only when it is opened).

use std::sync::Arc;

use kempelen_adaptor::tree::TreeRun;
use kempelen_engine::tree::searched::{Mark, NO_PARENT, SearchTree, View, compare};
use serde::Serialize;

use crate::{DebugError, OpenSpec, adaptor_of, game_of, program};

/// The most nodes a tree keeps in the page.
pub const PAGE_TREE_LIMIT: usize = 200_000;

/// A node as the page's tree widget draws it.
#[derive(Debug, Clone, Serialize)]
pub struct PageNode {
    /// The parent's index (`None`: the root).
    pub parent: Option<u32>,
    /// The move into it (coordinates) and in SAN.
    pub mv: Option<String>,
    /// In SAN.
    pub san: Option<String>,
    /// Plies from the root.
    pub ply: u8,
    /// `leaf` (evaluated at the end of the look-ahead) or `node`.
    pub kind: &'static str,
    /// White to move here.
    pub white: bool,
    /// The value backed up, the side to move's view.
    pub score: Option<i16>,
    /// The program's own number for it.
    pub raw: Option<u16>,
    /// The turn's cycles when the program entered it.
    pub cycles: u64,
    /// A cut-off here: what it left unsearched and why (the side to move's view, White's).
    pub note: Option<[String; 2]>,
    /// Whether it is a cut-off.
    pub cutoff: bool,
    /// Against the other tree: `=` the same, `~V` another value (the other's), `<K>` another
    /// rank, `+` the other does not try this move.
    pub mark: String,
    /// The root's label.
    pub label: Option<String>,
}

/// One of the two trees.
#[derive(Debug, Clone, Serialize)]
pub struct PageTree {
    /// What it is.
    pub title: String,
    /// Nodes entered past the limit (not kept).
    pub not_kept: u64,
    /// The nodes in visit order.
    pub nodes: Vec<PageNode>,
}

/// The two trees and how far they agree.
#[derive(Debug, Clone, Serialize)]
pub struct Trees {
    /// The program's.
    pub program: PageTree,
    /// Its profile's, at the same level (`None`: the profile plays from its book here).
    pub profile: Option<PageTree>,
    /// The program's nodes the profile visits in the same order with the same value.
    pub agree: usize,
    /// The program's nodes the profile's tree has at all.
    pub found: usize,
    /// The turn's cycles.
    pub cycles: u64,
    /// What the program printed.
    pub printed: String,
}

/// A program's turn with its tree collected, advanced a slice at a time.
pub struct TreeJob {
    run: Option<TreeRun>,
    profile: Option<kempelen_engine::history::TreeProfile>,
    game: kempelen_engine::Game,
    name: String,
}

impl TreeJob {
    /// The program of `spec` from the picked files, its turn not begun.
    pub fn open(spec: &OpenSpec, picked: &[(String, Vec<u8>)]) -> Result<TreeJob, DebugError> {
        let p = program(&spec.program)?;
        let game = game_of(spec.fen.as_deref(), &spec.moves)?;
        let (adaptor, _) = adaptor_of(p, picked)?;
        let profile = adaptor.profile();
        let name = adaptor.name().to_string();
        let run = TreeRun::open(Arc::new(adaptor), &game, spec.depth, PAGE_TREE_LIMIT)
            .map_err(|e| DebugError::Setup(e.to_string()))?;
        Ok(TreeJob {
            run: Some(run),
            profile,
            game,
            name,
        })
    }

    /// Runs the turn on for at most `budget` cycles: whether it is over.
    pub fn advance(&mut self, budget: u64) -> Result<bool, DebugError> {
        let run = self.run.as_mut().expect("advanced before it is finished");
        run.advance(budget)
            .map_err(|e| DebugError::Session(e.to_string()))
    }

    /// Nodes so far, and the turn's cycles.
    pub fn progress(&self) -> (usize, u64) {
        self.run
            .as_ref()
            .map_or((0, 0), |r| (r.tree().nodes.len(), r.cycles()))
    }

    /// The nodes the program has entered from the `from`th on, as they stand now (a value not
    /// yet backed up is `None`): the tree drawn while it grows.
    pub fn nodes_from(&self, from: usize) -> Vec<PageNode> {
        let Some(run) = &self.run else {
            return Vec::new();
        };
        let t = run.tree();
        (from..t.nodes.len())
            .map(|i| page_node(t, i, None, String::new()))
            .collect()
    }

    /// The trees, once the turn is over.
    pub fn finish(&mut self) -> Result<Trees, DebugError> {
        let run = self.run.take().expect("finished once");
        let level = run.session().level();
        let (tree, cycles, printed) = run
            .finish()
            .map_err(|e| DebugError::Session(e.to_string()))?;
        let at = level.map(|l| format!(" at level {l}")).unwrap_or_default();
        let other = self.profile.and_then(|p| {
            kempelen_engine::history::profile_tree(p, &self.game, level, PAGE_TREE_LIMIT)
                .map(|t| (t, format!("the {} profile{at}", p.name())))
        });
        let (agree, found, marks) = match &other {
            Some((t, _)) => {
                let c = compare(&tree, t);
                let d = compare(t, &tree);
                (c.agree, c.found, Some((c.program, d.program)))
            }
            None => (0, 0, None),
        };
        let program = page_tree(
            &tree,
            format!("{}{at}", self.name),
            marks.as_ref().map(|m| m.0.as_slice()),
        );
        let profile =
            other.map(|(t, title)| page_tree(&t, title, marks.as_ref().map(|m| m.1.as_slice())));
        Ok(Trees {
            program,
            profile,
            agree,
            found,
            cycles,
            printed,
        })
    }
}

/// A tree's nodes for the page, each with its mark against the other tree.
fn page_tree(t: &SearchTree, title: String, marks: Option<&[Mark]>) -> PageTree {
    let mut notes: Vec<Option<[String; 2]>> = vec![None; t.nodes.len()];
    for c in &t.cuts {
        notes[c.node as usize] = Some([t.cut_note(c, View::ToMove), t.cut_note(c, View::White)]);
    }
    let nodes = notes
        .into_iter()
        .enumerate()
        .map(|(i, note)| {
            let mark = marks.map(|m| m[i].symbol()).unwrap_or_default();
            page_node(t, i, note, mark)
        })
        .collect();
    PageTree {
        title,
        not_kept: t.truncated,
        nodes,
    }
}

/// Node `i` of `t` for the page.
fn page_node(t: &SearchTree, i: usize, note: Option<[String; 2]>, mark: String) -> PageNode {
    let n = &t.nodes[i];
    let root = n.parent == NO_PARENT;
    PageNode {
        parent: (!root).then_some(n.parent),
        mv: (!root).then(|| n.mv.to_uci()),
        san: (!root).then(|| t.position(n.parent).san(n.mv)),
        ply: n.ply,
        kind: if n.leaf { "leaf" } else { "node" },
        white: n.white_to_move,
        score: n.value,
        raw: n.raw,
        cycles: n.cycles,
        cutoff: note.is_some(),
        note,
        mark,
        label: root.then(|| "the root".to_string()),
    }
}
