/**
 * The server's REST API and the live WebSockets of one game and of the lobby (reconnect
 * with backoff, resync).
 * @module api
 */

import { t } from "./i18n.js";

/**
 * An error answered by the server: `status` and its `detail` message (`retryAfter`: the
 * seconds of a 429's or 503's `Retry-After`, else null).
 */
export class ApiError extends Error {
  /** @param {number} status @param {string} message @param {number|null} [retryAfter] */
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/**
 * One JSON request. Throws {@link ApiError} on a non-2xx answer (with the server's detail).
 * Seat tokens travel in the `Authorization` header, never in the URL (the server refuses
 * `?token=`: URLs end up in logs). The player's session travels in its HTTP-only cookie
 * (`credentials: "same-origin"`).
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {{token?: string|null, headers?: Object<string, string>}} [opts] the seat token
 *   to send as `Authorization: Bearer <token>`, and other headers
 */
export async function request(method, path, body, opts = {}) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json", ...(opts.headers || {}) } };
  if (opts.token) init.headers.Authorization = `Bearer ${opts.token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, t("cannot reach the server ({error})", { error: e.message }));
  }
  const text = await resp.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!resp.ok) {
    let detail = data && data.detail !== undefined ? data.detail : resp.statusText;
    if (typeof detail !== "string") detail = JSON.stringify(detail);
    const retry = Number(resp.headers.get("Retry-After"));
    throw new ApiError(resp.status, detail, Number.isFinite(retry) && retry > 0 ? retry : null);
  }
  return data;
}

let metaPromise = null;
/** `GET /api/meta` (cached): games, their tables, bot levels. */
export function getMeta() {
  if (!metaPromise) metaPromise = request("GET", "/api/meta").catch((e) => { metaPromise = null; throw e; });
  return metaPromise;
}

/**
 * A random idempotency key (128 bits as 32 hex digits). `crypto.getRandomValues` works in
 * every context (`crypto.randomUUID` needs HTTPS or localhost).
 */
export function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * `POST /api/games`. With the same `idempotencyKey` and the same request, a retry (after
 * a lost answer) gets the same game and tokens instead of making another game.
 */
export function createGame(game, seats, options = {}, idempotencyKey = null) {
  const headers = idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {};
  return request("POST", "/api/games", { game, seats, options }, { headers });
}

/** `POST /api/games/mine`: the games the given seat tokens hold seats in. */
export function listGames(tokens) {
  return request("POST", "/api/games/mine", { tokens });
}

/** `GET /api/games/{id}` (state message; token optional: none is a spectator's view). */
export function getState(gameId, token) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}`, undefined, { token });
}

/**
 * `POST /api/games/{id}/actions`: play one decision; answers the new state message.
 * `move` (required) is the state's move number the player decided on: a request sent
 * twice plays once.
 */
export function postAction(gameId, token, action, move) {
  return request("POST", `/api/games/${encodeURIComponent(gameId)}/actions`, { action, move }, { token });
}

/** `POST /api/games/{id}/explain`: `{action, legal, reason}`. */
export function explain(gameId, token, action) {
  return request("POST", `/api/games/${encodeURIComponent(gameId)}/explain`, { action }, { token });
}

/** `POST /api/games/{id}/resign`: the seat (token, or the session's) resigns; answers the new state message. */
export function resign(gameId, token) {
  return request("POST", `/api/games/${encodeURIComponent(gameId)}/resign`, undefined, { token });
}

/** `GET /api/games/{id}/chat`: `{messages: [{seat, name, text, at}]}`, oldest first. */
export function getChat(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/chat`);
}

/**
 * `POST /api/games/{id}/chat` `{text}` (1 to 300 characters; seated players only, 403 for
 * a spectator): answers the message as stored, `{seat, name, text, at}`.
 */
export function postChat(gameId, token, text) {
  return request("POST", `/api/games/${encodeURIComponent(gameId)}/chat`, { text }, { token });
}

/** `GET /api/games/{id}/replay` (finished games). */
export function getReplay(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
}

/**
 * `GET /api/games/{id}/analysis`: the post-game analysis of a finished game, `{status,
 * data, error}` (`status` queued, running, done or failed; `data` the analysis so far;
 * `error` why it failed, in the reader's language); status `none` while nobody asked for one.
 */
export function getAnalysis(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/analysis`);
}

/**
 * `POST /api/games/{id}/analysis`: a seated player (the seat token, or the session) asks
 * for the analysis of the finished game; answers it as {@link getAnalysis} does (the
 * stored one, or one queued now). 403 not seated, 409 not over, 429 too many analyses.
 */
