// The one fragment router: the URL's fragment holds what is on screen, so a link reproduces
// it. The Rust side reads and writes the fragment (link.rs: every value checked with the
// command line's rules); this module keeps the address bar and the page in step.
//
//   router.current            // the link on screen: {fen, moves, engine, machine, depth, speed, view, extra}
//   router.update({depth: 5}) // changes part of it and rewrites the address (no reload, no history entry)
//   router.onChange(fn)       // fn(link, problems) when the user opens or edits a link
//   router.onError = fn       // fn(text) when a link cannot be written (longer than a link
//                             //   holds): the address keeps its last link

export class Router {
  constructor(k) {
    this.k = k;
    this.current = {};
    this.listeners = [];
    this.written = null;
    this.onError = null;
    window.addEventListener("hashchange", () => {
      if (location.hash.slice(1) === this.written) return;
      this.read();
      for (const fn of this.listeners) fn(this.current, this.problems);
    });
  }

  /** Reads the address's fragment; returns {link, problems}. */
  read() {
    const parsed = JSON.parse(this.k.parse_link(location.hash));
    this.current = parsed.link;
    this.problems = parsed.problems;
    return parsed;
  }

  onChange(fn) {
    this.listeners.push(fn);
  }

  /** Merges `changes` into the link on screen and writes the address. */
  update(changes) {
    const link = { ...this.current, ...changes };
    for (const [key, value] of Object.entries(link)) {
      if (value === undefined) delete link[key];
    }
    this.current = link;
    let text;
    try {
      text = this.k.format_link(JSON.stringify(link));
    } catch (err) {
      if (this.onError) this.onError(String(err.message || err));
      return;
    }
    this.written = text;
    history.replaceState(null, "", text ? `#${text}` : location.pathname + location.search);
  }

  /** The value of a view's own key (one of `extra`). */
  extra(key) {
    const e = (this.current.extra || []).find(([k]) => k === key);
    return e ? e[1] : null;
  }

  /** Sets (or with null removes) a view's own key. */
  setExtra(key, value) {
    const extra = (this.current.extra || []).filter(([k]) => k !== key);
    if (value !== null && value !== undefined) extra.push([key, String(value)]);
    this.update({ extra });
  }
}
