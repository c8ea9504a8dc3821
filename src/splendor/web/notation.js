/**
 * Reading action notation (both games) and matching the player's clicks against the
 * legal actions of a state message. The client only ever offers actions from
 * `legal_actions`; these functions pick which of them fit a selection or a click.
 * @module notation
 */

import { CLASSIC_LETTERS, DUEL_LETTERS, cellIndex } from "./util.js";

/** Decision kinds that are asked in a dialog (single choices after a main action). */
export const DIALOG_KINDS = new Set(["pay_gold", "pay", "return", "noble", "joker", "token", "steal", "royal"]);

/**
 * Parse one notation into its parts.
 * @param {string} game "splendor" or "duel"
 * @param {string} notation e.g. "take W U G", "buy 2.3 choose", "take c3 c4", "gold c3"
 * @returns {{kind: string, colors: number[], cells: number[], level: number|null,
 *   slot: number|null, reserved: boolean, deck: boolean, choose: boolean}}
 */
export function parseNotation(game, notation) {
  const words = notation.trim().split(/\s+/);
  const verb = words[0].toLowerCase();
  const letters = game === "duel" ? DUEL_LETTERS : CLASSIC_LETTERS;
  const out = { kind: verb, colors: [], cells: [], level: null, slot: null, reserved: false, deck: false, choose: false };
  const isCell = (w) => /^[a-e][1-5]$/i.test(w);
  const where = (w) => {
    if (/^r\d$/i.test(w)) {
      out.reserved = true;
      out.slot = Number(w[1]);
    } else if (/^d\d$/i.test(w)) {
      out.deck = true;
      out.level = Number(w[1]);
    } else {
      const [l, s] = w.split(".");
      out.level = Number(l);
      out.slot = Number(s);
    }
  };
  switch (verb) {
    case "take":
      if (words.slice(1).every(isCell)) out.cells = words.slice(1).map((w) => cellIndex(w.toLowerCase()));
      else out.colors = words.slice(1).map((w) => letters.indexOf(w.toUpperCase()));
      break;
    case "privilege":
    case "token":
      out.cells = [cellIndex(words[1].toLowerCase())];
      break;
    case "gold":
      if (isCell(words[1])) {
        out.kind = "take_gold";
        out.cells = [cellIndex(words[1].toLowerCase())];
      } else {
        out.kind = "pay_gold";
        out.colors = [letters.indexOf(words[1].toUpperCase())];
      }
      break;
    case "reserve":
      where(words[1]);
      if (out.deck) out.kind = "reserve_deck";
      break;
    case "buy":
      where(words[1]);
      out.choose = words[2] === "choose";
      break;
    case "return":
    case "steal":
    case "joker":
      out.colors = [letters.indexOf(words[1].toUpperCase())];
      break;
    case "noble":
    case "royal":
      out.slot = Number(words[1]);
      break;
    default:
      break;
  }
  return out;
}

/** Attach the parsed parts to each legal action: `{id, notation, p}`. */
export function parseAll(game, legal) {
  return (legal || []).map((a) => ({ ...a, p: parseNotation(game, a.notation) }));
}

/** Whether multiset `small` is contained in multiset `big` (arrays of ints). */
function subMultiset(small, big) {
  const left = [...big];
  for (const x of small) {
    const i = left.indexOf(x);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

const sameSet = (a, b) => a.length === b.length && subMultiset(a, b);

/**
 * Classic: the legal takes that a selection of supply colours could still grow into,
 * and those it equals exactly.
 * @param {Array} parsed legal actions from {@link parseAll}
 * @param {number[]} sel selected colour indices (repeats allowed)
 */
export function matchColorTake(parsed, sel) {
  const takes = parsed.filter((a) => a.p.kind === "take");
  return {
    extendable: takes.filter((a) => subMultiset(sel, a.p.colors)),
    exact: takes.filter((a) => sameSet(sel, a.p.colors)),
  };
}

/**
 * Duel: the legal cell actions (take, privilege, gold, token) that a selection of board
 * cells could still grow into, and those it equals exactly.
 * @param {Array} parsed
 * @param {number[]} sel selected cell indices
 */
export function matchCells(parsed, sel) {
  const acts = parsed.filter((a) => a.p.cells.length > 0);
  return {
    extendable: acts.filter((a) => subMultiset(sel, a.p.cells)),
    exact: acts.filter((a) => sameSet(sel, a.p.cells)),
  };
}

/**
 * The legal actions about one card: a face-up/pyramid card `{level, slot}`, a reserved card
 * `{reserved: k}` or a deck `{deck: level}`.
 */
export function matchCard(parsed, target) {
  return parsed.filter((a) => {
    const p = a.p;
    if (!["buy", "reserve", "reserve_deck"].includes(p.kind)) return false;
    if (target.deck) return p.deck && p.level === target.deck;
    if (target.reserved) return p.reserved && p.slot === target.reserved;
    return !p.deck && !p.reserved && p.level === target.level && p.slot === target.slot;
  });
}

/** Whether the current decision is a dialog choice (payment, return, noble, ...). */
export function isDialogDecision(parsed) {
  if (!parsed.length) return false;
  if (parsed.length === 1 && parsed[0].p.kind === "pass") return true;
  return parsed.every((a) => DIALOG_KINDS.has(a.p.kind) || a.p.kind === "pass");
}

/**
 * Whether a take of tokens is an action of the game at all (legal or not), so that the
 * server can say why it is refused: classic, 1-3 different colours or 2 of one colour
 * (C6, C7); Duel, 1-3 different cells next to each other in one row, column or diagonal
 * (D8). A selection that is no action (`take W W U`, `take a1 c3`) is never sent to
 * `/explain` (the server would answer 400).
 * @param {string} game "splendor" or "duel"
 * @param {number[]} picked colour indexes (classic) or cell indexes 0..24 (Duel)
 * @returns {boolean}
 */
export function wellFormedTake(game, picked) {
  const n = picked.length;
  if (n < 1 || n > 3) return false;
  const distinct = new Set(picked).size === n;
  if (game !== "duel") return distinct || (n === 2 && picked[0] === picked[1]);
  if (!distinct) return false;
  const cells = [...picked].sort((a, b) => a - b).map((i) => [Math.floor(i / 5), i % 5]);
  if (n === 1) return true;
  const dr = cells[1][0] - cells[0][0];
  const dc = cells[1][1] - cells[0][1];
  if (Math.max(Math.abs(dr), Math.abs(dc)) !== 1) return false;
  return cells.every(([r, c], k) => r === cells[0][0] + k * dr && c === cells[0][1] + k * dc);
}
