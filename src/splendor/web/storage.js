/**
 * The player's seat tokens, remembered in localStorage (`splendor.tokens`), and the
 * invitation codes of the tables this browser opened (`splendor.invites`: the server shows
 * a code only once).
 * @module storage
 */

const KEY = "splendor.tokens";

/**
 * @typedef {{game_id: string, token: string, seat: number, game: string, name?: string, saved: string}} SavedSeat
 */

/** Every remembered seat. @returns {SavedSeat[]} */
export function savedSeats() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(v) ? v.filter((x) => x && x.token && x.game_id) : [];
  } catch {
    return [];
  }
}

/** Remember one seat's token (replacing an older entry with the same token). */
export function saveSeat(entry) {
  const seats = savedSeats().filter((x) => x.token !== entry.token);
  seats.push({ saved: new Date().toISOString(), ...entry });
  try {
    localStorage.setItem(KEY, JSON.stringify(seats));
  } catch {
    /* storage full or disabled: the game still works through its link */
  }
}

/** Forget the seats of one game. */
export function forgetGame(gameId) {
  localStorage.setItem(KEY, JSON.stringify(savedSeats().filter((x) => x.game_id !== gameId)));
}

/** The remembered token for a game (the first seat), or null. */
export function tokenFor(gameId) {
  const s = savedSeats().find((x) => x.game_id === gameId);
  return s ? s.token : null;
}

const INVITES = "splendor.invites";
const MAX_INVITES = 50;

function savedInvites() {
  try {
    const v = JSON.parse(localStorage.getItem(INVITES) || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Remember the invitation code of a table opened here (the newest {@link MAX_INVITES}). */
export function saveInvite(tableId, code) {
  const all = savedInvites();
  delete all[tableId];
  all[tableId] = code;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_INVITES))) delete all[k];
  try {
    localStorage.setItem(INVITES, JSON.stringify(all));
  } catch {
    /* storage full or disabled: the link was shown once */
  }
}

/** The remembered invitation code of a table, or null. */
export function inviteFor(tableId) {
  const code = savedInvites()[tableId];
  return typeof code === "string" ? code : null;
}
