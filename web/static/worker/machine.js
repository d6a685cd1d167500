// Request kind `machine`: an 8-bit build's search under the debugger (machine.rs), for the
// machine view. It starts paused before the first instruction and lives until the page
// stops it. The page steers it with control messages (EngineClient's `send`), read from
// `job.inbox` in order:
//
//   {action: {kind: "step" | "over" | "out" | "continue"}}   a debugger action
//   {action: {kind: "to" | "break", target: "search" | "$1234"}}
//   {action: {kind: "until", cycles: N}}                   run to a cycle count
//   {action: {kind: "lines", routine: "gen_tac" | ""}}       cycles by line of that routine
//   {mem: address}                                          memory from there
//   "pause"                                                 drops the goal being pursued
//   "stop"                                                  ends the session
//
// Events to the page: {state, report?, events?, error?} at every pause, {running, progress,
// events} while a goal runs (the state is sent when it pauses), and {state, ended: true} last,
// when "stop" ends it: the machine as it was then (a goal under way is dropped first), so the
// page's link can hold where it ended.

import { k, registerHandler, yieldToEvents } from "./core.js";

/** Cycles of one debugger call, and host time of one run of calls (ms). */
const BUDGET = 1 << 16;
const SLICE_MS = 15;

registerHandler("machine", async (req, job) => {
  const d = k.Debug.start(JSON.stringify(req.spec));
  let mem = -1;
  let pending = false;
  const state = (extra = {}) => job.post({ state: JSON.parse(d.state(mem)), ...extra });
  state();
  try {
    for (;;) {
      while (job.inbox.length) {
        const c = job.inbox.shift();
        if (c === "stop") {
          if (pending) d.cancel();
          state({ ended: true });
          return { stopped: true };
        }
        if (c === "pause") {
          if (pending) {
            d.cancel();
            pending = false;
            state({ paused: true });
          }
        } else if (c && c.mem !== undefined) {
          mem = c.mem;
          if (!pending) state();
        } else if (c && c.action) {
          try {
            const r = JSON.parse(d.act(JSON.stringify(c.action), BUDGET));
            pending = r.pending;
            if (pending) job.post({ running: true, events: r.events, progress: JSON.parse(d.progress()) });
            else state({ report: r, events: r.events });
          } catch (err) {
            pending = false;
            state({ error: String(err && err.message ? err.message : err) });
          }
        }
      }
      if (pending) {
        const t0 = performance.now();
        const events = [];
        let r;
        try {
          do {
            r = JSON.parse(d.resume(BUDGET));
            events.push(...r.events);
          } while (r.pending && performance.now() - t0 < SLICE_MS);
          pending = r.pending;
          if (pending) job.post({ running: true, events, progress: JSON.parse(d.progress()) });
          else state({ report: r, events });
        } catch (err) {
          pending = false;
          state({ events, error: String(err && err.message ? err.message : err) });
        }
      }
      await yieldToEvents(pending ? 0 : 15);
    }
  } finally {
    d.free();
  }
});
