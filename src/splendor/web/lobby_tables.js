/**
 * The public lobby, the first part of the lobby page: "Play now" (quick pairing), "Open a
 * table" (game, players, clock, rated, visibility, bot seats; an invitation table's link
 * to copy) and the open tables, live from `/ws/lobby` (each with its host's rating, filtered
 * by {@link module:lobby_filter}), each with Join or Leave. When the
 * game of the player's table starts, the page goes to it (`/games/{id}`: the session
 * cookie holds the seat). Nobody logged in: the tables show, and the buttons point at
 * the identity bar first. Also the pieces the table page shares (clock labels, seats,
 * invitation links, the login hint).
 * @module lobby_tables
 */

import * as api from "./api.js";
import { botBadge, guestBadge } from "./badges.js";
import { nodes, t, tn } from "./i18n.js";
import { focusKey, restoreFocus } from "./keyboard.js";
import { currentPlayer, onIdentityChange, whenIdentityKnown } from "./identity.js";
import { LobbyFilter } from "./lobby_filter.js";
import { inviteFor, saveInvite } from "./storage.js";
import { GAME_NAMES, botHelp, botName, h, replaceChildren } from "./util.js";

/** The clocks offered (the server takes others too; {@link clockLabel} names any). */
export const CLOCK_PRESETS = [
  { id: "none", clock: null },
  { id: "5+15", clock: { kind: "realtime", base: 300, increment: 15 } },
  { id: "15+30", clock: { kind: "realtime", base: 900, increment: 30 } },
  { id: "1d", clock: { kind: "turn", per_move: 86400 } },
];

/**
 * A number of seconds in words: `30 s`, `5 min`, `1 h 30 min`, `2 days` (seconds and
 * minutes are the same in every language; hours and days are words of the reader's).
 */
export function duration(s) {
  if (s % 86400 === 0 && s >= 86400) return tn("{n} day", "{n} days", s / 86400);
  if (s % 3600 === 0 && s >= 3600) return t("{n} h", { n: s / 3600 });
  if (s >= 3600) return t("{h} h {min} min", { h: Math.floor(s / 3600), min: Math.round((s % 3600) / 60) });
  if (s % 60 === 0 && s >= 60) return `${s / 60} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** A clock in words: `no clock`, `5 min + 15 s`, `1 day a move`. */
export function clockLabel(clock) {
  if (!clock) return t("no clock");
  if (clock.kind === "realtime") return clock.increment ? `${duration(clock.base)} + ${duration(clock.increment)}` : duration(clock.base);
  if (clock.kind === "turn") return t("{time} a move", { time: duration(clock.per_move) });
  return t("clock");
}

/** `Splendor Duel`, `Splendor, 3 players`. */
export function tableTitle(table) {
  const name = GAME_NAMES[table.game] || table.game;
  return table.game === "duel" ? name : tn("{game}, {n} player", "{game}, {n} players", table.num_players, { game: name });
}

/** The seat the player holds at a table, or null. */
export function mySeat(t, player) {
  if (!player) return null;
  const s = (t.seats || []).find((x) => x.player_id === player.id);
  return s ? s.seat : null;
}

/** The seats of a table: names (text, links to their pages), bots and free seats. */
export function seatsView(table, player) {
  return h("span", { class: "table-seats", dataset: { testid: "table-seats" } }, (table.seats || []).map((s) => {
    let body;
    let kind;
    if (s.player_id) {
      kind = "player";
      const you = player && s.player_id === player.id;
      body = [
        h("a", { href: `/players/${encodeURIComponent(s.player_id)}`, class: "seat-name" }, h("bdi", {}, s.name || "?")),
        s.guest ? [" ", guestBadge()] : null,
        you ? h("span", { class: "dim" }, " ", t("(you)")) : null,
        s.player_id === table.host ? h("span", { class: "host-mark", title: t("opened this table") }, " ★") : null,
      ];
    } else if (s.bot) {
      kind = "bot";
      body = [t("{bot} bot", { bot: botName(s.bot) }), " ", botBadge()];
    } else {
      kind = "free";
      body = t("free seat");
    }
    return h("span", { class: `table-seat ${kind}`, dataset: { testid: "table-seat", kind, seat: s.seat } }, body);
  }));
}

/** A table's host rating (`1500?` while provisional), or "" when not known. */
export function hostRating(table) {
  const r = table.host_rating;
  if (!r || typeof r.value !== "number") return "";
  return h("span", { class: r.provisional ? "rating provisional" : "rating", title: r.provisional ? t("provisional: too few rated games") : null }, `${r.value}${r.provisional ? "?" : ""}`);
}

/** The invitation link of a table. */
export function inviteUrl(tableId, code) {
  return `${location.origin}/tables/${encodeURIComponent(tableId)}#code=${encodeURIComponent(code)}`;
}

