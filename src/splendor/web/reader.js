/**
 * The screen-reader mode of the game page (issue 33; lichess's blind mode is the model):
 * the table as text under headings (whose turn and the clocks, the last move, the supply
 * or the Duel board, the cards by level with their cost, bonus and points, the nobles or
 * royal cards, each player's holdings), an ARIA live region (`role="status"`) that says
 * every new move as a sentence ({@link module:sentences}), and a command box: the text
 * goes to `POST /api/commands` (the player's own words, `prendre blanc bleu vert`), and
 * the notation it answers is played when it is one of the legal actions; a refusal is
 * read out. The mode is the browser's choice, `localStorage["splendor.reader"] = "on"`,
 * switched in the settings page or on the game page ({@link readerToggle}).
 * @module reader
 */

import * as api from "./api.js";
import { classicCardWords, duelCardWords, nobleWords, royalWords } from "./cards.js";
import { formatClock } from "./clock.js";
import { t, tn } from "./i18n.js";
import { moveSentence, seatNames } from "./sentences.js";
import { CLASSIC_LETTERS, DUEL_LETTERS, cellName, colorName, h, replaceChildren, sum, tokensText } from "./util.js";

const KEY = "splendor.reader";
const PYRAMID = { 1: [0, 5], 2: [5, 4], 3: [9, 3] };

/** Whether the screen-reader mode is on in this browser. */
export function readerMode() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

/** Switch the screen-reader mode on or off (kept in this browser). */
export function setReaderMode(on) {
  try {
    if (on) localStorage.setItem(KEY, "on");
    else localStorage.removeItem(KEY);
  } catch {
    // storage refused (private mode): the choice lasts until the page closes
  }
}

/**
 * The switch of the mode: a toggle button (`aria-pressed`, `data-testid="reader-toggle"`).
 * @param {Function} onChange called after the switch
 * @returns {HTMLElement}
 */
export function readerToggle(onChange) {
  const on = readerMode();
  return h("button", {
    type: "button", class: "toggle reader-toggle", "aria-pressed": String(on), dataset: { testid: "reader-toggle" },
    onclick: () => {
      setReaderMode(!readerMode());
      onChange();
    },
  }, t("Screen-reader mode"));
}

/** A heading and a list of lines (empty lists say "none"). */
function listSection(title, lines, testid) {
  return h("section", { dataset: { testid } }, h("h3", {}, title),
    lines.length ? h("ul", {}, lines.map((l) => h("li", {}, l))) : h("p", {}, t("none")));
}

/** A list of counts in words: `3 white tokens, 1 gold token`, or "none". */
function countsText(counts, letters) {
  const parts = letters.map((l, c) => (counts[c] ? tokensText(l, counts[c]) : "")).filter(Boolean);
  return parts.length ? parts.join(", ") : t("none");
}

/** The panel of one game page (made once; {@link ReaderPanel#update} with each state). */
export class ReaderPanel {
  /** @param {Object} page the game page ({@link module:game}: `state`, `act()`, `clocks`, `myTurn`) */
  constructor(page) {
    this.page = page;
    this.heard = null; // the log index last announced
    this.live = h("div", { class: "reader-live", role: "status", "aria-live": "polite", dataset: { testid: "reader-live" } });
    this.input = h("input", { type: "text", id: "reader-command", autocomplete: "off", dataset: { testid: "reader-input" } });
    const form = h("form", { class: "reader-form", onsubmit: (ev) => { ev.preventDefault(); this.command(this.input.value); } },
      h("label", { for: "reader-command" }, t("Your move, in words or notation")), " ", this.input, " ",
      h("button", { type: "submit", dataset: { testid: "reader-submit" } }, t("Play")));
    this.body = h("div", { dataset: { testid: "reader-table" } });
    this.el = h("section", { class: "reader", tabindex: -1, "aria-labelledby": "reader-title", dataset: { testid: "reader" } },
      h("h2", { id: "reader-title" }, t("The table in words")), this.live, form, this.body);
  }

  /** Say `text` in the live region. */
  say(text) {
    this.live.textContent = text;
  }

  /** Redraw the text of the table from `state`; announce the moves new since the last one. */
  update(state, tables) {
    const names = seatNames(state.seats, state.num_players);
    const log = state.log || [];
    const last = log.length ? log[log.length - 1].index : -1;
    if (this.heard !== null && last > this.heard) {
      this.say(log.filter((e) => e.index > this.heard).map((e) => moveSentence(e, names)).join(" "));
    }
    this.heard = last;
    const obs = state.observation;
    const duel = state.game === "duel";
    replaceChildren(this.body,
      this.turnSection(state, names),
      duel ? this.boardSection(obs) : listSection(t("Supply"), [countsText(obs.supply, CLASSIC_LETTERS)], "reader-supply"),
      this.cardSections(state, tables),
      duel
        ? listSection(t("Royal cards"), obs.royal_owner.map((o, id) => (o < 0 ? royalWords(tables.royals[id]) : null)).filter(Boolean), "reader-nobles")
        : listSection(t("Nobles"), obs.nobles.filter((n) => n >= 0).map((n) => nobleWords(tables.nobles[n])), "reader-nobles"),
      names.map((name, p) => this.playerSection(state, tables, p, name)));
  }

