/**
 * The post-game analysis of a finished game (issue 19): the "Analysis" button of a seated
 * player, the progress while the server searches every move (live from the game's
 * WebSocket), then the chance to win of each player over the turns (an inline SVG chart
 * drawn here, the mistakes and blunders marked), a summary per player (accuracy,
 * inaccuracies, mistakes, blunders) and every move with its label, the win-probability
 * points it lost and the engine's move when it differs. Anyone who watches the game sees
 * the analysis once it exists; only a seated player may ask for it.
 *
 * The data is the server's `GET /api/games/{id}/analysis` answer (`data`: the
 * `splendor-analysis` JSON of `splendor.analysis.GameAnalysis`).
 * @module analysis
 */

import * as api from "./api.js";
import { N_, language, t, tn } from "./i18n.js";
import { h, replaceChildren, seatName } from "./util.js";
import { moveSentence, notationShown, onNotationChange } from "./sentences.js";

/** The move labels (the server's), in English: translate with {@link labelName}. */
export const LABEL_NAMES = {
  best: N_("best move"), good: N_("good move"), inaccuracy: N_("inaccuracy"),
  mistake: N_("mistake"), blunder: N_("blunder"), forced: N_("forced move"),
};

/** A move label in the reader's language (an unknown label as it is). */
export function labelName(label) {
  return LABEL_NAMES[label] ? t(LABEL_NAMES[label]) : String(label);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element: `svg("line", {x1: 0, ...}, child, ...)` (children: nodes or text). */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) el.setAttribute(key, String(value));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** `x` with `digits` decimals in the reader's language (`4.2`, `4,2`). */
