/**
 * The "how to play" pages (`/howto/splendor`, `/howto/duel`): a short guide per game and
 * language, written for this site, with pictures drawn by the client itself.
 *
 * The text is an HTML fragment, `/static/howto/<lang>/<game>.html` (`howto/` in this
 * folder; English when the reader's language has none). A fragment holds no script, style
 * or event handler (the page's Content-Security-Policy would block them anyway; the page
 * drops them all the same, see {@link cleanFragment}); its pictures are empty
 * `<figure data-art="…">` placeholders that this module fills with the table's own drawings
 * ({@link module:cards}, {@link module:art}), before their `<figcaption>`:
 *
 * | `data-art` | attributes | drawing |
 * |---|---|---|
 * | `card` | `data-game` (splendor, duel), `data-card` (ids, space-separated) | cards of the game's table |
 * | `noble` | `data-noble` (ids) | classic nobles |
 * | `royal` | `data-royal` (ids) | Duel royal cards |
 * | `token` | `data-color` (a letter, W U G R K P or *) | one token |
 * | `tokens` | `data-game` | every token of the game, in order |
 * | `board` | `data-board` (25 letters, `.` an empty cell, spaces ignored), `data-take` (cells to highlight) | a Duel board |
 * | `screenshot` | none | `howto/img/table-<game>-<lang>.jpg`, shown only if it loads (else the figure goes) |
 *
 * Card data come from `GET /api/meta` (the tables the game page uses). The page's root
 * carries `data-testid="howto-root"`, `data-game`, `data-lang` and `data-state`
 * (`loading`, `ready` once every figure is drawn or gone, `error`).
 * @module howto
 */

import * as api from "./api.js";
import { tokenArt } from "./art.js";
import { classicCard, duelCard, nobleTile, royalTile, tokenChip } from "./cards.js";
import { language, t } from "./i18n.js";
import { CLASSIC_LETTERS, DUEL_LETTERS, GAME_NAMES, cellName, colorName, h, replaceChildren } from "./util.js";

/** The games that have a page, in the order of the links. */
export const HOWTO_GAMES = ["splendor", "duel"];

/** The languages the pages are written in; English is the fallback. */
export const HOWTO_LANGUAGES = ["en", "fr", "nl", "de", "es", "it", "pt", "pl"];

/** Elements a fragment may not bring in (removed with their content). */
const FORBIDDEN = "script, style, iframe, object, embed, link, meta, base, form";

/**
 * The address of a page's text.
 * @param {string} lang a language code (en, fr, nl, de, es, it, pt, pl)
 * @param {string} game splendor or duel
 * @returns {string}
 */
export function fragmentUrl(lang, game) {
  return `/static/howto/${lang}/${game}.html`;
}

/**
 * The address of a screenshot of our table (may not exist).
 * @param {string} lang
 * @param {string} game
 * @returns {string}
 */
export function screenshotUrl(lang, game) {
  return `/static/howto/img/table-${game}-${lang}.jpg`;
}

/**
 * The address of a game's how-to page.
 * @param {string} game splendor or duel
 * @returns {string}
 */
export function howtoUrl(game) {
  return `/howto/${encodeURIComponent(game)}`;
}

/**
 * Drop from parsed HTML everything that could run or load something: forbidden elements,
 * `on…` attributes, `style` attributes, and links that leave the site or run script.
 * @param {ParentNode} root
 * @returns {ParentNode} `root`
 */
export function cleanFragment(root) {
  for (const el of root.querySelectorAll(FORBIDDEN)) el.remove();
  for (const el of root.querySelectorAll("*")) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      const value = attr.value.trim().toLowerCase();
      if (name.startsWith("on") || name === "style" || name === "srcset") el.removeAttribute(attr.name);
      else if ((name === "href" || name === "src") && !/^(\/(?!\/)|#)/.test(value)) el.removeAttribute(attr.name);
    }
  }
  return root;
}

/**
 * Fetch and parse a page's text: `{lang, nodes}`, the language actually used (English when
 * `lang` has no page) and the fragment's nodes, cleaned ({@link cleanFragment}).
 * @param {string} lang
 * @param {string} game
 * @returns {Promise<{lang: string, nodes: Node[]}>}
 * @throws {Error} when neither the language's page nor the English one can be read
 */
