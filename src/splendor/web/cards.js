/**
 * Cards, nobles, royal cards, decks, tokens and a player's holdings as DOM elements: an
 * element carrying the classes, test ids and click handlers, with the drawing from
 * {@link module:art} inside and the words (`title`, `aria-label`) for people.
 * @module cards
 */

import { bagIcon, cardBackArt, classicCardArt, crownIcon, duelCardArt, gemIcon, nobleArt, royalArt, scrollIcon, tokenArt } from "./art.js";
import { t, tn } from "./i18n.js";
import { CLASSIC_LETTERS, COLOR_CLASS, DUEL_LETTERS, colorName, h, tokensText } from "./util.js";

/**
 * The words for an ability of a Duel card or royal card, or "" for none.
 * @param {string} ability again, token, privilege, steal, joker, joker+again or none
 * @returns {string}
 */
export function abilityText(ability) {
  switch (ability) {
    case "again": return t("play again (D13)");
    case "token": return t("take a token of this colour from the board (D15)");
    case "privilege": return t("take a privilege (D16)");
    case "steal": return t("take a token from the opponent (D17)");
    case "joker": return t("joker: takes the colour of one of your cards (D14)");
    case "joker+again": return [t("joker: takes the colour of one of your cards (D14)"), t("play again (D13)")].join(" · ");
    default: return "";
  }
}

/** A cost in words (`2 white tokens, 1 blue token, 3 pearls`), or "free". */
function costText(cost, letters) {
  const parts = cost.map((n, c) => (n ? tokensText(letters[c], n) : "")).filter(Boolean);
  return parts.length ? parts.join(", ") : t("free");
}

/** The words of one cost mark on a card: `3 red tokens`. */
const costName = (letter, n) => tokensText(letter, n);

/** The words of one requirement mark on a noble: `3 cards with a red bonus`. */
const needName = (letter, n) => tn("{n} card with a {color} bonus", "{n} cards with a {color} bonus", n, { color: colorName(letter) });

/** Attributes of a card-like element: the caller's, plus the classes and the words. */
function withWords(attrs, cls, words) {
  const role = attrs.role;
  return {
    ...attrs,
    class: `${cls} ${attrs.class || ""}`.trim(),
    title: words,
    "aria-label": role ? words : null,
    role: role || "img",
  };
}

/**
 * A classic development card in words: level, bonus, points, cost (its `aria-label`, and
 * the screen-reader mode's line).
 * @param {{level, bonus, points, cost}} card table entry
 * @returns {string}
 */
export function classicCardWords(card) {
  return [
    t("level {level} card", { level: card.level }),
    t("{color} bonus", { color: colorName(CLASSIC_LETTERS[card.bonus]) }),
    tn("{n} point", "{n} points", card.points),
    t("cost: {cost}", { cost: costText(card.cost, CLASSIC_LETTERS) }),
  ].join(" · ");
}

/**
 * A classic development card.
 * @param {{id, level, bonus, points, cost}} card table entry
 * @param {Object} [attrs] attributes of the card element (testid, classes, click)
 * @returns {HTMLElement}
 */
export function classicCard(card, attrs = {}) {
  const letter = CLASSIC_LETTERS[card.bonus];
  const words = classicCardWords(card);
  const el = h("div", {
    ...withWords(attrs, `card level-${card.level} bonus-${COLOR_CLASS[letter]}`, words),
    dataset: { ...(attrs.dataset || {}), cardId: card.id, anim: `card:${card.id}` },
  });
  el.append(classicCardArt(card, CLASSIC_LETTERS, costName));
  return el;
}

/**
 * A Duel jewel card: colour (or joker / none), bonus count, points, crowns, ability, cost.
 * @param {{id, level, color, bonus_count, points, crowns, ability, cost}} card
 * @param {Object} [attrs]
 * @param {number} [jokerColor] the colour a bought joker was attached to (-1 if none)
 * @returns {HTMLElement}
 */
export function duelCard(card, attrs = {}, jokerColor = -1) {
  const cls = card.color === 5 ? (jokerColor >= 0 ? COLOR_CLASS[DUEL_LETTERS[jokerColor]] : "joker")
    : card.color < 0 ? "none" : COLOR_CLASS[DUEL_LETTERS[card.color]];
  const words = duelCardWords(card, jokerColor);
  const el = h("div", {
    ...withWords(attrs, `card duel level-${card.level} bonus-${cls}`, words),
    dataset: { ...(attrs.dataset || {}), cardId: card.id, anim: `card:${card.id}`, ability: card.ability !== "none" ? card.ability : null },
  });
  el.append(duelCardArt(card, DUEL_LETTERS, jokerColor, costName));
  return el;
}

