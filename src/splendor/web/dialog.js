/**
 * Choice dialogs (payment, token return, noble, joker, royal card, steal, ...) and the small
 * action menu shown beside a clicked card. Every option is a button carrying
 * `data-notation` / `data-action` with a legal action's notation.
 * @module dialog
 */

import { t } from "./i18n.js";
import { h } from "./util.js";

/**
 * An option button for one legal action.
 * @param {{notation: string}} action
 * @param {string|Node|Array} label
 * @param {Function} onPick
 * @param {string} testid
 */
export function optionButton(action, label, onPick, testid) {
  return h("button", {
    class: "option", type: "button",
    dataset: { testid, notation: action.notation, action: action.notation, actionId: action.id },
    onclick: () => onPick(action),
  }, label);
}

/**
 * A modal-looking dialog (not blocking the table view) listing the options.
 * @param {string} title
 * @param {Array<{action: Object, label: any}>} options
 * @param {Function} onPick called with the chosen action
 * @param {string|Node} [note] a line under the title
 */
export function choiceDialog(title, options, onPick, note = "") {
  return h("div", { class: "dialog", role: "dialog", "aria-label": title, dataset: { testid: "dialog" } },
    h("h3", {}, title),
    note ? h("div", { class: "note" }, note) : null,
    h("div", { class: "options" }, options.map((o) => optionButton(o.action, o.label, onPick, "dialog-option"))));
}

/**
 * A small menu beside `anchor` listing the actions for a card or deck.
 * @param {HTMLElement} anchor the clicked element
 * @param {string} title
 * @param {Array<{action: Object, label: any}>} options
 * @param {Function} onPick
 * @param {Function} onClose
 * @param {HTMLElement|null} [extra] e.g. the reason a purchase is not allowed
 * @returns {HTMLElement}
 */
export function cardMenu(anchor, title, options, onPick, onClose, extra = null) {
  const menu = h("div", { class: "card-menu", role: "dialog", "aria-label": title, dataset: { testid: "card-menu" }, onkeydown: menuKeys },
    h("div", { class: "menu-title" }, title),
    options.map((o) => optionButton(o.action, o.label, onPick, "menu-action")),
    extra,
    h("button", { class: "option cancel", type: "button", dataset: { testid: "menu-cancel" }, onclick: onClose }, t("cancel")));
  const r = anchor.getBoundingClientRect();
  menu.style.left = `${Math.max(4, Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - 230))}px`;
  menu.style.top = `${window.scrollY + r.bottom + 4}px`;
  return menu;
}

/**
 * The keys of a card menu: the arrows move between its buttons, Tab and Shift+Tab cycle
 * through them (the focus stays in the menu until it closes: Escape, an option, Cancel).
 * @param {KeyboardEvent} ev
 */
function menuKeys(ev) {
  const buttons = [...ev.currentTarget.querySelectorAll("button")];
  const i = buttons.indexOf(document.activeElement);
  let step = 0;
  if (ev.key === "ArrowDown" || ev.key === "ArrowRight" || (ev.key === "Tab" && !ev.shiftKey)) step = 1;
  else if (ev.key === "ArrowUp" || ev.key === "ArrowLeft" || (ev.key === "Tab" && ev.shiftKey)) step = -1;
  if (!step || !buttons.length) return;
  ev.preventDefault();
  buttons[(i + step + buttons.length) % buttons.length].focus();
}

/**
 * A confirmation inside the page (like {@link choiceDialog}, never `window.confirm`): a
 * title, a note, and two buttons.
 * @param {{title: string, note?: string|Node, confirm: string, cancel?: string,
 *   onConfirm: Function, onCancel: Function, testid?: string}} o `testid` names the
 *   dialog; its buttons are `{testid}-confirm` and `{testid}-cancel`
 * @returns {HTMLElement}
 */
export function confirmDialog(o) {
  const id = o.testid || "confirm";
  return h("div", { class: "dialog confirm-dialog", role: "alertdialog", "aria-label": o.title, dataset: { testid: `${id}-dialog` } },
    h("h3", {}, o.title),
    o.note ? h("div", { class: "note" }, o.note) : null,
    h("div", { class: "options" },
      h("button", { type: "button", class: "option danger", dataset: { testid: `${id}-confirm` }, onclick: () => o.onConfirm() }, o.confirm),
      h("button", { type: "button", class: "option", dataset: { testid: `${id}-cancel` }, onclick: () => o.onCancel() }, o.cancel || t("cancel"))));
}
