// The chess pieces, drawn for Kempelen (MIT, like the rest of the project): SVG paths in a
// 100 x 100 box, one outline per piece plus its details. White pieces are light with a dark
// outline, black pieces dark with light details.

const BASE = "M26 88 H74 V80 H26 Z";

const SHAPES = {
  p: {
    body: "M50 18 A12 12 0 1 1 49.9 18 Z M38 80 Q40 58 45 46 H55 Q60 58 62 80 Z M34 80 H66 L64 74 H36 Z",
    details: "",
  },
  r: {
    body: `${BASE} M33 80 L36 42 H64 L67 80 Z M29 42 V20 H38 V28 H45 V20 H55 V28 H62 V20 H71 V42 Z`,
    details: "M36 48 H64 M35 72 H65",
  },
  n: {
    body: `${BASE} M32 80 C34 70 40 62 46 54 C40 54 34 56 30 60 C26 64 20 62 20 56 C20 48 28 40 34 32 C36 26 38 20 42 16 L46 22 C58 22 66 30 70 42 C74 56 72 68 70 80 Z`,
    details: "M36 34 A3 3 0 1 1 35.9 34 Z M46 24 C52 30 56 40 56 50",
  },
  b: {
    body: `${BASE} M35 80 C37 68 41 60 43 54 H57 C59 60 63 68 65 80 Z M50 16 C37 28 34 42 41 54 H59 C66 42 63 28 50 16 Z M50 6 A5 5 0 1 1 49.9 6 Z`,
    details: "M54 26 L46 38 M40 60 H60",
  },
  q: {
    body: `${BASE} M31 80 L22 36 L36 58 L40 28 L48 56 L50 24 L52 56 L60 28 L64 58 L78 36 L69 80 Z M22 30 A4 4 0 1 1 21.9 30 Z M40 22 A4 4 0 1 1 39.9 22 Z M50 18 A4 4 0 1 1 49.9 18 Z M60 22 A4 4 0 1 1 59.9 22 Z M78 30 A4 4 0 1 1 77.9 30 Z`,
    details: "M32 72 H68",
  },
  k: {
    body: `${BASE} M31 80 C22 62 24 46 36 44 C44 43 48 50 50 56 C52 50 56 43 64 44 C76 46 78 62 69 80 Z M47 10 H53 V18 H60 V24 H53 V40 H47 V24 H40 V18 H47 Z`,
    details: "M50 44 V56 M33 72 H67",
  },
};

const NS = "http://www.w3.org/2000/svg";

/**
 * An SVG group drawing `letter` (a FEN letter: upper case white, lower case black) in a
 * `size` x `size` square at (x, y).
 */
export function pieceGroup(letter, x, y, size) {
  const white = letter === letter.toUpperCase();
  const shape = SHAPES[letter.toLowerCase()];
  const g = document.createElementNS(NS, "g");
  g.setAttribute("transform", `translate(${x} ${y}) scale(${size / 100})`);
  g.setAttribute("class", `piece ${white ? "white" : "black"}`);
  g.dataset.piece = letter;
  const body = document.createElementNS(NS, "path");
  body.setAttribute("d", shape.body);
  body.setAttribute("class", "body");
  g.appendChild(body);
  if (shape.details) {
    const d = document.createElementNS(NS, "path");
    d.setAttribute("d", shape.details);
    d.setAttribute("class", "details");
    g.appendChild(d);
  }
  return g;
}

/** A small standalone SVG of one piece (for the promotion chooser). */
export function pieceIcon(letter, size = 48) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", "piece-icon");
  svg.appendChild(pieceGroup(letter, 0, 0, 100));
  return svg;
}
