/**
 * Keyboard play: the focus kept across redraws (an element is found again by its
 * `data-testid`, and `data-notation` where several share one), and roving focus over a
 * group of the table (the supply, the Duel board, the cards, the nobles or royal cards):
 * one Tab stop per group, the arrow keys move inside it (left/right along a row, up/down
 * between rows), Home/End go to the row's ends.
 *
 * A group is an element with `data-rove="<name>"`; its items carry `data-rove-row` (the
 * row) and a `data-testid`. Disabled items are skipped.
 * @module keyboard
 */

/**
 * The key of the focused element inside `root` (its test id, and its notation when it
 * has one), or null when the focus is elsewhere.
 * @param {HTMLElement} root
 * @returns {string|null}
 */
export function focusKey(root) {
  const el = document.activeElement;
  if (!el || el === document.body || !root.contains(el)) return null;
  return keyOf(el);
}

/** The key of an element: `testid` or `testid|notation`; null without a test id. */
function keyOf(el) {
  const id = el.dataset ? el.dataset.testid : null;
  if (!id) return null;
  return el.dataset.notation ? `${id}|${el.dataset.notation}` : id;
}

/**
 * The element of `root` with this key ({@link focusKey}), or null.
 * @param {HTMLElement} root
 * @param {string|null} key
 * @returns {HTMLElement|null}
 */
export function findKey(root, key) {
  if (!key) return null;
  const [id, notation] = key.split("|");
  for (const el of root.querySelectorAll(`[data-testid="${CSS.escape(id)}"]`)) {
    if (el.closest("[aria-hidden=true]")) continue; // a copy in flight (motion.js)
    if (!notation || el.dataset.notation === notation) return el;
  }
  return null;
}

/**
 * Focus the element of `root` with the first of `keys` found (never scrolling the page);
 * true when one was.
 * @param {HTMLElement} root
 * @param {Array<string|null>} keys
 * @returns {boolean}
 */
export function restoreFocus(root, keys) {
  for (const key of keys) {
    const el = findKey(root, key);
    if (el && !el.disabled) {
      if (el.tabIndex < 0 && el.closest("[data-rove]")) el.tabIndex = 0;
      el.focus({ preventScroll: true });
      return document.activeElement === el;
    }
  }
  return false;
}

/** The focusable items of a roving group, in order. */
function items(group) {
  return [...group.querySelectorAll("[data-rove-row]")].filter((el) => !el.disabled && el.dataset.testid);
}

/**
 * Roving focus over the groups of `root`, remembered across redraws: call
 * {@link Roving#apply} after each redraw (one Tab stop per group, the item last focused);
 * the arrow keys are handled once, on `root`.
 */
export class Roving {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** group name -> the key of its current item */
    this.current = {};
    root.addEventListener("keydown", (ev) => this.onKey(ev));
    root.addEventListener("focusin", (ev) => {
      const group = ev.target.closest && ev.target.closest("[data-rove]");
      if (group && ev.target.dataset.roveRow !== undefined) {
        this.current[group.dataset.rove] = keyOf(ev.target);
        this.apply();
      }
    });
  }

  /** Give each group one Tab stop: its current item (else its first). */
  apply() {
    for (const group of this.root.querySelectorAll("[data-rove]")) {
      const list = items(group);
      const key = this.current[group.dataset.rove];
      const chosen = list.find((el) => keyOf(el) === key) || list[0];
      for (const el of list) el.tabIndex = el === chosen ? 0 : -1;
    }
  }

  /** An arrow key, Home or End on an item of a group: move the focus inside the group. */
  onKey(ev) {
    const el = ev.target;
    if (!el || !el.dataset || el.dataset.roveRow === undefined || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const group = el.closest("[data-rove]");
    if (!group) return;
    const next = neighbour(items(group), el, ev.key);
    if (!next) return;
    ev.preventDefault();
    if (next !== el) {
      this.current[group.dataset.rove] = keyOf(next);
      this.apply();
      next.focus();
    }
  }
}

/**
 * The item that `key` moves to from `el` (null for another key): left/right along its
 * row, up/down to the nearest item (by position in the row) of the row above or below,
 * Home/End to the row's ends.
 * @param {HTMLElement[]} list
 * @param {HTMLElement} el
 * @param {string} key
 * @returns {HTMLElement|null}
 */
export function neighbour(list, el, key) {
  const rows = [];
  const byRow = new Map();
  for (const it of list) {
    const r = it.dataset.roveRow;
    if (!byRow.has(r)) {
      byRow.set(r, []);
      rows.push(r);
    }
    byRow.get(r).push(it);
  }
  const row = byRow.get(el.dataset.roveRow) || [el];
  const i = row.indexOf(el);
  const r = rows.indexOf(el.dataset.roveRow);
  switch (key) {
    case "ArrowRight": return row[Math.min(i + 1, row.length - 1)];
    case "ArrowLeft": return row[Math.max(i - 1, 0)];
    case "Home": return row[0];
    case "End": return row[row.length - 1];
    case "ArrowDown":
    case "ArrowUp": {
      const other = byRow.get(rows[r + (key === "ArrowDown" ? 1 : -1)]);
      if (!other) return el;
      return other[Math.min(i, other.length - 1)];
    }
    default: return null;
  }
}
