// The Program view: an adapted program's turn under the debugger, stepped through its own text
// (worker/program-debug.js, the crate web-debug, a wasm module loaded only here). Sargon from
// the book's text, Microchess's 1976 KIM-1 binary with Rictor's listing laid over it, or
// Kempelen's own minisearch (Z80, 6502; bundled). The code column is the program's whole
// text, each line of code with its address and its cycles, the author's comment as printed;
// a click on a line sets or clears a breakpoint there. Step, step over, step out, run to a
// label or a line, continue, pause; registers, flags, memory; the variables the adaptor file
// declares, decoded at every pause; the lesson steps it declares, each opening the program
// paused where the step decides something, its paragraph beside the code. Beside each line,
// the cycles it has spent in the turn so far (the profiler's count, shaded as a heat map),
// and the turn's hottest lines.
//
// The program's files are the user's: picked here or in "Real programs", matched by their
// SHA-256, held by the worker while the session lives and never written into a link or sent
// anywhere. Link keys: the game (fen, moves) whose position the program plays, depth, and the
// view's own `program` and `cycles` (the turn's cycles at the pause) or `step` (a lesson step);
// opening such a link asks for the files again (minisearch's come with the page).

import { TreeWidget } from "../tree-widget.js";
import { registerView } from "../views.js";
import { LESSON_PROGRAMS, fmtInt, h, heat, lessonSteps } from "../ui.js";

/** Rows of the turn's hottest lines. */
const HOT_LINES = 12;

const hex = (n, digits = 4) => "$" + n.toString(16).toUpperCase().padStart(digits, "0");

/** The programs: id, name, whether its files come with the page. */
const PROGRAMS = [
  ["sargon-book", "Sargon (Dan and Kathe Spracklen, 1978), the book's text, Jupiter III", false],
  ["microchess", "Microchess (Peter Jennings, 1976), KIM-1, Rictor's listing laid over it", false],
  ["minisearch-z80", "minisearch (Kempelen's test program), Z80", true],
  ["minisearch-6502", "minisearch (Kempelen's test program), 6502", true],
];