export function askAnalysis(gameId, token) {
  return request("POST", `/api/games/${encodeURIComponent(gameId)}/analysis`, undefined, { token });
}

/** URL of the downloadable record of a finished game. */
export function recordUrl(gameId) {
  return `/api/games/${encodeURIComponent(gameId)}/record`;
}

// ---------------------------------------------------------------- players
// Each answers `{player}` (null when logged out); the session is an HTTP-only cookie
// that the server sets and clears.

/** `GET /api/players/me`: `{player}` of this browser's session, or `{player: null}`. */
export function getMe() {
  return request("GET", "/api/players/me");
}

/** `POST /api/players/guest`: play as a new guest called `name` (logs in). */
export function playAsGuest(name) {
  return request("POST", "/api/players/guest", { name });
}

/**
 * `POST /api/players/signup`: make an account (the current guest becomes it, same id).
 * 409 the name is taken, 400 a bad name or password, 403 already an account.
 */
export function signUp(name, password) {
  return request("POST", "/api/players/signup", { name, password });
}

/** `POST /api/players/login`: 401 "wrong name or password". */
export function logIn(name, password) {
  return request("POST", "/api/players/login", { name, password });
}

/** `POST /api/players/logout`: ends the session. */
export function logOut() {
  return request("POST", "/api/players/logout");
}

/** `GET /api/players/{id}`: `{player, ratings, open_games, finished_games}`; 404 unknown. */
export function getPlayer(playerId) {
  return request("GET", `/api/players/${encodeURIComponent(playerId)}`);
}

/**
 * `GET /api/players/leaderboard/{kind}` (`splendor-2`, `splendor-multi`, `duel`): `{kind,
 * players: [{rank, player: {id, name, account}, rating, deviation, games, provisional}]}`.
 */
export function getLeaderboard(kind) {
  return request("GET", `/api/players/leaderboard/${encodeURIComponent(kind)}`);
}

// ---------------------------------------------------------------- lobby tables
// A table: {id, game, num_players, options, rated, visibility, clock, status, game_id,
// host, seats: [{seat, player_id, name, bot, free}], created_at}. Opening, joining,
// leaving and play-now need a session (401 otherwise).

/** `GET /api/tables`: `{tables}`, the open public tables and the caller's own. */
export function listTables() {
  return request("GET", "/api/tables");
}

/** `GET /api/tables/{id}`: one table (404 unknown). */
export function getTable(tableId) {
  return request("GET", `/api/tables/${encodeURIComponent(tableId)}`);
}

/**
 * `POST /api/tables`: open a table (the player sits at seat 0). `body`: `{game,
 * num_players, bots, rated, visibility, clock, options}`; the answer of an invitation
 * table carries its `invite_code`, this once.
 */
export function openTable(body) {
  return request("POST", "/api/tables", body);
}

/** `POST /api/tables/{id}/join` (`code`: an invitation table's code). */
export function joinTable(tableId, code = null) {
  return request("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, code ? { code } : {});
}

/** `POST /api/tables/{id}/leave` (before the game starts). */
export function leaveTable(tableId) {
  return request("POST", `/api/tables/${encodeURIComponent(tableId)}/leave`);
}

/**
 * `POST /api/games/{id}/rematch`: offer the rematch of a finished game (the first of its
 * players to ask opens the table) or accept it (the others ask too); answers the rematch
 * table (`status` "started" and its `game_id` once every person is back). Needs the
 * session of a player of that game (401 nobody, 403 another player, 409 not over yet).
 */
export function rematch(gameId) {
  return request("POST", `/api/games/${encodeURIComponent(gameId)}/rematch`);
}

/**
 * `GET /api/games/{id}/rematch`: `{table}`, the game's rematch table (open or started),
 * or `{table: null}` when nobody offered one.
 */
export function rematchTable(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/rematch`);
}

/** `POST /api/play-now` `{game, num_players, clock}`: the table joined or opened. */
export function playNow(game, numPlayers, clock) {
  return request("POST", "/api/play-now", { game, num_players: numPlayers, clock });
}

/**
 * Base class of the live connections: reconnects a dropped connection with exponential
 * backoff (0.5 s up to 10 s), calls `resynced()` on every reconnection (a REST fetch of
 * what may have been missed) and pings every 20 s. Subclasses give `url()` and
 * `onMessage(msg, ws)`, and may answer `fatal(ev)` (a close code that must not retry).
 */
export class LiveSocket {
  /** @param {{onStatus?: Function}} handlers */
  constructor(handlers) {
    this.handlers = handlers;
    this.ws = null;
    this.delay = 500;
    this.closed = false;
    this.timer = null;
    this.pingTimer = null;
  }

  /** Open the connection (again). */
  connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}${this.url()}`);
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.opened(ws);
      this.delay = 500;
      this.status("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return; // a connection replaced by a newer one
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg, ws);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      const why = this.fatal(ev);
      if (why) {
        this.closed = true;
        this.status("fatal", why);
        return;
      }
      if (this.closed) return;
      this.status("closed");
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.resync(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    };
  }

  /** Reconnect after a drop, fetching over REST meanwhile what may have been missed. */
  resync() {
    if (this.closed) return;
    this.resynced();
    this.connect();
  }

  /** Drop the connection and open a fresh one at once (no backoff). */
  reconnect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.delay = 500;
    this.connect();
  }

  /** Send a JSON message if the socket is open; returns whether it was sent. */
  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  status(s, detail) {
    if (this.handlers.onStatus) this.handlers.onStatus(s, detail);
  }

  /** Close for good (leaving the page). */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }

  // hooks
  url() { throw new Error("url() not given"); }
  opened(_ws) {}
  onMessage(_msg, _ws) {}
  resynced() {}
  fatal(_ev) { return null; }
}

