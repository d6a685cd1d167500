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
use kempelen_engine::tree::searched::{View, cut_note_text};
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

/// What node `i`'s cut-off skipped and why (`None` for a node without a cut-off): the moves
/// left unsearched, the move (or the null move, or the stand-pat) that refuted the move into
/// the node, and the value against the bound, in `view`.
pub fn cut_note(d: &Drawn, i: usize, view: View) -> Option<String> {
    let t = &d.result.trace;
    let n = t.get(i).filter(|n| n.cutoff)?;
    let here = position_at(d, i)?;
    let skipped: Vec<String> = n.skipped.iter().map(|&m| here.san(m)).collect();
    let refuting = n.children.last().map(|&c| match t[c].mv {
        Some(m) if m == Move::NULL => "the null move".to_string(),
        Some(m) => here.san(m),
        None => String::new(),
    });
    let refuting =
        refuting.or_else(|| (n.kind == NodeKind::Quiescence).then(|| "standing pat".to_string()));
    let refuted = match (n.parent, n.mv) {
        (Some(p), Some(m)) if m == Move::NULL => {
            let _ = p;
            "the null move".to_string()
        }
        (Some(p), Some(m)) => position_at(d, p)?.san(m),
        _ => "the root".to_string(),
    };
    // The refuting value and the bound, in the view of the side to move at the node's parent
    // (after the refuting move): the node's value there is -score, its bound -beta.
    Some(cut_note_text(
        &skipped,
        refuting.as_deref(),
        &refuted,
        (-n.score, -n.beta),
        !n.white_to_move,
        view,
    ))
}

