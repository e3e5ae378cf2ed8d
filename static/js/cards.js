// Steppers for deadwood, and greying out a card already tapped in the other hand.
(function () {
  function clamp(v) { return Math.max(0, Math.min(98, v)); }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-step]");
    if (!btn) return;
    var input = document.getElementById(btn.dataset.for);
    input.value = clamp((parseInt(input.value, 10) || 0) + parseInt(btn.dataset.step, 10));
  });
  function sync() {
    var grids = document.querySelectorAll(".cardgrid");
    if (grids.length !== 2) return;
    [[grids[0], grids[1]], [grids[1], grids[0]]].forEach(function (pair) {
      pair[0].querySelectorAll("input").forEach(function (box) {
        var twin = pair[1].querySelector('input[value="' + box.value + '"]');
        box.disabled = !!(twin && twin.checked);
      });
    });
  }
  document.addEventListener("change", function (e) { if (e.target.closest(".cardgrid")) sync(); });
  document.addEventListener("htmx:afterSwap", sync);

  // A pristine hand form follows the table: when the scoreboard shows that the next hand
  // (or game) has moved on, say because the opponent entered one, fetch a fresh form. A
  // form the player has started filling in is never replaced.
  function touched(e) {
    var form = e.target.closest && e.target.closest("#hand-entry");
    if (form) form.dataset.dirty = "1";
  }
  document.addEventListener("input", touched);
  document.addEventListener("change", touched);
  document.addEventListener("htmx:afterSwap", function () {
    var board = document.getElementById("scoreboard");
    var section = document.getElementById("hand-form");
    var form = document.getElementById("hand-entry");
    if (!board || !section || !form || form.dataset.dirty || !board.dataset.nextHand) return;
    var number = form.querySelector('[name="number"]');
    var game = form.querySelector('[name="game"]');
    if (number.value !== board.dataset.nextHand || game.value !== board.dataset.game) {
      htmx.trigger(section, "stale");
    }
  });
  document.addEventListener("DOMContentLoaded", sync);
})();
