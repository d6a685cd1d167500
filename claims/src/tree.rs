//! The tree a search visits, drawn as text, SVG or JSON (`kempelen tree`).
//!
//! Nodes are numbered in the order the search enters them; White-to-move nodes (max nodes,
//! values from White's point of view) are boxes, Black-to-move nodes (min nodes) ellipses, as
//! in C. Zwerschke's "Tartan" article (TOS 1/1991), whose figure of a search tree was lost; the
//! default reproduces it: depth 4, two moves per node, from the start position with the moves
//! the article names (1.e4, then Nc3 and Nf3, then ...Nc6 and ...Nf6 after Nc3 and ...d6 after
//! Nf3). The article does not name Black's first reply; Kempelen takes 1...e5, the only reply
//! after which all of the article's moves are legal and the position after 1.e4 e5 2.Nc3 Nc6
//! is symmetric (the article gives it the value 0).

use kempelen_engine::tree::lesson::{Bound, LessonResult, NodeKind};
use kempelen_engine::tree::{Algorithm, Lesson, LessonConfig, TraceNode};
use kempelen_engine::{Move, Position};
use std::fmt::Write as _;

/// The forced move orders of the Tartan figure: (moves from the root, moves searched first).
pub const TARTAN: &[(&str, &str)] = &[
    ("", "e2e4"),
    ("e2e4", "e7e5"),
    ("e2e4 e7e5", "b1c3 g1f3"),
    ("e2e4 e7e5 b1c3", "b8c6 g8f6"),
    ("e2e4 e7e5 g1f3", "d7d6"),
];

/// Largest tree drawn.
pub const MAX_DRAWN: usize = 4000;
/// Largest search run for a drawing (all iterations).
pub const MAX_SEARCHED: u64 = 200_000;

/// Why a tree cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// A move order that does not parse or names an illegal move.
    #[error("{0}")]
    Order(String),
    /// The search needs more than [`MAX_SEARCHED`] nodes.
    #[error("the search needs more than {MAX_SEARCHED} nodes")]
    TooManySearched,
    /// The tree has more than [`MAX_DRAWN`] nodes.
    #[error("the tree has {0} nodes, more than the {MAX_DRAWN} a drawing can show")]
    TooManyDrawn(usize),
}

/// A search drawn: its configuration and result.
pub struct Drawn {
    /// The root.
    pub position: Position,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The depth in plies.
    pub depth: u32,
    /// Moves searched per node (`None`: all).
    pub width: Option<usize>,
    /// The search and its trace.
    pub result: LessonResult,
}

fn parse_line(pos: &Position, text: &str, what: &str) -> Result<Vec<Move>, TreeError> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for t in text.split_whitespace() {
        let m = p
            .parse_uci(t)
            .map_err(|e| TreeError::Order(format!("{what}: move '{t}': {e}")))?;
        p.play(m);
        out.push(m);
    }
    Ok(out)
}

/// A forced move order: the moves from the root to a node, and the moves searched first there.
pub type Order = (Vec<Move>, Vec<Move>);

/// Parses a move order written `PATH: MOVES` (both UCI moves separated by spaces; `:` alone or
/// `: e2e4` for the root), checking every move where it is played. `label` names the order in
/// errors (`--order` on the command line).
pub fn parse_order(pos: &Position, spec: &str, label: &str) -> Result<Order, TreeError> {
    let what = format!("{label} '{spec}'");
    let Some((path, moves)) = spec.split_once(':') else {
        return Err(TreeError::Order(format!(
            "{what}: expected 'PATH: MOVES' (a colon between the two move lists)"
        )));
    };
    let path_moves = parse_line(pos, path, &format!("{what}, path"))?;
    let mut at = pos.clone();
    for &m in &path_moves {
        at.play(m);
    }
    let mut first = Vec::new();
    for t in moves.split_whitespace() {
        first
            .push(at.parse_uci(t).map_err(|e| {
                TreeError::Order(format!("{what}: move '{t}' after the path: {e}"))
            })?);
    }
    if first.is_empty() {
        return Err(TreeError::Order(format!(
            "{what}: no moves after the colon"
        )));
    }
    Ok((path_moves, first))
}

