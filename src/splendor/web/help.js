/**
 * The help panel of the game page: how moves are written (the notation on the buttons of
 * the legal actions, in the move log and in the server's answers), closed until opened. A
 * refused click says why in one sentence; how to write a move is here, not in that
 * sentence. The notation itself (`take W U G`) is the same in every language; the words
 * around it are the reader's.
 * @module help
 */

import { t } from "./i18n.js";
import { h } from "./util.js";

/** The notation of classic Splendor: `[example, meaning]` (C6-C12). */
function classicRows() {
  return [
    ["take W U G", t("take 3 tokens of different colours (W white, U blue, G green, R red, K black)")],
    ["take R R", t("take 2 tokens of the same colour (the pile must hold 4 or more)")],
    ["reserve 2.3", t("reserve the third face-up card of level 2 and take a gold token")],
    ["reserve d1", t("reserve the top card of the level 1 deck without looking at it")],
    ["buy 2.3 · buy r1", t("buy a face-up card, or the first of your reserved cards")],
    ["gold W · pay", t("spend a gold token for a colour, then pay the rest with your tokens")],
    ["return W", t("return a token when you hold more than 10")],
    ["noble 1", t("choose the noble who visits you")],
  ];
}

/** The notation of Splendor Duel: `[example, meaning]` (D6-D20). */
function duelRows() {
  return [
    ["take c3 c4 c5", t("take 1 to 3 tokens in a line on the board (columns a–e, rows 1–5)")],
    ["privilege c3", t("spend a Privilege to take one token (not a gold one)")],
    ["replenish", t("refill the board from the bag; your opponent takes a Privilege")],
    ["gold a1 · reserve 2.3", t("take a gold token, then reserve a card of the pyramid or a deck (reserve d1)")],
    ["buy 2.3 · buy r1", t("buy a card of the pyramid, or the first of your reserved cards")],
    ["gold W · pay", t("spend a gold token for a colour, then pay the rest with your tokens")],
    ["joker W", t("place a joker card on your cards of a colour")],
    ["token c3 · steal W", t("take a token from the board, or steal one from your opponent, as a card allows")],
    ["royal 1", t("choose a royal card")],
    ["return W", t("return a token to the bag when you hold more than 10")],
  ];
}

/**
 * The panel (`<details data-testid="notation-help">`) for `game`.
 * @param {string} game "splendor" or "duel"
 * @returns {HTMLElement}
 */
export function notationHelp(game) {
  const rows = game === "duel" ? duelRows() : classicRows();
  return h("details", { class: "notation-help", dataset: { testid: "notation-help", game } },
    h("summary", {}, t("How moves are written")),
    h("p", { class: "dim small-text" }, t("Click the table to play, or a button of the list of legal actions. Each move is written like this:")),
    h("dl", { class: "notation-list" }, rows.map(([code, meaning]) => [h("dt", {}, h("code", {}, code)), h("dd", {}, meaning)])));
}
