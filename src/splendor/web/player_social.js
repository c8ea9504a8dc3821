/**
 * The Follow and Block buttons of another player's page (for a logged-in reader): what
 * stands between the reader and the player (`GET /api/players/{id}/relation`), Follow /
 * Unfollow ("friends" when both follow each other) and Block / Unblock (blocking asks
 * for a confirmation beside the button, and ends the follows between the two).
 * @module player_social
 */

import { t } from "./i18n.js";
import { inviteFriend, myFriends, relationWith, setBlock, setFollow } from "./me_feed.js";
import { h, replaceChildren } from "./util.js";

/**
 * The controls for `player` as seen by `me` (null when `me` is nobody or the player).
 * @param {{id: string, name: string}} player
 * @param {Object|null|undefined} me the logged-in player
 * @returns {HTMLElement|null}
 */
export function socialControls(player, me) {
  if (!me || me.id === player.id) return null;
  const box = h("span", { class: "social-controls", dataset: { testid: "social-controls" } });
  let relation = null;
  let busy = false;
  let error = "";
  let confirming = false;

  const draw = () => {
    if (!relation) {
      replaceChildren(box, error ? h("span", { class: "form-error" }, error) : null);
      return;
    }
    box.dataset.following = String(relation.following);
    box.dataset.blocked = String(relation.blocked);
    box.dataset.friend = String(relation.friend);
    replaceChildren(box,
      relation.friend ? h("span", { class: "badge friend", dataset: { testid: "friend-badge" } }, t("friend")) : null,
      relation.blocked ? null : h("button", {
        type: "button", class: `toggle${relation.following ? " active" : ""}`, disabled: busy ? true : null,
        "aria-pressed": String(relation.following), dataset: { testid: "follow" },
        onclick: () => change(() => setFollow(player.id, !relation.following)),
      }, relation.following ? t("Unfollow") : relation.followed_by ? t("Follow back") : t("Follow")),
      h("button", {
        type: "button", class: `toggle${relation.blocked ? " active" : ""}`, disabled: busy ? true : null,
        "aria-pressed": String(relation.blocked), dataset: { testid: "block" },
        title: t("a blocked player is never paired with you, cannot sit at your tables, and you do not see their chat"),
        onclick: () => {
          if (relation.blocked) change(() => setBlock(player.id, false));
          else {
            confirming = true;
            draw();
          }
        },
      }, relation.blocked ? t("Unblock") : t("Block")),
      confirming ? h("span", { class: "confirm-block", role: "alertdialog", dataset: { testid: "block-confirm" } },
        t("Block {name}? You will not be paired or seated together, and you will not see their chat.", { name: player.name }), " ",
        h("button", { type: "button", class: "primary small", dataset: { testid: "block-yes" }, onclick: () => { confirming = false; change(() => setBlock(player.id, true)); } }, t("Block")), " ",
        h("button", { type: "button", class: "small", dataset: { testid: "block-no" }, onclick: () => { confirming = false; draw(); } }, t("Cancel"))) : null,
      error ? h("span", { class: "form-error", role: "alert" }, error) : null);
  };

  const change = async (fn) => {
    if (busy) return;
    busy = true;
    error = "";
    draw();
    try {
      relation = (await fn()).relation;
    } catch (e) {
      error = e.message;
    }
    busy = false;
    draw();
  };

  relationWith(player.id).then((r) => { relation = r.relation; draw(); })
    .catch((e) => { error = e.message; draw(); });
  return box;
}

/**
 * "Invite a friend" at a table where the reader sits and a seat is free: a list of the
 * reader's friends (online ones first) and a button; the friend gets the table's link (with
 * `code`, an invitation table's code) on their feed and by their notifications.
 * @param {Object} table the table (`GET /api/tables/{id}`)
 * @param {string|null} code the invitation code of an invitation table (null: open table)
 * @returns {HTMLElement}
 */
export function inviteControl(table, code) {
  const box = h("div", { class: "invite-friend", dataset: { testid: "invite-friend" } });
  const status = h("span", { class: "form-status", role: "status", dataset: { testid: "invite-friend-status" } });
  myFriends().then(({ friends }) => {
    const seated = new Set(table.seats.map((s) => s.player_id).filter(Boolean));
    const choices = friends.filter((f) => !seated.has(f.id)).sort((a, b) => Number(b.online) - Number(a.online));
    if (!choices.length) {
      replaceChildren(box, h("span", { class: "dim" }, t("Invite a friend: you have no friends to invite yet (players who follow each other).")));
      return;
    }
    const select = h("select", { "aria-label": t("friend to invite"), dataset: { testid: "invite-friend-select" } },
      choices.map((f) => h("option", { value: f.id }, f.online ? t("{name} (online)", { name: f.name }) : f.name)));
    const button = h("button", { type: "button", dataset: { testid: "invite-friend-submit" }, onclick: async () => {
      button.disabled = true;
      status.textContent = "";
      try {
        const r = await inviteFriend(table.id, select.value, code);
        const name = choices.find((f) => f.id === r.invited)?.name || "";
        status.textContent = r.online ? t("{name} was invited.", { name }) : t("{name} was invited (offline now: they will be notified).", { name });
      } catch (e) {
        status.textContent = e.message;
      }
      button.disabled = false;
    } }, t("Invite"));
    replaceChildren(box, h("span", { class: "lbl" }, t("Invite a friend")), " ", select, " ", button, " ", status);
  }).catch(() => replaceChildren(box));
  return box;
}