function decimal(x, digits = 1) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A share (0..1) as a percentage in the reader's language (`50%`, `50 %`). */
function percent(x, digits = 0) {
  return new Intl.NumberFormat(language(), { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A player's name: the game's seat name (as the page names it), else the analysis's. */
function playerName(data, seats, seat) {
  if (seats && seats.some((s) => s.seat === seat)) return seatName(seats, seat);
  return (data.players && data.players[seat]) || t("seat {seat}", { seat: seat + 1 });
}

/**
 * The line of each analysed seat: `{seat: [{turn, win, move}]}`, the win probability
 * (0..1) after each of its judged moves (forced moves have none), one point per turn (the
 * turn's last decision).
 */
export function seatLines(data) {
  const lines = {};
  for (const seat of data.seats || []) lines[seat] = [];
  for (const m of data.moves || []) {
    if (m.after === null || m.after === undefined || !lines[m.seat]) continue;
    const line = lines[m.seat];
    const point = { turn: m.turn, win: m.after, move: m };
    if (line.length && line[line.length - 1].turn === m.turn) line[line.length - 1] = point;
    else line.push(point);
  }
  return lines;
}

/** The moves that turned the game (mistakes and blunders), as the server lists them. */
export function turningPoints(data) {
  const marked = new Set(data.turning_points || []);
  return (data.moves || []).filter((m) => marked.has(m.index));
}

/** The sentence of a turning point (its dot's tooltip). */
export function turningText(m, name, names = null) {
  const said = (text, notation) => (text && !notationShown() ? moveSentence({ text, notation }, names || []) : notation);
  const fields = { turn: m.turn, name, move: said(m.played_text, m.played), label: labelName(m.label), best: said(m.best_text, m.best || "") };
  return m.best && m.best !== m.played && m.label !== "best"
    ? t("Turn {turn}, {name}: {move}, {label}; best was {best}", fields)
    : t("Turn {turn}, {name}: {move}, {label}", fields);
}

const W = 640;
const H = 240;
const PAD = { left: 48, right: 14, top: 12, bottom: 34 };

/**
 * The chart: the chance to win of each analysed player after each of their moves (x: the
 * turn, y: 0 to 100 %), one line per player in the seat's colour, the turning points
 * (mistakes and blunders) marked with a dot whose `<title>` says the turn, the player,
 * the move, its label and the engine's move. An `<svg role="img">` with an `aria-label`,
 * and a legend naming the colours; each seat's line has its own dashes too, so that the
 * lines read without colour.
 * @param {Object} data the analysis
 * @param {Object[]} [seats] the game's seats (names)
 */
export function renderChart(data, seats) {
  const lines = seatLines(data);
  const turns = (data.moves || []).map((m) => m.turn);
  const first = 1;
  const last = Math.max(first + 1, ...turns);
  const x = (turn) => PAD.left + ((turn - first) / (last - first)) * (W - PAD.left - PAD.right);
  const y = (win) => PAD.top + (1 - win) * (H - PAD.top - PAD.bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((v) => [
    svg("line", { class: v === 0.5 ? "grid even" : "grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
    svg("text", { class: "tick y", x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, percent(v)),
  ]);
  const step = Math.max(1, Math.ceil((last - first) / 8));
  const xticks = [];
  for (let turn = first; turn <= last; turn += step) {
    xticks.push(svg("line", { class: "tick-mark", x1: x(turn), x2: x(turn), y1: H - PAD.bottom, y2: H - PAD.bottom + 4 }),
      svg("text", { class: "tick x", x: x(turn), y: H - PAD.bottom + 16, "text-anchor": "middle" }, String(turn)));
  }
  const paths = Object.entries(lines).map(([seat, points]) => {
    const name = playerName(data, seats, Number(seat));
    const cls = `seat-${seat}`;
    if (!points.length) return null;
    return svg("g", { class: `analysis-line ${cls}`, "data-testid": "analysis-line", "data-seat": seat },
      svg("title", {}, t("{name}: chance to win after each move", { name })),
      svg("polyline", { points: points.map((p) => `${x(p.turn).toFixed(1)},${y(p.win).toFixed(1)}`).join(" ") }),
      points.length === 1 ? svg("circle", { cx: x(points[0].turn), cy: y(points[0].win), r: 2.5 }) : null);
  });
  const dots = turningPoints(data).filter((m) => m.after !== null && m.after !== undefined).map((m) => {
    const name = playerName(data, seats, m.seat);
    return svg("circle", {
      class: `turning-point seat-${m.seat} label-${m.label}`, cx: x(m.turn), cy: y(m.after), r: 5,
      "data-testid": "turning-point", "data-index": m.index, "data-label": m.label,
    }, svg("title", {}, turningText(m, name, (data.players || []).map((_, k) => playerName(data, seats, k)))));
  });
  const chart = svg("svg", {
    class: "analysis-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "data-testid": "analysis-chart",
    "aria-label": tn("Chance to win of each player over the turns, from {low} to {high}; {n} turning point marked",
      "Chance to win of each player over the turns, from {low} to {high}; {n} turning points marked", dots.length, { low: percent(0), high: percent(1) }),
  },
  grid,
  svg("line", { class: "axis", x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom }),
  svg("line", { class: "axis", x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom }),
  xticks,
  svg("text", { class: "axis-title", x: (PAD.left + W - PAD.right) / 2, y: H - 4, "text-anchor": "middle" }, t("turn")),
  paths, dots);
  const legend = h("ul", { class: "analysis-legend", dataset: { testid: "analysis-legend" } },
    (data.seats || []).map((seat) => h("li", { class: `seat-${seat}` },
      // the line as drawn (its colour and its dashes: the series read without colour)
      svg("svg", { class: "swatch", viewBox: "0 0 24 8", "aria-hidden": "true", focusable: "false" },
        svg("line", { x1: 1, x2: 23, y1: 4, y2: 4 })),
      playerName(data, seats, seat))));
  return h("figure", { class: "analysis-figure" }, chart, legend,
    h("figcaption", {}, t("Chance to win after each move, as the engine sees it from what the player could see; the dots mark the mistakes and blunders.")));
}

/**
 * The summary per player: a table of accuracy (0 to 100, "—" without a judged move),
 * inaccuracies, mistakes and blunders.
 * @param {Object} data the analysis
 * @param {Object[]} [seats] the game's seats
 */
export function renderSummary(data, seats) {
  const rows = (data.summaries || []).map((s) => h("tr", { dataset: { testid: "analysis-summary-row", seat: s.seat } },
    h("th", { scope: "row" }, playerName(data, seats, s.seat)),
    h("td", { dataset: { testid: "accuracy" } }, s.accuracy === null || s.accuracy === undefined ? "—" : percent(s.accuracy / 100, 1)),
    h("td", {}, String(s.counts ? s.counts.inaccuracy : 0)),
    h("td", {}, String(s.counts ? s.counts.mistake : 0)),
    h("td", {}, String(s.counts ? s.counts.blunder : 0))));
  return h("table", { class: "analysis-summary", dataset: { testid: "analysis-summary" } },
    h("caption", {}, t("Summary per player")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Accuracy")),
      h("th", { scope: "col" }, t("Inaccuracies")), h("th", { scope: "col" }, t("Mistakes")),
      h("th", { scope: "col" }, t("Blunders")))),
    h("tbody", {}, rows));
}

/**
 * Every analysed move: the turn, the player, the move, its label, the win-probability
 * points it lost (a judged move that was not the engine's) and "best: …" when the engine
 * preferred another move.
 * @param {Object} data the analysis
 * @param {Object[]} [seats] the game's seats
 */
export function renderMoves(data, seats) {
  const names = (data.players || []).map((_, k) => playerName(data, seats, k));
  const sentences = !notationShown();
  const items = (data.moves || []).map((m) => {
    const lost = m.loss !== null && m.loss !== undefined && m.label !== "best" && m.label !== "forced";
    // the engine's move, once: not beside a move judged "best move" (within a point of it)
    const best = m.best && m.best !== m.played && m.label !== "best" && m.label !== "forced"
      ? (sentences && m.best_text ? moveSentence({ text: m.best_text }, names) : m.best) : null;
    return h("li", { class: `label-${m.label}`, dataset: { testid: "analysis-move", index: m.index, label: m.label } },
      h("span", { class: "turn" }, t("turn {turn}", { turn: m.turn })), " ",
      sentences && m.played_text
        ? h("span", { class: "move-text", title: m.played }, moveSentence({ text: m.played_text }, names))
        : [h("bdi", { class: "who" }, playerName(data, seats, m.seat)), " ", h("code", {}, m.played)], " ",
      h("span", { class: `label label-${m.label}`, dataset: { testid: "analysis-label" } }, labelName(m.label)),
      lost ? [" ", h("span", { class: "loss", title: t("win-probability points lost against the engine's move") }, t("lost {points} points", { points: decimal(m.loss * 100) }))] : null,
      best ? [" ", h("span", { class: "best", dataset: { testid: "analysis-best" } }, t("best: {move}", { move: best }))] : null);
  });
  return h("ol", { class: "analysis-moves", dataset: { testid: "analysis-moves" }, "aria-label": t("Analysed moves") }, items);
}

/** Whether the analysis message or answer `next` may replace what is shown (`cur`): never a step back. */
export function isNewer(cur, next) {
  if (!cur || !cur.status || cur.status === "failed") return true;
  if (cur.status === "done") return next.status === "done" && !cur.data && !!next.data;
  if (next.status === "queued") return cur.status === "queued";
  if (next.status === "running" && cur.status === "running") return next.done >= cur.done;
  return true;
}

/**
 * The Analysis panel of a finished game (an element kept across the page's redraws):
 * the button for a seated player, the progress, then the analysis.
 */
export class AnalysisPanel {
  /**
   * @param {string} gameId
   * @param {() => string|null} token the seat token (null: the session's seat, or none)
   */
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token;
    /** `{status, done, total, data, error}`; `status` null while nobody asked. */
    this.view = { status: null, done: 0, total: 0, data: null, error: "" };
    this.canAsk = false;
    this.seats = [];
    this.busy = false;
    this.askError = "";
    this.poll = null;
    this.el = h("section", { class: "analysis", dataset: { testid: "analysis", status: "none" }, "aria-labelledby": "analysis-title" });
    onNotationChange(() => this.render()); // the moves as sentences or notation
    this.render();
  }

  /** The page's context: the game's seats, and whether the viewer may ask (a seated player). */
  update(seats, canAsk) {
    const changed = canAsk !== this.canAsk || JSON.stringify(seats) !== JSON.stringify(this.seats);
    this.seats = seats || [];
    this.canAsk = !!canAsk;
    if (changed) this.render();
  }

  /** `GET` the stored analysis (status `none` while nobody asked); polls while it is under way. */
  async load() {
    try {
      this.apply(await api.getAnalysis(this.gameId));
    } catch (e) {
      this.askError = t("cannot load the analysis: {error}", { error: e.message });
    }
    this.schedulePoll();
    this.render();
  }

  /** A `{status, data, error}` answer of the server. */
  apply(answer) {
    if (!answer || answer.status === "none") return; // nobody asked (yet): the button, for a player
    const data = answer.data || null;
    const next = {
      status: answer.status, data, error: answer.error || "",
      done: data && Array.isArray(data.moves) ? data.moves.length : 0, total: data ? data.total || 0 : 0,
    };
    if (isNewer(this.view, next)) this.view = next;
  }

  /** A `{"type": "analysis"}` message of the game's WebSocket. */
  onMessage(msg) {
    if (!msg || msg.game_id !== this.gameId) return;
    const next = { status: msg.status, done: msg.done || 0, total: msg.total || 0, data: null, error: "" };
    if (!isNewer(this.view, next)) return;
    this.view = next;
    this.schedulePoll();
    this.render();
    if (msg.status === "done" || msg.status === "failed") this.load();
  }

  /** While the analysis is queued or running, read it again now and then (in case a message is missed). */
  schedulePoll() {
    clearTimeout(this.poll);
    this.poll = null;
    if (this.view.status === "queued" || this.view.status === "running") {
      this.poll = setTimeout(() => this.load(), 4000);
    }
  }

  /** `POST …/analysis`: ask for the analysis (or for it again, after a failure). */
  async ask() {
    if (this.busy) return;
    this.busy = true;
    this.askError = "";
    this.render();
    try {
      const answer = await api.askAnalysis(this.gameId, this.token());
      if (this.view.status === "failed") this.view = { status: null, done: 0, total: 0, data: null, error: "" };
      this.apply(answer);
      this.schedulePoll();
    } catch (e) {
      this.askError = t("no analysis: {error}", { error: e.message });
    }
    this.busy = false;
    this.render();
  }

  render() {
    const v = this.view;
    const status = v.status || "none";
    this.el.dataset.status = status;
    const title = h("h3", { id: "analysis-title" }, t("Analysis"));
    const button = (text) => h("button", {
      type: "button", class: "analysis-ask", dataset: { testid: "analysis-ask" }, disabled: this.busy, onclick: () => this.ask(),
    }, this.busy ? t("asking…") : text);
    const parts = [];
    if (status === "none") {
      if (!this.canAsk) {
        this.el.hidden = true;
        replaceChildren(this.el);
        return;
      }
      parts.push(h("p", { class: "dim" }, t("The engine searches every move of the game from what its player could see, and says what each one cost.")),
        button(t("Analysis")));
    } else if (status === "queued" || status === "running") {
      const text = status === "queued" && v.done === 0
        ? t("waiting for the server to start the analysis…")
        : tn("{done} of {n} move analysed", "{done} of {n} moves analysed", v.total, { done: v.done });
      parts.push(h("div", { class: "analysis-progress", dataset: { testid: "analysis-progress", done: v.done, total: v.total } },
        h("progress", { max: Math.max(1, v.total), value: v.done, "aria-label": t("analysis progress") }),
        h("span", { role: "status", dataset: { testid: "analysis-progress-text" } }, text)));
    } else if (status === "failed") {
      const reason = v.error || t("no reason given");
      parts.push(h("p", { class: "analysis-error", role: "alert", dataset: { testid: "analysis-error" } },
        t("The analysis failed: {error}", { error: reason })));
      if (this.canAsk) parts.push(button(t("Analyse again")));
    } else if (status === "done" && v.data) {
      parts.push(this.renderDone(v.data));
    } else {
      parts.push(h("p", { class: "loading" }, t("loading the analysis…")));
    }
    if (this.askError) parts.push(h("p", { class: "analysis-error", role: "alert", dataset: { testid: "analysis-ask-error" } }, this.askError));
    this.el.hidden = false;
    replaceChildren(this.el, title, parts);
  }

  renderDone(data) {
    if (!(data.moves || []).length) return h("p", { class: "dim", dataset: { testid: "analysis-empty" } }, t("No move was played: there is nothing to analyse."));
    return h("div", { class: "analysis-body", dataset: { testid: "analysis-body" } },
      renderChart(data, this.seats),
      renderSummary(data, this.seats),
      h("details", { class: "analysis-moves-box", open: true },
        h("summary", {}, tn("{n} move analysed", "{n} moves analysed", data.moves.length)),
        renderMoves(data, this.seats)));
  }
}
