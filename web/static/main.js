// The page: loads the wasm module, starts the engine worker, builds a tab per registered view
// and follows the fragment router. The views (views/*.js) do the rest; what they share is
// `app`:
//
//   app.k                  the wasm module's exports (Board, parse_link, engines, ...)
//   app.client             the engine worker (engine-client.js)
//   app.router             the fragment router (router.js)
//   app.engines            the engines and their machines (choice.rs), from the worker
//   app.game               the game on the board (a k.Board); app.setGame(board) replaces it
//   app.onGame(fn)         fn(app.game) after every change of the game
//   app.gameChanged()      tells the listeners that app.game changed
//   app.message(text, level)  a line in the message bar ("info", "error"); the same line again
//                          is counted on the line already there, a very long one is cut
//   app.gameFromLink(link) the game the link holds (its fen and moves) on the board; false
//                          (with a message) when it cannot be
//   app.show(name)         makes a view active
//   app.activeSearch       {run, spec, engine} of the 8-bit search running now, or null

import init, * as k from "./pkg/kempelen_web.js";
import { EngineClient } from "./engine-client.js";
import { Router } from "./router.js";
import { VIEWS, findView } from "./views.js";
// The views: one module each (add yours here).
import "./views/play.js";
import "./views/tree.js";
import "./views/asm.js";
import "./views/lessons.js";
import "./views/programs.js";
import "./views/compare.js";
import "./views/machine.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/** The longest message shown whole: a longer one (an echoed input) is cut in the middle. */
const MESSAGE_CHARS = 400;

function cut(text) {
  if (text.length <= MESSAGE_CHARS) return text;
  const head = text.slice(0, MESSAGE_CHARS - 100);
  const tail = text.slice(-60);
  return `${head} … (${text.length - head.length - tail.length} characters left out) … ${tail}`;
}

const app = {
  k,
  client: null,
  router: null,
  engines: [],
  game: null,
  gameListeners: [],
  activeSearch: null,
  activeView: null,
  mounted: new Set(),

  setGame(board) {
    if (this.game && this.game !== board) this.game.free();
    this.game = board;
    this.gameChanged();
  },
  onGame(fn) {
    this.gameListeners.push(fn);
  },
  gameChanged() {
    for (const fn of this.gameListeners) fn(this.game);
  },

  message(text, level = "info") {
    const bar = document.getElementById("messages");
    text = cut(String(text));
    // The same message again (a button clicked twice) is counted, not stacked.
    for (const old of bar.querySelectorAll(".message")) {
      if (old.dataset.text === text && old.classList.contains(level)) {
        const n = Number(old.dataset.count || 1) + 1;
        old.dataset.count = String(n);
        old.querySelector("span").textContent = `${text} (×${n})`;
        bar.appendChild(old);
        return;
      }
    }
    const line = document.createElement("div");
    line.className = `message ${level}`;
    line.dataset.text = text;
    line.setAttribute("role", level === "error" ? "alert" : "status");
    const span = document.createElement("span");
    span.textContent = text;
    line.appendChild(span);
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "×";
    close.title = "dismiss";
    close.addEventListener("click", () => line.remove());
    line.appendChild(close);
    bar.appendChild(line);
    while (bar.children.length > 6) bar.firstChild.remove();
  },

  gameFromLink(link) {
    const fen = link.fen || START;
    const moves = (link.moves || []).join(",");
    if (fen === this.game.start_fen() && moves === this.game.moves()) return true;
    try {
      this.setGame(this.k.Board.from_moves(fen, moves));
      return true;
    } catch (err) {
      this.message(String(err.message || err), "error");
      return false;
    }
  },

  show(name, link = this.router.current, how = "tab") {
    const view = findView(name) || VIEWS[0];
    if (this.activeView && this.activeView !== view && this.activeView.hide) this.activeView.hide(this);
    for (const v of VIEWS) {
      document.getElementById(`view-${v.name}`).hidden = v !== view;
      const tab = document.getElementById(`tab-${v.name}`);
      tab.setAttribute("aria-selected", v === view ? "true" : "false");
    }
    const element = document.getElementById(`view-${view.name}`);
    if (!this.mounted.has(view.name)) {
      view.mount(element, this);
      this.mounted.add(view.name);
    }
    this.activeView = view;
    if (this.router.current.view !== view.name) this.router.update({ view: view.name });
    document.body.dataset.view = view.name;
    view.show(link, this, how);
  },
};

function buildTabs() {
  const tabs = document.getElementById("tabs");
  const views = document.getElementById("views");
  for (const v of VIEWS) {
    const tab = document.createElement("button");
    tab.type = "button";
    tab.id = `tab-${v.name}`;
    tab.setAttribute("role", "tab");
    tab.textContent = v.title;
    tab.addEventListener("click", () => app.show(v.name));
    tabs.appendChild(tab);
    const section = document.createElement("section");
    section.id = `view-${v.name}`;
    section.className = "view";
    section.setAttribute("role", "tabpanel");
    section.hidden = true;
    views.appendChild(section);
  }
}

function reportProblems(problems) {
  for (const p of problems) {
    const what = p.key ? `${p.key}=${p.value}` : p.value;
    const used = /not a key of this page/.test(p.message) ? "is not read" : "was not used";
    app.message(`The link's ${what} ${used}: ${p.message}`, "error");
  }
}

function openLink(link, problems) {
  reportProblems(problems);
  let view = link.view;
  if (view && !findView(view)) {
    app.message(`The link's view=${view} is not a view of this page (${VIEWS.map((v) => v.name).join(", ")}): showing ${VIEWS[0].name}`, "error");
    view = null;
  }
  app.show(view || VIEWS[0].name, link, "link");
}

async function main() {
  await init();
  app.router = new Router(k);
  app.router.onError = (text) => app.message(`The link: ${text}`, "error");
  app.client = new EngineClient();
  buildTabs();
  const hello = app.client.request("hello");
  app.engines = (await hello.done).engines;
  document.getElementById("version").textContent = `Kempelen ${k.version()}`;
  app.game = new k.Board();
  const { link, problems } = app.router.read();
  app.router.onChange((l, p) => openLink(l, p));
  openLink(link, problems);
  document.body.dataset.ready = "true";
}

main().catch((err) => {
  document.body.dataset.ready = "failed";
  const bar = document.getElementById("messages");
  bar.textContent = `The page could not start: ${err && err.message ? err.message : err}`;
  bar.classList.add("fatal");
});

// For the browser tests and the console.
window.kempelen = app;
