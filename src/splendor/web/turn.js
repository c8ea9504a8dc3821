/**
 * The last turn, to highlight as a whole: every decision of the player who moved last
 * (a take and its returns, the noble; in Duel also the privileges spent, the token taken,
 * the theft, the royal card), read from the state message's log, and what those decisions
 * touched on the table (supply colours, board cells, card slots, decks, nobles, royal
 * cards).
 * @module turn
 */

import { parseNotation } from "./notation.js";
import { CLASSIC_LETTERS, DUEL_LETTERS, cellName } from "./util.js";

/**
 * The last turn: the log's trailing entries of the seat that moved last (a turn is a
 * sequence of decisions by one player). Without a log (a replay frame), the one move given.
 * @param {Array<{index: number, seat: number, notation: string}>} log
 * @param {{seat: number, notation: string}|null} [last] the last move when there is no log
 * @returns {{seat: number, entries: Array<{seat: number, notation: string}>}|null}
 */
export function lastTurn(log, last = null) {
  if (log && log.length) {
    const seat = log[log.length - 1].seat;
    let k = log.length - 1;
    while (k > 0 && log[k - 1].seat === seat) k--;
    return { seat, entries: log.slice(k) };
  }
  if (last && last.notation) return { seat: last.seat, entries: [last] };
  return null;
}

/**
 * What a turn touched, for the views: `colors` (classic supply colours taken or given
 * back), `cells` (Duel cell names: taken, spent privileges, gold, token), `slots`
 * (`"2.3"`: where a bought or reserved card came from), `decks` (levels reserved from),
 * `nobles` (noble slots, 1-based), `royals` (royal ids), `steals` (colours stolen),
 * `replenished`, `notations`, `entries` (the log entries themselves, with their sentences); and from the entries' `effects` when the server sends them
 * (what the rules did on their own): `nobleIds` (nobles who visited), `privileges` (seats
 * whose privileges changed), more `cells`, `steals` and `royals`.
 * @param {string} game "splendor" or "duel"
 * @param {{seat: number, entries: Array}|null} turn from {@link lastTurn}
 */
export function turnMarks(game, turn) {
  const marks = {
    seat: turn ? turn.seat : null, colors: new Set(), cells: new Set(), slots: new Set(), decks: new Set(),
    nobles: new Set(), royals: new Set(), steals: new Set(), replenished: false, notations: [],
    nobleIds: new Set(), privileges: new Set(), entries: [],
  };
  if (!turn) return marks;
  const letters = game === "duel" ? DUEL_LETTERS : CLASSIC_LETTERS;
  for (const e of turn.entries) {
    if (!e || !e.notation) continue;
    marks.notations.push(e.notation);
    marks.entries.push(e);
    for (const ef of Array.isArray(e.effects) ? e.effects : []) effectMarks(marks, ef, letters);
    let p;
    try {
      p = parseNotation(game, e.notation);
    } catch {
      continue;
    }
    for (const i of p.cells) marks.cells.add(cellName(i));
    switch (p.kind) {
      case "take":
      case "return":
        if (game !== "duel") for (const c of p.colors) if (c >= 0) marks.colors.add(letters[c]);
        break;
      case "buy":
      case "reserve":
        if (!p.reserved && p.level) marks.slots.add(`${p.level}.${p.slot}`);
        break;
      case "reserve_deck":
        marks.decks.add(p.level);
        break;
      case "noble":
        marks.nobles.add(p.slot);
        break;
      case "royal":
        marks.royals.add(p.slot - 1);
        break;
      case "steal":
        for (const c of p.colors) if (c >= 0) marks.steals.add(letters[c]);
        break;
      case "replenish":
        marks.replenished = true;
        break;
      default:
        break;
    }
  }
  return marks;
}

/** Add what one effect of a decision touched (a noble's visit, privileges, a token, a theft, a royal card). */
function effectMarks(marks, ef, letters) {
  if (!ef || typeof ef !== "object") return;
  switch (ef.kind) {
    case "noble":
      if (ef.item >= 0) marks.nobleIds.add(ef.item);
      break;
    case "privilege":
      marks.privileges.add(ef.seat);
      if (ef.source >= 0) marks.privileges.add(ef.source);
      break;
    case "token":
      if (ef.cell) marks.cells.add(ef.cell);
      break;
    case "steal":
      if (ef.color >= 0 && letters[ef.color]) marks.steals.add(letters[ef.color]);
      break;
    case "royal":
      if (ef.item >= 0) marks.royals.add(ef.item);
      break;
    default:
      break;
  }
}
