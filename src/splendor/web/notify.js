/**
 * Notifications in the browser: the `{"type": "notify", "kind", "title", "body", "url",
 * "tag"}` messages of the player's feed (`WS /ws/me`, dispatched by `me_feed.js` as
 * `splendor:me` events) shown as a system notification when the tab is hidden and the
 * reader allowed them, else as a toast in the page; and Web Push: the service worker
 * (`/sw.js`), the subscription made with the server's VAPID key and posted to the server
 * ({@link enablePush}), and its removal ({@link disablePush}).
 * @module notify
 */

import { request } from "./api.js";
import { t } from "./i18n.js";
import { ME_EVENT } from "./me_feed.js";
import { h } from "./util.js";

/** Whether this browser can receive Web Push (service workers, push, notifications). */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The reader's choice for this site: `"granted"`, `"denied"`, `"default"`, or `"unsupported"`. */
export function notificationPermission() {
  return "Notification" in window ? Notification.permission : "unsupported";
}

/** The bytes of unpadded base64url text (the server's VAPID key). */
function base64urlBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** Register the service worker at the site's root (its scope: every page). */
export async function registerWorker() {
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  return registration;
}

/** This browser's push subscription, or null. */
export async function currentSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/**
 * Turn push notifications on for this browser: ask the reader's permission (call it from a
 * button press), register the worker, subscribe with the server's key and post the
 * subscription. Answers the server's `{subscriptions}`; throws an Error whose message says
 * what is missing.
 */
export async function enablePush() {
  if (!pushSupported()) throw new Error(t("This browser cannot receive push notifications."));
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new Error(t("Notifications are blocked for this site: allow them in your browser's settings."));
  }
  const registration = await registerWorker();
  const { key } = await request("GET", "/api/push/key");
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(key) });
  }
  return request("POST", "/api/push/subscriptions", subscription.toJSON());
}

/** Turn push notifications off for this browser (the server forgets its subscription). */
export async function disablePush() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await request("DELETE", "/api/push/subscriptions", { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

/** A page of this site (a path, or a URL of this origin), else null. */
function sitePath(url) {
  if (typeof url !== "string") return null;
  try {
    const u = new URL(url, location.origin);
    return u.origin === location.origin ? u.pathname + u.search : null;
  } catch {
    return null;
  }
}

/** The toasts' box of the page (made if missing). */
function toastBox() {
  let box = document.querySelector(".toasts");
  if (!box) {
    box = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  return box;
}

/**
 * Show a notice: a system notification when the tab is hidden and notifications are
 * allowed (clicking it opens its page), else a toast with a link (closed after a minute).
 * @param {{kind: string, title: string, body: string, url: string, tag?: string}} msg
 */
export function showNotice(msg) {
  const path = sitePath(msg.url);
  const title = typeof msg.title === "string" ? msg.title : "Splendor";
  const body = typeof msg.body === "string" ? msg.body : "";
  if (notificationPermission() === "granted" && document.visibilityState !== "visible") {
    const note = new Notification(title, { body, tag: msg.tag || undefined });
    note.onclick = () => {
      window.focus();
      if (path) location.assign(path);
      note.close();
    };
    return;
  }
  const toast = h("div", { class: "toast notify-toast", dataset: { testid: "notify-toast", kind: String(msg.kind || "") } },
    h("strong", {}, title), " ", h("span", {}, body), " ",
    path && path !== location.pathname ? h("a", { href: path, dataset: { testid: "notify-toast-link" } }, t("Open")) : null, " ",
    h("button", { type: "button", class: "link", "aria-label": t("close"), onclick: () => toast.remove() }, "✕"));
  toastBox().append(toast);
  setTimeout(() => toast.remove(), 60000);
}

let started = false;

/** Show the notices of the player's feed (once per page; `app.js` calls it). */
export function startNotifications() {
  if (started) return;
  started = true;
  window.addEventListener(ME_EVENT, (ev) => {
    const msg = ev.detail;
    if (msg && msg.type === "notify") showNotice(msg);
  });
}
