/**
 * Drawing the classic Splendor table (2-4 players) from an observation, with clickable
 * supply tokens, face-up cards, decks and the viewer's reserved cards; the last turn is
 * highlighted as a whole (see {@link module:turn}).
 * @module classic_view
 */

import { classicCard, emptySlot, hiddenCard, holdings, nobleTile, tokenChip } from "./cards.js";
import { t, tn } from "./i18n.js";
import { matchCard, matchColorTake } from "./notation.js";
import { lastTurn, turnMarks } from "./turn.js";
import { moveSentence, notationShown, seatNames } from "./sentences.js";
import { CLASSIC_LETTERS, h, seatName, sum, tokensText } from "./util.js";

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
 * @property {{seat: number, entries: Array}|null} [turn] the last turn ({@link module:turn}); from `last` when absent
 * @property {Object|null} on click handlers: supply(color), cell(i), card(target, el), replenish()
 */

/**
 * The seats in the order their panels show: the viewer's own first, then the others
 * in playing order after it (everybody in seat order for a spectator).
 * @param {number} n number of players
 * @param {number|null} viewer
 * @returns {number[]}
 */
export function panelOrder(n, viewer) {
  const first = viewer === null || viewer === undefined || viewer < 0 || viewer >= n ? 0 : viewer;
  return Array.from({ length: n }, (_, k) => (first + k) % n);
}

/**
 * The line of a player's panel that lists the decisions of the last turn (as sentences, or
 * their notation when the reader shows it: {@link module:sentences}), or null.
 * @param {Object} marks from {@link module:turn.turnMarks}
 * @param {number} p the panel's seat
 * @param {Array|null} [seats] the seats, to name the players in the sentences
 */
export function lastTurnLine(marks, p, seats = null) {
  if (marks.seat !== p || !marks.notations.length) return null;
  const names = seatNames(seats);
  const said = (marks.entries || []).every((e) => e.text) && !notationShown();
  return h("div", { class: "last-turn", dataset: { testid: `last-turn-${p}` } },
    h("span", { class: "lbl" }, t("last turn")), said
      ? marks.entries.map((e) => h("span", { class: "move-text", title: e.notation }, moveSentence(e, names)))
      : marks.notations.map((n) => h("code", {}, n)));
}

/**
 * The whole classic table.
 * @param {ViewContext} ctx
 * @returns {HTMLElement}
 */
export function renderClassic(ctx) {
  const marks = turnMarks("splendor", ctx.turn || lastTurn(null, ctx.last));
  return h("div", { class: "table classic", dataset: { testid: "table" } },
    h("div", { class: "board-area" }, renderNobles(ctx, marks), renderCards(ctx, marks), renderSupply(ctx, marks)),
    h("div", { class: "players" }, panelOrder(ctx.obs.num_players, ctx.viewer).map((p) => renderPlayer(ctx, p, marks))));
}

function renderNobles(ctx, marks) {
  const { obs, tables } = ctx;
  const tiles = obs.nobles.map((n, i) => {
    if (n >= 0) return nobleTile(tables.nobles[n], { dataset: { testid: `noble-${i + 1}`, roveRow: 0 }, tabindex: -1 });
    // the noble who visited during the last turn: its place stays marked
    if (marks.nobles.has(i + 1)) return h("div", { class: "noble gone last", title: t("a noble visited {name}", { name: seatName(ctx.seats, marks.seat) }) });
    return null;
  });
  return h("div", { class: "nobles-row", role: "group", "aria-label": t("nobles"), dataset: { rove: "nobles" } }, tiles.filter(Boolean));
}

function renderCards(ctx, marks) {
  const { obs, tables, legal, on } = ctx;
  const rows = [];
  for (let level = 3; level >= 1; level--) {
    const deckActions = matchCard(legal, { deck: level });
    const deckLen = obs.deck_len[level - 1];
    const deckLast = marks.decks.has(level) ? " last" : "";
    const deck = deckLen > 0
      ? hiddenCard(level, {
        class: `deck ${deckActions.length ? "actionable" : ""}${deckLast}`,
        dataset: { testid: `deck-${level}`, deck: level, anim: `deck:${level}`, roveRow: level },
        role: "button", tabindex: 0,
        onclick: on ? (ev) => on.card({ deck: level }, ev.currentTarget) : null,
      }, deckLen)
      : emptySlot({ class: `deck${deckLast}`, dataset: { testid: `deck-${level}`, anim: `deck:${level}` } });
    const slots = obs.faceup[level - 1].map((id, i) => {
      const slot = i + 1;
      const name = `${level}.${slot}`;
      const isLast = marks.slots.has(name) ? " last" : "";
      if (id < 0) return emptySlot({ class: isLast, dataset: { testid: `card-${name}` } });
      const acts = matchCard(legal, { level, slot });
      return classicCard(tables.cards[id], {
        class: `${acts.length ? "actionable" : ""} ${acts.some((a) => a.p.kind === "buy") ? "buyable" : ""}${isLast}`,
        dataset: { testid: `card-${name}`, card: name, roveRow: level },
        role: "button", tabindex: 0,
        onclick: on ? (ev) => on.card({ level, slot }, ev.currentTarget) : null,
      });
    });
    rows.push(h("div", { class: "card-row", dataset: { level } }, deck, slots));
  }
  return h("div", { class: "cards", role: "group", "aria-label": t("cards"), dataset: { rove: "cards" } }, rows);
}

