// Marquoir's service worker (served at /sw.js by marquoir.catalog.pwa, which fills CONFIG in).
//
// - Install: store the app's static files, the home pages, every game's rules page and the
//   offline page, in every language, in a cache named after a hash of all of them.
// - /static/: from the cache at once, refreshed from the network behind.
// - Pages under a language prefix (catalog, rules, tables): the network first, stored when it
//   answers 200 (less the links that hold a key: withoutKeys); the stored copy only when the
//   network does not answer at all. A table shown
//   offline is the one last seen; a table is never served from the cache while the network answers.
// - Never touched: other sites, anything but GET, the API and its event streams, /healthz,
//   htmx's fragments (they would pass for whole pages), answers other than 200.
// - A page never stored, offline: the offline page in the page's language.
"use strict";

const CONFIG = {% autoescape off %}{{ config }}{% endautoescape %};
const CACHE = CONFIG.cache;
const MAX_TABLE_PAGES = 40;
const MATCH = { ignoreVary: true };

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(CONFIG.precache.map((url) => new Request(url, { cache: "no-cache" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(CONFIG.cachePrefix) && name !== CACHE)
            .map((name) => caches.delete(name))
        )
      )
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || leftAlone(url, request)) return;
  if (url.pathname.startsWith(CONFIG.staticPrefix)) {
    event.respondWith(cacheFirst(event));
  } else if (languageOf(url)) {
    event.respondWith(networkFirst(event, url));
  } else if (request.mode === "navigate") {
    event.respondWith(networkOrOffline(request, url));
  }
});

function leftAlone(url, request) {
  const path = url.pathname;
  return (
    CONFIG.neverPrefixes.some((prefix) => path.startsWith(prefix)) ||
    CONFIG.neverSuffixes.some((suffix) => path.endsWith(suffix) || path.endsWith(suffix + "/")) ||
    (request.headers.get("Accept") || "").includes("text/event-stream") ||
    request.headers.has("HX-Request")
  );
}

// The language of a page under a language prefix (/en/…, /fr/…), or null.
function languageOf(url) {
  const first = url.pathname.split("/")[1];
  return CONFIG.languages.includes(first) ? first : null;
}

// The page's language, else the browser's first one the site speaks, else the default.
function preferredLanguage(url) {
  const wanted = [...(self.navigator.languages || [])].map((tag) => tag.toLowerCase().split("-")[0]);
  return languageOf(url) || wanted.find((code) => CONFIG.languages.includes(code)) || CONFIG.defaultLanguage;
}

function isTable(url) {
  return CONFIG.tablePrefixes.some((prefix) => url.pathname.startsWith(prefix));
}

function storable(response) {
  const control = response.headers.get("Cache-Control") || "";
  return response.status === 200 && response.type === "basic" && !response.redirected && !control.includes("no-store");
}

async function cacheFirst(event) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(event.request, MATCH);
  const fresh = fetch(event.request).then(async (response) => {
    if (storable(response)) await cache.put(event.request, response.clone());
    return response;
  });
  if (!cached) return fresh;
  event.waitUntil(fresh.catch(() => undefined));
  return cached;
}

async function networkFirst(event, url) {
  const request = event.request;
  const cache = await caches.open(CACHE);
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    const cached =
      (await cache.match(request.url, MATCH)) ||
      (isTable(url) ? await cache.match(url.origin + url.pathname, { ...MATCH, ignoreSearch: true }) : undefined);
    return cached || offlinePage(request, url);
  }
  if (storable(response)) {
    const copy = response.clone();
    event.waitUntil(
      withoutKeys(copy)
        .then((kept) => cache.put(request.url, kept))
        .then(() => (isTable(url) ? trimTables(cache) : undefined))
    );
  }
  return response;
}

// A page as it is stored: what the server marked as holding a key (a table's keep-score
// link with its edit token, a group's change link) is left out, so that no copy of a key
// outlives the page on the phone. Offline, the page reads as it was, less those links.
const KEY_MARKS = /<!--marquoir:key-->[\s\S]*?<!--\/marquoir:key-->/g;

async function withoutKeys(response) {
  if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) return response;
  const text = await response.text();
  return new Response(text.replace(KEY_MARKS, ""), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

// Outside the language prefixes (the bare root, mostly): the network, else the home page or
// the offline page in the browser's language.
async function networkOrOffline(request, url) {
  try {
    return await fetch(request);
  } catch (offline) {
    const home = CONFIG.homes[preferredLanguage(url)];
    if (url.pathname === "/" && (await stored(home))) return Response.redirect(home, 302);
    return offlinePage(request, url);
  }
}

async function offlinePage(request, url) {
  if (request.mode === "navigate" || request.destination === "document") {
    const page = await stored(CONFIG.offline[preferredLanguage(url)]);
    if (page) return page;
  }
  return Response.error();
}

function stored(url) {
  return caches.open(CACHE).then((cache) => cache.match(url, MATCH));
}

// Keep the latest table pages only (the cache lists them in the order they were stored).
async function trimTables(cache) {
  const tables = (await cache.keys()).filter((request) => isTable(new URL(request.url)));
  await Promise.all(tables.slice(0, Math.max(0, tables.length - MAX_TABLE_PAGES)).map((old) => cache.delete(old)));
}