export async function loadFragment(lang, game) {
  const tried = HOWTO_LANGUAGES.includes(lang) && lang !== "en" ? [lang, "en"] : ["en"];
  let last = null;
  for (const code of tried) {
    let resp;
    try {
      resp = await fetch(fragmentUrl(code, game), { credentials: "same-origin", headers: { Accept: "text/html" } });
    } catch (e) {
      last = e;
      continue;
    }
    if (!resp.ok) {
      last = new Error(`${fragmentUrl(code, game)}: ${resp.status}`);
      continue;
    }
    const doc = new DOMParser().parseFromString(await resp.text(), "text/html");
    cleanFragment(doc.body);
    return { lang: code, nodes: [...doc.body.childNodes].map((n) => document.importNode(n, true)) };
  }
  throw last || new Error("no page");
}

/** Numbers from a space-separated attribute (`"1 56 88"`), ignoring anything else. */
function ids(value) {
  return String(value || "").split(/\s+/).filter((x) => /^\d+$/.test(x)).map(Number);
}

/**
 * An example Duel board: a 5×5 grid with the coordinates around it, tokens drawn like the
 * table's, the cells of `take` highlighted. Not interactive.
 * @param {string} layout 25 letters (W U G R K P *), `.` for an empty cell; spaces ignored
 * @param {string[]} take cell names (`b1`) to highlight
 * @returns {HTMLElement}
 */
