/**
 * The labels next to a name: "guest" for a guest (no account: its name is not reserved,
 * it plays casual games only) and "bot" for a seat a bot plays. The server says which in
 * every JSON that carries a name (game seats: `type` "bot" and `guest`; lobby seats: `bot`
 * and `guest`; chat messages and spectators: `guest`; players: `account`, `guest`,
 * `deleted`). The labels are text (`<span class="badge guest">guest</span>`), so screen
 * readers say them too.
 * @module badges
 */

import { t } from "./i18n.js";
import { h } from "./util.js";

/** The "guest" label. */
export function guestBadge() {
  return h("span", { class: "badge guest", title: t("a guest: no account, casual games only"), dataset: { testid: "badge-guest" } }, t("guest"));
}

/** The "bot" label. */
export function botBadge() {
  return h("span", { class: "badge bot", title: t("a bot plays this seat"), dataset: { testid: "badge-bot" } }, t("bot"));
}

/** The "deleted" label (an account deleted: its games keep an anonymous name). */
export function deletedBadge() {
  return h("span", { class: "badge deleted", dataset: { testid: "badge-deleted" } }, t("deleted"));
}

/**
 * The labels of a seat, a player or a chat message (each preceded by a space), or null.
 * @param {Object|null|undefined} who `{type?, bot?, guest?, deleted?}`
 * @returns {Array|null}
 */
export function badgesFor(who) {
  if (!who) return null;
  if (who.type === "bot" || (who.bot && !who.player_id && who.type !== "human")) return [" ", botBadge()];
  if (who.guest) return [" ", guestBadge()];
  if (who.deleted) return [" ", deletedBadge()];
  return null;
}

/**
 * The labels of seat `seat` of a state message's `seats`.
 * @param {Array} seats
 * @param {number} seat
 */
export function seatBadges(seats, seat) {
  return badgesFor((seats || []).find((x) => x.seat === seat));
}
