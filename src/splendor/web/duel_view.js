/**
 * Drawing the Splendor Duel table from an observation: the 5x5 token board with its
 * coordinates on every edge, the bag and privileges, the royal cards, the pyramid with its
 * decks, and both players' holdings. Board cells, cards, decks and reserved cards are
 * clickable; the last turn is highlighted as a whole (see {@link module:turn}).
 * @module duel_view
 */

import { bagBadge, crowns, duelCard, emptySlot, hiddenCard, holdings, privileges, royalTile, tokenRow } from "./cards.js";
import { tokenArt } from "./art.js";
import { lastTurnLine, panelOrder } from "./classic_view.js";
import { t, tn } from "./i18n.js";
import { matchCard, matchCells } from "./notation.js";
import { lastTurn, turnMarks } from "./turn.js";
import { DUEL_LETTERS, cellName, colorName, h, seatName, sum } from "./util.js";

const PYRAMID_LEVEL_START = { 1: 0, 2: 5, 3: 9 };
const PYRAMID_LEVEL_SIZE = { 1: 5, 2: 4, 3: 3 };

/**
 * The whole Duel table.
 * @param {import("./classic_view.js").ViewContext} ctx
 * @returns {HTMLElement}
 */
export function renderDuel(ctx) {
  const marks = turnMarks("duel", ctx.turn || lastTurn(null, ctx.last));
  return h("div", { class: "table duel", dataset: { testid: "table" } },
    h("div", { class: "board-area" },
      h("div", { class: "board-and-side" }, renderBoard(ctx, marks), renderSide(ctx, marks)),
      renderRoyals(ctx, marks),
      renderPyramid(ctx, marks)),
    h("div", { class: "players" }, panelOrder(2, ctx.viewer).map((p) => renderPlayer(ctx, p, marks))));
}

