/**
 * Tournaments: the list and the create form (`/tournaments`), and one tournament
 * (`/tournaments/{id}`): its settings, join / leave / start, a countdown to its start (an
 * arena: to its end), the players, the live standings (Swiss: points, Buchholz,
 * Sonneborn–Berger; groups: points by placement; arena: points with the streak's bonus)
 * and the rounds with links to their games. The page follows `WS /ws/tournaments/{id}`
 * (reconnecting with backoff). Names are shown as text only.
 * @module tournaments
 */

import * as api from "./api.js";
import { N_, language, t, tn } from "./i18n.js";
import { currentPlayer, onIdentityChange, whenIdentityKnown } from "./identity.js";
import { GAME_NAMES, h, replaceChildren } from "./util.js";

const FORMATS = { swiss: N_("Swiss"), groups: N_("groups by rating"), arena: N_("arena") };
const OUTCOMES = { win: N_("win"), draw: N_("draw"), loss: N_("loss") };
const STATUSES = {
  registering: N_("registering"), running: N_("running"), finished: N_("finished"), cancelled: N_("cancelled"),
};

/** A tournament's game in words: "Splendor Duel", "Splendor, 4 players". */
function gameLabel(x) {
  const name = GAME_NAMES[x.game] || x.game;
  return x.game === "duel" ? name : tn("{game}, {n} player", "{game}, {n} players", x.num_players, { game: name });
}

/** A clock in words (none, "5 min + 5 s", "1 day a move"). */
export function clockLabel(clock) {
  if (!clock) return t("no clock");
  if (clock.kind === "turn") {
    const s = clock.per_move;
    return s % 86400 === 0 ? tn("{n} day a move", "{n} days a move", s / 86400) : tn("{n} hour a move", "{n} hours a move", Math.max(1, Math.round(s / 3600)));
  }
  return t("{base} min + {inc} s", { base: Math.round(clock.base / 60), inc: clock.increment });
}

/** A number of points for display (½ for halves). */
function points(x) {
  if (typeof x !== "number") return "?";
  const whole = Math.floor(x);
  const rest = x - whole;
  if (Math.abs(rest - 0.5) < 1e-9) return whole ? `${whole}½` : "½";
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

/** Seconds as "2 d 3 h", "5 min 3 s". */
function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60), ss = s % 60;
  if (d) return `${d} d ${hh} h`;
  if (hh) return `${hh} h ${m} min`;
  return `${m} min ${ss} s`;
}

