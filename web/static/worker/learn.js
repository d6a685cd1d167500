// Request kinds of the learning views: `tree` (a search tree, native, in one piece), `walk`
// (an 8-bit build's search followed node by node, in slices: each slice's new nodes, values
// and the routine the PC is in are posted as an event; `stop` ends it, `pause` holds it) and
// `program` (a real program's turn, in slices, below).

import { k, registerHandler, whilePaused, yieldToEvents } from "./core.js";

registerHandler("tree", async (req) => JSON.parse(k.search_tree(JSON.stringify(req.spec))));
registerHandler("walk", (req, job) => walk(req.spec, job));

/** Cycles the 8-bit machine runs between two looks at the page's messages. */
const SLICE_CYCLES = 400000;

async function walk(spec, job) {
  const w = k.Walk.start(JSON.stringify(spec));
  try {
    job.post({ kind: "native", tree: JSON.parse(w.native()) });
    for (;;) {
      await whilePaused(job);
      if (job.control === "stop") return { stopped: true };
      const update = JSON.parse(w.advance(SLICE_CYCLES));
      job.post({ kind: "nodes", update });
      if (update.done) return { stopped: false, cycles: update.cycles };
      await yieldToEvents(spec.delay_ms || 0);
    }
  } finally {
    w.free();
  }
}

// `program`: a real program (Microchess, Sargon) from the files the user picked, its move on a
// position: set up, then its turn run a slice at a time (learn/programs.rs ProgramJob); each
// slice's cycles and its machine's time are posted as an event (the first one after its turn
// began carries its board read from its RAM); `stop` ends the turn at once with the move the
// program holds as best, `pause` holds it; at real speed the slices wait for the machine's
// clock (counted again from a resume).
registerHandler("program", async (req, job) => {
  const picked = new k.Picked();
  let run;
  try {
    for (const f of req.files) picked.add(f.name, new Uint8Array(f.bytes));
    run = k.ProgramRun.start(JSON.stringify(req.spec), picked);
  } finally {
    picked.free();
  }
  try {
    let stopped = false;
    // The turn's cycles at the last slice: a pause holds the machine there, and says so.
    let cycles = null;
    for (;;) {
      if (job.control === "pause") job.post({ kind: "held", cycles });
      if (await whilePaused(job)) run.resume();
      if (job.control === "stop" && !stopped) {
        stopped = true;
        run.stop();
      }
      const a = JSON.parse(run.advance(PROGRAM_SLICE_MS));
      if (a.result) return a.result;
      if (a.searching) cycles = a.cycles;
      job.post({ kind: "thinking", ...a });
      await yieldToEvents(Math.min(a.wait_ms, 100));
    }
  } finally {
    run.free();
  }
});

/** Host time a real program's machine runs before the worker looks at its messages (ms). */
const PROGRAM_SLICE_MS = 30;
