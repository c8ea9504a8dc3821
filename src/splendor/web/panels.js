/**
 * The panels around the table: the choice dialog of a single-choice decision, the scores,
 * the move log and the accessible list of legal actions.
 * @module panels
 */

import { classicCard, duelCard, nobleTile, royalTile, tokenChip } from "./cards.js";
import { choiceDialog, optionButton } from "./dialog.js";
import { cellToken } from "./duel_view.js";
import { N_, language, nodes, t, tn } from "./i18n.js";
import { badgesFor, guestBadge } from "./badges.js";
import { CLASSIC_LETTERS, DUEL_LETTERS, botName, cellName, effectText, h, seatName, tokensText } from "./util.js";
import { moveNode, notationShown, notationToggle, seatNames } from "./sentences.js";

/** What the player is asked to do, by game and phase (English: show them with `t()`). */
export const PHASE_HINT = {
  splendor: [N_("take tokens, reserve or buy a card"), N_("choose how to pay (gold)"), N_("return tokens down to 10"), N_("choose the noble who visits you")],
  duel: [N_("privileges / replenish, then take tokens, take a gold to reserve, or buy a card"),
    N_("choose the card to reserve (click it, or a deck)"), N_("choose how to pay (gold)"), N_("choose the colour of your joker"),
    N_("take a token of the card's colour"), N_("steal a token"), N_("choose a royal card"), N_("return tokens down to 10")],
};

/** The title of each decision's dialog (English: shown with `t()`). */
const DIALOG_TITLE = {
  pay_gold: N_("Choose your payment"), pay: N_("Choose your payment"), return: N_("Return tokens (over 10)"),
  noble: N_("Choose a noble"), joker: N_("Place your joker"), token: N_("Take a token"), steal: N_("Steal a token"),
  royal: N_("Choose a royal card"), pass: N_("No move possible"),
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
  // the notation beside each choice only for a reader who asked for it ("Show notation")
  const noted = notationShown();
  const label = (a) => {
    const p = a.p;
    const chip = p.colors && p.colors.length ? tokenChip(letters[p.colors[0]]) : null;
    const fields = { colour: chip, token: chip, notation: a.notation };
    switch (p.kind) {
      case "pay_gold": return nodes(noted ? t("spend 1 gold token for {colour} ({notation})") : t("spend 1 gold token for {colour}"), fields);
      case "pay": return noted ? t("pay the rest with your tokens (pay)") : t("pay the rest with your tokens");
      case "return": return nodes(noted ? t("return {token} ({notation})") : t("return {token}"), fields);
      case "joker": return nodes(noted ? t("attach to your {colour} cards ({notation})") : t("attach to your {colour} cards"), fields);
      case "steal": return nodes(noted ? t("steal {token} ({notation})") : t("steal {token}"), fields);
      case "token": {
        const onCell = { ...fields, token: tokenChip(cellToken(obs, p.cells[0]) || "*"), cell: cellName(p.cells[0]) };
        return nodes(noted ? t("take {token} on {cell} ({notation})") : t("take {token} on {cell}"), onCell);
      }
      case "noble": {
        const id = obs.nobles[p.slot - 1];
        return [id >= 0 ? nobleTile(tables.nobles[id], { class: "small" }) : null, noted ? a.notation : null];
      }
      case "royal": return [royalTile(tables.royals[p.slot - 1], { class: "small" }), noted ? a.notation : null];
      default: return noted ? a.notation : t("pass");
    }
  };
  const kind = legal[0].p.kind;
  let note = "";
  if (kind === "return") note = t("you hold more than 10 tokens");
  if (kind === "pay_gold" || kind === "pay") {
    const need = obs.pay_need || [];
    const card = obs.pay_card >= 0 && tables.cards[obs.pay_card]
      ? (s.game === "duel" ? duelCard : classicCard)(tables.cards[obs.pay_card], { class: "small", dataset: { testid: "paying-for" } })
      : null;
    // each colour still to pay as its token (the gem's shape) with the number, named in words
    const chips = need.map((n, c) => (n ? tokenChip(letters[c], n, { role: "img", "aria-label": tokensText(letters[c], n) }) : null)).filter(Boolean);
    const left = chips.length ? h("span", { class: "pay-left" }, chips) : t("nothing");
    note = h("span", { class: "pay-note" }, card, " ", nodes(t("still to pay: {cost}"), { cost: left }));
  }
  return choiceDialog(DIALOG_TITLE[kind] ? t(DIALOG_TITLE[kind]) : t("Choose"), legal.map((a) => ({ action: a, label: label(a) })), onPick, note);
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
      h("span", { class: `dot ${seat.type === "bot" || seat.connected ? "on" : "off"}`, title: seat.type === "bot" ? t("bot") : seat.connected ? t("connected") : t("not connected") }, "●"),
      " ", h("bdi", { class: "score-name" }, seatName(s.seats, p)), seat.type === "bot" ? h("span", { class: "dim" }, ` (${botName(seat.bot)})`) : null,
      badgesFor(seat),
      s.seat === p ? h("span", { class: "dim" }, " ", t("(you)")) : null,
      h("span", { class: "score-right" }, clocks ? clocks.badge(p) : null, h("b", { class: "score-points" }, `${(s.scores || [])[p] ?? 0}`))));
  }
  return h("section", { class: "scores", dataset: { clock: s.clock ? s.clock.kind : "none" } }, h("h3", {}, t("Scores")), h("ul", {}, rows));
}

