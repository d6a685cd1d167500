// Request kind `compare`: one position searched by the native reference and both 8-bit
// builds (compare.rs). The builds run in slices; after each run of slices the row so far goes
// to the page as an event, so the view fills in as the answers arrive. `stop` ends the
// comparison: the builds that had not answered are marked so, and no answer is claimed.

import { k, registerHandler, yieldToEvents, whilePaused } from "./core.js";

/** Host time of one run of slices (ms). */
const SLICE_MS = 15;

registerHandler("compare", async (req, job) => {
  const run = k.Compare.start(JSON.stringify(req.spec));
  try {
    for (;;) {
      await whilePaused(job);
      if (job.control === "stop") return JSON.parse(run.stop());
      const a = JSON.parse(run.advance(SLICE_MS));
      if (a.done) return a;
      job.post(a);
      await yieldToEvents();
    }
  } finally {
    run.free();
  }
});
