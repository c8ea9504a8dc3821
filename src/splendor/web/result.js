/**
 * The result panel of a finished game: winners, scores, how it ended, and links to the
 * replay viewer and the record download.
 * @module result
 */

import { recordUrl } from "./api.js";
import { h, seatName } from "./util.js";

const END_WORDS = {
  points: "on points", crowns: "on crowns (10)", colour: "on points in one colour (10)",
  "turn cap": "turn cap reached", stall: "stalled: every player passed", forfeit: "by forfeit",
};

/** One line saying who won and how. */
export function resultText(result, seats) {
  if (!result) return "game over";
  const winners = result.winners || [];
  const how = END_WORDS[result.end_reason] || result.end_reason || "";
  const turns = result.turns !== undefined ? `, ${result.turns} turns` : "";
  if (!winners.length) return `no winner (${how}${turns})`;
  const names = winners.map((w) => seatName(seats, w)).join(" and ");
  let text = `${names} ${winners.length > 1 ? "win" : "wins"} ${how}${turns}`;
  if (result.forfeit) text += ` — ${seatName(seats, result.forfeit.seat)} forfeited: ${result.forfeit.reason}`;
  return text;
}

/** The viewer's own outcome ("You won", "You lost", "You share the victory"), or null for a spectator. */
function yourOutcome(state) {
  const seat = state.seat;
  if (seat === null || seat === undefined || !state.result) return null;
  const winners = state.result.winners || [];
  const outcome = !winners.includes(seat) ? "lost" : winners.length > 1 ? "shared" : "won";
  const text = { won: "You won!", lost: "You lost.", shared: "You share the victory." }[outcome];
  return h("p", { class: `your-outcome ${outcome}`, dataset: { testid: "your-outcome", outcome } }, text);
}

/**
 * The panel for a finished game.
 * @param {Object} state the state message (status "finished")
 * @param {string} gameId
 * @param {{replay?: boolean}} [opts] replay=false hides the replay link (on the replay page)
 */
export function renderResult(state, gameId, opts = { replay: true }) {
  const r = state.result || {};
  const scores = r.scores || state.scores || [];
  return h("section", { class: "result", dataset: { testid: "result" } },
    h("h3", {}, "Game over"),
    h("p", { class: "result-text", dataset: { testid: "result-text" } }, resultText(r, state.seats)),
    yourOutcome(state),
    h("ul", { class: "final-scores" }, scores.map((pts, p) => h("li", { class: (r.winners || []).includes(p) ? "winner" : "" },
      `${seatName(state.seats, p)}: ${pts} points`, (r.winners || []).includes(p) ? h("span", { class: "win-mark" }, " ★ winner") : null))),
    h("p", { class: "links" },
      opts.replay !== false ? h("a", { href: `/games/${encodeURIComponent(gameId)}/replay`, dataset: { testid: "replay-link" } }, "replay the game") : null,
      " ",
      h("a", { href: recordUrl(gameId), download: `splendor-${gameId}.json`, dataset: { testid: "record-link" } }, "download the record")));
}
