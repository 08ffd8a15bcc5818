/* polotrainer's service worker, written by hand (no build step, no CDN; the page's own code keeps
   the outbox, so nothing here needs Background Sync, which Safari lacks).

   Keeps: the offline practice page in both languages and the static files, fetched when it
   installs (version {{ version }}); the rulebook reader in both languages once the offline
   page asks (a pack downloaded: polotrainer/offline/worker.py says why not at install); each
   rulebook page read online. Serves: static files from
   its cache; rulebook pages from the network, falling back to its copy; practice pages from
   the network, falling back to the offline practice page, which answers from the packs the
   page stored. Everything else goes to the network untouched; a POST is never answered here. */
"use strict";

const VERSION = "{{ version }}";
const SHELL = "shell-" + VERSION;
const PAGES = "pages";  // rulebook pages, kept across versions (refreshed when read online)
const PRECACHE = {{ precache|safe }};
const RULEBOOK = {{ rulebook|safe }};
const KEPT = "/offline/rulebook-kept";  // in PAGES: the version that last kept the rulebook
const LANGUAGES = {{ languages|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    // One by one and best effort: a page that fails now is fetched again on the next visit.
    await Promise.allSettled(PRECACHE.map((url) => cache.add(new Request(url, { credentials: "omit" }))));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("shell-") && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function language(url) {
  const first = url.pathname.split("/")[1];
  return LANGUAGES.includes(first) ? first : LANGUAGES[0];
}

function isPractice(url) {
  return /^\/[a-z]{2}\/(practice|review|offline)(\/|$)/.test(url.pathname);
}

function isRulebook(url) {
  return /^\/[a-z]{2}\/(rules|glossary)(\/|$)/.test(url.pathname);
}

async function fromCache(request) {
  return (await caches.match(request, { ignoreSearch: true, ignoreVary: true })) || null;
}

async function offlinePage(url) {
  return fromCache(new Request("/" + language(url) + "/offline/"));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith((async () => {
      const hit = await fromCache(request);
      if (hit) return hit;
      const response = await fetch(request);
      if (response.ok) (await caches.open(SHELL)).put(request, response.clone());
      return response;
    })());
    return;
  }
  if (request.mode !== "navigate") return;
  event.respondWith((async () => {
    try {
      const response = await fetch(request);
      if (response.ok && (isRulebook(url) || url.pathname === "/" + language(url) + "/offline/")) {
        const copy = response.clone();
        const cache = await caches.open(isRulebook(url) ? PAGES : SHELL);
        await cache.put(new Request(url.origin + url.pathname), copy);
      }
      return response;
    } catch (error) {
      if (isRulebook(url)) {
        const copy = await fromCache(new Request(url.origin + url.pathname));
        if (copy) return copy;
      }
      const page = await offlinePage(url);
      if (page) return page;
      throw error;
    }
  })());
});

/* The exam page says when a closed-book attempt runs: offline grading stops until then. The
   offline page asks for the rulebook once a pack is downloaded. */
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "hold" && typeof data.until === "number") {
    event.waitUntil(storeHold(data.until));
  } else if (data.type === "keep-rulebook") {
    event.waitUntil(keepRulebook());
  }
});

/* One page at a time (the server may be a club's laptop), each page once a version: a page
   already kept is fetched again only after a deploy changed this worker. No signal: stop, the
   next pack downloaded tries again. */
async function keepRulebook() {
  const cache = await caches.open(PAGES);
  const marker = await cache.match(KEPT);
  const current = marker !== undefined && (await marker.text()) === VERSION;
  for (const url of RULEBOOK) {
    if (current && (await cache.match(url))) continue;
    try {
      const response = await fetch(new Request(url, { credentials: "omit" }));
      if (response.ok) await cache.put(url, response);
    } catch (error) {
      return;
    }
  }
  await cache.put(KEPT, new Response(VERSION));
}

function storeHold(until) {
  return new Promise((resolve) => {
    const open = indexedDB.open("polotrainer-offline", 1);
    open.onupgradeneeded = () => upgrade(open.result);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction("settings", "readwrite");
      tx.objectStore("settings").put({ key: "hold", until: until });
      tx.oncomplete = () => { db.close(); resolve(); };
      tx.onerror = () => { db.close(); resolve(); };
    };
    open.onerror = () => resolve();
  });
}

function upgrade(db) {
  for (const [name, key] of [["packs", "id"], ["outbox", "id"], ["answered", "token"], ["settings", "key"]]) {
    if (!db.objectStoreNames.contains(name)) db.createObjectStore(name, { keyPath: key });
  }
}