/** Controller of `/tournaments`: the list and the create form. */
export class TournamentsPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.list = null;
    this.error = "";
  }

  async start() {
    this.root.dataset.testid = "tournaments-root";
    onIdentityChange(() => this.render());
    await this.load();
  }

  async load() {
    try {
      this.list = (await api.request("GET", "/api/tournaments")).tournaments;
      this.error = "";
    } catch (e) {
      this.error = t("cannot load the tournaments: {error}", { error: e.message });
    }
    this.render();
  }

  render() {
    this.root.dataset.state = this.list ? "ready" : "loading";
    replaceChildren(this.root,
      h("h1", {}, t("Tournaments")),
      this.error ? h("p", { class: "form-error", role: "alert" }, this.error) : null,
      this.table(),
      currentPlayer() ? this.form() : h("p", { class: "dim" }, t("Play as a guest or log in to create or join a tournament.")),
      h("p", {}, h("a", { href: "/" }, t("← lobby"))));
  }

  table() {
    if (!this.list) return h("p", { class: "loading" }, t("loading…"));
    if (!this.list.length) return h("p", { class: "dim", dataset: { testid: "tournaments-empty" } }, t("No tournaments yet."));
    const rows = this.list.map((x) => h("tr", { dataset: { testid: "tournament-row", id: x.id, status: x.status } },
      h("td", {}, h("a", { href: `/tournaments/${encodeURIComponent(x.id)}` }, h("bdi", {}, x.name))),
      h("td", {}, gameLabel(x)),
      h("td", {}, t(FORMATS[x.format] || x.format), x.rated ? ` · ${t("rated")}` : ""),
      h("td", {}, clockLabel(x.clock)),
      h("td", {}, x.max_players ? `${x.entrants}/${x.max_players}` : String(x.entrants)),
      h("td", {}, t(STATUSES[x.status] || x.status)),
      h("td", {}, x.starts_at ? new Date(x.starts_at).toLocaleString(language()) : t("when full"))));
    return h("table", { class: "ratings tournaments-table" },
      h("thead", {}, h("tr", {}, [t("name"), t("game"), t("format"), t("clock"), t("players"), t("status"), t("start")].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows));
  }

  /** The create form (the server checks everything again). */
  form() {
    const field = (label, input) => h("label", { class: "t-field" }, h("span", {}, label), input);
    const num = (name, value, min, max) => h("input", { type: "number", name, value, min, max, dataset: { testid: `t-${name}` } });
    const select = (name, options, value) => h("select", { name, dataset: { testid: `t-${name}` } },
      options.map(([v, label]) => h("option", { value: v, selected: v === value ? true : null }, label)));
    const error = h("p", { class: "form-error", role: "alert", dataset: { testid: "t-error" } });
    const form = h("form", { class: "tournament-form", dataset: { testid: "tournament-create" } },
      h("h2", {}, t("Create a tournament")),
      field(t("name"), h("input", { name: "name", required: true, maxlength: 64, dataset: { testid: "t-name" } })),
      field(t("game"), select("game", [["duel", "Splendor Duel"], ["splendor", "Splendor"]], "duel")),
      field(t("players a game"), num("num_players", 2, 2, 4)),
      field(t("format"), select("format", Object.entries(FORMATS).map(([k, v]) => [k, t(v)]), "swiss")),
      field(t("rounds (Swiss, groups)"), num("rounds", 5, 1, 30)),
      field(t("arena length (minutes)"), num("duration", 60, 1, 20160)),
      field(t("clock"), select("clock", [["none", t("no clock")], ["realtime", t("real time")], ["turn", t("turn-based")]], "realtime")),
      field(t("minutes (real time) or hours a move"), num("clock_amount", 5, 1, 336)),
      field(t("most players (starts when full)"), num("max_players", 8, 2, 1000)),
      field(t("start at (optional)"), h("input", { type: "datetime-local", name: "starts_at", dataset: { testid: "t-starts_at" } })),
      h("label", { class: "t-field" }, h("input", { type: "checkbox", name: "rated", dataset: { testid: "t-rated" } }), " ", t("rated (accounts only)")),
      h("button", { type: "submit", dataset: { testid: "t-create" } }, t("Create")),
      error);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const made = await api.request("POST", "/api/tournaments", this.body(new FormData(form)));
        location.assign(`/tournaments/${encodeURIComponent(made.id)}`);
      } catch (e) {
        error.textContent = e.message;
      }
    });
    return form;
  }

  /** The request body of the form's values. */
  body(f) {
    const n = (k) => Number(f.get(k));
    const body = { name: String(f.get("name") || ""), game: f.get("game"), num_players: f.get("game") === "duel" ? 2 : n("num_players"), format: f.get("format"), rated: f.get("rated") === "on" };
    if (body.format === "arena") body.duration = n("duration") * 60;
    else body.rounds = n("rounds");
    const amount = n("clock_amount");
    if (f.get("clock") === "realtime") body.clock = { kind: "realtime", base: amount * 60, increment: 5 };
    else if (f.get("clock") === "turn") body.clock = { kind: "turn", per_move: amount * 3600 };
    else body.clock = null;
    if (f.get("max_players")) body.max_players = n("max_players");
    if (f.get("starts_at")) body.starts_at = new Date(String(f.get("starts_at"))).toISOString();
    return body;
  }
}