function renderBoard(ctx, marks) {
  const { obs, legal, selection, on } = ctx;
  const { extendable } = matchCells(legal, selection);
  const grid = h("div", { class: `board-grid${marks.replenished ? " replenished" : ""}`, role: "group", "aria-label": t("the board"), dataset: { testid: "board", rove: "board" } });
  const edge = (side) => ["", ..."abcde", ""].map((c, k) => h("span", { class: `coord ${side}${k === 6 ? " right" : ""}`, "aria-hidden": "true" }, c));
  grid.append(...edge("top"));
  for (let r = 0; r < 5; r++) {
    grid.append(h("span", { class: "coord left", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < 5; c++) {
      const i = r * 5 + c;
      const v = obs.board[i];
      const name = cellName(i);
      const selected = selection.includes(i);
      const canAdd = !selected && extendable.some((a) => a.p.cells.includes(i));
      const letter = v >= 0 ? DUEL_LETTERS[v] : null;
      grid.append(h("button", {
        type: "button",
        class: `cell ${canAdd ? "actionable" : ""} ${selected ? "selected" : ""} ${marks.cells.has(name) ? "last" : ""}`,
        dataset: { testid: `cell-${name}`, cell: name, token: letter || "", anim: `cell:${name}`, roveRow: r },
        "aria-pressed": on ? String(selected) : null,
        "aria-label": letter ? t("{cell}: {color}", { cell: name, color: colorName(letter) }) : t("{cell}: empty", { cell: name }),
        title: letter ? t("{cell}: {color}", { cell: name, color: colorName(letter) }) : null,
        disabled: !on ? true : null,
        onclick: on ? () => on.cell(i) : null,
      }, tokenArt(letter)));
    }
    grid.append(h("span", { class: "coord right", "aria-hidden": "true" }, String(r + 1)));
  }
  grid.append(...edge("bottom"));
  return grid;
}

function renderSide(ctx, marks) {
  const { obs, legal, on } = ctx;
  const free = 3 - sum(obs.privileges);
  const canReplenish = legal.find((a) => a.p.kind === "replenish");
  return h("div", { class: "side" },
    h("div", { class: `line bag-line${marks.replenished ? " last" : ""}` },
      bagBadge(sum(obs.bag), { dataset: { anim: "bag" } }),
      tokenRow(obs.bag, DUEL_LETTERS, { class: "bag-tokens", dataset: { testid: "bag" } })),
    h("div", { class: "line" },
      privileges(free, { dataset: { testid: "free-privileges", anim: "priv:free" }, class: "free" }),
      h("span", { class: "dim small-text beside" }, t("beside the board")),
      h("button", {
        type: "button",
        class: `replenish ${canReplenish ? "actionable" : ""}`, dataset: { testid: "replenish", notation: canReplenish ? "replenish" : null, action: canReplenish ? "replenish" : null },
        disabled: !canReplenish || !on ? true : null,
        title: t("refill the board from the bag; your opponent takes a privilege (D7)"),
        onclick: on && canReplenish ? () => on.replenish() : null,
      }, t("replenish the board"))),
    h("div", { class: "dim small-text goals" }, t("to win: 20 points · 10 crowns · 10 points in one colour")),
    obs.turn_cap ? h("div", { class: "dim small-text" }, t("turn cap: {n} turns (D25)", { n: obs.turn_cap })) : null);
}

function renderRoyals(ctx, marks) {
  const { obs, tables } = ctx;
  const royals = obs.royal_owner.map((owner, id) => royalTile(tables.royals[id], {
    class: `${owner >= 0 ? "taken" : ""} ${marks.royals.has(id) ? "last" : ""}`,
    dataset: { testid: `royal-${id + 1}`, owner, anim: owner >= 0 ? `royal-slot:${id}` : `royal:${id}`, roveRow: 0 }, tabindex: -1,
  }));
  return h("div", { class: "royals", role: "group", "aria-label": t("royal cards"), dataset: { rove: "royals" } }, royals);
}

function renderPyramid(ctx, marks) {
  const { obs, tables, legal, on } = ctx;
  const rows = [];
  for (let level = 3; level >= 1; level--) {
    const deckLen = obs.deck_len[level - 1];
    const deckActions = matchCard(legal, { deck: level });
    const deckLast = marks.decks.has(level) ? " last" : "";
    const deck = deckLen > 0
      ? hiddenCard(level, {
        class: `deck ${deckActions.length ? "actionable" : ""}${deckLast}`,
        dataset: { testid: `deck-${level}`, deck: level, anim: `deck:${level}`, roveRow: level }, role: "button", tabindex: 0,
        onclick: on ? (ev) => on.card({ deck: level }, ev.currentTarget) : null,
      }, deckLen)
      : emptySlot({ class: `deck${deckLast}`, dataset: { testid: `deck-${level}`, anim: `deck:${level}` } });
    const slots = [];
    for (let k = 0; k < PYRAMID_LEVEL_SIZE[level]; k++) {
      const slot = k + 1;
      const name = `${level}.${slot}`;
      const id = obs.pyramid[PYRAMID_LEVEL_START[level] + k];
      const isLast = marks.slots.has(name) ? " last" : "";
      if (id < 0) {
        slots.push(emptySlot({ class: isLast, dataset: { testid: `card-${name}` } }));
        continue;
      }
      const acts = matchCard(legal, { level, slot });
      slots.push(duelCard(tables.cards[id], {
        class: `${acts.length ? "actionable" : ""} ${acts.some((a) => a.p.kind === "buy") ? "buyable" : ""}${isLast}`,
        dataset: { testid: `card-${name}`, card: name, roveRow: level }, role: "button", tabindex: 0,
        onclick: on ? (ev) => on.card({ level, slot }, ev.currentTarget) : null,
      }));
    }
    rows.push(h("div", { class: "card-row pyramid-row", dataset: { level } }, deck, h("div", { class: "row-cards" }, slots)));
  }
  return h("div", { class: "cards pyramid", role: "group", "aria-label": t("cards"), dataset: { rove: "cards" } }, rows);
}

function renderPlayer(ctx, p, marks) {
  const { obs, tables, seats, viewer, current, legal, on } = ctx;
  let bought = 0;
  obs.card_owner.forEach((owner) => {
    if (owner === p) bought++;
  });
  const royals = [];
  obs.royal_owner.forEach((owner, id) => {
    if (owner === p) royals.push(royalTile(tables.royals[id], { class: `small ${marks.royals.has(id) ? "last" : ""}` }));
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
    reserved.push(id >= 0 ? duelCard(tables.cards[id], attrs) : hiddenCard(lvl, { ...attrs, dataset: { ...attrs.dataset, anim: `hidden:${p}:${slot}` } }));
  }
  const total = sum(obs.tokens[p]);
  const cp = obs.color_points[p];
  const best = Math.max(...cp);
  const isLast = marks.seat === p;
  const hold = holdings({ seat: p, letters: DUEL_LETTERS, tokens: obs.tokens[p], bonuses: obs.bonuses[p], points: cp });
  // a theft of the last turn: the colour is marked on both players' tokens
  for (const letter of marks.steals) {
    const tok = hold.querySelector(`[data-anim="tok:${p}:${letter}"]`);
    if (tok) tok.classList.add("last");
  }
  return h("section", {
    class: `player ${current === p ? "to-play" : ""} ${viewer === p ? "me" : ""} ${isLast ? "last-mover" : ""}`,
    dataset: { testid: `player-${p}`, seat: p },
  },
  h("header", {},
    current === p ? h("span", { class: "turn-mark", title: t("to play") }, "▶") : null,
    h("bdi", { class: "name" }, seatName(seats, p)), viewer === p ? h("span", { class: "you" }, t("(you)")) : null,
    crowns(obs.crowns[p], { dataset: { testid: `crowns-${p}` } }),
    h("span", { class: "score", dataset: { testid: `score-${p}` } }, tn("{n} pt", "{n} pts", obs.points[p]))),
  hold,
  h("div", { class: "line facts" },
    h("span", { class: `total ${total > 10 ? "over" : ""}`, title: t("tokens held, at most 10") }, t("tokens {n}/10", { n: total })),
    h("span", { class: "total" }, tn("{n} card", "{n} cards", bought)),
    h("span", { class: "total", title: t("the most points on cards of one colour (10 win)") }, t("best colour {n}/10", { n: best })),
    privileges(obs.privileges[p], { dataset: { testid: `privileges-${p}`, anim: `priv:${p}` }, class: marks.privileges.has(p) ? "last" : "" })),
  royals.length || reserved.length
    ? h("div", { class: "line extras" },
      royals.length ? h("div", { class: "owned-royals" }, royals) : null,
      reserved.length ? h("div", { class: "reserved", "aria-label": t("reserved") }, h("span", { class: "lbl" }, t("reserved")), reserved) : null)
    : null,
  lastTurnLine(marks, p, seats));
}

/** The colour letter on a board cell (for dialog labels), or null. */
export function cellToken(obs, i) {
  const v = obs.board[i];
  return v >= 0 ? DUEL_LETTERS[v] : null;
}
