/**
 * The page of one table, `/tables/{id}` (where invitation links lead: `#code=…` in the
 * fragment, which browsers never send to the server). Shows the table (game, seats,
 * clock, rated, who may join) live, with Join (sending the link's code) or Leave, and for a
 * seated player "Invite a friend" ({@link module:player_social}); when
 * its game starts for the player, the page goes to it. Nobody logged in: the login hint.
 * @module table_page
 */

import * as api from "./api.js";
import { nodes, t } from "./i18n.js";
import { currentPlayer, onIdentityChange, whenIdentityKnown } from "./identity.js";
import { clockLabel, focusGuestName, goToGame, inviteBox, inviteUrl, loginHint, mySeat, seatsView, tableTitle } from "./lobby_tables.js";
import { inviteControl } from "./player_social.js";
import { inviteFor } from "./storage.js";
import { h, replaceChildren } from "./util.js";

/** The invitation code in the page's fragment (`#code=…`), or null. */
export function codeFromUrl() {
  return new URLSearchParams(location.hash.slice(1)).get("code") || null;
}

/** Controller of the table page. */
export class TablePage {
  /** @param {HTMLElement} root @param {string} tableId */
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.code = codeFromUrl();
    this.table = null;
    this.player = currentPlayer();
    this.busy = false;
    this.error = "";
    this.leaving = false;
    this.socket = null;
    this.fetching = null;
    /** Whether the table was open when the page loaded (then its start leads to the game). */
    this.wasOpen = false;
    this.socketAs = undefined;
  }

  async start() {
    this.root.dataset.testid = "table-page";
    this.root.dataset.tableId = this.tableId;
    replaceChildren(this.root, h("p", { class: "loading" }, t("loading the table…")));
    try {
      this.table = await api.getTable(this.tableId);
    } catch (e) {
      replaceChildren(this.root, h("div", { class: "fatal", dataset: { testid: "fatal" } },
        e.status === 404 ? t("no such table") : t("cannot load the table: {error}", { error: e.message }), " ", h("a", { href: "/" }, t("back to the lobby"))));
      return;
    }
    this.player = currentPlayer(); // it may have been answered meanwhile
    window.addEventListener("hashchange", () => {
      this.code = codeFromUrl();
      this.error = "";
      this.render();
    });
    onIdentityChange((p) => {
      const id = p ? p.id : null;
      this.player = p;
      if (this.socketAs === undefined) this.socketAs = id;
      else if (this.socketAs !== id) {
        this.socketAs = id;
        if (this.socket) this.socket.reconnect();
      }
      this.render();
    });
    this.render();
    this.wasOpen = this.table.status === "open";
    if (!this.wasOpen) return; // nothing will change any more
    this.socket = new api.LobbySocket({
      onLobby: (tables) => this.onLobby(tables),
      onStarted: (msg) => { if (msg.table_id === this.tableId) this.go(msg.game_id); },
    });
    this.socketAs = this.player === undefined ? undefined : (this.player ? this.player.id : null);
    this.socket.connect();
  }

  go(gameId) {
    if (this.leaving || !gameId) return;
    this.leaving = true;
    if (this.socket) this.socket.close();
    goToGame(gameId);
  }

  /** Something changed in the lobby: the table's new state (listed, or asked for). */
  onLobby(tables) {
    const listed = tables.find((t) => t.id === this.tableId);
    if (listed) this.update(listed);
    else this.refetch();
  }

  /** `GET` the table again (one request at a time). */
  refetch() {
    if (this.fetching) return;
    this.fetching = api.getTable(this.tableId).then((t) => this.update(t)).catch(() => {}).finally(() => { this.fetching = null; });
  }

  update(table) {
    this.table = table;
    // seated at a table that started while this page watched it: to the game
    if (table.status === "started" && table.game_id && mySeat(table, this.player) !== null && this.wasOpen) {
      this.go(table.game_id);
      return;
    }
    if (table.status !== "open" && this.socket) {
      this.socket.close();
      this.socket = null;
    }
    this.render();
  }

  async act(fn) {
    if (this.busy) return;
    if (this.player === undefined) this.player = await whenIdentityKnown();
    if (!this.player) {
      this.error = "";
      this.render();
      const hint = this.root.querySelector("[data-testid=lobby-login-hint]");
      if (hint) hint.classList.add("flash");
      focusGuestName();
      return;
    }
    this.busy = true;
    this.error = "";
    this.render();
    let table = null;
    try {
      table = await fn();
    } catch (e) {
      this.error = e.message;
    }
    this.busy = false;
    if (table) {
      this.update(table);
    } else this.render();
  }

  render() {
    const table = this.table;
    if (!table) return;
    const p = this.player;
    const seat = mySeat(table, p);
    const free = table.seats.some((s) => s.free);
    this.root.dataset.status = table.status;
    this.root.dataset.seated = String(seat !== null);
    document.title = t("{table} · table · Splendor", { table: tableTitle(table) });
    let actions;
    if (table.status === "open") {
      if (seat !== null) {
        actions = [
          h("p", { dataset: { testid: "table-waiting" } }, t("You sit at this table: the game starts when its seats are taken.")),
          h("button", { type: "button", disabled: this.busy ? true : null, dataset: { testid: "leave" }, onclick: () => this.act(() => api.leaveTable(table.id)) }, t("Leave")),
        ];
        const code = table.visibility === "invite" ? this.code || inviteFor(table.id) : null;
        if (code) actions.push(h("p", {}, nodes(t("Invitation link: {link}"), { link: inviteBox(inviteUrl(table.id, code)) })));
        if (free && (table.visibility !== "invite" || code)) {
          if (!this.inviteBox || this.inviteBox.tableId !== table.id) this.inviteBox = Object.assign(inviteControl(table, code), { tableId: table.id });
          actions.push(this.inviteBox); // kept across redraws (its list of friends and status)
        }
      } else if (free) {
        actions = [h("button", { type: "button", class: "primary", disabled: this.busy ? true : null, dataset: { testid: "join" }, onclick: () => this.act(() => api.joinTable(table.id, this.code)) }, t("Join"))];
        if (table.visibility === "invite" && !this.code) actions.push(h("p", { class: "dim" }, t("This table is by invitation: joining needs the host's invitation link.")));
      } else actions = [h("p", { class: "dim" }, t("No free seat left."))];
    } else if (table.status === "started" && table.game_id) {
      const link = h("a", { href: `/games/${encodeURIComponent(table.game_id)}`, dataset: { testid: "game-link" } }, seat !== null ? t("play your seat") : t("watch it"));
      actions = [h("p", { dataset: { testid: "table-started" } }, nodes(t("The game has started: {link}"), { link }))];
    } else actions = [h("p", { class: "dim", dataset: { testid: "table-closed" } }, t("This table is closed: everyone left."))];
    replaceChildren(this.root,
      p === null && table.status === "open" ? loginHint() : null,
      h("section", { class: "table-card" },
        h("h1", { dataset: { testid: "table-title" } }, tableTitle(table)),
        h("p", { class: "table-facts" },
          h("span", { dataset: { testid: "table-clock" } }, clockLabel(table.clock)), " · ",
          h("span", { dataset: { testid: "table-rated" } }, table.rated ? t("rated") : t("unrated")), " · ",
          h("span", { dataset: { testid: "table-visibility" } }, table.visibility === "invite" ? t("by invitation") : t("open to anyone")),
          table.options && table.options.turn_cap ? [" · ", t("turn cap {n}", { n: table.options.turn_cap })] : null),
        h("p", {}, h("span", { class: "lbl" }, t("seats")), seatsView(table, p)),
        h("div", { class: "table-actions" }, actions),
        h("p", { class: "form-error", role: "alert", dataset: { testid: "table-error" } }, this.error),
        h("p", {}, h("a", { href: "/", dataset: { testid: "lobby-link" } }, t("back to the lobby")))));
  }
}
