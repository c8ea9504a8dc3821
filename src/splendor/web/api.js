/**
 * The server's REST API and the live WebSocket of one game (reconnect with backoff, resync).
 * @module api
 */

/** An error answered by the server: `status` and its `detail` message. */
export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * One JSON request. Throws {@link ApiError} on a non-2xx answer (with the server's detail).
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 */
export async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
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
    throw new ApiError(resp.status, detail);
  }
  return data;
}

let metaPromise = null;
/** `GET /api/meta` (cached): games, their tables, bot levels. */
export function getMeta() {
  if (!metaPromise) metaPromise = request("GET", "/api/meta").catch((e) => { metaPromise = null; throw e; });
  return metaPromise;
}

/** `POST /api/games`. */
export function createGame(game, seats, options = {}) {
  return request("POST", "/api/games", { game, seats, options });
}

/** `GET /api/games?token=...` for the given tokens. */
export function listGames(tokens) {
  const q = tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
  return request("GET", `/api/games${q ? "?" + q : ""}`);
}

/** `GET /api/games/{id}` (state message; token optional). */
export function getState(gameId, token) {
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  return request("GET", `/api/games/${encodeURIComponent(gameId)}${q}`);
}

/** `POST /api/games/{id}/actions`: play one decision; answers the new state message. */
export function postAction(gameId, token, action, move) {
  return request("POST", `/api/games/${encodeURIComponent(gameId)}/actions`, { token, action, move });
}

/** `POST /api/games/{id}/explain`: `{action, legal, reason}`. */
export function explain(gameId, token, action) {
  return request("POST", `/api/games/${encodeURIComponent(gameId)}/explain`, { token, action });
}

/** `GET /api/games/{id}/replay` (finished games). */
export function getReplay(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
}

/** URL of the downloadable record of a finished game. */
export function recordUrl(gameId) {
  return `/api/games/${encodeURIComponent(gameId)}/record`;
}

/**
 * The live connection to one game. Calls `onState(msg)` for every state message,
 * `onError(msg)` for error messages and `onStatus("open"|"closed"|"fatal", detail)`.
 * A dropped connection reconnects with exponential backoff (0.5 s up to 10 s); every
 * (re)connection gets a fresh state from the server (resync), and a REST fetch backs it up.
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
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    const ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}${q}`);
    this.ws = ws;
    ws.onopen = () => {
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
      if (msg.type === "state") this.handlers.onState(msg);
      else if (msg.type === "error" && this.handlers.onError) this.handlers.onError(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4403 || ev.code === 4404) {
        this.closed = true;
        this.status("fatal", ev.code === 4403 ? "this invite link's token is not valid" : "no such game");
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
