/**
 * A player's page (`/players/{id}`): the name, guest or account, the rating of each game
 * kind (value ± deviation, games), the games in progress (opponents, whose turn, the time
 * left) and the recent finished games (outcome, scores, replay link); for another logged-in
 * player, Follow and Block ({@link module:player_social}). Names are shown as text only.
 * @module player
 */

import * as api from "./api.js";
import { N_, language, t, tn } from "./i18n.js";
import { currentPlayer, onIdentityChange } from "./identity.js";
import { gameItem } from "./my_games.js";
import { socialControls } from "./player_social.js";
import { playerTournaments } from "./tournaments.js";
import { openReportDialog } from "./report.js";
import { GAME_NAMES, h, replaceChildren } from "./util.js";

/** The rated game kinds in display order, with their labels (English: show them with `t()`). */
export const RATING_KINDS = [
  ["splendor-2", N_("Splendor, 2 players")],
  ["splendor-multi", N_("Splendor, 3–4 players")],
  ["duel", "Splendor Duel"],
];

const OUTCOMES = { won: N_("won"), lost: N_("lost"), shared: N_("shared victory") };

/** A rating number for display: rounded, or "?" when it is not a number. */
function rounded(x) {
  return typeof x === "number" && Number.isFinite(x) ? String(Math.round(x)) : "?";
}

/** The "Report" button of another player's page (an account's view): the report dialog. */
function reportButton(p) {
  return h("button", {
    type: "button", class: "toggle report-button", title: t("report this player to the moderators"),
    dataset: { testid: "report-player" }, onclick: () => openReportDialog({ name: p.name, playerId: p.id }),
  }, t("Report"));
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
    replaceChildren(this.root, h("p", { class: "loading" }, t("loading the player…")));
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
      const text = e.status === 404 ? t("no such player") : t("cannot load the player: {error}", { error: e.message });
      replaceChildren(this.root, h("div", { class: "fatal", dataset: { testid: "fatal" } }, text, " · ",
        h("a", { href: "/" }, t("back to the lobby"))));
      document.title = t("No such player · Splendor");
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
        h("span", { class: `badge ${p.account ? "account" : p.deleted ? "deleted" : "guest"}`, dataset: { testid: "player-kind" } },
          p.account ? t("account") : p.deleted ? t("deleted") : t("guest")),
        me && me.id === p.id ? h("span", { class: "dim", dataset: { testid: "player-you" } }, t("(you)")) : null,
        me && me.account && me.id !== p.id ? reportButton(p) : null,
        socialControls(p, me),
        since && !Number.isNaN(since.getTime()) ? h("span", { class: "dim" }, t("playing since {date}", { date: since.toLocaleDateString(language()) })) : null),
      h("div", { class: "player-layout" },
        h("section", { class: "player-ratings", dataset: { testid: "player-ratings" } }, h("h2", {}, t("Ratings")), this.ratings(d.ratings || {})),
        h("section", { class: "player-games", dataset: { testid: "player-open-games" } }, h("h2", {}, t("Games in progress")), this.openGames(d.open_games || [])),
        h("section", { class: "player-games", dataset: { testid: "player-finished-games" } }, h("h2", {}, t("Finished games")), this.finishedGames(d.finished_games || [])),
        playerTournaments(p.id)),
      h("p", {}, h("a", { href: "/" }, t("← lobby"))));
  }

  /** The ratings table (known kinds in order, then any other), or an empty text. */
  ratings(ratings) {
    const labels = new Map(RATING_KINDS);
    const kinds = [...RATING_KINDS.map(([k]) => k), ...Object.keys(ratings).filter((k) => !labels.has(k))]
      .filter((k) => ratings[k] && typeof ratings[k] === "object");
    if (!kinds.length) return h("p", { class: "dim", dataset: { testid: "ratings-empty" } }, t("No rated games yet."));
    const rows = kinds.map((kind) => {
      const entry = ratings[kind];
      const r = entry.rating || {};
      const games = Number(entry.games ?? r.games ?? 0);
      return h("tr", { dataset: { testid: `rating-${kind}` } },
        h("th", { scope: "row" }, labels.has(kind) ? t(labels.get(kind)) : kind),
        h("td", { class: "rating-value", dataset: { testid: "rating-value" } }, rounded(r.value)),
        h("td", { class: "dim", title: t("uncertainty (the rating's deviation)"), dataset: { testid: "rating-deviation" } }, `± ${rounded(r.deviation)}`),
        h("td", { dataset: { testid: "rating-games" } }, tn("{n} game", "{n} games", games)));
    });
    return h("table", { class: "ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game")), h("th", { scope: "col" }, t("rating")),
        h("th", { scope: "col" }, "±"), h("th", { scope: "col" }, t("games")))),
      h("tbody", {}, rows));
  }

  /** One game's title: its name and table size. */
  title(g) {
    const name = GAME_NAMES[g.game] || g.game;
    return g.game === "duel" || !g.num_players ? name : tn("{game}, {n} player", "{game}, {n} players", g.num_players, { game: name });
  }

  /** The games in progress: opponents, whose turn and the time left (module my_games). */
  openGames(games) {
    if (!games.length) return h("p", { class: "dim", dataset: { testid: "open-games-empty" } }, t("No games in progress."));
    const me = currentPlayer();
    return h("ul", { class: "game-list" }, games.map((g) => {
      const item = gameItem(g, { you: !!me && me.id === this.playerId });
      item.dataset.testid = `player-game-${g.id}`;
      return item;
    }));
  }

  finishedGames(games) {
    if (!games.length) return h("p", { class: "dim", dataset: { testid: "finished-games-empty" } }, t("No finished games yet."));
    return h("ul", { class: "game-list" }, games.map((g) => {
      const scores = Array.isArray(g.scores)
        ? g.scores.flatMap((s, i) => [i ? " – " : "", i === g.seat ? h("strong", { title: t("this player's score") }, String(s)) : String(s)])
        : null;
      return h("li", { dataset: { testid: `player-game-${g.id}`, outcome: g.outcome } },
        h("span", { class: `outcome ${g.outcome || ""}`, dataset: { testid: "outcome" } }, OUTCOMES[g.outcome] ? t(OUTCOMES[g.outcome]) : t("over")),
        " ", h("a", { href: `/games/${encodeURIComponent(g.id)}` }, this.title(g)),
        scores ? h("span", { class: "scores-line", dataset: { testid: "scores" } }, " · ", scores) : null,
        " · ", h("a", { href: `/games/${encodeURIComponent(g.id)}/replay`, dataset: { testid: "replay-link" } }, t("replay")));
    }));
  }
}
