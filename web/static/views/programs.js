// The Programs view: the real Microchess (KIM-1) and Sargon (Jupiter III) from the user's own
// files. The page asks for the files the program's adaptor file names (it never holds, bundles
// or fetches them), checks each against the SHA-256 the adaptor gives, and in the worker
// assembles or loads the program, sets up the position and runs the program's turn on its
// machine (learn/programs.rs); its move, cycles and its machine's time are the program's own.
// The board is the program's own, read from its RAM where its adaptor file says it keeps it
// (kempelen_adaptor::board): as its turn began (what the set-up left there) and after its
// move; the squares where it differs from the game's position are marked, and what the
// program's board does not hold (castling rights, the en-passant square) is said.
// The turn runs in the worker a slice at a time (learn/programs.rs ProgramJob): its cycles
// and its machine's clock are shown while it thinks, Pause holds it, Stop ends it at any moment
// with the move it holds as best, and at the machine's real speed the slices are paced to its
// clock.
// Beside it the move of the program's profile (the native re-creation) on the same position.
// Link keys: the game (fen, moves) whose position it plays, or `root` (a FEN typed here),
// depth, speed (fast | real), and its own `program` (microchess | sargon).

import { ChessBoard } from "../board.js";
import { registerView } from "../views.js";
import { fmtInt, h } from "../ui.js";

