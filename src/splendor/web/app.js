/**
 * The router: reads the reader's language first ({@link module:i18n}), starts the identity
 * bar (every page), then picks the page from the URL (`/` lobby, `/games/{id}` game,
 * `/games/{id}/replay` replay viewer, `/players/{id}` player page, `/tables/{id}` a lobby
 * table, where invitation links lead, `/leaderboard`, `/howto/{game}` how to play, `/games`
 * my games, `/friends` friends and blocks, `/moderation` the moderators' page, `/settings`
 * the player's settings, `/reset` and `/verify-email` where account mails lead) and
 * starts it.
 * @module app
 */

import { ResetPage, VerifyEmailPage } from "./account_pages.js";
import { GamePage } from "./game.js";
import { HowtoPage } from "./howto.js";
import { loadLanguage, t } from "./i18n.js";
import { IdentityBar } from "./identity.js";
import { LeaderboardPage } from "./leaderboard.js";
import { LobbyPage } from "./lobby.js";
import { startNotifications } from "./notify.js";
import { ModerationPage } from "./moderation.js";
import { PlayerPage } from "./player.js";
import { FriendsPage } from "./friends.js";
import { MyGamesPage } from "./my_games.js";
import { ReplayPage } from "./replay.js";
import { SettingsPage } from "./settings.js";
import { TablePage } from "./table_page.js";
import { TournamentPage, TournamentsPage } from "./tournaments.js";

/** The identity bar's element: `#identity` of index.html (made if missing). */
function identityRoot() {
  let el = document.getElementById("identity");
  if (!el) {
    el = document.createElement("header");
    el.id = "identity";
    el.className = "identity-bar";
    document.body.prepend(el);
  }
  return el;
}

/** Start the page matching `location`. */
export function route() {
  const bar = new IdentityBar(identityRoot());
  window.__identity = bar;
  bar.start();
  startNotifications(); // the feed's notices as browser notifications or toasts (notify.js)
  const root = document.getElementById("app");
  const path = location.pathname.replace(/\/+$/, "");
  const params = new URLSearchParams(location.search);
  let m;
  let page;
  if ((m = /^\/games\/([^/]+)\/replay$/.exec(path))) {
    document.title = t("Replay · Splendor");
    page = new ReplayPage(root, decodeURIComponent(m[1]));
  } else if ((m = /^\/games\/([^/]+)$/.exec(path))) {
    document.title = t("Game · Splendor");
    page = new GamePage(root, decodeURIComponent(m[1]), params);
  } else if ((m = /^\/players\/([^/]+)$/.exec(path))) {
    document.title = t("Player · Splendor");
    page = new PlayerPage(root, decodeURIComponent(m[1]));
  } else if ((m = /^\/tables\/([^/]+)$/.exec(path))) {
    document.title = t("Table · Splendor");
    page = new TablePage(root, decodeURIComponent(m[1]));
  } else if ((m = /^\/howto\/([^/]+)$/.exec(path))) {
    document.title = t("How to play · Splendor");
    page = new HowtoPage(root, decodeURIComponent(m[1]));
  } else if (path === "/games") {
    document.title = t("My games · Splendor");
    page = new MyGamesPage(root);
  } else if (path === "/friends") {
    document.title = t("Friends · Splendor");
    page = new FriendsPage(root);
  } else if (path === "/moderation") {
    document.title = t("Moderation · Splendor");
    page = new ModerationPage(root);
  } else if (path === "/settings") {
    document.title = t("Settings · Splendor");
    page = new SettingsPage(root);
  } else if (path === "/reset") {
    document.title = t("New password · Splendor");
    page = new ResetPage(root);
  } else if (path === "/verify-email") {
    document.title = t("E-mail address · Splendor");
    page = new VerifyEmailPage(root);
  } else if ((m = /^\/tournaments\/([^/]+)$/.exec(path))) {
    document.title = t("Tournament · Splendor");
    page = new TournamentPage(root, decodeURIComponent(m[1]));
  } else if (path === "/tournaments") {
    document.title = t("Tournaments · Splendor");
    page = new TournamentsPage(root);
  } else if (path === "/leaderboard") {
    document.title = t("Leaderboard · Splendor");
    page = new LeaderboardPage(root, params);
  } else {
    document.title = "Splendor";
    page = new LobbyPage(root);
  }
  window.__page = page;
  page.start();
}

/**
 * The skip link, first in the page (`#skip-link` of index.html), in the reader's language:
 * it moves the focus to the page's content (or to what `data-target` names: the game page
 * points it at the table) without touching the address (a game page reloads on a new
 * fragment).
 */
function startSkipLink() {
  const skip = document.getElementById("skip-link");
  if (!skip) return;
  skip.textContent = t("Skip to content");
  skip.addEventListener("click", (ev) => {
    ev.preventDefault();
    const target = document.querySelector(skip.dataset.target || "#app") || document.getElementById("app");
    if (!target) return;
    if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
    target.scrollIntoView({ block: "start" });
  });
}

await loadLanguage();
startSkipLink();
route();
