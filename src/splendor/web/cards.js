/**
 * Drawing cards, nobles, royal cards, decks and token rows as DOM elements (CSS-styled).
 * @module cards
 */

import { CLASSIC_LETTERS, DUEL_LETTERS, COLOR_CLASS, COLOR_NAMES, chip, h } from "./util.js";

/** Ability labels of Duel cards and royal cards. */
const ABILITY_LABEL = {
  none: "", joker: "", again: "again", token: "token", privilege: "privilege",
  steal: "steal", "joker+again": "again",
};
const ABILITY_TITLE = {
  again: "play again (D13)", token: "take a token of this colour from the board (D15)",
  privilege: "take a privilege (D16)", steal: "take a token from the opponent (D17)",
};

/** A card's cost as small chips (`free` when nothing). */
export function costRow(cost, letters) {
  const items = cost.map((n, c) => (n ? chip(letters[c], n, { class: "cost" }) : null)).filter(Boolean);
  return h("div", { class: "cost-row" }, items.length ? items : h("span", { class: "free" }, "free"));
}

/**
 * A classic development card.
 * @param {{id, level, bonus, points, cost}} card table entry
 * @param {Object} [attrs] attributes of the card element (testid, classes, click)
 */
export function classicCard(card, attrs = {}) {
  const letter = CLASSIC_LETTERS[card.bonus];
  return h("div", { ...attrs, class: `card level-${card.level} bonus-${COLOR_CLASS[letter]} ${attrs.class || ""}`,
    title: `level ${card.level}, ${COLOR_NAMES[letter]} bonus, ${card.points} points`, dataset: { ...(attrs.dataset || {}), cardId: card.id } },
  h("div", { class: "card-top" },
    h("span", { class: "points" }, card.points ? String(card.points) : ""),
    h("span", { class: `gem gem-${COLOR_CLASS[letter]}` }, letter)),
  costRow(card.cost, CLASSIC_LETTERS));
}

/**
 * A Duel jewel card: colour (or joker / none), bonus count, points, crowns, ability, cost.
 * @param {{id, level, color, bonus_count, points, crowns, ability, cost}} card
 * @param {Object} [attrs]
 * @param {number} [jokerColor] the colour a bought joker was attached to (-1 if none)
 */
export function duelCard(card, attrs = {}, jokerColor = -1) {
  let cls, label, title;
  if (card.color === 5) {
    cls = jokerColor >= 0 ? COLOR_CLASS[DUEL_LETTERS[jokerColor]] : "joker";
    label = jokerColor >= 0 ? `★${DUEL_LETTERS[jokerColor]}` : "★";
    title = "joker: takes the colour of your cards (D14)";
  } else if (card.color < 0) {
    cls = "none";
    label = "";
    title = "no bonus";
  } else {
    const letter = DUEL_LETTERS[card.color];
    cls = COLOR_CLASS[letter];
    label = letter.repeat(card.bonus_count || 1);
    title = `${COLOR_NAMES[letter]} bonus ×${card.bonus_count}`;
  }
  const ability = ABILITY_LABEL[card.ability] || "";
  return h("div", { ...attrs, class: `card duel level-${card.level} bonus-${cls} ${attrs.class || ""}`,
    title: `level ${card.level}, ${title}, ${card.points} points, ${card.crowns} crowns${ability ? ", " + ability : ""}`,
    dataset: { ...(attrs.dataset || {}), cardId: card.id } },
  h("div", { class: "card-top" },
    h("span", { class: "points" }, card.points ? String(card.points) : ""),
    card.crowns ? h("span", { class: "crowns", title: `${card.crowns} crowns` }, "♛".repeat(card.crowns)) : null,
    h("span", { class: `gem gem-${cls}` }, label || "·")),
  ability ? h("div", { class: "ability", title: ABILITY_TITLE[ability] || ability }, ability) : null,
  costRow(card.cost, DUEL_LETTERS));
}

/** A face-down card (a deck top or someone's blind reserve): its level only. */
export function hiddenCard(level, attrs = {}, text = "") {
  return h("div", { ...attrs, class: `card hidden level-${level} ${attrs.class || ""}`, title: `a face-down level-${level} card` },
    h("div", { class: "card-back" }, h("span", { class: "lvl" }, "I".repeat(level)), text ? h("span", { class: "back-text" }, text) : null));
}

/** An empty card slot. */
export function emptySlot(attrs = {}) {
  return h("div", { ...attrs, class: `card empty ${attrs.class || ""}` }, "empty");
}

/** A classic noble tile: points and the bonuses it requires. */
export function nobleTile(noble, attrs = {}) {
  return h("div", { ...attrs, class: `noble ${attrs.class || ""}`, title: `noble: ${noble.points} points` },
    h("span", { class: "points" }, String(noble.points)),
    h("div", { class: "req" }, noble.requirement.map((n, c) => (n ? h("span", { class: `req-box bonus-${COLOR_CLASS[CLASSIC_LETTERS[c]]}` }, String(n)) : null))));
}

/** A Duel royal card: points and ability. */
export function royalTile(royal, attrs = {}) {
  const ability = ABILITY_LABEL[royal.ability] || "";
  return h("div", { ...attrs, class: `royal ${attrs.class || ""}`, title: `royal card ${royal.id + 1}: ${royal.points} points${ability ? ", " + ability : ""}` },
    h("span", { class: "royal-num" }, `♛ ${royal.id + 1}`),
    h("span", { class: "points" }, `${royal.points}pt`),
    ability ? h("span", { class: "ability" }, ability) : null);
}

/** A row of token chips with counts (zeros dimmed). */
export function tokenRow(counts, letters, attrs = {}) {
  return h("div", { ...attrs, class: `token-row ${attrs.class || ""}` }, counts.map((n, c) => chip(letters[c], n)));
}

/** Privilege scrolls: `◆◆` with the count. */
export function privileges(n, attrs = {}) {
  return h("span", { ...attrs, class: `privileges ${attrs.class || ""}`, title: `${n} privileges` },
    n > 0 ? "◆".repeat(n) : "–", h("span", { class: "count" }, ` ${n}`));
}