/// The move orders of the Tartan figure, parsed.
pub fn tartan_orders() -> Vec<Order> {
    let start = Position::startpos();
    TARTAN
        .iter()
        .map(|(p, m)| {
            parse_order(&start, &format!("{p}: {m}"), "Tartan order")
                .expect("the Tartan orders are legal from the start position")
        })
        .collect()
}

/// Runs the search a drawing shows: `algorithm` from `position` to `depth` plies, the first
/// `width` moves of every node (all for `None`), the `orders` forced.
pub fn search(
    position: Position,
    algorithm: Algorithm,
    depth: u32,
    width: Option<usize>,
    orders: Vec<Order>,
) -> Result<Drawn, TreeError> {
    let mut cfg = LessonConfig::of(algorithm);
    cfg.trace = true;
    cfg.width = width;
    cfg.node_cap = Some(MAX_SEARCHED);
    cfg.forced = orders;
    let result = Lesson::new(&position, &[], cfg).run(depth);
    if result.capped {
        return Err(TreeError::TooManySearched);
    }
    if result.trace.len() > MAX_DRAWN {
        return Err(TreeError::TooManyDrawn(result.trace.len()));
    }
    Ok(Drawn {
        position,
        algorithm,
        depth,
        width,
        result,
    })
}

/// The reference search's tree as a page shows it live: every iteration (each iteration's
/// root a tree of its own, in visit order), every move, at most `max_nodes` nodes in all, with
/// alpha and beta on entry, the value backed up, cutoffs and the principal variation of the
/// last iteration. The nodes are those the reference search (and the 8-bit builds) visit, in
/// the same order.
///
/// ```
/// use kempelen_claims::tree::search_live;
/// use kempelen_engine::Position;
///
/// let d = search_live(Position::startpos(), 2, 10_000).unwrap();
/// assert_eq!(d.result.trace.len() as u64, d.result.nodes);
/// let last = d.result.trace.iter().filter(|n| n.iteration == 2).count();
/// assert_eq!(last, kempelen_claims::tree::search(
///     Position::startpos(), kempelen_engine::tree::Algorithm::Reference, 2, None, vec![],
/// ).unwrap().result.trace.len());
/// ```
pub fn search_live(position: Position, depth: u32, max_nodes: u64) -> Result<Drawn, TreeError> {
    let mut cfg = LessonConfig::of(Algorithm::Reference);
    cfg.trace = true;
    cfg.trace_every_iteration = true;
    cfg.node_cap = Some(max_nodes);
    let result = Lesson::new(&position, &[], cfg).run(depth);
    if result.capped {
        return Err(TreeError::TooManySearched);
    }
    Ok(Drawn {
        position,
        algorithm: Algorithm::Reference,
        depth,
        width: None,
        result,
    })
}

/// The moves from the root to node `index` of a drawn tree (`Move::NULL` for a null move).
pub fn path_to(d: &Drawn, index: usize) -> Vec<Move> {
    let t = &d.result.trace;
    let mut path = Vec::new();
    let mut at = Some(index).filter(|&i| i < t.len());
    while let Some(i) = at {
        path.extend(t[i].mv);
        at = t[i].parent;
    }
    path.reverse();
    path
}

/// The position at node `index` of a drawn tree (`None` past the tree's end).
pub fn position_at(d: &Drawn, index: usize) -> Option<Position> {
    (index < d.result.trace.len()).then(|| {
        let mut p = d.position.clone();
        for m in path_to(d, index) {
            if m == Move::NULL {
                let _ = p.make_null();
            } else {
                p.play(m);
            }
        }
        p
    })
}

fn move_text(m: Option<Move>) -> String {
    match m {
        None => String::new(),
        Some(m) if m == Move::NULL => "null".into(),
        Some(m) => m.to_string(),
    }
}

