/**
 * The chat at a game's table: the history (`GET /api/games/{id}/chat`) when the page opens
 * and after every reconnection, the live messages from the game's WebSocket, and for a
 * seated player an input (at most 300 characters, Enter sends) that posts
 * (`POST /api/games/{id}/chat`). Spectators read only. Names and messages are untrusted:
 * they are only ever set as text, never as HTML.
 * @module chat
 */

import * as api from "./api.js";
import { guestBadge } from "./badges.js";
import { language, t } from "./i18n.js";
import { currentPlayer } from "./identity.js";
import { openReportDialog } from "./report.js";
import { h, replaceChildren } from "./util.js";

/** Characters in one message (the server's `chat.MAX_CHAT_LENGTH`). */
export const MAX_CHAT = 300;

/** A message's identity: the same message from the POST answer and the socket shows once. */
const keyOf = (m) => `${m.seat}|${m.at}|${m.text}`;

/** The panel of one game page; `el` is its element, made once and kept across redraws. */
export class ChatPanel {
  /**
   * @param {string} gameId
   * @param {() => string|null} token the page's seat token (null: the session's seat)
   */
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token;
    /** @type {Array<{seat: number, name: string, text: string, at: string}>} */
    this.messages = [];
    this.keys = new Set();
    this.seated = null;
    this.sending = false;
    this.list = h("ol", { class: "chat-list", "aria-live": "polite", dataset: { testid: "chat-list" } });
    this.empty = h("p", { class: "dim chat-empty", dataset: { testid: "chat-empty" } }, t("No messages yet."));
    this.error = h("div", { class: "form-error chat-error", role: "alert", dataset: { testid: "chat-error" } });
    this.input = h("input", {
      type: "text", maxlength: MAX_CHAT, autocomplete: "off", placeholder: t("say something…"),
      "aria-label": t("chat message"), dataset: { testid: "chat-input" },
      oninput: () => this.updateCount(),
    });
    this.count = h("span", { class: "dim chat-count", "aria-hidden": "true" });
    this.button = h("button", { type: "submit", class: "primary small", dataset: { testid: "chat-send" } }, t("Send"));
    this.form = h("form", {
      class: "chat-form", "aria-label": t("send a chat message"),
      onsubmit: (ev) => {
        ev.preventDefault();
        this.send();
      },
    }, this.input, this.button, this.count);
    this.readonly = h("p", { class: "dim chat-readonly", dataset: { testid: "chat-readonly" } }, t("Only the players can write here."));
    this.el = h("section", { class: "chat", "aria-label": t("Chat"), dataset: { testid: "chat", count: 0 } },
      h("h3", {}, t("Chat")), this.empty, this.list, this.error, this.form, this.readonly);
    this.setSeated(false);
    this.updateCount();
  }

  /** Whether the viewer holds a seat (may write); hides the form for a spectator. */
  setSeated(seated) {
    if (seated === this.seated) return;
    this.seated = seated;
    this.form.hidden = !seated;
    this.input.disabled = !seated;
    this.button.disabled = !seated;
    this.readonly.hidden = seated;
    this.el.dataset.seated = String(seated);
  }

  /** Fetch the history and merge it with what arrived live. */
  async load() {
    let r;
    try {
      r = await api.getChat(this.gameId);
    } catch (e) {
      this.showError(t("cannot load the chat: {error}", { error: e.message }));
      return;
    }
    this.showError("");
    for (const m of (r && r.messages) || []) this.add(m, false);
    this.redraw();
  }

  /** A message (from the socket, the POST answer or the history); shown once. */
  add(m, draw = true) {
    if (!m || typeof m !== "object" || typeof m.text !== "string") return;
    const k = keyOf(m);
    if (this.keys.has(k)) return;
    this.keys.add(k);
    this.messages.push(m);
    if (!draw) return;
    const last = this.messages[this.messages.length - 2];
    if (last && time(last) > time(m)) this.redraw(); // out of order: sort again
    else {
      const stick = this.atBottom();
      this.list.append(this.item(m));
      this.after(stick);
    }
  }

  redraw() {
    const stick = this.atBottom();
    this.messages.sort((a, b) => time(a) - time(b));
    replaceChildren(this.list, this.messages.map((m) => this.item(m)));
    this.after(stick);
  }

  after(stick) {
    this.empty.hidden = this.messages.length > 0;
    this.el.dataset.count = String(this.messages.length);
    if (stick) this.list.scrollTop = this.list.scrollHeight;
  }

  atBottom() {
    const l = this.list;
    return l.scrollHeight - l.scrollTop - l.clientHeight < 24;
  }

  /** One message: the writer's name and the text, both as text. */
  item(m) {
    const at = new Date(m.at);
    const when = Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
    return h("li", { class: `chat-message seat-${Number(m.seat) || 0}`, dataset: { testid: "chat-message", seat: m.seat }, title: Number.isNaN(at.getTime()) ? null : at.toLocaleString(language()) },
      when ? h("span", { class: "chat-time dim" }, when, " ") : null,
      this.nameOf(m), m.guest ? [" ", guestBadge()] : null, ": ",
      h("span", { class: "chat-text", dataset: { testid: "chat-text" } }, m.text));
  }

  /** The writer's name; for an account reading another player's line, a button that
   * opens the report dialog about that seat's player ({@link module:report}). */
  nameOf(m) {
    const name = h("bdi", { class: "chat-name" }, String(m.name ?? t("seat {seat}", { seat: Number(m.seat) + 1 })));
    const me = currentPlayer();
    if (!me || !me.account || m.name === me.name || !Number.isInteger(m.seat)) return name;
    return h("button", {
      type: "button", class: "chat-report", title: t("report {name} to the moderators", { name: String(m.name) }),
      dataset: { testid: "chat-report" }, onclick: () => openReportDialog({ name: String(m.name), gameId: this.gameId, seat: m.seat }),
    }, name);
  }

  updateCount() {
    const n = this.input.value.length;
    this.count.textContent = n > MAX_CHAT - 60 ? `${MAX_CHAT - n}` : "";
  }

  /** Send the input's text; the server's refusal shows under the list. */
  async send() {
    if (this.sending || !this.seated) return;
    const text = this.input.value.trim();
    if (!text) {
      this.showError(t("write something first"));
      return;
    }
    if (text.length > MAX_CHAT) {
      this.showError(t("at most {n} characters", { n: MAX_CHAT }));
      return;
    }
    this.sending = true;
    this.button.disabled = true;
    this.showError("");
    try {
      const m = await api.postChat(this.gameId, this.token(), text);
      this.input.value = "";
      this.updateCount();
      this.add(m);
    } catch (e) {
      let why = e.message;
      if (e.status === 429) why = e.retryAfter ? t("too many messages; wait {seconds} s", { seconds: e.retryAfter }) : t("too many messages; wait a little");
      else if (e.status === 403) why = t("you cannot write here: {error}", { error: e.message });
      this.showError(why);
    } finally {
      this.sending = false;
      this.button.disabled = !this.seated;
      if (this.seated) this.input.focus();
    }
  }

  showError(text) {
    this.error.textContent = text;
  }
}

function time(m) {
  const t = Date.parse(m.at);
  return Number.isNaN(t) ? 0 : t;
}
