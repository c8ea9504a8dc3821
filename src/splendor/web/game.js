/**
 * The game page: holds the latest state message, draws the table (classic or Duel view),
 * turns the player's clicks into legal actions (selection + confirm, card menus, choice
 * dialogs), sends them, and follows the game live over the WebSocket; the clocks
 * ({@link module:clock}), the table's chat ({@link module:chat}), who watches, Resign
 * (with a confirmation) for a seated player, and once the game is over the rematch (offer,
 * accept, follow the rematch table, go to the new game) and the post-game analysis
 * ({@link module:analysis}: asked for by a seated player, shown to everyone once it exists).
 * @module game
 */

import { AnalysisPanel } from "./analysis.js";
import * as api from "./api.js";
import { ChatPanel } from "./chat.js";
import { renderClassic } from "./classic_view.js";
import { Clocks } from "./clock.js";
import { cardMenu, confirmDialog } from "./dialog.js";
import { currentPlayer, onIdentityChange } from "./identity.js";
import { cellToken, renderDuel } from "./duel_view.js";
import { animateMove, motionAllowed, snapshot } from "./motion.js";
import { isDialogDecision, matchCard, matchCells, matchColorTake, parseAll, wellFormedTake } from "./notation.js";
import { notationHelp } from "./help.js";
import { Roving, focusKey, restoreFocus } from "./keyboard.js";
import { ReaderPanel, readerMode, readerToggle } from "./reader.js";
import { capitalize, nodes, t } from "./i18n.js";
import { saveSeat, tokenFor } from "./storage.js";
import { tokenChip } from "./cards.js";
import { CLASSIC_LETTERS, cellName, h, replaceChildren, seatName } from "./util.js";
import { PHASE_HINT, decisionDialog, renderLegalList, renderLog, renderScores, renderSpectators } from "./panels.js";
import { rematchState, renderRematch, renderResult, showResult } from "./result.js";
import { lastTurn } from "./turn.js";
import { moveSentence, notationShown, onNotationChange, seatNames, selectionSentence } from "./sentences.js";

/**
 * The seat token in the page's URL: the fragment's `#token=` (browsers never send a
 * fragment to the server, so it is in no log), or the query's `?token=` of an old invite
 * link, which is moved into the fragment (reloads no longer send it). Null if none.
 * @returns {string|null}
 */
export function tokenFromUrl() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const token = fragment.get("token") || query.get("token");
  if (query.has("token")) {
    query.delete("token");
    const rest = query.toString();
    history.replaceState(null, "", `${location.pathname}${rest ? "?" + rest : ""}#token=${encodeURIComponent(token)}`);
  }
  return token || null;
}

/** Controller of one game page. */
export class GamePage {
  /**
   * @param {HTMLElement} root where to draw
   * @param {string} gameId
   * @param {URLSearchParams} params `spectate` (the seat token is in the fragment, {@link tokenFromUrl})
   */
  constructor(root, gameId, params) {
    this.root = root;
    this.gameId = gameId;
    const fromUrl = tokenFromUrl();
    this.token = fromUrl || (params.has("spectate") ? null : tokenFor(gameId));
    this.tokenFromStorage = !fromUrl && !!this.token;
    this.state = null;
    this.tables = null;
    this.selection = [];
    this.menu = null;
    this.message = "";
    this.messageKind = "info";
    this.connection = "connecting";
    this.busy = false;
    this.socket = null;
    this.clocks = new Clocks();
    this.chat = new ChatPanel(gameId, () => this.token);
    /** The post-game analysis (read once the game is over). */
    this.analysis = new AnalysisPanel(gameId, () => this.token);
    this.analysisRead = false;
    /** The Resign confirmation is open; a resignation is on its way. */
    this.confirmingResign = false;
    this.resigning = false;
    /** The page's frame (made once; the chat panel in it is kept across redraws). */
    this.frame = null;
    /** The flights of tokens and cards started since the page opened ({@link animateMove}). */
    this.flights = 0;
    this.everOpen = false;
    /** Keyboard play ({@link module:keyboard}): roving focus over the table's groups; the
     * element to focus once the menu or dialog that took the focus is gone. */
    this.roving = new Roving(root);
    this.returnFocus = null;
    /** The screen-reader mode's panel ({@link module:reader}), made once (its live region and input stay). */
    this.reader = new ReaderPanel(this);
    /**
     * The rematch: the rematch table last heard of (`POST …/rematch` answer, `{"type":
     * "rematch"}` message, or the player's own tables), a request on its way, the
     * server's refusal, and the new game the page is leaving for.
     */
    this.rematch = { table: null, busy: false, error: "", goingTo: null };
    /** The logged-in player (undefined until the identity bar knows). */
    this.me = currentPlayer();
    onIdentityChange((p) => {
      this.me = p;
      this.rematch.error = "";
      this.render();
      this.loadRematch();
    });
  }

