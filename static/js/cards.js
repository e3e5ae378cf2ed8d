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
  document.addEventListener("DOMContentLoaded", sync);
})();
