/**
 * The result panel of a finished game: winners, scores, each player's rating change in a
 * rated game (once the server applied it), how it ended, links to the replay viewer and
 * the record download, and (drawn by {@link renderRematch}) the
 * rematch offer of a seated, logged-in player.
 * @module result
 */

import { recordUrl } from "./api.js";
import { language, nodes, t, tn } from "./i18n.js";
import { seatBadges } from "./badges.js";
import { h, seatName } from "./util.js";

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
function namesText(names) {
  if (names.length < 2) return names.join("");
  return t("{first} and {last}", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** Who won and how, one sentence per way a game ends (the names in `names`, `n` of them). */
function winText(reason, names, n) {
  switch (reason) {
    case "points": return tn("{names} wins on points", "{names} win on points", n, { names });
    case "crowns": return tn("{names} wins on crowns (10)", "{names} win on crowns (10)", n, { names });
    case "colour": return tn("{names} wins on points in one colour (10)", "{names} win on points in one colour (10)", n, { names });
    case "turn cap": return tn("{names} wins: turn cap reached", "{names} win: turn cap reached", n, { names });
    case "stall": return tn("{names} wins: stalled, every player passed", "{names} win: stalled, every player passed", n, { names });
    case "forfeit": return tn("{names} wins by forfeit", "{names} win by forfeit", n, { names });
    default: return tn("{names} wins ({reason})", "{names} win ({reason})", n, { names, reason });
  }
}

/** Why nobody won. */
function noWinText(reason) {
  switch (reason) {
    case "turn cap": return t("no winner (turn cap reached)");
    case "stall": return t("no winner (stalled: every player passed)");
    case "decision_cap": return t("no winner (the game was stopped)");
    default: return t("no winner ({reason})", { reason });
  }
}

/**
 * Why a seat forfeited: the server's reason (English, stored with the game), said in the
 * reader's language when it is one of the server's (resigned, ran out of time, expired).
 */
function forfeitReason(reason, name) {
  const text = String(reason || "");
  if (language() === "en") return text;
  if (text === `${name} resigned`) return t("{name} resigned", { name });
  if (text === `${name} ran out of time`) return t("{name} ran out of time", { name });
  if (/: the game expired$/.test(text)) return t("{name} made no move for too long: the game expired", { name });
  return text;
}

/** One line saying who won and how. */
export function resultText(result, seats) {
  if (!result) return t("game over");
  const winners = result.winners || [];
  const reason = result.end_reason || "";
  const turns = result.turns !== undefined ? tn("{n} turn", "{n} turns", result.turns) : null;
  if (!winners.length) return turns ? t("{result}, {turns}", { result: noWinText(reason), turns }) : noWinText(reason);
  let text = winText(reason, namesText(winners.map((w) => seatName(seats, w))), winners.length);
  if (turns) text = t("{result}, {turns}", { result: text, turns });
  if (result.forfeit) {
    const name = seatName(seats, result.forfeit.seat);
    text += " — " + t("{name} forfeited: {reason}", { name, reason: forfeitReason(result.forfeit.reason, name) });
  }
  return text;
}

/** The viewer's own outcome ("You won", "You lost", "You share the victory"), or null for a spectator. */
function yourOutcome(state) {
  const seat = state.seat;
  if (seat === null || seat === undefined || !state.result) return null;
  const winners = state.result.winners || [];
  const outcome = !winners.includes(seat) ? "lost" : winners.length > 1 ? "shared" : "won";
  const text = { won: t("You won!"), lost: t("You lost."), shared: t("You share the victory.") }[outcome];
  return h("p", { class: `your-outcome ${outcome}`, dataset: { testid: "your-outcome", outcome } }, text);
}

/**
 * A seat's rating change in a rated game's result (`result.ratings`: the server's
 * `[{seat, kind, before, after, delta}]`, sent once the ratings are applied), or null.
 * @param {Object[]|undefined} ratings
 * @param {number} seat
 */
export function ratingChange(ratings, seat) {
  const c = (ratings || []).find((x) => x.seat === seat);
  if (!c) return null;
  const fmt = new Intl.NumberFormat(language(), { signDisplay: "exceptZero" });
  const direction = c.delta > 0 ? "up" : c.delta < 0 ? "down" : "same";
  return h("span", { class: `rating-change ${direction}`, dataset: { testid: `rating-change-${seat}`, delta: c.delta } },
    " · ", t("rating {before} → {after} ({delta})", { before: c.before, after: c.after, delta: fmt.format(c.delta) }));
}

/**
 * Bring the result of a game that just ended into view, its heading focused (a screen
 * reader says it); the game page calls it when the game ends while it is open, wherever
 * the player had scrolled (issue 33).
 * @param {HTMLElement} root the game page
 */
export function showResult(root) {
  const panel = root.querySelector("[data-testid=result]");
  if (!panel) return;
  const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
  panel.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
  const title = panel.querySelector("[data-testid=result-title]");
  if (title) title.focus({ preventScroll: true });
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
  return h("section", { class: "result", dataset: { testid: "result" }, "aria-labelledby": "result-title" },
    h("h3", { id: "result-title", tabindex: "-1", dataset: { testid: "result-title" } }, t("Game over")),
    h("p", { class: "result-text", dataset: { testid: "result-text" } }, resultText(r, state.seats)),
    yourOutcome(state),
    h("ul", { class: "final-scores" }, scores.map((pts, p) => h("li", { class: (r.winners || []).includes(p) ? "winner" : "" },
      tn("{name}: {n} point", "{name}: {n} points", pts, { name: seatName(state.seats, p) }), seatBadges(state.seats, p), (r.winners || []).includes(p) ? h("span", { class: "win-mark" }, " ★ ", t("winner")) : null,
      ratingChange(r.ratings, p)))),
    h("p", { class: "links" },
      opts.replay !== false ? h("a", { href: `/games/${encodeURIComponent(gameId)}/replay`, dataset: { testid: "replay-link" } }, t("replay the game")) : null,
      " ",
      h("a", { href: recordUrl(gameId), download: `splendor-${gameId}.json`, dataset: { testid: "record-link" } }, t("download the record"))),
    opts.rematch || null);
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" (each name as text in a `<bdi>`). */
function nameList(names) {
  const bdis = names.map((n) => h("bdi", {}, n));
  if (bdis.length < 2) return bdis;
  const first = bdis.slice(0, -1).flatMap((b, i) => (i ? [", ", b] : [b]));
  return nodes(t("{first} and {last}"), { first, last: bdis[bdis.length - 1] });
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
      ? nodes(t("Rematch offered: waiting for {names}…"), { names: nameList(awaited) })
      : [t("the rematch starts…")];
  } else if (state === "offered") {
    const offering = tseats.filter((x) => x.player_id && x.player_id !== playerId).map((x) => x.name || seatName(seats, x.seat));
    status = nodes(tn("{names} offers a rematch", "{names} offer a rematch", offering.length), { names: nameList(offering) });
  } else if (state === "started") {
    status = [t("the rematch starts…")];
  } else if (table) {
    status = [t("the rematch was called off")];
  }
  const button = state === "none" || state === "offered"
    ? h("button", {
      type: "button", class: state === "offered" ? "rematch accept" : "rematch",
      dataset: { testid: "rematch", state }, disabled: busy, onclick: () => onClick(),
    }, busy ? t("asking…") : state === "offered" ? t("Accept rematch") : t("Rematch"))
    : null;
  return h("div", { class: "rematch-panel", dataset: { testid: "rematch-panel", state } },
    button,
    status ? h("span", { class: "rematch-status", role: "status", dataset: { testid: "rematch-status" } }, status) : null,
    error ? h("p", { class: "rematch-error", role: "alert", dataset: { testid: "rematch-error" } }, error) : null);
}