  /** Load the tables and the state, then follow the game live. */
  async start() {
    replaceChildren(this.root, h("p", { class: "loading" }, t("loading the game…")));
    let meta;
    try {
      meta = await api.getMeta();
    } catch (e) {
      return this.fatal(t("cannot load the game data: {error}", { error: e.message }));
    }
    this.meta = meta;
    try {
      let st;
      try {
        st = await api.getState(this.gameId, this.token);
      } catch (e) {
        if (e.status !== 403 || !this.tokenFromStorage) throw e;
        this.token = null; // a remembered token that no longer works: watch instead
        st = await api.getState(this.gameId, null);
      }
      this.onState(st);
      this.loadRematch();
    } catch (e) {
      return this.fatal(e.status === 404 ? t("no such game") : e.status === 403 ? t("this invite link is not valid") : e.message);
    }
    this.clocks.start(this.root);
    this.chat.load();
    this.socket = new api.GameSocket(this.gameId, this.token, {
      onState: (m) => this.onState(m),
      onChat: (m) => this.chat.add(m),
      onRematch: (t) => this.onRematch(t),
      onAnalysis: (m) => this.analysis.onMessage(m),
      onError: (m) => this.showMessage(m.message || t("something went wrong"), "error"),
      onStatus: (s, detail) => {
        this.connection = s;
        if (s === "open") {
          if (this.everOpen) {
            this.chat.load(); // messages may have been missed meanwhile
            this.loadRematch();
            if (this.analysisRead) this.analysis.load();
          }
          this.everOpen = true;
        }
        if (s === "fatal") this.showMessage(detail, "error");
        else this.renderStatus();
      },
    });
    this.socket.connect();
    window.addEventListener("hashchange", () => location.reload()); // another seat's link
    onNotationChange(() => { if (this.state) this.render(); }); // "Show notation" switched
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && this.confirmingResign) {
        this.confirmingResign = false;
        this.returnFocus = "resign";
        this.render();
        return;
      }
      if (ev.key === "Escape" && this.menu) return this.closeMenu(true);
      if (ev.key === "Escape") this.clearSelection();
      const t = ev.target;
      if ((ev.key === "Enter" || ev.key === " ") && t && t.getAttribute && t.getAttribute("role") === "button" && t.tagName !== "BUTTON") {
        ev.preventDefault();
        t.click();
      }
    });
  }

  fatal(text) {
    this.frame = null;
    this.clocks.stop();
    replaceChildren(this.root, h("div", { class: "fatal", dataset: { testid: "fatal" } }, text, " ", h("a", { href: "/" }, t("back to the lobby"))));
  }

  /** A state message arrived (REST answer, WebSocket push or resync). */
  onState(msg) {
    if (!msg || msg.type !== undefined && msg.type !== "state") return;
    if (this.state && msg.move < this.state.move) return; // an older message overtaken by a newer one
    // an older message of the same move, built before the game ended (a resignation, a time-out)
    if (this.state && msg.move === this.state.move && this.state.status === "finished" && msg.status !== "finished") return;
    const prev = this.state;
    const changed = !this.state || msg.move !== this.state.move;
    // a move arrived: note where things are, to animate them to where the move puts them
    const before = changed && this.state && this.frame && this.state.game === msg.game && motionAllowed()
      ? { at: snapshot(this.root), obs: this.state.observation } : null;
    this.state = msg;
    this.clocks.update(msg.clock, msg.status === "finished");
    if (msg.status === "finished" || !this.canResign) this.confirmingResign = false;
    this.tables = this.meta.games[msg.game].tables;
    window.__splendor = { state: msg, page: this };
    if (this.token && msg.seat !== null && msg.seat !== undefined) {
      saveSeat({ game_id: msg.game_id, token: this.token, seat: msg.seat, game: msg.game, name: seatName(msg.seats, msg.seat) });
    }
    if (changed) {
      this.selection = [];
      this.closeMenu();
      this.message = "";
    }
    const ended = !!prev && prev.status !== "finished" && msg.status === "finished";
    this.render();
    if (before) this.animate(before.at, before.obs, msg);
    if (ended) showResult(this.root); // the game ended while the page was open: the result in view
    if (msg.status === "finished" && !this.analysisRead) {
      this.analysisRead = true;
      this.analysis.load();
    }
  }

  /**
   * Animate the move just drawn ({@link animateMove}); the root's `data-motion` says
   * whether things move (`off` under `prefers-reduced-motion: reduce`) and `data-flights`
   * counts the flights started since the page opened.
   */
  animate(at, obs, msg) {
    let n = 0;
    try {
      n = animateMove(this.root, at, { game: msg.game, a: obs, b: msg.observation, tables: this.tables });
    } catch (e) {
      console.warn("animation skipped", e);
    }
    this.flights += n;
    this.root.dataset.flights = String(this.flights);
  }

  /** The viewer's legal actions, parsed. */
  get legal() {
    return this.state ? parseAll(this.state.game, this.state.legal_actions) : [];
  }

  get myTurn() {
    const s = this.state;
    return !!s && s.status !== "finished" && this.seated && !this.seatIsBot && s.current_player === s.seat && s.legal_actions.length > 0;
  }

  /** The viewer holds a seat (a player, not a spectator). */
  get seated() {
    const s = this.state;
    return !!s && s.seat !== null && s.seat !== undefined;
  }

  /** The viewer's seat is played by a bot now (the player resigned or ran out of time, 3-4 players). */
  get seatIsBot() {
    const s = this.state;
    if (!this.seated) return false;
    const mine = (s.seats || []).find((x) => x.seat === s.seat);
    return !!mine && mine.type === "bot";
  }

  /** A seated person may resign while the game goes on. */
  get canResign() {
    return this.seated && !this.seatIsBot && this.state.status !== "finished";
  }

  get lastMove() {
    const s = this.state;
    if (!s) return null;
    if (s.last_move && typeof s.last_move === "object") return s.last_move;
    if (typeof s.last_move === "string") {
      const l = s.log && s.log[s.log.length - 1];
      return { seat: l ? l.seat : null, notation: s.last_move };
    }
    const l = s.log && s.log[s.log.length - 1];
    return l || null;
  }

  // ------------------------------------------------------------------ sending

  /** Play one legal action (by notation). */
  async act(notation) {
    if (this.busy) return;
    this.closeMenu();
    if (!this.legal.some((a) => a.notation === notation)) {
      this.showMessage(t("{notation} is not a legal action now", { notation }), "error");
      return;
    }
    this.busy = true;
    this.root.dataset.busy = "true";
    try {
      const st = await api.postAction(this.gameId, this.token, notation, this.state.move);
      this.busy = false;
      this.onState(st);
    } catch (e) {
      this.busy = false;
      this.showMessage(e.message, "error");
      if (e.status === 409 || e.status === 0) this.resync();
    } finally {
      this.busy = false;
      this.root.dataset.busy = "false";
    }
  }

  // ------------------------------------------------------------------ resigning

  /** Resign: ask first (the page's own dialog, {@link confirmDialog}). */
  askResign() {
    if (!this.canResign) return;
    this.confirmingResign = true;
    this.render();
    const ok = this.root.querySelector("[data-testid=resign-confirm]");
    if (ok) ok.focus();
  }

  /** `POST /api/games/{id}/resign`; the answer (the game over, or the seat a bot's) shows at once. */
  async resign() {
    if (this.resigning || !this.canResign) return;
    this.resigning = true;
    this.render();
    try {
      const st = await api.resign(this.gameId, this.token);
      this.resigning = false;
      this.confirmingResign = false;
      this.onState(st);
      this.showMessage(st.status === "finished" ? t("you resigned") : t("you resigned: a bot plays your seat to the end"), "info");
    } catch (e) {
      this.resigning = false;
      this.confirmingResign = false;
      this.render();
      this.showMessage(t("cannot resign: {error}", { error: e.message }), "error");
      this.resync();
    }
  }

  // ------------------------------------------------------------------ rematch

  /** A seated, logged-in player of the finished game may offer or accept its rematch. */
  get canRematch() {
    return this.seated && this.state.status === "finished" && !!this.me;
  }

  /**
   * The rematch table changed (the POST's answer, the game's socket, or the player's own
   * tables): show it; once its game has started, go there. A started table is never
   * replaced by an older message of the same table.
   */
  onRematch(table) {
    if (!table || table.rematch_of !== this.gameId) return;
    const known = this.rematch.table;
    if (known && known.id === table.id && known.status === "started" && table.status !== "started") return;
    this.rematch.table = table;
    if (table.status === "started" && table.game_id && this.canRematch) {
      const mine = (table.seats || []).some((x) => this.me && x.player_id === this.me.id);
      if (mine) return this.goToRematch(table.game_id);
    }
    this.render();
  }

  /** Leave for the rematch's game (once), where the session holds the player's seat. */
  goToRematch(gameId) {
    if (this.rematch.goingTo) return;
    this.rematch.goingTo = gameId;
    this.render();
    if (this.socket) this.socket.close();
    location.assign(`/games/${encodeURIComponent(gameId)}`);
  }

  /**
   * After a (re)load or a reconnection, read the game's rematch table, if one was offered
   * (`GET /api/games/{id}/rematch`): the player who offered sees it waiting, the others
   * "Accept rematch".
   */
  loadRematch() {
    if (!this.state || !this.canRematch) return;
    api.rematchTable(this.gameId).then((r) => {
      const t = r.table;
      if (t && (!this.rematch.table || this.rematch.table.id !== t.id)) this.onRematch(t);
    }).catch(() => {});
  }

  /** `POST …/rematch`: offer the rematch, or accept another player's offer. */
  async askRematch() {
    if (this.rematch.busy || !this.canRematch) return;
    this.rematch.busy = true;
    this.rematch.error = "";
    this.render();
    try {
      const table = await api.rematch(this.gameId);
      this.rematch.busy = false;
      this.onRematch(table);
    } catch (e) {
      this.rematch.busy = false;
      this.rematch.error = e.status === 401 ? t("log in to offer a rematch") : t("no rematch: {error}", { error: e.message });
      this.render();
    }
  }

  renderRematchPanel() {
    if (!this.canRematch) return null;
    return renderRematch({
      table: this.rematch.goingTo ? { ...this.rematch.table, status: "started" } : this.rematch.table,
      playerId: this.me.id, seats: this.state.seats, busy: this.rematch.busy, error: this.rematch.error,
      onClick: () => this.askRematch(),
    });
  }

  resync() {
    api.getState(this.gameId, this.token).then((m) => this.onState(m)).catch(() => {});
  }

  /**
   * A refused click: ask the server why `notation` is not allowed and show its one
   * sentence, in the reader's language (never the notation help, which is in the help
   * panel). When the server cannot say (the click made no action at all), `fallback`.
   */
  async why(notation, fallback) {
    if (!this.seated) {
      this.showMessage(fallback || t("you are watching this game"), "info");
      return;
    }
    try {
      const r = await api.explain(this.gameId, this.token, notation);
      this.showMessage(r.legal ? t("{notation} is allowed now", { notation }) : capitalize(r.reason), r.legal ? "info" : "why");
    } catch {
      this.showMessage(fallback || t("this move is not allowed now"), "why");
    }
  }

  showMessage(text, kind = "info") {
    this.message = text;
    this.messageKind = kind;
    const el = this.root.querySelector("[data-testid=message]");
    if (el) this.renderMessage(el);
  }

  notYourTurn() {
    const s = this.state;
    if (s.status === "finished") this.showMessage(t("the game is over"), "info");
    else if (s.seat === null || s.seat === undefined) this.showMessage(t("you are watching this game"), "info");
    else this.showMessage(t("not your turn: {name} is to play", { name: seatName(s.seats, s.current_player) }), "info");
  }

  // ------------------------------------------------------------------ clicks

  /** Classic: a supply pile was clicked. */
  onSupply(c) {
    if (!this.myTurn) return this.notYourTurn();
    const legal = this.legal;
    const next = [...this.selection, c];
    if (matchColorTake(legal, next).extendable.length) {
      this.selection = next;
    } else if (this.selection.includes(c)) {
      this.selection.splice(this.selection.lastIndexOf(c), 1);
    } else if (next.length <= 3 && !isDialogDecision(legal) && wellFormedTake(this.state.game, next)) {
      this.why("take " + next.map((x) => CLASSIC_LETTERS[x]).join(" "), t("you cannot take these tokens"));
      return;
    } else {
      this.showMessage(isDialogDecision(legal) ? t("finish the current choice first") : t("at most 3 tokens (or 2 of one colour)"), "why");
      return;
    }
    this.message = "";
    this.render();
  }

  /** Duel: a board cell was clicked. */
  onCell(i) {
    if (!this.myTurn) return this.notYourTurn();
    const legal = this.legal;
    if (this.selection.includes(i)) {
      this.selection = this.selection.filter((x) => x !== i);
    } else {
      const next = [...this.selection, i];
      if (matchCells(legal, next).extendable.length) {
        this.selection = next;
      } else {
        const names = next.map(cellName);
        const tok = cellToken(this.state.observation, i);
        if (isDialogDecision(legal) || legal.every((a) => a.p.kind === "reserve" || a.p.kind === "reserve_deck")) {
          this.showMessage(t("finish the current choice first"), "why");
        } else if (!tok) {
          this.showMessage(t("cell {cell} is empty", { cell: cellName(i) }), "why");
        } else if (next.length > 3) {
          this.showMessage(t("a take is 1 to 3 tokens in one line"), "why");
        } else if (tok === "*" && next.length === 1) {
          this.why(`gold ${cellName(i)}`);
        } else if (wellFormedTake("duel", next)) {
          this.why(`take ${names.join(" ")}`, t("take 1 to 3 tokens next to each other, in one row, column or diagonal"));
        } else { // no action at all (a gap, not a line): nothing to ask the server
          this.showMessage(t("take 1 to 3 tokens next to each other, in one row, column or diagonal"), "why");
        }
        return;
      }
    }
    this.message = "";
    this.render();
  }

  /** A card, reserved card or deck was clicked: a menu of its legal actions. */
  onCard(target, anchor) {
    if (!this.myTurn) return this.notYourTurn();
    const acts = matchCard(this.legal, target);
    const where = target.deck ? `d${target.deck}` : target.reserved ? `r${target.reserved}` : `${target.level}.${target.slot}`;
    if (!acts.length) {
      if (isDialogDecision(this.legal)) return this.showMessage(t("finish the current choice first"), "why");
      this.why(target.deck ? `reserve d${target.deck}` : `buy ${where}`);
      return;
    }
    const label = (a) => {
      if (a.p.kind === "reserve_deck") return t("reserve the top card of deck {level} (blind)", { level: a.p.level });
      if (a.p.kind === "reserve") return t("reserve card {card}", { card: where });
      return a.p.choose ? t("buy card {card}, choosing the payment", { card: where }) : t("buy card {card}", { card: where });
    };
    const extra = h("div", { class: "menu-why", dataset: { testid: "menu-why" } });
    if (!target.deck && !acts.some((a) => a.p.kind === "buy") && this.state.observation.phase === 0) {
      api.explain(this.gameId, this.token, `buy ${where}`).then((r) => {
        if (!r.legal) extra.textContent = t("cannot buy: {reason}", { reason: r.reason });
      }).catch(() => {});
    }
    this.closeMenu();
    this.menu = cardMenu(anchor, target.deck ? t("deck {level}", { level: target.deck }) : t("card {card}", { card: where }),
      acts.map((a) => ({ action: a, label: label(a) })), (a) => this.act(a.notation), () => this.closeMenu(true), extra);
    document.body.append(this.menu);
    this.returnFocus = anchor.dataset.testid || null; // where the focus goes back once the menu is gone
    const first = this.menu.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }

  /** Close the card menu; with `refocus`, the focus goes back to the card that opened it. */
  closeMenu(refocus = false) {
    const had = !!this.menu && this.menu.contains(document.activeElement);
    if (this.menu) this.menu.remove();
    this.menu = null;
    if ((refocus || had) && this.returnFocus && restoreFocus(this.root, [this.returnFocus])) this.returnFocus = null;
  }

  clearSelection() {
    this.selection = [];
    this.closeMenu();
    this.render();
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const s = this.state;
    if (!s) return;
    const focused = focusKey(this.root);
    this.draw(s);
    this.keepFocus(focused);
  }

  /**
   * After a redraw, the focus where it was (the element of the same test id), else where a
   * closed menu or dialog sends it back, else on the table's item last focused; a
   * decision's dialog takes it when it opens ({@link module:keyboard}).
   * @param {string|null} focused the key of the element focused before the redraw
   */
  keepFocus(focused) {
    this.roving.apply();
    const active = document.activeElement;
    const dialog = this.root.querySelector("[data-testid=dialog]");
    if (dialog && !dialog.contains(active)) {
      if (restoreFocus(dialog, [focused])) return;
      const first = dialog.querySelector("button");
      if (first && (focused || this.returnFocus || active === document.body)) return first.focus({ preventScroll: true });
    }
    if (active && active !== document.body && this.root.contains(active)) return;
    if (!focused && !this.returnFocus) return;
    const table = this.roving.current;
    restoreFocus(this.root, [focused, this.returnFocus, table.supply, table.board, table.cards]);
    this.returnFocus = null;
  }

  /** Draw the page from the state message `s`. */
  draw(s) {
    const obs = s.observation;
    const legal = this.legal;
    const ctx = {
      obs, tables: this.tables, seats: s.seats, viewer: s.seat ?? null,
      current: s.status === "finished" ? null : s.current_player,
      legal: this.myTurn ? legal : [], selection: this.selection, last: this.lastMove, turn: lastTurn(s.log, this.lastMove),
      on: {
        supply: (c) => this.onSupply(c), cell: (i) => this.onCell(i),
        card: (t, el) => this.onCard(t, el), replenish: () => this.act("replenish"),
      },
    };
    const table = s.game === "duel" ? renderDuel(ctx) : renderClassic(ctx);
    const decision = this.myTurn && isDialogDecision(legal) ? decisionDialog(s, this.tables, legal, (a) => this.act(a.notation)) : null;
    const confirm = this.confirmingResign && this.canResign ? confirmDialog({
      title: t("Resign this game?"),
      note: (s.num_players || 2) > 2
        ? t("A bot plays your seat to the end of the game, and you rank last.")
        : t("You lose the game now, by forfeit."),
      confirm: this.resigning ? t("resigning…") : t("Resign"), cancel: t("Keep playing"), testid: "resign",
      onConfirm: () => this.resign(),
      onCancel: () => { this.confirmingResign = false; this.returnFocus = "resign"; this.render(); },
    }) : null;
    const root = this.root;
    root.dataset.testid = "game-root";
    Object.assign(root.dataset, {
      game: s.game, move: s.move, status: s.status, yourTurn: String(this.myTurn),
      decision: decision ? "dialog" : this.myTurn ? "main" : "none", seat: s.seat ?? "",
    });
    const gameName = `${s.game === "duel" ? "Splendor Duel" : "Splendor"} ${this.gameId}`;
    document.title = this.myTurn ? t("● your turn · {game}", { game: gameName }) : gameName;
    root.dataset.rematch = this.canRematch ? (this.rematch.goingTo ? "started" : rematchState(this.rematch.table, this.me.id)) : "";
    root.dataset.resign = this.canResign ? (this.confirmingResign ? "confirming" : "available") : this.seatIsBot ? "resigned" : "none";
    root.dataset.motion = motionAllowed() ? "on" : "off";
    root.dataset.flights = String(this.flights);
    const f = this.ensureFrame();
    // the header's turn line and hint go to the action bar, which stays in view (sticky)
    const header = this.renderHeader();
    const who = header.querySelector("[data-testid=turn-info]");
    const hint = header.querySelector("[data-testid=hint]");
    if (s.status === "finished") this.analysis.update(s.seats, this.seated && !this.seatIsBot);
    const titleFocused = !!document.activeElement && document.activeElement.id === "result-title";
    replaceChildren(f.top,
      header,
      s.status === "finished" ? renderResult(s, this.gameId, { replay: true, rematch: this.renderRematchPanel() }) : null,
      s.status === "finished" ? this.analysis.el : null);
    if (titleFocused) { // a redraw (the rating changes arrived, say) keeps the result's heading focused
      const title = f.top.querySelector("#result-title");
      if (title) title.focus({ preventScroll: true });
    }
    // messages and the selection share a tray of their own: a reserved row on a wide
    // screen, a bar fixed at the bottom of a phone's screen (style.css): a tap never
    // moves the table (issue 33); while a decision's dialog asks, nothing is selected on
    // the table, and the row is not kept (the dialog has its own room)
    const playing = this.seated && !this.seatIsBot && s.status !== "finished" && !decision;
    replaceChildren(f.bar,
      h("div", { class: "bar-line" }, who, hint),
      confirm,
      decision,
      h("div", { class: `selection-tray${playing ? " reserved" : ""}`, dataset: { testid: "selection-tray" } },
        h("div", { class: "message-line", role: "status", "aria-live": "polite", dataset: { testid: "message" } }),
        this.renderSelection(legal)));
    f.bar.classList.toggle("asking", !!(confirm || decision || this.selection.length));
    // the player panels: the viewer's own beside (or, on a phone, above) the board, the others after
    const panels = table.querySelector(".players");
    const mine = panels ? panels.querySelector(".player.me") : null;
    if (panels) panels.remove();
    replaceChildren(f.main, table);
    this.drawReader(f, s);
    replaceChildren(f.switch, readerToggle(() => this.render()));
    replaceChildren(f.mine, mine);
    replaceChildren(f.others, panels ? [...panels.children].filter((el) => el !== mine) : null);
    if (this.legalOpen === undefined) this.legalOpen = window.innerWidth >= 760; // folded on a phone
    if (this.logOpen === undefined) this.logOpen = window.innerWidth >= 760;
    replaceChildren(f.side,
      renderScores(s, this.clocks), renderSpectators(s), this.renderSeatPanel(),
      renderLog(s, this.logOpen, (open) => { this.logOpen = open; }), this.myTurn ? renderLegalList(legal, (a) => this.act(a.notation), this.legalOpen, (open) => { this.legalOpen = open; }) : null,
      this.helpPanel(s.game));
    this.chat.setSeated(this.seated && !this.seatIsBot); // a seat left to a bot no longer writes (its token no longer works)
    this.renderMessage(root.querySelector("[data-testid=message]"));
    const log = root.querySelector(".log-list");
    if (log) log.scrollTop = log.scrollHeight;
  }

  /**
   * The page's frame, made once: the top (header, result), the action bar (whose turn,
   * the hint, messages, dialogs and the selection; it stays in view), the table, the
   * viewer's own panel, the other players' panels, the side column's panels, and the chat
   * panel, which stays in place (its input keeps the focus and the text typed while state
   * messages redraw the rest).
   */
  ensureFrame() {
    if (this.frame && this.frame.top.parentNode === this.root) return this.frame;
    const f = {
      switch: h("div", { class: "reader-switch" }),
      top: h("div", { class: "game-top" }),
      bar: h("div", { class: "action-bar", dataset: { testid: "action-bar" } }),
      main: h("div", { class: "main-col", id: "game-table", tabindex: -1 }),
      reader: h("div", { class: "reader-col", hidden: true }),
      mine: h("div", { class: "mine-col players", dataset: { testid: "my-panel" } }),
      others: h("div", { class: "others-col players" }),
      side: h("div", { class: "side-panels" }),
    };
    replaceChildren(this.root, f.switch, f.top, f.bar,
      h("div", { class: "game-layout play" }, f.reader, f.main, f.mine, f.others, h("aside", { class: "side-col" }, f.side, this.chat.el)));
    this.frame = f;
    const skip = document.getElementById("skip-link"); // the skip link leads to the table (app.js)
    if (skip) {
      skip.dataset.target = "[data-testid=reader], #game-table";
      skip.textContent = t("Skip to the table");
    }
    return f;
  }

  /** The screen-reader mode ({@link module:reader}): the table as text instead of the drawing. */
  drawReader(f, s) {
    const reading = readerMode();
    f.main.hidden = reading;
    f.reader.hidden = !reading; // an empty cell of the layout's grid would still take a gap
    f.switch.classList.toggle("on", reading); // shown while on; else seen once focused (after the skip link)
    replaceChildren(f.reader, reading ? this.reader.el : null);
    if (reading) this.reader.update(s, this.tables);
  }

  /**
   * The help panel on how moves are written ({@link notationHelp}), made once and kept
   * (its open state survives the redraws).
   */
  helpPanel(game) {
    if (!this.help || this.help.dataset.game !== game) this.help = notationHelp(game);
    return this.help;
  }

  /** The seated player's panel: Resign while the game goes on, or the note that a bot plays the seat. */
  renderSeatPanel() {
    if (this.seatIsBot && this.state.status !== "finished") {
      return h("p", { class: "resigned-note", dataset: { testid: "resigned" } },
        nodes(t("You left this game: {name} plays your seat to the end."), { name: h("bdi", {}, seatName(this.state.seats, this.state.seat)) }));
    }
    if (!this.canResign) return null;
    return h("div", { class: "seat-actions" },
      h("button", {
        type: "button", class: "resign", dataset: { testid: "resign" }, disabled: this.confirmingResign || this.resigning,
        title: (this.state.num_players || 2) > 2 ? t("leave the game: a bot plays your seat, you rank last") : t("give up: the other player wins"),
        onclick: () => this.askResign(),
      }, t("Resign")));
  }

  renderHeader() {
    const s = this.state;
    const name = s.game === "duel" ? "Splendor Duel" : "Splendor";
    let who;
    if (s.status === "finished") who = h("span", { class: "turn-info over", dataset: { testid: "turn-info" } }, t("game over"));
    else if (this.myTurn) who = h("span", { class: "turn-info mine", dataset: { testid: "turn-info" } }, t("your turn"));
    else who = h("span", { class: "turn-info", dataset: { testid: "turn-info" } }, t("{name} to play", { name: seatName(s.seats, s.current_player) }));
    const phase = s.observation.phase;
    const phaseHint = this.myTurn ? (PHASE_HINT[s.game] || [])[phase] : "";
    let hint = phaseHint ? t(phaseHint) : "";
    if (this.myTurn && this.legal.some((a) => a.p.kind === "privilege")) hint += ` · ${t("to spend a privilege, click a token and choose “use a privilege”")}`;
    const last = this.lastMove;
    return h("header", { class: "game-header" },
      h("a", { href: "/", class: "back", dataset: { testid: "lobby-link" } }, t("← lobby")),
      h("h2", {}, name),
      h("a", { href: `/howto/${s.game}`, class: "howto-link", target: "_blank", rel: "noopener", dataset: { testid: "howto-link" } }, t("How to play")),
      h("span", { class: "meta" }, t("game {game} · move {move} · turn {turn}", { game: this.gameId, move: s.move, turn: s.turn + 1 })), // the engine counts turns from 0
      who,
      hint ? h("span", { class: "hint", dataset: { testid: "hint" } }, hint) : null,
      last && last.notation ? this.renderLastMove(last) : null,
      h("span", { class: `connection ${this.connection}`, dataset: { testid: "connection", state: this.connection } },
        this.connection === "open" ? t("● live") : this.connection === "connecting" ? t("○ connecting") : t("○ reconnecting…")),
      s.seat === null || s.seat === undefined ? h("span", { class: "spectator" }, t("watching")) : null);
  }

  /**
   * The header's last turn: its decisions as sentences in the reader's language, or in
   * notation after the player's name when "Show notation" is on ({@link module:sentences}).
   */
  renderLastMove(last) {
    const s = this.state;
    const entries = (lastTurn(s.log, last) || { entries: [last] }).entries;
    const attrs = { class: "last-move", dataset: { testid: "last-move" } };
    if (notationShown() || !entries.every((e) => e.text)) {
      return h("span", attrs, nodes(t("last move: {name} {move}"), {
        name: h("b", {}, seatName(s.seats, last.seat)),
        move: h("span", { class: "turn-moves" }, entries.map((e) => h("code", {}, e.notation))),
      }));
    }
    const names = seatNames(s.seats, s.num_players);
    return h("span", attrs, h("span", { class: "lbl" }, t("last turn")), " ",
      h("span", { class: "turn-moves" }, entries.map((e) => h("span", { class: "move-text", title: e.notation }, moveSentence(e, names)))));
  }

  renderStatus() {
    const el = this.root.querySelector("[data-testid=connection]");
    if (!el) return;
    el.dataset.state = this.connection;
    el.className = `connection ${this.connection}`;
    el.textContent = this.connection === "open" ? t("● live") : t("○ reconnecting…");
  }

  renderMessage(el) {
    if (!el) return;
    el.className = `message-line ${this.messageKind}`;
    el.textContent = this.message || "";
  }

  /** The selection tray: chosen tokens/cells and the matching legal actions to confirm. */
  renderSelection(legal) {
    if (!this.myTurn) return null;
    const s = this.state;
    let exact = [];
    let chips = [];
    if (s.game === "duel") {
      if (this.selection.length) exact = matchCells(legal, this.selection).exact;
      chips = [...this.selection].sort((a, b) => a - b).map((i) => h("span", { class: "sel-cell" }, cellName(i), " ", tokenChip(cellToken(s.observation, i) || "*")));
    } else {
      if (this.selection.length) exact = matchColorTake(legal, this.selection).exact;
      chips = this.selection.map((c) => tokenChip(CLASSIC_LETTERS[c]));
    }
    if (!this.selection.length) return null;
    const label = (a) => (notationShown() ? a.notation : selectionSentence(a, s));
    return h("div", { class: "selection", dataset: { testid: "selection" } },
      h("span", { class: "lbl" }, t("selected")), chips,
      exact.map((a) => h("button", {
        class: "confirm", type: "button", dataset: { testid: "confirm", notation: a.notation, action: a.notation },
        onclick: () => this.act(a.notation),
      }, label(a))),
      exact.length ? null : h("span", { class: "dim" }, s.game === "duel" ? t("add cells in a line") : t("add tokens")),
      h("button", { class: "clear", type: "button", dataset: { testid: "clear-selection" }, onclick: () => this.clearSelection() }, t("clear")));
  }
}
