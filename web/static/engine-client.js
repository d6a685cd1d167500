// The page's side of the worker protocol (see worker.js): send a request, receive its events
// and its answer, steer it (stop, pause, resume).
//
//   const run = client.request("search", { spec }, (event) => show(event));
//   run.stop();  run.pause();  run.resume();
//   const result = await run.done;     // rejects with an Error on the worker's error
//
// A native search cannot look at messages while it computes (it runs in one piece), so
// stopping one ends the worker and starts a new one; the request then resolves with
// {stopped: true, best: null, note} and no move is claimed. An 8-bit search stops the
// engine's way: it ends with its last completed iteration.

export class EngineClient {
  constructor(url = "./worker.js") {
    this.url = url;
    this.nextId = 1;
    this.pending = new Map();
    this.spawn();
  }

  spawn() {
    this.worker = new Worker(this.url, { type: "module" });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      const message = `the engine worker failed: ${e.message || "it could not start"}`;
      for (const p of this.pending.values()) p.reject(new Error(message));
      this.pending.clear();
    };
  }

  receive(msg) {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === "event") {
      p.onEvent(msg.event);
    } else if (msg.type === "done") {
      this.pending.delete(msg.id);
      p.resolve(msg.result);
    } else if (msg.type === "error") {
      this.pending.delete(msg.id);
      p.reject(new Error(msg.message));
    }
  }

  /**
   * Sends request `kind` with `payload`; `onEvent` gets its events. `native` marks a request
   * that runs in one piece (a native search): stopping it restarts the worker.
   */
  request(kind, payload = {}, onEvent = () => {}, { native = false } = {}) {
    const id = this.nextId++;
    let resolve, reject;
    const done = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pending.set(id, { resolve, reject, onEvent });
    this.worker.postMessage({ id, kind, ...payload });
    const control = (c) => this.worker.postMessage({ id, control: c });
    return {
      id,
      done,
      stop: () => {
        if (!this.pending.has(id)) return;
        if (native) this.restart(id);
        else control("stop");
      },
      pause: () => control("pause"),
      resume: () => control("resume"),
      /** A command for a handler that reads its inbox (the machine view's session). */
      send: (c) => {
        if (this.pending.has(id)) control(c);
      },
    };
  }

  /** Ends the worker (a native search cannot be interrupted otherwise) and starts a new one. */
  restart(stoppedId) {
    this.worker.terminate();
    const pending = this.pending;
    this.pending = new Map();
    this.spawn();
    for (const [id, p] of pending) {
      if (id === stoppedId) {
        p.resolve({
          kind: "done",
          best: null,
          stopped: true,
          note: "stopped: a native search runs in one piece in the browser, so stopping it ends it without a move",
        });
      } else {
        p.reject(new Error("the engine worker was restarted to stop a native search"));
      }
    }
  }
}
