// The Programs view: the real Microchess (KIM-1) and Sargon (Jupiter III) from the user's own
// files. The page asks for the files the program's adaptor file names (it never holds, bundles
// or fetches them), checks each against the SHA-256 the adaptor gives, and in the worker
// assembles or loads the program, sets up the position and runs the program's turn on its
// machine (learn/programs.rs); its move, cycles and its machine's time are the program's own.
// Beside it the move of the program's profile (the native re-creation) on the same position.
// Link keys: fen, depth, and its own `program` (microchess | sargon).

import { ChessBoard } from "../board.js";
import { registerView } from "../views.js";
import { fmtInt, h } from "../ui.js";

const DEPTHS = { microchess: 1, sargon: 2 };

const view = {
  name: "programs",
  title: "Real programs",
  order: 70,
  app: null,
  files: [],

  mount(root, app) {
    this.app = app;
    root.innerHTML = `
      <div class="tree-view">
        <div class="board-col">
          <div id="prog-board" class="board-wrap small"></div>
          <p class="hint">The board shows the position given to the program and its move; the
          program's own board in its RAM is not read here.</p>
        </div>
        <div>
          <form id="prog-form" class="tree-form">
            <label>Program <select id="prog-id">
              <option value="microchess">Microchess (Peter Jennings, 1976), KIM-1</option>
              <option value="sargon">Sargon (Dan and Kathe Spracklen, 1978), Jupiter III</option>
            </select></label>
            <label>Its files (picked from your disk; never sent anywhere)
              <input type="file" id="prog-files" multiple></label>
            <table id="prog-checks" class="regs"></table>
            <label>Position (FEN) <input id="prog-fen" spellcheck="false" autocomplete="off"></label>
            <label>Depth <select id="prog-depth"><option>1</option><option>2</option><option>3</option></select></label>
            <div class="controls"><button type="submit" id="prog-play" disabled>Play its move</button></div>
          </form>
          <div id="prog-result" class="status" aria-live="polite"></div>
          <p class="hint">The files are the published ones the adaptor files in adaptors/ name
          (docs/history/microchess.md, sargon.md say where they are). The program runs on its
          machine as Kempelen's emulator runs it: its cycles, its time at the machine's clock.</p>
        </div>
      </div>`;
    this.board = new ChessBoard(root.querySelector("#prog-board"), { canMove: () => false });
    root.querySelector("#prog-id").addEventListener("change", () => this.choose());
    root.querySelector("#prog-files").addEventListener("change", (e) => this.pick(e.target.files));
    root.querySelector("#prog-form").addEventListener("submit", (e) => { e.preventDefault(); this.play(); });
    root.querySelector("#prog-fen").addEventListener("change", () => this.drawPosition());
  },

  show(link, app, how) {
    const id = app.router.extra("program");
    if (id && DEPTHS[id]) document.getElementById("prog-id").value = id;
    document.getElementById("prog-fen").value = link.fen || (app.game ? app.game.fen() : "");
    if (how === "link" || !this.info) this.choose(link.depth);
  },

  choose(depth) {
    const id = document.getElementById("prog-id").value;
    this.app.router.setExtra("program", id);
    document.getElementById("prog-depth").value = String(depth && depth <= 3 ? depth : DEPTHS[id]);
    this.check();
    this.drawPosition();
  },

  async pick(list) {
    this.files = await Promise.all(Array.from(list, async (f) => ({ name: f.name, bytes: await f.arrayBuffer() })));
    this.check();
  },

  check() {
    const picked = new this.app.k.Picked();
    for (const f of this.files) picked.add(f.name, new Uint8Array(f.bytes));
    try {
      this.info = JSON.parse(this.app.k.program_info(document.getElementById("prog-id").value, picked));
    } finally {
      picked.free();
    }
    const table = document.getElementById("prog-checks");
    table.textContent = "";
    table.appendChild(h("tr", {}, [h("th", {}, "file"), h("th", {}, "SHA-256 (adaptor)"), h("th", {}, "picked")]));
    for (const f of this.info.files) {
      const state = f.ok ? "✓ the same" : f.picked ? `✖ differs: ${f.picked.slice(0, 16)}…` : "not picked";
      table.appendChild(h("tr", { "data-file": f.name, "data-ok": String(f.ok) }, [
        h("td", {}, f.name), h("td", { title: f.sha256 }, `${f.sha256.slice(0, 16)}…`), h("td", {}, state)]));
    }
    const ready = this.info.files.every((f) => f.ok);
    document.getElementById("prog-play").disabled = !ready;
    document.getElementById("prog-checks").dataset.ready = String(ready);
  },

  drawPosition() {
    const fen = document.getElementById("prog-fen").value.trim();
    try {
      const b = fen ? this.app.k.Board.from_fen(fen) : new this.app.k.Board();
      this.board.render(JSON.parse(b.view()));
      b.free();
      this.board.setArrow(null);
    } catch (err) {
      this.app.message(String(err.message || err), "error");
    }
  },

  async play() {
    const id = document.getElementById("prog-id").value;
    const fen = document.getElementById("prog-fen").value.trim() || null;
    const depth = Number(document.getElementById("prog-depth").value);
    this.app.router.update({ fen: fen || undefined, depth });
    const out = document.getElementById("prog-result");
    delete out.dataset.best;
    delete out.dataset.profileBest;
    out.textContent = `${this.info.name}: its turn runs on its machine…`;
    this.drawPosition();
    const files = this.files.map((f) => ({ name: f.name, bytes: f.bytes }));
    try {
      const r = await this.app.client.request("program", { spec: { id, fen, depth }, files }, undefined, { native: true }).done;
      if (!r.best) {
        out.textContent = `${this.info.name} answered no move`;
        return;
      }
      this.board.setArrow(r.best);
      const time = r.seconds === null ? "" : `, ${r.seconds.toFixed(1)} s at the ${r.machine}'s ${r.mhz} MHz`;
      const line1 = `${this.info.name} plays ${r.san} (${r.best}): ${r.cycles === null ? "" : `${fmtInt(r.cycles)} cycles`}${time}` +
        (r.nodes !== null ? `, ${fmtInt(r.nodes)} nodes` : "") + (r.level !== null ? `, level ${r.level}` : "");
      out.textContent = line1;
      out.dataset.best = r.best;
      const p = await this.app.client.request("search", { spec: { fen: r.fen, engine: this.info.profile, depth } }, undefined, { native: true }).done;
      out.dataset.profileBest = p.best || "";
      const same = p.best === r.best;
      out.appendChild(h("div", { class: same ? "same" : "differs" },
        `its profile \`${this.info.profile}\` (the native re-creation) plays ${p.best_san || "no move"} (${p.best || "-"}) at depth ${depth}: ` +
        (same ? "the same move" : "a different move")));
    } catch (err) {
      out.textContent = String(err.message || err);
    }
  },
};

registerView(view);
