/**
 * The report dialog: a logged-in account tells the moderators about a player (abuse in the
 * chat, a bot playing for a person, an offensive name, something else), with a text of at
 * most 1000 characters. Opened from the "Report" button of a player page
 * ({@link module:player}) and from a name in a game's chat ({@link module:chat}).
 *
 * It posts `POST /api/players/{id}/report` (a player page) or
 * `POST /api/games/{id}/seats/{seat}/report` (a chat name: the server knows who sits
 * there), and shows the server's refusal in the dialog (already reported, too many reports
 * today, log in first...). A native `<dialog>` (modal, Escape closes it).
 * @module report
 */

import { request } from "./api.js";
import { N_, t } from "./i18n.js";
import { h } from "./util.js";

/** The reasons, as the server names them (`reports.REASONS`), with their labels. */
export const REPORT_REASONS = [
  ["chat", N_("abuse in the chat")],
  ["bot", N_("a bot plays for this player")],
  ["name", N_("an offensive name")],
  ["other", N_("something else")],
];

/** Characters in a report's text (the server's `reports.MAX_REPORT_TEXT`). */
export const MAX_REPORT_TEXT = 1000;

/**
 * Show the dialog to report a player.
 * @param {{name: string, playerId?: string, gameId?: string, seat?: number, reason?: string}} who
 *   the player's name (shown), and either its id or a game and seat; `gameId` with
 *   `playerId` names the game it happened in; `reason` the one chosen first
 * @returns {Promise<Object|null>} the report filed, or null when the dialog was closed
 */
export function openReportDialog(who) {
  return new Promise((resolve) => {
    let filed = null;
    const reason = h("select", { name: "reason", dataset: { testid: "report-reason" } },
      REPORT_REASONS.map(([value, label]) => h("option", { value, selected: value === (who.reason || "chat") ? true : null }, t(label))));
    const text = h("textarea", {
      name: "text", rows: 4, cols: 40, maxlength: MAX_REPORT_TEXT, dataset: { testid: "report-text" },
      placeholder: t("what happened (optional, except for something else)"),
    });
    const error = h("p", { class: "form-error", role: "alert", dataset: { testid: "report-error" } });
    const send = h("button", { type: "submit", class: "primary small", dataset: { testid: "report-send" } }, t("Send the report"));
    const cancel = h("button", { type: "button", class: "toggle", dataset: { testid: "report-cancel" }, onclick: () => dialog.close() }, t("Cancel"));
    const form = h("form", {
      method: "dialog", class: "report-form",
      onsubmit: async (ev) => {
        ev.preventDefault();
        send.disabled = true;
        error.textContent = "";
        try {
          const body = { reason: reason.value, text: text.value };
          let answer;
          if (who.playerId) {
            if (who.gameId) body.game_id = who.gameId;
            answer = await request("POST", `/api/players/${encodeURIComponent(who.playerId)}/report`, body);
          } else {
            answer = await request("POST", `/api/games/${encodeURIComponent(who.gameId)}/seats/${Number(who.seat)}/report`, body);
          }
          filed = answer.report;
          form.replaceChildren(
            h("p", { dataset: { testid: "report-done" } }, t("Thank you: the moderators will look at your report.")),
            h("button", { type: "button", class: "primary small", dataset: { testid: "report-close" }, onclick: () => dialog.close() }, t("Close")));
        } catch (e) {
          error.textContent = e.status === 429 && e.retryAfter
            ? t("{error} (wait {hours} h)", { error: e.message, hours: Math.max(1, Math.round(e.retryAfter / 3600)) })
            : e.message;
          send.disabled = false;
        }
      },
    },
    h("label", { class: "field" }, h("span", { class: "field-label" }, t("reason")), reason),
    h("label", { class: "field" }, h("span", { class: "field-label" }, t("what happened")), text),
    error,
    h("div", { class: "report-buttons" }, send, cancel));
    const dialog = h("dialog", { class: "report-dialog", "aria-label": t("Report a player"), dataset: { testid: "report-dialog" } },
      h("h3", {}, t("Report {name}", { name: who.name })),
      h("p", { class: "dim" }, t("Tell the moderators what this player did. Reports are private.")),
      form);
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(filed);
    });
    document.body.append(dialog);
    dialog.showModal();
    reason.focus();
  });
}