const view = {
  name: "program",
  title: "Program debugger",
  order: 75,
  app: null,
  run: null,
  files: [],
  source: null,
  state: null,
  running: false,

  mount(root, app) {
    this.app = app;
    root.innerHTML = `
      <div class="machine program-debug">
        <div class="mach-top">
          <label>Program <select id="pd-program">${PROGRAMS.map(([id, name]) => `<option value="${id}">${name}</option>`).join("")}</select></label>
          <label>Depth <input id="pd-depth" type="number" min="1" max="6" value="2"></label>
          <label id="pd-files-label">Its files (picked from your disk; never sent anywhere) <input type="file" id="pd-files" multiple></label>
          <button type="button" id="pd-open">Step through its turn</button>
          <button type="button" id="pd-end" disabled>End</button>
        </div>
        <table id="pd-checks" class="regs"></table>
        <div class="mach-controls controls" role="toolbar" aria-label="debugger">
          <button type="button" id="pd-pause" disabled>Pause</button>
          <button type="button" id="pd-step" disabled title="one instruction">Step</button>
          <button type="button" id="pd-over" disabled title="over a call">Step over</button>
          <button type="button" id="pd-out" disabled title="until the routine returns">Step out</button>
          <button type="button" id="pd-continue" disabled title="to a breakpoint or the end of its turn">Continue</button>
          <form id="pd-to-form"><input id="pd-target" list="pd-labels" spellcheck="false" placeholder="a label, :line or $1234" aria-label="a label, a line or an address">
            <datalist id="pd-labels"></datalist>
            <button type="submit" id="pd-to" disabled>Run to</button>
            <button type="button" id="pd-break" disabled>Breakpoint</button></form>
        </div>
        <div id="pd-status" class="status" aria-live="polite">Choose a program (its files picked, for Sargon and Microchess), and press "Step through its turn": it plays the game's position.</div>
        <div id="pd-lesson" class="lesson-step" hidden></div>
        <div class="pd-grid">
          <section class="pd-source">
            <h3 id="pd-file">Its text</h3>
            <ul id="pd-notes" class="diffs"></ul>
            <div id="pd-code" class="pd-code mono" tabindex="0" aria-label="the program's text"></div>
          </section>
          <section class="pd-side">
            <h3>At the pause</h3>
            <div id="pd-line" class="mono pd-line"></div>
            <table class="counters"><tbody>
              <tr><th>PC</th><td id="pd-pc" class="mono"></td></tr>
              <tr><th>routine</th><td id="pd-routine" class="mono"></td></tr>
              <tr><th>instruction</th><td id="pd-insn" class="mono"></td></tr>
              <tr><th>cycles of its turn</th><td id="pd-cycles"></td></tr>
              <tr><th>its machine's time</th><td id="pd-time"></td></tr>
            </tbody></table>
            <table id="pd-regs" class="regs"><tbody></tbody></table>
            <div id="pd-flags" class="flags mono"></div>
            <h3>Its variables</h3>
            <table id="pd-vars" class="pd-vars"><tbody></tbody></table>
            <h3>Where its turn's cycles went</h3>
            <p id="pd-spent-sum" class="hint"></p>
            <div class="table-box"><table id="pd-hot" class="lines mono"><thead><tr><th>line</th><th>cycles</th><th title="of the turn's cycles so far">share</th><th>runs</th><th>source</th></tr></thead><tbody></tbody></table></div>
            <h3>Disassembly</h3>
            <div class="table-box"><table id="pd-disasm" class="disasm mono"><tbody></tbody></table></div>
            <h3>Memory</h3>
            <form id="pd-mem-form"><input id="pd-mem-addr" spellcheck="false" placeholder="$0000" aria-label="memory address"><button type="submit">Show</button></form>
            <pre id="pd-memory" class="mono table-box"></pre>
            <h3>What it printed</h3>
            <pre id="pd-printed" class="mono table-box"></pre>
            <h3>Lesson steps in its code</h3>
            <ol id="pd-lessons" class="pd-lessons"></ol>
          </section>
        </div>
        <section class="pd-trees">
          <h3>Its search tree beside its profile's</h3>
          <div class="controls"><button type="button" id="pd-tree">Collect its tree (its turn on this position, played whole)</button>
            <label>Values <select id="pd-tree-values">
              <option value="to-move" selected>from the side to move's view</option>
              <option value="white">from White's side</option>
            </select></label></div>
          <p class="hint">The positions the program reaches as it plays its turn (each move made by
          the routine its adaptor file names) and the value it backs up for each, beside the tree of
          its profile (the Rust re-creation) at the same level. Marks against the other tree:
          <em>~V</em> another value (the other's), <em>&lt;K&gt;</em> tried at another rank,
          <em>+</em> the other does not try this move; such nodes are shaded. <em>cut</em> marks a
          cut-off: open the node, its last line says what it left unsearched and why.</p>
          <div id="pd-tree-summary" class="summary" aria-live="polite"></div>
          <div class="trees">
            <div class="tree-pane"><h3 id="pd-tree-program-title">The program</h3><div id="pd-tree-program" class="tree-box"></div></div>
            <div class="tree-pane"><h3 id="pd-tree-profile-title">Its profile</h3><div id="pd-tree-profile" class="tree-box"></div></div>
          </div>
        </section>
      </div>`;
    const $ = (id) => root.querySelector(`#${id}`);
    this.programTree = new TreeWidget($("pd-tree-program"));
    this.profileTree = new TreeWidget($("pd-tree-profile"));
    $("pd-tree").addEventListener("click", () => this.collectTree());
    $("pd-tree-values").addEventListener("change", (e) => {
      this.programTree.setView(e.target.value);
      this.profileTree.setView(e.target.value);
    });
    $("pd-program").addEventListener("change", () => this.chosen());
    $("pd-files").addEventListener("change", async (e) => {
      this.files = await Promise.all(Array.from(e.target.files, async (f) => ({ name: f.name, bytes: await f.arrayBuffer() })));
      this.check();
    });
    $("pd-open").addEventListener("click", () => this.open());
    $("pd-end").addEventListener("click", () => this.end());
    $("pd-pause").addEventListener("click", () => this.run && this.run.send("pause"));
    for (const [id, kind] of [["pd-step", "step"], ["pd-over", "over"], ["pd-out", "out"], ["pd-continue", "continue"]]) {
      $(id).addEventListener("click", () => this.act({ kind }));
    }
    $("pd-to-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.act({ kind: "to", target: $("pd-target").value });
    });
    $("pd-break").addEventListener("click", () => this.act({ kind: "break", target: $("pd-target").value }));
    $("pd-mem-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("pd-mem-addr").value.trim().replace(/^\$|^0x/i, "");
      if (!/^[0-9a-f]{1,4}$/i.test(text)) this.app.message(`Memory: '${$("pd-mem-addr").value}' is not an address ($0000 to $FFFF)`, "error");
      else if (this.run) this.run.send({ mem: parseInt(text, 16) });
    });
  },

  $(id) {
    return document.getElementById(id);
  },

  program() {
    return PROGRAMS.find(([id]) => id === this.$("pd-program").value);
  },

  show(link, app, how) {
    const id = app.router.extra("program");
    if (id && PROGRAMS.some(([p]) => p === id)) this.$("pd-program").value = id;
    if (link.depth) this.$("pd-depth").value = String(Math.min(6, link.depth));
    if (how === "link") app.gameFromLink(link);
    // Files picked elsewhere ("Real programs"' Step through it): in memory, never in the link.
    const handoff = app.programHandoff;
    app.programHandoff = null;
    if (handoff) {
      this.$("pd-program").value = handoff.program;
      this.files = handoff.files;
      if (handoff.depth) this.$("pd-depth").value = String(handoff.depth);
      this.chosen();
      this.open();
      return;
    }
    this.chosen({ keepLink: true });
    const cycles = app.router.extra("cycles");
    const step = app.router.extra("step");
    if (how === "link" && (cycles !== null || step !== null || id)) {
      this.wanted = { cycles: /^\d{1,15}$/.test(cycles || "") ? Number(cycles) : null, step: /^\d{1,6}$/.test(step || "") ? Number(step) : null };
      if (this.ready()) {
        this.open(this.wanted);
        this.wanted = null;
      } else this.$("pd-status").textContent = "This link holds the program, the position and the cycles of a pause, never the program's text: pick its files to open it there.";
    }
  },

  chosen({ keepLink = false } = {}) {
    const [id, , bundled] = this.program();
    if (!keepLink) {
      this.app.router.setExtra("program", id);
      this.app.router.setExtra("cycles", null);
      this.app.router.setExtra("step", null);
    }
    this.$("pd-files-label").hidden = bundled;
    this.needed = null;
    this.check();
  },

  /** The files the program needs, matched by contents in the worker (its debug module). */
  async check() {
    const [id, , bundled] = this.program();
    const table = this.$("pd-checks");
    table.textContent = "";
    if (bundled) {
      this.needed = [];
      table.dataset.ready = "true";
      this.$("pd-open").disabled = false;
      return;
    }
    const files = this.files.map((f) => ({ name: f.name, bytes: f.bytes }));
    let needed;
    try {
      needed = await this.app.client.request("program-files", { program: id, files }).done;
    } catch (err) {
      this.app.message(`Program debugger: ${err.message || err}`, "error");
      return;
    }
    if (id !== this.program()[0]) return;
    this.needed = needed;
    table.appendChild(h("tr", {}, [h("th", {}, "file"), h("th", {}, "for"), h("th", {}, "SHA-256 (adaptor)"), h("th", {}, "picked")]));
    for (const n of needed) {
      table.appendChild(h("tr", { "data-file": n.name, "data-ok": String(!!n.picked_as) }, [
        h("td", {}, n.name), h("td", {}, n.role === "listing" ? "its listing (optional: without it, the code disassembled)" : "the program"),
        h("td", { title: n.sha256 }, `${n.sha256.slice(0, 16)}…`),
        h("td", {}, n.picked_as ? `✓ ${n.picked_as}` : "not picked")]));
    }
    const ready = this.ready();
    table.dataset.ready = String(ready);
    this.$("pd-open").disabled = !ready;
    if (ready && this.wanted) {
      const w = this.wanted;
      this.wanted = null;
      this.open(w);
    }
  },

  ready() {
    const [, , bundled] = this.program();
    return bundled || (!!this.needed && this.needed.every((n) => n.role !== "program" || n.picked_as));
  },

  /** Opens the program's turn on the game's position (or a lesson step, or run to cycles). */
  open({ cycles = null, step = null } = {}) {
    const app = this.app;
    this.end();
    const [id, name] = this.program();
    const depth = Math.max(1, Math.min(6, Number(this.$("pd-depth").value) || 1));
    const spec = { program: id, fen: app.game.start_fen(), moves: app.game.moves() ? app.game.moves().split(",") : [], depth };
    app.router.update({ depth });
    app.router.setExtra("program", id);
    app.router.setExtra("step", step);
    this.source = null;
    this.$("pd-code").textContent = "";
    this.$("pd-lesson").hidden = true;
    this.$("pd-status").textContent = `Opening ${name}: assembling its text and setting up the position …`;
    document.body.dataset.program = "opening";
    const files = this.files.map((f) => ({ name: f.name, bytes: f.bytes }));
    const run = app.client.request("program-debug", { spec, files, cycles, lesson: step }, (ev) => this.onEvent(ev, run));
    this.run = run;
    this.running = cycles !== null;
    this.lessonStep = step;
    this.setButtons();
    run.done.catch((err) => {
      if (this.run !== run) return;
      this.$("pd-status").textContent = `Not opened: ${err.message || err}`;
      this.$("pd-status").dataset.error = String(err.message || err);
      document.body.dataset.program = "error";
      app.message(`Program debugger: ${err.message || err}`, "error");
    }).finally(() => {
      if (this.run === run) {
        this.run = null;
        this.running = false;
        this.setButtons();
      }
    });
  },

  /** The program's turn played whole with its tree collected, beside its profile's tree. */
  async collectTree() {
    const app = this.app;
    if (!this.ready()) {
      app.message("Its tree: pick the program's files first", "error");
      return;
    }
    if (this.treeRun) this.treeRun.stop();
    const [id] = this.program();
    const depth = Math.max(1, Math.min(6, Number(this.$("pd-depth").value) || 1));
    const spec = { program: id, fen: app.game.start_fen(), moves: app.game.moves() ? app.game.moves().split(",") : [], depth };
    const files = this.files.map((f) => ({ name: f.name, bytes: f.bytes }));
    const summary = this.$("pd-tree-summary");
    for (const k of ["agree", "found", "nodes", "profileNodes", "error", "growing"]) delete summary.dataset[k];
    summary.textContent = "Playing its turn, collecting its tree …";
    this.programTree.clear();
    this.profileTree.clear();
    this.$("pd-tree-program-title").textContent = "The program, as its tree grows";
    const run = app.client.request("program-tree", { spec, files }, (ev) => {
      if (this.treeRun !== run) return;
      summary.textContent = `Playing its turn: ${fmtInt(ev.nodes)} nodes so far, ${fmtInt(ev.cycles)} cycles (values appear as it backs them up; the comparison when its turn is over)`;
      if (ev.fresh && ev.fresh.length) this.programTree.append(ev.fresh, ev.from);
      summary.dataset.growing = String(ev.from + (ev.fresh ? ev.fresh.length : 0));
    });
    this.treeRun = run;
    try {
      const t = await run.done;
      if (this.treeRun !== run || t.stopped) return;
      this.showTrees(t);
    } catch (err) {
      summary.textContent = `No tree: ${err.message || err}`;
      summary.dataset.error = String(err.message || err);
    } finally {
      if (this.treeRun === run) this.treeRun = null;
    }
  },

  showTrees(t) {
    const summary = this.$("pd-tree-summary");
    const n = t.program.nodes.length;
    this.$("pd-tree-program-title").textContent = t.program.title;
    this.programTree.setTree(t.program);
    t.program.nodes.forEach((x, i) => { if (x.mark && x.mark !== "=") this.programTree.mark(i, "differs"); });
    summary.dataset.nodes = String(n);
    let text = `${t.program.title}: ${fmtInt(n)} nodes in its turn of ${fmtInt(t.cycles)} cycles` +
      (t.program.not_kept ? ` (${fmtInt(t.program.not_kept)} more not kept)` : "");
    if (t.profile) {
      this.$("pd-tree-profile-title").textContent = t.profile.title;
      this.profileTree.setTree(t.profile);
      t.profile.nodes.forEach((x, i) => { if (x.mark && x.mark !== "=") this.profileTree.mark(i, "differs"); });
      summary.dataset.agree = String(t.agree);
      summary.dataset.found = String(t.found);
      summary.dataset.profileNodes = String(t.profile.nodes.length);
      text += `; ${fmtInt(t.agree)} of them are the profile's, in the same order with the same value (${fmtInt(t.found)} found in the profile's tree at all; the profile's tree: ${fmtInt(t.profile.nodes.length)} nodes)`;
    } else {
      this.$("pd-tree-profile-title").textContent = "Its profile: no tree here (it plays from its book)";
    }
    summary.textContent = text;
  },

  end() {
    if (this.run) this.run.send("stop");
    this.run = null;
    this.running = false;
    this.setButtons();
  },

  act(action) {
    if (!this.run) return;
    if (action.kind !== "break") this.running = true;
    if (action.kind !== "break") document.body.dataset.program = "running";
    this.setButtons();
    this.run.send({ action });
  },

  setButtons() {
    const live = !!this.run && !(this.state && this.state.stop.over);
    const idle = live && !this.running && !!this.source;
    this.$("pd-end").disabled = !this.run;
    this.$("pd-pause").disabled = !(live && this.running);
    for (const id of ["pd-step", "pd-over", "pd-out", "pd-continue", "pd-to", "pd-break"]) this.$(id).disabled = !idle;
  },

  onEvent(ev, run) {
    if (run !== this.run) return;
    if (ev.source) this.showSource(ev.source, ev.lessons);
    if (ev.error) this.app.message(`Program debugger: ${ev.error}`, "error");
    if (ev.running) {
      this.$("pd-status").textContent = `running · ${fmtInt(ev.cycles)} cycles of its turn`;
      return;
    }
    if (ev.state) {
      this.running = false;
      this.showState(ev.state, ev.report);
      document.body.dataset.program = ev.state.stop.over ? "over" : "paused";
      this.setButtons();
    }
  },

  /** The program's whole text, once: each line of code with its address and cycles. */
  showSource(src, lessons) {
    this.source = src;
    this.rows = new Map();
    this.byAddr = new Map();
    const code = this.$("pd-code");
    code.textContent = "";
    const perFile = src.files.map(() => new Map());
    for (const c of src.code) perFile[c.file].set(c.line, c);
    src.files.forEach((f, fi) => {
      code.appendChild(h("div", { class: "pd-filename" }, f.name));
      const frag = document.createDocumentFragment();
      f.lines.forEach((text, i) => {
        const c = perFile[fi].get(i + 1);
        const semi = commentAt(text);
        const row = h("div", { class: c ? "pd-row code" : "pd-row", "data-line": i + 1, "data-file": f.name }, [
          h("span", { class: "bp" }, ""),
          h("span", { class: "ln" }, String(i + 1)),
          h("span", { class: "addr" }, c ? hex(c.addr) : ""),
          h("span", { class: "cyc", title: c ? "cycles (not taken / taken)" : null }, c ? c.cycles : ""),
          h("span", { class: "spent" }, ""),
          h("span", { class: "txt" }, semi < 0 ? text : text.slice(0, semi)),
          semi < 0 ? null : h("span", { class: "cmt" }, text.slice(semi)),
        ]);
        if (c) {
          row.dataset.addr = c.addr;
          row.addEventListener("click", () => this.act({ kind: "break", target: `${f.name}:${i + 1}` }));
          row.title = "click: a breakpoint here";
          this.byAddr.set(c.addr, row);
        }
        frag.appendChild(row);
      });
      code.appendChild(frag);
    });
    if (!src.files.length) code.appendChild(h("p", { class: "hint" }, "No text: the program's code is shown disassembled."));
    this.$("pd-file").textContent = src.files.length ? `Its text: ${src.files.map((f) => f.name).join(", ")}` : "Its code";
    const notes = this.$("pd-notes");
    notes.textContent = "";
    for (const n of src.notes) notes.appendChild(h("li", {}, n));
    const labels = this.$("pd-labels");
    labels.textContent = "";
    for (const [name, addr] of src.labels) labels.appendChild(h("option", { value: name }, hex(addr)));
    this.$("pd-target").placeholder = `${src.labels.slice(0, 2).map(([n]) => n).join(", ")}, :line or $1234`;
    this.showLessons(lessons);
  },

  showLessons(lessons) {
    // Opened at a lesson step by a link: the game is the step's position.
    const at = this.lessonStep != null && lessons.find((x) => x.step === this.lessonStep);
    if (at) this.app.gameFromLink({ fen: at.fen, moves: at.moves });
    const list = this.$("pd-lessons");
    list.textContent = "";
    this.lessons = lessons;
    for (const l of lessons) {
      const a = h("a", { href: "#", "data-step": l.step }, `${l.title} (${l.name})`);
      a.addEventListener("click", (e) => {
        e.preventDefault();
        this.app.gameFromLink({ fen: l.fen, moves: l.moves });
        if (l.level) this.$("pd-depth").value = String(l.level);
        this.open({ step: l.step });
      });
      list.appendChild(h("li", { value: l.step }, [a]));
    }
  },

  showState(s, report) {
    this.state = s;
    const st = s.stop;
    const why = report ? "" : "";
    this.$("pd-status").textContent = `${st.program} · ${st.over ? "its turn is over: it answered" : "paused"}${why} at ${fmtInt(st.cycles)} cycles of its turn`;
    const status = this.$("pd-status");
    status.dataset.cycles = st.cycles;
    status.dataset.pc = st.pc;
    status.dataset.label = st.label || "";
    status.dataset.breakpoints = s.breakpoints.join(",");
    delete status.dataset.error;
    if (this.app.activeView === this && this.run) this.app.router.setExtra("cycles", st.cycles);
    this.$("pd-pc").textContent = hex(st.pc);
    this.$("pd-routine").textContent = st.routine || st.label || "";
    this.$("pd-insn").textContent = `${st.instruction}  (${st.instruction_cycles} cycles)`;
    this.$("pd-cycles").textContent = fmtInt(st.cycles);
    this.$("pd-time").textContent = `${(st.cycles / st.mhz / 1e6).toFixed(6)} s at ${st.mhz} MHz`;
    const line = this.$("pd-line");
    line.textContent = st.source ? `${st.source.file}:${st.source.line}  ${st.source.text.trim()}` : `no line of its text here${st.differs ? `: ${st.differs}` : ""}`;
    line.dataset.comment = st.source && st.source.comment ? st.source.comment : "";
    const regs = this.$("pd-regs").querySelector("tbody");
    regs.textContent = "";
    for (const r of st.registers) regs.appendChild(h("tr", {}, [h("th", {}, r.name), h("td", { class: "mono" }, hex(r.value, r.bits / 4))]));
    const flags = this.$("pd-flags");
    flags.textContent = "";
    for (const f of st.flags || []) flags.appendChild(h("span", { class: f.set ? "flag set" : "flag", title: `bit ${f.bit}` }, f.name));
    const vars = this.$("pd-vars").querySelector("tbody");
    vars.textContent = "";
    for (const v of st.variables) {
      vars.appendChild(h("tr", { "data-name": v.name, title: v.note || "" }, [
        h("th", {}, v.name), h("td", { class: "small-text" }, v.type + (v.at != null ? ` ${hex(v.at)}` : "")),
        h("td", {}, h("pre", { class: "mono" }, v.text))]));
    }
    this.showDisasm(s);
    this.markSource(s);
    this.showSpent(s);
    const lines = [];
    for (let i = 0; i < s.memory.bytes.length; i += 16) {
      const row = s.memory.bytes.slice(i, i + 16);
      const text = row.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
      lines.push(`${hex((s.memory.addr + i) & 0xffff)}  ${row.map((b) => b.toString(16).padStart(2, "0")).join(" ")}  ${text}`);
    }
    this.$("pd-memory").textContent = lines.join("\n");
    this.$("pd-printed").textContent = s.printed;
    this.showLessonParagraph();
  },

  /** The current line and the breakpoints in the text, the current line scrolled into view. */
  markSource(s) {
    if (!this.byAddr) return;
    for (const r of this.$("pd-code").querySelectorAll(".pd-row.current, .pd-row.breakpoint")) r.classList.remove("current", "breakpoint");
    for (const a of s.breakpoints) {
      const r = this.byAddr.get(a);
      if (r) r.classList.add("breakpoint");
    }
    const row = this.byAddr.get(s.stop.pc);
    if (row) {
      row.classList.add("current");
      const box = this.$("pd-code");
      box.scrollTop = row.offsetTop - box.offsetTop - box.clientHeight / 3;
    }
  },

  /**
   * The cycles every line has spent in the turn so far, beside it and shaded (the heat map),
   * their sum against the turn's cycles, and the hottest lines (a click shows the line).
   */
  showSpent(s) {
    if (!this.byAddr) return;
    const perLine = new Map();
    for (const x of s.spent) {
      const row = this.byAddr.get(x.addr);
      const key = row ? `${row.dataset.file}:${row.dataset.line}` : hex(x.addr);
      const l = perLine.get(key) || { place: key, row, cycles: 0, executions: 0, text: row ? row.querySelector(".txt").textContent.trim() : "(no line of its text)" };
      l.cycles += x.cycles;
      l.executions += x.executions;
      perLine.set(key, l);
    }
    const lines = [...perLine.values()].sort((a, b) => b.cycles - a.cycles);
    const most = lines.length ? lines[0].cycles : 0;
    for (const r of this.$("pd-code").querySelectorAll(".pd-row.code .spent[data-cycles]")) {
      r.textContent = "";
      r.removeAttribute("style");
      delete r.dataset.cycles;
    }
    const total = s.stop.cycles;
    for (const l of lines) {
      if (!l.row) continue;
      const cell = l.row.querySelector(".spent");
      cell.textContent = fmtInt(l.cycles);
      cell.dataset.cycles = l.cycles;
      cell.setAttribute("style", heat(l.cycles, most));
      cell.title = `${fmtInt(l.cycles)} cycles in ${fmtInt(l.executions)} runs so far (${((100 * l.cycles) / Math.max(1, total)).toFixed(2)}% of the turn)`;
    }
    const run = lines.reduce((a, l) => a + l.cycles, 0);
    const sum = this.$("pd-spent-sum");
    sum.dataset.sum = run;
    sum.dataset.outside = s.spent_outside;
    sum.textContent = `${fmtInt(lines.length)} lines run, ${fmtInt(run)} cycles` +
      (s.spent_outside ? ` + ${fmtInt(s.spent_outside)} in the machine's routines the host serves (its monitor's console calls)` : "") +
      ` = the turn's ${fmtInt(total)} cycles. Beside each line of the text: its cycles so far, shaded by how many.`;
    const hot = this.$("pd-hot").querySelector("tbody");
    hot.textContent = "";
    for (const l of lines.slice(0, HOT_LINES)) {
      const tr = h("tr", { "data-cycles": l.cycles, style: heat(l.cycles, most) }, [
        h("td", {}, l.place), h("td", {}, fmtInt(l.cycles)),
        h("td", {}, `${((100 * l.cycles) / Math.max(1, total)).toFixed(1)}%`), h("td", {}, fmtInt(l.executions)),
        h("td", { class: "src" }, l.text),
      ]);
      if (l.row) {
        tr.addEventListener("click", () => {
          const box = this.$("pd-code");
          box.scrollTop = l.row.offsetTop - box.offsetTop - box.clientHeight / 3;
        });
      }
      hot.appendChild(tr);
    }
  },

  showDisasm(s) {
    const body = this.$("pd-disasm").querySelector("tbody");
    body.textContent = "";
    for (const l of s.disassembly) {
      const tr = h("tr", { class: [l.current ? "current" : "", l.breakpoint ? "breakpoint" : ""].join(" ").trim() || null, "data-addr": l.addr }, [
        h("td", {}, l.breakpoint ? "●" : l.current ? "▶" : ""),
        h("td", {}, hex(l.addr)),
        h("td", { class: "label" }, l.label ? `${l.label}:` : ""),
        h("td", { class: "insn" }, l.text),
        h("td", { class: "cyc", title: "cycles" }, l.cycles),
      ]);
      tr.addEventListener("click", () => { this.$("pd-target").value = hex(l.addr); });
      body.appendChild(tr);
    }
  },

  /**
   * A lesson step's paragraph beside the code, while the session opened at it lives: the
   * numbered step of the lesson's "How ... chooses a move" as the Lessons view renders it
   * (Sargon, Microchess), else the step's title and why from the adaptor file (minisearch).
   */
  showLessonParagraph() {
    const box = this.$("pd-lesson");
    const l = this.lessonStep != null && (this.lessons || []).find((x) => x.step === this.lessonStep);
    box.hidden = !l;
    if (!l) return;
    box.textContent = "";
    box.dataset.step = String(l.step);
    const lesson = Object.keys(LESSON_PROGRAMS).find((k) => LESSON_PROGRAMS[k] === this.program()[0]);
    let paragraph = null;
    if (lesson) {
      const page = JSON.parse(this.app.k.lesson_page(lesson));
      const div = document.createElement("div");
      div.innerHTML = page.html;
      const li = lessonSteps(div)[l.step - 1];
      if (li) paragraph = li.textContent.trim();
      box.append(h("a", { href: `#view=lessons&lesson=${lesson}` }, `Step ${l.step} of the ${page.title || lesson} lesson`), ". ");
    } else {
      box.append(h("strong", {}, `Step ${l.step} of the ${l.lesson} lesson: ${l.title}. `));
    }
    box.append(h("span", { class: "lesson-paragraph" }, paragraph || ""),
      h("div", { class: "hint" }, `Paused at ${l.name}: ${l.why}`));
  },
};

/** Where a line's comment begins (its `;` outside quotes), or -1. */
function commentAt(text) {
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ";") return i;
  }
  return -1;
}

registerView(view);
