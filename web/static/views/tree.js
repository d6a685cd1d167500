// The Tree view: the reference search's tree of a position, and the same search as the Z80 or
// 6502 build runs it in the emulator, node by node beside it (read from the machine at the
// engine's node entries: learn/tree.rs). Select a node to see its position. Its position is
// the game's (the link's fen and moves, as Play's), or the view's own key `root` (a FEN typed
// here); further keys: depth, `tree` (native | z80 | 6502), `algorithm`, `width` and `node`
// (a node's number).

import { ChessBoard } from "../board.js";
import { TreeWidget } from "../tree-widget.js";
import { registerView } from "../views.js";
import { fmtInt, h } from "../ui.js";


const view = {
  name: "tree",
  title: "Tree",
  order: 40,
  app: null,
  run: null,

  mount(root, app) {
    this.app = app;
    root.innerHTML = `
      <div class="tree-view">
        <div class="board-col">
          <div id="tree-board" class="board-wrap small"></div>
          <div id="tree-node-info" class="status" aria-live="polite"></div>
          <form id="tree-form" class="tree-form">
            <label>Position (FEN) <input id="tree-fen" spellcheck="false" autocomplete="off"></label>
            <label>Depth <select id="tree-depth"><option>1</option><option selected>2</option><option>3</option><option>4</option></select></label>
            <label>Search <select id="tree-algorithm">
              <option value="live" selected>the reference search, every iteration</option>
              <option value="reference">the reference search, last iteration (kempelen tree --algorithm reference)</option>
              <option value="alphabeta">plain alpha-beta (kempelen tree)</option>
              <option value="minimax">plain minimax (kempelen tree --algorithm minimax)</option>
            </select></label>
            <label>Moves per node <input id="tree-width" type="number" min="0" max="99" value="0" title="the first K moves of every node after ordering (kempelen tree --width); 0: all"></label>
            <div class="controls">
              <button type="submit" id="tree-native">Reference tree</button>
              <button type="button" id="tree-z80">Watch the Z80 build</button>
              <button type="button" id="tree-6502">Watch the 6502 build</button>
              <button type="button" id="tree-stop" disabled>Stop</button>
            </div>
          </form>
          <p class="hint">The reference search (docs/ALGORITHM.md) with every iteration: each node
          shows the move into it, alpha and beta on entry and the value it backed up, all from the
          side to move's view; <em>cut</em> marks a cutoff, bold the principal variation.
          The 8-bit builds visit the same nodes: watch one build it as its code runs.</p>
        </div>
        <div class="trees">
          <div class="tree-pane"><h3 id="tree-native-title">Reference search (native)</h3><div id="tree-native-summary" class="summary"></div><div id="tree-native-tree" class="tree-box"></div></div>
          <div class="tree-pane" id="tree-port-pane" hidden><h3 id="tree-port-title"></h3><div id="tree-port-summary" class="summary" aria-live="polite"></div><div id="tree-port-tree" class="tree-box"></div></div>
        </div>
      </div>`;
    this.board = new ChessBoard(root.querySelector("#tree-board"), { canMove: () => false });
    this.native = new TreeWidget(root.querySelector("#tree-native-tree"), { onSelect: (i, n) => this.selected("native", i, n) });
    this.port = new TreeWidget(root.querySelector("#tree-port-tree"), { onSelect: (i, n) => this.selected("port", i, n) });
    root.querySelector("#tree-form").addEventListener("submit", (e) => { e.preventDefault(); this.start("native"); });
    root.querySelector("#tree-z80").addEventListener("click", () => this.start("z80"));
    root.querySelector("#tree-6502").addEventListener("click", () => this.start("6502"));
    root.querySelector("#tree-stop").addEventListener("click", () => this.stop());
  },

  show(link, app, how) {
    if (how === "link") app.gameFromLink(link);
    const fen = app.router.extra("root") || app.game.fen();
    const changed = fen !== document.getElementById("tree-fen").value;
    document.getElementById("tree-fen").value = fen;
    if (link.depth && link.depth <= 4) document.getElementById("tree-depth").value = String(link.depth);
    const algorithm = app.router.extra("algorithm");
    if (["live", "reference", "alphabeta", "minimax"].includes(algorithm)) document.getElementById("tree-algorithm").value = algorithm;
    const width = Number(app.router.extra("width"));
    if (Number.isInteger(width) && width >= 0) document.getElementById("tree-width").value = String(width);
    // Opened by a link, for the first time, or on another position than the tree drawn (the
    // game moved on since): the tree of the position shown is searched.
    if (how === "link" || !this.native.nodes.length || changed) {
      const which = app.router.extra("tree") || "native";
      const node = Number(app.router.extra("node"));
      this.start(["z80", "6502"].includes(which) ? which : "native", Number.isInteger(node) && node > 0 ? node - 1 : null);
    }
  },

  hide() {
    this.stop();
  },

  spec() {
    return {
      fen: document.getElementById("tree-fen").value.trim() || null,
      depth: Number(document.getElementById("tree-depth").value),
    };
  },

  /** The native tree's request: the search chosen (the 8-bit builds follow the live one). */
  nativeSpec() {
    const algorithm = document.getElementById("tree-algorithm").value;
    const typed = Number(document.getElementById("tree-width").value) || 0;
    const width = Math.min(99, Math.max(0, Math.floor(typed)));
    if (width !== typed) {
      this.app.message(`Moves per node: ${document.getElementById("tree-width").value} is not 0 to 99 (0: all): drawing ${width}`, "error");
      document.getElementById("tree-width").value = String(width);
    }
    this.app.router.setExtra("algorithm", algorithm === "live" ? null : algorithm);
    this.app.router.setExtra("width", width ? width : null);
    return { ...this.spec(), algorithm: algorithm === "live" ? null : algorithm, width };
  },

  /** Shows `fen` on the board (no node selected). */
  showRoot(fen) {
    const b = this.app.k.Board.from_fen(fen);
    this.board.render(JSON.parse(b.view()));
    b.free();
    this.board.setArrow(null);
  },

  selected(which, i, n) {
    const b = this.app.k.Board.from_fen(n.fen);
    this.board.render(JSON.parse(b.view()));
    b.free();
    if (n.mv && n.mv !== "null") this.board.setArrow(n.mv);
    const info = document.getElementById("tree-node-info");
    const value = n.score === null || n.score === undefined ? "not backed up yet" : n.score;
    info.textContent = `Node ${i + 1} (${which === "native" ? "reference" : this.portName}): ${n.san || "the root"}, ply ${n.ply}, ${n.kind}` +
      `, alpha ${n.alpha}, beta ${n.beta}, value ${value}${n.cycles !== null && n.cycles !== undefined ? `, entered at cycle ${fmtInt(n.cycles)}` : ""}`;
    info.dataset.fen = n.fen;
    this.app.router.setExtra("node", i + 1);
  },

  async start(which, selectNode = null) {
    this.stop();
    const spec = this.spec();
    // The game's position is the link's fen and moves; another one is the view's own key.
    this.app.router.update({ depth: spec.depth });
    this.app.router.setExtra("root", spec.fen && spec.fen !== this.app.game.fen() ? spec.fen : null);
    this.app.router.setExtra("tree", which);
    const portPane = document.getElementById("tree-port-pane");
    const summary = document.getElementById("tree-native-summary");
    portPane.hidden = which === "native";
    document.getElementById("tree-stop").disabled = which === "native";
    summary.textContent = "searching…";
    for (const key of ["error", "nodes", "last", "fen"]) delete summary.dataset[key];
    if (which === "native") {
      const run = this.app.client.request("tree", { spec: this.nativeSpec() }, undefined, { native: true });
      this.run = run;
      try {
        const tree = await run.done;
        if (this.run !== run) return;
        if (!tree.nodes) {
          summary.textContent = "Stopped before the tree was searched: no tree.";
          return;
        }
        this.native.setTree(tree);
        this.showRoot(tree.fen);
        document.getElementById("tree-native-title").textContent = tree.title;
        summary.textContent = treeSummary(tree);
        summary.dataset.nodes = String(tree.nodes.length);
        summary.dataset.fen = tree.fen;
        summary.dataset.last = String(tree.iterations.length ? tree.iterations[tree.iterations.length - 1][1] : 0);
        if (selectNode !== null) this.native.select(selectNode);
      } catch (err) {
        if (this.run === run) this.failed(summary, err);
      } finally {
        if (this.run === run) this.run = null;
      }
      return;
    }
    this.portName = which === "z80" ? "Z80 build" : "6502 build";
    document.getElementById("tree-port-title").textContent = `The ${this.portName} in the emulator, node by node`;
    const portSummary = document.getElementById("tree-port-summary");
    portSummary.textContent = "starting…";
    this.port.clear();
    let same = 0;
    let differs = 0;
    let nodes = 0;
    const run = this.app.client.request("walk", { spec: { ...spec, cpu: which } }, (ev) => {
      if (ev.kind === "native") {
        this.native.setTree(ev.tree);
        this.showRoot(ev.tree.fen);
        document.getElementById("tree-native-title").textContent = `${ev.tree.title} (native)`;
        summary.textContent = treeSummary(ev.tree);
        summary.dataset.nodes = String(ev.tree.nodes.length);
        return;
      }
      const u = ev.update;
      this.port.append(u.nodes, u.from);
      for (const [i, s] of u.scores) this.port.setScore(i, s);
      u.same.forEach((ok, k) => { if (ok) same += 1; else this.port.mark(u.from + k, "differs"); });
      for (const i of u.differs) { differs += 1; this.port.mark(i, "differs"); }
      nodes = u.from + u.nodes.length;
      this.port.setPath(u.path);
      portSummary.textContent = `${fmtInt(nodes)} nodes so far, ${fmtInt(u.cycles)} cycles; the PC is in ${u.routine || "?"}` +
        `; ${fmtInt(same)} entered as the reference's node at the same place` + (differs ? `, ${differs} values differ` : "");
      portSummary.dataset.nodes = String(nodes);
      portSummary.dataset.done = String(u.done);
      portSummary.dataset.same = String(same);
      portSummary.dataset.differs = String(differs);
    });
    this.run = run;
    document.getElementById("tree-stop").disabled = false;
    try {
      const result = await run.done;
      if (result.stopped) portSummary.textContent += " (stopped)";
      else portSummary.textContent = `${this.portName}: ${fmtInt(nodes)} nodes in ${fmtInt(result.cycles)} cycles; ${fmtInt(same)} of them entered as the reference's node at the same place` + (differs ? `, ${differs} values differ` : ", every value the same");
      if (selectNode !== null) this.port.select(selectNode);
    } catch (err) {
      this.failed(portSummary, err);
      summary.textContent = "";
    } finally {
      if (this.run === run) this.run = null;
      document.getElementById("tree-stop").disabled = true;
    }
  },

  /** A tree that could not be searched: said where its tree would be, and in the messages. */
  failed(where, err) {
    const text = String(err.message || err);
    this.native.clear();
    where.textContent = `No tree: ${text}`;
    where.dataset.error = text;
    delete where.dataset.nodes;
    delete where.dataset.last;
    this.app.message(`Tree: ${text}`, "error");
  },

  stop() {
    if (this.run) this.run.stop();
    this.run = null;
  },
};

function treeSummary(tree) {
  const its = tree.iterations.map(([d, n]) => `iteration ${d}: ${fmtInt(n)}`).join(", ");
  return `${fmtInt(tree.nodes.length)} nodes (${its}); value ${tree.score}, principal variation ${tree.pv.join(" ")}`;
}

registerView(view);
