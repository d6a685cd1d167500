// The Machine view: an 8-bit build's search under the emulator's debugger, in the worker
// (worker/machine.js, machine.rs). Registers and flags; the disassembly around the PC with
// symbols and the source line (file:line) of each instruction; memory; the engine's board in
// RAM drawn as a board; the search path in the ply frames (the move at each ply, alpha and
// beta, the RAM each ply takes); cycles and emulated time; the cycle profile by routine; the
// cycles by source line: a column and a heat map over the listing (the disassembly's
// instructions, and the source lines of the routine chosen in the profile, else the PC's),
// whose lines add up to the routine's cycles in the profile, and the run's hottest lines.
// Pause, step, step over, step out, run to a routine or address, breakpoints, continue.
//
// Link: #engine=z80|6502&machine=<id>&depth=N&view=machine opens a search of the game's
// position paused at its start; the view's own key `cycles=N` runs it to that cycle count
// (the same state on every host), and the view writes it at every pause.

import { ChessBoard } from "../board.js";
import { registerView } from "../views.js";
import { fmtInt, fmtScore, fmtSeconds, h, heat } from "../ui.js";

const hex = (n, digits = 4) => "$" + n.toString(16).toUpperCase().padStart(digits, "0");

/** A line's place: `file:line`, or its address without a source line. */
const place = (l) => (l.file ? `${l.file}:${l.line}` : hex(l.address));


