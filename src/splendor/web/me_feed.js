/**
 * The player's own feed, `WS /ws/me`: one connection per tab while a player is logged in
 * (reconnects with back-off; reopened after a log-in or log-out). Every message it brings
 * is dispatched as a DOM event, `window.dispatchEvent(new CustomEvent("splendor:me",
 * {detail: msg}))`, for the parts that follow it (the top bar's count, "My games", the
 * browser notifications of `notify.js`):
 *
 * - `{"type": "waiting", "count": n}`: the games waiting on the player (the top bar's
 *   badge, {@link waitingBadge}; also kept in {@link waitingCount});
 * - `{"type": "invite", "url", "from": {id, name}, "table"}`: a friend invites the player
 *   to a table (shown as a toast with a link to it);
 * - `{"type": "notify", ...}`: see `notify.js`.
 *
 * When the tab becomes visible again it asks for a fresh count (`{"type": "count"}`).
 * Also the REST calls of "My games", friends and blocks.
 * @module me_feed
 */

import { LiveSocket, request } from "./api.js";
import { nodes, t, tn } from "./i18n.js";
import { onIdentityChange } from "./identity.js";
import { GAME_NAMES, h } from "./util.js";

/** `GET /api/me/games`: `{games, finished, waiting}`. */
export function myGames(finished = 20) {
  return request("GET", `/api/me/games?finished=${finished}`);
}

/** `GET /api/me/friends`: `{friends, following, followers}`. */
export function myFriends() {
  return request("GET", "/api/me/friends");
}

/** `GET /api/me/blocks`: `{blocks}`. */
export function myBlocks() {
  return request("GET", "/api/me/blocks");
}

/** `GET /api/players/{id}/relation`: `{relation: {following, followed_by, friend, blocked}}`. */
export function relationWith(playerId) {
  return request("GET", `/api/players/${encodeURIComponent(playerId)}/relation`);
}

/** Follow (`on`) or stop following a player; answers `{relation}`. */
export function setFollow(playerId, on) {
  return request(on ? "POST" : "DELETE", `/api/players/${encodeURIComponent(playerId)}/follow`);
}

/** Block (`on`) or unblock a player; answers `{relation}`. */
export function setBlock(playerId, on) {
  return request(on ? "POST" : "DELETE", `/api/players/${encodeURIComponent(playerId)}/block`);
}

/** Invite a friend to a table (`code`: an invitation table's code); answers `{invited, online, url}`. */
export function inviteFriend(tableId, playerId, code = null) {
  const body = { player_id: playerId };
  if (code) body.code = code;
  return request("POST", `/api/tables/${encodeURIComponent(tableId)}/invite`, body);
}

/** The name of the feed's DOM event. */
export const ME_EVENT = "splendor:me";

let count = null;

/** The games waiting on the player, as last told by the feed (null: not known yet). */
export function waitingCount() {
  return count;
}

/** Draw the count into every badge of the page. */
function drawBadges() {
  for (const el of document.querySelectorAll("[data-testid=waiting-count]")) {
    el.textContent = count ? String(count) : "";
    el.hidden = !count;
    el.dataset.count = String(count || 0);
    el.title = count ? tn("{n} game waits on you", "{n} games wait on you", count) : "";
  }
}

/** The top bar's link to "My games" with the count of games waiting on the player. */
export function waitingBadge() {
  const badge = h("span", { class: "badge waiting-count", dataset: { testid: "waiting-count", count: String(count || 0) }, hidden: !count ? true : null, "aria-live": "polite" }, count ? String(count) : "");
  if (count) badge.title = tn("{n} game waits on you", "{n} games wait on you", count);
  return h("a", { href: "/games", class: "nav-link my-games-link", dataset: { testid: "my-games-link" } }, t("My games"), " ", badge);
}

/** The feed's connection (`/ws/me`): every message becomes a {@link ME_EVENT} event. */
export class MeSocket extends LiveSocket {
  url() {
    return "/ws/me";
  }

  onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "waiting" && Number.isInteger(msg.count)) {
      count = msg.count;
      drawBadges();
    }
    window.dispatchEvent(new CustomEvent(ME_EVENT, { detail: msg }));
  }

  resynced() {
    // on a reconnection the server sends the count at once: nothing to fetch
  }

  fatal(ev) {
    return ev.code === 4401 ? "not logged in" : null;
  }
}

let socket = null;
let started = false;
let playerId;

/** Open the feed for the logged-in player (and follow log-ins and log-outs); once per page. */
export function startMeFeed() {
  if (started) return;
  started = true;
  onIdentityChange((player) => {
    const id = player ? player.id : null;
    if (id === playerId) return;
    playerId = id;
    if (socket) socket.close();
    socket = null;
    count = null;
    drawBadges();
    if (!id) return;
    socket = new MeSocket({});
    socket.connect();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && socket) socket.send({ type: "count" });
  });
  window.addEventListener(ME_EVENT, (ev) => {
    if (ev.detail && ev.detail.type === "invite") showInvite(ev.detail);
  });
}

/** A table in words for an invitation: `Splendor Duel`, `Splendor, 3 players`. */
function tableWords(table) {
  const name = GAME_NAMES[table.game] || table.game || "Splendor";
  return table.game === "duel" || !table.num_players ? name : tn("{game}, {n} player", "{game}, {n} players", table.num_players, { game: name });
}

/** The toast of an invitation, with a link to the table (closes by itself after a minute). */
export function showInvite(msg) {
  if (typeof msg.url !== "string" || !msg.url.startsWith("/tables/")) return;
  let box = document.querySelector(".toasts");
  if (!box) {
    box = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const from = msg.from && typeof msg.from.name === "string" ? msg.from.name : "?";
  const link = h("a", { href: msg.url, dataset: { testid: "invite-toast-link" } }, t("Join the table"));
  const toast = h("div", { class: "toast", dataset: { testid: "invite-toast" } },
    h("span", {}, nodes(t("{name} invites you to a table: {table}"), { name: h("bdi", {}, from), table: tableWords(msg.table || {}) })),
    " ", link, " ",
    h("button", { type: "button", class: "link", "aria-label": t("close"), onclick: () => toast.remove() }, "✕"));
  box.append(toast);
  setTimeout(() => toast.remove(), 60000);
}
