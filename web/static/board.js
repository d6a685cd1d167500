// The board: an SVG of Kempelen's own that draws a BoardView (the Rust side's
// session::BoardView: squares, legal moves, check, last move) and turns clicks, drags and keys
// into moves in coordinates. It knows no rule: a move is offered only if the view lists it.
//
//   const board = new ChessBoard(element, { onMove: (uci) => ..., canMove: () => true });
//   board.render(view);  board.flip();  board.setArrow("e2e4");  board.focus();
//   board.setMarks({ e1: "differs" });  // a class on squares the caller wants marked
//
// Keyboard: the arrow keys move a cursor, Enter or Space picks up the piece under it and puts
// it down, Escape drops it; on a promotion, Q, R, B or N (or the arrows and Enter) choose.

import { pieceGroup, pieceIcon } from "./pieces.js";

const NS = "http://www.w3.org/2000/svg";
const SIZE = 100;
const FILES = "abcdefgh";

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class ChessBoard {
  constructor(container, { onMove = () => {}, canMove = () => true } = {}) {
    this.container = container;
    this.onMove = onMove;
    this.canMove = canMove;
    this.flipped = false;
    this.view = null;
    this.selected = null;
    this.cursor = "e2";
    this.arrow = null;
    this.marks = {};
    this.drag = null;
    this.svg = el("svg", {
      viewBox: `0 0 ${8 * SIZE} ${8 * SIZE}`,
      class: "board",
      role: "application",
      tabindex: "0",
      "aria-label": "chess board: arrow keys move the cursor, Enter picks up and puts down a piece",
    });
    container.appendChild(this.svg);
    this.promotion = document.createElement("div");
    this.promotion.className = "promotion hidden";
    container.appendChild(this.promotion);
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.svg.addEventListener("focus", () => this.draw());
    this.svg.addEventListener("blur", () => this.draw());
    this.promotion.addEventListener("keydown", (e) => this.promotionKey(e));
  }

  focus() {
    this.svg.focus();
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw();
  }

  /** Marks a move (the engine's best) with an arrow; null removes it. */
  setArrow(uci) {
    this.arrow = uci;
    this.draw();
  }

  /** Marks squares with a class each ({ e1: "differs" }); {} removes them. */
  setMarks(marks) {
    this.marks = marks || {};
    this.draw();
  }

  render(view) {
    this.view = view;
    this.selected = null;
    this.closePromotion();
    this.draw();
  }

  /** Square name -> top-left corner in SVG units. */
  corner(sq) {
    const f = FILES.indexOf(sq[0]);
    const r = Number(sq[1]) - 1;
    const col = this.flipped ? 7 - f : f;
    const row = this.flipped ? r : 7 - r;
    return [col * SIZE, row * SIZE];
  }

  squareAt(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    const col = Math.floor(p.x / SIZE);
    const row = Math.floor(p.y / SIZE);
    if (col < 0 || col > 7 || row < 0 || row > 7) return null;
    const f = this.flipped ? 7 - col : col;
    const r = this.flipped ? row : 7 - row;
    return FILES[f] + (r + 1);
  }

  pieceOn(sq) {
    const f = FILES.indexOf(sq[0]);
    const r = Number(sq[1]) - 1;
    return this.view ? this.view.squares[(7 - r) * 8 + f] : "";
  }

  movesFrom(sq) {
    return this.view ? this.view.legal.filter((m) => m.from === sq) : [];
  }

  draw() {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!this.view) return;
    const v = this.view;
    const targets = new Set(this.selected ? this.movesFrom(this.selected).map((m) => m.to) : []);
    for (let r = 0; r < 8; r++) {
      for (let f = 0; f < 8; f++) {
        const sq = FILES[f] + (r + 1);
        const [x, y] = this.corner(sq);
        const classes = ["square", (f + r) % 2 === 0 ? "dark" : "light"];
        if (v.last && (v.last.uci.slice(0, 2) === sq || v.last.uci.slice(2, 4) === sq)) classes.push("last");
        if (this.selected === sq) classes.push("selected");
        if (v.check === sq) classes.push("check");
        if (this.marks[sq]) classes.push(this.marks[sq]);
        el("rect", { x, y, width: SIZE, height: SIZE, class: classes.join(" "), "data-square": sq }, svg);
      }
    }
    this.drawCoordinates();
    for (let i = 0; i < 64; i++) {
      const letter = v.squares[i];
      if (!letter) continue;
      const sq = FILES[i % 8] + (8 - Math.floor(i / 8));
      if (this.drag && this.drag.from === sq && this.drag.moved) continue;
      const [x, y] = this.corner(sq);
      const g = pieceGroup(letter, x, y, SIZE);
      g.dataset.square = sq;
      svg.appendChild(g);
    }
    for (const to of targets) {
      const [x, y] = this.corner(to);
      const capture = this.pieceOn(to) !== "";
      el("circle", {
        cx: x + SIZE / 2,
        cy: y + SIZE / 2,
        r: capture ? SIZE * 0.46 : SIZE * 0.15,
        class: capture ? "target capture" : "target",
        "data-target": to,
      }, svg);
    }
    if (this.arrow) this.drawArrow(this.arrow);
    if (document.activeElement === svg) {
      const [x, y] = this.corner(this.cursor);
      el("rect", { x: x + 3, y: y + 3, width: SIZE - 6, height: SIZE - 6, class: "cursor" }, svg);
    }
    if (this.drag && this.drag.moved) {
      const g = pieceGroup(this.drag.letter, this.drag.x - SIZE / 2, this.drag.y - SIZE / 2, SIZE);
      g.classList.add("dragging");
      svg.appendChild(g);
    }
  }

  drawCoordinates() {
    for (let i = 0; i < 8; i++) {
      const file = FILES[this.flipped ? 7 - i : i];
      const rank = this.flipped ? i + 1 : 8 - i;
      const t = el("text", { x: i * SIZE + SIZE - 6, y: 8 * SIZE - 6, class: "coord", "text-anchor": "end" }, this.svg);
      t.textContent = file;
      const u = el("text", { x: 5, y: i * SIZE + 20, class: "coord" }, this.svg);
      u.textContent = rank;
    }
  }

  drawArrow(uci) {
    const [x1, y1] = this.corner(uci.slice(0, 2));
    const [x2, y2] = this.corner(uci.slice(2, 4));
    const a = [x1 + SIZE / 2, y1 + SIZE / 2];
    const b = [x2 + SIZE / 2, y2 + SIZE / 2];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const ux = (b[0] - a[0]) / len;
    const uy = (b[1] - a[1]) / len;
    const tip = [b[0] - ux * 10, b[1] - uy * 10];
    const base = [tip[0] - ux * 30, tip[1] - uy * 30];
    el("line", { x1: a[0], y1: a[1], x2: base[0], y2: base[1], class: "arrow" }, this.svg);
    el("polygon", {
      points: `${tip[0]},${tip[1]} ${base[0] - uy * 20},${base[1] + ux * 20} ${base[0] + uy * 20},${base[1] - ux * 20}`,
      class: "arrow-head",
    }, this.svg);
  }

  /** Picks a square: selects a piece that can move, or moves the selected one there. */
  pick(sq) {
    if (!this.view || !this.canMove()) return;
    if (this.selected && this.movesFrom(this.selected).some((m) => m.to === sq)) {
      this.complete(this.selected, sq);
      return;
    }
    this.selected = this.movesFrom(sq).length ? sq : null;
    this.draw();
  }

  /** Plays from -> to, asking for the piece on a promotion. */
  complete(from, to) {
    const moves = this.movesFrom(from).filter((m) => m.to === to);
    if (moves.length === 0) {
      this.selected = null;
      this.draw();
      return;
    }
    if (moves.length === 1) {
      this.selected = null;
      this.onMove(moves[0].uci);
      return;
    }
    this.openPromotion(moves);
  }

  openPromotion(moves) {
    const p = this.promotion;
    p.innerHTML = "";
    p.classList.remove("hidden");
    const white = this.view.side === "w";
    const label = document.createElement("div");
    label.textContent = "Promote to (Q, R, B, N; Escape cancels):";
    p.appendChild(label);
    this.promotionMoves = moves;
    for (const letter of ["q", "r", "b", "n"]) {
      const m = moves.find((x) => x.promotion === letter);
      if (!m) continue;
      const btn = document.createElement("button");
      btn.type = "button";
      btn.dataset.promotion = letter;
      btn.title = m.san;
      btn.appendChild(pieceIcon(white ? letter.toUpperCase() : letter));
      btn.addEventListener("click", () => this.choosePromotion(letter));
      p.appendChild(btn);
    }
    p.querySelector("button").focus();
  }

  choosePromotion(letter) {
    const m = this.promotionMoves && this.promotionMoves.find((x) => x.promotion === letter);
    if (!m) return;
    this.closePromotion();
    this.selected = null;
    this.onMove(m.uci);
  }

  closePromotion() {
    this.promotion.classList.add("hidden");
    this.promotion.innerHTML = "";
    this.promotionMoves = null;
  }

  pointerDown(e) {
    const sq = this.squareAt(e);
    if (!sq) return;
    this.keyboardUsed = false;
    if (this.selected && this.movesFrom(this.selected).some((m) => m.to === sq)) {
      this.complete(this.selected, sq);
      return;
    }
    if (!this.canMove() || this.movesFrom(sq).length === 0) {
      this.selected = null;
      this.draw();
      return;
    }
    this.selected = sq;
    this.cursor = sq;
    const pt = this.svgPoint(e);
    this.drag = { from: sq, letter: this.pieceOn(sq), x: pt.x, y: pt.y, moved: false, pointer: e.pointerId };
    this.svg.setPointerCapture(e.pointerId);
    this.draw();
  }

  svgPoint(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  pointerMove(e) {
    if (!this.drag) return;
    const p = this.svgPoint(e);
    if (!this.drag.moved && Math.hypot(p.x - this.drag.x, p.y - this.drag.y) < 8) return;
    this.drag.moved = true;
    this.drag.x = p.x;
    this.drag.y = p.y;
    this.draw();
  }

  pointerUp(e) {
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    const sq = this.squareAt(e);
    if (drag.moved && sq && sq !== drag.from) {
      this.complete(drag.from, sq);
    } else {
      this.draw();
    }
  }

  key(e) {
    if (!this.view) return;
    const step = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (step) {
      e.preventDefault();
      this.keyboardUsed = true;
      const dir = this.flipped ? -1 : 1;
      const f = Math.min(7, Math.max(0, FILES.indexOf(this.cursor[0]) + step[0] * dir));
      const r = Math.min(7, Math.max(0, Number(this.cursor[1]) - 1 + step[1] * dir));
      this.cursor = FILES[f] + (r + 1);
      this.draw();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.keyboardUsed = true;
      this.pick(this.cursor);
    } else if (e.key === "Escape") {
      this.selected = null;
      this.closePromotion();
      this.draw();
    }
  }

  /** Keys while the promotion chooser is open (it has focus). */
  promotionKey(e) {
    const letter = e.key.toLowerCase();
    if ("qrbn".includes(letter) && letter.length === 1) {
      e.preventDefault();
      this.choosePromotion(letter);
    } else if (e.key === "Escape") {
      this.closePromotion();
      this.selected = null;
      this.draw();
      this.focus();
    }
  }
}
