// The correction page: a new preview request first empties the old preview (and the
// form's last refusal), so an Apply button never outlives the values it was shown for.
(function () {
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt;
    if (!form || !form.dataset || !form.dataset.clears) return;
    var shown = document.querySelector(form.dataset.clears);
    if (shown) shown.innerHTML = "";
    var slot = form.querySelector(":scope > .refusal-slot");
    if (slot) slot.innerHTML = "";
  });
})();
