/**
 * The service worker (served at `/sw.js`, scope `/`): shows the Web Push notifications the
 * server sends (`{"title", "body", "url", "kind", "tag"}`, encrypted for this browser) and
 * opens their page when one is clicked (a tab of the site already open goes there).
 * A notification replaces an earlier one with the same `tag` (the browser notification of
 * an open tab uses the same tag, so a device never shows one notice twice).
 */

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: "Splendor", body: event.data ? event.data.text() : "" };
  }
  const title = message.title || "Splendor";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: message.body || "",
      tag: message.tag || undefined,
      data: { url: message.url || "/" },
      renotify: Boolean(message.tag),
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return; // only the site's own pages
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const tab of tabs) {
        if (new URL(tab.url).origin === url.origin && "navigate" in tab) {
          await tab.focus();
          return tab.navigate(url.href);
        }
      }
      return self.clients.openWindow(url.href);
    })(),
  );
});
