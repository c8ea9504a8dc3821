/**
 * Small shared helpers: DOM building, colour letters, seat names.
 * @module util
 */

/** Display names of the games, by the server's game name. */
export const GAME_NAMES = { splendor: "Splendor", duel: "Splendor Duel" };

/** Classic token letters, in token order (W U G R K, then gold). */
export const CLASSIC_LETTERS = ["W", "U", "G", "R", "K", "*"];
/** Duel token letters, in token order (W U G R K, pearl, gold). */
export const DUEL_LETTERS = ["W", "U", "G", "R", "K", "P", "*"];
/** Colour names for titles and screen readers, by letter. */
export const COLOR_NAMES = {
  W: "white", U: "blue", G: "green", R: "red", K: "black", P: "pearl", "*": "gold",
};
/** CSS class suffix of each letter (gold `*` is not a valid class character). */
export const COLOR_CLASS = { W: "w", U: "u", G: "g", R: "r", K: "k", P: "p", "*": "gold" };

/**
 * Build an element: `h("div", {class: "x", dataset: {testid: "y"}, onclick}, child, ...)`.
 * Children may be strings, nodes, arrays, null or false (skipped).
 * @param {string} tag
 * @param {Object<string, any>} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) el.dataset[k] = String(v);
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  appendAll(el, children);
  return el;
}

/** Append children (strings, nodes, nested arrays; null/false skipped). */
export function appendAll(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * A token chip: a coloured disc with its letter (and count), e.g. `3W`.
 * @param {string} letter W U G R K P or *
 * @param {number|null} [count]
 * @param {Object} [attrs] extra attributes
 */
export function chip(letter, count = null, attrs = {}) {
  const cls = `chip chip-${COLOR_CLASS[letter]}` + (count === 0 ? " zero" : "") + (attrs.class ? ` ${attrs.class}` : "");
  return h("span", { ...attrs, class: cls, title: `${count ?? ""} ${COLOR_NAMES[letter]}`.trim() },
    count === null ? letter : `${count}`);
}

/** Seat label: the seat's name, or `seat N`. */
export function seatName(seats, seat) {
  const s = (seats || []).find((x) => x.seat === seat);
  if (!s) return `seat ${seat}`;
  return s.name || (s.bot ? `${s.bot} bot` : `seat ${seat}`);
}

/** Duel cell index (0..24, row-major) → name `a1`..`e5`. */
export function cellName(i) {
  return "abcde"[i % 5] + String(Math.floor(i / 5) + 1);
}

/** Duel cell name `c3` → index. */
export function cellIndex(name) {
  return (Number(name[1]) - 1) * 5 + "abcde".indexOf(name[0]);
}

/** Sum of an array of numbers. */
export function sum(a) {
  return (a || []).reduce((x, y) => x + y, 0);
}

/** Remove all children of `el` and append `children`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  return appendAll(el, children);
}
