/**
 * The game's drawings, our own, as SVG elements built with `document.createElementNS`:
 * faceted gems and tokens (each colour has its own shape, for colour-blind players: white
 * an octagon, blue a rhombus, green a tall emerald cut, red a triangle, black a hexagon,
 * pearl a round pearl, gold a star), the faces of development cards (classic) and jewel
 * cards (Duel) with their bonus, points, cost, crowns and ability icons, card backs per
 * level, nobles, royal cards, the bag, privilege scrolls and crowns. One shape per gem,
 * used everywhere a colour means something: tokens, bonuses, and the costs of cards and
 * requirements of nobles (each number beside its gem, in a `cost-mark`/`req-mark` group
 * that names it in words), so that the table reads in greyscale too.
 *
 * No image file, font, `id` or `style` attribute: every drawing stands alone and uses
 * presentation attributes only (the page's Content-Security-Policy allows no inline
 * style). Each function returns a fresh element; `aria-hidden` drawings sit next to text
 * or inside elements whose `title`/`aria-label` says what they show.
 * @module art
 */

const NS = "http://www.w3.org/2000/svg";

/**
 * Build an SVG element: `svg("circle", {cx: 5, r: 2}, child...)`. Attributes with null,
 * undefined or false values are skipped; children may be nodes, strings or nested arrays.
 * @param {string} tag
 * @param {Object<string, any>} [attrs]
 * @param {...any} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, String(v));
  }
  return add(el, children);
}

/** Append children (nodes, strings, nested arrays; null and false skipped) to `el`. */
function add(el, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * Colours by token letter: `base` (the gem), `dark` (outlines), `light` (highlights),
 * `ink` (text drawn on the base), `tint` (a card's background).
 */
export const PALETTE = {
  W: { base: "#f3f5f8", dark: "#6f7c8a", light: "#ffffff", ink: "#1d2733", tint: "#f4f6f9" },
  U: { base: "#1f5fbf", dark: "#0d2f6b", light: "#79aaf0", ink: "#ffffff", tint: "#d9e6f8" },
  G: { base: "#178a4c", dark: "#0a4626", light: "#64cf90", ink: "#ffffff", tint: "#d9f0e2" },
  R: { base: "#cf2936", dark: "#6e0f17", light: "#f48a92", ink: "#ffffff", tint: "#f8dcdf" },
  K: { base: "#36312e", dark: "#0b0a09", light: "#8a817b", ink: "#ffffff", tint: "#e1ddd9" },
  P: { base: "#eee0ec", dark: "#8e6f8a", light: "#ffffff", ink: "#3b2a39", tint: "#f5edf4" },
  "*": { base: "#e9b31c", dark: "#825700", light: "#ffe47e", ink: "#3a2800", tint: "#fbf0cf" },
};

/** The five gem colours in token order (bonuses, jokers). */
const GEMS = ["W", "U", "G", "R", "K"];

/** The class suffix of each gem's drawing (`gem gem-r`): what a test or a stylesheet selects. */
const GEM_CLASS = { W: "w", U: "u", G: "g", R: "r", K: "k", P: "p", "*": "gold", joker: "joker" };

/** Colours of the card backs, by level. */
const BACKS = { 1: ["#2e7d4f", "#1b4d30"], 2: ["#c0891a", "#7a5408"], 3: ["#2d5ea6", "#163462"] };

const round = (x) => Math.round(x * 10) / 10;
const pts = (list) => list.map(([x, y]) => `${round(x)},${round(y)}`).join(" ");

/** A regular polygon of `n` corners around (50, 50). */
function regular(n, r, start = -90, cx = 50, cy = 50) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = ((start + (360 * i) / n) * Math.PI) / 180;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

/** A star of `n` points around (50, 50). */
function star(n, outer, inner) {
  const out = [];
  for (let i = 0; i < 2 * n; i++) {
    const a = ((-90 + (180 * i) / n) * Math.PI) / 180;
    const r = i % 2 ? inner : outer;
    out.push([50 + r * Math.cos(a), 50 + r * Math.sin(a)]);
  }
  return out;
}

/** The outline of each colour's gem in a 100×100 box (null: the round pearl). */
const SHAPES = {
  W: regular(8, 45, -67.5),
  U: [[50, 4], [94, 50], [50, 96], [6, 50]],
  G: [[34, 6], [66, 6], [82, 22], [82, 78], [66, 94], [34, 94], [18, 78], [18, 22]],
  R: [[6, 16], [94, 16], [50, 94]],
  K: regular(6, 46, 0),
  P: null,
  "*": star(5, 48, 22),
};

/**
 * A faceted gem: the outline, a table (the same shape, smaller) and the facets between
 * them, lit from the top left.
 * @param {Array<number[]>} outline corners
 * @param {{base: string, dark: string}} col
 * @param {number} [table] the table's size relative to the outline
 */
function facetedGem(outline, col, table = 0.52) {
  const n = outline.length;
  const cx = outline.reduce((s, p) => s + p[0], 0) / n;
  const cy = outline.reduce((s, p) => s + p[1], 0) / n;
  const inner = outline.map(([x, y]) => [cx + (x - cx) * table, cy + (y - cy) * table]);
  const facets = [];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const mx = (outline[i][0] + outline[j][0]) / 2 - cx;
    const my = (outline[i][1] + outline[j][1]) / 2 - cy;
    const len = Math.hypot(mx, my) || 1;
    const light = (-0.6 * mx - 0.8 * my) / len; // the light comes from the top left
    facets.push(svg("polygon", {
      points: pts([outline[i], outline[j], inner[j], inner[i]]),
      fill: light > 0 ? "#fff" : "#000",
      "fill-opacity": light > 0 ? round(0.12 + 0.45 * light) : round(0.08 + 0.3 * -light),
    }));
  }
  return [
    svg("polygon", { points: pts(outline), fill: col.base }),
    facets,
    svg("polygon", { points: pts(inner), fill: "#fff", "fill-opacity": 0.18 }),
    svg("polyline", { points: pts([inner[n - 1], inner[0], inner[1]]), fill: "none", stroke: "#fff", "stroke-opacity": 0.7, "stroke-width": 2.5 }),
    svg("polygon", { points: pts(outline), fill: "none", stroke: col.dark, "stroke-width": 4, "stroke-linejoin": "round" }),
  ];
}

/** The pearl: a sphere drawn with concentric circles and a highlight. */
function pearlGem(col) {
  return [
    svg("circle", { cx: 50, cy: 50, r: 44, fill: col.base, stroke: col.dark, "stroke-width": 4 }),
    svg("circle", { cx: 56, cy: 58, r: 30, fill: "#b596b1", "fill-opacity": 0.35 }),
    svg("circle", { cx: 44, cy: 42, r: 26, fill: "#fff", "fill-opacity": 0.55 }),
    svg("circle", { cx: 36, cy: 33, r: 9, fill: "#fff" }),
  ];
}

/** The multicoloured gem of a joker bonus (Duel): five coloured facets and a star. */
function jokerGem() {
  const outline = regular(10, 46, -90);
  const parts = [];
  for (let i = 0; i < 10; i++) {
    const j = (i + 1) % 10;
    parts.push(svg("polygon", { points: pts([[50, 50], outline[i], outline[j]]), fill: PALETTE[GEMS[Math.floor(i / 2)]].base }));
  }
  return [
    parts,
    svg("polygon", { points: pts(outline), fill: "none", stroke: "#2b2140", "stroke-width": 4, "stroke-linejoin": "round" }),
    svg("polygon", { points: pts(star(5, 30, 13)), fill: "#fff", stroke: "#2b2140", "stroke-width": 3, "stroke-linejoin": "round" }),
  ];
}

/**
 * The drawing of a gem, as an SVG group in a 100×100 box placed at (x, y) with the given
 * size (in the parent's units).
 * @param {string} letter W U G R K P or `*` (gold); `joker` for Duel's joker bonus
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @returns {SVGGElement}
 */
export function gemAt(letter, x, y, size) {
  let body;
  if (letter === "joker") body = jokerGem();
  else if (letter === "P") body = pearlGem(PALETTE.P);
  else body = facetedGem(SHAPES[letter], PALETTE[letter], letter === "*" ? 0.45 : 0.52);
  return svg("g", { class: `gem gem-${GEM_CLASS[letter] || "joker"}`, transform: `translate(${round(x)} ${round(y)}) scale(${round(size) / 100})` }, body);
}

/**
 * A gem on its own (a card's bonus in a dialog, a legend).
 * @param {string} letter W U G R K P `*` or `joker`
 * @param {string} [cls] extra class
 * @returns {SVGSVGElement}
 */
export function gemIcon(letter, cls = "") {
  return svg("svg", { viewBox: "0 0 100 100", class: `art gem-art ${cls}`.trim(), "aria-hidden": "true", focusable: "false" },
    gemAt(letter, 4, 4, 92));
}

/**
 * A token: a disc in the colour with a notched rim (like a poker chip) and the colour's gem
 * in the middle; an empty ring for `null` (an empty Duel cell).
 * @param {string|null} letter W U G R K P or `*`
 * @param {string} [cls] extra class
 * @returns {SVGSVGElement}
 */
export function tokenArt(letter, cls = "") {
  const root = svg("svg", { viewBox: "0 0 100 100", class: `art token-art ${cls}`.trim(), "aria-hidden": "true", focusable: "false" });
  if (!letter) {
    add(root, svg("circle", { cx: 50, cy: 50, r: 30, fill: "#000", "fill-opacity": 0.12, stroke: "#fff", "stroke-opacity": 0.25, "stroke-width": 3, "stroke-dasharray": "6 6" }));
    return root;
  }
  const col = PALETTE[letter];
  const notches = [];
  for (let i = 0; i < 8; i++) {
    notches.push(svg("rect", {
      x: 45, y: 3, width: 10, height: 11, rx: 2, fill: letter === "W" || letter === "P" ? col.dark : "#fff",
      "fill-opacity": letter === "W" || letter === "P" ? 0.35 : 0.55, transform: `rotate(${i * 45} 50 50)`,
    }));
  }
  add(root, 
    svg("circle", { cx: 50, cy: 52, r: 47, fill: "#000", "fill-opacity": 0.25 }),
    svg("circle", { cx: 50, cy: 50, r: 47, fill: col.base, stroke: col.dark, "stroke-width": 3 }),
    notches,
    svg("circle", { cx: 50, cy: 50, r: 34, fill: "#fff", "fill-opacity": letter === "W" ? 0.9 : 0.2, stroke: col.dark, "stroke-opacity": 0.5, "stroke-width": 2 }),
    gemAt(letter, 25, 25, 50),
  );
  return root;
}

/**
 * A number drawn on a card, with a pale halo so that it reads on any colour.
 * @param {number|string} text
 * @param {number} x
 * @param {number} y
 * @param {number} size font size
 * @param {Object} [attrs] more attributes (`fill`, `text-anchor`...)
 */
function label(text, x, y, size, attrs = {}) {
  return svg("text", {
    x, y, "font-size": size, "font-weight": 800, "font-family": "system-ui, sans-serif", fill: "#1b1b1b",
    stroke: "#fff", "stroke-width": size / 6, "paint-order": "stroke", "stroke-linejoin": "round", ...attrs,
  }, String(text));
}

/**
 * Where a number sits on each gem of a cost or requirement (its centre, in the gem's
 * 100×100 box): the triangle's centre of mass is high, the others' in the middle.
 */
const NUMBER_Y = { R: 44 };

/**
 * A cost or requirement mark: the gem of the colour (the token's own shape, so that it
 * reads without colour) with its number (beside it), in a group that says in words what it is
 * (`role="img"`, `aria-label` and a `<title>` tooltip).
 * @param {string} cls `cost-mark` or `req-mark`
 * @param {string} letter
 * @param {number} n
 * @param {number} x the gem's box: left
 * @param {number} y top
 * @param {number} size side
 * @param {string} [name] the words (`3 red tokens`); none: no name
 * @param {{x: number, y: number, size: number}} [num] where the number goes (default: on the gem)
 */
function markAt(cls, letter, n, x, y, size, name, num) {
  const tx = num ? num.x : x + size / 2;
  const fs = num ? num.size : size * 0.62;
  const ty = num ? num.y : y + (size * (NUMBER_Y[letter] || 50)) / 100 + fs * 0.36;
  return svg("g", { class: `${cls} mark-${GEM_CLASS[letter]}`, "data-gem": letter, role: name ? "img" : null, "aria-label": name || null },
    name ? svg("title", {}, name) : null,
    gemAt(letter, x, y, size),
    label(n, tx, ty, fs, { "text-anchor": "middle", stroke: "#fff", "stroke-width": fs / 4 }));
}

/**
 * The cost of a card as a column of gems with their numbers from the bottom left.
 * @param {number[]} cost
 * @param {string[]} letters
 * @param {(letter: string, n: number) => string} [nameOf] the words for one colour's part
 */
function costColumn(cost, letters, nameOf) {
  const items = [];
  cost.forEach((n, c) => {
    if (n) items.push([letters[c], n]);
  });
  const r = items.length > 4 ? 9.5 : 11;
  return items.map(([letter, n], k) => {
    const cy = 136 - r - k * (2 * r + 2.5);
    // the gem, and its number beside it (on the gem, a number would hide the shape)
    const fs = r * 1.4;
    return markAt("cost-mark", letter, n, 2.5, cy - r - 0.5, 2 * r + 1, nameOf ? nameOf(letter, n) : "",
      { x: 2.5 + 2 * r + 1 + fs * 0.36, y: cy + fs * 0.36, size: fs });
  });
}

/** The crown of Duel's crowns and royal cards, in a 100×100 box at (x, y), `size` wide. */
export function crownAt(x, y, size) {
  return svg("g", { transform: `translate(${round(x)} ${round(y)}) scale(${round(size) / 100})` },
    svg("path", {
      d: "M10 78 L4 26 L30 50 L50 12 L70 50 L96 26 L90 78 Z", fill: "#f2c230", stroke: "#7a4f00", "stroke-width": 6, "stroke-linejoin": "round",
    }),
    svg("rect", { x: 10, y: 78, width: 80, height: 14, rx: 3, fill: "#e0a713", stroke: "#7a4f00", "stroke-width": 6 }),
    svg("circle", { cx: 50, cy: 12, r: 7, fill: "#cf2936", stroke: "#7a4f00", "stroke-width": 4 }),
    svg("circle", { cx: 4, cy: 26, r: 5, fill: "#1f5fbf" }), svg("circle", { cx: 96, cy: 26, r: 5, fill: "#1f5fbf" }));
}

/**
 * A crown on its own (a player's crowns).
 * @returns {SVGSVGElement}
 */
export function crownIcon() {
  return svg("svg", { viewBox: "0 0 100 100", class: "art crown-art", "aria-hidden": "true", focusable: "false" }, crownAt(2, 2, 96));
}

/** A privilege scroll in a 100×100 box at (x, y). */
export function scrollAt(x, y, size) {
  return svg("g", { transform: `translate(${round(x)} ${round(y)}) scale(${round(size) / 100})` },
    svg("rect", { x: 16, y: 22, width: 68, height: 56, rx: 4, fill: "#f5e6bd", stroke: "#7a5a1e", "stroke-width": 5 }),
    svg("rect", { x: 6, y: 16, width: 14, height: 68, rx: 7, fill: "#e2c98a", stroke: "#7a5a1e", "stroke-width": 5 }),
    svg("rect", { x: 80, y: 16, width: 14, height: 68, rx: 7, fill: "#e2c98a", stroke: "#7a5a1e", "stroke-width": 5 }),
    svg("path", { d: "M30 40 H70 M30 52 H64", stroke: "#a08452", "stroke-width": 5, "stroke-linecap": "round" }),
    svg("circle", { cx: 58, cy: 68, r: 10, fill: "#c53030", stroke: "#7a1010", "stroke-width": 3 }));
}

/**
 * A privilege scroll on its own.
 * @param {boolean} [faded] drawn pale (a privilege not held)
 * @returns {SVGSVGElement}
 */
export function scrollIcon(faded = false) {
  return svg("svg", { viewBox: "0 0 100 100", class: `art scroll-art${faded ? " faded" : ""}`, "aria-hidden": "true", focusable: "false" },
    scrollAt(0, 0, 100));
}

/**
 * The bag of Duel's tokens: a drawstring pouch.
 * @returns {SVGSVGElement}
 */
export function bagIcon() {
  return svg("svg", { viewBox: "0 0 100 100", class: "art bag-art", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M34 30 C14 50 10 94 50 95 C90 94 86 50 66 30 Z", fill: "#8b5a2b", stroke: "#4a2c10", "stroke-width": 5, "stroke-linejoin": "round" }),
    svg("path", { d: "M36 30 L28 10 L44 18 L50 6 L56 18 L72 10 L64 30 Z", fill: "#a8723d", stroke: "#4a2c10", "stroke-width": 5, "stroke-linejoin": "round" }),
    svg("path", { d: "M30 32 Q50 40 70 32", fill: "none", stroke: "#e9b31c", "stroke-width": 6, "stroke-linecap": "round" }),
    svg("path", { d: "M34 58 Q40 48 50 48", fill: "none", stroke: "#fff", "stroke-opacity": 0.35, "stroke-width": 6, "stroke-linecap": "round" }));
}

/** An ability's icon in a 100×100 box at (x, y) (Duel cards and royal cards). */
function abilityAt(ability, x, y, size, colorLetter) {
  const g = svg("g", { transform: `translate(${round(x)} ${round(y)}) scale(${round(size) / 100})` },
    svg("circle", { cx: 50, cy: 50, r: 47, fill: "#fff", "fill-opacity": 0.92, stroke: "#3d2f5a", "stroke-width": 5 }));
  switch (ability) {
    case "again": // play again: a circular arrow
      add(g, 
        svg("path", { d: "M74 46 A25 25 0 1 1 62 27", fill: "none", stroke: "#2a6f97", "stroke-width": 11, "stroke-linecap": "round" }),
        svg("polygon", { points: "56,12 80,24 58,40", fill: "#2a6f97" }));
      break;
    case "token": // take a token of the card's colour: the token with a plus
      add(g, gemAt(colorLetter && PALETTE[colorLetter] ? colorLetter : "W", 14, 18, 56),
        svg("path", { d: "M72 58 V88 M57 73 H87", stroke: "#2f855a", "stroke-width": 11, "stroke-linecap": "round" }));
      break;
    case "steal": // take a token from the opponent: a grabbing hook and a token
      add(g, 
        svg("circle", { cx: 36, cy: 62, r: 20, fill: "#bbb", stroke: "#555", "stroke-width": 5 }),
        svg("path", { d: "M80 20 C82 48 68 60 52 56", fill: "none", stroke: "#c53030", "stroke-width": 11, "stroke-linecap": "round" }),
        svg("polygon", { points: "40,54 58,42 60,68", fill: "#c53030" }));
      break;
    case "privilege":
      add(g, scrollAt(12, 12, 76));
      break;
    case "joker":
      add(g, gemAt("joker", 14, 14, 72));
      break;
    default:
      break;
  }
  return g;
}

/**
 * An ability's icon on its own (a royal card in a dialog, a legend).
 * @param {string} ability again, token, steal, privilege, joker
 * @returns {SVGSVGElement}
 */
export function abilityIcon(ability) {
  return svg("svg", { viewBox: "0 0 100 100", class: "art ability-art", "aria-hidden": "true", focusable: "false" },
    abilityAt(ability, 0, 0, 100));
}

/** The frame of a card face: rounded body in the tint, a translucent top band. */
function cardFrame(tint, edge) {
  return [
    svg("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: tint, stroke: edge, "stroke-width": 3 }),
    svg("path", { d: "M1.5 34 V10.5 A9 9 0 0 1 10.5 1.5 H89.5 A9 9 0 0 1 98.5 10.5 V34 Z", fill: "#fff", "fill-opacity": 0.72 }),
  ];
}

/** Small dots for the level (bottom right of a card face). */
function levelDots(level, fill = "#000", opacity = 0.35) {
  const out = [];
  for (let k = 0; k < level; k++) out.push(svg("circle", { cx: 90 - k * 7, cy: 131, r: 2.6, fill, "fill-opacity": opacity }));
  return out;
}

const cardSvg = (cls) => svg("svg", { viewBox: "0 0 100 140", class: `art card-art ${cls}`, "aria-hidden": "true", focusable: "false" });

/**
 * The face of a classic development card: its bonus gem (top right), prestige points (top
 * left) and cost (circles from the bottom left), over a pale tint of the bonus colour.
 * @param {{level: number, bonus: number, points: number, cost: number[]}} card
 * @param {string[]} letters the game's token letters
 * @returns {SVGSVGElement}
 */
export function classicCardArt(card, letters, nameOf) {
  const letter = letters[card.bonus];
  const col = PALETTE[letter];
  const root = cardSvg(`bonus-${letter === "*" ? "gold" : letter.toLowerCase()}`);
  add(root, 
    cardFrame(col.tint, col.dark),
    svg("g", { opacity: 0.16 }, gemAt(letter, 34, 40, 76)),
    gemAt(letter, 66, 4, 28),
    card.points ? label(card.points, 9, 28, 28) : null,
    costColumn(card.cost, letters, nameOf),
    levelDots(card.level));
  return root;
}

/**
 * The face of a Duel jewel card: its bonus (one or two gems, the joker's many-coloured gem,
 * or none), points, crowns, ability icon and cost (pearls included).
 * @param {{level: number, color: number, bonus_count: number, points: number, crowns: number,
 *   ability: string, cost: number[]}} card
 * @param {string[]} letters the Duel token letters
 * @param {number} [jokerColor] the colour a bought joker took (-1: none)
 * @returns {SVGSVGElement}
 */
export function duelCardArt(card, letters, jokerColor = -1, nameOf = null) {
  const joker = card.color === 5;
  const letter = card.color >= 0 && card.color < 5 ? letters[card.color] : joker && jokerColor >= 0 ? letters[jokerColor] : null;
  const tint = letter ? PALETTE[letter].tint : joker ? "#efe8f7" : "#efe6d2";
  const edge = letter ? PALETTE[letter].dark : joker ? "#5b4a86" : "#8a7650";
  const root = cardSvg(letter ? `bonus-${letter.toLowerCase()}` : joker ? "bonus-joker" : "bonus-none");
  add(root, cardFrame(tint, edge));
  if (joker && !letter) {
    // a band of the five colours under the top band
    GEMS.forEach((g, k) => add(root, svg("rect", { x: 1.5 + k * 19.4, y: 34, width: 19.4, height: 5, fill: PALETTE[g].base })));
  }
  if (letter) add(root, svg("g", { opacity: 0.14 }, gemAt(letter, 34, 42, 72)));
  if (joker) {
    add(root, gemAt("joker", letter ? 44 : 66, 4, 28));
    if (letter) add(root, gemAt(letter, 68, 4, 28));
  } else if (letter) {
    if (card.bonus_count >= 2) add(root, gemAt(letter, 50, 5, 26), gemAt(letter, 70, 5, 26));
    else add(root, gemAt(letter, 66, 4, 28));
  }
  if (card.points) add(root, label(card.points, 9, 28, 28));
  for (let k = 0; k < card.crowns; k++) add(root, crownAt(80 - k * 17, 101, 16));
  const ability = card.ability === "joker+again" ? "again" : card.ability;
  if (ability && ability !== "none" && ability !== "joker") add(root, abilityAt(ability, 56, 58, 38, letter));
  add(root, costColumn(card.cost, letters, nameOf), levelDots(card.level));
  return root;
}

/**
 * The back of a card (a deck's top, a face-down reserved card): the level's colour, a
 * lattice, and the level as one to three gems; `count` (a deck's size) in the middle.
 * @param {number} level 1, 2 or 3
 * @param {number|null} [count]
 * @returns {SVGSVGElement}
 */
export function cardBackArt(level, count = null) {
  const [base, dark] = BACKS[level] || BACKS[1];
  const root = cardSvg(`back level-${level}`);
  const lattice = [];
  for (let k = -140; k < 140; k += 14) {
    lattice.push(svg("path", { d: `M${k} 0 L${k + 140} 140 M${k + 140} 0 L${k} 140`, stroke: "#fff", "stroke-opacity": 0.1, "stroke-width": 2 }));
  }
  add(root, 
    svg("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: base, stroke: dark, "stroke-width": 3 }),
    svg("g", {}, lattice),
    svg("rect", { x: 8, y: 8, width: 84, height: 124, rx: 6, fill: "none", stroke: "#fff", "stroke-opacity": 0.45, "stroke-width": 2 }),
    svg("path", { d: "M50 34 L74 58 L50 82 L26 58 Z", fill: dark, "fill-opacity": 0.5, stroke: "#fff", "stroke-opacity": 0.6, "stroke-width": 2 }));
  for (let k = 0; k < level; k++) add(root, gemAt("W", 50 - (level * 14) / 2 + k * 14 + 1, 100, 12));
  if (count !== null && count !== undefined) {
    add(root, svg("text", {
      x: 50, y: 67, "text-anchor": "middle", "font-size": 26, "font-weight": 800, "font-family": "system-ui, sans-serif", fill: "#fff",
    }, String(count)));
  }
  return root;
}

/**
 * A classic noble tile: points (top left) and the card bonuses it requires (small cards in
 * the colours, with the number), beside a portrait.
 * @param {{points: number, requirement: number[]}} noble
 * @param {string[]} letters
 * @returns {SVGSVGElement}
 */
export function nobleArt(noble, letters, nameOf = null) {
  const root = svg("svg", { viewBox: "0 0 100 100", class: "art noble-art", "aria-hidden": "true", focusable: "false" });
  add(root, 
    svg("rect", { x: 1.5, y: 1.5, width: 97, height: 97, rx: 8, fill: "#f1dfbd", stroke: "#8a6a3a", "stroke-width": 3 }),
    // the portrait: a bust with a ruff and a small crown
    svg("path", { d: "M42 98 C42 74 54 66 68 66 C82 66 96 74 96 98 Z", fill: "#7b5a8c", "fill-opacity": 0.75 }),
    svg("ellipse", { cx: 68, cy: 66, rx: 17, ry: 6, fill: "#fff", stroke: "#8a6a3a", "stroke-width": 1.5 }),
    svg("circle", { cx: 68, cy: 46, r: 14, fill: "#e8c39e", stroke: "#8a6a3a", "stroke-width": 1.5 }),
    svg("path", { d: "M56 36 L58 24 L63 31 L68 21 L73 31 L78 24 L80 36 Z", fill: "#e9b31c", stroke: "#7a4f00", "stroke-width": 1.5 }),
    svg("rect", { x: 1.5, y: 1.5, width: 33, height: 97, rx: 8, fill: "#fff", "fill-opacity": 0.55 }),
    label(noble.points, 9, 27, 26));
  let k = 0;
  noble.requirement.forEach((n, c) => {
    if (!n) return;
    const letter = letters[c];
    const col = PALETTE[letter];
    const y = 34 + k * 21.5;
    // a small card of the colour (a bonus is a card) holding the gem and the number
    const mark = markAt("req-mark", letter, n, 4.5, y + 1.5, 16, nameOf ? nameOf(letter, n) : "", { x: 26, y: y + 14.5, size: 14 });
    mark.insertBefore(svg("rect", { x: 3, y, width: 30, height: 19, rx: 3, fill: col.tint, stroke: col.dark, "stroke-width": 2 }), mark.querySelector(".gem"));
    add(root, mark);
    k++;
  });
  return root;
}

/**
 * A Duel royal card: a crown, the points and the ability's icon.
 * @param {{points: number, ability: string}} royal
 * @returns {SVGSVGElement}
 */
export function royalArt(royal) {
  const root = svg("svg", { viewBox: "0 0 100 140", class: "art royal-art", "aria-hidden": "true", focusable: "false" });
  add(root, 
    svg("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#efe3f6", stroke: "#5b4a86", "stroke-width": 3 }),
    svg("rect", { x: 7, y: 7, width: 86, height: 126, rx: 6, fill: "none", stroke: "#b7791f", "stroke-width": 2 }),
    crownAt(22, 14, 56),
    label(royal.points, 50, 98, 30, { "text-anchor": "middle" }));
  if (royal.ability && royal.ability !== "none") add(root, abilityAt(royal.ability, 60, 100, 32));
  return root;
}