/** A read-only field with an invitation link and its copy button. */
export function inviteBox(url) {
  const input = h("input", { type: "text", readonly: true, value: url, class: "invite", "aria-label": t("invitation link"), dataset: { testid: "invite-link" } });
  return h("span", { class: "invite-box" }, input,
    h("button", { type: "button", dataset: { testid: "invite-copy" }, onclick: async (ev) => {
      const button = ev.currentTarget;
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        input.select();
        if (document.execCommand) document.execCommand("copy");
      }
      button.textContent = t("copied");
    } }, t("copy")));
}

/** The hint shown when nobody is logged in: play as a guest (or log in) first. */
export function loginHint() {
  const guest = h("button", { type: "button", class: "link-button", dataset: { testid: "hint-guest" }, onclick: () => focusGuestName() }, t("play as a guest"));
  return h("p", { class: "login-hint", role: "note", dataset: { testid: "lobby-login-hint" } },
    nodes(t("To play, first choose a name in the bar at the top ({guest}) or log in. Meanwhile you can look at the tables."), { guest }));
}

/** Point at the identity bar's guest form (the bar shows it when nobody is logged in). */
export function focusGuestName() {
  const toggle = document.querySelector("[data-testid=show-guest]");
  if (toggle && toggle.getAttribute("aria-pressed") !== "true") toggle.click();
  const input = document.querySelector("[data-testid=guest-name]");
  if (input) input.focus();
}

/** Go to the page of a started game (the session holds the seat). */
export function goToGame(gameId) {
  location.assign(`/games/${encodeURIComponent(gameId)}`);
}

/** A `<select>` of options `[[value, label, title?], …]` (a title explains its option). */
function select(testid, options, value, onchange, attrs = {}) {
  return h("select", { ...attrs, dataset: { testid }, onchange: (ev) => onchange(ev.target.value) },
    options.map(([v, label, title]) => h("option", { value: v, title: title || null, selected: String(v) === String(value) ? true : null }, label)));
}

const field = (label, control) => h("label", { class: "field" }, h("span", { class: "field-label" }, label), control);

/** Controller of the public lobby (a part of the lobby page). */
export class PublicLobby {
  /**
   * @param {HTMLElement} root the section to draw in
   * @param {Object} meta `GET /api/meta`
   */
  constructor(root, meta) {
    this.root = root;
    this.meta = meta;
    this.bots = meta.bots || [];
    /** The open tables (null until the first answer). */
    this.tables = null;
    this.player = currentPlayer();
    this.quick = { game: "splendor", numPlayers: 2, clock: "none" };
    this.open = { game: "splendor", numPlayers: 2, clock: "none", rated: true, visibility: "open", seats: ["free"] };
    /** Open tables the player sits at: a started one is followed to its game. */
    this.mine = new Set();
    /** The player id the lobby socket was opened as (undefined: not known then). */
    this.socketAs = undefined;
    this.leaving = false;
    this.socket = null;
    this.busy = false;
    /** Lobby messages received (the list's `data-updates`). */
    this.updates = 0;
  }

