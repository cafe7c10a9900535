// The page offline: once opened, it keeps working without a network, its repairs and rules pages
// included. At install every file of the build is cached (the list and the build's version are
// written into this file by web/tools/offline.mjs, so a new build is a new worker). The page's
// requests go to the network first, so that an online page is always the newest build, and to
// the cache when the network fails.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = `referee-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('referee-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    try {
      const response = await fetch(request);
      if (response.ok) {
        const cache = await caches.open(CACHE);
        await cache.put(request, response.clone());
      }
      return response;
    } catch (offline) {
      const cached = await caches.match(request, { ignoreSearch: true });
      if (cached) return cached;
      throw offline;
    }
  })());
});
