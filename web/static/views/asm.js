// The Assembler view: a program typed (or a guided example taken), assembled by Kempelen's
// assembler in the page (learn/sandbox.rs), its errors marked at their line and column; run
// and stepped on Kempelen's machine with registers, flags, memory and exact cycles, the
// instruction at the PC marked in the source. Link keys: its own `cpu`, `snippet` (an
// example's id) or `src` (the program itself).

import { registerView } from "../views.js";
import { fmtInt, h } from "../ui.js";

const BUDGET = 20000000;

const view = {
  name: "asm",
  title: "Assembler",
  order: 50,
  app: null,
  sandbox: null,
  snippets: [],

  mount(root, app) {
    this.app = app;
    this.snippets = JSON.parse(app.k.snippet_list());
    root.innerHTML = `
      <div class="asm-view">
        <div class="asm-left">
          <div class="asm-bar">
            <label>CPU <select id="asm-cpu"><option value="z80">Z80</option><option value="6502">6502</option><option value="65c02">65C02</option></select></label>
            <label>Example <select id="asm-snippet"><option value="">(your own)</option></select></label>
            <button type="button" id="asm-assemble">Assemble</button>
          </div>
          <div class="editor">
            <pre id="asm-gutter" class="gutter" aria-hidden="true"></pre>
            <textarea id="asm-source" spellcheck="false" wrap="off" aria-label="the program"></textarea>
          </div>
          <div id="asm-marks" class="marks" role="list" aria-live="polite"></div>
          <p id="asm-narration" class="narration"></p>
        </div>
        <div class="asm-right">
          <div class="controls">
            <button type="button" id="asm-step" title="one instruction">Step</button>
            <button type="button" id="asm-over" title="over a call">Step over</button>
            <button type="button" id="asm-out" title="to the return of this routine">Step out</button>
            <button type="button" id="asm-run" title="to a breakpoint or the end">Run</button>
            <button type="button" id="asm-reset">Reset</button>
          </div>
          <div id="asm-status" class="status" aria-live="polite"></div>
          <table id="asm-regs" class="regs"></table>
          <div id="asm-flags" class="flags"></div>
          <div class="table-box"><table id="asm-disasm" class="disasm"></table></div>
          <div class="memory-bar"><label>Memory at <input id="asm-mem-addr" value="0000" size="6" spellcheck="false"></label></div>
          <pre id="asm-memory" class="memory table-box"></pre>
          <p class="hint">Click a line number to set a breakpoint. Cycles are exact: the
          Z80's T-states, the 6502's clock cycles, as the machine counts them.</p>
        </div>
      </div>`;
    const pick = root.querySelector("#asm-snippet");
    for (const s of this.snippets) pick.appendChild(h("option", { value: s.id }, `${s.title} (${s.cpu})`));
    pick.addEventListener("change", () => this.takeSnippet(pick.value));
    root.querySelector("#asm-assemble").addEventListener("click", () => this.assemble());
    root.querySelector("#asm-reset").addEventListener("click", () => this.assemble());
    root.querySelector("#asm-step").addEventListener("click", () => this.act((s) => s.step()));
    root.querySelector("#asm-over").addEventListener("click", () => this.act((s) => s.step_over(BUDGET)));
    root.querySelector("#asm-out").addEventListener("click", () => this.act((s) => s.step_out(BUDGET)));
    root.querySelector("#asm-run").addEventListener("click", () => this.act((s) => s.run(BUDGET)));
    root.querySelector("#asm-mem-addr").addEventListener("change", () => { this.memChosen = true; this.draw(); });
    const source = root.querySelector("#asm-source");
    source.addEventListener("input", () => this.gutter());
    source.addEventListener("scroll", () => { root.querySelector("#asm-gutter").scrollTop = source.scrollTop; });
    root.querySelector("#asm-gutter").addEventListener("click", (e) => this.breakpointAt(e));
  },

  show(link, app, how) {
    if (how !== "link" && this.sandbox) return;
    const id = app.router.extra("snippet");
    const src = app.router.extra("src");
    if (src !== null) {
      document.getElementById("asm-cpu").value = app.router.extra("cpu") || "z80";
      document.getElementById("asm-source").value = src;
      this.assemble();
    } else {
      this.takeSnippet(id && this.snippets.some((s) => s.id === id) ? id : this.snippets[0].id);
    }
  },

  takeSnippet(id) {
    const s = this.snippets.find((x) => x.id === id);
    document.getElementById("asm-snippet").value = s ? s.id : "";
    document.getElementById("asm-narration").textContent = s ? s.narration : "";
    if (s) {
      document.getElementById("asm-cpu").value = s.cpu;
      document.getElementById("asm-source").value = s.source;
    }
    this.assemble();
  },

  assemble() {
    if (this.sandbox) this.sandbox.free();
    this.sandbox = null;
    const cpu = document.getElementById("asm-cpu").value;
    const text = document.getElementById("asm-source").value;
    const snippet = document.getElementById("asm-snippet").value;
    const example = this.snippets.find((s) => s.id === snippet);
    if (example && example.source === text) {
      this.app.router.setExtra("src", null);
      this.app.router.setExtra("snippet", snippet);
    } else {
      this.app.router.setExtra("snippet", null);
      this.app.router.setExtra("src", text);
    }
    this.app.router.setExtra("cpu", cpu);
    try {
      this.sandbox = new this.app.k.Sandbox(cpu, text);
    } catch (err) {
      this.app.message(`Assembler: ${err.message || err}`, "error");
    }
    this.draw();
  },

  act(f) {
    if (!this.sandbox) return;
    try {
      f(this.sandbox);
    } catch (err) {
      this.app.message(`Assembler: ${err.message || err}`, "error");
    }
    this.draw();
  },

  breakpointAt(e) {
    if (!this.sandbox) return;
    const gutter = document.getElementById("asm-gutter");
    const lineHeight = parseFloat(getComputedStyle(gutter).lineHeight) || 16;
    const y = e.clientY - gutter.getBoundingClientRect().top + gutter.scrollTop - parseFloat(getComputedStyle(gutter).paddingTop || 0);
    const line = Math.floor(y / lineHeight) + 1;
    try {
      this.sandbox.toggle_breakpoint(line);
    } catch (err) {
      this.app.message(`Assembler, breakpoint: ${err.message || err}`, "error");
    }
    this.draw();
  },

  gutter(v = this.lastView) {
    const lines = document.getElementById("asm-source").value.split("\n").length;
    const marked = new Map();
    for (const m of (v && v.marks) || []) if (m.line) marked.set(m.line, m.severity);
    const bps = new Set((v && v.breakpoints) || []);
    const out = [];
    for (let i = 1; i <= lines; i++) {
      const flag = v && v.loaded && v.line === i ? "▶" : bps.has(i) ? "●" : marked.has(i) ? (marked.get(i) === "error" ? "✖" : "!") : " ";
      out.push(`${flag}${String(i).padStart(4)}`);
    }
    document.getElementById("asm-gutter").textContent = out.join("\n");
  },

  draw() {
    const v = this.sandbox ? JSON.parse(this.sandbox.view()) : null;
    this.lastView = v;
    this.gutter(v);
    const marks = document.getElementById("asm-marks");
    marks.textContent = "";
    for (const m of (v && v.marks) || []) {
      const item = h("div", { class: `mark ${m.severity}`, role: "listitem", "data-line": String(m.line), "data-col": String(m.col) }, m.text);
      item.addEventListener("click", () => this.goTo(m.line, m.col, m.width));
      marks.appendChild(item);
    }
    const status = document.getElementById("asm-status");
    const regs = document.getElementById("asm-regs");
    const flags = document.getElementById("asm-flags");
    const dis = document.getElementById("asm-disasm");
    regs.textContent = "";
    flags.textContent = "";
    dis.textContent = "";
    if (!v || !v.loaded) {
      status.textContent = v && v.marks.some((m) => m.severity === "error")
        ? "The program did not assemble: see the errors."
        : "No program to run: type one (or take an example) and press Assemble.";
      status.dataset.cycles = "";
      document.getElementById("asm-memory").textContent = "";
      return;
    }
    status.textContent = `${v.size} bytes at $${hex(v.origin, 4)}; PC $${hex(v.pc, 4)}${v.line ? ` (line ${v.line})` : ""}; ${fmtInt(v.cycles)} cycles, ${fmtInt(v.instructions)} instructions` +
      (v.last ? `; last: ${v.last}` : "");
    status.dataset.cycles = String(v.cycles);
    status.dataset.pc = String(v.pc);
    status.dataset.line = v.line ? String(v.line) : "";
    status.dataset.last = v.last || "";
    // One row per register (a name and its value), laid out as many to a line as fit.
    regs.appendChild(h("tbody", {}, v.registers.map((r) => h("tr", {}, [h("th", {}, r.name), h("td", { "data-reg": r.name }, hex(r.value, r.bits / 4))]))));
    for (const f of v.flags) flags.appendChild(h("span", { class: f.set ? "flag set" : "flag", title: `bit ${f.bit}` }, f.name));
    for (const d of v.disasm) {
      dis.appendChild(h("tr", { class: d.current ? "current" : d.breakpoint ? "breakpoint" : "" }, [
        h("td", {}, `$${hex(d.addr, 4)}`),
        h("td", { class: "bytes" }, d.bytes.map((b) => hex(b, 2)).join(" ")),
        h("td", {}, d.text),
        h("td", { class: "cycles" }, d.cycles),
        h("td", { class: "where" }, d.source ? `${d.source.file}:${d.source.line}` : d.routine || ""),
      ]));
    }
    if (!this.memChosen) document.getElementById("asm-mem-addr").value = hex(v.origin, 4);
    const addr = parseInt(document.getElementById("asm-mem-addr").value.replace(/^\$|^0x/i, ""), 16) || 0;
    const bytes = this.sandbox.memory(addr & 0xffff, 128);
    const rows = [];
    for (let i = 0; i < bytes.length; i += 16) {
      rows.push(`$${hex((addr + i) & 0xffff, 4)}  ${Array.from(bytes.slice(i, i + 16), (b) => hex(b, 2)).join(" ")}`);
    }
    document.getElementById("asm-memory").textContent = rows.join("\n");
  },

  goTo(line, col, width) {
    const t = document.getElementById("asm-source");
    const lines = t.value.split("\n");
    let start = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
    start += Math.max(0, col - 1);
    t.focus();
    t.setSelectionRange(start, start + Math.max(1, width || 1));
  },
};

function hex(v, digits) {
  return v.toString(16).toUpperCase().padStart(digits, "0");
}

registerView(view);