/** Controller of `/tournaments/{id}`. */
export class TournamentPage {
  /** @param {HTMLElement} root @param {string} id */
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.data = null;
    this.error = "";
    this.skew = 0; // the server's clock minus ours (ms)
    this.ws = null;
    this.retry = 500;
  }

  async start() {
    this.root.dataset.testid = "tournament-root";
    onIdentityChange(() => this.render());
    await whenIdentityKnown();
    try {
      this.show(await api.request("GET", `/api/tournaments/${encodeURIComponent(this.id)}`));
    } catch (e) {
      this.root.dataset.state = "error";
      replaceChildren(this.root, h("div", { class: "fatal", dataset: { testid: "fatal" } },
        e.status === 404 ? t("no such tournament") : e.message, " · ", h("a", { href: "/tournaments" }, t("tournaments"))));
      return;
    }
    this.connect();
    this.timer = setInterval(() => this.tick(), 1000);
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tournaments/${encodeURIComponent(this.id)}`);
    this.ws = ws;
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "tournament") {
        this.retry = 500;
        this.show(m.tournament);
      }
    };
    ws.onclose = (ev) => {
      if (ev.code === 4404) return;
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 15000);
    };
  }

  /** Show `data`, unless it is older than what is shown (an action's answer can arrive
   * after a newer state pushed by the WebSocket): each carries the server's `now`. */
  show(data) {
    if (this.data && this.data.now && data.now && new Date(data.now) < new Date(this.data.now)) return;
    this.data = data;
    if (data.now) this.skew = new Date(data.now).getTime() - Date.now();
    this.render();
  }

  async act(verb) {
    try {
      this.show(await api.request("POST", `/api/tournaments/${encodeURIComponent(this.id)}/${verb}`));
      this.error = "";
    } catch (e) {
      this.error = e.message;
    }
    this.render();
  }

  /** The countdown's text: to the start, or (a running arena) to its end. */
  countdown() {
    const d = this.data;
    const now = Date.now() + this.skew;
    if (d.status === "registering" && d.starts_at) return t("starts in {time}", { time: duration((new Date(d.starts_at) - now) / 1000) });
    if (d.status === "registering") return t("starts when {n} players have joined", { n: d.max_players });
    if (d.status === "running" && d.format === "arena" && d.ends_at) {
      const left = (new Date(d.ends_at) - now) / 1000;
      return left > 0 ? t("ends in {time}", { time: duration(left) }) : t("ending: the last games are being played");
    }
    if (d.status === "running") return t("round {round} of {rounds}", { round: d.current_round, rounds: d.rounds });
    return "";
  }

  tick() {
    const el = this.root.querySelector("[data-testid=t-countdown]");
    if (el && this.data) el.textContent = this.countdown();
  }

  render() {
    const d = this.data;
    if (!d) return;
    const me = currentPlayer();
    const mine = me ? d.players.find((p) => p.id === me.id) : null;
    const entered = mine && !mine.withdrawn;
    const open = d.status === "registering" || (d.status === "running" && d.format === "arena");
    this.root.dataset.state = "ready";
    this.root.dataset.status = d.status;
    this.root.dataset.round = d.current_round;
    document.title = `${d.name} · Splendor`;
    replaceChildren(this.root,
      h("header", { class: "tournament-header" },
        h("h1", { dataset: { testid: "t-title" } }, h("bdi", {}, d.name)),
        h("span", { class: `badge ${d.status}`, dataset: { testid: "t-status" } }, t(STATUSES[d.status] || d.status))),
      h("p", { class: "dim" }, [gameLabel(d), t(FORMATS[d.format] || d.format), clockLabel(d.clock), d.rated ? t("rated") : t("casual")].join(" · ")),
      h("p", { class: "t-countdown", dataset: { testid: "t-countdown" } }, this.countdown()),
      h("div", { class: "t-actions" },
        me && open && !entered ? h("button", { type: "button", dataset: { testid: "t-join" }, onclick: () => this.act("join") }, d.status === "running" ? t("Join the arena") : t("Join")) : null,
        me && entered && open ? h("button", { type: "button", dataset: { testid: "t-leave" }, onclick: () => this.act("leave") }, d.format === "arena" && d.status === "running" ? t("Pause") : t("Withdraw")) : null,
        me && me.id === d.created_by && d.status === "registering" ? h("button", { type: "button", dataset: { testid: "t-start" }, onclick: () => this.act("start") }, t("Start now")) : null,
        h("span", { class: "form-error", role: "alert", dataset: { testid: "t-action-error" } }, this.error)),
      h("section", { dataset: { testid: "t-standings" } }, h("h2", {}, t("Standings")), this.standings(d)),
      h("section", { dataset: { testid: "t-rounds" } }, h("h2", {}, d.format === "arena" ? t("Games") : t("Rounds")), this.rounds(d)),
      h("p", {}, h("a", { href: "/tournaments" }, t("← tournaments"))));
  }

  standings(d) {
    if (!d.standings.length) return h("p", { class: "dim" }, t("Nobody has joined yet."));
    const me = currentPlayer();
    const cols = [["#"], [t("player")], [t("points")]];
    if (d.format === "swiss") cols.push([t("Buchholz")], [t("Sonneborn–Berger")], [t("W–D–L")]);
    else if (d.format === "groups") cols.push([t("first places")], [t("games")]);
    else cols.push([t("streak")], [t("bonus")], [t("games")]);
    const rows = d.standings.map((s) => {
      const cells = [
        h("td", { dataset: { testid: "st-rank" } }, String(s.rank)),
        h("td", {}, h("a", { href: `/players/${encodeURIComponent(s.player_id)}` }, h("bdi", {}, s.name)),
          s.account ? null : h("span", { class: "badge guest" }, t("guest")),
          s.withdrawn ? h("span", { class: "dim" }, " ", d.format === "arena" ? t("(paused)") : t("(withdrawn)")) : null),
        h("td", { dataset: { testid: "st-score" } }, points(s.score)),
      ];
      if (d.format === "swiss") {
        cells.push(h("td", { dataset: { testid: "st-buchholz" } }, points(s.buchholz)),
          h("td", { dataset: { testid: "st-sb" } }, points(s.sonneborn_berger)),
          h("td", {}, `${s.wins}–${s.draws}–${s.losses}`));
      } else if (d.format === "groups") {
        cells.push(h("td", {}, String(s.wins)), h("td", {}, String(s.games)));
      } else {
        cells.push(h("td", { dataset: { testid: "st-streak" } }, String(s.streak), s.fire ? h("span", { class: "fire", title: t("on fire: the next game scores double"), dataset: { testid: "st-fire" } }, " 🔥") : null),
          h("td", { dataset: { testid: "st-bonus" } }, s.bonus ? `+${s.bonus}` : "0"),
          h("td", {}, String(s.games)));
      }
      return h("tr", { class: me && me.id === s.player_id ? "mine" : "", dataset: { testid: "standing-row", playerId: s.player_id, rank: s.rank } }, cells);
    });
    return h("table", { class: "ratings standings" },
      h("thead", {}, h("tr", {}, cols.map(([c]) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows));
  }

  rounds(d) {
    if (!d.pairings.length) return h("p", { class: "dim" }, t("Not paired yet."));
    const names = new Map(d.players.map((p) => [p.id, p.name]));
    return h("ol", { class: "t-rounds", reversed: true }, [...d.pairings].reverse().map((r) => h("li", { dataset: { testid: "t-round", round: r.round } },
      d.format === "arena" ? null : h("strong", {}, t("Round {n}", { n: r.round })),
      h("ul", {}, r.tables.map((x) => {
        const who = x.players.map((id, seat) => {
          const pts = x.result && Array.isArray(x.result.points) ? ` (${points(x.result.points[seat])})` : "";
          const out = x.result && Array.isArray(x.result.outcomes) ? ` (${t(OUTCOMES[x.result.outcomes[seat]] || "?")})` : "";
          return `${names.get(id) || "?"}${pts || out}`;
        }).join(" – ");
        if (!x.game_id) return h("li", { dataset: { testid: "t-bye" } }, who, " · ", x.result && x.result.void ? t("not played") : t("bye"));
        return h("li", { dataset: { testid: "t-game", gameId: x.game_id, over: String(!!x.result) } },
          h("a", { href: `/games/${encodeURIComponent(x.game_id)}` }, h("bdi", {}, who)),
          x.result ? null : h("span", { class: "dim" }, " · ", t("playing")));
      })))));
  }
}

/**
 * The tournaments section of a player page: the tournaments they entered with their place
 * and points (`GET /api/players/{id}/tournaments`).
 * @param {string} playerId
 * @returns {HTMLElement}
 */
export function playerTournaments(playerId) {
  const box = h("section", { class: "player-games", dataset: { testid: "player-tournaments" } }, h("h2", {}, t("Tournaments")), h("p", { class: "loading" }, t("loading…")));
  api.request("GET", `/api/players/${encodeURIComponent(playerId)}/tournaments`).then((data) => {
    const list = data.tournaments || [];
    replaceChildren(box, h("h2", {}, t("Tournaments")), list.length
      ? h("ul", { class: "game-list" }, list.map((x) => h("li", { dataset: { testid: "player-tournament", id: x.id, place: x.place ?? "" } },
        h("a", { href: `/tournaments/${encodeURIComponent(x.id)}` }, h("bdi", {}, x.name)),
        " · ", x.place ? t("place {place} of {n}", { place: x.place, n: x.entrants }) : t(STATUSES[x.status] || x.status),
        " · ", tn("{n} point", "{n} points", x.score, { n: points(x.score) }))))
      : h("p", { class: "dim" }, t("No tournaments yet.")));
  }).catch((e) => replaceChildren(box, h("h2", {}, t("Tournaments")), h("p", { class: "form-error" }, e.message)));
  return box;
}
