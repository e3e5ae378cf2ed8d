// The "back in a moment" page (database unreachable) reloads itself after the number of
// seconds the server gave in Retry-After, once the page is visible.
(function () {
  "use strict";
  var note = document.querySelector("[data-retry-after]");
  if (!note) return;
  var seconds = parseInt(note.dataset.retryAfter, 10) || 10;
  window.setTimeout(function () { window.location.reload(); }, seconds * 1000);
})();
