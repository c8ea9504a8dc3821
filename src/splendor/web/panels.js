/**
 * The panels around the table: the choice dialog of a single-choice decision, the scores,
 * the move log and the accessible list of legal actions.
 * @module panels
 */

import { classicCard, duelCard, nobleTile, royalTile } from "./cards.js";
import { choiceDialog, optionButton } from "./dialog.js";
import { cellToken } from "./duel_view.js";
import { CLASSIC_LETTERS, DUEL_LETTERS, cellName, chip, h, seatName } from "./util.js";

/** What the player is asked to do, by game and phase. */
export const PHASE_HINT = {
  splendor: ["take tokens, reserve or buy a card", "choose how to pay (gold)", "return tokens down to 10", "choose the noble who visits you"],
  duel: ["privileges / replenish, then take tokens, take a gold to reserve, or buy a card",
    "choose the card to reserve (click it, or a deck)", "choose how to pay (gold)", "choose the colour of your joker",
    "take a token of the card's colour", "steal a token", "choose a royal card", "return tokens down to 10"],
};

const DIALOG_TITLE = {
  pay_gold: "Choose your payment", pay: "Choose your payment", return: "Return tokens (over 10)",
  noble: "Choose a noble", joker: "Place your joker", token: "Take a token", steal: "Steal a token",
  royal: "Choose a royal card", pass: "No move possible",
};

/**
 * The dialog for a single-choice decision (payment, return, noble, joker, token, steal,
 * royal card, pass).
 * @param {Object} s the state message
 * @param {Object} tables the game's card tables
 * @param {Array} legal parsed legal actions
 * @param {Function} onPick called with the chosen action
 */
export function decisionDialog(s, tables, legal, onPick) {
  const obs = s.observation;
  const letters = s.game === "duel" ? DUEL_LETTERS : CLASSIC_LETTERS;
  const label = (a) => {
    const p = a.p;
    switch (p.kind) {
      case "pay_gold": return ["spend 1 gold for ", chip(letters[p.colors[0]]), ` (${a.notation})`];
      case "pay": return "pay the rest with your tokens (pay)";
      case "return": return ["return ", chip(letters[p.colors[0]]), ` (${a.notation})`];
      case "joker": return ["attach to your ", chip(letters[p.colors[0]]), ` cards (${a.notation})`];
      case "steal": return ["steal ", chip(letters[p.colors[0]]), ` (${a.notation})`];
      case "token": return ["take ", chip(cellToken(obs, p.cells[0]) || "*"), ` on ${cellName(p.cells[0])} (${a.notation})`];
      case "noble": {
        const id = obs.nobles[p.slot - 1];
        return [id >= 0 ? nobleTile(tables.nobles[id], { class: "small" }) : null, a.notation];
      }
      case "royal": return [royalTile(tables.royals[p.slot - 1], { class: "small" }), a.notation];
      default: return a.notation;
    }
  };
  const kind = legal[0].p.kind;
  let note = "";
  if (kind === "return") note = `you hold more than 10 tokens`;
  if (kind === "pay_gold" || kind === "pay") {
    const need = obs.pay_need || [];
    const card = obs.pay_card >= 0 && tables.cards[obs.pay_card]
      ? (s.game === "duel" ? duelCard : classicCard)(tables.cards[obs.pay_card], { class: "small", dataset: { testid: "paying-for" } })
      : null;
    const left = need.map((n, c) => (n ? `${n}${letters[c]}` : "")).filter(Boolean).join(" ") || "nothing";
    note = h("span", { class: "pay-note" }, card, ` still to pay: ${left}`);
  }
  return choiceDialog(DIALOG_TITLE[kind] || "Choose", legal.map((a) => ({ action: a, label: label(a) })), onPick, note);
}

/**
 * The scores, whose turn, who is connected, and each seat's clock.
 * @param {Object} s the state message
 * @param {import("./clock.js").Clocks|null} [clocks] the page's clocks (a badge per seat)
 */
export function renderScores(s, clocks = null) {
  const n = s.num_players || (s.scores || []).length;
  const rows = [];
  for (let p = 0; p < n; p++) {
    const seat = (s.seats || []).find((x) => x.seat === p) || {};
    rows.push(h("li", { class: `${s.current_player === p && s.status !== "finished" ? "to-play" : ""}`, dataset: { testid: `scoreline-${p}` } },
      h("span", { class: `dot ${seat.type === "bot" || seat.connected ? "on" : "off"}`, title: seat.type === "bot" ? "bot" : seat.connected ? "connected" : "not connected" }, "●"),
      " ", h("bdi", { class: "score-name" }, seatName(s.seats, p)), seat.type === "bot" ? h("span", { class: "dim" }, ` (${seat.bot})`) : null,
      s.seat === p ? h("span", { class: "dim" }, " (you)") : null,
      h("span", { class: "score-right" }, clocks ? clocks.badge(p) : null, h("b", { class: "score-points" }, `${(s.scores || [])[p] ?? 0}`))));
  }
  return h("section", { class: "scores", dataset: { clock: s.clock ? s.clock.kind : "none" } }, h("h3", {}, "Scores"), h("ul", {}, rows));
}

/**
 * Who watches: "watching: N (names…)"; only the logged-in watchers have names.
 * @param {Object} s the state message (its `spectators`)
 */
export function renderSpectators(s) {
  const sp = s.spectators && typeof s.spectators === "object" ? s.spectators : { count: 0, names: [] };
  const count = Number(sp.count) || 0;
  const names = Array.isArray(sp.names) ? sp.names.filter((x) => typeof x === "string") : [];
  const shown = names.flatMap((name, i) => [i ? ", " : "", h("bdi", { class: "spectator-name" }, name)]);
  const others = count - names.length;
  return h("p", { class: "spectators", dataset: { testid: "spectators", count } },
    h("span", { class: "dim" }, "watching: "), String(count),
    names.length ? [" (", shown, others > 0 ? ` and ${others} more` : "", ")"] : null);
}

/** The move log in notation, the last move marked. @param {Object} s the state message */
export function renderLog(s) {
  const log = s.log || [];
  // the moves since the viewer's own last decision (the others' turns) are marked "recent"
  let mine = -1;
  if (s.seat !== null && s.seat !== undefined) log.forEach((l, k) => { if (l.seat === s.seat) mine = k; });
  const items = log.map((l, k, all) => h("li", { class: `${k === all.length - 1 ? "last" : ""} ${mine >= 0 && k > mine ? "recent" : ""}`, dataset: { index: l.index } },
    h("span", { class: "idx" }, `${l.index + 1}.`), ` ${seatName(s.seats, l.seat)}: `, h("code", {}, l.notation),
    // a server note on this move (a random action played for a bot that could not decide)
    l.note ? h("div", { class: "log-note", dataset: { testid: "log-note" } }, l.note) : null));
  return h("section", { class: "log" }, h("h3", {}, "Moves"), h("ol", { class: "log-list", dataset: { testid: "log" } }, items));
}

/** Accessible fallback: every legal action as a button. @param {Array} legal @param {Function} onPick */
export function renderLegalList(legal, onPick) {
  return h("details", { class: "legal-list", open: true },
    h("summary", {}, `Legal actions (${legal.length})`),
    h("div", { class: "legal-buttons", dataset: { testid: "legal-actions" } },
      legal.map((a) => optionButton(a, a.notation, onPick, "legal-action"))));
}
