/**
 * The moderation page (`/moderation`), for admins only (the role is granted with
 * `splendor admin grant NAME`; anybody else sees a refusal, and the server answers 403 to
 * every call anyway):
 *
 * - the **reports queue** (`GET /api/moderation/reports`): open reports first, each with
 *   the reporter, the reported player (banned? muted?), the reason and text, the game's
 *   link and the reported player's last chat lines; "Resolved" or "Dismiss" closes one;
 * - the **acts** on a reported player, or on one found by name: mute for a time, unmute,
 *   ban (with a reason), unban, rename;
 * - the **audit log** (`GET /api/moderation/audit`): every act, who, on whom, when.
 *
 * Names, texts and chat lines are untrusted: they are only ever set as text.
 * @module moderation
 */

import { request } from "./api.js";
import { N_, language, t } from "./i18n.js";
import { onIdentityChange, whenIdentityKnown } from "./identity.js";
import { REPORT_REASONS } from "./report.js";
import { h, replaceChildren } from "./util.js";

const REASON_LABELS = new Map(REPORT_REASONS);

/** Mute lengths offered, in minutes, with their labels. */
const MUTES = [[10, N_("10 minutes")], [60, N_("1 hour")], [1440, N_("1 day")], [10080, N_("1 week")]];

/** Audit actions' labels (the server's names). */
const ACTIONS = {
  grant: N_("made a moderator"), revoke: N_("no longer a moderator"), mute: N_("muted"), unmute: N_("unmuted"),
  ban: N_("banned"), unban: N_("unbanned"), rename: N_("renamed"), resolved: N_("report resolved"),
  dismissed: N_("report dismissed"),
};

/** A time for display in the reader's language ("" when not a time). */
function when(iso) {
  const d = iso ? new Date(iso) : null;
  return d && !Number.isNaN(d.getTime()) ? d.toLocaleString(language()) : "";
}

/** A link to a player's page (its name as text), or a dash. */
function playerLink(p) {
  if (!p) return h("span", { class: "dim" }, t("the command line"));
  return h("a", { href: `/players/${encodeURIComponent(p.id)}` }, h("bdi", {}, p.name ?? p.id));
}

