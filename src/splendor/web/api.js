/**
 * The server's REST API and the live WebSocket of one game (reconnect with backoff, resync).
 * @module api
 */

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
    throw new ApiError(0, `cannot reach the server (${e.message})`);
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

/** `GET /api/games/{id}/replay` (finished games). */
export function getReplay(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
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
 * The live connection to one game. Calls `onState(msg)` for every state message,
 * `onError(msg)` for error messages and `onStatus("open"|"closed"|"fatal", detail)`.
 * A seat's connection authenticates with its first message, `{"type": "auth", token}`
 * (never the URL). A dropped connection reconnects with exponential backoff (0.5 s up to
 * 10 s); every (re)connection gets a fresh state from the server (resync), and a REST
 * fetch backs it up.
 */
export class GameSocket {
  /**
   * @param {string} gameId
   * @param {string|null} token
   * @param {{onState: Function, onError?: Function, onStatus?: Function}} handlers
   */
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
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
    const ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}`);
    this.ws = ws;
    let seated = !this.token; // a seat's connection: the spectator's state sent before the auth is skipped
    ws.onopen = () => {
      if (this.token) ws.send(JSON.stringify({ type: "auth", token: this.token }));
      this.delay = 500;
      this.status("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "state") {
        if (!seated && (msg.seat === null || msg.seat === undefined)) return;
        seated = true;
        this.handlers.onState(msg);
      } else if (msg.type === "error" && this.handlers.onError) this.handlers.onError(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4400 || ev.code === 4403 || ev.code === 4404) {
        this.closed = true;
        const why = { 4400: ev.reason || "the server refused the connection", 4403: "this invite link's token is not valid", 4404: "no such game" };
        this.status("fatal", why[ev.code]);
        return;
      }
      if (this.closed) return;
      this.status("closed");
      this.timer = setTimeout(() => this.resync(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    };
  }

  /** Reconnect after a drop; fetch the state over REST meanwhile (resync). */
  resync() {
    if (this.closed) return;
    getState(this.gameId, this.token).then((msg) => this.handlers.onState(msg)).catch(() => {});
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
    if (this.ws) this.ws.close();
  }
}
