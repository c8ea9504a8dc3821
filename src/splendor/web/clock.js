/**
 * The game clock as shown on the game page. The server alone counts (it ends a seat's game
 * when its time is out); this is a display: each state message carries `clock.remaining`
 * (seconds per seat when the message was built) and `clock.running` (the seat whose time
 * runs), and the running seat's time is counted down locally from the moment the message
 * arrived (`performance.now()`, never the local wall clock against the server's
 * `deadline`, which only serves as a tooltip).
 * @module clock
 */

import { language, t, tn } from "./i18n.js";
import { clockLabel } from "./lobby_tables.js";
import { h } from "./util.js";

/** Below this many seconds a clock shows as low (highlighted). */
export const LOW_TIME = 30;

const pad = (n) => String(n).padStart(2, "0");

/**
 * A clock's text. Real time: `4:32`, `1:02:05` from an hour. Turn-based (the time left
 * for the turn): `2 d 3 h`, `2 days`, `23 h 10 min`, and `12:05` under an hour (hours and
 * days in the reader's words: `2 j 3 h`, `2 d 3 u`).
 * @param {number} seconds whole seconds left (0 or more)
 * @param {string} kind "realtime" or "turn"
 */
export function formatClock(seconds, kind) {
  const total = Math.max(0, Math.floor(seconds));
  const d = Math.floor(total / 86400);
  const hrs = Math.floor((total % 86400) / 3600);
  const min = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (kind === "turn") {
    if (d) return hrs ? t("{d} d {h} h", { d, h: hrs }) : tn("{n} day", "{n} days", d);
    if (hrs) return min ? t("{h} h {min} min", { h: hrs, min }) : t("{n} h", { n: hrs });
  } else if (total >= 3600) {
    return `${Math.floor(total / 3600)}:${pad(min)}:${pad(sec)}`;
  }
  return `${min}:${pad(sec)}`;
}

/**
 * The clocks of one game page: `update(clock)` with each state message's `clock`, `badge(seat)`
 * for a seat's element (`data-testid="clock-{seat}"`, `data-remaining` whole seconds,
 * `data-running`, `data-low`), and a 250 ms ticker (`start(root)`) that redraws the
 * badges under `root` in place.
 */
export class Clocks {
  constructor() {
    /** The last state message's `clock`, or null (a game without a clock). */
    this.clock = null;
    /** `performance.now()` when it arrived. */
    this.at = 0;
    this.timer = null;
  }

  /**
   * A state message arrived: its `clock` (undefined or null: none). `finished`: the game
   * is over, so no time runs whatever `running` says.
   */
  update(clock, finished = false) {
    this.clock = clock && Array.isArray(clock.remaining) ? clock : null;
    if (this.clock && finished) this.clock = { ...this.clock, running: null, deadline: null };
    this.at = performance.now();
  }

  /** Seconds left to `seat` now (the running seat's counted down since the message). */
  left(seat) {
    const c = this.clock;
    if (!c) return null;
    const base = Number(c.remaining[seat]);
    if (!Number.isFinite(base)) return null;
    const spent = c.running === seat ? (performance.now() - this.at) / 1000 : 0;
    return Math.max(0, base - spent);
  }

  /** The element of `seat`'s clock, or null for a game without a clock. */
  badge(seat) {
    if (!this.clock) return null;
    const el = h("span", { class: "clock", role: "timer", dataset: { testid: `clock-${seat}`, clockSeat: seat } });
    this.draw(el);
    return el;
  }

  /** Redraw one badge (its text and data attributes). */
  draw(el) {
    const c = this.clock;
    const seat = Number(el.dataset.clockSeat);
    const left = this.left(seat);
    if (!c || left === null) return;
    const whole = Math.ceil(left - 1e-6); // 4:32 until 271.0 s, like any countdown
    const running = c.running === seat;
    const low = whole < LOW_TIME && (c.kind === "realtime" || running);
    el.textContent = formatClock(whole, c.kind);
    el.dataset.remaining = String(whole);
    el.dataset.running = String(running);
    el.dataset.low = String(low);
    el.className = `clock${running ? " running" : ""}${low ? " low" : ""}${c.kind === "turn" ? " turn" : ""}`;
    let title = c.kind === "turn" ? (running ? t("time left for this turn") : t("time for a turn")) : t("time left");
    if (running && c.deadline) {
      const at = new Date(c.deadline);
      if (!Number.isNaN(at.getTime()) && c.kind === "turn") title = t("time left for this turn (until {time})", { time: at.toLocaleString(language()) });
    }
    el.title = `${title} · ${clockLabel(c.spec)}`;
    const shown = formatClock(whole, c.kind);
    el.setAttribute("aria-label", running ? t("{time}, running", { time: shown }) : t("{time}, stopped", { time: shown }));
  }

  /** Redraw every badge under `root` every 250 ms (once started; idempotent). */
  start(root) {
    this.root = root;
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), 250);
  }

  tick() {
    if (!this.clock || !this.root || this.clock.running === null || this.clock.running === undefined) return;
    for (const el of this.root.querySelectorAll("[data-clock-seat]")) this.draw(el);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
