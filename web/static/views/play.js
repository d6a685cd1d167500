// The Play view: the board, the game, and an opponent (an 8-bit build in the emulator on a
// machine of its own, at that machine's speed or as fast as the browser runs it, or a native
// profile). While it thinks: depth, score, nodes, principal variation, emulated time and
// cycles, nodes per second at the machine's clock.

import { ChessBoard } from "../board.js";
import { registerView } from "../views.js";
import { fmtInt, fmtScore, fmtSeconds, describeResult, engineOptions, machineOptions, scoreView, h } from "../ui.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const play = {
  name: "play",
  title: "Play",
  order: 10,
  app: null,
  board: null,
  run: null,
  engineSide: "b",

  mount(root, app) {
    this.app = app;
    root.innerHTML = `
      <div class="play">
        <div class="board-col">
          <div id="board" class="board-wrap"></div>
          <div class="controls">
            <button type="button" id="new-game">New game</button>
            <button type="button" id="undo">Undo</button>
            <button type="button" id="flip">Flip</button>
            <button type="button" id="go">Engine move</button>
            <button type="button" id="stop" disabled>Stop</button>
            <button type="button" id="debug" title="this search of the 8-bit build in the machine view, paused at its start">Step through it</button>
          </div>
          <form id="move-form" class="move-form">
            <label for="move-input">Your move</label>
            <input id="move-input" autocomplete="off" spellcheck="false" placeholder="e4, Nf3, O-O, exd5, e8=Q or e2e4">
            <button type="submit">Play</button>
          </form>
          <div id="status" class="status" aria-live="polite"></div>
        </div>
        <div class="side-col">
          <fieldset class="opponent">
            <legend>Opponent</legend>
            <label>Engine <select id="engine"></select></label>
            <label>Machine <select id="machine"></select></label>
            <label>Depth <input id="depth" type="number" min="1" max="32" value="3"></label>
            <label>Speed <select id="speed">
              <option value="fast">as fast as the browser runs it</option>
              <option value="real">at the machine's real speed</option>
            </select></label>
            <label>Engine plays <select id="engine-side">
              <option value="b">Black</option>
              <option value="w">White</option>
              <option value="none">neither (analyse on request)</option>
            </select></label>
          </fieldset>
          <div id="thinking" class="thinking">
            <div id="clock" class="clock" title="emulated time of this search"></div>
            <div id="progress" class="progress"></div>
            <div class="table-box"><table id="iterations" class="iterations">
              <thead><tr><th>depth</th><th id="score-head">score</th><th>nodes</th><th>time</th><th>nps</th><th>cycles</th><th>principal variation</th></tr></thead>
              <tbody></tbody>
            </table></div>
            <div id="result" class="result"></div>
          </div>
          <h3>Moves</h3>
          <ol id="moves" class="moves"></ol>
          <details id="fen-box">
            <summary>FEN</summary>
            <input id="fen-out" readonly aria-label="the position's FEN">
            <form id="fen-form"><input id="fen-input" spellcheck="false" aria-label="a FEN to set up" placeholder="paste a FEN"><button type="submit" id="fen-load">Set up</button></form>
          </details>
          <details id="pgn-box">
            <summary>PGN</summary>
            <textarea id="pgn" rows="8" spellcheck="false" aria-label="the game as PGN"></textarea>
            <button type="button" id="pgn-export">Show this game</button>
            <button type="button" id="pgn-load">Load this PGN</button>
          </details>
        </div>
      </div>`;
    this.board = new ChessBoard(root.querySelector("#board"), {
      onMove: (uci) => this.userMove(uci),
      canMove: () => !this.run && !this.isEngineTurn(),
    });
    this.fillEngines();
    const $ = (id) => root.querySelector(`#${id}`);
    $("new-game").addEventListener("click", () => this.newGame());
    $("undo").addEventListener("click", () => this.undo());
    $("flip").addEventListener("click", () => this.board.flip());
    $("go").addEventListener("click", () => this.think({ play: true }));
    $("stop").addEventListener("click", () => this.stop({ byUser: true }));
    $("debug").addEventListener("click", () => this.debug());
    $("move-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $("move-input");
      if (this.userMove(input.value.trim())) input.value = "";
    });
    $("fen-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.loadFen($("fen-input").value);
    });
    $("pgn-export").addEventListener("click", () => this.exportPgn());
    $("pgn-load").addEventListener("click", () => this.loadPgn($("pgn").value));
    $("engine").addEventListener("change", () => {
      this.fillMachines();
      this.settingsChanged();
    });
    for (const id of ["machine", "depth", "speed"]) $(id).addEventListener("change", () => this.settingsChanged());
    $("engine-side").addEventListener("change", () => {
      this.engineSide = $("engine-side").value;
      this.board.render(JSON.parse(this.app.game.view()));
      // Now the engine's turn: its move is searched (after the search under way, if any).
      this.maybeEngineMoves();
    });
    app.onGame(() => this.gameChanged());
  },

  $(id) {
    return document.getElementById(id);
  },

  fillEngines() {
    const select = this.$("engine");
    select.innerHTML = "";
    for (const opt of engineOptions(this.app.engines)) select.appendChild(opt);
    select.value = "z80";
    this.fillMachines();
  },

  fillMachines() {
    const engine = this.app.engines.find((e) => e.id === this.$("engine").value);
    const select = this.$("machine");
    select.innerHTML = "";
    const port = engine && engine.kind === "port";
    for (const opt of machineOptions(engine)) select.appendChild(opt);
    select.disabled = !port;
    this.$("speed").disabled = !port;
    this.$("debug").disabled = !port;
    this.$("depth").max = engine ? engine.max_depth : 32;
  },

  /** The opponent as the link and a search request name it. */
  settings() {
    const engine = this.$("engine").value;
    const port = this.app.engines.find((e) => e.id === engine)?.kind === "port";
    const depth = Math.max(1, Number(this.$("depth").value) || 1);
    return {
      engine,
      machine: port ? this.$("machine").value : undefined,
      depth,
      speed: port ? this.$("speed").value : undefined,
    };
  },

  settingsChanged() {
    const s = this.settings();
    this.app.router.update({ engine: s.engine, machine: s.machine, depth: s.depth, speed: s.speed });
  },

  /**
   * Applies a link: its position and moves, its opponent. A link that was opened (not a tab
   * click) and names an engine and a depth runs that search: the engine plays it when it is
   * the engine's turn, else its move is shown with an arrow.
   */
  show(link, app, how) {
    const searched = how === "link" && link.engine != null && link.depth != null;
    if (link.engine && this.app.engines.some((e) => e.id === link.engine)) {
      this.$("engine").value = link.engine;
      this.fillMachines();
    }
    if (link.machine && [...this.$("machine").options].some((o) => o.value === link.machine)) {
      this.$("machine").value = link.machine;
    }
    if (link.depth) this.$("depth").value = link.depth;
    if (link.speed) this.$("speed").value = link.speed;
    const fen = link.fen || START;
    const moves = (link.moves || []).join(",");
    if (fen !== app.game.start_fen() || moves !== app.game.moves()) {
      this.stop();
      try {
        app.setGame(app.k.Board.from_moves(fen, moves));
      } catch (err) {
        app.message(`Play, the link's game: ${err.message || err}`, "error");
      }
    } else {
      this.gameChanged();
    }
    this.settingsChanged();
    if (searched && !JSON.parse(app.game.view()).status.over) {
      this.think({ play: this.isEngineTurn() });
    }
  },

  isEngineTurn() {
    const side = this.app.game ? JSON.parse(this.app.game.view()).side : "w";
    return this.engineSide === side;
  },

  gameChanged() {
    const app = this.app;
    const view = JSON.parse(app.game.view());
    this.view = view;
    this.board.setArrow(null);
    this.board.render(view);
    this.$("status").textContent = view.status.text;
    this.$("status").dataset.over = view.status.over;
    this.$("fen-out").value = view.fen;
    const list = this.$("moves");
    list.innerHTML = "";
    for (let i = 0; i < view.moves.length; i++) {
      const m = view.moves[i];
      if (m.side === "w" || i === 0) {
        const li = h("li", { value: m.number });
        if (m.side === "b") li.appendChild(h("span", { class: "san" }, "…"));
        list.appendChild(li);
      }
      list.lastChild.appendChild(h("span", { class: "san", "data-uci": m.uci }, m.san));
    }
    const start = view.start_fen === START ? undefined : view.start_fen;
    const moves = view.moves.map((m) => m.uci);
    app.router.update({ fen: start, moves: moves.length ? moves : undefined });
  },

  userMove(text) {
    const app = this.app;
    if (this.run) {
      app.message("The engine is thinking: stop it first, or wait for its move.", "error");
      return false;
    }
    if (!text) return false;
    try {
      app.game.play(text);
    } catch (err) {
      app.message(`Your move: ${err.message || err}`, "error");
      return false;
    }
    app.gameChanged();
    this.maybeEngineMoves();
    return true;
  },

  /** The engine's move when it is its turn (after the search under way, if one runs). */
  maybeEngineMoves() {
    if (this.isEngineTurn() && !JSON.parse(this.app.game.view()).status.over) {
      this.think({ play: true });
    }
  },

  newGame() {
    this.stop();
    this.app.setGame(new this.app.k.Board());
    this.clearThinking();
    this.maybeEngineMoves();
  },

  undo() {
    this.stop();
    const game = this.app.game;
    if (!game.undo()) return;
    // Back to the player's turn: the engine's reply goes with the move it answered.
    if (this.isEngineTurn() && game.moves() !== "") game.undo();
    this.app.gameChanged();
  },

  loadFen(text) {
    try {
      const board = this.app.k.Board.from_fen(text);
      this.stop();
      this.app.setGame(board);
      this.clearThinking();
    } catch (err) {
      this.app.message(`FEN box: ${err.message || err}`, "error");
    }
  },

  exportPgn() {
    const s = this.settings();
    const engineName = this.opponentName(s);
    const white = this.engineSide === "w" ? engineName : "Player";
    const black = this.engineSide === "b" ? engineName : "Player";
    this.$("pgn").value = this.app.game.pgn(white, black);
  },

  opponentName(s) {
    const e = this.app.engines.find((x) => x.id === s.engine);
    if (!e) return s.engine;
    if (e.kind !== "port") return `Kempelen ${e.label}`;
    const m = e.machines.find((x) => x.id === s.machine);
    return `Kempelen ${e.label.replace(" (emulated)", "")}, ${m ? m.name : s.machine}`;
  },

  loadPgn(text) {
    try {
      const board = this.app.k.Board.from_pgn(text);
      this.stop();
      this.app.setGame(board);
      this.clearThinking();
    } catch (err) {
      this.app.message(`PGN box: ${err.message || err}`, "error");
    }
  },

  clearThinking() {
    this.$("iterations").querySelector("tbody").innerHTML = "";
    this.$("progress").textContent = "";
    this.$("clock").textContent = "";
    const r = this.$("result");
    r.textContent = "";
    for (const key of Object.keys(r.dataset)) delete r.dataset[key];
  },

  /**
   * Runs a search of the position on the board; with `play`, its move is played. Asked for
   * while the last search still runs (it is stopping: a new game, a link), it waits for that
   * one to end and then runs, said as such, never dropped.
   */
  async think({ play }) {
    const app = this.app;
    if (this.run) {
      this.queued = { play };
      this.stop();
      this.$("progress").textContent = "Waiting for the last search to stop; this one starts then.";
      return;
    }
    if (JSON.parse(app.game.view()).status.over) {
      app.message("The game is over: no move to search.", "error");
      return;
    }
    const s = this.settings();
    const spec = {
      fen: app.game.start_fen(),
      moves: app.game.moves() ? app.game.moves().split(",") : [],
      engine: s.engine,
      machine: s.machine,
      depth: s.depth,
      speed: s.speed,
    };
    s.side = JSON.parse(app.game.view()).side;
    const engine = app.engines.find((e) => e.id === s.engine);
    const native = engine && engine.kind === "native";
    this.clearThinking();
    this.$("score-head").textContent = `score (${scoreView(s.side)})`;
    this.$("progress").textContent = `${engine ? engine.label : s.engine} searches ${play ? "its move" : "this position"} …`;
    const startedAt = app.game.fen() + "|" + app.game.moves();
    const run = app.client.request("search", { spec }, (ev) => this.onEvent(ev), { native });
    this.run = run;
    if (!native) app.activeSearch = { run, spec, engine: s.engine };
    this.setBusy(true);
    try {
      const result = await run.done;
      const same = app.game.fen() + "|" + app.game.moves() === startedAt;
      if (!same || run.superseded) {
        // The game changed while it searched (it was stopped for that): its answer is not
        // this position's, so none is shown.
        this.clearThinking();
        this.$("result").textContent = "The search of the position before was stopped: the game changed.";
        return;
      }
      this.showResult(result, s);
      if (result.best) {
        if (play) {
          app.game.play(result.best);
          app.gameChanged();
        } else {
          this.board.setArrow(result.best);
        }
      }
    } catch (err) {
      app.message(`The search failed: ${err.message || err}`, "error");
    } finally {
      if (this.run === run) this.run = null;
      if (app.activeSearch && app.activeSearch.run === run) app.activeSearch = null;
      this.setBusy(false);
      const next = this.queued;
      this.queued = null;
      if (next && !JSON.parse(app.game.view()).status.over) this.think(next);
    }
  },

  /**
   * Stops the search under way. By the Stop button its answer is shown (an 8-bit build's last
   * completed iteration, played when it is the engine's turn); otherwise (a new game, a link,
   * an undo: the position changes) it is dropped and nothing is played in its name.
   */
  stop({ byUser = false } = {}) {
    if (!this.run) return;
    if (byUser) this.queued = null;
    else this.run.superseded = true;
    this.run.stop();
  },

  /** The 8-bit build's search of this position, in the machine view (paused at its start). */
  debug() {
    this.stop();
    const s = this.settings();
    this.app.router.setExtra("cycles", null);
    const link = { ...this.app.router.current, engine: s.engine, machine: s.machine, depth: s.depth, view: "machine" };
    this.app.show("machine", link, "link");
  },

  setBusy(busy) {
    document.body.dataset.thinking = busy ? "true" : "false";
    this.$("stop").disabled = !busy;
    this.$("go").disabled = busy;
  },

  onEvent(ev) {
    if (ev.kind === "info") {
      const row = h("tr", {}, [
        h("td", {}, ev.depth ?? ""),
        h("td", {}, fmtScore(ev.score, ev.mate)),
        h("td", {}, fmtInt(ev.nodes)),
        h("td", {}, fmtSeconds(ev.time_ms)),
        h("td", {}, ev.nps !== null && ev.nps !== undefined ? fmtInt(Math.round(ev.nps)) : ""),
        h("td", {}, ev.cycles !== null && ev.cycles !== undefined ? fmtInt(ev.cycles) : ""),
        h("td", { class: "pv" }, ev.pv_san.join(" ")),
      ]);
      this.$("iterations").querySelector("tbody").appendChild(row);
      if (ev.pv.length) this.board.setArrow(ev.pv[0]);
    } else if (ev.kind === "progress") {
      this.$("clock").textContent = fmtSeconds(ev.emulated_ms);
      this.$("progress").textContent =
        `iteration ${ev.iteration} · ${fmtInt(ev.nodes)} nodes · ${fmtInt(ev.cycles)} cycles · ` +
        `emulated ${fmtSeconds(ev.emulated_ms)} · host ${fmtSeconds(ev.host_ms)}`;
    }
  },

  showResult(r, s) {
    const el = this.$("result");
    el.textContent = describeResult(r, this.app.engines, s);
    el.dataset.best = r.best || "";
    el.dataset.engine = s.engine;
    if (r.nodes !== undefined) el.dataset.nodes = r.nodes;
    if (r.score !== undefined && r.score !== null) el.dataset.score = r.score;
    if (r.depth !== undefined) el.dataset.depth = r.depth;
    if (r.machine) {
      el.dataset.cycles = r.machine.cycles;
      el.dataset.emulatedMhz = r.machine.emulated_mhz;
      this.$("clock").textContent = fmtSeconds(r.machine.emulated_ms);
    }
    el.dataset.stopped = r.stopped ? "true" : "false";
  },
};

registerView(play);
