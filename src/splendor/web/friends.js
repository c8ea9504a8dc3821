/**
 * Friends and blocks (`/friends`): the player's friends (players who follow each other),
 * each with a dot when online and their games in progress (to watch); the players they
 * follow who do not follow back, and those who follow them (with Follow back); the
 * players they block, with Unblock. Following and blocking are done from player pages.
 * @module friends
 */

import { t } from "./i18n.js";
import { onIdentityChange, whenIdentityKnown } from "./identity.js";
import { myBlocks, myFriends, setBlock, setFollow } from "./me_feed.js";
import { gameTitle } from "./my_games.js";
import { h, replaceChildren } from "./util.js";

/** Controller of the friends page. */
export class FriendsPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.friends = null;
    this.blocks = null;
    this.error = null;
  }

  async start() {
    this.root.dataset.testid = "friends-page";
    replaceChildren(this.root, h("p", { class: "loading" }, t("loading…")));
    onIdentityChange(() => this.load());
    await whenIdentityKnown();
    await this.load();
    setInterval(() => { if (document.visibilityState === "visible" && !this.error) this.load(); }, 30000);
  }

  async load() {
    try {
      [this.friends, this.blocks] = await Promise.all([myFriends(), myBlocks().then((r) => r.blocks)]);
      this.error = null;
    } catch (e) {
      this.error = e;
    }
    this.render();
  }

  /** Run a change, then reload; a refusal shows at the top. */
  async act(fn) {
    try {
      await fn();
    } catch (e) {
      this.error = e;
      this.render();
      return;
    }
    await this.load();
  }

  person(p, extra = null) {
    return h("li", { class: "friend", dataset: { testid: `friend-${p.id}`, online: String(!!p.online) } },
      h("span", { class: `online-dot${p.online ? " online" : ""}`, title: p.online ? t("online") : t("offline"), "aria-label": p.online ? t("online") : t("offline"), dataset: { testid: "online-dot" } }),
      " ", h("a", { href: `/players/${encodeURIComponent(p.id)}` }, h("bdi", {}, p.name)),
      p.account ? null : [" ", h("span", { class: "badge guest" }, t("guest"))],
      (p.games || []).length ? [" · ", (p.games || []).map((g, i) => [i ? ", " : "", h("a", { href: g.url, dataset: { testid: "friend-game" } }, gameTitle(g))])] : null,
      extra ? [" ", extra] : null);
  }

  render() {
    if (this.error && this.error.status === 401) {
      replaceChildren(this.root, h("h1", {}, t("Friends")), h("p", { class: "dim" }, t("Play as a guest or log in to have friends.")));
      return;
    }
    const f = this.friends || { friends: [], following: [], followers: [] };
    const list = (items, testid, empty, extra) => (items.length
      ? h("ul", { class: "friend-list", dataset: { testid } }, items.map((p) => this.person(p, extra && extra(p))))
      : h("p", { class: "dim", dataset: { testid: `${testid}-empty` } }, empty));
    const unfollow = (p) => h("button", { type: "button", class: "small", onclick: () => this.act(() => setFollow(p.id, false)) }, t("Unfollow"));
    const followBack = (p) => h("button", { type: "button", class: "small", dataset: { testid: "follow-back" }, onclick: () => this.act(() => setFollow(p.id, true)) }, t("Follow back"));
    const blocked = this.blocks || [];
    replaceChildren(this.root,
      h("h1", {}, t("Friends")),
      this.error ? h("p", { class: "form-error", role: "alert" }, this.error.message) : null,
      h("p", { class: "dim" }, t("Players who follow each other are friends: you see when they are online and their games, and you may invite them to your tables. Follow or block a player from their page.")),
      h("section", {}, h("h2", {}, t("Friends")), list(f.friends, "friends", t("No friends yet."), unfollow)),
      h("section", {}, h("h2", {}, t("Following")), list(f.following, "following", t("You follow nobody else."), unfollow)),
      h("section", {}, h("h2", {}, t("Followers")), list(f.followers, "followers", t("Nobody else follows you."), followBack)),
      h("section", {}, h("h2", {}, t("Blocked players")),
        h("p", { class: "dim" }, t("A blocked player is never paired with you, cannot sit at your tables, and you do not see their chat.")),
        blocked.length
          ? h("ul", { class: "friend-list", dataset: { testid: "blocked" } }, blocked.map((p) => h("li", { dataset: { testid: `blocked-${p.id}` } },
            h("a", { href: `/players/${encodeURIComponent(p.id)}` }, h("bdi", {}, p.name)), " ",
            h("button", { type: "button", class: "small", dataset: { testid: "unblock" }, onclick: () => this.act(() => setBlock(p.id, false)) }, t("Unblock")))))
          : h("p", { class: "dim", dataset: { testid: "blocked-empty" } }, t("You block nobody."))));
  }
}
