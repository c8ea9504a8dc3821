/**
 * The lobby's filters: which open tables to show, by game, clock (none, real time,
 * turn-based), rated or not, and the host's rating (a range). The same rules as the
 * server's `GET /api/tables?game=&clock=&rated=&min_rating=&max_rating=`
 * (`server/lobby_filters.py`), applied here to the live list of `/ws/lobby`. The choice is
 * kept in the page's URL (the same query parameters, so a filtered lobby can be shared)
 * and in localStorage (the next visit starts with it). The tables where the player sits
 * always show.
 * @module lobby_filter
 */

import { t } from "./i18n.js";
import { GAME_NAMES, h } from "./util.js";

const KEY = "splendor.lobbyFilter";
const FIELDS = ["game", "clock", "rated", "min_rating", "max_rating"];

/** The filter as saved: the URL's parameters if any, else localStorage's, else none. */
function loadSaved() {
  const params = new URLSearchParams(location.search);
  if (FIELDS.some((f) => params.has(f))) return Object.fromEntries(FIELDS.map((f) => [f, params.get(f) || ""]));
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return Object.fromEntries(FIELDS.map((f) => [f, typeof saved[f] === "string" ? saved[f] : ""]));
  } catch {
    return Object.fromEntries(FIELDS.map((f) => [f, ""]));
  }
}

/** The lobby's filter controls and test. */
export class LobbyFilter {
  /**
   * @param {Object} meta `GET /api/meta` (the games)
   * @param {() => void} changed called after every change
   */
  constructor(meta, changed) {
    this.meta = meta;
    this.changed = changed;
    this.values = loadSaved();
  }

  /** Remember the filter (URL and localStorage) and tell the lobby. */
  save() {
    try {
      localStorage.setItem(KEY, JSON.stringify(this.values));
    } catch {
      // private browsing: the URL keeps it
    }
    const params = new URLSearchParams(location.search);
    for (const f of FIELDS) {
      if (this.values[f]) params.set(f, this.values[f]);
      else params.delete(f);
    }
    const query = params.toString();
    history.replaceState(history.state, "", `${location.pathname}${query ? "?" + query : ""}${location.hash}`);
    this.changed();
  }

  /** Whether a table passes the filter (`table.host_rating.value` for the range). */
  keeps(table) {
    const v = this.values;
    if (v.game && table.game !== v.game) return false;
    if (v.clock && (table.clock ? table.clock.kind : "none") !== v.clock) return false;
    if (v.rated && String(!!table.rated) !== v.rated) return false;
    const rating = table.host_rating && typeof table.host_rating.value === "number" ? table.host_rating.value : null;
    const low = v.min_rating === "" ? null : Number(v.min_rating);
    const high = v.max_rating === "" ? null : Number(v.max_rating);
    if ((low !== null || high !== null) && rating === null) return false;
    if (low !== null && Number.isFinite(low) && rating < low) return false;
    if (high !== null && Number.isFinite(high) && rating > high) return false;
    return true;
  }

  /** The controls (made once: the list redraws below them). */
  element() {
    const pick = (field, label, options) => h("label", { class: "field" }, h("span", { class: "field-label" }, label),
      h("select", { dataset: { testid: `filter-${field}` }, onchange: (ev) => { this.values[field] = ev.target.value; this.save(); } },
        options.map(([value, text]) => h("option", { value, selected: this.values[field] === value ? true : null }, text))));
    const number = (field, label) => h("label", { class: "field" }, h("span", { class: "field-label" }, label),
      h("input", { type: "number", min: 0, max: 10000, step: 50, size: 5, value: this.values[field], dataset: { testid: `filter-${field}` },
        onchange: (ev) => { this.values[field] = ev.target.value.trim(); this.save(); } }));
    const any = t("any");
    return h("div", { class: "lobby-filters form-fields", role: "group", "aria-label": t("filter the tables"), dataset: { testid: "lobby-filters" } },
      pick("game", t("game"), [["", any], ...Object.keys(this.meta.games).map((g) => [g, GAME_NAMES[g] || g])]),
      pick("clock", t("clock"), [["", any], ["none", t("no clock")], ["realtime", t("real time")], ["turn", t("turn-based")]]),
      pick("rated", t("rated"), [["", any], ["true", t("rated")], ["false", t("unrated")]]),
      number("min_rating", t("host's rating from")),
      number("max_rating", t("to")),
      h("button", { type: "button", class: "link", dataset: { testid: "filter-clear" }, onclick: (ev) => {
        for (const f of FIELDS) this.values[f] = "";
        for (const el of ev.currentTarget.parentNode.querySelectorAll("select, input")) el.value = "";
        this.save();
      } }, t("clear")));
  }
}
