// Polled partials (the scoreboard every 3 s, the dashboard every 5 s) are swapped whole,
// which would close a <details> the reader just opened: a tapped game total or result
// showing its arithmetic (issue 9, "every number explains itself"), a table's "More
// time…" with minutes half typed. Each <details data-keep-open="key"> that was open
// before a swap is opened again after it, with the values typed in its inputs.
(function () {
  "use strict";
  if (window.ginclubKeepOpen) return;
  window.ginclubKeepOpen = true;
  var kept = {};

  // A polled element marked data-hold-while-focused skips its poll while the reader is
  // typing inside it (a dispute reason would be swapped away). Only fields hold it: a
  // tapped button or "how?" keeps the focus until the next tap elsewhere, and holding
  // then would freeze the phone's board (a result decided meanwhile would never show);
  // opened <details> survive the swap anyway (above). Done here, not as an hx-trigger
  // filter, because filters need eval, which the site's htmx config forbids.
  var TYPING = "input:not([type=hidden]):not([type=radio]):not([type=checkbox]), textarea, select";
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-hold-while-focused")) return;
    var active = document.activeElement;
    if (active && elt.contains(active) && active.matches(TYPING)) event.preventDefault();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    kept = {};
    var target = event.detail.target;
    if (!target || !target.querySelectorAll) return;
    target.querySelectorAll("details[data-keep-open][open]").forEach(function (details) {
      var values = {};
      details.querySelectorAll("input[name]").forEach(function (input) {
        values[input.name] = input.value;
      });
      kept[details.dataset.keepOpen] = values;
    });
  });

  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("details[data-keep-open]").forEach(function (details) {
      var values = kept[details.dataset.keepOpen];
      if (!values) return;
      details.open = true;
      details.querySelectorAll("input[name]").forEach(function (input) {
        if (input.type !== "hidden" && Object.prototype.hasOwnProperty.call(values, input.name)) {
          input.value = values[input.name];
        }
      });
    });
  });
})();
