/**
 * The replay viewer of a finished game: every position from the first move to the last
 * (it opens at the first, the board at the top), with first / previous / next / last
 * buttons, a slider, the arrow keys, and the move list; under the board, the result and
 * the game's post-game analysis once someone asked for it
 * ({@link module:analysis}; asked for on the game page).
 * @module replay
 */

import { AnalysisPanel } from "./analysis.js";
import * as api from "./api.js";
import { language, t } from "./i18n.js";
import { renderClassic } from "./classic_view.js";
import { renderDuel } from "./duel_view.js";
import { renderResult } from "./result.js";
import { effectText, h, replaceChildren, seatName } from "./util.js";
import { moveNode, moveSentence, notationShown, notationToggle, onNotationChange, seatNames } from "./sentences.js";

/** Controller of the replay page. */
export class ReplayPage {
  /** @param {HTMLElement} root @param {string} gameId */
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    this.index = 0;
    this.data = null;
    this.analysis = new AnalysisPanel(gameId, () => null);
  }

  async start() {
    replaceChildren(this.root, h("p", { class: "loading" }, t("loading the replay…")));
    try {
      const [meta, data] = await Promise.all([api.getMeta(), api.getReplay(this.gameId)]);
      this.tables = meta.games[data.game].tables;
      this.data = data;
    } catch (e) {
      replaceChildren(this.root, h("div", { class: "fatal", dataset: { testid: "fatal" } },
        e.status === 409 ? t("the game is not over yet: {error}", { error: e.message }) : e.message, " ",
        h("a", { href: `/games/${encodeURIComponent(this.gameId)}` }, t("back to the game"))));
      return;
    }
    this.index = 0; // from the first position: the game unfolds (issue 33)
    this.analysis.update(this.data.seats, false);
    this.analysis.load();
    document.addEventListener("keydown", (ev) => {
      if (ev.target && ev.target.tagName === "INPUT") return;
      if (ev.key === "Enter" && ev.target && ev.target.dataset && ev.target.dataset.frame !== undefined) {
        this.go(Number(ev.target.dataset.frame));
        return;
      }
      if (ev.key === "ArrowLeft") this.go(this.index - 1);
      else if (ev.key === "ArrowRight") this.go(this.index + 1);
      else if (ev.key === "Home") this.go(0);
      else if (ev.key === "End") this.go(this.data.frames.length - 1);
    });
    onNotationChange(() => this.render()); // "Show notation" switched
    this.render();
  }

  /** Show frame `i` (clamped). */
  go(i) {
    const n = this.data.frames.length;
    this.index = Math.max(0, Math.min(n - 1, i));
    this.render();
  }

  render() {
    const d = this.data;
    const frames = d.frames;
    const f = frames[this.index];
    const obs = f.observation;
    const current = obs.phase === (d.game === "duel" ? 8 : 4) ? null : obs.current;
    const ctx = {
      obs, tables: this.tables, seats: d.seats, viewer: null, current, legal: [], selection: [],
      last: f.notation ? { seat: f.seat, notation: f.notation, text: f.text } : null, on: null,
    };
    const table = d.game === "duel" ? renderDuel(ctx) : renderClassic(ctx);
    const n = frames.length;
    const btn = (testid, label, target, disabled) => h("button", {
      type: "button", dataset: { testid }, disabled: disabled ? true : null, onclick: () => this.go(target),
    }, label);
    const slider = h("input", {
      type: "range", min: 0, max: n - 1, value: this.index, dataset: { testid: "replay-slider" }, "aria-label": t("position in the game"),
    });
    slider.value = String(this.index);
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    const names = seatNames(d.seats, d.num_players);
    const moves = frames.map((fr, k) => (fr.notation ? h("li", {
      class: k === this.index ? "current" : "", dataset: { frame: k, testid: `replay-move-${k}` }, "aria-current": k === this.index ? "step" : null,
      onclick: () => this.go(k),
    }, h("button", { type: "button", class: "idx link-button", "aria-label": t("show move {move}", { move: fr.move }) }, `${fr.move}.`), " ", moveNode(fr, names),
    // what the rules did besides the notation, in the reader's language
    ...(fr.effects || []).map((e) => h("div", { class: `log-effect effect-${e.kind}`, dataset: { testid: "log-effect", kind: e.kind } },
      effectText(e, d.seats, language())))) : null));
    this.root.dataset.testid = "replay-root";
    this.root.dataset.frame = String(this.index);
    replaceChildren(this.root,
      h("header", { class: "game-header" },
        h("a", { href: "/", class: "back" }, t("← lobby")),
        h("h2", {}, t("Replay: {game}", { game: d.game === "duel" ? "Splendor Duel" : "Splendor" })),
        h("span", { class: "meta" }, t("game {game}", { game: this.gameId }))),
      h("div", { class: "replay-controls", dataset: { testid: "replay-controls" } },
        btn("replay-first", t("« first"), 0, this.index === 0),
        btn("replay-prev", t("◀ prev"), this.index - 1, this.index === 0),
        slider,
        btn("replay-next", t("next ▶"), this.index + 1, this.index === n - 1),
        btn("replay-last", t("last »"), n - 1, this.index === n - 1),
        h("span", { class: "frame-info", dataset: { testid: "replay-info" } },
          f.notation && f.text && !notationShown()
            ? t("move {move} of {last}: {sentence}", { move: f.move, last: frames[n - 1].move, sentence: moveSentence(f, names) })
            : f.notation
            ? t("move {move} of {last}: {name} played {notation}", { move: f.move, last: frames[n - 1].move, name: seatName(d.seats, f.seat), notation: f.notation })
            : t("start of the game (move {move})", { move: f.move }))),
      h("div", { class: "game-layout" },
        h("div", { class: "main-col" }, table),
        h("aside", { class: "side-col" }, h("section", { class: "log" }, h("h3", {}, t("Moves")), notationToggle(),
          h("ol", { class: "log-list", dataset: { testid: "replay-log" } }, moves)))),
      // the board first, then how the game ended and its analysis
      renderResult({ result: d.result, seats: d.seats, scores: d.result ? d.result.scores : [] }, this.gameId, { replay: false }),
      this.analysis.el);
    const cur = this.root.querySelector(".log-list li.current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }
}