/**
 * A Duel jewel card in words: level, bonus, points, crowns, ability, cost.
 * @param {{level, color, bonus_count, points, crowns, ability, cost}} card
 * @param {number} [jokerColor] the colour a bought joker was attached to (-1 if none)
 * @returns {string}
 */
export function duelCardWords(card, jokerColor = -1) {
  let bonus;
  if (card.color === 5) {
    bonus = jokerColor >= 0 ? t("joker on {color}", { color: colorName(DUEL_LETTERS[jokerColor]) }) : t("joker: takes the colour of one of your cards (D14)");
  } else if (card.color < 0) {
    bonus = t("no bonus");
  } else {
    const letter = DUEL_LETTERS[card.color];
    bonus = card.bonus_count > 1 ? t("{color} bonus ×{n}", { color: colorName(letter), n: card.bonus_count }) : t("{color} bonus", { color: colorName(letter) });
  }
  const ability = card.ability === "joker" ? "" : abilityText(card.ability);
  return [
    t("level {level} card", { level: card.level }), bonus, tn("{n} point", "{n} points", card.points),
    card.crowns ? tn("{n} crown", "{n} crowns", card.crowns) : "", ability,
    t("cost: {cost}", { cost: costText(card.cost, DUEL_LETTERS) }),
  ].filter(Boolean).join(" · ");
}

/**
 * A face-down card: a deck's top (with the number of cards left) or a blind reserve.
 * @param {number} level
 * @param {Object} [attrs]
 * @param {number|null} [count] the deck's size (a deck), null for a reserved card
 * @returns {HTMLElement}
 */
export function hiddenCard(level, attrs = {}, count = null) {
  const words = count === null
    ? t("a face-down level-{level} card", { level })
    : tn("level {level} deck: {n} card", "level {level} deck: {n} cards", count, { level });
  const el = h("div", withWords(attrs, `card hidden level-${level}`, words));
  el.append(cardBackArt(level, count));
  return el;
}

/**
 * An empty card slot (a level's deck ran out).
 * @param {Object} [attrs]
 * @returns {HTMLElement}
 */
export function emptySlot(attrs = {}) {
  return h("div", { ...attrs, class: `card empty ${attrs.class || ""}`, title: t("empty") });
}

/**
 * A classic noble in words: its points and the bonuses it requires.
 * @param {{points, requirement}} noble
 * @returns {string}
 */
export function nobleWords(noble) {
  const needs = noble.requirement.map((n, c) => (n ? `${n} ${colorName(CLASSIC_LETTERS[c])}` : "")).filter(Boolean).join(", ");
  return tn("noble: {n} point, visits whoever has {needs} bonuses", "noble: {n} points, visits whoever has {needs} bonuses", noble.points, { needs });
}

/**
 * A classic noble tile: points and the bonuses it requires.
 * @param {{id, points, requirement}} noble
 * @param {Object} [attrs]
 * @returns {HTMLElement}
 */
export function nobleTile(noble, attrs = {}) {
  const words = nobleWords(noble);
  const el = h("div", {
    ...withWords(attrs, "noble", words),
    dataset: { ...(attrs.dataset || {}), anim: noble.id !== undefined ? `noble:${noble.id}` : null },
  });
  el.append(nobleArt(noble, CLASSIC_LETTERS, needName));
  return el;
}

/**
 * A Duel royal card in words: its number, points and ability.
 * @param {{id, points, ability}} royal
 * @returns {string}
 */
export function royalWords(royal) {
  const ability = abilityText(royal.ability);
  return [tn("royal card {k}: {n} point", "royal card {k}: {n} points", royal.points, { k: royal.id + 1 }), ability].filter(Boolean).join(" · ");
}

/**
 * A Duel royal card: points and ability.
 * @param {{id, points, ability}} royal
 * @param {Object} [attrs]
 * @returns {HTMLElement}
 */
export function royalTile(royal, attrs = {}) {
  const words = royalWords(royal);
  const el = h("div", {
    ...withWords(attrs, "royal", words),
    dataset: { ...(attrs.dataset || {}), anim: `royal:${royal.id}` },
  });
  el.append(royalArt(royal));
  return el;
}

