// The tables' service worker (docs/offline.md): it keeps the last copy of each table's page and
// the files it uses, and serves them when the network does not answer. Browsers allow one only
// on https or on this machine; the moves themselves are kept by offline.js, with or without it.
// Posts (the moves) always go to the network: only the server says whether a move is stored.
"use strict";
var CACHE = "tournament-tables-1";
var ASSETS = ["/static/web.css", "/static/live.js", "/static/offline.js"];
var PATIENCE = 4000; // ms a page waits for the network before the copy kept is shown

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(ASSETS); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function fromNetwork(request, key) {
  return new Promise(function (resolve, reject) {
    var late = setTimeout(function () { reject(new Error("no answer")); }, PATIENCE);
    fetch(request).then(function (response) {
      clearTimeout(late);
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (c) { return c.put(key, copy); });
      }
      resolve(response);
    }, function (e) { clearTimeout(late); reject(e); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  var page = /^\/table\/[^/]+$/.test(url.pathname) && url.pathname !== "/table/sw.js";
  if (!page && ASSETS.indexOf(url.pathname) < 0) return;
  event.respondWith(fromNetwork(request, url.pathname).catch(function () {
    return caches.match(url.pathname).then(function (kept) { return kept || Response.error(); });
  }));
});