/** Controller of the moderation page. */
export class ModerationPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.which = "open";
    this.reports = [];
    this.found = null;
    this.audit = [];
    this.error = "";
  }

  async start() {
    this.root.dataset.testid = "moderation-root";
    replaceChildren(this.root, h("p", { class: "loading" }, t("loading…")));
    onIdentityChange(() => this.load());
    await whenIdentityKnown();
    await this.load();
  }

  /** Fetch the queue and the audit log (a refusal: the page says so). */
  async load() {
    try {
      const [queue, audit] = await Promise.all([
        request("GET", `/api/moderation/reports?status=${this.which}`),
        request("GET", "/api/moderation/audit"),
      ]);
      this.reports = queue.reports;
      this.openCount = queue.open;
      this.audit = audit.entries;
    } catch (e) {
      this.root.dataset.state = e.status === 403 ? "forbidden" : "error";
      replaceChildren(this.root, h("div", { class: "fatal", dataset: { testid: "moderation-forbidden" } },
        e.status === 403 ? t("Only moderators can see this page.") : t("cannot load the moderation page: {error}", { error: e.message }),
        " · ", h("a", { href: "/" }, t("back to the lobby"))));
      return;
    }
    this.render();
  }

  render() {
    this.root.dataset.state = "ready";
    replaceChildren(this.root,
      h("h1", {}, t("Moderation")),
      h("p", { class: "form-error", role: "alert", dataset: { testid: "moderation-error" } }, this.error),
      h("section", { class: "moderation-reports", dataset: { testid: "moderation-reports", open: this.openCount } },
        h("h2", {}, t("Reports"), " ", h("span", { class: "dim" }, t("({n} open)", { n: this.openCount }))),
        h("label", { class: "field" }, h("input", {
          type: "checkbox", checked: this.which === "all" ? true : null, dataset: { testid: "moderation-show-all" },
          onchange: (ev) => { this.which = ev.target.checked ? "all" : "open"; this.load(); },
        }), " ", t("show the closed ones too")),
        this.reports.length
          ? h("ol", { class: "report-list" }, this.reports.map((r) => this.reportItem(r)))
          : h("p", { class: "dim", dataset: { testid: "moderation-no-reports" } }, t("No reports to look at."))),
      this.searchSection(),
      h("section", { class: "moderation-audit", dataset: { testid: "moderation-audit" } },
        h("h2", {}, t("Audit log")), this.auditTable()));
  }

  /** One report: who, why, where, the chat lines, the acts. */
  reportItem(r) {
    const reported = r.reported || {};
    return h("li", { class: `report-item ${r.status}`, dataset: { testid: `report-${r.id}`, status: r.status, reported: reported.id } },
      h("div", { class: "report-head" },
        h("strong", {}, REASON_LABELS.has(r.reason) ? t(REASON_LABELS.get(r.reason)) : r.reason), " · ",
        playerLink(r.reporter), " → ", playerLink(reported), this.badges(reported),
        h("span", { class: "dim" }, " · ", when(r.created_at)),
        r.game_url ? [" · ", h("a", { href: r.game_url, dataset: { testid: "report-game" } }, t("the game"))] : null),
      r.text ? h("blockquote", { class: "report-text", dataset: { testid: "report-text" } }, r.text) : null,
      r.chat && r.chat.length
        ? h("details", { class: "report-chat", open: true }, h("summary", {}, t("their last chat lines")),
          h("ul", {}, r.chat.map((m) => h("li", { dataset: { testid: "report-chat-line" } },
            h("span", { class: "dim" }, when(m.at), " "), h("bdi", {}, m.name), ": ", m.text))))
        : null,
      r.status === "open"
        ? h("div", { class: "report-close" },
          h("button", { type: "button", class: "toggle", dataset: { testid: "report-resolve" }, onclick: () => this.close(r.id, "resolved") }, t("Resolved")),
          h("button", { type: "button", class: "toggle", dataset: { testid: "report-dismiss" }, onclick: () => this.close(r.id, "dismissed") }, t("Dismiss")))
        : h("p", { class: "dim", dataset: { testid: "report-resolution" } }, t("closed: {resolution}", { resolution: r.resolution || "" })),
      reported.id ? this.acts(reported) : null);
  }

  /** "banned", "muted until …", "moderator" badges of a player. */
  badges(p) {
    return [
      p.role === "admin" ? h("span", { class: "badge account" }, t("moderator")) : null,
      p.banned_at ? h("span", { class: "badge banned", dataset: { testid: "badge-banned" }, title: p.ban_reason || "" }, t("banned")) : null,
      p.muted_until ? h("span", { class: "badge muted", dataset: { testid: "badge-muted" } }, t("muted until {time}", { time: when(p.muted_until) })) : null,
    ];
  }

  /** The acts on a player: mute/unmute, ban/unban (with a reason), rename. */
  acts(p) {
    if (p.role === "admin") return null;
    const minutes = h("select", { dataset: { testid: "mute-minutes" }, "aria-label": t("how long") },
      MUTES.map(([m, label]) => h("option", { value: m }, t(label))));
    const reason = h("input", { type: "text", maxlength: 500, size: 16, placeholder: t("reason"), dataset: { testid: "ban-reason" } });
    const name = h("input", { type: "text", maxlength: 40, size: 12, placeholder: t("new name"), dataset: { testid: "rename-name" } });
    const button = (testid, label, fn) => h("button", { type: "button", class: "toggle", dataset: { testid }, onclick: fn }, label);
    return h("div", { class: "moderation-acts", dataset: { testid: "moderation-acts" } },
      p.muted_until
        ? button("act-unmute", t("Unmute"), () => this.act(p.id, "unmute"))
        : [minutes, button("act-mute", t("Mute"), () => this.act(p.id, "mute", { minutes: Number(minutes.value) }))],
      p.banned_at
        ? button("act-unban", t("Unban"), () => this.act(p.id, "unban"))
        : [reason, button("act-ban", t("Ban"), () => this.act(p.id, "ban", { reason: reason.value }))],
      name, button("act-rename", t("Rename"), () => this.act(p.id, "rename", { name: name.value })));
  }

  /** Find a player by the start of its name (or its id), to act on it. */
  searchSection() {
    const input = h("input", { type: "search", size: 16, placeholder: t("name or id"), dataset: { testid: "moderation-search" } });
    const form = h("form", {
      class: "moderation-search", onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          this.found = (await request("GET", `/api/moderation/players?q=${encodeURIComponent(input.value)}`)).players;
          this.error = "";
        } catch (e) {
          this.error = e.message;
        }
        this.render();
      },
    }, input, h("button", { type: "submit", class: "primary small", dataset: { testid: "moderation-search-submit" } }, t("Find")));
    return h("section", { class: "moderation-players", dataset: { testid: "moderation-players" } },
      h("h2", {}, t("Players")), form,
      this.found === null ? null : this.found.length
        ? h("ul", { class: "found-players" }, this.found.map((p) => h("li", { dataset: { testid: `found-${p.id}` } },
          playerLink(p), p.account ? null : [" ", h("span", { class: "badge guest" }, t("guest"))], this.badges(p), this.acts(p))))
        : h("p", { class: "dim" }, t("No player found.")));
  }

  auditTable() {
    if (!this.audit.length) return h("p", { class: "dim" }, t("Nothing yet."));
    return h("table", { class: "audit-log" },
      h("thead", {}, h("tr", {}, [t("when"), t("who"), t("what"), t("whom"), t("details")].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, this.audit.map((e) => h("tr", { dataset: { testid: "audit-entry", action: e.action } },
        h("td", {}, when(e.at)), h("td", {}, playerLink(e.actor)),
        h("td", {}, ACTIONS[e.action] ? t(ACTIONS[e.action]) : e.action),
        h("td", {}, e.target ? playerLink(e.target) : ""),
        h("td", { class: "dim" }, e.details ? Object.entries(e.details).filter(([, v]) => v !== "" && v !== null).map(([k, v]) => `${k}: ${v}`).join(", ") : "")))));
  }

  async close(reportId, resolution) {
    await this.call("POST", `/api/moderation/reports/${reportId}/close`, { resolution });
  }

  async act(playerId, act, body = {}) {
    await this.call("POST", `/api/moderation/players/${encodeURIComponent(playerId)}/${act}`, body);
  }

  /** One act, then everything shown again (the server's refusal shows on top). */
  async call(method, path, body) {
    try {
      await request(method, path, body);
      this.error = "";
      if (this.found) this.found = null;
    } catch (e) {
      this.error = e.message;
    }
    await this.load();
  }
}