function renderSupply(ctx, marks) {
  const { obs, legal, selection, on } = ctx;
  const { extendable } = matchColorTake(legal, selection);
  const piles = obs.supply.map((n, c) => {
    const letter = CLASSIC_LETTERS[c];
    const canAdd = c < 5 && extendable.some((a) => matchColorTake([a], [...selection, c]).extendable.length);
    const selected = selection.filter((x) => x === c).length;
    return h("button", {
      type: "button",
      class: `supply-pile ${canAdd ? "actionable" : ""} ${selected ? "selected" : ""} ${marks.colors.has(letter) ? "last" : ""}`,
      dataset: { testid: `supply-${letter === "*" ? "gold" : letter}`, color: letter, selected, anim: `supply:${letter}`, roveRow: 0 },
      "aria-pressed": c < 5 && on ? String(selected > 0) : null,
      disabled: c === 5 || !on ? true : null,
      "aria-label": t("{tokens} in the supply", { tokens: tokensText(letter, n) }),
      onclick: on && c < 5 ? () => on.supply(c) : null,
    }, tokenChip(letter, n), selected ? h("span", { class: "sel-count" }, `+${selected}`) : null);
  });
  return h("div", { class: "supply", role: "group", dataset: { testid: "supply", rove: "supply" }, "aria-label": t("the supply") }, piles);
}

function renderPlayer(ctx, p, marks) {
  const { obs, tables, seats, viewer, current, legal, on } = ctx;
  let cards = 0;
  obs.purchased_by.forEach((owner) => {
    if (owner === p) cards++;
  });
  const nobles = [];
  obs.noble_owner.forEach((owner, id) => {
    if (owner === p) nobles.push(nobleTile(tables.nobles[id], { class: `small ${marks.nobleIds.has(id) ? "last" : ""}` }));
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
      role: mine ? "button" : null, tabindex: mine ? 0 : null,
    };
    reserved.push(id >= 0 ? classicCard(tables.cards[id], attrs) : hiddenCard(lvl, { ...attrs, dataset: { ...attrs.dataset, anim: `hidden:${p}:${slot}` } }));
  }
  const total = sum(obs.tokens[p]);
  const isLast = marks.seat === p;
  return h("section", {
    class: `player ${current === p ? "to-play" : ""} ${viewer === p ? "me" : ""} ${isLast ? "last-mover" : ""}`,
    dataset: { testid: `player-${p}`, seat: p },
  },
  h("header", {},
    current === p ? h("span", { class: "turn-mark", title: t("to play") }, "▶") : null,
    h("bdi", { class: "name" }, seatName(seats, p)), viewer === p ? h("span", { class: "you" }, t("(you)")) : null,
    h("span", { class: "score", dataset: { testid: `score-${p}` } }, tn("{n} pt", "{n} pts", obs.points[p]))),
  holdings({ seat: p, letters: CLASSIC_LETTERS, tokens: obs.tokens[p], bonuses: obs.bonuses[p] }),
  h("div", { class: "line facts" },
    h("span", { class: `total ${total > 10 ? "over" : ""}`, title: t("tokens held, at most 10") }, t("tokens {n}/10", { n: total })),
    h("span", { class: "total" }, tn("{n} card", "{n} cards", cards))),
  nobles.length || reserved.length
    ? h("div", { class: "line extras" },
      nobles.length ? h("div", { class: "owned-nobles" }, nobles) : null,
      reserved.length ? h("div", { class: "reserved", "aria-label": t("reserved") }, h("span", { class: "lbl" }, t("reserved")), reserved) : null)
    : null,
  lastTurnLine(marks, p, seats));
}
