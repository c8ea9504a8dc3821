/**
 * Drawing the classic Splendor table (2-4 players) from an observation, with clickable
 * supply tokens, face-up cards, decks and the viewer's reserved cards.
 * @module classic_view
 */

import { classicCard, emptySlot, hiddenCard, nobleTile, tokenRow } from "./cards.js";
import { matchCard, matchColorTake } from "./notation.js";
import { CLASSIC_LETTERS, chip, h, seatName, sum } from "./util.js";

/**
 * @typedef {Object} ViewContext
 * @property {Object} obs the observation dict (Observation.to_dict())
 * @property {Object} tables the game's card tables
 * @property {Array} seats seat descriptions `{seat, name, type, bot, connected}`
 * @property {number|null} viewer the viewer's seat (null: spectator or replay)
 * @property {number|null} current whose decision it is (null when over)
 * @property {Array} legal parsed legal actions (see notation.parseAll); empty when not ours
 * @property {number[]} selection selected colours (classic) or cells (Duel)
 * @property {{seat: number, notation: string}|null} last the last move
 * @property {Object|null} on click handlers: supply(color), cell(i), card(target, el), replenish()
 */

/** Parts of the last move to highlight: `{colors, level, slot}`. */
function lastParts(last) {
  if (!last || !last.notation) return {};
  const w = last.notation.split(/\s+/);
  const out = { verb: w[0] };
  if (w[0] === "take") out.colors = w.slice(1);
  const m = /^(\d)\.(\d)$/.exec(w[1] || "");
  if (m) {
    out.level = Number(m[1]);
    out.slot = Number(m[2]);
  }
  return out;
}

/**
 * The whole classic table.
 * @param {ViewContext} ctx
 * @returns {HTMLElement}
 */
export function renderClassic(ctx) {
  return h("div", { class: "table classic", dataset: { testid: "table" } },
    h("div", { class: "board-area" }, renderNobles(ctx), renderCards(ctx), renderSupply(ctx)),
    h("div", { class: "players" }, ctx.obs.tokens.slice(0, ctx.obs.num_players).map((_, p) => renderPlayer(ctx, p))));
}

function renderNobles(ctx) {
  const { obs, tables } = ctx;
  const tiles = obs.nobles.map((n, i) => (n >= 0 ? nobleTile(tables.nobles[n], { dataset: { testid: `noble-${i + 1}` } }) : null));
  return h("div", { class: "nobles-row" }, h("span", { class: "row-label" }, "nobles"), tiles.filter(Boolean));
}

function renderCards(ctx) {
  const { obs, tables, legal, on } = ctx;
  const last = lastParts(ctx.last);
  const rows = [];
  for (let level = 3; level >= 1; level--) {
    const deckActions = matchCard(legal, { deck: level });
    const deckLen = obs.deck_len[level - 1];
    const deck = deckLen > 0
      ? hiddenCard(level, {
        class: `deck ${deckActions.length ? "actionable" : ""}`,
        dataset: { testid: `deck-${level}`, deck: level },
        role: "button", tabindex: 0,
        onclick: on ? (ev) => on.card({ deck: level }, ev.currentTarget) : null,
      }, `${deckLen}`)
      : emptySlot({ class: "deck", dataset: { testid: `deck-${level}` } });
    const slots = obs.faceup[level - 1].map((id, i) => {
      const slot = i + 1;
      const name = `${level}.${slot}`;
      if (id < 0) return emptySlot({ dataset: { testid: `card-${name}` } });
      const acts = matchCard(legal, { level, slot });
      const isLast = last.level === level && last.slot === slot && ["buy", "reserve"].includes(last.verb);
      return classicCard(tables.cards[id], {
        class: `${acts.length ? "actionable" : ""} ${acts.some((a) => a.p.kind === "buy") ? "buyable" : ""} ${isLast ? "last" : ""}`,
        dataset: { testid: `card-${name}`, card: name },
        role: "button", tabindex: 0,
        onclick: on ? (ev) => on.card({ level, slot }, ev.currentTarget) : null,
      });
    });
    rows.push(h("div", { class: "card-row", dataset: { level } }, h("span", { class: "row-label" }, `L${level}`), deck, slots));
  }
  return h("div", { class: "cards" }, rows);
}

