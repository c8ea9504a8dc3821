/**
 * The result panel of a finished game: winners, scores, how it ended, links to the
 * replay viewer and the record download, and (drawn by {@link renderRematch}) the
 * rematch offer of a seated, logged-in player.
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
 * @param {{replay?: boolean, rematch?: Node|null}} [opts] replay=false hides the replay
 *   link (on the replay page); `rematch`: the rematch panel ({@link renderRematch}) to show
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
      h("a", { href: recordUrl(gameId), download: `splendor-${gameId}.json`, dataset: { testid: "record-link" } }, "download the record")),
    opts.rematch || null);
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" (each name as text in a `<bdi>`). */
function nameList(names) {
  const out = [];
  names.forEach((n, i) => {
    if (i > 0) out.push(i === names.length - 1 ? " and " : ", ");
    out.push(h("bdi", {}, n));
  });
  return out;
}

/**
 * Where the rematch of a finished game stands for the viewer: `none` (nobody offered, or
 * the table was closed), `offered` (another player offered: the viewer may accept),
 * `waiting` (the viewer sits at the rematch table: the others are awaited) or `started`.
 * @param {Object|null} table the rematch table (`POST …/rematch` answer or `{"type": "rematch"}` message)
 * @param {string|null} playerId the viewer's player id
 */
export function rematchState(table, playerId) {
  if (!table) return "none";
  if (table.status === "started") return "started";
  if (table.status !== "open") return "none";
  return (table.seats || []).some((x) => x.player_id && x.player_id === playerId) ? "waiting" : "offered";
}

/**
 * The rematch panel (`rematch-panel`, `data-state` from {@link rematchState}): the
 * `rematch` button ("Rematch", or "Accept rematch" once another player offered; none while
 * the viewer waits or the rematch starts), `rematch-status` ("Ann offers a rematch",
 * "waiting for Bob…", "the rematch starts…") and the server's refusal in `rematch-error`.
 * Names are text only.
 * @param {{table: Object|null, playerId: string|null, seats: Object[], busy: boolean,
 *   error: string, onClick: Function}} view `seats`: the finished game's seats (the
 *   rematch keeps them: the free seats are named after their former players)
 */
export function renderRematch(view) {
  const { table, playerId, seats, busy, error, onClick } = view;
  const state = rematchState(table, playerId);
  const tseats = (table && table.seats) || [];
  let status = null;
  if (state === "waiting") {
    const awaited = tseats.filter((x) => x.free).map((x) => seatName(seats, x.seat));
    status = awaited.length
      ? ["Rematch offered: waiting for ", ...nameList(awaited), "…"]
      : ["the rematch starts…"];
  } else if (state === "offered") {
    const offering = tseats.filter((x) => x.player_id && x.player_id !== playerId).map((x) => x.name || seatName(seats, x.seat));
    status = [...nameList(offering), offering.length > 1 ? " offer a rematch" : " offers a rematch"];
  } else if (state === "started") {
    status = ["the rematch starts…"];
  } else if (table) {
    status = ["the rematch was called off"];
  }
  const button = state === "none" || state === "offered"
    ? h("button", {
      type: "button", class: state === "offered" ? "rematch accept" : "rematch",
      dataset: { testid: "rematch", state }, disabled: busy, onclick: () => onClick(),
    }, busy ? "asking…" : state === "offered" ? "Accept rematch" : "Rematch")
    : null;
  return h("div", { class: "rematch-panel", dataset: { testid: "rematch-panel", state } },
    button,
    status ? h("span", { class: "rematch-status", role: "status", dataset: { testid: "rematch-status" } }, status) : null,
    error ? h("p", { class: "rematch-error", role: "alert", dataset: { testid: "rematch-error" } }, error) : null);
}
