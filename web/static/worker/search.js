// Request kinds `hello` (version and engine list) and `search` (one search by any engine).

import { k, registerHandler, runPortJob } from "./core.js";

registerHandler("hello", async () => ({ version: k.version(), engines: JSON.parse(k.engines()) }));
registerHandler("search", (req, job) => search(req.spec, job));

async function search(spec, job) {
  const text = JSON.stringify(spec);
  if (k.search_kind(text) === "native") {
    // One piece: the iterations are posted while it runs; the page stops it by ending the
    // worker (no move is claimed then).
    return JSON.parse(k.native_search(text, (ev) => job.post(JSON.parse(ev))));
  }
  const portJob = k.Job.start(text);
  try {
    return await runPortJob(portJob, job);
  } finally {
    portJob.free();
  }
}
