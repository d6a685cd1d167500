//! A historical program's search tree drawn the way `kempelen tree` draws the profiles'
//! (text, SVG, JSON): the tree the real program visits in the emulator, or its profile's, each
//! node marked against the other tree where they differ (a move one tries and the other does
//! not, another value, another order), every cut-off with what it skipped and why.

use kempelen_engine::tree::TraceNode;
use kempelen_engine::tree::lesson::{Bound, NodeKind};
use kempelen_engine::tree::searched::{Comparison, Mark, NO_PARENT, SearchTree, View};
use std::fmt::Write as _;

use crate::tree::{Look, MAX_DRAWN, TreeError, svg_nodes};

/// Most nodes of a program's tree printed as text.
pub const MAX_TEXT: usize = 20_000;

/// A program's tree as drawn: what it is, whose view its values are in, and its marks
/// against another tree.
pub struct ProgramDrawing<'a> {
    /// The tree.
    pub tree: &'a SearchTree,
    /// What it is (`Sargon 1978 at look-ahead 2`).
    pub title: String,
    /// What its values are (`Sargon's score byte less 128: 4 per pawn`).
    pub units: String,
    /// Whose view the values are shown in.
    pub view: View,
    /// Its marks against the other tree, and what the other tree is.
    pub marks: Option<(&'a [Mark], String)>,
}

/// The legend of the marks and signs.
pub fn legend(other: &str) -> String {
    format!(
        "[n] = visit order; max = White to move, min = Black to move; leaf = evaluated at the end of the look-ahead; // = a cut-off: what it left unsearched and the bound that refuted it. Against {other}: = same place, same value; ~v another value (its v); <k> another rank among the siblings (its k-th); + {other} does not try this move"
    )
}

fn value_of(tree: &SearchTree, i: u32, view: View) -> String {
    match tree.value_in(i, view) {
        Some(v) => format!("{v:+}"),
        None => "-".into(),
    }
}

/// The tree as indented text (at most [`MAX_TEXT`] nodes).
pub fn text(d: &ProgramDrawing) -> String {
    let t = d.tree;
    let mut s = String::new();
    let view = match d.view {
        View::White => "White's view",
        View::ToMove => "the side to move's view",
    };
    let _ = writeln!(
        s,
        "{}: {} nodes{}, {} evaluated, {} cut-offs; value {} ({view}; {})",
        d.title,
        t.nodes.len(),
        if t.truncated > 0 {
            format!(" kept ({} more not kept)", t.truncated)
        } else {
            String::new()
        },
        t.nodes.iter().filter(|n| n.leaf).count(),
        t.cuts.len(),
        value_of(t, 0, d.view),
        d.units
    );
    let other = d
        .marks
        .as_ref()
        .map_or("the other tree", |(_, o)| o.as_str());
    let _ = writeln!(s, "{}", legend(other));
    let children = t.children();
    let mut printed = 0usize;
    /// What is left to print, depth first: a node (prefix, last among its siblings) or a
    /// cut-off's line, printed after the node's children.
    enum Item {
        Node(u32, String, bool),
        Line(String),
    }
    let mut stack = vec![Item::Node(0, String::new(), true)];
    while let Some(item) = stack.pop() {
        let (i, prefix, last) = match item {
            Item::Line(line) => {
                let _ = writeln!(s, "{line}");
                continue;
            }
            Item::Node(i, prefix, last) => (i, prefix, last),
        };
        if printed >= MAX_TEXT {
            let _ = writeln!(s, "... {} more nodes (use --json)", t.nodes.len() - printed);
            break;
        }
        printed += 1;
        let n = &t.nodes[i as usize];
        let root = n.parent == NO_PARENT;
        let branch = match (root, last) {
            (true, _) => "",
            (false, true) => "\u{2514}\u{2500} ",
            (false, false) => "\u{251c}\u{2500} ",
        };
        let mv = if root {
            String::new()
        } else {
            format!("{} ", t.position(n.parent).san(n.mv))
        };
        let mark = d
            .marks
            .as_ref()
            .map(|(m, _)| format!(" {}", m[i as usize].symbol()))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "{prefix}{branch}{mv}[{}] {} {}{}{mark}",
            i + 1,
            if n.white_to_move { "max" } else { "min" },
            value_of(t, i, d.view),
            if n.leaf { " leaf" } else { "" },
        );
        let child_prefix = match (root, last) {
            (true, _) => String::new(),
            (false, true) => format!("{prefix}   "),
            (false, false) => format!("{prefix}\u{2502}  "),
        };
        let cut = t.cut_at(i);
        if let Some(c) = cut {
            stack.push(Item::Line(format!(
                "{child_prefix}\u{2514}\u{2500} // {}",
                t.cut_note(c, d.view)
            )));
        }
        let ch = children.of(i);
        for (k, &c) in ch.iter().enumerate().rev() {
            let last = k + 1 == ch.len() && cut.is_none();
            stack.push(Item::Node(c, child_prefix.clone(), last));
        }
    }
    s
}

