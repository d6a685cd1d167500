// Request kinds of the learning views: `tree` (a search tree, native, in one piece) and `walk`
// (an 8-bit build's search followed node by node, in slices: each slice's new nodes, values
// and the routine the PC is in are posted as an event; `stop` ends it, `pause` holds it).

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
