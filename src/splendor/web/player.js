/**
 * A player's page (`/players/{id}`): the name, guest or account, the rating of each game
 * kind (value ± deviation, games), the games in progress and the recent finished games
 * (outcome, scores, replay link). Names are shown as text only.
 * @module player
 */

import * as api from "./api.js";
import { currentPlayer, onIdentityChange } from "./identity.js";
import { GAME_NAMES, h, replaceChildren } from "./util.js";

/** The rated game kinds in display order, with their labels. */
export const RATING_KINDS = [
  ["splendor-2", "Splendor, 2 players"],
  ["splendor-multi", "Splendor, 3–4 players"],
  ["duel", "Splendor Duel"],
];

const OUTCOMES = { won: "won", lost: "lost", shared: "shared victory" };

/** A rating number for display: rounded, or "?" when it is not a number. */
function rounded(x) {
  return typeof x === "number" && Number.isFinite(x) ? String(Math.round(x)) : "?";
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Controller of the player page. */
export class PlayerPage {
  /** @param {HTMLElement} root @param {string} playerId */
  constructor(root, playerId) {
    this.root = root;
    this.playerId = playerId;
    this.data = null;
  }

  async start() {
    this.root.dataset.testid = "player-root";
    replaceChildren(this.root, h("p", { class: "loading" }, "loading the player…"));
    onIdentityChange((me) => {
      if (!this.data) return;
      const shown = this.data.player;
      // this player made an account (or was renamed): fetch it again; else redraw "(you)"
      if (me && me.id === shown.id && (me.name !== shown.name || me.account !== shown.account)) this.load();
      else this.render();
    });
    await this.load();
  }

  async load() {
    try {
      this.data = await api.getPlayer(this.playerId);
    } catch (e) {
      this.data = null;
      this.root.dataset.state = "error";
      const text = e.status === 404 ? "no such player" : `cannot load the player: ${e.message}`;
      replaceChildren(this.root, h("div", { class: "fatal", dataset: { testid: "fatal" } }, text, " · ",
        h("a", { href: "/" }, "back to the lobby")));
      document.title = "No such player · Splendor";
      return;
    }
    this.render();
  }

  render() {
    const d = this.data;
    const p = d.player;
    const me = currentPlayer();
    const since = p.created_at ? new Date(p.created_at) : null;
    this.root.dataset.state = "ready";
    this.root.dataset.playerId = p.id;
    document.title = `${p.name} · Splendor`;
    replaceChildren(this.root,
      h("header", { class: "player-header" },
        h("h1", { dataset: { testid: "player-name" } }, h("bdi", {}, p.name)),
        h("span", { class: `badge ${p.account ? "account" : "guest"}`, dataset: { testid: "player-kind" } }, p.account ? "account" : "guest"),
        me && me.id === p.id ? h("span", { class: "dim", dataset: { testid: "player-you" } }, "(you)") : null,
        since && !Number.isNaN(since.getTime()) ? h("span", { class: "dim" }, `playing since ${since.toLocaleDateString()}`) : null),
      h("div", { class: "player-layout" },
        h("section", { class: "player-ratings", dataset: { testid: "player-ratings" } }, h("h2", {}, "Ratings"), this.ratings(d.ratings || {})),
        h("section", { class: "player-games", dataset: { testid: "player-open-games" } }, h("h2", {}, "Games in progress"), this.openGames(d.open_games || [])),
        h("section", { class: "player-games", dataset: { testid: "player-finished-games" } }, h("h2", {}, "Finished games"), this.finishedGames(d.finished_games || []))),
      h("p", {}, h("a", { href: "/" }, "← lobby")));
  }

  /** The ratings table (known kinds in order, then any other), or an empty text. */
  ratings(ratings) {
    const labels = new Map(RATING_KINDS);
    const kinds = [...RATING_KINDS.map(([k]) => k), ...Object.keys(ratings).filter((k) => !labels.has(k))]
      .filter((k) => ratings[k] && typeof ratings[k] === "object");
    if (!kinds.length) return h("p", { class: "dim", dataset: { testid: "ratings-empty" } }, "No rated games yet.");
    const rows = kinds.map((kind) => {
      const entry = ratings[kind];
      const r = entry.rating || {};
      const games = Number(entry.games ?? r.games ?? 0);
      return h("tr", { dataset: { testid: `rating-${kind}` } },
        h("th", { scope: "row" }, labels.get(kind) || kind),
        h("td", { class: "rating-value", dataset: { testid: "rating-value" } }, rounded(r.value)),
        h("td", { class: "dim", title: "uncertainty (the rating's deviation)", dataset: { testid: "rating-deviation" } }, `± ${rounded(r.deviation)}`),
        h("td", { dataset: { testid: "rating-games" } }, plural(games, "game")));
    });
    return h("table", { class: "ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "game"), h("th", { scope: "col" }, "rating"),
        h("th", { scope: "col" }, "±"), h("th", { scope: "col" }, "games"))),
      h("tbody", {}, rows));
  }

  /** One game's title: its name and table size. */
  title(g) {
    const name = GAME_NAMES[g.game] || g.game;
    return g.game === "duel" || !g.num_players ? name : `${name}, ${g.num_players} players`;
  }

  openGames(games) {
    if (!games.length) return h("p", { class: "dim", dataset: { testid: "open-games-empty" } }, "No games in progress.");
    return h("ul", { class: "game-list" }, games.map((g) => h("li", { dataset: { testid: `player-game-${g.id}` } },
      h("a", { href: `/games/${encodeURIComponent(g.id)}` }, this.title(g)),
      h("span", { class: "dim" }, ` · seat ${g.seat}`))));
  }

  finishedGames(games) {
    if (!games.length) return h("p", { class: "dim", dataset: { testid: "finished-games-empty" } }, "No finished games yet.");
    return h("ul", { class: "game-list" }, games.map((g) => {
      const scores = Array.isArray(g.scores)
        ? g.scores.flatMap((s, i) => [i ? " – " : "", i === g.seat ? h("strong", { title: "this player's score" }, String(s)) : String(s)])
        : null;
      return h("li", { dataset: { testid: `player-game-${g.id}`, outcome: g.outcome } },
        h("span", { class: `outcome ${g.outcome || ""}`, dataset: { testid: "outcome" } }, OUTCOMES[g.outcome] || "over"),
        " ", h("a", { href: `/games/${encodeURIComponent(g.id)}` }, this.title(g)),
        scores ? h("span", { class: "scores-line", dataset: { testid: "scores" } }, " · ", scores) : null,
        " · ", h("a", { href: `/games/${encodeURIComponent(g.id)}/replay`, dataset: { testid: "replay-link" } }, "replay"));
    }));
  }
}
