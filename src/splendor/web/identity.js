/**
 * The identity bar at the top of every page: who plays on this browser (and the links
 * home and to the leaderboard).
 *
 * - Nobody: three small forms behind toggles, "Guest" (a name: play at once), "Log in" and
 *   "Sign up" (name and password); "Forgot your password?" under "Log in" asks for a name
 *   or an address and the server mails a reset link ({@link module:account_pages}).
 * - A logged-in player: a "Settings" link ({@link module:settings}).
 * - A guest or an account: its name, linking to its player page (a guest is marked
 *   "guest"), "Make an account" for a guest (choose a password; the guest keeps its id,
 *   games and ratings) and "Log out".
 *
 * The bar ends with the language switch (English, Français, Nederlands, each in its own
 * language; `language-select`): choosing one sets the cookie `lang` and reloads the page in
 * it ({@link module:i18n}).
 *
 * The server's refusals (its `detail`) show next to the form. The session is an HTTP-only
 * cookie that the server sets: this module never sees it. Names are shown as text only.
 * Other modules read the player with {@link currentPlayer} (or wait for the first answer
 * with {@link whenIdentityKnown}) and follow changes with {@link onIdentityChange}.
 * @module identity
 */

import * as api from "./api.js";
import { LANGUAGES, N_, language, setLanguage, t } from "./i18n.js";
import { startMeFeed, waitingBadge } from "./me_feed.js";
import { h, replaceChildren } from "./util.js";

/** Limits the server enforces too (names: `service.MAX_NAME`; passwords: `accounts`). */
const MAX_NAME = 40;
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 256;

const FORM_LABELS = { guest: N_("Play as guest"), login: N_("Log in"), signup: N_("Sign up"), forgot: N_("Send me a link") };

/**
 * The language switch: a `<select>` of the languages, each named in its own language;
 * choosing one remembers it (cookie `lang`) and reloads the page in it.
 */
export function languageSwitch() {
  const current = language();
  return h("select", {
    class: "language-switch", "aria-label": t("Language"), title: t("Language"), dataset: { testid: "language-select" },
    onchange: (ev) => setLanguage(ev.target.value),
  }, LANGUAGES.map(([code, name]) => h("option", { value: code, lang: code, selected: code === current ? true : null }, name)));
}

const listeners = new Set();
/** @type {Object|null|undefined} */
let current;

/**
 * The logged-in player `{id, name, account, created_at}`; null when nobody is logged in;
 * undefined until the server has answered.
 */
export function currentPlayer() {
  return current;
}

/**
 * Call `fn(player)` whenever the player is known or changes (first answer, guest, log-in,
 * sign-up, log-out). Returns a function that stops it.
 * @param {(player: Object|null) => void} fn
 */
export function onIdentityChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * The logged-in player (or null) once the server has answered who it is: at once when
 * known already.
 * @returns {Promise<Object|null>}
 */
export function whenIdentityKnown() {
  if (current !== undefined) return Promise.resolve(current);
  return new Promise((resolve) => {
    const stop = onIdentityChange((p) => {
      stop();
      resolve(p);
    });
  });
}

/** Where this tab tells the others that who is logged in changed (issue 33). */
const IDENTITY_KEY = "splendor.identity";
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(IDENTITY_KEY) : null;

/**
 * Tell the other open tabs of this site that the player changed (a sign-up, a log-in, a
 * log-out, a guest): a BroadcastChannel message, and a localStorage stamp for browsers
 * without one (their `storage` event); each tab then asks the server again.
 */
function announceIdentity() {
  if (channel) channel.postMessage({ type: "identity" });
  try {
    localStorage.setItem(IDENTITY_KEY, String(Date.now()));
  } catch {
    // storage refused (private mode): the channel, or the next visit, tells them
  }
}

function setCurrent(player) {
  current = player || null;
  for (const fn of [...listeners]) fn(current);
}

/** Controller of the identity bar. */
export class IdentityBar {
  /** @param {HTMLElement} root the bar's element (outside the page's own root) */
  constructor(root) {
    this.root = root;
    /** @type {Object|null|undefined} */
    this.player = undefined;
    /** The form shown: "guest", "login", "signup" or null (none). */
    this.form = null;
    /** The name typed so far, kept when switching forms. */
    this.draftName = "";
    this.busy = false;
    /** A message for the next drawing (then forgotten). */
    this.error = undefined;
  }