/// The value as shown: White's point of view, with a bound sign where alpha-beta returned one.
pub fn value_text(n: &TraceNode) -> String {
    let white_lower = match n.bound {
        Bound::Exact => None,
        Bound::Lower => Some(n.white_to_move),
        Bound::Upper => Some(!n.white_to_move),
    };
    match white_lower {
        None => format!("{}", n.value),
        Some(true) => format!("\u{2265}{}", n.value),
        Some(false) => format!("\u{2264}{}", n.value),
    }
}

fn kind_text(n: &TraceNode) -> &'static str {
    match (n.kind, n.white_to_move) {
        (NodeKind::Quiescence, true) => "max, quiescence",
        (NodeKind::Quiescence, false) => "min, quiescence",
        (NodeKind::Null, true) => "max, after null move",
        (NodeKind::Null, false) => "min, after null move",
        (NodeKind::Search, true) => "max",
        (NodeKind::Search, false) => "min",
    }
}

/// The tree as indented text.
pub fn text(d: &Drawn) -> String {
    let t = &d.result.trace;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} to depth {}{} from {}: {} nodes, {} evaluated, {} cutoffs; value {} (White's view); PV {}",
        d.algorithm,
        d.depth,
        d.width
            .map(|w| format!(", first {w} moves per node"))
            .unwrap_or_default(),
        d.position.to_fen(),
        t.len(),
        t.iter().filter(|n| n.evaluated).count(),
        t.iter().filter(|n| n.cutoff).count(),
        t.first().map(value_text).unwrap_or_default(),
        d.result
            .pv
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let _ = writeln!(
        s,
        "[n] = visit order; max = White to move; * = principal variation; // = cut off"
    );
    fn walk(t: &[TraceNode], i: usize, prefix: &str, last: bool, root: bool, s: &mut String) {
        let n = &t[i];
        let branch = if root {
            ""
        } else if last {
            "\u{2514}\u{2500} "
        } else {
            "\u{251c}\u{2500} "
        };
        let _ = writeln!(
            s,
            "{prefix}{branch}{}{}[{}] {} {}{}{}",
            move_text(n.mv),
            if n.mv.is_some() { " " } else { "" },
            i + 1,
            kind_text(n),
            value_text(n),
            if n.evaluated { " (evaluated)" } else { "" },
            if n.pv { " *" } else { "" },
        );
        let child_prefix = if root {
            String::new()
        } else if last {
            format!("{prefix}   ")
        } else {
            format!("{prefix}\u{2502}  ")
        };
        let k = n.children.len();
        for (j, &c) in n.children.iter().enumerate() {
            walk(t, c, &child_prefix, j + 1 == k && !n.cutoff, false, s);
        }
        if n.cutoff {
            let skipped = n
                .skipped
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(
                s,
                "{child_prefix}\u{2514}\u{2500} // cut off{}{skipped}",
                if skipped.is_empty() { "" } else { ": " }
            );
        }
    }
    if !t.is_empty() {
        walk(t, 0, "", true, true, &mut s);
    }
    s
}

