// Kibic's service worker: the page itself opens without network (where the browser allows a service worker:
// HTTPS, or this machine). The server fills in the page's files and a version made from their contents.
// The page and its files come from the network when it answers (so a new version is used at once), and from
// the copy kept here when it does not. The API is never answered from here: entries made offline wait in
// the page's own outbox.

const FILES = []; // filled in by the server
const VERSION = ""; // filled in by the server
const CACHE = `kibic-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("kibic-") && name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  const page = event.request.mode === "navigate";
  if (!page && !url.pathname.includes("/static/")) return; // the API: always the network
  event.respondWith(fetch(event.request).catch(async () => {
    const kept = await caches.match(page ? new URL("./", self.location).href : event.request, { ignoreSearch: page });
    return kept || Response.error();
  }));
});