export function exampleBoard(layout, take = []) {
  const cells = String(layout || "").replace(/\s+/g, "").slice(0, 25).padEnd(25, ".");
  const grid = h("div", { class: "board-grid howto-board", role: "img" });
  const edge = () => ["", ..."abcde", ""].map((c) => h("span", { class: "coord", "aria-hidden": "true" }, c));
  const words = [];
  grid.append(...edge());
  for (let r = 0; r < 5; r++) {
    grid.append(h("span", { class: "coord", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < 5; c++) {
      const name = cellName(r * 5 + c);
      const ch = cells[r * 5 + c];
      const letter = DUEL_LETTERS.includes(ch) ? ch : null;
      const picked = take.includes(name);
      if (picked && letter) words.push(`${name} ${colorName(letter)}`);
      grid.append(h("span", {
        class: `cell howto-cell${picked ? " selected" : ""}`,
        title: letter ? t("{cell}: {color}", { cell: name, color: colorName(letter) }) : t("{cell}: empty", { cell: name }),
        dataset: { cell: name, token: letter || "" },
      }, tokenArt(letter)));
    }
    grid.append(h("span", { class: "coord", "aria-hidden": "true" }, String(r + 1)));
  }
  grid.append(...edge());
  if (words.length) grid.setAttribute("aria-label", words.join(", "));
  return h("div", { class: "howto-felt" }, grid);
}

/**
 * The drawing a figure asks for, or null when it names nothing drawable.
 * @param {HTMLElement} figure a `<figure data-art>` of a fragment
 * @param {Object} games `/api/meta`'s `games` (their `tables`)
 * @param {string} pageGame the page's game (when the figure names none)
 * @returns {HTMLElement|null}
 */
export function drawArt(figure, games, pageGame) {
  const d = figure.dataset;
  const game = HOWTO_GAMES.includes(d.game) ? d.game : pageGame;
  const tables = (games && games[game] && games[game].tables) || {};
  const row = (items) => (items.length ? h("div", { class: `howto-art howto-art-${d.art}` }, items) : null);
  switch (d.art) {
    case "card": {
      const draw = game === "duel" ? duelCard : classicCard;
      return row(ids(d.card).filter((id) => tables.cards && tables.cards[id]).map((id) => draw(tables.cards[id])));
    }
    case "noble":
      return row(ids(d.noble).filter((id) => tables.nobles && tables.nobles[id]).map((id) => nobleTile(tables.nobles[id])));
    case "royal":
      return row(ids(d.royal).filter((id) => tables.royals && tables.royals[id]).map((id) => royalTile(tables.royals[id])));
    case "token":
      return DUEL_LETTERS.includes(d.color) ? row([tokenChip(d.color)]) : null;
    case "tokens": {
      const letters = game === "duel" ? DUEL_LETTERS : CLASSIC_LETTERS;
      return row(letters.map((letter) => h("span", { class: "howto-token" }, tokenChip(letter), h("span", { class: "howto-letter" }, letter))));
    }
    case "board":
      return row([exampleBoard(d.board, String(d.take || "").split(/\s+/).filter(Boolean))]);
    default:
      return null;
  }
}

/**
 * Put the screenshot of our table into its figure once the image has loaded; remove the
 * figure when there is none (no broken image is ever shown).
 * @param {HTMLElement} figure
 * @param {string} url
 * @returns {Promise<boolean>} whether the image shows
 */
export function fillScreenshot(figure, url) {
  figure.hidden = true;
  const caption = figure.querySelector("figcaption");
  return new Promise((resolve) => {
    const img = new Image();
    img.alt = caption ? caption.textContent.trim() : "";
    img.className = "howto-screenshot";
    img.decoding = "async";
    img.onload = () => {
      figure.insertBefore(img, caption);
      figure.hidden = false;
      figure.dataset.drawn = "true";
      resolve(true);
    };
    img.onerror = () => {
      figure.remove();
      resolve(false);
    };
    img.src = url;
  });
}

/** Controller of a how-to page. */
export class HowtoPage {
  /**
   * @param {HTMLElement} root the page's element (`#app`)
   * @param {string} game splendor or duel
   */
  constructor(root, game) {
    this.root = root;
    this.game = game;
  }

  /** The links to the other game's page and back to the lobby. */
  nav() {
    const others = HOWTO_GAMES.filter((g) => g !== this.game);
    return h("nav", { class: "howto-nav", "aria-label": t("How to play") },
      h("a", { href: "/", class: "back", dataset: { testid: "howto-lobby" } }, t("← lobby")),
      others.map((g) => h("a", { href: howtoUrl(g), dataset: { testid: `howto-other-${g}` } }, t("How to play {game}", { game: GAME_NAMES[g] }))));
  }

  /** Load the text in the reader's language, insert it and draw its pictures. */
  async start() {
    const root = this.root;
    const lang = language();
    root.dataset.testid = "howto-root";
    root.dataset.game = this.game;
    root.dataset.lang = lang;
    root.dataset.state = "loading";
    if (!HOWTO_GAMES.includes(this.game)) {
      root.dataset.state = "error";
      replaceChildren(root, this.nav(), h("p", { class: "fatal", dataset: { testid: "fatal" } }, t("There is no such page.")));
      return;
    }
    replaceChildren(root, this.nav(), h("p", { class: "loading dim" }, t("loading…")));
    let text;
    let meta;
    try {
      [text, meta] = await Promise.all([loadFragment(lang, this.game), api.getMeta()]);
    } catch (e) {
      root.dataset.state = "error";
      replaceChildren(root, this.nav(), h("p", { class: "fatal", dataset: { testid: "fatal" } }, t("This page could not be loaded."), " ", String(e.message || "")));
      return;
    }
    const body = h("div", { class: "howto-body", dataset: { testid: "howto-body" } });
    body.append(...text.nodes);
    root.dataset.lang = text.lang;
    replaceChildren(root, h("div", { class: "howto-page" }, this.nav(), body));
    const heading = body.querySelector("h1");
    if (heading) document.title = `${heading.textContent.trim()} · Splendor`;
    const waits = [];
    for (const figure of body.querySelectorAll("figure[data-art]")) {
      if (figure.dataset.art === "screenshot") {
        waits.push(fillScreenshot(figure, screenshotUrl(text.lang, this.game)));
        continue;
      }
      const art = drawArt(figure, meta.games, this.game);
      if (art) {
        figure.insertBefore(art, figure.querySelector("figcaption"));
        figure.dataset.drawn = "true";
      } else {
        figure.remove();
      }
    }
    await Promise.all(waits);
    root.dataset.state = "ready";
  }
}
