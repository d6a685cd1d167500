// The page's side of the worker protocol (see worker.js): send a request, receive its events
// and its answer, steer it (stop, pause, resume).
//
//   const run = client.request("search", { spec }, (event) => show(event));
//   run.stop();  run.pause();  run.resume();
//   const result = await run.done;     // rejects with an Error on the worker's error
//
// The requests run in workers of their own kind. The long sessions that run in slices (an
// 8-bit search, the machine view's debugger, an 8-bit tree, a real program) share the main
// worker: it reads its messages between slices, so none of them waits for another. A request
// that runs in one piece (a native search, a native tree: `native`) or starts with one (a
// comparison, whose native reference searches first: `alone`) gets a worker to itself, so
// nothing waits behind it, and stopping it ends that worker only: the request then resolves
// with {stopped: true, best: null, note} and no move is claimed. An 8-bit search stops the
// engine's way: it ends with its last completed iteration.

/** Idle workers kept for the next request that runs alone. */
const SPARE = 2;

export class EngineClient {
  constructor(url = "./worker.js") {
    this.url = url;
    this.nextId = 1;
    this.spare = [];
    this.main = this.spawn();
  }

  /** A worker and the requests it holds. */
  spawn() {
    const lane = { worker: new Worker(this.url, { type: "module" }), pending: new Map() };
    lane.worker.onmessage = (e) => this.receive(lane, e.data);
    lane.worker.onerror = (e) => {
      const message = `the engine worker failed: ${e.message || "it could not start"}`;
      this.fail(lane, message);
    };
    return lane;
  }

  /** Rejects a lane's requests and replaces the lane (the main one) or drops it. */
  fail(lane, message) {
    lane.worker.terminate();
    for (const p of lane.pending.values()) p.reject(new Error(message));
    lane.pending.clear();
    if (lane === this.main) this.main = this.spawn();
    this.spare = this.spare.filter((l) => l !== lane);
  }

  receive(lane, msg) {
    const p = lane.pending.get(msg.id);
    if (!p) return;
    if (msg.type === "event") {
      p.onEvent(msg.event);
    } else if (msg.type === "done") {
      this.finish(lane, msg.id);
      p.resolve(msg.result);
    } else if (msg.type === "error") {
      this.finish(lane, msg.id);
      p.reject(new Error(msg.message));
    }
  }

  /** A request is over: a lane of its own goes back to the spares (or ends). */
  finish(lane, id) {
    lane.pending.delete(id);
    if (lane === this.main || lane.pending.size) return;
    if (this.spare.length < SPARE) this.spare.push(lane);
    else lane.worker.terminate();
  }

  /**
   * Sends request `kind` with `payload`; `onEvent` gets its events. `native`: it runs in one
   * piece (stopping it ends its worker); `alone`: it begins with work in one piece (a
   * comparison); both get a worker of their own.
   */
  request(kind, payload = {}, onEvent = () => {}, { native = false, alone = false } = {}) {
    const id = this.nextId++;
    const lane = native || alone ? this.spare.pop() || this.spawn() : this.main;
    let resolve, reject;
    const done = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    lane.pending.set(id, { resolve, reject, onEvent });
    lane.worker.postMessage({ id, kind, ...payload });
    const control = (c) => lane.worker.postMessage({ id, control: c });
    const live = () => lane.pending.has(id);
    const end = () => {
      if (live() && lane !== this.main) this.end(lane, id);
    };
    return {
      id,
      done,
      stop: () => {
        if (!live()) return;
        if (native) end();
        else control("stop");
      },
      /** Ends a request that runs alone at once, its worker with it (no answer claimed). */
      end,
      pause: () => control("pause"),
      resume: () => control("resume"),
      /** A command for a handler that reads its inbox (the machine view's session). */
      send: (c) => {
        if (live()) control(c);
      },
    };
  }

  /** Ends the worker of a request that runs alone: the only way to interrupt work in one piece. */
  end(lane, stoppedId) {
    lane.worker.terminate();
    for (const [id, p] of lane.pending) {
      if (id !== stoppedId) p.reject(new Error("its worker was ended to stop another request"));
    }
    const p = lane.pending.get(stoppedId);
    lane.pending.clear();
    if (p) {
      p.resolve({
        kind: "done",
        best: null,
        stopped: true,
        note: "stopped: a native search runs in one piece in the browser, so stopping it ends it without a move",
      });
    }
  }
}
