/**
 * The router: reads the reader's language first ({@link module:i18n}), starts the identity
 * bar (every page), then picks the page from the URL (`/` lobby, `/games/{id}` game,
 * `/games/{id}/replay` replay viewer, `/players/{id}` player page, `/tables/{id}` a lobby
 * table, where invitation links lead, `/leaderboard`, `/howto/{game}` how to play) and
 * starts it.
 * @module app
 */

import { GamePage } from "./game.js";
import { HowtoPage } from "./howto.js";
import { loadLanguage, t } from "./i18n.js";
import { IdentityBar } from "./identity.js";
import { LeaderboardPage } from "./leaderboard.js";
import { LobbyPage } from "./lobby.js";
import { PlayerPage } from "./player.js";
import { ReplayPage } from "./replay.js";
import { TablePage } from "./table_page.js";

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

await loadLanguage();
route();