/**
 * The live lobby (`/ws/lobby`): `onLobby(tables)` for the list at once and after every
 * change (and from `GET /api/tables` on every reconnection), `onStarted({table_id,
 * game_id})` when a game of the player's table starts, `onStatus("open"|"closed")`. The
 * server reads the session cookie when the connection opens: call `reconnect()` after a
 * log-in or log-out.
 */
export class LobbySocket extends LiveSocket {
  url() {
    return "/ws/lobby";
  }

  onMessage(msg) {
    if (msg.type === "lobby" && Array.isArray(msg.tables)) this.handlers.onLobby(msg.tables);
    else if (msg.type === "started" && msg.game_id && this.handlers.onStarted) this.handlers.onStarted(msg);
  }

  resynced() {
    listTables().then((r) => { if (!this.closed) this.handlers.onLobby(r.tables || []); }).catch(() => {});
  }
}

/**
 * The live connection to one game. Calls `onState(msg)` for every state message,
 * `onChat(message)` for every chat message of the table (`{seat, name, text, at}`),
 * `onRematch(table)` for every change of the game's rematch table (`{"type": "rematch"}`),
 * `onAnalysis(msg)` as the game's post-game analysis progresses (`{"type": "analysis",
 * game_id, status, done, total}`), `onError(msg)` for error messages and `onStatus("open"|"closed"|"fatal", detail)` (on
 * every "open" after a drop, fetch the chat again: messages may have been missed).
 * A seat's connection authenticates with its first message, `{"type": "auth", token}`
 * (never the URL). A dropped connection reconnects with exponential backoff (0.5 s up to
 * 10 s); every (re)connection gets a fresh state from the server (resync), and a REST
 * fetch backs it up.
 */
export class GameSocket extends LiveSocket {
  /**
   * @param {string} gameId
   * @param {string|null} token
   * @param {{onState: Function, onChat?: Function, onRematch?: Function, onAnalysis?: Function, onError?: Function, onStatus?: Function}} handlers
   */
  constructor(gameId, token, handlers) {
    super(handlers);
    this.gameId = gameId;
    this.token = token;
    this.seated = true;
  }

  url() {
    return `/ws/games/${encodeURIComponent(this.gameId)}`;
  }

  opened(ws) {
    // a seat's connection: the spectator's state sent before the auth is skipped
    this.seated = !this.token;
    if (this.token) ws.send(JSON.stringify({ type: "auth", token: this.token }));
  }

  onMessage(msg) {
    if (msg.type === "state") {
      if (!this.seated && (msg.seat === null || msg.seat === undefined)) return;
      this.seated = true;
      this.handlers.onState(msg);
    } else if (msg.type === "chat") {
      if (msg.message && typeof msg.message === "object" && this.handlers.onChat) this.handlers.onChat(msg.message);
    } else if (msg.type === "rematch") {
      if (msg.table && typeof msg.table === "object" && this.handlers.onRematch) this.handlers.onRematch(msg.table);
    } else if (msg.type === "analysis") {
      if (this.handlers.onAnalysis) this.handlers.onAnalysis(msg);
    } else if (msg.type === "error" && this.handlers.onError) this.handlers.onError(msg);
  }

  fatal(ev) {
    if (ev.code === 4400) return t("the server refused the connection");
    if (ev.code === 4403) return t("this invite link is not valid");
    if (ev.code === 4404) return t("no such game");
    return null;
  }

  resynced() {
    getState(this.gameId, this.token).then((msg) => this.handlers.onState(msg)).catch(() => {});
  }
}