/**
 * Who watches: "watching: N (names…)"; only the logged-in watchers have names.
 * @param {Object} s the state message (its `spectators`)
 */
export function renderSpectators(s) {
  const sp = s.spectators && typeof s.spectators === "object" ? s.spectators : { count: 0, names: [] };
  const count = Number(sp.count) || 0;
  const names = Array.isArray(sp.names) ? sp.names.filter((x) => typeof x === "string") : [];
  const guests = new Set(Array.isArray(sp.guests) ? sp.guests : []);
  const shown = names.flatMap((name, i) => [i ? ", " : "", h("bdi", { class: "spectator-name" }, name), guests.has(name) ? [" ", guestBadge()] : null]);
  const others = count - names.length;
  return h("p", { class: "spectators", dataset: { testid: "spectators", count } },
    h("span", { class: "dim" }, t("watching:")), " ", String(count),
    names.length ? [" (", shown, others > 0 ? [" ", tn("and {n} more", "and {n} more", others)] : "", ")"] : null);
}

/**
 * The move log, each move a sentence in the reader's language (or its notation, with the
 * "Show notation" switch: {@link module:sentences}), in a box that folds: the last move
 * and the whole last turn marked.
 * @param {Object} s the state message
 * @param {boolean} [open] unfolded (folded on a phone, where the table shows the last turn)
 * @param {Function|null} [onToggle] told the new state when the reader folds or unfolds it
 */
export function renderLog(s, open = true, onToggle = null) {
  const log = s.log || [];
  const names = seatNames(s.seats, s.num_players);
  // the moves since the viewer's own last decision (the others' turns) are marked "recent"
  let mine = -1;
  if (s.seat !== null && s.seat !== undefined) log.forEach((l, k) => { if (l.seat === s.seat) mine = k; });
  // the decisions of the last turn (the trailing entries of the seat that moved last)
  let turnStart = log.length - 1;
  while (turnStart > 0 && log[turnStart - 1].seat === log[log.length - 1].seat) turnStart--;
  const items = log.map((l, k, all) => h("li", {
    class: `${k === all.length - 1 ? "last" : ""} ${k >= turnStart ? "last-turn" : ""} ${mine >= 0 && k > mine ? "recent" : ""}`, dataset: { index: l.index },
  },
    h("span", { class: "idx" }, `${l.index + 1}.`), " ", moveNode(l, names),
    // a server note on this move (a random action played for a bot that could not decide)
    l.note ? logNote(l.note) : null,
    // what the rules did besides the notation (privileges, abilities without a choice,
    // a noble's visit, an extra turn): the server's sentence in the reader's language
    ...(l.effects || []).map((e) => h("div", { class: `log-effect effect-${e.kind}`, dataset: { testid: "log-effect", kind: e.kind } },
      effectText(e, s.seats, language())))));
  return h("details", { class: "log", open: open ? true : null, ontoggle: onToggle ? (ev) => onToggle(ev.currentTarget.open) : null },
    h("summary", {}, h("h3", {}, t("Moves")), h("span", { class: "count" }, String(log.length))),
    notationToggle(),
    h("ol", { class: "log-list", dataset: { testid: "log" } }, items));
}

/**
 * A server note on a move (stored in English with the game: a random action played for a
 * bot that could not decide): as it is in English, else the reader's sentence with the
 * server's details in its title.
 */
function logNote(note) {
  const english = language() === "en";
  return h("div", { class: "log-note", title: english ? null : note, dataset: { testid: "log-note" } },
    english ? note : t("the bot could not decide: a random legal move was played for it"));
}

/**
 * Accessible fallback: every legal action as a button, in a box that folds.
 * @param {Array} legal
 * @param {Function} onPick
 * @param {boolean} [open] unfolded (folded on a phone, where the table offers the same)
 * @param {Function|null} [onToggle] told the new state when the reader folds or unfolds it
 */
export function renderLegalList(legal, onPick, open = true, onToggle = null) {
  return h("details", { class: "legal-list", open: open ? true : null, ontoggle: onToggle ? (ev) => onToggle(ev.currentTarget.open) : null },
    h("summary", {}, t("Legal actions ({n})", { n: legal.length })),
    h("div", { class: "legal-buttons", dataset: { testid: "legal-actions" } },
      legal.map((a) => optionButton(a, a.notation, onPick, "legal-action"))));
}
