/**
 * The settings page (`/settings`) of the logged-in player:
 *
 * - **E-mail address** (accounts only): set or change it (a verification link is mailed to
 *   it), whether it is verified, "send the link again", remove it. Only a verified address
 *   receives password resets and notifications.
 * - **Password** (accounts only): the current one and a new one; the other browsers are
 *   logged out.
 * - **Notifications**: {@link module:notify_settings}'s section.
 * - **Delete**: an account confirms with its password (a guest needs none) and a box to
 *   tick; the games stay under an anonymous name.
 *
 * Every refusal of the server (its `detail`) shows next to its form.
 * @module settings
 */

import * as api from "./api.js";
import { t } from "./i18n.js";
import { onIdentityChange, whenIdentityKnown } from "./identity.js";
import { mountNotificationSettings } from "./notify_settings.js";
import { readerMode, setReaderMode } from "./reader.js";
import { h, replaceChildren } from "./util.js";

/** Limits the server enforces too (`accounts.MIN_PASSWORD`, `mailer.MAX_ADDRESS`). */
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 256;
const MAX_ADDRESS = 254;

const field = (label, input) => h("label", { class: "field" }, h("span", { class: "field-label" }, label), input);

/**
 * The screen-reader mode ({@link module:reader}): a box, kept in this browser, saved at once.
 * @returns {HTMLElement}
 */
function readerSection() {
  return h("section", { class: "settings-section", dataset: { testid: "settings-reader" } },
    h("h2", {}, t("Screen-reader mode")),
    h("p", { class: "dim" }, t("The game page shows the table as text with headings, says every move, and takes moves typed as words.")),
    h("label", { class: "field" },
      h("input", { type: "checkbox", checked: readerMode() ? true : null, dataset: { testid: "settings-reader-mode" }, onchange: (ev) => setReaderMode(ev.target.checked) }),
      h("span", {}, t("Use the screen-reader mode in this browser"))));
}

