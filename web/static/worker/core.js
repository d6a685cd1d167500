// The worker's core: the wasm module, the table of request kinds, and the helpers a handler
// uses to run long work in slices (yield to the event loop, pause, run a port search).
// See worker.js for the protocol.

import init, * as wasm from "../pkg/kempelen_web.js";

/** The wasm module's exports, once `ready` has resolved. */
export const k = wasm;
/** Resolves when the wasm module is instantiated. */
export const ready = init();

/** Request kinds and their handlers (each module of worker/ adds its own). */
export const HANDLERS = {};

/** Adds a request kind (for modules that extend the worker). */
export function registerHandler(kind, handler) {
  HANDLERS[kind] = handler;
}

/** Returns to the event loop so that messages from the page are read. */
export function yieldToEvents(ms = 0) {
  if (ms > 0) return new Promise((r) => setTimeout(r, ms));
  return new Promise((r) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => r();
    c.port2.postMessage(0);
  });
}

/** Waits while the page has the job paused; true when it was paused. */
export async function whilePaused(job) {
  let paused = false;
  while (job.control === "pause") {
    paused = true;
    await yieldToEvents(20);
  }
  return paused;
}

/** Host time of one run of slices before the worker looks at its messages again (ms). */
const SLICE_MS = 15;

/**
 * Runs an 8-bit build's search (a k.Job) slice by slice: events go to the page as they come,
 * `stop` ends it with the engine's last completed iteration, `pause` holds it. Exported for
 * other handlers (compare, the machine view) that run port searches.
 */
export async function runPortJob(portJob, job, onEvent = (e) => job.post(e)) {
  job.portJob = portJob;
  let stopped = false;
  try {
    for (;;) {
      if (await whilePaused(job)) portJob.resume();
      if (job.control === "stop" && !stopped) {
        stopped = true;
        portJob.stop();
      }
      const adv = JSON.parse(portJob.advance(SLICE_MS));
      let result = null;
      for (const ev of adv.events) {
        if (ev.kind === "done") result = ev;
        else onEvent(ev);
      }
      if (adv.done) return result;
      await yieldToEvents(Math.min(adv.wait_ms, 100));
    }
  } finally {
    job.portJob = null;
  }
}
