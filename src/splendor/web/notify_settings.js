/**
 * The notifications' part of the settings page (`settings.js` calls
 * {@link mountNotificationSettings}): for each channel (e-mail, push, this browser's open
 * tabs) a switch, and for each kind of notice (your turn, a deadline, a game starting, a
 * table filling, a tournament round, an invitation) a box per channel; the button that
 * turns push on for this browser; where mails go. Every change is saved at once
 * (`PUT /api/players/me/notifications`).
 * @module notify_settings
 */

import { request } from "./api.js";
import { N_, t } from "./i18n.js";
import { currentSubscription, disablePush, enablePush, notificationPermission, pushSupported } from "./notify.js";
import { h } from "./util.js";

/** The channels' names, by the server's names. */
const CHANNEL_NAMES = { email: N_("E-mail"), push: N_("Push"), browser: N_("Open tabs") };

/** The kinds' names, by the server's names. */
const KIND_NAMES = {
  turn: N_("Your turn (turn-based games)"),
  deadline: N_("Your time is running out"),
  start: N_("A game of yours starts"),
  table: N_("A player sits at your table"),
  tournament: N_("A tournament round is ready"),
  invite: N_("A friend invites you"),
};

/** `GET /api/players/me/notifications`. */
export function getNotificationSettings() {
  return request("GET", "/api/players/me/notifications");
}

/** `PUT /api/players/me/notifications` with a (partial) change; answers the new settings. */
export function putNotificationSettings(change) {
  return request("PUT", "/api/players/me/notifications", change);
}

/** The sentence about where mails go. */
function emailLine(email) {
  if (email.address && email.verified) return t("Mails go to {address}.", { address: email.address });
  if (email.address) return t("Confirm your address {address} (the link we sent) to receive mails.", { address: email.address });
  return t("Add an e-mail address to your account to receive mails.");
}

/** The table of switches: a row for each channel's "on" and for each kind. */
function switches(data, save) {
  const box = (channel, name) => h("input", {
    type: "checkbox",
    checked: data.settings[channel][name],
    disabled: name !== "on" && !data.settings[channel].on,
    dataset: { testid: `notify-${channel}-${name}` },
    "aria-label": `${t(CHANNEL_NAMES[channel] || channel)}: ${name === "on" ? t("on") : t(KIND_NAMES[name] || name)}`,
    onchange: (ev) => save({ [channel]: { [name]: ev.target.checked } }),
  });
  const head = h("tr", {}, h("th", {}, ""), data.channels.map((c) => h("th", { scope: "col" }, t(CHANNEL_NAMES[c] || c))));
  const on = h("tr", { class: "notify-on" }, h("th", { scope: "row" }, t("On")), data.channels.map((c) => h("td", {}, box(c, "on"))));
  const rows = data.kinds.map((k) => h("tr", {}, h("th", { scope: "row" }, t(KIND_NAMES[k] || k)), data.channels.map((c) => h("td", {}, box(c, k)))));
  return h("table", { class: "notify-table" }, h("thead", {}, head), h("tbody", {}, on, rows));
}

/** The push part: this browser's state and its button. */
async function pushPart(redraw, say) {
  if (!pushSupported()) return h("p", { class: "muted" }, t("This browser cannot receive push notifications."));
  const subscribed = Boolean(await currentSubscription().catch(() => null));
  const act = async (fn) => {
    say("");
    try {
      await fn();
    } catch (e) {
      say(e.message);
    }
    redraw();
  };
  if (subscribed && notificationPermission() === "granted") {
    return h("p", {}, t("Push notifications are on for this browser."), " ",
      h("button", { type: "button", dataset: { testid: "notify-push-disable" }, onclick: () => act(disablePush) }, t("Turn them off")));
  }
  return h("p", {},
    h("button", { type: "button", dataset: { testid: "notify-push-enable" }, onclick: () => act(enablePush) }, t("Turn on push notifications for this browser")));
}

/**
 * Draw the notification settings of `player` into `el` (replacing what it holds).
 * @param {HTMLElement} el the settings page's section
 * @param {{id: string, name: string}|null} player the logged-in player (null: nobody)
 */
export async function mountNotificationSettings(el, player) {
  el.classList.add("notify-settings");
  el.dataset.testid = el.dataset.testid || "notify-settings";
  const title = h("h2", {}, t("Notifications"));
  if (!player) {
    el.replaceChildren(title, h("p", {}, t("Log in or play as a guest to choose your notifications.")));
    return;
  }
  const status = h("p", { class: "error", role: "alert", dataset: { testid: "notify-error" } });
  const say = (text) => { status.textContent = text || ""; };
  let data;
  const draw = async () => {
    const push = await pushPart(draw, say);
    el.replaceChildren(title,
      h("p", { dataset: { testid: "notify-email-line" } }, emailLine(data.email)),
      switches(data, save), push, status);
  };
  const save = async (change) => {
    say("");
    try {
      data = await putNotificationSettings(change);
    } catch (e) {
      say(e.message);
    }
    await draw();
  };
  try {
    data = await getNotificationSettings();
  } catch (e) {
    el.replaceChildren(title, h("p", { class: "error" }, e.message));
    return;
  }
  await draw();
}