/** Controller of the settings page. */
export class SettingsPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.player = undefined;
  }

  async start() {
    this.root.dataset.testid = "settings";
    this.root.dataset.state = "loading";
    this.player = await whenIdentityKnown();
    this.render();
    onIdentityChange((p) => {
      if ((p && p.id) !== (this.player && this.player.id) || (p && p.account) !== (this.player && this.player.account)) {
        this.player = p;
        this.render();
      }
    });
  }

  render() {
    const p = this.player;
    this.root.dataset.state = p ? "ready" : "anonymous";
    if (!p) {
      replaceChildren(this.root, h("h1", {}, t("Settings")),
        h("p", { dataset: { testid: "settings-anonymous" } }, t("Log in or play as a guest to see your settings.")),
        readerSection());
      return;
    }
    const notifications = h("section", { class: "settings-section", dataset: { testid: "settings-notifications" } });
    replaceChildren(this.root,
      h("h1", {}, t("Settings")),
      this.emailSection(p),
      this.passwordSection(p),
      notifications,
      readerSection(),
      this.deleteSection(p));
    mountNotificationSettings(notifications, p);
  }

  /** A form's status line (`role=status`) and a sender that shows the server's refusal. */
  async send(status, action) {
    status.textContent = "";
    status.classList.remove("form-error");
    try {
      return await action();
    } catch (e) {
      status.classList.add("form-error");
      status.textContent = e.message;
      return null;
    }
  }

  /** Show the new player everywhere (the identity bar keeps its own copy). */
  changed(player) {
    this.player = { ...this.player, ...player };
    if (window.__identity) window.__identity.refresh(true);
    this.render();
  }

  emailSection(p) {
    const section = h("section", { class: "settings-section", dataset: { testid: "settings-email" } }, h("h2", {}, t("E-mail address")));
    if (!p.account) {
      section.append(h("p", { class: "dim" }, t("Make an account to add an e-mail address: it lets you reset your password and be told when it is your turn.")));
      return section;
    }
    const status = h("p", { class: "form-status", role: "status", dataset: { testid: "email-status" } });
    const input = h("input", { type: "email", name: "email", value: p.email || "", maxlength: MAX_ADDRESS, size: 28, autocomplete: "email", required: true, dataset: { testid: "email-input" } });
    const state = p.email
      ? h("p", { dataset: { testid: "email-state", verified: String(!!p.email_verified) } },
        h("bdi", {}, p.email), " ",
        p.email_verified ? h("span", { class: "badge verified" }, t("verified")) : h("span", { class: "badge unverified" }, t("not verified yet: open the link we mailed you")))
      : h("p", { class: "dim", dataset: { testid: "email-state", verified: "false" } }, t("No address yet."));
    const form = h("form", {
      class: "settings-form", "aria-label": t("E-mail address"),
      onsubmit: async (ev) => {
        ev.preventDefault();
        const res = await this.send(status, () => api.request("POST", "/api/players/me/email", { email: input.value }));
        if (!res) return;
        this.changed(res.player);
        this.say("email-status", res.sent ? t("A link to confirm the address is on its way to {email}.", { email: res.player.email }) : t("This address is verified already."));
      },
    }, field(t("address"), input), h("button", { type: "submit", class: "primary small", dataset: { testid: "email-save" } }, t("Save and send the link")));
    const resend = p.email && !p.email_verified ? h("button", {
      type: "button", class: "small", dataset: { testid: "email-resend" },
      onclick: async () => {
        const res = await this.send(status, () => api.request("POST", "/api/players/me/email/resend"));
        if (res) this.say("email-status", t("A new link is on its way to {email}.", { email: res.player.email }));
      },
    }, t("Send the link again")) : null;
    const remove = p.email ? h("button", {
      type: "button", class: "small", dataset: { testid: "email-remove" },
      onclick: async () => {
        const res = await this.send(status, () => api.request("DELETE", "/api/players/me/email"));
        if (res) this.changed(res.player);
      },
    }, t("Remove the address")) : null;
    section.append(state, form, h("p", {}, resend, " ", remove), status);
    return section;
  }

  /** After a redraw: a message in the status line `testid`. */
  say(testid, text) {
    const el = this.root.querySelector(`[data-testid=${testid}]`);
    if (el) el.textContent = text;
  }

  passwordSection(p) {
    if (!p.account) return null; // a guest has no password
    const section = h("section", { class: "settings-section", dataset: { testid: "settings-password" } }, h("h2", {}, t("Password")));
    const status = h("p", { class: "form-status", role: "status", dataset: { testid: "password-status" } });
    const current = h("input", { type: "password", name: "current", required: true, maxlength: MAX_PASSWORD, autocomplete: "current-password", dataset: { testid: "password-current" } });
    const next = h("input", { type: "password", name: "new", required: true, minlength: MIN_PASSWORD, maxlength: MAX_PASSWORD, autocomplete: "new-password", placeholder: t("{n}+ characters", { n: MIN_PASSWORD }), dataset: { testid: "password-new" } });
    section.append(h("form", {
      class: "settings-form", "aria-label": t("Password"),
      onsubmit: async (ev) => {
        ev.preventDefault();
        const res = await this.send(status, () => api.request("POST", "/api/players/me/password", { current: current.value, new: next.value }));
        current.value = "";
        next.value = "";
        if (res) status.textContent = t("Your password is changed; your other browsers are logged out.");
      },
    }, field(t("current password"), current), field(t("new password"), next),
    h("button", { type: "submit", class: "primary small", dataset: { testid: "password-save" } }, t("Change the password"))), status);
    return section;
  }

  deleteSection(p) {
    const status = h("p", { class: "form-status", role: "status", dataset: { testid: "delete-status" } });
    const password = p.account ? h("input", { type: "password", name: "password", required: true, maxlength: MAX_PASSWORD, autocomplete: "current-password", dataset: { testid: "delete-password" } }) : null;
    const sure = h("input", { type: "checkbox", required: true, dataset: { testid: "delete-confirm" } });
    return h("section", { class: "settings-section danger", dataset: { testid: "settings-delete" } },
      h("h2", {}, p.account ? t("Delete the account") : t("Delete this guest")),
      h("p", { class: "dim" }, t("Your games stay, under an anonymous name; your name, address, password and settings are removed. This cannot be undone.")),
      h("form", {
        class: "settings-form", "aria-label": t("Delete"),
        onsubmit: async (ev) => {
          ev.preventDefault();
          const body = p.account ? { password: password.value } : {};
          const res = await this.send(status, () => api.request("DELETE", "/api/players/me", body));
          if (!res) return;
          if (window.__identity) await window.__identity.refresh();
          replaceChildren(this.root, h("h1", {}, t("Settings")),
            h("p", { dataset: { testid: "deleted" } }, t("Deleted. Your games now show the name {name}.", { name: res.name })));
        },
      }, password ? field(t("password"), password) : null,
      h("label", { class: "field" }, sure, h("span", {}, t("I understand"))),
      h("button", { type: "submit", class: "danger small", dataset: { testid: "delete-submit" } }, t("Delete"))),
      status);
  }
}