/// Escapes text for SVG.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// The tree as SVG: one `<g class="node">` per node visited, one `<g class="cut">` per cutoff.
pub fn svg(d: &Drawn, title: &str) -> String {
    let t = &d.result.trace;
    const DX: f64 = 64.0;
    const DY: f64 = 96.0;
    const TOP: f64 = 90.0;
    // Slots: every leaf of the drawing (a node without children, or a skipped move) takes one.
    let mut x = vec![0.0f64; t.len()];
    let mut cut_x: Vec<Vec<f64>> = vec![Vec::new(); t.len()];
    let mut next = 0.0f64;
    fn place(t: &[TraceNode], i: usize, x: &mut [f64], cut_x: &mut [Vec<f64>], next: &mut f64) {
        let n = &t[i];
        let mut xs = Vec::new();
        for &c in &n.children {
            place(t, c, x, cut_x, next);
            xs.push(x[c]);
        }
        if n.cutoff {
            let k = n.skipped.len().max(1);
            for _ in 0..k {
                cut_x[i].push(*next);
                xs.push(*next);
                *next += 1.0;
            }
        }
        if xs.is_empty() {
            x[i] = *next;
            *next += 1.0;
        } else {
            x[i] = (xs[0] + xs[xs.len() - 1]) / 2.0;
        }
    }
    if !t.is_empty() {
        place(t, 0, &mut x, &mut cut_x, &mut next);
    }
    let max_ply = t.iter().map(|n| n.ply).max().unwrap_or(0) as f64;
    let width = (next.max(1.0) * DX + 40.0).max(1200.0);
    let height = TOP + (max_ply + 1.0) * DY + 60.0;
    let px = |v: f64| 20.0 + v * DX + DX / 2.0;
    let py = |ply: usize| TOP + ply as f64 * DY + 20.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="20" y="22" font-size="15" font-weight="bold">{}</text>"#,
        escape(title)
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="42" fill="#444">{}</text>"##,
        escape(&format!(
            "{} nodes in visit order, {} evaluated, {} cutoffs (branches struck with //); thick: principal variation.",
            t.len(),
            t.iter().filter(|n| n.evaluated).count(),
            t.iter().filter(|n| n.cutoff).count()
        ))
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="60" fill="#444">{}</text>"##,
        escape(
            "Boxes: White to move (max), ellipses: Black to move (min); values from White's view; dashed: quiescence."
        )
    );
    // Edges first, nodes on top.
    for (i, n) in t.iter().enumerate() {
        for &c in &n.children {
            let ch = &t[c];
            let (x1, y1, x2, y2) = (px(x[i]), py(n.ply) + 16.0, px(x[c]), py(ch.ply) - 16.0);
            let (stroke, w) = if n.pv && ch.pv {
                ("#c0392b", 3.5)
            } else {
                ("#555", 1.2)
            };
            let dash = if ch.kind == NodeKind::Null {
                r#" stroke-dasharray="5,3""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<line class="edge" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{w}"{dash}/>"#
            );
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{my:.1}" font-size="11" fill="#1a5276" text-anchor="{}">{}</text>"##,
                mx + if x2 >= x1 { 4.0 } else { -4.0 },
                if x2 >= x1 { "start" } else { "end" },
                escape(&move_text(ch.mv))
            );
        }
        if n.cutoff {
            let (x1, y1) = (px(x[i]), py(n.ply) + 16.0);
            let _ = writeln!(s, r#"<g class="cut" data-node="{}">"#, i + 1);
            let moves: Vec<String> = if n.skipped.is_empty() {
                vec![String::new()]
            } else {
                n.skipped.iter().map(|m| m.to_string()).collect()
            };
            for (k, &cx) in cut_x[i].iter().enumerate() {
                let (x2, y2) = (px(cx), py(n.ply + 1) - 30.0);
                let _ = writeln!(
                    s,
                    r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#999" stroke-width="1.2" stroke-dasharray="2,3"/>"##
                );
                let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
                // The double slash of the article's figure, across the branch.
                for off in [-3.0, 3.0] {
                    let _ = writeln!(
                        s,
                        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#c0392b" stroke-width="2"/>"##,
                        mx - 7.0 + off,
                        my + 5.0,
                        mx + 7.0 + off,
                        my - 5.0
                    );
                }
                let _ = writeln!(
                    s,
                    r##"<text x="{x2:.1}" y="{:.1}" font-size="11" fill="#999" text-anchor="middle">{}</text>"##,
                    y2 + 12.0,
                    escape(moves.get(k).map(String::as_str).unwrap_or(""))
                );
            }
            let _ = writeln!(s, "</g>");
        }
    }
    for (i, n) in t.iter().enumerate() {
        let (cx, cy) = (px(x[i]), py(n.ply));
        let fill = match n.kind {
            NodeKind::Quiescence => "#eef5e9",
            NodeKind::Null => "#f4ecf7",
            NodeKind::Search => "#fdfefe",
        };
        let stroke_w = if n.pv { 3.0 } else { 1.3 };
        let stroke = if n.pv { "#c0392b" } else { "#222" };
        let dash = if n.kind == NodeKind::Quiescence {
            r#" stroke-dasharray="4,2""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<g class="node" data-number="{}" data-max="{}" data-value="{}">"#,
            i + 1,
            n.white_to_move,
            n.value
        );
        let _ = writeln!(
            s,
            "<title>{}</title>",
            escape(&format!(
                "node {} ({}), value {}{}",
                i + 1,
                kind_text(n),
                value_text(n),
                if n.evaluated { ", evaluated" } else { "" }
            ))
        );
        if n.white_to_move {
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="40" height="32" rx="2" fill="{fill}" stroke="{stroke}" stroke-width="{stroke_w}"{dash}/>"#,
                cx - 20.0,
                cy - 16.0
            );
        } else {
            let _ = writeln!(
                s,
                r#"<ellipse cx="{cx:.1}" cy="{cy:.1}" rx="22" ry="16" fill="{fill}" stroke="{stroke}" stroke-width="{stroke_w}"{dash}/>"#
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-size="10" fill="#666">{}</text>"##,
            cy - 3.0,
            i + 1
        );
        let _ = writeln!(
            s,
            r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-weight="bold">{}</text>"#,
            cy + 11.0,
            escape(&value_text(n))
        );
        let _ = writeln!(s, "</g>");
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// The tree as JSON.
pub fn json(d: &Drawn) -> serde_json::Value {
    let t = &d.result.trace;
    let nodes: Vec<serde_json::Value> = t
        .iter()
        .enumerate()
        .map(|(i, n)| {
            serde_json::json!({
                "number": i + 1,
                "parent": n.parent.map(|p| p + 1),
                "move": n.mv.map(|m| move_text(Some(m))),
                "ply": n.ply,
                "max": n.white_to_move,
                "kind": match n.kind { NodeKind::Search => "search", NodeKind::Quiescence => "quiescence", NodeKind::Null => "null" },
                "value": n.value,
                "score": n.score,
                "alpha": n.alpha,
                "beta": n.beta,
                "iteration": n.iteration,
                "bound": match n.bound { Bound::Exact => "exact", Bound::Lower => "lower", Bound::Upper => "upper" },
                "evaluated": n.evaluated,
                "cutoff": n.cutoff,
                "skipped": n.skipped.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "pv": n.pv,
            })
        })
        .collect();
    serde_json::json!({
        "fen": d.position.to_fen(),
        "algorithm": d.algorithm.to_string(),
        "depth": d.depth,
        "width": d.width,
        "nodes": t.len(),
        "evaluated": t.iter().filter(|n| n.evaluated).count(),
        "cutoffs": t.iter().filter(|n| n.cutoff).count(),
        "search_nodes": d.result.nodes,
        "value": t.first().map(|n| n.value),
        "pv": d.result.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "tree": nodes,
    })
}

/// The title of a drawing.
pub fn title(d: &Drawn, tartan: bool) -> String {
    let what = match d.algorithm {
        Algorithm::Minimax => "Minimax",
        Algorithm::AlphaBeta => "Alpha-beta",
        Algorithm::Reference => "Reference search (last iteration)",
    };
    let from = if tartan {
        "the start position, moves as in Zwerschke's Tartan article (TOS 1/1991)".to_string()
    } else {
        d.position.to_fen()
    };
    format!(
        "{what}, depth {}{}, from {from}",
        d.depth,
        d.width
            .map(|w| format!(", first {w} moves per node"))
            .unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_of_a_live_tree_has_its_position_and_window() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
        let d = search_live(Position::from_fen(fen).unwrap(), 3, 100_000).unwrap();
        let t = &d.result.trace;
        assert!(t.iter().any(|n| n.kind == NodeKind::Null));
        for (i, n) in t.iter().enumerate() {
            let p = position_at(&d, i).unwrap();
            assert_eq!(
                p.side() == kempelen_engine::piece::WHITE,
                n.white_to_move,
                "node {i}"
            );
            assert_eq!(path_to(&d, i).len(), n.ply, "node {i}");
        }
        assert!(position_at(&d, t.len()).is_none());
        let j = json(&d);
        let first = &j["tree"][1];
        assert_eq!(first["alpha"], serde_json::json!(-t[0].beta));
        assert_eq!(first["iteration"], serde_json::json!(1));
    }
}