const machine = {
  name: "machine",
  title: "Machine",
  order: 30,
  app: null,
  run: null,
  state: null,
  running: false,
  board: null,

  mount(root, app) {
    this.app = app;
    root.innerHTML = `
      <div class="machine">
        <div class="mach-top">
          <label>Engine <select id="mach-engine"><option value="z80">Z80 build</option><option value="6502">6502 build</option></select></label>
          <label>Machine <select id="mach-machine"></select></label>
          <label>Depth <input id="mach-depth" type="number" min="1" max="32" value="3"></label>
          <button type="button" id="mach-start">Search the game's position</button>
          <button type="button" id="mach-end" disabled>End</button>
        </div>
        <div class="mach-controls controls" role="toolbar" aria-label="debugger">
          <button type="button" id="mach-pause" disabled>Pause</button>
          <button type="button" id="mach-step" disabled title="one instruction">Step</button>
          <button type="button" id="mach-over" disabled title="over a call">Step over</button>
          <button type="button" id="mach-out" disabled title="until the routine returns">Step out</button>
          <button type="button" id="mach-continue" disabled>Continue</button>
          <form id="mach-to-form"><input id="mach-target" spellcheck="false" placeholder="search, quiesce or $1234" aria-label="a routine or address">
            <button type="submit" id="mach-to" disabled>Run to</button>
            <button type="button" id="mach-break" disabled>Breakpoint</button></form>
        </div>
        <div id="mach-status" class="status" aria-live="polite">No search yet: choose a build, its machine and a depth, and press "Search the game's position".</div>
        <div class="mach-grid">
          <section class="mach-cpu">
            <h3>CPU</h3>
            <table id="mach-regs" class="regs"><tbody></tbody></table>
            <div id="mach-flags" class="flags mono"></div>
            <table class="counters"><tbody>
              <tr><th>PC</th><td id="mach-pc" class="mono"></td></tr>
              <tr><th>routine</th><td id="mach-routine" class="mono"></td></tr>
              <tr><th>cycles</th><td id="mach-cycles"></td></tr>
              <tr><th>instructions</th><td id="mach-instructions"></td></tr>
              <tr><th>emulated time</th><td id="mach-time"></td></tr>
              <tr><th>nodes</th><td id="mach-nodes"></td></tr>
              <tr><th>iteration / ply</th><td id="mach-ply"></td></tr>
            </tbody></table>
          </section>
          <section class="mach-code">
            <h3>Code</h3>
            <div class="table-box"><table id="mach-disasm" class="disasm mono"><tbody></tbody></table></div>
          </section>
          <section class="mach-board">
            <h3>The board in RAM</h3>
            <div id="mach-board" class="board-wrap small" hidden></div>
            <div id="mach-fen" class="mono small-text"></div>
          </section>
          <section class="mach-path">
            <h3>Search path (ply frames)</h3>
            <div class="table-box"><table id="mach-path"><thead><tr><th>ply</th><th>move</th><th>alpha</th><th>beta</th><th>RAM</th><th>frame</th></tr></thead><tbody></tbody></table></div>
            <h3>Iterations</h3>
            <div class="table-box"><table id="mach-iters"><thead><tr><th>depth</th><th title="in pawns, from the view of the side to move in the position searched">score (side to move)</th><th>nodes</th><th>cycles</th><th>principal variation</th></tr></thead><tbody></tbody></table></div>
            <div id="mach-result" class="result"></div>
          </section>
          <section class="mach-profile">
            <h3>Cycle profile</h3>
            <table id="mach-profile" title="a routine's row shows its cycles by line"><thead><tr><th>routine</th><th>cycles</th><th>share</th><th>calls</th></tr></thead><tbody></tbody></table>
          </section>
          <section class="mach-lines">
            <h3>Cycles by line <span id="mach-lines-routine" class="mono"></span></h3>
            <div id="mach-lines-sum" class="small-text"></div>
            <div class="table-box"><table id="mach-lines" class="lines mono"><thead><tr><th>line</th><th>cycles</th><th title="of the routine's cycles">share</th><th>runs</th><th>source</th></tr></thead><tbody></tbody></table></div>
            <h3>Hottest lines of the run</h3>
            <div class="table-box"><table id="mach-hot" class="lines mono"><thead><tr><th>line</th><th>cycles</th><th title="of all cycles profiled">share</th><th>routine</th><th>source</th></tr></thead><tbody></tbody></table></div>
          </section>
          <section class="mach-memory">
            <h3>Memory</h3>
            <form id="mach-mem-form"><input id="mach-mem-addr" spellcheck="false" placeholder="$0400" aria-label="memory address"><button type="submit">Show</button></form>
            <pre id="mach-memory" class="mono table-box"></pre>
          </section>
        </div>
      </div>`;
    const $ = (id) => root.querySelector(`#${id}`);
    this.board = new ChessBoard($("mach-board"), { canMove: () => false });
    $("mach-engine").addEventListener("change", () => this.fillMachines());
    this.fillMachines();
    $("mach-start").addEventListener("click", () => this.start());
    $("mach-end").addEventListener("click", () => this.end({ keep: true }));
    $("mach-pause").addEventListener("click", () => this.run && this.run.send("pause"));
    for (const [id, kind] of [["mach-step", "step"], ["mach-over", "over"], ["mach-out", "out"], ["mach-continue", "continue"]]) {
      $(id).addEventListener("click", () => this.act({ kind }));
    }
    $("mach-to-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.act({ kind: "to", target: $("mach-target").value });
    });
    $("mach-break").addEventListener("click", () => this.act({ kind: "break", target: $("mach-target").value }));
    $("mach-mem-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("mach-mem-addr").value.trim().replace(/^\$|^0x/i, "");
      const addr = parseInt(text, 16);
      if (!/^[0-9a-f]{1,4}$/i.test(text)) this.app.message(`Memory: '${$("mach-mem-addr").value}' is not an address ($0000 to $FFFF)`, "error");
      else if (this.run) this.run.send({ mem: addr });
    });
  },

  $(id) {
    return document.getElementById(id);
  },

  fillMachines() {
    const engine = this.app.engines.find((e) => e.id === this.$("mach-engine").value);
    const select = this.$("mach-machine");
    select.innerHTML = "";
    for (const m of engine ? engine.machines : []) select.appendChild(h("option", { value: m.id }, `${m.name}: ${m.chip} at ${m.mhz} MHz`));
  },

  show(link, app, how) {
    if (link.engine === "z80" || link.engine === "6502") {
      this.$("mach-engine").value = link.engine;
      this.fillMachines();
    }
    if (link.machine && [...this.$("mach-machine").options].some((o) => o.value === link.machine)) this.$("mach-machine").value = link.machine;
    if (link.depth) this.$("mach-depth").value = Math.min(32, link.depth);
    if (how !== "link") return;
    if (link.engine && link.engine !== "z80" && link.engine !== "6502") {
      app.message(`The machine view runs the 8-bit builds (z80, 6502), not the native ${link.engine}: choose a build and press "Search the game's position"`, "error");
    }
    app.gameFromLink(link);
    if (link.depth != null && (link.engine === "z80" || link.engine === "6502")) {
      const cycles = app.router.extra("cycles");
      let until = null;
      if (cycles !== null) {
        if (/^\d{1,15}$/.test(cycles)) until = Number(cycles);
        else app.message(`The link's cycles=${cycles} is not a cycle count: the search starts at its beginning`, "error");
      }
      this.start(until);
    }
  },

  hide() {},

  start(until = null) {
    const app = this.app;
    this.end();
    this.ending = null;
    const game = JSON.parse(app.game.view());
    if (game.status.over) {
      app.message("The game is over: no move to search.", "error");
      return;
    }
    const spec = {
      fen: app.game.start_fen(),
      moves: app.game.moves() ? app.game.moves().split(",") : [],
      engine: this.$("mach-engine").value,
      machine: this.$("mach-machine").value,
      depth: Math.max(1, Number(this.$("mach-depth").value) || 1),
    };
    app.router.update({ engine: spec.engine, machine: spec.machine, depth: spec.depth });
    for (const id of ["mach-iters", "mach-path", "mach-profile"]) this.$(id).querySelector("tbody").innerHTML = "";
    this.$("mach-result").textContent = "";
    const name = spec.engine === "z80" ? "Z80" : "6502";
    this.$("mach-status").textContent = `Starting the ${name} build's search on the ${spec.machine} (the worker assembles the build the first time) …`;
    document.body.dataset.machine = "starting";
    const run = app.client.request("machine", { spec }, (ev) => this.onEvent(ev, run));
    this.run = run;
    this.running = false;
    this.setButtons();
    if (until !== null) this.act({ kind: "until", cycles: until });
    run.done.catch((err) => app.message(`The machine view's search failed: ${err.message || err}`, "error")).finally(() => {
      if (this.run === run) {
        this.run = null;
        this.running = false;
        this.setButtons();
      }
    });
  },

  /**
   * Ends the session. With `keep` (the End button) the machine's last state comes back from
   * the worker (a goal under way dropped first): the view then says where it ended and the
   * link holds that cycle count, so it reopens the search paused there.
   */
  end({ keep = false } = {}) {
    if (this.run) {
      if (keep) this.ending = this.run;
      this.run.send("stop");
      if (keep) this.$("mach-status").textContent = "Ending the search: waiting for the machine's last state …";
    }
    this.run = null;
    this.running = false;
    this.setButtons();
  },

  act(action) {
    if (!this.run) return;
    if (action.kind !== "break" && action.kind !== "lines") {
      this.running = true;
      document.body.dataset.machine = "running";
    }
    this.setButtons();
    this.run.send({ action });
  },

  setButtons() {
    const live = !!this.run && !(this.state && this.state.done);
    const idle = live && !this.running;
    this.$("mach-end").disabled = !this.run;
    this.$("mach-pause").disabled = !(live && this.running);
    for (const id of ["mach-step", "mach-over", "mach-out", "mach-continue", "mach-to", "mach-break"]) this.$(id).disabled = !idle;
  },

  onEvent(ev, run) {
    if (ev.ended) {
      if (run === this.ending) this.ended(ev.state);
      return;
    }
    if (run !== this.run) return;
    for (const e of ev.events || []) this.searchEvent(e);
    if (ev.error) this.app.message(`Machine: ${ev.error}`, "error");
    if (ev.running) {
      const p = ev.progress;
      this.$("mach-status").textContent = `${this.$("mach-engine").value.toUpperCase()} running · ${fmtInt(p.cycles)} cycles · ${fmtInt(p.nodes)} nodes · iteration ${p.iteration} · emulated ${fmtSeconds(p.emulated_ms)}`;
      this.$("mach-cycles").textContent = fmtInt(p.cycles);
      return;
    }
    if (ev.state) {
      this.running = false;
      this.showState(ev.state, ev.report);
      document.body.dataset.machine = ev.state.done ? "done" : "paused";
      this.setButtons();
    }
  },

  /** The session's last state, after End: where it ended, in the status and the link. */
  ended(s) {
    this.ending = null;
    this.state = s;
    this.showState(s, null, { live: false });
    if (this.app.activeView === this) this.app.router.setExtra("cycles", s.cycles);
    this.$("mach-status").textContent = `${s.cpu.toUpperCase()} on ${s.machine} · ended at cycle ${fmtInt(s.cycles)}` +
      (s.done ? " (the search was over)" : ": the link reopens the search paused there");
    document.body.dataset.machine = "ended";
    this.setButtons();
  },

  searchEvent(e) {
    if (e.kind === "info") {
      this.$("mach-iters").querySelector("tbody").appendChild(h("tr", {}, [
        h("td", {}, e.depth ?? ""), h("td", {}, fmtScore(e.score, e.mate)), h("td", {}, fmtInt(e.nodes)),
        h("td", {}, e.cycles != null ? fmtInt(e.cycles) : ""), h("td", { class: "pv" }, e.pv_san.join(" ")),
      ]));
    } else if (e.kind === "done") {
      const r = e;
      this.$("mach-result").textContent = r.best
        ? `The search chose ${r.best_san} (${r.best}), score ${fmtScore(r.score, r.mate)}, ${fmtInt(r.nodes)} nodes, ${fmtInt(r.machine ? r.machine.cycles : 0)} cycles.`
        : `No move: ${r.note || ""}`;
      this.$("mach-result").dataset.best = r.best || "";
    }
  },

  showState(s, report, { live = true } = {}) {
    this.state = s;
    const why = report && report.stop ? report.stop.why : null;
    let status = s.done ? "the search is over" : "paused";
    if (why && typeof why === "object" && why.Breakpoint !== undefined) status += ` at the breakpoint ${hex(why.Breakpoint)}`;
    this.$("mach-status").textContent = `${s.cpu.toUpperCase()} on ${s.machine} · ${status}`;
    this.$("mach-status").dataset.breakpoints = s.breakpoints.join(",");
    const pc = this.$("mach-pc");
    pc.textContent = hex(s.pc);
    pc.dataset.value = s.pc;
    this.$("mach-routine").textContent = s.routine || "";
    const cycles = this.$("mach-cycles");
    cycles.textContent = fmtInt(s.cycles);
    cycles.dataset.value = s.cycles;
    this.$("mach-instructions").textContent = fmtInt(s.instructions);
    this.$("mach-time").textContent = fmtSeconds(s.emulated_ms);
    this.$("mach-nodes").textContent = fmtInt(s.nodes);
    this.$("mach-ply").textContent = `${s.iteration} / ${s.ply ?? "(outside the search)"}`;
    if (live && this.app.activeView === this && this.run) this.app.router.setExtra("cycles", s.cycles);
    const target = this.$("mach-target");
    if (s.routines && s.routines.length) target.placeholder = `${s.routines.slice(0, 2).join(", ")} or $1234`;
    const regs = this.$("mach-regs").querySelector("tbody");
    regs.innerHTML = "";
    for (const r of s.registers) regs.appendChild(h("tr", {}, [h("th", {}, r.name), h("td", { class: "mono" }, hex(r.value, r.bits / 4))]));
    const flags = this.$("mach-flags");
    flags.innerHTML = "";
    for (const f of s.flags || []) flags.appendChild(h("span", { class: f.set ? "flag set" : "flag", title: `bit ${f.bit}` }, f.name));
    this.showCode(s);
    this.showBoard(s);
    this.showPath(s);
    const prof = this.$("mach-profile").querySelector("tbody");
    prof.innerHTML = "";
    for (const r of s.profile) {
      const chosen = s.lines && s.lines.chosen && s.lines.routine === r.routine;
      const tr = h("tr", { class: chosen ? "chosen" : null, "data-routine": r.routine, "data-cycles": r.cycles }, [
        h("td", { class: "mono" }, r.routine), h("td", {}, fmtInt(r.cycles)), h("td", {}, `${r.share.toFixed(1)}%`), h("td", {}, fmtInt(r.calls)),
      ]);
      tr.addEventListener("click", () => this.act({ kind: "lines", routine: chosen ? "" : r.routine }));
      prof.appendChild(tr);
    }
    this.showLines(s);
    const lines = [];
    for (let i = 0; i < s.memory.bytes.length; i += 16) {
      const row = s.memory.bytes.slice(i, i + 16);
      const text = row.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
      lines.push(`${hex((s.memory.addr + i) & 0xffff)}  ${row.map((b) => b.toString(16).padStart(2, "0")).join(" ")}  ${text}`);
    }
    this.$("mach-memory").textContent = lines.join("\n");
  },

  showCode(s) {
    const body = this.$("mach-disasm").querySelector("tbody");
    body.innerHTML = "";
    const spent = s.disassembly_cycles || [];
    const most = Math.max(0, ...spent);
    for (const [i, l] of s.disassembly.entries()) {
      const src = l.source ? `${l.source.file}:${l.source.line}` : "";
      const tr = h("tr", { class: [l.current ? "current" : "", l.breakpoint ? "breakpoint" : ""].join(" ").trim() || null, "data-addr": l.addr }, [
        h("td", {}, l.breakpoint ? "●" : l.current ? "▶" : ""),
        h("td", {}, hex(l.addr)),
        h("td", { class: "label" }, l.label ? `${l.label}:` : ""),
        h("td", { class: "insn" }, l.text),
        h("td", { class: "cyc", title: "cycles of one execution (from the table)" }, l.cycles),
        h("td", { class: "spent", title: "cycles it has spent so far", style: heat(spent[i], most), "data-cycles": spent[i] }, spent[i] ? fmtInt(spent[i]) : ""),
        h("td", { class: "src", title: l.source ? l.source.text : "" }, src),
      ]);
      tr.addEventListener("click", () => {
        this.$("mach-target").value = hex(l.addr);
      });
      body.appendChild(tr);
    }
  },

  /**
   * Cycles by source line: the routine's lines in address order with their cycles, share of
   * the routine and executions, shaded by cycles (the heat map), and their sum against the
   * routine's cycles in the profile; and the run's hottest lines.
   */
  showLines(s) {
    const body = this.$("mach-lines").querySelector("tbody");
    body.innerHTML = "";
    const r = s.lines;
    this.$("mach-lines-routine").textContent = r ? `${r.routine}${r.chosen ? "" : " (the PC's routine)"}` : "";
    const sum = r ? r.lines.reduce((a, l) => a + l.cycles, 0) : 0;
    const sumBox = this.$("mach-lines-sum");
    sumBox.dataset.sum = sum;
    sumBox.dataset.routineCycles = r ? r.cycles : "";
    sumBox.textContent = r
      ? `${r.lines.length} lines run, ${fmtInt(sum)} cycles: the routine's ${fmtInt(r.cycles)} in the profile (${fmtInt(r.calls)} calls). A row of the profile shows its routine's lines.`
      : "No routine has run yet.";
    const most = r ? Math.max(0, ...r.lines.map((l) => l.cycles)) : 0;
    for (const l of r ? r.lines : []) {
      body.appendChild(h("tr", { "data-cycles": l.cycles, style: heat(l.cycles, most) }, [
        h("td", {}, place(l)), h("td", {}, fmtInt(l.cycles)),
        h("td", {}, r.cycles ? `${((100 * l.cycles) / r.cycles).toFixed(1)}%` : ""), h("td", {}, fmtInt(l.executions)),
        h("td", { class: "src" }, l.text),
      ]));
    }
    const hot = this.$("mach-hot").querySelector("tbody");
    hot.innerHTML = "";
    const top = s.hot_lines && s.hot_lines.length ? s.hot_lines[0].cycles : 0;
    for (const l of s.hot_lines || []) {
      const tr = h("tr", { "data-cycles": l.cycles, style: heat(l.cycles, top) }, [
        h("td", {}, place(l)), h("td", {}, fmtInt(l.cycles)), h("td", {}, `${l.share.toFixed(1)}%`),
        h("td", {}, l.routine), h("td", { class: "src" }, l.text),
      ]);
      tr.addEventListener("click", () => this.act({ kind: "lines", routine: l.routine }));
      hot.appendChild(tr);
    }
  },

  /** The board in RAM, once the engine has set it up (before, nothing is drawn). */
  showBoard(s) {
    this.$("mach-board").hidden = !s.board_set;
    const fen = this.$("mach-fen");
    if (!s.board_set) {
      fen.textContent = s.board_fen.Err;
      return;
    }
    const squares = s.squares.map((x) => (x === "?" ? "" : x));
    this.board.render({ squares, legal: [], side: s.board.white_to_move ? "w" : "b", check: null, last: null });
    fen.textContent = s.board_fen.Ok !== undefined ? s.board_fen.Ok : `not a position now (a move is being made or taken back): ${s.board_fen.Err}`;
  },

  showPath(s) {
    const body = this.$("mach-path").querySelector("tbody");
    body.innerHTML = "";
    for (const p of s.path) {
      body.appendChild(h("tr", {}, [
        h("td", {}, p.ply), h("td", { class: "mono" }, p.mv || ""), h("td", {}, p.alpha), h("td", {}, p.beta),
        h("td", { title: p.bytes == null ? "the frame is being entered: its size is not written yet" : null }, p.bytes == null ? "" : `${fmtInt(p.bytes)} B`),
        h("td", { class: "mono" }, hex(p.addr)),
      ]));
    }
  },
};

registerView(machine);
