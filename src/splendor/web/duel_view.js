/**
 * Drawing the Splendor Duel table from an observation: the 5x5 token board with its
 * coordinates on every edge, the bag and privileges, the royal cards, the pyramid with its
 * decks, and both players' holdings. Board cells, cards, decks and reserved cards are
 * clickable.
 * @module duel_view
 */

import { duelCard, emptySlot, hiddenCard, privileges, royalTile, tokenRow } from "./cards.js";
import { matchCard, matchCells } from "./notation.js";
import { DUEL_LETTERS, cellName, chip, h, seatName, sum } from "./util.js";

const PYRAMID_LEVEL_START = { 1: 0, 2: 5, 3: 9 };
const PYRAMID_LEVEL_SIZE = { 1: 5, 2: 4, 3: 3 };

/** Cells and card slot touched by the last move, to highlight. */
function lastParts(last) {
  if (!last || !last.notation) return {};
  const w = last.notation.split(/\s+/);
  const out = { verb: w[0], cells: [] };
  for (const x of w.slice(1)) {
    if (/^[a-e][1-5]$/.test(x)) out.cells.push(x);
    const m = /^(\d)\.(\d)$/.exec(x);
    if (m) {
      out.level = Number(m[1]);
      out.slot = Number(m[2]);
    }
  }
  return out;
}

/**
 * The whole Duel table.
 * @param {import("./classic_view.js").ViewContext} ctx
 * @returns {HTMLElement}
 */
export function renderDuel(ctx) {
  return h("div", { class: "table duel", dataset: { testid: "table" } },
    h("div", { class: "board-area" },
      h("div", { class: "board-and-side" }, renderBoard(ctx), renderSide(ctx)),
      renderPyramid(ctx)),
    h("div", { class: "players" }, [0, 1].map((p) => renderPlayer(ctx, p))));
}

function renderBoard(ctx) {
  const { obs, legal, selection, on } = ctx;
  const last = lastParts(ctx.last);
  const { extendable } = matchCells(legal, selection);
  const grid = h("div", { class: "board-grid", dataset: { testid: "board" } });
  const edge = () => ["", ..."abcde", ""].map((c) => h("span", { class: "coord" }, c));
  grid.append(...edge());
  for (let r = 0; r < 5; r++) {
    grid.append(h("span", { class: "coord" }, String(r + 1)));
    for (let c = 0; c < 5; c++) {
      const i = r * 5 + c;
      const v = obs.board[i];
      const name = cellName(i);
      const selected = selection.includes(i);
      const canAdd = !selected && extendable.some((a) => a.p.cells.includes(i));
      const letter = v >= 0 ? DUEL_LETTERS[v] : null;
      grid.append(h("button", {
        class: `cell ${canAdd ? "actionable" : ""} ${selected ? "selected" : ""} ${last.cells && last.cells.includes(name) ? "last" : ""}`,
        dataset: { testid: `cell-${name}`, cell: name, token: letter || "" },
        "aria-label": `${name}: ${letter ? letter : "empty"}`,
        disabled: !on ? true : null,
        onclick: on ? () => on.cell(i) : null,
      }, letter ? chip(letter) : h("span", { class: "empty-cell" }, "·")));
    }
    grid.append(h("span", { class: "coord" }, String(r + 1)));
  }
  grid.append(...edge());
  return grid;
}

function renderSide(ctx) {
  const { obs, tables, seats, legal, on } = ctx;
  const free = 3 - sum(obs.privileges);
  const canReplenish = legal.find((a) => a.p.kind === "replenish");
  const royals = obs.royal_owner.map((owner, id) => {
    const r = tables.royals[id];
    return royalTile(r, {
      class: owner >= 0 ? "taken" : "",
      dataset: { testid: `royal-${id + 1}`, owner },
    });
  });
  return h("div", { class: "side" },
    h("div", { class: "line" }, h("span", { class: "lbl" }, "bag"), tokenRow(obs.bag, DUEL_LETTERS, { dataset: { testid: "bag" } }),
      h("span", { class: "total" }, `(${sum(obs.bag)})`)),
    h("div", { class: "line" }, h("span", { class: "lbl" }, "privileges"), privileges(free, { dataset: { testid: "free-privileges" } }),
      h("span", { class: "dim" }, " beside the board")),
    h("div", { class: "line" },
      h("button", {
        class: `replenish ${canReplenish ? "actionable" : ""}`, dataset: { testid: "replenish", notation: canReplenish ? "replenish" : null, action: canReplenish ? "replenish" : null },
        disabled: !canReplenish || !on ? true : null,
        title: "refill the board from the bag; your opponent takes a privilege (D7)",
        onclick: on && canReplenish ? () => on.replenish() : null,
      }, "replenish the board")),
    h("div", { class: "royals" }, h("span", { class: "lbl" }, "royal cards"), royals),
    h("div", { class: "dim small-text" }, "to win: 20 points · 10 crowns · 10 points in one colour"),
    obs.turn_cap ? h("div", { class: "dim small-text" }, `turn cap: ${obs.turn_cap} turns (D25)`) : null,
    seats ? null : null);
}