  start() {
    this.player = currentPlayer();
    this.root.dataset.testid = "public-lobby";
    this.els = {
      hint: h("div", { class: "hint-slot" }),
      quick: h("section", { class: "quick", dataset: { testid: "play-now-form" } }),
      open: h("section", { class: "open-table", dataset: { testid: "open-table-form" } }),
      list: h("section", { class: "tables-list" }),
    };
    replaceChildren(this.root,
      this.els.hint,
      h("div", { class: "lobby-layout" }, this.els.quick, this.els.open),
      this.els.list);
    this.renderHint();
    this.renderQuick();
    this.renderOpen();
    this.renderList();
    onIdentityChange((p) => this.identityChanged(p));
    this.socket = new api.LobbySocket({
      onLobby: (tables) => this.onLobby(tables),
      onStarted: (msg) => this.go(msg.game_id),
      onStatus: (s) => {
        this.connection = s;
        this.drawConnection(this.els.connection);
      },
    });
    this.socketAs = this.player === undefined ? undefined : (this.player ? this.player.id : null);
    this.socket.connect();
  }

  /** Log-in, log-out, or the first answer of who plays here. */
  identityChanged(player) {
    const id = player ? player.id : null;
    this.player = player;
    // the server reads the session when the lobby socket opens: a new player, a new socket
    if (this.socketAs === undefined) this.socketAs = id;
    else if (this.socketAs !== id) {
      this.socketAs = id;
      this.mine.clear();
      if (this.socket) this.socket.reconnect();
    }
    this.renderHint();
    this.renderList();
    if (this.els && this.els.open) this.renderOpen(); // rated or casual: an account's choice
    if (this.els && this.els.quick) this.renderQuick();
    if (!player) this.setStatus("");
  }

  /** Go to a started game of the player's (once). */
  go(gameId) {
    if (this.leaving || !gameId) return;
    this.leaving = true;
    if (this.socket) this.socket.close();
    goToGame(gameId);
  }

  /**
   * Nobody logged in: show (and, on a click, underline) the hint. Resolves to whether so
   * (waits for the identity bar's first answer when it is still on its way).
   */
  async needsPlayer(flash = false) {
    if (this.player === undefined) this.player = await whenIdentityKnown();
    if (this.player) return false;
    this.renderHint();
    const hint = this.root.querySelector("[data-testid=lobby-login-hint]");
    if (flash && hint) {
      hint.classList.remove("flash");
      void hint.offsetWidth; // restart the animation
      hint.classList.add("flash");
      focusGuestName();
    }
    return true;
  }

  renderHint() {
    replaceChildren(this.els.hint, this.player === null ? loginHint() : null);
  }

  // ------------------------------------------------------------------ forms

  /** The game, players and clock fields of a form whose values are in `st`. */
  commonFields(prefix, st, redraw) {
    const info = this.meta.games[st.game] || { min_players: 2, max_players: 2 };
    const counts = [];
    for (let n = info.min_players; n <= info.max_players; n++) counts.push([n, tn("{n} player", "{n} players", n)]);
    return [
      field(t("game"), select(`${prefix}-game`, Object.keys(this.meta.games).map((g) => [g, GAME_NAMES[g] || g]), st.game, (v) => {
        st.game = v;
        const i = this.meta.games[v] || info;
        st.numPlayers = Math.min(Math.max(st.numPlayers, i.min_players), i.max_players);
        redraw();
      })),
      field(t("players"), select(`${prefix}-players`, counts, st.numPlayers, (v) => {
        st.numPlayers = Number(v);
        redraw();
      }, { disabled: counts.length < 2 ? true : null })),
      field(t("clock"), select(`${prefix}-clock`, CLOCK_PRESETS.map((c) => [c.id, clockLabel(c.clock)]), st.clock, (v) => { st.clock = v; })),
    ];
  }

