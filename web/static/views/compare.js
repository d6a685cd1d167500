// The Compare view: one position (the game's, a typed FEN, or a position of the bundled
// suite) searched by the native reference and by both 8-bit builds side by side: move, score,
// principal variation, nodes, cycles and time at a chosen machine. A build that differs from
// the reference is marked, field by field. The row is the one `kempelen compare` prints
// (kempelen_roms::compare::Row); the page only shows it.
//
// Link: #fen=...&moves=...&depth=N&view=compare runs the comparison of that position;
// `machine=<id>` times the build of that machine's CPU (as `kempelen compare --machine`);
// the view's own keys: `z80=<machine>`, `6502=<machine>`, `suite=<index>` (or `suite=all`:
// every position of the bundled suite, a row group each, and the totals).

import { registerView } from "../views.js";
import { fmtInt, fmtScore, fmtSeconds, h } from "../ui.js";

const compare = {
  name: "compare",
  title: "Compare",
  order: 20,
  app: null,
  run: null,
  suite: [],

  mount(root, app) {
    this.app = app;
    root.innerHTML = `
      <div class="compare">
        <fieldset class="compare-setup">
          <legend>Position and machines</legend>
          <label>Position <select id="cmp-source">
            <option value="game">the game's position (Play)</option>
            <option value="fen">a FEN</option>
            <option value="suite">a position of the bundled suite</option>
            <option value="all">every position of the bundled suite</option>
          </select></label>
          <label class="cmp-fen">FEN <input id="cmp-fen" spellcheck="false" placeholder="paste a FEN"></label>
          <label class="cmp-suite">Suite position <select id="cmp-suite"></select></label>
          <label>Depth <input id="cmp-depth" type="number" min="1" max="32" value="3"></label>
          <label>Z80 build on <select id="cmp-z80"></select></label>
          <label>6502 build on <select id="cmp-6502"></select></label>
          <div class="controls">
            <button type="button" id="cmp-run">Compare</button>
            <button type="button" id="cmp-stop" disabled>Stop</button>
          </div>
        </fieldset>
        <div class="compare-out">
          <div id="cmp-position" class="mono cmp-position"></div>
          <table id="cmp-table" class="compare-table">
            <thead><tr><th>engine</th><th>move</th><th title="in pawns, from the view of the side to move in the position searched">score (side to move)</th><th>nodes</th><th>cycles</th><th>time on the machine</th><th>peak RAM</th><th>principal variation</th><th>agrees</th></tr></thead>
          </table>
          <div id="cmp-progress" class="progress"></div>
          <div id="cmp-status" class="result">No comparison yet: choose a position and press Compare.</div>
        </div>
      </div>`;
    const $ = (id) => root.querySelector(`#${id}`);
    for (const [id, cpu] of [["cmp-z80", "z80"], ["cmp-6502", "6502"]]) {
      const engine = app.engines.find((e) => e.id === cpu);
      for (const m of engine ? engine.machines : []) {
        $(id).appendChild(h("option", { value: m.id }, `${m.name}: ${m.chip} at ${m.mhz} MHz`));
      }
    }
    try {
      this.suite = JSON.parse(app.k.compare_suite());
    } catch (err) {
      app.message(`The bundled suite could not be read: ${err.message || err}`, "error");
    }
    for (const p of this.suite) $("cmp-suite").appendChild(h("option", { value: p.index }, p.id));
    $("cmp-source").addEventListener("change", () => this.sourceChanged());
    $("cmp-run").addEventListener("click", () => this.compare());
    $("cmp-stop").addEventListener("click", () => this.stop());
    for (const id of ["cmp-depth", "cmp-z80", "cmp-6502", "cmp-suite", "cmp-fen"]) {
      $(id).addEventListener("change", () => this.writeLink());
    }
    this.sourceChanged();
  },

  $(id) {
    return document.getElementById(id);
  },

  sourceChanged() {
    const source = this.$("cmp-source").value;
    document.querySelector(".cmp-fen").hidden = source !== "fen";
    document.querySelector(".cmp-suite").hidden = source !== "suite";
    this.writeLink();
  },

  /** The view's settings into the link (the game's fen and moves are Play's keys). */
  writeLink() {
    if (!this.app.router || this.app.activeView !== this) return;
    const r = this.app.router;
    const source = this.$("cmp-source").value;
    r.update({ depth: Math.max(1, Number(this.$("cmp-depth").value) || 1) });
    r.setExtra("z80", this.$("cmp-z80").value);
    r.setExtra("6502", this.$("cmp-6502").value);
    r.setExtra("suite", source === "suite" ? this.$("cmp-suite").value : source === "all" ? "all" : null);
    r.setExtra("cmpfen", source === "fen" && this.$("cmp-fen").value ? this.$("cmp-fen").value : null);
  },

  selectIf(id, value) {
    if (value !== null && value !== undefined && [...this.$(id).options].some((o) => o.value === value)) {
      this.$(id).value = value;
      return true;
    }
    return false;
  },

  /**
   * Applies a link: the machines, the depth, the position (the game's fen and moves, a suite
   * position or the view's own FEN). An opened link (not a tab click) with a depth runs the
   * comparison.
   */
  show(link, app, how) {
    const r = app.router;
    if (link.machine) {
      if (!this.selectIf("cmp-z80", link.machine)) this.selectIf("cmp-6502", link.machine);
    }
    this.selectIf("cmp-z80", r.extra("z80"));
    this.selectIf("cmp-6502", r.extra("6502"));
    if (link.depth) this.$("cmp-depth").value = Math.min(32, link.depth);
    if (how === "link") {
      app.gameFromLink(link);
      this.$("cmp-source").value = "game";
      const suite = r.extra("suite");
      if (suite === "all") this.$("cmp-source").value = "all";
      else if (suite !== null) {
        if (this.selectIf("cmp-suite", suite)) this.$("cmp-source").value = "suite";
        else app.message(`The link's suite=${suite} is not a position of the bundled suite (0 to ${this.suite.length - 1}, or all): comparing the game's position`, "error");
      }
      const typed = r.extra("cmpfen");
      if (typed !== null) {
        this.$("cmp-source").value = "fen";
        this.$("cmp-fen").value = typed;
      }
    }
    this.sourceChanged();
    if (how === "link" && link.depth != null) this.compare();
  },

  hide() {},

  spec() {
    const app = this.app;
    const spec = {
      depth: Math.max(1, Number(this.$("cmp-depth").value) || 1),
      z80_machine: this.$("cmp-z80").value || undefined,
      m6502_machine: this.$("cmp-6502").value || undefined,
    };
    const source = this.$("cmp-source").value;
    if (source === "suite") spec.suite = Number(this.$("cmp-suite").value);
    else if (source === "fen") spec.fen = this.$("cmp-fen").value.trim();
    else {
      spec.fen = app.game.start_fen();
      spec.moves = app.game.moves() ? app.game.moves().split(",") : [];
    }
    return spec;
  },

  /** A new row group (tbody) of the table, for one position. */
  group(index = null) {
    const body = h("tbody", index === null ? {} : { "data-position": index });
    this.$("cmp-table").appendChild(body);
    return body;
  },

  /**
   * Compares the position chosen. Asked for while a comparison runs (a link opened then), it
   * stops that one and runs when it has ended, said as such, never dropped.
   */
  async compare() {
    if (this.busy) {
      this.queued = true;
      this.stop();
      this.$("cmp-progress").textContent = "Waiting for the comparison under way to stop; this one starts then.";
      return;
    }
    this.queued = false;
    for (const b of this.$("cmp-table").querySelectorAll("tbody")) b.remove();
    this.$("cmp-progress").textContent = "";
    const status = this.$("cmp-status");
    delete status.dataset.status;
    delete status.dataset.positions;
    this.setBusy(true);
    this.stopped = false;
    this.failed = false;
    try {
      if (this.$("cmp-source").value === "all") await this.compareAll();
      else {
        status.textContent = "The native reference searches ...";
        const a = await this.runOne(this.spec(), this.group(), false);
        if (a) this.summarise([a.row], 1);
      }
    } finally {
      this.setBusy(false);
      if (this.queued) this.compare();
    }
  },

  /** Every position of the bundled suite in turn, a row group each, then the totals. */
  async compareAll() {
    const base = this.spec();
    const rows = [];
    for (const p of this.suite) {
      if (this.stopped) break;
      this.$("cmp-status").textContent = `Position ${p.index + 1} of ${this.suite.length}: ${p.id}`;
      const spec = { depth: base.depth, z80_machine: base.z80_machine, m6502_machine: base.m6502_machine, suite: p.index };
      const a = await this.runOne(spec, this.group(p.index), true);
      if (!a) break;
      rows.push(a.row);
    }
    this.summarise(rows, this.suite.length);
  },

  /** One comparison into `body`; its last report, or null when it failed. */
  async runOne(spec, body, head) {
    const app = this.app;
    // The native reference searches in one piece before the first report: a stop then ends
    // the worker (the only way to interrupt it), as a native search in Play is stopped.
    this.heard = false;
    const run = app.client.request("compare", { spec }, (a) => {
      this.heard = true;
      this.showRow(a, body, head);
    }, { alone: true });
    this.run = run;
    try {
      const a = await run.done;
      if (!a.row) {
        this.$("cmp-status").textContent = "Stopped while the native reference searched: no row.";
        this.stopped = true;
        return null;
      }
      this.showRow(a, body, head);
      return a;
    } catch (err) {
      const text = `The comparison failed: ${err.message || err}`;
      app.message(text, "error");
      const status = this.$("cmp-status");
      status.textContent = text;
      status.dataset.status = "failed";
      this.$("cmp-progress").textContent = "";
      this.failed = true;
      return null;
    } finally {
      if (this.run === run) this.run = null;
    }
  },

  /** The verdict over the rows compared (of `total` asked for). */
  summarise(rows, total) {
    const status = this.$("cmp-status");
    this.$("cmp-progress").textContent = "";
    if (!rows.length) {
      if (!this.failed && !this.stopped) status.textContent = "";
      return;
    }
    const failed = rows.filter((r) => r.ports.some((p) => p.result.error !== undefined)).length;
    const differ = rows.filter((r) => !r.agree).length - failed;
    const of = total > 1 ? ` (${rows.length} of ${total} positions)` : "";
    const text = failed
      ? `A build gave no answer on ${failed} position(s)${of}: see the rows.`
      : differ
        ? `A build differs from the native reference on ${differ} position(s)${of}: the differing fields are marked.`
        : `Both builds agree with the native reference: move, score, principal variation and nodes${of}.`;
    status.dataset.positions = rows.length;
    if (this.failed) {
      // The failure stays the first thing said; what was compared before it follows.
      status.textContent = `${status.textContent} Before it: ${text}`;
      return;
    }
    status.dataset.status = failed ? "error" : differ ? "diff" : "ok";
    status.textContent = text;
  },

  stop() {
    this.stopped = true;
    if (!this.run) return;
    // While the native reference searches (in one piece) its worker is ended; the builds
    // stop between slices.
    if (this.heard) this.run.stop();
    else this.run.end();
  },

  setBusy(busy) {
    this.busy = busy;
    document.body.dataset.comparing = busy ? "true" : "false";
    this.$("cmp-run").disabled = busy;
    this.$("cmp-stop").disabled = !busy;
  },

  /** Draws the row so far (compare.rs's CompareAdvance) into `body`; `head`: with the
   * position's name above it. */
  showRow(a, body, head) {
    const row = a.row;
    const fen = row.fen;
    const where = (row.id === fen ? fen : `${row.id}: ${fen}`) + ` (${fen.split(" ")[1] === "b" ? "Black" : "White"} to move; scores from its view)`;
    if (!head) this.$("cmp-position").textContent = where;
    body.innerHTML = "";
    if (head) body.appendChild(h("tr", { class: "pos-head" }, h("th", { colspan: 9 }, where)));
    body.appendChild(this.answerRow("native", "native reference", row.native, null, fen));
    for (const p of row.ports) {
      const who = `${p.name} on ${p.machine.id} (${p.machine.mhz} MHz)`;
      if (p.result.error !== undefined) {
        body.appendChild(h("tr", { "data-engine": p.cpu, class: "error" }, [
          h("td", {}, who), h("td", { colspan: 8, class: "note" }, p.result.error),
        ]));
      } else {
        body.appendChild(this.answerRow(p.cpu, who, p.result.ran.answer, p.result.ran, fen));
      }
    }
    if (a.done) body.dataset.status = row.ports.some((p) => p.result.error !== undefined) ? "error" : row.agree ? "ok" : "diff";
    if (a.running) {
      const pr = a.progress;
      this.$("cmp-progress").textContent = pr
        ? `${a.running}: iteration ${pr.iteration} · ${fmtInt(pr.nodes)} nodes · ${fmtInt(pr.cycles)} cycles · host ${fmtSeconds(pr.host_ms)}`
        : `${a.running} ...`;
      if (!head) this.$("cmp-status").textContent = `The ${a.running} build searches ...`;
    }
  },

  /** SAN of moves in coordinates from `fen` (as Play writes them), coordinates where not legal. */
  san(fen, moves) {
    try {
      const san = JSON.parse(this.app.k.san_line(fen, moves.join(",")));
      return moves.map((m, i) => san[i] || m);
    } catch {
      return moves;
    }
  },

  answerRow(engine, who, ans, run, fen) {
    const differs = new Set(run ? run.differs : []);
    const cell = (field, text) => h("td", { class: differs.has(field) ? "differs" : null, "data-field": field }, text);
    const pv = this.san(fen, ans.pv);
    const best = ans.best ? `${this.san(fen, [ans.best])[0]}` : "";
    return h("tr", { "data-engine": engine, "data-nodes": ans.nodes, "data-best": ans.best, "data-score": ans.score, "data-cycles": run ? run.cycles : null }, [
      h("td", {}, who),
      cell("best", best && best !== ans.best ? `${best} (${ans.best})` : ans.best),
      cell("score", fmtScore(ans.score, ans.mate)),
      cell("nodes", fmtInt(ans.nodes)),
      h("td", {}, run ? fmtInt(run.cycles) : ""),
      h("td", {}, run ? `${run.seconds.toFixed(3)} s` : ""),
      h("td", {}, run ? `${fmtInt(run.peak_ram)} B` : ""),
      cell("pv", pv.join(" ")),
      h("td", { class: run ? (run.agree ? "agree" : "differs") : null }, run ? (run.agree ? "yes" : `no: ${run.differs.join(", ")}`) : "(reference)"),
    ]);
  },
};

registerView(compare);
