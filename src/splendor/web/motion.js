/**
 * Moves in motion: when a state message brings a move, the tokens and cards it moved
 * travel on screen (the Web Animations API, about 450 ms) between the supply or the board
 * and the players' areas: tokens taken, given back, paid, stolen or refilled from the bag,
 * cards bought (into the colour's bonus), reserved or dealt from a deck, nobles and royal
 * cards, privilege scrolls.
 *
 * Drawn things carry `data-anim` keys (`supply:W`, `cell:c3`, `bag`, `tok:{seat}:{letter}`,
 * `bonus:{seat}:{letter}`, `card:{id}`, `deck:{level}`, `noble:{id}`, `royal:{id}`,
 * `priv:free`, `priv:{seat}`, `hidden:{seat}:{slot}`, `player:{seat}`). {@link snapshot}
 * notes where they are before the page is redrawn, {@link animateMove} flies stand-ins
 * ("ghosts", fixed-position clones above the page) from there to where the move put them.
 * Nothing moves when the reader asks for reduced motion (`prefers-reduced-motion: reduce`).
 * @module motion
 */

import { scrollIcon, tokenArt } from "./art.js";

/** How long one flight lasts, and the delay between two flights (ms). */
const DURATION = 450;
const STAGGER = 45;
/** At most this many flights for one move (a replenish moves up to 25 tokens). */
const MAX_FLIGHTS = 30;

/**
 * Whether things may move: false when the reader prefers reduced motion.
 * @returns {boolean}
 */
