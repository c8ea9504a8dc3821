/**
 * The lobby page: first the public lobby ({@link module:lobby_tables}: play now, open a
 * table, the open tables live); then a private game with invite links: create a Splendor
 * or Splendor Duel game (each seat a person or a bot with its level), show an invite link
 * per person seat; and "Your games": every game of the logged-in player (as on "My games")
 * and those of the seat tokens remembered in localStorage.
 * @module lobby
 */

import * as api from "./api.js";
import { N_, t, tn } from "./i18n.js";
import { onIdentityChange, whenIdentityKnown } from "./identity.js";
import { PublicLobby } from "./lobby_tables.js";
import { ME_EVENT, myGames } from "./me_feed.js";
import { gameItem } from "./my_games.js";
import { resultText } from "./result.js";
import { saveSeat, savedSeats, forgetGame } from "./storage.js";
import { GAME_NAMES, botHelp, botName, h, replaceChildren, seatName } from "./util.js";

const BOT_LABELS = {
  random: N_("random (plays any legal move)"), greedy: N_("greedy (one-move heuristic)"), easy: N_("easy"),
  medium: N_("medium (search)"), hard: N_("hard (trained network)"),
  expert: N_("expert (trained network, thinks longer)"),
};

/** Controller of the lobby page. */
export class LobbyPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.game = "splendor";
    this.numPlayers = 2;
    this.seats = [];
    /** The idempotency key of the create request not answered yet, and that request. */
    this.pending = null;
  }

  async start() {
    try {
      this.meta = await api.getMeta();
    } catch (e) {
      replaceChildren(this.root, h("div", { class: "fatal", dataset: { testid: "fatal" } }, t("cannot reach the server: {error}", { error: e.message })));
      return;
    }
    this.bots = this.meta.bots || ["random", "greedy"];
    this.resetSeats();
    this.root.dataset.testid = "lobby-root";
    const lobbyRoot = h("div", { class: "public-lobby" });
    replaceChildren(this.root,
      h("header", { class: "lobby-header" }, h("h1", {}, "Splendor"), h("p", { class: "dim" }, t("Splendor (2–4 players) and Splendor Duel, against other players, bots or friends.")),
        h("p", { class: "howto-links", dataset: { testid: "howto-links" } }, h("span", { class: "lbl" }, t("How to play")),
          ["splendor", "duel"].map((g) => h("a", { href: `/howto/${g}`, dataset: { testid: `howto-link-${g}` } }, GAME_NAMES[g])))),
      lobbyRoot,
      h("h2", { class: "part-title" }, t("A private game with invite links")),
      h("p", { class: "dim" }, t("Each seat a person (who gets their own link) or a bot; no account needed, never rated.")),
      h("div", { class: "lobby-layout" },
        h("section", { class: "create", dataset: { testid: "create-form" } }, h("h2", {}, t("New game")), h("div", { class: "form-body" })),
        h("section", { class: "my-games" }, h("h2", {}, t("Your games")), h("div", { class: "games-body", dataset: { testid: "my-games" } }, t("loading…")))),
      h("section", { class: "created", dataset: { testid: "created" } }));
    this.publicLobby = new PublicLobby(lobbyRoot, this.meta);
    this.publicLobby.start();
    this.renderForm();
    this.loadGames();
  }

  /** Default seats: a person at seat 0, bots elsewhere. */
  resetSeats() {
    const max = this.game === "duel" ? 2 : this.numPlayers;
    const old = this.seats;
    this.seats = [];
    for (let i = 0; i < max; i++) {
      this.seats.push(old[i] || (i === 0 ? { type: "human", name: t("You") } : { type: "bot", bot: this.bots.includes("greedy") ? "greedy" : this.bots[0], name: t("Player {n}", { n: i + 1 }) }));
    }
  }

  renderForm() {
    const body = this.root.querySelector(".form-body");
    const info = this.meta.games[this.game] || { min_players: 2, max_players: 2 };
    const gameSel = h("select", { dataset: { testid: "game-select" }, name: "game", onchange: (ev) => {
      this.game = ev.target.value;
      if (this.game === "duel") this.numPlayers = 2;
      this.resetSeats();
      this.renderForm();
    } }, Object.keys(this.meta.games).map((g) => h("option", { value: g, selected: g === this.game ? true : null }, GAME_NAMES[g] || g)));
    const counts = [];
    for (let n = info.min_players; n <= info.max_players; n++) counts.push(n);
    const countSel = h("select", { dataset: { testid: "players-select" }, name: "players", "aria-label": t("players"), disabled: counts.length < 2 ? true : null, onchange: (ev) => {
      this.numPlayers = Number(ev.target.value);
      this.resetSeats();
      this.renderForm();
    } }, counts.map((n) => h("option", { value: n, selected: n === this.numPlayers ? true : null }, tn("{n} player", "{n} players", n))));
    const seatRows = this.seats.map((seat, i) => {
      const typeSel = h("select", { dataset: { testid: `seat-type-${i}` }, "aria-label": t("seat {seat}", { seat: i + 1 }), onchange: (ev) => {
        seat.type = ev.target.value;
        this.renderForm();
      } }, h("option", { value: "human", selected: seat.type === "human" ? true : null }, t("person")),
      h("option", { value: "bot", selected: seat.type === "bot" ? true : null }, t("bot")));
      const detail = seat.type === "human"
        ? h("input", { type: "text", value: seat.name || "", placeholder: t("Player {n}", { n: i + 1 }), "aria-label": t("name of seat {seat}", { seat: i + 1 }), dataset: { testid: `seat-name-${i}` }, oninput: (ev) => { seat.name = ev.target.value; } })
        : h("select", {
          "aria-label": t("bot of seat {seat}", { seat: i + 1 }), "aria-describedby": `seat-bot-help-${i}`, title: botHelp(seat.bot) || null,
          dataset: { testid: `seat-bot-${i}` },
          onchange: (ev) => {
            seat.bot = ev.target.value;
            ev.target.title = botHelp(seat.bot);
            const help = document.getElementById(`seat-bot-help-${i}`);
            if (help) help.textContent = botHelp(seat.bot);
          },
        }, this.bots.map((b) => h("option", { value: b, title: botHelp(b) || null, selected: b === seat.bot ? true : null }, BOT_LABELS[b] ? t(BOT_LABELS[b]) : botName(b))));
      // what the chosen bot does, under its select (greedy and easy side by side need it)
      const help = seat.type === "human" ? null : h("span", { id: `seat-bot-help-${i}`, class: "bot-help dim small-text", dataset: { testid: `seat-bot-help-${i}` } }, botHelp(seat.bot));
      return h("div", { class: "seat-row" }, h("span", { class: "lbl" }, t("seat {seat}", { seat: i + 1 })), typeSel, detail, help);
    });
    replaceChildren(body,
      h("label", {}, t("game"), " ", gameSel), " ", h("label", {}, countSel),
      h("div", { class: "seats" }, seatRows),
      h("button", { type: "button", class: "primary", dataset: { testid: "create-game" }, onclick: () => this.create() }, t("Create game")),
      h("p", { class: "form-error", dataset: { testid: "create-error" } }));
  }

  async create() {
    const seats = this.seats.map((s, i) => (s.type === "human" ? { type: "human", name: (s.name || "").trim() || t("Player {n}", { n: i + 1 }) } : { type: "bot", bot: s.bot }));
    const err = this.root.querySelector("[data-testid=create-error]");
    err.textContent = "";
    // a retry of the same request (its answer was lost) reuses the key: the server then
    // answers the game it made the first time instead of making another one
    const request = JSON.stringify([this.game, seats]);
    if (!this.pending || this.pending.request !== request) this.pending = { key: api.newIdempotencyKey(), request };
    let res;
    try {
      res = await api.createGame(this.game, seats, {}, this.pending.key);
    } catch (e) {
      if (e.status !== 0 && e.status < 500) this.pending = null; // refused: nothing was made
      err.textContent = e.message;
      return;
    }
    this.pending = null;
    for (const s of res.seats) {
      if (s.token) saveSeat({ game_id: res.game_id, token: s.token, seat: s.seat, game: res.game, name: s.name });
    }
    this.showCreated(res);
    this.loadGames();
  }

  /** After creating: the invite link of every person seat, with copy buttons. */
  showCreated(res) {
    const box = this.root.querySelector("[data-testid=created]");
    const origin = location.origin;
    const rows = res.seats.map((s) => {
      if (s.type !== "human") return h("li", {}, t("seat {seat}: {bot} bot", { seat: s.seat + 1, bot: botName(s.bot) }));
      const url = origin + s.invite;
      const input = h("input", { type: "text", readonly: true, value: url, class: "invite", dataset: { testid: `invite-${s.seat}` } });
      return h("li", {}, t("seat {seat}:", { seat: s.seat + 1 }), " ", h("bdi", {}, s.name), " ", input,
        h("button", { type: "button", dataset: { testid: `copy-${s.seat}` }, onclick: async (ev) => {
          try {
            await navigator.clipboard.writeText(url);
          } catch {
            input.select();
            document.execCommand && document.execCommand("copy");
          }
          ev.target.textContent = t("copied");
        } }, t("copy")),
        " ", h("a", { href: s.invite, dataset: { testid: `open-seat-${s.seat}` } }, t("play this seat")));
    });
    replaceChildren(box,
      h("h2", {}, t("Game {game} created", { game: res.game_id })),
      h("p", { class: "dim" }, t("Send each person their invite link; the link is their seat (keep it private).")),
      h("ul", { class: "invites" }, rows),
      h("p", {}, h("a", { href: `${res.spectate}${res.spectate.includes("?") ? "&" : "?"}spectate=1`, dataset: { testid: "spectate-link" } }, t("watch the game"))));
  }

  /**
   * The player's own games (open and finished): every game the logged-in player sits in
   * (`GET /api/me/games`: lobby, Play now, invitations, tournaments), then those of the
   * seat tokens remembered on this browser that are not among them.
   */
  async loadGames() {
    if (!this.followsGames) {
      this.followsGames = true;
      onIdentityChange(() => this.loadGames());
      window.addEventListener(ME_EVENT, (ev) => { if (ev.detail && ev.detail.type === "waiting") this.loadGames(); });
    }
    const body = this.root.querySelector("[data-testid=my-games]");
    const player = await whenIdentityKnown();
    let account = { games: [], finished: [] };
    if (player) {
      try {
        account = await myGames(10);
      } catch (e) {
        if (e.status !== 401) replaceChildren(body, h("p", { class: "form-error" }, e.message));
      }
    }
    const known = new Set([...account.games, ...account.finished].map((g) => g.id));
    const saved = savedSeats().filter((s) => !known.has(s.game_id));
    let games = [];
    if (saved.length) {
      try {
        games = (await api.listGames(saved.map((s) => s.token))).games || [];
      } catch (e) {
        replaceChildren(body, h("p", { class: "form-error" }, e.message));
        return;
      }
    }
    if (!games.length && !known.size) {
      replaceChildren(body, h("p", { class: "dim", dataset: { testid: "no-games" } }, t("No games yet.")));
      return;
    }
    games.sort((a, b) => String(b.updated_at || "").localeCompare(String(a.updated_at || "")));
    const open = games.filter((g) => g.status !== "finished");
    const done = games.filter((g) => g.status === "finished");
    const row = (g) => {
      const mine = saved.filter((s) => s.game_id === g.game_id);
      const yours = g.your_seats || mine.map((s) => s.seat);
      const token = (mine.find((s) => yours.includes(s.seat) && s.seat === g.current_player) || mine[0] || {}).token;
      const href = `/games/${encodeURIComponent(g.game_id)}${token ? "#token=" + encodeURIComponent(token) : ""}`;
      const names = (g.seats || []).map((s) => seatName(g.seats, s.seat)).join(" vs ");
      const yourTurn = g.status !== "finished" && yours.includes(g.current_player);
      return h("li", { dataset: { testid: `game-row-${g.game_id}`, status: g.status } },
        h("a", { href, dataset: { testid: `open-game-${g.game_id}` } }, `${GAME_NAMES[g.game] || g.game}: ${names}`),
        h("span", { class: "dim" }, " · ", t("move {move}", { move: g.moves ?? g.move ?? 0 })),
        g.status === "finished"
          ? h("span", {}, " · ", resultText(g.result, g.seats), " · ", h("a", { href: `/games/${encodeURIComponent(g.game_id)}/replay` }, t("replay")))
          : h("span", { class: yourTurn ? "your-turn" : "dim" }, " · ", yourTurn ? t("your turn") : t("{name} to play", { name: seatName(g.seats, g.current_player) })),
        " ", h("button", { type: "button", class: "link", title: t("forget this game on this browser"), "aria-label": t("forget this game on this browser"), dataset: { testid: `forget-${g.game_id}` }, onclick: () => { forgetGame(g.game_id); this.loadGames(); } }, "✕"));
    };
    const openItems = [...account.games.map((g) => gameItem(g, { you: true })), ...open.map(row)];
    const doneItems = [...account.finished.map((g) => gameItem(g, { you: true })), ...done.map(row)];
    replaceChildren(body,
      h("h3", {}, t("In progress ({n})", { n: openItems.length })), openItems.length ? h("ul", { class: "game-list" }, openItems) : h("p", { class: "dim" }, t("none")),
      h("h3", {}, t("Finished ({n})", { n: doneItems.length })), doneItems.length ? h("ul", { class: "game-list" }, doneItems) : h("p", { class: "dim" }, t("none")),
      player ? h("p", {}, h("a", { href: "/games", dataset: { testid: "all-my-games" } }, t("All my games"))) : null);
  }
}
