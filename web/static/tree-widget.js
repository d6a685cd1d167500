// A search tree to expand and collapse: the nodes the Rust side sends (learn/tree.rs's
// ViewNode: parent, move, ply, kind, window, value, cutoff, principal variation, position),
// drawn as nested lists, children built when a node is opened. It computes nothing: it shows
// the values the search produced, and a node without a value yet shows none. Each node's
// number (its place in the visit order) stands in a box for White to move (a max node) or
// an ellipse for Black (a min node), as the lessons' pictures draw them; the principal
// variation is bold.
//
//   const t = new TreeWidget(element, { onSelect: (index, node) => ... });
//   t.setTree(tree)                 a whole tree ({nodes, iterations})
//   t.append(nodes, from)           nodes that arrived (a live tree), from index `from`
//   t.setScore(index, score)        a value backed up later
//   t.mark(index, cls)              a class on a node (e.g. "differs")
//   t.setPath(indices)              the open nodes of a running search
//   t.select(index)                 select (opens its ancestors)

import { h } from "./ui.js";

export class TreeWidget {
  constructor(container, { onSelect = () => {} } = {}) {
    this.container = container;
    this.onSelect = onSelect;
    this.clear();
  }

  clear() {
    this.nodes = [];
    this.children = [];
    this.items = new Map();
    this.selected = null;
    this.path = [];
    this.container.textContent = "";
    this.rootList = h("ul", { class: "tree", role: "tree" });
    this.container.appendChild(this.rootList);
  }

  setTree(tree) {
    this.clear();
    this.append(tree.nodes, 0);
  }

  append(nodes, from) {
    nodes.forEach((n, k) => {
      const i = from + k;
      this.nodes[i] = n;
      this.children[i] = [];
      if (n.parent === null || n.parent === undefined) {
        this.rootList.appendChild(this.item(i));
      } else {
        this.children[n.parent].push(i);
        const parent = this.items.get(n.parent);
        if (parent) {
          parent.classList.add("has-children");
          const list = parent.querySelector(":scope > ul");
          if (list) list.appendChild(this.item(i));
          this.label(n.parent);
        }
      }
    });
  }

  label(i) {
    const li = this.items.get(i);
    if (!li) return;
    const n = this.nodes[i];
    const span = li.querySelector(":scope > .node");
    const move = n.parent === null || n.parent === undefined ? `iteration ${n.iteration}` : n.san || n.mv;
    const value = n.score === null || n.score === undefined ? "…" : String(n.score);
    const bound = n.bound && n.bound !== "exact" ? (n.bound === "lower" ? " (≥)" : " (≤)") : "";
    const count = this.children[i].length ? `  ${this.children[i].length}` : "";
    const shape = h("span", { class: `shape ${n.white ? "max" : "min"}`, "aria-hidden": "true" }, String(i + 1));
    span.textContent = "";
    span.append(shape, ` ${move}  [${fmtBound(n.alpha)}, ${fmtBound(n.beta)}] → ${value}${bound}${n.cutoff ? "  cut" : ""}${count}`);
    span.title = `node ${i + 1}, ply ${n.ply}, ${n.kind}, ${n.white ? "White" : "Black"} to move` +
      (n.cycles !== null && n.cycles !== undefined ? `, entered at cycle ${n.cycles}` : "") +
      "; window and value from the side to move's view";
  }

  item(i) {
    const n = this.nodes[i];
    const cls = ["tree-node", n.kind, n.white ? "white" : "black"];
    if (n.pv) cls.push("pv");
    if (n.cutoff) cls.push("cutoff");
    const toggle = h("button", { type: "button", class: "toggle", "aria-label": "open or close" }, "");
    const span = h("span", { class: "node", tabindex: "0", role: "treeitem" });
    const li = h("li", { class: cls.join(" "), "data-node": String(i) }, [toggle, span]);
    toggle.addEventListener("click", () => this.toggle(i));
    span.addEventListener("click", () => this.select(i));
    span.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.select(i); }
      if (e.key === "ArrowRight") this.open(i);
      if (e.key === "ArrowLeft") this.close(i);
    });
    this.items.set(i, li);
    if (this.children[i].length) li.classList.add("has-children");
    this.label(i);
    return li;
  }

  open(i) {
    const li = this.items.get(i);
    if (!li || li.querySelector(":scope > ul")) return;
    const list = h("ul", { role: "group" });
    for (const c of this.children[i]) list.appendChild(this.item(c));
    li.appendChild(list);
    li.classList.add("open");
  }

  close(i) {
    const li = this.items.get(i);
    const list = li && li.querySelector(":scope > ul");
    if (!list) return;
    list.remove();
    li.classList.remove("open");
  }

  toggle(i) {
    const li = this.items.get(i);
    if (li && li.querySelector(":scope > ul")) this.close(i);
    else this.open(i);
  }

  setScore(i, score) {
    if (!this.nodes[i]) return;
    this.nodes[i].score = score;
    this.label(i);
  }

  mark(i, cls) {
    const li = this.items.get(i);
    if (li) li.classList.add(cls);
    if (this.nodes[i]) (this.nodes[i].marks ||= []).push(cls);
  }

  setPath(indices) {
    for (const i of this.path) this.items.get(i)?.classList.remove("on-path");
    this.path = indices;
    for (const i of indices) this.items.get(i)?.classList.add("on-path");
  }

  select(i) {
    if (!this.nodes[i]) return;
    const chain = [];
    for (let p = this.nodes[i].parent; p !== null && p !== undefined; p = this.nodes[p].parent) chain.unshift(p);
    for (const p of chain) this.open(p);
    if (this.selected !== null) this.items.get(this.selected)?.classList.remove("selected");
    this.selected = i;
    const li = this.items.get(i);
    if (li) {
      li.classList.add("selected");
      li.querySelector(":scope > .node").scrollIntoView({ block: "nearest" });
    }
    this.onSelect(i, this.nodes[i]);
  }
}

function fmtBound(v) {
  if (v >= 32001) return "+∞";
  if (v <= -32001) return "−∞";
  return String(v);
}
