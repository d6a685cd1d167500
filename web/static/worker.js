// The engine worker (a module worker): every search and every emulated cycle runs here, so the
// page answers clicks while an engine thinks. It speaks one protocol (docs/WEB.md):
//
//   page -> worker  {id, kind, ...}            a request; `kind` picks its handler below
//   page -> worker  {id, control: "stop" | "pause" | "resume" | {...}}   steers request `id`
//   worker -> page  {id, type: "event", event}  something to show while it runs
//   worker -> page  {id, type: "done", result}  its answer (the request is over)
//   worker -> page  {id, type: "error", message}
//
// A handler is `async (request, job) => result`; `job.post(event)` sends an event, and
// `job.control` holds the last control message. Add a request kind by adding a handler to
// worker/core.js's HANDLERS: a module in worker/ that calls registerHandler, imported below.

import { HANDLERS, ready } from "./worker/core.js";
// The request kinds: one module each (add yours here).
import "./worker/search.js";
import "./worker/learn.js";
import "./worker/compare.js";
import "./worker/machine.js";
import "./worker/program-debug.js";

const jobs = new Map();

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.control) {
    const job = jobs.get(msg.id);
    if (job) job.control = msg.control;
    // A handler that takes commands (the machine view's) reads them in order from its inbox.
    if (job) job.inbox.push(msg.control);
    return;
  }
  const job = {
    id: msg.id,
    control: null,
    inbox: [],
    post: (event) => self.postMessage({ id: msg.id, type: "event", event }),
  };
  jobs.set(msg.id, job);
  try {
    await ready;
    const handler = HANDLERS[msg.kind];
    if (!handler) throw new Error(`unknown request kind '${msg.kind}'`);
    const result = await handler(msg, job);
    self.postMessage({ id: msg.id, type: "done", result });
  } catch (err) {
    self.postMessage({ id: msg.id, type: "error", message: String(err && err.message ? err.message : err) });
  } finally {
    jobs.delete(msg.id);
  }
};