  renderQuick() {
    const st = this.quick;
    const focused = focusKey(this.els.quick); // a select changed: the redrawn form keeps the focus
    replaceChildren(this.els.quick,
      h("h2", {}, t("Play now")),
      h("p", { class: "dim", dataset: { testid: "play-now-kind" } }, this.player && !this.player.account
        ? t("Joins a casual table waiting for players (rated games are for accounts), or opens one.")
        : t("Joins a rated table waiting for players like you, or opens one.")),
      h("div", { class: "form-fields" }, this.commonFields("play-now", st, () => this.renderQuick())),
      h("button", { type: "button", class: "primary", dataset: { testid: "play-now-submit" }, onclick: () => this.playNow() }, t("Play now")),
      h("p", { class: "form-status", role: "status", dataset: { testid: "play-now-status" } }, this.quickStatus || ""),
      h("p", { class: "form-error", role: "alert", dataset: { testid: "play-now-error" } }));
    if (focused) restoreFocus(this.els.quick, [focused]);
  }

  renderOpen() {
    const st = this.open;
    const others = st.numPlayers - 1;
    st.seats = Array.from({ length: others }, (_, i) => st.seats[i] || "free");
    const bots = st.seats.filter((s) => s !== "free");
    const guest = !!this.player && !this.player.account; // rated games are for accounts
    const focused = focusKey(this.els.open); // a select changed: the redrawn form keeps the focus
    const seatRows = st.seats.map((choice, i) => h("div", { class: "seat-row" },
      h("span", { class: "lbl" }, t("seat {seat}", { seat: i + 2 })),
      select(`open-table-seat-${i + 1}`, [["free", t("free, for a player")], ...this.bots.map((b) => [b, t("bot: {bot}", { bot: botName(b) }), botHelp(b)])], choice, (v) => {
        st.seats[i] = v;
        this.renderOpen();
      }, { "aria-label": t("seat {seat}", { seat: i + 2 }), title: botHelp(choice) || null, "aria-describedby": choice === "free" ? null : `open-table-bot-help-${i + 1}` }),
      // what the chosen bot does (greedy and easy side by side need it)
      choice === "free" ? null : h("span", { id: `open-table-bot-help-${i + 1}`, class: "bot-help dim small-text", dataset: { testid: `open-table-bot-help-${i + 1}` } }, botHelp(choice))));
    replaceChildren(this.els.open,
      h("h2", {}, t("Open a table")),
      h("div", { class: "form-fields" }, this.commonFields("open-table", st, () => this.renderOpen())),
      h("div", { class: "form-fields" },
        h("label", { class: "field", title: bots.length ? t("a game with a bot is never rated") : guest ? t("rated games are for accounts") : null },
          h("input", { type: "checkbox", checked: st.rated && !bots.length && !guest ? true : null, disabled: bots.length || guest ? true : null, dataset: { testid: "open-table-rated" }, onchange: (ev) => { st.rated = ev.target.checked; } }),
          h("span", {}, t("rated"))),
        field(t("who may join"), select("open-table-visibility", [["open", t("anyone (listed)")], ["invite", t("by invitation")]], st.visibility, (v) => { st.visibility = v; }))),
      h("div", { class: "seats" }, h("span", { class: "dim small-text" }, t("Other seats (bots take the last seats; a table with a bot is unrated):")), seatRows),
      h("button", { type: "button", class: "primary", dataset: { testid: "open-table-submit" }, onclick: () => this.openTable() }, t("Open the table")),
      h("p", { class: "form-error", role: "alert", dataset: { testid: "open-table-error" } }),
      h("div", { class: "opened", dataset: { testid: "open-table-created" } }, this.openedView || null));
    if (focused) restoreFocus(this.els.open, [focused]);
  }

  setStatus(text) {
    this.quickStatus = text;
    const el = this.root.querySelector("[data-testid=play-now-status]");
    if (el) el.textContent = text;
  }

  /** Disable the lobby's buttons while a request is on its way (no double submits). */
  setBusy(busy) {
    this.busy = busy;
    this.root.setAttribute("aria-busy", String(busy));
    for (const b of this.root.querySelectorAll("button[data-testid=play-now-submit], button[data-testid=open-table-submit], button[data-testid=join], button[data-testid=leave]")) b.disabled = busy;
  }

