// Club Wi-Fi drops. When an htmx request cannot reach the server (or the server fails),
// say so plainly instead of leaving a tap that seemingly did nothing; the forms keep their
// idempotency keys, so tapping again is always safe. The banner clears itself on the next
// request that gets through (the scoreboard polls every few seconds).
(function () {
  // in the page's language (static/js/words.js; English if it is missing)
  function say(text) { return window.ginclubWords ? window.ginclubWords.t(text) : text; }
  function banner() { return document.getElementById("connection"); }
  function show(text) {
    var el = banner();
    if (!el) return;
    el.textContent = say(text);
    el.hidden = false;
  }
  // On the match page entries are kept on the phone and sent later (offline.js marks the
  // request queued): say so, not that it was lost.
  var KEPT = "No connection: what you save is kept on this phone and sent by itself when the connection returns.";
  function queues() { return !!document.querySelector("#offline-queue[data-who]:not([data-who=''])"); }
  document.addEventListener("htmx:sendError", function (e) {
    if (e.detail.queued || queues()) return show(KEPT);
    show("No connection: nothing was saved. Check the Wi-Fi and tap again.");
  });
  // 503 (the database is unreachable) and a proxy's 502/504 are a lost connection too.
  var OFFLINE = { 502: true, 503: true, 504: true };
  document.addEventListener("htmx:responseError", function (e) {
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (OFFLINE[status] && (e.detail.queued || queues())) {
      show(KEPT);
    } else if (OFFLINE[status]) {
      show("Server busy or offline: nothing was saved. Tap again in a moment.");
    } else if (status >= 500) {
      show("The server had a problem: nothing was saved. Tap again in a moment.");
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful && banner()) banner().hidden = true;
  });
})();