function renderSupply(ctx) {
  const { obs, legal, selection, on } = ctx;
  const last = lastParts(ctx.last);
  const { extendable } = matchColorTake(legal, selection);
  const chips = obs.supply.map((n, c) => {
    const letter = CLASSIC_LETTERS[c];
    const canAdd = c < 5 && extendable.some((a) => matchColorTake([a], [...selection, c]).extendable.length);
    const selected = selection.filter((x) => x === c).length;
    return h("button", {
      class: `supply-pile ${canAdd ? "actionable" : ""} ${selected ? "selected" : ""} ${last.colors && last.colors.includes(letter) ? "last" : ""}`,
      dataset: { testid: `supply-${letter === "*" ? "gold" : letter}`, color: letter, selected },
      disabled: c === 5 || !on ? true : null,
      "aria-label": `${n} ${letter} tokens in the supply`,
      onclick: on && c < 5 ? () => on.supply(c) : null,
    }, chip(letter, n), selected ? h("span", { class: "sel-count" }, `+${selected}`) : null);
  });
  return h("div", { class: "supply", dataset: { testid: "supply" } }, h("span", { class: "row-label" }, "supply"), chips);
}

function renderPlayer(ctx, p) {
  const { obs, tables, seats, viewer, current, legal, on } = ctx;
  const cards = [];
  obs.purchased_by.forEach((owner, id) => {
    if (owner === p) cards.push(tables.cards[id]);
  });
  const nobles = [];
  obs.noble_owner.forEach((owner, id) => {
    if (owner === p) nobles.push(tables.nobles[id]);
  });
  const reserved = [];
  for (let k = 0; k < 3; k++) {
    const lvl = obs.reserved_level[p][k];
    if (!lvl) continue;
    const id = obs.reserved[p][k];
    const slot = k + 1;
    const mine = p === viewer;
    const acts = mine ? matchCard(legal, { reserved: slot }) : [];
    const attrs = {
      class: `small ${acts.length ? "actionable" : ""} ${acts.some((a) => a.p.kind === "buy") ? "buyable" : ""}`,
      dataset: { testid: mine ? `reserved-r${slot}` : `reserved-${p}-r${slot}`, reserved: slot },
      onclick: mine && on ? (ev) => on.card({ reserved: slot }, ev.currentTarget) : null,
      role: mine ? "button" : null,
    };
    reserved.push(id >= 0 ? classicCard(tables.cards[id], attrs) : hiddenCard(lvl, attrs));
  }
  const total = sum(obs.tokens[p]);
  const isLast = ctx.last && ctx.last.seat === p;
  return h("section", {
    class: `player ${current === p ? "to-play" : ""} ${viewer === p ? "me" : ""} ${isLast ? "last-mover" : ""}`,
    dataset: { testid: `player-${p}`, seat: p },
  },
  h("header", {},
    current === p ? h("span", { class: "turn-mark", title: "to play" }, "▶") : null,
    h("span", { class: "name" }, seatName(seats, p)), viewer === p ? h("span", { class: "you" }, " (you)") : null,
    h("span", { class: "score", dataset: { testid: `score-${p}` } }, `${obs.points[p]} pts`)),
  h("div", { class: "line" }, h("span", { class: "lbl" }, "tokens"), tokenRow(obs.tokens[p], CLASSIC_LETTERS),
    h("span", { class: `total ${total > 10 ? "over" : ""}` }, `${total}/10`)),
  h("div", { class: "line" }, h("span", { class: "lbl" }, "bonuses"), tokenRow(obs.bonuses[p], CLASSIC_LETTERS),
    h("span", { class: "total" }, `${cards.length} cards`)),
  nobles.length ? h("div", { class: "line" }, h("span", { class: "lbl" }, "nobles"), nobles.map((n) => nobleTile(n, { class: "small" }))) : null,
  h("div", { class: "line reserved" }, h("span", { class: "lbl" }, "reserved"), reserved.length ? reserved : h("span", { class: "dim" }, "–")));
}
