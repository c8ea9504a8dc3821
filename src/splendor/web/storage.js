/**
 * The player's seat tokens, remembered in localStorage (`splendor.tokens`).
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