  /** Run one request of the player's with the buttons disabled; errors go to `errorEl`. */
  async send(errorTestid, fn) {
    if (this.busy) return null;
    const err = this.root.querySelector(`[data-testid=${errorTestid}]`);
    if (err) err.textContent = "";
    this.setBusy(true);
    try {
      return await fn();
    } catch (e) {
      if (err) err.textContent = e.message;
      return null;
    } finally {
      this.setBusy(false);
    }
  }

  async playNow() {
    if (await this.needsPlayer(true)) return;
    const st = this.quick;
    const clock = CLOCK_PRESETS.find((c) => c.id === st.clock).clock;
    const rated = !!(this.player && this.player.account); // a guest's Play now is casual
    const waiting = (this.tables || []).find((x) => mySeat(x, this.player) !== null && x.visibility === "open" && x.rated === rated
      && x.game === st.game && x.num_players === st.numPlayers && JSON.stringify(x.clock) === JSON.stringify(clock));
    if (waiting) {
      this.setStatus(t("You are waiting at such a table already: the game starts when its seats are taken."));
      return;
    }
    const table = await this.send("play-now-error", () => api.playNow(st.game, st.numPlayers, clock));
    if (!table) return;
    if (this.took(table)) return;
    this.setStatus(t("Waiting for players at your table ({table}, {clock}): the game starts when its seats are taken.", { table: tableTitle(table), clock: clockLabel(table.clock) }));
  }

  async openTable() {
    if (await this.needsPlayer(true)) return;
    const st = this.open;
    const bots = st.seats.filter((s) => s !== "free");
    const body = {
      game: st.game, num_players: st.numPlayers, bots, rated: st.rated && !bots.length && !!(this.player && this.player.account),
      visibility: st.visibility, clock: CLOCK_PRESETS.find((c) => c.id === st.clock).clock,
    };
    const table = await this.send("open-table-error", () => api.openTable(body));
    if (!table) return;
    if (table.invite_code) saveInvite(table.id, table.invite_code);
    if (this.took(table)) return;
    this.openedView = [
      h("p", {}, t("Your table is open ({table}, {clock}). The game starts when its seats are taken.", { table: tableTitle(table), clock: clockLabel(table.clock) })),
      table.invite_code
        ? h("p", {}, nodes(t("Send this invitation link to the players you invite (whoever has it can join): {link}"), { link: inviteBox(inviteUrl(table.id, table.invite_code)) }))
        : null,
    ];
    replaceChildren(this.root.querySelector("[data-testid=open-table-created]"), this.openedView);
  }

  /** A table the player opened or joined: follow it; a started one goes to its game. */
  took(table) {
    if (table.status === "started" && table.game_id) {
      this.go(table.game_id);
      return true;
    }
    this.mine.add(table.id);
    this.merge(table);
    return false;
  }

  /** Put a table answered by the server in the list (before the socket says so). */
  merge(table) {
    if (!this.tables) return;
    const i = this.tables.findIndex((t) => t.id === table.id);
    const listed = table.status === "open" && (table.visibility === "open" || mySeat(table, this.player) !== null);
    if (i >= 0 && listed) this.tables[i] = table;
    else if (i >= 0) this.tables.splice(i, 1);
    else if (listed) this.tables.push(table);
    this.renderList();
  }

  async join(row) {
    if (await this.needsPlayer(true)) return;
    const table = await this.send("lobby-error", () => api.joinTable(row.id));
    if (table) this.took(table);
  }

  async leave(row) {
    const table = await this.send("lobby-error", () => api.leaveTable(row.id));
    if (!table) return;
    this.mine.delete(row.id);
    this.setStatus("");
    this.merge(table);
  }

  // ------------------------------------------------------------------ the list

  /** A lobby message: the open tables. A table of the player's that left the list may
   * have started while the socket was away: ask the server. */
  onLobby(tables) {
    this.tables = tables;
    this.updates += 1;
    const seated = new Set(tables.filter((t) => mySeat(t, this.player) !== null).map((t) => t.id));
    for (const id of this.mine) {
      if (seated.has(id)) continue;
      this.mine.delete(id);
      api.getTable(id).then((x) => {
        if (x.status === "started" && x.game_id && mySeat(x, this.player) !== null) this.go(x.game_id);
      }).catch(() => {});
    }
    for (const id of seated) this.mine.add(id);
    if (!seated.size && this.quickStatus) this.setStatus("");
    this.renderList();
  }