/// The tree as the trace `kempelen tree` draws, with each node's value text in `view` and
/// its mark.
fn trace_of(d: &ProgramDrawing) -> (Vec<TraceNode>, Look) {
    let t = d.tree;
    let children = t.children();
    let trace: Vec<TraceNode> = t
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let cut = t.cut_at(i as u32);
            TraceNode {
                parent: (n.parent != NO_PARENT).then_some(n.parent as usize),
                mv: (n.parent != NO_PARENT).then_some(n.mv),
                ply: usize::from(n.ply),
                white_to_move: n.white_to_move,
                kind: NodeKind::Search,
                value: i32::from(t.value_in(i as u32, View::White).unwrap_or(0)),
                score: i32::from(n.value.unwrap_or(0)),
                alpha: 0,
                beta: 0,
                iteration: 0,
                bound: Bound::Exact,
                evaluated: n.leaf,
                cutoff: cut.is_some(),
                skipped: cut.map(|c| c.skipped.clone()).unwrap_or_default(),
                children: children.of(i as u32).iter().map(|&c| c as usize).collect(),
                pv: false,
            }
        })
        .collect();
    let look = Look {
        values: Some(
            (0..t.nodes.len() as u32)
                .map(|i| value_of(t, i, d.view))
                .collect(),
        ),
        marks: d.marks.as_ref().map(|(m, _)| {
            m.iter()
                .map(|&m| match m {
                    Mark::Same => None,
                    Mark::Value(_) => Some(("differs-value", "~", "#c0392b")),
                    Mark::Order(_) => Some(("differs-order", "<>", "#1f618d")),
                    Mark::Missing => Some(("differs-missing", "+", "#d35400")),
                })
                .collect()
        }),
        cut_notes: Some(
            (0..t.nodes.len() as u32)
                .map(|i| t.cut_at(i).map(|c| t.cut_note(c, d.view)))
                .collect(),
        ),
    };
    (trace, look)
}

/// The tree as SVG (at most [`MAX_DRAWN`] nodes).
pub fn svg(d: &ProgramDrawing) -> Result<String, TreeError> {
    if d.tree.nodes.len() > MAX_DRAWN {
        return Err(TreeError::TooManyDrawn(d.tree.nodes.len()));
    }
    let (trace, look) = trace_of(d);
    let other = d
        .marks
        .as_ref()
        .map_or("the other tree", |(_, o)| o.as_str());
    let lines = [
        format!(
            "{} nodes in visit order, {} evaluated, {} cut-offs (struck with //: hover for what they skipped and why); values: {}.",
            d.tree.nodes.len(),
            d.tree.nodes.iter().filter(|n| n.leaf).count(),
            d.tree.cuts.len(),
            match d.view {
                View::White => "White's view",
                View::ToMove => "the side to move's view",
            }
        ),
        format!(
            "Boxes: White to move (max), ellipses: Black to move (min); {}.",
            d.units
        ),
        format!(
            "Marks against {other}: ~ another value, <> another order, + {other} does not try this move."
        ),
    ];
    Ok(svg_nodes(&trace, &d.title, &lines, &look))
}

/// The tree as JSON: a summary, every node (number, parent, move, SAN, ply, side, value in
/// both views, the program's own number, cycles, leaf, mark) and every cut-off with its note.
pub fn json(d: &ProgramDrawing, comparison: Option<&Comparison>) -> serde_json::Value {
    let t = d.tree;
    let nodes: Vec<serde_json::Value> = t
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let root = n.parent == NO_PARENT;
            serde_json::json!({
                "number": i + 1,
                "parent": (!root).then(|| n.parent + 1),
                "move": (!root).then(|| n.mv.to_uci()),
                "san": (!root).then(|| t.position(n.parent).san(n.mv)),
                "ply": n.ply,
                "max": n.white_to_move,
                "value": n.value,
                "value_white": t.value_in(i as u32, View::White),
                "raw": n.raw,
                "leaf": n.leaf,
                "cycles": n.cycles,
                "mark": d.marks.as_ref().map(|(m, _)| m[i].symbol()),
            })
        })
        .collect();
    let cuts: Vec<serde_json::Value> = t
        .cuts
        .iter()
        .map(|c| {
            serde_json::json!({
                "node": c.node + 1,
                "by": c.by.map(|b| b + 1),
                "value": c.value,
                "bound": c.bound,
                "skipped": c.skipped.iter().map(|m| m.to_uci()).collect::<Vec<_>>(),
                "note": t.cut_note(c, View::ToMove),
                "note_white": t.cut_note(c, View::White),
            })
        })
        .collect();
    serde_json::json!({
        "title": d.title,
        "units": d.units,
        "fen": t.root.to_fen(),
        "nodes": t.nodes.len(),
        "not_kept": t.truncated,
        "evaluated": t.nodes.iter().filter(|n| n.leaf).count(),
        "cutoffs": t.cuts.len(),
        "value": t.nodes[0].value,
        "comparison": comparison.map(|c| serde_json::json!({
            "agree": c.agree, "found": c.found, "program_nodes": c.program_nodes,
            "other": d.marks.as_ref().map(|(_, o)| o.clone()),
        })),
        "tree": nodes,
        "cuts": cuts,
    })
}

/// SVG documents one under the other in one document (a program's tree above its profile's).
pub fn stacked(svgs: &[String]) -> String {
    let size = |s: &str, attr: &str| -> f64 {
        let key = format!(" {attr}=\"");
        s.find(&key)
            .and_then(|i| {
                let rest = &s[i + key.len()..];
                rest[..rest.find('"')?].parse().ok()
            })
            .unwrap_or(0.0)
    };
    if let [one] = svgs {
        return one.clone();
    }
    let width = svgs.iter().map(|s| size(s, "width")).fold(0.0, f64::max);
    let height: f64 = svgs.iter().map(|s| size(s, "height")).sum();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\">\n"
    );
    let mut y = 0.0;
    for s in svgs {
        out.push_str(&s.replacen("<svg ", &format!("<svg y=\"{y:.0}\" "), 1));
        y += size(s, "height");
    }
    out.push_str("</svg>\n");
    out
}