  /** Whose turn, the move number, the clocks and the last move. */
  turnSection(state, names) {
    const p = this.page;
    const who = state.status === "finished" ? t("The game is over.")
      : p.myTurn ? t("Your turn.") : t("{name} to play.", { name: names[state.current_player] });
    const clock = p.clocks && p.clocks.clock;
    const clocks = clock ? names.map((name, k) => t("{name}: {time} left", { name, time: formatClock(p.clocks.left(k) ?? 0, clock.kind) })) : [];
    const log = state.log || [];
    const lastMove = log.length ? t("Last move: {sentence}", { sentence: moveSentence(log[log.length - 1], names) }) : null;
    return h("section", { dataset: { testid: "reader-turn" } }, h("h3", {}, t("Turn")),
      h("p", {}, t("Move {move}.", { move: state.move }), " ", who),
      clocks.length ? h("p", {}, clocks.join(" · ")) : null,
      lastMove ? h("p", {}, lastMove) : null);
  }

  /** Duel: the board row by row, the bag and the privileges beside it. */
  boardSection(obs) {
    const rows = [];
    for (let r = 0; r < 5; r++) {
      const cells = [];
      for (let c = 0; c < 5; c++) {
        const i = r * 5 + c;
        const v = obs.board[i];
        cells.push(v >= 0 ? t("{cell} {color}", { cell: cellName(i), color: colorName(DUEL_LETTERS[v]) }) : t("{cell} empty", { cell: cellName(i) }));
      }
      rows.push(t("Row {row}: {cells}", { row: r + 1, cells: cells.join(", ") }));
    }
    rows.push(tn("the bag: {n} token", "the bag: {n} tokens", sum(obs.bag)));
    rows.push(tn("{n} privilege beside the board", "{n} privileges beside the board", 3 - sum(obs.privileges)));
    return listSection(t("Board"), rows, "reader-board");
  }

  /** The cards by level (3 to 1), each with its place (`1.2`), and the deck's size. */
  cardSections(state, tables) {
    const obs = state.observation;
    const out = [];
    for (let level = 3; level >= 1; level--) {
      const ids = state.game === "duel" ? obs.pyramid.slice(PYRAMID[level][0], PYRAMID[level][0] + PYRAMID[level][1]) : obs.faceup[level - 1];
      const lines = ids.map((id, k) => (id < 0 ? null : `${level}.${k + 1}: ${state.game === "duel" ? duelCardWords(tables.cards[id]) : classicCardWords(tables.cards[id])}`)).filter(Boolean);
      lines.push(tn("deck: {n} card", "deck: {n} cards", obs.deck_len[level - 1]));
      out.push(listSection(t("Level {level} cards", { level }), lines, `reader-level-${level}`));
    }
    return out;
  }

  /** One player's holdings: points, tokens, bonuses, reserved cards (their own, face up), nobles or crowns and privileges. */
  playerSection(state, tables, p, name) {
    const obs = state.observation;
    const duel = state.game === "duel";
    const letters = duel ? DUEL_LETTERS : CLASSIC_LETTERS;
    const lines = [
      t("Tokens: {tokens}", { tokens: countsText(obs.tokens[p], letters) }),
      t("Bonuses: {bonuses}", { bonuses: countsText(obs.bonuses[p], letters.slice(0, 5)) }),
    ];
    if (duel) lines.push(tn("{n} crown", "{n} crowns", obs.crowns[p]), tn("{n} privilege", "{n} privileges", obs.privileges[p]));
    (obs.reserved[p] || []).forEach((id, k) => {
      if (!obs.reserved_level[p][k]) return;
      const words = id >= 0 ? (duel ? duelCardWords(tables.cards[id]) : classicCardWords(tables.cards[id])) : t("a face-down level-{level} card", { level: obs.reserved_level[p][k] });
      lines.push(t("Reserved r{slot}: {card}", { slot: k + 1, card: words }));
    });
    const title = t("{name}: {points}", { name, points: tn("{n} point", "{n} points", obs.points[p]) });
    return listSection(title, lines, `reader-player-${p}`);
  }

  /**
   * Play what the player typed: a legal notation as it is, else the server's reading of
   * the words (`POST /api/commands`), played when legal; every refusal is said.
   */
  async command(text) {
    const words = text.trim();
    const page = this.page;
    if (!words || !page.state) return;
    if (!page.seated) return this.say(t("you are watching this game"));
    if (!page.myTurn) return this.say(t("It is not your turn."));
    const legal = page.state.legal_actions.map((a) => a.notation);
    let notation = legal.includes(words) ? words : null;
    if (!notation) {
      try {
        notation = (await api.request("POST", "/api/commands", { game: page.state.game, text: words })).notation;
      } catch (e) {
        return this.say(e.message);
      }
    }
    if (!legal.includes(notation)) return this.say(t("{notation} is not a legal move now.", { notation }));
    this.input.value = "";
    await page.act(notation);
  }
}
