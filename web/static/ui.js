// Small helpers the views share: building elements and writing numbers, scores and times.
// They format what the Rust side computed; they compute nothing of their own.

/** An HTML element: h("td", {class: "pv"}, "e4 e5") or with an array of children. */
export function h(name, attrs = {}, children = []) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of Array.isArray(children) ? children : [children]) {
    if (c === null || c === undefined) continue;
    e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** 1234567 -> "1,234,567". */
export function fmtInt(n) {
  if (n === null || n === undefined) return "";
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A score in pawns from the side to move's view, or "mate in N". */
/** The heat map's shade of a cell: from none (no cycles) to full at the most cycles shown. */
export function heat(cycles, most) {
  return cycles > 0 && most > 0 ? `background: rgba(230, 90, 20, ${(0.08 + 0.5 * (cycles / most)).toFixed(3)})` : null;
}

export function fmtScore(score, mate) {
  if (mate !== null && mate !== undefined) return mate > 0 ? `mate in ${mate}` : `mated in ${-mate}`;
  if (score === null || score === undefined) return "";
  const p = score / 100;
  return (p > 0 ? "+" : "") + p.toFixed(2);
}

/** Whose view a score of a position is from: the side to move's ("w", "b" or a FEN). */
export function scoreView(side) {
  const s = side && side.length > 1 ? side.split(" ")[1] : side;
  return s === "b" ? "Black's view" : "White's view";
}

/** Milliseconds as seconds: "12.345 s". */
export function fmtSeconds(ms) {
  if (ms === null || ms === undefined) return "";
  return `${(ms / 1000).toFixed(3)} s`;
}

/** The engine menu's options: the 8-bit builds, then the native profiles. */
export function engineOptions(engines) {
  const groups = [
    ["8-bit builds in the emulator", engines.filter((e) => e.kind === "port")],
    ["native profiles", engines.filter((e) => e.kind !== "port")],
  ];
  return groups.map(([label, list]) =>
    h("optgroup", { label }, list.map((e) => h("option", { value: e.id }, e.label))),
  );
}

/** The machine menu's options for an engine (none for a native profile). */
export function machineOptions(engine) {
  if (!engine || engine.kind !== "port") return [h("option", { value: "" }, "(native: no machine)")];
  return engine.machines.map((m) =>
    h("option", { value: m.id }, `${m.name}: ${m.chip} at ${m.mhz} MHz`),
  );
}

/** One sentence for a search's result. */
export function describeResult(r, engines, s) {
  const e = engines.find((x) => x.id === s.engine);
  const who = e ? e.label : s.engine;
  if (!r.best) return `${who}: no move. ${r.note || ""}`.trim();
  let text = `${who} chose ${r.best_san} (${r.best})`;
  if (r.book) return `${text}: its book move, played without a search.`;
  const view = s.side ? ` (${scoreView(s.side)}, the side to move)` : "";
  text += `, score ${fmtScore(r.score, r.mate)}${view}, depth ${r.depth}, ${fmtInt(r.nodes)} nodes`;
  if (r.machine) {
    const m = r.machine;
    const machine = e ? e.machines.find((x) => x.id === m.id) : null;
    text += `, ${fmtInt(m.cycles)} cycles: ${fmtSeconds(m.emulated_ms)} on the ${machine ? machine.name : m.id}` +
      ` at ${m.mhz} MHz (timing ${m.timing}), ${fmtInt(Math.round(r.nps))} nodes/s there;` +
      ` emulated in ${fmtSeconds(m.host_ms)} here (${m.emulated_mhz.toFixed(1)} MHz)`;
  } else {
    text += `, ${fmtSeconds(r.time_ms)}, ${fmtInt(Math.round(r.nps))} nodes/s in this browser`;
  }
  if (r.stopped) text += " (stopped: its last completed iteration)";
  return `${text}.`;
}

/** The adapted program whose code a history lesson's numbered steps open (views/program.js). */
export const LESSON_PROGRAMS = { sargon: "sargon-book", microchess: "microchess" };

/**
 * The numbered steps of a lesson's "How ... chooses a move" (the list after that heading) in
 * a rendered lesson, as list items: step N is the N-th.
 */
export function lessonSteps(root) {
  const heading = [...root.querySelectorAll("h2")].find((x) => /^How .* chooses a move/.test(x.textContent));
  let list = heading ? heading.nextElementSibling : null;
  while (list && list.tagName !== "OL" && list.tagName !== "H2") list = list.nextElementSibling;
  return list && list.tagName === "OL" ? [...list.children].filter((x) => x.tagName === "LI") : [];
}
