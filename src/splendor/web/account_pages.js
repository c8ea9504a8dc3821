/**
 * The pages the links of account mails open:
 *
 * - `/verify-email?token=…` ({@link VerifyEmailPage}): confirms the address at once
 *   (`POST /api/players/verify-email`) and says so, or says why not (a used, expired or
 *   unknown link).
 * - `/reset?token=…` ({@link ResetPage}): a form for the new password
 *   (`POST /api/players/reset/confirm`); then the player logs in with it.
 *
 * Both take the token out of the address bar first (`history.replaceState`), so that it
 * stays out of the history and of screenshots.
 * @module account_pages
 */

import * as api from "./api.js";
import { t } from "./i18n.js";
import { h, replaceChildren } from "./util.js";

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 256;

/** The `token` of the page's address, removed from the address bar. */
function takeToken() {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  if (params.has("token")) history.replaceState(null, "", location.pathname);
  return token;
}

/** `/verify-email?token=…`: confirms an e-mail address. */
export class VerifyEmailPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.token = takeToken();
  }

  async start() {
    this.root.dataset.testid = "verify-email";
    this.root.dataset.state = "loading";
    replaceChildren(this.root, h("h1", {}, t("E-mail address")), h("p", { class: "dim" }, "…"));
    let text;
    try {
      const res = await api.request("POST", "/api/players/verify-email", { token: this.token });
      this.root.dataset.state = "verified";
      text = t("Your address {email} is verified.", { email: res.email });
    } catch (e) {
      this.root.dataset.state = "failed";
      text = e.message;
    }
    replaceChildren(this.root, h("h1", {}, t("E-mail address")),
      h("p", { role: "status", dataset: { testid: "verify-result" } }, text),
      h("p", {}, h("a", { href: "/settings" }, t("Your settings")), " · ", h("a", { href: "/" }, t("To the lobby"))));
  }
}

/** `/reset?token=…`: chooses a new password. */
export class ResetPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.token = takeToken();
  }

  start() {
    this.root.dataset.testid = "reset";
    this.root.dataset.state = "ready";
    const status = h("p", { class: "form-status", role: "status", dataset: { testid: "reset-status" } });
    const password = h("input", {
      type: "password", name: "password", required: true, minlength: MIN_PASSWORD, maxlength: MAX_PASSWORD,
      autocomplete: "new-password", placeholder: t("{n}+ characters", { n: MIN_PASSWORD }), dataset: { testid: "reset-password" },
    });
    const again = h("input", { type: "password", name: "again", required: true, maxlength: MAX_PASSWORD, autocomplete: "new-password", dataset: { testid: "reset-again" } });
    const field = (label, input) => h("label", { class: "field" }, h("span", { class: "field-label" }, label), input);
    const form = h("form", {
      class: "settings-form", "aria-label": t("Choose a new password"),
      onsubmit: async (ev) => {
        ev.preventDefault();
        status.classList.add("form-error");
        if (password.value !== again.value) {
          status.textContent = t("the two passwords differ");
          return;
        }
        try {
          await api.request("POST", "/api/players/reset/confirm", { token: this.token, password: password.value });
        } catch (e) {
          status.textContent = e.message;
          return;
        }
        this.root.dataset.state = "done";
        replaceChildren(this.root, h("h1", {}, t("Choose a new password")),
          h("p", { role: "status", dataset: { testid: "reset-done" } }, t("Your password is changed. Log in with it (every browser was logged out).")));
        if (window.__identity) {
          await window.__identity.refresh();
          window.__identity.show("login");
        }
      },
    }, field(t("new password"), password), field(t("the same again"), again),
    h("button", { type: "submit", class: "primary small", dataset: { testid: "reset-submit" } }, t("Set the password")));
    replaceChildren(this.root, h("h1", {}, t("Choose a new password")), form, status);
    password.focus();
  }
}
