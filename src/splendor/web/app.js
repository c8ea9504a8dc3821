/**
 * The router: picks the page from the URL (`/` lobby, `/games/{id}` game,
 * `/games/{id}/replay` replay viewer) and starts it.
 * @module app
 */

import { GamePage } from "./game.js";
import { LobbyPage } from "./lobby.js";
import { ReplayPage } from "./replay.js";

/** Start the page matching `location`. */
export function route() {
  const root = document.getElementById("app");
  const path = location.pathname.replace(/\/+$/, "");
  const params = new URLSearchParams(location.search);
  let m;
  let page;
  if ((m = /^\/games\/([^/]+)\/replay$/.exec(path))) {
    document.title = "Replay · Splendor";
    page = new ReplayPage(root, decodeURIComponent(m[1]));
  } else if ((m = /^\/games\/([^/]+)$/.exec(path))) {
    document.title = "Game · Splendor";
    page = new GamePage(root, decodeURIComponent(m[1]), params);
  } else {
    document.title = "Splendor";
    page = new LobbyPage(root);
  }
  window.__page = page;
  page.start();
}

route();
