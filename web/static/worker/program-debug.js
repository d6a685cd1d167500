// Request kind `program-debug`: an adapted program's turn (Sargon, Microchess, minisearch)
// under the debugger, for the program view (views/program.js). Its wasm module
// (kempelen_web_debug, the crate web-debug) is loaded the first time a program is stepped
// through, not with the page. The request carries the user's files ({name, bytes}: they stay
// in this worker's memory while the session lives, and go nowhere else), the program's id,
// the position and depth, and either a lesson step to open at or a cycle count to run to.
//
//   {action: {kind: "step" | "over" | "out" | "continue"}}   a debugger action
//   {action: {kind: "to" | "break", target: "FNDMOV" | ":1715" | "$1A00"}}
//   {action: {kind: "until", cycles: N}}                    run to a cycle count
//   {mem: address}                                           memory from there
//   "pause"                                                  drops the goal being pursued
//   "stop"                                                   ends the session
//
// Events to the page: {source, lessons} once, {state} at every pause (with report or error),
// {running, cycles} while a goal runs.

import { registerHandler, yieldToEvents } from "./core.js";

/** Cycles of one debugger call, and host time of one run of calls (ms). */
const BUDGET = 1 << 16;
const SLICE_MS = 15;
/** The most cycles a lesson step may take to reach its routine. */
const LESSON_BUDGET = 4e9;

let module = null;

async function load() {
  if (!module) {
    const m = await import("../pkg/kempelen_web_debug.js");
    await m.default();
    module = m;
  }
  return module;
}

registerHandler("program-debug", async (req, job) => {
  const d = await load();
  const files = new d.Files();
  for (const f of req.files || []) files.add(f.name, new Uint8Array(f.bytes));
  let p;
  try {
    p = req.lesson != null
      ? d.Program.open_lesson(req.spec.program, req.lesson, files, LESSON_BUDGET)
      : d.Program.open(JSON.stringify(req.spec), files);
  } finally {
    files.free();
  }
  let mem = -1;
  let pending = false;
  const state = (extra = {}) => job.post({ state: JSON.parse(p.state(mem)), ...extra });
  job.post({ source: JSON.parse(p.source()), lessons: JSON.parse(p.lessons()) });
  const act = (action) => {
    try {
      const r = JSON.parse(p.act(JSON.stringify(action), BUDGET));
      pending = r.pending;
      if (pending) job.post({ running: true, cycles: r.cycles });
      else state({ report: r });
    } catch (err) {
      pending = false;
      state({ error: String(err && err.message ? err.message : err) });
    }
  };
  if (req.cycles != null) act({ kind: "until", cycles: req.cycles });
  else state();
  try {
    for (;;) {
      while (job.inbox.length) {
        const c = job.inbox.shift();
        if (c === "stop") {
          if (pending) p.cancel();
          return { stopped: true, cycles: p.cycles() };
        }
        if (c === "pause") {
          if (pending) {
            p.cancel();
            pending = false;
            state({ paused: true });
          }
        } else if (c && c.mem !== undefined) {
          mem = c.mem;
          if (!pending) state();
        } else if (c && c.action) {
          act(c.action);
        }
      }
      if (pending) {
        const t0 = performance.now();
        let r;
        try {
          do {
            r = JSON.parse(p.resume(BUDGET));
          } while (r.pending && performance.now() - t0 < SLICE_MS);
          pending = r.pending;
          if (pending) job.post({ running: true, cycles: r.cycles });
          else state({ report: r });
        } catch (err) {
          pending = false;
          state({ error: String(err && err.message ? err.message : err) });
        }
      }
      await yieldToEvents(pending ? 0 : 15);
    }
  } finally {
    p.free();
  }
});

// Request kind `program-files`: the user's files a program names, matched by contents to the
// picked ones ({program, files}): [{name, sha256, role, picked_as}].
registerHandler("program-files", async (req) => {
  const d = await load();
  const files = new d.Files();
  try {
    for (const f of req.files || []) files.add(f.name, new Uint8Array(f.bytes));
    return JSON.parse(d.files_needed(req.program, files));
  } finally {
    files.free();
  }
});

// Request kind `program-tree`: the program's turn played with its search tree collected,
// slice by slice ({spec, files}); events {nodes, cycles, from, fresh} while it grows (the nodes
// entered since the last event, drawn as they come); the answer: the
// program's tree and its profile's, each node marked against the other (web-debug's tree.rs).
registerHandler("program-tree", async (req, job) => {
  const d = await load();
  const files = new d.Files();
  let t;
  try {
    for (const f of req.files || []) files.add(f.name, new Uint8Array(f.bytes));
    t = d.ProgramTree.open(JSON.stringify(req.spec), files);
  } finally {
    files.free();
  }
  // The nodes entered since the last event go with it: the page draws the tree as it grows.
  let sent = 0;
  try {
    for (;;) {
      if (job.control === "stop") return { stopped: true };
      const t0 = performance.now();
      let done = false;
      while (!done && performance.now() - t0 < SLICE_MS) done = t.advance(BUDGET);
      if (done) return JSON.parse(t.finish());
      const [nodes, cycles] = t.progress();
      const fresh = JSON.parse(t.nodes_from(sent));
      job.post({ nodes, cycles, from: sent, fresh });
      sent += fresh.length;
      await yieldToEvents(0);
    }
  } finally {
    t.free();
  }
});
