// The service worker of the match page (served from /sw.js by scoring/views_offline.py,
// which puts `self.GINCLUB = {version, assets, static}` above this file).
// - Match pages (/matches/<id>/): network first, so a phone online always sees the table
//   as it is; the last copy this browser fetched is the fallback when the network fails.
//   Only this browser's own answers are kept, and "Not you?" or logging out forgets them.
// - Static files: stored when the worker installs, refreshed whenever they load online.
// - Everything else (polls, forms, the API, other pages) goes to the network untouched.
// Entries typed offline are not the worker's business: static/js/offline.js queues them.
"use strict";
var CONFIG = self.GINCLUB;
var ASSETS = "ginclub-assets-" + CONFIG.version;
var PAGES = "ginclub-pages-" + CONFIG.version;
var MATCH_PAGE = /^\/matches\/\d+\/$/;
var FORGET = /^\/(accounts\/logout|matches\/\d+\/seat\/leave)\/$/;
var PAGE_TIMEOUT_MS = 6000;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(ASSETS).then(function (cache) {
    // one missing file must not stop the others being stored
    return Promise.all(CONFIG.assets.map(function (url) {
      return cache.add(new Request(url, { cache: "reload" })).catch(function () {});
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("ginclub-") === 0 && name !== ASSETS && name !== PAGES;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function keepPage(url, response) {
  if (response.ok && !response.redirected &&
      (response.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
    var copy = response.clone();
    return caches.open(PAGES).then(function (cache) { return cache.put(url, copy); });
  }
  // refused now (a withdrawn table link, a seat given up): the old copy must go too
  return caches.open(PAGES).then(function (cache) { return cache.delete(url); });
}

// The words of that page come in the config, one set per language (views_offline.py);
// the worker has no request to ask, so the phone's own language chooses.
function offlineWords() {
  var sets = CONFIG.offline || {};
  var wanted = (self.navigator && self.navigator.language || "en").toLowerCase();
  var codes = Object.keys(sets);
  for (var i = 0; i < codes.length; i++) {
    if (wanted === codes[i] || wanted.split("-")[0] === codes[i].split("-")[0]) {
      return { lang: codes[i], words: sets[codes[i]] };
    }
  }
  return { lang: codes[0] || "en", words: sets[codes[0]] || {} };
}

function escaped(text) {
  return String(text || "").replace(/[&<>"]/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
  });
}

function offlinePage() {
  var chosen = offlineWords();
  var words = chosen.words;
  var html = '<!doctype html><html lang="' + escaped(chosen.lang) + '"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    "<title>" + escaped(words.title) + "</title></head><body><main><h1>" + escaped(words.heading) +
    "</h1><p>" + escaped(words.text) + "</p></main></body></html>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function cachedPage(url) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(url).then(function (hit) {
      return hit || cache.match(url, { ignoreSearch: true });
    });
  });
}

function page(event, url) {
  var network = fetch(event.request).then(function (response) {
    event.waitUntil(keepPage(url.href, response));
    return response;
  });
  var slow = new Promise(function (resolve) {
    setTimeout(function () { cachedPage(url.href).then(resolve); }, PAGE_TIMEOUT_MS);
  });
  // a Wi-Fi that hangs rather than fails: the kept copy after a few seconds
  return Promise.race([network, slow.then(function (hit) { return hit || network; })])
    .catch(function () {
      return cachedPage(url.href).then(function (hit) { return hit || offlinePage(); });
    });
}

function asset(event) {
  return fetch(event.request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      event.waitUntil(caches.open(ASSETS).then(function (cache) { return cache.put(event.request, copy); }));
    }
    return response;
  }).catch(function () {
    return caches.match(event.request, { ignoreSearch: true }).then(function (hit) {
      return hit || Response.error();
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && FORGET.test(url.pathname)) {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && MATCH_PAGE.test(url.pathname)) {
    event.respondWith(page(event, url));
  } else if (url.pathname.indexOf(CONFIG.static) === 0) {
    event.respondWith(asset(event));
  }
});

// The page asks for its own address to be kept (after a PIN, or when the table changed):
// fetched here with this browser's session, exactly as a reload would.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.keep && MATCH_PAGE.test(new URL(data.keep, self.location.origin).pathname)) {
    var url = new URL(data.keep, self.location.origin).href;
    event.waitUntil(fetch(url, { credentials: "same-origin" }).then(function (response) {
      return keepPage(url, response);
    }).then(function () {
      if (event.source) event.source.postMessage({ kept: url });
    }).catch(function () {}));
  }
});