/// The value as shown in `view`, with a bound sign where alpha-beta returned one.
pub fn value_text_in(n: &TraceNode, view: View) -> String {
    match view {
        View::White => value_text(n),
        View::ToMove => match n.bound {
            Bound::Exact => format!("{}", n.score),
            Bound::Lower => format!("\u{2265}{}", n.score),
            Bound::Upper => format!("\u{2264}{}", n.score),
        },
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

/// The tree as indented text, values from White's view.
pub fn text(d: &Drawn) -> String {
    text_in(d, View::White)
}

/// The tree as indented text, values in `view`; under each cut-off what it skipped and why.
pub fn text_in(d: &Drawn, view: View) -> String {
    let t = &d.result.trace;
    let mut s = String::new();
    let view_name = match view {
        View::White => "White's view",
        View::ToMove => "the side to move's view",
    };
    let _ = writeln!(
        s,
        "{} to depth {}{} from {}: {} nodes, {} evaluated, {} cutoffs; value {} ({view_name}); PV {}",
        d.algorithm,
        d.depth,
        d.width
            .map(|w| format!(", first {w} moves per node"))
            .unwrap_or_default(),
        d.position.to_fen(),
        t.len(),
        t.iter().filter(|n| n.evaluated).count(),
        t.iter().filter(|n| n.cutoff).count(),
        t.first()
            .map(|n| value_text_in(n, view))
            .unwrap_or_default(),
        d.result
            .pv
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let _ = writeln!(
        s,
        "[n] = visit order; max = White to move; * = principal variation; // = cut off (what it skipped and why); >= and <= = a bound, not the exact value"
    );
    let notes: Vec<Option<String>> = (0..t.len()).map(|i| cut_note(d, i, view)).collect();
    struct Walk<'a> {
        t: &'a [TraceNode],
        notes: &'a [Option<String>],
        view: View,
    }
    fn walk(w: &Walk, i: usize, prefix: &str, last: bool, root: bool, s: &mut String) {
        let (t, view) = (w.t, w.view);
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
            value_text_in(n, view),
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
            walk(w, c, &child_prefix, j + 1 == k && !n.cutoff, false, s);
        }
        if n.cutoff {
            let note = w.notes[i].clone().unwrap_or_default();
            let _ = writeln!(s, "{child_prefix}\u{2514}\u{2500} // cut off: {note}");
        }
    }
    if !t.is_empty() {
        let w = Walk {
            t,
            notes: &notes,
            view,
        };
        walk(&w, 0, "", true, true, &mut s);
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

/// Where the drawing puts each node: every leaf of the drawing (a node without children, or a
/// skipped move) takes one slot, a parent sits midway over its first and last child.
struct Layout {
    /// Where the first ply is drawn.
    top: f64,
    /// Each node's slot.
    x: Vec<f64>,
    /// Each node's cut-off branches' slots (one per skipped move, at least one).
    cut_x: Vec<Vec<f64>>,
    /// Slots taken.
    slots: f64,
}

/// Horizontal distance of two slots.
const SLOT_DX: f64 = 64.0;
/// Vertical distance of two plies.
const PLY_DY: f64 = 96.0;
/// Height of the title lines above the tree.
const TREE_TOP: f64 = 90.0;

impl Layout {
    fn of(t: &[TraceNode]) -> Layout {
        let mut l = Layout {
            top: TREE_TOP,
            x: vec![0.0f64; t.len()],
            cut_x: vec![Vec::new(); t.len()],
            slots: 0.0,
        };
        if !t.is_empty() {
            l.place(t, 0);
        }
        l
    }

    fn place(&mut self, t: &[TraceNode], i: usize) {
        let n = &t[i];
        let mut xs = Vec::new();
        for &c in &n.children {
            self.place(t, c);
            xs.push(self.x[c]);
        }
        if n.cutoff {
            let k = n.skipped.len().max(1);
            for _ in 0..k {
                self.cut_x[i].push(self.slots);
                xs.push(self.slots);
                self.slots += 1.0;
            }
        }
        if xs.is_empty() {
            self.x[i] = self.slots;
            self.slots += 1.0;
        } else {
            self.x[i] = (xs[0] + xs[xs.len() - 1]) / 2.0;
        }
    }

    /// A slot's x coordinate.
    fn px(v: f64) -> f64 {
        20.0 + v * SLOT_DX + SLOT_DX / 2.0
    }

    /// A ply's y coordinate.
    fn py(&self, ply: usize) -> f64 {
        self.top + ply as f64 * PLY_DY + 20.0
    }
}

/// The tree as SVG: one `<g class="node">` per node visited, one `<g class="cut">` per cutoff.
pub fn svg(d: &Drawn, title: &str) -> String {
    svg_in(d, title, View::White)
}

/// The tree as SVG with values in `view`, each cut-off's group titled with what it skipped
/// and why.
pub fn svg_in(d: &Drawn, title: &str, view: View) -> String {
    let t = &d.result.trace;
    let look = Look {
        values: (view != View::White).then(|| t.iter().map(|n| value_text_in(n, view)).collect()),
        marks: None,
        cut_notes: Some((0..t.len()).map(|i| cut_note(d, i, view)).collect()),
    };
    let values_from = match view {
        View::White => "values from White's view",
        View::ToMove => "values from the side to move's view (negamax)",
    };
    let lines = [
        format!(
            "{} nodes in visit order, {} evaluated, {} cutoffs (branches struck with //); thick: principal variation.",
            t.len(),
            t.iter().filter(|n| n.evaluated).count(),
            t.iter().filter(|n| n.cutoff).count()
        ),
        format!(
            "Boxes: White to move (max), ellipses: Black to move (min); {values_from}; >= and <= mark bounds; dashed: quiescence."
        ),
    ];
    svg_nodes(t, title, &lines, &look)
}

/// A node's mark: a CSS class, the symbol drawn beside it and its colour.
pub type NodeMark = (&'static str, &'static str, &'static str);

/// How [`svg_nodes`] draws each node beyond the trace: the value's text (default: the node's
/// value from White's view, with its bound) and a mark (a CSS class and a symbol drawn beside
/// the node: a node another tree has elsewhere, with another value, or not at all).
#[derive(Default)]
pub struct Look {
    /// Each node's value text.
    pub values: Option<Vec<String>>,
    /// Each node's mark: (class, symbol, colour), `None` for no mark.
    pub marks: Option<Vec<Option<NodeMark>>>,
    /// Below each cut-off: its note (what it skipped and why).
    pub cut_notes: Option<Vec<Option<String>>>,
}

/// A trace as SVG: the `title`, the `lines` of legend under it, the nodes drawn as `look`
/// says.
pub fn svg_nodes(t: &[TraceNode], title: &str, lines: &[String], look: &Look) -> String {
    let mut l = Layout::of(t);
    l.top = tree_top(lines);
    let mut s = String::new();
    svg_header(&mut s, t, &l, title, lines);
    // Edges first, nodes on top.
    for (i, n) in t.iter().enumerate() {
        for &c in &n.children {
            svg_edge(&mut s, t, &l, i, c);
        }
        if n.cutoff {
            let note = look.cut_notes.as_ref().and_then(|c| c[i].as_deref());
            svg_cut(&mut s, n, i, &l, note);
        }
    }
    for (i, n) in t.iter().enumerate() {
        let value = look.values.as_ref().map(|v| v[i].as_str());
        let mark = look.marks.as_ref().and_then(|m| m[i]);
        svg_node(&mut s, n, i, &l, value, mark);
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// The `<svg>` element, its background, the title and the legend's lines.
fn svg_header(s: &mut String, t: &[TraceNode], l: &Layout, title: &str, lines: &[String]) {
    let max_ply = t.iter().map(|n| n.ply).max().unwrap_or(0) as f64;
    let width = (l.slots.max(1.0) * SLOT_DX + 40.0).max(1200.0);
    let top = tree_top(lines);
    let height = top + (max_ply + 1.0) * PLY_DY + 60.0;
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
    for (k, line) in lines.iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<text x="20" y="{}" fill="#444">{}</text>"##,
            42 + 18 * k,
            escape(line)
        );
    }
}

/// Where the tree begins below the title and `lines` of legend.
fn tree_top(lines: &[String]) -> f64 {
    TREE_TOP + 18.0 * (lines.len().saturating_sub(2)) as f64
}

/// The edge from node `i` to its child `c`, labelled with the child's move.
fn svg_edge(s: &mut String, t: &[TraceNode], l: &Layout, i: usize, c: usize) {
    let (n, ch) = (&t[i], &t[c]);
    let (x1, y1, x2, y2) = (
        Layout::px(l.x[i]),
        l.py(n.ply) + 16.0,
        Layout::px(l.x[c]),
        l.py(ch.ply) - 16.0,
    );
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

/// Node `i`'s cut-off branches: a dotted line per skipped move, struck through with the
/// article's double slash, the move below it; `note`: what was skipped and why, as the
/// group's tooltip.
fn svg_cut(s: &mut String, n: &TraceNode, i: usize, l: &Layout, note: Option<&str>) {
    let (x1, y1) = (Layout::px(l.x[i]), l.py(n.ply) + 16.0);
    let _ = writeln!(s, r#"<g class="cut" data-node="{}">"#, i + 1);
    if let Some(note) = note {
        let _ = writeln!(s, "<title>{}</title>", escape(note));
    }
    let moves: Vec<String> = if n.skipped.is_empty() {
        vec![String::new()]
    } else {
        n.skipped.iter().map(|m| m.to_string()).collect()
    };
    for (k, &cx) in l.cut_x[i].iter().enumerate() {
        let (x2, y2) = (Layout::px(cx), l.py(n.ply + 1) - 30.0);
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

/// Node `i`: a box (White to move) or an ellipse (Black to move), its number and value
/// (`value`: the text to show instead of its value), and its mark (class, symbol, colour).
fn svg_node(
    s: &mut String,
    n: &TraceNode,
    i: usize,
    l: &Layout,
    value: Option<&str>,
    mark: Option<(&str, &str, &str)>,
) {
    let (cx, cy) = (Layout::px(l.x[i]), l.py(n.ply));
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
    let class = mark.map_or(String::new(), |(c, _, _)| format!(" {c}"));
    let _ = writeln!(
        s,
        r#"<g class="node{class}" data-number="{}" data-max="{}" data-value="{}">"#,
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
    let shown = value.map_or_else(|| value_text(n), str::to_string);
    let _ = writeln!(
        s,
        r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-weight="bold">{}</text>"#,
        cy + 11.0,
        escape(&shown)
    );
    if let Some((_, symbol, colour)) = mark {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-weight="bold" fill="{colour}">{}</text>"#,
            cx + 24.0,
            cy - 10.0,
            escape(symbol)
        );
    }
    let _ = writeln!(s, "</g>");
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
                "cut_note": cut_note(d, i, View::ToMove),
                "cut_note_white": cut_note(d, i, View::White),
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
