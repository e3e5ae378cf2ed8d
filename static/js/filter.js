// A search box that narrows a long list as you type: <input data-filter="#list"> hides
// the list's items whose text does not contain what was typed (case and accents
// ignored); an element with data-filter-empty="#list" shows when nothing matches.
(function () {
  "use strict";
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function apply(input) {
    var list = document.querySelector(input.dataset.filter);
    if (!list) return;
    var query = fold(input.value.trim());
    var shown = 0;
    Array.prototype.forEach.call(list.children, function (item) {
      var name = item.querySelector("strong") || item;
      var match = !query || fold(name.textContent).indexOf(query) !== -1;
      item.hidden = !match;
      if (match) shown += 1;
    });
    var empty = document.querySelector('[data-filter-empty="' + input.dataset.filter + '"]');
    if (empty) empty.hidden = shown > 0 || !query;
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[data-filter]")) apply(event.target);
  });
  function applyAll() {
    document.querySelectorAll("input[data-filter]").forEach(apply);
  }
  // after htmx swaps a row (a check-in), keep the filter applied
  document.addEventListener("htmx:afterSettle", applyAll);
  // what was typed before this script ran (it is deferred) counts too
  applyAll();
})();
