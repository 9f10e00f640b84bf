// The field app's service worker (fogkeeper/web/field/app.py): keeps the field pages and their
// static files in the browser's cache, so that the inspection form opens without a network.
// Pages: the network first, the cache when there is none. Static files: the cache first.
// The route and the inspections waiting to be sent are the page's, in IndexedDB.
"use strict";
const CACHE = "fogkeeper-field-{{ release }}";
const PAGES = {{ pages|safe }};
const STATIC = {{ static|safe }};
const STATIC_PREFIX = {{ static_prefix|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(STATIC);
    await Promise.all(PAGES.map((url) => keepPage(cache, url)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("fogkeeper-field-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith(STATIC_PREFIX)) event.respondWith(staticFile(request));
  // anything else (the route, the sync) goes to the network as it is
});

// A page as the signed-in person gets it, kept by its path (whatever its query): never a
// redirect (to the sign-in page) or an error.
async function keepPage(cache, url) {
  try {
    const response = await fetch(url, { credentials: "same-origin", redirect: "manual" });
    if (response.ok && response.type === "basic") await cache.put(pathOf(url), response);
  } catch (error) {
    // offline while installing: the page is kept the next time it is opened online
  }
}

function pathOf(url) {
  return new URL(url, self.location.origin).pathname;
}

async function page(request) {
  const cache = await caches.open(CACHE);
  const path = pathOf(request.url);
  try {
    const response = await fetch(request);
    if (PAGES.includes(path) && response.ok && !response.redirected) {
      await cache.put(path, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await cache.match(path);
    return kept || new Response(
      "<!doctype html><title>Offline</title><h1>Offline</h1>" +
      "<p>This page was not kept on this device. The inspections offline are at " +
      `<a href="${PAGES[0]}">${PAGES[0]}</a>.</p>`,
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } },
    );
  }
}

async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}
