/**
 * Small shared helpers: DOM building, colour letters, seat names.
 * @module util
 */

import { N_, t, tn } from "./i18n.js";

/** Display names of the games, by the server's game name. */
export const GAME_NAMES = { splendor: "Splendor", duel: "Splendor Duel" };

/** Classic token letters, in token order (W U G R K, then gold). */
export const CLASSIC_LETTERS = ["W", "U", "G", "R", "K", "*"];
/** Duel token letters, in token order (W U G R K, pearl, gold). */
export const DUEL_LETTERS = ["W", "U", "G", "R", "K", "P", "*"];
/** Colour names for titles and screen readers, by letter (English: translate with {@link colorName}). */
export const COLOR_NAMES = {
  W: N_("white"), U: N_("blue"), G: N_("green"), R: N_("red"), K: N_("black"), P: N_("pearl"), "*": N_("gold"),
};

/** The name of a colour letter in the reader's language (`white`, `blanc`, `wit`). */
export function colorName(letter) {
  return COLOR_NAMES[letter] ? t(COLOR_NAMES[letter]) : letter;
}

/**
 * `n` tokens of one colour, in words (`3 white tokens`, `1 jeton Or`), for titles and
 * screen readers.
 * @param {string} letter W U G R K P or *
 * @param {number} n
 */
export function tokensText(letter, n) {
  switch (letter) {
    case "W": return tn("{n} white token", "{n} white tokens", n);
    case "U": return tn("{n} blue token", "{n} blue tokens", n);
    case "G": return tn("{n} green token", "{n} green tokens", n);
    case "R": return tn("{n} red token", "{n} red tokens", n);
    case "K": return tn("{n} black token", "{n} black tokens", n);
    case "P": return tn("{n} pearl", "{n} pearls", n);
    case "*": return tn("{n} gold token", "{n} gold tokens", n);
    default: return `${n} ${letter}`;
  }
}

/** Names of the bot levels (`/api/meta`'s `bots`), English (translate with {@link botName}). */
export const BOT_NAMES = {
  random: N_("random"), greedy: N_("greedy"), easy: N_("easy"), medium: N_("medium"), hard: N_("hard"),
  expert: N_("expert"),
};

/** What each bot does, in a few words (the lobby's seat selects say it: issue 33). */
export const BOT_HELP = {
  random: N_("plays any legal move, at random"),
  greedy: N_("plays the move that looks best now, one move ahead (the same bot as the easy level)"),
  easy: N_("the easiest level: the greedy bot, one move ahead, at once"),
  medium: N_("searches the game 50 ms a move"),
  hard: N_("searches guided by a trained network, 50 ms a move"),
  expert: N_("the strongest: searches guided by a trained network, 1 s a move"),
};

/** A bot's explanation ({@link BOT_HELP}) in the reader's language; "" for an unknown bot. */
export function botHelp(level) {
  return BOT_HELP[level] ? t(BOT_HELP[level]) : "";
}

/** A bot level's name in the reader's language (an unknown level as it is). */
export function botName(level) {
  return BOT_NAMES[level] ? t(BOT_NAMES[level]) : String(level);
}
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
  return h("span", { ...attrs, class: cls, title: count === null ? colorName(letter) : tokensText(letter, count) },
    count === null ? letter : `${count}`);
}

/** Seat label: the seat's name (a bot named after its level: the level's name), or `seat N`. */
export function seatName(seats, seat) {
  const s = (seats || []).find((x) => x.seat === seat);
  if (!s) return t("seat {seat}", { seat: seat + 1 }); // seats are numbered from 1 for people
  if (s.bot && (!s.name || s.name === s.bot)) return s.name ? botName(s.bot) : t("{bot} bot", { bot: botName(s.bot) });
  return s.name || t("seat {seat}", { seat: seat + 1 });
}

/**
 * The sentence of an effect of a move (a log entry's `effects`, from the server) in the
 * reader's language, its players (`{seat0}`, `{seat1}`...) named as the page names them.
 * @param {Object} effect `{kind, text: {en, fr, nl}, ...}`
 * @param {Array} seats the state message's seats
 * @param {string} lang the reader's language
 * @returns {string}
 */
export function effectText(effect, seats, lang) {
  const text = (effect.text && (effect.text[lang] || effect.text.en)) || effect.kind;
  return fillSeats(text, (seat) => seatName(seats, seat));
}

/**
 * `text` from the server with its players (`{seat0}`, `{seat1}`…) named by `name(seat)`
 * (a move's or an effect's sentence).
 * @param {string} text
 * @param {function(number): string} name
 * @returns {string}
 */
export function fillSeats(text, name) {
  return String(text).replace(/\{seat(\d+)\}/g, (_, k) => name(Number(k)));
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