/**
 * A token with its count: the drawn token and the number on it (zero: faded).
 * @param {string} letter W U G R K P or *
 * @param {number|null} [count] null: the token alone
 * @param {Object} [attrs]
 * @returns {HTMLElement}
 */
export function tokenChip(letter, count = null, attrs = {}) {
  const cls = `tok tok-${COLOR_CLASS[letter]}${count === 0 ? " zero" : ""} ${attrs.class || ""}`.trim();
  return h("span", { ...attrs, class: cls, title: count === null ? colorName(letter) : tokensText(letter, count), dataset: { ...(attrs.dataset || {}), color: letter } },
    tokenArt(letter), count === null ? null : h("span", { class: "n" }, String(count)));
}

/**
 * A row of tokens with counts (zeros faded).
 * @param {number[]} counts
 * @param {string[]} letters
 * @param {Object} [attrs]
 * @returns {HTMLElement}
 */
export function tokenRow(counts, letters, attrs = {}) {
  return h("div", { ...attrs, class: `token-row ${attrs.class || ""}` }, counts.map((n, c) => tokenChip(letters[c], n)));
}

/**
 * Privilege scrolls: one drawn scroll per privilege, with the count.
 * @param {number} n
 * @param {Object} [attrs]
 * @returns {HTMLElement}
 */
export function privileges(n, attrs = {}) {
  const scrolls = [];
  for (let k = 0; k < Math.max(n, 0); k++) scrolls.push(scrollIcon());
  return h("span", { ...attrs, class: `privileges ${attrs.class || ""}`, title: tn("{n} privilege", "{n} privileges", n), dataset: { ...(attrs.dataset || {}), count: n } },
    n > 0 ? scrolls : scrollIcon(true), h("span", { class: "count" }, String(n)));
}

/**
 * The bag of Duel's tokens: the pouch and how many tokens it holds.
 * @param {number} n
 * @param {Object} [attrs]
 * @returns {HTMLElement}
 */
export function bagBadge(n, attrs = {}) {
  return h("span", { ...attrs, class: `bag ${attrs.class || ""}`, title: tn("the bag: {n} token", "the bag: {n} tokens", n) },
    bagIcon(), h("span", { class: "count" }, String(n)));
}

/**
 * Crowns: the drawn crown and the number.
 * @param {number} n
 * @param {Object} [attrs]
 * @returns {HTMLElement}
 */
export function crowns(n, attrs = {}) {
  return h("span", { ...attrs, class: `crowns ${attrs.class || ""}`, title: tn("{n} crown", "{n} crowns", n) }, crownIcon(), h("span", { class: "count" }, String(n)));
}

/**
 * A player's holdings, one column per colour: the bonus of their cards (a small card with
 * the count; not for pearls and gold), the tokens, and in Duel the points of that colour.
 * Each part carries `data-anim` (`bonus:{seat}:{letter}`, `tok:{seat}:{letter}`) for the
 * moves' animations.
 * @param {{seat: number, letters: string[], tokens: number[], bonuses: number[], points?: number[]}} o
 * @returns {HTMLElement}
 */
export function holdings(o) {
  const cols = o.letters.map((letter, c) => {
    const isGem = c < 5;
    const bonus = isGem ? o.bonuses[c] || 0 : null;
    return h("div", { class: `hold hold-${COLOR_CLASS[letter]}`, dataset: { color: letter } },
      isGem
        ? h("span", {
          class: `bonus-card bonus-${COLOR_CLASS[letter]}${bonus ? "" : " zero"}`,
          title: tn("{n} card with a {color} bonus", "{n} cards with a {color} bonus", bonus, { color: colorName(letter) }),
          dataset: { anim: `bonus:${o.seat}:${letter}` },
        }, gemIcon(letter), h("span", { class: "n" }, String(bonus)))
        : h("span", { class: "bonus-card none", "aria-hidden": "true" }),
      tokenChip(letter, o.tokens[c] || 0, { dataset: { anim: `tok:${o.seat}:${letter}` } }),
      o.points && isGem
        ? h("span", { class: `cpts${o.points[c] ? "" : " zero"}`, title: tn("{n} point on {color} cards", "{n} points on {color} cards", o.points[c], { color: colorName(letter) }) }, String(o.points[c]))
        : o.points ? h("span", { class: "cpts none" }) : null);
  });
  return h("div", { class: `holdings cols-${o.letters.length}` }, cols);
}

