/**
 * "My games" (`/games`): every game the player sits in (lobby tables, Play now,
 * invitations, tournaments), those waiting on the player first, each with its opponents
 * (guests and bots marked), whose turn it is and the time left; then the recent finished
 * games with their outcome. It reloads when the feed (`/ws/me`) says the count changed, and
 * the times left count down. Also {@link gameItem}, one game of such a list, which the
 * lobby's "Your games" and the player page use.
 * @module my_games
 */

import { N_, t, tn } from "./i18n.js";
import { onIdentityChange, whenIdentityKnown } from "./identity.js";
import { duration } from "./lobby_tables.js";
import { ME_EVENT, myGames } from "./me_feed.js";
import { GAME_NAMES, botName, h, replaceChildren } from "./util.js";

const OUTCOMES = { won: N_("won"), lost: N_("lost"), shared: N_("shared victory") };

/** Seconds in words, rounded to the minute past one minute (`5 min`, `23 h 59 min`, `2 days`). */
export function timeLeft(seconds) {
  if (!(seconds > 0)) return t("no time left");
  if (seconds < 60) return t("less than a minute");
  return duration(Math.round(seconds / 60) * 60);
}

/** The seconds left until an entry's deadline (null: none). */
function secondsLeft(g) {
  if (!g.deadline) return null;
  return Math.max(0, (new Date(g.deadline).getTime() - Date.now()) / 1000);
}

/** A game's title: `Splendor Duel`, `Splendor, 3 players`. */
export function gameTitle(g) {
  const name = GAME_NAMES[g.game] || g.game;
  return g.game === "duel" || !g.num_players ? name : tn("{game}, {n} player", "{game}, {n} players", g.num_players, { game: name });
}

/** A player of a listed game: a link to its page (guest marked), a bot, or a name. */
function playerView(p) {
  if (p.bot) return h("span", { class: "opponent bot" }, t("{bot} bot", { bot: botName(p.bot) }), " ", h("span", { class: "badge bot" }, t("bot")));
  const name = h("bdi", {}, p.name);
  return h("span", { class: "opponent" },
    p.player_id ? h("a", { href: `/players/${encodeURIComponent(p.player_id)}` }, name) : name,
    p.guest ? [" ", h("span", { class: "badge guest" }, t("guest"))] : null);
}

/**
 * One game of a list (a `<li>`): title (link to the game), the other players, and whose
 * turn with the time left (or the outcome of a finished game).
 * @param {Object} g an entry of `GET /api/me/games` (or of a player page's open games)
 * @param {{you?: boolean}} [opts] `you`: the list is the reader's own (say "your turn")
 */
export function gameItem(g, opts = {}) {
  const others = (g.players || []).filter((p) => p.seat !== g.seat);
  const left = secondsLeft(g);
  let status;
  if (g.status === "finished") {
    status = h("span", { class: `outcome ${g.outcome || ""}`, dataset: { testid: "outcome" } }, OUTCOMES[g.outcome] ? t(OUTCOMES[g.outcome]) : t("over"));
  } else if (g.waiting && opts.you) {
    status = h("strong", { class: "your-turn", dataset: { testid: "your-turn" } }, t("your turn"));
  } else if (g.to_move_name) {
    status = h("span", { class: "dim" }, t("{name} to play", { name: g.to_move_name }));
  } else status = null;
  return h("li", { class: `my-game${g.waiting && opts.you ? " waiting" : ""}`, dataset: { testid: `my-game-${g.id}`, gameId: g.id, waiting: String(!!g.waiting), status: g.status } },
    h("a", { href: g.url || `/games/${encodeURIComponent(g.id)}`, class: "game-title", dataset: { testid: "game-link" } }, gameTitle(g)),
    others.length ? [" ", h("span", { class: "dim" }, t("against")), " ", others.map((p, i) => [i ? ", " : "", playerView(p)])] : null,
    status ? [" · ", status] : null,
    left !== null ? [" · ", h("span", { class: `time-left${left < 3600 ? " urgent" : ""}`, title: new Date(g.deadline).toLocaleString(), dataset: { testid: "time-left", deadline: g.deadline } }, t("{time} left", { time: timeLeft(left) }))] : null,
    g.replay ? [" · ", h("a", { href: g.replay }, t("replay"))] : null);
}

/** Controller of the "My games" page. */
export class MyGamesPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.data = null;
    this.loading = null;
    this.again = false;
  }

  async start() {
    this.root.dataset.testid = "my-games-page";
    replaceChildren(this.root, h("p", { class: "loading" }, t("loading…")));
    window.addEventListener(ME_EVENT, (ev) => {
      if (ev.detail && ev.detail.type === "waiting") this.load();
    });
    onIdentityChange(() => this.load());
    setInterval(() => { if (this.data) this.render(); }, 30000);
    await whenIdentityKnown();
    await this.load();
  }

  /** Fetch the list (one request at a time; a change meanwhile fetches once more). */
  async load() {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = myGames().then((d) => { this.data = d; this.error = null; })
      .catch((e) => { this.data = null; this.error = e; });
    await this.loading;
    this.loading = null;
    this.render();
    if (this.again) {
      this.again = false;
      await this.load();
    }
  }

  render() {
    if (this.error) {
      const text = this.error.status === 401 ? t("Play as a guest or log in to see your games.") : this.error.message;
      replaceChildren(this.root, h("h1", {}, t("My games")), h("p", { class: "dim", dataset: { testid: "my-games-error" } }, text));
      return;
    }
    const d = this.data;
    if (!d) return;
    this.root.dataset.waiting = String(d.waiting);
    replaceChildren(this.root,
      h("h1", {}, t("My games")),
      h("p", { class: "dim", dataset: { testid: "my-games-summary" } }, d.waiting ? tn("{n} game waits on you.", "{n} games wait on you.", d.waiting) : t("No game waits on you.")),
      h("section", { class: "player-games" }, h("h2", {}, t("In progress ({n})", { n: d.games.length })),
        d.games.length ? h("ul", { class: "game-list", dataset: { testid: "my-games-open" } }, d.games.map((g) => gameItem(g, { you: true })))
          : h("p", { class: "dim" }, t("No games in progress: press Play now in the lobby."), " ", h("a", { href: "/" }, t("← lobby")))),
      h("section", { class: "player-games" }, h("h2", {}, t("Finished ({n})", { n: d.finished.length })),
        d.finished.length ? h("ul", { class: "game-list", dataset: { testid: "my-games-finished" } }, d.finished.map((g) => gameItem(g, { you: true }))) : h("p", { class: "dim" }, t("none"))));
  }
}