export function motionAllowed() {
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/**
 * Where every `data-anim` element of `root` is now (viewport coordinates), with the
 * element itself (kept for cloning once the page is redrawn).
 * @param {HTMLElement} root
 * @returns {{items: Map<string, {el: Element, rect: DOMRect, art: DOMRect, place: string}>, x: number, y: number}}
 */
export function snapshot(root) {
  const items = new Map();
  for (const el of root.querySelectorAll("[data-anim]")) {
    const rect = el.getBoundingClientRect();
    if (!rect.width || !rect.height) continue;
    const inner = el.querySelector(".token-art, .scroll-art");
    items.set(el.dataset.anim, { el, rect, art: inner ? inner.getBoundingClientRect() : rect, place: placeOf(el) });
  }
  return { items, x: window.scrollX, y: window.scrollY };
}

/** Where a drawn thing lies: a player's area (its seat) or the table. */
function placeOf(el) {
  const panel = el.closest(".player");
  return panel ? `seat ${panel.dataset.seat}` : "table";
}

/** The `data-anim` elements of `root` now, by key. */
function current(root) {
  const out = new Map();
  for (const el of root.querySelectorAll("[data-anim]")) out.set(el.dataset.anim, el);
  return out;
}

/** The drawn part of an element to fly to or from: its token or scroll if any. */
function artRect(el) {
  const inner = el.querySelector(".token-art, .scroll-art");
  return (inner || el).getBoundingClientRect();
}

const LETTERS = { splendor: ["W", "U", "G", "R", "K", "*"], duel: ["W", "U", "G", "R", "K", "P", "*"] };
const CELL = (i) => "abcde"[i % 5] + String(Math.floor(i / 5) + 1);

/**
 * The flights of one move, from the observation before and after it.
 * @param {string} game "splendor" or "duel"
 * @param {Object} a the observation before
 * @param {Object} b the observation after
 * @param {Object} tables the game's card tables
 * @returns {Array<{from: string, to: string, kind: string, letter?: string}>}
 */
export function planFlights(game, a, b, tables) {
  const letters = LETTERS[game];
  const out = [];
  const seats = b.tokens.length;
  // tokens: taken from the supply / board / opponent, given back to the supply / bag
  const sources = new Map(); // letter -> keys of board cells emptied by the move
  const fills = [];
  if (game === "duel") {
    for (let i = 0; i < 25; i++) {
      if (a.board[i] >= 0 && b.board[i] < 0) {
        const l = letters[a.board[i]];
        if (!sources.has(l)) sources.set(l, []);
        sources.get(l).push(`cell:${CELL(i)}`);
      } else if (a.board[i] < 0 && b.board[i] >= 0) fills.push({ from: "bag", to: `cell:${CELL(i)}`, kind: "token", letter: letters[b.board[i]] });
    }
  }
  const delta = [];
  for (let p = 0; p < seats; p++) delta.push(letters.map((_, c) => (b.tokens[p][c] || 0) - (a.tokens[p][c] || 0)));
  for (let p = 0; p < seats; p++) {
    letters.forEach((l, c) => {
      let d = delta[p][c];
      const pool = game === "duel" ? "bag" : `supply:${l}`;
      for (; d > 0; d--) {
        let from = pool;
        const cells = sources.get(l);
        if (cells && cells.length) from = cells.shift();
        else if (game === "duel") {
          const q = delta.findIndex((dq, qq) => qq !== p && dq[c] < 0);
          if (q >= 0) {
            delta[q][c]++; // a theft: that token comes from the opponent
            from = `tok:${q}:${l}`;
          }
        }
        out.push({ from, to: `tok:${p}:${l}`, kind: "token", letter: l });
      }
      for (; d < 0; d++) out.push({ from: `tok:${p}:${l}`, to: pool, kind: "token", letter: l });
    });
  }
  out.push(...fills);
  // cards bought: into the colour of the buyer's bonuses
  const owners = game === "duel" ? [a.card_owner, b.card_owner] : [a.purchased_by, b.purchased_by];
  if (owners[0] && owners[1]) {
    owners[1].forEach((p, id) => {
      if (p < 0 || owners[0][id] === p) return;
      const color = game === "duel" ? (b.card_color && b.card_color[id] >= 0 ? b.card_color[id] : tables.cards[id].color) : tables.cards[id].bonus;
      const to = color >= 0 && color < 5 ? `bonus:${p}:${letters[color]}` : `player:${p}`;
      out.push({ from: `card:${id}`, to, kind: "bought" });
    });
  }
  // privileges (Duel): from beside the board or from the opponent
  if (game === "duel" && a.privileges && b.privileges) {
    const free = (o) => 3 - o.privileges.reduce((x, y) => x + y, 0);
    const gains = b.privileges.map((n, p) => n - a.privileges[p]);
    gains.forEach((g, p) => {
      for (let k = 0; k < g; k++) {
        const q = gains.findIndex((gq, qq) => qq !== p && gq < 0);
        out.push({ from: q >= 0 ? `priv:${q}` : "priv:free", to: `priv:${p}`, kind: "privilege" });
      }
      for (let k = 0; k < -g && free(b) > free(a); k++) out.push({ from: `priv:${p}`, to: "priv:free", kind: "privilege" });
    });
  }
  return out;
}

/** Fly `ghost` (appended to the body, fixed) from rectangle `from` to `to`. */
function fly(ghost, from, to, delay) {
  ghost.classList.add("ghost");
  ghost.setAttribute("aria-hidden", "true");
  ghost.inert = true; // a clone of a card: never focused, never clicked (axe: aria-hidden-focus)
  ghost.style.width = `${from.width}px`;
  ghost.style.height = `${from.height}px`;
  document.body.append(ghost);
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  const anim = ghost.animate([
    { transform: `translate(${from.left}px, ${from.top}px) scale(1, 1)`, opacity: 1 },
    { transform: `translate(${(from.left + to.left) / 2}px, ${Math.min(from.top, to.top) - 24}px) scale(${(1 + sx) / 2 * 1.08}, ${(1 + sy) / 2 * 1.08})`, opacity: 1, offset: 0.5 },
    { transform: `translate(${to.left}px, ${to.top}px) scale(${sx}, ${sy})`, opacity: 0.85 },
  ], { duration: DURATION, delay, easing: "cubic-bezier(.3,.7,.4,1)", fill: "both" });
  const done = () => ghost.remove();
  anim.finished.then(done, done);
}

/** Hide a drawn element while its stand-in flies to it; show it when the stand-in lands. */
function hideUntilLanded(el, delay) {
  el.animate([{ opacity: 0 }, { opacity: 0, offset: 0.97 }, { opacity: 1 }], { duration: delay + DURATION, fill: "none" });
}

/** A small bounce where a token landed. */
function land(el, delay) {
  el.animate([{ transform: "scale(1)" }, { transform: "scale(1.22)" }, { transform: "scale(1)" }], { duration: 260, delay: delay + DURATION - 40 });
}

/** The rectangle `r` moved by the scrolling done since the snapshot. */
function scrolled(r, before) {
  const dx = before.x - window.scrollX;
  const dy = before.y - window.scrollY;
  return new DOMRect(r.left + dx, r.top + dy, r.width, r.height);
}

/**
 * Animate one move: fly stand-ins from where things were ({@link snapshot}, taken before
 * the redraw) to where they are now. Cards that moved (reserved, a noble, a royal card)
 * fly from their old place; cards new on the table come from their deck. Nothing happens
 * when motion is not allowed.
 * @param {HTMLElement} root the redrawn page
 * @param {ReturnType<typeof snapshot>} before
 * @param {{game: string, a: Object, b: Object, tables: Object}} move the observations before and after
 * @returns {number} the number of flights started
 */
export function animateMove(root, before, move) {
  if (!before || !motionAllowed()) return 0;
  const now = current(root);
  const flights = [];
  // things drawn before and after, somewhere else now: reserved cards, nobles, royal cards
  for (const [key, el] of now) {
    if (!/^(card|noble|royal):/.test(key)) continue;
    const old = before.items.get(key);
    if (old) {
      // moved from the table to a player's area (or between players): reserved, visiting, taken
      if (old.place !== placeOf(el)) flights.push({ ghost: () => old.el.cloneNode(true), from: scrolled(old.rect, before), toEl: el, hide: true });
    } else if (key.startsWith("card:")) {
      // a card new on the table or in a hand: dealt from its deck
      const level = (/level-(\d)/.exec(el.className) || [])[1];
      const deck = level && before.items.get(`deck:${level}`);
      if (deck) flights.push({ ghost: () => deck.el.cloneNode(true), from: scrolled(deck.rect, before), toEl: el, hide: true });
    }
  }
  for (const [key, el] of now) {
    if (!key.startsWith("hidden:") || before.items.has(key)) continue;
    const level = (/level-(\d)/.exec(el.className) || [])[1];
    const src = before.items.get(`deck:${level}`);
    if (src) flights.push({ ghost: () => src.el.cloneNode(true), from: scrolled(src.rect, before), toEl: el, hide: true });
  }
  for (const f of planFlights(move.game, move.a, move.b, move.tables)) {
    const src = before.items.get(f.from);
    const toEl = now.get(f.to);
    if (!src || !toEl) continue;
    if (f.kind === "bought") {
      flights.push({ ghost: () => src.el.cloneNode(true), from: scrolled(src.rect, before), toEl, shrink: true });
    } else if (f.kind === "token") {
      flights.push({ ghost: () => tokenArt(f.letter), from: scrolled(src.art, before), toEl, token: true });
    } else if (f.kind === "privilege") {
      flights.push({ ghost: () => scrollIcon(), from: scrolled(src.art, before), toEl, token: true });
    }
  }
  let n = 0;
  for (const f of flights.slice(0, MAX_FLIGHTS)) {
    const to = f.token ? artRect(f.toEl) : f.toEl.getBoundingClientRect();
    if (!to.width || !to.height || !f.from.width || !f.from.height) continue;
    const delay = n * STAGGER;
    const from = f.from;
    // a bought card shrinks into the bonus it becomes
    const target = f.shrink
      ? new DOMRect(to.left + to.width / 2 - from.width / 6, to.top + to.height / 2 - from.height / 6, from.width / 3, from.height / 3)
      : to;
    fly(f.ghost(), from, target, delay);
    if (f.hide) hideUntilLanded(f.toEl, delay);
    else land(f.toEl, delay);
    n++;
  }
  return n;
}
