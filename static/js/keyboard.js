/* The table by keyboard (issue 23, finding 12).
 *
 * Focus after a step: after "This is me" (a boosted form: the page's body is swapped)
 * and after a hand is saved (#hand-form swapped), the focus goes to the next thing to
 * do, the hand form's first choice, not the page body (six Tab stops away).
 *
 * The card grid: one Tab stop for each grid of 52 cards (a roving tabindex); the arrow
 * keys move across and down the grid as it is laid out, Home and End go to the first and
 * last card, Space ticks the card as usual.
 */
(function () {
  "use strict";
  if (window.ginclubKeyboard) return; // a boosted swap runs the page's scripts again
  window.ginclubKeyboard = true;

  function firstChoice() {
    var form = document.querySelector("#hand-form form");
    if (!form) return null;
    return (
      form.querySelector("input[type=radio]:checked:not([disabled])") ||
      form.querySelector("input:not([type=hidden]):not([disabled]), select, textarea")
    );
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    if (!config || String(config.verb).toLowerCase() !== "post") return;
    var path = String(config.path || "");
    if (!/\/matches\/\d+\/(seat|hands)\/$/.test(path)) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.body.contains(active)) return;
    var next = firstChoice();
    if (next) next.focus();
  });

  // ------------------------------------------------------------------ the card grid

  function boxes(grid) {
    return Array.prototype.slice.call(grid.querySelectorAll("input[type=checkbox]"));
  }

  function columns(items) {
    if (!items.length) return 1;
    var top = items[0].parentElement.offsetTop;
    var count = 0;
    for (var i = 0; i < items.length; i++) {
      if (items[i].parentElement.offsetTop !== top) break;
      count++;
    }
    return Math.max(count, 1);
  }

  function rove(grid, target) {
    boxes(grid).forEach(function (box) {
      box.tabIndex = box === target ? 0 : -1;
    });
  }

  function prepare(grid) {
    if (grid.dataset.roving) return;
    grid.dataset.roving = "1";
    var items = boxes(grid);
    var start = items.filter(function (b) { return !b.disabled; })[0] || items[0];
    if (start) rove(grid, start);
    grid.addEventListener("focusin", function (event) {
      if (event.target.matches("input[type=checkbox]")) rove(grid, event.target);
    });
    grid.addEventListener("keydown", function (event) {
      var moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: "up", ArrowDown: "down", Home: "home", End: "end" };
      var move = moves[event.key];
      if (move === undefined || !event.target.matches("input[type=checkbox]")) return;
      var all = boxes(grid);
      var here = all.indexOf(event.target);
      var width = columns(all);
      var step = move === "up" ? -width : move === "down" ? width : move;
      var next = here;
      if (move === "home") next = 0;
      else if (move === "end") next = all.length - 1;
      else next = here + step;
      // a greyed-out card (the other hand holds it) is passed over in the same direction
      var direction = move === "home" ? 1 : move === "end" ? -1 : step > 0 ? 1 : -1;
      var stride = typeof step === "number" && Math.abs(step) > 1 ? step : direction;
      while (next >= 0 && next < all.length && all[next].disabled) next += stride;
      if (next < 0 || next >= all.length) return;
      event.preventDefault();
      rove(grid, all[next]);
      all[next].focus();
    });
  }

  // a card the other hand takes is greyed out: its grid keeps a Tab stop that works
  document.addEventListener("change", function () {
    Array.prototype.forEach.call(document.querySelectorAll(".cardgrid[data-roving]"), function (grid) {
      var items = boxes(grid);
      var stop = items.filter(function (b) { return b.tabIndex === 0 && !b.disabled; })[0];
      if (!stop) {
        var first = items.filter(function (b) { return !b.disabled; })[0];
        if (first) rove(grid, first);
      }
    });
  });

  function prepareAll(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope.matches && scope.matches(".cardgrid")) prepare(scope);
    Array.prototype.forEach.call(scope.querySelectorAll(".cardgrid"), prepare);
  }

  document.addEventListener("DOMContentLoaded", function () { prepareAll(document); });
  document.addEventListener("htmx:load", function (event) { prepareAll(event.detail.elt); });
})();