  drawConnection(el) {
    const s = this.connection || "connecting";
    el.dataset.state = s;
    el.className = `connection${s === "open" ? " open" : ""}`;
    el.textContent = s === "open" ? t("live") : s === "closed" ? t("reconnecting…") : t("connecting…");
  }

  renderList() {
    if (!this.els.tablesBody) {
      this.els.connection = h("span", { dataset: { testid: "lobby-connection" } });
      this.els.tablesBody = h("div", { dataset: { testid: "lobby-tables" } });
      this.lobbyFilter = new LobbyFilter(this.meta, () => this.renderList());
      replaceChildren(this.els.list,
        h("div", { class: "list-header" }, h("h2", {}, t("Open tables")), this.els.connection),
        this.lobbyFilter.element(),
        h("p", { class: "form-error", role: "alert", dataset: { testid: "lobby-error" } }),
        this.els.tablesBody);
    }
    this.drawConnection(this.els.connection);
    const shown = (this.tables || []).filter((x) => mySeat(x, this.player) !== null || this.lobbyFilter.keeps(x));
    let body;
    if (this.tables === null) body = h("p", { class: "dim" }, t("loading…"));
    else if (!this.tables.length) body = h("p", { class: "dim", dataset: { testid: "tables-empty" } }, t("No open tables yet: open one, or press Play now."));
    else if (!shown.length) body = h("p", { class: "dim", dataset: { testid: "tables-filtered" } }, t("No open table matches your filters."));
    else {
      body = h("table", { class: "lobby-tables" },
        h("thead", {}, h("tr", {}, h("th", {}, t("game")), h("th", {}, t("seats")), h("th", { title: t("the rating of the player who opened the table") }, t("host's rating")), h("th", {}, t("clock")), h("th", {}, ""), h("th", {}, ""))),
        h("tbody", {}, shown.map((x) => this.row(x))));
    }
    this.els.tablesBody.dataset.updates = String(this.updates);
    replaceChildren(this.els.tablesBody, body);
    this.setBusy(this.busy);
  }

  row(table) {
    const seat = mySeat(table, this.player);
    const mine = seat !== null;
    const free = (table.seats || []).some((s) => s.free);
    const code = mine && table.visibility === "invite" ? inviteFor(table.id) : null;
    let action;
    if (mine) action = h("button", { type: "button", dataset: { testid: "leave" }, onclick: () => this.leave(table) }, t("Leave"));
    else if (free) action = h("button", { type: "button", class: "primary small", dataset: { testid: "join" }, onclick: () => this.join(table) }, t("Join"));
    else action = h("span", { class: "dim" }, t("full"));
    return h("tr", { dataset: { testid: "table-row", tableId: table.id, mine: String(mine), visibility: table.visibility }, class: mine ? "mine" : null },
      h("td", {}, h("a", { href: `/tables/${encodeURIComponent(table.id)}`, dataset: { testid: "table-link" } }, tableTitle(table)),
        table.visibility === "invite" ? h("span", { class: "badge invitation" }, t("by invitation")) : null,
        table.options && table.options.turn_cap ? h("span", { class: "dim" }, " · ", t("turn cap {n}", { n: table.options.turn_cap })) : null),
      h("td", {}, seatsView(table, this.player)),
      h("td", { dataset: { testid: "host-rating", label: t("host's rating") } }, hostRating(table)),
      h("td", { dataset: { testid: "table-clock" } }, clockLabel(table.clock)),
      h("td", { dataset: { testid: "table-rated" } }, h("span", { class: `badge ${table.rated ? "rated" : "unrated"}` }, table.rated ? t("rated") : t("unrated"))),
      h("td", { class: "actions" }, action, code ? inviteBox(inviteUrl(table.id, code)) : null));
  }
}
