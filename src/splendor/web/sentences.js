/**
 * Moves in sentences (issue 33): a log entry, the last move or a replay frame carries
 * `text`, the move said by the server in the reader's language with its players written
 * `{seat0}`, `{seat1}`… ("{seat0} takes 1 white, 1 blue and 1 green"); this module names
 * them as the page shows them. The notation (`take W U G`) stays one toggle away ("Show
 * notation", stored in `localStorage["splendor.notation"]`; every page that shows moves
 * redraws on the `splendor:notation` event of `document`), and in records and downloads.
 * @module sentences
 */

import { CLASSIC_LETTERS, DUEL_LETTERS, cellName, fillSeats, h, seatName, tokensText } from "./util.js";
import { t } from "./i18n.js";

const KEY = "splendor.notation";

/** The event sent on `document` when the toggle changes (`detail.shown`). */
export const NOTATION_EVENT = "splendor:notation";

/**
 * The move of `entry` as a sentence, its players named by `names`; the notation when the
 * server sent no sentence (an older message), "" for no move.
 * @param {{text?: string|null, notation?: string|null}|null} entry a log entry, `last_move` or replay frame
 * @param {Array<string>} names the players' names by seat
 * @returns {string}
 */
export function moveSentence(entry, names) {
  if (!entry) return "";
  if (typeof entry.text === "string" && entry.text) {
    // a seat without a name: its number, counted from 1 for people
    return fillSeats(entry.text, (k) => {
      const name = (names || [])[k];
      return typeof name === "string" && name ? name : t("seat {seat}", { seat: k + 1 });
    });
  }
  return entry.notation ? String(entry.notation) : "";
}

/** The names a page shows for seats `0..n-1` (bots by their level's name), from a state message's or replay's `seats`. */
export function seatNames(seats, n = null) {
  const count = n ?? Math.max(0, ...(seats || []).map((s) => s.seat + 1));
  return Array.from({ length: count }, (_, k) => seatName(seats, k));
}

/** Whether the reader asked for the notation instead of sentences. */
export function notationShown() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * Show the notation (true) or sentences (false); kept for the next visits, and told to the
 * page with a `splendor:notation` event on `document`.
 * @param {boolean} shown
 */
export function setNotationShown(shown) {
  try {
    localStorage.setItem(KEY, shown ? "1" : "0");
  } catch {
    // private browsing: the choice lasts for this page only
  }
  document.dispatchEvent(new CustomEvent(NOTATION_EVENT, { detail: { shown: !!shown } }));
}

/**
 * A move as the reader asked for it: its sentence, or its notation in a `<code>` with the
 * player's name before it when the notation is shown.
 * @param {Object} entry a log entry, `last_move` or replay frame
 * @param {Array<string>} names the players' names by seat
 * @returns {HTMLElement}
 */
export function moveNode(entry, names) {
  if (notationShown() || !entry || !entry.text) {
    const who = entry && entry.seat !== null && entry.seat !== undefined ? `${(names || [])[entry.seat] ?? ""}: ` : "";
    return h("span", { class: "move-notation" }, who, h("code", {}, entry ? entry.notation || "" : ""));
  }
  return h("span", { class: "move-text", title: entry.notation || null }, moveSentence(entry, names));
}

/** The "Show notation" switch (a toggle button, `aria-pressed`), for a log's or replay's header. */
export function notationToggle() {
  const shown = notationShown();
  return h("button", {
    type: "button", class: "notation-toggle", "aria-pressed": shown ? "true" : "false", dataset: { testid: "notation-toggle" },
    onclick: () => setNotationShown(!notationShown()),
  }, t("Show notation"));
}

/**
 * Call `redraw` whenever the toggle changes (on this page or another tab of the site).
 * @param {Function} redraw
 */
export function onNotationChange(redraw) {
  document.addEventListener(NOTATION_EVENT, () => redraw());
  window.addEventListener("storage", (ev) => { if (ev.key === KEY) redraw(); });
}

/** `items` as a list of the reader's language: "a", "a and b", "a, b and c". */
export function listed(items) {
  let text = items.length ? items[0] : "";
  for (let k = 1; k < items.length; k++) {
    text = k === items.length - 1 ? t("{items} and {item}", { items: text, item: items[k] }) : t("{items}, {item}", { items: text, item: items[k] });
  }
  return text;
}

/**
 * The tokens of token letters, counted, in words: "1 white token, 2 blue tokens".
 * @param {Array<string>} letters one per token (W U G R K P *)
 */
function countedTokens(letters) {
  const counts = new Map();
  for (const letter of letters) counts.set(letter, (counts.get(letter) || 0) + 1);
  return listed([...counts].map(([letter, n]) => tokensText(letter, n)));
}

/**
 * The confirm button of a selection of tokens or cells, as a sentence for the player:
 * "take 1 white token, 1 blue token and 1 green token", "use a privilege: 1 red token
 * (c3)", "take the gold (then reserve): c3"; the notation for another kind.
 * @param {{notation: string, p: Object}} action a legal action with its parsed parts
 * @param {Object} s the state message (its game and observation)
 * @returns {string}
 */
export function selectionSentence(action, s) {
  const p = action.p;
  const board = (s.observation && s.observation.board) || [];
  const onCells = (cells) => cells.map((i) => (board[i] >= 0 ? DUEL_LETTERS[board[i]] : null)).filter(Boolean);
  const cells = listed((p.cells || []).map(cellName));
  if (p.kind === "take" && s.game === "duel") return t("take {tokens} ({cells})", { tokens: countedTokens(onCells(p.cells)), cells });
  if (p.kind === "take") return t("take {tokens}", { tokens: countedTokens(p.colors.map((c) => CLASSIC_LETTERS[c])) });
  if (p.kind === "privilege") return t("use a privilege: {notation}", { notation: `${countedTokens(onCells(p.cells))} (${cells})` });
  if (p.kind === "take_gold") return t("take the gold (then reserve): {notation}", { notation: cells });
  return action.notation;
}
