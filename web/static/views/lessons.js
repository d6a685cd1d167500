// The Lessons view: docs/SEARCH.md and the history lessons (docs/history/), the Markdown the
// repository keeps, rendered by the Rust side (kempelen-claims' lessons) with their commands
// live: a `kempelen search --profile ...` runs that profile's search here (its move and line,
// its tree a click away), a `kempelen tree ...` and each drawn tree open as trees to expand.
// Link keys: its own `lesson` (an id) and `example` (a live command's number, run on opening).

import { ChessBoard } from "../board.js";
import { TreeWidget } from "../tree-widget.js";
import { registerView } from "../views.js";
import { fmtInt, fmtScore, scoreView, h } from "../ui.js";

/** The most nodes a lesson's tree may have to open whole. */
const SMALL_TREE = 64;

const view = {
  name: "lessons",
  title: "Lessons",
  order: 60,
  app: null,
  page: null,

  mount(root, app) {
    this.app = app;
    this.list = JSON.parse(app.k.lesson_list());
    root.innerHTML = `
      <div class="lessons-view">
        <nav class="lesson-list" aria-label="lessons"><ol id="lesson-list"></ol></nav>
        <article id="lesson" class="lesson"></article>
      </div>`;
    const ol = root.querySelector("#lesson-list");
    for (const l of this.list) {
      const a = h("a", { href: `#view=lessons&lesson=${l.id}`, "data-lesson": l.id }, l.title);
      ol.appendChild(h("li", {}, a));
    }
  },

  show(link, app) {
    const id = app.router.extra("lesson") || "search";
    const example = Number(app.router.extra("example"));
    this.open(this.list.some((l) => l.id === id) ? id : "search", Number.isInteger(example) && app.router.extra("example") !== null ? example : null);
  },

  open(id, example) {
    this.page = JSON.parse(this.app.k.lesson_page(id));
    this.app.router.setExtra("lesson", id);
    const article = document.getElementById("lesson");
    article.innerHTML = this.page.html;
    article.dataset.lesson = id;
    article.prepend(h("p", { class: "source-note" }, `From ${this.page.file} of the repository, rendered here; the commands marked ▶ run in this page.`));
    for (const a of document.querySelectorAll("#lesson-list a")) a.classList.toggle("current", a.dataset.lesson === id);
    article.querySelectorAll("code.live").forEach((code) => this.liveCode(code));
    article.querySelectorAll("div.live-tree").forEach((div) => this.liveTree(div));
    if (example !== null) {
      const target = article.querySelector(`[data-live="${example}"]`);
      if (!target) {
        this.app.message(`The link's example=${example} is not a live command of this lesson (it has ${this.page.live.length}, numbered from 0)`, "error");
      } else {
        target.scrollIntoView({ block: "center" });
        const button = target.parentNode.querySelector(`button[data-run="${example}"]`) || target.querySelector("button");
        if (button) button.click();
      }
    }
  },

  liveCode(code) {
    const n = Number(code.dataset.live);
    const item = this.page.live[n];
    const button = h("button", { type: "button", class: "run-live", "data-run": String(n), title: "run it here" }, "▶");
    const out = h("div", { class: "live-out", "data-out": String(n), "aria-live": "polite" });
    code.after(button);
    // A command in a code block answers below the block (in the order of its commands).
    const pre = code.closest("pre");
    if (pre) {
      let outs = pre.nextElementSibling;
      if (!outs || !outs.classList.contains("live-outs")) {
        outs = h("div", { class: "live-outs" });
        pre.after(outs);
      }
      outs.appendChild(out);
    } else {
      code.parentNode.after(out);
    }
    button.addEventListener("click", () => {
      this.app.router.setExtra("example", n);
      if (item.kind === "search") this.runSearch(item, out);
      else this.openTree(item, out);
    });
  },

  liveTree(div) {
    const item = this.page.live[Number(div.dataset.live)];
    const button = h("button", { type: "button", class: "run-live", "data-run": div.dataset.live }, `▶ draw ${item.command}`);
    div.appendChild(button);
    button.addEventListener("click", () => {
      button.remove();
      this.openTree(item, div);
    });
  },

  async runSearch(item, out) {
    out.textContent = `${item.command}: searching with the ${item.profile} profile, depth ${item.depth}…`;
    const run = this.app.client.request("search", { spec: { fen: item.fen, engine: item.profile, depth: item.depth } }, undefined, { native: true });
    try {
      const r = await run.done;
      if (!r.best) {
        out.textContent = ` ${r.note || "no move"}`;
        return;
      }
      out.textContent = `${item.command} → ${item.profile} plays ${r.best_san} (${r.best})` +
        (r.book ? ", its book move" : `, score ${fmtScore(r.score, r.mate)} (${scoreView(item.fen)}), ${fmtInt(r.nodes)} nodes, line ${(r.pv_san || r.pv || []).join(" ")}`);
      out.dataset.best = r.best;
      const board = h("div", { class: "board-wrap tiny" });
      out.appendChild(board);
      const cb = new ChessBoard(board, { canMove: () => false });
      const b = this.app.k.Board.from_fen(item.fen);
      cb.render(JSON.parse(b.view()));
      b.free();
      cb.setArrow(r.best);
      const tree = h("button", { type: "button", class: "open-tree" }, "its position's tree (reference search)");
      tree.title = "The tree view draws the reference search, minimax and alpha-beta; a profile's own search is not recorded node by node";
      tree.addEventListener("click", () => {
        // The lesson's position as the tree view's own (the game on the board stays as it is).
        this.app.router.update({ depth: Math.min(item.depth, 3) });
        this.app.router.setExtra("root", item.fen);
        this.app.router.setExtra("tree", "native");
        for (const key of ["node", "algorithm", "width"]) this.app.router.setExtra(key, null);
        this.app.show("tree", this.app.router.current, "link");
      });
      out.appendChild(tree);
    } catch (err) {
      out.textContent = ` ${err.message || err}`;
    }
  },

  async openTree(item, into) {
    const box = h("div", { class: "lesson-tree" });
    const summary = h("div", { class: "summary" }, "searching…");
    const holder = h("div", { class: "tree-box" });
    const boardBox = h("div", { class: "board-wrap tiny" });
    box.append(summary, h("div", { class: "lesson-tree-row" }, [holder, boardBox]));
    into.appendChild(box);
    const board = new ChessBoard(boardBox, { canMove: () => false });
    const widget = new TreeWidget(holder, {
      onSelect: (i, n) => {
        const b = this.app.k.Board.from_fen(n.fen);
        board.render(JSON.parse(b.view()));
        b.free();
        if (n.mv && n.mv !== "null") board.setArrow(n.mv);
      },
    });
    const spec = { algorithm: item.algorithm, depth: item.depth, width: item.width, fen: item.fen, tartan: !item.fen };
    try {
      const tree = await this.app.client.request("tree", { spec }, undefined, { native: true }).done;
      widget.setTree(tree);
      summary.textContent = `${tree.title}: ${fmtInt(tree.nodes.length)} nodes, value ${tree.score}, principal variation ${tree.pv.join(" ")}`;
      summary.dataset.nodes = String(tree.nodes.length);
      // A small tree (a lesson's figure) opens whole, as the figure draws it; a larger one
      // at its root.
      if (tree.nodes.length <= SMALL_TREE) tree.nodes.forEach((_, i) => widget.open(i));
      else widget.open(0);
      widget.select(0);
    } catch (err) {
      summary.textContent = String(err.message || err);
    }
  },
};

registerView(view);