function renderPyramid(ctx) {
  const { obs, tables, legal, on } = ctx;
  const last = lastParts(ctx.last);
  const rows = [];
  for (let level = 3; level >= 1; level--) {
    const deckLen = obs.deck_len[level - 1];
    const deckActions = matchCard(legal, { deck: level });
    const deck = deckLen > 0
      ? hiddenCard(level, {
        class: `deck ${deckActions.length ? "actionable" : ""}`,
        dataset: { testid: `deck-${level}`, deck: level }, role: "button", tabindex: 0,
        onclick: on ? (ev) => on.card({ deck: level }, ev.currentTarget) : null,
      }, `${deckLen}`)
      : emptySlot({ class: "deck", dataset: { testid: `deck-${level}` } });
    const slots = [];
    for (let k = 0; k < PYRAMID_LEVEL_SIZE[level]; k++) {
      const slot = k + 1;
      const name = `${level}.${slot}`;
      const id = obs.pyramid[PYRAMID_LEVEL_START[level] + k];
      if (id < 0) {
        slots.push(emptySlot({ dataset: { testid: `card-${name}` } }));
        continue;
      }
      const acts = matchCard(legal, { level, slot });
      const isLast = last.level === level && last.slot === slot;
      slots.push(duelCard(tables.cards[id], {
        class: `${acts.length ? "actionable" : ""} ${acts.some((a) => a.p.kind === "buy") ? "buyable" : ""} ${isLast ? "last" : ""}`,
        dataset: { testid: `card-${name}`, card: name }, role: "button", tabindex: 0,
        onclick: on ? (ev) => on.card({ level, slot }, ev.currentTarget) : null,
      }));
    }
    rows.push(h("div", { class: "card-row pyramid-row", dataset: { level } }, h("span", { class: "row-label" }, `L${level}`), deck, slots));
  }
  return h("div", { class: "cards pyramid" }, rows);
}

function renderPlayer(ctx, p) {
  const { obs, tables, seats, viewer, current, legal, on } = ctx;
  const bought = [];
  obs.card_owner.forEach((owner, id) => {
    if (owner === p) bought.push(id);
  });
  const royals = [];
  obs.royal_owner.forEach((owner, id) => {
    if (owner === p) royals.push(royalTile(tables.royals[id], { class: "small" }));
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
    reserved.push(id >= 0 ? duelCard(tables.cards[id], attrs) : hiddenCard(lvl, attrs));
  }
  const total = sum(obs.tokens[p]);
  const cp = obs.color_points[p];
  const best = Math.max(...cp);
  const isLast = ctx.last && ctx.last.seat === p;
  return h("section", {
    class: `player ${current === p ? "to-play" : ""} ${viewer === p ? "me" : ""} ${isLast ? "last-mover" : ""}`,
    dataset: { testid: `player-${p}`, seat: p },
  },
  h("header", {},
    current === p ? h("span", { class: "turn-mark", title: "to play" }, "▶") : null,
    h("span", { class: "name" }, seatName(seats, p)), viewer === p ? h("span", { class: "you" }, " (you)") : null,
    h("span", { class: "score", dataset: { testid: `score-${p}` } }, `${obs.points[p]} pts`),
    h("span", { class: "crowns", title: "crowns" }, ` ♛ ${obs.crowns[p]}`)),
  h("div", { class: "line" }, h("span", { class: "lbl" }, "tokens"), tokenRow(obs.tokens[p], DUEL_LETTERS),
    h("span", { class: `total ${total > 10 ? "over" : ""}` }, `${total}/10`)),
  h("div", { class: "line" }, h("span", { class: "lbl" }, "bonuses"), tokenRow(obs.bonuses[p], DUEL_LETTERS.slice(0, 5)),
    h("span", { class: "total" }, `${bought.length} cards`)),
  h("div", { class: "line" }, h("span", { class: "lbl" }, "colour pts"), h("div", { class: "token-row" }, cp.map((n, c) => chip(DUEL_LETTERS[c], n))),
    h("span", { class: "total" }, `best ${best}/10`)),
  h("div", { class: "line" }, h("span", { class: "lbl" }, "privileges"), privileges(obs.privileges[p], { dataset: { testid: `privileges-${p}` } })),
  royals.length ? h("div", { class: "line" }, h("span", { class: "lbl" }, "royals"), royals) : null,
  h("div", { class: "line reserved" }, h("span", { class: "lbl" }, "reserved"), reserved.length ? reserved : h("span", { class: "dim" }, "–")));
}

/** The colour letter on a board cell (for dialog labels), or null. */
export function cellToken(obs, i) {
  const v = obs.board[i];
  return v >= 0 ? DUEL_LETTERS[v] : null;
}