  /** Ask the server who is logged in, then draw; follow other tabs' changes on return. */
  async start() {
    this.root.dataset.testid = "identity";
    startMeFeed(); // WS /ws/me while a player is logged in: the count of games waiting on them
    this.render();
    await this.refresh();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && !this.busy) this.refresh(true);
    });
    // another tab signed up, logged in or out: ask again at once, even if this tab is in view
    const again = () => { if (!this.busy) this.refresh(true); };
    if (channel) channel.addEventListener("message", again);
    window.addEventListener("storage", (ev) => { if (ev.key === IDENTITY_KEY) again(); });
  }

  /**
   * `GET /api/players/me` and draw. `quiet`: only redraw when the player changed (a
   * log-in or log-out in another tab), never on a failure.
   */
  async refresh(quiet = false) {
    let player;
    try {
      player = (await api.getMe()).player || null;
    } catch (e) {
      if (quiet) return;
      player = null;
      this.error = t("cannot tell who you are: {error}", { error: e.message });
    }
    const same = (a, b) => (a && b ? a.id === b.id && a.name === b.name && a.account === b.account : a === b);
    if (quiet && same(player, this.player)) return;
    this.player = player;
    this.form = player ? null : "guest";
    this.render();
    setCurrent(player);
  }

  /** Redraw the bar; then focus the element matching `focus`, if given. */
  render(focus = null) {
    const p = this.player;
    this.root.dataset.state = p === undefined ? "loading" : p === null ? "anonymous" : p.account ? "account" : "guest";
    if (p) this.root.dataset.playerId = p.id;
    else delete this.root.dataset.playerId;
    this.root.setAttribute("aria-label", t("your player"));
    let body;
    if (p === undefined) body = h("span", { class: "dim" }, "…");
    else if (p === null) body = this.anonymous();
    else body = this.loggedIn(p);
    replaceChildren(this.root,
      h("a", { href: "/", class: "home", dataset: { testid: "home-link" } }, "Splendor"),
      h("a", { href: "/leaderboard", class: "nav-link", dataset: { testid: "leaderboard-link" } }, t("Leaderboard")),
      h("a", { href: "/tournaments", class: "nav-link", dataset: { testid: "tournaments-link" } }, t("Tournaments")),
      p && p.role === "admin" ? h("a", { href: "/moderation", class: "nav-link", dataset: { testid: "moderation-link" } }, t("Moderation")) : null,
      p ? waitingBadge() : null,
      p ? h("a", { href: "/friends", class: "nav-link", dataset: { testid: "friends-link" } }, t("Friends")) : null,
      p ? h("a", { href: "/settings", class: "nav-link", dataset: { testid: "settings-link" } }, t("Settings")) : null,
      h("div", { class: "identity-main" }, body,
        h("span", { class: "form-error identity-error", role: "status", "aria-live": "polite", dataset: { testid: "identity-error" } }, this.error || "")),
      languageSwitch());
    this.error = undefined;
    if (focus) {
      const el = this.root.querySelector(focus);
      if (el) el.focus();
    }
  }

  /** Nobody logged in: the toggles and the form chosen. */
  anonymous() {
    const form = this.form || "guest";
    const toggle = (which, label) => h("button", {
      type: "button", class: `toggle${form === which ? " active" : ""}`, "aria-pressed": String(form === which),
      dataset: { testid: `show-${which}` }, onclick: () => this.show(which),
    }, label);
    return [
      h("span", { class: "toggles", role: "group", "aria-label": t("how to play") },
        toggle("guest", t("Guest")), toggle("login", t("Log in")), toggle("signup", t("Sign up"))),
      this.formFor(form),
    ];
  }

  /** A guest or an account: its name and the buttons. */
  loggedIn(p) {
    const open = this.form === "signup";
    return [
      h("span", { class: "dim" }, t("playing as")),
      h("a", { href: `/players/${encodeURIComponent(p.id)}`, class: "identity-name", title: t("your player page"), dataset: { testid: "identity-name" } },
        h("bdi", {}, p.name)),
      p.account ? null : h("span", { class: "badge guest", title: t("a guest has no password: only this browser can play as it"), dataset: { testid: "identity-guest" } }, t("guest")),
      p.account ? null : h("button", {
        type: "button", class: `toggle${open ? " active" : ""}`, "aria-expanded": String(open),
        dataset: { testid: "show-signup" }, onclick: () => this.show(open ? null : "signup"),
      }, t("Make an account")),
      h("button", { type: "button", class: "toggle", dataset: { testid: "logout" }, onclick: () => this.logout() }, t("Log out")),
      open ? this.formFor("signup") : null,
    ];
  }

  /** Show one form (or none), keeping the name typed so far; focus its first empty field. */
  show(which) {
    if (this.busy) return;
    this.form = which;
    if (which === "signup" && this.player) this.draftName = this.player.name;
    const focus = which === "signup" && this.player ? `[data-testid=signup-password]` : which ? `[data-testid=${which}-name]` : null;
    this.render(focus);
  }

  /** "Forgot your password?": a name or an address; the server mails a link to choose a
   * new one (to a verified address only) and answers the same whatever exists. */
  forgotForm() {
    const input = h("input", {
      type: "text", name: "name_or_email", required: true, maxlength: 254, size: 18, value: this.draftName,
      autocomplete: "username", spellcheck: "false", dataset: { testid: "forgot-name" },
    });
    const form = h("form", {
      class: "identity-form", "aria-label": t("Forgot your password?"), dataset: { testid: "forgot-form" },
      onsubmit: async (ev) => {
        ev.preventDefault();
        if (this.busy) return;
        this.setBusy(true);
        try {
          const res = await api.request("POST", "/api/players/reset", { name_or_email: input.value });
          this.setBusy(false);
          this.showError(res.detail);
        } catch (e) {
          this.setBusy(false);
          this.showError(e.message);
        }
      },
    },
    h("label", { class: "field" }, h("span", { class: "field-label" }, t("name or e-mail address")), input),
    h("button", { type: "submit", class: "primary small", dataset: { testid: "forgot-submit" } }, t(FORM_LABELS.forgot)));
    return form;
  }

  /** The form of `kind` ("guest", "login", "signup", "forgot"); Enter in any field submits. */
  formFor(kind) {
    if (kind === "forgot") return this.forgotForm();
    const makeAccount = kind === "signup" && !!this.player;
    const label = makeAccount ? t("Create the account") : t(FORM_LABELS[kind]);
    const field = (text, input) => h("label", { class: "field" }, h("span", { class: "field-label" }, text), input);
    const name = h("input", {
      type: "text", name: "name", value: this.draftName, required: true, maxlength: MAX_NAME, size: 14,
      autocomplete: kind === "guest" ? "nickname" : "username", spellcheck: "false",
      dataset: { testid: `${kind}-name` }, oninput: (ev) => { this.draftName = ev.target.value; },
    });
    const password = kind === "guest" ? null : h("input", {
      type: "password", name: "password", required: true, maxlength: MAX_PASSWORD, size: 14,
      minlength: kind === "signup" ? MIN_PASSWORD : null, placeholder: kind === "signup" ? t("{n}+ characters", { n: MIN_PASSWORD }) : null,
      autocomplete: kind === "signup" ? "new-password" : "current-password", dataset: { testid: `${kind}-password` },
    });
    const form = h("form", {
      class: "identity-form", "aria-label": label, dataset: { testid: `${kind}-form` },
      onsubmit: (ev) => {
        ev.preventDefault();
        this.submit(kind, form);
      },
    },
    field(makeAccount ? t("account name") : t("name"), name),
    password ? field(makeAccount ? t("choose a password") : t("password"), password) : null,
    h("button", { type: "submit", class: "primary small", dataset: { testid: `${kind}-submit` } }, label),
    kind === "login" ? h("button", { type: "button", class: "link-button", dataset: { testid: "show-forgot" }, onclick: () => this.show("forgot") }, t("Forgot your password?")) : null);
    return form;
  }

  /** Send a form; on success show the player, on a refusal show the server's reason. */
  async submit(kind, form) {
    if (this.busy) return;
    const name = form.querySelector("input[name=name]").value;
    const pwInput = form.querySelector("input[name=password]");
    this.setBusy(true);
    this.showError("");
    let res;
    try {
      if (kind === "guest") res = await api.playAsGuest(name);
      else if (kind === "login") res = await api.logIn(name, pwInput.value);
      else res = await api.signUp(name, pwInput.value);
    } catch (e) {
      this.setBusy(false);
      this.showError(e.message);
      const again = pwInput && e.status === 401 ? pwInput : null; // a wrong password: type it again
      if (again) {
        again.value = "";
        again.focus();
      }
      return;
    }
    this.setBusy(false);
    this.player = res.player;
    this.form = null;
    this.draftName = "";
    this.render(`[data-testid=identity-name]`);
    setCurrent(this.player);
    announceIdentity();
  }

  async logout() {
    if (this.busy) return;
    this.setBusy(true);
    this.showError("");
    try {
      await api.logOut();
    } catch (e) {
      this.setBusy(false);
      this.showError(e.message);
      return;
    }
    this.setBusy(false);
    this.player = null;
    this.form = "guest";
    this.draftName = "";
    this.render(`[data-testid=show-guest]`);
    setCurrent(null);
    announceIdentity();
  }

  /** Disable the bar's buttons while a request is on its way (no double submits). */
  setBusy(busy) {
    this.busy = busy;
    this.root.setAttribute("aria-busy", String(busy));
    for (const b of this.root.querySelectorAll("button")) b.disabled = busy;
  }

  showError(text) {
    const el = this.root.querySelector("[data-testid=identity-error]");
    if (el) el.textContent = text;
  }
}