const DEPTHS = { microchess: 1, sargon: 2 };
const PIECE = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };

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
          <div id="prog-which" class="which" role="radiogroup" aria-label="which board">
            <label><input type="radio" name="prog-which" value="before" disabled> its RAM before its turn</label>
            <label><input type="radio" name="prog-which" value="after" disabled> its RAM after its move</label>
            <label><input type="radio" name="prog-which" value="game" checked> the game's position</label>
          </div>
          <p id="prog-board-note" class="hint" data-which="game"></p>
          <ul id="prog-diffs" class="diffs"></ul>
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
            <label>Speed <select id="prog-speed">
              <option value="fast">as fast as the browser goes</option>
              <option value="real">at its machine's real speed</option>
            </select></label>
            <div class="controls"><button type="submit" id="prog-play" disabled aria-describedby="prog-why">Play its move</button>
              <button type="button" id="prog-pause" disabled>Pause</button>
              <button type="button" id="prog-stop" disabled>Stop</button></div>
            <p id="prog-why" class="hint" aria-live="polite"></p>
            <ul id="prog-unused" class="diffs"></ul>
          </form>
          <div id="prog-clock" class="status"></div>
          <div id="prog-result" class="status" aria-live="polite"></div>
          <p class="hint">The files are the published ones its adaptor file names
          (<a id="prog-lesson" href="#view=lessons&amp;lesson=microchess">its lesson</a> says where they are;
          a file is known by its contents, whatever its name). The program runs on its machine as
          Kempelen's emulator runs it: its cycles, its time at the machine's clock.</p>
          <details id="prog-adaptor"><summary>its adaptor file</summary><pre class="mono"></pre></details>
        </div>
      </div>`;
    this.board = new ChessBoard(root.querySelector("#prog-board"), { canMove: () => false });
    root.querySelector("#prog-id").addEventListener("change", () => this.choose());
    root.querySelector("#prog-files").addEventListener("change", (e) => this.pick(e.target.files));
    root.querySelector("#prog-form").addEventListener("submit", (e) => { e.preventDefault(); this.play(); });
    root.querySelector("#prog-fen").addEventListener("change", () => {
      const fen = document.getElementById("prog-fen").value.trim();
      this.app.router.setExtra("root", fen && fen !== this.app.game.fen() ? fen : null);
      this.drawPosition();
    });
    root.querySelector("#prog-stop").addEventListener("click", () => { if (this.run) this.run.stop(); });
    root.querySelector("#prog-pause").addEventListener("click", () => this.pause());
    for (const r of root.querySelectorAll("input[name=prog-which]")) {
      r.addEventListener("change", () => this.drawWhich(r.value));
    }
  },

  show(link, app, how) {
    const id = app.router.extra("program");
    if (id && DEPTHS[id]) document.getElementById("prog-id").value = id;
    if (how === "link") app.gameFromLink(link);
    // The game's position, or the view's own (`root`: a FEN typed here).
    document.getElementById("prog-fen").value = app.router.extra("root") || app.game.fen();
    if (link.speed === "real" || link.speed === "fast") document.getElementById("prog-speed").value = link.speed;
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
      const as = f.picked_as ? ` (picked as ${f.picked_as})` : "";
      const state = f.ok ? `✓ the same${as}` : f.picked ? `✖ differs${as}: ${f.picked.slice(0, 16)}…` : "not picked";
      table.appendChild(h("tr", { "data-file": f.name, "data-ok": String(f.ok) }, [
        h("td", {}, f.name), h("td", { title: f.sha256 }, `${f.sha256.slice(0, 16)}…`), h("td", {}, state)]));
    }
    const ready = this.info.files.every((f) => f.ok);
    document.getElementById("prog-play").disabled = !ready;
    document.getElementById("prog-checks").dataset.ready = String(ready);
    this.explain(ready);
  },

  /** Why the Play button is greyed, the files picked that are not used, the adaptor file. */
  explain(ready) {
    const info = this.info;
    const lesson = document.getElementById("prog-lesson");
    lesson.href = `#view=lessons&lesson=${info.id}`;
    lesson.textContent = `the ${info.name.split(" ")[0]} lesson`;
    const adaptor = document.getElementById("prog-adaptor");
    adaptor.querySelector("summary").textContent = `its adaptor file, adaptors/${info.file}`;
    adaptor.querySelector("pre").textContent = info.adaptor;
    const missing = info.files.filter((f) => !f.picked).map((f) => f.name);
    const wrong = info.files.filter((f) => f.picked && !f.ok).map((f) => f.picked_as ? `${f.picked_as} (for ${f.name})` : f.name);
    const why = document.getElementById("prog-why");
    why.textContent = ready
      ? `Ready: ${info.files.map((f) => f.picked_as ? `${f.picked_as} is ${f.name}` : f.name).join(", ")}.`
      : [
          missing.length ? `Pick ${missing.join(" and ")} (the published file${missing.length > 1 ? "s" : ""}; the lesson says where to find ${missing.length > 1 ? "them" : "it"}) to play.` : "",
          wrong.length ? `The picked ${wrong.join(", ")} is not the published file (its SHA-256 differs): pick the published one.` : "",
        ].filter(Boolean).join(" ");
    why.dataset.ready = String(ready);
    const unused = document.getElementById("prog-unused");
    unused.textContent = "";
    for (const u of info.unused) unused.appendChild(h("li", { "data-file": u.name }, `${u.name}: not used, ${u.reason}`));
  },

  /** The game's position (no program's board read yet). */
  drawPosition() {
    this.reads = null;
    for (const r of document.querySelectorAll("input[name=prog-which]")) {
      r.disabled = r.value !== "game";
      r.checked = r.value === "game";
    }
    this.drawWhich("game");
  },

  /** The game's position as a board view, or null (a message said why). */
  gameView(fen) {
    try {
      const b = fen ? this.app.k.Board.from_fen(fen) : new this.app.k.Board();
      const v = JSON.parse(b.view());
      b.free();
      return v;
    } catch (err) {
      this.app.message(`Real programs, the position: ${err.message || err}`, "error");
      return null;
    }
  },

  /**
   * Draws one board: `before` / `after` (the program's, read from its RAM) or `game` (the
   * position given to it, with its move once it answered). Squares where the program's board
   * differs from the game's are marked and listed.
   */
  drawWhich(which) {
    const note = document.getElementById("prog-board-note");
    const diffs = document.getElementById("prog-diffs");
    diffs.textContent = "";
    note.dataset.which = which;
    delete note.dataset.placement;
    delete note.dataset.differences;
    const read = this.reads ? this.reads[which] : null;
    const best = this.reads ? this.reads.best : null;
    if (!read) {
      const fen = (this.reads && this.reads.fen) || document.getElementById("prog-fen").value.trim();
      const v = this.gameView(fen);
      if (!v) return;
      this.board.render(v);
      this.board.setMarks({});
      this.board.setArrow(best);
      note.textContent = best ? "The game's position, the program's move on it as an arrow." : "The game's position, given to the program.";
      return;
    }
    const name = this.info ? this.info.name : "the program";
    if (read.error) {
      this.board.render({ squares: new Array(64).fill(""), legal: [], last: null, check: null });
      this.board.setMarks({});
      this.board.setArrow(null);
      note.textContent = `Its board could not be read from its RAM: ${read.error}`;
      return;
    }
    const b = read.board;
    const squares = new Array(64).fill("");
    b.squares.forEach((c, i) => { if (c) squares[(7 - Math.floor(i / 8)) * 8 + (i % 8)] = c; });
    const last = which === "after" && best ? { uci: best } : null;
    this.board.render({ squares, legal: [], last, check: null });
    this.board.setArrow(null);
    const marks = {};
    for (const d of read.differences) marks[d.square] = "differs";
    this.board.setMarks(marks);
    note.dataset.placement = read.placement;
    note.dataset.differences = String(read.differences.length);
    const end = (b.at + b.bytes.length - 1).toString(16).toUpperCase().padStart(4, "0");
    const where = `$${b.at.toString(16).toUpperCase().padStart(4, "0")}-$${end}`;
    const layout = b.layout === "piece_list"
      ? `${where}, the square of each of its ${b.bytes.length} pieces (${b.captured.length} marked captured)`
      : `${where}, a byte per square`;
    const when = which === "before" ? "as its turn began (what the set-up left there)" : "after its move";
    const game = read.game.split(" ");
    const holds = read.castling === null
      ? `It keeps no castling rights, no en-passant square and no side to move (the game: castling ${game[2]}, en passant ${game[3]}).`
      : `Its pieces' "moved" marks allow castling ${read.castling} (the game: ${game[2]}); it keeps no en-passant square on its board (the game: ${game[3]}).`;
    const same = read.differences.length === 0
      ? "Its pieces stand where the game's stand."
      : `It differs from the game's position on ${read.differences.length} square${read.differences.length === 1 ? "" : "s"} (marked).`;
    note.textContent = `${name}'s board read from its RAM ${when}: ${layout}. ${same} ${holds}`;
    const show = (c) => (c ? `${c === c.toUpperCase() ? "White" : "Black"} ${PIECE[c.toLowerCase()]}` : "nothing");
    for (const d of read.differences) {
      diffs.appendChild(h("li", { "data-square": d.square }, `${d.square}: the game has ${show(d.game)}, its board ${show(d.program)}`));
    }
  },

  async play() {
    const id = document.getElementById("prog-id").value;
    const fen = document.getElementById("prog-fen").value.trim() || null;
    const depth = Number(document.getElementById("prog-depth").value);
    const speed = document.getElementById("prog-speed").value;
    this.app.router.update({ depth, speed });
    this.app.router.setExtra("root", fen && fen !== this.app.game.fen() ? fen : null);
    const out = document.getElementById("prog-result");
    for (const key of ["best", "profileBest", "before", "after", "stopped"]) delete out.dataset[key];
    out.textContent = `${this.info.name}: set up on its machine…`;
    const clock = document.getElementById("prog-clock");
    clock.textContent = "";
    delete clock.dataset.cycles;
    this.drawPosition();
    const files = this.files.map((f) => ({ name: f.name, bytes: f.bytes }));
    const spec = { id, fen, depth, realtime: speed === "real" };
    const play = document.getElementById("prog-play");
    const stop = document.getElementById("prog-stop");
    const pause = document.getElementById("prog-pause");
    play.disabled = true;
    document.getElementById("prog-why").textContent = "Its turn runs (Play is greyed until it answers): Pause or Stop it.";
    stop.disabled = false;
    pause.disabled = false;
    pause.textContent = "Pause";
    this.paused = false;
    this.run = this.app.client.request("program", { spec, files }, (ev) => this.thinking(ev));
    try {
      const r = await this.run.done;
      this.showMove(r, depth);
    } catch (err) {
      out.textContent = String(err.message || err);
    } finally {
      this.run = null;
      stop.disabled = true;
      pause.disabled = true;
      pause.textContent = "Pause";
      play.disabled = !this.info.files.every((f) => f.ok);
      this.explain(!play.disabled);
    }
  },

  /** Holds the program's turn (its machine stops between two slices) or lets it go on. */
  pause() {
    if (!this.run) return;
    this.paused = !this.paused;
    if (this.paused) this.run.pause();
    else this.run.resume();
    const button = document.getElementById("prog-pause");
    button.textContent = this.paused ? "Resume" : "Pause";
    document.getElementById("prog-clock").dataset.paused = String(this.paused);
  },

  /** A slice's report: the program's machine's clock while it thinks, its board before. */
  thinking(ev) {
    const clock = document.getElementById("prog-clock");
    if (ev.kind === "held") {
      // The worker holds the machine: no slice runs until Resume.
      clock.dataset.heldAt = ev.cycles === null ? "" : String(ev.cycles);
      return;
    }
    delete clock.dataset.heldAt;
    if (ev.board_before) {
      this.reads = { before: ev.board_before, after: null, best: null, fen: ev.board_before.game };
      for (const radio of document.querySelectorAll("input[name=prog-which]")) {
        radio.disabled = radio.value === "after";
        radio.checked = radio.value === "before";
      }
      this.drawWhich("before");
    }
    if (!ev.searching) return;
    clock.dataset.cycles = String(ev.cycles);
    clock.textContent = `${this.info.name} thinks: ${fmtInt(ev.cycles)} cycles, ${ev.seconds.toFixed(1)} s of its machine's time` +
      (ev.nodes !== null ? `, ${fmtInt(ev.nodes)} nodes` : "");
    document.getElementById("prog-result").textContent = `${this.info.name} computes its move on its machine…`;
  },

  /** The program's move, its boards from its RAM, and its profile's move at the same depth. */
  async showMove(r, depth) {
    const out = document.getElementById("prog-result");
    try {
      if (!r.best) {
        out.textContent = `${this.info.name} answered no move`;
        return;
      }
      this.reads = { before: r.board_before, after: r.board_after, best: r.best, fen: r.fen };
      out.dataset.before = r.board_before && r.board_before.placement ? r.board_before.placement : "";
      out.dataset.after = r.board_after && r.board_after.placement ? r.board_after.placement : "";
      for (const radio of document.querySelectorAll("input[name=prog-which]")) {
        radio.disabled = !this.reads[radio.value] && radio.value !== "game";
        radio.checked = radio.value === (r.board_after ? "after" : "game");
      }
      this.drawWhich(r.board_after ? "after" : "game");
      const time = r.seconds === null ? "" : `, ${r.seconds.toFixed(1)} s at the ${r.machine}'s ${r.mhz} MHz`;
      const verb = r.stopped ? "was stopped; the move it held as best is" : "plays";
      const line1 = `${this.info.name} ${verb} ${r.san} (${r.best}): ${r.cycles === null ? "" : `${fmtInt(r.cycles)} cycles`}${time}` +
        (r.nodes !== null ? `, ${fmtInt(r.nodes)} nodes` : "") + (r.level !== null ? `, level ${r.level}` : "");
      out.textContent = line1;
      out.dataset.best = r.best;
      out.dataset.stopped = String(r.stopped);
      if (r.cycles !== null) {
        const clock = document.getElementById("prog-clock");
        clock.dataset.cycles = String(r.cycles);
        clock.textContent = `its turn ${r.stopped ? "until stopped" : "to its answer"}: ${fmtInt(r.cycles)} cycles`;
      }
      if (r.stopped) {
        out.appendChild(h("div", {}, "Stopped before it answered: its board in RAM then holds a move of its search, not its answer, so it is not drawn; its profile's move is not compared."));
        return;
      }
      const p = await this.app.client.request("search", { spec: { fen: r.fen, engine: this.info.profile, depth } }, undefined, { native: true }).done;
      out.dataset.profileBest = p.best || "";
      const same = p.best === r.best;
      out.appendChild(h("div", { class: same ? "same" : "differs" },
        `its profile ${this.info.profile} (the native re-creation) plays ${p.best_san || "no move"} (${p.best || "-"}) at depth ${depth}: ` +
        (same ? "the same move" : "a different move")));
    } catch (err) {
      out.textContent = String(err.message || err);
    }
  },
};

registerView(view);
