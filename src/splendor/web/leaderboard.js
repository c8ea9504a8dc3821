/**
 * The leaderboard page (`/leaderboard`, `?kind=` one of `splendor-2`, `splendor-multi`,
 * `duel`): a tab per rated game kind and the table of its best ratings from
 * `GET /api/players/leaderboard/{kind}` (rank, name linking to the player page, rating,
 * ± deviation, games; a provisional rating is marked). Names are shown as text only.
 * @module leaderboard
 */

import * as api from "./api.js";
import { t } from "./i18n.js";
import { currentPlayer, onIdentityChange } from "./identity.js";
import { RATING_KINDS } from "./player.js";
import { h, replaceChildren } from "./util.js";

const KINDS = RATING_KINDS.map(([k]) => k);

/** A number rounded for display, or "?" when it is not one. */
function rounded(x) {
  return typeof x === "number" && Number.isFinite(x) ? String(Math.round(x)) : "?";
}

/** Controller of the leaderboard page. */
export class LeaderboardPage {
  /** @param {HTMLElement} root @param {URLSearchParams} params `kind` */
  constructor(root, params) {
    this.root = root;
    const kind = params.get("kind");
    this.kind = KINDS.includes(kind) ? kind : KINDS[0];
    this.data = null;
    this.error = "";
    /** Answers to an older request (another tab clicked since) are dropped. */
    this.seq = 0;
  }

  async start() {
    this.root.dataset.testid = "leaderboard";
    document.title = t("Leaderboard · Splendor");
    onIdentityChange(() => { if (this.data) this.render(); }); // "(you)" follows the identity bar
    this.render();
    await this.load();
  }

  /** Show another kind (a tab); its table is fetched. */
  select(kind) {
    if (!KINDS.includes(kind)) return;
    this.kind = kind;
    const url = new URL(location.href);
    url.searchParams.set("kind", kind);
    history.replaceState(null, "", url.pathname + url.search);
    this.data = null;
    this.error = "";
    this.render(`[data-testid=leaderboard-tab-${kind}]`);
    this.load();
  }

  async load() {
    const seq = ++this.seq;
    const kind = this.kind;
    this.root.dataset.state = "loading";
    try {
      const data = await api.getLeaderboard(kind);
      if (seq !== this.seq) return;
      this.data = data;
      this.error = "";
    } catch (e) {
      if (seq !== this.seq) return;
      this.data = null;
      this.error = t("cannot load the leaderboard: {error}", { error: e.message });
    }
    this.render();
  }

  /** Redraw; then focus the element matching `focus`, if given. */
  render(focus = null) {
    const root = this.root;
    root.dataset.kind = this.kind;
    root.dataset.state = this.error ? "error" : this.data ? "ready" : "loading";
    const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": t("game"), onkeydown: (ev) => this.onTabKey(ev) },
      RATING_KINDS.map(([kind, label]) => h("button", {
        type: "button", role: "tab", class: `tab${kind === this.kind ? " active" : ""}`, id: `tab-${kind}`,
        "aria-selected": String(kind === this.kind), "aria-controls": "leaderboard-panel", tabindex: kind === this.kind ? "0" : "-1",
        dataset: { testid: `leaderboard-tab-${kind}`, kind }, onclick: () => this.select(kind),
      }, t(label))));
    let body;
    if (this.error) body = h("p", { class: "form-error", role: "alert", dataset: { testid: "leaderboard-error" } }, this.error);
    else if (!this.data) body = h("p", { class: "loading" }, t("loading…"));
    else body = this.table(this.data.players || []);
    replaceChildren(root,
      h("header", { class: "leaderboard-header" },
        h("h1", {}, t("Leaderboard")),
        h("button", { type: "button", class: "toggle", dataset: { testid: "leaderboard-refresh" }, onclick: () => this.load() }, t("refresh"))),
      tabs,
      h("section", { class: "leaderboard-panel", id: "leaderboard-panel", role: "tabpanel", "aria-labelledby": `tab-${this.kind}` }, body),
      h("p", { class: "dim small-text" }, t("Rated games only. A rating marked ? is provisional: too few games to trust it yet (deviation over 110).")),
      h("p", {}, h("a", { href: "/" }, t("← lobby"))));
    if (focus) {
      const el = root.querySelector(focus);
      if (el) el.focus();
    }
  }

  /** Arrow keys move between the tabs. */
  onTabKey(ev) {
    const step = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    ev.preventDefault();
    const i = KINDS.indexOf(this.kind);
    this.select(KINDS[(i + step + KINDS.length) % KINDS.length]);
  }

  table(players) {
    if (!players.length) return h("p", { class: "dim", dataset: { testid: "leaderboard-empty" } }, t("No rated games of this kind yet."));
    const me = currentPlayer();
    const rows = players.map((e) => {
      const p = e.player || {};
      const mine = !!me && me.id === p.id;
      return h("tr", {
        class: `${mine ? "mine" : ""}${e.provisional ? " provisional" : ""}`,
        dataset: { testid: "leaderboard-row", playerId: p.id, rank: e.rank, provisional: String(!!e.provisional) },
      },
      h("td", { class: "rank", dataset: { testid: "rank" } }, String(e.rank)),
      h("td", { class: "name" },
        h("a", { href: `/players/${encodeURIComponent(p.id)}`, dataset: { testid: "leaderboard-player" } }, h("bdi", {}, String(p.name ?? "?"))),
        mine ? h("span", { class: "dim" }, " ", t("(you)")) : null),
      h("td", { class: "rating-value", dataset: { testid: "rating" } }, rounded(e.rating),
        e.provisional ? h("span", { class: "provisional-mark", title: t("provisional: too few games to trust it yet"), dataset: { testid: "provisional" } }, "?") : null),
      h("td", { class: "dim", title: t("uncertainty (the rating's deviation)"), dataset: { testid: "deviation" } }, `± ${rounded(e.deviation)}`),
      h("td", { dataset: { testid: "games" } }, String(e.games ?? 0)));
    });
    return h("table", { class: "leaderboard-table ratings" },
      h("thead", {}, h("tr", {}, ["#", t("player"), t("rating"), "±", t("games")].map((label) => h("th", { scope: "col" }, label)))),
      h("tbody", {}, rows));
  }
}
